"""Shared helpers: the machine a figure came from, percentiles, progress bars, tables.

A figure that could not be measured is never a number: it is a string that says why
(``"not available yet: ..."``, ``"n/a: ..."``), and tables print it as it is.
"""

from __future__ import annotations

import math
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from importlib import metadata
from typing import Any, TypeVar

from tqdm import tqdm

T = TypeVar("T")

NOT_YET = "not available yet"


def not_yet(what: str) -> str:
    """The cell of a capability that does not exist (yet) in the code under test."""
    return f"{NOT_YET}: {what}"


def version_of(dist: str) -> str | None:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def machine() -> dict[str, Any]:
    """Cores, memory, load and the versions every figure depends on."""
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    try:
        load = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        load = []
    cpu = ""
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    import sqlite3

    versions = {d: version_of(d) for d in (
        "memory-es", "eventsourcing", "duckdb", "pyarrow", "numpy", "faiss-cpu", "pydantic",
        "cryptography", "psycopg", "pylethe", "matplotlib")}
    return {
        "cores": os.cpu_count(), "memory_gib": round(mem, 1), "cpu": cpu,
        "load_avg_at_start": load, "platform": platform.platform(),
        "python": platform.python_version(), "sqlite": sqlite3.sqlite_version,
        "versions": {k: v for k, v in versions.items() if v is not None},
    }


def machine_line(m: dict[str, Any]) -> str:
    """One line for figure captions and table footers."""
    v = m.get("versions", {})
    parts = [f"{m['cores']} cores", f"{m['memory_gib']} GiB", f"Python {m['python']}",
             f"memory-es {v.get('memory-es', '?')}", f"eventsourcing {v.get('eventsourcing', '?')}",
             f"DuckDB {v.get('duckdb', '?')}", f"SQLite {m.get('sqlite', '?')}"]
    if m.get("load_avg_at_start"):
        parts.append(f"load {m['load_avg_at_start'][0]}")
    return ", ".join(parts)


def pct(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (``q`` in 0..1) of a non-empty sample."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered) + 0.5) - 1))]


def summary_ms(samples_s: Sequence[float]) -> dict[str, float]:
    """p50/p95/mean of a sample of seconds, in milliseconds."""
    ms = [s * 1e3 for s in samples_s]
    return {"p50_ms": pct(ms, 0.5), "p95_ms": pct(ms, 0.95), "mean_ms": statistics.fmean(ms),
            "n": len(ms)}


def timed(fn: Callable[[], T]) -> tuple[T, float]:
    t = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t


@contextmanager
def stopwatch() -> Iterator[list[float]]:
    """``with stopwatch() as sw: ...`` then ``sw[0]`` is the elapsed seconds."""
    box: list[float] = [0.0]
    t = time.perf_counter()
    try:
        yield box
    finally:
        box[0] = time.perf_counter() - t


class Progress:
    """tqdm bars that can be switched off (tests) and always write to stderr."""

    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled
        # a CI log is not a terminal: redraw rarely there
        self.interval = 0.5 if sys.stderr.isatty() else 15.0

    def bar(self, iterable: Iterable[T], desc: str, total: int | None = None,
            unit: str = "it") -> Iterator[T]:
        if not self.enabled:
            yield from iterable
            return
        yield from tqdm(iterable, desc=desc, total=total, unit=unit, leave=False,
                        file=sys.stderr, dynamic_ncols=True, mininterval=self.interval)

    def counter(self, total: int, desc: str, unit: str = "it") -> Any:
        return tqdm(total=total, desc=desc, unit=unit, leave=False, file=sys.stderr,
                    dynamic_ncols=True, disable=not self.enabled, mininterval=self.interval)


def fmt(value: Any) -> str:
    """A table cell: numbers with sensible precision, strings as they are."""
    if value is None:
        return "-"
    if isinstance(value, str) and value.startswith(NOT_YET):
        return NOT_YET  # the reason is listed once, under the tables
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        if math.isnan(value):
            return "-"
        a = abs(value)
        if a >= 1000:
            return f"{value:,.0f}"
        if a >= 100:
            return f"{value:.0f}"
        if a >= 10:
            return f"{value:.1f}"
        if a >= 1:
            return f"{value:.2f}"
        if a >= 0.01:
            return f"{value:.3f}"
        return f"{value:.2g}"
    return str(value)


def text_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A fixed-width table for the terminal."""
    cells = [[fmt(c) for c in row] for row in rows]
    widths = [len(h) for h in headers]
    for row in cells:
        for i, c in enumerate(row):
            widths[i] = max(widths[i], len(c))
    line = "  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True))
    out = [line, "  ".join("-" * w for w in widths)]
    for row in cells:
        out.append("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)))
    return "\n".join(out)


def md_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """The same table in Markdown (pipes in cells escaped)."""
    def esc(c: Any) -> str:
        return fmt(c).replace("|", "\\|")
    out = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    out += ["| " + " | ".join(esc(c) for c in row) + " |" for row in rows]
    return "\n".join(out)


def ratio(ours: Any, base: Any) -> Any:
    """``ours / base`` when both are numbers, else a dash."""
    if isinstance(ours, int | float) and isinstance(base, int | float) and base:
        return ours / base
    return None
