"""A phrase set off by a comma before the subject (SPEC §15): an opening adjunct is not
the subject (``In Berlin, Dana works …``), ``Surname, Given`` is the name it inverts, and
an apposition stays with the subject it follows, and a single opening word that is not
a name (``Yes``, ``OK``, ``Mom``) is not the subject either.

The property test builds each sentence from its parts, so the expected entity is known
without the interpreter.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memory_es.text.interpreter import RuleInterpreter

READ = RuleInterpreter()


def subject_of(sentence: str) -> str | None:
    clauses = READ(sentence).clauses
    assert len(clauses) == 1, clauses
    return clauses[0].entity


@pytest.mark.parametrize(("sentence", "entity"), [
    ("In Berlin, Dana works as a nurse.", "person:dana"),
    ("On Mondays, Dana swims.", "person:dana"),
    ("However, Dana moved to Oslo.", "person:dana"),
    ("Meanwhile, the clinic moved to Elm Street.", "topic:clinic"),
    ("Sadly, Mia Berg sold her piano.", "person:mia-berg"),
    ("Yes, Dana lives in Oslo.", "person:dana"),
    ("OK, Dana lives in Oslo.", "person:dana"),
    ("Mom, Dana lives in Oslo.", "person:dana"),
    ("Okafor, Lena is registered with the Riverside practice.", "person:lena-okafor"),
    ("Dana, my sister, lives in Oslo.", "person:dana"),
    ("Dana Berg, 34, lives in Oslo.", "person:dana-berg"),
    # not two name words: left as written
    ("Okafor, Lena and Tom went home.", "person:okafor"),
])
def test_the_subject_after_an_opening_phrase(sentence: str, entity: str) -> None:
    assert subject_of(sentence) == entity


GIVEN = ("Lena", "Omar", "Yuki", "Sofia", "Rhys", "Ines")
SURNAMES = ("Okafor", "Haddad", "Arai", "Bianchi", "Pritchard", "Moreau")
OPENINGS = ("In Berlin", "At the weekend", "After the move", "However", "Meanwhile",
            "Yesterday", "Unfortunately", "On Mondays", "Yes", "Well", "Oh", "OK")
PREDICATES = ("sold the old piano", "rents a flat in Lyon", "collects enamel pins",
              "covers the storage pager")


@given(st.sampled_from(GIVEN), st.sampled_from(SURNAMES), st.sampled_from(OPENINGS),
       st.sampled_from(PREDICATES), st.booleans())
def test_a_person_is_named_the_same_however_the_sentence_opens(
        given_name: str, surname: str, opening: str, predicate: str, inverted: bool) -> None:
    person = f"person:{given_name.lower()}-{surname.lower()}"
    assert subject_of(f"{given_name} {surname} {predicate}.") == person
    assert subject_of(f"{opening}, {given_name} {surname} {predicate}.") == person
    if inverted:
        assert subject_of(f"{surname}, {given_name} {predicate}.") == person
