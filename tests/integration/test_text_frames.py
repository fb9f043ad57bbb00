"""A change of state on a predicate no rule reads a slot for (SPEC §15): ``The garage is on
Quarry Road now`` replaces ``Garage is on Mill Lane``, because both read the same frame
(verb, preposition, kind of object), and releases nothing else of the entity.

The property test's reference model knows each sentence's frame from how it was built,
not from the interpreter.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface

T = "acme"


def current_after(lines: list[str], folder: Path) -> list[str]:
    with memory_es.open(folder) as store:
        text = TextInterface(store)
        for line in lines:
            text.remember(T, line)
        return sorted(f.text for f in store.current(T))


@pytest.mark.parametrize(("lines", "expected"), [
    (["Garage is on Mill Lane.", "The garage is on Quarry Road now."],
     ["The garage is on Quarry Road now"]),
    (["Budget is set at 4000 euros.", "The budget is set at 5200 euros now."],
     ["The budget is set at 5200 euros now"]),
    (["Kennel is near the station.", "The kennel is near the harbour now."],
     ["The kennel is near the harbour now"]),
    (["Clinic is located on Elm Street.", "The clinic opens at 9am.",
      "The clinic is located on Oak Road now."],
     ["The clinic is located on Oak Road now", "The clinic opens at 9am"]),
    # another verb, another kind of object, or no change marker: nothing is released
    (["Mia Berg rows on Sundays.", "Mia Berg cycles on Mondays now."],
     ["Mia Berg cycles on Mondays now", "Mia Berg rows on Sundays"]),
    (["Mia Berg is in Oslo.", "Mia Berg is in a band now."],
     ["Mia Berg is in Oslo", "Mia Berg is in a band now"]),
    (["Mia Berg is in a band.", "Mia Berg is in a meeting now."],
     ["Mia Berg is in a band", "Mia Berg is in a meeting now"]),
    (["Garage is on Mill Lane.", "The garage is on Quarry Road."],
     ["Garage is on Mill Lane", "The garage is on Quarry Road"]),
    # the same statement again reinforces the fact it repeats
    (["The office is on Baker Street.", "The office is on Baker Street now."],
     ["The office is on Baker Street"]),
])
def test_a_change_of_state_replaces_the_facts_of_its_frame_only(
        tmp_path: Path, lines: list[str], expected: list[str]) -> None:
    assert current_after(lines, tmp_path / "m") == expected


VERBS = ("rows", "sings", "volunteers", "trains")
PREPOSITIONS = ("on", "in", "near")
OBJECTS = {"name": ("Mill Lane", "Dundee", "Leith Harbour", "Quarry Road"),
           "common": ("the station", "the market", "the harbour", "the square"),
           "music": ("a choir", "a band", "an orchestra", "a choir and a band")}
"""Objects by kind: names, common nouns of no topic, common nouns of one topic (music)."""
Frame = tuple[str, str, str]  # verb, preposition, kind of object


@st.composite
def histories(draw: st.DrawFn) -> tuple[list[tuple[Frame, str]], tuple[Frame, str]]:
    """Facts of one person, each of its own frame, then a change of state in one frame
    (maybe one the person has no fact of) with a value none of them has."""
    frames = draw(st.lists(st.tuples(st.sampled_from(VERBS), st.sampled_from(PREPOSITIONS),
                                     st.sampled_from(sorted(OBJECTS))),
                           min_size=1, max_size=4, unique=True))
    facts = [(f, draw(st.sampled_from(OBJECTS[f[2]][:2]))) for f in frames]
    # the generic slot is the verb and the object's words: two facts that differ only in
    # their preposition share it (a rule older than frames), so they are not drawn
    assume(len({(f[0], v) for f, v in facts}) == len(facts))
    changed = draw(st.sampled_from(frames)) if draw(st.booleans()) else draw(st.tuples(
        st.sampled_from(VERBS), st.sampled_from(PREPOSITIONS), st.sampled_from(sorted(OBJECTS))))
    return facts, (changed, draw(st.sampled_from(OBJECTS[changed[2]][2:])))


def sentence(frame: Frame, value: str, now: bool = False) -> str:
    verb, prep, _ = frame
    return f"Rosa Vidal {verb} {prep} {value}{' now' if now else ''}."


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(histories())
def test_a_change_of_state_releases_exactly_the_facts_of_its_frame(
        history: tuple[list[tuple[Frame, str]], tuple[Frame, str]]) -> None:
    facts, (changed, value) = history
    lines = [sentence(f, v) for f, v in facts] + [sentence(changed, value, now=True)]
    expected = sorted([sentence(f, v)[:-1] for f, v in facts if f != changed]
                      + [sentence(changed, value, now=True)[:-1]])
    with tempfile.TemporaryDirectory() as tmp:
        assert current_after(lines, Path(tmp) / "m") == expected
