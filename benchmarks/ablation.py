"""Governance ablation: the same 65 cases under four configurations.

* **full** — ``store.recall`` as shipped (eligibility, currency, control plane, all channels);
* **lexical only** / **semantic only** — ``store.recall`` with one channel switched off, when
  the store's ``recall`` offers a channel switch;
* **no governance** — a *benchmark-side baseline*, not a store mode: recall over every row
  of ``fact_versions`` of the tenant (every version ever recorded, any state: superseded,
  corrected, conflicted, decayed, forgotten, archived, deprecated), with no eligibility
  filter and no control plane, ranked with the project's own channels (its keyword index
  and default embedder) blended like ``recall``'s documented defaults. Purged rows are not
  there to be found: purge removes them from the table itself.

The channel switch the two single-channel configurations need is
``store.recall(..., channels=("keyword",))`` / ``channels=("semantic",)`` (or a
``weights=`` override); until ``recall`` offers one, those rows say so.

The cases are written once into a fresh store (injected clock), each case in its own
tenant; the configurations differ only in how they read, so they share those writes.
Metrics: pass rate, per-category accuracy, conflict correctness (conflict-update cases:
the new value in top-k **and** every old one out), cross-wording accuracy, and
retrieval p50/p95.
"""

from __future__ import annotations

import inspect
import json
import math
import shutil
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import memory_es
from benchmarks.ablation_cases import (
    BACKGROUND,
    CASES,
    CATEGORIES,
    LEDGER_CASES,
    Case,
    LedgerCase,
    Op,
)
from benchmarks.common import Progress, not_yet, summary_ms

CONFIGS = ("full", "lexical only", "semantic only", "no governance")

class StepClock:
    """A clock that moves one second per reading, from 2025-06-01 (deterministic runs)."""

    def __init__(self, start: datetime | None = None, step: timedelta = timedelta(seconds=1)):
        self.t = start or datetime(2025, 6, 1, 12, tzinfo=UTC)
        self.step = step

    def __call__(self) -> datetime:
        self.t += self.step
        return self.t


def hit_text(text: str | None, value: Any) -> str:
    return f"{text or ''} {json.dumps(value, ensure_ascii=False)}".casefold()


def judge(case: Case, texts: list[str]) -> dict[str, Any]:
    blob = " \n ".join(texts)
    missing = [e for e in case.expect if e.casefold() not in blob]
    leaked = [f for f in case.forbid if f.casefold() in blob]
    return {"pass": not missing and not leaked, "missing": missing, "leaked": leaked}


def apply_ops(store: memory_es.MemoryStore, tenant: str, ops: tuple[Op, ...],
              labels: dict[str, str]) -> list[str]:
    """Run a case's writes through the public API; returns errors (should be none)."""
    errors = []
    for op in ops:
        try:
            _apply(store, tenant, op, labels)
        except memory_es.MemoryESError as e:
            errors.append(f"{op.kind}: {type(e).__name__}: {e}")
    return errors


def _apply(store: memory_es.MemoryStore, tenant: str, op: Op, labels: dict[str, str]) -> None:
    k = op.kind
    if k == "assert":
        assert op.attribute is not None
        kw: dict[str, Any] = {}
        if op.back_days:
            kw["valid_from"] = store.now() - timedelta(days=op.back_days)
        r = store.assert_fact(tenant, op.entity, op.attribute, op.value, text=op.text,
                              asserted_by=op.by, source="ablation",
                              derived_from=[labels[d] for d in op.derived], **kw)
        if op.label:
            labels[op.label] = r.fact_id or ""
    elif k == "supersede":
        assert op.entity is not None and op.attribute is not None
        r = store.supersede(tenant, op.entity, op.attribute, op.value, text=op.text,
                            source="ablation")
        if op.label:
            labels[op.label] = r.fact_id or ""
    elif k == "correct":
        store.correct(labels[op.ref or ""], op.value, text=op.text)
    elif k == "decay":
        store.decay(labels[op.ref or ""])
    elif k == "forget_entity":
        assert op.entity is not None
        store.forget_entity(tenant, op.entity)
    elif k == "forget_fact":
        store.forget_fact(labels[op.ref or ""])
    elif k == "archive":
        store.archive(labels[op.ref or ""])
    elif k == "mask":
        store.mask(labels[op.ref or ""])
    elif k == "retract":
        assert op.entity is not None and op.attribute is not None
        store.retract(tenant, op.entity, op.attribute)
    elif k == "purge":
        fact_id = labels[op.ref] if op.ref else None
        p = store.preview("purge", tenant, op.entity, fact_id=fact_id)
        store.purge(tenant, op.entity, fact_id=fact_id, confirm=p.token,
                    requested_by="ablation")
    else:
        raise ValueError(f"unknown op {k}")


# recall adapters ----------------------------------------------------------------------------

RecallFn = Callable[[str, str, int], list[str]]


def _hits_to_texts(hits: Any) -> list[str]:
    out = []
    for h in hits:
        fact = getattr(h, "fact", h)
        out.append(hit_text(getattr(fact, "text", None), getattr(fact, "value", None)))
    return out


def store_recall(store: memory_es.MemoryStore, config: str) -> RecallFn | str:
    """The store's recall for ``config``, or the reason it cannot be run (yet)."""
    fn = getattr(store, "recall", None)
    if fn is None:
        return not_yet("store.recall (recall issue)")
    if config == "full":
        return lambda tenant, q, k: _hits_to_texts(fn(tenant, q, k=k))
    channel = "keyword" if config == "lexical only" else "semantic"
    off = "semantic" if channel == "keyword" else "keyword"
    params = inspect.signature(fn).parameters
    if "channels" in params:
        switch: dict[str, Any] = {"channels": (channel,)}
    elif "weights" in params:
        switch = {"weights": {off: 0.0}}
    else:
        return not_yet("store.recall has no channel switch (channels= or weights=)")
    explain = "explain" in params

    def single_channel(tenant: str, q: str, k: int) -> list[str]:
        hits = fn(tenant, q, k=k, **switch, **({"explain": True} if explain else {}))
        for h in hits:  # a switch that is accepted but not honoured must not pass silently
            if (getattr(h, "parts", None) or {}).get(off, 0.0) > 0.0:
                raise ChannelNotHonoured(f"{switch} accepted but hits still carry '{off}'")
        return _hits_to_texts(hits)

    return single_channel


class ChannelNotHonoured(RuntimeError):
    """``recall`` took the channel switch but still scored the other channel."""


def _ranking_constants() -> dict[str, Any]:
    """recall's own weights and part definitions when the recall module exists, else the
    documented defaults (SPEC §9 / issue 4)."""
    consts: dict[str, Any] = {
        "weights": {"keyword": 0.15, "semantic": 0.40, "utility": 0.15, "importance": 0.15,
                    "recency": 0.15},
        "asserted": {"user": 1.0, "third_party": 0.7, "inference": 0.4},
        "volatility": {"stable": 1.0, "periodic": 0.8, "volatile": 0.6},
        "half_life_us": 30 * 86_400 * 1_000_000, "min_semantic": 0.10, "source": "defaults"}
    try:
        from projections import recall as r
    except ImportError:
        return consts
    consts.update(weights=dict(r.WEIGHTS), asserted=dict(r.ASSERTED_IMPORTANCE),
                  volatility=dict(r.VOLATILITY_IMPORTANCE),
                  half_life_us=r.RECENCY_HALF_LIFE_US, min_semantic=r.MIN_SEMANTIC,
                  source="projections.recall")
    return consts


class NoGovernance:
    """Benchmark-side baseline: recall over every ``fact_versions`` row, no filter at all.

    Ranked like ``recall`` (same weights and parts, read from ``projections.recall`` when
    it exists): keyword = BM25 / best, semantic = cosine of the project's default
    embedder, utility = confidence (there is no lifecycle to weigh), importance =
    provenance x volatility, recency = 0.5 ** (age / 30 days); a hit needs a keyword match
    or the semantic floor. What it lacks is exactly the governance: no eligibility, no
    currency, no control plane. Rows with the same text and value are shown once, which
    only helps it.
    """

    def __init__(self, store: memory_es.MemoryStore) -> None:
        from projections.embedder import default_embedder
        from projections.recall.keywords import KeywordIndex

        self.store = store
        self.embedder = default_embedder()
        self.KeywordIndex = KeywordIndex
        self.c = _ranking_constants()
        self.cache: dict[str, tuple[list[dict[str, Any]], Any, Any]] = {}

    def _index(self, tenant: str) -> tuple[list[dict[str, Any]], Any, Any]:
        if tenant not in self.cache:
            table = self.store.sql(
                "SELECT text, value, confidence, asserted_by, volatility, "
                "epoch_us(recorded_at) AS recorded_us FROM fact_versions "
                "WHERE tenant = ? ORDER BY recorded_at, position", [tenant])
            rows, seen = [], set()
            for r in table.to_pylist():
                key = (r["text"], r["value"])
                if key not in seen:
                    seen.add(key)
                    rows.append(r)
            index = self.KeywordIndex()
            index.add(list(range(len(rows))), [r["text"] or "" for r in rows])
            vectors = self.embedder.embed([r["text"] or "" for r in rows])
            self.cache[tenant] = (rows, index, vectors)
        return self.cache[tenant]

    def recall(self, tenant: str, query: str, k: int) -> list[str]:
        import numpy as np

        rows, index, vectors = self._index(tenant)
        if not rows:
            return []
        n = len(rows)
        c = self.c
        sem = np.clip(vectors @ self.embedder.embed([query])[0], 0.0, 1.0)
        kw = np.zeros(n, dtype=np.float32)
        labels, scores = index.scores(query, np.ones(n, dtype=bool))
        if len(scores):
            kw[labels] = scores / float(scores.max())
        now_us = int(self.store.now().timestamp() * 1_000_000)
        age = np.array([max(0, now_us - r["recorded_us"]) for r in rows], dtype=np.float64)
        recency = 0.5 ** (age / c["half_life_us"])
        utility = np.array([r["confidence"] for r in rows], dtype=np.float32)
        importance = np.array([c["asserted"].get(r["asserted_by"], 0.5)
                               * c["volatility"].get(r["volatility"], 1.0) for r in rows])
        w = c["weights"]
        score = (w["keyword"] * kw + w["semantic"] * sem + w["utility"] * utility
                 + w["importance"] * importance + w["recency"] * recency)
        score[(kw <= 0) & (sem < c["min_semantic"])] = -1.0
        top = [i for i in np.argsort(-score, kind="stable")[:k] if score[i] >= 0]
        return [hit_text(rows[i]["text"], json.loads(rows[i]["value"])
                         if rows[i]["value"] is not None else None) for i in top]


def no_governance(store: memory_es.MemoryStore) -> RecallFn | str:
    try:
        ng = NoGovernance(store)
    except ImportError as e:
        return not_yet(f"the project's keyword index / embedder ({e.name})")
    return ng.recall


# running ------------------------------------------------------------------------------------

def _background(store: memory_es.MemoryStore, tenant: str, ops: tuple[Op, ...]) -> None:
    with store.transact() as tx:  # one commit per half (speed only)
        for op in ops:
            assert op.attribute is not None
            tx.assert_fact(tenant, op.entity, op.attribute, op.value, text=op.text,
                           source="background")


def load_cases(store: memory_es.MemoryStore, cases: tuple[Case, ...],
               progress: Progress, desc: str) -> dict[str, list[str]]:
    errors: dict[str, list[str]] = {}
    for case in progress.bar(cases, desc, len(cases), "case"):
        tenant = f"case-{case.id}"
        labels: dict[str, str] = {}
        half = len(BACKGROUND) // 2
        _background(store, tenant, BACKGROUND[:half])
        errs = apply_ops(store, tenant, case.ops, labels)
        _background(store, tenant, BACKGROUND[half:])  # so the answer is not simply newest
        if errs:
            errors[case.id] = errs
    return errors


def evaluate(store: memory_es.MemoryStore, config: str, cases: tuple[Case, ...],
             progress: Progress, setup_errors: dict[str, list[str]]) -> dict[str, Any]:
    fn = no_governance(store) if config == "no governance" else store_recall(store, config)
    if isinstance(fn, str):
        return {"config": config, "unavailable": fn}
    results, lat = [], []
    for case in progress.bar(cases, f"ablation [{config}]", len(cases), "case"):
        tenant = f"case-{case.id}"
        try:
            fn(tenant, case.query, case.k)  # warm (index build, caches)
        except ChannelNotHonoured as e:
            return {"config": config, "unavailable": f"n/a: {e}"}
        t = time.perf_counter()
        texts = fn(tenant, case.query, case.k)
        lat.append(time.perf_counter() - t)
        verdict = judge(case, texts)
        verdict.update(id=case.id, category=case.category, cross=case.cross)
        results.append(verdict)
    return summarise(config, results, lat, setup_errors)


def summarise(config: str, results: list[dict[str, Any]], lat: list[float],
              setup_errors: dict[str, list[str]]) -> dict[str, Any]:
    def rate(rows: list[dict[str, Any]]) -> float:
        return sum(r["pass"] for r in rows) / len(rows) if rows else math.nan

    per_cat = {c: rate([r for r in results if r["category"] == c]) for c in CATEGORIES}
    cross = [r for r in results if r["cross"]]
    return {
        "config": config,
        "passed": sum(r["pass"] for r in results),
        "total": len(results),
        "pass_rate": rate(results),
        "per_category": per_cat,
        "conflict_correctness": per_cat["conflict"],
        "cross_wording": rate(cross),
        "cross_wording_n": len(cross),
        "leaks": sum(bool(r["leaked"]) for r in results),
        "retrieval": summary_ms(lat),
        "failures": [{k: r[k] for k in ("id", "missing", "leaked")}
                     for r in results if not r["pass"]],
        "setup_errors": setup_errors,
    }


def run(progress: Progress, configs: tuple[str, ...] = CONFIGS,
        cases: tuple[Case, ...] = CASES) -> dict[str, Any]:
    """Write the cases once into a fresh store, then read them under each configuration
    (the configurations differ only in the read path, so they share the writes)."""
    folder = Path(tempfile.mkdtemp(prefix="me-bench-ablation-"))
    try:
        store = memory_es.open(folder / "store", clock=StepClock())
        try:
            setup_errors = load_cases(store, cases, progress, "ablation writes")
            store.catch_up()
            out = {c: evaluate(store, c, cases, progress, setup_errors) for c in configs}
        finally:
            store.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    result = {"cases": len(cases), "per_category_n": {c: sum(x.category == c for x in cases)
                                                       for c in CATEGORIES},
              "cross_wording_n": sum(x.cross for x in cases), "configs": out}
    if configs == CONFIGS and cases == CASES:  # the full suite: the ledger cases too
        result["ledger"] = run_ledger(progress)
    return result


# the utility ledger (issue 12) ------------------------------------------------------------

LEDGER_CONFIGS = ("full", "full, explore", "no ledger", "no ledger, no tiers",
                  "no preference verification")
"""What each §12 part buys: ``full`` judges every recall and sweeps; ``full, explore``
also Thompson-samples young facts during the rounds; ``no ledger`` never judges (a served
count is all there is, like ``usage_count++``); ``no ledger, no tiers`` neither judges nor
sweeps; ``no preference verification`` opens the store with the flag off."""


class HandClock:
    """A clock the simulation moves by hand (the store adds 1 µs per commit)."""

    def __init__(self) -> None:
        self.t = datetime(2025, 6, 1, 12, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.t


def _ledger_case(store: memory_es.MemoryStore, clock: HandClock, case: LedgerCase,
                 config: str) -> dict[str, Any]:
    tenant = f"ledger-{case.id}"
    labels: dict[str, str] = {}
    judging = config not in ("no ledger", "no ledger, no tiers")
    sweeping = config != "no ledger, no tiers"
    if case.kind == "rejected":
        apply_ops(store, tenant, case.ops, labels)
        op = case.ops[0]
        assert op.entity is not None and op.attribute is not None
        fid = labels[case.expect]
        for _ in range(8):  # two months of acceptance, then a week of rejections
            store.feedback(tenant, fid, "accepted")
            clock.t += timedelta(days=7)
        for _ in range(3):
            store.feedback(tenant, fid, "rejected")
            clock.t += timedelta(days=1)
        drift = store.preference_drift(tenant, op.entity, op.attribute)
        post = store.preference(tenant, fid)
        return {"id": case.id, "kind": case.kind, "pass": drift is not None,
                "posterior_mean": None if post is None else round(post.mean, 3),
                "precision_at_1": None}
    fresh = set(case.helped) if case.kind == "fresh" else set()
    first = [o for o in case.ops if o.label not in fresh]
    later = [o for o in case.ops if o.label in fresh]
    apply_ops(store, tenant, tuple(first), labels)
    top_good = 0

    def one_round(r: int) -> None:
        nonlocal top_good
        explore = config == "full, explore"
        hits = store.recall(tenant, case.query, 3, receipt=True, explore=explore, seed=r)
        served = {h.fact.fact_id for h in hits}
        helped = [labels[x] for x in case.helped if labels.get(x) in served]
        misled = [labels[x] for x in case.misled if labels.get(x) in served]
        if hits and hits[0].fact.fact_id in {labels.get(x) for x in case.helped}:
            top_good += 1
        if judging and hits and (helped or misled):
            store.judge(tenant, str(hits[0].recall_id), helpful=helped, misleading=misled)
        if sweeping:
            store.sweep(tenant)
        clock.t += timedelta(hours=6)

    for r in range(case.fresh_after):
        one_round(1000 + r)
    apply_ops(store, tenant, tuple(later), labels)
    top_good = 0
    for r in range(case.rounds):
        one_round(r)
    final = store.recall(tenant, case.query, 1)
    ok = bool(final) and final[0].fact.fact_id == labels[case.expect]
    return {"id": case.id, "kind": case.kind, "pass": ok,
            "precision_at_1": top_good / case.rounds}


def run_ledger(progress: Progress, configs: tuple[str, ...] = LEDGER_CONFIGS) -> dict[str, Any]:
    """Each ledger case under each configuration, each configuration in a fresh store (the
    configurations differ in what they write: judgements, sweeps, feedback)."""
    folder = Path(tempfile.mkdtemp(prefix="me-bench-ledger-"))
    out: dict[str, Any] = {}
    try:
        for config in configs:
            clock = HandClock()
            store = memory_es.open(folder / config.replace(" ", "_").replace(",", ""),
                                   clock=clock,
                                   preference_verification=config != "no preference "
                                                                     "verification")
            try:
                rows = [_ledger_case(store, clock, case, config) for case in progress.bar(
                    LEDGER_CASES, f"ledger [{config}]", len(LEDGER_CASES), "case")]
            finally:
                store.close()
            ranked = [r["precision_at_1"] for r in rows if r["precision_at_1"] is not None]
            kinds = sorted({r["kind"] for r in rows})
            out[config] = {
                "passed": sum(r["pass"] for r in rows), "total": len(rows),
                "per_kind": {k: sum(r["pass"] for r in rows if r["kind"] == k) for k in kinds},
                "precision_at_1_during_rounds": sum(ranked) / len(ranked) if ranked else None,
                "cases": rows}
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return {"cases": len(LEDGER_CASES), "configs": out}


def ledger_table(result: dict[str, Any]) -> str:
    """The ledger ablation as a text table: passes per kind and precision@1 in the rounds."""
    configs = result["configs"]
    kinds = sorted({k for c in configs.values() for k in c["per_kind"]})
    head = f"{'configuration':<28} {'passed':>7} " + " ".join(f"{k:>10}" for k in kinds) \
        + f" {'p@1 rounds':>11}"
    lines = [head]
    for name, c in configs.items():
        p = c["precision_at_1_during_rounds"]
        lines.append(f"{name:<28} {c['passed']:>3}/{c['total']:<3} "
                     + " ".join(f"{c['per_kind'][k]:>10}" for k in kinds)
                     + f" {'-' if p is None else f'{p:.2f}':>11}")
    return "\n".join(lines)


def main() -> None:
    """``python -m benchmarks.ablation --ledger``: the ledger ablation alone (table + JSON)."""
    import argparse

    ap = argparse.ArgumentParser()
    ap.add_argument("--ledger", action="store_true", help="the utility-ledger cases only")
    args = ap.parse_args()
    result = run_ledger(Progress(False)) if args.ledger else run(Progress(False))
    results = Path(__file__).parent / "results"
    results.mkdir(exist_ok=True)
    name = "ablation_ledger.json" if args.ledger else "ablation.json"
    (results / name).write_text(json.dumps(result, indent=2, default=str))
    print(ledger_table(result) if args.ledger else json.dumps(
        {c: r.get("passed") for c, r in result["configs"].items()}))


if __name__ == "__main__":
    main()
