"""The user's things (SPEC §15): a name after a preposition in ``my …`` is where the thing
goes, not a relative of the user's (``my direct debit to St Luke's Hospice``), and how
often a thing recurs is no word of it when no fact says it so (``my monthly direct debit``),
while a day still says which thing is meant."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import memory_es
from memory_es.text.interpreter import interpret
from tests.unit.text_support import assert_first_ended_only, store_examples, texts_after

_SLOW = store_examples(6)
CHARITIES = st.sampled_from(["St Luke's Hospice", "Oxfam", "the Royal National Lifeboat "
                             "Institution", "Cancer Research UK"])


@given(CHARITIES, st.sampled_from(["to", "for", "with", "at"]))
def test_a_name_after_a_preposition_is_no_relative(charity: str, preposition: str) -> None:
    clause = interpret(f"My monthly direct debit {preposition} {charity} has been "
                       "cancelled.").clauses[0]
    assert clause.entity == "user:self"


@given(st.sampled_from(["Ana", "Tom Berg"]), st.sampled_from(["sister", "brother-in-law"]))
def test_a_name_after_the_relation_is_the_relative(name: str, relation: str) -> None:
    assert interpret(f"My {relation} {name} lives in Leeds.").clauses[0].entity != "user:self"


@_SLOW
@given(CHARITIES, st.sampled_from(["monthly", "weekly", "yearly"]))
def test_how_often_is_no_word_of_the_thing(fresh_store: memory_es.MemoryStore,
                                           charity: str, often: str) -> None:
    period = {"monthly": "month", "weekly": "week", "yearly": "year"}[often]
    setup = [f"I give £20 a {period} by direct debit to {charity}.",
             "I sponsor a child in Kenya through ActionAid.",
             f"I volunteer in the {charity} charity shop on Saturday mornings."]
    after = texts_after(fresh_store, setup, "remember",
                        f"Since January my {often} direct debit to {charity} has been "
                        "cancelled.")
    assert_first_ended_only(setup, after)


@_SLOW
@given(st.sampled_from(["Monday", "Thursday"]), st.sampled_from(["Tom Reid", "Ana Lima"]))
def test_a_day_of_the_thing_still_says_which(fresh_store: memory_es.MemoryStore, day: str,
                                             person: str) -> None:
    other = "Thursday" if day == "Monday" else "Monday"
    setup = [f"{person} takes a {day} pottery class.", f"{person} teaches a {other} yoga class."]
    after = texts_after(fresh_store, setup, "remember", f"{person}'s {day} class was cancelled.")
    assert_first_ended_only(setup, after)
