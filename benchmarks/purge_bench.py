"""Purge cost against store size (issue 14 item 1): does removing an entity's bytes grow
with the store?

    python -m benchmarks.purge_bench --sizes 20000,100000,200000 --purges 5
    python -m benchmarks.purge_bench --sizes 1000000 --purges 5 --deferred 100

At each size, a fresh embedded store is filled with ``n`` facts (10 per entity), then:

- ``--purges`` entities are purged with ``compact="now"``, each timed to a complete
  report (``receipt.report.complete`` is asserted); the time spent in the views'
  compaction and in the recall index's compaction (its file rewrite) is read by wrapping
  the real methods with a timer, and the bytes the recall compaction wrote come from
  ``/proc/self/io`` (``wchar``) around it;
- with ``--deferred N``, N more entities are purged with ``compact="deferred"`` and one
  ``store.compact()`` follows; the total is compared with its same-run baseline, N times
  the p50 of a ``compact="now"`` purge measured just before on the same store.

It prints a table and writes ``results/purge_bench.json`` (``--out`` to change). The
ratio row compares the largest size with the smallest (the issue's target: ≤ 2.5
between 200k and 20k).
"""

from __future__ import annotations

import argparse
import functools
import json
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

import memory_es
from benchmarks.common import machine, ratio, text_table

RESULTS = Path(__file__).parent / "results"
TENANT = "bench"
F = TypeVar("F", bound=Callable[..., Any])


def fill(store: memory_es.MemoryStore, n: int) -> None:
    """``n`` facts, 10 per entity, in transactions of 1,000."""
    base = datetime(2024, 1, 1, tzinfo=UTC)
    for start in range(0, n, 1000):
        with store.transact() as tx:
            for k in range(start, min(n, start + 1000)):
                tx.assert_fact(TENANT, f"user:u{k // 10}", f"attr.a{k % 10}",
                               f"value {k} of user {k // 10}",
                               valid_from=base + timedelta(seconds=k))
    store.catch_up()


def written_bytes() -> int:
    """Bytes this process has passed to ``write`` so far (``/proc/self/io``)."""
    with open("/proc/self/io", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("wchar:"):
                return int(line.split()[1])
    return 0


class Meter:
    """Time (and bytes written) spent inside wrapped methods, per name."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self.bytes: dict[str, int] = {}

    def wrap(self, name: str, fn: F) -> F:
        @functools.wraps(fn)
        def timed(*args: Any, **kwargs: Any) -> Any:
            written, t = written_bytes(), time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.seconds[name] = self.seconds.get(name, 0.0) + time.perf_counter() - t
                self.bytes[name] = self.bytes.get(name, 0) + written_bytes() - written
        return timed  # type: ignore[return-value]  # same signature as fn

    def take(self) -> tuple[dict[str, float], dict[str, int]]:
        out = dict(self.seconds), dict(self.bytes)
        self.seconds.clear()
        self.bytes.clear()
        return out


def recall_file_bytes(store: memory_es.MemoryStore) -> int:
    return sum(p.stat().st_size for p in store.runtime.recall.files())


def run_size(n: int, purges: int, deferred: int, folder: Path) -> dict[str, Any]:
    store = memory_es.open(folder / f"store-{n}")
    out: dict[str, Any] = {"facts": n}
    try:
        t = time.perf_counter()
        fill(store, n)
        store.runtime.recall.flush()
        out["load_s"] = time.perf_counter() - t
        out["recall_files_bytes"] = recall_file_bytes(store)
        store.close()  # the cost of opening a store of this size (its views are loaded)
        t = time.perf_counter()
        store = memory_es.open(folder / f"store-{n}")
        out["reopen_s"] = time.perf_counter() - t
        rt = store.runtime
        meter = Meter()
        rt.views.compact = meter.wrap("views", rt.views.compact)  # type: ignore[method-assign]
        rt.recall.compact = meter.wrap("recall", rt.recall.compact)  # type: ignore[method-assign]
        entities = [f"user:u{(i * 7919) % (n // 10)}" for i in range(purges + deferred)]
        totals, views_s, recall_s, recall_b = [], [], [], []
        for entity in entities[:purges]:
            t = time.perf_counter()
            receipt = store.purge(TENANT, entity, requested_by="bench")
            totals.append(time.perf_counter() - t)
            assert receipt.report is not None and receipt.report.complete, receipt.report
            seconds, written = meter.take()
            views_s.append(seconds.get("views", 0.0))
            recall_s.append(seconds.get("recall", 0.0))
            recall_b.append(written.get("recall", 0))
        out["purge_p50_ms"] = statistics.median(totals) * 1e3
        out["purge_max_ms"] = max(totals) * 1e3
        out["views_compaction_p50_ms"] = statistics.median(views_s) * 1e3
        out["recall_compaction_p50_ms"] = statistics.median(recall_s) * 1e3
        out["recall_written_p50_bytes"] = int(statistics.median(recall_b))
        if deferred:
            t = time.perf_counter()
            receipts = [store.purge(TENANT, e, requested_by="bench", compact="deferred")
                        for e in entities[purges:]]
            purged = time.perf_counter() - t
            pending = receipts[-1].report
            assert pending is not None and not pending.complete  # the files are not rewritten yet
            t = time.perf_counter()
            store.compact()
            compacted = time.perf_counter() - t
            assert store.verify_erasure(receipts[0]).complete
            seconds, written = meter.take()
            out["deferred"] = {
                "purges": deferred, "purges_s": purged, "compact_s": compacted,
                "total_s": purged + compacted,
                "views_compaction_s": seconds.get("views", 0.0),
                "recall_compaction_s": seconds.get("recall", 0.0),
                "recall_written_bytes": written.get("recall", 0),
                "baseline_s": deferred * out["purge_p50_ms"] / 1e3,
                "baseline": f"{deferred} x the p50 of a compact='now' purge, same store",
            }
            out["deferred"]["vs_baseline"] = ratio(out["deferred"]["total_s"],
                                                   out["deferred"]["baseline_s"])
    finally:
        store.close()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.purge_bench")
    parser.add_argument("--sizes", default="20000,100000,200000")
    parser.add_argument("--purges", type=int, default=5)
    parser.add_argument("--deferred", type=int, default=0,
                        help="deferred purges + one compact() at each size (0: skip)")
    parser.add_argument("--out", default=str(RESULTS / "purge_bench.json"))
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    folder = Path(tempfile.mkdtemp(prefix="me-purge-"))
    try:
        results = [run_size(n, args.purges, args.deferred, folder) for n in sizes]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    rows = [[r["facts"], r["purge_p50_ms"], r["views_compaction_p50_ms"],
             r["recall_compaction_p50_ms"], r["recall_written_p50_bytes"] / 1e6,
             r["recall_files_bytes"] / 1e6, r["reopen_s"]] for r in results]
    first, last = results[0], results[-1]
    rows.append([f"ratio {last['facts']:,}/{first['facts']:,}",
                 ratio(last["purge_p50_ms"], first["purge_p50_ms"]),
                 ratio(last["views_compaction_p50_ms"], first["views_compaction_p50_ms"]),
                 ratio(last["recall_compaction_p50_ms"], first["recall_compaction_p50_ms"]),
                 ratio(last["recall_written_p50_bytes"], first["recall_written_p50_bytes"]),
                 ratio(last["recall_files_bytes"], first["recall_files_bytes"]),
                 ratio(last["reopen_s"], first["reopen_s"])])
    print(text_table(("facts", "purge p50 ms", "views compaction ms", "recall compaction ms",
                      "recall MB written", "recall files MB", "reopen s"), rows))
    deferred = [r for r in results if "deferred" in r]
    if deferred:
        print()
        print(text_table(
            ("facts", "deferred purges", "purges s", "compact s", "total s",
             "views compaction s", "recall compaction s", "baseline s", "vs baseline"),
            [[r["facts"], d["purges"], d["purges_s"], d["compact_s"], d["total_s"],
              d["views_compaction_s"], d["recall_compaction_s"], d["baseline_s"],
              d["vs_baseline"]] for r in deferred for d in [r["deferred"]]]))
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps({
        "machine": machine(), "command": "python -m benchmarks.purge_bench "
        + " ".join(sys.argv[1:] if argv is None else argv), "results": results},
        indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
