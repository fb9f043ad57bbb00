"""The bitemporal version projection: fact changes -> ``fact_versions`` rows.

Every event lists each touched fact's present belief (portions + state). Applying
one closes the fact's open versions at the event's transaction time and opens one
version per portion. A batch and its tracking position commit in one DuckDB
transaction, so a crash can neither lose nor double an event.

Batches stay columnar: each change appends its values straight to column lists (a
fact's content is one shared tuple, not a dict copied per row), versions closed by a
later change of the same batch are patched in place, and the batch is written with
one Arrow insert plus two set-based updates for facts already in the table. Event
bodies are parsed here, once, and dropped with the batch (``Unsealed.transient_body``).

(Measured alternative: handing the JSON to DuckDB — ``from_json`` to flatten, window
functions to carry content forward and ``lead()`` to close versions — cost about twice
as much CPU per event at 5,000 events per batch, and its statements take ≈ 25 ms each
to plan: a one-event batch took ≈ 100 ms instead of ≈ 13 ms, and read-your-writes pays
that on every read after a write.)

Masking, unmasking and purges rewrite rows in place (they are views, not history):
they split the batch so that set-based statements see every earlier row.

**Small batches (read-your-writes).** Every read after a write catches up a batch of one
or a few events, and DuckDB's fixed cost per statement (≈ 1-3 ms to plan each, whatever
the rows) dominated it: a window query to find the touched facts' latest rows, two
set-based UPDATEs, the insert, and then each follower re-reading the rows it had just
written. So:

- the touched facts' latest beliefs come from ``latest_source`` when it can serve them
  (:meth:`projections.points.PointRows.latest`: the SQLite row store, indexed by fact id,
  when it is in line with the views at the batch's start) and from DuckDB otherwise;
- the closes and present states of facts already in the table are one UPDATE, its values
  passed as list parameters for a small batch (registering an Arrow table costs ≈ 1 ms);
- the batch's own rows are handed to the followers (:class:`AppliedBatch`), so the row
  store and the recall index need not read them back. Only a batch with exactly one
  segment of changes and no in-place rewrite (mask, unmask, purge, tier move) is handed
  over whole; for any other the followers re-read DuckDB as before, so every rewrite
  reaches them through one implementation only.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.compute as pc

from memory_es.collector import collector_paused
from memory_es.crypto.mapper import Unsealed
from memory_es.domain.events import (
    EVENT_TYPES,
    DomainEvent,
    EntityPurged,
    FactChainPurged,
    FactMasked,
    FactUnmasked,
)
from memory_es.domain.lifecycle import INELIGIBLE_NOW, RETRIEVABLE_STATES
from projections import governance
from projections.connection import ids_in
from projections.schema import ARROW_SCHEMA, MASKED_TEXT, PUBLIC_COLUMNS, TS, tenant_entity
from projections.snapshot import shard_of

_dumps = json.JSONEncoder(ensure_ascii=False).encode  # == json.dumps(v, ensure_ascii=False)
MASKED_VALUE = json.dumps(MASKED_TEXT)
ROW_REWRITES: frozenset[type[DomainEvent]] = frozenset(
    {FactMasked, FactUnmasked, EntityPurged, FactChainPurged})

CONTENT = ("tenant", "entity", "mention", "attribute", "value", "text", "supersedes",
           "derived_from", "source", "asserted_by", "volatility", "confidence", "importance",
           "classification", "agent", "shared", "negated", "chain_id", "content_rev",
           "stream_id")
"""What a version takes from its fact's content (one tuple per content revision)."""
_MENTION, _VALUE, _TEXT, _SOURCE, _CHAIN = (
    CONTENT.index(c) for c in ("mention", "value", "text", "source", "chain_id"))
_SELECT_LATEST = (
    "SELECT fact_id, superseded_by, epoch_us(verified_at) AS verified_at, masked, tier, "
    + ", ".join(CONTENT) + " FROM fact_versions WHERE fact_id IN (SELECT fact_id FROM _wanted) "
    "QUALIFY row_number() OVER (PARTITION BY fact_id ORDER BY recorded_at DESC, position DESC) = 1")

Content = tuple[Any, ...]
Carried = tuple[Content, str | None, int | None, bool, str]
"""A fact's latest belief: (content, superseded_by, verified_at, masked, tier)."""
NEW_TIER = "working"
"""Every new fact starts in the working tier (SPEC §12.1)."""
Write = tuple[pa.Table | None, dict[str, int], dict[str, str]]
"""One segment's DuckDB write: rows to insert, then (run first) the closes and present
states of facts already in the table."""
LatestSource = Callable[[list[str], int], "dict[str, Carried] | None"]
"""Given fact ids and the log position a batch starts from, their latest beliefs as of
that position, or None when the source is not in line with it (DuckDB answers then)."""
POINT_UPDATES = 4
"""Facts already in the table that share a close time and a present state (a forget of
an entity's facts, say) are updated by one statement through the ``fact_id`` index; up to
this many such groups, a statement each (≈ 1.5 ms for four facts at 100k rows, and not
growing with the store), where the one set-based UPDATE joins against the whole table."""
SMALL_BATCH = 64
"""Up to this many facts already in the table, their closes and states go to DuckDB as
list parameters; above it, as a registered Arrow table (linear in the facts)."""
DEFER_EVENTS = 64
"""A catch-up of up to this many events may defer its DuckDB writes
(:attr:`VersionProjector.pending_position`); a longer one (after bulk writes, on open)
writes them at once."""
DEFER_WRITES = 512
"""At most this many deferred writes wait: the next batch flushes them (bounded memory)."""


@dataclass(frozen=True)
class AppliedBatch:
    """What one committed batch did to ``fact_versions``, for the followers.

    When ``complete``, the table changed by exactly this: the rows of ``closes`` (fact ->
    time) that were open got ``recorded_until`` = that time, every row of the facts in
    ``states`` got that ``present_state``, and ``rows`` were inserted. Otherwise (an
    in-place rewrite, or several segments) followers must re-read the touched facts."""

    position: int
    complete: bool
    rows: pa.Table | None = None
    closes: dict[str, int] = field(default_factory=dict)
    states: dict[str, str] = field(default_factory=dict)
    fresh: frozenset[str] = frozenset()
    """Facts this batch created that no record of it names: nothing of theirs (ledgers
    included) existed before it."""
    purged: frozenset[str] = frozenset()
    """Facts a purge of this batch deleted every row of (complete or not): a follower
    drops them without reading DuckDB, which has nothing of them left."""


_MICROS = (("_vf", "valid_from"), ("_vu", "valid_until"), ("_ra", "recorded_at"),
           ("_va", "verified_at"))
_ROW_SCHEMA: list[pa.Schema] = []


def handed_rows(rows: pa.Table, schema: Callable[[], pa.Schema]) -> pa.Table:
    """The open, eligible, unmasked rows of a batch handed over whole, as the recall
    index selects them (:data:`projections.recall.mirror.ROW_COLUMNS`: the public columns,
    then four times in µs), cast to ``schema()``, the types DuckDB gives that selection
    (asked once per process: the index keeps tables of both origins side by side)."""
    keep = pc.and_(
        pc.and_(pc.is_null(rows.column("recorded_until")), pc.invert(rows.column("masked"))),
        pc.and_(pc.is_in(rows.column("state"), pa.array(sorted(RETRIEVABLE_STATES))),
                pc.invert(pc.is_in(rows.column("present_state"),
                                   pa.array(sorted(INELIGIBLE_NOW))))))
    kept = rows.filter(keep)
    out = kept.select(PUBLIC_COLUMNS)
    for name, column in _MICROS:
        out = out.append_column(name, kept.column(column).cast(pa.int64()))
    return out.cast(row_schema(schema))


def row_schema(schema: Callable[[], pa.Schema]) -> pa.Schema:
    """The types DuckDB gives the recall index's selection of open rows: ``schema()``,
    asked once per process."""
    if not _ROW_SCHEMA:
        _ROW_SCHEMA.append(schema())
    return _ROW_SCHEMA[0]


def _content(c: dict[str, Any], stream_id: str) -> Content:
    return (c["tenant"], c.get("entity"), c.get("mention"), c["attribute"],
            _dumps(c.get("value")), c.get("text"), list(c.get("supersedes") or ()),
            list(c.get("derived_from") or ()), c.get("source"), c.get("asserted_by", "user"),
            c.get("volatility", "stable"), float(c.get("confidence", 1.0)),
            float(c.get("importance", 0.5)), c.get("classification", "internal"),
            c.get("agent"), bool(c.get("shared", False)), bool(c.get("negated", False)),
            c["chain_id"], int(c.get("rev", 0)), stream_id)


def _masked(content: Content) -> Content:
    masked = list(content)
    masked[_VALUE], masked[_TEXT] = MASKED_VALUE, MASKED_TEXT
    masked[_MENTION] = masked[_SOURCE] = None
    return tuple(masked)


class _Rows:
    """The versions of one segment, column by column."""

    __slots__ = ("contents", "fact_id", "masked", "position", "recorded_at", "recorded_until",
                 "state", "superseded_by", "tier", "valid_from", "valid_until", "verified_at",
                 "version_id")

    def __init__(self) -> None:
        self.version_id: list[str] = []
        self.fact_id: list[str] = []
        self.valid_from: list[int] = []
        self.valid_until: list[int | None] = []
        self.recorded_at: list[int] = []
        self.recorded_until: list[int | None] = []
        self.superseded_by: list[str | None] = []
        self.verified_at: list[int | None] = []
        self.state: list[str] = []
        self.masked: list[bool] = []
        self.tier: list[str] = []
        self.position: list[int] = []
        self.contents: list[Content] = []

    def table(self, final_state: dict[str, str]) -> pa.Table:
        content_columns = zip(*self.contents, strict=True)
        columns: dict[str, Any] = dict(zip(CONTENT, content_columns, strict=True))
        columns.update(
            version_id=self.version_id, fact_id=self.fact_id, valid_from=self.valid_from,
            valid_until=self.valid_until, recorded_at=self.recorded_at,
            recorded_until=self.recorded_until, superseded_by=self.superseded_by,
            verified_at=self.verified_at, state=self.state, masked=self.masked,
            tier=self.tier, position=self.position,
            present_state=[final_state[f] for f in self.fact_id],
            tenant_entity=list(map(tenant_entity, columns["tenant"], columns["entity"])))
        columns["shard"] = list(map(shard_of, columns["tenant_entity"], columns["chain_id"]))
        return pa.table([pa.array(columns[f.name], f.type) for f in ARROW_SCHEMA],
                        schema=ARROW_SCHEMA)


_UNPARSED: dict[str, Any] = {}
"""The body entry of a change event left for :meth:`VersionProjector._apply_changes` to
decode (when :attr:`VersionProjector.parses_changes` is False)."""


def _body(ev: Unsealed) -> dict[str, Any]:
    body = ev.transient_body()
    return {} if body is None else body  # never None: shredded events are skipped first


class VersionProjector:
    """Applies batches of opened events to ``fact_versions``."""

    name = "fact_versions"
    parses_changes = True
    """Whether change events reach :meth:`_apply_changes` parsed (False: as
    :data:`_UNPARSED`, their bodies decoded there from :attr:`Unsealed.plaintext`)."""

    def __init__(self, con: duckdb.DuckDBPyConnection,
                 latest_source: LatestSource | None = None, *, followed: bool = True) -> None:
        self.con = con
        self.latest_source = latest_source
        self.followed = followed
        """Whether anything reads what :meth:`apply` returns and :attr:`applied`. A
        rebuild's projector is not followed (its batches touch every fact, and the views
        compare the tables afterwards): the bulk one then builds no set of the facts its
        changes touched (≈ 30 ms of Python sets per 50k facts), and no batch is handed
        over whole."""
        self._shard_known: set[str] = set()  # facts of this batch whose shard is noted
        self._purged: set[str] = set()  # facts of this batch a purge deleted
        self.applied: AppliedBatch | None = None
        """The last committed batch (None after a failed one)."""
        self._since: int | None = None  # where the batch being applied starts, if known
        self._rewrote = False  # the batch being applied rewrote rows in place
        self._segments: list[tuple[pa.Table | None, dict[str, int], dict[str, str],
                                   set[str]]] = []
        self.dirty_shards: set[int] = set()
        """Shards whose rows changed (the views' snapshot writes them again and drains this)."""
        self.removed: dict[int, set[str]] = {}
        """Facts whose rows a purge deleted, by shard: a shard with no other change is
        written again from its snapshot file without them (the views drain this too)."""
        self.ledger_touched: set[str] = set()
        """Facts whose utility ledger (not their rows) the last batch changed: served or
        judged. Kept apart from :meth:`apply`'s result, so a follower that mirrors rows
        re-reads none for a recall receipt (``RecallIndex.refresh_ledgers`` takes these)."""
        self.deferring = False
        """Whether batches of plain changes may leave their DuckDB writes for :meth:`flush`
        (the views set it; see :attr:`pending_position`)."""
        self.behind = 0
        """Events the running catch-up applies in all (:class:`projections.catchup.Catchup`
        sets it): only a catch-up of at most :data:`DEFER_EVENTS` defers (after bulk writes
        or on open, DuckDB is written at once, batch by batch)."""
        self._pending: list[Write] = []
        self._pending_position: int | None = None
        self._staged: list[Write] | None = None

    # deferred writes ----------------------------------------------------------------------

    @property
    def pending_position(self) -> int | None:
        """The log position the deferred writes reach (None: nothing deferred).

        **Deferred writes (issue 11 item 5, issue 16 item 2).** A batch of plain fact
        changes (no ledger record, tier move or in-place rewrite) of at most
        :data:`DEFER_EVENTS` events, whose touched facts' latest beliefs ``latest_source``
        served, computes its rows as always and hands them to the followers (the point-read
        row store and the recall index take them from :attr:`applied`), but its DuckDB
        statements (close-and-restate UPDATE, INSERT, tracking UPDATE, BEGIN/COMMIT: ≈ 8 ms
        on a one-event batch) wait here until :meth:`flush`, which the views run before any
        read of DuckDB (:class:`projections.views.Views` hands readers a connection that
        flushes first) and at the start of any batch that is not deferred, in its
        transaction (one tracking move and one commit for both), all of them as one
        write (:func:`merged`). The views are an
        in-memory database rebuilt from a snapshot plus the log on open, so what waits here
        is lost by a crash exactly as an applied batch since the last snapshot is."""
        return self._pending_position if self._pending else None

    def flush(self) -> None:
        """Run the deferred writes and move tracking, in one DuckDB transaction."""
        pending, position = self._pending, self._pending_position
        if not pending or position is None:
            return
        con = self.con
        con.execute("BEGIN TRANSACTION")
        try:
            self._execute(*merged(pending))
            self._track(position)
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise
        self._pending, self._pending_position = [], None

    def discard_pending(self) -> None:
        """Forget the deferred writes (the database they were for was replaced)."""
        self._pending, self._pending_position = [], None

    def _deferrable(self, batch: Sequence[tuple[int, Unsealed]], since: int | None) -> bool:
        if (not self.deferring or self.latest_source is None or since is None
                or len(batch) > DEFER_EVENTS or self.behind > DEFER_EVENTS
                or len(self._pending) >= DEFER_WRITES):
            return False
        for _, ev in batch:
            kind = EVENT_TYPES.get(ev.topic)
            if (kind in governance.RECORD_EVENTS or kind in governance.TIER_EVENTS
                    or kind in ROW_REWRITES):
                return False
        return True

    def _track(self, position: int) -> None:
        # An UPDATE plans in ≈ 1 ms less than an upsert; the INSERT runs once per file.
        con = self.con
        moved = con.execute("UPDATE tracking SET position = ? WHERE name = ?",
                            [position, self.name]).fetchall()
        if not moved or not moved[0][0]:
            con.execute("INSERT INTO tracking VALUES (?, ?)", [self.name, position])

    # applying batches -----------------------------------------------------------------------

    def apply(self, batch: Sequence[tuple[int, Unsealed]], position: int,
              since: int | None = None) -> set[str]:
        """Apply events (with log positions), move tracking to ``position``; returns the ids
        of every fact whose rows changed (for the projections that follow this one; not
        :attr:`followed`, some of them may be left out).
        ``since``: the tracked position the batch starts from (lets ``latest_source``
        answer; unknown: DuckDB does)."""
        self.applied = None
        self._since, self._segments = since, []
        with collector_paused():
            # The bodies parsed for the batch are freed when _apply returns, before the
            # collector runs again: it never has to scan them.
            try:
                touched = self._apply(batch, position, self._deferrable(batch, since))
            finally:
                segments, self._segments, self._since = self._segments, [], None
        self.applied = (self._handed_over(position, segments) if self.followed else
                        AppliedBatch(position, complete=False, purged=frozenset(self._purged)))
        return touched

    def _handed_over(self, position: int, segments: list[tuple[
            pa.Table | None, dict[str, int], dict[str, str], set[str]]]) -> AppliedBatch:
        """The batch for the followers: whole when it was one segment and no rewrite."""
        if self._rewrote or len(segments) > 1:
            return AppliedBatch(position, complete=False, purged=frozenset(self._purged))
        if not segments:
            return AppliedBatch(position, complete=True)
        rows, closes, states, created = segments[0]
        return AppliedBatch(position, complete=True, rows=rows, closes=closes, states=states,
                            fresh=frozenset(created - self.ledger_touched))

    def _apply(self, batch: Sequence[tuple[int, Unsealed]], position: int,
               deferred: bool = False) -> set[str]:
        touched: set[str] = set()
        con = self.con
        self._rewrote = False
        self._shard_known = set()
        self._purged = set()
        waiting = self._pending, self._pending_position
        if deferred:
            self._staged = []
        else:  # the deferred writes run first, in this batch's transaction (one commit)
            self._pending, self._pending_position = [], None
            con.execute("BEGIN TRANSACTION")
        try:
            if not deferred and waiting[0]:
                self._execute(*merged(waiting[0]))
            segment: list[tuple[int, Unsealed, dict[str, Any]]] = []
            records: list[tuple[int, Unsealed, dict[str, Any]]] = []
            tiers: list[tuple[int, Unsealed, dict[str, Any]]] = []
            ledgers: set[str] = set()
            parsed = self.parses_changes
            whole = self._apply_whole(batch)
            touched |= whole or set()
            for pos, ev in batch if whole is None else ():
                if ev.shredded:
                    continue
                kind = EVENT_TYPES.get(ev.topic)
                if kind in governance.RECORD_EVENTS:  # rows of their own only
                    records.append((pos, ev, _body(ev)))
                    continue
                if kind in governance.TIER_EVENTS:  # after the version rows before them
                    touched |= self._apply_changes(segment)
                    segment = []
                    tiers.append((pos, ev, _body(ev)))
                    self._rewrote = True
                    continue
                if tiers:
                    touched |= governance.apply_tiers(con, tiers)
                    tiers = []
                if kind in ROW_REWRITES:
                    touched |= self._apply_changes(segment)
                    segment = []
                    ledgers |= governance.apply_records(con, records)  # a purge drops them
                    records = []
                    touched |= self._rewrite(kind, _body(ev))
                    self._rewrote = True
                else:  # (the bulk projector decodes a segment's bodies itself, together)
                    segment.append((pos, ev, _body(ev) if parsed else _UNPARSED))
            touched |= self._apply_changes(segment)
            self._rewrote = self._rewrote or bool(tiers)
            touched |= governance.apply_tiers(con, tiers)
            ledgers |= governance.apply_records(con, records)
            self._note_rewritten_shards(touched)
            if self._staged is not None:
                self._pending.extend(self._staged)
                self._pending_position = position
            else:
                self._track(position)
                con.execute("COMMIT")
        except BaseException:
            if self._staged is None:
                con.execute("ROLLBACK")
                governance.rolled_back(con)
                self._pending, self._pending_position = waiting  # still to run
            self.ledger_touched = set()
            raise
        finally:
            self._staged = None
        self.ledger_touched = ledgers
        return touched

    def _apply_whole(self, batch: Sequence[tuple[int, Unsealed]]) -> set[str] | None:
        """Apply ``batch`` as one segment of changes when it is one (no record, tier move,
        rewrite or shredded event), without the per-event dispatch below; None: not done
        here (this projector always dispatches event by event)."""
        return None

    def _note_rewritten_shards(self, touched: set[str]) -> None:
        """Shards of the facts a rewrite or tier move changed (changes name theirs from
        their content, :meth:`_apply_changes`); purged facts are in :attr:`removed`."""
        rewritten = touched - self._shard_known - self._purged  # purged: in ``removed``
        self._shard_known = set()
        if rewritten:
            self.dirty_shards.update(int(r[0]) for r in self.con.execute(
                "SELECT DISTINCT shard FROM fact_versions WHERE fact_id IN "
                "(SELECT unnest(?::VARCHAR[]))", [sorted(rewritten)]).fetchall())

    # row rewrites -------------------------------------------------------------------------

    def _rewrite(self, kind: type[DomainEvent], body: dict[str, Any]) -> set[str]:
        con = self.con
        if kind is FactMasked:
            con.execute("UPDATE fact_versions SET value = ?, text = ?, mention = NULL, "
                        "source = NULL, masked = true WHERE fact_id = ?",
                        [MASKED_VALUE, MASKED_TEXT, body["fact_id"]])
            return {body["fact_id"]}
        if kind is FactUnmasked:
            for content in body["contents"]:
                con.execute(
                    "UPDATE fact_versions SET value = ?, text = ?, mention = ?, source = ?, "
                    "masked = false WHERE fact_id = ? AND content_rev = ?",
                    [_dumps(content.get("value")), content.get("text"),
                     content.get("mention"), content.get("source"), body["fact_id"],
                     int(content.get("rev", 0))])
            return {body["fact_id"]}
        ids = list(body["fact_ids"])
        if not ids:
            return set()
        # One statement, through the fact_id index: the rows go and say which shard they
        # were in (a SELECT of the shards, then the DELETE, cost ≈ 0.7 ms more).
        where, params = ids_in("fact_id", ids)
        for shard, fact_id in con.execute(
                f"DELETE FROM fact_versions WHERE {where} RETURNING shard, fact_id",
                params).fetchall():
            self.removed.setdefault(int(shard), set()).add(fact_id)
        self._purged.update(ids)
        governance.forget(con, ids)
        return set(ids)

    # fact changes -------------------------------------------------------------------------

    def _latest_from_db(self, fact_ids: list[str]) -> dict[str, Carried]:
        if not fact_ids:
            return {}
        self.con.register("_wanted", pa.table({"fact_id": pa.array(fact_ids, pa.string())}))
        try:
            rows = self.con.sql(_SELECT_LATEST).to_arrow_table().to_pylist()
        finally:
            self.con.unregister("_wanted")
        return {r["fact_id"]: (tuple(r[c] for c in CONTENT), r["superseded_by"],
                               r["verified_at"], r["masked"], r["tier"]) for r in rows}

    def _latest(self, fact_ids: list[str]) -> dict[str, Carried]:
        """The facts' latest beliefs: from ``latest_source`` for the batch's first segment
        (later ones must see the rows earlier segments wrote), else from DuckDB."""
        if not fact_ids:
            return {}
        if (self.latest_source is not None and self._since is not None
                and not self._segments and not self._rewrote):
            found = self.latest_source(fact_ids, self._since)
            if found is not None:
                return found
        if self._staged is not None:
            self.flush()  # a deferred batch reads DuckDB: the rows deferred before it first
        return self._latest_from_db(fact_ids)

    def _apply_changes(self, batch: Sequence[tuple[int, Unsealed, dict[str, Any]]]) -> set[str]:
        if not batch:
            return set()
        needed: set[str] = set()
        created: set[str] = set()
        for _, _, body in batch:
            for ch in body["changes"] if body else ():
                content = ch.get("content")
                if content is not None and not content.get("rev"):
                    created.add(ch["fact_id"])  # a new fact: nothing of it can be in the table
                elif ch["fact_id"] not in created:
                    needed.add(ch["fact_id"])
        latest = self._latest(sorted(needed))
        in_db = set(latest)
        rows = _Rows()
        open_rows: dict[str, range] = {}
        closes: dict[str, int] = {}
        final_state: dict[str, str] = {}
        version_id, recorded_until = rows.version_id, rows.recorded_until
        add_version, add_until = version_id.append, recorded_until.append
        add_from, add_to = rows.valid_from.append, rows.valid_until.append
        add_fact, add_at = rows.fact_id.append, rows.recorded_at.append
        add_by, add_verified = rows.superseded_by.append, rows.verified_at.append
        add_state, add_masked = rows.state.append, rows.masked.append
        add_tier = rows.tier.append
        add_position, add_content = rows.position.append, rows.contents.append

        for pos, ev, body in batch:
            at = ev.recorded_at
            for k, ch in enumerate(body["changes"] if body else ()):
                fid = ch["fact_id"]
                content = ch.get("content")
                prev = latest.get(fid)
                if content is not None:
                    cont = _content(content, ev.stream_id)
                    if prev is None:
                        superseded_by, verified_at, masked, tier = None, None, False, NEW_TIER
                    else:
                        _, superseded_by, verified_at, masked, tier = prev
                        if masked:
                            cont = _masked(cont)
                elif prev is None:
                    continue  # the fact's chain was purged
                else:
                    cont, superseded_by, verified_at, masked, tier = prev
                state = ch["state"]
                changed = ch.get("superseded_by")
                if changed is not None:
                    superseded_by = changed
                changed = ch.get("verified_at")
                if changed is not None:
                    verified_at = changed
                earlier = open_rows.get(fid)
                if earlier is not None:
                    for j in earlier:
                        recorded_until[j] = at
                elif fid in in_db and fid not in closes:
                    closes[fid] = at
                first = len(version_id)
                for i, (start, end) in enumerate(ch["portions"]):
                    add_version(f"{pos}.{k}.{i}")
                    add_from(start)
                    add_to(end)
                    add_fact(fid)
                    add_at(at)
                    add_until(None)
                    add_by(superseded_by)
                    add_verified(verified_at)
                    add_state(state)
                    add_masked(masked)
                    add_tier(tier)
                    add_position(pos)
                    add_content(cont)
                open_rows[fid] = range(first, len(version_id))
                latest[fid] = (cont, superseded_by, verified_at, masked, tier)
                final_state[fid] = state

        table = rows.table(final_state) if rows.version_id else None
        states = {f: s for f, s in final_state.items() if f in in_db}
        for fid in final_state:
            content = latest[fid][0]
            self.dirty_shards.add(shard_of(tenant_entity(content[0], content[1]),
                                           content[_CHAIN]))
        self._shard_known |= final_state.keys()
        self._write(table, closes, states)
        self._segments.append((table, closes, states, created))
        return set(final_state)

    def _write(self, rows: pa.Table | None, closes: dict[str, int],
               states: dict[str, str]) -> None:
        if self._staged is not None:  # a deferred batch: written at flush()
            self._staged.append((rows, closes, states))
            return
        self._execute(rows, closes, states)

    def _execute(self, rows: pa.Table | None, closes: Mapping[str, int | None],
                 states: dict[str, str]) -> None:
        con = self.con
        groups: dict[tuple[int | None, str], list[str]] = {}
        for fid, state in states.items():
            groups.setdefault((closes.get(fid), state), []).append(fid)
        if groups and len(groups) <= POINT_UPDATES:
            for (at, state), ids in groups.items():  # through the fact_id index
                con.execute("UPDATE fact_versions SET recorded_until = coalesce("
                            "recorded_until, make_timestamptz(?::BIGINT)), present_state = ? "
                            "WHERE fact_id IN (SELECT unnest(?::VARCHAR[])) AND "
                            "(recorded_until IS NULL OR present_state <> ?)",
                            [at, state, ids, state])
        elif states:  # the facts already in the table (each also in ``closes``)
            # One statement: open rows are closed, and every row takes the present state.
            update = ("UPDATE fact_versions SET recorded_until = CASE WHEN "
                      "fact_versions.recorded_until IS NULL THEN c.at ELSE "
                      "fact_versions.recorded_until END, present_state = c.state FROM {} c "
                      "WHERE fact_versions.fact_id = c.fact_id AND (fact_versions."
                      "recorded_until IS NULL OR fact_versions.present_state <> c.state)")
            ids = list(states)
            if len(ids) <= SMALL_BATCH:
                con.execute(update.format(
                    "(SELECT unnest(?::VARCHAR[]) AS fact_id, make_timestamptz(unnest("
                    "?::BIGINT[])) AS at, unnest(?::VARCHAR[]) AS state)"),
                    [ids, [closes.get(f) for f in ids], [states[f] for f in ids]])
            else:
                con.register("_closes", pa.table({
                    "fact_id": pa.array(ids, pa.string()),
                    "at": pa.array([closes.get(f) for f in ids], TS),
                    "state": pa.array([states[f] for f in ids], pa.string()),
                }))
                try:
                    con.execute(update.format("_closes"))
                finally:
                    con.unregister("_closes")
        if rows is not None:
            con.register("_rows", rows)
            con.execute("INSERT INTO fact_versions SELECT * FROM _rows")
            con.unregister("_rows")


def merged(pending: Sequence[Write]) -> tuple[pa.Table | None, dict[str, int | None],
                                              dict[str, str]]:
    """Deferred writes as one write that does what running them in turn does.

    Each write closes and restates the rows already in the table (``recorded_until`` is
    set only where it is NULL, so a fact's first close sticks, and its last state is its
    present state), then inserts its rows. A write's closes and states must also reach
    the rows that earlier deferred writes insert, which are not in the table yet: walking
    the writes backwards, each one's rows are restated with what the writes after it do,
    then its own closes and states are folded in (one pass, however many writes wait)."""
    tables: list[pa.Table] = []
    closes: dict[str, int | None] = {}  # a fact's first close, over the writes walked
    states: dict[str, str] = {}  # its last state
    for rows, write_closes, write_states in reversed(pending):
        if rows is not None:
            tables.append(_restated(rows, closes, states))
        for fid, state in write_states.items():
            states.setdefault(fid, state)
            if write_closes.get(fid) is not None:
                closes[fid] = write_closes[fid]
    tables.reverse()
    return (pa.concat_tables(tables) if tables else None), closes, states


def _restated(rows: pa.Table, closes: Mapping[str, int | None],
              states: dict[str, str]) -> pa.Table:
    """``rows`` after an UPDATE with these closes and states (see :meth:`_execute`)."""
    if not states:  # the last waiting write: nothing after it restates its rows
        return rows
    ids = rows.column("fact_id").to_pylist()
    if states.keys().isdisjoint(ids):
        return rows
    until = rows.column("recorded_until")
    at = pa.array([closes.get(f) if f in states else None for f in ids], pa.int64())
    present = [states.get(f, p) for f, p in zip(ids, rows.column("present_state").to_pylist(),
                                                strict=True)]
    rows = rows.set_column(rows.schema.get_field_index("recorded_until"), "recorded_until",
                           pc.coalesce(until, at.cast(until.type)))
    return rows.set_column(rows.schema.get_field_index("present_state"), "present_state",
                           pa.array(present, rows.schema.field("present_state").type))
