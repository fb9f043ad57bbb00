"""Releasing one item of a listed fact keeps the other items (SPEC §15: an operation
changes only what the query specifically matches).

The property test builds each list from its parts, so which items stay is known without
the code under test.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from memory_es.text.lists import list_items, without_items
from memory_es.text.matching import view_terms

T = "acme"
ITEMS = ("French", "German", "Welsh", "Basque", "Tagalog", "Icelandic")


@given(st.lists(st.sampled_from(ITEMS), min_size=2, max_size=4, unique=True),
       st.data())
def test_the_other_items_stay(items: list[str], data: st.DataObject) -> None:
    listed = ", ".join(items[:-1]) + f" and {items[-1]}"
    text = f"Hanna Lindqvist speaks {listed}."
    assert list_items(text) == ("Hanna Lindqvist speaks", items, "and", ".")
    gone = data.draw(st.sampled_from(items))
    rest = without_items(text, view_terms(gone))
    kept = [i for i in items if i != gone]
    assert rest is not None
    assert gone not in rest and all(i in rest for i in kept)
    assert without_items(text, view_terms("languages")) is None  # the fact as a whole
    assert without_items(text, view_terms(" ".join(items))) is None  # every item


def test_a_subject_list_is_no_object_list() -> None:
    assert list_items("Dana and Sam live in Leeds.") is None


def test_release_of_one_item_keeps_the_others(fresh_store: memory_es.MemoryStore) -> None:
    ti = TextInterface(fresh_store)
    ti.remember(T, "Ines Moreau keeps a parrot, two ferrets and a tortoise.")
    ti.remember(T, "Ines Moreau paints watercolour landscapes.")
    ti.release(T, "Ines's ferrets")
    texts = {f.text for f in fresh_store.current(T)}
    assert texts == {"Ines Moreau keeps a parrot and a tortoise",
                     "Ines Moreau paints watercolour landscapes"}
    ti.forget(T, "forget Ines's parrot")
    assert {f.text for f in fresh_store.current(T)} == {
        "Ines Moreau keeps a tortoise", "Ines Moreau paints watercolour landscapes"}


def test_a_whole_entity_release_keeps_no_items(fresh_store: memory_es.MemoryStore) -> None:
    """``everything about Liam`` ends every fact of Liam: no item is written back, even
    one the query's other words happen to name (``this term``)."""
    ti = TextInterface(fresh_store)
    ti.remember(T, "Liam is enrolled in CS 224N and CS 231N this term.")
    ti.release(T, "everything about student Liam this term")
    assert fresh_store.current(T) == []


def test_the_fact_that_is_one_statement(fresh_store: memory_es.MemoryStore) -> None:
    """``the fact that Lena collects enamel pins`` names one statement, not Lena's whole
    record (``fact`` is an information noun, but ``that`` opens the statement)."""
    ti = TextInterface(fresh_store)
    for text in ("Lena Okafor collects enamel pins.", "Lena Okafor rows on Sundays."):
        ti.remember(T, text)
    ti.release(T, "the fact that Lena Okafor collects enamel pins")
    assert [f.text for f in fresh_store.current(T)] == ["Lena Okafor rows on Sundays"]
