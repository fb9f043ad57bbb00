"""Random writes of facts and denials into one slot, run on the store and on a model.

The model is a direct transcription of the slot rules for denials, written without
the store's code. Each fact of the slot holds its value, its polarity, who asserted it,
its valid portions (whole days) and its state. A new fact relates to each live fact
whose portions meet its period:

- same value, same polarity: the statement again (reinforced, nothing new) unless
  something else below applies;
- two positive facts of different values: rivals; the new one must outrank every rival
  (user > third_party > inference), else it is written ``conflicted`` and ends nothing;
- same value, opposite polarity: the new one ends the old over its period;
- anything else (a denial and another value; two denials): both stand.

``supersede`` (positive) ends every positive fact and the denials of its value over its
period, whoever asserted them. After every write the store must give the model's
outcome, and the same (value, polarity) pairs at every valid day and now.
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from tests.fakes import FakeClock, day

T = "acme"
SLOT = "home.city"
RANK = {"user": 3, "third_party": 2, "inference": 1}
LIVE = {"active", "reinforced"}
DAYS = 8
_entities = itertools.count()

Portion = tuple[int, int | None]


@dataclass
class Write:
    value: str
    negated: bool
    by: str
    start: int
    end: int | None
    supersede: bool = False


@dataclass
class ModelFact:
    value: str
    negated: bool
    by: str
    portions: list[Portion]
    state: str = "active"


def meets(portions: list[Portion], start: int, end: int | None) -> bool:
    return any((e is None or start < e) and (end is None or s < end) for s, e in portions)


def without(portions: list[Portion], start: int, end: int | None) -> list[Portion]:
    """The portions less ``[start, end)``."""
    kept: list[Portion] = []
    for s, e in portions:
        if s < start:
            kept.append((s, start if e is None else min(e, start)))
        if end is not None and (e is None or end < e):
            kept.append((max(s, end), e))
    return [(s, e) for s, e in kept if e is None or s < e]


@dataclass
class Model:
    facts: list[ModelFact] = field(default_factory=list)

    def write(self, w: Write) -> str:
        live = [f for f in self.facts if f.state in LIVE and meets(f.portions, w.start, w.end)]
        same = [f for f in live if f.value == w.value and f.negated == w.negated]
        contradicted = [f for f in live if f.value == w.value and f.negated != w.negated]
        if w.supersede:
            ended = [f for f in live if not f.negated or f.value == w.value]
            return self._add(w, ended, "applied")
        rivals = [f for f in live if not f.negated and not w.negated and f.value != w.value]
        if same and not rivals and not contradicted:
            for f in same:
                f.state = "reinforced"
            return "reinforced"
        if all(RANK[w.by] > RANK[f.by] for f in rivals):
            return self._add(w, [*same, *rivals, *contradicted], "applied")
        self.facts.append(ModelFact(w.value, w.negated, w.by, [(w.start, w.end)], "conflicted"))
        return "conflicted"

    def _add(self, w: Write, ended: list[ModelFact], outcome: str) -> str:
        for f in ended:
            f.portions = without(f.portions, w.start, w.end)
        self.facts.append(ModelFact(w.value, w.negated, w.by, [(w.start, w.end)]))
        return outcome

    def at(self, n: int | None) -> set[tuple[str, bool]]:
        """(value, negated) of the facts believed at day ``n`` (None: now, after them all)."""
        return {(f.value, f.negated) for f in self.facts if f.state in LIVE and any(
            (n is None and e is None) or (n is not None and s <= n and (e is None or n < e))
            for s, e in f.portions)}


writes = st.builds(
    lambda value, negated, by, start, length, supersede: Write(
        value, negated and not supersede, by, start, None if length == 0 else start + length,
        supersede),
    st.sampled_from(["Oslo", "Bergen"]), st.booleans(), st.sampled_from(sorted(RANK)),
    st.integers(0, DAYS - 1), st.integers(0, 3), st.booleans() | st.just(False))


def observed(store: memory_es.MemoryStore, entity: str, n: int | None
             ) -> set[tuple[str, bool]]:
    if n is None:
        facts = store.current(T, entity=entity, attribute=SLOT)
    else:
        facts = store.as_of(T, entity=entity, attribute=SLOT,
                            valid_at=day(n) + dt.timedelta(hours=12))
    return {(f.value, f.negated) for f in facts}


@pytest.fixture(scope="module")
def slot_store(tmp_path_factory: pytest.TempPathFactory
               ) -> Iterator[tuple[memory_es.MemoryStore, FakeClock]]:
    """One store for every example (each writes its own entity): opening one per example
    would cost more than the example."""
    clock = FakeClock()
    folder: Path = tmp_path_factory.mktemp("denials")
    store = memory_es.open(folder, clock=clock)
    try:
        yield store, clock
    finally:
        store.close()


@settings(max_examples=60, deadline=None, suppress_health_check=[
    HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(history=st.lists(writes, min_size=1, max_size=7))
def test_the_slot_follows_the_denial_rules(
        slot_store: tuple[memory_es.MemoryStore, FakeClock], history: list[Write]) -> None:
    """Outcomes and beliefs at every valid day equal the model's after every write."""
    store, clock = slot_store
    entity = f"user:e{next(_entities)}"
    model = Model()
    for w in history:
        clock.advance(seconds=1)
        start, end = day(w.start), None if w.end is None else day(w.end)
        if w.supersede:
            store.supersede(T, entity, SLOT, w.value, asserted_by=w.by, valid_from=start,
                            valid_until=end)
            outcome = "applied"
        else:
            outcome = store.assert_fact(T, entity, SLOT, w.value, negated=w.negated,
                                        asserted_by=w.by, valid_from=start,
                                        valid_until=end).outcome
        assert outcome == model.write(w), w
        for n in [*range(DAYS + 3), None]:
            assert observed(store, entity, n) == model.at(n), (w, n)
