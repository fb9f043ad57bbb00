"""The peer: ``pylethe`` (PyPI), deterministic mode, on the same facts, in its own process.

Deterministic mode here means no LLM hook and no embedding model: pylethe's published
deterministic adapter uses all-MiniLM-L6-v2 through ``fastembed``, which downloads the
model at run time and so cannot run offline. Without an embedder pylethe stores zero
vectors and its ``recall(..., lexical=True)`` is pure SQLite FTS5 BM25 (its documented
identifier path); that is the configuration measured, and the report says so.

pylethe loads the ``sqlite-vec`` extension. Python builds whose ``sqlite3`` cannot load
extensions (this repository's pyenv build is one) run it on ``pysqlite3`` (a wheel with
its own SQLite), swapped in **in this worker process only**.

Run as ``python -m benchmarks.peer_lethe --facts N ...``; prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

CAPABILITIES = {
    "bitemporal_as_of": "no: transaction-time only (recall at=T), no valid-time axis",
    "tenants": "no: one database file per tenant",
    "entity_model": "no: free text memories; an entity is found by lexical search",
    "current_for_entity": "no entity model: lexical recall of the entity id stands in",
    "purge_proof": "signed receipt over its event log (needs signing_key); no residue check",
}


def _sqlite_driver() -> str:
    """Make ``import sqlite3`` extension-capable for pylethe; returns which driver runs."""
    if hasattr(sqlite3.connect(":memory:"), "enable_load_extension"):
        return f"sqlite3 (stdlib, SQLite {sqlite3.sqlite_version})"
    try:
        import pysqlite3.dbapi2 as alt
    except ImportError as e:
        raise RuntimeError("this Python's sqlite3 cannot load extensions and pysqlite3 is "
                           "not installed (pip install pysqlite3-binary)") from e
    sys.modules["sqlite3"] = alt
    return f"pysqlite3 (SQLite {alt.sqlite_version}; stdlib sqlite3 cannot load extensions)"


def _summary(samples: list[float]) -> dict[str, float]:
    ms = sorted(s * 1e3 for s in samples)
    return {"p50_ms": ms[len(ms) // 2], "p95_ms": ms[min(len(ms) - 1, int(0.95 * len(ms)))],
            "n": len(ms)}


def run(n: int, single: int, queries: int, purges: int) -> dict[str, Any]:
    driver = _sqlite_driver()
    from lethe import Lethe  # imported after the driver swap

    from benchmarks import workload as W

    out: dict[str, Any] = {"driver": driver, "facts": n, "capabilities": CAPABILITIES,
                           "mode": "no embedder, no LLM hook; recall(lexical=True) = FTS5 BM25"}
    folder = Path(tempfile.mkdtemp(prefix="me-bench-lethe-"))
    agent = Lethe(folder / "agent.db", vector_dim=384)
    ids: dict[tuple[str, str], int] = {}
    t = time.perf_counter()
    for start in range(0, n, 1_000):
        batch = W.rows(start, min(n, start + 1_000))
        got = agent.inscribe_many([r.text for r in batch])
        for r, rid in zip(batch, got, strict=True):
            ids[(r.entity, r.attribute)] = rid
    out["batched_facts_per_s"] = n / (time.perf_counter() - t)
    t = time.perf_counter()
    for i in range(single):
        agent.inscribe(f"user:s{i} lives in Oslo")
    out["single_writes_per_s"] = single / (time.perf_counter() - t)
    targets = W.supersede_targets(n)
    t = time.perf_counter()
    for r in targets:
        agent.surrender({"old": ids[(r.entity, r.attribute)], "new": r.text}, mode="supersede")
    out["supersede_ops_per_s"] = len(targets) / (time.perf_counter() - t)
    lat = []
    for q in W.recall_queries(n, queries):
        t = time.perf_counter()
        agent.recall(q, k=8, lexical=True)
        lat.append(time.perf_counter() - t)
    out["recall"] = _summary(lat)
    lat = []
    for e, _ in W.point_queries(n, queries):
        t = time.perf_counter()
        agent.recall(e, k=20, lexical=True)
        lat.append(time.perf_counter() - t)
    out["entity_lookup"] = _summary(lat)
    lat = []
    purged = []
    for e in W.purge_targets(n, purges):
        t = time.perf_counter()
        hits = agent.recall(e, k=50, lexical=True)
        victims = [h.memory.id for h in hits if e in h.memory.text.split()]
        agent.surrender(victims, mode="purge")
        lat.append(time.perf_counter() - t)
        purged.append(len(victims))
    out["purge_entity"] = _summary(lat)
    out["purge_entity"]["memories_purged_each"] = purged
    out["purge_entity"]["note"] = "lexical lookup of the id, then purge of the hits"
    agent.close()
    import shutil

    shutil.rmtree(folder, ignore_errors=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--facts", type=int, required=True)
    ap.add_argument("--single", type=int, default=200)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--purges", type=int, default=3)
    args = ap.parse_args()
    try:
        result = run(args.facts, args.single, args.queries, args.purges)
    except Exception as e:  # the parent reports why the peer could not run
        result = {"error": f"{type(e).__name__}: {e}"}
    print(json.dumps(result))


def measure(n: int, *, single: int, queries: int, purges: int,
            timeout: float = 1800) -> dict[str, Any]:
    """Run the worker in a child process; a missing or failing peer is reported, not faked."""
    import importlib.util
    import subprocess

    if importlib.util.find_spec("lethe") is None:
        return {"error": "pylethe is not installed (pip install 'memory-es[bench]')"}
    root = Path(__file__).resolve().parents[1]
    cmd = [sys.executable, "-m", "benchmarks.peer_lethe", "--facts", str(n), "--single",
           str(single), "--queries", str(queries), "--purges", str(purges)]
    try:
        done = subprocess.run(  # noqa: S603  (our own worker module, fixed arguments)
            cmd, cwd=root, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return {"error": f"pylethe worker timed out after {timeout:.0f} s"}
    lines = [ln for ln in done.stdout.splitlines() if ln.startswith("{")]
    if not lines:
        tail = (done.stderr or "").strip().splitlines()[-1:] or ["no output"]
        return {"error": f"pylethe worker exited {done.returncode}: {tail[0][:200]}"}
    result: dict[str, Any] = json.loads(lines[-1])
    return result


if __name__ == "__main__":
    main()
