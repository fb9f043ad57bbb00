"""How often and when are no thing alone, and a verb of no list after ``no longer`` is a
verb (SPEC §15: an operation reaches only what it names).

- A person's facts share how often they recur (``every week``, ``one day a week``): a
  forget or release of ``Tomasz's weekly kickabout`` that meets a fact by such a word
  alone ends nothing (it reports the candidates).
- A day or a part of the day says which fact is meant when one fact holds it
  (``Hamish's Tuesday kickabout`` is ``plays walking football on Tuesday nights``), and
  nothing when several do (``Declan's morning dips`` beside ``swims most mornings`` and
  ``takes bisoprolol every morning``); a query that asks for the time itself (``Priya's
  Wednesday mornings``) reaches the one fact that holds it.
- An ending shares no word of when with what it ends (``no longer subs on the night
  shift`` leaves ``teaches a Monday night class``), unless that is all it says (``no
  longer works nights`` ends ``works nights``).
- ``went self-employed and no longer thatches for Moorland Thatching``: a word written in
  a third-person form after ``and no longer`` opens a predicate of its own, so what it
  ends ends, even when no verb list holds it.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text.interpreter import interpret
from tests.unit.text_support import said, texts_after

_SLOW = settings(max_examples=6, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])
PEOPLE = st.sampled_from(["Declan Fitzgerald", "Tomasz Nowicki", "Mei Tanaka"])

# (a fact, another of the same person that shares only a word of when, a query for a thing
# of neither)
SHARED_TIMES = [
    ("{p} takes 5 mg of bisoprolol every morning.", "{p} swims in the river most mornings.",
     "{p}'s morning dips"),
    ("{p} studies for a plumbing diploma one day a week.",
     "{p} plays five-a-side football on Thursday nights.", "{p}'s weekly kickabout"),
    ("{p} visits an aunt in Leeds every weekend.", "{p} works weekend shifts at a garage.",
     "{p}'s weekend hikes"),
]


@_SLOW
@given(PEOPLE, st.sampled_from(SHARED_TIMES), st.sampled_from(["forget", "release"]))
def test_a_word_of_when_alone_names_no_fact(fresh_store: memory_es.MemoryStore, person: str,
                                              case: tuple[str, str, str], op: str) -> None:
    one, other, query = (t.format(p=person) for t in case)
    assert texts_after(fresh_store, [one, other], op, query) == said([one, other])


@_SLOW
@given(PEOPLE, st.sampled_from(["Tuesday", "Friday"]), st.sampled_from(["forget", "release"]))
def test_the_one_fact_of_a_day_is_the_days_thing(
        fresh_store: memory_es.MemoryStore, person: str, day: str, op: str) -> None:
    timed = f"{person} plays walking football at a sports centre on {day} nights."
    kept = [f"{person} sees a podiatrist every six weeks.",
            f"{person} studies for a diploma one day a week."]
    after = texts_after(fresh_store, [timed, *kept], op, f"{person}'s {day} kickabout")
    assert after == said(kept)


@_SLOW
@given(PEOPLE, st.sampled_from(["forget", "release"]))
def test_a_query_for_the_time_itself_still_reaches_it(
        fresh_store: memory_es.MemoryStore, person: str, op: str) -> None:
    kept = f"{person} plays chess at the Hastings club."
    timed = f"{person} swims at the lido on Wednesday mornings."
    after = texts_after(fresh_store, [kept, timed], op, f"{person}'s Wednesday mornings")
    assert after == said([kept])


@_SLOW
@given(PEOPLE)
def test_an_ending_shares_no_word_of_when(fresh_store: memory_es.MemoryStore,
                                          person: str) -> None:
    night_class = f"{person} teaches a Monday night shorthand class at the college."
    shifts = f"{person} works nights."
    after = texts_after(fresh_store, [night_class, shifts], "remember",
                        f"{person} no longer subs on the night shift.")
    assert said([night_class, shifts]) <= after
    after = texts_after(fresh_store, [night_class, shifts], "remember",
                        f"{person} no longer works nights.")
    assert said([night_class]) <= after and said([shifts]).isdisjoint(after)


@given(st.sampled_from(["thatches", "coppices", "upholsters", "farriers"]))
def test_a_verb_of_no_list_after_no_longer_opens_a_predicate(verb: str) -> None:
    texts = [c.text for c in interpret(
        f"Declan Fitzgerald went self-employed in March and no longer {verb} for "
        "Moorland Crafts.").clauses]
    assert texts == ["Declan Fitzgerald went self-employed in March",
                     f"Declan Fitzgerald no longer {verb} for Moorland Crafts"]


@_SLOW
@given(PEOPLE)
def test_the_rare_verb_ends_what_it_did(fresh_store: memory_es.MemoryStore,
                                        person: str) -> None:
    ended = f"{person} thatches roofs for Moorland Thatching in Chagford."
    kept = f"{person} swims in the River Teign."
    after = texts_after(fresh_store, [ended, kept], "remember",
                        f"{person} went self-employed in March and no longer thatches for "
                        "Moorland Thatching.")
    assert said([ended]).isdisjoint(after)
    assert said([kept]) <= after
