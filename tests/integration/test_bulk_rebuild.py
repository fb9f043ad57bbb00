"""A rebuild's set-based projector writes exactly what the incremental one writes.

:class:`projections.bulk.BulkVersionProjector` (the rebuild's) and
:class:`projections.versions.VersionProjector` (catch-up's) replay the same log, each
into its own fresh database, in batches of random sizes: every row of every table must
be equal, column for column, version ids and row order included. Small batches make the
bulk projector carry facts that earlier batches wrote (masked ones, tiered ones); the
values are strings (plain, accented, with characters JSON escapes), integers small and
large, floats, nulls, objects and lists (a rebuild decodes bodies in DuckDB); the
histories mix assertions, supersedes and retractions over a period (``FOR PORTION OF``),
corrections, decays, denials, conflicts, forgetting, masks, tier moves, recall ledgers
and purges (whose events then read as shredded).
"""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import duckdb
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es import MemoryESError
from memory_es.crypto.mapper import Unsealed
from projections.bulk import BulkVersionProjector
from projections.connection import connect
from projections.schema import DDL
from projections.versions import VersionProjector
from tests.fakes import FakeClock, day

TENANT = "t"
ENTITIES = ("user:a", "user:b", "project:x")
ATTRIBUTES = ("home.city", "pet")
VALUES: tuple[Any, ...] = ("Oslo", "Zürich", 'q"\\', "a\nb", 3, 10**18, 2.5, None,
                          {"k": [1, "é"]}, ["x", 2])
TABLES = ("fact_versions", "served", "judgements", "tier_moves", "feedback", "tracking")

Op = tuple[str, int, int, int, int, int]
"""(kind, entity, attribute, value, day, span): indices into the lists above, and days."""
ops = st.lists(st.tuples(
    st.sampled_from(["assert", "assert", "supersede", "portion", "deny", "retract", "correct",
                     "decay", "mask", "unmask", "archive", "restore", "forget", "forget_fact",
                     "recall", "sweep", "purge_fact", "purge_entity", "tx"]),
    st.integers(0, len(ENTITIES) - 1), st.integers(0, len(ATTRIBUTES) - 1),
    st.integers(0, len(VALUES) - 1), st.integers(0, 30), st.integers(1, 20)),
    min_size=4, max_size=30)


def run(store: memory_es.MemoryStore, clock: FakeClock, op: Op, facts: list[str]) -> None:
    kind, e, a, v, start, span = op
    entity, attribute, value = ENTITIES[e], ATTRIBUTES[a], VALUES[v]
    fid = facts[(start * 7 + span) % len(facts)] if facts else None
    clock.advance(hours=span)
    writes: dict[str, Callable[[Any], Any]] = {
        "assert": lambda w: w.assert_fact(TENANT, entity, attribute, value,
                                          valid_from=day(start)),
        "supersede": lambda w: w.supersede(TENANT, entity, attribute, value),
        "portion": lambda w: w.supersede(TENANT, entity, attribute, value,
                                         valid_from=day(start), valid_until=day(start + span)),
        "deny": lambda w: w.supersede(TENANT, entity, attribute, value, negated=True,
                                      valid_from=day(start), valid_until=day(start + span)),
        "retract": lambda w: w.retract(TENANT, entity, attribute, valid_from=day(start),
                                       valid_until=day(start + span)),
        "forget": lambda w: w.forget_entity(TENANT, entity),
    }
    on_fact: dict[str, Callable[[Any, str], Any]] = {
        "correct": lambda w, f: w.correct(f, value),
        "decay": lambda w, f: w.decay(f, valid_until=day(start)),
        "mask": lambda w, f: w.mask(f),
        "unmask": lambda w, f: w.unmask(f),
        "archive": lambda w, f: w.archive(f),
        "restore": lambda w, f: w.restore(f),
        "forget_fact": lambda w, f: w.forget_fact(f),
    }
    with contextlib.suppress(MemoryESError):
        if kind in writes:
            facts += writes[kind](store).fact_ids
        elif kind in on_fact and fid is not None:
            on_fact[kind](store, fid)
        elif kind == "tx":  # several changes of one event: one fact changed twice, too
            with store.transact() as tx:
                facts += tx.assert_fact(TENANT, entity, attribute, value).fact_ids
                facts += tx.supersede(TENANT, entity, attribute, VALUES[(v + 1) % len(VALUES)],
                                      valid_from=day(start)).fact_ids
                if fid is not None:
                    tx.correct(fid, value)
        elif kind == "recall":
            hits = store.recall(TENANT, attribute.replace(".", " "), receipt=True)
            if hits and hits[0].recall_id is not None:
                store.judge(TENANT, hits[0].recall_id, helpful=[hits[0].fact.fact_id])
        elif kind == "sweep":
            clock.advance(days=span * 10)
            store.sweep(TENANT)
        elif kind == "purge_fact" and fid is not None:
            store.purge(TENANT, fact_id=fid,
                        confirm=store.preview("purge", TENANT, fact_id=fid).token)
        elif kind == "purge_entity":
            store.purge(TENANT, entity, confirm=store.preview("purge", TENANT, entity).token)


def log_of(store: memory_es.MemoryStore) -> list[tuple[int, Unsealed]]:
    recorder, mapper = store.runtime.log.recorder, store.runtime.side.mapper
    notes = recorder.select_notifications(start=1, limit=1_000_000)
    return [(n.id, u) for n, u in zip(notes, mapper.open_many(notes), strict=True)]


def replayed(projector: Callable[[duckdb.DuckDBPyConnection], VersionProjector],
             log: list[tuple[int, Unsealed]], sizes: list[int]) -> dict[str, list[Any]]:
    """Every table after replaying ``log`` in batches of ``sizes`` (cycled)."""
    con = connect(":memory:")
    for ddl in DDL:
        con.execute(ddl)
    target = projector(con)
    done, i = 0, 0
    while done < len(log):
        part = log[done:done + sizes[i % len(sizes)]]
        target.apply(part, part[-1][0])
        done += len(part)
        i += 1
    out = {t: con.execute(f"SELECT * FROM {t}").fetchall() for t in TABLES}
    con.close()
    return out


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(history=ops, sizes=st.lists(st.integers(1, 12), min_size=1, max_size=4),
       bulk_sizes=st.lists(st.integers(1, 12), min_size=1, max_size=4))
def test_bulk_projector_writes_what_the_incremental_one_writes(
        history: list[Op], sizes: list[int], bulk_sizes: list[int]) -> None:
    """Replayed in any batches, the bulk projector's tables equal the incremental
    projector's row for row (in one batch, and in small ones), and ``rebuild()`` gives
    the table the store's own catch-up wrote."""
    clock = FakeClock(day(10))
    with tempfile.TemporaryDirectory() as folder:
        store = memory_es.open(Path(folder), clock=clock)
        try:
            facts: list[str] = []
            for op in history:
                run(store, clock, op, facts)
            store.catch_up()
            log = log_of(store)
            expected = replayed(VersionProjector, log, sizes)
            assert replayed(BulkVersionProjector, log, [len(log)]) == expected
            assert replayed(BulkVersionProjector, log, bulk_sizes) == expected
            before = store.runtime.views.con.execute(
                "SELECT * FROM fact_versions ORDER BY version_id").fetchall()
            store.rebuild()
            assert store.runtime.views.con.execute(
                "SELECT * FROM fact_versions ORDER BY version_id").fetchall() == before
        finally:
            store.close()


def test_bulk_projector_on_a_hand_made_history(tmp_path: Path) -> None:
    """A supersede over a period, corrections of a masked and of a re-tiered fact, and a
    purge: the bulk projector's rows equal the incremental one's in one batch and in
    small ones (which carry the mask and the tier over), and the purged fact's rows are
    gone from both."""
    clock = FakeClock(day(10))
    store = memory_es.open(tmp_path / "s", clock=clock)
    try:
        first = store.assert_fact(TENANT, "user:a", "home.city", "Oslo", valid_from=day(0))
        clock.advance(hours=1)
        store.supersede(TENANT, "user:a", "home.city", "Lima", valid_from=day(3),
                        valid_until=day(5))
        clock.advance(hours=1)
        other = store.assert_fact(TENANT, "user:b", "pet", "cat")
        store.correct(other.fact_ids[0], "dog")
        store.mask(other.fact_ids[0])
        store.correct(other.fact_ids[0], "owl")
        clock.advance(days=3)
        assert store.sweep(TENANT), "no fact changed tier"
        store.correct(other.fact_ids[0], "eel")
        store.supersede(TENANT, "user:a", "home.city", "Rome")
        store.purge(TENANT, fact_id=first.fact_ids[0],
                    confirm=store.preview("purge", TENANT, fact_id=first.fact_ids[0]).token)
        store.catch_up()
        log = log_of(store)
        expected = replayed(VersionProjector, log, [1])
        assert expected["fact_versions"], "the history wrote no rows"
        assert expected["tier_moves"], "the history moved no tier"
        assert not [r for r in expected["fact_versions"] if r[1] == first.fact_ids[0]]
        for sizes in ([len(log)], [1], [2, 3]):
            assert replayed(BulkVersionProjector, log, sizes) == expected
    finally:
        store.close()


def test_purged_content_stays_unreadable_after_a_rebuild(tmp_path: Path) -> None:
    """After a purge and a rebuild, no table of the views holds the purged value."""
    clock = FakeClock(day(10))
    store = memory_es.open(tmp_path / "s", clock=clock)
    try:
        gone = store.assert_fact(TENANT, "user:a", "home.city", "Zanzibar-secret")
        store.supersede(TENANT, "user:a", "home.city", "Quito-secret")
        store.assert_fact(TENANT, "user:b", "home.city", "Oslo")
        store.purge(TENANT, "user:a", confirm=store.preview("purge", TENANT, "user:a").token)
        store.rebuild()
        con = store.runtime.views.con
        rows = con.execute("SELECT * FROM fact_versions").fetchall()
        assert rows, "the other entity's fact is gone too"
        assert "secret" not in repr(rows)
        assert not [r for r in rows if r[1] in gone.fact_ids]
        assert [f.value for f in store.current(TENANT, "user:b")] == ["Oslo"]
    finally:
        store.close()
