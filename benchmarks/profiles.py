"""cProfile summaries of the write path and of the rebuild: where the time goes.

Writes ``profile_write_<tag>.txt`` and ``profile_rebuild_<tag>.txt`` (top functions by cumulative
time, then by own time) and returns the top rows for the Markdown summary.
"""

from __future__ import annotations

import cProfile
import io
import pstats
import shutil
import tempfile
from pathlib import Path
from typing import Any

import memory_es
from benchmarks import workload as W
from benchmarks.common import Progress
from benchmarks.speed import load


def _top(prof: cProfile.Profile, sort: str, limit: int) -> tuple[str, list[dict[str, Any]]]:
    buf = io.StringIO()
    stats = pstats.Stats(prof, stream=buf)
    stats.sort_stats(sort).print_stats(limit)
    rows = []
    raw: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    total = max((v[3] for v in raw.values()), default=0.0)
    key = 3 if sort == "cumulative" else 2
    for (filename, line, func), v in sorted(raw.items(), key=lambda kv: -kv[1][key])[:limit]:
        short = "/".join(Path(filename).parts[-2:]) if filename != "~" else "~"
        rows.append({"function": f"{short}:{line}({func})", "calls": v[1],
                     "own_s": v[2], "cumulative_s": v[3],
                     "cumulative_share": v[3] / total if total else None})
    return buf.getvalue(), rows


def run(out_dir: Path, facts: int, progress: Progress, limit: int = 25,
        suffix: str = "") -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="me-bench-prof-"))
    result: dict[str, Any] = {"facts": facts}
    try:
        store = memory_es.open(folder / "store")
        try:
            prof = cProfile.Profile()
            prof.enable()
            load(store, facts, progress, "profile: write path")
            prof.disable()
            store.catch_up()
            text_c, top_c = _top(prof, "cumulative", limit)
            text_t, top_t = _top(prof, "tottime", limit)
            (out_dir / f"profile_write{suffix}.txt").write_text(
                f"# write path: transact of 1,000 x {facts // 1000} ({facts:,} facts)\n\n"
                + text_c + "\n\n# by own time\n\n" + text_t)
            result["write"] = {"by_cumulative": top_c, "by_own": top_t}

            prof = cProfile.Profile()
            prof.enable()
            events = store.rebuild()
            prof.disable()
            text_c, top_c = _top(prof, "cumulative", limit)
            text_t, top_t = _top(prof, "tottime", limit)
            (out_dir / f"profile_rebuild{suffix}.txt").write_text(
                f"# rebuild: {events:,} events\n\n" + text_c + "\n\n# by own time\n\n" + text_t)
            result["rebuild"] = {"events": events, "by_cumulative": top_c, "by_own": top_t}
        finally:
            store.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    result["tenant"] = W.TENANT
    return result
