"""A forget that speaks of its person by a pronoun (SPEC §15): ``the puppet stories she
takes into the primaries`` forgets that fact of the one person every match is of, and
nothing when the matches are of several people or no pronoun stands for one."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import memory_es
from tests.unit.text_support import said, store_examples, texts_after

_SLOW = store_examples(6)

SETUP = ["Mei-Ling O'Donoghue takes a glove-puppet storytelling show round Islington "
         "primary schools on Wednesday mornings.",
         "Mei-Ling O'Donoghue repairs wooden puppet heads in a shared workshop in Hackney.",
         "Mei-Ling O'Donoghue runs a shadow puppet workshop at the Lantern in the holidays."]


@_SLOW
@given(st.sampled_from(["the glove-puppet stories she takes into the primary schools",
                        "her glove-puppet storytelling show for the primary schools",
                        "the glove-puppet show he takes round the primary schools"]))
def test_a_pronoun_stands_for_the_one_person_every_match_is_of(
        fresh_store: memory_es.MemoryStore, query: str) -> None:
    after = texts_after(fresh_store, SETUP, "forget", query)
    assert said(SETUP[1:]) <= after
    assert said(SETUP[:1]).isdisjoint(after)


@_SLOW
@given(st.sampled_from(["the glove-puppet stories she takes into the primary schools",
                        "the glove-puppet storytelling show for the primary schools"]))
def test_a_match_of_several_people_or_no_pronoun_forgets_nothing(
        fresh_store: memory_es.MemoryStore, query: str) -> None:
    setup = [*SETUP, "Ruth Abara takes a glove-puppet storytelling show round Islington "
             "primary schools on Wednesday mornings."]
    if "she" not in query.split():
        setup = SETUP
    after = texts_after(fresh_store, setup, "forget", query)
    assert said(setup) <= after


@_SLOW
@given(st.sampled_from(["release", "forget"]),
       st.sampled_from(["her weekday morning shifts behind the counter at the laundrette",
                        "the counter shifts she works at the laundrette on weekday mornings"]))
def test_a_relatives_near_twin_is_the_relatives_when_a_pronoun_names_the_person(
        fresh_store: memory_es.MemoryStore, op: str, query: str) -> None:
    """The daughter's fact kept under her mother's id is the daughter's: ``her … shifts``
    is the mother's own (and ``behind`` ends the noun phrase, as ``at`` does)."""
    setup = ["Lan Pham-Whitfield works the counter at Suds & Co laundrette on Cowley Road "
             "on weekday mornings.",
             "Lan Pham-Whitfield's daughter, Mai Whitfield, also works the counter at Suds & "
             "Co laundrette on Cowley Road on weekday mornings.",
             "Lan Pham-Whitfield does alterations for customers of Suds & Co laundrette."]
    after = texts_after(fresh_store, setup, op, query)
    assert said(setup[1:]) <= after
    assert said(setup[:1]).isdisjoint(after)
