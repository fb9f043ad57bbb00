"""A sentence that opens with a bare common noun is about that thing, not a person.

``Clinic moved to Elm Street`` is capitalised only because the sentence starts there;
the noun list (``data/common_nouns.txt``) is derived from a public lexicon with personal
names taken out, so ``Mark is a nurse`` still names a person.
"""

from __future__ import annotations

import pytest

import memory_es
from memory_es.text import TextInterface
from memory_es.text import lexicon as lx
from memory_es.text.interpreter import interpret

T = "acme"


def _entity(text: str) -> str | None:
    return interpret(text).clauses[0].entity


@pytest.mark.parametrize(("text", "entity"), [
    ("Clinic moved to Elm Street.", "topic:clinic"),
    ("Warehouse is in Leith.", "topic:warehouse"),
    ("Budget is set at 4000 euros.", "topic:budget"),
])
def test_a_sentence_initial_common_noun_is_a_thing(text: str, entity: str) -> None:
    """The bare noun subject becomes the same topic entity ``the <noun>`` would."""
    assert _entity(text) == entity
    noun = entity.split(":", 1)[1]
    assert _entity(f"The {noun} is closed today.") == entity


@pytest.mark.parametrize("text", ["Mark is a nurse.", "Rose lives in Leeds.",
                                  "Priya Raman rows on Sundays.", "Dana lives in Oslo."])
def test_personal_names_stay_people(text: str) -> None:
    """First names that are also nouns (``mark``, ``rose``) are not in the list."""
    entity = _entity(text)
    assert entity is not None and entity.startswith("person:")


def test_the_noun_list_holds_no_personal_names() -> None:
    """The derivation took first names and common surnames out."""
    assert {"clinic", "warehouse", "garage"} <= lx.COMMON_NOUNS
    assert not {"mark", "rose", "will", "hope", "baker", "smith"} & lx.COMMON_NOUNS


def test_a_bare_noun_and_the_noun_phrase_are_one_entity(
        fresh_store: memory_es.MemoryStore) -> None:
    """``Clinic moved …`` and ``The clinic opens …`` are stored on one entity, not on a
    person called Clinic and a topic."""
    ti = TextInterface(fresh_store)
    ti.remember(T, "Clinic moved to Elm Street.")
    ti.remember(T, "The clinic opens at 8 on weekdays.")
    ti.remember(T, "Ines Moreau paints watercolour landscapes.")
    assert {f.entity for f in fresh_store.current(T) if "clinic" in f.text.lower()} == {
        "topic:clinic"}
