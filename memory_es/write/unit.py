"""A unit of work: everything one commit appends, staged on copies.

Copy-on-write is what makes a failed or abandoned unit harmless: a stream's state is
copied the first time the unit touches it, events fold into the copy, and the copies
replace the cached states only when the commit has succeeded. Until then nothing any
other reader sees (the cache, the schema, the log) has changed.

A command that fails inside a unit is undone by folding again: the streams it touched
are rebuilt from the state the unit started from and the events staged before it. A
command that succeeds, the common case, costs nothing extra (copying the state of a
stream at every command made each write cost in proportion to the entity's size).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from memory_es.clock import from_micros
from memory_es.crypto.keystore import KeyStore, chain_key_id
from memory_es.crypto.mapper import SealingMapper, chain_hash, parse_body
from memory_es.crypto.sealing import DataKey
from memory_es.domain.control import AttributeDef
from memory_es.domain.entity import EntityState
from memory_es.domain.events import DomainEvent
from memory_es.ids import uuid7_str
from memory_es.models import Receipt


class Streams(Protocol):
    """What a unit needs of the write side: committed states, keys, the sealing mapper and
    the declared attributes (:class:`memory_es.write.side.WriteSide` provides them)."""

    keys: KeyStore
    mapper: SealingMapper

    def summarise(self, texts: Sequence[str]) -> str:
        """A consolidation pattern's text from its members' texts (SPEC §12.6)."""
        ...

    def load(self, stream_id: str) -> EntityState: ...

    def attribute(self, tenant: str, attribute: str) -> AttributeDef: ...

    def resolve(self, tenant: str, entity: str) -> tuple[str, str]: ...


class UnitOfWork:
    """Touched stream states (copies) and the sealed events staged for one commit."""

    def __init__(self, side: Streams, recorded_at: int) -> None:
        self.side = side
        self.recorded_at = recorded_at
        self.states: dict[str, EntityState] = {}
        self.stored: list[Any] = []
        self._bases: dict[str, EntityState] = {}
        """Each touched stream's state before this unit (never changed: folded into copies)."""
        self.schema: dict[tuple[str, str], AttributeDef] = {}
        """Attribute definitions staged by this unit (visible to it, published on commit)."""
        self.receipts: list[tuple[Receipt, int, int]] = []
        """(receipt, index of its main event, end of the events its operation appended)."""
        self._recorded_dt: datetime | None = None
        self._savepoint: _Savepoint | None = None
        self._streams: dict[tuple[str, str], tuple[str, str]] = {}

    # staging ------------------------------------------------------------------------------

    def new_chain(self, stream_id: str | None = None) -> str:
        """A new drift-chain id; its sub-key is known not to exist yet, or, for the first
        chain of a stream minted ahead (``stream_id`` given), exists already."""
        if stream_id is not None:
            pooled = self.side.keys.first_chain(stream_id)
            if pooled is not None:
                return pooled
        chain_id = uuid7_str()
        self.side.keys.mark_fresh(chain_key_id(chain_id))
        return chain_id

    def state(self, stream_id: str) -> EntityState:
        """This unit's own copy of a stream's state (loaded on first touch)."""
        st = self.states.get(stream_id)
        if st is None:
            base = self._bases[stream_id] = self.side.load(stream_id)
            st = self.states[stream_id] = base.copy()
            if self._savepoint is not None:
                self._savepoint.states.setdefault(stream_id, None)
        elif self._savepoint is not None and stream_id not in self._savepoint.states:
            self._savepoint.states[stream_id] = REFOLD
        return st

    def fresh_state(self, stream_id: str) -> EntityState:
        """The state of a stream known to have no events yet (an acknowledgement's)."""
        if self._savepoint is not None:
            self._savepoint.states.setdefault(stream_id, self.states.get(stream_id))
        st = self.states[stream_id] = EntityState(stream_id)
        self._bases[stream_id] = EntityState(stream_id)
        return st

    def resolve(self, tenant: str, entity: str) -> tuple[str, str]:
        """(stream id, canonical entity), as :meth:`Streams.resolve`, asked once per unit
        for a canonical id: a batch names each entity many times, and every ask costs a
        keyed hash. Aliases are not kept (the unit may rebind one). The memo lives as long
        as the unit, so it holds no name a committed purge has unlinked."""
        key = (tenant, entity)
        found = self._streams.get(key)
        if found is None:
            found = self.side.resolve(tenant, entity)
            if found[1] == entity:
                self._streams[key] = found
        return found

    # one command at a time ----------------------------------------------------------------

    def begin_command(self) -> None:
        """Mark where the command about to be staged starts (see :meth:`undo_command`)."""
        self._savepoint = _Savepoint(len(self.stored), len(self.receipts), dict(self.schema))

    def end_command(self) -> None:
        self._savepoint = None

    def undo_command(self) -> None:
        """Put the unit back as it was at :meth:`begin_command`: a command is staged
        all-or-nothing, so a caller that catches its error inside a transaction commits
        none of it."""
        if self._savepoint is not None:
            self._rollback(self._savepoint)
        self._savepoint = None

    def _rollback(self, sp: _Savepoint) -> None:
        del self.stored[sp.stored:]
        del self.receipts[sp.receipts:]
        self.schema = sp.schema
        for stream_id, before in sp.states.items():
            if before is None:
                self.states.pop(stream_id, None)
                self._bases.pop(stream_id, None)
            elif before is REFOLD:
                self.states[stream_id] = self._refold(stream_id)
            else:
                self.states[stream_id] = before

    def _refold(self, stream_id: str) -> EntityState:
        """The stream's state as this unit had staged it so far: its state before the unit
        with the unit's events for it folded in again, as a cold load folds them."""
        st = self._bases[stream_id].copy()
        for stored in self.stored:
            if stored.originator_id == stream_id:  # its keys are cached: sealed just now
                st.apply(stored.topic, self.side.mapper.open(stored).body)
                st.version = stored.originator_version
                st.last_hash = chain_hash(st.last_hash, stored)
        return st

    def close(self) -> None:
        """No command will be staged any more: drop what undoing one would need."""
        self._savepoint = None
        self._bases = {}

    def attribute(self, tenant: str, attribute: str) -> AttributeDef:
        staged = self.schema.get((tenant, attribute))
        return staged if staged is not None else self.side.attribute(tenant, attribute)

    def emit(self, st: EntityState, event: DomainEvent, chain_id: str | None = None) -> int:
        """Seal, chain and fold one event into ``st``; returns its index in this unit."""
        keys = self.side.keys
        if event.SCOPE == "none":
            key: DataKey | None = None
        elif event.SCOPE == "chain" and chain_id is not None:
            key = keys.chain_key(st.stream_id, chain_id)
        else:
            key = keys.entity_key(st.stream_id)
        payload = event.__pydantic_serializer__.to_json(event)
        version = st.version + 1
        stored = self.side.mapper.to_stored(
            st.stream_id, version, event.TOPIC, payload, self.recorded_at, st.last_hash, key)
        st.apply(event.TOPIC, parse_body(payload))
        st.version = version
        st.last_hash = chain_hash(st.last_hash, stored)
        self.stored.append(stored)
        return len(self.stored) - 1

    def emit_all(self, st: EntityState, events: list[DomainEvent]) -> list[int]:
        return [self.emit(st, event, chain_of(st, event)) for event in events]

    # receipts -----------------------------------------------------------------------------

    def receipt(self, op: str, tenant: str | None, first: int, fact_ids: list[str],
                outcome: str = "applied", conflict_id: str | None = None) -> Receipt:
        ev = self.stored[first]
        if self._recorded_dt is None:
            self._recorded_dt = from_micros(self.recorded_at)
        event_id = f"{ev.originator_id}:{ev.originator_version}"
        receipt = Receipt(
            op=op, tenant=tenant, event_id=event_id, event_ids=[event_id],
            fact_id=fact_ids[0] if fact_ids else None, fact_ids=fact_ids,
            position=0, recorded_at=self._recorded_dt, outcome=outcome,
            conflict_id=conflict_id)
        self.receipts.append((receipt, first, len(self.stored)))
        return receipt

    def span(self, receipt: Receipt) -> tuple[int, int]:
        """(first, end) of the events staged for ``receipt``."""
        _, first, end = next(entry for entry in self.receipts if entry[0] is receipt)
        return first, end

    def extend_receipt(self, receipt: Receipt) -> None:
        """Let ``receipt`` cover every event staged so far (an acknowledgement's too)."""
        k = next(i for i, entry in enumerate(self.receipts) if entry[0] is receipt)
        _, first, _ = self.receipts[k]
        self.receipts[k] = (receipt, first, len(self.stored))

    def event_ids(self, first: int, end: int) -> list[str]:
        return [f"{s.originator_id}:{s.originator_version}" for s in self.stored[first:end]]


REFOLD = EntityState("")
"""In a savepoint: the stream's state before the command is to be folded again."""


@dataclass
class _Savepoint:
    """How far a unit had got before the command now being staged."""

    stored: int
    receipts: int
    schema: dict[tuple[str, str], AttributeDef]
    states: dict[str, EntityState | None] = field(default_factory=dict)
    """Each stream the command touched: None (the unit had not touched it), ``REFOLD``
    (it had: fold its events again), or the state a fresh one replaced."""


def chain_of(st: EntityState, event: DomainEvent) -> str | None:
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
