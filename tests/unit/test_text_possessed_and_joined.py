"""Third-round text rules (SPEC §15), each built so the expected reading is known from
the parts:

* a verb after a possessive subject speaks of the thing possessed (``Lena's cat eats
  salmon`` is the cat's diet, not Lena's), so two possessed things never share a slot;
* ``whereas`` joins clauses with their own subjects, like ``and``, ``but``, ``while``
  (a ``;`` starts a new sentence: the interface resolves its pronoun);
* a first name followed by a surname is part of a full name: it never stands for another
  person who has that first name;
* a bracketed ``at`` is read before a spoken one (``reads mail at k.osei {at} …``);
* ``X搬到了Y`` and ``X ist nach Y gezogen`` are moves: a change of residence.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memory_es.text.identifiers import find_identifiers
from memory_es.text.interpreter import interpret
from memory_es.text.matching import analyse_query, named_entities, view
from memory_es.text.normalize import loose_key, query_name_keys
from tests.unit.test_text_matching import fact

OWNERS = ("Lena Okafor", "Omar Haddad", "Yuki Arai", "The user")
THINGS = ("cat", "dog", "van", "sister", "landlord")
PREDICATES = ("eats salmon", "lives in Leeds", "needs new tyres", "works at Acme")
JOINERS = (", and {p}", ", but {p}", ", whereas {p}", " while {p}")


@given(st.sampled_from(OWNERS), st.lists(st.sampled_from(THINGS), min_size=2, max_size=2,
                                          unique=True),
       st.lists(st.sampled_from(PREDICATES), min_size=2, max_size=2),
       st.sampled_from(JOINERS))
def test_two_possessed_things_are_two_facts_in_two_slots(
        owner: str, things: list[str], predicates: list[str], joiner: str) -> None:
    pronoun = "their" if owner == "The user" else "her"
    text = (f"{owner}'s {things[0]} {predicates[0]}"
            f"{joiner.format(p=pronoun)} {things[1]} {predicates[1]}.")
    clauses = interpret(text).clauses
    assert len(clauses) == 2, clauses
    assert clauses[0].entity == clauses[1].entity is not None
    assert clauses[0].attribute != clauses[1].attribute
    for clause, thing in zip(clauses, things, strict=True):
        assert thing in clause.attribute.split(".")


def test_a_verb_after_a_plain_subject_keeps_its_slot() -> None:
    assert [(c.entity, c.attribute) for c in interpret("Lena Okafor lives in Leeds.").clauses] \
        == [("person:lena-okafor", "home.city")]


FIRST = ("Alexey", "Maria", "Kwame", "Sofia")
SURNAMES = ("Morozov", "Morgunov", "Bianchi", "Asante")


@given(st.sampled_from(FIRST), st.lists(st.sampled_from(SURNAMES), min_size=2, max_size=2,
                                        unique=True))
def test_a_full_name_never_stands_for_another_person_with_that_first_name(
        first: str, surnames: list[str]) -> None:
    asked, stored = surnames
    views = [view(fact(f"{first} {stored} parks behind the depot."))]
    query = analyse_query(f"forget everything about {first} {asked}")
    assert named_entities(query, views, given_names=True) == {}
    alone = analyse_query(f"{first}'s parking")
    assert list(named_entities(alone, views, given_names=True)) == [views[0].fact.entity]


def test_x_and_ks_are_one_romanisation() -> None:
    assert loose_key("alexey morozov") == loose_key("aleksei morozov")
    assert loose_key("maxim") == loose_key("maksim")
    assert loose_key("alexey morozov") in query_name_keys("Alexey Morozov")


@given(st.sampled_from(("k.osei", "lena_o", "sam+bills", "pager-duty")),
       st.sampled_from(("health", "mailbox", "ops.example")),
       st.sampled_from(("{at}", "[at]", "(at)")),
       st.sampled_from(("reads mail at", "is reachable at", "writes from")))
def test_a_bracketed_at_wins_over_a_spoken_one(local: str, host: str, at: str,
                                               lead: str) -> None:
    written = f"{local} {at} {host.replace('.', ' {dot} ')} {{dot}} io"
    found = [(i.kind, i.canonical) for i in find_identifiers(f"Dana {lead} {written}.")]
    assert ("email", f"{local}@{host}.io") in found


@pytest.mark.parametrize(("text", "place"), [
    ("张敏搬到了成都。", "成都"),
    ("王芳搬去了杭州。", "杭州"),
    ("Jonas ist nach Hamburg gezogen.", "Hamburg"),
    ("Ole ist nach Graz umgezogen.", "Graz"),
])
def test_a_move_is_a_change_of_residence(text: str, place: str) -> None:
    (clause,) = interpret(text).clauses
    assert (clause.attribute, clause.value, clause.op) == ("home.city", place, "supersede")
