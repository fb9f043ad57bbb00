"""A sentence that opens on its past-tense verb has no subject of its own (SPEC §15):
``Left Nordbank in March and joined a credit union`` is not about a person called
"Left Nordbank", and ``Left Whitby, bought a house`` is two clauses. A name that happens
to be a verb form (``Said``, ``Drew``) is still a name when its own verb follows it.

The property test builds each sentence from its parts, so whether it has a subject is
known without the interpreter.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memory_es.text.interpreter import RuleInterpreter

READ = RuleInterpreter()


@pytest.mark.parametrize(("sentence", "clauses"), [
    ("Left Nordbank in March and joined a credit union as an auditor.", 2),
    ("Left Whitby, bought a house in York.", 2),
    ("Sold the Skoda last spring, bought a used Volvo.", 2),
    ("Moved out of Leeds in June.", 1),
    ("Joined Acme as a clerk.", 1),
    ("In 2025 returned to industry, joining a robotics startup.", 1),
])
def test_a_sentence_that_opens_on_its_verb_has_no_subject(sentence: str, clauses: int) -> None:
    read = READ(sentence).clauses
    assert len(read) == clauses
    assert all(c.elided and c.entity is None for c in read)


@pytest.mark.parametrize(("sentence", "entity"), [
    ("Said lives in Cairo.", "person:said"),
    ("Said Hamdan, a baker, lives in Cairo.", "person:said-hamdan"),
    ("Drew Carey hosts a quiz show.", "person:drew-carey"),
    ("Drew Carey often hosts a quiz show.", "person:drew-carey"),
    ("Drew and Sam live in Leeds.", "person:drew"),
])
def test_a_name_written_like_a_verb_form_is_still_the_subject(sentence: str,
                                                              entity: str) -> None:
    assert READ(sentence).clauses[0].entity == entity


VERBS = ("Left", "Sold", "Joined", "Moved to", "Bought", "Cancelled", "Stopped visiting")
OBJECTS = ("Nordbank", "the old Skoda", "Whitby", "a gym in Leeds", "Mountain View")
SECOND = ("adopted a greyhound", "bought a house", "now rents a cottage")
NAMES = ("Said Hamdan", "Drew Carey", "Lena Okafor", "Rhys Pritchard")


@given(st.sampled_from(VERBS), st.sampled_from(OBJECTS), st.sampled_from(SECOND),
       st.sampled_from(("", ", ", " and ")), st.sampled_from(NAMES))
def test_subjectless_or_named_by_construction(verb: str, obj: str, second: str, joiner: str,
                                              name: str) -> None:
    tail = f"{joiner}{second}" if joiner else ""
    subjectless = READ(f"{verb} {obj}{tail}.").clauses
    assert subjectless and all(c.entity is None for c in subjectless)
    assert len(subjectless) == (2 if joiner else 1)
    named = READ(f"{name} {second}.").clauses
    assert [c.entity for c in named] == [f"person:{name.lower().replace(' ', '-')}"]
