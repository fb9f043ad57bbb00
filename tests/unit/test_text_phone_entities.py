"""One phone number is one entity, however it is written.

A number written with country code, with ``00``, with a trunk zero or without either
is named by its national significant number (:func:`phone_key`), so facts about it land
on one entity and a purge of any spelling reaches that entity without a multi-entity
confirmation. Entities stored under the older ids (``phone:00<digits>``) stay readable
and count as the same number; a number of another country that shares the key is never
shredded with it.
"""

from __future__ import annotations

import pytest

import memory_es
from memory_es.text import TextInterface
from memory_es.text.identifiers import entity_phone, find_identifiers, phone_key

T = "acme"


def _entity(text: str) -> str:
    (ident,) = [i for i in find_identifiers(text) if i.kind == "phone"]
    return ident.entity


@pytest.mark.parametrize(("a", "b"), [
    ("+1 415 555 0123", "(415) 555-0123"),
    ("+1 415 555 0123", "1-415-555-0123"),
    ("+44 161 496 0500", "0161 496 0500"),
    ("0049 40 3598 1200", "040 3598 1200"),
    ("+33 4 91 55 20 10", "04.91.55.20.10"),
    ("+39 06 69881234", "06 69881234"),
])
def test_spellings_of_one_number_name_one_entity(a: str, b: str) -> None:
    """With or without country code and trunk prefix: the same entity id."""
    assert _entity(f"{a} rings the desk.") == _entity(f"{b} rings the desk.")


def test_different_numbers_keep_different_entities() -> None:
    """A number one digit away is another entity."""
    assert _entity("0161 496 0500 rings.") != _entity("0161 496 0501 rings.")
    assert phone_key("+4402079460321") != phone_key("+4402079460312")


def test_old_entity_ids_still_name_their_number() -> None:
    """``phone:00<digits>`` (international) and a national id read back as numbers."""
    assert entity_phone("phone:0014155550123") == "+14155550123"
    assert entity_phone("phone:4155550123") == "4155550123"
    assert entity_phone("person:ada") is None


def test_a_purge_of_any_spelling_erases_the_one_entity(
        fresh_store: memory_es.MemoryStore) -> None:
    """Two facts, two spellings, a third spelling purged: both gone, no confirmation
    asked, the neighbouring number kept."""
    ti = TextInterface(fresh_store)
    for text in ("+1 415 555 0123 rings the night nurse.",
                 "(415) 555-0123 is the clinic's after-hours line.",
                 "(415) 555-0132 rings the day nurse."):
        ti.remember(T, text)
    result = ti.purge_matching(T, "415.555.0123")
    assert not [p for p in result.pending if "confirm" in p]
    assert {f.text for f in fresh_store.current(T)} == {"(415) 555-0132 rings the day nurse"}


def test_entities_under_older_ids_count_as_the_same_number(
        fresh_store: memory_es.MemoryStore) -> None:
    """Facts stored under ``phone:0014155550123`` and ``phone:4155550123`` (two ids of
    one number, as written before) are purged together without a confirmation."""
    with fresh_store.transact() as tx:
        tx.assert_fact(T, "phone:0014155550123", "rings", "night nurse",
                       text="+1 415 555 0123 rings the night nurse")
        tx.assert_fact(T, "phone:4155550123", "line", "after hours",
                       text="415-555-0123 is the after-hours line")
        tx.assert_fact(T, "person:ada", "hobby", "rowing", text="Ada rows on Sundays")
    result = TextInterface(fresh_store).purge_matching(T, "+1 (415) 555-0123")
    assert not [p for p in result.pending if "confirm" in p]
    assert {f.text for f in fresh_store.current(T)} == {"Ada rows on Sundays"}


def test_a_shared_key_of_two_countries_is_never_shredded_whole(
        fresh_store: memory_es.MemoryStore) -> None:
    """``+44 20 7946 0321`` and ``+33 20 7946 0321`` share a key: purging the first
    erases its facts only."""
    ti = TextInterface(fresh_store)
    ti.remember(T, "+44 20 7946 0321 books the van servicing.")
    ti.remember(T, "+33 20 7946 0321 reaches the Paris depot.")
    ti.purge_matching(T, "+44 20 7946 0321")
    assert {f.text for f in fresh_store.current(T)} == {
        "+33 20 7946 0321 reaches the Paris depot"}
