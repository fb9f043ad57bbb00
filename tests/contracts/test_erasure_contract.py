"""Erasure that can be proven (issue 3), on the embedded default and on PostgreSQL.

Each test runs once per backend (the ``backend`` fixture). "Raw bytes" means what the
backend physically stores, read behind the store's back: on SQLite the log's and key
store's files (with their ``-wal``/``-shm``), on PostgreSQL the events table's ``state``
column and every key-store table; plus, on both, every file of the local views folder
(DuckDB forced to ``force_compression='uncompressed'`` so a byte scan sees what
compression would hide) and the Parquet exports the store wrote. The SQLite-only
file-level forensics (every file, open and closed) are in
``tests/integration/test_erasure.py``.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from eventsourcing.persistence import StoredEvent

import memory_es
from memory_es import ConfirmationRequired, IntegrityViolation, InvalidInput, NotFound
from memory_es.crypto.keystore import entity_key_id
from memory_es.crypto.mapper import SealingMapper
from memory_es.errors import ErasedContent
from memory_es.services.receipts import canonical_json
from tests.contracts.conftest import Backend
from tests.fakes import FakeClock
from tests.receipts import fact_id_of

T = "acme"
UNCOMPRESSED = {"force_compression": "uncompressed"}
RECEIPT_TOPIC = "memory_es.DeletionReceiptIssued.v1"


def new_marker() -> str:
    return f"zqm{uuid.uuid4().hex}"


def stream(receipt: Any) -> str:
    return str(receipt.event_id).rsplit(":", 1)[0]


def event_of(receipt: Any) -> tuple[str, int]:
    sid, version = str(receipt.event_id).rsplit(":", 1)
    return sid, int(version)


def folder_files(*roots: Path) -> dict[str, bytes]:
    """Every file under ``roots`` (recursively), path -> bytes."""
    return {str(p): p.read_bytes() for root in roots if root.exists()
            for p in sorted(root.rglob("*")) if p.is_file()}


def holding(needle: bytes, files: dict[str, bytes]) -> list[str]:
    return sorted(Path(name).name for name, data in files.items() if needle in data)


def wrapped_keys(backend: Backend, stream_id: str) -> list[bytes]:
    rows = backend.key_store_rows(f"SELECT wrapped FROM me_keys WHERE stream_id = '{stream_id}'")
    return [bytes(r[0]) for r in rows]


def kid_of(state: bytes, stream_id: str, version: int, topic: str) -> str:
    stored = StoredEvent(originator_id=stream_id, originator_version=version, topic=topic,
                         state=state)
    return SealingMapper.header(stored)[2]


def body_offset(state: bytes, stream_id: str, version: int, topic: str) -> int:
    stored = StoredEvent(originator_id=stream_id, originator_version=version, topic=topic,
                         state=state)
    return SealingMapper.header(stored)[3]


def row_of(backend: Backend, stream_id: str, version: int) -> bytes:
    return next(state for _, sid, v, _, state in backend.events()
                if sid == stream_id and v == version)


def set_state(backend: Backend, stream_id: str, version: int, state: bytes) -> None:
    changed = backend.tamper("UPDATE EVENTS SET state = ? WHERE originator_id = ? AND "
                             "originator_version = ?", (state, stream_id, version))
    assert changed == 1


# -- forensic ---------------------------------------------------------------------------------


def test_purge_leaves_the_marker_in_no_store(backend: Backend, tmp_path: Path) -> None:
    """A marker planted in an entity's id, alias, values, text and source, recalled and
    exported, is in no byte the backend stores after the purge, while the store is open
    (-wal files included) and after it is closed; its wrapped keys are gone too."""
    clock = FakeClock()
    store = backend.open(clock, views_settings=UNCOMPRESSED)
    m = new_marker()
    entity = f"user:{m}"
    store.alias(T, f"{m}@mail.example", entity)
    first = store.assert_fact(T, entity, "home.city", f"{m} city", text=f"lives in {m} city",
                              source=f"chat:{m}")
    clock.advance(minutes=1)
    store.supersede(T, entity, "home.city", f"{m} town")
    store.assert_fact(T, entity, "contact.email", f"{m}@mail.example")
    store.assert_fact(T, "user:alexandra", "home.city", "Oslo")
    clock.advance(minutes=1)
    hits = store.recall(T, m, k=5, receipt=True, caller="agent")
    assert {h.fact.entity for h in hits} == {entity}
    outside = tmp_path / "outside"
    store.export(backend.folder / "exports" / "snap.parquet", T)
    store.export(outside / "snap.parquet", T)
    store.runtime.recall.flush()
    store.runtime.views.persist()
    sid = stream(first)
    keys = wrapped_keys(backend, sid)
    assert len(keys) >= 3  # the entity key and one sub-key per chain
    # The scan can see what the purge must remove (else a clean scan would prove nothing).
    before = folder_files(backend.folder, outside)
    held = set(holding(m.encode(), before))
    assert "snap.parquet" in held
    assert any(name.startswith("fv-") for name in held)  # a views snapshot shard
    assert any(name.startswith("seg-") for name in held)  # a recall index segment
    raw = backend.raw_bytes()
    assert all(k in raw for k in keys)
    if backend.name == "postgres":
        filenodes = backend.pg_rows("SELECT pg_relation_filenode('me_keys'), "
                                    "pg_relation_filenode('me_names')")

    receipt = store.purge(T, entity, requested_by="dpo")
    assert receipt.report is not None and receipt.report.complete, receipt.report
    assert receipt.report.receipt_id == receipt.receipt_id
    assert store.verify_erasure(receipt).complete
    while_open = folder_files(backend.folder, outside)
    if backend.name == "sqlite":  # the open log and key store have their -wal files
        assert {"events.db-wal", "keys.db-wal"} <= {Path(p).name for p in while_open}
    assert holding(m.encode(), while_open) == []
    store.close()

    after = folder_files(backend.folder, outside)
    assert holding(m.encode(), after) == []
    raw = backend.raw_bytes()
    assert m.encode() not in raw
    assert not [k for k in keys if k in raw]
    assert not [k for k in keys if any(k in data for data in after.values())]
    if backend.name == "postgres":  # VACUUM FULL rewrote the key tables into new files
        now = backend.pg_rows("SELECT pg_relation_filenode('me_keys'), "
                              "pg_relation_filenode('me_names')")
        assert now[0][0] != filenodes[0][0] and now[0][1] != filenodes[0][1]
    reopened = backend.open(clock)
    assert [f.entity for f in reopened.current(T)] == ["user:alexandra"]
    assert reopened.recall(T, m, k=5) == []


# -- sealing ----------------------------------------------------------------------------------


@pytest.mark.parametrize("moved", ["payload", "whole record"])
@pytest.mark.parametrize("source", ["same key, other version", "other entity, same version"])
def test_ciphertext_swapped_between_events_is_rejected(backend: Backend, source: str,
                                                       moved: str) -> None:
    """A sealed payload (or a whole stored record) copied into another event's row fails
    authentication everywhere it is read (audit, replay, rebuild) instead of decrypting
    as that event."""
    clock = FakeClock()
    store = backend.open(clock)
    a = store.assert_fact(T, "user:alex", "home.city", "Detroit")
    clock.advance(minutes=1)
    b = store.supersede(T, "user:alex", "home.city", "Chicago")
    clock.advance(minutes=1)
    b2 = store.supersede(T, "user:alex", "home.city", "Denver")
    c = store.assert_fact(T, "user:bob", "home.city", "Boston")
    assert store.audit_verify().ok
    if source == "same key, other version":  # same stream, key and topic: only the version
        (src_sid, src_v), (target_sid, target_v) = event_of(b), event_of(b2)
    else:
        (src_sid, src_v), (target_sid, target_v) = event_of(c), event_of(a)
        assert src_v == target_v
    topics = {(sid, v): topic for _, sid, v, topic, _ in backend.events()}
    src_state = row_of(backend, src_sid, src_v)
    target_state = row_of(backend, target_sid, target_v)
    src_kid = kid_of(src_state, src_sid, src_v, topics[(src_sid, src_v)])
    target_kid = kid_of(target_state, target_sid, target_v, topics[(target_sid, target_v)])
    assert (src_kid == target_kid) == (source == "same key, other version")
    assert topics[(src_sid, src_v)] == topics[(target_sid, target_v)]
    if moved == "payload":  # keep the target's own header (time, previous hash, key id)
        offset = body_offset(target_state, target_sid, target_v,
                             topics[(target_sid, target_v)])
        src_offset = body_offset(src_state, src_sid, src_v, topics[(src_sid, src_v)])
        set_state(backend, target_sid, target_v, target_state[:offset] + src_state[src_offset:])
    else:
        set_state(backend, target_sid, target_v, src_state)

    report = store.audit_verify()
    assert not report.ok
    assert f"{target_sid}:{target_v}: ciphertext altered" in report.problems
    with pytest.raises(IntegrityViolation):
        store.replay(known_at=clock.advance(minutes=1))
    with pytest.raises(IntegrityViolation):
        store.rebuild()


def test_no_key_is_reissued_after_erasure(backend: Backend) -> None:
    """After a purge the old keys stay tombstoned forever: asking for them (even with
    create=True, even after a reopen) raises, and a new write under the same name gets a
    new stream with new keys."""
    clock = FakeClock()
    store = backend.open(clock)
    old = store.assert_fact(T, "user:alex", "home.city", "Detroit")
    old_sid = stream(old)
    receipt = store.purge(T, "user:alex")
    old_keys = receipt.key_ids
    assert entity_key_id(old_sid) in old_keys and len(old_keys) == 2
    clock.advance(minutes=1)
    new = store.assert_fact(T, "user:alex", "home.city", "Oslo")
    new_sid = stream(new)
    assert new_sid != old_sid
    assert [f.value for f in store.current(T, entity="user:alex")] == ["Oslo"]
    tomb = {str(r[0]) for r in backend.key_store_rows(
        f"SELECT key_id FROM me_shredded WHERE stream_id = '{old_sid}'")}
    assert tomb == set(old_keys)
    assert backend.key_store_rows(f"SELECT key_id FROM me_keys WHERE stream_id = '{old_sid}'") \
        == []
    for reopen in (False, True):  # a fresh key store has no cache to rely on
        if reopen:
            store.close()
            store = backend.open(clock)
        keys = store.runtime.side.keys
        assert set(keys.keys_of_stream(new_sid)).isdisjoint(old_keys)
        for key_id in old_keys:
            parent = None if key_id.startswith("e/") else entity_key_id(old_sid)
            with pytest.raises(ErasedContent):
                keys.key(key_id, old_sid, create=True, parent=parent)
        with pytest.raises(ErasedContent):
            keys.entity_key(old_sid, create=True)
        keys.flush()  # nothing was staged for the erased subject
        assert keys.keys_of_stream(old_sid) == []
        assert [f.value for f in store.current(T, entity="user:alex")] == ["Oslo"]


# -- scope ------------------------------------------------------------------------------------


def test_three_link_chain_purged_while_a_sibling_survives(backend: Backend) -> None:
    """Purging one fact of a three-link drift chain shreds the whole chain (its sub-key
    only) while a sibling fact of the same entity stays current, replayable, recallable
    and physically present."""
    clock = FakeClock()
    store = backend.open(clock, views_settings=UNCOMPRESSED)
    m, s = new_marker(), new_marker()
    a = store.assert_fact(T, "user:alex", "home.city", f"{m} one")
    clock.advance(minutes=1)
    b = store.supersede(T, "user:alex", "home.city", f"{m} two")
    clock.advance(minutes=1)
    c = store.supersede(T, "user:alex", "home.city", f"{m} three")
    sibling = store.assert_fact(T, "user:alex", "pet.name", f"{s} Rex")
    links = store.chain(T, fact_id_of(b))
    assert [f.fact_id for f in links] == [a.fact_id, b.fact_id, c.fact_id]
    chain_id = links[0].chain_id
    assert store.recall(T, m, k=3)[0].fact.fact_id == c.fact_id
    known = clock.advance(minutes=1)
    before = store.replay(known_at=known).to_pylist()
    assert {r["fact_id"] for r in before} == {a.fact_id, b.fact_id, c.fact_id, sibling.fact_id}

    receipt = store.purge(T, fact_id=b.fact_id)
    assert receipt.chain_id == chain_id
    assert receipt.key_ids == [f"c/{chain_id}"]
    assert sorted(receipt.fact_ids) == sorted([fact_id_of(a), fact_id_of(b), fact_id_of(c)])
    assert receipt.report is not None and receipt.report.complete, receipt.report

    assert [f.fact_id for f in store.current(T, entity="user:alex")] == [sibling.fact_id]
    after = store.replay(known_at=known).to_pylist()
    assert after == [r for r in before if r["chain_id"] != chain_id]
    assert [h.fact.fact_id for h in store.recall(T, s, k=3)] == [sibling.fact_id]
    # Random markers share a prefix, so the sibling may clear the relevance floor; the
    # claim is only that no link of the purged chain comes back.
    chain_facts = {a.fact_id, b.fact_id, c.fact_id}
    assert not chain_facts & {h.fact.fact_id for h in store.recall(T, m, k=3)}
    assert [e.value for e in store.history(T, fact_id_of(sibling))] == [f"{s} Rex"]
    purged = store.history(T, fact_id_of(a))  # typed placeholders, then the purge that names it
    assert purged[-1].op == "FactChainPurged" and purged[-1].fact_ids == [a.fact_id]
    assert all(e.shredded for e in purged[:-1]) and m not in str([e.model_dump() for e in purged])
    keys = store.runtime.side.keys
    assert not keys.is_shredded(entity_key_id(stream(a)))
    assert keys.is_shredded(f"c/{chain_id}")
    # The entity lives on in the same stream: a new value starts a new chain.
    d = store.supersede(T, "user:alex", "home.city", "Oslo")
    assert stream(d) == stream(a)
    assert {f.value for f in store.current(T, entity="user:alex")} == {"Oslo", f"{s} Rex"}
    assert store.audit_verify().ok
    store.close()
    files = folder_files(backend.folder)
    assert holding(m.encode(), files) == []
    assert m.encode() not in backend.raw_bytes()
    # the sibling's bytes are still in its views shard
    assert any(name.startswith("fv-") for name in holding(s.encode(), files))


def test_prefix_neighbours_are_untouched(backend: Backend) -> None:
    """Purging user:alex leaves user:alexandra, user:ale, user:alex2 and another tenant's
    user:alex exactly as they were: facts, history, keys, aliases and recall."""
    clock = FakeClock()
    store = backend.open(clock)
    gone = store.assert_fact(T, "user:alex", "home.city", "Detroit")
    neighbours = [("acme", "user:alexandra"), ("acme", "user:ale"), ("acme", "user:alex2"),
                  ("globex", "user:alex")]
    kept = {}
    for tenant, entity in neighbours:
        kept[(tenant, entity)] = store.assert_fact(tenant, entity, "home.city", "Oslo")
        clock.advance(minutes=1)
        store.supersede(tenant, entity, "home.city", f"Bergen {entity}")
    store.alias(T, "alexandra@mail.example", "user:alexandra")
    known = clock.advance(minutes=1)

    def snapshot() -> dict[str, Any]:
        return {
            "current": {t: [f.model_dump() for f in store.current(t)]
                        for t in ("acme", "globex")},
            "history": {k: [e.model_dump() for e in store.history(k[0], fact_id_of(r))]
                        for k, r in kept.items()},
            "keys": {k: sorted(store.runtime.side.keys.keys_of_stream(stream(r)))
                     for k, r in kept.items()},
            "replay": [r for r in store.replay(known_at=known).to_pylist()
                       if r["entity"] != "user:alex" or r["tenant"] != T],
            "alias": [f.value for f in store.current(T, entity="alexandra@mail.example")],
            "recall": [h.fact.fact_id for h in store.recall("globex", "Bergen alex", k=3)],
        }

    before = snapshot()
    assert len(before["current"]["acme"]) == 4  # alex and the three acme neighbours
    receipt = store.purge(T, "user:alex")
    assert receipt.fact_ids == [gone.fact_id]
    after = snapshot()
    assert after["current"]["acme"] == [f for f in before["current"]["acme"]
                                        if f["entity"] != "user:alex"]
    assert {k: v for k, v in after.items() if k != "current"} == \
        {k: v for k, v in before.items() if k != "current"}
    assert after["current"]["globex"] == before["current"]["globex"]
    assert after["recall"]  # another tenant's user:alex is still recalled
    for key_ids in after["keys"].values():
        assert key_ids and not any(store.runtime.side.keys.is_shredded(k) for k in key_ids)


# -- receipts ---------------------------------------------------------------------------------


def _two_purges(backend: Backend) -> tuple[memory_es.MemoryStore, list[tuple[str, int]]]:
    """A store with two purge receipts in its audit log; returns the receipt rows' ids."""
    store = backend.open(FakeClock())
    for who in ("user:ann", "user:ben"):
        store.assert_fact(T, who, "home.city", "Oslo")
        store.purge(T, who, requested_by="dpo")
    report = store.audit_verify()
    assert report.ok and report.receipts_checked == 2, report.problems
    rows = [(sid, v) for _, sid, v, topic, _ in backend.events() if topic == RECEIPT_TOPIC]
    assert len(rows) == 2
    return store, rows


def _receipt_body(backend: Backend, sid: str, version: int) -> tuple[bytes, dict[str, Any]]:
    state = row_of(backend, sid, version)
    offset = body_offset(state, sid, version, RECEIPT_TOPIC)
    return state[:offset], json.loads(state[offset:])


def test_edited_receipt_is_detected(backend: Backend) -> None:
    """Editing a stored receipt's JSON (without re-hashing) is reported by audit_verify."""
    store, rows = _two_purges(backend)
    sid, version = rows[0]
    state = row_of(backend, sid, version)
    assert state.count(b'"requested_by":"dpo"') == 1
    set_state(backend, sid, version, state.replace(b'"requested_by":"dpo"',
                                                   b'"requested_by":"eve"'))
    assert store.receipts()[0]["requested_by"] == "eve"  # the edit is what the store reads
    report = store.audit_verify()
    assert not report.ok
    assert "receipt 1: content does not match its hash" in report.problems
    assert f"{sid}:2: hash chain broken" in report.problems


def test_removed_receipt_is_detected(backend: Backend) -> None:
    """Deleting a receipt from the audit log is reported (sequence gap, broken chains)."""
    store, rows = _two_purges(backend)
    sid, version = rows[0]
    assert backend.tamper("DELETE FROM EVENTS WHERE originator_id = ? AND "
                          "originator_version = ?", (sid, version)) == 1
    assert len(store.receipts()) == 1
    report = store.audit_verify()
    assert not report.ok
    assert "receipt 1: sequence 2 (a receipt is missing)" in report.problems
    assert "receipt 1: not chained to the previous receipt" in report.problems
    assert any("missing" in p and sid in p for p in report.problems)


@pytest.mark.parametrize("forger", ["no key", "own key"])
def test_rehashed_receipt_fails_its_signature(backend: Backend, forger: str) -> None:
    """An edited receipt re-hashed (and even re-signed with another key) by someone without
    the store's signing key is caught by the signature alone, on the newest receipt."""
    store, rows = _two_purges(backend)
    sid, version = rows[-1]  # the newest: no later receipt or event chains to it
    header, body = _receipt_body(backend, sid, version)
    receipt = body["receipt"]
    receipt["requested_by"] = "eve"
    unsigned = {k: v for k, v in receipt.items() if k not in ("hash", "signature")}
    if forger == "own key":
        key = Ed25519PrivateKey.generate()
        unsigned["public_key"] = receipt["public_key"] = key.public_key().public_bytes_raw().hex()
    digest = hashlib.sha256(canonical_json(unsigned)).hexdigest()
    receipt["hash"] = digest
    if forger == "own key":
        receipt["signature"] = key.sign(digest.encode()).hex()
    set_state(backend, sid, version, header + json.dumps(body).encode())
    assert store.receipts()[-1]["requested_by"] == "eve"
    report = store.audit_verify()
    assert report.problems == ["receipt 2: signature invalid"]


# -- replay after purge -----------------------------------------------------------------------


def test_replay_after_purge_equals_before_minus_the_entity(backend: Backend) -> None:
    """At every transaction time, the replayed belief after a purge is the belief replayed
    before it, minus the purged entity's rows (nothing else changes, nothing crashes)."""
    clock = FakeClock()
    store = backend.open(clock)
    points = []
    for i in range(3):
        for who in ("user:alex", "user:bob", "user:carol"):
            store.supersede(T, who, "home.city", f"{who}-city-{i}")
            store.assert_fact(T, who, f"pref.c{i}", f"{who}-pref-{i}")
        points.append(clock.advance(minutes=5))
    bob = store.current(T, entity="user:bob", attribute="home.city")[0]
    store.correct(bob.fact_id, "Bergen")
    premise = store.current(T, entity="user:carol", attribute="pref.c0")[0]
    store.assert_fact(T, "user:bob", "home.region", "west", derived_from=[premise.fact_id])
    alex = store.current(T, entity="user:alex")
    store.mask(alex[0].fact_id)
    store.archive(store.current(T, entity="user:carol", attribute="pref.c1")[0].fact_id)
    store.forget_fact(store.current(T, entity="user:bob", attribute="pref.c2")[0].fact_id)
    points.append(clock.advance(minutes=5))
    before = {p: store.replay(known_at=p).to_pylist() for p in points}
    assert all(any(r["entity"] == "user:alex" for r in rows) for rows in before.values())

    store.purge(T, "user:alex")
    points_after = [*points, clock.advance(minutes=5)]
    for p in points:
        assert store.replay(known_at=p).to_pylist() == \
            [r for r in before[p] if r["entity"] != "user:alex"], p
    latest = store.replay(known_at=points_after[-1]).to_pylist()
    assert latest == [r for r in before[points[-1]] if r["entity"] != "user:alex"]
    assert store.audit_verify().ok


# -- confirmation and preview -----------------------------------------------------------------


def test_high_risk_purge_without_token_changes_nothing(backend: Backend) -> None:
    """A purge that would orphan a derived fact raises without the preview's token (or with
    a wrong or stale one) and leaves log, keys, views and receipts as they were."""
    clock = FakeClock()
    store = backend.open(clock)
    premise = store.assert_fact(T, "user:alex", "home.city", "Detroit")
    derived = store.assert_fact(T, "user:bob", "home.region", "Midwest",
                                derived_from=[fact_id_of(premise)])
    preview = store.preview("purge", T, "user:alex")
    assert preview.high_risk and preview.derived == [derived.fact_id]
    assert preview.facts == [premise.fact_id]
    position = store.log_position()
    current = store.current(T)
    keys = sorted(store.runtime.side.keys.keys_of_stream(stream(premise)))

    def unchanged() -> None:
        assert store.log_position() == position
        assert store.current(T) == current
        assert sorted(store.runtime.side.keys.keys_of_stream(stream(premise))) == keys
        assert backend.key_store_rows("SELECT key_id FROM me_shredded") == []
        assert store.receipts() == []

    for token in (None, "0" * 32, preview.token[:-1]):
        with pytest.raises(ConfirmationRequired):
            store.purge(T, "user:alex", confirm=token)
        unchanged()
    with pytest.raises(ConfirmationRequired):
        store.erase(T, "user:alex", motive="legal_erasure")
    unchanged()
    # A token is bound to what it previewed: after another write it is stale.
    store.supersede(T, "user:alex", "home.city", "Chicago")
    position = store.log_position()
    current = store.current(T)
    with pytest.raises(ConfirmationRequired):
        store.purge(T, "user:alex", confirm=preview.token)
    unchanged()

    fresh = store.preview("purge", T, "user:alex")
    receipt = store.purge(T, "user:alex", confirm=fresh.token)
    assert receipt.report is not None and receipt.report.complete
    assert store.current(T) == []  # the derived fact lost its premise: deprecated
    states = {r["fact_id"]: r["present_state"]
              for r in store.replay(known_at=clock.advance(minutes=1)).to_pylist()}
    assert states == {derived.fact_id: "deprecated"}


def test_preview_lists_facts_not_counts(backend: Backend, tmp_path: Path) -> None:
    """A preview names every fact, derived fact, store and export it would touch, says
    which steps are irreversible, and writes nothing."""
    clock = FakeClock()
    store = backend.open(clock)
    a = store.assert_fact(T, "user:alex", "home.city", "Detroit")
    clock.advance(minutes=1)
    b = store.supersede(T, "user:alex", "home.city", "Chicago")
    c = store.assert_fact(T, "user:alex", "pet.name", "Rex")
    d = store.assert_fact(T, "user:bob", "home.region", "Midwest", derived_from=[fact_id_of(c)])
    export = store.export(tmp_path / "out" / "snap.parquet", T)
    position = store.log_position()

    whole = store.preview("purge", T, "user:alex")
    assert sorted(whole.facts) == sorted([fact_id_of(a), fact_id_of(b), fact_id_of(c)])
    assert whole.derived == [d.fact_id]
    assert whole.exports == [str(export.resolve())]
    assert {"event_log", "key_store", "duckdb_views", "recall_index", "caches", "exports"} <= \
        set(whole.stores)
    assert whole.irreversible and all(isinstance(s, str) for s in whole.irreversible)
    assert whole.high_risk and whole.caches

    chain = store.preview("purge", T, fact_id=b.fact_id)
    assert sorted(chain.facts) == sorted([fact_id_of(a), fact_id_of(b)])
    assert chain.derived == [] and not chain.high_risk
    assert chain.token != whole.token

    assert store.preview("mask", T, "user:alex").irreversible == []
    assert store.preview("erase", T, "user:alex", motive="system_cleanup").irreversible == []
    assert store.preview("forget_entity", T, "user:alex").irreversible
    assert store.preview("erase", T, "user:alex", motive="legal_erasure").irreversible
    with pytest.raises(NotFound):
        store.preview("purge", T, "user:nobody")
    with pytest.raises(InvalidInput):
        store.preview("erase", T, "user:alex", motive="because")
    assert store.log_position() == position


# -- motives ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("motive", "effect"), [
    ("user_request", "mask"), ("legal_erasure", "purge"),
    ("system_cleanup", "archive"), ("security_incident", "forget"),
])
def test_erase_routes_by_motive(backend: Backend, motive: str, effect: str) -> None:
    """erase(motive=...) applies the §6 layer of that motive to every fact of the entity,
    leaves a receipt saying so, and its verification is complete."""
    clock = FakeClock()
    store = backend.open(clock)
    a = store.assert_fact(T, "user:alex", "home.city", "Detroit")
    b = store.assert_fact(T, "user:alex", "pet.name", "Rex")
    bob = store.assert_fact(T, "user:bob", "pet.name", "Fido")
    receipt = store.erase(T, "user:alex", motive=motive, requested_by="dpo")
    assert (receipt.effect, receipt.motive, receipt.requested_by) == (effect, motive, "dpo")
    assert sorted(receipt.fact_ids) == sorted([fact_id_of(a), fact_id_of(b)])
    assert "user:alex" not in receipt.model_dump_json()
    report = store.verify_erasure(receipt)
    assert report.complete, report
    assert store.receipts()[-1]["effect"] == effect
    assert store.audit_verify().ok
    assert [f.value for f in store.current(T, entity="user:bob")] == ["Fido"]
    shredded = store.runtime.side.keys.is_shredded(entity_key_id(stream(a)))
    assert shredded == (effect == "purge")
    states = {r["fact_id"]: (r["present_state"], r["masked"], r["value"])
              for r in store.replay(known_at=clock.advance(minutes=1)).to_pylist()}
    alex = {k: v for k, v in states.items() if k != bob.fact_id}
    if effect == "mask":
        assert set(alex.values()) == {("active", True, '"[masked]"')}
        assert {f.value for f in store.current(T, entity="user:alex")} == {"[masked]"}
        store.unmask(fact_id_of(a))  # reversible
        assert "Detroit" in {f.value for f in store.current(T, entity="user:alex")}
    elif effect == "archive":
        assert {s for s, _, _ in alex.values()} == {"archived"}
        assert store.current(T, entity="user:alex") == []
        store.restore(fact_id_of(a))  # reversible
        assert [f.value for f in store.current(T, entity="user:alex")] == ["Detroit"]
    elif effect == "forget":
        assert {s for s, _, _ in alex.values()} == {"forgotten"}
        assert store.current(T, entity="user:alex") == []
        with pytest.raises(InvalidInput):
            store.restore(fact_id_of(a))  # terminal
    else:
        assert alex == {}
        assert receipt.key_ids and receipt.report is not None and receipt.report.complete
        assert store.current(T, entity="user:alex") == []
    position = store.log_position()
    with pytest.raises(InvalidInput):
        store.erase(T, "user:bob", motive="because")
    assert store.log_position() == position


def test_deferred_purges_share_one_compaction(backend: Backend) -> None:
    """Deferred purges destroy the keys and remove the rows at once, report exactly the
    files still to rewrite as pending, and verify complete after one store.compact()."""
    store = backend.open(views_settings=UNCOMPRESSED)
    markers = [new_marker() for _ in range(3)]
    for i, marker in enumerate(markers):
        store.assert_fact(T, f"user:p{i}", "home.city", marker)
    store.assert_fact(T, "user:keep", "home.city", "Oslo")
    receipts = [store.purge(T, f"user:p{i}", compact="deferred") for i in range(3)]
    for receipt in receipts:
        assert receipt.report is not None and not receipt.report.complete
        pending = {s.name for s in receipt.report.stores if s.result == "pending"}
        assert "duckdb_views" in pending and "event_log" not in pending
        assert {s.name for s in receipt.report.stores if s.result == "residue"} == set()
        key_store = next(s for s in receipt.report.stores if s.name == "key_store")
        assert key_store.result == "clean"
    assert [f.entity for f in store.current(T)] == ["user:keep"]
    store.compact()
    for receipt in receipts:
        report = store.verify_erasure(receipt)
        assert report.complete, [(s.name, s.result) for s in report.stores if s.result != "clean"]
    files = folder_files(backend.folder)
    for marker in markers:
        assert holding(marker.encode(), files) == []
    with pytest.raises(InvalidInput):
        store.purge(T, "user:keep", compact="later")
