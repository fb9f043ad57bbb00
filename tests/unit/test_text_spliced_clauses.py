"""A clause with its own subject after a comma is its own fact (SPEC §15).

Notes splice clauses without a conjunction: ``Priya moved to Bristol, Omar still lives in
Leeds`` is two facts, each of its own person, and only Priya's home changes. An adverb
before the verb (``still``, ``now``) is not part of the subject. A place's region after a
comma (``Leeds, Yorkshire``) and a list of names (``Ana, Ben and Carl``) stay one clause.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from memory_es.text.interpreter import interpret
from tests.unit.text_support import current_texts, fresh_tenant, texts_after

_SLOW = settings(max_examples=8, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])
PEOPLE = st.sampled_from([("Priya Raman", "Omar Haddad"), ("Lucia Ferrari", "Hugo Lambert"),
                          ("Mei Tanaka", "Arjun Rao")])
ADVERBS = st.sampled_from(["still ", "now ", "also ", ""])


@given(PEOPLE, ADVERBS, st.sampled_from([",", ";"]))
def test_a_spliced_clause_has_its_own_subject(people: tuple[str, str], adverb: str,
                                              mark: str) -> None:
    first, second = people
    clauses = interpret(f"{first} moved to Bristol{mark} {second} {adverb}works in Leeds.").clauses
    assert [c.entity for c in clauses] == [
        "person:" + first.lower().replace(" ", "-"), "person:" + second.lower().replace(" ", "-")]


@given(st.sampled_from(["lives in Leeds, Yorkshire", "works with Ana, Ben and Carl",
                        "moved to Paris, France last year"]))
def test_a_comma_inside_a_clause_keeps_it_whole(predicate: str) -> None:
    assert len(interpret(f"Omar Haddad {predicate}.").clauses) == 1


@_SLOW
@given(PEOPLE, st.sampled_from(["still ", "also ", ""]))
def test_only_the_person_who_moved_moves(fresh_store: memory_es.MemoryStore,
                                         people: tuple[str, str], adverb: str) -> None:
    first, second = people
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for text in (f"{first} lives in Bath.", f"{second} lives in Leeds.",
                 f"{second} works in York."):
        ti.remember(tenant, text)
    ti.remember(tenant, f"Met {first} and {second} today; {first.split()[0]} moved to "
                        f"Bristol, {second.split()[0]} {adverb}lives in Leeds.")
    current = current_texts(fresh_store, tenant)
    assert f"{first} lives in Bath" not in current
    assert {f"{second} lives in Leeds", f"{second} works in York"} <= current


@_SLOW
@given(PEOPLE, st.sampled_from([" and", ", and", ";"]),
       st.sampled_from([("left", "Acme", "works at Acme"), ("sold", "his car", "owns a car")]))
def test_a_name_with_a_past_verb_after_and_opens_its_own_clause(
        fresh_store: memory_es.MemoryStore, people: tuple[str, str], joint: str,
        act: tuple[str, str, str]) -> None:
    """``Ada moved to Bergen and Ben Roy left DNB``: the second clause is Ben's, not a
    place of Ada's, and it ends his fact only; a list of names after ``and`` with no verb
    of its own stays the object (``met Tom Berg and Ben Roy``)."""
    (first, second), (verb, obj, held) = people, act
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    kept = [f"{first} {held}", f"{first} lives in Bath"]
    for text in (f"{second} {held}", *kept):
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"{first} moved to Bristol{joint} {second} {verb} {obj}.")
    current = current_texts(fresh_store, tenant)
    assert f"{second} {held}" not in current
    assert kept[0] in current and kept[1] not in current
    assert len(interpret(f"{first} met Tom Berg and {second} in Oslo.").clauses) == 1


@_SLOW
@given(PEOPLE, st.sampled_from([", and he", ", so he", ", yet he", " and he"]),
       st.sampled_from(["no longer works at Aviva", "doesn't work at Aviva any more",
                        "never works at Aviva now"]))
def test_a_pronoun_clause_after_a_conjunction_is_the_persons(
        fresh_store: memory_es.MemoryStore, people: tuple[str, str], joint: str,
        ended: str) -> None:
    """``Omar moved to Leeds, so he no longer works at Aviva``: ``so`` and ``yet`` after a
    comma join a clause of its own subject as ``and`` does, and the adverbs before its
    verb are no part of that subject (``he no`` named a new entity): the pronoun is the
    person, whose job ends; another person's job at the same firm stays. ``so`` with no
    subject after it joins nothing (``is so happy``)."""
    first, second = people
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for text in (f"{first} works at Aviva.", f"{second} works at Aviva.",
                 f"{first} builds model ships."):
        ti.remember(tenant, text)
    ti.remember(tenant, f"{first} moved to Leeds{joint} {ended}.")
    current = current_texts(fresh_store, tenant)
    assert f"{first} works at Aviva" not in current
    assert {f"{second} works at Aviva", f"{first} builds model ships"} <= current
    assert all((f.entity or "").startswith("person:") for f in fresh_store.current(tenant))
    assert len(interpret(f"{first} is so happy in Leeds, so proud of it.").clauses) == 1


@_SLOW
@given(PEOPLE, st.sampled_from(["; she resigned in April", ": she resigned in April",
                                "; she quit in the spring"]))
def test_an_ending_without_object_that_explains_another_is_how_that_one_ended(
        fresh_store: memory_es.MemoryStore, people: tuple[str, str], explained: str) -> None:
    """``Morag isn't on the rescue team any more; she resigned in April``: after a
    semicolon or a colon the clause explains the one before it, so ``resigned`` is how she
    left the team, not the end of her work; said alone, ``resigned`` still ends it."""
    first, _ = people
    team = f"{first} volunteers with the Glencoe Mountain Rescue Team"
    job = f"{first} works shifts as a paramedic at the Belford Hospital"
    after = texts_after(fresh_store, [f"{team}.", f"{job}."], "remember",
                        f"{first} isn't on the Glencoe Mountain Rescue Team any more{explained}.")
    assert team not in after and job in after
    alone = texts_after(fresh_store, [f"{job}."], "remember", f"{first} resigned in April.")
    assert job not in alone


@given(PEOPLE, st.sampled_from(["On Saturday nights", "On Sundays", "Every Sunday",
                                "At night", "On Saturday nights,", "Every morning"]))
def test_a_time_phrase_before_the_subject_is_no_part_of_it(people: tuple[str, str],
                                                           when: str) -> None:
    """``On Saturday nights Gethin Probert works the door at a nightclub``: a day or a part
    of the day (in the plural too) after ``on``, ``at`` or ``every`` opens a time phrase,
    comma or none; a place after ``on`` does not (``On Main Street the bakery …``)."""
    first, _ = people
    [clause] = interpret(f"{when} {first} works the door at a nightclub in Swansea.").clauses
    assert clause.entity == "person:" + first.lower().replace(" ", "-")
    [place] = interpret("On Main Street the bakery opens at 7.").clauses
    assert not (place.entity or "").startswith("person:")


@_SLOW
@given(PEOPLE, st.sampled_from([", though he", ", although he"]))
def test_a_concession_with_its_own_subject_is_its_own_clause(
        fresh_store: memory_es.MemoryStore, people: tuple[str, str], joint: str) -> None:
    """``… has stopped driving for the hospice's transport scheme, though he still
    volunteers there on Tuesdays``: what follows ``though`` is a clause of its own, so the
    ending's words are only those before it (the volunteering and the volunteer ID stay)."""
    first, _ = people
    kept = {f"{first} volunteers at St Columba's Hospice on Tuesday afternoons",
            f"{first}'s volunteer ID is SCH-VOL-0318"}
    driving = f"{first} drives patients to hospital for the hospice's transport scheme"
    after = texts_after(fresh_store, [f"{t}." for t in (*kept, driving)], "remember",
                        f"{first} has stopped driving for the hospice's transport scheme"
                        f"{joint} still volunteers there on Tuesdays.")
    assert driving not in after and kept <= after


@given(st.sampled_from(["After my late shifts", "After my late shifts,", "Before breakfast",
                        "On most weekdays", "During the school term", "After she left"]),
       st.sampled_from([("I", "user:self", "take"), ("we", "user:self", "take"),
                        ("she", None, "takes"), ("they", None, "take")]))
def test_a_phrase_before_a_subject_pronoun_is_no_part_of_the_subject(
        lead: str, subject: tuple[str, str | None, str]) -> None:
    """``After my late shifts I take the N29 night bus home``: a subject-only pronoun ends
    a phrase opened by a preposition or a time subordinator, comma or none, so the
    sentence is the pronoun's (the user's, or someone named before), not a topic named
    after the phrase's words. A pronoun right after the opening word is the phrase's own
    (``After she left``)."""
    pronoun, entity, verb = subject
    [clause] = interpret(f"{lead} {pronoun} {verb} the N29 night bus home.").clauses
    assert clause.mention == pronoun
    assert clause.entity == entity
    assert str(clause.value).startswith(f"{verb} the N29")


@given(PEOPLE, st.sampled_from(["At the AGM", "At the end of the season", "By day",
                                "Every other Thursday", "Most mornings before work",
                                "After the party", "In January"]))
def test_a_phrase_before_a_named_subject_is_no_part_of_it(people: tuple[str, str],
                                                          lead: str) -> None:
    """``At the AGM Alasdair McCorquodale stood down as treasurer``: a name that a finite
    verb follows, after a complete phrase, is the subject; a month, a day or an acronym in
    the phrase is the phrase's own capital."""
    first, _ = people
    [clause] = interpret(f"{lead} {first} stood down as treasurer of the club.").clauses
    assert clause.mention == first


@given(st.sampled_from(["At the Red Lion Tom plays darts.",
                        "With Ana Lopes Tom Berg runs a bakery.",
                        "For years the Smith family lived in Leeds."]))
def test_a_name_a_phrase_still_wants_is_not_read_as_the_subject(text: str) -> None:
    """After a determiner or a preposition the capitalised words are the phrase's noun, so
    nothing decides where the subject starts: no person is made of part of the phrase."""
    [clause] = interpret(text).clauses
    assert not (clause.entity or "").startswith("person:")


@pytest.mark.parametrize(("meant", "kept", "op", "said"), [
    ("After my late shifts I take the N29 night bus home",
     {"I've worked as a picture editor on the night desk for eight years",
      "My colleague Bronagh takes the N29 too"}, "forget", "my night bus home"),
    ("Alasdair McCorquodale is the treasurer of the Biggar Curling Club",
     {"Alasdair McCorquodale's daughter curls at the Biggar Curling Club too",
      "Alasdair McCorquodale delivers the post on a rural round outside Biggar"}, "remember",
     "At the AGM Alasdair McCorquodale stood down as treasurer of the Biggar Curling Club, "
     "though he still curls with them."),
])
def test_a_fronted_phrase_changes_only_the_fact_meant(
        fresh_store: memory_es.MemoryStore, meant: str, kept: set[str], op: str,
        said: str) -> None:
    """A fact told after a fronted phrase is its subject's, so forgetting it, or an ending
    told after one, reaches it, and no fact of a relative or of the same place."""
    after = texts_after(fresh_store, [f"{t}." for t in (meant, *kept)], op, said)
    assert meant not in after and kept <= after
