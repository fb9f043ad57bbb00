"""Following the log: pull notifications in global order and feed the projections.

SQLite cannot push new events (its recorder has no ``subscribe``), so projections
pull with ``select_notifications`` from their tracked position; the same loop serves
PostgreSQL, where a polling reader never waits on a lost NOTIFY.
"""

from __future__ import annotations

from collections.abc import Callable

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
                 followers: list[Follower] | None = None) -> None:
        self.recorder = recorder
        self.mapper = mapper
        self.projector = projector
        self.batch = batch
        self.followers: list[Follower] = list(followers or [])
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

    def run(self, progress: Progress | None = None, stop: int | None = None) -> int:
        """Catch up to the log's head (or ``stop``); returns how many events were applied."""
        start = self.position()
        head = self.recorder.max_notification_id() or 0
        if stop is not None:
            head = min(head, stop)
        applied = 0
        position = start
        self.projector.behind = head - start
        while position < head:
            notes = self.recorder.select_notifications(
                start=position + 1, limit=self.batch, stop=head)
            if not notes:
                break
            opened = self.mapper.open_many(notes)  # keys fetched once per batch
            batch: list[tuple[int, Unsealed]] = [
                (n.id, u) for n, u in zip(notes, opened, strict=True)]
            since, position = position, notes[-1].id
            self._known = None  # unknown until the batch's transaction has committed
            changed = self.projector.apply(batch, position, since)
            self._known = position
            if self.followers:  # (a rebuild has none: its batches touch every fact)
                touched = sorted(changed)
                for follower in self.followers:
                    follower(touched, position, since)
            applied += len(notes)
            if progress is not None:
                progress(position - start, head - start)
        return applied
