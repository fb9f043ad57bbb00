"""Denials (``negated`` facts) on every backend: a denial is a fact of its own slot.

``assert_fact(..., negated=True)`` says the slot does not hold the value ("Mia does not
live in Oslo"). It is stored with the positive attribute and the flag, never as an
attribute ``not.<slot>``, and every read gives the flag back: ``current``, ``as_of``,
``chain`` and ``recall``, from DuckDB and from the point-row store, and after a reopen
(from the views snapshot, and from a replay of the log when the snapshot is gone).
"""

from __future__ import annotations

import shutil
from datetime import timedelta

import memory_es
from projections.snapshot import DIRECTORY
from tests.contracts.conftest import Backend
from tests.fakes import FakeClock

T = "acme"
MIA = "user:mia"


def polarity(facts: list[memory_es.Fact]) -> set[tuple[str, object, bool]]:
    return {(f.attribute, f.value, f.negated) for f in facts}


def both_read_paths(store: memory_es.MemoryStore) -> list[set[tuple[str, object, bool]]]:
    """``current`` of Mia through the point-row store, then through DuckDB alone."""
    points = store.runtime.views.points
    served = polarity(store.current(T, entity=MIA))
    assert points.ready and points.position == store.log_position()
    was, points.ready = points.ready, False
    try:
        duck = polarity(store.current(T, entity=MIA))
    finally:
        points.ready = was
    return [served, duck]


def test_a_denial_round_trips_through_every_read(backend: Backend) -> None:
    """The flag comes back from current, as_of, chain, recall, both read paths, a reopen
    from the snapshot and a replay; a denial stands beside another value of its slot."""
    clock = FakeClock()
    store = backend.open(clock)
    bergen = store.assert_fact(T, MIA, "home.city", "Bergen")
    clock.advance(minutes=1)
    denial = store.assert_fact(T, MIA, "home.city", "Oslo", negated=True)
    assert denial.outcome == "applied" and denial.conflict_id is None
    expected = {("home.city", "Bergen", False), ("home.city", "Oslo", True)}
    assert both_read_paths(store) == [expected, expected]
    [stored] = [f for f in store.current(T, entity=MIA) if f.negated]
    assert stored.fact_id == denial.fact_id and "not Oslo" in stored.text
    assert polarity(store.as_of(T, entity=MIA)) == expected
    assert polarity(store.as_of(T, entity=MIA, known_at=bergen.recorded_at)) == {
        ("home.city", "Bergen", False)}
    chain = store.chain(T, str(bergen.fact_id))
    assert [(f.value, f.negated) for f in chain] == [("Bergen", False), ("Oslo", True)]
    hits = store.recall(T, "Mia Oslo", k=2)
    assert (denial.fact_id, True) in {(h.fact.fact_id, h.fact.negated) for h in hits}
    store.close()

    store = backend.open(clock)  # from the views snapshot
    assert both_read_paths(store) == [expected, expected]
    store.close()
    shutil.rmtree(backend.folder / DIRECTORY)
    store = backend.open(clock)  # the views replayed from the log
    assert both_read_paths(store) == [expected, expected]
    assert [(f.value, f.negated) for f in store.chain(T, str(denial.fact_id))] == [
        ("Bergen", False), ("Oslo", True)]


def test_a_fact_of_the_denied_value_ends_the_denial_and_the_other_way_round(
        backend: Backend) -> None:
    """Same value, opposite polarity: the newer ends the older over its period (it is
    kept in the chain, superseded by the newer)."""
    clock = FakeClock()
    store = backend.open(clock)
    denial = store.assert_fact(T, MIA, "diet", "meat", negated=True)
    clock.advance(minutes=1)
    eats = store.assert_fact(T, MIA, "diet", "meat")
    assert polarity(store.current(T, entity=MIA)) == {("diet", "meat", False)}
    clock.advance(minutes=1)
    again = store.assert_fact(T, MIA, "diet", "meat", negated=True)
    assert polarity(store.current(T, entity=MIA)) == {("diet", "meat", True)}
    chain = store.chain(T, str(denial.fact_id))
    assert [(f.fact_id, f.negated, f.superseded_by) for f in chain] == [
        (denial.fact_id, True, eats.fact_id), (eats.fact_id, False, again.fact_id),
        (again.fact_id, True, None)]
    past = store.as_of(T, entity=MIA, valid_at=clock.now - timedelta(seconds=30))
    assert polarity(past) == {("diet", "meat", False)}
    # the same denial again is reinforced, not a second fact
    assert store.assert_fact(T, MIA, "diet", "meat", negated=True).outcome == "reinforced"


def test_denials_of_different_values_all_stand(backend: Backend) -> None:
    """Two denials of a one-valued slot never conflict, nor does a value beside them."""
    store = backend.open()
    for city in ("Oslo", "Paris"):
        assert store.assert_fact(T, MIA, "home.city", city, negated=True).outcome == "applied"
    assert store.assert_fact(T, MIA, "home.city", "Bergen").outcome == "applied"
    assert polarity(store.current(T, entity=MIA)) == {
        ("home.city", "Oslo", True), ("home.city", "Paris", True),
        ("home.city", "Bergen", False)}
    store.supersede(T, MIA, "home.city", "Oslo")  # ends Bergen and the denial of Oslo
    assert polarity(store.current(T, entity=MIA)) == {
        ("home.city", "Paris", True), ("home.city", "Oslo", False)}
