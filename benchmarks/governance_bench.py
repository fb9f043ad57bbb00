"""Governance figures (issue 12, SPEC §12.1-12.2): what the utility ledger costs a recall
with a receipt, and how long a sweep over a large tenant takes.

* recall p50/p95 without and with ``receipt=True`` in the same run, interleaved (the
  receipt's one commit carries the neutral judgements: no second write);
* ``judge`` p50/p95;
* ``sweep`` over N facts three times: an hour after the writes (nothing moves: the scan
  and the rules), a day later (every fact moves working -> short_term and the volatile 1 %
  goes stale: the worst round), and right after (nothing moves); the catch-up of the
  views after the big round is timed on its own (the next read pays it).

    python -m benchmarks.governance_bench --facts 100000
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import memory_es
from benchmarks.common import machine, summary_ms

RESULTS = Path(__file__).parent / "results"
TENANT = "bench"


class HandClock:
    """A clock that stands still until moved (the store adds 1 µs per commit)."""

    def __init__(self) -> None:
        self.now = datetime(2025, 6, 1, 12, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def fill(store: memory_es.MemoryStore, n: int, batch: int = 1000) -> None:
    """``n`` facts on ``n / 10`` entities; every hundredth is volatile (it goes stale)."""
    for start in range(0, n, batch):
        with store.transact() as tx:
            for k in range(start, min(n, start + batch)):
                tx.assert_fact(TENANT, f"user:u{k // 10}", f"attr.a{k % 10}", f"value {k}",
                               volatility="volatile" if k % 100 == 0 else None,
                               importance=0.9 if k % 7 == 0 else 0.5)
    store.catch_up()


def timed(fn: Any, *args: Any, **kw: Any) -> tuple[Any, float]:
    t = time.perf_counter()
    result = fn(*args, **kw)
    return result, time.perf_counter() - t


def run(n: int, queries: int) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="me-governance-"))
    out: dict[str, Any] = {"facts": n, "queries": queries, "machine": machine()}
    clock = HandClock()
    try:
        store = memory_es.open(folder / "store", clock=clock)
        _, out["load_s"] = timed(fill, store, n)
        rng = random.Random(12)
        plain: list[float] = []
        receipted: list[float] = []
        recall_ids: list[tuple[str, str]] = []
        for i in range(queries):  # each query twice, alternating which variant goes first
            q = f"user:u{rng.randrange(n // 10)} attr a{i % 10}"
            for with_receipt in ((False, True) if i % 2 else (True, False)):
                hits, s = timed(store.recall, TENANT, q, 8, receipt=with_receipt,
                                caller="bench")
                (receipted if with_receipt else plain).append(s)
                if with_receipt and hits:
                    recall_ids.append((str(hits[0].recall_id), hits[0].fact.fact_id))
        out["recall_ms"] = summary_ms(plain)
        out["recall_receipt_ms"] = summary_ms(receipted)
        judged: list[float] = []
        for k, (rid, fid) in enumerate(recall_ids):
            verdict = {"helpful": [fid]} if k % 3 else {"misleading": [fid]}
            _, s = timed(store.judge, TENANT, rid, **verdict)
            judged.append(s)
        out["judge_ms"] = summary_ms(judged)
        store.catch_up()
        sweeps: dict[str, Any] = {}
        for label, advance in (("after 1 h (no move)", timedelta(hours=1)),
                               ("after 25 h (all move)", timedelta(hours=24)),
                               ("right after (no move)", timedelta(0))):
            clock.now += advance
            moves, s = timed(store.sweep, TENANT)
            _, catch = timed(store.catch_up)
            stale = store.sql("SELECT count(DISTINCT fact_id) AS n FROM facts_current "
                              "WHERE state = 'stale'").column("n")[0].as_py()
            sweeps[label] = {"sweep_s": s, "moves": len(moves), "stale_facts": stale,
                             "catch_up_after_s": catch}
        out["sweeps"] = sweeps
        out["log_events"] = store.log_position()
        store.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return out


def table(result: dict[str, Any]) -> str:
    """The figures as a small text table."""
    r, rr, j = result["recall_ms"], result["recall_receipt_ms"], result["judge_ms"]
    lines = [f"governance figures, {result['facts']:,} facts, {result['queries']} queries",
             f"{'figure':<40} {'p50 ms':>9} {'p95 ms':>9}",
             f"{'recall, no receipt':<40} {r['p50_ms']:>9.2f} {r['p95_ms']:>9.2f}",
             f"{'recall, receipt=True (+ neutral ledger)':<40} {rr['p50_ms']:>9.2f} "
             f"{rr['p95_ms']:>9.2f}",
             f"{'judge':<40} {j['p50_ms']:>9.2f} {j['p95_ms']:>9.2f}",
             "",
             f"{'sweep':<26} {'s':>8} {'moves':>8} {'stale':>7} {'catch-up s':>11}"]
    for label, s in result["sweeps"].items():
        lines.append(f"{label:<26} {s['sweep_s']:>8.2f} {s['moves']:>8,} "
                     f"{s['stale_facts']:>7,} {s['catch_up_after_s']:>11.2f}")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--facts", type=int, default=100_000)
    ap.add_argument("--queries", type=int, default=200)
    args = ap.parse_args()
    result = run(args.facts, args.queries)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"governance_{args.facts}.json").write_text(
        json.dumps(result, indent=2, default=str))
    print(table(result))


if __name__ == "__main__":
    main()
