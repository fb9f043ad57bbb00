"""Deferred DuckDB writes (:attr:`projections.versions.VersionProjector.pending_position`).

A batch of plain fact changes caught up alone is applied to the point-read row store
and the recall index from the projector's own rows, while its DuckDB statements wait
until something reads DuckDB. These tests pin both halves: the writes really wait (a
write followed by point reads and a present recall runs no DuckDB statement), and every
public read still sees every write before it, also across a reopen and a crash, and a
purge's residue report never says clean for rows it has not removed.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.choices import CheckResult
from projections import governance
from tests.fakes import FakeClock, Statements, day, opened_store

T = "acme"
ROOT = Path(__file__).resolve().parents[2]


def duck_tracking(store: memory_es.MemoryStore) -> int:
    """DuckDB's own tracking row, read without running the deferred writes."""
    rows = store.runtime.views.ledger_con().execute(
        "SELECT position FROM tracking WHERE name = 'fact_versions'").fetchall()
    return int(rows[0][0]) if rows else 0


def pending(store: memory_es.MemoryStore) -> int | None:
    return store.runtime.views.projector.pending_position


def _seed(store: memory_es.MemoryStore, clock: FakeClock) -> None:
    for i in range(4):
        clock.advance(minutes=1)
        store.assert_fact(T, f"user:{i}", "home.city", f"city {i}", valid_from=day(1))
    store.catch_up()
    store.sql("SELECT 1")  # DuckDB in line: nothing waits


def _write(store: memory_es.MemoryStore, clock: FakeClock, value: str) -> str:
    """Supersede user:1's city and catch up through a point read (as a read after a write
    does); returns the new fact's id. The DuckDB writes of that batch are left waiting."""
    clock.advance(minutes=1)
    receipt = store.supersede(T, "user:1", "home.city", value, valid_from=day(2))
    assert [f.value for f in store.current(T, entity="user:1")] == [value]
    assert pending(store) == store.log_position() > duck_tracking(store)
    return receipt.fact_ids[0]


def test_a_write_and_point_reads_leave_duckdb_untouched(tmp_path: Path) -> None:
    """After a write, current / as_of / chain / present recall are served by the row store
    and the recall index: DuckDB's statements for the write wait, and they see it."""
    clock = FakeClock(day(10))
    with opened_store(tmp_path / "s", clock) as store:
        _seed(store, clock)
        fid = _write(store, clock, "Lima")
        assert [f.value for f in store.as_of(T, entity="user:1")] == ["Lima"]
        assert [f.fact_id for f in store.chain(T, fid)][-1] == fid
        assert fid in [h.fact.fact_id for h in store.recall(T, "Lima", k=3)]
        assert pending(store) == store.log_position() > duck_tracking(store)


def test_every_duckdb_read_sees_the_writes_left_waiting(tmp_path: Path) -> None:
    """Each public read that reaches DuckDB (sql, table, export, history, an as-of recall,
    a tenant-wide current, verify_erasure's view check) runs the waiting writes first."""
    clock = FakeClock(day(10))
    reads: dict[str, Callable[[memory_es.MemoryStore, str, str], bool]] = {
        "sql": lambda s, fid, v: s.sql("SELECT value FROM fact_versions WHERE fact_id = ?",
                                       [fid]).num_rows > 0,
        "table": lambda s, fid, v: fid in s.table("facts_current", tenant=T)
        .column("fact_id").to_pylist(),
        "tenant-wide current": lambda s, fid, v: fid in [f.fact_id for f in s.current(T)],
        "history": lambda s, fid, v: len(s.history(T, fid)) > 0,
        "as-of recall": lambda s, fid, v: fid in [h.fact.fact_id for h in s.recall(
            T, v, k=3, known_at=clock() + dt_minute())],
        "export": lambda s, fid, v: any(v in x for x in _exported(s, tmp_path / f"e-{v}.parquet")),
    }
    with opened_store(tmp_path / "s", clock) as store:
        _seed(store, clock)
        for n, (name, read) in enumerate(reads.items()):
            value = f"Town{n}"
            fid = _write(store, clock, value)
            assert read(store, fid, value), name
            assert pending(store) is None and duck_tracking(store) == store.log_position()


def dt_minute() -> Any:
    import datetime as dt
    return dt.timedelta(minutes=1)


def _exported(store: memory_es.MemoryStore, path: Path) -> list[str]:
    import pyarrow.parquet as pq
    store.export(path, T)
    return [str(v) for v in pq.read_table(path).column("value").to_pylist()]


def test_a_purge_after_waiting_writes_removes_their_rows_and_never_reports_clean_early(
        tmp_path: Path) -> None:
    """A purge is applied after the writes waiting before it (its DELETE must see their
    rows); with deferred compaction the views' check says pending, and after compact()
    the views hold no row of the purged entity."""
    clock = FakeClock(day(10))
    m = f"zqm{uuid.uuid4().hex}"
    with opened_store(tmp_path / "s", clock) as store:
        _seed(store, clock)
        _write(store, clock, f"{m} one")
        receipt = store.purge(T, "user:1", requested_by="dpo", compact="deferred")
        assert receipt.report is not None and not receipt.report.complete
        views = [c for c in receipt.report.stores if c.name.startswith("duckdb_views")]
        assert views and all(c.result != CheckResult.CLEAN for c in views)
        store.compact()
        report = store.verify_erasure(receipt)
        assert report.complete, report
        assert store.sql("SELECT count(*) AS n FROM fact_versions WHERE entity = 'user:1'"
                         ).column("n").to_pylist() == [0]
        assert store.sql("SELECT count(*) AS n FROM fact_versions WHERE value LIKE ?",
                         [f"%{m}%"]).column("n").to_pylist() == [0]


def test_waiting_writes_survive_a_reopen(tmp_path: Path) -> None:
    """Closing writes the snapshot after the waiting writes ran: a reopened store reads
    them from DuckDB as well as from the row store."""
    clock = FakeClock(day(10))
    folder = tmp_path / "s"
    with opened_store(folder, clock) as store:
        _seed(store, clock)
        fid = _write(store, clock, "Quito")
        head = store.log_position()
    with opened_store(folder, clock) as store:
        assert duck_tracking(store) == head
        assert store.sql("SELECT value FROM fact_versions WHERE fact_id = ?",
                         [fid]).column("value").to_pylist() == ['"Quito"']
        assert [f.value for f in store.current(T, entity="user:1")] == ["Quito"]
        assert fid in [h.fact.fact_id for h in store.recall(T, "Quito", k=3)]


KILLED = textwrap.dedent("""
    import datetime as dt, os, signal, sys
    import memory_es
    store = memory_es.open(sys.argv[1])
    for i in range(4):
        store.assert_fact("acme", f"user:{i}", "home.city", f"city {i}")
    store.catch_up(); store.sql("SELECT 1")
    store.runtime.views.persist()  # a snapshot before the waiting writes
    for i in range(3):
        r = store.supersede("acme", "user:1", "home.city", f"Cusco{i}")
        store.current("acme", entity="user:1")  # caught up; DuckDB writes wait
    assert store.runtime.views.projector.pending_position == store.log_position()
    print(r.fact_ids[0], store.log_position(), flush=True)
    os.kill(os.getpid(), signal.SIGKILL)
""")


def test_waiting_writes_are_replayed_after_a_crash(tmp_path: Path) -> None:
    """SIGKILL while writes wait: they were in memory only, like every batch applied since
    the last snapshot; the reopened store replays them from the log into DuckDB (the row
    store and the recall index, ahead of the snapshot, skip what they hold)."""
    folder = tmp_path / "s"
    done = subprocess.run([sys.executable, "-c", KILLED, str(folder)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert done.returncode == -9, done.stderr
    fid, head = done.stdout.split()
    store = memory_es.open(folder)
    try:
        assert store.log_position() == int(head)
        assert [f.value for f in store.current(T, entity="user:1")] == ["Cusco2"]
        assert store.sql("SELECT value FROM facts_current WHERE entity = 'user:1'"
                         ).column("value").to_pylist() == ['"Cusco2"']
        assert fid in [h.fact.fact_id for h in store.recall(T, "Cusco2", k=3)]
        assert duck_tracking(store) == int(head)
        key = "version_id"
        resumed = sorted(store.table("fact_versions").to_pylist(), key=lambda r: r[key])
        assert len({r[key] for r in resumed}) == len(resumed), "a version applied twice"
        store.rebuild()
        assert sorted(store.table("fact_versions").to_pylist(), key=lambda r: r[key]) == resumed
    finally:
        store.close()


def test_ledgers_answered_without_a_query_while_nothing_was_served_see_the_first_receipt(
        tmp_path: Path) -> None:
    """While no recall was ever served, ledgers are known empty without reading DuckDB
    (the recall index asks after every write); the first receipt, and a purge of served
    facts, make them read again."""
    clock = FakeClock(day(10))
    with opened_store(tmp_path / "s", clock) as store:
        _seed(store, clock)
        fid = _write(store, clock, "Lima")
        assert store.utility(T, fid).served == 0
        hits = store.recall(T, "Lima", k=3, receipt=True)
        assert fid in [h.fact.fact_id for h in hits]
        assert store.utility(T, fid).served == 1
        clock.advance(minutes=1)
        recall_id = hits[0].recall_id
        assert recall_id is not None
        store.judge(T, recall_id, helpful=[fid])
        assert store.utility(T, fid).useful == 1
        store.purge(T, "user:1", requested_by="dpo")
        clock.advance(minutes=1)
        other = store.assert_fact(T, "user:9", "home.city", "Lima").fact_ids[0]
        assert store.utility(T, other).served == 0


ENTITIES = ["user:a", "user:b", "user:c"]
ATTRIBUTES = ["home.city", "work.employer"]
COMPARED = ("entity, attribute, value, valid_from, valid_until, recorded_at, recorded_until, "
            "state, present_state, tier, masked")

changes = st.lists(st.one_of(
    st.tuples(st.just("supersede"), st.sampled_from(ENTITIES), st.sampled_from(ATTRIBUTES)),
    st.tuples(st.just("correct"), st.sampled_from(ENTITIES), st.sampled_from(ATTRIBUTES)),
    st.tuples(st.just("retract"), st.sampled_from(ENTITIES), st.sampled_from(ATTRIBUTES)),
    st.tuples(st.just("forget"), st.sampled_from(ENTITIES), st.just("")),
    st.tuples(st.just("read"), st.sampled_from(ENTITIES), st.just("")),
), min_size=1, max_size=16)


def _apply(store: memory_es.MemoryStore, clock: FakeClock, plan: list[tuple[str, str, str]]
           ) -> list[tuple[Any, ...]]:
    """Run ``plan``, catching up after each step through a point read (which leaves
    DuckDB's writes waiting in the deferring store), then read every version row."""
    for n, (op, entity, attribute) in enumerate(plan):
        clock.advance(minutes=1)
        live = {f.attribute: f for f in store.current(T, entity=entity)}
        if op == "supersede":
            store.supersede(T, entity, attribute, f"v{n}", valid_from=day(n))
        elif op == "correct" and attribute in live:
            store.correct(live[attribute].fact_id, f"c{n}")
        elif op == "retract" and attribute in live:
            store.retract(T, entity, attribute)
        elif op == "forget" and live:
            store.forget_entity(T, entity)
        store.current(T, entity=entity)
    return sorted(store.sql(f"SELECT {COMPARED} FROM fact_versions").to_pylist(), key=repr)


@settings(max_examples=25, deadline=None)
@given(plan=changes)
@example(plan=[("supersede", "user:a", "home.city"), ("correct", "user:a", "home.city"),
               ("supersede", "user:a", "home.city"), ("forget", "user:a", "")])
def test_waiting_writes_flushed_at_once_match_writes_made_one_by_one(
        tmp_path_factory: pytest.TempPathFactory, plan: list[tuple[str, str, str]]) -> None:
    """The deferred writes are flushed as one INSERT and one set of updates; a store that
    writes DuckDB batch by batch must hold exactly the same version rows. Facts touched
    by several waiting batches are the case: a later batch closes and restates rows an
    earlier one has not inserted yet."""
    folder = tmp_path_factory.mktemp("flush")
    seen = []
    for deferring in (True, False):
        clock = FakeClock(day(30))
        with opened_store(folder / str(deferring), clock) as store:
            store.runtime.views.projector.deferring = deferring
            seen.append(_apply(store, clock, plan))
    assert seen[0] == seen[1]


def test_a_batch_applied_at_once_runs_the_waiting_writes_in_its_own_commit(
        tmp_path: Path) -> None:
    """A purge after waiting writes runs them at the start of its own transaction: one
    commit and one tracking move for both (a commit of their own cost ≈ 1 ms more)."""
    clock = FakeClock(day(10))
    with opened_store(tmp_path / "s", clock) as store:
        _seed(store, clock)
        fid = _write(store, clock, "Lima")
        projector = store.runtime.views.projector
        spy = Statements(projector.con)
        projector.con = spy  # type: ignore[assignment]
        try:
            store.catch_up()
            store.purge(T, "user:2")
        finally:
            projector.con = spy._con  # noqa: SLF001
        first = spy.executed.index("COMMIT")
        assert spy.executed[0] == "BEGIN TRANSACTION" and any(
            s.startswith("DELETE FROM fact_versions") for s in spy.executed[:first])
        assert sum(s.startswith("UPDATE tracking") for s in spy.executed[:first]) == 1
        assert store.sql("SELECT value FROM fact_versions WHERE fact_id = ?",
                         [fid]).column("value").to_pylist() == ['"Lima"']


def test_waiting_writes_survive_a_batch_that_fails(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A batch that rolls back leaves the writes that waited before it waiting (they ran
    in its transaction): the next read still sees them."""
    clock = FakeClock(day(10))
    with opened_store(tmp_path / "s", clock) as store:
        _seed(store, clock)
        fid = _write(store, clock, "Lima")

        def fail(*_: object) -> None:
            raise RuntimeError("injected")

        monkeypatch.setattr(governance, "forget", fail)
        with pytest.raises(RuntimeError, match="injected"):
            store.purge(T, "user:2")
        monkeypatch.undo()
        assert store.sql("SELECT value FROM fact_versions WHERE fact_id = ?",
                         [fid]).column("value").to_pylist() == ['"Lima"']
