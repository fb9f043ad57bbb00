"""``memory-es bench [--quick] ...``: the benchmark harness, run from the CLI.

The harness is the ``benchmarks`` package, installed with memory-es (its figures and the
peer store need the ``bench`` extra). Every argument after ``bench`` is the harness's own
(``memory-es bench --help``); ``python -m benchmarks`` runs the same thing.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence

EXIT_UNAVAILABLE = 2


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark suite with ``argv``; returns its exit status (2 if it is missing)."""
    try:
        # Imported by name, not by an import statement: the harness is not under mypy's
        # strict check (pyproject: files = memory_es, projections) and is heavy to import.
        runner = importlib.import_module("benchmarks.runner")
    except ImportError as e:
        missing = e.name or "?"
        if missing in ("benchmarks", "benchmarks.runner"):
            print("memory-es: error: the benchmark harness (the benchmarks package) is not "
                  "installed; install memory-es from a source checkout with "
                  "pip install -e '.[bench]'", file=sys.stderr)
        else:
            print(f"memory-es: error: the benchmark harness needs {missing}; "
                  "install the bench extra: pip install 'memory-es[bench]'", file=sys.stderr)
        return EXIT_UNAVAILABLE
    code: int = runner.main(None if argv is None else list(argv))
    return code
