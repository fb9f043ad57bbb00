"""A query made only of identifiers is answered by exact match alone (SPEC §9).

The default embedder hashes a long unknown token (a random key, a record number) into
features that collide with unrelated facts' features: with a few hundred facts, most
random keys had some fact above the relevance floor by collision alone. Such a query
has no meaning for an embedding to carry, so the semantic channel sits it out; the
keyword channel still finds the identifier wherever it is written.
"""

from __future__ import annotations

import random
import uuid

from hypothesis import given
from hypothesis import strategies as st

import memory_es
from projections.tokens import identifiers_only

CITIES = ["Oslo", "Lyon", "Leeds", "Graz", "Porto", "Delft", "Turku", "Bergen"]
THINGS = ["plays the cello", "keeps bees on the roof", "collects enamel pins",
          "rows on the river", "brews cider", "repairs bicycles", "knits socks"]


def _fill(store: memory_es.MemoryStore, tenant: str) -> None:
    with store.transact() as tx:
        for i, city in enumerate(CITIES):
            person = f"person:p{i}"
            tx.assert_fact(tenant, person, "home.city", city, text=f"p{i} lives in {city}")
            for j, thing in enumerate(THINGS):
                tx.assert_fact(tenant, person, f"hobby.h{j}", thing, text=f"p{i} {thing}")


def test_random_keys_recall_nothing_but_their_own_fact(
        fresh_store: memory_es.MemoryStore) -> None:
    _fill(fresh_store, "t")
    key = f"zqm{uuid.uuid4().hex}"
    fresh_store.assert_fact("t", "user:keyholder", "api.key", key, text=f"API key {key}")
    assert [h.fact.entity for h in fresh_store.recall("t", key, k=5)] == ["user:keyholder"]
    rng = random.Random(7)
    strangers = [f"zqm{rng.getrandbits(128):032x}" for _ in range(40)]
    hits = {q: fresh_store.recall("t", q, k=5) for q in strangers}
    assert {q: [h.fact.text for h in found] for q, found in hits.items() if found} == {}


@given(st.sampled_from(["MRN-45678", "zqm0a1b2c3d4e5f", "nora@corp.io", "+44 7700 900123",
                        "INV-55012 PR-88213"]))
def test_identifier_queries(query: str) -> None:
    assert identifiers_only(query)


@given(st.sampled_from(["Oslo", "API key sk-abc", "where does p1 live", "MRN-45678 result",
                        "", "   "]))
def test_queries_with_words(query: str) -> None:
    assert not identifiers_only(query)


def test_words_still_reach_facts_by_meaning(fresh_store: memory_es.MemoryStore) -> None:
    _fill(fresh_store, "t")
    found = fresh_store.recall("t", "where does p3 live", k=3)
    assert found and found[0].fact.text == "p3 lives in Graz"
