"""ForgetEval through the text interface: pass rates beside the published baselines.

Runs the public ForgetEval cases (``../shared/forgeteval`` by default) through an
adapter over :class:`memory_es.text.TextInterface` with the default embedder and no
model call:

* template suite — 1,000 cases, scorer ``run_k10_lower`` (k = 10, ``lower()``);
* ForgetEval-Adv v0.7 — 385 cases with the v0.6 and v0.7 repairs, scorer
  ``probed_k5_casefold`` (k = 5; every forbidden string is also probed as a query);
* ForgetEval-Adv v0.5.1 — the 385 cases as shipped, scorer ``run_k10_lower``;
* smoke — the 15 hand-written cases, each with its own k and match scope.

Adapter: ``reset`` = a fresh tenant in one store (tenants are isolated by
construction; ``--fresh-store`` opens a new store per case instead), ``inscribe`` =
``remember``, ``supersede`` = ``revise``, ``release`` = ``release``, ``purge`` =
``purge_matching``, ``recall_texts`` = ``recall_texts``. An exception fails the case.

Usage::

    python benchmarks/forgeteval.py            # every suite, JSON to benchmarks/results/
    python benchmarks/forgeteval.py --quick    # smoke + a seeded sample (CI)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
import traceback
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import memory_es  # noqa: E402
from memory_es.text import TextInterface  # noqa: E402

DEFAULT_DATA = Path(os.environ.get("FORGETEVAL_DATA", ROOT.parent / "shared" / "forgeteval"))
RESULTS = ROOT / "benchmarks" / "results" / "forgeteval.json"
FAMILIES = ("supersession", "decay", "amnesia", "purge", "drift")
CATEGORIES = ("substring_trap", "prefix_collision", "paraphrase_supersession", "negation_trap",
              "temporal_qualifier", "shared_attribute", "compound_fact",
              "identifier_obfuscation", "cross_lingual_identifier", "recursive_supersession")


# --- adapter ---------------------------------------------------------------------------------


class StepClock:
    """A deterministic clock: one millisecond per reading (replays are reproducible)."""

    def __init__(self) -> None:
        self.t = datetime(2026, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.t += timedelta(milliseconds=1)
        return self.t


class TextAdapter:
    """The ForgetEval adapter protocol over the text interface."""

    def __init__(self, store: Any, prefix: str = "fe") -> None:
        self.text = TextInterface(store)
        self.prefix = prefix
        self.n = 0
        self.tenant = f"{prefix}-0"

    def reset(self) -> None:
        self.n += 1
        self.tenant = f"{self.prefix}-{self.n}"

    def inscribe(self, text: str) -> str:
        receipts = self.text.remember(self.tenant, text)
        return receipts[0].fact_id or "" if receipts else ""

    def recall_texts(self, query: str, k: int) -> list[str]:
        return self.text.recall_texts(self.tenant, query, k)

    def supersede(self, old_query: str, new_text: str) -> None:
        self.text.revise(self.tenant, old_query, new_text)

    def release(self, query: str) -> int:
        return self.text.release(self.tenant, query).count

    def purge(self, query: str) -> int:
        return self.text.purge_matching(self.tenant, query).count


@contextmanager
def open_store(folder: Path) -> Iterator[Any]:
    store = memory_es.open(folder, clock=StepClock())
    try:
        yield store
    finally:
        store.close()


# --- scoring ---------------------------------------------------------------------------------


@dataclass
class Outcome:
    case_id: str
    group: str
    passed: bool
    error: str | None = None
    top: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    leaked: list[str] = field(default_factory=list)


def _apply(adapter: TextAdapter, setup: list[str], mutations: list[list[str]]) -> None:
    adapter.reset()
    for text in setup:
        adapter.inscribe(text)
    for m in mutations:
        op = m[0]
        if op == "supersede":
            adapter.supersede(m[1], m[2])
        elif op == "release":
            adapter.release(m[1])
        elif op == "purge":
            adapter.purge(m[1])
        else:
            raise ValueError(f"unknown mutation {op!r}")


def run_k10_lower(adapter: TextAdapter, case: dict[str, Any], group: str) -> Outcome:
    """``GeneratedCase.run``: k from the case (10), joined blob, ``lower()``."""
    _apply(adapter, case["setup_facts"], case["mutations"])
    top = adapter.recall_texts(case["final_query"], case.get("k", 10))
    blob = " ".join(top).lower()
    missing = [s for s in case["must_contain"] if s.lower() not in blob]
    leaked = [s for s in case["must_not_contain"] if s.lower() in blob]
    return Outcome(case["id"], group, not missing and not leaked, top=top, missing=missing,
                   leaked=leaked)


def probed_k5_casefold(adapter: TextAdapter, case: dict[str, Any], group: str) -> Outcome:
    """``scoring.run_scored(probed=True)``: k = 5, casefold; each forbidden string is
    also a query, and what any query returns may not contain a forbidden string."""
    _apply(adapter, case["setup_facts"], case["mutations"])
    top = adapter.recall_texts(case["final_query"], 5)
    blob = " ".join(top).casefold()
    missing = [s for s in case["must_contain"] if s.casefold() not in blob]
    probes: list[str] = []
    for raw in [case["final_query"], *case["must_not_contain"]]:
        q = raw.strip()
        if q and q not in probes:
            probes.append(q)
    texts: list[str] = []
    for q in probes:
        texts.extend(adapter.recall_texts(q, 5))
    probed = " ".join(texts).casefold()
    leaked = [s for s in case["must_not_contain"] if s.casefold() in probed]
    return Outcome(case["id"], group, not missing and not leaked, top=top, missing=missing,
                   leaked=leaked)


def smoke_rule(adapter: TextAdapter, case: dict[str, Any], group: str) -> Outcome:
    """``tests.py``: the case's own k; ``each_text`` looks for a needle inside one text,
    ``joined_blob`` in the joined texts; ``must_contain_any`` needs one of its needles."""
    _apply(adapter, case["setup_facts"], case["mutations"])
    top = adapter.recall_texts(case["final_query"], case["k"])
    lowered = [t.lower() for t in top]
    if case.get("match_scope") == "joined_blob":
        blob = " ".join(lowered)

        def has(s: str) -> bool:
            return s.lower() in blob
    else:
        def has(s: str) -> bool:
            return any(s.lower() in t for t in lowered)
    missing = [s for s in case["must_contain"] if not has(s)]
    anyof = case.get("must_contain_any") or []
    if anyof and not any(has(s) for s in anyof):
        missing.append(" | ".join(anyof))
    leaked = [s for s in case["must_not_contain"] if has(s)]
    return Outcome(case["id"], group, not missing and not leaked, top=top, missing=missing,
                   leaked=leaked)


# --- suites ----------------------------------------------------------------------------------


def v07_case(case: dict[str, Any]) -> dict[str, Any]:
    """v0.5.1 -> v0.6 (sibling that must survive) -> v0.7 (one-form purge query)."""
    out = dict(case)
    repair = case.get("repair_v06")
    if repair:
        out["setup_facts"] = [*case["setup_facts"], *repair["add_facts"]]
        out["final_query"] = repair["final_query"]
        out["must_contain"] = list(repair["must_contain"])
    if case.get("v07_mutations"):
        out["mutations"] = case["v07_mutations"]
    return out


@dataclass
class Suite:
    name: str
    cases: list[dict[str, Any]]
    rule: Callable[[TextAdapter, dict[str, Any], str], Outcome]
    group_key: str
    groups: tuple[str, ...]
    scorer: str


def load_suites(data: Path, quick: bool, sample: int, seed: int) -> list[Suite]:
    generated = json.loads((data / "cases_generated_1000.json").read_text())
    adversarial = json.loads((data / "cases_adversarial_385.json").read_text())
    smoke = json.loads((data / "cases_smoke.json").read_text())
    if quick:
        rng = random.Random(seed)
        generated = rng.sample(generated, min(sample, len(generated)))
        adversarial = rng.sample(adversarial, min(sample, len(adversarial)))
    return [
        Suite("smoke", smoke, smoke_rule, "family", FAMILIES, "own k, match_scope"),
        Suite("template_1000", generated, run_k10_lower, "family", FAMILIES, "run_k10_lower"),
        Suite("adversarial_v0.7_k5", [v07_case(c) for c in adversarial], probed_k5_casefold,
              "category", CATEGORIES, "probed_k5_casefold"),
        Suite("adversarial_v0.5.1_k10", adversarial, run_k10_lower, "category", CATEGORIES,
              "run_k10_lower"),
    ]


def run_suite(suite: Suite, folder: Path, fresh_store: bool,
              cases_per_store: int) -> list[Outcome]:
    """Run every case; a fresh tenant per case, a new store every ``cases_per_store``
    cases (a purge compacts every file of its store, so a store shared by a whole suite
    would make later purges slower than a real one), or a new store per case."""
    per_store = 1 if fresh_store else max(cases_per_store, 1)
    outcomes: list[Outcome] = []
    for start in range(0, len(suite.cases), per_store):
        with open_store(folder / f"{suite.name}-{start}") as store:
            adapter = TextAdapter(store, prefix=suite.name.replace(".", "_"))
            for case in suite.cases[start:start + per_store]:
                outcomes.append(_run_one(adapter, suite, case))
    return outcomes


def _run_one(adapter: TextAdapter, suite: Suite, case: dict[str, Any]) -> Outcome:
    group = case.get(suite.group_key, "?")
    try:
        return suite.rule(adapter, case, group)
    except Exception as e:  # an exception counts as a failure (ForgetEval rule)
        return Outcome(case["id"], group, False,
                       error=f"{type(e).__name__}: {e}\n{traceback.format_exc(limit=4)}")


# --- baselines and tables --------------------------------------------------------------------


def baselines(data: Path) -> dict[str, list[tuple[str, dict[str, Any]]]]:
    """Published rows per suite: (system, {group: pass, "overall": pass})."""
    b = json.loads((data / "baselines.json").read_text())
    out: dict[str, list[tuple[str, dict[str, Any]]]] = defaultdict(list)
    for run in b["template_1000"]:
        if run.get("config", {}).get("seed", 42) != 42:
            continue
        row: dict[str, Any] = {"overall": run["overall"]["pass"]}
        if "by_family" in run:
            row |= {k: v["pass"] for k, v in run["by_family"].items()}
        elif "by_family_percent" in run:
            row |= {k: round(v * 2) for k, v in run["by_family_percent"].items()}
        name = run["system"].split(" (")[0]
        if all(name != n for n, _ in out["template_1000"]):
            out["template_1000"].append((name, row))
    adv = b["adversarial_385"]
    for key, suite in (("headline_v0.7_probed", "adversarial_v0.7_k5"),
                       ("shipped_v0.5.1", "adversarial_v0.5.1_k10")):
        for run in adv[key]["runs"]:
            if "[superseded]" in run["system"]:
                continue
            row = {"overall": run["overall"]["pass"]}
            row |= {k: v["pass"] for k, v in run.get("by_category", {}).items()}
            out[suite].append((run["system"].split(" (")[0], row))
    oracle = adv["degenerate_and_reference_baselines"]["matrix"].get("oracle", {})
    if "none" in oracle:
        out["adversarial_v0.5.1_k10"].append(
            ("oracle", {"overall": oracle["none"]["overall"]["pass"]}
             | {k: v["pass"] for k, v in oracle["none"].get("by_category", {}).items()}))
    return out


def table(suite: Suite, outcomes: list[Outcome],
          published: list[tuple[str, dict[str, Any]]]) -> str:
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for o in outcomes:
        counts[o.group][1] += 1
        counts[o.group][0] += int(o.passed)
    groups = [g for g in suite.groups if g in counts] + sorted(set(counts) - set(suite.groups))
    head = ["group (n)", "memory-es", *[name for name, _ in published]]
    rows = []
    for g in groups:
        p, n = counts[g]
        rows.append([f"{g} ({n})", f"{p}", *[str(r.get(g, "-")) for _, r in published]])
    total_p = sum(int(o.passed) for o in outcomes)
    rows.append([f"**overall ({len(outcomes)})**", f"**{total_p}**",
                 *[f"**{r.get('overall', '-')}**" for _, r in published]])
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA, help="folder of the case files")
    ap.add_argument("--quick", action="store_true", help="smoke + a seeded sample (CI)")
    ap.add_argument("--sample", type=int, default=60, help="cases per suite with --quick")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--suite", action="append", help="run only these suites (repeatable)")
    ap.add_argument("--fresh-store", action="store_true",
                    help="a new store per case instead of a new tenant (slow)")
    ap.add_argument("--cases-per-store", type=int, default=25,
                    help="cases (tenants) sharing one store before a new one is opened")
    ap.add_argument("--out", type=Path, default=RESULTS, help="JSON results file")
    ap.add_argument("--failures", action="store_true", help="print every failed case")
    args = ap.parse_args(argv)

    suites = load_suites(args.data, args.quick, args.sample, args.seed)
    if args.suite:
        suites = [s for s in suites if s.name in args.suite]
    published = baselines(args.data)
    report: dict[str, Any] = {
        "generated_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "memory_es_version": getattr(memory_es, "__version__", "0.1.0"),
        "interpreter": "rules (no model call)",
        "embedder": "store default",
        "adapter": ("fresh store per case" if args.fresh_store else
                    f"fresh tenant per case, {args.cases_per_store} tenants per store"),
        "quick": args.quick,
        "suites": {},
    }
    with tempfile.TemporaryDirectory(prefix="forgeteval-") as tmp:
        for suite in suites:
            t0 = time.perf_counter()
            outcomes = run_suite(suite, Path(tmp), args.fresh_store, args.cases_per_store)
            seconds = time.perf_counter() - t0
            passed = sum(o.passed for o in outcomes)
            print(f"\n## {suite.name} — {passed}/{len(outcomes)} "
                  f"(scorer {suite.scorer}, {seconds:.1f}s)\n")
            print(table(suite, outcomes, published.get(suite.name, [])))
            failures = [o for o in outcomes if not o.passed]
            if args.failures:
                for o in failures:
                    print(f"- {o.case_id}: missing={o.missing} leaked={o.leaked} "
                          f"{'ERROR ' + o.error.splitlines()[0] if o.error else ''}")
            by_group: dict[str, dict[str, int]] = defaultdict(lambda: {"pass": 0, "total": 0})
            for o in outcomes:
                by_group[o.group]["total"] += 1
                by_group[o.group]["pass"] += int(o.passed)
            report["suites"][suite.name] = {
                "scorer": suite.scorer,
                "pass": passed,
                "total": len(outcomes),
                "seconds": round(seconds, 2),
                "by_group": dict(by_group),
                "published": [{"system": n, **r} for n, r in published.get(suite.name, [])],
                "failures": [{"id": o.case_id, "group": o.group, "missing": o.missing,
                              "leaked": o.leaked, "top": o.top,
                              "error": o.error} for o in failures],
            }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n")
    print(f"\nresults written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
