"""The composition root: ``open()`` builds one :class:`Runtime`, and everything else
(the facade, the erasure service, the audit reads) takes it instead of each other.

It owns the parts that must be shared and replaced together: the event log and key
store, the transaction clock, the store lock, the write side and its commit path, the
DuckDB views and the recall index that follows them, and this process's entry in the
replica registry (every views replica is part of the erasure proof, SPEC §13).
"""

from __future__ import annotations

import contextlib
import os
import socket
import threading
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, wait
from pathlib import Path

from memory_es.clock import ClockFn, TransactionClock
from memory_es.collector import collector_paused
from memory_es.crypto.keystore import KeyStore
from memory_es.domain.events import EntityPurged, FactChainPurged
from memory_es.errors import StoreClosed
from memory_es.eventlog import EventLog
from memory_es.faults import storage_faults
from memory_es.write.service import WriteService
from memory_es.write.side import WriteSide
from projections.catchup import Progress
from projections.embedder import Embedder
from projections.recall import RecallIndex
from projections.views import Views

PURGE_TOPICS = (EntityPurged.TOPIC, FactChainPurged.TOPIC)
HEARTBEAT_EVERY = 1.0
"""Seconds between two registry updates of this replica (always after a compaction)."""
REPLICA_TIMEOUT = float(os.environ.get("MEMORY_ES_REPLICA_TIMEOUT", "120"))
"""A replica whose heartbeat is older than this is reported ``unreachable``, never clean."""
ERASURE_DEADLINE = float(os.environ.get("MEMORY_ES_ERASURE_DEADLINE", "3600"))
"""Seconds a deferred compaction may wait before the next catch-up runs it anyway."""


def replica_identity(folder: Path) -> str:
    """The stable id of the views replica in ``folder`` (made on its first open)."""
    path = folder / "replica.id"
    if path.exists():
        return path.read_text().strip()
    replica_id = f"r-{uuid.uuid4().hex[:12]}"
    tmp = folder / "replica.id.tmp"
    tmp.write_text(replica_id + "\n")
    os.replace(tmp, path)
    return replica_id


class Runtime:
    """One open store's parts, wired once."""

    def __init__(self, log: EventLog, folder: Path, clock: ClockFn | None = None,
                 views_settings: dict[str, str] | None = None,
                 embedder: Embedder | None = None, default_key_file: Path | None = None,
                 anchor_file: Path | None = None, read_only: bool = False,
                 on_close: Callable[[], None] | None = None) -> None:
        self.log = log
        self.folder = folder
        self.default_key_file = default_key_file
        """The master key's file when it is the default one beside the data (else None)."""
        self.anchor_file = anchor_file
        """Where a fresh anchor is written after every destructive operation (optional)."""
        self.read_only = read_only
        """A reader beside the writer: its own views replica, no writes."""
        self.lock = threading.RLock()
        self.clock = TransactionClock(clock)
        self.side = WriteSide(log, self.clock)
        self.writes = WriteService(self.side, self.clock, self.lock)
        folder.mkdir(parents=True, exist_ok=True)
        self.views = Views(folder, log.recorder, self.side.mapper, views_settings)
        self.replica_id = replica_identity(folder)
        self.host = socket.gethostname()
        self.compacted = 0
        """The log position up to which this replica's files were rewritten after purges."""
        self._closed = False
        self._embedder = embedder
        self._on_close = on_close
        self._last_beat = 0.0
        self._deferred_until: float | None = None
        self._scanned = 0  # log position up to which purges were looked for
        self._purge_seen = False  # a purge applied but not compacted yet
        self.recall: RecallIndex
        self.erasables: list[RecallIndex] = []
        self._beside: ThreadPoolExecutor | None = None
        """The thread the recall files are rewritten on during a compaction (made by the
        first one)."""

    def start(self) -> None:
        """Register this replica, catch the views up (compacting after any purge they
        applied, a crash's unfinished one included) and open the recall index. Separate
        from construction: crash recovery of shreddings must run before the first
        catch-up, and it belongs to the erasure service, which sits above the runtime."""
        self.keys.register_replica(self.replica_id, str(self.folder.resolve()), self.host)
        for replica_id, _, _, _, compacted, _ in self.keys.replicas():
            if replica_id == self.replica_id:
                self.compacted = compacted
        views = self.views
        self.recall = RecallIndex(lambda: views.con, self.folder, self._embedder,
                                  position=views.position, ledger_con=views.ledger_con)
        recall, projector = self.recall, self.views.projector
        self.views.catchup.followers.append(  # the batch's own rows: no DuckDB re-read
            lambda touched, position, since: recall.follow(touched, position, since,
                                                           projector.applied))
        self.views.ahead.append(lambda: recall.position)
        self.erasables.append(self.recall)
        self.catch_up()

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
        """Bring every projection up to the log's head (read-your-writes). When a purge was
        applied since this replica last rewrote its files, rewrite them now: a replica
        holds plaintext until it has, and the erasure proof waits for it."""
        self.check_open()
        with self.lock, storage_faults("updating the views"):
            applied = self.views.catch_up(progress)
            if applied:
                self._observe_head()
            if self._uncompacted_purge() and not self._deferring():
                self.compact_views()
            else:
                self.beat()
            return applied

    def defer_compaction(self, seconds: float = ERASURE_DEADLINE) -> None:
        """Let purges share one compaction: until :meth:`compact` (or the deadline), the
        views and recall files are not rewritten, and residue reports say ``pending``."""
        deadline = time.monotonic() + seconds
        if self._deferred_until is None or deadline < self._deferred_until:
            self._deferred_until = deadline
        for erasable in self.erasables:
            erasable.defer_vectors = True

    def _deferring(self) -> bool:
        if self._deferred_until is None:
            return False
        if time.monotonic() >= self._deferred_until:
            self._deferred_until = None
            for erasable in self.erasables:
                erasable.defer_vectors = False
            return False
        return True

    def _observe_head(self) -> None:
        """Read time never lags what the views show: another process's writes carry its
        transaction times, which this clock has not handed out (a read after their write
        must see it, even with a clock that stands still)."""
        head = self.views.position()
        tail = self.log.recorder.select_notifications(start=head, limit=1)
        if tail:
            self.clock.observe(self.side.mapper.header(tail[0])[0])

    def _uncompacted_purge(self) -> bool:
        """Whether the views applied a purge since this replica last rewrote its files.
        Each stretch of the log is looked at once (reads call this on every catch-up)."""
        head = self.views.position()
        start = max(self.compacted, self._scanned)
        if head > start:
            if self.log.recorder.select_notifications(
                    start=start + 1, limit=1, stop=head, topics=PURGE_TOPICS):
                self._purge_seen = True
            self._scanned = head
        return self._purge_seen

    def beat(self, *, force: bool = False) -> None:
        """Tell the registry how far this replica has applied and compacted the log."""
        now = time.monotonic()
        if force or now - self._last_beat >= HEARTBEAT_EVERY:
            self._last_beat = now
            self.keys.heartbeat(self.replica_id, self.views.position(), self.compacted)

    def rebuild(self, progress: Progress | None = None) -> int:
        self.check_open()
        # The collector paused: a replay allocates millions of objects that live until
        # their batch is written, and rescanning them was a fifth of the rebuild's time.
        with self.lock, storage_faults("the rebuild"), collector_paused():
            self.side.forget_cached()
            # The recall index, when it mirrors the old views, re-diffs only the facts whose
            # rows the replay changed (the views compare the old tables with the new).
            in_line = self.recall.in_line(self.views.position())
            replayed = self.views.rebuild(progress)
            self.recall.rebuild(self.views.rebuilt_changes if in_line else None)
            # Fresh files, built from a log whose purged content is unreadable: nothing of
            # a purge was ever written into them, so they count as compacted.
            self.compacted = self._scanned = self.views.position()
            self._purge_seen = False
            self.beat(force=True)
            return replayed

    def compact(self) -> None:
        """Everything a deferred purge left for later: rewrite this replica's files and
        drop deleted bytes from the log's and the key store's."""
        self.check_open()
        with self.lock:
            self._deferred_until = None
            for erasable in self.erasables:
                erasable.defer_vectors = False
            self.compact_views()
            self.compact_log()

    def compact_views(self) -> None:
        """Rewrite this replica's files (views, recall index) so deleted bytes go too.

        The recall index's files are rewritten on a second thread while the views' are
        written here (they share no state: the index writes its segment files from its
        own memory, the views theirs from DuckDB). Both are waited for, whatever happens
        to either, before anything counts as compacted: a failure of either is raised
        and the compacted position stays where it was."""
        with self.lock, storage_faults("compaction"):
            erasables = list(self.erasables)
            beside = self._beside_pool().submit(self._compact_erasables, erasables)
            try:
                self.views.compact(self.clock.now())
            finally:
                wait([beside])
            beside.result()  # the recall rewrite's own failure, if it had one
            self.compacted = self._scanned = self.views.position()
            self._purge_seen = False
            self.beat(force=True)

    def _beside_pool(self) -> ThreadPoolExecutor:
        if self._beside is None:
            self._beside = ThreadPoolExecutor(1, thread_name_prefix="recall-compaction")
        return self._beside

    @staticmethod
    def _compact_erasables(erasables: list[RecallIndex]) -> None:
        for erasable in erasables:
            erasable.compact()

    def compact_log(self) -> None:
        """Physically drop deleted bytes from the log's and the key store's files."""
        with self.lock, storage_faults("compaction"):
            self.log.compact()

    def compact_read_models(self) -> None:
        """Rewrite the read models' own files (a mask or forget dropped their entries)."""
        with self.lock:
            self.views.persist()
            self.views.points.compact()
            for erasable in self.erasables:
                erasable.compact()

    def store_names(self) -> list[str]:
        """Every store a residue report checks, in report order."""
        return ["event_log", "key_store", "duckdb_views", self.views.points.name,
                *(e.name for e in self.erasables), "caches", "exports", "leftovers"]

    def close(self) -> None:
        """Close everything; the replica stays registered (its files still hold what it
        applied), so a purge made while it is away is reported until it reopens."""
        if self._closed:
            return
        with self.lock:
            self._closed = True
            with contextlib.suppress(Exception):
                self.beat(force=True)
            if self._beside is not None:
                self._beside.shutdown(wait=True)
                self._beside = None
            for erasable in self.erasables:
                with contextlib.suppress(Exception):
                    erasable.close()
            with contextlib.suppress(Exception):
                self.views.close()
            self.log.close()
            if self._on_close is not None:
                self._on_close()
