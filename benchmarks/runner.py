"""``memory-es bench [--quick]``: run the suite, print tables, write JSON/Markdown/PNG.

Parts, in order: speed at each size on the embedded default and PostgreSQL, with the
floor (bare SQLite and DuckDB), the hand-written table and the peer (pylethe) measured
beside it on the same rows; ``core_bench`` at the same size;
the governance ablation; the longitudinal life script; cProfile summaries. The other
suites (``forgeteval``, ``recall_bench``) are run when present.

``--quick`` (CI smoke test, < 3 minutes on 2 cores) runs 10k facts only and smaller
case loads; the full run adds 100k and 1M facts. Results go to
``benchmarks/results/bench_{quick,full}.json``, ``BENCH_{quick,full}.md`` and
``*_{quick,full}.png``; no figure is asserted on (timings vary with the machine).
"""

from __future__ import annotations

import argparse
import importlib
import shutil
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchmarks import report
from benchmarks.common import Progress, machine, not_yet

RESULTS = Path(__file__).resolve().parent / "results"
PARTS = ("speed", "ablation", "life", "profiles", "others")
HELDOUT_SAMPLE = 250


def plan(quick: bool) -> dict[str, Any]:
    if quick:
        return {"sizes": [10_000], "single": 100, "queries": 60, "purges": 3,
                "pg_sizes": [10_000], "core_bench_sizes": [], "core_bench_quick": 2_000,
                "peer_max": 10_000, "life_people": 3, "profile_facts": 5_000}
    return {"sizes": [10_000, 100_000, 1_000_000], "single": 1_000, "queries": 300,
            "purges": 5, "pg_sizes": [10_000, 100_000, 1_000_000],
            "core_bench_sizes": [10_000, 100_000], "peer_max": 100_000, "life_people": 20,
            "profile_facts": 50_000}


def parse(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="memory-es bench", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="the CI smoke run (< 3 minutes)")
    ap.add_argument("--only", default=",".join(PARTS),
                    help=f"comma-separated parts to run ({', '.join(PARTS)})")
    ap.add_argument("--sizes", help="override the fact counts, e.g. 2000,20000")
    ap.add_argument("--no-pg", action="store_true", help="skip the PostgreSQL backend")
    ap.add_argument("--no-peer", action="store_true", help="skip pylethe")
    ap.add_argument("--no-core-bench", action="store_true", help="skip core_bench.py")
    ap.add_argument("--no-plots", action="store_true")
    ap.add_argument("--no-progress", action="store_true", help="no progress bars")
    ap.add_argument("--out", type=Path, default=RESULTS, help="results folder")
    ap.add_argument("--tag", help="file name suffix (default: quick or full)")
    return ap.parse_args(argv)


def run_speed(p: dict[str, Any], args: argparse.Namespace, progress: Progress,
              scratch: Path) -> dict[str, Any]:
    from benchmarks import baselines, peer_lethe, speed

    pg_why = None if args.no_pg else speed.pg_reachable(speed.pg_dsn())
    out: dict[str, Any] = {"sizes": [], "postgresql_dsn_host": "127.0.0.1" if not args.no_pg
                           else None}
    for n in p["sizes"]:
        size: dict[str, Any] = {"facts": n}
        print(f"[speed] {n:,} facts", file=sys.stderr)
        emb = speed.make_backend("embedded", scratch)
        try:
            size["embedded"] = speed.measure(emb, n, single=p["single"], queries=p["queries"],
                                             purges=p["purges"], progress=progress)
        finally:
            emb.cleanup()
        if args.no_pg:
            size["postgresql"] = "n/a: skipped (--no-pg)"
        elif pg_why is not None:
            size["postgresql"] = f"n/a: PostgreSQL not reachable ({pg_why})"
        elif n not in p["pg_sizes"]:
            size["postgresql"] = "n/a: not run at this size"
        else:
            pg = speed.make_backend("postgresql", scratch)
            try:
                size["postgresql"] = speed.measure(pg, n, single=p["single"],
                                                   queries=p["queries"], purges=p["purges"],
                                                   progress=progress)
            except Exception as e:  # report the failure in the table, keep going
                size["postgresql"] = {"error": f"{type(e).__name__}: {e}"}
            finally:
                pg.cleanup()
        base = Path(tempfile.mkdtemp(prefix="me-bench-base-", dir=scratch))
        try:
            size["floor_sqlite"] = baselines.floor_sqlite(base, n, p["queries"])
            size["floor_duckdb"] = baselines.floor_duckdb(base, n, p["queries"])
            size["hand_written"] = baselines.hand_written(base, n, single=p["single"],
                                                          queries=p["queries"],
                                                          purges=p["purges"])
            size["hand_written"]["self_check"] = baselines.check_hand_written_semantics(base)
        finally:
            shutil.rmtree(base, ignore_errors=True)
        if args.no_peer:
            size["pylethe"] = {"error": "skipped (--no-peer)"}
        elif n > p["peer_max"]:
            size["pylethe"] = {"error": f"not run above {p['peer_max']:,} facts (its zero "
                                        "vectors alone would take GBs)"}
        else:
            print(f"[speed] pylethe at {n:,} facts", file=sys.stderr)
            size["pylethe"] = peer_lethe.measure(n, single=p["single"], queries=p["queries"],
                                                 purges=p["purges"])
        if n in p["core_bench_sizes"]:
            print(f"[speed] core_bench at {n:,} facts", file=sys.stderr)
            size["core_bench"] = speed.core_bench_figures(n, p["single"], p["queries"])
        out["sizes"].append(size)
    if p.get("core_bench_quick"):  # the smoke run calls the harness once, small
        n = p["core_bench_quick"]
        print(f"[speed] core_bench at {n:,} facts", file=sys.stderr)
        out["core_bench_smoke"] = {"facts": n, **speed.core_bench_figures(n, 50, 50)}
    return out


def run_others(quick: bool, out_dir: Path, sizes: list[int]) -> dict[str, Any]:
    """The ForgetEval, held-out, recall and notes suites, when present: called, never
    reimplemented here.

    The quick run only notes them (they have their own CI entries); the full run calls
    ``recall_bench.run_size`` at 10k/100k (and at 10k with the ``semantic`` extra's
    embedder when it is installed) and ``forgeteval.main`` on the whole suite.
    """
    out: dict[str, Any] = {}
    for name in ("recall_bench", "forgeteval", "heldout", "notes_bench", "purge_bench"):
        try:
            mod = importlib.import_module(f"benchmarks.{name}")
        except ImportError as e:
            out[name] = not_yet(f"benchmarks/{name}.py ({e})")
            continue
        if quick and name == "heldout":  # a seeded sample: the whole suite takes ~16 min
            mod.main(["--sample", str(HELDOUT_SAMPLE),
                      "--out", str(out_dir / "heldout_quick.json")])
            out[name] = {"results": "heldout_quick.json", "sample": HELDOUT_SAMPLE}
            continue
        if quick:
            out[name] = f"present; runs in the full suite (or `python -m benchmarks.{name}`)"
            continue
        print(f"[others] {name}", file=sys.stderr)
        try:
            if name == "recall_bench":
                out[name] = {"sizes": [mod.run_size(n, 300, 4) for n in sizes
                                       if n in (10_000, 100_000)]}
                why_not = mod.semantic_status()
                out[name]["semantic_embedder"] = why_not or "available"
                if why_not is None:  # a model embedder: 10k facts, two as-of queries
                    print(f"[others] {name}, semantic embedder", file=sys.stderr)
                    out[name]["sizes"].append(mod.run_size(10_000, 300, 4, "semantic", 2))
            elif name == "heldout":
                mod.main(["--out", str(out_dir / "heldout_full.json")])
                out[name] = {"results": "heldout_full.json"}
            elif name == "purge_bench":  # purge cost against size (issue 14)
                mod.main(["--sizes", "20000,100000,200000", "--purges", "5", "--deferred",
                          "100", "--out", str(out_dir / "purge_full.json")])
                out[name] = {"results": "purge_full.json"}
            elif name == "notes_bench":
                mod.main(["--notes", "1000,10000,100000", "--findings", "10000",
                          "--out", str(out_dir / "notes_full.json")])
                out[name] = {"results": "notes_full.json"}
            else:
                target = out_dir / "forgeteval_full.json"
                code = mod.main(["--out", str(target)])
                out[name] = {"exit_code": code, "results": str(target.name)}
        except Exception as e:  # a sibling suite failing is reported, not fatal
            out[name] = {"error": f"{type(e).__name__}: {e}"}
    return out


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    p = plan(args.quick)
    if args.sizes:
        p["sizes"] = [int(x.replace("_", "")) for x in args.sizes.split(",")]
        p["pg_sizes"] = p["sizes"]
        p["core_bench_sizes"] = [] if args.quick else p["sizes"]
    if args.no_core_bench:
        p["core_bench_sizes"], p["core_bench_quick"] = [], None
    parts = {x.strip() for x in args.only.split(",") if x.strip()}
    unknown = parts - set(PARTS)
    if unknown:
        print(f"unknown part(s): {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    tag = args.tag or ("quick" if args.quick else "full")
    progress = Progress(not args.no_progress)
    args.out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    results: dict[str, Any] = {
        "mode": tag, "command": "memory-es bench " + " ".join(argv or sys.argv[1:]),
        "started": datetime.now(UTC).isoformat(timespec="seconds"), "machine": machine(),
        "plan": p,
    }
    scratch = Path(tempfile.mkdtemp(prefix="me-bench-"))
    try:
        timings: dict[str, float] = {}
        results["part_seconds"] = timings
        if "speed" in parts:
            t = time.perf_counter()
            results["speed"] = run_speed(p, args, progress, scratch)
            timings["speed"] = time.perf_counter() - t
        if "ablation" in parts:
            from benchmarks import ablation

            print("[ablation] 4 configurations", file=sys.stderr)
            t = time.perf_counter()
            results["ablation"] = ablation.run(progress)
            timings["ablation"] = time.perf_counter() - t
        if "life" in parts:
            from benchmarks import lifescript

            print("[life] 3 and 9 simulated weeks", file=sys.stderr)
            t = time.perf_counter()
            results["longitudinal"] = lifescript.run(progress, people=p["life_people"])
            timings["life"] = time.perf_counter() - t
        if "profiles" in parts:
            from benchmarks import profiles

            print("[profiles] write path and rebuild", file=sys.stderr)
            t = time.perf_counter()
            results["profiles"] = profiles.run(args.out, p["profile_facts"], progress,
                                               suffix=f"_{tag}")
            timings["profiles"] = time.perf_counter() - t
        if "others" in parts:
            t = time.perf_counter()
            results["others"] = run_others(args.quick, args.out, p["sizes"])
            timings["others"] = time.perf_counter() - t
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    results["seconds"] = time.perf_counter() - started
    figures: list[str] = []
    if not args.no_plots:
        drawn = report.plots(results, args.out, f"_{tag}")
        if isinstance(drawn, str):
            results["plots"] = drawn
        else:
            figures = drawn
    results["figures"] = figures
    report.write_json(results, args.out / f"bench_{tag}.json")
    (args.out / f"BENCH_{tag}.md").write_text(report.markdown(results, figures))
    print(report.terminal(results))
    print(f"\nwrote {args.out / f'bench_{tag}.json'}, {args.out / f'BENCH_{tag}.md'}"
          + (f", {', '.join(figures)}" if figures else ""), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
