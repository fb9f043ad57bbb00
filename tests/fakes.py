"""Fakes at the ports: a clock the test drives by hand, a valid-time grid, and a
connection that records the statements run through it."""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import memory_es

START = dt.datetime(2025, 6, 1, 12, 0, tzinfo=dt.UTC)


class FakeClock:
    """A store clock that stands still until the test moves it.

    Call it like the real clock (``clock()`` returns an aware UTC datetime); move it
    with :meth:`advance` or :meth:`set`. Standing still is allowed: the store then
    hands out ``previous + 1 µs`` as transaction time (SPEC §4).
    """

    def __init__(self, start: dt.datetime = START) -> None:
        self.now = start

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, delta: dt.timedelta | None = None, **kwargs: float) -> dt.datetime:
        """Move forward by ``delta`` (or ``timedelta(**kwargs)``); returns the new time."""
        self.now += delta if delta is not None else dt.timedelta(**kwargs)
        return self.now

    def set(self, when: dt.datetime) -> dt.datetime:
        self.now = when
        return self.now


def day(n: int) -> dt.datetime:
    """Midnight UTC of 2025-01-01 plus ``n`` days (the valid-time grid tests use)."""
    return dt.datetime(2025, 1, 1, tzinfo=dt.UTC) + dt.timedelta(days=n)


@contextlib.contextmanager
def opened_store(folder: Path, clock: FakeClock) -> Iterator[memory_es.MemoryStore]:
    """A store on ``folder`` driven by ``clock``, closed when the block ends."""
    store = memory_es.open(folder, clock=clock)
    try:
        yield store
    finally:
        store.close()


class Statements:
    """A DuckDB connection that records the statements run through it."""

    def __init__(self, con: Any) -> None:
        self._con = con
        self.executed: list[str] = []

    def execute(self, sql: str, *args: Any) -> Any:
        self.executed.append(sql)
        return self._con.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._con, name)
