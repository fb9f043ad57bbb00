"""The vector channel at scale: the IVF the index becomes against the exact flat scan.

``python -m benchmarks.vector_bench [--sizes 100000,1000000] [--queries 200]`` embeds the
speed workload's texts with the default (hashing) embedder, builds the exact flat index
and the IVF the recall channel becomes with ``MEMORY_ES_IVF_FROM`` on the same vectors,
and, in the same run, times top-10 searches on both, with every label allowed and with
one tenant's tenth allowed, and measures recall@10 of the IVF against the flat answers
(tie-aware: the workload's texts repeat, so many facts share a vector).
It prints a table and writes ``results/vector_bench.json``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import faiss
import numpy as np

from benchmarks import workload as W
from benchmarks.common import machine, summary_ms, text_table
from projections.embedder import default_embedder
from projections.recall.vectors import VectorIndex

RESULTS = Path(__file__).parent / "results"


def measure(n: int, queries: int) -> dict[str, Any]:
    embedder = default_embedder()
    texts = [r.text for r in W.rows(0, n)]
    t = time.perf_counter()
    vectors = np.concatenate([embedder.embed(texts[i:i + 20_000])
                              for i in range(0, n, 20_000)])
    embed_s = time.perf_counter() - t
    labels = np.arange(n, dtype=np.int64)
    flat = VectorIndex(vectors.shape[1])
    flat.ivf_from = n + 1  # stays exact: the baseline
    flat.add(labels, vectors)
    ivf = VectorIndex(vectors.shape[1])
    ivf.ivf_from = min(65_536, n // 2)  # what MEMORY_ES_IVF_FROM=65536 does in the store
    t = time.perf_counter()
    for i in range(0, n, 50_000):  # as the projection adds them, batch by batch
        ivf.add(labels[i:i + 50_000], vectors[i:i + 50_000])
    build_s = time.perf_counter() - t
    rng = np.random.default_rng(5)
    qs = embedder.embed(W.recall_queries(n, queries))
    out: dict[str, Any] = {"n": n, "dim": int(vectors.shape[1]), "embed_s": embed_s,
                           "ivf_build_s": build_s, "index": type(ivf.index).__name__,
                           "nlist": int(getattr(ivf.index, "nlist", 0))}
    for name, share in (("all", 1.0), ("tenth", 0.1)):
        allowed = rng.random(n) < share
        lat: dict[str, list[float]] = {"flat": [], "ivf": []}
        overlap = []
        for q in qs:
            t = time.perf_counter()
            exact, exact_sims = flat.search(q, 10, allowed)
            lat["flat"].append(time.perf_counter() - t)
            t = time.perf_counter()
            _, found_sims = ivf.search(q, 10, allowed)
            lat["ivf"].append(time.perf_counter() - t)
            if exact.size:  # tie-aware: many facts share a text's vector, so any of the
                # tied ones is a right answer; a hit counts when it scores at least the
                # exact scan's 10th similarity
                hits = np.sort(found_sims)[::-1][:exact.size]
                overlap.append(float(np.sum(hits >= exact_sims[-1] - 1e-5)) / exact.size)
        out[name] = {"flat_ms": summary_ms(lat["flat"]), "ivf_ms": summary_ms(lat["ivf"]),
                     "recall_at_10": float(np.mean(overlap)) if overlap else None}
    removed = labels[: min(1_000, n)]
    t = time.perf_counter()
    ivf.remove(removed)
    out["remove_1000_ms"] = (time.perf_counter() - t) * 1e3
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.vector_bench")
    parser.add_argument("--sizes", default="100000,1000000")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--out", default=str(RESULTS / "vector_bench.json"))
    args = parser.parse_args(argv)
    faiss.omp_set_num_threads(1)
    results = [measure(int(n), args.queries) for n in args.sizes.split(",")]
    rows = []
    for r in results:
        for mask in ("all", "tenth"):
            m = r[mask]
            rows.append([r["n"], mask, r["index"], r["nlist"], m["flat_ms"]["p50_ms"],
                         m["flat_ms"]["p95_ms"], m["ivf_ms"]["p50_ms"], m["ivf_ms"]["p95_ms"],
                         m["recall_at_10"], m["flat_ms"]["p50_ms"] / m["ivf_ms"]["p50_ms"]])
    print(text_table(("facts", "allowed", "index", "lists", "flat p50 ms", "flat p95 ms",
                      "ivf p50 ms", "ivf p95 ms", "recall@10", "speed-up"), rows))
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps({"machine": machine(), "results": results},
                                         indent=2, default=str) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
