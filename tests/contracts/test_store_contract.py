"""The store contract, run on every backend (``backend`` is parametrised: sqlite, postgres).

What a careful user of a database expects from either deployment: writes are
receipted and readable at once, supersede/correct/as-of/chain follow the bitemporal
rules, ``transact`` is all or nothing, idempotency keys survive a restart, a rebuild
equals the incremental views, and the log holds ciphertext only.
"""

from __future__ import annotations

import json
import shutil
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pyarrow as pa
import pytest

import memory_es
from memory_es import InvalidInput, MemoryStore, NotFound
from memory_es.cli import main as cli_main
from tests.contracts.conftest import PG_DSN, Backend
from tests.fakes import FakeClock

T0 = datetime(2024, 1, 1, tzinfo=UTC)  # valid times well before the FakeClock (2025-06)


def values(facts: list[memory_es.Fact]) -> list[Any]:
    return [f.value for f in facts]


def versions(store: MemoryStore) -> list[dict[str, Any]]:
    """Every row of fact_versions, in a stable order, for equality checks."""
    table: pa.Table = store.sql(
        "SELECT * FROM fact_versions ORDER BY fact_id, recorded_at, valid_from, version_id")
    rows: list[dict[str, Any]] = table.to_pylist()
    return rows


def busy_history(store: MemoryStore, clock: FakeClock) -> None:
    """A bit of everything: supersede with trims and splits, correct, retract, decay, forget."""
    a = store.assert_fact("acme", "user:alex", "home.city", "Detroit", valid_from=T0)
    clock.advance(minutes=1)
    store.supersede("acme", "user:alex", "home.city", "Chicago",
                    valid_from=T0 + timedelta(days=100), valid_until=T0 + timedelta(days=200))
    clock.advance(minutes=1)
    store.correct(str(a.fact_id), "Detroit, MI", reason="state was missing")
    clock.advance(minutes=1)
    otp = store.assert_fact("acme", "user:alex", "session.otp", "482913")
    store.decay(str(otp.fact_id))
    clock.advance(minutes=1)
    store.assert_fact("acme", "prop:7797", "owner", "Dana", valid_from=T0)
    store.retract("acme", "prop:7797", "owner", valid_from=T0 + timedelta(days=10),
                  valid_until=T0 + timedelta(days=20))
    clock.advance(minutes=1)
    store.assert_fact("acme", "user:bob", "pref.turnover", "low")
    store.forget_entity("acme", "user:bob")
    premise = store.assert_fact("acme", "user:carol", "job.title", "CFO")
    store.assert_fact("acme", "user:carol", "pref.access", "finance", asserted_by="inference",
                      derived_from=[str(premise.fact_id)])
    clock.advance(minutes=1)
    store.supersede("acme", "user:carol", "job.title", "CEO")
    with store.transact() as tx:
        tx.assert_fact("globex", "user:alex", "home.city", "Oslo")
        tx.assert_fact("globex", "user:alex", "pref.lang", "nb")


def test_write_is_receipted_and_current_at_once(backend: Backend) -> None:
    """assert_fact returns a durable receipt and the fact is current on the next read."""
    store = backend.open()
    r = store.assert_fact("acme", "user:alex", "home.city", "Detroit", source="chat:1")
    assert r.op == "assert_fact"
    assert r.position >= 1
    assert r.recorded_at.tzinfo is not None
    assert r.fact_id is not None
    facts = store.current("acme", entity="user:alex")
    assert [(f.fact_id, f.attribute, f.value, f.source) for f in facts] == [
        (r.fact_id, "home.city", "Detroit", "chat:1")]
    assert store.current("other") == []
    assert store.log_position() == r.position


def test_supersede_moves_current_and_builds_the_chain(backend: Backend) -> None:
    """The new value wins, the old one leaves current, and the chain runs oldest first."""
    clock = FakeClock()
    store = backend.open(clock)
    first = store.assert_fact("acme", "user:alex", "browser.default", "Firefox", valid_from=T0)
    clock.advance(hours=1)
    second = store.supersede("acme", "user:alex", "browser.default", "Chrome",
                             valid_from=T0 + timedelta(days=150))
    clock.advance(hours=1)
    third = store.supersede("acme", "user:alex", "browser.default", "Edge",
                            valid_from=T0 + timedelta(days=250))
    assert values(store.current("acme", attribute="browser.default")) == ["Edge"]
    chain = store.chain("acme", str(first.fact_id))
    assert values(chain) == ["Firefox", "Chrome", "Edge"]
    assert [f.fact_id for f in chain] == [first.fact_id, second.fact_id, third.fact_id]
    assert chain[0].valid_until == T0 + timedelta(days=150)
    assert chain[1].valid_until == T0 + timedelta(days=250)
    # As of now, each valid time has exactly one value.
    for day, expected in ((10, "Firefox"), (200, "Chrome"), (300, "Edge")):
        at = store.as_of("acme", valid_at=T0 + timedelta(days=day), attribute="browser.default")
        assert values(at) == [expected], day
    # Known at the first write, Firefox was believed open-ended.
    then = store.as_of("acme", valid_at=T0 + timedelta(days=300), known_at=first.recorded_at)
    assert values(then) == ["Firefox"]


def test_supersede_for_portion_splits_the_prior(backend: Backend) -> None:
    """A bounded supersede keeps the prior before and after the period (same fact id)."""
    store = backend.open()
    a = store.assert_fact("acme", "user:alex", "home.city", "Detroit", valid_from=T0)
    store.supersede("acme", "user:alex", "home.city", "Chicago",
                    valid_from=T0 + timedelta(days=10), valid_until=T0 + timedelta(days=20))
    for day, expected in ((5, "Detroit"), (15, "Chicago"), (25, "Detroit")):
        at = store.as_of("acme", valid_at=T0 + timedelta(days=day))
        assert values(at) == [expected], day
    detroit = store.as_of("acme", valid_at=T0 + timedelta(days=25))
    assert detroit[0].fact_id == a.fact_id


def test_correct_keeps_what_was_believed_before(backend: Backend) -> None:
    """After a correction, as-of before it still shows the old value; current shows the new."""
    clock = FakeClock()
    store = backend.open(clock)
    wrong = store.assert_fact("acme", "user:alex", "home.city", "Detriot", valid_from=T0)
    clock.advance(days=1)
    fixed = store.correct(str(wrong.fact_id), "Detroit", reason="typo")
    assert fixed.recorded_at > wrong.recorded_at
    assert values(store.current("acme")) == ["Detroit"]
    before = store.as_of("acme", valid_at=T0 + timedelta(days=1), known_at=wrong.recorded_at)
    assert values(before) == ["Detriot"]
    after = store.as_of("acme", valid_at=T0 + timedelta(days=1), known_at=fixed.recorded_at)
    assert values(after) == ["Detroit"]
    nothing = store.as_of("acme", valid_at=T0 + timedelta(days=1),
                          known_at=wrong.recorded_at - timedelta(microseconds=1))
    assert nothing == []


def test_forget_entity_is_exact(backend: Backend) -> None:
    """Forgetting user:alex leaves user:alexandra alone and hides alex from every read."""
    store = backend.open()
    alex = store.assert_fact("acme", "user:alex", "home.city", "Detroit")
    store.assert_fact("acme", "user:alexandra", "home.city", "Rome")
    store.forget_entity("acme", "user:alex")
    assert [f.entity for f in store.current("acme")] == ["user:alexandra"]
    assert [f.entity for f in store.as_of("acme", known_at=alex.recorded_at)] == []
    try:
        hidden = store.chain("acme", str(alex.fact_id))
    except NotFound:
        hidden = []
    assert hidden == []


def test_transact_is_atomic(backend: Backend) -> None:
    """A transaction commits all its operations at one time, or none of them."""
    store = backend.open()
    with store.transact() as tx:
        tx.assert_fact("acme", "user:alex", "address.city", "Evanston")
        tx.assert_fact("acme", "user:alex", "address.zip", "60201")
        tx.assert_fact("acme", "user:bob", "address.city", "Oslo")
    assert len(tx.receipts) == 3
    assert len({r.recorded_at for r in tx.receipts}) == 1
    positions = [r.position for r in tx.receipts]
    assert positions == sorted(positions)
    assert len(set(positions)) == 3
    head = store.log_position()

    class Boom(Exception):
        pass

    with pytest.raises(Boom), store.transact() as tx2:
        tx2.supersede("acme", "user:alex", "address.city", "Chicago")
        tx2.assert_fact("acme", "user:carol", "home.city", "Paris")
        raise Boom
    with pytest.raises(InvalidInput), store.transact() as tx3:
        tx3.supersede("acme", "user:alex", "address.city", "Chicago")
        tx3.assert_fact("acme", "not an entity!", "home.city", "Paris")
    assert store.log_position() == head
    cities = {f.entity: f.value for f in store.current("acme", attribute="address.city")}
    assert cities == {"user:alex": "Evanston", "user:bob": "Oslo"}
    # The store is still usable after the failed blocks, on the same streams.
    store.supersede("acme", "user:alex", "address.city", "Chicago")
    assert {f.value for f in store.current("acme", entity="user:alex")} == {"Chicago", "60201"}


def test_idempotency_keys_survive_a_reopen(backend: Backend) -> None:
    """The same key after a restart returns the original receipt and appends nothing."""
    store = backend.open()
    first = store.assert_fact("acme", "user:alex", "home.city", "Detroit",
                              idempotency_key="msg-41")
    store.close()
    store = backend.open()
    head = store.log_position()
    again = store.assert_fact("acme", "user:alex", "home.city", "Detroit",
                              idempotency_key="msg-41")
    assert again.idempotent_replay is True
    assert (again.event_id, again.fact_id, again.position, again.recorded_at) == (
        first.event_id, first.fact_id, first.position, first.recorded_at)
    assert store.log_position() == head
    # Keys are per tenant: the same key elsewhere is a new write.
    other = store.assert_fact("globex", "user:alex", "home.city", "Detroit",
                              idempotency_key="msg-41")
    assert other.idempotent_replay is False
    assert store.log_position() > head


def test_reopen_keeps_transaction_time_increasing(backend: Backend) -> None:
    """After a restart with a clock that went back, commits come after the log's last one."""
    clock = FakeClock(datetime(2026, 6, 1, tzinfo=UTC))
    store = backend.open(clock)
    last = store.assert_fact("acme", "user:alex", "home.city", "Detroit")
    store.close()
    store = backend.open(FakeClock(datetime(2026, 1, 1, tzinfo=UTC)))
    nxt = store.assert_fact("acme", "user:alex", "pref.lang", "en")
    assert nxt.recorded_at > last.recorded_at
    # The store's present never goes back before its last commit: both writes are read.
    assert sorted(values(store.current("acme"))) == ["Detroit", "en"]
    assert sorted(values(store.as_of("acme"))) == ["Detroit", "en"]


def test_rebuild_equals_incremental(backend: Backend) -> None:
    """Dropping the views and replaying the log yields identical fact_versions."""
    clock = FakeClock()
    store = backend.open(clock)
    busy_history(store, clock)
    incremental = versions(store)
    current = store.current("acme")
    assert len(incremental) > 10
    replayed = store.rebuild()
    assert replayed == store.log_position()
    assert versions(store) == incremental
    assert store.current("acme") == current
    store.close()
    # Reopening catches up from the tracked position: nothing is applied twice.
    store = backend.open(clock)
    assert store.projection_position() == store.log_position()
    assert versions(store) == incremental


def test_a_fresh_views_folder_catches_up_to_the_same_tables(backend: Backend) -> None:
    """Another projection replica following the same log builds the same tables."""
    clock = FakeClock()
    store = backend.open(clock)
    busy_history(store, clock)
    expected = versions(store)
    store.close()
    if backend.name == "sqlite":
        shutil.rmtree(backend.folder / "views")
        replica = backend.open(clock)
    else:
        replica = backend.open(clock, views=backend.new_replica())
    assert versions(replica) == expected


def test_log_holds_ciphertext_only(backend: Backend) -> None:
    """Neither the values nor the natural entity id appear in the log's stored bytes."""
    marker = f"marker-{uuid.uuid4().hex}"
    store = backend.open()
    store.assert_fact("acme", f"user:{marker}", "home.city", f"{marker}-city",
                      text=f"lives in {marker}", source=f"chat:{marker}")
    store.assert_fact("acme", "user:alex", "note.secret", {"code": marker})
    store.alias("acme", f"{marker} alias", "user:alex")
    store.supersede("acme", "user:alex", "note.secret", [marker, marker])
    states = backend.event_states()
    assert len(states) >= 4
    needles = [marker.encode(), marker.encode("utf-16-le"), marker[7:].encode()]
    for state in states:
        for needle in needles:
            assert needle not in state
    raw = backend.raw_bytes()
    assert raw
    for needle in needles:
        assert needle not in raw
    # ...while the store itself reads the content back.
    assert f"{marker}-city" in values(store.current("acme"))


def test_bad_input_appends_nothing(backend: Backend) -> None:
    """Validation errors raise a typed error before anything reaches the log."""
    store = backend.open()
    store.assert_fact("acme", "user:alex", "home.city", "Detroit")
    head = store.log_position()
    with pytest.raises(InvalidInput):
        store.assert_fact("acme", "user:alex", "Home City", "x")
    with pytest.raises(InvalidInput):
        store.assert_fact("acme", "user:alex", "home.city", "x",
                          valid_from=datetime(2025, 1, 1))  # naive on purpose
    with pytest.raises(InvalidInput):
        store.assert_fact("bad tenant!", "user:alex", "home.city", "x")
    with pytest.raises(NotFound):
        store.correct("f-" + "0" * 32 + "-1", "x")
    assert store.log_position() == head


def test_cli_runs_against_the_backend(backend: Backend, capsys: pytest.CaptureFixture[str],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The memory-es command reaches the same store through --store or --dsn/--schema."""
    if backend.name == "sqlite":
        where = ["--store", str(backend.folder)]
    else:
        where = ["--dsn", PG_DSN, "--views", str(backend.folder), "--schema",
                 str(backend.schema)]
    keyed = ["--json"]
    monkeypatch.setenv("MEMORY_ES_KEY_FILE", str(backend.key_file))
    assert cli_main([*where, *keyed, "assert", "acme", "user:alex", "home.city",
                     "Detroit"]) == 0
    receipt = json.loads(capsys.readouterr().out)
    assert cli_main([*where, *keyed, "supersede", "acme", "user:alex", "home.city",
                     "Chicago"]) == 0
    capsys.readouterr()
    assert cli_main([*where, *keyed, "chain", "acme", receipt["fact_id"]]) == 0
    chain = json.loads(capsys.readouterr().out)
    assert [f["value"] for f in chain] == ["Detroit", "Chicago"]
    store = backend.open()
    assert values(store.current("acme")) == ["Chicago"]


# PostgreSQL only: several writers and readers on one log --------------------------------

def test_two_writers_share_one_postgres_log(pg_backend: Backend) -> None:
    """Two stores on one PostgreSQL log see each other's writes; a writer whose cached
    stream is behind loses the race, and the store retries it on the fresh stream instead of
    surfacing the conflict (SPEC §13): the write lands after the other's, nothing lost."""
    a = pg_backend.open()
    b = pg_backend.open(views=pg_backend.new_replica())
    a.assert_fact("acme", "user:alex", "home.city", "Detroit")
    assert values(b.current("acme")) == ["Detroit"]
    b.supersede("acme", "user:alex", "home.city", "Chicago")
    head = a.log_position()
    receipt = a.supersede("acme", "user:alex", "home.city", "Evanston")  # a's cache is stale
    assert receipt.position > head
    assert values(b.current("acme")) == ["Evanston"]
    chain = [f.value for f in b.chain("acme", receipt.fact_id or "")]
    assert chain == ["Detroit", "Chicago", "Evanston"]
    assert versions(a) == versions(b)


def test_purge_shreds_on_every_backend(backend: Backend) -> None:
    """Purge destroys the entity's keys and name rows in the key store, leaves the
    neighbours and the audit chain intact, and its receipt verifies as complete."""
    marker = f"marker-{uuid.uuid4().hex}"
    store = backend.open()
    gone = store.assert_fact("acme", "user:dana", "home.city", f"{marker}-city")
    store.supersede("acme", "user:dana", "home.city", f"{marker}-town")
    store.assert_fact("acme", "user:danae", "home.city", "Athens")
    receipt = store.purge("acme", "user:dana", requested_by="dpo@acme")
    assert receipt.report is not None
    assert receipt.report.complete, receipt.report
    assert receipt.key_ids
    report = store.verify_erasure(receipt)
    assert report.complete, report
    assert [f.entity for f in store.current("acme")] == ["user:danae"]
    assert store.as_of("acme", known_at=gone.recorded_at) == []
    audit = store.audit_verify()
    assert audit.ok, audit.problems
    assert audit.shredded >= 2
    raw = backend.raw_bytes()
    assert marker.encode() not in raw
    for table in ("me_keys", "me_names"):
        rows = backend.key_store_rows(
            f"SELECT count(*) FROM {table} WHERE stream_id = '{receipt.stream_id}'")
        assert rows == [(0,)], table
    assert backend.key_store_rows("SELECT count(*) FROM me_keys") != [(0,)]  # danae's
    # The log itself is untouched: the purged events are still there, as ciphertext.
    assert len(backend.event_states()) >= 4


def test_count_is_what_current_reads(backend: Backend) -> None:
    """``count(tenant)`` is the number of versions ``current(tenant)`` returns, per tenant,
    and follows writes and forgets; with an agent it adds that agent's private facts."""
    store = backend.open()
    assert store.count("acme") == 0
    store.assert_fact("acme", "user:alex", "home.city", "Oslo")
    store.assert_fact("acme", "user:bea", "home.city", "Lima")
    store.supersede("acme", "user:alex", "home.city", "Bergen")
    store.assert_fact("globex", "user:alex", "home.city", "Kyiv")
    store.assert_fact("acme", "user:alex", "pet.name", "Rex", agent="a")
    assert store.count("acme") == len(store.current("acme")) == 2
    assert store.count("globex") == 1
    assert store.count("acme", agent="a") == len(store.current("acme", agent="a")) == 3
    assert store.count("acme", agent="b") == 2
    store.forget_entity("acme", "user:bea")
    assert store.count("acme") == len(store.current("acme")) == 1
