"""Reads: read-your-writes, scheduled changes, width control, rebuild equals incremental."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import memory_es
from tests.conftest import StoreFactory
from tests.fakes import FakeClock, day
from tests.receipts import fact_id_of


def sorted_versions(store: memory_es.MemoryStore) -> list[dict[str, Any]]:
    return sorted(store.table("fact_versions").to_pylist(), key=lambda r: r["version_id"])


def busy_history(store: memory_es.MemoryStore, clock: FakeClock, *, read_between: bool) -> None:
    """A history touching every kind of change, with or without reads between writes."""
    def tick() -> None:
        clock.advance(minutes=7)
        if read_between:
            store.current("acme")

    detroit = store.assert_fact("acme", "user:alex", "home.city", "Detroit", valid_from=day(0))
    tick()
    store.supersede("acme", "user:alex", "home.city", "Chicago", valid_from=day(40),
                    valid_until=day(60))
    tick()
    store.correct(fact_id_of(detroit), "Detroit, MI")
    tick()
    browser = store.assert_fact("acme", "user:alexandra", "pref.browser", "Firefox",
                                valid_from=day(1), asserted_by="inference")
    store.assert_fact("acme", "user:alexandra", "pref.browser", "Firefox", valid_from=day(2),
                      asserted_by="inference")
    tick()
    store.assert_fact("acme", "user:alexandra", "pref.browser", "Chrome", valid_from=day(30),
                      asserted_by="third_party")
    tick()
    store.assert_fact("acme", "user:alexandra", "pref.browser", "Edge", valid_from=day(50),
                      asserted_by="third_party")
    tick()
    region = store.assert_fact("acme", "user:bo", "home.region", "Midwest",
                               derived_from=[fact_id_of(detroit)], valid_from=day(0))
    store.assert_fact("acme", "user:bo", "pref.team", "Pistons", derived_from=[fact_id_of(region)],
                      valid_from=day(0))
    tick()
    with store.transact() as tx:
        tx.retract("acme", "user:alex", "home.city", valid_from=day(45), valid_until=day(50))
        tx.decay(fact_id_of(browser), valid_until=day(20))
        tx.assert_fact("acme", None, "home.city", "Oslo", mention="Dana", valid_from=day(3))
    tick()
    store.forget_entity("acme", "user:alexandra")
    tick()
    store.assert_fact("acme", "user:alex", "home.city", "Evanston", valid_from=day(70))
    tick()


def test_rebuild_equals_incremental(fresh_store: memory_es.MemoryStore, clock: FakeClock) -> None:
    """Catching up event by event and replaying the whole log give identical tables."""
    busy_history(fresh_store, clock, read_between=True)
    incremental = sorted_versions(fresh_store)
    assert len(incremental) > 15
    replayed = fresh_store.rebuild()
    assert replayed == fresh_store.log_position()
    assert sorted_versions(fresh_store) == incremental


def test_rebuild_does_not_depend_on_batch_size(
    fresh_store: memory_es.MemoryStore, clock: FakeClock,
) -> None:
    """Replaying in batches of one, three or thousands of events yields the same table."""
    busy_history(fresh_store, clock, read_between=False)
    fresh_store.current("acme")
    one_go = sorted_versions(fresh_store)
    for batch in (1, 3):
        fresh_store.runtime.views.catchup.batch = batch  # white box: the catch-up batch size
        fresh_store.rebuild()
        assert sorted_versions(fresh_store) == one_go, batch


def test_reopened_store_resumes_where_its_views_stopped(
    store_factory: StoreFactory, clock: FakeClock,
) -> None:
    """Writes made while nothing read are projected on the next open, exactly once."""
    store = store_factory()
    busy_history(store, clock, read_between=False)
    store.close()
    reopened = store_factory()
    resumed = sorted_versions(reopened)
    assert reopened.projection_position() == reopened.log_position()
    reopened.rebuild()
    assert sorted_versions(reopened) == resumed


def test_reads_see_the_callers_last_write(
    fresh_store: memory_es.MemoryStore, clock: FakeClock,
) -> None:
    """Each write is visible to the very next read, even with a clock standing still."""
    for city in ("Detroit", "Chicago", "Oslo"):
        fresh_store.supersede("acme", "user:alex", "home.city", city)
        assert [f.value for f in fresh_store.current("acme", entity="user:alex")] == [city]
        assert [f.value for f in fresh_store.as_of("acme", entity="user:alex")] == [city]
        assert fresh_store.projection_position() == fresh_store.log_position()
    assert [f.value for f in fresh_store.chain("acme", fresh_store.current("acme")[0].fact_id)] \
        == ["Detroit", "Chicago", "Oslo"]


def test_scheduled_change_takes_effect_when_its_time_comes(
    fresh_store: memory_es.MemoryStore, clock: FakeClock,
) -> None:
    """A supersede from tomorrow on changes current tomorrow, with no new event."""
    fresh_store.assert_fact("acme", "user:alex", "home.city", "Detroit",
                            valid_from=clock() - dt.timedelta(days=30))
    fresh_store.supersede("acme", "user:alex", "home.city", "Chicago",
                          valid_from=clock() + dt.timedelta(days=1))
    position = fresh_store.log_position()
    assert [f.value for f in fresh_store.current("acme")] == ["Detroit"]
    assert fresh_store.table("facts_current").column("value").to_pylist() == ['"Detroit"']
    clock.advance(days=1)
    assert [f.value for f in fresh_store.current("acme")] == ["Chicago"]
    assert fresh_store.table("facts_current").column("value").to_pylist() == ['"Chicago"']
    assert fresh_store.log_position() == position


def test_decay_scheduled_for_later_ends_validity_then(
    fresh_store: memory_es.MemoryStore, clock: FakeClock,
) -> None:
    """A fact decayed as of next week is current until next week, then not."""
    r = fresh_store.assert_fact("acme", "user:alex", "session.token", "abc")
    fresh_store.decay(fact_id_of(r), valid_until=clock() + dt.timedelta(days=7))
    clock.advance(days=6)
    assert [f.fact_id for f in fresh_store.current("acme")] == [r.fact_id]
    clock.advance(days=1)
    assert fresh_store.current("acme") == []


def test_as_of_at_now_equals_current(fresh_store: memory_es.MemoryStore,
                                     clock: FakeClock) -> None:
    """as_of with default valid and known times is the current view."""
    busy_history(fresh_store, clock, read_between=False)
    assert fresh_store.as_of("acme") == fresh_store.current("acme")
    assert fresh_store.as_of("acme", valid_at=clock(), known_at=clock()) == \
        fresh_store.current("acme")


def test_entity_ids_match_exactly(fresh_store: memory_es.MemoryStore) -> None:
    """`user:alex` never matches `user:alexandra`, in reads or in forget_entity."""
    fresh_store.assert_fact("acme", "user:alex", "home.city", "Detroit", valid_from=day(0))
    fresh_store.assert_fact("acme", "user:alexandra", "home.city", "Oslo", valid_from=day(0))
    fresh_store.assert_fact("acme", "user:alex2", "home.city", "Bergen", valid_from=day(0))
    assert [f.value for f in fresh_store.current("acme", entity="user:alex")] == ["Detroit"]
    fresh_store.forget_entity("acme", "user:alex")
    left = {f.entity: f.value for f in fresh_store.current("acme")}
    assert left == {"user:alexandra": "Oslo", "user:alex2": "Bergen"}


def test_forgotten_facts_are_hidden_at_every_past_point(
    fresh_store: memory_es.MemoryStore, clock: FakeClock,
) -> None:
    """Eligibility is judged now: as of a time before the forget, the fact is still gone."""
    r = fresh_store.assert_fact("acme", "user:alex", "home.city", "Detroit", valid_from=day(0))
    before = clock.advance(hours=1)
    clock.advance(hours=1)
    fresh_store.forget_entity("acme", "user:alex")
    assert fresh_store.as_of("acme", valid_at=day(5), known_at=before) == []
    assert fresh_store.current("acme") == []
    assert all(row["present_state"] == "forgotten"
               for row in fresh_store.table("fact_versions").to_pylist()
               if row["fact_id"] == r.fact_id)


def test_tenants_are_isolated(fresh_store: memory_es.MemoryStore) -> None:
    """The same entity in two tenants is two different things."""
    fresh_store.assert_fact("acme", "user:alex", "home.city", "Detroit", valid_from=day(0))
    r = fresh_store.assert_fact("globex", "user:alex", "home.city", "Oslo", valid_from=day(0))
    assert r.outcome == "applied"
    assert [f.value for f in fresh_store.current("acme")] == ["Detroit"]
    assert [f.value for f in fresh_store.current("globex")] == ["Oslo"]
    fresh_store.forget_entity("globex", "user:alex")
    assert [f.value for f in fresh_store.current("acme")] == ["Detroit"]


def test_reads_return_utc_aware_times(fresh_store: memory_es.MemoryStore) -> None:
    """Times given in another zone come back as the same instants in UTC."""
    oslo = dt.timezone(dt.timedelta(hours=2))
    start = dt.datetime(2025, 3, 1, 9, 30, tzinfo=oslo)
    fresh_store.assert_fact("acme", "user:alex", "home.city", "Oslo", valid_from=start)
    [fact] = fresh_store.current("acme")
    assert fact.valid_from == start
    assert fact.valid_from.utcoffset() == dt.timedelta(0)
    assert fact.recorded_at.utcoffset() == dt.timedelta(0)


def test_export_writes_the_as_of_snapshot_to_parquet(
    fresh_store: memory_es.MemoryStore, clock: FakeClock, tmp_path: Path,
) -> None:
    """export() writes exactly what as_of returns, for one tenant or all."""
    import pyarrow.parquet as pq

    busy_history(fresh_store, clock, read_between=False)
    fresh_store.assert_fact("globex", "user:zed", "home.city", "Oslo", valid_from=day(0))
    before = clock()
    clock.advance(hours=1)
    fresh_store.supersede("acme", "user:alex", "home.city", "Toledo", valid_from=day(0))
    path = fresh_store.export(tmp_path / "out" / "acme.parquet", "acme", valid_at=day(10),
                              known_at=before)
    exported = pq.read_table(path).to_pylist()
    expected = fresh_store.as_of("acme", valid_at=day(10), known_at=before)
    assert sorted(r["version_id"] for r in exported) == sorted(f.version_id for f in expected)
    assert {r["tenant"] for r in exported} == {"acme"}
    assert "Toledo" not in {r["value"] for r in exported}
    everything = pq.read_table(fresh_store.export(tmp_path / "all.parquet")).to_pylist()
    assert {r["tenant"] for r in everything} == {"acme", "globex"}
