"""The composition root: ``open()`` builds one :class:`Runtime`, and everything else
(the facade, the erasure service, the audit reads) takes it instead of each other.

It owns the parts that must be shared and replaced together: the event log and key
store, the transaction clock, the store lock, the write side and its commit path, the
DuckDB views and the recall index that follows them.
"""

from __future__ import annotations

import contextlib
import threading
from pathlib import Path

from memory_es.clock import ClockFn, TransactionClock
from memory_es.crypto.keystore import KeyStore
from memory_es.errors import StoreClosed
from memory_es.eventlog import EventLog
from memory_es.faults import storage_faults
from memory_es.write.service import WriteService
from memory_es.write.side import WriteSide
from projections.catchup import Progress
from projections.embedder import Embedder
from projections.recall import RecallIndex
from projections.views import Views


class Runtime:
    """One open store's parts, wired once."""

    def __init__(self, log: EventLog, folder: Path, clock: ClockFn | None = None,
                 views_settings: dict[str, str] | None = None,
                 embedder: Embedder | None = None, default_key_file: Path | None = None,
                 anchor_file: Path | None = None) -> None:
        self.log = log
        self.folder = folder
        self.default_key_file = default_key_file
        """The master key's file when it is the default one beside the data (else None)."""
        self.anchor_file = anchor_file
        """Where a fresh anchor is written after every destructive operation (optional)."""
        self.lock = threading.RLock()
        self.clock = TransactionClock(clock)
        self.side = WriteSide(log, self.clock)
        self.writes = WriteService(self.side, self.clock, self.lock)
        folder.mkdir(parents=True, exist_ok=True)
        self.views = Views(folder, log.recorder, self.side.mapper, views_settings)
        self._closed = False
        self._embedder = embedder
        self.recall: RecallIndex
        self.erasables: list[RecallIndex] = []

    def start(self) -> None:
        """Catch the views up and open the recall index that follows them. Separate from
        construction: crash recovery (unfinished shreddings) must run before the first
        catch-up, and it belongs to the erasure service, which sits above the runtime."""
        self.views.catch_up()
        self.recall = RecallIndex(lambda: self.views.con, self.folder, self._embedder)
        self.views.catchup.followers.append(self.recall.follow)
        self.erasables.append(self.recall)

    @property
    def keys(self) -> KeyStore:
        return self.log.keys

    def check_open(self) -> None:
        if self._closed:
            raise StoreClosed("the store is closed")

    @property
    def closed(self) -> bool:
        return self._closed

    def now(self) -> int:
        return self.clock.now()

    def catch_up(self, progress: Progress | None = None) -> int:
        """Bring every projection up to the log's head (read-your-writes)."""
        self.check_open()
        with self.lock, storage_faults("updating the views"):
            return self.views.catch_up(progress)

    def rebuild(self, progress: Progress | None = None) -> int:
        self.check_open()
        with self.lock, storage_faults("the rebuild"):
            self.side.forget_cached()
            replayed = self.views.rebuild(progress)
            self.recall.rebuild()
            return replayed

    def compact(self) -> None:
        """Physically drop deleted bytes from every store file (SPEC §8)."""
        with self.lock, storage_faults("compaction"):
            self.log.compact()
            self.views.compact(self.clock.now())
            for erasable in self.erasables:
                erasable.compact()

    def compact_read_models(self) -> None:
        """Rewrite the read models' own files (a mask or forget dropped their entries)."""
        with self.lock:
            for erasable in self.erasables:
                erasable.compact()

    def store_names(self) -> list[str]:
        """Every store a residue report checks, in report order."""
        return ["event_log", "key_store", "duckdb_views",
                *(e.name for e in self.erasables), "caches", "exports", "leftovers"]

    def close(self) -> None:
        if self._closed:
            return
        with self.lock:
            self._closed = True
            for erasable in self.erasables:
                with contextlib.suppress(Exception):
                    erasable.close()
            with contextlib.suppress(Exception):
                self.views.close()
            self.log.close()
