"""Receipts, idempotency keys and atomic transactions (§5, §2.5)."""

from __future__ import annotations

import itertools

import pytest

import memory_es
from tests.conftest import StoreFactory
from tests.fakes import FakeClock, day
from tests.receipts import fact_id_of


def same_receipt(replayed: memory_es.Receipt, original: memory_es.Receipt) -> None:
    assert replayed.idempotent_replay is True
    assert original.idempotent_replay is False
    assert replayed.model_dump(exclude={"idempotent_replay"}) == \
        original.model_dump(exclude={"idempotent_replay"})


def test_receipt_names_event_position_and_time(
    fresh_store: memory_es.MemoryStore, clock: FakeClock,
) -> None:
    """A receipt carries the event id, the fact id, the log position and recorded_at."""
    r = fresh_store.assert_fact("acme", "user:alex", "home.city", "Detroit")
    assert r.op == "assert_fact" and r.tenant == "acme"
    assert r.fact_id is not None and r.fact_ids == [r.fact_id]
    assert r.position == fresh_store.log_position()
    assert r.recorded_at == clock()
    assert r.event_id in r.event_ids


def test_transaction_times_strictly_increase_with_a_standing_clock(
    fresh_store: memory_es.MemoryStore, clock: FakeClock,
) -> None:
    """A clock that stands still still yields distinct, ordered commit times 1 µs apart."""
    times = [fresh_store.assert_fact("acme", f"user:u{i}", "home.city", "x").recorded_at
             for i in range(3)]
    assert times[0] == clock()
    assert [(b - a).microseconds for a, b in itertools.pairwise(times)] == [1, 1]


def test_refused_write_does_not_shift_transaction_time(
    fresh_store: memory_es.MemoryStore, clock: FakeClock,
) -> None:
    """recorded_at = max(clock, previous commit + 1 µs): a write that failed is no commit."""
    first = fresh_store.assert_fact("acme", "user:alex", "home.city", "Detroit")
    with pytest.raises(memory_es.InvalidInput):
        fresh_store.assert_fact("acme", "user:alex", "home.city", "x", valid_until=day(0))
    with pytest.raises(memory_es.NotFound):
        fresh_store.correct(fact_id_of(first)[:-1] + "9", "x")
    second = fresh_store.assert_fact("acme", "user:bo", "home.city", "Oslo")
    assert (second.recorded_at - first.recorded_at).microseconds == 1


def test_idempotency_key_returns_the_original_receipt_and_appends_nothing(
    fresh_store: memory_es.MemoryStore,
) -> None:
    """The same key again returns the first receipt (marked as a replay); nothing is written."""
    original = fresh_store.assert_fact("acme", "user:alex", "home.city", "Detroit",
                                       idempotency_key="msg-1")
    position = fresh_store.log_position()
    again = fresh_store.assert_fact("acme", "user:alex", "home.city", "Detroit",
                                    idempotency_key="msg-1")
    other_payload = fresh_store.assert_fact("acme", "user:alex", "home.city", "Chicago",
                                            idempotency_key="msg-1")
    same_receipt(again, original)
    same_receipt(other_payload, original)
    assert fresh_store.log_position() == position
    assert [f.value for f in fresh_store.current("acme")] == ["Detroit"]


def test_idempotency_keys_survive_close_and_reopen(store_factory: StoreFactory) -> None:
    """After a restart the key still returns the original receipt and appends nothing."""
    store = store_factory()
    original = store.assert_fact("acme", "user:alex", "home.city", "Detroit",
                                 idempotency_key="msg-1")
    corrected = store.correct(fact_id_of(original), "Detroit, MI", idempotency_key="fix-1")
    position = store.log_position()
    store.close()

    reopened = store_factory()
    same_receipt(reopened.assert_fact("acme", "user:alex", "home.city", "Detroit",
                                      idempotency_key="msg-1"), original)
    same_receipt(reopened.correct(fact_id_of(original), "Detroit, MI", idempotency_key="fix-1"),
                 corrected)
    assert reopened.log_position() == position
    assert [f.value for f in reopened.current("acme")] == ["Detroit, MI"]


def test_idempotency_keys_are_per_tenant(fresh_store: memory_es.MemoryStore) -> None:
    """The same key in another tenant is another write."""
    a = fresh_store.assert_fact("acme", "user:alex", "home.city", "Detroit", idempotency_key="k")
    b = fresh_store.assert_fact("globex", "user:alex", "home.city", "Oslo", idempotency_key="k")
    assert not b.idempotent_replay
    assert a.fact_id != b.fact_id
    assert [f.value for f in fresh_store.current("globex")] == ["Oslo"]


def test_idempotency_key_inside_a_transaction_replays_too(
    fresh_store: memory_es.MemoryStore,
) -> None:
    """A keyed write repeated inside transact() returns the original and writes nothing."""
    original = fresh_store.assert_fact("acme", "user:alex", "home.city", "Detroit",
                                       idempotency_key="msg-1")
    position = fresh_store.log_position()
    with fresh_store.transact() as tx:
        again = tx.assert_fact("acme", "user:alex", "home.city", "Detroit",
                               idempotency_key="msg-1")
    same_receipt(again, original)
    assert fresh_store.log_position() == position


def test_transaction_commits_every_operation_at_one_time(
    fresh_store: memory_es.MemoryStore,
) -> None:
    """All operations of transact() share one transaction time and all become visible."""
    with fresh_store.transact() as tx:
        tx.supersede("acme", "user:alex", "address.city", "Evanston", valid_from=day(0))
        tx.supersede("acme", "user:alex", "address.zip", "60201", valid_from=day(0))
        tx.assert_fact("acme", "user:bo", "address.city", "Oslo", valid_from=day(0))
    assert len(tx.receipts) == 3
    assert len({r.recorded_at for r in tx.receipts}) == 1
    positions = [r.position for r in tx.receipts]
    assert positions == sorted(positions) and len(set(positions)) == 3
    assert {(f.entity, f.attribute, f.value) for f in fresh_store.current("acme")} == {
        ("user:alex", "address.city", "Evanston"), ("user:alex", "address.zip", "60201"),
        ("user:bo", "address.city", "Oslo")}


def test_exception_inside_transaction_writes_nothing(
    fresh_store: memory_es.MemoryStore,
) -> None:
    """If the block raises, nothing is appended and later writes see the old state."""
    fresh_store.assert_fact("acme", "user:alex", "home.city", "Detroit", valid_from=day(0))
    position = fresh_store.log_position()

    class Boom(Exception):
        pass

    with pytest.raises(Boom), fresh_store.transact() as tx:
        tx.supersede("acme", "user:alex", "home.city", "Chicago", valid_from=day(0))
        tx.assert_fact("acme", "user:bo", "home.city", "Oslo")
        raise Boom
    assert fresh_store.log_position() == position
    assert [f.value for f in fresh_store.current("acme")] == ["Detroit"]
    again = fresh_store.assert_fact("acme", "user:alex", "home.city", "Detroit",
                                    valid_from=day(1))
    assert again.outcome == "reinforced"  # the discarded Chicago left no trace in memory


def test_validation_error_in_one_operation_writes_nothing(
    fresh_store: memory_es.MemoryStore,
) -> None:
    """One invalid operation aborts the whole transaction with a typed error."""
    fresh_store.assert_fact("acme", "user:alex", "home.city", "Detroit", valid_from=day(0))
    position = fresh_store.log_position()
    with pytest.raises(memory_es.InvalidInput), fresh_store.transact() as tx:
        tx.supersede("acme", "user:alex", "home.city", "Chicago", valid_from=day(0))
        tx.assert_fact("acme", "user:bo", "home.city", "Oslo")
        tx.assert_fact("acme", "user:bo", "home.city", float("nan"))
    assert fresh_store.log_position() == position
    assert [f.value for f in fresh_store.current("acme")] == ["Detroit"]


def test_domain_error_in_one_operation_writes_nothing(
    fresh_store: memory_es.MemoryStore,
) -> None:
    """A ConflictError from the domain (a forgotten fact) aborts the whole transaction."""
    r = fresh_store.assert_fact("acme", "user:alex", "home.city", "Detroit")
    fresh_store.forget_entity("acme", "user:alex")
    position = fresh_store.log_position()
    with pytest.raises(memory_es.ConflictError), fresh_store.transact() as tx:
        tx.assert_fact("acme", "user:bo", "home.city", "Oslo")
        tx.correct(fact_id_of(r), "Chicago")
    assert fresh_store.log_position() == position
    assert fresh_store.current("acme") == []


def test_conflict_keeps_the_current_value(fresh_store: memory_es.MemoryStore) -> None:
    """An equal-precedence contradiction is stored as conflicted; current is unchanged."""
    fresh_store.assert_fact("acme", "user:alex", "home.city", "Detroit", valid_from=day(0))
    r = fresh_store.assert_fact("acme", "user:alex", "home.city", "Chicago", valid_from=day(10))
    assert r.outcome == "conflicted" and r.conflict_id is not None
    assert [f.value for f in fresh_store.current("acme")] == ["Detroit"]
    states = {row["value"]: row["state"] for row in fresh_store.table("fact_versions").to_pylist()}
    assert states == {'"Detroit"': "active", '"Chicago"': "conflicted"}
    fresh_store.resolve_conflict(r.conflict_id, fact_id_of(r), reason="user confirmed")
    assert [f.value for f in fresh_store.current("acme")] == ["Chicago"]


def test_outranking_assertion_supersedes(fresh_store: memory_es.MemoryStore) -> None:
    """A user assertion replaces an inference; the reverse opens a conflict."""
    inferred = fresh_store.assert_fact("acme", "user:alex", "home.city", "Detroit",
                                       valid_from=day(0), asserted_by="inference")
    told = fresh_store.assert_fact("acme", "user:alex", "home.city", "Chicago",
                                   valid_from=day(10))
    assert told.outcome == "applied"
    assert [f.value for f in fresh_store.current("acme")] == ["Chicago"]
    assert [f.fact_id for f in fresh_store.chain("acme", fact_id_of(told))] == [
        inferred.fact_id, told.fact_id]
    guess = fresh_store.assert_fact("acme", "user:alex", "home.city", "Oslo",
                                    valid_from=day(20), asserted_by="inference")
    assert guess.outcome == "conflicted"


def test_reinforcement_renews_verified_at(fresh_store: memory_es.MemoryStore,
                                          clock: FakeClock) -> None:
    """The same value again creates no fact and moves verified_at to the commit time."""
    first = fresh_store.assert_fact("acme", "user:alex", "home.city", "Detroit")
    clock.advance(days=3)
    again = fresh_store.assert_fact("acme", "user:alex", "home.city", "Detroit")
    assert again.outcome == "reinforced" and again.fact_id == first.fact_id
    [fact] = fresh_store.current("acme")
    assert (fact.state, fact.verified_at) == ("reinforced", clock())


def test_cardinality_many_keeps_every_value(fresh_store: memory_es.MemoryStore) -> None:
    """Declared cardinality-many attributes hold several current values."""
    fresh_store.define_attribute("acme", "skill.language", cardinality="many")
    fresh_store.assert_fact("acme", "user:alex", "skill.language", "python")
    r = fresh_store.assert_fact("acme", "user:alex", "skill.language", "rust")
    assert r.outcome == "applied"
    assert sorted(f.value for f in fresh_store.current("acme")) == ["python", "rust"]


def test_unresolved_mention_is_stored_and_supersedes_nothing(
    fresh_store: memory_es.MemoryStore,
) -> None:
    """entity=None with a mention is written unresolved and leaves resolved facts alone."""
    fresh_store.assert_fact("acme", "user:alex", "home.city", "Detroit", valid_from=day(0))
    r = fresh_store.assert_fact("acme", None, "home.city", "Oslo", mention="Dana",
                                valid_from=day(0))
    fresh_store.assert_fact("acme", None, "home.city", "Bergen", mention="Dana",
                            valid_from=day(0))
    assert r.outcome == "applied"
    current = {(f.entity, f.mention, f.value) for f in fresh_store.current("acme")}
    assert current == {("user:alex", None, "Detroit"), (None, "Dana", "Oslo"),
                       (None, "Dana", "Bergen")}


def test_alias_resolves_to_the_canonical_entity(fresh_store: memory_es.MemoryStore) -> None:
    """A registered alias writes and reads as its canonical entity; unknown names are invalid."""
    fresh_store.alias("acme", "Alex Smith", "user:alex")
    r = fresh_store.assert_fact("acme", "alex  smith", "home.city", "Detroit")
    [fact] = fresh_store.current("acme", entity="Alex Smith")
    assert (fact.fact_id, fact.entity) == (r.fact_id, "user:alex")
    with pytest.raises(memory_es.InvalidInput):
        fresh_store.assert_fact("acme", "Alexandra Smith", "home.city", "Oslo")


def test_empty_transaction_appends_nothing_and_uses_no_time(
    fresh_store: memory_es.MemoryStore, clock: FakeClock,
) -> None:
    """A transaction with no operations commits nothing and does not move transaction time."""
    first = fresh_store.assert_fact("acme", "user:alex", "home.city", "Detroit")
    with fresh_store.transact() as tx:
        pass
    assert tx.receipts == []
    assert fresh_store.log_position() == first.position
    second = fresh_store.assert_fact("acme", "user:bo", "home.city", "Oslo")
    assert (second.recorded_at - first.recorded_at).microseconds == 1


def test_resolving_a_conflict_keeps_one_value_per_valid_time(
    fresh_store: memory_es.MemoryStore,
) -> None:
    """After a later supersede, resolving an older conflict still leaves one current value."""
    fresh_store.assert_fact("acme", "user:alex", "home.city", "Detroit", valid_from=day(0))
    c = fresh_store.assert_fact("acme", "user:alex", "home.city", "Chicago", valid_from=day(10))
    fresh_store.supersede("acme", "user:alex", "home.city", "Oslo", valid_from=day(20))
    fresh_store.resolve_conflict(str(c.conflict_id), str(c.fact_id))
    timeline = [[f.value for f in fresh_store.as_of("acme", valid_at=day(n))]
                for n in (5, 15, 25)]
    assert timeline == [["Detroit"], ["Chicago"], ["Oslo"]]
