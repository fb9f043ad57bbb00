"""Pausing Python's cyclic garbage collector over one bounded piece of work.

Writes and projection batches allocate many short-lived dicts and lists that live until
the piece ends; with the collector on, every few hundred allocations trigger a rescan
(measured: catch-up ≈ 16k events/CPU-s without the pause, ≈ 28k with it; batched writes
+16-30 %). What a piece allocates is bounded by the piece, and collection resumes after.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Disable the cyclic collector for the ``with`` block (re-entrant: restores its state)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
