"""Latency of the text operations at a tenant size (p50 / p95, milliseconds).

``python -m benchmarks.text_latency --facts 100000 --ops 30`` fills one tenant with
``--facts`` facts about many people (batched ``transact`` writes), then times
``remember``, ``revise``, ``release``, ``forget`` and ``purge_matching`` on it, then
``purge_matching(..., compact="deferred")`` followed by one timed ``store.compact()``
(reported whole and per deferred purge).
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import memory_es
from memory_es.text import TextInterface

HOBBIES = ["rows", "knits", "paints", "bakes", "climbs", "sings", "cycles", "swims"]
CITIES = ["Oslo", "Porto", "Leeds", "Graz", "Turku", "Cork", "Brno", "Lyon"]


def fill(store: memory_es.MemoryStore, tenant: str, n: int) -> None:
    batch = 2000
    for start in range(0, n, batch):
        with store.transact() as tx:
            for i in range(start, min(n, start + batch)):
                p = f"person:p{i // 4}"
                k = i % 4
                if k == 0:
                    tx.assert_fact(tenant, p, "home.city", CITIES[i % 8],
                                   text=f"P{i // 4} lives in {CITIES[i % 8]}")
                elif k == 1:
                    tx.assert_fact(tenant, p, "hobby", HOBBIES[i % 8],
                                   text=f"P{i // 4} {HOBBIES[i % 8]} on Sundays")
                elif k == 2:
                    tx.assert_fact(tenant, p, "contact.email", f"p{i // 4}@corp.io",
                                   text=f"P{i // 4}'s e-mail is p{i // 4}@corp.io")
                else:
                    tx.assert_fact(tenant, p, "work.employer", f"Firm{i % 97}",
                                   text=f"P{i // 4} works at Firm{i % 97}")
    store.catch_up()


class Breakdown:
    """CPU milliseconds spent inside store reads, summed per operation: projecting the
    log (``catch_up``: the projection of the previous writes, which every read does
    first), ``recall`` (the search, after its catch-up), ``holding`` (a purge's exact
    lookup of identifiers), ``current`` and ``purge`` (the
    store's crypto-shred with its compaction). The rest of an
    operation is the text layer itself and its commit. Wraps one store instance."""

    PARTS = ("catch_up", "recall", "holding", "current", "purge")

    def __init__(self, store: memory_es.MemoryStore) -> None:
        self.spent = dict.fromkeys(self.PARTS, 0.0)
        self._catch_up = store.catch_up
        for name in self.PARTS:
            setattr(store, name, self._wrap(name, getattr(store, name)))

    def _wrap(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed_call(*a: Any, **kw: Any) -> Any:
            t0 = time.process_time()
            if name != "catch_up":  # project first, so the read's own share is the search
                self._catch_up()
                t1 = time.process_time()
                self.spent["catch_up"] += (t1 - t0) * 1000
                t0 = t1
            try:
                return fn(*a, **kw)
            finally:
                self.spent[name] += (time.process_time() - t0) * 1000
        return timed_call

    def take(self) -> dict[str, float]:
        out = dict(self.spent)
        self.spent = dict.fromkeys(self.PARTS, 0.0)
        return out


def timed(fn: Callable[[int], object], ops: int, parts: Breakdown | None = None
          ) -> tuple[float, float, dict[str, float]]:
    times = []
    cpu = 0.0
    if parts is not None:
        parts.take()
    for i in range(ops):
        t0, c0 = time.perf_counter(), time.process_time()
        fn(i)
        times.append((time.perf_counter() - t0) * 1000)
        cpu += (time.process_time() - c0) * 1000
    times.sort()
    shares = {k: round(v / ops, 1) for k, v in (parts.take() if parts else {}).items()}
    if parts is not None:
        shares["text_and_commit"] = round(cpu / ops - sum(shares.values()), 1)
        shares["total"] = round(cpu / ops, 1)
    return statistics.median(times), times[max(0, int(len(times) * 0.95) - 1)], shares


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--facts", type=int, default=100_000)
    ap.add_argument("--ops", type=int, default=30)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--breakdown", action="store_true",
                    help="also report CPU ms per operation in each store read (see Breakdown)")
    args = ap.parse_args(argv)
    t = "lat"
    with tempfile.TemporaryDirectory() as tmp:
        store = memory_es.open(Path(tmp) / "m")
        fill(store, t, args.facts)
        ti = TextInterface(store)
        parts = Breakdown(store) if args.breakdown else None
        people = args.facts // 4
        res = {
            "remember": timed(lambda i: ti.remember(t, f"Q{i} lives in Bergen and works at "
                                                       f"Acme{i}."), args.ops, parts),
            "revise": timed(lambda i: ti.revise(t, f"P{i} home city",
                                                f"P{i} lives in Tromso now."), args.ops,
                            parts),
            "release": timed(lambda i: ti.release(t, f"P{i + 100}'s hobby on Sundays"),
                             args.ops, parts),
            "forget": timed(lambda i: ti.forget(t, f"forget everything about P{i + 200}"),
                            args.ops, parts),
            "purge_matching": timed(lambda i: ti.purge_matching(
                t, f"p{(i * 7919) % people}@corp.io"), args.ops, parts),
            "purge_matching_deferred": timed(lambda i: ti.purge_matching(
                t, f"p{(i * 7919 + 1) % people}@corp.io", compact="deferred"), args.ops, parts),
        }
        started = time.perf_counter()
        store.compact()  # what the deferred purges left: one rewrite for all of them
        compact_ms = (time.perf_counter() - started) * 1000
        store.close()
    out = {op: {"p50_ms": round(a, 1), "p95_ms": round(b, 1)} | (
        {"cpu_ms": shares} if shares else {}) for op, (a, b, shares) in res.items()}
    out["purge_matching_deferred"] |= {"compact_after_ms": round(compact_ms, 1),
                                       "compact_per_purge_ms": round(compact_ms / args.ops, 1)}
    print(json.dumps({"facts": args.facts, **out}, indent=1))
    if args.out:
        args.out.write_text(json.dumps({"facts": args.facts, **out}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
