"""Residue checks for the DuckDB read model and its exports.

The views' only files are their snapshot's (:mod:`projections.snapshot`): a deleted row
leaves the disk when its shard's file is written again, at compaction.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import pyarrow.parquet as pq

from memory_es.choices import CheckResult
from memory_es.models import StoreCheck
from projections.connection import ids_in

EXPORTS_DDL = (
    "CREATE TABLE IF NOT EXISTS exports (path VARCHAR PRIMARY KEY, tenant VARCHAR, "
    "valid_at BIGINT NOT NULL, known_at BIGINT NOT NULL, written_at BIGINT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS export_temps (path VARCHAR PRIMARY KEY)",
)


def versions_residue(con: duckdb.DuckDBPyConnection, fact_ids: list[str],
                     rewritten: bool) -> StoreCheck:
    """Rows of the purged facts left in ``fact_versions`` (and whether the file was rewritten)."""
    found: list[str] = []
    if fact_ids:  # through the fact_id index: any row of these ids, whatever its entity
        where, params = ids_in("fact_id", fact_ids)
        found = list(dict.fromkeys(r[0] for r in con.execute(
            f"SELECT fact_id FROM fact_versions WHERE {where}", params).fetchall()))
    pending = [] if rewritten else ["write the purged rows' shards of the views snapshot again"]
    return StoreCheck(
        name="duckdb_views",
        method="query fact_versions for the purged fact ids; the snapshot shards that held "
               "them written again after the delete",
        result=CheckResult.verdict(found, pending),
        checked=[f"{len(fact_ids)} fact ids in fact_versions", "views snapshot shards rewritten"],
        residues=found, pending=pending,
    )


def exports_residue(registry: list[tuple[str, int]], fact_ids: list[str],
                    purged_at: int) -> StoreCheck:
    """Every Parquet export the store wrote (``registry``: the export registry's rows,
    path and time written): regenerated after the purge, free of its ids."""
    wanted = set(fact_ids)
    residues: list[str] = []
    pending: list[str] = []
    checked: list[str] = []
    for path_text, written_at in registry:
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
