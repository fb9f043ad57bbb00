"""Sealed payloads: no plaintext in the log's or key store's bytes; no ciphertext swaps."""

from __future__ import annotations

import datetime as dt
import sqlite3
from pathlib import Path

import pytest

import memory_es
from memory_es.crypto.mapper import _HEAD, SealingMapper
from memory_es.eventlog import SqliteEventLog, SqliteRecorder
from tests.conftest import StoreFactory
from tests.fakes import FakeClock, day
from tests.receipts import fact_id_of

MARKER = "qv7-plaintext-marker-90210"
# read models hold plaintext by design (§9)
VIEW_FILES = ("points.sqlite", "recall.npz")
"""Read-model files at the top of the folder (the views' snapshot and recall segments are
folders of their own, which :func:`owned_files` does not enter)."""


def owned_files(folder: Path) -> list[Path]:
    """Every file of the store except the read models' and the master key file."""
    return sorted(p for p in folder.iterdir()
                  if p.is_file() and not p.name.startswith(VIEW_FILES) and p.name != "master.key")


def files_with(folder: Path, needle: bytes) -> list[str]:
    return [p.name for p in owned_files(folder) if needle in p.read_bytes()]


def write_marked_history(store: memory_es.MemoryStore, clock: FakeClock) -> None:
    """Put the marker in every field that is content: value, text, source, entity, mention."""
    entity = f"user:{MARKER}"
    r = store.assert_fact("acme", entity, "home.city", f"{MARKER}-value", valid_from=day(0),
                          text=f"{MARKER} lives somewhere", source=f"chat:{MARKER}")
    clock.advance(minutes=1)
    store.correct(fact_id_of(r), {"city": f"{MARKER}-corrected"}, reason="typo")
    store.supersede("acme", entity, "home.city", [f"{MARKER}-list"], valid_from=day(5))
    store.assert_fact("acme", None, "home.city", "Oslo", mention=f"{MARKER} the neighbour")
    store.alias("acme", f"{MARKER} Surname", entity)
    with store.transact() as tx:
        tx.assert_fact("acme", entity, "pref.browser", f"{MARKER}-tx", idempotency_key=MARKER)
        tx.retract("acme", entity, "home.city", valid_from=day(6), valid_until=day(7))
    readable = store.as_of("acme", valid_at=day(1), known_at=clock() + dt.timedelta(hours=1))
    assert any(MARKER in f.text for f in readable), "the views must hold what was written"
    store.forget_entity("acme", entity)


def test_marker_never_reaches_the_log_or_key_store_bytes(
    fresh_store: memory_es.MemoryStore, clock: FakeClock, store_path: Path,
) -> None:
    """A grep of events.db, its WAL/SHM and keys.db finds no plaintext, open or closed."""
    write_marked_history(fresh_store, clock)
    files = [p.name for p in owned_files(store_path)]
    assert "events.db" in files and "keys.db" in files
    assert files_with(store_path, MARKER.encode()) == []
    fresh_store.close()
    assert files_with(store_path, MARKER.encode()) == []
    assert files_with(store_path, MARKER.encode("utf-16-le")) == []


def test_log_stores_ciphertext_only(
    fresh_store: memory_es.MemoryStore, store_path: Path,
) -> None:
    """Every stored event with personal content carries a key id and no readable value."""
    fresh_store.assert_fact("acme", "user:alex", "home.city", MARKER)
    fresh_store.close()
    with sqlite3.connect(store_path / "events.db") as conn:
        states = [bytes(r[0]) for r in conn.execute("SELECT state FROM stored_events")]
    assert states
    for state in states:
        assert MARKER.encode() not in state
        assert b"user:alex" not in state


def _events(path: Path) -> list[tuple[int, str, int, bytes]]:
    with sqlite3.connect(path) as conn:
        return [(r[0], r[1], r[2], bytes(r[3])) for r in conn.execute(
            "SELECT rowid, originator_id, originator_version, state FROM stored_events "
            "ORDER BY rowid")]


def _body_offset(state: bytes) -> int:
    return _kid_and_offset(state)[1]


def _kid_and_offset(state: bytes) -> tuple[str, int]:
    from eventsourcing.persistence import StoredEvent

    _, _, kid, offset = SealingMapper.header(StoredEvent("x", 1, "t", state))
    return kid, offset


def _overwrite(path: Path, states: dict[int, bytes]) -> None:
    """Write ``state`` blobs straight into the log's rows (rowid -> new state)."""
    conn = sqlite3.connect(path)
    try:
        for rowid, state in states.items():
            conn.execute("UPDATE stored_events SET state = ? WHERE rowid = ?", (state, rowid))
        conn.commit()
    finally:
        conn.close()


@pytest.mark.parametrize("what", ["sealed body", "whole record"])
@pytest.mark.parametrize("between", ["same stream and key", "two entities"])
def test_swapped_ciphertext_is_rejected_on_reload(
    store_factory: StoreFactory, clock: FakeClock, store_path: Path, what: str, between: str,
) -> None:
    """Ciphertext moved between two events' rows fails authentication (IntegrityViolation)."""
    store = store_factory()
    alex = store.assert_fact("acme", "user:alex", "home.city", "Detroit", valid_from=day(0))
    clock.advance(minutes=1)
    store.correct(fact_id_of(alex), "Chicago")
    store.assert_fact("acme", "user:bo", "home.city", "Oslo", valid_from=day(0))
    store.current("acme")  # the views are up to date when the tampering happens
    store.close()
    events = _events(store_path / "events.db")
    alex_stream = alex.event_id.rsplit(":", 1)[0]
    first = next(e for e in events if e[1] == alex_stream and e[2] == 1)
    if between == "same stream and key":
        second = next(e for e in events if e[1] == alex_stream and e[2] == 2)
    else:
        second = next(e for e in events if e[1] != alex_stream and e[2] == 1)
    if what == "sealed body":  # each row keeps its clear header, the ciphertexts trade places
        a, b = _body_offset(first[3]), _body_offset(second[3])
        swapped = {first[0]: first[3][:a] + second[3][b:], second[0]: second[3][:b] + first[3][a:]}
    else:
        swapped = {first[0]: second[3], second[0]: first[3]}
    assert swapped[first[0]] != first[3] and swapped[second[0]] != second[3]
    _overwrite(store_path / "events.db", swapped)

    reopened = store_factory()
    with pytest.raises(memory_es.IntegrityViolation):
        reopened.correct(fact_id_of(alex), "Oslo")  # loading the stream opens every event
    with pytest.raises(memory_es.IntegrityViolation):
        reopened.rebuild()  # the failed rebuild leaves the old, complete views in place
    assert not reopened.audit_verify().ok
    reopened.close()


def test_wrong_master_key_is_refused(store_factory: StoreFactory, store_path: Path,
                                     tmp_path: Path) -> None:
    """Opening a store with another master key fails instead of reading garbage."""
    first = store_factory()
    first.assert_fact("acme", "user:alex", "home.city", "Detroit")
    first.close()  # one writer at a time: the second open below is not a second writer
    other = tmp_path / "other.key"
    other.write_text("11" * 32 + "\n")
    with pytest.raises(memory_es.IntegrityViolation):
        store_factory(key_file=other)


def test_log_files_listed_for_scans_are_the_ones_on_disk(
    fresh_store: memory_es.MemoryStore, store_path: Path,
) -> None:
    """The event log reports its own files, so forensic scans know what to read."""
    fresh_store.assert_fact("acme", "user:alex", "home.city", "Detroit")
    log = fresh_store.runtime.log  # white box: the embedded log's file list
    assert isinstance(log, SqliteEventLog)
    listed = {p.name for p in log.files()}
    assert {"events.db", "keys.db"} <= listed
    metadata = {"writer.lock", "replica.id"}  # who holds the folder, which replica it is
    assert listed == {p.name for p in owned_files(store_path)} - metadata


def test_edited_transaction_time_is_rejected_on_reload(
    store_factory: StoreFactory, store_path: Path,
) -> None:
    """The clear header (transaction time) is authenticated too: editing it is detected."""
    store = store_factory()
    store.assert_fact("acme", "user:alex", "home.city", "Detroit", valid_from=day(0))
    store.close()
    [(rowid, _, _, state)] = _events(store_path / "events.db")
    moved = bytearray(state)
    moved[9] ^= 0x01  # a low byte of recorded_at (magic: 3 bytes, then 8 bytes of µs)
    _overwrite(store_path / "events.db", {rowid: bytes(moved)})
    with pytest.raises(memory_es.IntegrityViolation):
        store_factory()


def test_a_batch_seals_each_event_with_its_own_chain_key_and_nonce(
    store_factory: StoreFactory, store_path: Path,
) -> None:
    """Keys and nonces drawn together for a transaction are still one per chain and one per
    event, and every event opens after a reopen (the keys were written with the events)."""
    store = store_factory()
    with store.transact() as tx:
        for i in range(40):
            tx.assert_fact("acme", f"user:u{i // 4}", f"attr.a{i % 4}", f"v{i}", valid_from=day(0))
    store.close()
    events = _events(store_path / "events.db")
    kids, nonces = set(), set()
    for _, _, _, state in events:
        kid, offset = _kid_and_offset(state)
        kids.add(kid)
        nonces.add(state[offset:offset + 12])
    assert len(events) == 40 and len(kids) == 40 and len(nonces) == 40
    keys = sqlite3.connect(store_path / "keys.db")
    try:
        wrapped = {r[0]: r[1] for r in keys.execute(
            "SELECT key_id, wrapped FROM me_keys WHERE parent IS NOT NULL")}
    finally:
        keys.close()
    assert kids <= set(wrapped) and len({w[:12] for w in wrapped.values()}) == len(wrapped)
    reopened = store_factory()
    assert len(reopened.current("acme")) == 40


def test_only_a_key_minted_in_this_session_is_created_in_a_batch(
        fresh_store: memory_es.MemoryStore) -> None:
    """A chain key that may exist already is looked up, never created again in a batch."""
    keys = fresh_store.runtime.side.keys
    with pytest.raises(memory_es.IntegrityViolation):
        keys.mint_chain_keys({"c/not-minted-here": "0190a0a0-0000-7000-8000-000000000000"})


def test_the_logs_rows_open_as_its_notifications_do(tmp_path: Path) -> None:
    """``open_rows`` of the embedded log's own rows (what a catch-up reads) opens every
    event as ``open_many`` of the library's notifications does: bodies sealed, in clear
    and shredded (a purged entity's come back as None), at the same positions; and a
    record that is not a memory-es record is refused by both."""
    from memory_es.errors import IntegrityViolation

    with memory_es.open(tmp_path / "s") as store:
        for i in range(6):
            store.assert_fact("acme", f"user:u{i}", "home.city", f"City {i}")
        store.purge("acme", "user:u2", confirm=store.preview("purge", "acme", "user:u2").token)
        store.assert_fact("acme", "user:u7", "home.city", "Lima")
        recorder, mapper = store.runtime.log.recorder, store.runtime.side.mapper
        assert isinstance(recorder, SqliteRecorder)
        head = recorder.max_notification_id()
        notes = recorder.select_notifications(start=1, limit=1000, stop=head)
        rows = recorder.select_rows(1, 1000, head)
        assert [int(r[0]) for r in rows] == [n.id for n in notes]
        by_rows, by_notes = mapper.open_rows(rows), mapper.open_many(notes)
        assert by_rows == by_notes
        assert [u.plaintext for u in by_rows] == [u.plaintext for u in by_notes]
        assert any(u.shredded for u in by_rows) and any(not u.kid for u in by_rows)
        assert not all(u.shredded for u in by_rows)
        assert recorder.select_rows(3, 2, head) == rows[2:4]
        bad = (1, "x", 1, "t", b"NOT" + bytes(60))
        with pytest.raises(IntegrityViolation):
            mapper.open_rows([bad])


def test_a_replay_opens_chain_keys_per_use_and_caches_none_of_them(tmp_path: Path) -> None:
    """Rows opened with ``keep_keys=False`` (a rebuild's reads) come back as with the key
    cache, shredded bodies included, yet leave no chain key in the cache; a ciphertext
    moved to another event still fails authentication under a key opened per use."""
    from memory_es.crypto.keystore import chain_key_id
    from memory_es.errors import IntegrityViolation

    with memory_es.open(tmp_path / "s") as store:
        for i in range(6):
            store.assert_fact("acme", f"user:u{i}", "home.city", f"City {i}")
            store.supersede("acme", f"user:u{i}", "home.city", f"Town {i}")
        store.purge("acme", "user:u2", confirm=store.preview("purge", "acme", "user:u2").token)
    for reopened in range(2):  # each time with no key cached
        with memory_es.open(tmp_path / "s") as store:
            recorder, mapper = store.runtime.log.recorder, store.runtime.side.mapper
            assert isinstance(recorder, SqliteRecorder)
            rows = recorder.select_rows(1, 1000, recorder.max_notification_id())
            replayed = mapper.open_rows(rows, keep_keys=False)
            chains = {u.kid for u in replayed if u.kid.startswith(chain_key_id(""))}
            opened = [k for k, u in enumerate(replayed) if u.kid in chains and not u.shredded]
            if reopened:
                i, j, other = opened[:3]
                cut = _HEAD.size + len(replayed[i].kid)  # the header; then the sealed body
                moved = (*rows[i][:4],
                         rows[i][4][:cut] + rows[j][4][_HEAD.size + len(replayed[j].kid):])
                with pytest.raises(IntegrityViolation):  # two keys: loaded as in a batch
                    mapper.open_rows([rows[other], moved], keep_keys=False)
                continue
            assert chains and not store.runtime.side.keys.cached(sorted(chains))
            assert replayed == mapper.open_rows(rows)
            assert any(u.shredded for u in replayed) and len(opened) > 3
