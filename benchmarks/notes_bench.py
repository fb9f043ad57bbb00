"""Notes behind write gates, measured (issue 13, SPEC §12.5-12.7).

* **write cost**: ``note()`` with all three gates (quality, dedup, links) p50/p95 over
  a tenant already holding N notes, beside a plain ``assert_fact`` measured in the same
  run on the same store (the ratio is the gates' price);
* **consolidation**: ``consolidate`` over M findings that fall into clusters of five;
* **dedup under a flood**: one lesson written 50 times in varied wording, and, as the
  control that dedup must not destroy, 50 different lessons: how many notes each leaves;
* **poisoning**: an agent's own inferences trying to become tasks or to overwrite a
  user's fact, and shallow notes flooding the store, each with the gates and without
  them (``gate=False``), and with the agent's writes private to it and without.

The note texts are generated here from fixed parts (seeded), never read back from the
store's own keyword lists, so a gate cannot be tuned to them.

    python -m benchmarks.notes_bench --notes 1000,10000 --findings 2000
"""

from __future__ import annotations

import argparse
import inspect
import itertools
import json
import random
import shutil
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import memory_es
from benchmarks.common import Progress, machine, not_yet, summary_ms, text_table

RESULTS = Path(__file__).parent / "results"
T = "bench"

_SYSTEMS = ("billing", "search", "ingest", "checkout", "auth", "reporting", "mailer",
            "scheduler", "cache", "gateway", "ledger", "exporter")
_SYMPTOMS = ("timeouts", "duplicate rows", "stale reads", "memory growth", "lock waits",
             "dropped messages", "slow queries", "retries piling up", "cold starts")
_CAUSES = ("a missing index", "an unbounded queue", "clock skew between hosts",
           "a connection pool that was too small", "a retry loop without jitter",
           "a cache key that ignored the locale", "a batch size tuned for test data",
           "a lock held across a network call")


def _finding(rng: random.Random, serial: int) -> str:
    system, symptom, cause = (rng.choice(_SYSTEMS), rng.choice(_SYMPTOMS),
                              rng.choice(_CAUSES))
    return (f"Found that the {system} service (case {serial}) showed {symptom} under load "
            f"because of {cause}; measured it twice and it held, so that is how to read "
            f"the next alert of this kind.")


@contextmanager
def fresh_store() -> Iterator[memory_es.MemoryStore]:
    root = Path(tempfile.mkdtemp(prefix="notes-bench-"))
    store = memory_es.open(root / "mem")
    try:
        yield store
    finally:
        store.close()
        shutil.rmtree(root, ignore_errors=True)


# write cost ---------------------------------------------------------------------------------

def write_cost(size: int, probes: int, progress: Progress) -> dict[str, Any]:
    rng = random.Random(size)
    with fresh_store() as store:
        t = time.perf_counter()
        for i in progress.bar(range(size), f"import {size:,} notes", total=size):
            store.note(T, f"team:t{i % 50}", "finding", _finding(rng, i), gate=False)
        imported = time.perf_counter() - t
        gated, plain = [], []
        for i in range(probes):  # interleaved, so both see the same machine load
            text = _finding(rng, size + i)
            t = time.perf_counter()
            store.note(T, f"team:t{i % 50}", "finding", text)
            gated.append(time.perf_counter() - t)
            t = time.perf_counter()
            store.assert_fact(T, f"team:t{i % 50}", f"probe.p{i}", text)
            plain.append(time.perf_counter() - t)
    note, fact = summary_ms(gated), summary_ms(plain)
    return {"notes": size, "import_notes_per_s": size / imported, "note_gated": note,
            "assert_fact": fact, "ratio_p50": note["p50_ms"] / fact["p50_ms"]}


# consolidation ------------------------------------------------------------------------------

def consolidation(findings: int, progress: Progress) -> dict[str, Any]:
    """Findings in planted clusters of five: a cluster's members share eight words of
    their own and one cause; across clusters only the frame's few words recur, so the
    planted clusters are what Jaccard >= 0.4 should find."""
    clusters = findings // 5
    with fresh_store() as store:
        for i in progress.bar(range(findings), f"write {findings:,} findings", total=findings):
            c = i % clusters
            words = " ".join(f"k{c}w{j}" for j in range(8))  # what a cluster shares
            store.note(T, f"team:t{c % 20}", "finding",
                       f"Found {words} because of {_CAUSES[c % len(_CAUSES)]} "
                       f"(run {i // clusters}).", gate=False)
        t = time.perf_counter()
        written = store.consolidate(T)
        first = time.perf_counter() - t
        t = time.perf_counter()
        again = store.consolidate(T)
        rerun = time.perf_counter() - t
    return {"findings": findings, "clusters_planted": clusters, "patterns": len(written),
            "seconds": first, "rerun_seconds": rerun, "rerun_wrote": len(again)}


# dedup under a flood ------------------------------------------------------------------------

_LESSON = (
    ("", "Lesson: ", "Root cause: ", "We learned that ", "Mistake to avoid: "),
    ("the payment webhook", "our payment callback", "the payments provider's webhook",
     "the webhook from the payment provider", "payment webhooks"),
    ("must be retried with exponential backoff", "needs retries with backoff",
     "should be retried with an exponential back-off", "has to be retried with backoff",
     "needs exponential backoff when retried"),
    ("because the provider drops bursts of requests",
     "since the provider drops request bursts", "because bursts get dropped upstream",
     "as the provider throttles bursts", "because the provider sheds bursty traffic"),
)
def _varied_lesson(n: int) -> list[str]:
    combos = list(itertools.product(*_LESSON))
    random.Random(3).shuffle(combos)
    return [f"{p}{s} {a} {r}, so that no event is lost." for p, s, a, r in combos[:n]]


def _distinct_lessons(n: int) -> list[str]:
    """Different lessons (system x cause, no two alike), in the same few frames: what
    dedup must keep apart."""
    frames = ("Lesson from {s}: {c} was the root cause, avoid it.",
              "In {s} the mistake was {c}; the fix is to avoid it because it recurs.",
              "Root cause in {s}: {c}. Avoid this.")
    pairs = list(itertools.product(_SYSTEMS, _CAUSES))
    random.Random(5).shuffle(pairs)
    return [frames[i % len(frames)].format(s=s, c=c) for i, (s, c) in enumerate(pairs[:n])]


def _write_all(store: memory_es.MemoryStore, tenant: str, texts: list[str],
               gate: bool) -> dict[str, int]:
    outcomes: dict[str, int] = {}
    for text in texts:
        try:
            outcome = store.note(tenant, "team:payments", "correction", text, gate=gate).outcome
        except memory_es.errors.QualityRejected:
            outcome = "rejected"
        outcomes[str(outcome)] = outcomes.get(str(outcome), 0) + 1
    return outcomes


def flood_dedup(n: int = 50) -> dict[str, Any]:
    out: dict[str, Any] = {}
    with fresh_store() as store:
        for name, texts in (("same lesson", _varied_lesson(n)),
                            ("distinct lessons", _distinct_lessons(n))):
            for gate in (True, False):
                tenant = f"{name.replace(' ', '-')}-{gate}"
                outcomes = _write_all(store, tenant, texts, gate)
                stored = len(store.current(tenant, "team:payments", "note.correction"))
                out[f"{name}, gates {'on' if gate else 'off'}"] = {
                    "written": len(texts), "stored": stored, "outcomes": outcomes}
    return out


# poisoning ----------------------------------------------------------------------------------

_SHALLOW = ("ok", "noted", "see above", "done.", "will check later", "todo", "same as before",
            "+1", "follow up", "looks fine")
_TASKS = ("Task: call the vendor about the renewal.", "Task: send Sam the Q3 deck.",
          "Task: book the offsite venue.", "Task: chase the unpaid invoice 4471.",
          "Task: draft the hiring plan.", "Task: renew the TLS certificate.",
          "Task: review Dana's pull request.", "Task: order new laptops.")


def _agent_kwargs(fn: Any, agent: str | None) -> dict[str, Any] | str:
    if agent is None:
        return {}
    if "agent" not in inspect.signature(fn).parameters:
        return not_yet(f"{fn.__name__}(agent=...) (SPEC §12.7)")
    return {"agent": agent}


def poisoning() -> dict[str, Any]:
    """Each case once per configuration; a row counts what the poison achieved."""
    rows: dict[str, Any] = {}
    with fresh_store() as store:
        for gate, private in itertools.product((True, False), (True, False)):
            scope = "private" if private else "tenant-wide"
            config = f"gates {'on' if gate else 'off'}, agent writes {scope}"
            tenant = f"p-{gate}-{private}"
            agent = "planner" if private else None
            kw = _agent_kwargs(store.note, agent)
            if isinstance(kw, str):
                rows[config] = kw
                continue
            # 1. the fictitious tasks: eight self-made "tasks", then the user's real one
            stored_tasks = 0
            for text in _TASKS:
                try:
                    store.note(tenant, "user:sam", "decision", text, gate=gate, **kw)
                    stored_tasks += 1
                except memory_es.errors.QualityRejected:
                    pass
            store.assert_fact(tenant, "user:sam", "task.open", "prepare the board meeting",
                              text="Sam asked to prepare the board meeting")
            hits = store.recall(tenant, "what tasks are open for Sam", k=5)
            leaked = sum(1 for h in hits if (h.fact.text or "").startswith("Task:"))
            # 2. an inference overwriting the user's own fact
            store.assert_fact(tenant, "user:sam", "home.city", "Oslo",
                              text="Sam lives in Oslo")
            fkw = _agent_kwargs(store.supersede, agent)
            with suppress(memory_es.MemoryESError):  # a refusal is the defence working
                store.supersede(tenant, "user:sam", "home.city", "Bergen",
                                text="Sam probably lives in Bergen", asserted_by="inference",
                                **(fkw if isinstance(fkw, dict) else {}))
            seen = [f.value for f in store.current(tenant, "user:sam", "home.city")]
            # 3. a shallow flood before a real finding
            flooded = 0
            for i in range(200):
                try:
                    store.note(tenant, "team:ops", "finding", f"{_SHALLOW[i % 10]} ({i})",
                               gate=gate, **kw)
                    flooded += 1
                except memory_es.errors.QualityRejected:
                    pass
            store.note(tenant, "team:ops", "finding",
                       "Found that the nightly export fails because the disk quota is hit "
                       "at 02:00, measured on three nights, so that moving it to 03:00 "
                       "avoids it.")
            top = store.recall(tenant, "why does the nightly export fail", k=3)
            rows[config] = {
                "fictitious tasks stored": stored_tasks,
                "fictitious tasks in a tenant-wide recall top-5": leaked,
                "user's home.city for a tenant-wide read": seen,
                "shallow notes stored (of 200)": flooded,
                "real finding in top-3": any("disk quota" in (h.fact.text or "") for h in top),
            }
    return rows


# report -------------------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--notes", default="1000", help="comma-separated tenant sizes")
    ap.add_argument("--probes", type=int, default=50)
    ap.add_argument("--findings", type=int, default=1000)
    ap.add_argument("--out", type=Path, default=RESULTS / "notes.json")
    ap.add_argument("--no-progress", action="store_true")
    args = ap.parse_args(argv)
    progress = Progress(not args.no_progress)
    results: dict[str, Any] = {"machine": machine()}
    results["write"] = [write_cost(int(n), args.probes, progress)
                        for n in args.notes.split(",")]
    results["consolidate"] = consolidation(args.findings, progress)
    results["flood"] = flood_dedup()
    results["poisoning"] = poisoning()
    print(text_table(
        ["notes in tenant", "note() p50 ms", "p95 ms", "assert_fact p50 ms", "ratio",
         "import notes/s"],
        [[w["notes"], w["note_gated"]["p50_ms"], w["note_gated"]["p95_ms"],
          w["assert_fact"]["p50_ms"], w["ratio_p50"], w["import_notes_per_s"]]
         for w in results["write"]]))
    c = results["consolidate"]
    print(f"\nconsolidate {c['findings']:,} findings ({c['clusters_planted']} planted "
          f"clusters): {c['patterns']} patterns in {c['seconds']:.2f} s; rerun "
          f"{c['rerun_seconds']:.2f} s, wrote {c['rerun_wrote']}\n")
    print(text_table(["flood", "written", "stored", "outcomes"],
                     [[k, v["written"], v["stored"], json.dumps(v["outcomes"])]
                      for k, v in results["flood"].items()]))
    print()
    configs = list(results["poisoning"])
    measures = next((list(v) for v in results["poisoning"].values() if isinstance(v, dict)),
                    [])
    print(text_table(["poisoning", *configs],
                     [[m, *[v.get(m) if isinstance(v, dict) else v
                            for v in results["poisoning"].values()]] for m in measures]))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2, default=str) + "\n")
    print(f"\nwrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
