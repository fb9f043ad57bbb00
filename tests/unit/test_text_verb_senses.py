"""A verb's topic is the fact's only in the verb's sense of it (SPEC §15): ``runs a
beginners' photography class`` manages a class and is no sport, so ``sports
photography`` is the football club's match days, not the class; ``runs a marathon`` is
a sport."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import memory_es
from tests.unit.text_support import assert_first_ended_only, store_examples, texts_after

_SLOW = store_examples()
PEOPLE = st.sampled_from(["Marguerite D'Souza", "Kofi Mensah", "Ilse Brandt"])
SPORT = "{p} photographs the players and match days for Bury Town Football Club."
KEPT = ["{p} runs a beginners' photography evening class at West Suffolk College.",
        "{p} photographs weddings at Hengrave Hall."]


@_SLOW
@given(PEOPLE)
def test_a_verb_in_another_sense_lends_no_topic(fresh_store: memory_es.MemoryStore,
                                                person: str) -> None:
    setup = [t.format(p=person) for t in (SPORT, *KEPT)]
    after = texts_after(fresh_store, setup, "forget", f"{person}'s sports photography")
    assert_first_ended_only(setup, after)


@_SLOW
@given(PEOPLE)
def test_a_verb_in_its_own_sense_keeps_its_topic(fresh_store: memory_es.MemoryStore,
                                                 person: str) -> None:
    setup = [f"{person} runs a marathon every spring.",
             f"{person} runs a photography class at the college."]
    after = texts_after(fresh_store, setup, "forget", f"{person}'s marathon running")
    assert_first_ended_only(setup, after)
