"""Write-time control (§5): pure decisions over one entity's state."""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest

from memory_es.domain import control
from memory_es.domain.control import AttributeDef, NewFact
from memory_es.domain.entity import EntityState
from memory_es.domain.events import (
    ConflictOpened,
    DomainEvent,
    EntityForgotten,
    FactAsserted,
    FactCorrected,
    FactDecayed,
    FactReinforced,
    FactRetracted,
    FactSuperseded,
)
from memory_es.domain.intervals import Interval
from memory_es.errors import ConflictError, InvalidInput, MemoryESError, NotFound
from memory_es.ids import fact_id as make_fact_id

STREAM = "0190c1d2-3e4f-7000-8000-00000000a1e5"
D = 86_400_000_000  # one day in µs
NOW = 200 * D
ONE = AttributeDef()
MANY = AttributeDef(cardinality="many")


class Entity:
    """One entity's state, driven through the pure ``decide_*`` functions."""

    def __init__(self) -> None:
        self.state = EntityState(STREAM)
        self._ids = itertools.count(1)

    def apply(self, events: list[DomainEvent]) -> list[DomainEvent]:
        for event in events:
            self.state.apply(event.TOPIC, json.loads(event.model_dump_json()))
        return events

    def next_id(self) -> str:
        return make_fact_id(STREAM, self.state.next_seq)

    def _ids_factory(self) -> str:
        return f"id-{next(self._ids)}"

    def assert_(self, new: NewFact, attr: AttributeDef = ONE) -> list[DomainEvent]:
        return self.apply(control.decide_assert(
            self.state, new, attr, now=NOW, fact_id=self.next_id(),
            new_chain=self._ids_factory, new_conflict=self._ids_factory))

    def supersede(self, new: NewFact, attr: AttributeDef = ONE) -> list[DomainEvent]:
        return self.apply(control.decide_supersede(
            self.state, new, attr, fact_id=self.next_id(), new_chain=self._ids_factory))

    def fact(self, fact_id: str) -> Any:
        fact = self.state.get(fact_id)
        assert fact is not None
        return fact

    def retrievable_values(self, attribute: str = "home.city") -> list[Any]:
        return sorted(
            (f.content["value"] for f in self.state.slot(attribute)), key=json.dumps)


def fact(value: Any, start: int = 0, end: int | None = None, *, asserted_by: str = "user",
         attribute: str = "home.city", entity: str | None = "user:alex",
         mention: str | None = None) -> NewFact:
    return NewFact(tenant="acme", entity=entity, attribute=attribute, value=value,
                   valid_from=start, valid_until=end, asserted_by=asserted_by, mention=mention)


def new_fact_id(events: list[DomainEvent]) -> str:
    created = [c for e in events for c in e.changes if c.content is not None]
    assert len(created) == 1
    return created[0].fact_id


@pytest.fixture
def alex() -> Entity:
    """An entity with no facts yet."""
    return Entity()


def test_first_assertion_creates_an_active_fact(alex: Entity) -> None:
    """Asserting into an empty slot writes one active fact over the given period."""
    events = alex.assert_(fact("Detroit", D, 9 * D))
    assert [type(e) for e in events] == [FactAsserted]
    fid = new_fact_id(events)
    assert alex.fact(fid).state == "active"
    assert alex.fact(fid).portions == [Interval(D, 9 * D)]


def test_same_value_reinforces_without_a_new_fact(alex: Entity) -> None:
    """The same value again updates verified_at and state, and creates no fact."""
    fid = new_fact_id(alex.assert_(fact("Detroit")))
    events = alex.assert_(fact("Detroit", 5 * D))
    assert [type(e) for e in events] == [FactReinforced]
    assert len(alex.state.facts) == 1
    assert alex.fact(fid).state == "reinforced"
    assert alex.fact(fid).verified_at == NOW
    assert alex.fact(fid).portions == [Interval(0, None)]


def test_json_equality_decides_sameness(alex: Entity) -> None:
    """1 and True are different values; key order of objects does not matter."""
    assert control.same_value({"a": 1, "b": 2}, {"b": 2, "a": 1})
    assert not control.same_value(1, True)
    alex.assert_(fact(1, asserted_by="third_party"))
    events = alex.assert_(fact(True, asserted_by="third_party"))
    assert any(isinstance(e, ConflictOpened) for e in events)


@pytest.mark.parametrize(("old", "new"), [
    ("inference", "third_party"), ("inference", "user"), ("third_party", "user"),
])
def test_strictly_higher_precedence_supersedes_with_a_reason(
    alex: Entity, old: str, new: str,
) -> None:
    """user > third_party > inference: an outranking assertion trims the old fact."""
    old_id = new_fact_id(alex.assert_(fact("Detroit", 0, asserted_by=old)))
    events = alex.assert_(fact("Chicago", 10 * D, asserted_by=new))
    assert [type(e) for e in events] == [FactAsserted]
    assert events[0].reason is not None and "outranks" in events[0].reason
    new_id = new_fact_id(events)
    assert alex.fact(new_id).state == "active"
    assert alex.fact(new_id).content["supersedes"] == [old_id]
    assert alex.fact(old_id).portions == [Interval(0, 10 * D)]
    assert alex.fact(old_id).superseded_by == new_id
    assert not alex.state.conflicts


@pytest.mark.parametrize(("old", "new"), [
    ("user", "user"), ("third_party", "third_party"), ("inference", "inference"),
    ("user", "third_party"), ("user", "inference"), ("third_party", "inference"),
])
def test_equal_or_lower_precedence_opens_a_conflict(alex: Entity, old: str, new: str) -> None:
    """Equal precedence is a conflict, not an overwrite; so is a lower one."""
    old_id = new_fact_id(alex.assert_(fact("Detroit", 0, asserted_by=old)))
    events = alex.assert_(fact("Chicago", 10 * D, asserted_by=new))
    assert [type(e) for e in events] == [FactAsserted, ConflictOpened]
    new_id = new_fact_id(events)
    opened = events[1]
    assert isinstance(opened, ConflictOpened)
    assert opened.fact_id == new_id and opened.against == (old_id,)
    assert alex.fact(new_id).state == "conflicted"
    assert alex.fact(old_id).state == "active"
    assert alex.fact(old_id).portions == [Interval(0, None)]
    assert alex.state.conflicts[opened.conflict_id].open
    assert alex.retrievable_values() == ["Detroit"]


def test_outranking_must_beat_every_contradicting_fact(alex: Entity) -> None:
    """third_party outranks an inference but not a user fact in the same period."""
    alex.assert_(fact("Detroit", 0, 10 * D, asserted_by="inference"))
    alex.assert_(fact("Oslo", 10 * D, 20 * D, asserted_by="user"))
    events = alex.assert_(fact("Chicago", 5 * D, 15 * D, asserted_by="third_party"))
    assert any(isinstance(e, ConflictOpened) for e in events)
    assert alex.retrievable_values() == ["Detroit", "Oslo"]


def test_retroactive_assertion_into_an_empty_period_is_not_a_conflict(alex: Entity) -> None:
    """A value for a period before the first known one is simply a new fact."""
    later = new_fact_id(alex.assert_(fact("Chicago", 100 * D)))
    events = alex.assert_(fact("Detroit", 10 * D, 100 * D))
    assert [type(e) for e in events] == [FactAsserted]
    earlier = new_fact_id(events)
    assert alex.fact(earlier).state == "active"
    assert alex.fact(later).portions == [Interval(100 * D, None)]
    assert not alex.state.conflicts


def test_retroactive_assertion_that_overlaps_is_a_conflict(alex: Entity) -> None:
    """A retroactive period reaching into a known value's period is ambiguous."""
    alex.assert_(fact("Chicago", 100 * D))
    events = alex.assert_(fact("Detroit", 10 * D, 101 * D))
    assert any(isinstance(e, ConflictOpened) for e in events)


def test_cardinality_many_keeps_every_value(alex: Entity) -> None:
    """On a cardinality-many attribute, different values coexist without conflict."""
    alex.assert_(fact("python", attribute="skill.language"), MANY)
    events = alex.assert_(fact("rust", attribute="skill.language"), MANY)
    assert [type(e) for e in events] == [FactAsserted]
    assert alex.retrievable_values("skill.language") == ["python", "rust"]


def test_unresolved_mention_never_takes_part_in_supersession(alex: Entity) -> None:
    """An unresolved mention is stored as a new fact and is never a slot member."""
    resolved = new_fact_id(alex.assert_(fact("Detroit")))
    events = alex.assert_(fact("Oslo", entity=None, mention="Dana"))
    assert [type(e) for e in events] == [FactAsserted]
    mention_id = new_fact_id(events)
    assert alex.fact(resolved).portions == [Interval(0, None)]
    assert alex.fact(resolved).superseded_by is None
    assert mention_id not in {f.fact_id for f in alex.state.slot("home.city")}
    again = alex.assert_(fact("Chicago", entity=None, mention="Dana"))
    assert [type(e) for e in again] == [FactAsserted]
    assert alex.fact(mention_id).portions == [Interval(0, None)]


def test_unresolved_mention_cannot_supersede(alex: Entity) -> None:
    """Superseding needs a resolved entity."""
    with pytest.raises(InvalidInput):
        alex.supersede(fact("Oslo", entity=None, mention="Dana"))


def test_supersede_trims_left_right_and_splits(alex: Entity) -> None:
    """UPDATE FOR PORTION OF keeps each overlapping fact's portions outside the period."""
    whole = new_fact_id(alex.assert_(fact("Detroit", 0, 30 * D)))
    events = alex.supersede(fact("Chicago", 10 * D, 20 * D))
    assert [type(e) for e in events] == [FactSuperseded]
    middle = new_fact_id(events)
    assert alex.fact(whole).portions == [Interval(0, 10 * D), Interval(20 * D, 30 * D)]
    assert alex.fact(whole).superseded_by == middle
    alex.supersede(fact("Oslo", 15 * D, 25 * D))
    assert alex.fact(middle).portions == [Interval(10 * D, 15 * D)]
    assert alex.fact(whole).portions == [Interval(0, 10 * D), Interval(25 * D, 30 * D)]


def test_supersede_withdraws_a_prior_wholly_inside_the_period(alex: Entity) -> None:
    """A prior inside the period keeps no portion and leaves the slot."""
    inside = new_fact_id(alex.assert_(fact("Detroit", 10 * D, 20 * D)))
    alex.supersede(fact("Chicago", 0))
    assert alex.fact(inside).portions == []
    assert alex.retrievable_values() == ["Chicago"]


def test_correct_keeps_the_interval_and_changes_the_value(alex: Entity) -> None:
    """A correction is the same fact over the same portions with a new value."""
    fid = new_fact_id(alex.assert_(fact("Detriot", 0, 30 * D)))
    events = alex.apply(control.decide_correct(alex.state, fid, "Detroit", None, "typo"))
    assert [type(e) for e in events] == [FactCorrected]
    assert alex.fact(fid).content["value"] == "Detroit"
    assert alex.fact(fid).portions == [Interval(0, 30 * D)]
    assert alex.fact(fid).state == "active"


def test_decay_clips_valid_until_and_keeps_state(alex: Entity) -> None:
    """Release closes validity at the given time; the lifecycle state is unchanged."""
    fid = new_fact_id(alex.assert_(fact("Detroit", 0)))
    events = alex.apply(control.decide_decay(alex.state, fid, 40 * D, None))
    assert [type(e) for e in events] == [FactDecayed]
    assert alex.fact(fid).portions == [Interval(0, 40 * D)]
    assert alex.fact(fid).state == "active"


def test_retract_removes_the_period_from_every_overlapping_fact(alex: Entity) -> None:
    """DELETE FOR PORTION OF: the period reads empty, the rest is untouched."""
    first = new_fact_id(alex.assert_(fact("Detroit", 0, 10 * D)))
    second = new_fact_id(alex.assert_(fact("Chicago", 10 * D)))
    events = alex.apply(control.decide_retract(alex.state, "acme", "home.city", 5 * D, 15 * D,
                                               None))
    assert [type(e) for e in events] == [FactRetracted]
    assert alex.fact(first).portions == [Interval(0, 5 * D)]
    assert alex.fact(second).portions == [Interval(15 * D, None)]
    alex.apply(control.decide_retract(alex.state, "acme", "home.city", None, None, None))
    assert alex.state.slot("home.city") == []


def test_forget_entity_makes_every_fact_forgotten(alex: Entity) -> None:
    """Amnesia reaches every fact of the entity, conflicted ones included."""
    alex.assert_(fact("Detroit"))
    alex.assert_(fact("Chicago", 5 * D, asserted_by="inference"))
    alex.assert_(fact("python", attribute="skill.language"))
    events = alex.apply(control.decide_forget_entity(alex.state, "acme", "user:alex", None))
    assert [type(e) for e in events] == [EntityForgotten]
    assert {f.state for f in alex.state.facts.values()} == {"forgotten"}
    assert alex.state.slot("home.city") == []


@pytest.mark.parametrize("operation", ["correct", "decay"])
def test_terminal_facts_refuse_further_changes(alex: Entity, operation: str) -> None:
    """A forgotten fact cannot be corrected or decayed (ConflictError)."""
    fid = new_fact_id(alex.assert_(fact("Detroit")))
    alex.apply(control.decide_forget_entity(alex.state, "acme", "user:alex", None))
    with pytest.raises(ConflictError):
        if operation == "correct":
            control.decide_correct(alex.state, fid, "Chicago", None, None)
        else:
            control.decide_decay(alex.state, fid, NOW, None)


def test_unknown_fact_is_not_found(alex: Entity) -> None:
    """Deciding on a fact id the entity does not hold raises NotFound."""
    with pytest.raises(NotFound) as info:
        control.decide_correct(alex.state, make_fact_id(STREAM, 99), "x", None, None)
    assert isinstance(info.value, MemoryESError)


def test_resolving_a_conflict_for_the_newcomer_supersedes_the_old_value(alex: Entity) -> None:
    """resolve_conflict in favour of the new fact trims the old one and activates the new."""
    old = new_fact_id(alex.assert_(fact("Detroit", 0)))
    events = alex.assert_(fact("Chicago", 10 * D))
    new = new_fact_id(events)
    conflict = next(e for e in events if isinstance(e, ConflictOpened)).conflict_id
    alex.apply(control.decide_resolve(alex.state, conflict, new, None))
    assert alex.fact(new).state == "active"
    assert alex.fact(old).portions == [Interval(0, 10 * D)]
    assert not alex.state.conflicts[conflict].open
    with pytest.raises(ConflictError):
        control.decide_resolve(alex.state, conflict, new, None)


def test_resolving_a_conflict_for_the_incumbent_rejects_the_newcomer(alex: Entity) -> None:
    """resolve_conflict in favour of the old fact rejects the new one."""
    old = new_fact_id(alex.assert_(fact("Detroit", 0)))
    events = alex.assert_(fact("Chicago", 10 * D))
    new = new_fact_id(events)
    conflict = next(e for e in events if isinstance(e, ConflictOpened)).conflict_id
    alex.apply(control.decide_resolve(alex.state, conflict, old, None))
    assert alex.fact(new).state == "rejected"
    assert alex.fact(old).portions == [Interval(0, None)]


def test_changed_premises_lists_dependents_of_changed_facts(alex: Entity) -> None:
    """A change to a fact with dependents names each (premise, dependent) pair."""
    premise = new_fact_id(alex.assert_(fact("Detroit")))
    alex.fact(premise).dependents = frozenset({"f-dependent-1"})
    events = control.decide_supersede(alex.state, fact("Chicago", 10 * D), ONE,
                                      fact_id=alex.next_id(), new_chain=lambda: "c")
    assert control.changed_premises(events, alex.state) == [(premise, "f-dependent-1")]
    reinforced = control.decide_assert(alex.state, fact("Detroit"), ONE, now=NOW,
                                       fact_id=alex.next_id(), new_chain=lambda: "c",
                                       new_conflict=lambda: "k")
    assert control.changed_premises(reinforced, alex.state) == []


def test_resolving_for_the_newcomer_keeps_later_supersessions(alex: Entity) -> None:
    """A fact superseded into part of the disputed period after the conflict opened keeps
    that part: the slot never holds two present values at one valid time."""
    old = new_fact_id(alex.assert_(fact("Detroit", 0)))
    events = alex.assert_(fact("Chicago", 10 * D))
    new = new_fact_id(events)
    conflict = next(e for e in events if isinstance(e, ConflictOpened)).conflict_id
    later = new_fact_id(alex.supersede(fact("Oslo", 20 * D)))
    alex.apply(control.decide_resolve(alex.state, conflict, new, None))
    assert alex.fact(old).portions == [Interval(0, 10 * D)]
    assert alex.fact(new).portions == [Interval(10 * D, 20 * D)]
    assert alex.fact(later).portions == [Interval(20 * D, None)]
    covered = sorted(p for f in alex.state.slot("home.city") for p in f.portions)
    assert all(a.stop <= b.start for a, b in itertools.pairwise(covered))
