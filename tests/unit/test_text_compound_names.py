"""A thing named with a preposition (``the thermostat in the living room``) is the thing
its compound names (``the living room thermostat``): both give one entity, so a change
said one way replaces what was said the other way."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface, interpret
from tests.unit.text_support import current_texts, fresh_tenant

THINGS = ["thermostat", "smoke alarm", "printer", "router", "light", "lock"]
PLACES = ["living room", "kitchen", "garage", "front desk", "second floor", "porch"]


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(THINGS), st.sampled_from(PLACES), st.sampled_from(["in", "on", "at"]))
def test_both_namings_give_one_entity(thing: str, place: str, prep: str) -> None:
    linked = interpret(f"The {thing} {prep} the {place} is offline.").clauses[0]
    compound = interpret(f"The {place} {thing} is offline.").clauses[0]
    assert linked.entity == compound.entity is not None


def test_a_phrase_with_two_prepositions_keeps_its_order() -> None:
    clause = interpret("The list of guests from the wedding is on the fridge.").clauses[0]
    assert clause.entity == "topic:list-of-guests-from-wedding"


def test_a_change_said_the_other_way_replaces_the_value(
        fresh_store: memory_es.MemoryStore) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for text in ("The thermostat in the living room is set to 21 degrees.",
                 "The porch light turns on at sunset."):
        ti.remember(tenant, text)
    ti.remember(tenant, "The living room thermostat is now set to 19 degrees.")
    assert current_texts(fresh_store, tenant) == {
        "The living room thermostat is now set to 19 degrees",
        "The porch light turns on at sunset"}


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(["box", "list", "pile", "jar", "bag"]),
       st.sampled_from(["letters", "guests", "coins", "stamps", "receipts"]))
def test_a_word_right_after_a_preposition_is_no_verb(container: str, things: str) -> None:
    """``The box of letters is in the attic``: ``letters`` could be a verb, but no
    finite verb follows ``of``; the subject is the whole noun phrase."""
    clause = interpret(f"The {container} of {things} is in the attic.").clauses[0]
    assert clause.entity == f"topic:{things}-{container}"
    assert clause.value == "is in the attic"
