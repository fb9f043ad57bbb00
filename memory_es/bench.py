"""``memory-es bench [--quick]``: the benchmark suite's entry point for the CLI.

The suite lives in the repository's ``benchmarks/`` folder (it is not part of the
installed package: it needs the optional ``bench`` extra and a source checkout).
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark suite; returns the process exit code."""
    try:
        runner = importlib.import_module("benchmarks.runner")
    except ImportError:
        root = Path(__file__).resolve().parents[1]
        if not (root / "benchmarks" / "runner.py").exists():
            print("memory-es bench needs a source checkout (the benchmarks/ folder); "
                  "run it from the repository", file=sys.stderr)
            return 2
        sys.path.insert(0, str(root))
        runner = importlib.import_module("benchmarks.runner")
    code: int = runner.main(argv)
    return code


if __name__ == "__main__":
    raise SystemExit(main())
