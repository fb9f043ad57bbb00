"""``fact_versions`` is what the event log says it is, whatever the batching.

The oracle, :class:`VersionOracle`, is a slow in-memory transcription of the SPEC's
rules for the version table, written without the projector's code: it folds the domain
events (typed with :mod:`memory_es.domain.events`) one at a time, in log order —

* §4: every change to a fact closes its present versions at the event's transaction
  time and opens one version per valid-time portion it still holds (none when the fact
  was withdrawn from present belief); nothing is updated in place;
* §3/§4: a version carries the fact's content of the latest revision (``correct`` makes
  a new one), the state and links as of that change; ``present_state`` is the state of
  the fact's *last* change (eligibility is judged now, §2.6), on every one of its rows;
* §6: ``mask`` replaces the content of every version of the fact (history included) by
  the placeholder and drops the free-text ``mention``/``source``; ``unmask`` restores
  each version's own revision;
* §8/§9: a purge removes every row of the purged facts; an event whose key is destroyed
  shows nothing.

Random workloads (assert, supersede, correct, decay, retract, forget, mask, unmask,
archive, restore, conflicts, derived facts and their cascades, purges of an entity or
of one drift chain), with many operations per transaction, are written to a store whose
projection catches up at random points in batches of random size; a second
:class:`VersionProjector` follows the same log beside it in other batches. After every
catch-up both tables must equal the oracle's rows, column by column, and each batch's
touched-fact set must hold every fact whose rows changed; at the end a ``rebuild()`` and
an oracle replaying the whole log (keys shredded since) must give the same rows again.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import random
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb
import pytest
from hypothesis import HealthCheck, event, given, settings

import memory_es
from memory_es import MemoryESError
from memory_es.crypto.mapper import Unsealed
from memory_es.domain.events import (
    EVENT_TYPES,
    DomainEvent,
    EntityPurged,
    FactChainPurged,
    FactChange,
    FactContent,
    FactMasked,
    FactUnmasked,
)
from memory_es.ids import stream_of
from projections.connection import connect
from projections.schema import DDL, MASKED_TEXT
from projections.versions import VersionProjector
from tests.fakes import FakeClock, day, opened_store
from tests.strategies import (
    Advance,
    Archive,
    Assert,
    CatchUp,
    Correct,
    Decay,
    Derive,
    Forget,
    ForgetFact,
    Mask,
    ProjectionOp,
    Purge,
    Resolve,
    Restore,
    Retract,
    Supersede,
    Transact,
    Unmask,
    projection_op_sequences,
)

TENANT = "acme"
EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)

Row = tuple[Any, ...]

# -- the oracle ------------------------------------------------------------------------------

COLUMNS = (
    "fact_id", "tenant", "entity", "mention", "attribute", "value", "text",
    "valid_from", "valid_until", "recorded_at", "recorded_until",
    "supersedes", "superseded_by", "derived_from", "source", "asserted_by", "volatility",
    "confidence", "verified_at", "state", "present_state", "classification", "chain_id",
    "masked", "content_rev", "stream_id", "position", "tenant_entity",
)
"""The columns of ``fact_versions`` the oracle states (every one but ``version_id``, whose
spelling is the projector's; it is checked for uniqueness, and for stability by rebuild).
Times are µs since the epoch; ``value`` is compared as the JSON value it spells."""


def canonical(value: Any) -> str:
    """One spelling per JSON value, keeping what JSON keeps (types, key order, -0.0)."""
    return json.dumps(value, ensure_ascii=False)


@dataclass
class OracleVersion:
    position: int  # log position of the event that opened it
    valid_from: int
    valid_until: int | None
    recorded_at: int
    state: str
    rev: int
    superseded_by: str | None
    verified_at: int | None
    recorded_until: int | None = None


@dataclass
class OracleFact:
    fact_id: str
    revisions: dict[int, FactContent]
    rev: int
    state: str = ""
    superseded_by: str | None = None
    verified_at: int | None = None
    masked: bool = False
    versions: list[OracleVersion] = field(default_factory=list)


class VersionOracle:
    """The version table the SPEC defines, as a fold of the log's events (module docstring)."""

    def __init__(self) -> None:
        self.facts: dict[str, OracleFact] = {}

    def fold(self, position: int, opened: Unsealed) -> tuple[set[str], set[str]]:
        """Apply one event; returns (facts whose rows changed, every fact it names)."""
        if opened.body is None:
            return set(), set()  # shredded: its content is gone everywhere (§8)
        kind = EVENT_TYPES.get(opened.topic)
        if kind is None:
            assert not opened.body.get("changes"), f"unknown event with changes: {opened.topic}"
            return set(), set()
        ev = kind.model_validate(opened.body)
        changed = {ch.fact_id for ch in ev.changes
                   if self._change(position, opened.recorded_at, ch)}
        named = {ch.fact_id for ch in ev.changes} | _named(ev)
        if isinstance(ev, FactMasked | FactUnmasked) and ev.fact_id in self.facts:
            fact = self.facts[ev.fact_id]
            fact.masked = isinstance(ev, FactMasked)
            if isinstance(ev, FactUnmasked):
                for content in ev.contents:  # restated for the views: it must be the original
                    assert fact.revisions.get(content.rev) == content, (fact.fact_id, content.rev)
            changed.add(fact.fact_id)
        if isinstance(ev, EntityPurged | FactChainPurged):
            for fid in ev.fact_ids:
                if self.facts.pop(fid, None) is not None:
                    changed.add(fid)
        return changed, named

    def _change(self, position: int, at: int, ch: FactChange) -> bool:
        fid = ch.fact_id
        fact = self.facts.get(fid)
        if fact is None:
            if ch.content is None:
                return False  # a fact whose chain was purged: nothing of it is left to show
            fact = self.facts[fid] = OracleFact(fid, {}, ch.content.rev)
        if ch.content is not None:
            fact.revisions[ch.content.rev] = ch.content
            fact.rev = ch.content.rev
        for version in fact.versions:
            if version.recorded_until is None:
                version.recorded_until = at
        fact.state = ch.state
        # a change names the drift-chain successor and the last confirmation when they are
        # new (None: unchanged, FactChange's convention): they carry over to later versions
        if ch.superseded_by is not None:
            fact.superseded_by = ch.superseded_by
        if ch.verified_at is not None:
            fact.verified_at = ch.verified_at
        for start, end in ch.portions:
            fact.versions.append(OracleVersion(position, start, end, at, ch.state, fact.rev,
                                               fact.superseded_by, fact.verified_at))
        return True

    def rows(self) -> list[Row]:
        out: list[Row] = []
        for fact in self.facts.values():
            for v in fact.versions:
                c = fact.revisions[v.rev]
                value, text, mention, source = (
                    (canonical(MASKED_TEXT), MASKED_TEXT, None, None) if fact.masked
                    else (canonical(c.value), c.text, c.mention, c.source))
                row = {
                    "fact_id": fact.fact_id, "tenant": c.tenant, "entity": c.entity,
                    "mention": mention, "attribute": c.attribute, "value": value, "text": text,
                    "valid_from": v.valid_from, "valid_until": v.valid_until,
                    "recorded_at": v.recorded_at, "recorded_until": v.recorded_until,
                    "supersedes": tuple(c.supersedes), "superseded_by": v.superseded_by,
                    "derived_from": tuple(c.derived_from), "source": source,
                    "asserted_by": c.asserted_by, "volatility": c.volatility,
                    "confidence": c.confidence, "verified_at": v.verified_at, "state": v.state,
                    "present_state": fact.state, "classification": c.classification,
                    "chain_id": c.chain_id, "masked": fact.masked, "content_rev": v.rev,
                    "stream_id": stream_of(fact.fact_id), "position": v.position,
                    "tenant_entity": None if c.entity is None else f"{c.tenant}\x1f{c.entity}",
                }
                out.append(tuple(row[name] for name in COLUMNS))
        return out


def _named(event: DomainEvent) -> set[str]:
    if isinstance(event, FactMasked | FactUnmasked):
        return {event.fact_id}
    if isinstance(event, EntityPurged | FactChainPurged):
        return set(event.fact_ids)
    return set()


# -- reading a table -------------------------------------------------------------------------

def us(when: dt.datetime) -> int:
    return (when - EPOCH) // dt.timedelta(microseconds=1)


_TIMES = {"valid_from", "valid_until", "recorded_at", "recorded_until", "verified_at"}


def table_rows(con: duckdb.DuckDBPyConnection) -> list[Row]:
    """The table's rows in the oracle's form; its version ids must be unique."""
    fetched = con.execute(f"SELECT version_id, {', '.join(COLUMNS)} FROM fact_versions").fetchall()
    ids = Counter(r[0] for r in fetched)
    assert not [v for v, n in ids.items() if n > 1], "two versions share a version_id"
    out: list[Row] = []
    for r in fetched:
        row = dict(zip(COLUMNS, r[1:], strict=True))
        for name in _TIMES:
            row[name] = None if row[name] is None else us(row[name])
        row["value"] = canonical(json.loads(row["value"]))
        row["supersedes"] = tuple(row["supersedes"] or ())
        row["derived_from"] = tuple(row["derived_from"] or ())
        out.append(tuple(row[name] for name in COLUMNS))
    return out


def assert_same_rows(actual: list[Row], expected: list[Row], what: str) -> None:
    """Equal as multisets; on failure, each wrong row is shown beside the expected row of the
    same version (fact, valid_from, recorded_at, position), with only the columns that differ."""
    missing = Counter(expected) - Counter(actual)
    extra = Counter(actual) - Counter(expected)
    if not missing and not extra:
        return
    key = [COLUMNS.index(c) for c in ("fact_id", "valid_from", "recorded_at", "position")]
    wanted = {tuple(r[i] for i in key): r for r in missing}
    lines = []
    for row in sorted(extra, key=repr)[:6]:
        ident = tuple(row[i] for i in key)
        twin = wanted.pop(ident, None)
        if twin is None:
            lines.append(f"unexpected {dict(zip(COLUMNS, row, strict=True))}")
        else:
            diff = {c: (w, g) for c, w, g in zip(COLUMNS, twin, row, strict=True) if w != g}
            lines.append(f"version {ident}: column -> (expected, got) {diff}")
    lines += [f"missing {dict(zip(COLUMNS, r, strict=True))}" for r in list(wanted.values())[:6]]
    pytest.fail(f"{what}: {sum(missing.values())} expected row(s) missing, "
                f"{sum(extra.values())} unexpected\n  " + "\n  ".join(lines))


def tracked(con: duckdb.DuckDBPyConnection) -> int:
    rows = con.execute("SELECT position FROM tracking WHERE name = 'fact_versions'").fetchall()
    return int(rows[0][0]) if rows else 0


# -- the store's internals this test reads (kept here, to follow a refactor in one place) -----

def read_log(store: memory_es.MemoryStore, start: int, limit: int,
             stop: int | None = None) -> list[tuple[int, Unsealed]]:
    """Up to ``limit`` events from log position ``start`` on, opened (None bodies: shredded)."""
    recorder, mapper = store.runtime.log.recorder, store.runtime.side.mapper
    notes = recorder.select_notifications(start=start, limit=limit, stop=stop)
    opened: list[Unsealed] = mapper.open_many(notes)
    return [(n.id, u) for n, u in zip(notes, opened, strict=True)]


def views(store: memory_es.MemoryStore) -> duckdb.DuckDBPyConnection:
    """The store's own DuckDB views connection."""
    return store.runtime.views.con


def catch_up(store: memory_es.MemoryStore, batch: int) -> None:
    """The store's projection catches up to the log's head in batches of ``batch`` events."""
    store.runtime.views.catchup.batch = batch
    store.catch_up()


def event_kinds(store: memory_es.MemoryStore) -> set[str]:
    return {EVENT_TYPES[u.topic].__name__ for _, u in read_log(store, 1, 1_000_000)}


# -- the mirror: the oracle and a second projector following the store's log -----------------

class Mirror:
    """Feeds the store's log, in batches of the caller's size, to the oracle (one event at a
    time) and to a :class:`VersionProjector` on its own in-memory database."""

    def __init__(self, store: memory_es.MemoryStore) -> None:
        self.store = store
        self.oracle = VersionOracle()
        self.con = connect(":memory:")
        for ddl in DDL:
            self.con.execute(ddl)
        self.projector = VersionProjector(self.con)
        self.position = 0
        self.batches = 0

    def catch_up(self, head: int, batch: int) -> None:
        while self.position < head:
            events = read_log(self.store, self.position + 1, batch, head)
            if not events:
                break
            self.position = events[-1][0]
            changed: set[str] = set()
            named: set[str] = set()
            for pos, u in events:
                c, n = self.oracle.fold(pos, u)
                changed |= c
                named |= n
            touched = self.projector.apply(events, self.position)
            assert changed <= touched, f"facts changed but not reported: {changed - touched}"
            assert touched <= named, f"facts reported but not in the batch: {touched - named}"
            self.batches += 1

    def check(self, store_con: duckdb.DuckDBPyConnection) -> None:
        expected = self.oracle.rows()
        assert_same_rows(table_rows(self.con), expected, "projector fed by the mirror")
        assert_same_rows(table_rows(store_con), expected, "the store's projection")
        assert tracked(self.con) == self.position


def snapshot(con: duckdb.DuckDBPyConnection) -> list[tuple[Any, ...]]:
    """Every column of every row, version ids included."""
    return con.execute("SELECT * FROM fact_versions ORDER BY version_id").fetchall()


def replay_check(store: memory_es.MemoryStore, batch: int) -> None:
    """A rebuild of the store's views gives the incremental table back, identically, and the
    oracle replaying the whole log now (keys shredded since included) agrees with both."""
    incremental = snapshot(views(store))
    store.rebuild()
    assert snapshot(views(store)) == incremental
    replay = Mirror(store)
    replay.catch_up(store.log_position(), batch)
    replay.check(views(store))


# -- a seeded random workload ----------------------------------------------------------------

ENTITIES = [f"user:p{i}" for i in range(5)]
ATTRIBUTES = ["home.city", "job.title", "pet"]
VALUES: list[Any] = [
    "Oslo", "Lima", "Ünïcode ✓ 東京", 'quote " and \\ back', "ctl\n\t\u0001\u2028", 3,
    2.5, 0.1, 1e20, -0.0, 2**70, True, False, None, {"k": [1, "é"], "z": {"y": None}},
    ["x", 2, 3.25],
]


class Workload:
    """Random writes (many per transaction) through the public API, with catch-ups."""

    def __init__(self, store: memory_es.MemoryStore, clock: FakeClock, seed: int,
                 mirror: bool = True) -> None:
        self.store = store
        self.clock = clock
        self.rng = random.Random(seed)
        self.facts: list[str] = []
        self.conflicts: list[tuple[str, str]] = []
        self.masked: list[str] = []
        self.mirror = Mirror(store) if mirror else None
        self.checks = 0
        self.purges = 0

    def fact(self) -> str | None:
        return self.rng.choice(self.facts) if self.facts else None

    def period(self) -> tuple[dt.datetime | None, dt.datetime | None]:
        a = self.rng.randrange(0, 40)
        start = None if self.rng.random() < 0.1 else day(a)
        end = None if self.rng.random() < 0.4 else day(a + self.rng.randrange(1, 15))
        return start, end

    def op(self, w: Any) -> None:
        rng = self.rng
        r = rng.random()
        fid = self.fact()
        if r < 0.30 or fid is None:
            start, end = self.period()
            derived = [fid] if fid is not None and rng.random() < 0.15 else []
            if rng.random() < 0.05:
                receipt = w.assert_fact(TENANT, None, rng.choice(ATTRIBUTES), rng.choice(VALUES),
                                        mention=f"someone {rng.randrange(3)}")
            else:
                receipt = w.assert_fact(
                    TENANT, rng.choice(ENTITIES), rng.choice(ATTRIBUTES), rng.choice(VALUES),
                    valid_from=start or day(0), valid_until=end,
                    asserted_by=rng.choice(["user", "third_party", "inference"]),
                    derived_from=derived, source=rng.choice([None, "chat:1"]),
                    text=rng.choice([None, "a note"]))
            self.facts += receipt.fact_ids
            if receipt.conflict_id:
                self.conflicts.append((receipt.conflict_id, receipt.fact_ids[0]))
        elif r < 0.42:
            start, end = self.period()
            receipt = w.supersede(TENANT, rng.choice(ENTITIES), rng.choice(ATTRIBUTES),
                                  rng.choice(VALUES), valid_from=start, valid_until=end)
            self.facts += receipt.fact_ids
        elif r < 0.52:
            w.correct(fid, rng.choice(VALUES))
        elif r < 0.58:
            w.decay(fid, valid_until=day(rng.randrange(0, 50)))
        elif r < 0.64:
            start, end = self.period()
            w.retract(TENANT, rng.choice(ENTITIES), rng.choice(ATTRIBUTES),
                      valid_from=start, valid_until=end)
        elif r < 0.68:
            w.forget_fact(fid)
        elif r < 0.74:
            w.archive(fid)
        elif r < 0.78:
            w.restore(fid)
        elif r < 0.86:
            w.mask(fid)
            self.masked.append(fid)
        elif r < 0.92:
            w.unmask(rng.choice(self.masked) if self.masked else fid)
        elif r < 0.95 and self.conflicts:
            conflict, winner = rng.choice(self.conflicts)
            w.resolve_conflict(conflict, winner)
        elif r < 0.97:
            w.forget_entity(TENANT, rng.choice(ENTITIES))

    def step(self) -> None:
        rng = self.rng
        self.clock.advance(minutes=rng.randrange(0, 90))
        r = rng.random()
        if r < 0.04 and self.facts:
            self.purge()
        elif r < 0.55:
            with contextlib.suppress(MemoryESError), self.store.transact() as tx:
                for _ in range(rng.randrange(1, 14)):
                    with contextlib.suppress(MemoryESError):
                        self.op(tx)
        else:
            with contextlib.suppress(MemoryESError):
                self.op(self.store)
        if rng.random() < 0.35:
            self.check()

    def purge(self) -> None:
        store, rng = self.store, self.rng
        self.check()  # the mirror opens every event before the keys are destroyed
        fid = self.fact()
        try:
            if rng.random() < 0.5:
                preview = store.preview("purge", TENANT, fact_id=fid)
                store.purge(TENANT, fact_id=fid, confirm=preview.token)
            else:
                entity = rng.choice(ENTITIES)
                preview = store.preview("purge", TENANT, entity)
                store.purge(TENANT, entity, confirm=preview.token)
            self.purges += 1
        except MemoryESError:
            pass

    def check(self) -> None:
        store = self.store
        catch_up(store, self.rng.choice([1, 2, 3, 4, 7, 16, 5000]))
        if self.mirror is not None:
            self.mirror.catch_up(store.projection_position(),
                                 self.rng.choice([1, 2, 3, 4, 6, 9, 40]))
            self.mirror.check(views(store))
        self.checks += 1


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6))
def test_projection_matches_the_oracle_on_seeded_workloads(tmp_path: Path, seed: int) -> None:
    """After every catch-up of a random workload, the store's and a mirror projector's
    ``fact_versions`` equal the oracle's rows, and a rebuild and a full replay agree."""
    clock = FakeClock()
    with opened_store(tmp_path / "store", clock) as store:
        work = Workload(store, clock, seed)
        for _ in range(70):
            work.step()
        work.check()
        assert work.mirror is not None
        assert table_rows(views(store)), "the workload wrote nothing"
        assert work.checks > 10 and work.mirror.batches > 20
        replay_check(store, work.rng.choice([3, 11, 5000]))


# -- generated operation sequences (Hypothesis) ----------------------------------------------

class Driver:
    """Runs :mod:`tests.strategies` operations on a store; failed writes are skipped."""

    def __init__(self, store: memory_es.MemoryStore, clock: FakeClock) -> None:
        self.store = store
        self.clock = clock
        self.facts: list[str] = []
        self.conflicts: list[tuple[str, str, str, str]] = []  # id, newcomer, entity, attribute
        self.mirror = Mirror(store)

    def pick(self, index: int) -> str | None:
        return self.facts[index % len(self.facts)] if self.facts else None

    def run(self, op: ProjectionOp) -> None:
        if isinstance(op, Advance):
            self.clock.advance(minutes=op.minutes)
        elif isinstance(op, CatchUp):
            self.catch_up(op.store_batch, op.mirror_batch)
        elif isinstance(op, Transact):
            with contextlib.suppress(MemoryESError), self.store.transact() as tx:
                for inner in op.ops:
                    with contextlib.suppress(MemoryESError):
                        self.write(tx, inner)
        else:
            with contextlib.suppress(MemoryESError):
                self.write(self.store, op)

    def catch_up(self, store_batch: int, mirror_batch: int) -> None:
        catch_up(self.store, store_batch)
        self.mirror.catch_up(self.store.projection_position(), mirror_batch)
        self.mirror.check(views(self.store))

    def write(self, w: Any, op: ProjectionOp) -> None:
        def when(n: int | None) -> dt.datetime | None:
            return None if n is None else day(n)

        if isinstance(op, Assert | Supersede | Derive):
            if isinstance(op, Assert):
                receipt = w.assert_fact(TENANT, op.entity, op.attribute, op.value,
                                        valid_from=when(op.valid_from),
                                        valid_until=when(op.valid_until),
                                        asserted_by=op.asserted_by)
            elif isinstance(op, Supersede):
                receipt = w.supersede(TENANT, op.entity, op.attribute, op.value,
                                      valid_from=when(op.valid_from),
                                      valid_until=when(op.valid_until))
            else:
                premise = self.pick(op.premise)
                receipt = w.assert_fact(TENANT, op.entity, op.attribute, op.value,
                                        asserted_by="inference", source="tool:infer",
                                        derived_from=[premise] if premise else [])
            self.facts += receipt.fact_ids
            if receipt.conflict_id:
                self.conflicts.append((receipt.conflict_id, receipt.fact_ids[0],
                                       op.entity, op.attribute))
            return
        if isinstance(op, Retract):
            w.retract(TENANT, op.entity, op.attribute, valid_from=when(op.valid_from),
                      valid_until=when(op.valid_until))
            return
        if isinstance(op, Forget):
            w.forget_entity(TENANT, op.entity)
            return
        if isinstance(op, Resolve):
            if self.conflicts:
                conflict, newcomer, entity, attribute = self.conflicts[
                    op.conflict % len(self.conflicts)]
                incumbents = [f.fact_id for f in self.store.current(TENANT, entity, attribute)]
                winner = newcomer if op.favour_new or not incumbents else incumbents[0]
                w.resolve_conflict(conflict, winner)
            return
        if not isinstance(op, Correct | Decay | Mask | Unmask | Archive | Restore | ForgetFact
                          | Purge):
            raise AssertionError(f"not a write: {op!r}")
        fid = self.pick(op.fact)
        if fid is None:
            return
        if isinstance(op, Correct):
            w.correct(fid, op.value)
        elif isinstance(op, Decay):
            w.decay(fid, valid_until=when(op.valid_until))
        elif isinstance(op, Mask):
            w.mask(fid)
        elif isinstance(op, Unmask):
            w.unmask(fid)
        elif isinstance(op, Archive):
            w.archive(fid)
        elif isinstance(op, Restore):
            w.restore(fid)
        elif isinstance(op, ForgetFact):
            w.forget_fact(fid)
        elif op.whole_entity:
            rows = views(self.store).execute(  # fetchone would leave the result open
                "SELECT any_value(entity) FROM fact_versions WHERE fact_id = ?", [fid]).fetchall()
            found = rows[0] if rows else None
            if found is not None and found[0] is not None:
                preview = self.store.preview("purge", TENANT, found[0])
                self.store.purge(TENANT, found[0], confirm=preview.token)
        else:
            preview = self.store.preview("purge", TENANT, fact_id=fid)
            self.store.purge(TENANT, fact_id=fid, confirm=preview.token)


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=projection_op_sequences(max_size=24))
def test_projection_matches_the_oracle_on_generated_sequences(ops: list[ProjectionOp]) -> None:
    """For any generated write sequence, every catch-up leaves ``fact_versions`` equal to the
    oracle's rows, and so do a rebuild and a full replay at the end."""
    clock = FakeClock(day(10) + dt.timedelta(hours=9))
    with tempfile.TemporaryDirectory() as folder, opened_store(Path(folder), clock) as store:
        driver = Driver(store, clock)
        for op in ops:
            driver.run(op)
        driver.catch_up(5000, 7)
        for kind in sorted(event_kinds(store)):
            event(kind)
        replay_check(store, 4)


# -- the oracle itself, on a history worked out by hand --------------------------------------

def test_oracle_and_projection_match_a_hand_computed_history(tmp_path: Path) -> None:
    """Assert, a partial supersede, a correction, a mask and an archive give exactly the
    versions SPEC §4 to §6 prescribe, worked out by hand, in the oracle and in the projection."""
    clock = FakeClock()
    with opened_store(tmp_path / "store", clock) as store:
        a = store.assert_fact(TENANT, "user:a", "home.city", "Oslo",
                              valid_from=day(0)).fact_ids[0]
        b = store.supersede(TENANT, "user:a", "home.city", "Lima", valid_from=day(5),
                            valid_until=day(10)).fact_ids[0]
        store.correct(b, "Rome")
        store.mask(a)
        store.archive(b)
        store.catch_up()
        mirror = Mirror(store)
        mirror.catch_up(store.projection_position(), 2)
        mirror.check(views(store))

        t = [us(clock()) + i for i in range(5)]  # the clock stands still: +1 µs per commit
        d0, d5, d10 = us(day(0)), us(day(5)), us(day(10))
        masked = canonical(MASKED_TEXT)
        want = {  # (fact, value, valid_from, valid_until, recorded_at, recorded_until, state,
                  #  present_state, masked, content_rev)
            (a, masked, d0, None, t[0], t[1], "active", "active", True, 0),
            (a, masked, d0, d5, t[1], None, "active", "active", True, 0),
            (a, masked, d10, None, t[1], None, "active", "active", True, 0),
            (b, '"Lima"', d5, d10, t[1], t[2], "active", "archived", False, 0),
            (b, '"Rome"', d5, d10, t[2], t[4], "active", "archived", False, 1),
            (b, '"Rome"', d5, d10, t[4], None, "archived", "archived", False, 1),
        }
        picked = [COLUMNS.index(c) for c in (
            "fact_id", "value", "valid_from", "valid_until", "recorded_at", "recorded_until",
            "state", "present_state", "masked", "content_rev")]
        got = Counter(tuple(r[i] for i in picked) for r in mirror.oracle.rows())
        assert got == Counter(want)
        assert all(r[COLUMNS.index("text")] == MASKED_TEXT for r in mirror.oracle.rows()
                   if r[0] == a)


# -- the workloads exercise what the projector handles ---------------------------------------

@pytest.mark.slow
def test_workload_covers_every_change_kind(tmp_path: Path) -> None:
    """The seeded workloads really produce the event kinds the projector handles."""
    clock = FakeClock()
    with opened_store(tmp_path / "store", clock) as store:
        work = Workload(store, clock, 99, mirror=False)
        for _ in range(250):
            work.step()
        kinds = event_kinds(store)
        assert {"FactAsserted", "FactSuperseded", "FactCorrected", "FactDecayed",
                "FactRetracted", "FactStateChanged", "FactMasked", "FactUnmasked",
                "FactDeprecated", "EntityForgotten", "DependentLinked"} <= kinds
        assert kinds & {"EntityPurged", "FactChainPurged"}
