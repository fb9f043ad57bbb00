"""Who and what a query or an ending names (SPEC §15): the given names that open one
person's longer name, or a German genitive of the first (``Annegrets``), name that person;
a word of when before a query's head says no kind; and the verb of an ending, as the
fact's noun, tells the same act."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import memory_es
from tests.unit.text_support import assert_first_ended_only, said, store_examples, texts_after

_SLOW = store_examples(6)


@_SLOW
@given(st.sampled_from([
    ("Fatima Zahra Benali", "Fatima Zahra"), ("Rosa María Delgado", "Rosa María"),
    ("Harpreet Kaur Sandhu", "Harpreet Kaur")]), st.sampled_from(["forget", "release"]))
def test_given_names_that_open_one_persons_name_name_that_person(
        fresh_store: memory_es.MemoryStore, person: tuple[str, str], op: str) -> None:
    full, given_names = person
    setup = [f"{full} runs the homework club at Hollins Park Primary School on Tuesdays.",
             f"{full} sings in the Warrington Community Choir on Thursday evenings.",
             "Gemma Riley runs the chess club at Hollins Park Primary School on Tuesdays."]
    after = texts_after(fresh_store, setup, op, f"{given_names}'s homework club")
    assert_first_ended_only(setup, after)


@_SLOW
@given(st.sampled_from(["Monday night", "Saturday morning", "weekend"]),
       st.sampled_from(["forget", "release"]))
def test_a_word_of_when_before_the_head_says_no_kind(
        fresh_store: memory_es.MemoryStore, when: str, op: str) -> None:
    setup = ["Rosa Delgado plays the surdo drum in the Bloco Sol samba band.",
             "Rosa Delgado sews the costumes for Bloco Sol's carnival appearances.",
             "Rosa Delgado works as a sound technician at Bristol Old Vic."]
    after = texts_after(fresh_store, setup, op, f"Rosa's {when} drumming with Bloco Sol")
    assert_first_ended_only(setup, after)


@_SLOW
@given(st.sampled_from([("marshals at", "volunteers as a course marshal at"),
                        ("stewards at", "helps out as a car park steward at")]),
       st.sampled_from(["Aroha Ngata", "Bethan Hughes"]))
def test_the_verb_of_an_ending_as_the_facts_noun_is_the_same_act(
        fresh_store: memory_es.MemoryStore, verbs: tuple[str, str], person: str) -> None:
    ending, fact = verbs
    setup = [f"{person} {fact} Heaton Park parkrun on Saturday mornings.",
             f"{person} is the event director of the junior parkrun at Heaton Park on "
             "Sunday mornings."]
    after = texts_after(fresh_store, setup, "remember",
                        f"{person} no longer {ending} the Saturday parkrun.")
    assert_first_ended_only(setup, after)


@_SLOW
@given(st.sampled_from([("Annegret Wolters", "Annegrets"), ("Jürgen Brandt", "Jürgens"),
                        ("Katharina von Stetten", "Katharinas")]),
       st.sampled_from(["forget", "release"]))
def test_a_german_genitive_given_name_names_the_person(
        fresh_store: memory_es.MemoryStore, person: tuple[str, str], op: str) -> None:
    full, genitive = person
    setup = [f"{full} besucht jeden Samstag den Agility-Kurs der Hundeschule Pfotenglück.",
             f"{full} arbeitet als Steuerfachangestellte in einer Kanzlei in Lüneburg."]
    after = texts_after(fresh_store, setup, op, f"{genitive} Agility-Kurs")
    assert_first_ended_only(setup, after)


@_SLOW
@given(st.sampled_from(["Jr", "Sr", "III"]), st.sampled_from(["Tom Berg", "Tom Berg's chess"]))
def test_a_full_name_is_no_given_name_of_the_same_name_with_a_suffix(
        fresh_store: memory_es.MemoryStore, suffix: str, query: str) -> None:
    setup = [f"Tom Berg {suffix} plays chess at the club.", f"Tom Berg {suffix} works at Acme."]
    after = texts_after(fresh_store, setup, "forget", query)
    assert said(setup) <= after


@_SLOW
@given(st.sampled_from([("Dragana Petrović", "Dragana Petrovićs", "Draganas"),
                        ("Hülya Demir", "Hülya Demirs", "Hülyas")]),
       st.sampled_from(["Schwager", "Schwester"]))
def test_a_relative_named_in_the_german_genitive_bears_no_given_name(
        fresh_store: memory_es.MemoryStore, person: tuple[str, str, str], kin: str) -> None:
    full, genitive, given_genitive = person
    setup = [f"{full} arbeitet montags in der Frühschicht im Versandlager von Brandt Logistik.",
             f"{genitive} {kin}, Zoran Jović, arbeitet ebenfalls montags in der Frühschicht im "
             "Versandlager von Brandt Logistik.",
             f"{full} sitzt im Betriebsrat von Brandt Logistik."]
    after = texts_after(fresh_store, setup, "forget", f"{given_genitive} Frühschicht")
    assert_first_ended_only(setup, after)
