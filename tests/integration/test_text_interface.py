"""The text interface end to end on a real embedded store (``memory_es.open``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import memory_es
from memory_es.text import Clause, TextInterface, TextResult
from tests.fakes import FakeClock

T = "acme"


@pytest.fixture
def store(tmp_path: Path, clock: FakeClock) -> Iterator[memory_es.MemoryStore]:
    """A store opened with ``memory_es.open`` on a temporary folder."""
    s = memory_es.open(tmp_path / "mem", clock=clock)
    yield s
    s.close()


@pytest.fixture
def text(store: memory_es.MemoryStore) -> TextInterface:
    return TextInterface(store)


def texts(store: memory_es.MemoryStore, tenant: str = T) -> list[str]:
    return sorted(f.text for f in store.current(tenant))


def test_remember_writes_one_fact_per_clause_with_receipts(
        text: TextInterface, store: memory_es.MemoryStore) -> None:
    """A compound sentence becomes one fact per clause, each with a durable receipt."""
    receipts = text.remember(T, "Ana lives in Porto and works at a winery.", source="chat:7")
    assert len(receipts) == 2
    assert all(r.position > 0 and r.fact_id for r in receipts)
    facts = {f.attribute: f for f in store.current(T)}
    assert facts["home.city"].text == "Ana lives in Porto"
    assert facts["work.employer"].entity == "person:ana"
    assert facts["home.city"].source == "chat:7"


def test_the_interpretation_is_stored_with_the_event(
        text: TextInterface, store: memory_es.MemoryStore) -> None:
    """The store can say why it remembers a fact: rules and identifiers are in history."""
    (r,) = text.remember(T, "Customer ruth@corp.io renewed the plan in May 2025.")
    history = store.history(T, r.fact_id or "")
    record = history[0].interpretation
    assert record is not None
    assert "subject:identifier:email" in record["rules"]
    assert record["identifiers"][0]["canonical"] == "ruth@corp.io"
    assert record["temporal"]


def test_a_change_of_state_supersedes_instead_of_conflicting(
        text: TextInterface, store: memory_es.MemoryStore) -> None:
    """"now works at" replaces the employer; the old value leaves present belief."""
    text.remember(T, "Kai works at Nordlys.")
    text.remember(T, "Kai now works at Fjordtech.")
    assert texts(store) == ["Kai now works at Fjordtech"]


def test_a_plain_contradiction_is_a_conflict_not_an_overwrite(
        text: TextInterface, store: memory_es.MemoryStore) -> None:
    """Without a change marker the store's control plane flags a conflict (SPEC §5)."""
    text.remember(T, "Kai works at Nordlys.")
    (r,) = text.remember(T, "Kai works at Fjordtech.")
    assert r.outcome == "conflicted"
    assert texts(store) == ["Kai works at Nordlys"]


def test_revise_returns_targets_and_keeps_the_chain(
        text: TextInterface, store: memory_es.MemoryStore) -> None:
    """revise reports what it matched and why; the new fact supersedes the old slot."""
    text.remember(T, "The user lives in Quito.")
    result = text.revise(T, "user residence city", "The user moved to Cusco.")
    assert isinstance(result, TextResult)
    assert result.targets[0].text == "The user lives in Quito"
    (now,) = store.current(T)
    assert now.text == "The user moved to Cusco"
    assert [f.text for f in store.chain(T, now.fact_id)] == ["The user lives in Quito",
                                                              "The user moved to Cusco"]


def test_revise_without_a_match_remembers_the_text(
        text: TextInterface, store: memory_es.MemoryStore) -> None:
    """Nothing clears the thresholds: nothing is touched and the text is stored as new."""
    text.remember(T, "The user collects old maps.")
    result = text.revise(T, "quarterly revenue forecast", "The user reads sea charts.")
    assert result.targets == []
    assert texts(store) == ["The user collects old maps", "The user reads sea charts"]


def test_release_decays_but_keeps_the_row(
        text: TextInterface, store: memory_es.MemoryStore) -> None:
    """release closes valid time; the fact is gone from current but history keeps it."""
    (r,) = text.remember(T, "One-time login code: 884213.")
    result = text.release(T, "login code 884213")
    assert result.count == 1
    assert store.current(T) == []
    assert store.history(T, r.fact_id or "")


def test_forget_is_amnesia_of_exactly_the_named_entity(
        text: TextInterface, store: memory_es.MemoryStore) -> None:
    """forget makes the named entity forgotten; a prefix-neighbour survives."""
    text.remember(T, "Alex lives in Oslo.")
    text.remember(T, "Alexandra lives in Bergen.")
    result = text.forget(T, "forget everything about Alex")
    assert result.touched
    assert texts(store) == ["Alexandra lives in Bergen"]
    assert text.forget(T, "the weather").note == "the query names no entity"


def test_purge_matching_erases_with_a_preview_and_a_receipt(
        text: TextInterface, store: memory_es.MemoryStore) -> None:
    """purge_matching crypto-shreds the identifier's entity; the preview lists the facts."""
    text.remember(T, "Customer nia@corp.io bought two seats.")
    text.remember(T, "Customer nia.b@corp.io bought one seat.")
    result = text.purge_matching(T, "nia@corp.io")
    assert result.previews and result.previews[0].facts
    assert result.receipts and result.receipts[0].op == "purge"
    assert texts(store) == ["Customer nia.b@corp.io bought one seat"]
    deletion = result.receipts[0]
    assert isinstance(deletion, memory_es.DeletionReceipt)
    report = store.verify_erasure(deletion)
    assert report.complete


def test_purge_matching_can_leave_its_file_rewrite_to_one_compaction(
        text: TextInterface, store: memory_es.MemoryStore) -> None:
    """With compact="deferred" the keys are destroyed and the facts gone at once, the
    report says pending until store.compact(); a wrong value is refused up front."""
    text.remember(T, "Customer ola@corp.io bought two seats.")
    text.remember(T, "Customer eli@corp.io bought one seat.")
    with pytest.raises(memory_es.InvalidInput, match="'now' or 'deferred'"):
        text.purge_matching(T, "ola@corp.io", compact="later")
    result = text.purge_matching(T, "ola@corp.io", compact="deferred")
    assert texts(store) == ["Customer eli@corp.io bought one seat"]
    deletion = result.receipts[0]
    assert isinstance(deletion, memory_es.DeletionReceipt)
    assert deletion.report is not None and not deletion.report.complete
    assert "pending" in {s.result for s in deletion.report.stores}
    store.compact()
    assert store.verify_erasure(deletion).complete


def test_recall_texts_returns_current_texts_only(
        text: TextInterface, store: memory_es.MemoryStore) -> None:
    """recall_texts never returns superseded or released facts, even on an exact match."""
    text.remember(T, "The user lives in Quito.")
    text.revise(T, "user city", "The user moved to Cusco.")
    assert text.recall_texts(T, "The user lives in Quito", 5) == ["The user moved to Cusco"]
    assert text.recall_texts(T, "anything", 0) == []


def test_tenants_are_isolated(text: TextInterface, store: memory_es.MemoryStore) -> None:
    """One tenant's text operations never see or touch another tenant's facts."""
    text.remember("t1", "Customer jo@corp.io renewed.")
    text.remember("t2", "Customer jo@corp.io renewed.")
    text.purge_matching("t1", "jo@corp.io")
    assert texts(store, "t1") == []
    assert texts(store, "t2") == ["Customer jo@corp.io renewed"]
    assert text.recall_texts("t1", "jo@corp.io", 5) == []


def test_a_model_hook_drives_remember(store: memory_es.MemoryStore) -> None:
    """A caller-supplied callable proposes the operations; the store records them."""
    def model(t: str) -> list[Clause]:
        return [Clause(text=t, entity="user:self", attribute="pref.drink", value="tea")]

    ti = TextInterface(store, interpreter=model)
    (r,) = ti.remember(T, "fancies a cuppa")
    (f,) = store.current(T)
    assert (f.entity, f.attribute, f.value) == ("user:self", "pref.drink", "tea")
    record = store.history(T, r.fact_id or "")[0].interpretation
    assert record is not None and "proposed-by:model" in record["rules"]


def test_unknown_options_are_rejected(text: TextInterface) -> None:
    """Only the documented write options pass through to the store."""
    with pytest.raises(memory_es.InvalidInput):
        text.remember(T, "The user likes tea.", colour="blue")  # type: ignore[call-arg]


def test_a_retried_remember_with_an_idempotency_key_writes_nothing_new(
        text: TextInterface, store: memory_es.MemoryStore) -> None:
    """Each clause gets its own key, so a retry replays every receipt and appends nothing."""
    first = text.remember(T, "Ana lives in Porto and works at a winery.", idempotency_key="m1")
    head = store.log_position()
    again = text.remember(T, "Ana lives in Porto and works at a winery.", idempotency_key="m1")
    assert [r.fact_id for r in again] == [r.fact_id for r in first]
    assert all(r.idempotent_replay for r in again)
    assert store.log_position() == head
