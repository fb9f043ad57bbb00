"""What a query or an ending names among several facts of a person (SPEC §15).

- ``Tomasz's job at the hospital`` meets two facts by ``hospital``: his work as a
  radiographer there and his injections there. ``job`` names the topic of one of them by
  the core of its predicate, so that one is released and the other stays; with no topic
  that tells them apart, neither is.
- ``Minh's conservation work`` names an act (a noun made from a verb) that his one fact
  of work (``climbs as a tree surgeon``) does not tell: it is not that fact. A word of no
  act (``weekend job``) only says which one, and the one fact is it.
- ``Anand's apple pressing`` names an act (a gerund): ``prunes the apple trees`` shares
  the apples and tells another act, so it is not that fact (``presses cider`` may be,
  by world knowledge the rules do not have).
- ``Marisol's hospital interpreting``: ``hospital`` is a word of work, as the Crown
  Court is, but says which kind only where a fact holds it; a fact of another kind of
  the same act (``interpreter at Manchester Crown Court``) is not it.
- ``retired him from trialling at Bala`` ends what was done there, not another fact that
  is only at Bala (``sells lamb at the Bala farmers' market``): the pronoun is whom the
  act took from it, and what follows ``from`` is what ended.
- ``St George's Hospital``, ``St Mary's Church``: a saint's genitive in a place's name
  makes the place no one else's, so an owner's query still reaches the fact.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from tests.unit.text_support import said, texts_after

_SLOW = settings(max_examples=6, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])
PEOPLE = st.sampled_from(["Tomasz Kowalczyk", "Mei Tanaka", "Kofi Mensah-Bonsu"])
PLACES = st.sampled_from(["St George's Hospital", "St Mary's Hospital",
                          "Saint Luke's Hospital", "the Royal Infirmary hospital"])


@_SLOW
@given(PEOPLE, PLACES, st.sampled_from(["release", "forget"]))
def test_the_topic_named_picks_one_of_the_matches(
        fresh_store: memory_es.MemoryStore, person: str, place: str, op: str) -> None:
    job = f"{person} works night shifts as a radiographer at {place}."
    care = f"{person} is having steroid injections in the knee at {place}."
    first = person.split(maxsplit=1)[0]
    after = texts_after(fresh_store, [job, care], op, f"{first}'s job at the hospital")
    assert after == said([care])


@_SLOW
@given(PEOPLE, PLACES)
def test_no_topic_that_tells_them_apart_picks_neither(
        fresh_store: memory_es.MemoryStore, person: str, place: str) -> None:
    one = f"{person} has physiotherapy at {place}."
    other = f"{person} is having steroid injections in the knee at {place}."
    after = texts_after(fresh_store, [one, other], "release",
                        f"{person.split(maxsplit=1)[0]}'s appointment at the hospital")
    assert after == said([one, other])


@_SLOW
@given(PEOPLE, st.sampled_from(["conservation", "translation", "restoration"]),
       st.sampled_from(["release", "forget"]))
def test_an_act_the_one_fact_does_not_tell_is_not_it(
        fresh_store: memory_es.MemoryStore, person: str, act: str, op: str) -> None:
    job = f"{person} climbs as a tree surgeon for Peak Arb in Sheffield."
    other = f"{person} plants hedgerows on Saturdays with the Wildlife Trust."
    after = texts_after(fresh_store, [job, other], op, f"{person}'s weekend {act} work")
    assert after == said([job, other])


@_SLOW
@given(PEOPLE, st.sampled_from(["weekend job", "day job", "job"]))
def test_a_word_of_no_act_still_names_the_one_fact(
        fresh_store: memory_es.MemoryStore, person: str, asked: str) -> None:
    job = f"{person} climbs as a tree surgeon for Peak Arb in Sheffield."
    other = f"{person} plants hedgerows on Saturdays with the Wildlife Trust."
    after = texts_after(fresh_store, [job, other], "release", f"{person}'s {asked}")
    assert after == said([other])


@_SLOW
@given(PEOPLE, st.sampled_from(["release", "forget"]))
def test_a_fact_of_another_act_is_not_the_gerund_named(
        fresh_store: memory_es.MemoryStore, person: str, op: str) -> None:
    pruning = f"{person} prunes the apple trees at the community orchard in winter."
    cider = f"{person} presses cider with the orchard group every October."
    sue = f"{person}'s neighbour, Sue, also presses cider with the orchard group."
    after = texts_after(fresh_store, [pruning, cider, sue], op,
                        f"{person}'s autumn apple pressing")
    assert said([pruning]) <= after


@_SLOW
@given(st.sampled_from(["Marisol de la Cruz", "Mei Tanaka"]),
       st.sampled_from(["release", "forget"]))
def test_a_member_of_the_topic_says_no_kind_the_fact_does_not_hold(
        fresh_store: memory_es.MemoryStore, person: str, op: str) -> None:
    court = f"{person} works as a freelance interpreter at Manchester Crown Court."
    ward = f"{person} interprets for patients at Manchester Royal Infirmary."
    after = texts_after(fresh_store, [court, ward], op, f"{person}'s hospital interpreting")
    assert said([court]) <= after


@_SLOW
@given(st.sampled_from(["him", "her", "them"]))
def test_an_ending_from_a_place_leaves_what_is_only_there(
        fresh_store: memory_es.MemoryStore, whom: str) -> None:
    market = "I sell boxes of lamb at the Bala farmers' market once a month."
    trials = "I run my collie in the sheepdog trials at Bala every August."
    after = texts_after(fresh_store, [market, trials], "remember",
                        f"I've retired {whom} from trialling at Bala.")
    assert said([market]) <= after
