"""Text targeting reads its candidates from the store's indexes, never by vector similarity.

A target must share a word or an identifier with the query, so targeting asks recall
for its keyword channel alone; a keyword-only recall neither embeds the query nor scans
the tenant's vectors, which is what keeps a targeting read small in a large tenant
(``benchmarks/text_latency.py``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import memory_es
from memory_es.text import TextInterface
from tests.fakes import FakeClock

T = "acme"
PEOPLE = [("Mira", "Oslo", "rows"), ("Tomas", "Porto", "knits"), ("Ines", "Leeds", "paints"),
          ("Oskar", "Graz", "bakes")]


@pytest.fixture
def store(tmp_path: Path, clock: FakeClock) -> Iterator[memory_es.MemoryStore]:
    """A store holding a few people, each with a city, a hobby and an e-mail address."""
    s = memory_es.open(tmp_path / "mem", clock=clock)
    with s.transact() as tx:
        for name, city, hobby in PEOPLE:
            p = f"person:{name.lower()}"
            tx.assert_fact(T, p, "home.city", city, text=f"{name} lives in {city}")
            tx.assert_fact(T, p, "hobby", hobby, text=f"{name} {hobby} on Sundays")
            tx.assert_fact(T, p, "contact.email", f"{name.lower()}@corp.io",
                           text=f"{name}'s e-mail is {name.lower()}@corp.io")
    yield s
    s.close()


@pytest.fixture
def no_vector_search(store: memory_es.MemoryStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """Searching the recall index's vectors fails the test."""
    def refuse(*_a: object, **_kw: object) -> tuple[np.ndarray, np.ndarray]:
        raise AssertionError("the vector index was searched")
    monkeypatch.setattr(store.runtime.recall.vectors, "search", refuse)


@pytest.mark.usefixtures("no_vector_search")
def test_targeting_never_searches_the_vectors(store: memory_es.MemoryStore) -> None:
    """release, revise, forget, purge_matching and match pick their targets without a
    vector search, and still act on exactly what the query names."""
    text = TextInterface(store)
    asked = "Tomas's hobby on Sundays"
    assert [t.text for t in text.match(T, asked)] == ["Tomas knits on Sundays"]
    assert [t.text for t in text.release(T, asked).targets] == ["Tomas knits on Sundays"]
    revised = text.revise(T, "Ines home city", "Ines lives in Bergen now.")
    assert [t.text for t in revised.targets] == ["Ines lives in Leeds"]
    forgotten = text.forget(T, "forget everything about Oskar")
    assert {t.entity for t in forgotten.targets} == {"person:oskar"} and forgotten.touched
    purged = text.purge_matching(T, "mira@corp.io")
    assert [t.text for t in purged.targets] == ["Mira's e-mail is mira@corp.io"]
    assert purged.touched
    left = {f.text for f in store.current(T)}
    assert "Tomas knits on Sundays" not in left and "Mira rows on Sundays" in left
    assert "Ines lives in Bergen now" in left and "Ines lives in Leeds" not in left
    assert not any(f.startswith("Oskar") for f in left)
    assert not any("mira@corp.io" in f for f in left)
    assert "Tomas's e-mail is tomas@corp.io" in left


@pytest.mark.usefixtures("no_vector_search")
def test_a_keyword_only_recall_ranks_the_keyword_pool_alone(
        store: memory_es.MemoryStore) -> None:
    """With the semantic channel switched off, recall returns only facts that share a
    keyword with the query (no vector search), each with a semantic part of 0."""
    hits = store.recall(T, "Porto Sundays", k=8, channels=("keyword",), explain=True)
    assert {h.fact.text for h in hits} == {"Tomas lives in Porto", *(
        f"{name} {hobby} on Sundays" for name, _city, hobby in PEOPLE)}
    assert all(h.parts["keyword"] > 0 and h.parts["semantic"] == 0
               for h in hits)


def test_the_blended_recall_still_searches_the_vectors(
        store: memory_es.MemoryStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """Only a recall without the semantic channel skips the vectors: the default one
    (both channels) still ranks by similarity."""
    vectors = store.runtime.recall.vectors
    calls: list[int] = []
    real = vectors.search

    def counted(query: np.ndarray, k: int, allowed: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray]:
        calls.append(k)
        return real(query, k, allowed)
    monkeypatch.setattr(vectors, "search", counted)
    assert store.recall(T, "where does Tomas live", k=3)
    assert calls


def test_recall_texts_tops_up_a_large_tenant_from_its_indexes_only(
        tmp_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    """When recall returns fewer than k hits, a tenant larger than ``TOP_UP_ALL`` is topped
    up from what targeting reads (here: the facts of the entity the query names), never by
    reading every current fact; a small tenant is still topped up from all of them."""
    from memory_es.text import interface

    monkeypatch.setattr(interface, "TOP_UP_ALL", 20)
    s = memory_es.open(tmp_path / "big", clock=clock)
    with s.transact() as tx:
        for i in range(40):
            tx.assert_fact(T, f"person:p{i}", "hobby", "chess", text=f"P{i} plays chess")
        tx.assert_fact(T, "person:zoe", "pet", "cat", text="Her cat sleeps all day")
        tx.alias(T, "Zoë", "person:zoe")
    whole_tenant: list[str] = []
    real_current = s.current

    def current(tenant: str, entity: str | None = None, attribute: str | None = None
                ) -> list[memory_es.Fact]:
        if entity is None:
            whole_tenant.append(tenant)
        return real_current(tenant, entity, attribute)

    monkeypatch.setattr(s, "current", current)
    text = TextInterface(s)
    assert s.count(T) == 41
    assert text.recall_texts(T, "Zoë", k=3) == ["Her cat sleeps all day"]
    assert whole_tenant == []
    monkeypatch.setattr(interface, "TOP_UP_ALL", 100)
    assert text.recall_texts(T, "Zoë", k=3)[0] == "Her cat sleeps all day"
    assert whole_tenant == [T]
    s.close()
