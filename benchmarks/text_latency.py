"""Latency of the text operations at a tenant size (p50 / p95, milliseconds).

``python -m benchmarks.text_latency --facts 100000 --ops 30`` fills one tenant with
``--facts`` facts about many people (batched ``transact`` writes), then times
``remember``, ``revise``, ``release``, ``forget`` and ``purge_matching`` on it.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

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


def timed(fn: Callable[[int], object], ops: int) -> tuple[float, float]:
    times = []
    for i in range(ops):
        t0 = time.perf_counter()
        fn(i)
        times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    return statistics.median(times), times[max(0, int(len(times) * 0.95) - 1)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--facts", type=int, default=100_000)
    ap.add_argument("--ops", type=int, default=30)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    t = "lat"
    with tempfile.TemporaryDirectory() as tmp:
        store = memory_es.open(Path(tmp) / "m")
        fill(store, t, args.facts)
        ti = TextInterface(store)
        people = args.facts // 4
        res = {
            "remember": timed(lambda i: ti.remember(t, f"Q{i} lives in Bergen and works at "
                                                       f"Acme{i}."), args.ops),
            "revise": timed(lambda i: ti.revise(t, f"P{i} home city",
                                                f"P{i} lives in Tromso now."), args.ops),
            "release": timed(lambda i: ti.release(t, f"P{i + 100}'s hobby on Sundays"),
                             args.ops),
            "forget": timed(lambda i: ti.forget(t, f"forget everything about P{i + 200}"),
                            args.ops),
            "purge_matching": timed(lambda i: ti.purge_matching(
                t, f"p{(i * 7919) % people}@corp.io"), args.ops),
        }
        store.close()
    out = {op: {"p50_ms": round(a, 1), "p95_ms": round(b, 1)} for op, (a, b) in res.items()}
    print(json.dumps({"facts": args.facts, **out}, indent=1))
    if args.out:
        args.out.write_text(json.dumps({"facts": args.facts, **out}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
