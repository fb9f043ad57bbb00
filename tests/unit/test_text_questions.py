"""A yes/no question is read in statement order (SPEC §15: a name is one entity however
the sentence is shaped).

English puts the auxiliary before the subject in a question: ``Is Tom Baker still at
Acme?``. Read as written, the auxiliary became part of the name (``person:is-tom-baker``),
so the question made a person that does not exist and reached none of Tom Baker's facts.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import memory_es
from memory_es.text.interpreter import interpret
from memory_es.text.paths import entity_id
from memory_es.text.sentences import uninverted
from tests.unit.text_support import texts_after

NAMES = st.sampled_from(["Tom Baker", "Ana Lima", "Jürgen von Bülow", "Mei Tanaka"])


@given(NAMES, st.sampled_from([("Is", "still at Acme"), ("Has", "moved to Leeds"),
                               ("Does", "still work at Acme"), ("Was", "born in Oslo"),
                               ("Will", "sell the boat"), ("Did", "join the choir")]))
def test_a_question_is_about_the_name_after_its_auxiliary(name: str,
                                                          shape: tuple[str, str]) -> None:
    aux, rest = shape
    [clause] = interpret(f"{aux} {name} {rest}?").clauses
    assert clause.entity == entity_id("person", name)
    assert clause.unrealised


@given(st.sampled_from([("Am I late for the meeting?", "user:self"),
                        ("Are my parents coming on Friday?", "user:self"),
                        ("Is the boiler still under warranty?", "topic:boiler"),
                        ("Does the boiler need a service?", "topic:boiler"),
                        ("Is the boiler old?", "topic:boiler")]))
def test_a_pronoun_or_a_noun_phrase_after_the_auxiliary_is_the_subject(
        case: tuple[str, str]) -> None:
    text, entity = case
    [clause] = interpret(text).clauses
    assert clause.entity == entity


def test_a_question_to_the_assistant_is_left_as_written() -> None:
    """``you`` after the auxiliary asks the assistant something: no fact's subject."""
    assert uninverted("Can you remind me about the dentist") is None


def test_a_question_ends_nothing(fresh_store: memory_es.MemoryStore) -> None:
    """A question asks whether a fact holds; it never ends the fact it names."""
    setup = ["Tom Baker works at Acme.", "Tom Baker plays golf."]
    after = texts_after(fresh_store, setup, "remember", "Is Tom Baker still at Acme?")
    assert {"Tom Baker works at Acme", "Tom Baker plays golf"} <= after
