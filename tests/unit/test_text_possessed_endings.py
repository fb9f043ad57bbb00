"""A possessed thing that ended names the fact it ends (SPEC §15).

``Dev's flight to Oslo was cancelled`` ends ``has a flight to Oslo``, never ``has a hotel
booking in Oslo`` beside it: a fact that only shares the thing's topic stands in for the
thing only when no fact names it and it is the one fact of that topic (``Dev's trip to
Oslo was cancelled`` ends his one travel fact, and with two ends nothing).
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from memory_es.text.interpreter import interpret
from tests.unit.text_support import current_texts, fresh_tenant, said, texts_after

_SLOW = settings(max_examples=8, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])
CITIES = st.sampled_from(["Oslo", "Lyon", "Kraków", "Porto"])
ENDED = st.sampled_from(["was cancelled", "got cancelled", "was called off"])


@_SLOW
@given(CITIES, ENDED)
def test_the_named_thing_ends_and_its_neighbour_stays(
        fresh_store: memory_es.MemoryStore, city: str, ended: str) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    flight = f"Dev Malhotra has a flight to {city} on Friday"
    kept = [f"Dev Malhotra has a hotel booking in {city}", "Dev Malhotra lives in Leeds"]
    for text in (flight, *kept):
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"Dev Malhotra's flight to {city} {ended}.")
    current = current_texts(fresh_store, tenant)
    assert flight not in current
    assert set(kept) <= current


@_SLOW
@given(CITIES, st.booleans())
def test_the_topic_stands_in_only_for_its_one_fact(
        fresh_store: memory_es.MemoryStore, city: str, two: bool) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    travel = [f"Dev Malhotra has a flight to {city} on Friday"]
    if two:
        travel.append(f"Dev Malhotra has a hotel booking in {city}")
    for text in (*travel, "Dev Malhotra lives in Leeds"):
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"Dev Malhotra's trip to {city} was cancelled.")
    current = current_texts(fresh_store, tenant)
    assert "Dev Malhotra lives in Leeds" in current
    assert (set(travel) <= current) if two else not (set(travel) & current)


ROLES = st.sampled_from(["manager", "boss", "colleague", "brother", "landlord", "coach"])
EMPLOYERS = st.sampled_from(["Deloitte", "Acme", "the Anchor pub", "Siemens"])
ACTS = st.sampled_from(["left", "quit", "sold", "closed down"])


@_SLOW
@given(ROLES, EMPLOYERS, ACTS)
def test_what_a_possessed_person_does_ends_none_of_the_owners_facts(
        fresh_store: memory_es.MemoryStore, role: str, employer: str, act: str) -> None:
    """``Leila's manager left Deloitte`` is the manager's act: the subject that acts on an
    object is not a thing of Leila's that ended, so her job stays; a fact that names the
    role (``Leila's manager works at Deloitte``) is the one that can end."""
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    kept = [f"Leila Farah works at {employer}", "Leila Farah lives in Beirut"]
    for text in kept:
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"Leila Farah's {role} {act} {employer}.")
    assert set(kept) <= current_texts(fresh_store, tenant)


def test_a_possessed_thing_without_an_object_still_ends_its_fact(
        fresh_store: memory_es.MemoryStore) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    ti.remember(tenant, "Lucia Rossi works at Fiat.")
    ti.remember(tenant, "Lucia Rossi lives in Turin.")
    ti.remember(tenant, "Lucia Rossi's job ended.")
    current = current_texts(fresh_store, tenant)
    assert "Lucia Rossi works at Fiat" not in current
    assert "Lucia Rossi lives in Turin" in current


@_SLOW
@given(st.sampled_from(["Google", "Siemens", "Unilever"]),
       st.sampled_from(["owns {} shares", "has a {} pension", "uses a {} laptop",
                        "sells books on {}", "buys groceries from {}"]),
       st.sampled_from(["left {}", "quit {}", "has left {}"]))
def test_leaving_an_employer_leaves_a_thing_named_after_it(
        fresh_store: memory_es.MemoryStore, firm: str, thing: str, ending: str) -> None:
    """``Nina Park left Google`` ends ``works at Google``; ``owns Google shares`` and
    ``sells books on Google`` name another thing (the name modifies a noun of its own, or
    follows the verb's own object) and stay."""
    kept = {f"Nina Park {thing.format(firm)}", "Nina Park plays tennis"}
    after = texts_after(fresh_store, [f"Nina Park works at {firm}.", *(k + "." for k in kept)],
                        "remember", f"Nina Park {ending.format(firm)}.")
    assert kept <= after
    assert f"Nina Park works at {firm}" not in after


@_SLOW
@given(st.sampled_from([("is insured with Bupa", "cancelled her Bupa policy"),
                        ("is insured with Admiral", "cancelled her Admiral insurance"),
                        ("pays into a pension with Aviva", "closed her Aviva pension")]))
def test_an_insurance_or_pension_ended_ends_the_fact_of_its_provider(
        fresh_store: memory_es.MemoryStore, case: tuple[str, str]) -> None:
    """Insurance and pensions are of money (topics.txt): ``cancelled her Bupa policy``
    ends ``is insured with Bupa``; her bank and her home stay."""
    held, ending = case
    kept = {"Lucy Hart banks with Lloyds", "Lucy Hart lives in Bath"}
    after = texts_after(fresh_store, [f"Lucy Hart {held}.", *(k + "." for k in kept)],
                        "remember", f"Lucy Hart {ending}.")
    assert kept <= after
    assert f"Lucy Hart {held}" not in after


@_SLOW
@given(st.sampled_from([("plays the piano", "teaches piano", "no longer plays the piano"),
                        ("spielt Klavier", "unterrichtet Klavier", "spielt kein Klavier mehr"),
                        ("drinks coffee", "sells coffee", "no longer drinks coffee"),
                        ("spielt Tennis", "trainiert Tennis", "spielt nicht mehr Tennis")]))
def test_an_ending_of_one_act_leaves_another_act_on_the_same_object(
        fresh_store: memory_es.MemoryStore, acts: tuple[str, str, str]) -> None:
    """``Eva Braun no longer plays the piano`` ends ``plays the piano``; ``teaches
    piano`` is another act on the same object and stays (German alike)."""
    ended, other, ending = acts
    kept = {f"Eva Braun {other}", "Eva Braun wohnt in Ulm"}
    after = texts_after(fresh_store, [f"Eva Braun {ended}.", *(k + "." for k in kept)],
                        "remember", f"Eva Braun {ending}.")
    assert kept <= after
    assert f"Eva Braun {ended}" not in after


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["removed her heat pump", "had her heat pump removed",
                        "got her heat pump removed", "had the heat pump removed last May"]))
def test_a_thing_removed_or_had_removed_ends_its_fact(fresh_store: memory_es.MemoryStore,
                                                      said_: str) -> None:
    """``removed her heat pump`` ends the fact of having it, as ``sold`` does; so does the
    causative ``had her heat pump removed`` (she had it ended). Her other facts and her
    neighbour's heat pump stay; ``removes graffiti`` (a habit) ends nothing."""
    held = "Alys Hughes has a heat pump."
    kept = ["Alys Hughes's neighbour has a heat pump.", "Alys Hughes lives in Cardiff."]
    ended = f"Alys Hughes {said_}."
    after = texts_after(fresh_store, [held, *kept], "remember", ended)
    assert after == said([*kept, ended])
    assert interpret("Alys Hughes removes graffiti.").clauses[0].op != "cease"
