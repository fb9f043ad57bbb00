"""The one commit path: open a unit of work, stage commands, append, publish.

:meth:`WriteService.unit` is the only place in the package that opens, appends or
abandons a unit of work; :meth:`WriteService.execute` is one command in its own unit,
and ``store.transact()`` is several commands in one. A :class:`Staging` handle is
closed when its block ends, so a transaction used afterwards raises ``StoreClosed``
instead of staging events into a unit that will never be appended.
"""

from __future__ import annotations

import random
import threading
import time
from types import TracebackType
from typing import Literal

from memory_es.clock import TransactionClock
from memory_es.collector import collector_paused
from memory_es.domain.commands import Command
from memory_es.domain.events import WriteAcknowledged
from memory_es.errors import ConcurrentWriteError, StoreClosed
from memory_es.faults import StorageFaults
from memory_es.models import Receipt
from memory_es.write import handlers
from memory_es.write.side import WriteSide
from memory_es.write.unit import UnitOfWork

RETRIES = 12
BACKOFF = 0.002
"""Seconds before the first retry; doubled each time (about 8 s in all at most)."""


class Staging:
    """An open unit of work that commands are staged into (``Transaction`` wraps one)."""

    def __init__(self, side: WriteSide, uow: UnitOfWork) -> None:
        self._side = side
        self._uow = uow
        self._open = True
        self._positions: list[int] | None = None
        self._committed: list[Receipt] | None = None

    @property
    def receipts(self) -> list[Receipt]:
        """The committed receipts, in staging order, once the unit has been appended (empty
        before). Built when first asked for: a batch whose caller keeps only the receipts
        :meth:`stage` returned pays nothing for them (a copy per operation, positioned)."""
        if self._committed is None:
            if self._positions is None:
                return []
            self._committed = self._uow.committed_receipts(self._positions)
        return self._committed

    def committed(self, positions: list[int]) -> None:
        """The unit was appended at ``positions`` (one per staged event)."""
        self._positions = positions

    @property
    def recorded_at(self) -> int:
        return self._uow.recorded_at

    def stage(self, command: Command) -> Receipt:
        """Stage one command; a key used before returns its original receipt instead."""
        if not self._open:
            raise StoreClosed("this transaction has ended: open a new one with transact()")
        key = command.idempotency_key
        tenant = None
        if key is not None:
            tenant = command.tenant_hint or self._side.tenant_of(_fact_of(command))
            replay = self._side.replayed_receipt(tenant, key, command.fingerprint)
            if replay is not None:
                return replay
        self._uow.begin_command()
        try:
            receipt = handlers.stage(self._side, self._uow, command)
            if key is not None and tenant is not None:
                self._acknowledge(tenant, key, receipt, command.fingerprint)
        except BaseException:
            self._uow.undo_command()
            raise
        self._uow.end_command()
        return receipt

    def _acknowledge(self, tenant: str, key: str, receipt: Receipt, request: str) -> None:
        """Record ``receipt`` under the key. The stored copy names the events the write
        appended, this acknowledgement included, so a replay returns the receipt the
        original caller got."""
        uow = self._uow
        st = uow.fresh_state(self._side.ack_stream(tenant, key))
        first, end = uow.span(receipt)
        stored = receipt.model_copy(update={
            "event_ids": [*uow.event_ids(first, end), f"{st.stream_id}:{st.version + 1}"]})
        uow.emit(st, WriteAcknowledged(
            tenant=tenant, receipt=stored.model_dump(mode="json", exclude={"position"}),
            request=request))
        uow.extend_receipt(receipt)

    def close(self) -> None:
        self._open = False
        self._uow.close()


def _fact_of(command: Command) -> str:
    fact_id = getattr(command, "fact_id", None)
    if not isinstance(fact_id, str):
        raise TypeError(f"{type(command).__name__} names neither a tenant nor a fact")
    return fact_id


class WriteService:
    """Executes commands against the write side, one atomic append per unit."""

    def __init__(self, side: WriteSide, clock: TransactionClock,
                 lock: threading.RLock) -> None:
        self.side = side
        self.clock = clock
        self.lock = lock

    def unit(self) -> _Unit:
        """One unit of work (``with service.unit() as staging``): everything staged in the
        block is appended atomically when it ends, or nothing at all if it raises (the log,
        the caches and the views unchanged)."""
        return _Unit(self)

    def execute(self, command: Command) -> Receipt:
        """Run one command in its own unit of work; returns its committed receipt.

        Another writer appending to the same stream first (optimistic concurrency) is not
        the caller's problem: the unit is abandoned, the streams re-read, and the command
        decided again on the new state, a bounded number of times with jittered backoff.
        A command whose effect was fixed before it was built (a purge's scope) is not
        retried here: its service retries the whole request."""
        for attempt in range(RETRIES):
            try:
                with self.unit() as staging:
                    staged = staging.stage(command)
                return staging.receipts[0] if staging.receipts else staged
            except ConcurrentWriteError:
                if not command.RETRY or attempt == RETRIES - 1:
                    raise
                time.sleep(BACKOFF * (2 ** attempt) * (0.5 + random.random()))  # noqa: S311
        raise AssertionError("unreachable")


class _Unit:
    """:meth:`WriteService.unit` as a class: a single write enters one, and a generator's
    context manager (with two more nested in it) cost several times as much to enter and
    leave. Under the write lock, with the cyclic collector paused, until it ends."""

    __slots__ = ("_paused", "_service", "_staging", "_uow")

    def __init__(self, service: WriteService) -> None:
        self._service = service

    def __enter__(self) -> Staging:
        service = self._service
        service.lock.acquire()
        try:
            self._paused = collector_paused()
            self._paused.__enter__()
            try:
                self._uow = UnitOfWork(service.side, service.clock.tick())
                self._staging = Staging(service.side, self._uow)
            except BaseException:
                self._paused.__exit__()
                raise
        except BaseException:
            service.lock.release()
            raise
        return self._staging

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 tb: TracebackType | None) -> Literal[False]:
        try:
            self._end(error)
        finally:
            self._paused.__exit__()
            self._service.lock.release()
        return False

    def _end(self, error: BaseException | None) -> None:
        side, uow, staging = self._service.side, self._uow, self._staging
        staging.close()
        if error is not None:
            side.abandon(uow, append_failed=False)
            # staging reads keys and names too: a storage fault there is reported as one
            StorageFaults("the write").__exit__(type(error), error, None)
            return
        if not uow.staged:  # an empty unit is no commit: its time is not used up
            side.abandon(uow, append_failed=False)
            return
        try:
            positions = side.append(uow)
        except BaseException:
            side.abandon(uow, append_failed=True)
            raise
        side.publish(uow)
        staging.committed(positions)
