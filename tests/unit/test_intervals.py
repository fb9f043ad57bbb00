"""The SQL:2011 FOR PORTION OF rules as pure interval functions."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from memory_es.domain.intervals import INF, Interval, clip_end, contains, overlaps, subtract
from tests.strategies import bounds, disjoint_portions, intervals, periods


def _portions(pairs: list[tuple[int, int | None]]) -> list[Interval]:
    return [Interval(s, e) for s, e in pairs]


def _covers(portions: list[Interval], at: int) -> bool:
    return any(contains(p, at) for p in portions)


def test_trim_left_keeps_the_part_after_the_period() -> None:
    """Removing the head of an interval leaves its tail."""
    assert subtract([Interval(0, 10)], 0, 4) == [Interval(4, 10)]
    assert subtract([Interval(0, 10)], None, 4) == [Interval(4, 10)]


def test_trim_right_keeps_the_part_before_the_period() -> None:
    """Removing the end of an interval (or everything after a point) leaves its head."""
    assert subtract([Interval(0, 10)], 6, 10) == [Interval(0, 6)]
    assert subtract([Interval(0, None)], 6, None) == [Interval(0, 6)]


def test_split_in_the_middle_leaves_two_portions() -> None:
    """Removing a period strictly inside an interval splits it in two."""
    assert subtract([Interval(0, 10)], 3, 6) == [Interval(0, 3), Interval(6, 10)]
    assert subtract([Interval(0, None)], 3, 6) == [Interval(0, 3), Interval(6, None)]


def test_whole_removal_leaves_nothing() -> None:
    """A period covering the interval (or all of time) withdraws it entirely."""
    assert subtract([Interval(2, 5)], 0, 10) == []
    assert subtract([Interval(2, 5)], 2, 5) == []
    assert subtract([Interval(2, None)], None, None) == []
    assert subtract([Interval(2, None)], 1, None) == []


def test_periods_that_only_touch_remove_nothing() -> None:
    """Half-open intervals that meet at an end point do not overlap."""
    assert subtract([Interval(0, 5)], 5, 8) == [Interval(0, 5)]
    assert subtract([Interval(5, 8)], 0, 5) == [Interval(5, 8)]
    assert not overlaps(Interval(0, 5), 5, 8)
    assert not overlaps(Interval(5, 8), 0, 5)


def test_open_interval_reaches_infinity() -> None:
    """An open end behaves as +infinity for containment and overlap."""
    open_fact = Interval(10, None)
    assert open_fact.stop == INF
    assert contains(open_fact, 10**15)
    assert not contains(open_fact, 9)
    assert overlaps(open_fact, 10**15, None)


def test_clip_end_closes_validity_at_a_point() -> None:
    """Decay cuts every portion at ``until`` and drops portions starting after it."""
    portions = [Interval(0, 3), Interval(5, None)]
    assert clip_end(portions, 7) == [Interval(0, 3), Interval(5, 7)]
    assert clip_end(portions, 4) == [Interval(0, 3)]
    assert clip_end(portions, 0) == []


@given(disjoint_portions(), periods(), st.lists(bounds, max_size=20))
def test_subtract_removes_exactly_the_period(
    pairs: list[tuple[int, int | None]], period: tuple[int | None, int | None], probes: list[int],
) -> None:
    """A point is covered after subtraction iff it was covered before and lies outside
    the removed period."""
    lo, hi = period
    portions = _portions(pairs)
    left = subtract(portions, lo, hi)
    edges = {p for s, e in pairs for p in (s, e) if p is not None} | {
        b for b in (lo, hi) if b is not None}
    points = set(probes) | edges | {x - 1 for x in edges} | {x + 1 for x in edges}
    for x in points:
        in_period = (lo is None or lo <= x) and (hi is None or x < hi)
        assert _covers(left, x) == (_covers(portions, x) and not in_period)


@given(disjoint_portions(), periods())
def test_subtract_keeps_portions_sorted_disjoint_and_non_empty(
    pairs: list[tuple[int, int | None]], period: tuple[int | None, int | None],
) -> None:
    """What is left is still a sorted list of disjoint, non-empty portions."""
    lo, hi = period
    left = subtract(_portions(pairs), lo, hi)
    for p in left:
        assert p.start < p.stop
    for a, b in itertools.pairwise(left):
        assert a.stop <= b.start


@given(disjoint_portions(), periods())
def test_subtract_is_idempotent(
    pairs: list[tuple[int, int | None]], period: tuple[int | None, int | None],
) -> None:
    """Removing the same period twice is the same as removing it once."""
    lo, hi = period
    once = subtract(_portions(pairs), lo, hi)
    assert subtract(once, lo, hi) == once


@given(intervals(), periods())
def test_overlap_agrees_with_subtraction(
    pair: tuple[int, int | None], period: tuple[int | None, int | None],
) -> None:
    """An interval overlaps a period exactly when subtracting the period changes it."""
    lo, hi = period
    interval = Interval(*pair)
    assert overlaps(interval, lo, hi) == (subtract([interval], lo, hi) != [interval])
