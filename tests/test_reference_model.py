"""Random operation sequences, run on the store and on a tiny reference model.

The model is a direct, slow transcription of SPEC §4/§5, written without the store's
code: each fact holds its value, asserted_by, valid portions and lifecycle state; every
commit records a snapshot of all facts at its transaction time. ``as_of(V, K)`` reads
the last snapshot recorded at or before ``K``, keeps the retrievable facts with a
portion containing ``V``, and drops facts whose *present* state makes them ineligible.
The store must agree on every receipt outcome, every transaction time, every error,
``current`` after every step, and ``as_of`` at random bitemporal points.
"""

from __future__ import annotations

import copy
import datetime as dt
import json
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es import ConflictError, InvalidInput, MemoryESError
from tests.fakes import FakeClock, day
from tests.strategies import (
    Advance,
    Assert,
    Correct,
    Decay,
    Forget,
    Op,
    Resolve,
    Retract,
    Supersede,
    Transact,
    op_sequences,
)

TENANT = "acme"
EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
INF = float("inf")
PRECEDENCE = {"user": 3, "third_party": 2, "inference": 1}
RETRIEVABLE = frozenset({"active", "reinforced", "stale"})
INELIGIBLE_NOW = frozenset({"forgotten", "deleted", "quarantined", "rejected", "archived"})
TERMINAL = frozenset({"forgotten", "deleted"})

Portion = tuple[int, int | None]
Row = tuple[str, str, int, int | None, str]  # fact id, JSON value, valid from, until, state


def us(when: dt.datetime) -> int:
    return (when - EPOCH) // dt.timedelta(microseconds=1)


def at(micros: int) -> dt.datetime:
    return EPOCH + dt.timedelta(microseconds=micros)


def day_us(n: int | None) -> int | None:
    return None if n is None else us(day(n))


def cut(portions: list[Portion], lo: int | None, hi: int | None) -> list[Portion]:
    """Remove ``[lo, hi)`` (None = unbounded) from each portion, keeping what lies outside."""
    out: list[Portion] = []
    for start, end in portions:
        stop = INF if end is None else end
        if lo is not None and start < lo:
            out.append((start, lo if end is None else min(end, lo)))
        if hi is not None and hi < stop:
            out.append((max(start, hi), end))
    return out


def meets(portions: list[Portion], lo: int | None, hi: int | None) -> bool:
    low = -INF if lo is None else lo
    high = INF if hi is None else hi
    return any(start < high and low < (INF if end is None else end) for start, end in portions)


def same(a: Any, b: Any) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


@dataclass
class ModelConflict:
    conflict_id: str
    fact_id: str  # the conflicted newcomer
    against: list[str]  # the facts it contradicted, in creation order
    open: bool = True


@dataclass
class ModelFact:
    fact_id: str
    entity: str
    attribute: str
    value: Any
    asserted_by: str
    portions: list[Portion]
    state: str


class Model:
    """The bitemporal rules of §4/§5, as plainly as they can be written."""

    def __init__(self) -> None:
        self.facts: dict[str, ModelFact] = {}
        self.order: list[str] = []  # creation order, for operations that name a fact
        self.conflicts: list[ModelConflict] = []
        self.history: list[tuple[int, dict[str, tuple[Any, list[Portion], str]]]] = []
        self.last = 0

    # transaction time -------------------------------------------------------------------

    def next_time(self, clock_now: int) -> int:
        return max(clock_now, self.last + 1)

    def commit(self, recorded_at: int) -> None:
        self.last = recorded_at
        self.history.append((recorded_at, {
            f.fact_id: (f.value, list(f.portions), f.state) for f in self.facts.values()}))

    # writes -----------------------------------------------------------------------------

    def pick(self, index: int) -> str | None:
        return self.order[index % len(self.order)] if self.order else None

    def pick_conflict(self, op: Resolve) -> tuple[str, str] | None:
        """(conflict id, winner) for a Resolve, or None when no conflict was ever opened."""
        if not self.conflicts:
            return None
        conflict = self.conflicts[op.conflict % len(self.conflicts)]
        return conflict.conflict_id, conflict.fact_id if op.favour_new else conflict.against[0]

    def _slot(self, entity: str, attribute: str) -> list[ModelFact]:
        return [f for f in self.facts.values()
                if f.entity == entity and f.attribute == attribute
                and f.state in RETRIEVABLE and f.portions]

    def _period(self, valid_from: int | None, valid_until: int | None,
                t: int) -> tuple[int, int | None]:
        start = t if valid_from is None else valid_from
        if valid_until is not None and valid_until <= start:
            raise InvalidInput("empty period")
        return start, valid_until

    def _new(self, fact_id: str, op: Assert | Supersede, start: int, end: int | None,
             state: str, asserted_by: str) -> None:
        assert fact_id not in self.facts, "the store reused a fact id"
        self.facts[fact_id] = ModelFact(fact_id, op.entity, op.attribute, op.value,
                                        asserted_by, [(start, end)], state)
        self.order.append(fact_id)

    def apply(self, op: Op, t: int, fact_id: str | None, new_id: Callable[[], str],
              conflict_id: Callable[[], str | None] = lambda: None) -> str:
        """Apply one operation at transaction time ``t``; returns the receipt outcome."""
        if isinstance(op, Assert):
            start, end = self._period(day_us(op.valid_from), day_us(op.valid_until), t)
            overlapping = [f for f in self._slot(op.entity, op.attribute)
                           if meets(f.portions, start, end)]
            agree = [f for f in overlapping if same(f.value, op.value)]
            contradict = [f for f in overlapping if not same(f.value, op.value)]
            if agree and not contradict:
                for f in agree:
                    f.state = "reinforced"
                return "reinforced"
            if contradict and not all(
                    PRECEDENCE[op.asserted_by] > PRECEDENCE[f.asserted_by] for f in contradict):
                fid = new_id()
                self._new(fid, op, start, end, "conflicted", op.asserted_by)
                opened = conflict_id()
                assert opened is not None, "a conflicted assertion must name its conflict"
                self.conflicts.append(ModelConflict(opened, fid, [
                    f for f in self.order if f in {c.fact_id for c in contradict}]))
                return "conflicted"
            for f in overlapping:
                f.portions = cut(f.portions, start, end)
            self._new(new_id(), op, start, end, "active", op.asserted_by)
            return "applied"
        if isinstance(op, Supersede):
            start, end = self._period(day_us(op.valid_from), day_us(op.valid_until), t)
            for f in self._slot(op.entity, op.attribute):
                f.portions = cut(f.portions, start, end)
            self._new(new_id(), op, start, end, "active", "user")
            return "applied"
        if isinstance(op, Correct | Decay):
            assert fact_id is not None
            fact = self.facts[fact_id]
            if fact.state in TERMINAL:
                raise ConflictError("terminal")
            if isinstance(op, Correct):
                fact.value = op.value
            else:
                until = t if op.valid_until is None else day_us(op.valid_until)
                fact.portions = cut(fact.portions, until, None)
            return "applied"
        if isinstance(op, Retract):
            lo, hi = day_us(op.valid_from), day_us(op.valid_until)
            if lo is not None and hi is not None and hi <= lo:
                raise InvalidInput("empty period")
            touched = [f for f in self._slot(op.entity, op.attribute) if meets(f.portions, lo, hi)]
            for f in touched:
                f.portions = cut(f.portions, lo, hi)
            return "applied" if touched else "noop"
        if isinstance(op, Resolve):
            picked = self.pick_conflict(op)
            assert picked is not None
            conflict = next(c for c in self.conflicts if c.conflict_id == picked[0])
            if not conflict.open:
                raise ConflictError("already resolved")
            newcomer = self.facts[conflict.fact_id]
            if picked[1] == conflict.fact_id:
                if newcomer.state != "conflicted":
                    raise ConflictError("no longer conflicted")
                # The newcomer takes the contradicted facts' place; facts written since
                # (not part of the dispute) keep theirs.
                won = list(newcomer.portions)
                for f in self._slot(newcomer.entity, newcomer.attribute):
                    if f.fact_id not in conflict.against:
                        for start, end in f.portions:
                            won = cut(won, start, end)
                for fid in conflict.against:
                    old = self.facts[fid]
                    if old.state in RETRIEVABLE and old.portions:
                        for start, end in won:
                            old.portions = cut(old.portions, start, end)
                newcomer.portions = won
                newcomer.state = "active"
            elif newcomer.state == "conflicted":
                newcomer.state = "rejected"
            conflict.open = False
            return "applied"
        if isinstance(op, Forget):
            touched = [f for f in self.facts.values()
                       if f.entity == op.entity and f.state not in TERMINAL]
            for f in touched:
                f.state = "forgotten"
            return "applied" if touched else "noop"
        raise AssertionError(f"not a write: {op!r}")

    # reads ------------------------------------------------------------------------------

    def _rows(self, snapshot: dict[str, tuple[Any, list[Portion], str]], valid_at: int) -> set[Row]:
        rows: set[Row] = set()
        for fid, (value, portions, state) in snapshot.items():
            if state not in RETRIEVABLE or self.facts[fid].state in INELIGIBLE_NOW:
                continue
            for start, end in portions:
                if start <= valid_at < (INF if end is None else end):
                    rows.add((fid, json.dumps(value, sort_keys=True), start, end, state))
        return rows

    def as_of(self, valid_at: int, known_at: int) -> set[Row]:
        believed = [snap for recorded_at, snap in self.history if recorded_at <= known_at]
        return self._rows(believed[-1], valid_at) if believed else set()

    def current(self, now: int) -> set[Row]:
        return self._rows(self.history[-1][1], now) if self.history else set()


def rows(facts: list[memory_es.Fact]) -> set[Row]:
    slots = [(f.entity, f.attribute) for f in facts]
    assert len(slots) == len(set(slots)), "two values of a cardinality-one slot at once"
    out: set[Row] = set()
    for f in facts:
        until = None if f.valid_until is None else us(f.valid_until)
        out.add((f.fact_id, json.dumps(f.value, sort_keys=True), us(f.valid_from), until, f.state))
    assert len(out) == len(facts), "a read returned the same version twice"
    return out


class Run:
    """Drives one store and one model through the same operations."""

    def __init__(self, folder: Path) -> None:
        self.clock = FakeClock(day(10) + dt.timedelta(hours=9))
        self.store = memory_es.open(folder, clock=self.clock)
        self.model = Model()

    def now(self) -> int:
        return us(self.clock())

    def call(self, target: memory_es.MemoryStore | memory_es.Transaction, op: Op,
             fact_id: str | None) -> memory_es.Receipt:
        def when(n: int | None) -> dt.datetime | None:
            return None if n is None else day(n)

        if isinstance(op, Assert):
            return target.assert_fact(TENANT, op.entity, op.attribute, op.value,
                                      valid_from=when(op.valid_from),
                                      valid_until=when(op.valid_until),
                                      asserted_by=op.asserted_by)
        if isinstance(op, Supersede):
            return target.supersede(TENANT, op.entity, op.attribute, op.value,
                                    valid_from=when(op.valid_from),
                                    valid_until=when(op.valid_until))
        if isinstance(op, Correct):
            assert fact_id is not None
            return target.correct(fact_id, op.value)
        if isinstance(op, Decay):
            assert fact_id is not None
            return target.decay(fact_id, valid_until=when(op.valid_until))
        if isinstance(op, Retract):
            return target.retract(TENANT, op.entity, op.attribute,
                                  valid_from=when(op.valid_from),
                                  valid_until=when(op.valid_until))
        if isinstance(op, Forget):
            return target.forget_entity(TENANT, op.entity)
        if isinstance(op, Resolve):
            assert fact_id is not None
            conflict, winner = fact_id.split("|")
            return target.resolve_conflict(conflict, winner)
        raise AssertionError(f"not a write: {op!r}")

    def step(self, target: memory_es.MemoryStore | memory_es.Transaction, staged: Model, op: Op,
             t: int) -> memory_es.Receipt | None:
        """One write on ``target`` (store or transaction) and on ``staged``; both must agree."""
        fact_id = staged.pick(op.fact) if isinstance(op, Correct | Decay) else None
        if isinstance(op, Resolve):
            picked = staged.pick_conflict(op)
            fact_id = None if picked is None else "|".join(picked)
        if isinstance(op, Correct | Decay | Resolve) and fact_id is None:
            return None  # nothing written yet to name
        try:
            receipt = self.call(target, op, fact_id)
        except MemoryESError as err:
            event(f"{type(op).__name__} -> {type(err).__name__}")
            with pytest.raises(type(err)):
                staged.apply(op, t, fact_id, lambda: "unused")
            raise
        event(f"{type(op).__name__} -> {receipt.outcome}")
        outcome = staged.apply(op, t, fact_id, lambda: str(receipt.fact_id),
                               lambda: receipt.conflict_id)
        assert receipt.outcome == outcome, (op, receipt)
        assert receipt.recorded_at == at(t), "transaction time is max(clock, previous + 1 µs)"
        return receipt

    def run(self, op: Op) -> None:
        if isinstance(op, Advance):
            self.clock.advance(minutes=op.minutes)
            return
        t = self.model.next_time(self.now())
        before = self.store.log_position()
        staged = copy.deepcopy(self.model)
        try:
            if isinstance(op, Transact):
                with self.store.transact() as tx:
                    written = [self.step(tx, staged, inner, t) for inner in op.ops]
                assert {r.recorded_at for r in tx.receipts} <= {at(t)}
                if not any(written):  # every operation named a fact when there was none
                    assert self.store.log_position() == before
                    return
            elif self.step(self.store, staged, op, t) is None:
                return
        except (InvalidInput, ConflictError):
            assert self.store.log_position() == before, "a refused write appended events"
            return
        assert self.store.log_position() > before
        staged.commit(t)
        self.model = staged

    def read_time(self) -> int:
        """Reads happen at the clock's time, never before the last commit (read-your-writes
        with a clock that stands still)."""
        return max(self.now(), self.model.last)

    def slices(self, expected: set[Row]) -> Iterator[tuple[str, str | None, set[Row]]]:
        """(entity, attribute or None, expected rows) for each entity and slot the model
        knows: reads of one entity take their own route through the views (the index)."""
        facts = self.model.facts
        for entity in sorted({f.entity for f in facts.values()}):
            mine = {r for r in expected if facts[r[0]].entity == entity}
            yield entity, None, mine
            for attribute in sorted({f.attribute for f in facts.values()
                                     if f.entity == entity}):
                yield entity, attribute, {r for r in mine if facts[r[0]].attribute == attribute}

    def check_current(self) -> None:
        expected = self.model.current(self.read_time())
        assert rows(self.store.current(TENANT)) == expected
        for entity, attribute, want in self.slices(expected):
            assert rows(self.store.current(TENANT, entity, attribute)) == want, (entity,
                                                                                  attribute)

    def check_as_of(self, valid_at: int, known_at: int) -> None:
        v, k = at(valid_at), at(known_at)
        expected = self.model.as_of(valid_at, known_at)
        assert rows(self.store.as_of(TENANT, valid_at=v, known_at=k)) == expected, (v, k)
        for entity, attribute, want in self.slices(expected):
            got = self.store.as_of(TENANT, valid_at=v, known_at=k, entity=entity,
                                   attribute=attribute)
            assert rows(got) == want, (v, k, entity, attribute)
            assert got == sorted(got, key=lambda f: (f.attribute, f.valid_from, f.fact_id))

    def probe_points(self) -> tuple[list[int], list[int]]:
        """Valid and transaction times worth probing: the grid, commit times, their edges."""
        commits = [t for t, _ in self.model.history]
        known = sorted({k for t in commits for k in (t - 1, t, t + 1)} | {self.now()})
        valid = sorted({us(day(n)) for n in range(-1, 33)} | {v for t in commits
                                                             for v in (t - 1, t)})
        return valid, known


def check_sequence(ops: list[Op], data: st.DataObject, probes: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        run = Run(Path(folder))
        try:
            for op in ops:
                run.run(op)
                run.check_current()
            valid, known = run.probe_points()
            points = st.tuples(st.sampled_from(valid), st.sampled_from(known))
            for _ in range(probes):
                run.check_as_of(*data.draw(points))
            run.check_as_of(run.read_time(), run.read_time())
            run.store.rebuild()
            for _ in range(3):
                run.check_as_of(*data.draw(points))
            run.check_current()
        finally:
            run.store.close()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=op_sequences(max_size=12), data=st.data())
def test_store_agrees_with_the_reference_model(ops: list[Op], data: st.DataObject) -> None:
    """Receipts, errors, current and as-of at random (valid_at, known_at) points match the
    reference model after any sequence of writes, clock moves and transactions."""
    check_sequence(ops, data, probes=10)


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=op_sequences(max_size=30), data=st.data())
def test_store_agrees_with_the_reference_model_on_long_histories(
    ops: list[Op], data: st.DataObject,
) -> None:
    """The same agreement over longer histories and many more examples."""
    check_sequence(ops, data, probes=25)
