"""Erasure and audit figures (issues 3 and 6): purge of one entity end to end split into
its steps, deletion-receipt size, replay from the log alone, blame latency, and the cost
of ``receipt=True`` on recall.

    python -m benchmarks.audit_bench --facts 100000 --purges 5
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import memory_es
from benchmarks.common import machine

RESULTS = Path(__file__).parent / "results"


def _fill(store: memory_es.MemoryStore, n: int) -> None:
    base = datetime(2024, 1, 1, tzinfo=UTC)
    for start in range(0, n, 1000):
        with store.transact() as tx:
            for k in range(start, min(n, start + 1000)):
                tx.assert_fact("bench", f"user:u{k // 10}", f"attr.a{k % 10}", f"value {k}",
                               valid_from=base + timedelta(seconds=k))
    store.catch_up()


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(n: int, purges: int, queries: int) -> dict[str, object]:
    folder = Path(tempfile.mkdtemp(prefix="me-audit-"))
    out: dict[str, object] = {"facts": n, "machine": machine()}
    try:
        store = memory_es.open(folder / "store")
        t = time.perf_counter()
        _fill(store, n)
        out["load_s"] = time.perf_counter() - t
        rng = random.Random(3)
        # replay from the log alone
        t = time.perf_counter()
        table = store.replay(known_at=store.now())
        elapsed = time.perf_counter() - t
        out["replay_events"] = store.log_position()
        out["replay_s"] = elapsed
        out["replay_events_per_s"] = store.log_position() / elapsed
        out["replay_rows"] = table.num_rows
        # blame
        lat = []
        for _ in range(queries):
            u = rng.randrange(n // 10)
            fact = store.current("bench", entity=f"user:u{u}", attribute="attr.a0")[0]
            t = time.perf_counter()
            store.history("bench", fact.fact_id)
            lat.append((time.perf_counter() - t) * 1e3)
        out["blame_p50_ms"], out["blame_p95_ms"] = _p(lat, 0.5), _p(lat, 0.95)
        # recall with and without a consumption receipt, interleaved
        plain: list[float] = []
        receipted: list[float] = []
        for i in range(queries):  # each query twice, alternating which variant goes first
            q = f"user:u{rng.randrange(n // 10)} attr a{i % 10}"
            for with_receipt in ((False, True) if i % 2 else (True, False)):
                t = time.perf_counter()
                store.recall("bench", q, 8, receipt=with_receipt, caller="bench")
                (receipted if with_receipt else plain).append((time.perf_counter() - t) * 1e3)
        out["recall_p50_ms"] = plain_p50 = statistics.median(plain)
        out["recall_receipt_p50_ms"] = receipted_p50 = statistics.median(receipted)
        out["receipt_overhead_p50_ms"] = receipted_p50 - plain_p50
        # purge one entity end to end, several times
        steps: dict[str, list[float]] = {}
        totals, sizes = [], []
        for i in range(purges):
            entity = f"user:u{(i * 7919) % (n // 10)}"
            t = time.perf_counter()
            receipt = store.purge("bench", entity, requested_by="bench")
            totals.append((time.perf_counter() - t) * 1e3)
            for name, ms in receipt.timings_ms.items():
                steps.setdefault(name, []).append(ms)
            stored = next(r for r in store.receipts() if r["receipt_id"] == receipt.receipt_id)
            sizes.append(len(json.dumps(stored, sort_keys=True, separators=(",", ":"))))
            assert receipt.report is not None and receipt.report.complete
        out["purge_p50_ms"] = statistics.median(totals)
        out["purge_steps_p50_ms"] = {k: statistics.median(v) for k, v in steps.items()}
        out["receipt_bytes"] = statistics.median(sizes)
        store.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return out


def replay_only(n: int) -> dict[str, object]:
    """Write ``n`` facts (no read, so no projection work) and time a replay of the log."""
    folder = Path(tempfile.mkdtemp(prefix="me-replay-"))
    try:
        store = memory_es.open(folder / "store")
        base = datetime(2024, 1, 1, tzinfo=UTC)
        t = time.perf_counter()
        for start in range(0, n, 1000):
            with store.transact() as tx:
                for k in range(start, min(n, start + 1000)):
                    tx.assert_fact("bench", f"user:u{k // 10}", f"attr.a{k % 10}", f"value {k}",
                                   valid_from=base + timedelta(seconds=k))
        load = time.perf_counter() - t
        t = time.perf_counter()
        rows = store.replay(known_at=store.now()).num_rows
        elapsed = time.perf_counter() - t
        store.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return {"facts": n, "machine": machine(), "load_s": load, "replay_s": elapsed,
            "replay_events_per_s": n / elapsed, "replay_rows": rows}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--replay-only", action="store_true",
                    help="only write the facts and time replay() (for 1M events)")
    ap.add_argument("--facts", type=int, default=100_000)
    ap.add_argument("--purges", type=int, default=5)
    ap.add_argument("--queries", type=int, default=100)
    args = ap.parse_args()
    if args.replay_only:
        result = replay_only(args.facts)
    else:
        result = run(args.facts, args.purges, args.queries)
    RESULTS.mkdir(exist_ok=True)
    kind = "replay" if args.replay_only else "audit"
    (RESULTS / f"{kind}_{args.facts}.json").write_text(json.dumps(result, indent=2, default=str))
    for key, value in result.items():
        shown = f"{value:,.2f}" if isinstance(value, float) else value
        print(f"{key:<26} {shown}")


if __name__ == "__main__":
    main()
