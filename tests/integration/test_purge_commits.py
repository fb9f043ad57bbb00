"""What a purge commits, and where its file rewrites run (issue #11 item 5): the key
destroy and the clearing of its pending record are one key-store commit; replica
heartbeats are committed without an fsync; the recall files are rewritten on a second
thread that the purge waits for; an export registry read empty is not read again until
the next export. Each keeps the erasure proof honest: nothing reports ``clean`` before
it is done, and a failure leaves what it left before."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

import memory_es
from memory_es.services.notes import PATTERN_ROWS, summaries_residue
from memory_es.write import patterns
from projections import governance
from projections.connection import FEW_IDS, ids_in
from projections.recall import persist
from tests.conftest import StoreFactory
from tests.fakes import FakeClock, Statements

T = "acme"
MARK = "zq-purge-commit-{}"


def fill(store: memory_es.MemoryStore, n: int = 4) -> None:
    for i in range(n):
        store.assert_fact(T, f"user:u{i}", "home.city", MARK.format(i))
        store.assert_fact(T, f"user:u{i}", "contact.email", f"u{i}@mail.example")
    store.catch_up()


@pytest.fixture
def key_statements(store_factory: StoreFactory) -> Iterator[tuple[memory_es.MemoryStore,
                                                                   list[str]]]:
    """A store and the statements its SQLite key store runs from now on."""
    store = store_factory()
    fill(store)
    seen: list[str] = []
    backend: Any = store.runtime.keys.backend
    conn: sqlite3.Connection = backend._conn  # noqa: SLF001 - its statements, traced
    conn.set_trace_callback(seen.append)
    yield store, seen
    conn.set_trace_callback(None)


def transactions(statements: list[str]) -> list[list[str]]:
    """The statements run between each BEGIN and its COMMIT."""
    out: list[list[str]] = []
    current: list[str] | None = None
    for s in statements:
        if s.startswith("BEGIN"):
            current = []
        elif s == "COMMIT" and current is not None:
            out.append(current)
            current = None
        elif current is not None:
            current.append(s)
    return out


def test_the_key_destroy_and_its_pending_record_go_in_one_commit(
        key_statements: tuple[memory_es.MemoryStore, list[str]]) -> None:
    store, seen = key_statements
    receipt = store.purge(T, "user:u1")
    shredding = [tx for tx in transactions(seen) if any("DELETE FROM me_keys" in s for s in tx)]
    assert len(shredding) == 1, seen
    assert any(s.startswith("DELETE FROM me_pending") for s in shredding[0]), shredding
    outside = [s for s in seen if s.startswith("DELETE FROM me_pending")
               and not any(s in tx for tx in shredding)]
    assert outside == []
    assert store.runtime.keys.pending() == []
    assert receipt.report is not None and receipt.report.complete


def test_a_failed_shredding_keeps_its_pending_record_and_the_next_open_finishes_it(
        store_factory: StoreFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """The commit that destroys the keys is the one that clears the record: when it
    fails, both stay, and the next open destroys the keys."""
    store = store_factory()
    fill(store)
    backend = store.runtime.keys.backend
    real = backend.execute

    def failing(sql: str, params: Any = ()) -> list[tuple[Any, ...]]:
        if sql.startswith("INSERT INTO me_shredded"):
            raise sqlite3.OperationalError("disk I/O error")
        return real(sql, params)

    monkeypatch.setattr(backend, "execute", failing)
    with pytest.raises(Exception, match="disk"):
        store.purge(T, "user:u2")
    monkeypatch.undo()
    keys = store.runtime.keys
    pending = keys.pending()
    assert len(pending) == 1  # the record survived the rollback, and so did the keys
    assert pending[0][2] and not any(keys.is_shredded(k) for k in pending[0][2])
    store.close()
    again = store_factory()
    assert again.runtime.keys.pending() == []
    assert again.current(T, entity="user:u2") == []


def test_heartbeats_are_committed_without_waiting_for_the_disk(
        key_statements: tuple[memory_es.MemoryStore, list[str]]) -> None:
    store, seen = key_statements
    store.purge(T, "user:u0")  # a compaction beats
    at = [i for i, s in enumerate(seen) if s.startswith("UPDATE me_replicas")]
    assert at, seen
    for i in at:
        assert seen[i - 2:i] == ["PRAGMA synchronous=NORMAL", "BEGIN IMMEDIATE"], seen[i - 3:i + 3]
        assert seen[i + 1:i + 3] == ["COMMIT", "PRAGMA synchronous=FULL"]
    replica = next(r for r in store.replicas() if r.this_process)
    assert replica.compacted == replica.applied == store.runtime.views.position()


class Crash(Exception):
    pass


def test_the_recall_rewrite_runs_beside_the_views_and_is_waited_for(
        store_factory: StoreFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    store = store_factory()
    fill(store)
    steps: list[tuple[str, bool]] = []
    done = threading.Event()

    def record(name: str) -> None:
        steps.append((name, threading.current_thread() is threading.main_thread()))
        if name.startswith("delete superseded"):
            done.wait(0.2)  # slow: the purge must still wait for it
            done.set()

    monkeypatch.setattr(persist, "before_step", record)
    receipt = store.purge(T, "user:u3")
    assert steps and not any(on_main for _, on_main in steps), steps
    assert done.is_set()
    assert receipt.report is not None and receipt.report.complete


def test_a_failed_recall_rewrite_fails_the_compaction_and_stays_pending(
        store_factory: StoreFactory, monkeypatch: pytest.MonkeyPatch,
        clock: FakeClock) -> None:
    store = store_factory()
    fill(store)
    receipt = store.purge(T, "user:u1", compact="deferred")
    before = store.runtime.compacted

    def crash(name: str) -> None:
        if name.startswith("replace manifest"):
            raise Crash(name)

    monkeypatch.setattr(persist, "before_step", crash)
    with pytest.raises(Crash):
        store.compact()
    monkeypatch.undo()
    # nothing counts as compacted, here or in the registry
    assert store.runtime.compacted == before < store.runtime.views.position()
    assert next(r for r in store.replicas() if r.this_process).compacted <= before
    assert store.runtime.recall.residue(list(receipt.fact_ids)).result != "clean"
    clock.advance(minutes=1)
    assert store.verify_erasure(receipt).complete  # its catch-up compacts again


def test_an_empty_export_registry_is_not_read_again_until_an_export(
        store_factory: StoreFactory, tmp_path: Path) -> None:
    store = store_factory()
    fill(store)
    views = store.runtime.views
    assert views.export_paths() == []
    assert views.leftovers_residue().result == "clean"
    real = views._con  # noqa: SLF001 - the registry is read through it
    spy = Statements(real)
    views._con = spy  # type: ignore[assignment]  # noqa: SLF001
    try:
        assert views.export_paths() == []
        views.regenerate_exports(0)
        assert views.exports_residue(["f"], 0).result == "clean"
        assert views.leftovers_residue().result == "clean"
    finally:
        views._con = real  # noqa: SLF001
    assert not [s for s in spy.executed if "export" in s], spy.executed
    # an export makes the registry read again: the next purge regenerates and checks it
    out = store.export(tmp_path / "out.parquet", T)
    assert views.export_paths() == [str(out.resolve())]
    before = pq.read_table(out, columns=["fact_id"]).num_rows
    receipt = store.purge(T, "user:u0")
    assert receipt.report is not None and receipt.report.complete
    exports = next(s for s in receipt.report.stores if s.name == "exports")
    assert exports.checked == [str(out.resolve())]
    assert pq.read_table(out, columns=["fact_id"]).num_rows == before - 2
    assert MARK.format(0).encode() not in out.read_bytes()


class Queries(Statements):
    """:class:`Statements` that also records ``sql`` (Arrow reads)."""

    def sql(self, query: str, **kwargs: Any) -> Any:
        self.sql_seen.append(query)
        return self._con.sql(query, **kwargs)

    def __init__(self, con: Any) -> None:
        super().__init__(con)
        self.sql_seen: list[str] = []


def test_the_recall_index_reads_nothing_for_the_facts_a_purge_removed(
        store_factory: StoreFactory) -> None:
    """Removing purged facts from the recall index needs no DuckDB read (not even an
    empty one for its column types); their entries still go."""
    store = store_factory()
    fill(store)
    store.purge(T, "user:u0")  # the first one may ask DuckDB for the types, once
    index = store.runtime.recall
    gone = [f.fact_id for f in store.current(T, entity="user:u1")]
    real = index._con  # noqa: SLF001 - a callable giving the views' reader
    spy = Queries(index.con)
    index.con = spy  # type: ignore[assignment]
    try:
        receipt = store.purge(T, "user:u1")
    finally:
        index.con = real  # type: ignore[assignment]
    assert not [q for q in [*spy.sql_seen, *spy.executed] if "LIMIT 0" in q], spy.sql_seen
    assert index.last_error is None
    assert gone and not set(gone) & index.fact_ids()
    assert receipt.report is not None and receipt.report.complete


def test_the_views_rewrite_time_survives_a_reopen(store_factory: StoreFactory,
                                                  clock: FakeClock) -> None:
    """The time of the views' last rewrite is kept in their ``meta`` table (written the
    first time, then updated), so a reopened store still proves its purges rewritten."""
    store = store_factory()
    fill(store)
    first = store.purge(T, "user:u0")
    clock.advance(minutes=1)
    second = store.purge(T, "user:u1")
    at = store.runtime.views.last_rewrite
    assert at > 0
    store.close()
    again = store_factory()
    assert again.runtime.views.last_rewrite == at
    for receipt in (first, second):
        report = again.verify_erasure(receipt)
        assert report.complete, [(s.name, s.result) for s in report.stores]


def test_a_purge_deletes_and_checks_its_rows_by_the_listed_ids(
        store_factory: StoreFactory) -> None:
    """The purge's DELETE and the views' residue check name each id as a parameter of
    their own, which DuckDB looks up in the ``fact_id`` index as it is (a list unnested
    in a subquery is planned as a join around the same lookup)."""
    store = store_factory()
    fill(store)
    views = store.runtime.views
    projector = views.projector
    real = projector.con
    spy = Statements(real)
    projector.con = spy  # type: ignore[assignment]
    try:
        receipt = store.purge(T, "user:u0")
    finally:
        projector.con = real
    deletes = [s for s in spy.executed if s.startswith("DELETE FROM fact_versions")]
    assert deletes == ["DELETE FROM fact_versions WHERE fact_id IN (?, ?) "
                       "RETURNING shard, fact_id"], spy.executed
    check = Statements(views._con)  # noqa: SLF001 - the residue check reads through it
    views._con = check  # type: ignore[assignment]  # noqa: SLF001
    try:
        assert views.versions_residue(list(receipt.fact_ids), 0).result == "clean"
    finally:
        views._con = check._con  # noqa: SLF001
    assert [s for s in check.executed if "fact_versions" in s] == [
        "SELECT fact_id FROM fact_versions WHERE fact_id IN (?, ?)"]


def test_many_ids_are_still_looked_up_as_one_list(store_factory: StoreFactory) -> None:
    """Past :data:`FEW_IDS` the ids go as one list (one parameter each would cost more to
    plan); a purge of that many facts still removes and checks every one of them."""
    store = store_factory()
    for i in range(FEW_IDS + 1):
        store.assert_fact(T, "user:many", f"custom.a{i}", MARK.format(i))
    ids = [f.fact_id for f in store.current(T, entity="user:many")]
    assert ids_in("fact_id", ids)[1] == [ids]
    receipt = store.purge(T, "user:many")
    assert sorted(receipt.fact_ids) == sorted(ids)
    assert receipt.report is not None and receipt.report.complete


FINDINGS = [
    "We found checkout latency spikes because the cache warms slowly after deploys.",
    "We observed checkout latency spikes after deploys because the cache warms slowly.",
    "We noticed checkout latency spikes after deploys, because the cache warms slowly.",
]


def test_the_summaries_check_reads_the_patterns_through_the_attribute_index(
        store_factory: StoreFactory) -> None:
    """The residue report's summaries check looks the consolidation patterns' rows up in
    the ``attribute`` index (not a read of every row), and still names a pattern version
    that drew on a given fact while it is in the views."""
    store = store_factory()
    fill(store)
    members = [str(store.note(T, f"user:n{i}", "finding", text, gate=False).fact_id)
               for i, text in enumerate(FINDINGS)]
    [pattern] = [str(r.fact_id) for r in store.consolidate(T, summarise=" / ".join)]
    store.catch_up()
    con = store.runtime.views.con
    plan = "\n".join(str(r[1]) for r in con.execute(
        "EXPLAIN ANALYZE " + PATTERN_ROWS, [patterns.PATTERN]).fetchall())
    assert "Index Scan" in plan, plan
    found = summaries_residue(store.runtime, [members[1], "f-unrelated"])
    assert (found.result, found.residues) == ("residue", [pattern])
    assert summaries_residue(store.runtime, ["f-unrelated"]).result == "clean"


def ledger_rows(store: memory_es.MemoryStore, fact_id: str) -> int:
    con = store.runtime.views.ledger_con()
    return sum(int(con.execute(f"SELECT count(*) FROM {table} WHERE fact_id = ?",
                               [fact_id]).fetchall()[0][0]) for table in governance.TABLES)


def test_ledger_tables_found_empty_are_not_probed_again_until_they_change(
        store_factory: StoreFactory) -> None:
    """A purge of facts no ledger holds runs no statement on ledger tables it already
    found empty; a ledger row written after that is still deleted by the purge of its
    fact."""
    store = store_factory()
    fill(store)
    projector = store.runtime.views.projector
    real = projector.con
    spy = Statements(real)  # the connection what is known of the ledgers is kept for
    projector.con = spy  # type: ignore[assignment]
    try:
        store.purge(T, "user:u0")  # finds every ledger table empty
        spy.executed.clear()
        store.purge(T, "user:u1")
    finally:
        projector.con = real
    assert not [s for s in spy.executed if any(t in s for t in governance.TABLES)], spy.executed
    [hit] = store.recall(T, MARK.format(2), k=1, receipt=True)
    store.catch_up()
    assert ledger_rows(store, hit.fact.fact_id) == 1
    receipt = store.purge(T, "user:u2")
    assert ledger_rows(store, hit.fact.fact_id) == 0
    assert receipt.report is not None and receipt.report.complete


def test_what_a_rolled_back_purge_found_empty_is_read_again(
        store_factory: StoreFactory) -> None:
    """A ledger table emptied inside a transaction that rolls back holds its rows again:
    the next purge of their fact probes it and deletes them."""
    store = store_factory()
    fill(store)
    [hit] = store.recall(T, MARK.format(0), k=1, receipt=True)
    store.catch_up()
    fid = hit.fact.fact_id
    assert ledger_rows(store, fid) == 1
    con = store.runtime.views.ledger_con()
    con.execute("BEGIN TRANSACTION")
    governance.forget(con, [fid])
    governance.forget(con, ["f-other"])  # finds ``served`` empty, inside the transaction
    con.execute("ROLLBACK")
    governance.rolled_back(con)
    assert ledger_rows(store, fid) == 1
    store.purge(T, "user:u0")
    assert ledger_rows(store, fid) == 0
