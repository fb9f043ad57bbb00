"""A change verb that gives a possessed thing a new value replaces the thing's slot
(SPEC §15): ``Chloe switched her energy supplier to EDF`` ends ``Chloe's energy supplier
is Octopus``, as ``Chloe's energy supplier is now EDF`` would. Her other things stay,
and a thing of another kind (``water supplier``) is another slot.

The reference model is the list of facts each case writes: the thing's fact ends, every
other stays.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from memory_es.text.interpreter import interpret
from tests.unit.text_support import current_texts, fresh_tenant

_KEPT = ["Chloe Adams's landlord is Peter Shaw.", "Chloe Adams's water supplier is Thames.",
         "Chloe Adams lives in Leeds.", "Jake Moss's energy supplier is Octopus."]
# (the thing, its old value, its new value)
_THINGS = [("energy supplier", "Octopus", "EDF"), ("phone number", "07700 900123", "07700 900999"),
           ("broadband plan", "Basic", "Gigabit"), ("bank", "Barclays", "Monzo")]
_VERBS = ["switched", "changed", "upgraded", "has switched"]


@settings(max_examples=16, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(_THINGS), st.sampled_from(_VERBS))
def test_a_possessed_thing_changed_to_a_value_replaces_its_slot(
        fresh_store: memory_es.MemoryStore, thing: tuple[str, str, str], verb: str) -> None:
    noun, old, new = thing
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    held = f"Chloe Adams's {noun} is {old}."
    for text in [held, *_KEPT]:
        ti.remember(tenant, text)
    said = f"Chloe Adams {verb} her {noun} to {new}."
    ti.remember(tenant, said)
    assert current_texts(fresh_store, tenant) == {
        t.rstrip(".") for t in [said, *_KEPT]}


def test_where_a_thing_is_and_what_state_it_is_in_are_two_facts(
        fresh_store: memory_es.MemoryStore) -> None:
    """``Ben's flat is in Leith`` and ``is on the market for £250,000`` are two facts of
    the flat (the preposition says which), so the second keeps the first, and a new price
    ends only the old price; a time stays one slot with the thing (``is on 4 June``)."""
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for text in ("Ben Frost's flat is in Leith.", "Ben Frost's flat is on the market for £250,000.",
                 "Ben Frost's sister's flat is in Leith."):
        ti.remember(tenant, text)
    assert len(current_texts(fresh_store, tenant)) == 3
    ti.remember(tenant, "Ben Frost's flat is now on the market for £240,000.")
    assert current_texts(fresh_store, tenant) == {
        "Ben Frost's flat is in Leith", "Ben Frost's sister's flat is in Leith",
        "Ben Frost's flat is now on the market for £240,000"}
    ti.remember(tenant, "Ben Frost's flat is now in Portobello.")
    assert "Ben Frost's flat is in Leith" not in current_texts(fresh_store, tenant)


def test_a_noun_of_a_named_slot_keeps_its_slot(fresh_store: memory_es.MemoryStore) -> None:
    """``X's new home is in Taipei`` is X's home city, the slot ``lives in`` fills: the
    preposition adds no slot of its own there, so the old city ends."""
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for text in ("Mei Wong lives in Singapore.", "Mei Wong works at DBS."):
        ti.remember(tenant, text)
    ti.remember(tenant, "Mei Wong's new home is in Taipei.")
    assert current_texts(fresh_store, tenant) == {"Mei Wong works at DBS",
                                                  "Mei Wong's new home is in Taipei"}


def test_a_change_replaces_a_complement_stored_in_the_slot_of_before(
        fresh_store: memory_es.MemoryStore) -> None:
    """A fact written when ``X's flat is in Leith`` read as ``prop.flat`` (before the
    preposition named a slot of its own) is still what ``is now in Portobello`` replaces
    (the thing's state, whatever its slot); a complement of another preposition there
    (``on the market``) is not."""
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    fresh_store.assert_fact(tenant, "person:ben-frost", "prop.flat", "in Leith",
                            text="Ben Frost's flat is in Leith")
    ti.remember(tenant, "Ben Frost's flat is now in Portobello.")
    assert current_texts(fresh_store, tenant) == {"Ben Frost's flat is now in Portobello"}
    ti.remember(tenant, "Ben Frost's flat is now on the market for £240,000.")
    assert current_texts(fresh_store, tenant) == {
        "Ben Frost's flat is now in Portobello",
        "Ben Frost's flat is now on the market for £240,000"}


def test_what_a_thing_is_and_how_it_is_are_two_facts(fresh_store: memory_es.MemoryStore) -> None:
    """``Gary's van is registration AB12 CDE`` and ``is white``: the second keeps the
    first, and ``is now blue`` replaces only the colour."""
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for text in ("Gary Nash's van is registration AB12 CDE.", "Gary Nash's van is white."):
        ti.remember(tenant, text)
    assert current_texts(fresh_store, tenant) == {"Gary Nash's van is registration AB12 CDE",
                                                  "Gary Nash's van is white"}
    ti.remember(tenant, "Gary Nash's van is now blue.")
    assert current_texts(fresh_store, tenant) == {"Gary Nash's van is registration AB12 CDE",
                                                  "Gary Nash's van is now blue"}


def test_a_name_or_identifier_has_a_value_not_a_state() -> None:
    """``VPN username is rcole`` is the username's value (a change to ``ruth.cole``
    replaces it), not how the username is."""
    (old,) = interpret("Ruth Cole's VPN username is rcole.").clauses
    (new,) = interpret("Ruth Cole's VPN username changed to ruth.cole.").clauses
    (colour,) = interpret("Gary Nash's van is white.").clauses
    assert old.attribute == new.attribute == "prop.vpn_username"
    assert colour.attribute == "prop.van.state"


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from([("car", "a grey Skoda", "due for an MOT in June", "due for an MOT in July"),
                        ("bike", "a Brompton", "parked in the shed", "parked in the hall"),
                        ("laptop", "a ThinkPad", "ready for collection on Friday",
                         "ready for collection on Monday")]))
def test_a_physical_things_state_before_a_preposition_is_beside_what_it_is(
        fresh_store: memory_es.MemoryStore, thing: tuple[str, str, str, str]) -> None:
    """``Leo's car is due for an MOT in June`` and ``is a grey Skoda``: how the car stands
    is a state of it (under its head word), not what it is, so neither hides the other,
    and a new state replaces only the old state. An abstract thing's bare complement stays
    its value (``role is head of sales``)."""
    noun, what, state, later = thing
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for text in (f"Leo Hart's {noun} is {state}.", f"Leo Hart's {noun} is {what}.",
                 "Leo Hart lives in Derby."):
        ti.remember(tenant, text)
    assert current_texts(fresh_store, tenant) == {
        f"Leo Hart's {noun} is {state}", f"Leo Hart's {noun} is {what}", "Leo Hart lives in Derby"}
    ti.remember(tenant, f"Leo Hart's {noun} is now {later}.")
    assert current_texts(fresh_store, tenant) == {
        f"Leo Hart's {noun} is now {later}", f"Leo Hart's {noun} is {what}",
        "Leo Hart lives in Derby"}
    (role,) = interpret("Leo Hart's role is head of sales.").clauses
    assert not role.attribute.startswith("prop.role.")


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["boss", "manager", "partner"]),
       st.sampled_from([", ", " called ", " named "]))
def test_a_new_one_named_in_apposition_replaces_a_one_valued_slot(
        fresh_store: memory_es.MemoryStore, noun: str, joint: str) -> None:
    """``has a new boss, Ian Pike`` says what ``Tom's boss is now Ian Pike`` says; a thing
    one may have several of (``a new neighbour``, ``a new dog named Rex``) is added."""
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    old = f"Tom Reid's {noun} is Ann Lee"
    kept = ["Tom Reid's neighbour is Bob Ray", "Tom Reid has a dog called Biscuit",
            "Tom Reid lives in Luton"]
    for text in (old, *kept):
        ti.remember(tenant, text + ".")
    for text in ("Tom Reid has a new neighbour, Eve Hart.", "Tom Reid got a new dog named Rex."):
        ti.remember(tenant, text)
    assert {old, *kept} <= current_texts(fresh_store, tenant)
    ti.remember(tenant, f"Tom Reid has a new {noun}{joint}Ian Pike.")
    after = current_texts(fresh_store, tenant)
    assert old not in after
    assert set(kept) <= after



@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["old", "former", "previous"]),
       st.sampled_from([("number", "07700 900111", "07700 900222"),
                        ("employer", "Acme", "Globex")]))
def test_a_thing_of_the_past_keeps_a_slot_of_its_own(
        fresh_store: memory_es.MemoryStore, word: str, thing: tuple[str, str, str]) -> None:
    """``Kat Lee's old number was …`` is no value of her number now: both it and ``Kat
    Lee's number is …`` stay current, and releasing the old one leaves the present one."""
    noun, old, new = thing
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    past, present = f"Kat Lee's {word} {noun} was {old}", f"Kat Lee's {noun} is {new}"
    for text in (past, present, "Kat Lee lives in Hull"):
        ti.remember(tenant, text + ".")
    assert {past, present} <= current_texts(fresh_store, tenant)
    ti.release(tenant, f"Kat Lee's {word} {noun}")
    assert current_texts(fresh_store, tenant) == {present, "Kat Lee lives in Hull"}
