"""Key custody (SPEC §14), on every backend: a restored key-store backup revives no purged
subject, master-key rotation leaves the old key opening nothing, and signed head anchors
make the removal of the newest records visible.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from memory_es import IntegrityViolation, MemoryESError, MemoryStore
from tests.contracts.conftest import Backend
from tests.fakes import FakeClock

T = "acme"
MARKER = "zqm-iban-DE02120300000000202051"


def purge_after_backup(backend: Backend, clock: FakeClock) -> tuple[MemoryStore, str]:
    """Write alex and bea, back the key store up, purge alex, restore the backup, reopen."""
    store = backend.open(clock)
    alex = store.assert_fact(T, "user:alex", "bank.iban", MARKER).fact_id or ""
    store.assert_fact(T, "user:bea", "bank.iban", "NO93 8601 1117 947")
    store.close()
    backup = backend.backup_key_store()
    store = backend.open(clock)
    receipt = store.purge(T, "user:alex", reason="ticket DPO-7")
    assert receipt.report is not None and receipt.report.complete
    store.close()
    backend.restore_key_store(backup)
    return backend.open(clock), alex


def test_restored_key_store_does_not_revive_a_purged_subject(
        backend: Backend, clock: FakeClock) -> None:
    """After a pre-purge key-store backup is restored, the reopened store destroys the
    revived keys again: nothing of the subject is readable, audit_verify lists the keys as
    reshredded, and the other subject is intact."""
    store, alex = purge_after_backup(backend, clock)
    assert store.current(T, entity="user:alex") == []
    assert [f.value for f in store.current(T, entity="user:bea")] == ["NO93 8601 1117 947"]
    assert all(entry.shredded for entry in store.history(T, alex) if entry.op != "EntityPurged")
    table = store.replay(known_at=store.now())
    assert MARKER not in json.dumps(table.to_pylist(), default=str)
    report = store.audit_verify()
    assert report.ok, report.problems
    assert report.reshredded
    assert backend.key_store_rows("SELECT count(*) FROM me_names WHERE kind = 'entity'") == [(1,)]


def test_restored_key_store_keeps_receipts_verifiable(backend: Backend, clock: FakeClock) -> None:
    """The deletion receipt made after the backup is still found and verifies complete."""
    store, _ = purge_after_backup(backend, clock)
    receipts = store.receipts()
    assert len(receipts) == 1 and receipts[0]["reason"] == "ticket DPO-7"
    report = store.verify_erasure(receipts[0])
    assert report.complete, [s for s in report.stores if s.result != "clean"]


def test_subject_written_again_after_a_restored_purge_gets_a_new_stream(
        backend: Backend, clock: FakeClock) -> None:
    """Writing the purged subject again opens a new stream with new keys; its old
    content never comes back."""
    store, alex = purge_after_backup(backend, clock)
    again = store.assert_fact(T, "user:alex", "home.city", "Oslo")
    assert (again.fact_id or "").rsplit("-", 1)[0] != alex.rsplit("-", 1)[0]
    assert [f.value for f in store.current(T, entity="user:alex")] == ["Oslo"]
    assert store.audit_verify().ok


def test_rotation_leaves_the_old_master_key_opening_nothing(
        backend: Backend, clock: FakeClock, tmp_path: Path) -> None:
    """After rotate_master_key the old key file no longer opens the store, the new one does,
    and every name lookup, receipt signature and earlier anchor still verifies."""
    store = backend.open(clock)
    store.assert_fact(T, "user:alex", "home.city", "Detroit")
    store.assert_fact(T, "user:bea", "home.city", "Oslo")
    store.purge(T, "user:bea")
    anchor = store.anchor()
    wrapped_before = {str(k): bytes(w) for k, w in backend.key_store_rows(
        "SELECT key_id, wrapped FROM me_keys WHERE parent IS NULL")}
    new_key = tmp_path / "rotated.key"
    assert store.rotate_master_key(new_key) >= len(wrapped_before)
    with pytest.raises(MemoryESError):
        store.rotate_master_key(new_key)  # the path exists now: refused, nothing changed
    store.close()
    old_key = backend.key_file
    with pytest.raises(MemoryESError):
        backend.open(clock)
    backend.key_file = new_key
    reopened = backend.open(clock)
    assert [f.value for f in reopened.current(T, entity="user:alex")] == ["Detroit"]
    report = reopened.audit_verify(anchor=anchor)
    assert report.ok and report.anchor_checked, report.problems
    after = dict(backend.key_store_rows(
        "SELECT key_id, wrapped FROM me_keys WHERE parent IS NULL"))
    assert not set(map(bytes, after.values())) & set(wrapped_before.values())
    if backend.name == "sqlite":
        raw = b"".join(p.read_bytes() for p in backend.folder.iterdir()
                       if p.name.startswith("keys.db"))
        assert not any(w in raw for w in wrapped_before.values())
    assert old_key.exists()  # an explicit key file is the operator's to remove


def test_rotation_away_from_the_default_key_file_deletes_it(tmp_path: Path,
                                                           clock: FakeClock) -> None:
    """When the old master key was the default <folder>/master.key, rotation deletes it."""
    import memory_es

    folder = tmp_path / "m"
    with memory_es.open(folder, clock=clock) as store:
        store.assert_fact(T, "user:alex", "home.city", "Detroit")
        store.rotate_master_key(tmp_path / "new.key")
    assert not (folder / "master.key").exists()
    with memory_es.open(folder, clock=clock, key_file=tmp_path / "new.key") as store:
        assert [f.value for f in store.current(T)] == ["Detroit"]


def test_anchor_detects_removal_of_the_newest_events(backend: Backend, clock: FakeClock) -> None:
    """Deleting the newest log rows, the deletion receipt included, is reported against an
    anchor taken before, in its model and its JSON form; without the anchor the chains
    alone cannot tell."""
    store = backend.open(clock)
    store.assert_fact(T, "user:alex", "home.city", "Detroit")
    store.assert_fact(T, "user:bea", "home.city", "Oslo")
    store.purge(T, "user:bea")
    anchor = store.anchor()
    as_json = json.loads(anchor.model_dump_json())
    assert store.audit_verify(anchor=as_json).ok
    store.close()
    top = backend.events()[-1][0]
    column = "rowid" if backend.name == "sqlite" else "notification_id"
    assert backend.tamper(f"DELETE FROM EVENTS WHERE {column} = ?", (top,)) == 1
    store = backend.open(clock)
    report = store.audit_verify(anchor=anchor)
    assert not report.ok
    assert any("removed" in p or "missing" in p for p in report.problems)
    assert not store.audit_verify(anchor=as_json).ok


def test_forged_anchor_is_refused(backend: Backend, clock: FakeClock) -> None:
    """An anchor edited after signing, or signed by another store, is refused, never
    reported as verified."""
    store = backend.open(clock)
    store.assert_fact(T, "user:alex", "home.city", "Detroit")
    anchor = store.anchor().model_dump(mode="json")
    anchor["position"] = anchor["position"] - 1
    with pytest.raises(IntegrityViolation):
        store.audit_verify(anchor=anchor)
    anchor = store.anchor().model_dump(mode="json")
    anchor["public_key"] = os.urandom(32).hex()
    with pytest.raises(IntegrityViolation):
        store.audit_verify(anchor=anchor)


def test_automatic_anchor_after_each_purge(tmp_path: Path, clock: FakeClock) -> None:
    """With anchor_file=, every purge leaves a fresh signed anchor there, which the next
    audit checks against."""
    import memory_es

    anchor_file = tmp_path / "outside" / "anchor.json"
    with memory_es.open(tmp_path / "m", clock=clock, anchor_file=anchor_file) as store:
        store.assert_fact(T, "user:alex", "home.city", "Detroit")
        store.purge(T, "user:alex")
        first = json.loads(anchor_file.read_text())
        store.assert_fact(T, "user:bea", "home.city", "Oslo")
        store.purge(T, "user:bea")
        second = json.loads(anchor_file.read_text())
        assert second["position"] > first["position"]
        assert second["receipts"][0] == 2
        assert store.audit_verify(anchor=second).ok


def test_a_restored_backup_from_before_a_stream_was_taken_revives_nothing(
        backend: Backend, clock: FakeClock) -> None:
    """A key-store backup taken while a subject's stream was still unused (minted ahead,
    on SQLite) lists it as free again after a restore: the purged subject stays unreadable
    and a new subject never takes the stream it used."""
    store = backend.open(clock)
    store.assert_fact(T, "user:bea", "bank.iban", "NO93 8601 1117 947")
    store.close()
    backup = backend.backup_key_store()
    store = backend.open(clock)
    alex = store.assert_fact(T, "user:alex", "bank.iban", MARKER).fact_id or ""
    receipt = store.purge(T, "user:alex", reason="ticket DPO-8")
    assert receipt.report is not None and receipt.report.complete
    store.close()
    backend.restore_key_store(backup)
    store = backend.open(clock)
    carl = store.assert_fact(T, "user:carl", "home.city", "Lima").fact_id or ""
    assert carl.rsplit("-", 1)[0] != alex.rsplit("-", 1)[0]
    assert store.current(T, entity="user:alex") == []
    assert [f.value for f in store.current(T, entity="user:carl")] == ["Lima"]
    assert MARKER not in json.dumps(store.replay(known_at=store.now()).to_pylist(), default=str)
    report = store.audit_verify()
    assert report.ok, report.problems
    store.close()
