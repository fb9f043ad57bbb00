"""CPU per write on a RAM disk (issue 16 item 2): the write path's own cost, without the
disk's, for comparing two trees in the same session (run each in turn, several rounds, and
compare medians: the other sessions on a shared machine move a single run by 10-30 %).

    python -m benchmarks.write_cpu batched --rounds 10     # transact of 1,000 new facts
    python -m benchmarks.write_cpu new --rounds 2000       # one commit per new entity
    python -m benchmarks.write_cpu known --rounds 2000     # one supersede per known entity
    python -m benchmarks.write_cpu growth --facts 400000   # batched, per 50k as the store grows

``batched``: 10 attributes x 100 new entities per transaction, as ``core_bench``, after one
warm-up batch. ``new``/``known``: single ``assert_fact`` of new entities, then
``supersede`` of those same entities. Prints µs of process CPU per fact or write.
``growth``: ``batched`` until ``--facts``, printing for each ``--every`` facts their rate
per CPU-second and per second, the cyclic collector's share, the tracked objects, the
process's resident memory and the sizes of the write side's caches: a write's cost must
not grow with the store (issue 16).
"""

from __future__ import annotations

import argparse
import gc
import resource
import shutil
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import memory_es

RAM = Path("/dev/shm")  # noqa: S108  (a RAM disk to take the disk out; mkdtemp makes a private folder)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("kind", choices=("batched", "new", "known", "growth"))
    ap.add_argument("--rounds", type=int, default=10,
                    help="transactions of 1,000 (batched) or single writes")
    ap.add_argument("--facts", type=int, default=400_000, help="growth: facts written in all")
    ap.add_argument("--every", type=int, default=50_000, help="growth: facts per line")
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="me-write-cpu-", dir=RAM if RAM.is_dir() else None))
    try:
        store = memory_es.open(folder / "store")
        base = datetime(2024, 1, 1, tzinfo=UTC)

        def batch(written: int) -> None:
            with store.transact() as tx:
                for k in range(written, written + 1000):
                    tx.assert_fact("bench", f"user:u{k // 10}", f"attr.a{k % 10}", f"v{k}",
                                   valid_from=base + timedelta(seconds=k))

        n = args.rounds
        if args.kind == "growth":
            growth(store, batch, args.facts, args.every)
            store.close()
            return
        if args.kind == "batched":
            batch(0)
            t = time.process_time()
            for b in range(1, n + 1):
                batch(b * 1000)
            per = (time.process_time() - t) / (n * 1000)
        else:
            for i in range(n):
                if args.kind == "known":
                    store.assert_fact("bench", f"user:s{i}", "home.city", f"city-{i}")
            store.assert_fact("bench", "user:warm", "home.city", "x")
            t = time.process_time()
            for i in range(n):
                if args.kind == "new":
                    store.assert_fact("bench", f"user:n{i}", "home.city", f"city-{i}")
                else:
                    store.supersede("bench", f"user:s{i}", "home.city", f"town-{i}")
            per = (time.process_time() - t) / n
        store.close()
        unit = "fact" if args.kind == "batched" else "write"
        print(f"{args.kind}: {per * 1e6:.1f} us of CPU per {unit}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def rss_mib() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() / 2**20


def growth(store: memory_es.MemoryStore, batch: Callable[[int], None], facts: int,
           every: int) -> None:
    """See the module's docstring; the collector's time is timed by ``gc.callbacks``."""
    in_gc = [0.0, 0.0]

    def timer(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            in_gc[1] = time.process_time()
        else:
            in_gc[0] += time.process_time() - in_gc[1]

    gc.callbacks.append(timer)
    side, keys = store.runtime.side, store.runtime.side.keys
    print("facts  facts/cpu-s  facts/s  gc-us/fact  gc-gen2  tracked  rss-MiB  keys  names"
          "  states")
    written = 0
    while written < facts:
        t, w, g = time.process_time(), time.perf_counter(), in_gc[0]
        full = gc.get_stats()[2]["collections"]
        for _ in range(every // 1000):
            batch(written)
            written += 1000
        cpu, wall = time.process_time() - t, time.perf_counter() - w
        print(f"{written:>6} {every / cpu:>11.0f} {every / wall:>8.0f}"
              f" {(in_gc[0] - g) / every * 1e6:>10.2f}"
              f" {gc.get_stats()[2]['collections'] - full:>8} {len(gc.get_objects()):>8}"
              f" {rss_mib():>8.0f} {keys.held()[0]:>5} {keys.held()[1]:>6}"
              f" {len(side._cache):>7}", flush=True)  # noqa: SLF001
    gc.callbacks.remove(timer)
    print(f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
