"""Verb phrases coordinated under one subject are separate facts of that subject.

``Yuki Arai quilts and breeds rabbits``: the word after ``and`` is written in the same
form as the first verb and is a verb of the broad list (``data/english_verbs.txt``), and
an object follows it, so it opens a clause of its own. A plural noun after ``and`` at
the end of the sentence or before a preposition stays part of the noun phrase.
"""

from __future__ import annotations

import pytest

import memory_es
from memory_es.text import TextInterface
from memory_es.text.interpreter import interpret

T = "acme"


def _texts(text: str) -> list[str]:
    return [c.text for c in interpret(text).clauses]


@pytest.mark.parametrize(("text", "clauses"), [
    ("Yuki Arai quilts and breeds rabbits.", ["Yuki Arai quilts", "Yuki Arai breeds rabbits"]),
    ("Rhys Pritchard drives a tractor and herds sheep on a hill farm.",
     ["Rhys Pritchard drives a tractor", "Rhys Pritchard herds sheep on a hill farm"]),
])
def test_a_parallel_verb_opens_a_clause_with_the_same_subject(
        text: str, clauses: list[str]) -> None:
    """The second verb, unknown to the small verb list, still starts a second fact."""
    assert _texts(text) == clauses
    assert len({c.entity for c in interpret(text).clauses}) == 1


@pytest.mark.parametrize("text", ["Lena Okafor owns cats and dogs.",
                                  "Lena Okafor owns cats and dogs in Leeds.",
                                  "Kim repairs watches and clocks.",
                                  "Ana paints landscapes and portraits of dogs."])
def test_coordinated_nouns_stay_one_fact(text: str) -> None:
    """A plural noun after ``and`` with no object after it is not a verb."""
    assert len(_texts(text)) == 1


def test_releasing_one_conjunct_keeps_the_other(fresh_store: memory_es.MemoryStore) -> None:
    """``Rhys's sheep`` releases the herding, not the tractor."""
    ti = TextInterface(fresh_store)
    ti.remember(T, "Rhys Pritchard drives a tractor and herds sheep on a hill farm.")
    ti.release(T, "Rhys's sheep")
    assert {f.text for f in fresh_store.current(T)} == {"Rhys Pritchard drives a tractor"}


def test_an_object_pronoun_points_back_to_the_first_object() -> None:
    """``owns a narrowboat and moors it in Oxford``: two facts, the second written with
    the thing ``it`` points back to."""
    assert _texts("Omar Haddad owns a narrowboat and moors it in Oxford.") == [
        "Omar Haddad owns a narrowboat", "Omar Haddad moors the narrowboat in Oxford"]


@pytest.mark.parametrize("text", ["User bought a piano and sold it last year.",
                                  "User drives a Volvo and drives it every day."])
def test_an_ending_or_the_same_slot_stays_one_fact(text: str) -> None:
    """A verb that ends what the first began, or a second reading of the same slot, keeps
    the sentence whole."""
    assert len(_texts(text)) == 1


def test_a_way_to_work_is_a_slot_of_its_own() -> None:
    """``drives it to work`` is the commute, not the car: two facts, so a new commute
    (``now cycles to work``) leaves the Volvo."""
    assert _texts("User drives a Volvo and drives it to work.") == [
        "User drives a Volvo", "User drives the Volvo to work"]


def test_releasing_the_pronoun_clause_keeps_the_first(
        fresh_store: memory_es.MemoryStore) -> None:
    """``Omar's mooring in Oxford`` releases the mooring, not the narrowboat."""
    ti = TextInterface(fresh_store)
    ti.remember(T, "Omar Haddad owns a narrowboat and moors it in Oxford.")
    ti.release(T, "Omar's mooring in Oxford")
    assert {f.text for f in fresh_store.current(T)} == {"Omar Haddad owns a narrowboat"}
