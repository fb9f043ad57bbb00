"""The lean write path on SQLite: multi-row appends, batched key-store flushes, a unit's
name memo, and the guarantees they must keep (atomic batches, optimistic concurrency).

Built on the write side alone (log, key store, write service), without the views, so
each test looks at exactly what a commit put in the log and the key store.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from eventsourcing.persistence import IntegrityError, StoredEvent

from memory_es.clock import TransactionClock
from memory_es.crypto.keystore import HELD_NAMES, KeyStore, SqliteKeyBackend
from memory_es.crypto.master import MasterKey
from memory_es.crypto.sealing import DataKey
from memory_es.domain import commands as c
from memory_es.errors import ConcurrentWriteError, InvalidInput
from memory_es.eventlog import APPEND_CHUNK, SqliteEventLog
from memory_es.ids import new_stream_id, stream_of
from memory_es.write.service import WriteService
from memory_es.write.side import WriteSide

START = 1_750_000_000_000_000


@dataclass
class Writer:
    """One writer process's write side over a shared folder."""

    log: SqliteEventLog
    side: WriteSide
    service: WriteService


@pytest.fixture
def master() -> MasterKey:
    """One master key for every writer of the test's folder."""
    return MasterKey(os.urandom(32))


@pytest.fixture
def writers(tmp_path: Path, master: MasterKey) -> Iterator[list[Writer]]:
    """Opens writers on one folder (each with its own caches); closed at teardown."""
    opened: list[Writer] = []
    yield opened
    for w in opened:
        w.log.close()


def open_writer(folder: Path, master: MasterKey, opened: list[Writer]) -> Writer:
    log = SqliteEventLog(folder, master)
    clock = TransactionClock(last=START)
    side = WriteSide(log, clock)
    writer = Writer(log, side, WriteService(side, clock, threading.RLock()))
    opened.append(writer)
    return writer


def assert_cmd(entity: str, attribute: str, value: str) -> c.AssertFact:
    return c.AssertFact(tenant="acme", entity=entity, attribute=attribute, value=value)


def log_rows(log: SqliteEventLog) -> list[tuple[int, str, int]]:
    """(position, stream, version) of every event, in log order."""
    return [(n.id, str(n.originator_id), n.originator_version)
            for n in log.recorder.select_notifications(start=1, limit=100_000)]


def test_append_positions_are_the_log_positions_across_statements(
        tmp_path: Path, master: MasterKey, writers: list[Writer]) -> None:
    """Positions returned for a batch spanning several INSERT statements are the rowids
    the log gives the events, in order, continuing from what was there before."""
    log = open_writer(tmp_path, master, writers).log
    first = [StoredEvent(originator_id=new_stream_id(), originator_version=1, topic="t",
                         state=b"x") for _ in range(3)]
    assert log.append(first) == [1, 2, 3]
    batch = [StoredEvent(originator_id=new_stream_id(), originator_version=v, topic="t",
                         state=os.urandom(20))
             for _ in range(APPEND_CHUNK + 7) for v in (1, 2)]
    positions = log.append(batch)
    rows = log_rows(log)
    assert positions == [p for p, _, _ in rows[3:]]
    assert [(s, v) for _, s, v in rows[3:]] == [
        (e.originator_id, e.originator_version) for e in batch]
    assert log.append([]) == []


def test_append_with_a_taken_version_writes_none_of_the_batch(
        tmp_path: Path, master: MasterKey, writers: list[Writer]) -> None:
    """One event at a version already in the log fails the whole multi-row append: none
    of its events are written, even those in statements before the failing one."""
    log = open_writer(tmp_path, master, writers).log
    taken = new_stream_id()
    log.append([StoredEvent(originator_id=taken, originator_version=1, topic="t",
                            state=b"x")])
    batch = [StoredEvent(originator_id=new_stream_id(), originator_version=1, topic="t",
                         state=b"y") for _ in range(APPEND_CHUNK + 1)]
    batch.append(StoredEvent(originator_id=taken, originator_version=1, topic="t",
                             state=b"z"))
    with pytest.raises(IntegrityError):
        log.append(batch)
    assert len(log_rows(log)) == 1
    assert log.append(batch[:2]) == [2, 3]


def test_a_one_statement_append_with_a_taken_version_writes_none_of_it(
        tmp_path: Path, master: MasterKey, writers: list[Writer]) -> None:
    """A unit small enough for one INSERT (appended without BEGIN/COMMIT around it) is
    still all or nothing: a taken version fails it with nothing written, and the log's
    positions go on from where they were."""
    log = open_writer(tmp_path, master, writers).log
    taken = new_stream_id()
    assert log.append([StoredEvent(originator_id=taken, originator_version=1, topic="t",
                                   state=b"x")]) == [1]
    batch = [StoredEvent(originator_id=new_stream_id(), originator_version=1, topic="t",
                         state=b"y") for _ in range(5)]
    with pytest.raises(IntegrityError):
        log.append([*batch, StoredEvent(originator_id=taken, originator_version=1,
                                        topic="t", state=b"z")])
    assert len(log_rows(log)) == 1
    assert log.append(batch) == [2, 3, 4, 5, 6]
    assert log.append([StoredEvent(originator_id=taken, originator_version=2, topic="t",
                                   state=b"w")]) == [7]


def test_batched_receipts_point_at_their_own_events(
        tmp_path: Path, master: MasterKey, writers: list[Writer]) -> None:
    """Each receipt of a 600-fact unit names the position of its own event, and the
    names and keys the unit created are all in the key store after the commit."""
    w = open_writer(tmp_path, master, writers)
    with w.service.unit() as staging:
        for k in range(600):
            staging.stage(assert_cmd(f"user:u{k // 10}", f"attr.a{k % 10}", f"v{k}"))
    receipts = staging.receipts
    assert len(receipts) == 600
    for r in receipts:
        stream, version = r.event_id.rsplit(":", 1)
        assert w.log.position_of(stream, int(version)) == r.position
    assert [r.position for r in receipts] == list(range(1, 601))
    other = open_writer(tmp_path, master, writers)  # a cold reader of the key store
    for k in (0, 599):
        sid = other.side.keys.lookup("entity", "acme", f"user:u{k // 10}")
        assert sid is not None and sid == stream_of(str(receipts[k].fact_id))
        assert other.side.load(sid).facts  # every event opens under a stored key


def test_a_unit_resolves_each_canonical_entity_once(
        tmp_path: Path, master: MasterKey, writers: list[Writer],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Ten facts about one entity in one unit cost one keyed-hash lookup of its name, not
    ten; the next unit asks again (its memo ended with the first)."""
    w = open_writer(tmp_path, master, writers)
    asked: list[tuple[str, ...]] = []
    digest = w.side.keys.digest

    def counting(*parts: str) -> bytes:
        asked.append(parts)
        return digest(*parts)

    monkeypatch.setattr(w.side.keys, "digest", counting)
    with w.service.unit() as staging:
        for k in range(10):
            staging.stage(assert_cmd("user:alex", f"attr.a{k}", "x"))
    assert asked.count(("entity", "acme", "user:alex")) == 1
    streams = {stream_of(str(r.fact_id)) for r in staging.receipts}
    assert len(streams) == 1
    w.service.execute(assert_cmd("user:alex", "attr.b", "y"))
    assert asked.count(("entity", "acme", "user:alex")) == 2


def test_a_failing_command_in_a_batch_leaves_the_batch_usable_and_a_raise_writes_nothing(
        tmp_path: Path, master: MasterKey, writers: list[Writer]) -> None:
    """A command refused mid-batch stages nothing of its own; a block that raises appends
    nothing at all, and the next unit writes as if it had never been opened."""
    w = open_writer(tmp_path, master, writers)
    with pytest.raises(RuntimeError), w.service.unit() as staging:
        for k in range(50):
            staging.stage(assert_cmd(f"user:u{k}", "home.city", "x"))
        with pytest.raises(InvalidInput):
            staging.stage(c.AssertFact(tenant="acme", entity="not canonical", attribute="a",
                                       value="x"))
        raise RuntimeError("the caller's block fails")
    assert log_rows(w.log) == []
    r = w.service.execute(assert_cmd("user:u1", "home.city", "y"))
    assert r.position == 1
    assert w.side.load(stream_of(str(r.fact_id))).version == 1


def test_a_second_writer_on_the_same_stream_is_retried_not_lost(
        tmp_path: Path, master: MasterKey, writers: list[Writer]) -> None:
    """Optimistic concurrency survives the multi-row append: a writer whose cached stream
    is stale loses the race with an integrity error, re-reads, and its command lands on
    top of the other writer's event."""
    a = open_writer(tmp_path, master, writers)
    b = open_writer(tmp_path, master, writers)
    first = a.service.execute(assert_cmd("user:alex", "home.city", "Paris"))
    stream = stream_of(str(first.fact_id))
    b.service.execute(assert_cmd("user:alex", "work.city", "Lyon"))  # b reads, appends v2
    later = a.service.execute(assert_cmd("user:alex", "pet", "cat"))  # a's cache says v1
    assert later.event_id == f"{stream}:3"
    assert [v for _, s, v in log_rows(a.log) if s == stream] == [1, 2, 3]


def test_a_name_bound_by_another_writer_fails_the_flush_and_forgets_the_stage(
        tmp_path: Path, master: MasterKey) -> None:
    """Two key stores binding one natural key to different streams: the second flush
    raises ConcurrentWriteError and drops what it staged; re-flushing rows that are
    already stored with the same bytes succeeds (a retried flush)."""
    one = KeyStore(SqliteKeyBackend(tmp_path / "keys.db"), master)
    two = KeyStore(SqliteKeyBackend(tmp_path / "keys.db"), master)
    try:
        s1, s2 = new_stream_id(), new_stream_id()
        one.bind("entity", s1, "acme", "user:alex", looked_up=True)
        one.entity_key(s1)
        two.bind("entity", s2, "acme", "user:alex", looked_up=True)
        two.entity_key(s2)
        # what the first flush writes, to stage again below (the stage is private state)
        staged = dict(one._staged_keys), dict(one._staged_names)  # noqa: SLF001
        one.flush()
        with pytest.raises(ConcurrentWriteError):
            two.flush()
        assert two.lookup("entity", "acme", "user:alex") == s1
        assert two.keys_of_stream(s2) == []
        one.chain_key(s1, new_stream_id())
        one._staged_keys.update(staged[0])  # noqa: SLF001 - as if its commit went unseen
        one._staged_names.update(staged[1])  # noqa: SLF001
        one.flush()
        assert len(one.keys_of_stream(s1)) == 2
        assert one.names_of_stream(s1) == 1
    finally:
        one.close()
        two.close()


def test_a_new_entity_takes_a_stream_minted_ahead_and_commits_nothing_to_the_key_store(
        tmp_path: Path, master: MasterKey, writers: list[Writer],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With streams minted ahead, a single write of a new entity commits only the log: its
    name row is held back (readable in this process) and written, without waiting for the
    disk, once HELD_NAMES are held or the key store closes. The stream and its first
    chain's key are the ones minted ahead."""
    w = open_writer(tmp_path, master, writers)
    w.service.execute(assert_cmd("user:first", "home.city", "x"))  # fills the pool
    ahead = dict(w.side.keys.pooled())
    assert ahead
    commits: list[bool] = []  # the key store's, durable or not
    backend = w.side.keys.backend
    transaction = backend.transaction

    def watched(*, durable: bool = True) -> object:
        commits.append(durable)
        return transaction(durable=durable)

    monkeypatch.setattr(backend, "transaction", watched)
    r = w.service.execute(assert_cmd("user:alex", "home.city", "Paris"))
    stream = stream_of(str(r.fact_id))
    assert commits == []
    assert w.side.keys.lookup("entity", "acme", "user:alex") == stream
    stored = w.log.recorder.select_events(stream)
    assert [w.side.mapper.header(e)[2] for e in stored] == [f"c/{ahead[stream]}"]

    def rows(sql: str) -> int:
        raw = sqlite3.connect(tmp_path / "keys.db")
        try:
            return int(raw.execute(sql, (stream,)).fetchone()[0])
        finally:
            raw.close()

    named = "SELECT count(*) FROM me_names WHERE stream_id = ?"
    pooled = "SELECT count(*) FROM me_pool WHERE stream_id = ?"
    assert (rows(named), rows(pooled)) == (0, 1)  # held back
    for i in range(HELD_NAMES - 1):
        w.service.execute(assert_cmd(f"user:n{i}", "home.city", "Oslo"))
    assert False in commits  # one commit that does not wait for the disk
    assert (rows(named), rows(pooled)) == (1, 0)


def test_held_names_are_written_when_the_key_store_closes(
        tmp_path: Path, master: MasterKey, writers: list[Writer]) -> None:
    w = open_writer(tmp_path, master, writers)
    r = w.service.execute(assert_cmd("user:alex", "home.city", "Paris"))
    w.log.close()
    writers.remove(w)
    raw = sqlite3.connect(tmp_path / "keys.db")
    try:
        assert raw.execute("SELECT count(*) FROM me_names WHERE stream_id = ?",
                           (stream_of(str(r.fact_id)),)).fetchone()[0] == 1
        assert raw.execute("SELECT count(*) FROM me_pool WHERE stream_id = ?",
                           (stream_of(str(r.fact_id)),)).fetchone()[0] == 0
    finally:
        raw.close()


def test_a_name_commit_undone_by_a_power_loss_is_bound_again_at_the_next_open(
        tmp_path: Path, master: MasterKey, writers: list[Writer]) -> None:
    """A power loss may undo the name commit of a stream taken from the pool, never the
    log's commit after it: the next writer finds the stream back in the pool with events,
    binds its name again from its first event, and the entity stays one stream."""
    a = open_writer(tmp_path, master, writers)
    first = a.service.execute(assert_cmd("user:alex", "home.city", "Paris"))
    stream = stream_of(str(first.fact_id))
    chain = a.side.load(stream).facts[str(first.fact_id)].chain_id
    a.log.close()
    writers.remove(a)
    raw = sqlite3.connect(tmp_path / "keys.db")
    with raw:  # what the undone commit had done, undone
        raw.execute("DELETE FROM me_names WHERE stream_id = ?", (stream,))
        raw.execute("INSERT INTO me_pool (stream_id, chain_id) VALUES (?, ?)", (stream, chain))
    raw.close()
    b = open_writer(tmp_path, master, writers)
    assert b.side.keys.lookup("entity", "acme", "user:alex") is None  # the loss, as seen
    other = b.service.execute(assert_cmd("user:bo", "home.city", "Rome"))  # takes a stream
    assert stream_of(str(other.fact_id)) != stream
    assert b.side.keys.lookup("entity", "acme", "user:alex") == stream
    assert stream not in dict(b.side.keys.pooled())
    again = b.service.execute(assert_cmd("user:alex", "work.city", "Lyon"))
    assert stream_of(str(again.fact_id)) == stream
    facts = b.side.load(stream).facts
    assert {f.content["value"] for f in facts.values()} == {"Paris", "Lyon"}


def _fingerprint(key: DataKey) -> bytes:
    """What a data key makes of a fixed plaintext under a fixed nonce: equal exactly when
    two keys hold the same material (the material itself is never exposed)."""
    return key.seal(b"probe", b"aad", bytes(12))


def test_streams_minted_ahead_have_distinct_keys_that_unwrap_cold(
        tmp_path: Path, master: MasterKey, writers: list[Writer]) -> None:
    """The pool's entity and first-chain keys (minted together, their material read at
    once) are each their own: no two alike, and a writer that opens the folder afterwards
    unwraps the same key from each stored row."""
    w = open_writer(tmp_path, master, writers)
    with w.service.unit() as staging:
        for k in range(3):
            staging.stage(assert_cmd(f"user:u{k}", "home.city", "Oslo"))
    pooled = w.side.keys.pooled()
    assert len(pooled) >= 100
    cold = open_writer(tmp_path, master, writers).side.keys
    prints = []
    for stream_id, chain_id in pooled[:100]:
        for warm_key, cold_key in (
                (w.side.keys.entity_key(stream_id, create=False),
                 cold.entity_key(stream_id, create=False)),
                (w.side.keys.chain_key(stream_id, chain_id, create=False),
                 cold.chain_key(stream_id, chain_id, create=False))):
            assert _fingerprint(warm_key) == _fingerprint(cold_key)
            prints.append(_fingerprint(warm_key))
    assert len(set(prints)) == len(prints) == 200
