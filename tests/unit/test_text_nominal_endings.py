"""A cessation names what it ends by the noun of its verb (SPEC §15).

``cancelled his Netflix subscription`` ends ``subscribes to Netflix``: ``subscription`` is
the noun of ``subscribe`` (:func:`memory_es.text.matching.nominalises`), so the object is
the fact's own; ``subscribes to The Economist`` beside it stays.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from memory_es.text.matching import nominalises, view_terms
from tests.unit.text_support import current_texts, fresh_tenant

_SLOW = settings(max_examples=8, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])

# (verb as written in a fact, its noun): Latin verbs whose last letter changes
NOUNS = [("subscribes", "subscription"), ("extends", "extension"), ("cancels", "cancellation"),
         ("prescribes", "prescription"), ("attends", "attention"), ("pays", "payment"),
         ("reserves", "reservation"), ("collects", "collection")]


@given(st.sampled_from(NOUNS))
def test_a_noun_of_a_verb_meets_it(pair: tuple[str, str]) -> None:
    verb, noun = pair
    assert nominalises(min(view_terms(noun), key=len), view_terms(verb))


@given(st.sampled_from([("visits", "vision"), ("stalls", "stallion"), ("passes", "passion"),
                        ("unites", "union"), ("companies", "companion")]))
def test_a_word_that_only_begins_alike_is_no_noun_of_it(pair: tuple[str, str]) -> None:
    other, noun = pair
    assert not nominalises(noun, view_terms(other))


@_SLOW
@given(st.sampled_from([("subscribes to Netflix", "subscribes to The Economist",
                         "cancelled his Netflix subscription"),
                        ("has a gym membership", "has a library card",
                         "cancelled his gym membership"),
                        ("attends a pottery class", "attends a choir",
                         "stopped his pottery class attendance")]),
       st.sampled_from(["Dev Malhotra", "Rui Costa"]))
def test_a_cessation_by_the_noun_ends_the_verbs_fact(
        fresh_store: memory_es.MemoryStore, facts: tuple[str, str, str], name: str) -> None:
    held, beside, text = facts
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for fact in (held, beside):
        ti.remember(tenant, f"{name} {fact}.")
    ti.remember(tenant, f"Leo Park {held}.")
    ti.remember(tenant, f"{name} {text}.")
    current = current_texts(fresh_store, tenant)
    assert f"{name} {held}" not in current
    assert {f"{name} {beside}", f"Leo Park {held}"} <= current


@_SLOW
@given(st.sampled_from([("goes to", "going to"), ("volunteers at", "volunteering at"),
                        ("swims at", "swimming at")]),
       st.sampled_from([("the pool", "the gym"), ("the food bank", "the library")]))
def test_a_gerund_ended_names_its_place(
        fresh_store: memory_es.MemoryStore, verb: tuple[str, str],
        places: tuple[str, str]) -> None:
    """``stopped going to the pool`` ends ``goes to the pool on Fridays``: after a verb of
    ending, a gerund with no object of its own ended what its preposition names (goes and
    going share no stem); the same act at another place stays."""
    (said, gerund), (ended, kept_place) = verb, places
    _only_ended(fresh_store, f"Lily Fox {said} {ended} on Fridays",
                {f"Lily Fox {said} {kept_place} on Mondays", "Lily Fox works at Lush"},
                f"Lily Fox stopped {gerund} {ended}")


@_SLOW
@given(st.sampled_from([("cycles", "cycling"), ("walks", "walking"), ("drives", "driving")]),
       st.sampled_from([("work", "works at the university"),
                        ("school", "teaches at the school")]))
def test_a_gerund_ended_is_part_of_what_ended(
        fresh_store: memory_es.MemoryStore, verb: tuple[str, str],
        goal: tuple[str, str]) -> None:
    """``stopped cycling to work`` ends ``cycles to work``, not ``works at the
    university``: a fact that names only where the act went does not hold what ended
    when another fact tells the act itself."""
    (said, gerund), (place, kept) = verb, goal
    _only_ended(fresh_store, f"Ola Berg {said} to {place}", {f"Ola Berg {kept}"},
                f"Ola Berg stopped {gerund} to {place}")


@_SLOW
@given(st.sampled_from([("uses", "using"), ("sees", "seeing")]),
       st.sampled_from([("Duolingo", "Anki"), ("Dr Obi", "Dr Lind")]),
       st.sampled_from(["", " every day"]))
def test_a_gerund_ended_meets_its_verb_by_the_lemma(
        fresh_store: memory_es.MemoryStore, verb: tuple[str, str],
        names: tuple[str, str], when: str) -> None:
    """``stopped using Duolingo`` ends ``uses Duolingo every day``: a gerund too short for
    the stemmer (``using``) meets the fact's verb by its lemma; the verb with another
    name stays."""
    (said, gerund), (ended, kept_name) = verb, names
    _only_ended(fresh_store, f"Rhea Kapoor {said} {ended}{when}",
                {f"Rhea Kapoor {said} {kept_name}", "Rhea Kapoor speaks Hindi"},
                f"Rhea Kapoor stopped {gerund} {ended}")


def _only_ended(store: memory_es.MemoryStore, old: str, kept: set[str], told: str) -> None:
    """Once ``old`` and ``kept`` are remembered, ``told`` ends ``old`` and nothing else."""
    tenant, ti = fresh_tenant(), TextInterface(store)
    for text in (old, *sorted(kept)):
        ti.remember(tenant, text + ".")
    ti.remember(tenant, told + ".")
    assert current_texts(store, tenant) == kept | {told}
