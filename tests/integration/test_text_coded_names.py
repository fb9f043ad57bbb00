"""Names that end in a digit (``P1``, ``A2``, ``R2``) name one entity each.

Pinyin written with tone numbers (``Zhang1 Wei3``) drops its digits, but only when every
numbered word is a pinyin syllable: dropping a digit from ``P1`` made it ``p``, a key
``P2`` shares, so a release of P1's hobby also released P2's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import memory_es
from tests.fakes import FakeClock

T = "acme"
HOBBIES = ["rows", "knits", "paints", "bakes", "sings"]
CODED = ["A1", "A2"]  # one letter that is also a pinyin syllable, and a digit


@pytest.fixture
def store(tmp_path: Path, clock: FakeClock) -> Iterator[memory_es.MemoryStore]:
    s = memory_es.open(tmp_path / "mem", clock=clock)
    with s.transact() as tx:
        for i, hobby in enumerate(HOBBIES):
            p = f"person:p{i}"
            tx.assert_fact(T, p, "hobby", hobby, text=f"P{i} {hobby} on Sundays")
            tx.assert_fact(T, p, "home.city", "Oslo", text=f"P{i} lives in Oslo")
        for code in CODED:
            tx.assert_fact(T, f"unit:{code.lower()}", "status", "active",
                           text=f"{code} is active", mention=code)
        tx.assert_fact(T, "person:zhang_wei", "home.city", "Beijing",
                       text="Zhang Wei lives in Beijing")
    yield s
    s.close()


def current(store: memory_es.MemoryStore) -> set[tuple[str | None, str, object]]:
    return {(f.entity, f.attribute, f.value) for f in store.current(T)}


@pytest.mark.parametrize("who", range(len(HOBBIES)))
def test_a_release_of_one_coded_name_touches_only_that_entity(
        store: memory_es.MemoryStore, who: int) -> None:
    before = current(store)
    result = store.text.release(T, f"P{who}'s hobby on Sundays")
    assert {t.entity for t in result.targets} == {f"person:p{who}"}
    assert before - current(store) == {(f"person:p{who}", "hobby", HOBBIES[who])}


def test_pinyin_with_tone_numbers_still_names_its_person(
        store: memory_es.MemoryStore) -> None:
    before = current(store)
    result = store.text.release(T, "zhang1 wei3 home city")
    assert {t.entity for t in result.targets} == {"person:zhang_wei"}
    assert before - current(store) == {("person:zhang_wei", "home.city", "Beijing")}


@pytest.mark.parametrize("code", CODED)
def test_a_one_letter_code_is_not_read_as_pinyin(store: memory_es.MemoryStore,
                                                 code: str) -> None:
    before = current(store)
    result = store.text.release(T, f"{code}'s status")
    assert {t.entity for t in result.targets} == {f"unit:{code.lower()}"}
    assert before - current(store) == {(f"unit:{code.lower()}", "status", "active")}
