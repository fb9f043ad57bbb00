"""Following the log: pull notifications in global order and feed the projections.

SQLite cannot push new events (its recorder has no ``subscribe``), so projections
pull with ``select_notifications`` from their tracked position; the same loop serves
PostgreSQL, where a polling reader never waits on a lost NOTIFY.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from eventsourcing.persistence import ApplicationRecorder

from memory_es.crypto.mapper import SealingMapper, Unsealed
from projections.versions import VersionProjector

BATCH = 5_000

Progress = Callable[[int, int], None]
Follower = Callable[[list[str], int, int], None]
"""Called after each applied batch with (fact ids touched, position after the batch,
position before it), e.g. :meth:`projections.recall.RecallIndex.follow`. Followers
derive from ``fact_versions`` and keep their own tracking position; they must not raise.
What the batch wrote is :attr:`VersionProjector.applied` while they run, so a follower
can take the rows from there instead of reading them back (one-event batches, after
every write, would otherwise pay DuckDB's fixed cost per statement once per follower)."""


class Catchup:
    """Applies every event after the tracked position, one DuckDB transaction per batch."""

    def __init__(self, recorder: ApplicationRecorder, mapper: SealingMapper,
                 projector: VersionProjector, batch: int = BATCH,
                 followers: list[Follower] | None = None, *, read_ahead: bool = False) -> None:
        self.recorder = recorder
        self.mapper = mapper
        self.projector = projector
        self.batch = batch
        self.followers: list[Follower] = list(followers or [])
        self.read_ahead = read_ahead
        """Read and open the next batch while this one is applied (a rebuild). Its chain
        keys are then not cached either: a replay of the whole log uses each for its own
        chain's few events, and would push every key in use out of the cache."""
        self._known: int | None = None  # the tracked position, once read or written here

    def position(self) -> int:
        """The tracked position (read from DuckDB once, then kept: only this object moves it)."""
        if self._known is None:
            self.projector.flush()  # deferred writes move DuckDB's tracking row when run
            rows = self.projector.con.execute(
                "SELECT position FROM tracking WHERE name = ?", [self.projector.name]).fetchall()
            self._known = int(rows[0][0]) if rows else 0
        return self._known

    def forget_position(self) -> None:
        """Re-read the tracked position next time (the database was replaced)."""
        self._known = None

    def _read(self, start: int, head: int) -> list[tuple[int, Unsealed]]:
        """The next batch from ``start``, opened (keys fetched once per batch)."""
        select_rows = getattr(self.recorder, "select_rows", None)
        if select_rows is not None:  # the log's rows as stored (the embedded log)
            rows = select_rows(start, self.batch, head)
            opened = self.mapper.open_rows(rows, keep_keys=not self.read_ahead)
            return [(int(r[0]), u) for r, u in zip(rows, opened, strict=True)]
        notes = self.recorder.select_notifications(start=start, limit=self.batch, stop=head)
        opened = self.mapper.open_many(notes, keep_keys=not self.read_ahead)
        return [(n.id, u) for n, u in zip(notes, opened, strict=True)]

    def run(self, progress: Progress | None = None, stop: int | None = None) -> int:
        """Catch up to the log's head (or ``stop``); returns how many events were applied.

        With :attr:`read_ahead`, the next batch is read and opened on a second thread
        while the projector applies this one (its DuckDB statements, numpy and Arrow
        release the GIL, so the two overlap on two cores)."""
        start = self.position()
        head = self.recorder.max_notification_id() or 0
        if stop is not None:
            head = min(head, stop)
        applied = 0
        position = start
        self.projector.behind = head - start
        ahead = self.read_ahead and head - start > self.batch
        with ThreadPoolExecutor(1) if ahead else contextlib.nullcontext() as pool:
            following = (pool.submit(self._read, position + 1, head)
                         if pool is not None and position < head else None)
            while position < head:
                batch = (following.result() if following is not None
                         else self._read(position + 1, head))
                if not batch:
                    break
                since, position = position, batch[-1][0]
                following = (pool.submit(self._read, position + 1, head)
                             if pool is not None and position < head else None)
                self._known = None  # unknown until the batch's transaction has committed
                changed = self.projector.apply(batch, position, since)
                self._known = position
                if self.followers:  # (a rebuild has none: its batches touch every fact)
                    touched = sorted(changed)
                    for follower in self.followers:
                        follower(touched, position, since)
                applied += len(batch)
                if progress is not None:
                    progress(position - start, head - start)
        return applied
