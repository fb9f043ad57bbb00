"""One handler per command: load what it names, decide (pure domain), emit, receipt.

A handler only stages events into the unit of work it is given; it never commits.
The domain's ``decide_*`` functions hold the rules; handlers hold the plumbing
(which stream, which premises, which cascade).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from memory_es.choices import Outcome
from memory_es.domain import commands as c
from memory_es.domain import control, governance
from memory_es.domain.entity import EntityState
from memory_es.domain.events import (
    AttributeDefined,
    ConsumptionRecorded,
    DeletionReceiptIssued,
    DependentLinked,
    DomainEvent,
    EntityPurged,
    FactAsserted,
    FactChainPurged,
    FactReinforced,
    FactStateChanged,
    FactSuperseded,
    FeedbackRecorded,
    NoteRecorded,
    NotesLinked,
    PreferenceDriftDetected,
    RecallJudged,
    TierChanged,
)
from memory_es.domain.lifecycle import TERMINAL_STATES
from memory_es.errors import ConflictError, InvalidInput, NotFound
from memory_es.ids import fact_id as make_fact_id
from memory_es.ids import stream_of, uuid7_str
from memory_es.models import Receipt
from memory_es.write import patterns
from memory_es.write.side import WriteSide
from memory_es.write.unit import UnitOfWork

NO_CASCADE_OPERATIONS = frozenset({"archive", "restore", "mask", "unmask", "quarantine", "release"})

Handler = Callable[[WriteSide, UnitOfWork, Any], Receipt]
H = TypeVar("H", bound=Handler)
HANDLERS: dict[type[c.Command], Handler] = {}


def handles(*kinds: type[c.Command]) -> Callable[[H], H]:
    """Register a handler for these command classes (dispatch is on the class)."""
    def register(fn: H) -> H:
        for kind in kinds:
            HANDLERS[kind] = fn
        return fn
    return register


def stage(side: WriteSide, uow: UnitOfWork, command: c.Command) -> Receipt:
    """Stage ``command``'s events into ``uow``; returns its (not yet positioned) receipt."""
    handler = HANDLERS.get(type(command))
    if handler is None:
        raise TypeError(f"no handler for {type(command).__name__}")
    return handler(side, uow, command)


# cascades ---------------------------------------------------------------------------------

def cascade(uow: UnitOfWork, st: EntityState, events: list[DomainEvent]) -> list[str]:
    """Deprecate, transitively, every derived fact whose premise changed or left."""
    work = control.changed_premises([
        e for e in events
        if not (isinstance(e, FactStateChanged) and e.operation in NO_CASCADE_OPERATIONS)
    ], st)
    if not work:  # the common case: no changed fact has dependents
        return []
    touched: list[str] = []
    seen: set[str] = set()
    while work:
        premise, dependent = work.pop()
        if dependent in seen:
            continue
        seen.add(dependent)
        dst = uow.state(stream_of(dependent))
        deprecations = control.decide_deprecate(dst, dependent, premise)
        uow.emit_all(dst, deprecations)
        if deprecations:
            touched.append(dependent)
            work.extend(control.changed_premises(deprecations, dst))
    patterns.regenerate(uow, touched)  # SPEC §12.6: a deprecated pattern is rewritten
    return touched


def _changed(events: list[DomainEvent]) -> list[str]:
    return list(dict.fromkeys(ch.fact_id for e in events for ch in e.changes))


# facts ------------------------------------------------------------------------------------

@handles(c.AssertFact, c.Supersede)
def assert_fact(side: WriteSide, uow: UnitOfWork, cmd: c.AssertFact) -> Receipt:
    if cmd.entity is None:
        sid = side.system_stream("unresolved", cmd.tenant)
        nf = cmd.new_fact(uow.recorded_at)
    else:
        sid, canonical = uow.resolve(cmd.tenant, cmd.entity)
        nf = cmd.new_fact(uow.recorded_at, canonical)
    st = uow.state(sid)
    attr = uow.attribute(nf.tenant, nf.attribute)
    for premise in nf.derived_from:
        fact = uow.state(stream_of(premise)).get(premise)
        if fact is None or fact.content["tenant"] != nf.tenant:
            raise NotFound(f"premise {premise} not found in tenant {nf.tenant}")
        if fact.state in TERMINAL_STATES:
            raise InvalidInput(f"premise {premise} is {fact.state} and cannot support a fact")
    new_fact_id = make_fact_id(sid, st.next_seq)
    supersede = isinstance(cmd, c.Supersede)
    new_chain = functools.partial(uow.new_chain, sid)
    if not supersede:  # the common case, a fact its slot has nothing overlapping
        alone = control.new_fact_alone(st, nf, attr, new_fact_id, new_chain)
        if alone is not None:
            first = uow.emit_body(st, FactAsserted.TOPIC, alone)
            return uow.receipt(cmd.OP, nf.tenant, first, [new_fact_id])
    if supersede:
        body = control.supersede_body(st, nf, attr, fact_id=new_fact_id,
                                      new_chain=new_chain, reason=cmd.reason)
        if not nf.derived_from and not control.ends_premises(st, body):  # nothing to cascade
            first = uow.emit_body(st, FactSuperseded.TOPIC, body)
            ended = [ch["fact_id"] for ch in body["changes"][:-1]]
            return uow.receipt(cmd.OP, nf.tenant, first, [new_fact_id, *ended])
        events: list[DomainEvent] = [FactSuperseded.model_validate(body)]
    else:
        events = control.decide_assert(st, nf, attr, now=uow.recorded_at, fact_id=new_fact_id,
                                       new_chain=new_chain, new_conflict=uuid7_str)
    first = uow.emit_all(st, events)[0]
    changed = [ch.fact_id for e in events for ch in e.changes]
    created = new_fact_id in changed
    if created:
        for premise in nf.derived_from:
            pst = uow.state(stream_of(premise))
            uow.emit(pst, DependentLinked(tenant=nf.tenant, premise=premise,
                                          dependent=new_fact_id), pst.facts[premise].chain_id)
        if len(events) == 1 and len(changed) == 1:  # a new fact alone: nothing to cascade
            return uow.receipt(cmd.OP, nf.tenant, first, changed)
    cascade(uow, st, events)
    conflict_id = events[-1].__dict__.get("conflict_id")  # a field, when the event has one
    outcome = (Outcome.REINFORCED if isinstance(events[0], FactReinforced)
               else Outcome.CONFLICTED if conflict_id else Outcome.APPLIED)
    touched = [new_fact_id] if created else []
    touched += [fid for fid in changed if fid != new_fact_id]
    return uow.receipt(cmd.OP, nf.tenant, first, touched, outcome=outcome,
                       conflict_id=conflict_id)


def _on_fact(uow: UnitOfWork, op: str, fact_id: str, bound: str | None,
             decide: Callable[[EntityState], list[DomainEvent]]) -> Receipt:
    """``bound``: the tenant the caller is bound to; another tenant's fact is not found
    (the same error as a missing one, so an id reveals nothing across tenants)."""
    st = uow.state(stream_of(fact_id))
    fact = st.get(fact_id)
    tenant = None if fact is None else str(fact.content["tenant"])
    if fact is None or tenant is None or (bound is not None and tenant != bound):
        raise NotFound(f"fact {fact_id} not found" + (f" in tenant {bound}" if bound else ""))
    events = decide(st)
    indexes = uow.emit_all(st, events)
    cascade(uow, st, events)
    return uow.receipt(op, tenant, indexes[0], _changed(events) or [fact_id])


@handles(c.Correct)
def correct(side: WriteSide, uow: UnitOfWork, cmd: c.Correct) -> Receipt:
    return _on_fact(uow, cmd.OP, cmd.fact_id, cmd.tenant, lambda st: control.decide_correct(
        st, cmd.fact_id, cmd.value, cmd.text, cmd.reason))


@handles(c.Decay)
def decay(side: WriteSide, uow: UnitOfWork, cmd: c.Decay) -> Receipt:
    until = uow.recorded_at if cmd.valid_until is None else cmd.valid_until
    return _on_fact(uow, cmd.OP, cmd.fact_id, cmd.tenant,
                    lambda st: control.decide_decay(st, cmd.fact_id, until, cmd.reason))


@handles(c.ForgetFact, c.Archive)
def change_state(side: WriteSide, uow: UnitOfWork, cmd: c.ForgetFact | c.Archive) -> Receipt:
    return _on_fact(uow, cmd.OP, cmd.fact_id, cmd.tenant, lambda st: control.decide_state_change(
        st, cmd.fact_id, cmd.TARGET, cmd.OP, cmd.reason))


@handles(c.Restore)
def restore(side: WriteSide, uow: UnitOfWork, cmd: c.Restore) -> Receipt:
    return _on_fact(uow, cmd.OP, cmd.fact_id, cmd.tenant,
                    lambda st: control.decide_restore(st, cmd.fact_id, cmd.reason))


@handles(c.Mask)
def mask(side: WriteSide, uow: UnitOfWork, cmd: c.Mask) -> Receipt:
    return _on_fact(uow, cmd.OP, cmd.fact_id, cmd.tenant,
                    lambda st: control.decide_mask(st, cmd.fact_id, cmd.reason))


@handles(c.Unmask)
def unmask(side: WriteSide, uow: UnitOfWork, cmd: c.Unmask) -> Receipt:
    return _on_fact(uow, cmd.OP, cmd.fact_id, cmd.tenant,
                    lambda st: control.decide_unmask(st, cmd.fact_id, cmd.reason))


@handles(c.ResolveConflict)
def resolve_conflict(side: WriteSide, uow: UnitOfWork, cmd: c.ResolveConflict) -> Receipt:
    return _on_fact(uow, cmd.OP, cmd.fact_id, cmd.tenant, lambda st: control.decide_resolve(
        st, cmd.conflict_id, cmd.fact_id, cmd.reason))


# entities ---------------------------------------------------------------------------------

def _on_entity(side: WriteSide, uow: UnitOfWork, op: str, tenant: str, entity: str,
               decide: Callable[[EntityState, str], list[DomainEvent]]) -> Receipt:
    sid, canonical = side.resolve(tenant, entity)
    st = uow.state(sid)
    events = decide(st, canonical)
    indexes = uow.emit_all(st, events)
    cascade(uow, st, events)
    touched = _changed(events)
    return uow.receipt(op, tenant, indexes[0], touched,
                       outcome=Outcome.APPLIED if touched else Outcome.NOOP)


@handles(c.Retract)
def retract(side: WriteSide, uow: UnitOfWork, cmd: c.Retract) -> Receipt:
    return _on_entity(side, uow, cmd.OP, cmd.tenant, cmd.entity, lambda st, _e: control.
                      decide_retract(st, cmd.tenant, cmd.attribute, cmd.valid_from,
                                     cmd.valid_until, cmd.reason, owner=cmd.agent))


@handles(c.ForgetEntity)
def forget_entity(side: WriteSide, uow: UnitOfWork, cmd: c.ForgetEntity) -> Receipt:
    return _on_entity(side, uow, cmd.OP, cmd.tenant, cmd.entity, lambda st, canonical: control.
                      decide_forget_entity(st, cmd.tenant, canonical, cmd.reason))


@handles(c.Alias)
def alias(side: WriteSide, uow: UnitOfWork, cmd: c.Alias) -> Receipt:
    sid, canonical = side.resolve(cmd.tenant, cmd.canonical_id)
    side.bind_alias(cmd.tenant, cmd.surface, sid)
    st = uow.state(sid)
    indexes = uow.emit_all(st, control.decide_alias(cmd.tenant, cmd.surface, canonical))
    return uow.receipt(cmd.OP, cmd.tenant, indexes[0], [])


@handles(c.DefineAttribute)
def define_attribute(side: WriteSide, uow: UnitOfWork, cmd: c.DefineAttribute) -> Receipt:
    d = cmd.definition
    st = uow.state(side.system_stream("schema", cmd.tenant))
    idx = uow.emit(st, AttributeDefined(
        tenant=cmd.tenant, attribute=cmd.attribute, cardinality=d.cardinality,
        volatility=d.volatility, ttl_seconds=d.ttl_seconds, classification=d.classification))
    uow.define(cmd.tenant, cmd.attribute, d)
    return uow.receipt(cmd.OP, cmd.tenant, idx, [])


# erasure and audit records ----------------------------------------------------------------

@handles(c.PurgeScope)
def purge(side: WriteSide, uow: UnitOfWork, cmd: c.PurgeScope) -> Receipt:
    st = uow.state(cmd.stream_id)
    event: DomainEvent = (
        EntityPurged(tenant=cmd.tenant, fact_ids=cmd.fact_ids, key_ids=cmd.key_ids,
                     motive=cmd.motive)
        if cmd.chain_id is None else
        FactChainPurged(tenant=cmd.tenant, chain_id=cmd.chain_id, fact_ids=cmd.fact_ids,
                        key_ids=cmd.key_ids, motive=cmd.motive))
    first = uow.emit(st, event)
    shred = [d for d in cmd.derived if patterns.is_pattern(uow.state(stream_of(d)).get(d))]
    for dependent in cmd.derived:
        if dependent in shred:
            continue
        dst = uow.state(stream_of(dependent))
        uow.emit_all(dst, control.decide_deprecate(dst, dependent, "purged premise"))
    patterns.shred_and_regenerate(side, uow, cmd.tenant, shred, cmd.motive)  # SPEC §12.6
    # The keys are destroyed after the commit; a crash in between is finished on open.
    side.keys.mark_pending(cmd.stream_id, st.version, list(cmd.key_ids), cmd.chain_id is None)
    return uow.receipt(cmd.op, cmd.tenant, first, list(cmd.fact_ids))


@handles(c.IssueDeletionReceipt)
def deletion_receipt(side: WriteSide, uow: UnitOfWork, cmd: c.IssueDeletionReceipt) -> Receipt:
    st = uow.state(side.system_stream("audit", "*"))
    idx = uow.emit(st, DeletionReceiptIssued(tenant=cmd.tenant, receipt=cmd.receipt))
    return uow.receipt(cmd.OP, cmd.tenant, idx, [])


@handles(c.RecordServed)
def record_served(side: WriteSide, uow: UnitOfWork, cmd: c.RecordServed) -> Receipt:
    st = uow.state(side.system_stream("consumption", cmd.tenant))
    idx = uow.emit(st, ConsumptionRecorded(
        tenant=cmd.tenant, caller=cmd.caller, query_digest=cmd.query_digest,
        valid_at=cmd.valid_at, known_at=cmd.known_at, fact_ids=cmd.fact_ids,
        version_ids=cmd.version_ids, states=cmd.states, recall_id=cmd.recall_id))
    return uow.receipt(cmd.OP, cmd.tenant, idx, [])


# governance (SPEC §12.1-12.4) -------------------------------------------------------------
# Tier moves, judgements, feedback and drift records hold ids, names and numbers only: they
# go, in clear, to the tenant's governance stream (one stream, so two sweeps racing on it
# conflict instead of both moving a fact). Staleness is a lifecycle change of the fact
# itself and goes to the fact's own stream, guarded by its aggregate.

@handles(c.ApplySweep)
def sweep(side: WriteSide, uow: UnitOfWork, cmd: c.ApplySweep) -> Receipt:
    gst = uow.state(side.system_stream("governance", cmd.tenant))
    first: int | None = None
    touched: list[str] = []
    for move in cmd.moves:  # built from the validated plan: no second validation per move
        idx = uow.emit(gst, TierChanged.model_construct(
            tenant=cmd.tenant, fact_id=move.fact_id, from_tier=move.from_tier,
            to_tier=move.to_tier, reason=move.reason))
        first = idx if first is None else first
        touched.append(move.fact_id)
    for fact_id, reason in cmd.stale:
        st = uow.state(stream_of(fact_id))
        indexes = uow.emit_all(st, governance.decide_stale(st, fact_id, cmd.tenant, reason))
        if indexes:
            first = indexes[0] if first is None else first
            touched.append(fact_id)
    if first is None:
        raise InvalidInput("nothing to sweep")
    return uow.receipt(cmd.OP, cmd.tenant, first, list(dict.fromkeys(touched)))


@handles(c.JudgeRecall)
def judge(side: WriteSide, uow: UnitOfWork, cmd: c.JudgeRecall) -> Receipt:
    gst = uow.state(side.system_stream("governance", cmd.tenant))
    idx = uow.emit(gst, RecallJudged(tenant=cmd.tenant, recall_id=cmd.recall_id,
                                     helpful=cmd.helpful, misleading=cmd.misleading))
    return uow.receipt(cmd.OP, cmd.tenant, idx, [*cmd.helpful, *cmd.misleading])


def _tenant_fact(uow: UnitOfWork, fact_id: str, tenant: str | None) -> str:
    fact = uow.state(stream_of(fact_id)).get(fact_id)
    if fact is None or tenant is None or fact.content.get("tenant") != tenant:
        raise NotFound(f"fact {fact_id} not found in tenant {tenant}")
    return tenant


@handles(c.RecordFeedback)
def feedback(side: WriteSide, uow: UnitOfWork, cmd: c.RecordFeedback) -> Receipt:
    tenant = _tenant_fact(uow, cmd.fact_id, cmd.tenant)
    gst = uow.state(side.system_stream("governance", tenant))
    idx = uow.emit(gst, FeedbackRecorded(tenant=tenant, fact_id=cmd.fact_id,
                                         outcome=cmd.outcome, reason=cmd.reason))
    return uow.receipt(cmd.OP, tenant, idx, [cmd.fact_id])


@handles(c.RecordDrift)
def preference_drift(side: WriteSide, uow: UnitOfWork, cmd: c.RecordDrift) -> Receipt:
    tenant = _tenant_fact(uow, cmd.fact_id, cmd.tenant)
    gst = uow.state(side.system_stream("governance", tenant))
    idx = uow.emit(gst, PreferenceDriftDetected(
        tenant=tenant, fact_id=cmd.fact_id, short_mean=cmd.short_mean,
        long_mean=cmd.long_mean, short_outcomes=cmd.short_outcomes,
        long_outcomes=cmd.long_outcomes, short_days=cmd.short_days,
        long_days=cmd.long_days, reason=cmd.reason))
    return uow.receipt(cmd.OP, tenant, idx, [cmd.fact_id])


# notes (SPEC §12.5-12.6) ------------------------------------------------------------------
# A note is a fact (``note.<category>``, cardinality many) written through the fact
# handlers; its gate decision and its links go, in clear (ids and numbers), to the tenant's
# notes stream in the same unit, so one commit holds the note and its links.

@handles(c.WriteNote)
def note(side: WriteSide, uow: UnitOfWork, cmd: c.WriteNote) -> Receipt:
    attribute = f"note.{cmd.category}"
    mark = len(uow.receipts)
    first: int | None = None
    if uow.attribute(cmd.tenant, attribute).cardinality != "many":
        define_attribute(side, uow, c.DefineAttribute(
            tenant=cmd.tenant, attribute=attribute, cardinality="many"))
        first = mark_first(uow, mark)
    if cmd.outcome == "applied":  # always a new fact: the gates did the dedup, per writer
        written = patterns.new_note(side, uow, cmd.tenant, cmd.entity, attribute, cmd.text,
                                    cmd.importance, agent=cmd.agent, shared=cmd.shared)
    else:
        target = uow.state(stream_of(str(cmd.target))).get(str(cmd.target))
        if target is None or not target.retrievable or target.masked:
            raise ConflictError("the note it matched changed meanwhile; write it again")
        if cmd.outcome == "duplicate":  # reinforced in its own slot (SPEC §12.7)
            written = assert_fact(side, uow, c.AssertFact(
                tenant=cmd.tenant, entity=cmd.entity, attribute=attribute,
                value=target.content["value"], text=target.content["text"],
                importance=cmd.importance, source="note", agent=target.agent,
                shared=target.shared))
        else:
            written = correct(side, uow, c.Correct(
                fact_id=str(cmd.target), tenant=cmd.tenant,
                value=cmd.text, text=cmd.text, reason="note merged (dedup 0.85-0.95)"))
    first = mark_first(uow, mark) if first is None else first
    fact_id = str(cmd.target) if cmd.target is not None else str(written.fact_id)
    del uow.receipts[mark:]
    nst = uow.state(side.system_stream("notes", cmd.tenant))
    uow.emit(nst, NoteRecorded(
        tenant=cmd.tenant, fact_id=fact_id, category=cmd.category, outcome=cmd.outcome,
        gated=cmd.gated, score=cmd.score, similarity=cmd.similarity, agent=cmd.agent,
        shared=cmd.shared))
    if cmd.links or cmd.evicted:
        uow.emit(nst, NotesLinked(tenant=cmd.tenant, fact_id=fact_id, links=cmd.links,
                                  evicted=cmd.evicted))
    return uow.receipt(cmd.OP, cmd.tenant, first, [fact_id, *written.fact_ids[1:]],
                       outcome=cmd.outcome)


def mark_first(uow: UnitOfWork, mark: int) -> int:
    """Index of the first event staged by the receipts after ``mark``."""
    return uow.first_of(mark)
