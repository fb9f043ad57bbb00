"""Core write/read figures (issue 2): single writes/s, batched facts/s, catch-up events/s,
as-of point-query latency and writes into one large entity, with same-run floors for
ratios: plain SQLite inserts (batched, and one fsync'd commit per row for single writes),
an indexed SQLite point query over the same rows, and reading plus JSON-decoding the
log's notifications for the rebuild (`*_vs_floor` = store figure /
floor; `large_entity_vs_batched` = the large entity's rate / the spread batch's).

    python -m benchmarks.core_bench --facts 100000
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import sqlite3
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import memory_es
from memory_es.collector import collector_paused
from memory_es.crypto.mapper import parse_body

RESULTS = Path(__file__).parent / "results"
LARGE_ENTITY = 5_000
"""Facts written into one entity for the large-entity figure."""


def machine() -> dict[str, object]:
    import duckdb
    import eventsourcing

    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return {"cores": os.cpu_count(), "memory_gib": round(mem, 1),
            "python": platform.python_version(), "duckdb": duckdb.__version__,
            "eventsourcing": getattr(eventsourcing, "__version__", "9.5")}


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def floor_sqlite(folder: Path, n: int) -> float:
    """Same row count into a bare SQLite table with a (stream, version) key, one txn per 1,000."""
    con = sqlite3.connect(folder / "floor.db")
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("CREATE TABLE t (s TEXT, v INTEGER, topic TEXT, state BLOB, PRIMARY KEY (s, v))")
    payload = os.urandom(300)
    t = time.perf_counter()
    for b in range(0, n, 1000):
        with con:
            con.executemany("INSERT INTO t VALUES (?, ?, ?, ?)",
                            [(f"{i:032x}", 1, "x", payload) for i in range(b, min(n, b + 1000))])
    rate = n / (time.perf_counter() - t)
    con.close()
    return rate


class DurableFloor:
    """The single-write floor: the same row shape, one row per transaction, each commit
    fsync'd (WAL, ``synchronous=FULL``, as the store's log and key store commit). Written
    in rounds between the store's own rounds, because this machine's fsync latency drifts
    several-fold within a minute: a floor timed once, apart, made the ratio unreadable."""

    def __init__(self, folder: Path) -> None:
        self.con = sqlite3.connect(folder / "floor_durable.db", isolation_level=None)
        self.con.execute("PRAGMA journal_mode=WAL")
        self.con.execute("PRAGMA synchronous=FULL")
        self.con.execute("CREATE TABLE t (s TEXT, v INTEGER, topic TEXT, state BLOB, "
                         "PRIMARY KEY (s, v))")
        self.payload = os.urandom(300)
        self.written = 0

    def write(self, n: int) -> float:
        """Seconds to write ``n`` more rows, one durable commit each."""
        t = time.perf_counter()
        for i in range(self.written, self.written + n):
            self.con.execute("BEGIN")
            self.con.execute("INSERT INTO t VALUES (?, ?, ?, ?)",
                             (f"{i:032x}", 1, "x", self.payload))
            self.con.execute("COMMIT")
        self.written += n
        return time.perf_counter() - t


ROUNDS = 50
"""Rounds the single writes and their floor alternate in (see :class:`DurableFloor`):
short ones, so both sample the same stretches of the drift."""


def floor_point_reads(folder: Path, n: int, queries: int) -> dict[str, float]:
    """The same-run floor of a one-entity read: the benchmark's rows (n facts, one entity
    per 10 attributes, a tenth superseded) as version rows in a bare SQLite table with a
    composite index, read with a plain bitemporal as-of (or current) query from Python.
    p50 in ms of execute + fetchall, as the store's figures are p50 of its public call."""
    con = sqlite3.connect(folder / "floor_points.db")
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("CREATE TABLE v (fact_id TEXT, tenant TEXT, entity TEXT, attribute TEXT, "
                "value TEXT, text TEXT, valid_from INTEGER, valid_until INTEGER, "
                "recorded_at INTEGER, recorded_until INTEGER, state TEXT, chain_id TEXT)")
    con.execute("CREATE INDEX v_entity ON v (tenant, entity, attribute, valid_from)")
    day = 86_400_000_000
    rows = []
    for k in range(n):
        superseded = k % 10 == 0 and k < 10_000
        rows.append((f"f-{k:032x}", "bench", f"user:u{k // 10}", f"attr.a{k % 10}",
                     f'"v{k}"', f"user:u{k // 10} attr a{k % 10}: v{k}", k * 1_000_000,
                     400 * day if superseded else None, 10, 20 if superseded else None,
                     "active", f"c-{k:032x}"))
        if superseded:
            rows += [(f"f-{k:032x}", "bench", f"user:u{k // 10}", f"attr.a{k % 10}",
                      f'"v{k}"', "", k * 1_000_000, 400 * day, 20, None, "active",
                      f"c-{k:032x}"),
                     (f"g-{k:032x}", "bench", f"user:u{k // 10}", f"attr.a{k % 10}",
                      f'"w{k}"', "", 400 * day, None, 20, None, "active", f"c-{k:032x}")]
    with con:
        con.executemany("INSERT INTO v VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    rng = random.Random(7)
    out: dict[str, float] = {}
    for name, sql, args in (
            ("as_of", "SELECT * FROM v WHERE tenant = ? AND entity = ? AND attribute = ? "
                      "AND valid_from <= ? AND (valid_until IS NULL OR ? < valid_until) "
                      "AND recorded_at <= ? AND (recorded_until IS NULL OR ? < recorded_until)",
             lambda u: ("bench", f"user:u{u}", "attr.a0", 200 * day, 200 * day, 30, 30)),
            ("current", "SELECT * FROM v WHERE tenant = ? AND entity = ? AND "
                        "recorded_until IS NULL AND valid_from <= ? "
                        "AND (valid_until IS NULL OR ? < valid_until)",
             lambda u: ("bench", f"user:u{u}", 500 * day, 500 * day))):
        lat = []
        for _ in range(queries):
            params = args(rng.randrange(max(1, n // 10)))
            t = time.perf_counter()
            con.execute(sql, params).fetchall()
            lat.append((time.perf_counter() - t) * 1e3)
        out[name] = pct(lat, 0.5)
    con.close()
    return out


def floor_read_decode(store: memory_es.MemoryStore, batch: int = 5_000) -> float:
    """The same-run floor of a rebuild: events/s of reading every notification of the
    store's log (in the catch-up's batches, through the same recorder) plus JSON-decoding
    each body with the parser the store uses. Bodies are decrypted beforehand, untimed:
    this is what a rebuild could not do without, not what per-chain keys cost."""
    with collector_paused():  # as in the rebuild; with it running, the floor swung 3.6x
        return _read_decode(store, batch)


def _read_decode(store: memory_es.MemoryStore, batch: int) -> float:
    runtime = store.runtime
    recorder, mapper = runtime.log.recorder, runtime.side.mapper
    head = recorder.max_notification_id() or 0
    bodies: list[bytes] = []
    read = 0.0
    position = 0
    while position < head:
        t = time.perf_counter()
        notes = recorder.select_notifications(start=position + 1, limit=batch, stop=head)
        read += time.perf_counter() - t
        if not notes:
            break
        position = notes[-1].id
        bodies += [json.dumps(u.body, ensure_ascii=False, separators=(",", ":")).encode()
                   for u in mapper.open_many(notes) if u.body is not None]
    t = time.perf_counter()
    for body in bodies:
        parse_body(body)
    decode = time.perf_counter() - t
    return head / (read + decode)


class Timer:
    """Wall and CPU time of one phase (CPU = this process, every thread: other processes
    loading the machine inflate the wall figure, not the CPU one)."""

    def __enter__(self) -> Timer:
        self.wall0, self.cpu0 = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc: object) -> None:
        self.wall = time.perf_counter() - self.wall0
        self.cpu = time.process_time() - self.cpu0


def single_writes(store: memory_es.MemoryStore, floor: DurableFloor,
                  single: int) -> dict[str, object]:
    """Durable single writes, new entities then known ones (a new value for an existing
    slot needs no new name or key: its commit is the log's alone, one fsync, not two),
    each round followed by as many floor writes; a ratio is the floor's time over the
    store's, summed over the rounds (``*_rounds``: the ratio of each round, its spread)."""
    per = max(1, single // ROUNDS)
    spent = {"new": 0.0, "new_cpu": 0.0, "known": 0.0, "known_cpu": 0.0, "floor": 0.0,
             "floor_new": 0.0, "floor_known": 0.0}
    ratios: dict[str, list[float]] = {"new": [], "known": []}
    for kind in ("new", "known"):
        for r in range(ROUNDS):
            with Timer() as t:
                for i in range(r * per, (r + 1) * per):
                    if kind == "new":
                        store.assert_fact("bench", f"user:s{i}", "home.city", f"city-{i}")
                    else:
                        store.supersede("bench", f"user:s{i}", "home.city", f"town-{i}")
            floor_s = floor.write(per)
            spent[kind] += t.wall
            spent[kind + "_cpu"] += t.cpu
            spent["floor"] += floor_s
            spent["floor_" + kind] += floor_s
            ratios[kind].append(floor_s / t.wall)
    n = per * ROUNDS
    return {"single_writes_per_s": n / spent["new"],
            "single_writes_per_cpu_s": n / spent["new_cpu"],
            "single_known_writes_per_s": n / spent["known"],
            "single_known_writes_per_cpu_s": n / spent["known_cpu"],
            "floor_sqlite_durable_writes_per_s": 2 * n / spent["floor"],
            "single_vs_floor": spent["floor_new"] / spent["new"],
            "single_known_vs_floor": spent["floor_known"] / spent["known"],
            "single_vs_floor_rounds": _spread(ratios["new"]),
            "single_known_vs_floor_rounds": _spread(ratios["known"])}


def _spread(values: list[float]) -> str:
    """p10 / p50 / p90 of per-round ratios."""
    return " / ".join(f"{pct(values, q):.2f}" for q in (0.1, 0.5, 0.9))


def run(n_facts: int, single: int, queries: int) -> dict[str, object]:
    folder = Path(tempfile.mkdtemp(prefix="me-bench-"))
    out: dict[str, object] = {"facts": n_facts, "machine": machine()}
    try:
        store = memory_es.open(folder / "store")
        base = datetime(2024, 1, 1, tzinfo=UTC)
        out.update(single_writes(store, DurableFloor(folder), single))
        # batched writes: transact of 1,000 (10 attributes x 100 entities per batch)
        written = 0
        with Timer() as t:
            while written < n_facts:
                with store.transact() as tx:
                    for j in range(1000):
                        k = written + j
                        tx.assert_fact("bench", f"user:u{k // 10}", f"attr.a{k % 10}", f"v{k}",
                                       valid_from=base + timedelta(seconds=k))
                written += 1000
        out["batched_facts_per_s"] = n_facts / t.wall
        out["batched_facts_per_cpu_s"] = n_facts / t.cpu
        # projection catch-up of everything written above
        with Timer() as t:
            applied = store.catch_up()
        out["catchup_events"] = applied
        out["catchup_events_per_s"] = applied / t.wall
        out["catchup_events_per_cpu_s"] = applied / t.cpu
        # supersede a tenth so as-of has history to look through
        with store.transact() as tx:
            for k in range(0, min(n_facts, 10_000), 10):
                tx.supersede("bench", f"user:u{k // 10}", "attr.a0", f"w{k}",
                             valid_from=base + timedelta(days=400))
        store.catch_up()
        lat, cpu = [], []
        rng = random.Random(7)
        known = store.now()
        for _ in range(queries):
            u = rng.randrange(n_facts // 10)
            with Timer() as t:
                store.as_of("bench", valid_at=base + timedelta(days=200), known_at=known,
                            entity=f"user:u{u}", attribute="attr.a0")
            lat.append(t.wall * 1e3)
            cpu.append(t.cpu * 1e3)
        out["as_of_p50_ms"] = pct(lat, 0.5)
        out["as_of_p95_ms"] = pct(lat, 0.95)
        out["as_of_p50_cpu_ms"] = pct(cpu, 0.5)
        lat, cpu = [], []
        for _ in range(queries):
            u = rng.randrange(n_facts // 10)
            with Timer() as t:
                store.current("bench", entity=f"user:u{u}")
            lat.append(t.wall * 1e3)
            cpu.append(t.cpu * 1e3)
        out["current_entity_p50_ms"] = pct(lat, 0.5)
        out["current_entity_p50_cpu_ms"] = pct(cpu, 0.5)
        chained = [f.fact_id for k in range(0, min(n_facts, 10_000), 10)
                   for f in store.current("bench", entity=f"user:u{k // 10}",
                                          attribute="attr.a0")][:queries]
        lat = []
        for i in range(queries if chained else 0):
            with Timer() as t:
                store.chain("bench", chained[i % len(chained)])
            lat.append(t.wall * 1e3)
        if lat:
            out["chain_p50_ms"] = pct(lat, 0.5)  # a drift chain of two facts
        with Timer() as t:
            events = store.rebuild()
        out["rebuild_events_per_s"] = events / t.wall
        out["rebuild_events_per_cpu_s"] = events / t.cpu
        out["floor_read_decode_events_per_s"] = floor_read_decode(store)
        out["rebuild_vs_floor"] = (
            out["rebuild_events_per_s"] / out["floor_read_decode_events_per_s"])  # type: ignore[operator]
        # one large entity: a fact per attribute of a single entity, in transactions of 500;
        # a write must not cost in proportion to the facts its entity already holds
        # (measured last, so that it changes none of the figures above)
        large = min(n_facts, LARGE_ENTITY)
        with Timer() as t:
            for b in range(0, large, 500):
                with store.transact() as tx:
                    for k in range(b, min(large, b + 500)):
                        tx.assert_fact("bench", "user:large", f"attr.k{k}", f"v{k}",
                                       valid_from=base + timedelta(seconds=k))
        out["large_entity_facts"] = large
        out["large_entity_facts_per_s"] = large / t.wall
        out["large_entity_vs_batched"] = (
            out["large_entity_facts_per_s"] / out["batched_facts_per_s"])  # type: ignore[operator]
        store.close()
        out["floor_sqlite_rows_per_s"] = floor_sqlite(folder, n_facts)
        out["batched_vs_floor"] = out["batched_facts_per_s"] / out["floor_sqlite_rows_per_s"]  # type: ignore[operator]
        floors = floor_point_reads(folder, n_facts, queries)
        out["floor_sqlite_as_of_p50_ms"] = floors["as_of"]
        out["as_of_vs_floor"] = out["as_of_p50_ms"] / floors["as_of"]  # type: ignore[operator]
        out["floor_sqlite_current_p50_ms"] = floors["current"]
        out["current_vs_floor"] = (
            out["current_entity_p50_ms"] / floors["current"])  # type: ignore[operator]
        out["median_of"] = statistics.median([1.0])
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--facts", type=int, default=100_000)
    ap.add_argument("--single", type=int, default=2_000)
    ap.add_argument("--queries", type=int, default=300)
    args = ap.parse_args()
    result = run(args.facts, args.single, args.queries)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"core_{args.facts}.json").write_text(json.dumps(result, indent=2))
    width = max(len(k) for k in result)
    for key, value in result.items():
        shown = (f"{value:,.2f}" if abs(value) >= 1 or value == 0 else f"{value:.3g}"
                 ) if isinstance(value, float) else value
        print(f"{key:<{width}}  {shown}")


if __name__ == "__main__":
    main()
