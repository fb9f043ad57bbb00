"""A unit of work keeps what its receipts are made of, not the receipts it handed out."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.models import Receipt
from memory_es.write.service import Staging

T0 = datetime(2024, 1, 1, tzinfo=UTC)
VALUES = ["Oslo", "Bergen", "Oslo", "Tromsø"]


def _staging(tx: memory_es.store.Transaction) -> Staging:
    return tx._staging  # noqa: SLF001  (the unit behind the transaction)


def test_the_unit_holds_no_receipt_object(fresh_store: memory_es.MemoryStore) -> None:
    """A staged receipt is the caller's alone: the unit's entries hold strings and numbers,
    so a receipt the caller drops is freed at once rather than kept for the collector."""
    with fresh_store.transact() as tx:
        for k in range(5):
            tx.assert_fact("acme", f"user:u{k}", "home.city", f"city {k}")
        entries = _staging(tx)._uow.receipts  # noqa: SLF001
        assert len(entries) == 5
        assert not any(isinstance(part, Receipt) for entry in entries for part in entry)
    assert [r.fact_id for r in tx.receipts] == [e[5][0] for e in entries]


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.integers(0, 2), st.integers(0, 3), st.integers(0, 3),
                          st.booleans()), min_size=1, max_size=12))
def test_committed_receipts_are_the_staged_ones_positioned(
        store_factory: object, writes: list[tuple[int, int, int, bool]]) -> None:
    """Asserts and supersedes that create, reinforce, outrank or conflict: each committed
    receipt is the staged one with its main event's position and its events' ids (the
    reference: ``model_copy`` of the staged receipt), positions rising with the log."""
    store = store_factory()  # type: ignore[operator]
    try:
        before = store.log_position()
        with store.transact() as tx:
            staged = []
            for who, value, day, supersede in writes:
                write = tx.supersede if supersede else tx.assert_fact
                staged.append(write("acme", f"user:u{who}", "home.city", VALUES[value],
                                    valid_from=T0 + timedelta(days=day)))
        committed = tx.receipts
    finally:
        store.close()
    assert len(committed) == len(staged)
    for s, c in zip(staged, committed, strict=True):
        assert c == s.model_copy(update={"position": c.position, "event_ids": c.event_ids})
        assert c.model_fields_set == s.model_fields_set
        assert c.event_ids[0] == s.event_id and c.position > before
    positions = [c.position for c in committed]
    assert positions == sorted(positions)
