"""Tables (terminal and Markdown), the JSON record and the PNG figures of one run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from benchmarks.common import NOT_YET, machine_line, md_table, ratio, text_table

UP, DOWN = "↑", "↓"


def _get(d: Any, *path: str) -> Any:
    for p in path:
        if not isinstance(d, dict):
            return d if isinstance(d, str) else None
        d = d.get(p)
    return d


def _cell(d: Any, *path: str) -> Any:
    """A value, or the reason it is missing (a string), or None."""
    if isinstance(d, dict) and "error" in d and path and path[0] not in d:
        return f"n/a: {d['error']}"
    return _get(d, *path)


# speed ----------------------------------------------------------------------------------------

SPEED_ROWS: list[tuple[str, str, tuple[Any, ...]]] = [
    # label, direction, (embedded path, floor sqlite, floor duckdb, hand-written, pylethe)
    ("single writes/s", UP, (("single_writes_per_s",), ("single_rows_per_s",), None,
                             ("single_writes_per_s",), ("single_writes_per_s",))),
    ("batched facts/s (transact of 1,000)", UP,
     (("batched_facts_per_s",), ("batched_rows_per_s",), ("batched_rows_per_s",),
      ("batched_facts_per_s",), ("batched_facts_per_s",))),
    ("supersedes/s (one transaction)", UP,
     (("supersede_tx_facts_per_s",), None, None, ("supersede_tx_facts_per_s",),
      ("supersede_ops_per_s",))),
    ("projection catch-up events/s", UP, (("catchup_events_per_s",), "n/a: no projection",
                                           "n/a: no projection", "n/a: no projection",
                                           "n/a: no projection")),
    ("full rebuild events/s", UP, (("rebuild_events_per_s",), "n/a: no log", "n/a: no log",
                                   "n/a: no log to rebuild from",
                                   "n/a: no rebuild")),
    ("as_of point p50 ms", DOWN, (("as_of_point", "p50_ms"), None, None,
                                  ("as_of_point", "p50_ms"), "no: transaction time only")),
    ("as_of point p95 ms", DOWN, (("as_of_point", "p95_ms"), None, None,
                                  ("as_of_point", "p95_ms"), "no: transaction time only")),
    ("current, one entity p50 ms", DOWN, (("current_entity", "p50_ms"),
                                          ("entity_read", "p50_ms"), ("entity_read", "p50_ms"),
                                          ("current_entity", "p50_ms"),
                                          ("entity_lookup", "p50_ms"))),
    ("current, one entity p95 ms", DOWN, (("current_entity", "p95_ms"),
                                          ("entity_read", "p95_ms"), ("entity_read", "p95_ms"),
                                          ("current_entity", "p95_ms"),
                                          ("entity_lookup", "p95_ms"))),
    ("full as-of snapshot to Arrow ms", DOWN, (("snapshot_arrow", "median_ms"),
                                               ("snapshot_arrow", "median_ms"),
                                               ("snapshot_arrow", "median_ms"),
                                               ("snapshot_arrow", "median_ms"),
                                               "n/a: no snapshot")),
    ("recall p50 ms (k=8)", DOWN, (("recall", "p50_ms"), "n/a: no recall", "n/a: no recall",
                                   "n/a: no recall", ("recall", "p50_ms"))),
    ("recall p95 ms (k=8)", DOWN, (("recall", "p95_ms"), "n/a: no recall", "n/a: no recall",
                                   "n/a: no recall", ("recall", "p95_ms"))),
    ("purge one entity p50 ms", DOWN, (("purge_entity", "p50_ms"), ("delete_entity", "p50_ms"),
                                       None, ("purge_entity", "p50_ms"),
                                       ("purge_entity", "p50_ms"))),
    ("bitemporal as-of (valid x transaction time)", "", ("yes", "no", "no",
                                                         "no: transaction time only",
                                                         "no: transaction time only")),
    ("tenants", "", ("yes", "a column", "a column", "a column", "no: one file per tenant")),
    ("proof of erasure", "", ("residue report + signed receipt", "no", "no",
                              "no: DELETE leaves bytes", "signed receipt, no residue check")),
]

SPEED_HEADERS = ["metric", "", "memory-es embedded", "memory-es PostgreSQL", "floor SQLite",
                 "floor DuckDB", "hand-written SQLite", "pylethe",
                 "÷ floor SQLite", "÷ floor DuckDB", "÷ hand-written", "÷ pylethe"]


def _resolve(source: Any, spec: Any) -> Any:
    if spec is None:
        return None
    if isinstance(spec, str):
        return spec
    if isinstance(source, str):
        return source
    if isinstance(source, dict) and "error" in source:
        return f"n/a: {source['error']}"
    return _get(source, *spec)


def speed_rows(size: dict[str, Any]) -> list[list[Any]]:
    emb, pg = size.get("embedded"), size.get("postgresql")
    fs, fd = size.get("floor_sqlite"), size.get("floor_duckdb")
    hw, pl = size.get("hand_written"), size.get("pylethe")
    out = []
    for label, direction, (e, s, d, h, p) in SPEED_ROWS:
        ve, vpg = _resolve(emb, e), _resolve(pg, e)
        vs, vd, vh, vp = _resolve(fs, s), _resolve(fd, d), _resolve(hw, h), _resolve(pl, p)
        out.append([label, direction, ve, vpg, vs, vd, vh, vp, ratio(ve, vs), ratio(ve, vd),
                    ratio(ve, vh), ratio(ve, vp)])
    return out


def speed_tables(results: dict[str, Any], markdown: bool) -> list[str]:
    render = md_table if markdown else text_table
    out = []
    for size in results.get("speed", {}).get("sizes", []):
        title = f"Speed at {size['facts']:,} facts (ratio = memory-es embedded ÷ baseline; " \
                f"{UP} higher is better, {DOWN} lower is better)"
        out.append((f"### {title}\n\n" if markdown else f"\n{title}\n") +
                   render(SPEED_HEADERS, speed_rows(size)))
        cb = size.get("core_bench")
        if cb:
            out.append(_core_bench(cb, "core_bench.py at "
                                       f"{size['facts']:,} facts, same run", markdown))
    smoke = results.get("speed", {}).get("core_bench_smoke")
    if smoke:
        out.append(_core_bench(smoke, "core_bench.py, "
                                      f"called once at {smoke['facts']:,} facts as a smoke check",
                               markdown))
    return out


def _core_bench(cb: dict[str, Any], caption: str, markdown: bool) -> str:
    keys = ("single_writes_per_s", "batched_facts_per_s", "catchup_events_per_s",
            "as_of_p50_ms", "as_of_p95_ms", "current_entity_p50_ms", "rebuild_events_per_s",
            "floor_sqlite_rows_per_s", "batched_vs_floor", "error")
    rows = [[k, cb[k]] for k in keys if k in cb]
    render = md_table if markdown else text_table
    return (f"\n{caption}\n\n" if markdown else f"\n{caption}\n") + render(["figure", "value"],
                                                                          rows)


# ablation -------------------------------------------------------------------------------------

ABL_HEADERS = ["configuration", "passed", "pass rate", "preference", "knowledge",
               "conflict", "forgetting", "poisoning", "cross-wording", "conflict correctness",
               "leaks", "retrieval p50 ms", "retrieval p95 ms"]


def ablation_rows(ab: dict[str, Any]) -> list[list[Any]]:
    rows = []
    for name, r in ab.get("configs", {}).items():
        label = name + (" (benchmark-side baseline)" if name == "no governance" else "")
        if "unavailable" in r:
            rows.append([label, r["unavailable"], *["-"] * (len(ABL_HEADERS) - 2)])
            continue
        pc = r["per_category"]
        rows.append([label, f"{r['passed']}/{r['total']}", r["pass_rate"], pc["preference"],
                     pc["knowledge"], pc["conflict"], pc["forgetting"], pc["poisoning"],
                     f"{r['cross_wording']:.2f} (n={r['cross_wording_n']})",
                     r["conflict_correctness"], r["leaks"], r["retrieval"]["p50_ms"],
                     r["retrieval"]["p95_ms"]])
    return rows


# longitudinal -----------------------------------------------------------------------------------

LIFE_HEADERS = ["run", "people", "operations", "currency accuracy (updated slots)",
                "0-1 wk", "1-3 wk", "3-6 wk", "6-9 wk", "stable", "periodic", "volatile",
                "contradiction rate", "time to currency (reads) mean/max", "orphaned inferences",
                "lapsed OTP served", "inference attacks won", "via recall at end (top-5)"]


def life_rows(life: dict[str, Any]) -> list[list[Any]]:
    rows = []
    for name, r in life.get("runs", {}).items():
        t = r["by_tenure"]
        v = r["by_volatility"]
        ttc = r["time_to_currency_reads"]

        def acc(d: dict[str, Any], k: str) -> Any:
            return f"{d[k]['accuracy']:.3f} ({d[k]['checks']})" if k in d else "-"
        rows.append([name, r["people"], r["operations"],
                     f"{r['currency_accuracy']:.3f} ({r['currency_checks']})"
                     if r["currency_accuracy"] is not None else "-",
                     acc(t, "0-1 wk"), acc(t, "1-3 wk"), acc(t, "3-6 wk"), acc(t, "6-9 wk"),
                     acc(v, "stable"), acc(v, "periodic"), acc(v, "volatile"),
                     r["contradiction_rate"], f"{ttc['mean']}/{ttc['max']} (n={ttc['n']})",
                     r["orphaned_inferences_max"], r["lapsed_otp_served"],
                     f"{r['inference_attack_wins']}/{r['attacks']}", _via_recall(r)])
    return rows


def _via_recall(r: dict[str, Any]) -> Any:
    v = r.get("recall_currency_at_end")
    if isinstance(v, dict):
        return f"{v['accuracy']:.3f} of {v['slots']} slots, stale {v['stale_in_top_k']}"
    return v


def text_lines(life: dict[str, Any]) -> list[str]:
    ti = life.get("text_interface")
    if isinstance(ti, str):
        return [f"Text rendering: {ti}"]
    out = []
    for name, r in (ti or {}).items():
        if isinstance(r, str):
            out.append(f"Text rendering {name}: {r}")
        else:
            acc = "-" if r["accuracy"] is None else f"{r['accuracy']:.3f}"
            out.append(f"Text rendering {name} (remember/revise, scored with recall_texts "
                       f"k=5): accuracy {acc} on {r['slots_checked']} updated slots, "
                       f"stale value in top-5 for {r['stale_in_top_5']}, "
                       f"{r['sentences']} sentences, {r['error_count']} errors")
    return out


# targets ---------------------------------------------------------------------------------------

def targets(results: dict[str, Any]) -> list[list[Any]]:
    sizes = {s["facts"]: s for s in results.get("speed", {}).get("sizes", [])}
    largest = max(sizes) if sizes else None

    def at(n: int | None, *path: str) -> Any:
        if n is None or n not in sizes:
            return "pending (full run)"
        return _get(sizes[n].get("embedded"), *path)

    def verdict(value: Any, ok: Any) -> str:
        if isinstance(value, int | float):
            return "met" if ok(value) else "missed"
        return "-"

    life9 = _get(results.get("longitudinal", {}), "runs", "9w") or {}
    rows: list[list[Any]] = []
    for label, target, value, ok in (
        ("batched writes facts/s", ">= 15,000", at(largest, "batched_facts_per_s"),
         lambda v: v >= 15_000),
        ("rebuild events/s", ">= 25,000", at(largest, "rebuild_events_per_s"),
         lambda v: v >= 25_000),
        ("as_of point p50 at 1M facts", "<= 2 ms", at(1_000_000, "as_of_point", "p50_ms"),
         lambda v: v <= 2),
        ("recall p95 at 100k facts (default embedder)", "<= 20 ms",
         at(100_000, "recall", "p95_ms"), lambda v: v <= 20),
        ("purge one entity at 100k facts", "<= 2,000 ms", at(100_000, "purge_entity", "p50_ms"),
         lambda v: v <= 2_000),
        ("contradiction rate at 9 weeks", "0", life9.get("contradiction_rate", "-"),
         lambda v: v == 0),
        ("orphaned inferences at 9 weeks", "0", life9.get("orphaned_inferences_max", "-"),
         lambda v: v == 0),
    ):
        rows.append([label, target, value, verdict(value, ok)])
    if largest is not None:
        rows[0][0] += f" (at {largest:,})"
        rows[1][0] += f" (at {largest:,})"
    return rows


# writers ---------------------------------------------------------------------------------------

def terminal(results: dict[str, Any]) -> str:
    parts = [f"memory-es bench ({results['mode']}) on {machine_line(results['machine'])}"]
    parts += speed_tables(results, markdown=False)
    if "ablation" in results:
        parts.append(f"\nGovernance ablation ({results['ablation'].get('cases')} cases)\n"
                     + text_table(ABL_HEADERS, ablation_rows(results["ablation"])))
    if "longitudinal" in results:
        parts.append("\nLongitudinal currency (life script, seed "
                     f"{results['longitudinal'].get('seed')})\n"
                     + text_table(LIFE_HEADERS, life_rows(results["longitudinal"]))
                     + "\n" + "\n".join(text_lines(results["longitudinal"])))
    if results.get("part_seconds"):
        parts.append("\nSeconds per part: " + ", ".join(
            f"{k} {v:.0f}" for k, v in results["part_seconds"].items()))
    parts.append("\nTargets\n" + text_table(["target", "goal", "measured", "verdict"],
                                             targets(results)))
    if "profiles" in results:
        parts.append(profile_text(results["profiles"], markdown=False))
    if results.get("others"):
        parts.append(others_text(results["others"], markdown=False))
    missing = sorted(set(_missing(results)))
    if missing:
        parts.append("\nNot available yet / not measured:\n" + "\n".join(f"- {m}" for m in missing))
    return "\n".join(parts)


def profile_text(prof: dict[str, Any], markdown: bool, limit: int = 12) -> str:
    out = []
    for name in ("write", "rebuild"):
        if name not in prof:
            continue
        rows = [[r["function"], r["calls"], r["own_s"], r["cumulative_s"]]
                for r in prof[name]["by_cumulative"][:limit]]
        title = f"Profile: {name} path, top {limit} by cumulative time"
        render = md_table if markdown else text_table
        out.append((f"\n### {title}\n\n" if markdown else f"\n{title}\n")
                   + render(["function", "calls", "own s", "cumulative s"], rows))
        rows = [[r["function"], r["calls"], r["own_s"], r["cumulative_s"]]
                for r in prof[name]["by_own"][:limit]]
        title = f"Profile: {name} path, top {limit} by own time"
        out.append((f"\n### {title}\n\n" if markdown else f"\n{title}\n")
                   + render(["function", "calls", "own s", "cumulative s"], rows))
    return "\n".join(out)


def others_text(others: dict[str, Any], markdown: bool) -> str:
    lines = []
    for name, r in others.items():
        if isinstance(r, str):
            lines.append(f"- `{name}`: {r}")
        elif "error" in r:
            lines.append(f"- `{name}`: failed: {r['error']}")
        elif name == "recall_bench":
            for s in r.get("sizes", []):
                rec = s.get("recall", {})
                lines.append(f"- `recall_bench` at {s.get('eligible_facts', 0):,} eligible facts: "
                             f"recall p50 {rec.get('p50_ms', float('nan')):.2f} ms, "
                             f"p95 {rec.get('p95_ms', float('nan')):.2f} ms "
                             f"({s.get('embedder', 'default embedder')}); vector channel "
                             f"{_num(s.get('vectors_flat_over_columns_p50')):.2f}x "
                             "faster than the flat scan in the same run, recall@10 against "
                             f"it {_num(s.get('vectors_recall_at_10_vs_flat')):.3f}")
            if "semantic_embedder" in r:
                lines.append(f"- `recall_bench` semantic embedder: {r['semantic_embedder']}")
        else:
            lines.append(f"- `{name}`: exit {r.get('exit_code')}, results in {r.get('results')}")
    head = "\n## Other suites\n\n" if markdown else "\nOther suites\n"
    return head + "\n".join(lines)


def _num(value: float | None) -> float:
    """A figure a result may lack (an older run's), as NaN."""
    return float("nan") if value is None else value


def _missing(obj: Any, path: str = "") -> list[str]:
    found = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            found += _missing(v, f"{path}.{k}" if path else str(k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            found += _missing(v, path)
            del i
    elif isinstance(obj, str) and obj.startswith(NOT_YET):
        found.append(obj)
    return found


def markdown(results: dict[str, Any], figures: list[str]) -> str:
    m = results["machine"]
    parts = [f"# memory-es benchmarks ({results['mode']} run)", "",
             f"Machine: {machine_line(m)}; CPU: {m.get('cpu') or '?'}; "
             f"{m.get('platform')}.", "",
             f"Command: `{results['command']}`; started {results['started']}; "
             f"took {results['seconds']:.0f} s.", "",
             "Every figure below was measured in this run; ratios are memory-es (embedded) "
             "divided by the baseline measured beside it on the same rows. A cell that "
             "says *not available yet* is a capability that does not exist in the code "
             "under test at this commit; *n/a* is one the baseline does not have.", ""]
    parts += ["## Speed", ""]
    parts += speed_tables(results, markdown=True)
    peer = _peer_note(results)
    if peer:
        parts += ["", peer]
    if "ablation" in results:
        ab = results["ablation"]
        cats = ", ".join(f"{k} {v}" for k, v in ab.get("per_category_n", {}).items())
        parts += ["", "## Governance ablation", "",
                  f"{ab.get('cases')} hand-written cases ({cats}; "
                  f"{ab.get('cross_wording_n')} cross-wording), written once into one fresh "
                  "store (one tenant per case) and read under each configuration. "
                  "*No governance* is a benchmark-side baseline reading every row of "
                  "`fact_versions` without the eligibility filter (see "
                  "`benchmarks/ablation.py`).", "",
                  md_table(ABL_HEADERS, ablation_rows(ab))]
        for name, r in ab.get("configs", {}).items():
            if r.get("failures"):
                ids = ", ".join(f["id"] for f in r["failures"])
                parts += ["", f"Failed under *{name}*: {ids}"]
    if "longitudinal" in results:
        lg = results["longitudinal"]
        parts += ["", "## Longitudinal currency", "",
                  f"Seeded life script (seed {lg.get('seed')}, {lg.get('people')} people), "
                  "facts drawn first, then rendered as operations on an injected clock. "
                  "Accuracy cells show accuracy (checks).", "",
                  md_table(LIFE_HEADERS, life_rows(lg))]
        parts += ["", *text_lines(lg)]
    parts += ["", "## Targets", "", md_table(["target", "goal", "measured", "verdict"],
                                               targets(results))]
    if "profiles" in results:
        parts += ["", "## Profiles", "",
                  f"Full text in `profile_write_{results['mode']}.txt` and "
                  f"`profile_rebuild_{results['mode']}.txt`.",
                  profile_text(results["profiles"], markdown=True)]
    if results.get("others"):
        parts.append(others_text(results["others"], markdown=True))
    if figures:
        parts += ["", "## Figures", ""] + [f"![{f}]({f})" for f in figures]
    missing = sorted(set(_missing(results)))
    if missing:
        parts += ["", "## Not available yet", ""] + [f"- {x}" for x in missing]
    return "\n".join(parts) + "\n"


def _peer_note(results: dict[str, Any]) -> str:
    for size in results.get("speed", {}).get("sizes", []):
        pl = size.get("pylethe")
        if isinstance(pl, dict) and "mode" in pl:
            return (f"pylethe {results['machine']['versions'].get('pylethe', '?')}: {pl['mode']}; "
                    f"driver {pl.get('driver')}. Capabilities: "
                    + "; ".join(f"{k}: {v}" for k, v in pl.get("capabilities", {}).items()))
        if isinstance(pl, dict) and "error" in pl:
            return f"pylethe could not run: {pl['error']}"
    return ""


def write_json(results: dict[str, Any], path: Path) -> None:
    path.write_text(json.dumps(results, indent=2, default=str))


# figures ---------------------------------------------------------------------------------------

def plots(results: dict[str, Any], out_dir: Path, suffix: str) -> list[str] | str:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "plots skipped: matplotlib is not installed (pip install 'memory-es[bench]')"
    caption = machine_line(results["machine"])
    written = []
    sizes = results.get("speed", {}).get("sizes", [])
    if sizes:
        xs = [s["facts"] for s in sizes]
        panels: list[tuple[str, str, list[tuple[str, str, tuple[str, ...]]]]] = [
            ("writes (facts/s)", UP, [("batched", "embedded", ("batched_facts_per_s",)),
                                      ("batched", "postgresql", ("batched_facts_per_s",)),
                                      ("single", "embedded", ("single_writes_per_s",)),
                                      ("single", "postgresql", ("single_writes_per_s",)),
                                      ("batched", "floor_sqlite", ("batched_rows_per_s",)),
                                      ("batched", "hand_written", ("batched_facts_per_s",)),
                                      ("batched", "pylethe", ("batched_facts_per_s",))]),
            ("projection (events/s)", UP, [("catch-up", "embedded", ("catchup_events_per_s",)),
                                           ("catch-up", "postgresql", ("catchup_events_per_s",)),
                                           ("rebuild", "embedded", ("rebuild_events_per_s",)),
                                           ("rebuild", "postgresql", ("rebuild_events_per_s",))]),
            ("point reads (ms)", DOWN, [("as_of p50", "embedded", ("as_of_point", "p50_ms")),
                                        ("as_of p95", "embedded", ("as_of_point", "p95_ms")),
                                        ("current p50", "embedded", ("current_entity", "p50_ms")),
                                        ("as_of p50", "postgresql", ("as_of_point", "p50_ms")),
                                        ("current p50", "hand_written",
                                         ("current_entity", "p50_ms")),
                                        ("entity read p50", "floor_duckdb",
                                         ("entity_read", "p50_ms"))]),
            ("snapshot to Arrow (ms)", DOWN, [("as-of snapshot", "embedded",
                                               ("snapshot_arrow", "median_ms")),
                                              ("as-of snapshot", "postgresql",
                                               ("snapshot_arrow", "median_ms")),
                                              ("select *", "floor_duckdb",
                                               ("snapshot_arrow", "median_ms")),
                                              ("as-of", "hand_written",
                                               ("snapshot_arrow", "median_ms"))]),
            ("recall (ms)", DOWN, [("p50", "embedded", ("recall", "p50_ms")),
                                   ("p95", "embedded", ("recall", "p95_ms")),
                                   ("p95", "postgresql", ("recall", "p95_ms")),
                                   ("p95 (BM25)", "pylethe", ("recall", "p95_ms"))]),
            ("purge one entity (ms)", DOWN, [("p50", "embedded", ("purge_entity", "p50_ms")),
                                             ("p50", "postgresql", ("purge_entity", "p50_ms")),
                                             ("DELETE", "hand_written",
                                              ("purge_entity", "p50_ms")),
                                             ("lexical purge", "pylethe",
                                              ("purge_entity", "p50_ms"))]),
        ]
        fig, axes = plt.subplots(2, 3, figsize=(16, 9))
        for ax, (title, direction, series) in zip(axes.flat, panels, strict=True):
            drawn = 0
            for label, src, path in series:
                pts = [(x, _get(s.get(src), *path)) for x, s in zip(xs, sizes, strict=True)]
                pts = [(x, y) for x, y in pts if isinstance(y, int | float)]
                if not pts:
                    continue
                style = "-o" if src in ("embedded", "postgresql") else "--s"
                ax.plot([p[0] for p in pts], [p[1] for p in pts], style,
                        label=f"{src} {label}")
                drawn += 1
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_xlabel("facts in store")
            ax.set_title(f"{title} {direction}")
            ax.grid(True, which="both", alpha=0.3)
            if drawn:
                ax.legend(fontsize=7)
            else:
                ax.text(0.5, 0.5, f"{NOT_YET}", ha="center", va="center",
                        transform=ax.transAxes)
        fig.suptitle(f"memory-es cost vs size ({results['mode']} run)")
        fig.text(0.01, 0.005, caption, fontsize=8)
        fig.tight_layout(rect=(0, 0.02, 1, 0.97))
        name = f"speed_vs_size{suffix}.png"
        fig.savefig(out_dir / name, dpi=110)
        plt.close(fig)
        written.append(name)

    ab = results.get("ablation", {}).get("configs", {})
    measured = {k: v for k, v in ab.items() if "per_category" in v}
    if ab:
        cats = ["preference", "knowledge", "conflict", "forgetting", "poisoning"]
        fig, ax = plt.subplots(figsize=(12, 5))
        width = 0.8 / max(1, len(ab))
        for i, (name, r) in enumerate(ab.items()):
            if name not in measured:
                ax.bar([0], [0], width, label=f"{name}: {r['unavailable']}")
                continue
            vals = [r["per_category"][c] for c in cats] + [r["cross_wording"], r["pass_rate"]]
            ax.bar([j + i * width for j in range(len(cats) + 2)], vals, width,
                   label=f"{name} (p95 {r['retrieval']['p95_ms']:.1f} ms)")
        ax.set_xticks([j + 0.4 - width / 2 for j in range(len(cats) + 2)],
                      [*cats, "cross-wording", "overall"])
        ax.set_ylim(0, 1.05)
        ax.set_ylabel("accuracy")
        ax.set_title(f"Governance ablation ({results['ablation']['cases']} cases)")
        ax.legend(fontsize=8, loc="lower left")
        fig.text(0.01, 0.005, caption, fontsize=8)
        fig.tight_layout(rect=(0, 0.03, 1, 1))
        name = f"ablation{suffix}.png"
        fig.savefig(out_dir / name, dpi=110)
        plt.close(fig)
        written.append(name)

    runs = results.get("longitudinal", {}).get("runs", {})
    if runs:
        fig, ax = plt.subplots(figsize=(9, 5))
        buckets = ["0-1 wk", "1-3 wk", "3-6 wk", "6-9 wk"]
        for name, r in runs.items():
            pts = [(i, r["by_tenure"][b]["accuracy"]) for i, b in enumerate(buckets)
                   if b in r["by_tenure"]]
            ax.plot([p[0] for p in pts], [p[1] for p in pts], "-o",
                    label=f"{name}: contradictions {r['contradiction_rate']}, "
                          f"orphans {r['orphaned_inferences_max']}")
        ax.set_xticks(range(len(buckets)), buckets)
        ax.set_ylim(0, 1.05)
        ax.set_xlabel("tenure of the remembered slot")
        ax.set_ylabel("currency accuracy (slots updated at least once)")
        ax.set_title("Longitudinal currency (life script)")
        ax.legend(fontsize=8, loc="lower left")
        fig.text(0.01, 0.005, caption, fontsize=8)
        fig.tight_layout(rect=(0, 0.03, 1, 1))
        name = f"longitudinal{suffix}.png"
        fig.savefig(out_dir / name, dpi=110)
        plt.close(fig)
        written.append(name)
    return written
