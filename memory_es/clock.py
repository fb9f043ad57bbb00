"""The only place that reads the wall clock.

Transaction time is integer microseconds since the Unix epoch (UTC). It must be
strictly increasing within a store (SPEC §4), so a clock that stands still or steps
back still yields distinct, ordered commit times.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import UTC, datetime

from memory_es.errors import InvalidInput

ClockFn = Callable[[], datetime]
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def system_clock() -> datetime:
    """Wall-clock time, timezone-aware UTC."""
    return datetime.now(UTC)


def to_micros(value: datetime, field: str = "timestamp") -> int:
    """Convert an aware datetime to UTC microseconds; naive datetimes are rejected."""
    if not isinstance(value, datetime):
        raise InvalidInput(f"{field} must be a datetime, got {type(value).__name__}")
    if value.tzinfo is None or value.utcoffset() is None:
        raise InvalidInput(f"{field} must be timezone-aware (naive datetimes are ambiguous)")
    delta = value - EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def from_micros(value: int) -> datetime:
    """UTC microseconds back to an aware datetime."""
    return datetime.fromtimestamp(value // 1_000_000, UTC).replace(microsecond=value % 1_000_000)


def optional_micros(value: datetime | None, field: str) -> int | None:
    return None if value is None else to_micros(value, field)


def optional_datetime(value: int | None) -> datetime | None:
    return None if value is None else from_micros(value)


class TransactionClock:
    """Hands out strictly increasing transaction times: ``max(clock(), previous + 1 µs)``."""

    def __init__(self, clock: ClockFn | None = None, last: int = 0) -> None:
        self._clock = clock or system_clock
        self._last = last
        self._prev = last
        self._lock = threading.Lock()

    def now(self) -> int:
        """The present time for reads ("current" is evaluated when read).

        Never before the last commit: with a clock that stands still or stepped back,
        a read right after a write still sees it (read-your-writes).
        """
        return max(self._read(), self._last)

    def _read(self) -> int:
        return to_micros(self._clock(), "clock()")

    def tick(self) -> int:
        """The next transaction time."""
        with self._lock:
            self._prev = self._last
            self._last = max(self._read(), self._last + 1)
            return self._last

    def release(self, handed_out: int) -> None:
        """Take back a time from :meth:`tick` whose unit of work wrote nothing, so the
        next commit still gets ``max(clock(), previous commit + 1 µs)``."""
        with self._lock:
            if self._last == handed_out:
                self._last = self._prev

    def observe(self, recorded_at: int) -> None:
        """Never hand out a time at or before one already in the log."""
        with self._lock:
            self._last = max(self._last, recorded_at)
