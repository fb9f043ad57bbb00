"""Speed of memory-es at a given size, on the embedded default and on PostgreSQL.

One protocol for both backends (so their figures compare): batched load (``transact``
of 1,000), projection catch-up, single durable writes, a round of supersedes (as-of
history), ``as_of`` and ``current`` point reads, a full as-of snapshot to Arrow,
``recall`` (when the store has it), full ``rebuild``, and purge of one entity end to end
(preview, token, purge with compaction) last, because it rewrites the views file.
"""

from __future__ import annotations

import inspect
import os
import shutil
import statistics
import tempfile
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

import memory_es
from benchmarks import workload as W
from benchmarks.common import Progress, not_yet, summary_ms

DEFAULT_DSN = "postgresql://postgres@127.0.0.1:5432/test"


def pg_dsn() -> str:
    return os.environ.get("MEMORY_ES_BENCH_PG") or os.environ.get("MEMORY_ES_TEST_PG") \
        or DEFAULT_DSN


def pg_reachable(dsn: str) -> str | None:
    """None when PostgreSQL answers, else the reason it does not."""
    try:
        import psycopg

        with psycopg.connect(dsn, connect_timeout=3) as conn:
            conn.execute("SELECT 1")
        return None
    except Exception as e:  # any driver or network failure means "not here"
        return f"{type(e).__name__}"


@dataclass
class Backend:
    """How to open a fresh store of one kind, and how to clean up after it."""

    name: str
    folder: Path
    dsn: str | None = None
    schemas: list[str] = field(default_factory=list)

    def open(self, sub: str, **kwargs: Any) -> memory_es.MemoryStore:
        if self.dsn is None:
            return memory_es.open(self.folder / sub, **kwargs)
        schema = f"bench_{os.getpid()}_{uuid.uuid4().hex[:8]}"
        self.schemas.append(schema)
        return memory_es.open(dsn=self.dsn, views=self.folder / sub, schema=schema, **kwargs)

    def cleanup(self) -> None:
        if self.dsn is not None and self.schemas:
            import psycopg

            with psycopg.connect(self.dsn, autocommit=True, connect_timeout=5) as conn:
                for schema in self.schemas:
                    conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
            self.schemas.clear()
        shutil.rmtree(self.folder, ignore_errors=True)


def make_backend(name: str, root: Path | None = None) -> Backend:
    folder = Path(tempfile.mkdtemp(prefix=f"me-bench-{name}-", dir=root))
    return Backend(name, folder, pg_dsn() if name == "postgresql" else None)


def recall_fn(store: memory_es.MemoryStore) -> Callable[[str, str, int], Any] | None:
    """The store's ``recall`` when it exists (the recall issue is landing separately)."""
    fn = getattr(store, "recall", None)
    if fn is None or not callable(fn):
        return None
    return lambda tenant, query, k: fn(tenant, query, k=k)


def load(store: memory_es.MemoryStore, n: int, progress: Progress, desc: str,
         batch: int = 1_000) -> float:
    """Write ``n`` workload facts in transactions of ``batch``; returns seconds."""
    elapsed = 0.0
    bar = progress.counter(n, desc, "fact")
    for start in range(0, n, batch):
        chunk = W.rows(start, min(n, start + batch))
        t = time.perf_counter()
        with store.transact() as tx:
            for r in chunk:
                tx.assert_fact(W.TENANT, r.entity, r.attribute, r.value, text=r.text,
                               valid_from=r.valid_from, source="bench")
        elapsed += time.perf_counter() - t
        bar.update(len(chunk))
    bar.close()
    return elapsed


def measure(backend: Backend, n: int, *, single: int, queries: int, purges: int,
            progress: Progress, snapshot_reps: int = 3) -> dict[str, Any]:
    """Every speed figure of one backend at ``n`` facts."""
    out: dict[str, Any] = {"backend": backend.name, "facts": n}
    store = backend.open(f"store-{n}")
    try:
        secs = load(store, n, progress, f"{backend.name} load {n:,}")
        out["batched_facts_per_s"] = n / secs
        t = time.perf_counter()
        applied = store.catch_up()
        out["catchup_events"] = applied
        out["catchup_events_per_s"] = applied / max(time.perf_counter() - t, 1e-9)

        # single durable writes, one commit each, into the loaded store
        t = time.perf_counter()
        for i in progress.bar(range(single), f"{backend.name} single writes", single, "op"):
            store.assert_fact(W.TENANT, f"user:s{i}", "home.city", "Oslo",
                              text=f"user:s{i} lives in Oslo", source="bench")
        out["single_writes_per_s"] = single / (time.perf_counter() - t)
        out["single_writes"] = single

        # history for as-of: move a sample of entities (one transaction)
        targets = W.supersede_targets(n)
        t = time.perf_counter()
        with store.transact() as tx:
            for r in targets:
                tx.supersede(W.TENANT, r.entity, r.attribute, r.value, text=r.text,
                             valid_from=r.valid_from, source="bench")
        out["supersedes_in_one_tx"] = len(targets)
        out["supersede_tx_facts_per_s"] = len(targets) / (time.perf_counter() - t)
        store.catch_up()

        points = W.point_queries(n, queries)
        valid_at = W.BASE + timedelta(days=200)
        known = store.now()
        lat = []
        for e, a in progress.bar(points, f"{backend.name} as_of", len(points), "q"):
            t = time.perf_counter()
            store.as_of(W.TENANT, valid_at=valid_at, known_at=known, entity=e, attribute=a)
            lat.append(time.perf_counter() - t)
        out["as_of_point"] = summary_ms(lat)
        lat = []
        for e, _ in progress.bar(points, f"{backend.name} current", len(points), "q"):
            t = time.perf_counter()
            store.current(W.TENANT, entity=e)
            lat.append(time.perf_counter() - t)
        out["current_entity"] = summary_ms(lat)

        snaps = []
        rows_out = 0
        for _ in range(snapshot_reps):
            t = time.perf_counter()
            table = store.sql("SELECT * FROM facts_as_of")
            snaps.append(time.perf_counter() - t)
            rows_out = table.num_rows
        out["snapshot_arrow"] = {"median_ms": statistics.median(snaps) * 1e3, "rows": rows_out}

        rec = recall_fn(store)
        if rec is None:
            out["recall"] = not_yet("store.recall (recall issue)")
        else:
            qs = W.recall_queries(n, queries)
            rec(W.TENANT, qs[0], 8)  # first call may build or load the index
            lat = []
            for q in progress.bar(qs, f"{backend.name} recall", len(qs), "q"):
                t = time.perf_counter()
                rec(W.TENANT, q, 8)
                lat.append(time.perf_counter() - t)
            out["recall"] = summary_ms(lat)
            out["recall"]["embedder"] = "default"

        t = time.perf_counter()
        events = store.rebuild()
        out["rebuild_events"] = events
        out["rebuild_events_per_s"] = events / (time.perf_counter() - t)

        if not hasattr(store, "purge"):
            out["purge_entity"] = not_yet("store.purge")
        else:
            lat = []
            for entity in progress.bar(W.purge_targets(n, purges), f"{backend.name} purge",
                                       purges, "purge"):
                t = time.perf_counter()
                p = store.preview("purge", W.TENANT, entity)
                store.purge(W.TENANT, entity, confirm=p.token, requested_by="bench")
                lat.append(time.perf_counter() - t)
            out["purge_entity"] = summary_ms(lat)
            out["purge_entity"]["max_ms"] = max(lat) * 1e3
    finally:
        store.close()
    return out


def core_bench_figures(n: int, single: int, queries: int) -> dict[str, Any]:
    """Issue 2's harness (``benchmarks/core_bench.py``), called as is."""
    try:
        from benchmarks import core_bench
    except ImportError as e:
        return {"error": f"benchmarks.core_bench not importable: {e}"}
    run = getattr(core_bench, "run", None)
    if run is None:
        return {"error": "benchmarks.core_bench has no run()"}
    params = inspect.signature(run).parameters
    kwargs: dict[str, Any] = {}
    for name, value in (("n_facts", n), ("single", single), ("queries", queries)):
        if name in params:
            kwargs[name] = value
    try:
        result = run(**kwargs)
    except Exception as e:  # the harness is someone else's moving target: report, go on
        return {"error": f"core_bench.run failed: {type(e).__name__}: {e}"}
    return dict(result) if isinstance(result, dict) else {"result": repr(result)}
