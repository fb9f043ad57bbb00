"""``memory-es worker``: a projection worker following a PostgreSQL log (SPEC §13).

It owns one views replica (DuckDB views and recall index in its folder), registered in
the database so that every purge's residue report names it; it applies what the writers
append, rewrites its files after a purge, heartbeats, and reports its lag. It wakes on
the log's NOTIFY and polls as well, since a lost notification would otherwise leave it
waiting forever (eventsourcing issue #305).
"""

from __future__ import annotations

import contextlib
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import Any

from memory_es.errors import MemoryESError, StorageUnavailable
from memory_es.store import MemoryStore, open_store

Report = Callable[[dict[str, Any]], None]
CHANNEL = "memory_es_events"
"""The channel eventsourcing's PostgreSQL recorder NOTIFYs on each insert."""


@contextlib.contextmanager
def _stop_on_signals(stop: list[bool]) -> Iterator[None]:
    def handler(signum: int, frame: FrameType | None) -> None:
        stop[0] = True

    previous = {sig: signal.signal(sig, handler) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


def _listener(dsn: str, channel: str) -> Any:
    """A connection LISTENing on the log's channel, or None when that is not possible
    (the worker then polls only)."""
    import psycopg  # noqa: PLC0415  (PostgreSQL only)

    try:
        conn = psycopg.connect(dsn, autocommit=True)
        conn.execute(f'LISTEN "{channel}"')
    except psycopg.Error:
        return None
    return conn


def follow(store: MemoryStore, dsn: str, *, interval: float = 1.0,
           max_seconds: float | None = None, report: Report | None = None,
           stop: list[bool] | None = None) -> int:
    """Follow the log until a signal (or ``max_seconds``); returns events applied.
    ``stop``: a flag the caller's own signal handlers set (else this installs them).
    ``report`` hears every change of position, and once more at the end when the last
    line no longer says where the replica stands (a signal while it opened, or right
    after a round applied more): a script always learns the final lag."""
    stop = [False] if stop is None else stop
    started = time.monotonic()
    applied_total = 0
    listener = _listener(dsn, CHANNEL)
    last: tuple[int, int] | None = None
    with _stop_on_signals(stop):
        try:
            while not stop[0]:
                try:
                    applied_total += store.catch_up()
                    state = (store.projection_position(), store.log_position())
                except StorageUnavailable as e:  # a restart or failover: wait it out
                    if report is not None:
                        report({"replica": store.runtime.replica_id, "error": str(e)})
                    last = None
                else:
                    if report is not None and state != last:
                        report(_state(store, *state))
                        last = state
                if max_seconds is not None and time.monotonic() - started >= max_seconds:
                    break
                listener = _relisten(listener, dsn)
                _wait(listener, interval)
        finally:
            if listener is not None:
                with contextlib.suppress(Exception):
                    listener.close()
    if report is not None:  # the last word: where it stands, unless just said
        with contextlib.suppress(StorageUnavailable):
            state = (store.projection_position(), store.log_position())
            if state != last:
                report(_state(store, *state))
    return applied_total


def _state(store: MemoryStore, applied: int, head: int) -> dict[str, Any]:
    """One report line: how far the replica applied the log, and its lag behind the head."""
    return {"replica": store.runtime.replica_id, "applied": applied, "head": head,
            "lag": max(0, head - applied)}


def _relisten(listener: Any, dsn: str) -> Any:
    """A fresh listener when the server dropped the old one (else the old one)."""
    if listener is not None and not (listener.closed or listener.broken):
        return listener
    if listener is not None:
        with contextlib.suppress(Exception):
            listener.close()
    return _listener(dsn, CHANNEL)


def _wait(listener: Any, interval: float) -> None:
    """Until a notification arrives or ``interval`` passes (the polling fallback)."""
    if listener is None:
        time.sleep(interval)
        return
    try:
        for _ in listener.notifies(timeout=interval, stop_after=1):
            break
    except Exception:  # a broken listener: poll; the next round listens anew
        time.sleep(interval)


def run(dsn: str, views: str | Path, *, schema: str | None = None,
        key_file: str | Path | None = None, interval: float = 1.0,
        max_seconds: float | None = None, report: Report | None = None) -> int:
    """Open the worker's replica read-only and follow the log."""
    if not dsn:
        raise MemoryESError("the worker follows a PostgreSQL log: give --dsn")
    stop = [False]
    # Handlers first: a SIGTERM while the replica opens still ends cleanly.
    with _stop_on_signals(stop):
        store = _open_when_up(dsn, views, schema, key_file, interval, report, stop)
        if store is None:
            return 0
        with store:  # stopped already: follow only reports where the replica stands
            return follow(store, dsn, interval=interval, max_seconds=max_seconds,
                          report=report, stop=stop)


OPEN_PATIENCE = 120.0
"""Seconds a starting worker waits for an unreachable or restarting server."""


def _open_when_up(dsn: str, views: str | Path, schema: str | None,
                  key_file: str | Path | None, interval: float, report: Report | None,
                  stop: list[bool]) -> MemoryStore | None:
    """The replica, opened once the server answers (None if stopped while waiting): a
    worker started beside a restarting database waits for it, as it does once running."""
    deadline = time.monotonic() + OPEN_PATIENCE
    while not stop[0]:
        try:
            return open_store(dsn=dsn, views=views, schema=schema, key_file=key_file,
                              read_only=True)
        except StorageUnavailable as e:
            if time.monotonic() >= deadline:
                raise
            if report is not None:
                report({"replica": None, "error": str(e)})
            time.sleep(interval)
    return None
