"""Physical removal and residue checks for the DuckDB read model and its exports.

A DELETE followed by CHECKPOINT or VACUUM leaves the deleted bytes in DuckDB's file
(freed blocks keep them; NOTES.md). Only writing a fresh database and swapping it in
removes them, so purge ends with :func:`rewrite_database`.
"""

from __future__ import annotations

import os
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from memory_es.choices import CheckResult
from memory_es.models import StoreCheck

EXPORTS_DDL = (
    "CREATE TABLE IF NOT EXISTS exports (path VARCHAR PRIMARY KEY, tenant VARCHAR, "
    "valid_at BIGINT NOT NULL, known_at BIGINT NOT NULL, written_at BIGINT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS export_temps (path VARCHAR PRIMARY KEY)",
)


def rewrite_database(con: duckdb.DuckDBPyConnection, path: Path) -> None:
    """Copy the live database into a fresh file and atomically replace the old one.

    The caller must reopen its connection afterwards (``con`` is closed here).
    """
    fresh = path.with_name(path.name + ".rewrite")
    for leftover in (fresh, fresh.with_name(fresh.name + ".wal")):
        leftover.unlink(missing_ok=True)
    (current,) = con.execute("SELECT current_database()").fetchall()[0]
    con.execute(f"ATTACH '{fresh}' AS memory_es_fresh")
    con.execute(f'COPY FROM DATABASE "{current}" TO memory_es_fresh')
    con.execute("DETACH memory_es_fresh")
    con.execute("CHECKPOINT")
    con.close()
    os.replace(fresh, path)
    Path(str(path) + ".wal").unlink(missing_ok=True)


def versions_residue(con: duckdb.DuckDBPyConnection, fact_ids: list[str],
                     rewritten: bool) -> StoreCheck:
    """Rows of the purged facts left in ``fact_versions`` (and whether the file was rewritten)."""
    found: list[str] = []
    if fact_ids:
        con.register("_check", pa.table({"fact_id": pa.array(fact_ids, pa.string())}))
        try:
            found = [r[0] for r in con.execute(
                "SELECT DISTINCT fact_id FROM fact_versions "
                "WHERE fact_id IN (SELECT fact_id FROM _check)").fetchall()]
        finally:
            con.unregister("_check")
    pending = [] if rewritten else ["rewrite the database file (deleted blocks keep bytes)"]
    return StoreCheck(
        name="duckdb_views",
        method="query fact_versions for the purged fact ids; file rewritten into a fresh "
               "database after the delete",
        result=CheckResult.verdict(found, pending),
        checked=[f"{len(fact_ids)} fact ids in fact_versions", "views.duckdb rewritten"],
        residues=found, pending=pending,
    )


def exports_residue(con: duckdb.DuckDBPyConnection, fact_ids: list[str],
                    purged_at: int) -> StoreCheck:
    """Every Parquet export the store wrote: regenerated after the purge, free of its ids."""
    wanted = set(fact_ids)
    residues: list[str] = []
    pending: list[str] = []
    checked: list[str] = []
    for path_text, written_at in con.execute("SELECT path, written_at FROM exports").fetchall():
        path = Path(path_text)
        if not path.exists():
            continue
        checked.append(str(path))
        if written_at < purged_at:
            pending.append(f"regenerate {path}")
        ids = set(pq.read_table(path, columns=["fact_id"]).column("fact_id").to_pylist())
        residues += sorted(f"{path}: {fid}" for fid in ids & wanted)
    return StoreCheck(
        name="exports",
        method="re-read the fact_id column of every Parquet export the store wrote",
        result=CheckResult.verdict(residues, pending),
        checked=checked, residues=residues, pending=pending,
    )
