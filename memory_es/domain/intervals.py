"""Half-open valid-time intervals ``[start, end)`` in UTC microseconds; ``end=None`` is open.

These are the SQL:2011 ``FOR PORTION OF`` rules as pure functions: a fact's present
belief is a sorted list of disjoint portions, and a period removed from it leaves the
portions outside the period (trim left, trim right, split in the middle, or nothing).
"""

from __future__ import annotations

from typing import NamedTuple

INF = 2**63 - 1


class Interval(NamedTuple):
    start: int
    end: int | None  # None: open-ended

    @property
    def stop(self) -> int:
        return INF if self.end is None else self.end


def overlaps(a: Interval, b_start: int | None, b_end: int | None) -> bool:
    """Whether ``a`` meets the period ``[b_start, b_end)`` (None bounds are infinite)."""
    lo = -INF if b_start is None else b_start
    hi = INF if b_end is None else b_end
    return a.start < hi and lo < a.stop


def contains(a: Interval, at: int) -> bool:
    return a.start <= at < a.stop


def subtract(portions: list[Interval], start: int | None, end: int | None) -> list[Interval]:
    """The portions left after removing ``[start, end)`` from each."""
    lo = -INF if start is None else start
    hi = INF if end is None else end
    left: list[Interval] = []
    for p in portions:
        if p.stop <= lo or hi <= p.start:
            left.append(p)
            continue
        if p.start < lo:
            left.append(Interval(p.start, lo))
        if hi < p.stop:
            left.append(Interval(hi, p.end))
    return left


def clip_end(portions: list[Interval], until: int) -> list[Interval]:
    """The portions cut off at ``until`` (decay: the fact stops being valid then)."""
    return subtract(portions, until, None)
