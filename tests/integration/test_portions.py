"""SQL:2011 ``UPDATE/DELETE ... FOR PORTION OF`` through the store (§5)."""

from __future__ import annotations

import datetime as dt

import pytest

import memory_es
from tests.fakes import FakeClock, day
from tests.receipts import fact_id_of


def values_at(store: memory_es.MemoryStore, when: dt.datetime,
              known_at: dt.datetime | None = None) -> list[object]:
    return [f.value for f in store.as_of("acme", valid_at=when, known_at=known_at,
                                         entity="user:alex", attribute="home.city")]


def timeline(store: memory_es.MemoryStore, days: range) -> list[list[object]]:
    return [values_at(store, day(n)) for n in days]


@pytest.fixture
def detroit(fresh_store: memory_es.MemoryStore, clock: FakeClock) -> memory_es.Receipt:
    """user:alex home.city = Detroit over [day 10, day 20), then one hour passes."""
    receipt = fresh_store.assert_fact("acme", "user:alex", "home.city", "Detroit",
                                      valid_from=day(10), valid_until=day(20))
    clock.advance(hours=1)
    return receipt


def test_supersede_trims_left(fresh_store: memory_es.MemoryStore,
                              detroit: memory_es.Receipt) -> None:
    """A new value over [5, 13) leaves the old fact only on [13, 20), under the same id."""
    new = fresh_store.supersede("acme", "user:alex", "home.city", "Chicago",
                                valid_from=day(5), valid_until=day(13))
    assert timeline(fresh_store, range(4, 21)) == (
        [[]] + [["Chicago"]] * 8 + [["Detroit"]] * 7 + [[]])
    old = fresh_store.as_of("acme", valid_at=day(15), entity="user:alex")
    assert [(f.fact_id, f.valid_from, f.valid_until, f.superseded_by) for f in old] == [
        (detroit.fact_id, day(13), day(20), new.fact_id)]


def test_supersede_trims_right(fresh_store: memory_es.MemoryStore,
                               detroit: memory_es.Receipt) -> None:
    """A new value from day 15 on leaves the old fact only on [10, 15)."""
    fresh_store.supersede("acme", "user:alex", "home.city", "Chicago", valid_from=day(15))
    assert timeline(fresh_store, range(9, 25)) == (
        [[]] + [["Detroit"]] * 5 + [["Chicago"]] * 10)
    kept = fresh_store.as_of("acme", valid_at=day(12), entity="user:alex")
    assert [(f.fact_id, f.valid_until) for f in kept] == [(detroit.fact_id, day(15))]


def test_supersede_splits_in_the_middle(fresh_store: memory_es.MemoryStore,
                                        detroit: memory_es.Receipt) -> None:
    """A new value over [12, 15) splits the old fact into [10, 12) and [15, 20), one id."""
    fresh_store.supersede("acme", "user:alex", "home.city", "Chicago",
                          valid_from=day(12), valid_until=day(15))
    assert timeline(fresh_store, range(10, 21)) == (
        [["Detroit"]] * 2 + [["Chicago"]] * 3 + [["Detroit"]] * 5 + [[]])
    present = fresh_store.table("fact_versions").to_pylist()
    portions = sorted((r["valid_from"], r["valid_until"]) for r in present
                      if r["fact_id"] == detroit.fact_id and r["recorded_until"] is None)
    assert portions == [(day(10), day(12)), (day(15), day(20))]


def test_supersede_removes_a_prior_wholly_inside_the_period(
    fresh_store: memory_es.MemoryStore, detroit: memory_es.Receipt,
) -> None:
    """A prior inside the period leaves present belief entirely (and current)."""
    fresh_store.supersede("acme", "user:alex", "home.city", "Chicago",
                          valid_from=day(0), valid_until=day(30))
    assert timeline(fresh_store, range(30)) == [["Chicago"]] * 30
    assert detroit.fact_id not in {f.fact_id for f in fresh_store.as_of("acme", valid_at=day(15))}


def test_the_old_belief_stays_visible_as_of_before_the_change(
    fresh_store: memory_es.MemoryStore, detroit: memory_es.Receipt, clock: FakeClock,
) -> None:
    """A supersede closes versions in transaction time only: as of before it, Detroit."""
    before = clock()
    clock.advance(hours=1)
    fresh_store.supersede("acme", "user:alex", "home.city", "Chicago",
                          valid_from=day(0), valid_until=day(30))
    assert values_at(fresh_store, day(15), known_at=before) == ["Detroit"]
    assert values_at(fresh_store, day(15)) == ["Chicago"]


@pytest.mark.parametrize(("start", "end", "expected"), [
    (day(5), day(13), [[]] * 8 + [["Detroit"]] * 7),                       # trim left
    (day(15), None, [[]] * 5 + [["Detroit"]] * 5 + [[]] * 5),               # trim right
    (day(12), day(15), [[]] * 5 + [["Detroit"]] * 2 + [[]] * 3 + [["Detroit"]] * 5),  # split
    (None, None, [[]] * 15),                                                # whole removal
    (day(10), day(20), [[]] * 15),                                          # exactly the fact
])
def test_retract_removes_exactly_the_period(
    fresh_store: memory_es.MemoryStore, detroit: memory_es.Receipt,
    start: dt.datetime | None, end: dt.datetime | None, expected: list[list[object]],
) -> None:
    """DELETE FOR PORTION OF: the period reads empty and the rest is untouched."""
    receipt = fresh_store.retract("acme", "user:alex", "home.city",
                                  valid_from=start, valid_until=end)
    assert receipt.outcome == "applied"
    assert timeline(fresh_store, range(5, 20)) == expected
    remaining = {f.fact_id for n in range(5, 20) for f in fresh_store.as_of(
        "acme", valid_at=day(n), entity="user:alex")}
    assert remaining <= {detroit.fact_id}


def test_retract_touches_only_the_named_slot(fresh_store: memory_es.MemoryStore,
                                             detroit: memory_es.Receipt) -> None:
    """Other attributes and other entities keep their values through a retract."""
    fresh_store.assert_fact("acme", "user:alex", "pref.browser", "Firefox", valid_from=day(10))
    fresh_store.assert_fact("acme", "user:alexandra", "home.city", "Oslo", valid_from=day(10))
    fresh_store.retract("acme", "user:alex", "home.city")
    left = {(f.entity, f.attribute, f.value) for f in fresh_store.as_of("acme", valid_at=day(15))}
    assert left == {("user:alex", "pref.browser", "Firefox"),
                    ("user:alexandra", "home.city", "Oslo")}


def test_retract_of_an_empty_period_is_a_noop(fresh_store: memory_es.MemoryStore,
                                               detroit: memory_es.Receipt) -> None:
    """Retracting where the slot holds nothing changes nothing."""
    receipt = fresh_store.retract("acme", "user:alex", "home.city",
                                  valid_from=day(20), valid_until=day(25))
    assert receipt.outcome == "noop"
    assert timeline(fresh_store, range(10, 20)) == [["Detroit"]] * 10


def test_correct_keeps_the_interval_and_the_past_belief(
    fresh_store: memory_es.MemoryStore, detroit: memory_es.Receipt, clock: FakeClock,
) -> None:
    """A correction replaces the value over the same interval; as of before it, the old."""
    before = clock()
    clock.advance(hours=1)
    fresh_store.correct(fact_id_of(detroit), "Detroit, MI", reason="fuller name")
    [now] = fresh_store.as_of("acme", valid_at=day(12), entity="user:alex")
    assert (now.fact_id, now.value, now.valid_from, now.valid_until) == (
        detroit.fact_id, "Detroit, MI", day(10), day(20))
    assert values_at(fresh_store, day(12), known_at=before) == ["Detroit"]


def test_decay_closes_validity_and_keeps_the_row(
    fresh_store: memory_es.MemoryStore, clock: FakeClock,
) -> None:
    """Decay (default: now) takes the fact out of current without deleting it."""
    r = fresh_store.assert_fact("acme", "user:alex", "session.otp", "123456",
                                valid_from=clock() - dt.timedelta(days=1))
    clock.advance(minutes=5)
    fresh_store.decay(fact_id_of(r))
    assert fresh_store.current("acme", entity="user:alex") == []
    rows = [row for row in fresh_store.table("fact_versions").to_pylist()
            if row["fact_id"] == r.fact_id]
    assert len(rows) == 2
    assert {row["state"] for row in rows} == {"active"}
    assert [row["valid_until"] for row in rows if row["recorded_until"] is None] == [clock()]
