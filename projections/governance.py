"""The governance read model (SPEC §12.1-12.4): who was served what, how it was judged,
which tier each fact is in, and the outcomes of preferences.

Four append-only tables, filled from the log in the version projection's transaction
(so they move with its tracking position and a rebuild yields them identically):

- ``served``: one row per fact per consumption receipt (``ConsumptionRecorded``). A row
  with a ``recall_id`` is that recall's *neutral* judgement of the fact until a
  ``judgements`` row for the same (recall, fact) says otherwise: the consumption event
  itself is the ledger entry, so no second write is needed.
- ``judgements``: every re-judgement (``RecallJudged``); the latest per (recall, fact) holds.
- ``tier_moves``: every ``TierChanged``; the fact's present tier is also written to its
  ``fact_versions.tier`` (like ``present_state``, so every read carries it without a join),
  and :func:`tiers_at` answers what it was at any earlier transaction time.
- ``feedback``: every ``FeedbackRecorded`` outcome.

All of them hold ids, names and numbers, never content; a purge deletes the purged facts'
rows with their versions. Reads are plain functions; the rules they feed live in
:mod:`memory_es.domain.governance`.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import duckdb
import pyarrow as pa

from memory_es.choices import Judgement
from memory_es.crypto.mapper import Unsealed
from memory_es.domain.events import (
    ConsumptionRecorded,
    DomainEvent,
    FeedbackRecorded,
    RecallJudged,
    TierChanged,
)
from projections.connection import arrow, unflushed
from projections.schema import ELIGIBLE, TS

RECORD_EVENTS: frozenset[type[DomainEvent]] = frozenset(
    {ConsumptionRecorded, RecallJudged, FeedbackRecorded})
"""Events that only append governance rows (they touch no version row, so a batch applies
them after its version rows, in log order among themselves)."""
TIER_EVENTS: frozenset[type[DomainEvent]] = frozenset({TierChanged})
"""Events that also rewrite version rows (``tier``): applied in log order with the rest."""
TABLES = ("served", "judgements", "tier_moves", "feedback")

Batch = Sequence[tuple[int, Unsealed, dict[str, Any]]]

_LAST_MOVE: weakref.WeakKeyDictionary[duckdb.DuckDBPyConnection, int] = (
    weakref.WeakKeyDictionary())
"""Per views connection: the newest tier move's time (µs, 0 if none), so an as-of read at or
after it skips the tier lookup. Filled on first use, moved on by :func:`apply_tiers`."""
_ANY_SERVED: weakref.WeakKeyDictionary[duckdb.DuckDBPyConnection, bool] = (
    weakref.WeakKeyDictionary())
"""Per views connection: whether ``served`` holds any row. While it holds none, every
ledger is empty and :func:`ledgers` answers without a query (the recall index asks after
every write: ≈ 1.3 ms of DuckDB planning). Filled on first use, dropped with
:data:`_EMPTY`."""


_EMPTY: weakref.WeakKeyDictionary[duckdb.DuckDBPyConnection, set[str]] = (
    weakref.WeakKeyDictionary())
"""Per views connection: the ledger tables :func:`forget`'s probe found empty, which it
then skips (a purge of facts never served, judged, moved or given feedback runs no
statement for them). Dropped by every insert and delete and by :func:`rolled_back`."""


_WRITES: weakref.WeakKeyDictionary[duckdb.DuckDBPyConnection, int] = (
    weakref.WeakKeyDictionary())
"""Per views connection: how many times its ledger tables were written (or may have been),
for :func:`writes`."""


def _changed(con: duckdb.DuckDBPyConnection) -> None:
    """The ledger tables changed (or may have, in a transaction that may roll back):
    what is known of them is read again."""
    con = unflushed(con)
    _ANY_SERVED.pop(con, None)
    _EMPTY.pop(con, None)
    _WRITES[con] = _WRITES.get(con, 0) + 1


def writes(con: duckdb.DuckDBPyConnection) -> int:
    """A count that moves whenever this connection's ledger tables may have changed
    (every insert and delete of this module, and every rollback): while it stands still,
    what a snapshot measured of them still holds, with no statement to plan."""
    return _WRITES.get(unflushed(con), 0)


def rolled_back(con: duckdb.DuckDBPyConnection) -> None:
    """The caller's transaction rolled back: what was read inside it may no longer hold."""
    _changed(con)
    _LAST_MOVE.pop(unflushed(con), None)


def _any_served(con: duckdb.DuckDBPyConnection) -> bool:
    con = unflushed(con)  # the ledgers are never deferred; one cache entry per database
    known = _ANY_SERVED.get(con)
    if known is None:
        rows = con.execute("SELECT EXISTS (SELECT 1 FROM served)").fetchall()
        known = _ANY_SERVED[con] = bool(rows[0][0]) if rows else False
    return known


def last_tier_move(con: duckdb.DuckDBPyConnection) -> int:
    """When the newest tier move of these views was recorded (0: never)."""
    con = unflushed(con)  # tier moves are never deferred; one cache entry per database
    known = _LAST_MOVE.get(con)
    if known is None:
        rows = con.execute("SELECT coalesce(epoch_us(max(moved_at)), 0) FROM tier_moves"
                           ).fetchall()  # fetchone would leave the result open (DuckDB 2)
        known = _LAST_MOVE[con] = int(rows[0][0]) if rows else 0
    return known


def _with_ids(con: duckdb.DuckDBPyConnection, name: str, ids: Iterable[str]) -> None:
    con.register(name, pa.table({"fact_id": pa.array(sorted(set(ids)), pa.string())}))


# projection -------------------------------------------------------------------------------

def apply_records(con: duckdb.DuckDBPyConnection, batch: Batch) -> set[str]:
    """Append the rows of consumption, judgement and feedback events (inside the caller's
    transaction); returns the facts whose ledger changed."""
    served: dict[str, list[Any]] = {k: [] for k in ("tenant", "recall_id", "fact_id", "rank",
                                                    "served_at", "position")}
    judged: dict[str, list[Any]] = {k: [] for k in ("tenant", "recall_id", "fact_id",
                                                    "judgement", "judged_at", "position",
                                                    "event_id")}
    outcomes: dict[str, list[Any]] = {k: [] for k in ("tenant", "fact_id", "outcome",
                                                      "recorded_at", "position", "event_id")}
    for pos, ev, body in batch:
        topic = ev.topic
        if topic == ConsumptionRecorded.TOPIC:
            for rank, fid in enumerate(body["fact_ids"]):
                for name, value in (("tenant", body["tenant"]), ("recall_id",
                                    body.get("recall_id")), ("fact_id", fid), ("rank", rank),
                                    ("served_at", ev.recorded_at), ("position", pos)):
                    served[name].append(value)
        elif topic == RecallJudged.TOPIC:
            for verdict, ids in ((Judgement.USEFUL, body["helpful"]),
                                 (Judgement.HARMFUL, body["misleading"])):
                for fid in ids:
                    for name, value in (("tenant", body["tenant"]),
                                        ("recall_id", body["recall_id"]), ("fact_id", fid),
                                        ("judgement", str(verdict)),
                                        ("judged_at", ev.recorded_at), ("position", pos),
                                        ("event_id", f"{ev.stream_id}:{ev.version}")):
                        judged[name].append(value)
        elif topic == FeedbackRecorded.TOPIC:
            for name, value in (("tenant", body["tenant"]), ("fact_id", body["fact_id"]),
                                ("outcome", body["outcome"]), ("recorded_at", ev.recorded_at),
                                ("position", pos), ("event_id", f"{ev.stream_id}:{ev.version}")):
                outcomes[name].append(value)
    touched: set[str] = set()
    for table, columns, times in (("served", served, "served_at"),
                                  ("judgements", judged, "judged_at"),
                                  ("feedback", outcomes, "recorded_at")):
        if not columns["fact_id"]:
            continue
        touched.update(columns["fact_id"])
        _changed(con)  # re-read after this transaction
        rows = pa.table({name: (pa.array(values, TS) if name == times else
                                pa.array(values, pa.int32()) if name == "rank" else
                                pa.array(values, pa.int64()) if name == "position" else
                                pa.array(values, pa.string()))
                         for name, values in columns.items()})
        con.register("_gov_rows", rows)
        try:
            con.execute(f"INSERT INTO {table} BY NAME SELECT * FROM _gov_rows")
        finally:
            con.unregister("_gov_rows")
    return touched


def apply_tiers(con: duckdb.DuckDBPyConnection, batch: Batch) -> set[str]:
    """Append tier moves and write each moved fact's present tier to its version rows
    (inside the caller's transaction, after every earlier event's rows); returns them."""
    if not batch:
        return set()
    columns: dict[str, list[Any]] = {k: [] for k in ("tenant", "fact_id", "from_tier",
                                                     "to_tier", "reason", "moved_at",
                                                     "position", "event_id")}
    last: dict[str, str] = {}
    for pos, ev, body in batch:
        for name, value in (("tenant", body["tenant"]), ("fact_id", body["fact_id"]),
                            ("from_tier", body["from_tier"]), ("to_tier", body["to_tier"]),
                            ("reason", body.get("reason")), ("moved_at", ev.recorded_at),
                            ("position", pos), ("event_id", f"{ev.stream_id}:{ev.version}")):
            columns[name].append(value)
        last[body["fact_id"]] = body["to_tier"]
    rows = pa.table({name: (pa.array(values, TS) if name == "moved_at" else
                            pa.array(values, pa.int64()) if name == "position" else
                            pa.array(values, pa.string()))
                     for name, values in columns.items()})
    con.register("_gov_rows", rows)
    con.register("_gov_tiers", pa.table({"fact_id": pa.array(list(last), pa.string()),
                                         "tier": pa.array(list(last.values()), pa.string())}))
    _LAST_MOVE.pop(unflushed(con), None)  # re-read after this transaction (it may roll back)
    _changed(con)
    try:
        con.execute("INSERT INTO tier_moves BY NAME SELECT * FROM _gov_rows")
        con.execute("UPDATE fact_versions SET tier = t.tier FROM _gov_tiers t "
                    "WHERE fact_versions.fact_id = t.fact_id AND fact_versions.tier <> t.tier")
    finally:
        con.unregister("_gov_rows")
        con.unregister("_gov_tiers")
    return set(last)


def forget(con: duckdb.DuckDBPyConnection, fact_ids: Sequence[str]) -> None:
    """Delete the governance rows of purged facts (with their version rows)."""
    if not fact_ids:
        return
    # One probe first: each DELETE costs ≈ 1-2 ms to plan, and most purged facts were
    # never served, judged, moved or given feedback. The ids go as one list parameter
    # (registering an Arrow table of them and dropping it cost ≈ 1.3 ms more). Tables
    # found empty are not probed again until they change (the probe plans in ≈ 1.7 ms).
    empty = _EMPTY.setdefault(unflushed(con), set())
    tables = [table for table in TABLES if table not in empty]
    if not tables:
        return
    ids = [sorted(set(fact_ids))]
    found = con.execute(" UNION ALL ".join(
        f"SELECT '{table}', EXISTS (SELECT 1 FROM {table}), EXISTS (SELECT 1 FROM {table} "
        "WHERE fact_id = ANY($1::VARCHAR[]))" for table in tables), ids).fetchall()
    empty.update(str(table) for table, rows, _ in found if not rows)
    for table, _, held in found:
        if held:
            con.execute(f"DELETE FROM {table} WHERE fact_id = ANY($1::VARCHAR[])", ids)
            _changed(con)


# reads ------------------------------------------------------------------------------------

@dataclass
class Ledger:
    """One fact's uses and current judgements, as of the time asked."""

    uses: int = 0
    """Consumption receipts that served it (with or without a recall id)."""
    use_days: int = 0
    last_used: int | None = None
    judgements: list[str] = field(default_factory=list)
    """Current judgement per recall that served it, in recall order."""


def _time_filter(column: str, known_at: int | None) -> str:
    return "" if known_at is None else f" AND {column} <= make_timestamptz({int(known_at)}::BIGINT)"


SMALL = 64
"""Up to this many ids are bound as one list parameter; more are registered as a table."""


class _Ids:
    """A ``fact_id`` filter: a bound list for a few ids (no registration round trip), a
    registered Arrow table for many (a list scan per row would grow with both)."""

    def __init__(self, con: duckdb.DuckDBPyConnection, ids: Iterable[str] | None,
                 column: str = "fact_id") -> None:
        self.con = con
        self.ids = None if ids is None else sorted(set(ids))
        self.registered = self.ids is not None and len(self.ids) > SMALL
        self.sql = ""
        self.params: list[Any] = []
        if self.ids is None:
            return
        if self.registered:
            _with_ids(con, "_gov_wanted", self.ids)
            self.sql = f" AND {column} IN (SELECT fact_id FROM _gov_wanted)"
        else:
            self.sql = f" AND list_contains(?::VARCHAR[], {column})"
            self.params = [self.ids]

    def __enter__(self) -> _Ids:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.registered:
            self.con.unregister("_gov_wanted")


def ledgers(con: duckdb.DuckDBPyConnection, fact_ids: Iterable[str] | None, *,
            tenant: str | None = None, known_at: int | None = None) -> dict[str, Ledger]:
    """Ledgers of ``fact_ids`` (None: every fact that was served), as of ``known_at``
    (None: now). Facts never served are absent.

    Two plain scans folded here (measured: the same as one aggregate query with a join
    cost 4-7 ms against 1-2 ms; recall's projection pays it after each receipt)."""
    if not _any_served(con):
        return {}
    where, params = "", []
    if tenant is not None:
        where, params = " AND tenant = ?", [tenant]
    with _Ids(con, fact_ids) as ids:
        served = con.execute(
            f"SELECT fact_id, recall_id, epoch_us(served_at) FROM served WHERE true {where}"
            f"{ids.sql}{_time_filter('served_at', known_at)} ORDER BY position, rank",
            params + ids.params).fetchall()
        judged = con.execute(
            f"SELECT recall_id, fact_id, judgement FROM judgements WHERE true {where}"
            f"{ids.sql}{_time_filter('judged_at', known_at)} ORDER BY position",
            params + ids.params).fetchall() if served else []
    now = {(str(r), str(f)): str(j) for r, f, j in judged}
    out: dict[str, Ledger] = {}
    days: dict[str, set[int]] = {}
    neutral = str(Judgement.NEUTRAL)
    for fid, rid, at in served:
        book = out.get(fid)
        if book is None:
            book = out[fid] = Ledger()
            days[fid] = set()
        book.uses += 1
        days[fid].add(at // 86_400_000_000)
        book.last_used = at if book.last_used is None else max(book.last_used, at)
        if rid is not None:
            book.judgements.append(now.get((rid, fid), neutral))
    for fid, book in out.items():
        book.use_days = len(days[fid])
    return out


def recall_facts(con: duckdb.DuckDBPyConnection, recall_id: str) -> tuple[str | None, list[str]]:
    """(tenant, fact ids in rank order) of the recall ``recall_id`` (None, [] if unknown)."""
    rows = con.execute("SELECT tenant, fact_id FROM served WHERE recall_id = ? "
                       "ORDER BY position, rank", [recall_id]).fetchall()
    if not rows:
        return None, []
    return str(rows[0][0]), [str(r[1]) for r in rows]


def outcomes(con: duckdb.DuckDBPyConnection, tenant: str, fact_id: str,
             known_at: int | None = None) -> list[tuple[int, str]]:
    """(recorded_at µs, outcome) of every feedback on the fact, oldest first."""
    return [(int(at), str(o)) for at, o in con.execute(
        f"SELECT epoch_us(recorded_at), outcome FROM feedback WHERE tenant = ? AND fact_id = ?"
        f" {_time_filter('recorded_at', known_at)} ORDER BY position",
        [tenant, fact_id]).fetchall()]


def outcomes_of(con: duckdb.DuckDBPyConnection, fact_ids: Iterable[str],
                known_at: int | None = None) -> dict[str, list[str]]:
    """Each fact's feedback outcomes (as of ``known_at``), oldest first."""
    with _Ids(con, fact_ids) as ids:
        rows = con.execute(
            f"SELECT fact_id, list(outcome ORDER BY position) FROM feedback WHERE true"
            f"{ids.sql}{_time_filter('recorded_at', known_at)} GROUP BY fact_id",
            ids.params).fetchall()
    return {str(f): [str(o) for o in seen] for f, seen in rows}


def tiers_at(con: duckdb.DuckDBPyConnection, fact_ids: Iterable[str],
             known_at: int) -> dict[str, str]:
    """The tier of each fact that moved after ``known_at``, as it was at ``known_at``: the
    ``from_tier`` of its first later move (facts that did not move since are absent, their
    present tier is the one)."""
    con = unflushed(con)  # tier moves are never deferred
    with _Ids(con, fact_ids) as ids:
        rows = con.execute(
            f"SELECT fact_id, arg_min(from_tier, position) FROM tier_moves "
            f"WHERE moved_at > make_timestamptz({int(known_at)}::BIGINT){ids.sql} "
            f"GROUP BY fact_id", ids.params).fetchall()
    return {str(fid): str(tier) for fid, tier in rows}


def with_tiers_at(con: duckdb.DuckDBPyConnection, rows: Any, known_at: int) -> Any:
    """Version rows (an Arrow table, or dicts) with ``tier`` as it was at ``known_at``
    (``fact_versions.tier`` holds the present one), for as-of reads."""
    if known_at >= last_tier_move(con):
        return rows
    if isinstance(rows, pa.Table):
        if rows.num_rows == 0:
            return rows
        ids = rows.column("fact_id").to_pylist()
        before = tiers_at(con, ids, known_at)
        if not before:
            return rows
        tiers = [before.get(f, t) for f, t in zip(ids, rows.column("tier").to_pylist(),
                                                  strict=True)]
        return rows.set_column(rows.schema.get_field_index("tier"), "tier",
                               pa.array(tiers, pa.string()))
    if rows:
        before = tiers_at(con, [r["fact_id"] for r in rows], known_at)
        for row in rows:
            row["tier"] = before.get(row["fact_id"], row["tier"])
    return rows


def sweep_rows(con: duckdb.DuckDBPyConnection, tenant: str, now: int) -> pa.Table:
    """What a sweep needs of every fact of ``tenant`` current at ``now`` (one row per fact):
    tier, state, importance, volatility, attribute, first record and last verification
    time, and its uses (count, distinct UTC days, last) over its whole life."""
    t = f"make_timestamptz({int(now)}::BIGINT)"
    return arrow(con, f"""
        WITH cur AS (
            SELECT fact_id, any_value(tier) AS tier, any_value(state) AS state,
                   any_value(importance) AS importance, any_value(volatility) AS volatility,
                   any_value(attribute) AS attribute,
                   epoch_us(max(verified_at)) AS verified_at
            FROM fact_versions
            WHERE tenant = ? AND recorded_until IS NULL AND {ELIGIBLE}
              AND valid_from <= {t} AND (valid_until IS NULL OR {t} < valid_until)
            GROUP BY fact_id),
        born AS (
            SELECT fact_id, epoch_us(min(recorded_at)) AS recorded_at FROM fact_versions
            WHERE tenant = ? AND fact_id IN (SELECT fact_id FROM cur) GROUP BY fact_id),
        used AS (
            SELECT fact_id, count(*) AS uses,
                   count(DISTINCT epoch_us(served_at) // 86400000000) AS use_days,
                   epoch_us(max(served_at)) AS last_used
            FROM served WHERE tenant = ? AND served_at <= {t} GROUP BY fact_id)
        SELECT cur.*, born.recorded_at, coalesce(used.uses, 0) AS uses,
               coalesce(used.use_days, 0) AS use_days, used.last_used
        FROM cur JOIN born USING (fact_id) LEFT JOIN used USING (fact_id)
        ORDER BY fact_id""", [tenant, tenant, tenant])


def fact_events(con: duckdb.DuckDBPyConnection, fact_ids: Iterable[str]) -> list[dict[str, Any]]:
    """Governance events that named these facts (tier moves, judgements, feedback), as
    ``history`` lists them: event id, position, time (µs), event name, facts, state, reason."""
    _with_ids(con, "_gov_wanted", fact_ids)
    try:
        rows = con.execute("""
            SELECT event_id, position, epoch_us(moved_at), 'TierChanged', list(fact_id),
                   any_value(to_tier), any_value(reason)
            FROM tier_moves WHERE fact_id IN (SELECT fact_id FROM _gov_wanted) GROUP BY ALL
            UNION ALL
            SELECT event_id, position, epoch_us(any_value(judged_at)), 'RecallJudged',
                   list(fact_id ORDER BY fact_id), string_agg(DISTINCT judgement, ', '),
                   'recall ' || any_value(recall_id)
            FROM judgements WHERE fact_id IN (SELECT fact_id FROM _gov_wanted)
            GROUP BY event_id, position
            UNION ALL
            SELECT event_id, position, epoch_us(recorded_at), 'FeedbackRecorded', [fact_id],
                   outcome, NULL
            FROM feedback WHERE fact_id IN (SELECT fact_id FROM _gov_wanted)
            ORDER BY 2""").fetchall()
    finally:
        con.unregister("_gov_wanted")
    return [{"event_id": e, "position": int(p), "recorded_at": int(at), "op": op,
             "fact_ids": sorted(ids), "state": state, "reason": reason}
            for e, p, at, op, ids, state, reason in rows]
