"""Forensics of purge on the embedded store: every byte of every file it owns (issue 3).

The store's folder holds the SQLite event log and key store (with their ``-wal`` and
``-shm`` files), the DuckDB views (and its ``.wal``), the recall index file and any
Parquet export written there; an export can also live outside the folder. DuckDB is
forced to ``force_compression='uncompressed'``: with compression a marker can be
present yet invisible to a byte scan (NOTES.md). A regression test shows why purge
rewrites DuckDB into a fresh file: DELETE plus CHECKPOINT (or VACUUM) leaves the bytes.
The other purge tests (swap, key re-issue, chains, neighbours, receipts, replay,
confirmation, preview, motives) run on SQLite and PostgreSQL in
``tests/contracts/test_erasure_contract.py``.
"""

from __future__ import annotations

import sqlite3
import uuid
from pathlib import Path

import duckdb

from projections.erasure import rewrite_database
from tests.conftest import StoreFactory
from tests.fakes import FakeClock

T = "acme"
UNCOMPRESSED = {"force_compression": "uncompressed"}


def scan(needle: bytes, *roots: Path) -> dict[str, bool]:
    """Every file under ``roots``: does it hold ``needle``?"""
    return {str(p.relative_to(root)): needle in p.read_bytes() for root in roots
            for p in sorted(root.rglob("*")) if p.is_file()}


def test_purge_leaves_the_marker_in_no_file_the_store_owns(
        store_factory: StoreFactory, store_path: Path, clock: FakeClock,
        tmp_path: Path) -> None:
    """A marker planted in an entity's id, alias, values, text and source, recalled and
    exported, is found before the purge and in no file afterwards, open or closed
    (log, key store and their -wal/-shm, DuckDB, recall index, Parquet exports); the
    entity's wrapped keys leave the key store's files too."""
    store = store_factory(views_settings=UNCOMPRESSED)
    m = f"zqm{uuid.uuid4().hex}"
    entity = f"user:{m}"
    store.alias(T, f"{m}@mail.example", entity)
    first = store.assert_fact(T, entity, "home.city", f"{m} city", text=f"lives in {m} city",
                              source=f"chat:{m}")
    clock.advance(minutes=1)
    store.supersede(T, entity, "home.city", f"{m} town")
    store.assert_fact(T, entity, "contact.email", f"{m}@mail.example")
    store.assert_fact(T, "user:alexandra", "home.city", "Oslo")
    clock.advance(minutes=1)
    assert {h.fact.entity for h in store.recall(T, m, k=5, receipt=True)} == {entity}
    outside = tmp_path / "exports"
    store.export(store_path / "exports" / "snap.parquet", T)
    store.export(outside / "snap.parquet", T)
    store._recall.flush()
    store._con.execute("CHECKPOINT")
    stream_id = first.event_id.rsplit(":", 1)[0]
    keys_db = sqlite3.connect(store_path / "keys.db")
    try:
        wrapped = [bytes(r[0]) for r in keys_db.execute(
            "SELECT wrapped FROM me_keys WHERE stream_id = ?", (stream_id,))]
    finally:
        keys_db.close()
    assert len(wrapped) == 3  # the entity key and one sub-key per chain
    before = scan(m.encode(), store_path, outside)
    assert {"views.duckdb", "recall.npz", "exports/snap.parquet", "snap.parquet"} <= \
        {name for name, found in before.items() if found}, before  # the scan sees it
    key_bytes = b"".join((store_path / n).read_bytes() for n in ("keys.db", "keys.db-wal")
                         if (store_path / n).exists())
    assert all(w in key_bytes for w in wrapped)

    receipt = store.purge(T, entity, requested_by="dpo@acme")
    assert receipt.report is not None
    assert receipt.report.receipt_id == receipt.receipt_id
    print(receipt.report.model_dump_json(indent=2))  # the residue report, for the record
    assert receipt.report.complete
    while_open = scan(m.encode(), store_path, outside)
    assert {"events.db-wal", "keys.db-wal", "views.duckdb"} <= set(while_open)
    assert [name for name, found in while_open.items() if found] == []
    store.close()

    after = scan(m.encode(), store_path, outside)
    assert {"events.db", "keys.db", "views.duckdb", "recall.npz", "exports/snap.parquet",
            "snap.parquet"} <= set(after)
    assert [name for name, found in after.items() if found] == []
    files = [p for root in (store_path, outside) for p in root.rglob("*") if p.is_file()]
    assert not [(p.name, i) for p in files for i, w in enumerate(wrapped)
                if w in p.read_bytes()]
    reopened = store_factory(store_path)
    assert [f.entity for f in reopened.current(T)] == ["user:alexandra"]
    assert reopened.recall(T, m, k=5) == []


def test_duckdb_delete_and_checkpoint_alone_leave_the_marker(tmp_path: Path) -> None:
    """Regression: in DuckDB a DELETE followed by CHECKPOINT, VACUUM and FORCE CHECKPOINT
    leaves the deleted row's bytes in the file; only rewriting it into a fresh database
    (what purge does) removes them."""
    path = tmp_path / "scratch.duckdb"
    m = f"zqm{uuid.uuid4().hex}"
    con = duckdb.connect(str(path))
    con.execute("SET force_compression = 'uncompressed'")
    con.execute("CREATE TABLE t (id INTEGER, v VARCHAR)")
    con.execute("INSERT INTO t SELECT i, 'filler-' || i FROM range(5000) r(i)")
    con.execute("INSERT INTO t VALUES (-1, ?)", [f"secret {m}"])
    con.execute("CHECKPOINT")
    assert m.encode() in path.read_bytes()  # the scan sees it while it is live
    con.execute("DELETE FROM t WHERE id = -1")
    for statement in ("CHECKPOINT", "VACUUM", "FORCE CHECKPOINT"):
        con.execute(statement)
    assert con.execute("SELECT count(*) FROM t WHERE v LIKE '%zqm%'").fetchone() == (0,)
    con.close()
    assert not Path(str(path) + ".wal").exists()
    assert m.encode() in path.read_bytes()  # deleted, checkpointed, closed: still on disk

    con = duckdb.connect(str(path))
    con.execute("SET force_compression = 'uncompressed'")
    rewrite_database(con, path)
    assert m.encode() not in path.read_bytes()
    con = duckdb.connect(str(path))
    try:
        assert con.execute("SELECT count(*) FROM t").fetchone() == (5000,)
    finally:
        con.close()
