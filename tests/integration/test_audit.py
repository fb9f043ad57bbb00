"""Write receipts that survive the caller's failure (issue 6), on the embedded store.

A forget with an idempotency key, then the caller fails: (a) it raises after the call
returned, (b) its process is killed with SIGKILL right after the forget returned, or
(c) inside the commit, after the log accepted the events but before the receipt came
back. On restart the forget is durable, a retry with the same key changes nothing, and
the receipt is retrievable by its key. The PostgreSQL variant and the other audit
tests (replay against as_of, tampering, consumption log) run on both backends in
``tests/contracts/test_audit_contract.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import StoreFactory
from tests.failures import WHEN, check_forget_survived, forget_then_die
from tests.receipts import fact_id_of

T = "acme"


def test_forget_survives_an_exception_after_it_returned(store_factory: StoreFactory,
                                                        store_path: Path) -> None:
    """A caller that raises after forget returned does not undo it: after a reopen the
    forget is durable and a retry with its key returns the same receipt, appending nothing."""
    store = store_factory()
    gone = store.assert_fact(T, "user:alex", "home.city", "Detroit")
    kept = store.assert_fact(T, "user:bob", "home.city", "Boston")
    first = None
    with pytest.raises(RuntimeError, match="model reply failed"):
        first = store.forget_fact(fact_id_of(gone), idempotency_key="forget-alex")
        raise RuntimeError("model reply failed")
    assert first is not None and not first.idempotent_replay
    store.close()
    check_forget_survived(store_factory(store_path), T, fact_id_of(gone), "forget-alex", first,
                          fact_id_of(kept))


@pytest.mark.parametrize("when", WHEN)
def test_forget_survives_sigkill_right_after_commit(store_factory: StoreFactory,
                                                    store_path: Path, when: str) -> None:
    """A process killed right after its forget committed (after the call returned, or
    before the receipt reached it) leaves a durable forget whose receipt the key retrieves."""
    store = store_factory()
    gone = store.assert_fact(T, "user:alex", "home.city", "Detroit")
    kept = store.assert_fact(T, "user:bob", "home.city", "Boston")
    head = store.log_position()
    store.close()  # one process at a time owns the views file
    first = forget_then_die({"path": str(store_path)}, fact_id_of(gone), "forget-alex", when)
    reopened = store_factory(store_path, clock=None)
    assert reopened.log_position() == head + 2  # the forget and its acknowledgement
    retried = check_forget_survived(reopened, T, fact_id_of(gone), "forget-alex", first,
                                    fact_id_of(kept))
    assert retried.position == head + 1


def test_history_of_a_purged_fact_shows_typed_placeholders(tmp_path: Path) -> None:
    """After a purge, history lists the fact's stream with shredded placeholders and the purge."""
    import memory_es
    from memory_es.services.audit import SHREDDED

    with memory_es.open(tmp_path / "m") as store:
        first = store.assert_fact("acme", "user:a", "x.y", "v1")
        store.supersede("acme", "user:a", "x.y", "v2")
        store.purge("acme", "user:a")
        entries = store.history("acme", fact_id_of(first))
        assert [e.op for e in entries] == ["FactAsserted", "FactSuperseded", "EntityPurged"]
        assert all(e.shredded and e.value == SHREDDED for e in entries[:2])
        assert entries[2].fact_ids == [first.fact_id] and entries[2].state == "deleted"
        assert "v1" not in str([e.model_dump() for e in entries])
