"""numba, loaded once under a lock by whichever recall thread needs it first.

The compiled kernels (:mod:`projections.recall.kernels`) and numba's typed list are
imported on first use (numba takes ≈ 0.9 s to load; a process that never recalls never
pays it). Recall runs BM25 on a second thread beside the vector scan, so the first
recall of a process imported numba from two threads at once, and one of them could see
``numba.typed`` half initialised (``ImportError: cannot import name 'List'``)."""

from __future__ import annotations

import threading

_LOCK = threading.Lock()
_loaded = False


def load_kernels() -> None:
    """Import numba, ``numba.typed`` and the kernels, once per process; any other thread
    asking meanwhile waits for the first to finish."""
    global _loaded  # noqa: PLW0603  (one flag per process, set once)
    if _loaded:
        return
    with _LOCK:
        if not _loaded:
            import numba.typed  # noqa: F401, PLC0415

            from projections.recall import kernels  # noqa: F401, PLC0415

            _loaded = True
