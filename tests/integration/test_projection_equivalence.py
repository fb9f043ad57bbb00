"""The version projection is the same whatever the batching, and the same as before.

Random workloads (assert, supersede, correct, decay, retract, forget, mask, unmask,
archive, restore, conflicts, derived facts and their cascades, purges of an entity or
of one drift chain) are written with many facts per transaction, and the projection
catches up at random points with small batches, so that a fact changes within one
batch and across batches. After every catch-up, ``fact_versions`` must equal:

* the same log applied by :class:`ReferenceProjector`, a verbatim copy of the
  row-at-a-time projector the columnar one replaced (the saved "before" behaviour);
* the log applied by the current :class:`VersionProjector` in other batches, with the
  same touched-fact sets as the reference batch for batch;

and at the end a full ``rebuild()`` must equal the incremental result.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import random
from collections.abc import Sequence
from typing import Any

import duckdb
import pyarrow as pa
import pytest

import memory_es
from memory_es import MemoryESError
from memory_es.crypto.mapper import Unsealed
from projections.connection import connect
from projections.schema import ARROW_SCHEMA, COLUMN_NAMES, DDL, MASKED_TEXT, tenant_entity
from projections.versions import VersionProjector
from tests.fakes import FakeClock, day

pytestmark = pytest.mark.slow

TENANT = "acme"
ENTITIES = [f"user:p{i}" for i in range(5)]
ATTRIBUTES = ["home.city", "job.title", "pet"]
VALUES: list[Any] = [
    "Oslo", "Lima", "Ünïcode ✓ 東京", 'quote " and \\ back', "ctl\n\t\u0001\u2028", 3,
    2.5, 0.1, 1e20, -0.0, 2**70, True, False, None, {"k": [1, "é"], "z": {"y": None}},
    ["x", 2, 3.25],
]

# -- the reference: the row-at-a-time projector as it was before the columnar rewrite ------

_CARRIED = [c for c in COLUMN_NAMES if c not in ("version_id", "valid_from", "valid_until",
                                                  "recorded_at", "recorded_until", "position")]
_SELECT_CARRIED = ", ".join(
    "epoch_us(verified_at) AS verified_at" if c == "verified_at" else c for c in _CARRIED)
_MASKED_VALUE = json.dumps(MASKED_TEXT)
_ROW_REWRITES = frozenset({"FactMasked", "FactUnmasked", "EntityPurged", "FactChainPurged"})


def _kind(topic: str) -> str:
    return topic.split(".")[1] if "." in topic else topic


def _content_row(content: dict[str, Any], stream_id: str) -> dict[str, Any]:
    return {
        "fact_id": None, "tenant": content["tenant"], "entity": content.get("entity"),
        "mention": content.get("mention"), "attribute": content["attribute"],
        "value": json.dumps(content.get("value"), ensure_ascii=False),
        "text": content.get("text"), "supersedes": list(content.get("supersedes") or ()),
        "superseded_by": None, "derived_from": list(content.get("derived_from") or ()),
        "source": content.get("source"), "asserted_by": content.get("asserted_by", "user"),
        "volatility": content.get("volatility", "stable"),
        "confidence": float(content.get("confidence", 1.0)), "verified_at": None,
        "state": "active", "present_state": "active",
        "classification": content.get("classification", "internal"),
        "chain_id": content["chain_id"], "masked": False, "stream_id": stream_id,
        "content_rev": int(content.get("rev", 0)),
        "tenant_entity": tenant_entity(content["tenant"], content.get("entity")),
    }


def _mask(row: dict[str, Any]) -> None:
    row.update(value=_MASKED_VALUE, text=MASKED_TEXT, mention=None, source=None, masked=True)


class ReferenceProjector:
    """The row-at-a-time projector as of commit 8d6b2f7, verbatim (the expected behaviour)."""

    name = "fact_versions"

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self.con = con

    def apply(self, batch: Sequence[tuple[int, Unsealed]], position: int) -> set[str]:
        touched: set[str] = set()
        con = self.con
        con.execute("BEGIN TRANSACTION")
        try:
            segment: list[tuple[int, Unsealed]] = []
            for pos, ev in batch:
                if ev.body is None:
                    continue
                if _kind(ev.topic) in _ROW_REWRITES:
                    touched |= self._apply_changes(segment)
                    segment = []
                    touched |= self._rewrite(_kind(ev.topic), ev.body)
                else:
                    segment.append((pos, ev))
            touched |= self._apply_changes(segment)
            con.execute(
                "INSERT INTO tracking VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET "
                "position = excluded.position", [self.name, position])
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise
        return touched

    def _rewrite(self, kind: str, body: dict[str, Any]) -> set[str]:
        con = self.con
        if kind == "FactMasked":
            con.execute("UPDATE fact_versions SET value = ?, text = ?, mention = NULL, "
                        "source = NULL, masked = true WHERE fact_id = ?",
                        [_MASKED_VALUE, MASKED_TEXT, body["fact_id"]])
            return {body["fact_id"]}
        if kind == "FactUnmasked":
            for content in body["contents"]:
                con.execute(
                    "UPDATE fact_versions SET value = ?, text = ?, mention = ?, source = ?, "
                    "masked = false WHERE fact_id = ? AND content_rev = ?",
                    [json.dumps(content.get("value"), ensure_ascii=False), content.get("text"),
                     content.get("mention"), content.get("source"), body["fact_id"],
                     int(content.get("rev", 0))])
            return {body["fact_id"]}
        ids = list(body["fact_ids"])
        if ids:
            con.register("_purged", pa.table({"fact_id": pa.array(ids, pa.string())}))
            con.execute("DELETE FROM fact_versions WHERE fact_id IN (SELECT fact_id FROM _purged)")
            con.unregister("_purged")
        return set(ids)

    def _latest_from_db(self, fact_ids: list[str]) -> dict[str, dict[str, Any]]:
        if not fact_ids:
            return {}
        self.con.register("_wanted", pa.table({"fact_id": pa.array(fact_ids, pa.string())}))
        try:
            rows = self.con.sql(
                f"SELECT {_SELECT_CARRIED} FROM fact_versions "
                "WHERE fact_id IN (SELECT fact_id FROM _wanted) "
                "QUALIFY row_number() OVER (PARTITION BY fact_id "
                "ORDER BY recorded_at DESC, position DESC) = 1").to_arrow_table().to_pylist()
        finally:
            self.con.unregister("_wanted")
        return {r["fact_id"]: r for r in rows}

    def _apply_changes(self, batch: Sequence[tuple[int, Unsealed]]) -> set[str]:
        if not batch:
            return set()
        needed: set[str] = set()
        created: set[str] = set()
        for _, ev in batch:
            for ch in ev.body["changes"] if ev.body else ():
                content = ch.get("content")
                if content is not None and not content.get("rev"):
                    created.add(ch["fact_id"])
                elif ch["fact_id"] not in created:
                    needed.add(ch["fact_id"])
        latest = self._latest_from_db(sorted(needed))
        in_db = set(latest)
        open_rows: dict[str, list[dict[str, Any]]] = {}
        new_rows: list[dict[str, Any]] = []
        closes: dict[str, int] = {}
        final_state: dict[str, str] = {}

        for pos, ev in batch:
            at = ev.recorded_at
            for k, ch in enumerate(ev.body["changes"] if ev.body else ()):
                fid = ch["fact_id"]
                content = ch.get("content")
                prev = latest.get(fid)
                if content is not None:
                    base = _content_row(content, ev.stream_id)
                    if prev is not None:
                        base["superseded_by"] = prev["superseded_by"]
                        base["verified_at"] = prev["verified_at"]
                        if prev["masked"]:
                            _mask(base)
                elif prev is None:
                    continue
                else:
                    base = dict(prev)
                base["fact_id"] = fid
                base["state"] = ch["state"]
                if ch.get("superseded_by") is not None:
                    base["superseded_by"] = ch["superseded_by"]
                if ch.get("verified_at") is not None:
                    base["verified_at"] = ch["verified_at"]
                if fid in open_rows:
                    for row in open_rows.pop(fid):
                        row["recorded_until"] = at
                elif fid in in_db and fid not in closes:
                    closes[fid] = at
                rows = []
                for i, (start, end) in enumerate(ch["portions"]):
                    row = dict(base)
                    row["version_id"] = f"{pos}.{k}.{i}"
                    row["valid_from"] = start
                    row["valid_until"] = end
                    row["recorded_at"] = at
                    row["recorded_until"] = None
                    row["position"] = pos
                    rows.append(row)
                new_rows.extend(rows)
                open_rows[fid] = rows
                latest[fid] = base
                final_state[fid] = ch["state"]

        for row in new_rows:
            row["present_state"] = final_state[row["fact_id"]]
        self._write(new_rows, closes, {f: s for f, s in final_state.items() if f in in_db})
        return set(final_state)

    def _write(self, rows: list[dict[str, Any]], closes: dict[str, int],
               states: dict[str, str]) -> None:
        con = self.con
        if closes:
            con.register("_closes", pa.table({
                "fact_id": pa.array(list(closes), pa.string()),
                "at": pa.array(list(closes.values()), pa.timestamp("us", tz="UTC")),
            }))
            con.execute("UPDATE fact_versions SET recorded_until = c.at FROM _closes c "
                        "WHERE fact_versions.fact_id = c.fact_id "
                        "AND fact_versions.recorded_until IS NULL")
            con.unregister("_closes")
        if states:
            con.register("_states", pa.table({
                "fact_id": pa.array(list(states), pa.string()),
                "state": pa.array(list(states.values()), pa.string()),
            }))
            con.execute("UPDATE fact_versions SET present_state = s.state FROM _states s "
                        "WHERE fact_versions.fact_id = s.fact_id "
                        "AND fact_versions.present_state <> s.state")
            con.unregister("_states")
        if rows:
            columns = {name: [r[name] for r in rows] for name in ARROW_SCHEMA.names}
            con.register("_rows", pa.table(columns, schema=ARROW_SCHEMA))
            con.execute("INSERT INTO fact_versions SELECT * FROM _rows")
            con.unregister("_rows")


# -- mirrors: the same log applied beside the store ------------------------------------------

def snapshot(con: duckdb.DuckDBPyConnection) -> list[dict[str, Any]]:
    return con.sql("SELECT * FROM fact_versions ORDER BY version_id").to_arrow_table().to_pylist()


def tracked(con: duckdb.DuckDBPyConnection) -> int:
    rows = con.execute("SELECT position FROM tracking WHERE name = 'fact_versions'").fetchall()
    return int(rows[0][0]) if rows else 0


class Mirrors:
    """The reference and the current projector, each on its own in-memory database, fed the
    same batches (cut at random sizes) of the store's log; touched sets compared per batch."""

    def __init__(self, store: memory_es.MemoryStore, rng: random.Random) -> None:
        self.store = store
        self.rng = rng
        self.ref = self._db()
        self.new = self._db()
        self.reference = ReferenceProjector(self.ref)
        self.current = VersionProjector(self.new)
        self.position = 0
        self.batches = 0

    @staticmethod
    def _db() -> duckdb.DuckDBPyConnection:
        con = connect(":memory:")
        for ddl in DDL:
            con.execute(ddl)
        return con

    def catch_up(self, head: int) -> None:
        recorder = self.store._log.recorder
        mapper = self.store._ws.mapper
        while self.position < head:
            notes = recorder.select_notifications(
                start=self.position + 1, limit=self.rng.choice([1, 2, 3, 4, 6, 9, 40]), stop=head)
            if not notes:
                break
            opened = mapper.open_many(notes)
            assert opened == [mapper.open(n) for n in notes]
            batch = [(n.id, u) for n, u in zip(notes, opened, strict=True)]
            self.position = notes[-1].id
            expected = self.reference.apply(batch, self.position)
            assert self.current.apply(batch, self.position) == expected
            self.batches += 1

    def check(self, store_rows: list[dict[str, Any]]) -> None:
        ref_rows = snapshot(self.ref)
        assert snapshot(self.new) == ref_rows
        assert store_rows == ref_rows
        assert tracked(self.new) == tracked(self.ref) == self.position


# -- the workload ----------------------------------------------------------------------------

class Workload:
    def __init__(self, store: memory_es.MemoryStore, clock: FakeClock, seed: int,
                 mirror: bool = True) -> None:
        self.store = store
        self.clock = clock
        self.rng = random.Random(seed)
        self.facts: list[str] = []
        self.conflicts: list[tuple[str, str]] = []
        self.masked: list[str] = []
        self.mirrors = Mirrors(store, random.Random(seed + 1000))
        self.mirror = mirror
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
        self.check()  # the mirrors open every event before the keys are destroyed
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
        store._catchup.batch = self.rng.choice([1, 2, 3, 4, 7, 16, 5000])
        store.catch_up()
        if self.mirror:
            self.mirrors.catch_up(store.projection_position())
            self.mirrors.check(snapshot(store._con))
        self.checks += 1


@pytest.mark.parametrize("seed", range(6))
def test_incremental_equals_reference_and_rebuild(tmp_path: Any, seed: int) -> None:
    clock = FakeClock()
    store = memory_es.open(tmp_path / "store", clock=clock)
    try:
        work = Workload(store, clock, seed)
        for _ in range(70):
            work.step()
        work.check()
        incremental = snapshot(store._con)
        assert incremental, "the workload wrote nothing"
        assert work.checks > 10 and work.mirrors.batches > 20

        # a full rebuild (new projector, random batch size) equals the incremental result ...
        store._catchup.batch = work.rng.choice([3, 11, 5000])
        store.rebuild()
        assert snapshot(store._con) == incremental
        # ... and so does the reference replaying the whole log now (keys shredded since)
        replay = Mirrors(store, random.Random(seed + 7))
        replay.catch_up(store.log_position())
        replay.check(incremental)
    finally:
        store.close()


def test_workload_covers_every_change_kind(tmp_path: Any) -> None:
    """The random workloads above really produce the event kinds the projector handles."""
    clock = FakeClock()
    store = memory_es.open(tmp_path / "store", clock=clock)
    try:
        kinds: set[str] = set()
        work = Workload(store, clock, 99, mirror=False)
        for _ in range(250):
            work.step()
        for note in store._log.recorder.select_notifications(start=1, limit=1_000_000):
            kinds.add(_kind(note.topic))
        assert {"FactAsserted", "FactSuperseded", "FactCorrected", "FactDecayed",
                "FactRetracted", "FactStateChanged", "FactMasked", "FactUnmasked",
                "FactDeprecated", "EntityForgotten", "DependentLinked"} <= kinds
        assert kinds & {"EntityPurged", "FactChainPurged"}
    finally:
        store.close()
