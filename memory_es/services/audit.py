"""Audit reads: what the store knew at any moment, from the log alone (SPEC §1, §11).

``replay`` never reads the live projections: it folds the whole log into a scratch
DuckDB database with the same projection code, checking each stream's hash chain on
the way, then selects the belief at the requested transaction time. Comparing it
with ``as_of`` from the live views is therefore an independent check. ``history``
lists every event that touched a fact's drift chain; ``served`` answers who was given
a fact and when, from a hash-chained consumption log that holds no plaintext.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pyarrow as pa
from pydantic import BaseModel, ConfigDict, Field

from memory_es.clock import from_micros, optional_datetime, to_micros
from memory_es.crypto.mapper import Unsealed, chain_hash
from memory_es.domain.commands import RecordServed
from memory_es.domain.events import EVENT_TYPES
from memory_es.domain.governance import DEFAULT, GovernanceConfig
from memory_es.errors import IntegrityViolation, NotFound
from memory_es.ids import stream_of
from memory_es.models import Fact
from memory_es.runtime import Runtime
from memory_es.services.governance import replay_columns
from projections import governance as governance_views
from projections.catchup import Progress
from projections.connection import arrow, connect
from projections.schema import DDL
from projections.versions import VersionProjector

SHREDDED = "[shredded]"


class HistoryEntry(BaseModel):
    """One event in a fact's history (``history`` / ``memory-es blame``)."""

    model_config = ConfigDict(frozen=True)

    event_id: str
    position: int | None
    op: str
    recorded_at: datetime
    fact_ids: list[str] = Field(default_factory=list)
    valid: list[tuple[datetime, datetime | None]] = Field(default_factory=list)
    state: str | None = None
    value: Any = None
    asserted_by: str | None = None
    source: str | None = None
    reason: str | None = None
    interpretation: dict[str, Any] | None = None
    shredded: bool = False


class ServedRecord(BaseModel):
    """One consumption receipt: what was served, to whom, when (no plaintext)."""

    model_config = ConfigDict(frozen=True)

    event_id: str
    served_at: datetime
    caller: str | None
    tenant: str
    query_digest: str
    valid_at: datetime | None
    known_at: datetime | None
    fact_ids: list[str]
    version_ids: list[str]


def replay(rt: Runtime, known_at: datetime, valid_at: datetime | None = None,
           progress: Progress | None = None,
           governance: GovernanceConfig = DEFAULT) -> pa.Table:
    """Belief at transaction time ``known_at`` rebuilt from the log alone (Arrow table),
    with each fact's tier, utility ledger and preference posterior as they stood then."""
    k = to_micros(known_at, "known_at")
    v = None if valid_at is None else to_micros(valid_at, "valid_at")
    log = rt.log
    mapper = rt.side.mapper
    con = connect(":memory:")
    for ddl in DDL:
        con.execute(ddl)
    projector = VersionProjector(con)
    heads: dict[str, bytes] = {}
    head = log.recorder.max_notification_id() or 0
    position = 0
    while position < head:
        notes = log.recorder.select_notifications(start=position + 1, limit=5000, stop=head)
        if not notes:
            break
        batch: list[tuple[int, Unsealed]] = []
        for n in notes:
            opened = mapper.open(n)
            sid = opened.stream_id
            if opened.prev_hash != (heads.get(sid) or bytes(32)):
                raise IntegrityViolation(
                    f"replay: hash chain broken at {sid}:{n.originator_version}")
            heads[sid] = chain_hash(heads.get(sid, b""), n)
            batch.append((n.id, opened))
        position = notes[-1].id
        projector.apply(batch, position)
        if progress is not None:
            progress(position, head)
    kt = f"make_timestamptz({k}::BIGINT)"
    where = f"recorded_at <= {kt} AND (recorded_until IS NULL OR {kt} < recorded_until)"
    if v is not None:
        vt = f"make_timestamptz({v}::BIGINT)"
        where += f" AND valid_from <= {vt} AND (valid_until IS NULL OR {vt} < valid_until)"
    try:
        table = arrow(con, f"SELECT * EXCLUDE (stream_id, position) FROM fact_versions "
                           f"WHERE {where} ORDER BY tenant, entity, attribute, valid_from, fact_id")
        return replay_columns(con, table, k, governance)
    finally:
        con.close()


def history(rt: Runtime, tenant: str, fact_id: str) -> list[HistoryEntry]:
    """Every event that touched the fact or its drift chain, oldest first."""
    sid = stream_of(fact_id)
    ws = rt.side
    state = ws.load(sid)
    fact = state.get(fact_id)
    if fact is None:
        return _purged_history(rt, tenant, sid, fact_id)
    if state.tenant != tenant:
        raise NotFound(f"fact {fact_id} not found in tenant {tenant}")
    chain = {f.fact_id for f in state.facts.values() if f.chain_id == fact.chain_id}
    entries: list[HistoryEntry] = []
    for stored in rt.log.recorder.select_events(sid):
        opened = ws.mapper.open(stored)
        event_id = f"{sid}:{stored.originator_version}"
        op = event_name(stored.topic)
        at = from_micros(opened.recorded_at)
        body = opened.body
        if body is None:
            if opened.kid.endswith(fact.chain_id) or opened.kid.startswith("e/"):
                entries.append(HistoryEntry(event_id=event_id, position=None, op=op,
                                            recorded_at=at, shredded=True, value=SHREDDED))
            continue
        changes = [c for c in body.get("changes", ()) if c["fact_id"] in chain]
        named = {body.get(n) for n in ("fact_id", "premise", "dependent")} & chain
        if not changes and not named:
            continue
        content = next((c["content"] for c in changes if c.get("content")), None)
        entries.append(HistoryEntry(
            event_id=event_id, position=rt.log.position_of(sid, stored.originator_version),
            op=op, recorded_at=at,
            fact_ids=sorted({c["fact_id"] for c in changes} | {str(n) for n in named}),
            valid=[(from_micros(s), optional_datetime(e))
                   for c in changes for s, e in c["portions"]],
            state=changes[-1]["state"] if changes else None,
            value=(SHREDDED if content is None else content.get("value")),
            asserted_by=content.get("asserted_by") if content else None,
            source=content.get("source") if content else None,
            reason=body.get("reason"), interpretation=body.get("interpretation")))
    # tier moves, judgements and feedback live in the tenant's governance stream: read
    # them through its projection (ids, names and numbers only)
    rt.catch_up()
    governed = [HistoryEntry(
        event_id=g["event_id"], position=g["position"], op=g["op"],
        recorded_at=from_micros(g["recorded_at"]), fact_ids=g["fact_ids"], state=g["state"],
        reason=g["reason"]) for g in governance_views.fact_events(rt.views.con, chain)]
    if governed:
        entries = sorted([*entries, *governed], key=lambda e: (e.recorded_at, e.position or 0))
    return entries


def _purged_history(rt: Runtime, tenant: str, sid: str,
                    fact_id: str) -> list[HistoryEntry]:
    """A purged fact's history: its stream's events, shredded ones as typed placeholders.

    Which shredded event touched which fact cannot be read any more (that is the point);
    the purge event, kept in clear, names the fact and proves when it was erased."""
    ws = rt.side
    entries: list[HistoryEntry] = []
    purged = False
    for stored in rt.log.recorder.select_events(sid):
        opened = ws.mapper.open(stored)
        body = opened.body
        op = event_name(stored.topic)
        common = {"event_id": f"{sid}:{stored.originator_version}",
                  "recorded_at": from_micros(opened.recorded_at), "op": op}
        if body is None:
            entries.append(HistoryEntry(position=None, shredded=True, value=SHREDDED,
                                        **common))
        elif fact_id in body.get("fact_ids", ()) and body.get("tenant") == tenant:
            purged = True
            entries.append(HistoryEntry(
                position=rt.log.position_of(sid, stored.originator_version),
                fact_ids=[fact_id], state="deleted", reason=body.get("motive"), **common))
    if not purged:
        raise NotFound(f"fact {fact_id} not found in tenant {tenant}")
    return entries


def query_digest(rt: Runtime, tenant: str, query: str) -> str:
    """A keyed hash of the query text: the log proves what was asked without holding it."""
    return rt.keys.digest("query", tenant, query).hex()


def record_served(rt: Runtime, tenant: str, query: str, facts: list[Fact],
                  caller: str | None, valid_at: int | None, known_at: int | None,
                  recall_id: str | None = None) -> str:
    """Append a consumption receipt to the tenant's consumption stream (ids only). With
    ``recall_id`` the same event enters each served fact in the utility ledger as a
    neutral judgement of that recall (SPEC §12.2): one commit, no second write."""
    receipt = rt.writes.execute(RecordServed(
        tenant=tenant, caller=caller,
        query_digest=query_digest(rt, tenant, query),
        valid_at=valid_at, known_at=known_at,
        fact_ids=tuple(f.fact_id for f in facts),
        version_ids=tuple(f.version_id for f in facts),
        states=tuple(f.state for f in facts), recall_id=recall_id))
    return receipt.event_id


def served(rt: Runtime, tenant: str, since: datetime | None = None,
           fact_id: str | None = None) -> list[ServedRecord]:
    """Consumption receipts of a tenant, optionally since a time or for one fact."""
    ws = rt.side
    sid = rt.keys.lookup("consumption", tenant)
    if sid is None:
        return []
    floor = None if since is None else to_micros(since, "since")
    out: list[ServedRecord] = []
    previous = b""
    for stored in rt.log.recorder.select_events(sid):
        opened = ws.mapper.open(stored)
        if opened.prev_hash != (previous or bytes(32)):
            raise IntegrityViolation(f"consumption log broken at {sid}:{stored.originator_version}")
        previous = chain_hash(previous, stored)
        body = opened.body or {}
        if floor is not None and opened.recorded_at < floor:
            continue
        if fact_id is not None and fact_id not in body.get("fact_ids", ()):
            continue
        out.append(ServedRecord(
            event_id=f"{sid}:{stored.originator_version}",
            served_at=from_micros(opened.recorded_at), caller=body.get("caller"),
            tenant=tenant, query_digest=body["query_digest"],
            valid_at=optional_datetime(body.get("valid_at")),
            known_at=optional_datetime(body.get("known_at")),
            fact_ids=list(body["fact_ids"]), version_ids=list(body["version_ids"])))
    return out



def event_name(topic: str) -> str:
    """The event's class name, as history shows it (unknown topics as stored)."""
    kind = EVENT_TYPES.get(topic)
    return topic if kind is None else kind.__name__
