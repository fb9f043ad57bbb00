"""A failed command inside a transaction is undone on a stream the transaction had
already written to, on every backend: what the transaction staged before it stays, and
what follows lands at the right versions."""

from __future__ import annotations

import pytest

from memory_es import MemoryStore, NotFound
from memory_es.domain import control
from tests.contracts.conftest import Backend
from tests.fakes import FakeClock

T = "acme"


def healthy(store: MemoryStore) -> None:
    report = store.audit_verify()
    assert report.ok, report.problems


def test_a_command_failing_after_it_emitted_keeps_what_the_transaction_staged_before(
        backend: Backend, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    """A supersede whose cascade breaks, on an entity the transaction wrote to before,
    stages none of its events; the writes before and after it commit, in order, with
    hash chains that verify."""
    store = backend.open(clock)
    premise = store.assert_fact(T, "user:alex", "home.city", "Detroit").fact_id or ""
    store.assert_fact(T, "user:alex", "home.timezone", "America/Detroit",
                      asserted_by="inference", derived_from=[premise])

    def broken(*args: object, **kwargs: object) -> list[object]:
        raise RuntimeError("cascade failed")

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
