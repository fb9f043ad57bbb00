"""Why purge rewrites DuckDB into a fresh file (issue 3): DELETE plus CHECKPOINT (or
VACUUM) leaves the deleted row's bytes. The forensic purge test (every byte of every file
the store owns, open and closed, with DuckDB uncompressed) and the other purge tests run
on SQLite and PostgreSQL in ``tests/contracts/test_erasure_contract.py``.
"""

from __future__ import annotations

import uuid
from pathlib import Path

import duckdb

from projections.erasure import rewrite_database


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
