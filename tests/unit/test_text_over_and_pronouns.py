"""``is over`` ends what its subject names, and a pronoun of a person stands for a person
(SPEC §15).

Predicative ``over`` with nothing after it is the adjective *finished*: ``her appeal is
over`` ends the appeal, ``is not over`` ends nothing and ``is over the garage`` is a
place. In ``The council has cancelled the fine Adaeze got, so her appeal is over`` the
``her`` is Adaeze's (a council is no ``she``), and a coordinated clause's ``his bike``
is the bike, not every fact of its owner.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import memory_es
from tests.unit.text_support import assert_first_ended_only, said, store_examples, texts_after

_SLOW = store_examples()
PEOPLE = st.sampled_from(["Adaeze Okonkwo-Bright", "Lukas Hoffmann", "Mei Tanaka"])
APPEAL = "{p} is appealing a parking fine from Western Road in Brighton."
KEPT = ["{p} has a residents' parking permit for zone Y in Brighton.",
        "{p} works as a dental nurse on Western Road in Brighton."]


@_SLOW
@given(PEOPLE, st.sampled_from([
    "{p}'s appeal is over.",
    "{p}'s appeal is finally over now.",
    "The council has cancelled the fine {p} got on Western Road, so her appeal is over.",
    "The council has dropped the fine {p} got on Western Road, and his appeal is now over.",
    "The council has cancelled the fine {p} got on Western Road, so her appeal was withdrawn."]))
def test_what_is_over_ends(fresh_store: memory_es.MemoryStore, person: str,
                           told: str) -> None:
    setup = [t.format(p=person) for t in (APPEAL, *KEPT)]
    after = texts_after(fresh_store, setup, "remember", told.format(p=person))
    assert_first_ended_only(setup, after)


@_SLOW
@given(PEOPLE, st.sampled_from(["{p}'s appeal is not over.", "{p}'s appeal is never over.",
                                "{p}'s parking permit is over the limit for zone Y."]))
def test_what_is_not_over_or_over_something_stays(fresh_store: memory_es.MemoryStore,
                                                  person: str, told: str) -> None:
    setup = [t.format(p=person) for t in (APPEAL, *KEPT)]
    after = texts_after(fresh_store, setup, "remember", told.format(p=person))
    assert said(setup) <= after


def test_a_coordinated_possessive_pronoun_names_the_thing(
        fresh_store: memory_es.MemoryStore) -> None:
    setup = ["Tom Baker owns a red Ford Focus.", "Tom Baker rides a Brompton bike to work.",
             "Tom Baker plays chess at the Kings Arms.", "Tom Baker lives in Hove."]
    after = texts_after(fresh_store, setup, "remember",
                        "Tom Baker sold the Ford, and his bike was stolen.")
    assert said(setup[2:]) <= after
    assert said(setup[:2]).isdisjoint(after)


@_SLOW
@given(PEOPLE, st.sampled_from([
    ("Since her knee went, {p} has stopped taking visitors round South Stack, though she "
     "still counts the seabirds there.", "South Stack"),
    ("Now that she is on late shifts, {p} has stopped going to the crew's practices "
     "upstairs at the Star, though she is still handling the bookings.", "Star"),
    ("Now that she is on late shifts, {p} has stopped going to the crew's Thursday night "
     "practices, though she is still handling the bookings.", "Thursday")]))
def test_a_kept_clauses_pronoun_is_the_person_not_a_place_or_a_day(
        fresh_store: memory_es.MemoryStore, person: str, told: tuple[str, str]) -> None:
    """After a reason clause the sentence's first subject is no person, so ``she`` stands
    for the last person named: never a place a preposition or an article opens, nor a
    day."""
    text, place = told
    after = texts_after(fresh_store, [APPEAL.format(p=person)], "remember",
                        text.format(p=person))
    first = person.split(maxsplit=1)[0]
    assert any(t.startswith((person, first)) and "still" in t for t in after), after
    assert not any(t.startswith(place) for t in after), after


@_SLOW
@given(st.sampled_from(["Pieter van der Hoek", "Mei Tanaka"]),
       st.sampled_from(["has been dropped", "was cancelled", "is over"]))
def test_a_long_subject_after_so_opens_a_clause_of_its_own(
        fresh_store: memory_es.MemoryStore, person: str, ended: str) -> None:
    """``Ludlow College has cut its evening classes, so Pieter's Friday green woodwork
    course has been dropped``: after ``, so`` a subject of five words and its verb are a
    clause of their own, which ends the course; the college's cut ends nothing of his."""
    given_name = person.split(maxsplit=1)[0]
    setup = [f"{person} teaches a green woodworking course at Ludlow College on Friday "
             "evenings.",
             f"{person} builds cartwheels at the rural life museum near Ludlow.",
             f"{person} studies Welsh at Ludlow College on Monday evenings."]
    after = texts_after(fresh_store, setup, "remember",
                        f"Ludlow College has cut its evening classes, so {given_name}'s "
                        f"Friday green woodwork course {ended}.")
    assert_first_ended_only(setup, after)
