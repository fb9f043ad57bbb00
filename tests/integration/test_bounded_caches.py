"""The write side's caches are bounded (issue 16): memory held per process does not grow
with the store, a key, name or stream state a cache forgot is found again where it came
from, and a destroyed key is served by no cache, forgotten or not."""

from __future__ import annotations

import pytest

import memory_es
from memory_es.crypto import keystore
from memory_es.crypto.keystore import Bounded
from memory_es.ids import stream_of
from memory_es.write import side
from tests.conftest import StoreFactory
from tests.fakes import day
from tests.receipts import fact_id_of

LIMIT = 40


@pytest.fixture
def small_caches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(keystore, "KEY_CACHE", LIMIT)
    monkeypatch.setattr(keystore, "NAME_CACHE", LIMIT)


def _write(store: memory_es.MemoryStore, entities: range, attributes: int = 3) -> None:
    with store.transact() as tx:
        for e in entities:
            for a in range(attributes):
                tx.assert_fact("acme", f"user:u{e}", f"attr.a{a}", f"v{e}-{a}",
                               valid_from=day(0))


def _values(store: memory_es.MemoryStore) -> set[str]:
    return {str(f.value) for f in store.current("acme")}


def test_bounded_forgets_the_oldest_put() -> None:
    cache: Bounded[str, int] = Bounded(2)
    cache["a"], cache["b"], cache["c"] = 1, 2, 3
    assert "a" not in cache and cache.get("b") == 2 and cache.get("c") == 3 and len(cache) == 2


@pytest.mark.usefixtures("small_caches")
def test_the_caches_stay_within_their_bound_and_forgotten_keys_still_open(
        store_factory: StoreFactory) -> None:
    """Many more keys and names than the bound: the caches hold at most the bound, and
    every event opens, one at a time (a single re-read) and in a catch-up's batches."""
    store = store_factory()
    for first in range(0, 60, 10):
        _write(store, range(first, first + 10))
    keys = store.runtime.side.keys
    assert keys.held()[0] <= LIMIT and keys.held()[1] <= LIMIT
    store.runtime.side.forget_cached()
    assert _values(store) == {f"v{e}-{a}" for e in range(60) for a in range(3)}
    mapper, recorder = store.runtime.side.mapper, store.runtime.log.recorder
    notes = recorder.select_notifications(start=1, limit=10_000)
    assert all(mapper.open(n).plaintext is not None for n in notes)
    assert all(u.plaintext is not None for u in mapper.open_many(notes))
    assert keys.held()[0] <= LIMIT


@pytest.mark.usefixtures("small_caches")
def test_one_unit_minting_more_keys_than_the_bound_seals_with_the_keys_it_stores(
        store_factory: StoreFactory) -> None:
    """Without the pool, a unit's new entity keys are staged, not stored, until it commits:
    one forgotten by the cache before then is taken from the stage, never minted again
    (a second key under the same id would leave the unit's events unreadable)."""
    store = store_factory()
    store.runtime.side.keys.pool_size = 0
    _write(store, range(30), attributes=4)
    store.close()
    reopened = store_factory()
    assert _values(reopened) == {f"v{e}-{a}" for e in range(30) for a in range(4)}


@pytest.mark.usefixtures("small_caches")
def test_a_name_held_back_and_forgotten_by_the_cache_names_the_same_stream(
        fresh_store: memory_es.MemoryStore) -> None:
    """Names of pooled streams are held back from the key store's table for a while; one
    the cache forgot meanwhile is found among them, so the entity does not split."""
    first = fact_id_of(fresh_store.assert_fact("acme", "user:u0", "attr.a0", "x"))
    for e in range(1, 2 * LIMIT):
        fresh_store.assert_fact("acme", f"user:u{e}", "attr.a0", "y")
    again = fact_id_of(fresh_store.assert_fact("acme", "user:u0", "attr.a1", "z"))
    assert stream_of(again) == stream_of(first)


@pytest.mark.usefixtures("small_caches")
def test_a_destroyed_key_is_not_served_after_the_cache_forgot_it(
        store_factory: StoreFactory) -> None:
    store = store_factory()
    _write(store, range(3))
    sid = stream_of(fact_id_of(store.assert_fact("acme", "user:u1", "attr.a9", "w")))
    keys = store.runtime.side.keys
    key_ids = keys.keys_of_stream(sid)
    store.purge("acme", "user:u1", confirm=store.preview("purge", "acme", "user:u1").token)
    _write(store, range(10, 40))  # the purged keys would be long forgotten by now
    assert not keys.cached(key_ids)
    for key_id in key_ids:
        with pytest.raises(memory_es.ErasedContent):
            keys.for_id(key_id, sid)
    assert not set(keys.prefetch(dict.fromkeys(key_ids, sid))) & set(key_ids)
    notes = store.runtime.log.recorder.select_notifications(start=1, limit=10_000)
    opened = [u for u in store.runtime.side.mapper.open_many(notes) if u.stream_id == sid]
    assert opened and all(u.plaintext is None for u in opened if u.kid)
    assert "w" not in _values(store)


def test_the_state_cache_holds_at_most_its_facts_and_a_state_forgotten_loads_again(
        fresh_store: memory_es.MemoryStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """Bounded by facts, not only by states; the state just cached stays even when it alone
    holds more facts than the bound."""
    monkeypatch.setattr(side, "CACHE_FACTS", 25)
    _write(fresh_store, range(10), attributes=10)
    assert fresh_store.runtime.side.held() == (2, 20)
    fresh_store.supersede("acme", "user:u0", "attr.a0", "again")
    _write(fresh_store, range(20, 21), attributes=40)
    assert fresh_store.runtime.side.held() == (1, 40)
    assert "again" in _values(fresh_store) and len(_values(fresh_store)) == 140
