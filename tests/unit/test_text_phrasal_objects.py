"""What a cessation ends is told by its object (SPEC §15), read past a phrasal verb.

``stepped down from the staff committee`` ends ``is on the staff committee``: the
particle and its preposition belong to the verb, so the object is the committee. When a
fact holds the whole object, a fact that shares only its head (``takes a Spanish course``
beside ``quit the pottery course``) is another thing and stays. A maximizer asks for a
person as a whole (``forget Lukas Brandt entirely``), like ``everything about``.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from memory_es.text import lexicon as lx
from tests.unit.text_support import current_texts, fresh_tenant

_SLOW = settings(max_examples=8, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])
_KINDS = ["pottery", "Spanish", "chess", "welding", "yoga", "first aid"]


@_SLOW
@given(st.sampled_from([("is on", "stepped down from"), ("is enrolled in", "dropped out of"),
                        ("sits on", "stepped down from")]),
       st.sampled_from(["staff wellbeing committee", "parish council", "night school course"]))
def test_a_particle_verb_ends_the_fact_of_its_object(fresh_store: memory_es.MemoryStore,
                                                     verbs: tuple[str, str], thing: str) -> None:
    held, ending = verbs
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    meant = f"Owen Price {held} the {thing}"
    kept = ["Owen Price drives to school", "Owen Price teaches chemistry",
            f"Sara Lim {held} the {thing}"]
    for text in (meant, *kept):
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"Owen Price {ending} the {thing}.")
    current = current_texts(fresh_store, tenant)
    assert set(kept) <= current
    assert meant not in current


@_SLOW
@given(st.lists(st.sampled_from(_KINDS), min_size=2, max_size=4, unique=True),
       st.sampled_from(["quit", "dropped out of", "gave up"]))
def test_the_fact_with_the_whole_object_is_the_one_that_ends(
        fresh_store: memory_es.MemoryStore, kinds: list[str], ending: str) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    facts = [f"Mia Lund takes a {k} course" for k in kinds]
    for text in facts:
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"Mia Lund {ending} the {kinds[0]} course.")
    current = current_texts(fresh_store, tenant)
    assert facts[0] not in current
    assert set(facts[1:]) <= current


@_SLOW
@given(st.sampled_from(["entirely", "completely", "totally", "wholly", "altogether"]))
def test_a_maximizer_asks_for_the_person_as_a_whole(fresh_store: memory_es.MemoryStore,
                                                    adverb: str) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    his = ["Lukas Brandt lives in Linz", "Lukas Brandt plays the trumpet"]
    kept = ["Pia Koch lives in Graz", "Pia Koch owes her sister 50 euros"]
    for text in (*his, *kept):
        ti.remember(tenant, text + ".")
    ti.forget(tenant, f"Lukas Brandt {adverb}")
    assert current_texts(fresh_store, tenant) == set(kept)


def test_a_grading_adverb_is_no_totality() -> None:
    assert lx.TOTALITY.isdisjoint({"fully", "quite", "mostly", "partly"})


@_SLOW
@given(st.lists(st.sampled_from(["the library", "the animal shelter", "the food bank",
                                 "the hospice", "the community garden"]),
                min_size=2, max_size=3, unique=True),
       st.sampled_from(["volunteers at", "helps out at"]))
def test_an_ending_of_a_place_leaves_the_other_places(fresh_store: memory_es.MemoryStore,
                                                       places: list[str], verb: str) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    facts = [f"Noor Khan {verb} {p}" for p in places]
    for text in facts:
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"Noor Khan no longer {verb} {places[0]}.")
    current = current_texts(fresh_store, tenant)
    assert facts[0] not in current
    assert set(facts[1:]) <= current


@_SLOW
@given(st.lists(st.sampled_from(["Emirates", "Hilton", "Lufthansa", "Marriott"]), min_size=2,
                max_size=2, unique=True),
       st.sampled_from(["Silver", "Bronze", "Blue"]))
def test_where_a_change_went_is_not_what_ended(fresh_store: memory_es.MemoryStore,
                                               brands: list[str], level: str) -> None:
    """``status dropped to Silver``: the goal is the new state; the ended state is the
    status the possessive names (``has Gold status with Emirates``)."""
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    meant, kept = f"Ravi Iyer has Gold status with {brands[0]}", \
        f"Ravi Iyer has {level} status with {brands[1]}"
    for text in (meant, kept):
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"Ravi Iyer's {brands[0]} status dropped to {level}.")
    current = current_texts(fresh_store, tenant)
    assert meant not in current and kept in current
