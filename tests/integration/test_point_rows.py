"""The point-read row store (``points.sqlite``, :mod:`projections.points`).

It must give exactly what the DuckDB views give (same rows, order and types) for one
entity's ``current``/``as_of``, ``chain`` and ``fact_exists``, after any history and
any batching; follow crashes between its commit and DuckDB's without losing or doubling
anything; be rebuilt with the views; and hold no byte of purged (or masked) content once
a residue report says ``complete``.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import sqlite3
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

import memory_es
from memory_es.choices import CheckResult
from memory_es.domain.agents import AgentScope
from projections import governance, queries
from projections.points import FILE_NAME, Columns, PointRows, serving
from projections.schema import COLUMN_NAMES, MASKED_TEXT
from projections.versions import Carried
from tests.fakes import FakeClock, day
from tests.integration.test_projection_equivalence import Driver
from tests.strategies import ATTRIBUTES, ENTITIES, ProjectionOp, projection_op_sequences

T = "acme"
EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)


@contextlib.contextmanager
def opened(folder: Path, clock: FakeClock, **options: Any) -> Iterator[memory_es.MemoryStore]:
    store = memory_es.open(folder, clock=clock, **options)
    try:
        yield store
    finally:
        store.close()


def points_of(store: memory_es.MemoryStore) -> PointRows:
    return store.runtime.views.points


@contextlib.contextmanager
def duckdb_only(store: memory_es.MemoryStore) -> Iterator[None]:
    """Reads go to DuckDB, as they do while the row store is being resynchronised."""
    points = points_of(store)
    was, points.ready = points.ready, False
    try:
        yield
    finally:
        points.ready = was


def us(when: dt.datetime) -> int:
    return (when - EPOCH) // dt.timedelta(microseconds=1)


def duck_table(store: memory_es.MemoryStore) -> list[tuple[Any, ...]]:
    """Every row of DuckDB's ``fact_versions``, as comparable tuples (times in µs)."""
    con = store.runtime.views.con
    rows = con.sql(f"SELECT {', '.join(COLUMN_NAMES)} FROM fact_versions").to_arrow_table()
    out = []
    for row in rows.to_pylist():
        out.append(tuple(us(v) if isinstance(v, dt.datetime) else v
                         for v in (row[c] for c in COLUMN_NAMES)))
    return sorted(out, key=repr)


def point_table(store: memory_es.MemoryStore) -> list[tuple[Any, ...]]:
    points = points_of(store)
    rows = points.fetch(Columns(COLUMN_NAMES), "1 = 1", [])
    return sorted((tuple(us(v) if isinstance(v, dt.datetime) else v
                         for v in (r[c] for c in COLUMN_NAMES)) for r in rows), key=repr)


def _kind(t: Any) -> str:
    """An Arrow type, a list's item name aside (DuckDB names it after the column, or not)."""
    return f"list<{t.value_type}>" if hasattr(t, "value_type") else str(t)


def typed(rows: Any) -> Any:
    """Rows with each value's type and time zone beside it (so equality checks types)."""
    if hasattr(rows, "to_pylist"):
        return ("arrow", [(f.name, _kind(f.type)) for f in rows.schema], typed(rows.to_pylist()))
    return [{k: (v, type(v).__name__, getattr(v, "tzinfo", None) and str(v.tzinfo))
             for k, v in r.items()} for r in rows]


def read_times(store: memory_es.MemoryStore) -> tuple[list[int], list[int]]:
    """Valid and record times worth reading at: every bound in the table, and 1 µs before."""
    con = store.runtime.views.con
    valid: set[int] = {us(day(0)), us(day(20)), us(day(60))}
    known: set[int] = {store.runtime.now()}
    for vf, vu, ra, ru in con.execute(
            "SELECT epoch_us(valid_from), epoch_us(valid_until), epoch_us(recorded_at), "
            "epoch_us(recorded_until) FROM fact_versions").fetchall():
        valid |= {x + d for x in (vf, vu) if x is not None for d in (-1, 0)}
        known |= {x + d for x in (ra, ru) if x is not None for d in (-1, 0)}
    return sorted(valid), sorted(known)


def assert_reads_agree(store: memory_es.MemoryStore) -> int:
    """Every one-entity read and every chain from the row store equals DuckDB's."""
    con = store.runtime.views.con
    assert serving(con) is not None, "the row store is not serving reads"
    valid, known = read_times(store)
    picks_v = valid[:: max(1, len(valid) // 6)] + valid[-1:]
    picks_k = known[:: max(1, len(known) // 6)] + known[-1:]
    compared = 0
    entities = {e for (e,) in con.execute("SELECT DISTINCT entity FROM fact_versions "
                                          "WHERE entity IS NOT NULL").fetchall()}
    attributes = {a for (a,) in con.execute("SELECT DISTINCT attribute FROM fact_versions"
                                            ).fetchall()}
    for entity in sorted(entities | set(ENTITIES)):
        for attribute in (None, *sorted(attributes | set(ATTRIBUTES))):
            for v in picks_v:
                got = queries.current(con, v, T, entity, attribute, as_records=True)
                with duckdb_only(store):
                    want = queries.current(con, v, T, entity, attribute, as_records=True)
                assert typed(got) == typed(want), (entity, attribute, v)
                for k in picks_k:
                    got = queries.as_of(con, v, k, T, entity, attribute, as_records=True)
                    with duckdb_only(store):
                        want = queries.as_of(con, v, k, T, entity, attribute, as_records=True)
                    assert typed(got) == typed(want), (entity, attribute, v, k)
                    compared += len(want)
    for (fid,) in con.execute("SELECT DISTINCT fact_id FROM fact_versions").fetchall():
        for tenant, scope in ((T, None), ("other", None), (T, AgentScope()),
                              (T, AgentScope("bot"))):
            exists = queries.fact_exists(con, tenant, fid, scope)
            with duckdb_only(store):
                assert exists == queries.fact_exists(con, tenant, fid, scope)
            got = queries.chain(con, tenant, fid, scope)
            with duckdb_only(store):
                want = queries.chain(con, tenant, fid, scope)
            assert typed(got) == typed(want), fid
    return compared


# -- same answers as DuckDB ------------------------------------------------------------------

@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=projection_op_sequences(max_size=20))
def test_row_store_reads_equal_duckdb_reads_for_any_history(ops: list[ProjectionOp]) -> None:
    """For any generated bitemporal history (supersede, correct, decay, retract, mask,
    archive, forget, purge...), caught up in batches of random size, the row store holds
    exactly DuckDB's rows, and every one-entity current/as-of read, chain and existence
    check it serves equals the DuckDB path's, with the same types."""
    clock = FakeClock(day(10) + dt.timedelta(hours=9))
    with tempfile.TemporaryDirectory() as folder, opened(Path(folder), clock) as store:
        driver = Driver(store, clock)
        for op in ops:
            driver.run(op)
        store.catch_up()
        assert point_table(store) == duck_table(store)
        assert_reads_agree(store)


def test_a_hand_written_history_reads_the_same_from_both_stores(tmp_path: Path) -> None:
    """A supersede in the middle of a fact's validity, a correction, a mask and an agent's
    private fact: the row store answers current, as-of, chain and existence reads (with
    and without an agent scope) with DuckDB's rows (and some rows exist)."""
    clock = FakeClock()
    with opened(tmp_path / "s", clock) as store:
        a = store.assert_fact(T, "user:a", "home.city", "Oslo", valid_from=day(0)).fact_ids[0]
        clock.advance(minutes=1)
        b = store.supersede(T, "user:a", "home.city", "Lima", valid_from=day(5),
                            valid_until=day(10)).fact_ids[0]
        store.correct(b, "Rome")
        store.assert_fact(T, "user:a", "contact.email", "a@example.org", source="chat:1")
        private = store.assert_fact(T, "user:a", "pref.browser", "lynx",
                                    agent="bot").fact_ids[0]
        store.mask(a)
        store.catch_up()
        assert assert_reads_agree(store) > 0
        con = store.runtime.views.con
        assert queries.fact_exists(con, T, private, AgentScope("bot"))
        assert not queries.fact_exists(con, T, private, AgentScope("other-bot"))
        facts = store.chain(T, b)
        assert [f.fact_id for f in facts] == [a, b]
        assert facts[0].value == MASKED_TEXT
        assert facts[0].valid_from.tzinfo is not None


# -- following, crashes, rebuild -------------------------------------------------------------

def _write_some(store: memory_es.MemoryStore, clock: FakeClock, n: int) -> None:
    for i in range(n):
        clock.advance(minutes=1)
        store.assert_fact(T, f"user:{i % 3}", "home.city", f"city {i}")
        if i % 2:
            store.supersede(T, f"user:{i % 3}", "home.city", f"town {i}", valid_from=day(i))


def test_a_store_behind_or_ahead_of_the_views_is_resynchronised_on_open(tmp_path: Path) -> None:
    """A crash between DuckDB's commit and the row store's leaves it behind (or ahead): on
    open it is rebuilt from DuckDB, so it holds every row once and serves reads again."""
    clock = FakeClock()
    folder = tmp_path / "s"
    with opened(folder, clock) as store:
        _write_some(store, clock, 6)
        store.catch_up()
        expected = duck_table(store)
        position = store.runtime.views.position()
    for tampered_position, tamper in (
            (position - 3, "DELETE FROM versions WHERE rowid IN (SELECT rowid FROM versions "
                           "LIMIT 2)"),
            (position + 5, "INSERT INTO versions SELECT * FROM versions LIMIT 3")):
        con = sqlite3.connect(folder / FILE_NAME)
        con.execute(tamper)
        con.execute("UPDATE tracking SET position = ?", [tampered_position])
        con.commit()
        con.close()
        with opened(folder, clock) as store:
            assert points_of(store).ready
            assert points_of(store).position == position
            assert point_table(store) == expected
            assert len(store.current(T, entity="user:1")) == 1


def test_a_failed_batch_falls_back_to_duckdb_then_resynchronises(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """When applying a batch to the row store fails, the write and the views are unharmed,
    reads keep giving the right answer from DuckDB, and the next catch-up that can
    resynchronises the row store."""
    clock = FakeClock()
    with opened(tmp_path / "s", clock) as store:
        _write_some(store, clock, 2)
        store.catch_up()
        points = points_of(store)

        def broken(fact_ids: list[str], position: int) -> None:
            raise sqlite3.OperationalError("disk I/O error")

        monkeypatch.setattr(points, "_apply", broken)
        monkeypatch.setattr(points, "_apply_batch", lambda applied: broken([], 0))
        monkeypatch.setattr(points, "resync", lambda duck, position: broken([], position))
        store.assert_fact(T, "user:9", "home.city", "Quito")
        assert [f.value for f in store.current(T, entity="user:9")] == ["Quito"]
        assert not points.ready and serving(store.runtime.views.con) is None
        monkeypatch.undo()
        points._retry_at = 0.0  # noqa: SLF001 - skip the back-off the test cannot wait for
        store.catch_up()
        assert points.ready
        assert point_table(store) == duck_table(store)
        assert [f.value for f in store.current(T, entity="user:9")] == ["Quito"]


def test_rebuild_rebuilds_the_row_store(tmp_path: Path) -> None:
    """After ``rebuild()`` the row store is a fresh copy of the rebuilt views."""
    clock = FakeClock()
    with opened(tmp_path / "s", clock) as store:
        _write_some(store, clock, 5)
        store.catch_up()
        con = sqlite3.connect(tmp_path / "s" / FILE_NAME)  # a stray row the rebuild must drop
        con.execute("DELETE FROM versions WHERE rowid = (SELECT min(rowid) FROM versions)")
        con.commit()
        con.close()
        store.rebuild()
        assert points_of(store).ready
        assert point_table(store) == duck_table(store)


def test_rebuild_copies_again_only_the_facts_whose_rows_the_replay_changed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """When the row store was in line with the old views, a rebuild replaces only the
    rows of facts whose rows the replay changed (here rows an older projection wrote
    wrongly into both stores: a changed value and state, and a stray row), not the whole
    file, and the row store ends equal to the rebuilt views."""
    clock = FakeClock()
    with opened(tmp_path / "s", clock) as store:
        _write_some(store, clock, 6)
        store.catch_up()
        points = points_of(store)
        wrong, stray = (f.fact_id for f in store.current(T, entity="user:1")[:1] +
                        store.current(T, entity="user:2")[:1])
        for con, table in ((store.runtime.views.con, "fact_versions"), (points.con, "versions")):
            con.execute(f"UPDATE {table} SET value = '\"Wrongville\"', "
                        "present_state = 'archived' WHERE fact_id = ?", [wrong])
            con.execute(f"INSERT INTO {table} SELECT * FROM {table} WHERE fact_id = ? "
                        "LIMIT 1", [stray])
        copied: list[int] = []
        monkeypatch.setattr(points, "resync", lambda duck, position: copied.append(position))
        store.rebuild()
        assert not copied, "the whole row store was copied again"
        assert points.ready
        assert point_table(store) == duck_table(store)
        assert "Wrongville" not in repr(point_table(store))
        assert len([r for r in point_table(store) if r[1] == stray]) == len(
            [r for r in duck_table(store) if r[1] == stray])


def test_a_read_only_replica_keeps_its_own_row_store(tmp_path: Path) -> None:
    """``open(path, read_only=True)`` follows the log into its own replica folder's
    ``points.sqlite`` and serves point reads from it."""
    clock = FakeClock()
    with opened(tmp_path / "s", clock) as store:
        _write_some(store, clock, 3)
        with opened(tmp_path / "s", clock, read_only=True) as replica:
            replica.catch_up()
            views = replica.runtime.views
            assert views.folder != store.runtime.views.folder
            assert (views.folder / FILE_NAME).exists()
            assert serving(views.con) is not None
            assert replica.current(T, entity="user:1") == store.current(T, entity="user:1")


# -- erasure ---------------------------------------------------------------------------------

def _files(folder: Path) -> dict[str, bytes]:
    names = [FILE_NAME, *(FILE_NAME + s for s in ("-wal", "-journal", "-shm", ".fresh"))]
    return {n: (folder / n).read_bytes() for n in names if (folder / n).exists()}


def _holding(marker: bytes, files: dict[str, bytes]) -> list[str]:
    return [name for name, data in files.items() if marker in data]


def _check(report: Any, name: str) -> Any:
    (found,) = [s for s in report.stores if s.name == name]
    return found


def test_purge_leaves_no_byte_of_the_purged_facts_in_the_row_store(tmp_path: Path) -> None:
    """A marker in an entity's name, values, text and source is in ``points.sqlite`` (or
    its -wal) before the purge and in no byte of it, its -wal or -journal once the report
    is complete, with the store open and after it is closed; the report checks the row
    store; the other entity's rows stay."""
    clock = FakeClock()
    folder = tmp_path / "s"
    m = f"zqm{uuid.uuid4().hex}"
    with opened(folder, clock) as store:
        entity = f"user:{m}"
        store.assert_fact(T, entity, "home.city", f"{m} city", text=f"lives in {m} city",
                          source=f"chat:{m}")
        clock.advance(minutes=1)
        store.supersede(T, entity, "home.city", f"{m} town")
        store.assert_fact(T, "user:kept", "home.city", "Oslo")
        store.catch_up()
        assert _holding(m.encode(), _files(folder)), "the scan must see the marker first"
        receipt = store.purge(T, entity, requested_by="dpo")
        assert receipt.report is not None and receipt.report.complete, receipt.report
        assert _check(receipt.report, "point_rows").result == CheckResult.CLEAN
        assert _holding(m.encode(), _files(folder)) == []
        assert store.current(T, entity="user:kept")
        assert store.current(T, entity=entity) == []
    assert _holding(m.encode(), _files(folder)) == []


def test_a_deferred_purge_is_pending_in_the_row_store_until_compacted(tmp_path: Path) -> None:
    """With ``compact="deferred"`` the row store's check says pending (never clean early)
    while its -wal still holds page images of the purged rows; ``compact()`` makes it clean
    and removes the bytes."""
    clock = FakeClock()
    folder = tmp_path / "s"
    m = f"zqm{uuid.uuid4().hex}"
    with opened(folder, clock) as store:
        store.assert_fact(T, "user:a", "home.city", f"{m} city")
        store.assert_fact(T, "user:b", "home.city", "Oslo")
        store.catch_up()
        receipt = store.purge(T, "user:a", requested_by="dpo", compact="deferred")
        assert receipt.report is not None and not receipt.report.complete
        check = _check(receipt.report, "point_rows")
        assert check.result == CheckResult.PENDING and check.residues == []
        assert _holding(m.encode(), _files(folder)) == ["points.sqlite-wal"]
        store.compact()
        report = store.verify_erasure(receipt)
        assert _check(report, "point_rows").result == CheckResult.CLEAN
        assert _holding(m.encode(), _files(folder)) == []


def test_mask_rewrites_the_row_store_rows_and_their_bytes(tmp_path: Path) -> None:
    """Masking replaces the content of every row of the fact in the row store with the
    placeholder, and once the erasure report is complete no byte of the masked text is
    left in ``points.sqlite`` or its -wal."""
    clock = FakeClock()
    folder = tmp_path / "s"
    m = f"zqm{uuid.uuid4().hex}"
    with opened(folder, clock) as store:
        fid = store.assert_fact(T, "user:a", "note.text", f"{m} secret", text=f"{m} secret",
                                source=f"chat:{m}").fact_ids[0]
        store.catch_up()
        assert _holding(m.encode(), _files(folder))
        receipt = store.erase(T, fact_id=fid, motive="user_request", requested_by="user")
        assert receipt.report is not None and receipt.report.complete, receipt.report
        assert _check(receipt.report, "point_rows").result == CheckResult.CLEAN
        rows = points_of(store).con.execute(
            "SELECT value, text, mention, source, masked FROM versions WHERE fact_id = ?",
            [fid]).fetchall()
        assert rows and all(r == ('"[masked]"', MASKED_TEXT, None, None, 1) for r in rows)
        assert _holding(m.encode(), _files(folder)) == []


def test_purge_leaves_no_byte_in_a_row_store_with_deep_indexes(tmp_path: Path) -> None:
    """With thousands of rows (b-trees several pages deep, so a purged key may sit in an
    interior page of an index), a purged entity's marker is in no byte of the row store
    once the report is complete; the neighbours' rows are all still there."""
    clock = FakeClock()
    folder = tmp_path / "s"
    m = f"zqm{uuid.uuid4().hex}"
    with opened(folder, clock) as store:
        for b in range(4):
            with store.transact() as tx:
                for i in range(1000):
                    tx.assert_fact(T, f"user:n{b}-{i:04d}", "home.city", f"city {i}")
                    if i == 500 and b == 2:
                        for a in ("home.city", "pref.browser", "contact.email"):
                            tx.assert_fact(T, f"user:n{b}-{i:04d}{m}", a, f"{m} {a}",
                                           text=f"{m} text", source=f"chat:{m}")
        store.catch_up()
        pages = points_of(store).con.execute("PRAGMA page_count").fetchone()
        assert pages is not None and pages[0] > 100
        assert _holding(m.encode(), _files(folder))
        receipt = store.purge(T, f"user:n2-0500{m}", requested_by="dpo")
        assert receipt.report is not None and receipt.report.complete, receipt.report
        assert _holding(m.encode(), _files(folder)) == []
        (count,) = points_of(store).con.execute("SELECT count(*) FROM versions").fetchone()
        assert count == 4000
    assert _holding(m.encode(), _files(folder)) == []


# -- batches handed over by the projector (no DuckDB re-read) ---------------------------------

class HandOverCheck:
    """Checks, inside every catch-up of a store, that what the projector hands its
    followers equals what they would read back from DuckDB: the latest beliefs the row
    store answers, and the recall index's open rows and (empty) ledgers of fresh facts."""

    def __init__(self, store: memory_es.MemoryStore) -> None:
        self.views = store.runtime.views
        self.recall = store.runtime.recall
        self.handed = 0  # batches the followers took from the projector
        self.latest_served = 0  # latest-belief questions the row store answered
        projector = self.views.projector
        source = projector.latest_source
        assert source is not None

        def checked(fact_ids: list[str], since: int) -> dict[str, Carried] | None:
            got = source(fact_ids, since)
            if got is not None:
                self.latest_served += 1
                projector.flush()  # DuckDB's answer needs the writes still waiting
                assert got == projector._latest_from_db(fact_ids)  # noqa: SLF001
            return got

        projector.latest_source = checked
        self.views.catchup.followers.append(self.follow)

    def follow(self, touched: list[str], position: int, since: int) -> None:
        applied = self.views.projector.applied
        assert applied is not None and applied.position == position
        if not applied.complete or applied.rows is None or not touched:
            return
        self.handed += 1
        got = self.recall._open_rows(touched, applied)  # noqa: SLF001
        want = self.recall._open_rows(touched)  # noqa: SLF001 - DuckDB's re-read
        assert got.schema == want.schema
        key = [("version_id", "ascending")]
        assert got.sort_by(key).to_pylist() == want.sort_by(key).to_pylist()
        con = self.views.con
        assert governance.ledgers(con, sorted(applied.fresh)) == {}
        rows = con.execute(
            "SELECT count(*) FROM fact_versions WHERE fact_id IN (SELECT unnest(?::VARCHAR[]))"
            " AND position <= ?", [sorted(applied.fresh), since]).fetchall()
        assert rows[0][0] == 0, "a fresh fact had rows before its batch"


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=projection_op_sequences(max_size=20))
def test_batches_handed_over_equal_what_followers_would_read_back(
        ops: list[ProjectionOp]) -> None:
    """Read-your-writes: the store catches up after every operation, in small batches, as
    reads after writes do. For any generated history, each batch the projector hands its
    followers whole (no mask, unmask, purge or tier move in it) gives them exactly what a
    DuckDB re-read gives; the latest beliefs the row store answers equal DuckDB's; and
    after every batch, handed over or re-read, the row store holds exactly DuckDB's rows."""
    clock = FakeClock(day(10) + dt.timedelta(hours=9))
    with tempfile.TemporaryDirectory() as folder, opened(Path(folder), clock) as store:
        check = HandOverCheck(store)
        driver = Driver(store, clock)
        for op in ops:
            driver.run(op)
            store.catch_up()
            assert points_of(store).ready
            assert point_table(store) == duck_table(store)
        assert_reads_agree(store)
        assert check.handed or not driver.facts


def test_a_write_then_a_read_reads_nothing_back_from_duckdb(tmp_path: Path) -> None:
    """A supersede caught up alone is applied to the row store and the recall index from
    the projector's own rows, and the touched facts' latest beliefs come from the row
    store; a mask (an in-place rewrite) is re-read from DuckDB, and both stores agree."""
    clock = FakeClock(day(10))
    with opened(tmp_path / "s", clock) as store:
        _write_some(store, clock, 3)
        store.catch_up()
        check = HandOverCheck(store)
        points = points_of(store)
        reread = points.reread_batches
        clock.advance(minutes=5)
        receipt = store.supersede(T, "user:1", "home.city", "Lima")
        assert [f.value for f in store.current(T, entity="user:1")] == ["Lima"]
        assert points.reread_batches == reread and check.handed == 1
        assert check.latest_served == 1
        assert store.runtime.recall.label(receipt.fact_ids[0]) is not None
        store.mask(receipt.fact_ids[0])
        store.catch_up()
        assert points.reread_batches == reread + 1 and check.handed == 1
        assert point_table(store) == duck_table(store)
        assert receipt.fact_ids[0] not in store.runtime.recall
