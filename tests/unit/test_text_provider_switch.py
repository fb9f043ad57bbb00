"""A switch of a possessed thing to a new provider (SPEC §15): ``switched her bank
account to Monzo`` ends the one fact whose object is the old provider of that thing
(``banks with Barclays``); with two such facts, when the fact of the thing names no
provider (``goes to the gym at 7am``), or when one fact of the thing names the new one
already (``moved his trip to Rome to July``, beside ``has a trip to Rome in May``: that
trip is the one spoken of), nothing ends. A slot whose whole value is the old place is
such a fact (``moved its headquarters to Denver`` ends ``is headquartered in Austin``)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from tests.unit.text_support import current_texts, fresh_tenant, said, texts_after

_SLOW = settings(max_examples=8, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])
# (the fact naming the old provider, the switch's thing, the new provider)
SWITCHES = st.sampled_from([
    ("banks with Barclays", "bank account", "Monzo"),
    ("banks with HSBC", "bank", "Starling"),
    ("has a mobile contract with Vodafone", "mobile contract", "Three"),
])
VERBS = st.sampled_from(["switched", "moved", "has switched"])
NAMES = st.sampled_from([("Aisha Bello", "her"), ("Omar Haddad", "his")])


@_SLOW
@given(NAMES, SWITCHES, VERBS)
def test_the_old_provider_ends_and_the_rest_stays(
        fresh_store: memory_es.MemoryStore, who: tuple[str, str],
        switch: tuple[str, str, str], verb: str) -> None:
    (name, pronoun), (held, thing, new) = who, switch
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    kept = [f"{name} lives in Croydon", f"{name} saves receipts in a shoebox"]
    for text in (f"{name} {held}", *kept):
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"{name} {verb} {pronoun} {thing} to {new}.")
    current = current_texts(fresh_store, tenant)
    assert f"{name} {held}" not in current
    assert set(kept) <= current


@_SLOW
@given(NAMES)
def test_two_providers_of_the_thing_leave_both(
        fresh_store: memory_es.MemoryStore, who: tuple[str, str]) -> None:
    name, pronoun = who
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    held = [f"{name} banks with HSBC", f"{name} banks with Lloyds"]
    for text in held:
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"{name} switched {pronoun} bank account to Monzo.")
    assert set(held) <= current_texts(fresh_store, tenant)


def test_a_thing_with_no_provider_is_not_ended(fresh_store: memory_es.MemoryStore) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    kept = ["Ana Lima goes to the gym at 7am",
            "Ana Lima's library membership is at the Central Library"]
    for text in kept:
        ti.remember(tenant, text + ".")
    ti.remember(tenant, "Ana Lima switched her gym membership to PureGym.")
    assert set(kept) <= current_texts(fresh_store, tenant)


@_SLOW
@given(NAMES, st.sampled_from([("trip", "Rome", "Oslo"), ("booking", "Hilton", "Marriott"),
                               ("flight", "Lisbon", "Madrid")]),
       st.sampled_from(["moved", "switched"]))
def test_a_thing_that_names_the_new_one_already_is_the_one_spoken_of(
        fresh_store: memory_es.MemoryStore, who: tuple[str, str],
        things: tuple[str, str, str], verb: str) -> None:
    (name, pronoun), (thing, said, other) = who, things
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    held = [f"{name} has a {thing} to {said} in May", f"{name} has a {thing} to {other} in June",
            f"{name} plays golf"]
    for text in held:
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"{name} {verb} {pronoun} {thing} to {said} to July.")
    assert set(held[1:]) <= current_texts(fresh_store, tenant)


@_SLOW
@given(st.sampled_from(["Acme Corp", "Vela Labs", "Northwind Trading"]),
       st.sampled_from([("is headquartered in Austin", "headquarters", "Denver"),
                        ("has an office in Leeds", "office", "York"),
                        ("has its warehouse in Tilbury", "warehouse", "Felixstowe")]))
def test_a_slot_whose_value_is_the_old_place_ends(
        fresh_store: memory_es.MemoryStore, company: str,
        switch: tuple[str, str, str]) -> None:
    """``moved its headquarters to Denver`` ends ``is headquartered in Austin``, whose
    value is the old place as a whole (a slot: home.city); the company's other facts and
    another company's alike fact stay."""
    held, thing, new = switch
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    kept = [f"{company}'s auditor is KPMG", f"Orbit Foods {held}"]
    for text in (f"{company} {held}", *kept):
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"{company} moved its {thing} to {new}.")
    current = current_texts(fresh_store, tenant)
    assert f"{company} {held}" not in current
    assert set(kept) <= current


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from([("Poppy Lane's vet is Dr Shah at Hillside.", "vets", "Riverside Vets"),
                        ("Poppy Lane banks with Barclays.", "banks", "Monzo"),
                        ("Poppy Lane's gym is PureGym Camden.", "gyms", "The Fitness Hub")]))
def test_switching_a_kind_in_the_plural_ends_its_one_provider(
        fresh_store: memory_es.MemoryStore, case: tuple[str, str, str]) -> None:
    """``switched vets to Riverside Vets`` names the thing by its plural, as ``switched
    her vet to …`` would: the one fact of it with another name ends; her job and her
    neighbour's dog stay."""
    held, kind, new = case
    kept = ["Poppy Lane works at Boots.", "Poppy Lane's neighbour's dog is called Biscuit."]
    switched = f"Poppy Lane switched {kind} to {new}."
    after = texts_after(fresh_store, [held, *kept], "remember", switched)
    assert after == said([*kept, switched])
