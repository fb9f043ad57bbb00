"""Recall figures (issue 4): latency p50/p95 at 10k and 100k eligible facts, index build
time, and the cost of following single writes, for each embedder.

    python -m benchmarks.recall_bench                   # 10k and 100k, default embedder
    python -m benchmarks.recall_bench --sizes 10000     # quicker
    python -m benchmarks.recall_bench --sizes 10000 --embedder semantic   # needs the extra

Every fact goes through the real write path (``transact`` of 1,000) and the version
projection; a tenth of the entities then get a superseded home city, so the index also
holds facts whose open version lies in the past (they must be filtered, and are). A second
tenant holds a tenth as many facts, so every query also exercises the tenant filter.
Latency is one ``recall(tenant, query, k=8)`` end to end: tracking check, eligibility
mask, the vector channel (the column copy for the hashing embedder's sparse queries,
FAISS with its id selector for dense ones), BM25, blend, and the hits' rows from the
mirror. The phases table times the vector channel beside FAISS's flat scan of the same
queries and masks, in the same run, and gives recall@10 of one against the other.
Target (issue 5): p95 <= 20 ms at 100k. Quality is hit@1/hit@8 on 520 questions with
one right fact each (the corpus the embedder weights were set on: not a held-out test).
On a shared machine, read the CPU-time p95 beside the wall-clock one.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import memory_es
from benchmarks.common import machine, machine_line, summary_ms, text_table
from projections.embedder import Embedder, HashingEmbedder, SentenceEmbedder
from projections.recall import RecallIndex, class_ceiling, recall
from projections.recall import current_rows as _current_rows
from projections.rows import rows_to_facts

RESULTS = Path(__file__).parent / "results"
TENANT, OTHER = "acme", "globex"
CITIES = [f"{a}{b}" for a in ("Port ", "New ", "North ", "San ", "Lake ", "")
          for b in ("Detroit", "Oslo", "Bergen", "Lima", "Kyiv", "Perth", "Austin", "Lyon",
                    "Porto", "Turin", "Osaka", "Quito", "Accra", "Hanoi", "Dakar", "Cork",
                    "Leeds", "Graz", "Basel", "Ghent")]
COMPANIES = [f"{a} {b}" for a in ("Acme", "Globex", "Initech", "Umbrella", "Hooli", "Stark",
                                  "Wayne", "Tyrell", "Cyberdyne", "Soylent")
             for b in ("Corp", "Labs", "Systems", "Foods", "Bank", "Media", "Energy", "Health")]
BROWSERS = ["Firefox", "Chrome", "Edge", "Safari", "Brave", "Vivaldi"]
FOODS = ["sushi", "ramen", "tacos", "pho", "curry", "falafel", "pizza", "paella", "dumplings",
         "bibimbap", "goulash", "ceviche"]
PETS = ["Rex", "Luna", "Milo", "Bella", "Coco", "Max", "Nala", "Simba", "Kiwi", "Pepper"]
LANGS = ["Norwegian", "Spanish", "Japanese", "Swahili", "French", "Polish", "Korean", "Dutch"]


def fact(i: int, a: int, rng: random.Random) -> tuple[str, str, Any, str | None]:
    """The ``a``-th attribute of entity ``i`` (attribute, value, text)."""
    e = f"user:u{i}"
    if a == 0:
        return e, "home.city", rng.choice(CITIES), None
    if a == 1:
        return e, "employer", rng.choice(COMPANIES), None
    if a == 2:
        return e, "email", f"u{i}@example.com", None
    if a == 3:
        return e, "account.id", f"acct-{i:06d}", None
    if a == 4:
        return e, "pref.browser", rng.choice(BROWSERS), None
    if a == 5:
        food = rng.choice(FOODS)
        return e, "pref.food", food, f"u{i} really likes {food}"
    if a == 6:
        pet = rng.choice(PETS)
        return e, "pet.name", pet, f"u{i} has a dog called {pet}"
    if a == 7:
        return e, "language", rng.choice(LANGS), None
    if a == 8:
        return e, "phone", f"+1 555 {i % 1000:03d} {i:05d}", None
    day = rng.choice(["Monday", "Tuesday", "Friday"])
    return e, "note", f"meeting {i}", f"u{i} prefers short meetings on {day} mornings"


def queries(n_entities: int, count: int, rng: random.Random) -> list[str]:
    makers = [
        lambda i: f"where does u{i} live",
        lambda i: f"u{i}@example.com",
        lambda i: f"acct-{i:06d}",
        lambda i: f"who employs u{i}",
        lambda i: rng.choice(CITIES),
        lambda i: f"which browser does u{i} prefer",
        lambda i: f"what is the name of u{i}'s pet",
        lambda i: f"what food does u{i} like",
    ]
    return [makers[j % len(makers)](rng.randrange(n_entities)) for j in range(count)]


QUALITY = [
    ("where does u{i} live", "home.city"), ("u{i}@example.com", "email"),
    ("acct-{i:06d}", "account.id"), ("who employs u{i}", "employer"),
    ("which browser does u{i} prefer", "pref.browser"),
    ("what is the name of u{i}'s pet", "pet.name"), ("what food does u{i} like", "pref.food"),
    ("what language does u{i} speak", "language"), ("phone number of u{i}", "phone"),
    ("when does u{i} like to meet", "note"), ("u{i} home", "home.city"),
    ("u{i} job", "employer"), ("u{i} dog", "pet.name"),
]
"""Questions with one right fact (entity, attribute): hit@1 / hit@8 of blended recall."""


def quality(index: RecallIndex, n_entities: int, now: int) -> dict[str, Any]:
    rng = random.Random(9)
    per: dict[str, list[tuple[bool, bool]]] = {}
    for template, attribute in QUALITY:
        for i in rng.sample(range(n_entities), 40):
            hits = recall(index, TENANT, template.format(i=i), 8, now)
            keys = [(h.fact.entity, h.fact.attribute) for h in hits]
            want = (f"user:u{i}", attribute)
            per.setdefault(template, []).append((bool(keys) and keys[0] == want, want in keys))
    flat = [x for v in per.values() for x in v]
    return {"questions": len(flat), "hit_at_1": sum(a for a, _ in flat) / len(flat),
            "hit_at_8": sum(b for _, b in flat) / len(flat),
            "hit_at_1_by_question": {t: sum(a for a, _ in v) / len(v) for t, v in per.items()}}


def build_store(folder: Path, n_facts: int, rng: random.Random,
                embedder: Embedder | None = None) -> memory_es.MemoryStore:
    """``n_facts`` current facts for TENANT (+10 % superseded history), n/10 for OTHER."""
    store = memory_es.open(folder, embedder=embedder)
    base = datetime(2025, 1, 1, tzinfo=UTC)
    for tenant, count in ((TENANT, n_facts), (OTHER, n_facts // 10)):
        written = 0
        while written < count:
            with store.transact() as tx:
                for k in range(written, min(count, written + 1000)):
                    e, attr, value, text = fact(k // 10, k % 10, rng)
                    tx.assert_fact(tenant, e, attr, value, text=text,
                                   valid_from=base + timedelta(seconds=k))
            written = min(count, written + 1000)
    with store.transact() as tx:
        for i in range(0, n_facts // 10, 10):
            tx.supersede(TENANT, f"user:u{i}", "home.city", rng.choice(CITIES),
                         valid_from=base + timedelta(days=30))
    store.catch_up()
    return store


EMBEDDERS: dict[str, Callable[[], Embedder]] = {"default": HashingEmbedder,
                                                "semantic": SentenceEmbedder}
"""The default (deterministic hashing) embedder and the ``semantic`` extra's MiniLM."""


def run_size(n_facts: int, n_queries: int, seed: int, embedder: str = "default",
             as_of_queries: int = 10) -> dict[str, Any]:
    """Every figure at ``n_facts`` with one embedder (as-of recall embeds the whole
    belief per query: keep ``as_of_queries`` small for a model embedder)."""
    make = EMBEDDERS[embedder]
    rng = random.Random(seed)
    folder = Path(tempfile.mkdtemp(prefix=f"recall-bench-{n_facts}-"))
    out: dict[str, Any] = {"eligible_facts": n_facts, "embedder": make().name}
    try:
        t = time.perf_counter()
        store = build_store(folder / "store", n_facts, rng, make())
        out["store_build_s"] = time.perf_counter() - t
        con = store.runtime.views.con
        counted = store.sql("SELECT count(*) AS n FROM facts_current WHERE tenant = ?", [TENANT])
        out["eligible_facts_measured"] = int(counted.column("n")[0].as_py())

        # a full build, save and reopen, in a folder of its own (the store's index
        # stays the one queried below, with the views' position as the store uses it)
        t = time.perf_counter()
        built = RecallIndex(con, folder / "rebuilt", make(), checkpoint_seconds=1e9)
        out["index_build_s"] = time.perf_counter() - t
        out["indexed_facts"] = len(built)
        out["faiss_ntotal"] = built.vectors.ntotal
        t = time.perf_counter()
        built.flush()
        out["index_save_s"] = time.perf_counter() - t
        out["index_file_mb"] = sum(f.stat().st_size for f in built.path.rglob("*")
                                   if f.is_file()) / 2**20
        built.close()
        t = time.perf_counter()
        RecallIndex(con, folder / "rebuilt", make(), checkpoint_seconds=1e9).close()
        out["index_open_s"] = time.perf_counter() - t
        shutil.rmtree(folder / "rebuilt", ignore_errors=True)

        index = store.runtime.recall
        follow_times: list[float] = []
        follow = index.follow

        def timed_follow(*args: Any, **kwargs: Any) -> None:
            t = time.perf_counter()
            follow(*args, **kwargs)
            follow_times.append(time.perf_counter() - t)

        index.follow = timed_follow  # type: ignore[method-assign]  # the runtime calls it by name

        qs = queries(n_facts // 10, n_queries, rng)
        now = store.runtime.now()
        for q in qs[:20]:  # warm caches
            recall(index, TENANT, q, 8, now)
        samples, cpu, empty = [], [], 0
        for q in qs:
            t, c = time.perf_counter(), time.process_time()
            hits = recall(index, TENANT, q, 8, now)
            samples.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
            empty += not hits
        out["quality"] = quality(index, n_facts // 10, now)
        out["recall"] = summary_ms(samples)
        out["recall_cpu"] = summary_ms(cpu)
        out["queries_without_hits"] = empty

        # where the time goes (same queries, one phase at a time)
        phases: dict[str, list[float]] = {"mask": [], "embed_query": [], "vectors": [],
                                          "vectors_flat": [], "bm25": [],
                                          "rows_to_facts": [], "duckdb_reread": []}
        overlap: list[float] = []
        for q in qs:
            t = time.perf_counter()
            mask, slot_of = index.candidate_slots(TENANT, now, class_ceiling(None))
            phases["mask"].append(time.perf_counter() - t)
            t = time.perf_counter()
            qv = index.embedder.embed([q])[0]
            phases["embed_query"].append(time.perf_counter() - t)
            t = time.perf_counter()
            labels, _ = index.vectors.search(qv, 32, mask)
            phases["vectors"].append(time.perf_counter() - t)
            t = time.perf_counter()
            exact, _ = index.vectors.search(qv, 32, mask, flat=True)
            phases["vectors_flat"].append(time.perf_counter() - t)
            if exact.size:
                top = set(exact[:10].tolist())
                overlap.append(len(top & set(labels[:10].tolist())) / len(top))
            t = time.perf_counter()
            index.keywords.scores(q, mask)
            phases["bm25"].append(time.perf_counter() - t)
            t = time.perf_counter()
            rows_to_facts(index.versions.rows([int(slot_of[x]) for x in labels[:8]]))
            phases["rows_to_facts"].append(time.perf_counter() - t)
            ids = [index.fact_of(int(x)) for x in labels[:8]]
            t = time.perf_counter()
            _current_rows(con, TENANT, ids, now, class_ceiling(None))
            phases["duckdb_reread"].append(time.perf_counter() - t)  # what verify=True adds
        out["phases"] = {k: summary_ms(v) for k, v in phases.items()}
        out["vectors_recall_at_10_vs_flat"] = float(sum(overlap) / len(overlap)) \
            if overlap else None
        out["vectors_flat_over_columns_p50"] = (out["phases"]["vectors_flat"]["p50_ms"]
                                                / out["phases"]["vectors"]["p50_ms"])

        # as-of recall (belief embedded on the fly, keyword index built per query)
        as_of = []
        known = now - 1
        for q in qs[:as_of_queries]:
            t = time.perf_counter()
            recall(index, TENANT, q, 8, now, valid_at_us=known, known_at_us=known)
            as_of.append(time.perf_counter() - t)
        out["as_of_recall"] = summary_ms(as_of)

        # following single writes: one new fact; one forgotten entity (removes vectors)
        add, forget, sync_add, sync_forget = [], [], [], []
        for j in range(10):
            store.assert_fact(TENANT, f"user:new{j}", "home.city", rng.choice(CITIES))
            follow_times.clear()
            t = time.perf_counter()
            store.catch_up()
            add.append(time.perf_counter() - t)
            sync_add.append(sum(follow_times))
            store.forget_entity(TENANT, f"user:u{j}")
            follow_times.clear()
            t = time.perf_counter()
            store.catch_up()
            forget.append(time.perf_counter() - t)
            sync_forget.append(sum(follow_times))
        out["catch_up_after_assert"] = summary_ms(add)
        out["catch_up_after_forget"] = summary_ms(forget)
        out["recall_sync_after_assert"] = summary_ms(sync_add)
        out["recall_sync_after_forget"] = summary_ms(sync_forget)
        out["recall_last_error"] = index.last_error
        out["verify_misses"] = index.verify_misses
        store.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return out


def semantic_status() -> str | None:
    """None when the ``semantic`` extra loads, else why not."""
    try:
        SentenceEmbedder().embed(["probe"])
    except ImportError as e:
        return f"n/a: {e}"
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--embedder", choices=sorted(EMBEDDERS), default="default")
    parser.add_argument("--out", type=Path,
                        help="default: results/recall.json (recall_semantic.json)")
    args = parser.parse_args()
    if args.out is None:
        args.out = RESULTS / ("recall.json" if args.embedder == "default"
                              else f"recall_{args.embedder}.json")
    m = machine()
    why_not = semantic_status()
    if args.embedder == "semantic" and why_not is not None:
        parser.error(f"the semantic embedder is not available: {why_not}")
    results: dict[str, Any] = {"machine": m, "embedder": EMBEDDERS[args.embedder]().name,
                               "semantic_embedder": why_not or "available", "k": 8,
                               "target": "recall p95 <= 20 ms at 100k eligible facts (issue 5)",
                               "sizes": []}
    for n in args.sizes:
        print(f"building {n:,} facts ...", flush=True)
        results["sizes"].append(run_size(n, args.queries, args.seed, args.embedder,
                                         10 if args.embedder == "default" else 2))
    rows = []
    for r in results["sizes"]:
        rows.append([r["embedder"], r["eligible_facts_measured"], r["indexed_facts"],
                     r["recall"]["p50_ms"],
                     r["recall"]["p95_ms"], r["recall_cpu"]["p95_ms"],
                     r["as_of_recall"]["p50_ms"], r["index_build_s"],
                     r["index_open_s"], r["index_file_mb"],
                     r["recall_sync_after_assert"]["p50_ms"],
                     r["recall_sync_after_forget"]["p50_ms"], r["quality"]["hit_at_1"],
                     r["quality"]["hit_at_8"], r["vectors_recall_at_10_vs_flat"],
                     r["vectors_flat_over_columns_p50"]])
    print(text_table(["embedder", "eligible", "indexed", "recall p50 ms", "recall p95 ms",
                      "p95 cpu ms", "as-of p50 ms", "build s", "open s", "file MB",
                      "sync/assert ms", "sync/forget ms", "hit@1", "hit@8",
                      "vec recall@10 vs flat", "flat/vec p50"], rows))
    for r in results["sizes"]:
        print(f"\n{r['eligible_facts']:,} facts, phases (p50/p95 ms): " + ", ".join(
            f"{k} {v['p50_ms']:.2f}/{v['p95_ms']:.2f}" for k, v in r["phases"].items()))
    print(f"\n{machine_line(m)}; semantic extra: {results['semantic_embedder']}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2, default=float) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
