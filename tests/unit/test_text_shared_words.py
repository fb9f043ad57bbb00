"""Which words an ending shares with a fact (SPEC §15): a word said as a common noun on
one side and only inside a proper name on the other is no word in common; ``had to``
before a verb is a modal, so ``had to give up X`` ends X; a fact that shares only part of
what another ended fact shares (the town, the organisation) is another thing there; and
a gerund before the thing that ended (``sweeping rounds``) names the fact's verb, but
meets no fact of that verb that shares nothing else or holds another kind of the thing
(``her running club`` leaves ``runs a bakery`` and ``runs the book club``)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import memory_es
from tests.unit.text_support import assert_first_ended_only, store_examples, texts_after

_SLOW = store_examples(6)
PEOPLE = st.sampled_from(["Kwabena Asante-Mensah", "Ingrid Solberg", "Tomás Ortega"])


@_SLOW
@given(PEOPLE, st.sampled_from([
    ("North East Blood Bikes", "has stopped riding the Friday night blood runs for {o}.",
     "rides for {o} on Friday nights.",
     ["takes calls on the {o} control desk on Sunday evenings.",
      "services the {o} motorcycles at the charity's garage in Hexham."]),
    ("Sheffield Food Bank", "no longer delivers the food parcels for {o}.",
     "delivers food parcels for {o} on Friday mornings.",
     ["sorts donations in the {o} warehouse on Tuesday evenings.",
      "gives talks about {o} to schools around Sheffield."]),
]))
def test_a_word_of_the_object_inside_anothers_name_is_no_word_in_common(
        fresh_store: memory_es.MemoryStore, person: str,
        example: tuple[str, str, str, list[str]]) -> None:
    org, ending, done, kept = example
    setup = [f"{person} {t.format(o=org)}" for t in (done, *kept)]
    told = f"{person} {ending.format(o=org)}"
    after = texts_after(fresh_store, setup, "remember", told)
    assert_first_ended_only(setup, after)


@_SLOW
@given(PEOPLE, st.sampled_from([
    "{p} no longer plays for Canterbury Hockey Club's men's third team.",
    "{p} has hung up his pads and no longer plays for Canterbury Hockey Club's men's "
    "third team, though he still coaches the under-12s on Sunday mornings."]))
def test_a_name_word_of_the_ending_is_no_common_noun_of_the_fact(
        fresh_store: memory_es.MemoryStore, person: str, told: str) -> None:
    setup = [f"{person} plays in goal for Canterbury Hockey Club's men's third team on "
             "Saturday afternoons.",
             f"{person} coaches the under-12s at Canterbury Hockey Club on Sunday mornings.",
             f"{person} umpires school hockey matches at Kent College on Wednesday "
             "afternoons."]
    after = texts_after(fresh_store, setup, "remember", told.format(p=person))
    assert_first_ended_only(setup, after)


@_SLOW
@given(st.sampled_from(["Ingrid Solberg", "I"]), st.sampled_from([
    "{p} had to give up walking Biscuit on Mondays.",
    "Since the new job, {p} {have} had to stop walking Biscuit.",
    "{p} {have} had to give up walking Biscuit, but Callum still takes him out."]))
def test_had_to_before_a_verb_is_a_modal(fresh_store: memory_es.MemoryStore,
                                         person: str, told: str) -> None:
    walks = "walk" if person == "I" else "walks"
    setup = [f"{person} {walks} my neighbour's spaniel, Biscuit, along the canal on Mondays.",
             f"{person} {walks} dogs for the Calder Valley Animal Sanctuary on Saturdays."]
    have = "have" if person == "I" else "has"
    after = texts_after(fresh_store, setup, "remember", told.format(p=person, have=have))
    assert_first_ended_only(setup, after)


@_SLOW
@given(st.sampled_from([
    (["{p} is taking a teaching assistant course at Warrington and Vale Royal College on "
      "Thursday evenings.",
      "{p} runs the homework club at Hollins Park Primary School in Warrington on "
      "Tuesdays."],
     "{p} no longer goes to Warrington and Vale Royal College on Thursday evenings.",
     ["Fatima Zahra Benali", "Gemma Riley"]),
    (["{p} besucht jeden Samstagvormittag den Agility-Kurs der Hundeschule Pfotenglück.",
      "{p} hilft dienstagabends als Assistenztrainerin im Welpenkurs der Hundeschule "
      "Pfotenglück."],
     "Seit März geht {p} nicht mehr zum Agility-Kurs bei Pfotenglück.",
     ["Annegret Wolters", "Heike Brandt"]),
]), st.integers(0, 1))
def test_a_fact_sharing_part_of_what_another_shares_is_another_thing(
        fresh_store: memory_es.MemoryStore, example: tuple[list[str], str, list[str]],
        which: int) -> None:
    texts, told, people = example
    person = people[which]
    setup = [t.format(p=person) for t in texts]
    after = texts_after(fresh_store, setup, "remember", told.format(p=person))
    assert_first_ended_only(setup, after)


@_SLOW
@given(PEOPLE, st.sampled_from([
    "{p} has given up her running club.", "{p} has given up the running club in the park."]))
def test_a_gerund_before_the_thing_meets_no_verb_of_another_thing(
        fresh_store: memory_es.MemoryStore, person: str, told: str) -> None:
    setup = [f"{person} goes to a running club in the park on Tuesdays.",
             f"{person} runs a bakery on Castle Street.",
             f"{person} runs the book club at the library."]
    after = texts_after(fresh_store, setup, "remember", told.format(p=person))
    assert_first_ended_only(setup, after)


@_SLOW
@given(st.sampled_from(["Gwilym ap Rhys", "Ingrid Solberg"]), st.sampled_from([
    "{p} has called time on the sweeping rounds for Beacons Sweeps.",
    "{p} has given up her Monday-to-Wednesday sweeping rounds for Beacons Sweeps."]))
def test_the_act_a_gerund_names_is_the_facts_verb(
        fresh_store: memory_es.MemoryStore, person: str, told: str) -> None:
    setup = [f"{person} sweeps chimneys for Beacons Sweeps in Brecon on Mondays.",
             f"{person} fits chimney cowls for Beacons Sweeps around Brecon on Thursdays.",
             f"{person}'s Guild of Master Sweeps membership number is GMS-2741."]
    after = texts_after(fresh_store, setup, "remember", told.format(p=person))
    assert_first_ended_only(setup, after)
