"""Text purges at a tenant size (issue #11 item 5): ``purge_matching`` with
``compact="now"`` and with ``compact="deferred"``, p50 / p95 of wall time and CPU time.

    python -m benchmarks.text_purge --facts 100000 --ops 20

One tenant is filled with ``--facts`` facts about ``facts / 4`` people (the fill of
``benchmarks.text_latency``: a city, a hobby, an e-mail and an employer each), then
``--ops`` people are purged by their e-mail address with ``compact="now"`` (each checked
to have erased something with a complete residue report), then ``--ops`` others with
``compact="deferred"`` (each must report ``pending``), in that order: a ``"now"`` purge
after deferred ones would also owe their rewrites. One ``store.compact()`` closes the run
(timed, and every deferred receipt must then verify complete). One untimed purge first
warms the store up (the first read after open loads what later ones reuse). The page cache
is written back (``os.sync``) before it, so the first fsync of each file does not pay for
the fill's or the copy's dirty pages.

``--template DIR`` keeps a copy of the filled store in ``DIR`` (made on the first run)
and starts later runs from a copy of it, so that runs of two code trees can alternate
without paying the fill each time. It prints a table and writes
``results/text_purge.json`` (``--out`` to change).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import memory_es
from benchmarks.common import machine, pct, text_table
from benchmarks.text_latency import fill
from memory_es.models import DeletionReceipt
from memory_es.text import TextInterface

RESULTS = Path(__file__).parent / "results"
TENANT = "lat"


def open_filled(folder: Path, facts: int, template: Path | None) -> memory_es.MemoryStore:
    path = folder / "m"
    if template is not None and (template / "m").exists():
        shutil.copytree(template / "m", path)
        return memory_es.open(path)
    store = memory_es.open(path)
    fill(store, TENANT, facts)
    if template is not None:
        store.close()
        template.mkdir(parents=True, exist_ok=True)
        shutil.copytree(path, template / "m")
        store = memory_es.open(path)
    return store


def summary(wall: list[float], cpu: list[float]) -> dict[str, float]:
    return {"p50_ms": statistics.median(wall), "p95_ms": pct(wall, 0.95),
            "cpu_p50_ms": statistics.median(cpu), "cpu_p95_ms": pct(cpu, 0.95),
            "cpu_mean_ms": statistics.fmean(cpu)}


def run(facts: int, ops: int, template: Path | None) -> dict[str, Any]:
    people = facts // 4
    samples: dict[str, tuple[list[float], list[float]]] = {
        "now": ([], []), "deferred": ([], [])}
    with tempfile.TemporaryDirectory(prefix="me-text-purge-") as tmp:
        store = open_filled(Path(tmp), facts, template)
        try:
            store.catch_up()
            os.sync()  # the fill's (or the copy's) writeback is not the purges' cost
            ti = TextInterface(store)
            ti.purge_matching(TENANT, f"p{people - 1}@corp.io")  # warm-up, not timed
            deferred: list[DeletionReceipt] = []
            for i in range(2 * ops):
                mode = "now" if i < ops else "deferred"
                who = (i * 7919) % people
                t, c = time.perf_counter(), time.process_time()
                res = ti.purge_matching(TENANT, f"p{who}@corp.io", compact=mode)
                wall_ms = (time.perf_counter() - t) * 1e3
                cpu_ms = (time.process_time() - c) * 1e3
                receipts = [r for r in res.receipts if isinstance(r, DeletionReceipt)]
                assert receipts, res
                reports = [r.report for r in receipts]
                if mode == "now":
                    assert all(r is not None and r.complete for r in reports), reports
                else:
                    assert all(r is not None and not r.complete for r in reports), reports
                    deferred += receipts
                samples[mode][0].append(wall_ms)
                samples[mode][1].append(cpu_ms)
            t = time.perf_counter()
            store.compact()
            compact_ms = (time.perf_counter() - t) * 1e3
            assert all(store.verify_erasure(r).complete for r in deferred)
        finally:
            store.close()
    out: dict[str, Any] = {mode: summary(*s) for mode, s in samples.items()}
    out["deferred"] |= {"compact_after_ms": compact_ms, "compact_per_purge_ms": compact_ms / ops}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.text_purge")
    ap.add_argument("--facts", type=int, default=100_000)
    ap.add_argument("--ops", type=int, default=20)
    ap.add_argument("--template", type=Path, help="keep / reuse a filled store here")
    ap.add_argument("--out", type=Path, default=RESULTS / "text_purge.json")
    args = ap.parse_args(argv)
    res = run(args.facts, args.ops, args.template)
    print(text_table(
        ("compact", "p50 ms", "p95 ms", "CPU p50 ms", "CPU p95 ms", "CPU mean ms"),
        [[mode, r["p50_ms"], r["p95_ms"], r["cpu_p50_ms"], r["cpu_p95_ms"], r["cpu_mean_ms"]]
         for mode, r in res.items()]))
    print(f"compact() after {args.ops} deferred purges: "
          f"{res['deferred']['compact_after_ms']:.1f} ms")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({
        "machine": machine(), "command": "python -m benchmarks.text_purge "
        + " ".join(sys.argv[1:] if argv is None else argv), "facts": args.facts,
        "ops": args.ops, "results": res}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
