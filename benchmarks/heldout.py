"""The held-out suite through the text interface: accuracy and facts destroyed unasked.

Cases come from :mod:`benchmarks.heldout_cases` (``benchmarks/heldout_cases.json``),
written before the text rules they test were changed, in domains and wordings those
rules were not written for. Each case runs on a fresh tenant: ``remember`` the setup,
apply the mutations, then score like ForgetEval-Adv v0.7 (k = 5, casefold, every
forbidden string also probed as a query; a forbidden string counts where it stands as
written, not inside a longer word or number) **and** check the store: every ``survivors``
text must still be current, every ``current_has`` substring must be in some current
text and no ``current_lacks`` substring in any, no ``not_current`` text may be current,
and every ``retrieves_nothing`` query must recall nothing. A survivor or ``current_has`` substring
that is gone is counted separately as *destroyed but not asked*: the figure that must
stay zero. A survivor the control plane held in conflict when the setup remembered it
(a second value of a one-valued slot, SPEC §5: kept, awaiting a decision, not current)
fails its case without counting as destroyed. A survivor is current when its text is,
or when every fact its ``remember`` wrote is still current (a sentence of two clauses,
``is a brown belt in karate and trains at a dojo in Swinton``, is kept as two facts,
neither of which is the whole text).

Usage::

    python -m benchmarks.heldout [--failures] [--out FILE] [--sample N [--seed S]]

``--sample`` runs a seeded random sample of the cases (the benchmark smoke run in CI
uses it: the whole suite takes a quarter of an hour on two cores).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import tempfile
import time
import traceback
import unicodedata
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchmarks.forgeteval import open_store
from benchmarks.heldout_cases import DATA
from memory_es.text import TextInterface

RESULTS = Path(__file__).resolve().parent / "results" / "heldout.json"


@dataclass
class Outcome:
    case_id: str
    family: str
    passed: bool
    destroyed: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    leaked: list[str] = field(default_factory=list)
    state: list[str] = field(default_factory=list)
    error: str | None = None


def _norm(text: str) -> str:
    """A text as the interface stores it: in NFKC (a full-width parenthesis is an ASCII
    one), without its sentence-final punctuation."""
    return unicodedata.normalize("NFKC", text).strip().rstrip(".!?\u3002").casefold()


def _within(forbidden: str, text: str) -> bool:
    """Is ``forbidden`` in ``text`` as written, not as the start or end of a longer word or
    number (a purged ``10.20.4.17`` is not leaked by a surviving ``10.20.4.171``)?"""
    return re.search(rf"(?<!\w){re.escape(forbidden.casefold())}(?!\w)", text) is not None


def run_case(ti: TextInterface, tenant: str, case: dict[str, Any]) -> Outcome:
    """Apply one case on a fresh tenant and score it."""
    wrote: dict[str, set[str]] = {}  # setup text -> the facts its remember wrote
    conflicted: list[str] = []  # setup texts the control plane held in conflict
    for text in case["setup"]:
        held = {f.fact_id for f in ti.store.current(tenant)}
        if any(r.outcome == "conflicted" for r in ti.remember(tenant, text)):
            conflicted.append(text)
        wrote[text] = {f.fact_id for f in ti.store.current(tenant)} - held
    for m in case["mutations"]:
        op = m[0]
        if op == "remember":
            ti.remember(tenant, m[1])
        elif op == "revise":
            ti.revise(tenant, m[1], m[2])
        elif op == "release":
            ti.release(tenant, m[1])
        elif op == "forget":
            ti.forget(tenant, m[1])
        elif op == "purge":
            ti.purge_matching(tenant, m[1], confirm=len(m) > 2 and m[2] == "confirm")
        else:
            raise ValueError(f"unknown mutation {op!r}")
    top = ti.recall_texts(tenant, case["query"], 5)
    blob = " ".join(top).casefold()
    missing = [s for s in case["must_contain"] if s.casefold() not in blob]
    probes: list[str] = []
    for raw in [case["query"], *case["must_not_contain"]]:
        q = raw.strip()
        if q and q not in probes:
            probes.append(q)
    probed = " ".join(t for q in probes for t in ti.recall_texts(tenant, q, 5)).casefold()
    leaked = [s for s in case["must_not_contain"] if _within(s, probed)]
    facts = ti.store.current(tenant)
    current = [_norm(f.text) for f in facts]
    ids = {f.fact_id for f in facts}
    lost = [s for s in case["survivors"] if _norm(s) not in current
            and not (wrote.get(s) and wrote[s] <= ids)]
    destroyed = [s for s in lost if s not in conflicted]
    destroyed += [s for s in case.get("current_has", [])
                  if not any(s.casefold() in t for t in current)]
    state = [s for s in case.get("current_lacks", []) if any(s.casefold() in t for t in current)]
    state += [s for s in case.get("not_current", []) if _norm(s) in current]
    state += [f"held in conflict since it was remembered: {s}" for s in lost if s in conflicted]
    leaked += [f"{q} retrieves {found}" for q in case.get("retrieves_nothing", [])
               if (found := ti.recall_texts(tenant, q, 5))]
    passed = not (missing or leaked or destroyed or state)
    return Outcome(case["id"], case["family"], passed, destroyed, missing, leaked, state)


def run(cases: list[dict[str, Any]], folder: Path, per_store: int = 25) -> list[Outcome]:
    outcomes: list[Outcome] = []
    for start in range(0, len(cases), per_store):
        with open_store(folder / f"heldout-{start}") as store:
            ti = TextInterface(store)
            for n, case in enumerate(cases[start:start + per_store]):
                try:
                    outcomes.append(run_case(ti, f"ho-{start + n}", case))
                except Exception as e:  # an exception fails the case
                    outcomes.append(Outcome(case["id"], case["family"], False,
                                            error=f"{type(e).__name__}: {e}\n"
                                                  f"{traceback.format_exc(limit=4)}"))
    return outcomes


def summary(outcomes: list[Outcome]) -> dict[str, Any]:
    by_family: dict[str, dict[str, int]] = defaultdict(lambda: {"pass": 0, "total": 0,
                                                                "destroyed": 0})
    for o in outcomes:
        row = by_family[o.family]
        row["total"] += 1
        row["pass"] += int(o.passed)
        row["destroyed"] += len(o.destroyed)
    return {"pass": sum(o.passed for o in outcomes), "total": len(outcomes),
            "destroyed_not_asked": sum(len(o.destroyed) for o in outcomes),
            "by_family": dict(by_family)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=DATA, help="the cases file")
    ap.add_argument("--out", type=Path, default=RESULTS, help="JSON results file")
    ap.add_argument("--failures", action="store_true", help="print every failed case")
    ap.add_argument("--sample", type=int, help="run this many cases, drawn with --seed")
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args(argv)
    cases = json.loads(args.data.read_text())
    if args.sample is not None and args.sample < len(cases):
        cases = random.Random(args.seed).sample(cases, args.sample)
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="heldout-") as tmp:
        outcomes = run(cases, Path(tmp))
    seconds = time.perf_counter() - t0
    s = summary(outcomes)
    print(f"## held-out — {s['pass']}/{s['total']} ({seconds:.1f}s), "
          f"facts destroyed but not asked: {s['destroyed_not_asked']}\n")
    print("| family (n) | pass | destroyed not asked |\n|---|---|---|")
    for fam, row in s["by_family"].items():
        print(f"| {fam} ({row['total']}) | {row['pass']} | {row['destroyed']} |")
    failures = [o for o in outcomes if not o.passed]
    if args.failures:
        for o in failures:
            print(f"- {o.case_id}: missing={o.missing} leaked={o.leaked} "
                  f"destroyed={o.destroyed} state={o.state} "
                  f"{'ERROR ' + o.error.splitlines()[0] if o.error else ''}")
    report = {"generated_at": datetime.now(UTC).isoformat(timespec="seconds"),
              "seconds": round(seconds, 2),
              "sample": None if args.sample is None else {"size": len(cases),
                                                          "seed": args.seed},
              **s,
              "failures": [o.__dict__ for o in failures]}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n")
    print(f"\nresults written to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
