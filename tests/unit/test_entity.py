"""The aggregate's fold and its copy-on-write copies."""

from __future__ import annotations

import json
from typing import Any

from memory_es.domain import control
from memory_es.domain.control import AttributeDef, NewFact
from memory_es.domain.entity import EntityState, content_slot_key
from memory_es.domain.events import DomainEvent
from memory_es.ids import fact_id as make_fact_id

STREAM = "0190c1d2-3e4f-7000-8000-00000000b2f6"
D = 86_400_000_000


def _fold(state: EntityState, events: list[DomainEvent]) -> None:
    for event in events:
        state.apply(event.TOPIC, json.loads(event.model_dump_json()))


def _assert(state: EntityState, value: Any, start: int, *, attribute: str = "home.city",
            agent: str | None = None, chain: str = "chain-1") -> None:
    new = NewFact(tenant="acme", entity="user:alex", attribute=attribute, value=value,
                  valid_from=start, valid_until=None, agent=agent)
    _fold(state, control.decide_assert(
        state, new, AttributeDef(), now=start, fact_id=make_fact_id(STREAM, state.next_seq),
        new_chain=lambda: chain, new_conflict=lambda: "conflict-1"))


def _snapshot(state: EntityState) -> Any:
    return (state.version, state.next_seq, dict(state.slots), sorted(state.aliases),
            sorted(state.conflicts),
            {fid: (f.state, list(f.portions), f.content, sorted(f.dependents))
             for fid, f in state.facts.items()})


def test_a_copy_equals_its_original_and_owns_nothing() -> None:
    """A copy holds the same facts, slots and counters, and may mutate none of them yet."""
    state = EntityState(STREAM)
    _assert(state, "Oslo", 0)
    state.aliases.add("alex")
    copy = state.copy()
    assert copy == state
    assert copy.owned == set()
    assert copy.facts is not state.facts and copy.slots is not state.slots
    assert copy.aliases is not state.aliases and copy.conflicts is not state.conflicts


def test_folding_into_a_copy_leaves_the_original_unchanged() -> None:
    """Events folded into a copy (new facts, a new slot, a trim of a shared fact) never
    show in the original."""
    state = EntityState(STREAM)
    _assert(state, "Oslo", 0)
    state.owned.clear()  # as the write side publishes it: shared from now on
    before = _snapshot(state)
    copy = state.copy()
    _assert(copy, "Bergen", 10 * D)  # outranks nothing: a conflict on the same slot
    _assert(copy, 42, 0, attribute="shoe.size", chain="chain-2")
    new = NewFact(tenant="acme", entity="user:alex", attribute="home.city", value="Rome",
                  valid_from=20 * D, valid_until=None)
    _fold(copy, control.decide_supersede(  # trims the shared Oslo fact: copied, not changed
        copy, new, AttributeDef(), fact_id=make_fact_id(STREAM, copy.next_seq),
        new_chain=lambda: "unused"))
    copy.aliases.add("al")
    assert _snapshot(state) == before
    assert len(copy.facts) == 4 and len(state.facts) == 1
    assert list(copy.conflicts) == ["conflict-1"]


def test_a_new_fact_fills_the_slot_its_content_names() -> None:
    """The slot a folded fact opens is its attribute, or its attribute and agent when private."""
    state = EntityState(STREAM)
    _assert(state, "Oslo", 0)
    _assert(state, "Rome", 0, agent="planner", chain="chain-p")
    assert state.slots == {"home.city": "chain-1", "home.city@planner": "chain-p"}
    for fact in state.facts.values():
        assert content_slot_key(fact.content) == fact.slot_key
        assert state.slots[fact.slot_key] == fact.chain_id


class _NoScan(dict[str, Any]):
    """A facts table that refuses to be scanned: only looked up by id."""

    def values(self) -> Any:
        raise AssertionError("the whole entity was scanned")

    def items(self) -> Any:
        raise AssertionError("the whole entity was scanned")

    def __iter__(self) -> Any:
        raise AssertionError("the whole entity was scanned")


def test_a_slot_is_read_without_scanning_the_other_facts_of_the_entity() -> None:
    """Reading one slot looks up that slot's facts only, so a write into a large entity
    does not cost in proportion to the entity's size; what it returns is unchanged."""
    state = EntityState(STREAM)
    for k in range(50):
        _assert(state, f"v{k}", 0, attribute=f"attr.a{k}", chain=f"chain-{k}")
    _assert(state, "Rome", 0, attribute="attr.a7", agent="planner", chain="chain-p")
    expected = [f.fact_id for f in state.facts.values()
                if f.attribute == "attr.a7" and f.owner is None]
    state.facts = _NoScan(state.facts)
    assert [f.fact_id for f in state.slot("attr.a7")] == expected
    assert [f.content["value"] for f in state.slot("attr.a7", "planner")] == ["Rome"]
    assert state.slot("attr.missing") == []


def test_a_corrected_value_is_the_one_a_new_assertion_is_compared_with() -> None:
    """After a correction, asserting the corrected value reinforces the fact, and asserting
    the value it had before no longer does."""
    state = EntityState(STREAM)
    _assert(state, {"city": "Oslo", "zip": 150}, 0)
    (fid,) = state.facts
    assert state.facts[fid].value_key() == '{"city": "Oslo", "zip": 150}'
    _fold(state, control.decide_correct(state, fid, {"zip": 5003, "city": "Bergen"}, None, None))
    _assert(state, {"city": "Bergen", "zip": 5003}, 0)
    assert state.facts[fid].state == "reinforced" and len(state.facts) == 1
    _assert(state, {"city": "Oslo", "zip": 150}, 0)
    assert len(state.facts) == 2  # a different value: a new (conflicting) fact


def test_a_fact_whose_content_changes_slot_is_read_from_its_new_slot_only() -> None:
    """Should a content revision move a fact to another slot (an agent's private one), the
    slot index follows it: the old slot no longer lists it, the new one does, in order."""
    state = EntityState(STREAM)
    _assert(state, "Oslo", 0, agent="planner", chain="chain-p")
    _assert(state, "Rome", 0)
    moved = next(f for f in state.facts.values() if f.content["value"] == "Rome")
    content = {**moved.content, "agent": "planner", "rev": 1}
    state.apply("memory_es.FactCorrected.v1", {"tenant": "acme", "changes": [{
        "fact_id": moved.fact_id, "portions": [[0, None]], "state": "active",
        "content": content}]})
    assert state.slot("home.city") == []
    assert [f.content["value"] for f in state.slot("home.city", "planner")] == ["Oslo", "Rome"]
