"""Two people in one subject, topics labelled with a person, and things whose time moves
(SPEC §15: an operation reaches only what it names).

- ``Priya and Tomasz live in York`` is one fact of each: one of them moving, or being
  forgotten, leaves the other's; neither name becomes the other's.
- ``The weekly sync with Rhys Pritchard`` is a topic labelled with Rhys: a revision of
  ``weekly sync with Rhys`` reaches it, never another person's sync.
- A possessed thing that moves to a day or a time (``Yuki's dentist appointment was moved
  to Thursday``) ends the fact that names it at another; a day is no place. A new time
  of one of its acts (``opens at noon``) leaves its others (``closes on Mondays``).
- A possessed thing's new state told as a change (``Sam's laptop now runs Ubuntu``, ``Ana's
  boiler is now serviced every March``) replaces its one fact of the same verb with
  another name or time; one of another kind of object (``now has winter tyres`` beside
  ``has a roof rack``) is added, as is a relative's (a person is no thing).
- A level moved up to (``moved up to Year 5``) replaces the level held, never a
  relative's kept under the same id.
- A possessed thing ended by its topic (``Hanna's flight to Oslo was cancelled``) ends the
  fact of that topic (``flies to Oslo on 3 March``), not another person's.
- German and Chinese moves read past a time adjunct (``ist im Mai nach Bonn gezogen``,
  ``王芳上个月搬到了苏州``).
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from memory_es.text.interpreter import interpret
from tests.unit.text_support import current_texts, fresh_tenant, texts_after

PEOPLE = ["Priya Raman", "Tomasz Wierzbicki", "Lena Okafor", "Omar Haddad"]



@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.permutations(PEOPLE))
def test_each_person_of_a_compound_subject_holds_the_fact(
        fresh_store: memory_es.MemoryStore, people: list[str]) -> None:
    """One of them moving ends his copy only; a third person's alike fact stays."""
    first, second, third, _ = people
    tenant = fresh_tenant()
    ti = TextInterface(fresh_store)
    joint = f"{first} and {second} live in York"
    texts = [f"{joint}.", f"{first} plays the cello.", f"{second} grows chillies.",
             f"{third} lives in York."]
    for text in texts:
        ti.remember(tenant, text)
    ti.remember(tenant, f"{first} moved to Leeds.")
    assert {t.rstrip(".") for t in texts} <= current_texts(fresh_store, tenant)
    owners = {f.entity for f in fresh_store.current(tenant) if f.text == joint}
    assert owners == {interpret(f"{second} rows.").clauses[0].entity}


def test_a_topic_labelled_with_a_person_is_his_to_revise(
        fresh_store: memory_es.MemoryStore) -> None:
    ti = TextInterface(fresh_store)
    for text in ("The weekly sync with Rhys Pritchard is on Mondays at 9:00.",
                 "The weekly sync with Sofia Bianchi is on Mondays at 9:00.",
                 "Rhys Pritchard plays darts in a pub league."):
        ti.remember("s", text)
    ti.revise("s", "weekly sync with Rhys",
              "The weekly sync with Rhys Pritchard is on Wednesdays at 11:00.")
    assert current_texts(fresh_store, "s") == {
        "The weekly sync with Rhys Pritchard is on Wednesdays at 11:00",
        "The weekly sync with Sofia Bianchi is on Mondays at 9:00",
        "Rhys Pritchard plays darts in a pub league"}


@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["Thursday at 14:00", "Friday", "12 May", "3 pm on Monday"]))
def test_a_possessed_thing_moved_to_a_time_ends_its_old_time(
        fresh_store: memory_es.MemoryStore, when: str) -> None:
    tenant = fresh_tenant()
    ti = TextInterface(fresh_store)
    for text in ("Yuki Arai has a dentist appointment on Tuesday at 10:00.",
                 "Yuki Arai has a physio appointment on Friday at 8:00.",
                 "Dev Malhotra has a dentist appointment on Tuesday at 10:00."):
        ti.remember(tenant, text)
    ti.remember(tenant, f"Yuki Arai's dentist appointment was moved to {when}.")
    current = current_texts(fresh_store, tenant)
    assert "Yuki Arai has a dentist appointment on Tuesday at 10:00" not in current
    assert {"Yuki Arai has a physio appointment on Friday at 8:00",
            "Dev Malhotra has a dentist appointment on Tuesday at 10:00"} <= current
    assert not any("home" in f.attribute.split(".") for f in fresh_store.current(tenant))


@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["noon", "10am", "midday", "9:30"]))
def test_a_things_new_time_for_one_act_leaves_its_other_acts(
        fresh_store: memory_es.MemoryStore, when: str) -> None:
    """``The restaurant now opens at noon`` replaces when it opens, never when it closes
    (``closes on Mondays`` was ended with it); noon is a clock time like 10am."""
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    kept = {"Marco Rossi's restaurant closes on Mondays", "Marco Rossi employs twelve staff"}
    for text in ("Marco Rossi's restaurant opens at 11am", *kept):
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"Marco Rossi's restaurant now opens at {when}.")
    after = current_texts(fresh_store, tenant)
    assert kept <= after
    assert "Marco Rossi's restaurant opens at 11am" not in after


@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["Year", "Grade", "grade", "level"]), st.integers(2, 9))
def test_a_move_up_to_a_labelled_level_replaces_the_persons_not_a_relatives(
        fresh_store: memory_es.MemoryStore, noun: str, n: int) -> None:
    """``moved up to Year 5`` (a verb of motion: a change) replaces ``is in Year 4``; the
    brother's ``is in Year 6``, kept under her id, describes him and stays."""
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    kept = {f"Mila Novak's brother Jan is in {noun} {n + 3}", "Mila Novak plays the violin"}
    for text in (f"Mila Novak is in {noun} {n}", *kept):
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"Mila Novak moved up to {noun} {n + 1}.")
    after = current_texts(fresh_store, tenant)
    assert kept <= after
    assert f"Mila Novak is in {noun} {n}" not in after


@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["hearing", "review", "inspection"]),
       st.sampled_from(["19 March", "Friday", "3 pm on Monday"]))
def test_a_things_event_moved_to_a_time_ends_its_old_time(
        fresh_store: memory_es.MemoryStore, event: str, when: str) -> None:
    """``The hearing in case 2024-017 was moved to 19 March`` (a subject that is a thing,
    not a possessive) ends ``The hearing in case 2024-017 is on 12 March``; the other
    case's hearing on the same day and the case's deadline stay."""
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    kept = {f"The {event} in case 2024-018 is on 12 March",
            "The deadline in case 2024-017 is on 1 April",
            "Case 2024-017 is assigned to Judge Park"}
    for text in (f"The {event} in case 2024-017 is on 12 March", *kept):
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"The {event} in case 2024-017 was moved to {when}.")
    after = current_texts(fresh_store, tenant)
    assert kept <= after
    assert f"The {event} in case 2024-017 is on 12 March" not in after


def test_a_possessed_thing_ended_by_its_topic(fresh_store: memory_es.MemoryStore) -> None:
    ti = TextInterface(fresh_store)
    for text in ("Hanna Lindqvist flies to Oslo on 3 March.",
                 "Hanna Lindqvist knits socks for charity.",
                 "Mateo Ferreira flies to Oslo on 3 March."):
        ti.remember("f", text)
    ti.remember("f", "Hanna Lindqvist's flight to Oslo was cancelled.")
    current = current_texts(fresh_store, "f")
    assert "Hanna Lindqvist flies to Oslo on 3 March" not in current
    assert {"Hanna Lindqvist knits socks for charity",
            "Mateo Ferreira flies to Oslo on 3 March"} <= current


def test_german_and_chinese_moves_read_past_a_time() -> None:
    for text, entity, place in [("Jana Vogel ist im Mai nach Bonn gezogen.",
                                 "person:jana-vogel", "Bonn"),
                                ("王芳上个月搬到了苏州。", "person:wang-fang", "苏州")]:
        (clause,) = interpret(text).clauses
        assert (clause.entity, clause.attribute, clause.value, clause.op) == (
            entity, "home.city", place, "supersede")


@settings(max_examples=10, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.permutations(PEOPLE), st.sampled_from(["forget", "release"]),
       st.sampled_from([("share a dog called Biscuit", "shares a dog called Biscuit"),
                        ("live in York", "lives in York"), ("are in a band", "is in a band"),
                        ("have a boat", "has a boat")]))
def test_ending_one_person_of_a_compound_keeps_the_others_part(
        fresh_store: memory_es.MemoryStore, people: list[str], op: str,
        predicate: tuple[str, str]) -> None:
    """The reference: each other person still holds the predicate, in a text that no
    longer names the person who ended; the three-person compound keeps two."""
    plural, single = predicate
    first, second, third, fourth = people
    tenant = fresh_tenant()
    ti = TextInterface(fresh_store)
    ti.remember(tenant, f"{first} and {second} {plural}.")
    ti.remember(tenant, f"{first} and {third} and {fourth} {plural}.")
    ti.remember(tenant, f"{first} plays the cello.")
    getattr(ti, op)(tenant, f"{op} everything about {first}")
    current = current_texts(fresh_store, tenant)
    assert not any(first in t for t in current)
    assert f"{second} {single}" in current
    assert f"{third} and {fourth} {plural}" in current


# (held, the change told, whether it replaces the held fact)
_THING_STATES = [
    ("Sam Okoro's laptop runs Fedora", "Sam Okoro's laptop now runs Ubuntu.", True),
    ("Ana Ruiz's boiler is serviced every October",
     "Ana Ruiz's boiler is now serviced every March.", True),
    ("Lea Berg's website runs WordPress", "Lea Berg's website runs Ghost now.", True),
    ("Tom Reed's phone runs Android", "Tom Reed's phone now runs iOS.", True),
    ("Mia Lee's car has a roof rack", "Mia Lee's car now has winter tyres.", False),
    ("Mia Lee's brother supports Chelsea", "Mia Lee's brother now supports Arsenal.", False),
]


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(_THING_STATES))
def test_a_possessed_things_new_state_replaces_its_old(
        fresh_store: memory_es.MemoryStore, case: tuple[str, str, bool]) -> None:
    held, change, replaces = case
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    owner = held.split("'s", 1)[0]
    kept = f"{owner} lives in York"
    for text in (held, kept):
        ti.remember(tenant, text + ".")
    ti.remember(tenant, change)
    after = current_texts(fresh_store, tenant)
    assert {kept, change.rstrip(".")} <= after
    assert (held in after) != replaces


@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["team offsite", "sales kickoff", "annual retreat"]),
       st.sampled_from(["19 March", "Friday", "3 pm on Monday"]))
def test_an_event_named_by_its_whole_subject_moved_to_a_time_ends_its_old_time(
        fresh_store: memory_es.MemoryStore, event: str, when: str) -> None:
    """``The team offsite moved to 19 March``: every word of the subject names the entity,
    so the entity is the thing whose time moved; its place and another event on the
    same day stay."""
    kept = {f"The {event} is in Brighton", "The board meeting is on 12 March"}
    after = texts_after(fresh_store, [f"{t}." for t in (f"The {event} is on 12 March", *kept)],
                        "remember", f"The {event} moved to {when}.")
    assert kept <= after
    assert f"The {event} is on 12 March" not in after


def test_a_state_at_a_time_leaves_the_things_other_times(
        fresh_store: memory_es.MemoryStore) -> None:
    """``The bakery on Mill Street is now open on Sundays`` ends ``closes on Sundays`` but
    moves no time of the bakery: ``opens at 7am`` stays."""
    kept = {"The bakery on Mill Street opens at 7am", "The bakery on Mill Street sells rye bread"}
    assert kept <= texts_after(
        fresh_store, [f"{t}." for t in ("The bakery on Mill Street closes on Sundays", *kept)],
        "remember", "The bakery on Mill Street is now open on Sundays.")
