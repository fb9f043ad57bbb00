"""A unit of work cannot corrupt a stream, on every backend.

A ``Transaction`` is usable only inside its ``with`` block; an exception inside the
block, caught or not, leaves nothing of the failed operation in the log, the caches or
the views; and every stream stays writable after a reopen.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from memory_es import ConflictError, InvalidInput, MemoryStore, NotFound, StoreClosed
from memory_es.domain import control
from tests.contracts.conftest import Backend
from tests.fakes import FakeClock

T = "acme"


def healthy(store: MemoryStore) -> None:
    report = store.audit_verify()
    assert report.ok, report.problems


def test_transaction_used_after_its_block_raises_and_writes_nothing(
        backend: Backend, clock: FakeClock) -> None:
    """A write on a transaction whose block has ended raises StoreClosed and appends nothing."""
    store = backend.open(clock)
    with store.transact() as tx:
        tx.assert_fact(T, "user:alex", "home.city", "Detroit")
    head = store.log_position()
    stale: Callable[[], object]
    for stale in (lambda: tx.assert_fact(T, "user:alex", "pref.color", "green"),
                  lambda: tx.supersede(T, "user:alex", "home.city", "Chicago"),
                  lambda: tx.forget_entity(T, "user:alex")):
        with pytest.raises(StoreClosed):
            stale()
    assert store.log_position() == head
    assert [f.value for f in store.current(T, entity="user:alex")] == ["Detroit"]


def test_stream_stays_writable_after_a_stale_transaction_and_a_reopen(
        backend: Backend, clock: FakeClock) -> None:
    """After a refused stale write, the next real writes land at the right versions, the
    hash chains verify, and the entity is writable again after a reopen."""
    store = backend.open(clock)
    with store.transact() as tx:
        tx.assert_fact(T, "user:alex", "home.city", "Detroit")
    with pytest.raises(StoreClosed):
        tx.assert_fact(T, "user:alex", "pref.color", "green")
    store.supersede(T, "user:alex", "home.city", "Chicago")
    healthy(store)
    store.close()
    again = backend.open(clock)
    again.supersede(T, "user:alex", "home.city", "Evanston")
    assert [f.value for f in again.current(T, entity="user:alex")] == ["Evanston"]
    healthy(again)


def test_error_raised_out_of_the_block_leaves_no_trace(
        backend: Backend, clock: FakeClock) -> None:
    """An exception that leaves the block appends nothing and changes no read."""
    store = backend.open(clock)
    store.assert_fact(T, "user:alex", "home.city", "Detroit")
    head, before = store.log_position(), store.table("fact_versions").num_rows
    with pytest.raises(RuntimeError), store.transact() as tx:
        tx.supersede(T, "user:alex", "home.city", "Chicago")
        tx.assert_fact(T, "user:bea", "home.city", "Oslo")
        raise RuntimeError("the agent's reply failed")
    assert store.log_position() == head
    assert store.table("fact_versions").num_rows == before
    assert [f.value for f in store.current(T, entity="user:alex")] == ["Detroit"]
    assert store.current(T, entity="user:bea") == []
    store.supersede(T, "user:alex", "home.city", "Boston")
    healthy(store)


def test_error_caught_inside_the_block_commits_only_the_operations_that_succeeded(
        backend: Backend, clock: FakeClock) -> None:
    """A failed operation inside a transaction stages nothing, even when the caller catches
    its error and the block commits the other operations."""
    store = backend.open(clock)
    store.assert_fact(T, "user:alex", "home.city", "Detroit")
    with store.transact() as tx:
        tx.supersede(T, "user:alex", "home.city", "Chicago")
        with pytest.raises(InvalidInput):
            tx.correct("not-a-fact-id", "x")
        with pytest.raises(InvalidInput):  # fails inside the write side, after loading
            tx.assert_fact(T, "user:alex", "pref.team", "Lions",
                           derived_from=[store.current(T)[0].fact_id],
                           interpretation={"bad": float("nan")})
        tx.assert_fact(T, "user:bea", "home.city", "Oslo")
    assert len(tx.receipts) == 2
    assert [f.value for f in store.current(T, entity="user:alex")] == ["Chicago"]
    assert [f.value for f in store.current(T, entity="user:bea")] == ["Oslo"]
    store.close()
    again = backend.open(clock)
    again.supersede(T, "user:alex", "home.city", "Boston")
    assert [f.value for f in again.current(T, entity="user:alex")] == ["Boston"]
    healthy(again)


def test_command_failing_midway_in_the_write_side_leaves_its_stream_unchanged(
        backend: Backend, clock: FakeClock) -> None:
    """A decision that raises after the unit has loaded and copied the stream (an illegal
    transition) leaves the cached state as committed: the next write is consistent."""
    store = backend.open(clock)
    r = store.assert_fact(T, "user:alex", "home.city", "Detroit")
    fact_id = r.fact_id or ""
    store.forget_fact(fact_id)
    with store.transact() as tx:
        tx.assert_fact(T, "user:alex", "pref.color", "green")
        with pytest.raises(ConflictError):
            tx.archive(fact_id)  # forgotten -> archived is not a declared transition
    store.assert_fact(T, "user:alex", "pref.team", "Lions")
    assert sorted(f.value for f in store.current(T, entity="user:alex")) == ["Lions", "green"]
    healthy(store)



def _city_and_inference(store: MemoryStore) -> str:
    """Alex's city and a timezone inferred from it (a supersede of the city cascades to
    the inference); returns the city's fact id."""
    premise = store.assert_fact(T, "user:alex", "home.city", "Detroit").fact_id or ""
    store.assert_fact(T, "user:alex", "home.timezone", "America/Detroit",
                      asserted_by="inference", derived_from=[premise])
    return premise


def broken(*args: object, **kwargs: object) -> list[object]:
    raise RuntimeError("cascade failed")


def test_failure_after_a_command_has_emitted_stages_none_of_it(
        backend: Backend, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    """When a command fails after some of its events were staged (here: its cascade to a
    derived fact breaks), a caller that catches the error commits none of that command: no
    supersede without its cascade, no orphaned inference."""
    store = backend.open(clock)
    _city_and_inference(store)
    with store.transact() as tx:
        monkeypatch.setattr(control, "decide_deprecate", broken)
        with pytest.raises(RuntimeError):
            tx.supersede(T, "user:alex", "home.city", "Chicago")
        monkeypatch.undo()
        tx.assert_fact(T, "user:bea", "home.city", "Oslo")
    assert sorted(f.value for f in store.current(T, entity="user:alex")) == [
        "America/Detroit", "Detroit"]
    store.supersede(T, "user:alex", "home.city", "Chicago")
    assert [f.value for f in store.current(T, entity="user:alex")] == ["Chicago"]
    healthy(store)


def test_a_command_failing_after_it_emitted_keeps_what_the_transaction_staged_before(
        backend: Backend, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    """A supersede whose cascade breaks, on an entity the transaction wrote to before,
    stages none of its events; the writes before and after it commit, in order, with
    hash chains that verify."""
    store = backend.open(clock)
    premise = _city_and_inference(store)
    with store.transact() as tx:
        tx.assert_fact(T, "user:alex", "pref.color", "green")
        tx.assert_fact(T, "user:alex", "pref.color", "green")  # reinforces the one above
        monkeypatch.setattr(control, "decide_deprecate", broken)
        with pytest.raises(RuntimeError):
            tx.supersede(T, "user:alex", "home.city", "Chicago")
        monkeypatch.undo()
        with pytest.raises(NotFound):
            tx.correct(premise, "Detroit, MI", tenant="other")  # wrong tenant: not found
        tx.assert_fact(T, "user:alex", "pref.team", "Lions")
    assert [r.outcome for r in tx.receipts] == ["applied", "reinforced", "applied"]
    assert sorted(f.value for f in store.current(T, entity="user:alex")) == [
        "America/Detroit", "Detroit", "Lions", "green"]
    healthy(store)
    store.close()
    again = backend.open(clock)
    again.supersede(T, "user:alex", "home.city", "Chicago")
    assert sorted(f.value for f in again.current(T, entity="user:alex")) == [
        "Chicago", "Lions", "green"]
    healthy(again)
