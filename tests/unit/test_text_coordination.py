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


@pytest.mark.parametrize("text", ["Ivy Lowe works at Slaughter and May.",
                                  "Ivy Lowe banks with Coutts and Will."])
def test_a_capitalised_modal_after_and_is_a_name(text: str) -> None:
    """``May`` and ``Will`` inside a sentence, with a capital, name someone or something
    (a firm's name of two surnames): no clause of their own."""
    assert _texts(text) == [text.rstrip(".")]


@pytest.mark.parametrize(("first", "person"), [("works at Acme", "Will Cole works at Bosch"),
                                               ("lives in Leeds", "May Chen lives in York"),
                                               ("plays chess", "Can Yilmaz plays golf")])
def test_a_name_that_is_a_modal_opens_a_clause_of_its_own(first: str, person: str) -> None:
    """``Tom works at Acme and Will Cole works at Bosch``: a capitalised modal after
    ``and``, with its own verb after the name, is that clause's subject, not a modal
    of the first subject's."""
    clauses = interpret(f"Tom Rhys {first} and {person}.").clauses
    assert [c.text for c in clauses] == [f"Tom Rhys {first}", person]
    assert clauses[1].entity == "person:" + "-".join(person.lower().split()[:2])
    assert "modality:unrealised" not in clauses[1].rules


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


@pytest.mark.parametrize(("setup", "change", "kept"), [
    (["Hugo Lamb lives in Bath.", "Hugo Lamb works at Dyson."],
     "Hugo Lamb now lives in Bristol and works at Airbus.", "Hugo Lamb's brother lives in Bath"),
    (["Emma Krause wohnt in Köln.", "Emma Krause arbeitet bei Bayer."],
     "Emma Krause wohnt jetzt in Berlin und arbeitet bei Zalando.",
     "Emma Krauses Schwester wohnt in Köln"),
    (["刘洋住在成都。", "刘洋在华为工作。"], "刘洋现在住在重庆\uff0c在阿里巴巴工作。",
     "刘洋的哥哥住在成都"),
])
def test_a_change_adverb_of_the_first_predicate_holds_for_the_second(
        fresh_store: memory_es.MemoryStore, setup: list[str], change: str, kept: str) -> None:
    """``X now lives in Y and works at Z``: ``now`` (``jetzt``, ``现在``) says both are new,
    so both old facts end; a relative's like fact stays, and without the adverb the
    second is no change (``still works at``: kept)."""
    ti = TextInterface(fresh_store)
    for text in (*setup, kept):
        ti.remember(T, text)
    ti.remember(T, change)
    assert {f.text for f in fresh_store.current(T)} & {s.rstrip(".。") for s in setup} == set()
    assert kept in {f.text for f in fresh_store.current(T)}


def test_a_continued_second_predicate_is_no_change() -> None:
    (moved, still) = interpret("Hugo Lamb now lives in Bristol and still works at Dyson.").clauses
    assert moved.op == "supersede" and still.op == "assert"
