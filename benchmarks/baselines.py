"""Baselines measured in the same run as the store, on the same rows (``workload``).

(a) **Floor**: the rows inserted into bare SQLite and DuckDB files, in transactions of
    1,000, with no events, no encryption, no projection: how close the store is to the
    limit of its own storage engines.
(b) **Hand-written**: what a team writes without a fact store: one SQLite table updated
    in place plus a history table written by the same code, with its own current and
    as-of queries. It has transaction time only (no valid-time axis), no lifecycle and
    no proof of deletion; its purge is a ``DELETE``.

The peer (``pylethe``) lives in :mod:`benchmarks.peer_lethe` (its own process).
"""

from __future__ import annotations

import sqlite3
import statistics
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa

from benchmarks import workload as W
from benchmarks.common import summary_ms
from projections.connection import arrow

FLOOR_SCHEMA = ("tenant TEXT, entity TEXT, attribute TEXT, value TEXT, text TEXT, "
                "valid_from INTEGER, recorded_at INTEGER")


def _micros(dt: Any) -> int:
    return int(dt.timestamp() * 1_000_000)


def _tuples(start: int, stop: int, now: int) -> list[tuple[Any, ...]]:
    return [(W.TENANT, r.entity, r.attribute, r.value, r.text, _micros(r.valid_from), now)
            for r in W.rows(start, stop)]


def floor_sqlite(folder: Path, n: int, queries: int) -> dict[str, Any]:
    """Bare SQLite (WAL, default synchronous): insert rate, then an indexed point read."""
    path = folder / "floor.sqlite"
    con = sqlite3.connect(path)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute(f"CREATE TABLE facts ({FLOOR_SCHEMA})")
    now = time.time_ns() // 1000
    t = time.perf_counter()
    for start in range(0, n, 1_000):
        batch = _tuples(start, min(n, start + 1_000), now)
        with con:
            con.executemany("INSERT INTO facts VALUES (?, ?, ?, ?, ?, ?, ?)", batch)
    out: dict[str, Any] = {"batched_rows_per_s": n / (time.perf_counter() - t)}
    t = time.perf_counter()
    single = min(1_000, n)
    for i in range(single):
        with con:
            con.execute("INSERT INTO facts VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (W.TENANT, f"user:s{i}", "home.city", "Oslo", "x", now, now))
    out["single_rows_per_s"] = single / (time.perf_counter() - t)
    con.execute("CREATE INDEX facts_slot ON facts (tenant, entity, attribute)")
    lat = []
    for e, _ in W.point_queries(n, queries):
        t = time.perf_counter()
        con.execute("SELECT * FROM facts WHERE tenant = ? AND entity = ?",
                    (W.TENANT, e)).fetchall()
        lat.append(time.perf_counter() - t)
    out["entity_read"] = summary_ms(lat)
    snaps = []
    for _ in range(3):
        t = time.perf_counter()
        rows = con.execute("SELECT * FROM facts").fetchall()
        pa.Table.from_pylist([dict(zip(("tenant", "entity", "attribute", "value", "text",
                                        "valid_from", "recorded_at"), r, strict=True))
                              for r in rows])
        snaps.append(time.perf_counter() - t)
    out["snapshot_arrow"] = {"median_ms": statistics.median(snaps) * 1e3, "rows": len(rows)}
    lat = []
    for e in W.purge_targets(n, 3):
        t = time.perf_counter()
        with con:
            con.execute("DELETE FROM facts WHERE tenant = ? AND entity = ?", (W.TENANT, e))
        lat.append(time.perf_counter() - t)
    out["delete_entity"] = summary_ms(lat)
    con.close()
    return out


def floor_duckdb(folder: Path, n: int, queries: int) -> dict[str, Any]:
    """Bare DuckDB file: Arrow batches of 1,000 (its fast path), point read, snapshot."""
    con = duckdb.connect(str(folder / "floor.duckdb"))
    con.execute("SET TimeZone = 'UTC'")
    con.execute("CREATE TABLE facts (tenant VARCHAR, entity VARCHAR, attribute VARCHAR, "
                "value VARCHAR, text VARCHAR, valid_from BIGINT, recorded_at BIGINT)")
    now = time.time_ns() // 1000
    names = ["tenant", "entity", "attribute", "value", "text", "valid_from", "recorded_at"]
    t = time.perf_counter()
    for start in range(0, n, 1_000):
        cols = list(zip(*_tuples(start, min(n, start + 1_000), now), strict=True))
        batch = pa.table(dict(zip(names, [list(c) for c in cols], strict=True)))
        con.execute("BEGIN TRANSACTION")
        con.register("batch", batch)
        con.execute("INSERT INTO facts SELECT * FROM batch")
        con.unregister("batch")
        con.execute("COMMIT")
    out: dict[str, Any] = {"batched_rows_per_s": n / (time.perf_counter() - t)}
    lat = []
    for e, _ in W.point_queries(n, queries):
        t = time.perf_counter()
        arrow(con, "SELECT * FROM facts WHERE tenant = ? AND entity = ?", [W.TENANT, e])
        lat.append(time.perf_counter() - t)
    out["entity_read"] = summary_ms(lat)
    snaps = []
    rows = 0
    for _ in range(3):
        t = time.perf_counter()
        rows = arrow(con, "SELECT * FROM facts").num_rows
        snaps.append(time.perf_counter() - t)
    out["snapshot_arrow"] = {"median_ms": statistics.median(snaps) * 1e3, "rows": rows}
    con.close()
    return out


HAND_DDL = [
    "CREATE TABLE facts (tenant TEXT, entity TEXT, attribute TEXT, value TEXT, text TEXT, "
    "updated_at INTEGER, PRIMARY KEY (tenant, entity, attribute))",
    "CREATE TABLE facts_history (tenant TEXT, entity TEXT, attribute TEXT, value TEXT, "
    "text TEXT, recorded_from INTEGER, recorded_to INTEGER)",
    "CREATE INDEX history_slot ON facts_history (tenant, entity, attribute, recorded_from)",
]


class HandWritten:
    """One SQLite table updated in place plus a history table (what teams write by hand)."""

    def __init__(self, path: Path) -> None:
        self.con = sqlite3.connect(path)
        self.con.execute("PRAGMA journal_mode=WAL")
        for ddl in HAND_DDL:
            self.con.execute(ddl)
        self.last = 0

    def now(self) -> int:
        self.last = max(time.time_ns() // 1000, self.last + 1)
        return self.last

    def _put(self, now: int, entity: str, attribute: str, value: str, text: str) -> None:
        old = self.con.execute(
            "SELECT value, text, updated_at FROM facts WHERE tenant = ? AND entity = ? "
            "AND attribute = ?", (W.TENANT, entity, attribute)).fetchone()
        if old is None:
            self.con.execute("INSERT INTO facts VALUES (?, ?, ?, ?, ?, ?)",
                             (W.TENANT, entity, attribute, value, text, now))
            return
        self.con.execute("INSERT INTO facts_history VALUES (?, ?, ?, ?, ?, ?, ?)",
                         (W.TENANT, entity, attribute, old[0], old[1], old[2], now))
        self.con.execute("UPDATE facts SET value = ?, text = ?, updated_at = ? WHERE "
                         "tenant = ? AND entity = ? AND attribute = ?",
                         (value, text, now, W.TENANT, entity, attribute))

    def write_batch(self, rows: list[W.Row]) -> None:
        now = self.now()
        with self.con:
            for r in rows:
                self._put(now, r.entity, r.attribute, r.value, r.text)

    def write_one(self, entity: str, attribute: str, value: str, text: str) -> None:
        with self.con:
            self._put(self.now(), entity, attribute, value, text)

    def current(self, entity: str) -> list[tuple[Any, ...]]:
        return self.con.execute("SELECT * FROM facts WHERE tenant = ? AND entity = ?",
                                (W.TENANT, entity)).fetchall()

    def as_of(self, known_at: int, entity: str, attribute: str) -> list[tuple[Any, ...]]:
        """Transaction-time as-of only: the table has no valid-time axis."""
        return self.con.execute(
            "SELECT value, text FROM facts WHERE tenant = ? AND entity = ? AND attribute = ? "
            "AND updated_at <= ? UNION ALL SELECT value, text FROM facts_history WHERE "
            "tenant = ? AND entity = ? AND attribute = ? AND recorded_from <= ? "
            "AND ? < recorded_to",
            (W.TENANT, entity, attribute, known_at, W.TENANT, entity, attribute, known_at,
             known_at)).fetchall()

    def snapshot(self, known_at: int) -> pa.Table:
        rows = self.con.execute(
            "SELECT tenant, entity, attribute, value, text FROM facts WHERE updated_at <= ? "
            "UNION ALL SELECT tenant, entity, attribute, value, text FROM facts_history "
            "WHERE recorded_from <= ? AND ? < recorded_to",
            (known_at, known_at, known_at)).fetchall()
        cols: list[Sequence[Any]] = list(zip(*rows, strict=True)) if rows else [[]] * 5
        return pa.table(dict(zip(("tenant", "entity", "attribute", "value", "text"),
                                 [list(c) for c in cols], strict=True)))

    def purge(self, entity: str) -> None:
        with self.con:
            self.con.execute("DELETE FROM facts WHERE tenant = ? AND entity = ?",
                             (W.TENANT, entity))
            self.con.execute("DELETE FROM facts_history WHERE tenant = ? AND entity = ?",
                             (W.TENANT, entity))

    def close(self) -> None:
        self.con.close()


def hand_written(folder: Path, n: int, *, single: int, queries: int,
                 purges: int) -> dict[str, Any]:
    """The same protocol as the store's, where the hand-written table can follow it."""
    hw = HandWritten(folder / "hand.sqlite")
    out: dict[str, Any] = {}
    t = time.perf_counter()
    for start in range(0, n, 1_000):
        hw.write_batch(W.rows(start, min(n, start + 1_000)))
    out["batched_facts_per_s"] = n / (time.perf_counter() - t)
    t = time.perf_counter()
    for i in range(single):
        hw.write_one(f"user:s{i}", "home.city", "Oslo", f"user:s{i} lives in Oslo")
    out["single_writes_per_s"] = single / (time.perf_counter() - t)
    known_before = hw.now()
    targets = W.supersede_targets(n)
    t = time.perf_counter()
    hw.write_batch(targets)
    out["supersede_tx_facts_per_s"] = len(targets) / (time.perf_counter() - t)
    points = W.point_queries(n, queries)
    lat = []
    for e, a in points:
        t = time.perf_counter()
        hw.as_of(known_before, e, a)
        lat.append(time.perf_counter() - t)
    out["as_of_point"] = summary_ms(lat)
    out["as_of_point"]["note"] = "transaction time only (no valid time)"
    lat = []
    for e, _ in points:
        t = time.perf_counter()
        hw.current(e)
        lat.append(time.perf_counter() - t)
    out["current_entity"] = summary_ms(lat)
    snaps = []
    rows = 0
    for _ in range(3):
        t = time.perf_counter()
        rows = hw.snapshot(hw.now()).num_rows
        snaps.append(time.perf_counter() - t)
    out["snapshot_arrow"] = {"median_ms": statistics.median(snaps) * 1e3, "rows": rows}
    lat = []
    for e in W.purge_targets(n, purges):
        t = time.perf_counter()
        hw.purge(e)
        lat.append(time.perf_counter() - t)
    out["purge_entity"] = summary_ms(lat)
    out["purge_entity"]["note"] = "DELETE only: free pages and WAL keep the bytes; no proof"
    hw.close()
    return out


def check_hand_written_semantics(folder: Path) -> dict[str, bool]:
    """The hand-written baseline answers its own current/as-of queries correctly (a guard
    that the baseline is a real implementation, not a stub)."""
    hw = HandWritten(folder / "hand-check.sqlite")
    hw.write_one("user:a", "home.city", "Oslo", "a lives in Oslo")
    k1 = hw.now()
    hw.write_one("user:a", "home.city", "Bergen", "a lives in Bergen")
    ok = {
        "current_is_latest": [r[3] for r in hw.current("user:a")] == ["Bergen"],
        "as_of_before_update": [r[0] for r in hw.as_of(k1, "user:a", "home.city")] == ["Oslo"],
    }
    hw.close()
    return ok

