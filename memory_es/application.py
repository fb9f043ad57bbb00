"""The write side: load an entity, decide, append sealed events, return receipts.

Built on ``eventsourcing``'s recorders: several streams are appended in one atomic
``insert_events`` (``transact``), and the unique (stream, version) index is the
optimistic-concurrency guard. Aggregate folding is our own (``domain.entity``) rather
than the library's ``Aggregate`` classes: events here are pydantic models with stable
topics, and the library's per-event protocol checks cost half of ``save()`` (NOTES.md).
"""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable
from datetime import datetime
from typing import Any

from eventsourcing.persistence import IntegrityError, PersistenceError

from memory_es.clock import TransactionClock, from_micros
from memory_es.crypto.keystore import chain_key_id
from memory_es.crypto.mapper import SealingMapper, chain_hash, parse_body
from memory_es.crypto.sealing import DataKey
from memory_es.domain import control
from memory_es.domain.control import AttributeDef, NewFact
from memory_es.domain.entity import EntityState
from memory_es.domain.events import (
    AttributeDefined,
    DependentLinked,
    DomainEvent,
    FactStateChanged,
    WriteAcknowledged,
)
from memory_es.domain.lifecycle import TERMINAL_STATES
from memory_es.domain.validation import is_canonical_entity
from memory_es.errors import (
    ConcurrentWriteError,
    ConflictError,
    IntegrityViolation,
    InvalidInput,
    MemoryESError,
    NotFound,
)
from memory_es.eventlog import EventLog
from memory_es.ids import fact_id as make_fact_id
from memory_es.ids import new_stream_id, stream_of, uuid7_str
from memory_es.models import Receipt

CACHE_SIZE = 50_000
NO_CASCADE_OPERATIONS = frozenset({"archive", "restore", "mask", "unmask", "quarantine", "release"})


def _ack_stream(digest: bytes) -> str:
    return str(uuid.UUID(bytes=digest[:16]))


class UnitOfWork:
    """Everything one commit appends: touched entity states and their pending events."""

    def __init__(self, app: WriteSide, recorded_at: int) -> None:
        self.app = app
        self.recorded_at = recorded_at
        self.states: dict[str, EntityState] = {}
        self.stored: list[Any] = []
        # receipt, index of its main event, end (exclusive) of the events its operation appended
        self.receipts: list[tuple[Receipt, int, int]] = []
        self._recorded_dt: datetime | None = None  # recorded_at as a datetime, made once

    # loading ------------------------------------------------------------------------------

    def new_chain(self) -> str:
        """A new drift-chain id; its sub-key is known not to exist yet."""
        chain_id = new_id()
        self.app.keys.mark_fresh(chain_key_id(chain_id))
        return chain_id

    def state(self, stream_id: str) -> EntityState:
        st = self.states.get(stream_id)
        if st is None:
            st = self.app.load(stream_id)
            self.states[stream_id] = st
        return st

    def emit(self, st: EntityState, event: DomainEvent, chain_id: str | None = None) -> int:
        """Seal, chain and fold one event; returns its index in this unit."""
        if event.SCOPE == "none":
            key: DataKey | None = None
        elif event.SCOPE == "chain" and chain_id is not None:
            key = self.app.keys.chain_key(st.stream_id, chain_id)
        else:
            key = self.app.keys.entity_key(st.stream_id)
        payload = event.__pydantic_serializer__.to_json(event)
        version = st.version + 1
        stored = self.app.mapper.to_stored(
            st.stream_id, version, event.TOPIC, payload, self.recorded_at, st.last_hash, key)
        st.apply(event.TOPIC, parse_body(payload))
        st.version = version
        st.last_hash = chain_hash(st.last_hash, stored)
        self.stored.append(stored)
        return len(self.stored) - 1

    def emit_all(self, st: EntityState, events: list[DomainEvent]) -> list[int]:
        indexes = []
        for event in events:
            chain = _chain_of(st, event)
            indexes.append(self.emit(st, event, chain))
        return indexes

    def receipt(self, op: str, tenant: str | None, first: int, fact_ids: list[str],
                outcome: str = "applied", conflict_id: str | None = None) -> Receipt:
        ev = self.stored[first]
        if self._recorded_dt is None:
            self._recorded_dt = from_micros(self.recorded_at)
        receipt = Receipt(
            op=op, tenant=tenant, event_id=f"{ev.originator_id}:{ev.originator_version}",
            event_ids=[f"{ev.originator_id}:{ev.originator_version}"],
            fact_id=fact_ids[0] if fact_ids else None, fact_ids=fact_ids,
            position=0, recorded_at=self._recorded_dt, outcome=outcome,
            conflict_id=conflict_id,
        )
        self.receipts.append((receipt, first, len(self.stored)))
        return receipt

    def event_ids(self, first: int, end: int) -> list[str]:
        return [f"{s.originator_id}:{s.originator_version}" for s in self.stored[first:end]]

    # cascades -----------------------------------------------------------------------------

    def cascade(self, st: EntityState, events: list[DomainEvent]) -> list[str]:
        """Deprecate, transitively, every derived fact whose premise changed or left."""
        work = [
            pair for e in events
            if not (isinstance(e, FactStateChanged) and e.operation in NO_CASCADE_OPERATIONS)
            for pair in control.changed_premises([e], st)
        ]
        touched: list[str] = []
        seen: set[str] = set()
        while work:
            premise, dependent = work.pop()
            if dependent in seen:
                continue
            seen.add(dependent)
            dst = self.state(stream_of(dependent))
            deprecations = control.decide_deprecate(dst, dependent, premise)
            self.emit_all(dst, deprecations)
            if deprecations:
                touched.append(dependent)
                work.extend(control.changed_premises(deprecations, dst))
        return touched


def _chain_of(st: EntityState, event: DomainEvent) -> str | None:
    """The drift chain whose sub-key seals ``event`` (None: the entity key)."""
    if event.SCOPE != "chain":
        return None
    for change in event.changes:
        if change.content is not None:
            return change.content.chain_id
        fact = st.get(change.fact_id)
        if fact is not None:
            return fact.chain_id
    for name in ("fact_id", "premise", "dependent"):
        fid = getattr(event, name, None)
        fact = st.get(fid) if isinstance(fid, str) else None
        if fact is not None:
            return fact.chain_id
    return None


class WriteSide:
    """Loads entity streams (cached), runs decisions, commits units of work."""

    def __init__(self, log: EventLog, clock: TransactionClock) -> None:
        self.log = log
        self.keys = log.keys
        self.mapper = SealingMapper(log.keys)
        self.clock = clock
        self._cache: OrderedDict[str, EntityState] = OrderedDict()
        self._schemas: dict[str, dict[str, AttributeDef]] = {}
        self.lock = threading.RLock()
        last = log.recorder.max_notification_id()
        if last:
            tail = log.recorder.select_notifications(start=last, limit=1)
            if tail:
                self.clock.observe(self.mapper.header(tail[0])[0])

    # streams ------------------------------------------------------------------------------

    def load(self, stream_id: str) -> EntityState:
        cached = self._cache.get(stream_id)
        if cached is not None:
            self._cache.move_to_end(stream_id)
            return cached
        st = EntityState(stream_id)
        for stored in self.log.recorder.select_events(stream_id):
            opened = self.mapper.open(stored)
            if opened.prev_hash != (st.last_hash or bytes(32)):
                raise IntegrityViolation(
                    f"hash chain broken at {stream_id}:{stored.originator_version}")
            st.apply(stored.topic, opened.body)
            st.version = stored.originator_version
            st.last_hash = chain_hash(st.last_hash, stored)
        self._remember(st)
        return st

    def _remember(self, st: EntityState) -> None:
        self._cache[st.stream_id] = st
        self._cache.move_to_end(st.stream_id)
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)

    def forget_cached(self, stream_ids: list[str] | None = None) -> None:
        if stream_ids is None:
            self._cache.clear()
            self._schemas.clear()
            return
        for sid in stream_ids:
            self._cache.pop(sid, None)

    def entity_stream(self, tenant: str, entity: str, *, create: bool) -> tuple[str, str] | None:
        """(stream id, canonical entity) for a canonical id or a registered alias."""
        if not isinstance(entity, str):
            raise InvalidInput("entity must be a canonical id 'namespace:local' or an alias")
        if is_canonical_entity(entity):
            sid = self.keys.lookup("entity", tenant, entity)
            if sid is None:
                if not create:
                    return None
                sid = self._bind("entity", tenant, entity)
            return sid, entity
        sid = self.keys.lookup("alias", tenant, _surface(entity))
        if sid is None:
            raise InvalidInput(
                "entity must be a canonical id 'namespace:local' or a registered alias")
        canonical = self.load(sid).entity
        if canonical is None:
            raise NotFound("the alias points at an entity that no longer exists")
        return sid, canonical

    def _bind(self, kind: str, *parts: str) -> str:
        """Bind a natural key, which the caller has just looked up in vain, to a new stream.
        A stream created here has no events yet: its empty state is cached, not loaded."""
        fresh = new_stream_id()
        sid = self.keys.bind(kind, fresh, *parts, looked_up=True)
        if sid == fresh:
            self._remember(EntityState(sid))
        return sid

    def resolve(self, tenant: str, entity: str) -> tuple[str, str]:
        """(stream id, canonical entity), creating the stream on first use."""
        found = self.entity_stream(tenant, entity, create=True)
        if found is None:  # unreachable: create=True always yields a stream
            raise NotFound("entity could not be resolved")
        return found

    def system_stream(self, kind: str, tenant: str) -> str:
        sid = self.keys.lookup(kind, tenant)
        return sid or self._bind(kind, tenant)

    def fact_state(self, uow: UnitOfWork, fact_id: str) -> tuple[EntityState, str]:
        st = uow.state(stream_of(fact_id))
        fact = st.get(fact_id)
        if fact is None:
            raise NotFound(f"fact {fact_id} not found")
        return st, str(fact.content["tenant"])

    # schema -------------------------------------------------------------------------------

    def attribute(self, tenant: str, attribute: str) -> AttributeDef:
        schema = self._schemas.get(tenant)
        if schema is None:
            schema = {}
            sid = self.keys.lookup("schema", tenant)
            if sid is not None:
                for stored in self.log.recorder.select_events(sid):
                    body = self.mapper.open(stored).body or {}
                    schema[body["attribute"]] = AttributeDef(
                        body["cardinality"], body["volatility"], body["ttl_seconds"],
                        body["classification"])
            self._schemas[tenant] = schema
        return schema.get(attribute, AttributeDef())

    def define_attribute(self, uow: UnitOfWork, tenant: str, attribute: str,
                         definition: AttributeDef) -> Receipt:
        st = uow.state(self.system_stream("schema", tenant))
        idx = uow.emit(st, AttributeDefined(
            tenant=tenant, attribute=attribute, cardinality=definition.cardinality,
            volatility=definition.volatility, ttl_seconds=definition.ttl_seconds,
            classification=definition.classification))
        self._schemas.setdefault(tenant, {})
        self.attribute(tenant, attribute)
        self._schemas[tenant][attribute] = definition
        return uow.receipt("define_attribute", tenant, idx, [])

    # idempotency --------------------------------------------------------------------------

    def replayed_receipt(self, tenant: str, key: str,
                         request: str | None = None) -> Receipt | None:
        """The receipt stored under ``key``; a different ``request`` with the same key is a
        conflict (the key is being reused for another operation or target)."""
        sid = _ack_stream(self.keys.master.digest("idempotency", tenant, key))
        events = self.log.recorder.select_events(sid, limit=1)
        if not events:
            return None
        body = self.mapper.open(events[0]).body or {}
        stored_request = body.get("request")
        if request is not None and stored_request is not None and stored_request != request:
            raise ConflictError("this idempotency key was already used for a different "
                                "operation or target")
        receipt = dict(body["receipt"])
        stream, version = receipt["event_id"].rsplit(":", 1)
        receipt["position"] = self.log.position_of(stream, int(version)) or 0
        receipt["idempotent_replay"] = True
        return Receipt.model_validate(receipt)

    def acknowledge(self, uow: UnitOfWork, tenant: str, key: str, receipt: Receipt,
                    request: str | None = None) -> None:
        """Record ``receipt`` under the key. The stored copy names the events the write
        appended, this acknowledgement included, so a replay returns the receipt the
        original caller got (``commit`` fills in the same list)."""
        sid = _ack_stream(self.keys.master.digest("idempotency", tenant, key))
        st = EntityState(sid)
        uow.states[sid] = st
        k = next(i for i, entry in enumerate(uow.receipts) if entry[0] is receipt)
        _, first, end = uow.receipts[k]
        stored = receipt.model_copy(update={
            "event_ids": [*uow.event_ids(first, end), f"{sid}:{st.version + 1}"]})
        uow.emit(st, WriteAcknowledged(
            tenant=tenant, receipt=stored.model_dump(mode="json", exclude={"position"}),
            request=request))
        uow.receipts[k] = (receipt, first, len(uow.stored))

    # commit -------------------------------------------------------------------------------

    def commit(self, uow: UnitOfWork) -> list[Receipt]:
        if not uow.stored:  # an empty transaction is no commit: its time is not used up
            self.discard(uow)
            return []
        try:
            self.keys.flush()
            positions = self.log.recorder.insert_events(uow.stored)
        except IntegrityError:
            self.forget_cached(list(uow.states))
            raise ConcurrentWriteError(
                "another writer appended to one of these streams first; nothing was written"
            ) from None
        except PersistenceError as e:
            self.forget_cached(list(uow.states))
            raise MemoryESError(f"the event log refused the write: {type(e).__name__}") from e
        except BaseException:
            self.forget_cached(list(uow.states))
            raise
        for st in uow.states.values():
            self._remember(st)
        out = []
        for receipt, index, end in uow.receipts:
            position = positions[index] if positions else 0
            out.append(receipt.model_copy(update={"position": position,
                                                  "event_ids": uow.event_ids(index, end)}))
        return out

    def discard(self, uow: UnitOfWork) -> None:
        """Drop a unit of work that will not be committed (its states and its time)."""
        self.forget_cached(list(uow.states))
        self.clock.release(uow.recorded_at)


def _surface(text: str) -> str:
    return " ".join(text.casefold().split())


def new_id() -> str:
    return uuid7_str()


# operations -------------------------------------------------------------------------------
# Each takes a unit of work and returns a receipt; the facade wraps them in commits.

def op_assert(app: WriteSide, uow: UnitOfWork, nf: NewFact, *, supersede: bool = False,
              reason: str | None = None) -> Receipt:
    if nf.entity is None:
        sid = app.system_stream("unresolved", nf.tenant)
    else:
        sid, canonical = app.resolve(nf.tenant, nf.entity)
        if canonical != nf.entity:
            nf = NewFact(**{**nf.__dict__, "entity": canonical})
    st = uow.state(sid)
    attr = app.attribute(nf.tenant, nf.attribute)
    for premise in nf.derived_from:
        pst = uow.state(stream_of(premise))
        fact = pst.get(premise)
        if fact is None or fact.content["tenant"] != nf.tenant:
            raise NotFound(f"premise {premise} not found in tenant {nf.tenant}")
        if fact.state in TERMINAL_STATES:
            raise InvalidInput(f"premise {premise} is {fact.state} and cannot support a fact")
    new_fact_id = make_fact_id(sid, st.next_seq)
    if supersede:
        events = control.decide_supersede(st, nf, attr, fact_id=new_fact_id,
                                          new_chain=uow.new_chain, reason=reason)
    else:
        events = control.decide_assert(st, nf, attr, now=uow.recorded_at, fact_id=new_fact_id,
                                       new_chain=uow.new_chain, new_conflict=new_id)
    indexes = uow.emit_all(st, events)
    kind = events[0].TOPIC.split(".")[1]
    created = any(c.fact_id == new_fact_id for e in events for c in e.changes)
    if created:
        for premise in nf.derived_from:
            pst = uow.state(stream_of(premise))
            uow.emit(pst, DependentLinked(tenant=nf.tenant, premise=premise,
                                          dependent=new_fact_id), pst.facts[premise].chain_id)
    uow.cascade(st, events)
    conflict_id = events[-1].__dict__.get("conflict_id")  # no AttributeError round trip
    outcome = ("reinforced" if kind == "FactReinforced"
               else "conflicted" if conflict_id else "applied")
    touched = [new_fact_id] if created else []
    touched += [c.fact_id for e in events for c in e.changes if c.fact_id != new_fact_id]
    return uow.receipt("supersede" if supersede else "assert_fact", nf.tenant, indexes[0],
                       touched, outcome=outcome, conflict_id=conflict_id)


def op_on_fact(app: WriteSide, uow: UnitOfWork, op: str, fact_id: str,
               decide: Callable[[EntityState], list[DomainEvent]]) -> Receipt:
    st, tenant = app.fact_state(uow, fact_id)
    events = decide(st)
    indexes = uow.emit_all(st, events)
    uow.cascade(st, events)
    touched = list(dict.fromkeys(c.fact_id for e in events for c in e.changes)) or [fact_id]
    return uow.receipt(op, tenant, indexes[0], touched)


def op_on_entity(app: WriteSide, uow: UnitOfWork, op: str, tenant: str, entity: str,
                 decide: Callable[[EntityState, str], list[DomainEvent]]) -> Receipt:
    sid, canonical = app.resolve(tenant, entity)
    st = uow.state(sid)
    events = decide(st, canonical)
    indexes = uow.emit_all(st, events)
    uow.cascade(st, events)
    touched = list(dict.fromkeys(c.fact_id for e in events for c in e.changes))
    return uow.receipt(op, tenant, indexes[0], touched, outcome="applied" if touched else "noop")


def op_alias(app: WriteSide, uow: UnitOfWork, tenant: str, surface: str, entity: str) -> Receipt:
    sid, canonical = app.resolve(tenant, entity)
    existing = app.keys.lookup("alias", tenant, _surface(surface))
    if existing is not None and existing != sid:
        raise ConflictError("that alias already names another entity")
    st = uow.state(sid)
    indexes = uow.emit_all(st, control.decide_alias(tenant, surface, canonical))
    app.keys.bind("alias", sid, tenant, _surface(surface))
    return uow.receipt("alias", tenant, indexes[0], [])
