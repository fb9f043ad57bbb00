"""A unit of work: everything one commit appends, staged on copies.

Copy-on-write is what makes a failed or abandoned unit harmless: a stream's state is
copied the first time the unit touches it, events fold into the copy, and the copies
replace the cached states only when the commit has succeeded. Until then nothing any
other reader sees (the cache, the schema, the log) has changed.

A command that fails inside a unit is undone by folding again: the streams it touched
are rebuilt from the state the unit started from and the events staged before it. A
command that succeeds, the common case, costs nothing extra (copying the state of a
stream at every command made each write cost in proportion to the entity's size).

Events are folded as they are staged but sealed when the unit is appended
(:meth:`UnitOfWork.seal`): the header of each holds its stream's running hash, which
depends only on the events before it, and a new chain's key is needed only to seal. A
batch then mints its new chains' keys together and seals its events in one loop, with
one draw of fresh random bytes for every nonce it needs (read ahead:
:mod:`memory_es.entropy`) and one read of the system's random source for its new keys.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, NamedTuple, Protocol

from eventsourcing.persistence import StoredEvent
from pydantic_core import to_json

from memory_es.clock import from_micros
from memory_es.crypto.keystore import KeyStore, chain_key_id
from memory_es.crypto.mapper import SealingMapper, chain_hash, parse_body
from memory_es.crypto.sealing import NONCE_BYTES, DataKey
from memory_es.domain.control import SCALARS, AttributeDef
from memory_es.domain.entity import EntityState
from memory_es.domain.events import DomainEvent
from memory_es.domain.intervals import Interval
from memory_es.entropy import POOL
from memory_es.ids import uuid7_str
from memory_es.models import Receipt, staged_receipt


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


Entry = tuple[int, int, str, str | None, str, list[str], str, str | None]
"""A staged receipt as the unit keeps it: (index of its main event, end of the events its
operation appended, op, tenant, event id, fact ids, outcome, conflict id). Not the
``Receipt`` returned to the caller: a unit kept one per operation alive until the
collector's pass as it ends (five objects each, a third of that pass's work in a batch),
also for callers that drop them; :meth:`UnitOfWork.committed_receipts` makes the
committed ones from these when they are asked for."""


class Staged(NamedTuple):
    """One event staged and folded, not sealed yet: ``key`` is the key that will seal it,
    or the id of a new chain's key that :meth:`UnitOfWork.seal` mints first (None: the
    event is stored in clear)."""

    stream_id: str
    version: int
    topic: str
    payload: bytes
    key: DataKey | str | None


class UnitOfWork:
    """Touched stream states (copies) and the events staged for one commit."""

    def __init__(self, side: Streams, recorded_at: int) -> None:
        self.side = side
        self.recorded_at = recorded_at
        self.states: dict[str, EntityState] = {}
        self.staged: list[Staged] = []
        self._bases: dict[str, EntityState] = {}
        """Each touched stream's state before this unit (never changed: folded into copies)."""
        self.schema: dict[tuple[str, str], AttributeDef] = {}
        """Attribute definitions staged by this unit (visible to it, published on commit)."""
        self.receipts: list[Entry] = []
        """One :data:`Entry` per receipt staged, in staging order."""
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
        """Mark where the command about to be staged starts (see :meth:`undo_command`).
        The schema is kept by reference: :meth:`define` replaces it rather than changing
        it, so a batch of commands that define nothing copies nothing."""
        self._savepoint = _Savepoint(len(self.staged), len(self.receipts), self.schema)

    def define(self, tenant: str, attribute: str, definition: AttributeDef) -> None:
        """Stage an attribute's definition (visible to this unit, published on commit)."""
        self.schema = {**self.schema, (tenant, attribute): definition}

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
        del self.staged[sp.staged:]
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
        for staged in self.staged:
            if staged.stream_id == stream_id:
                st.apply(staged.topic, parse_body(staged.payload))
                st.version = staged.version
        return st

    def close(self) -> None:
        """No command will be staged any more: drop what undoing one would need."""
        self._savepoint = None
        self._bases = {}

    def attribute(self, tenant: str, attribute: str) -> AttributeDef:
        staged = self.schema.get((tenant, attribute))
        return staged if staged is not None else self.side.attribute(tenant, attribute)

    def emit(self, st: EntityState, event: DomainEvent, chain_id: str | None = None) -> int:
        """Stage one event and fold it into ``st``; returns its index in this unit. Its key
        is fetched now, so a destroyed one fails this command, not the commit; a new
        chain's key is minted by :meth:`seal` (its entity key is fetched now instead)."""
        keys = self.side.keys
        key: DataKey | str | None
        if event.SCOPE == "none":
            key = None
        elif event.SCOPE == "chain" and chain_id is not None:
            key = keys.fresh_chain_key(st.stream_id, chain_id)
        else:
            key = keys.entity_key(st.stream_id)
        payload = event.__pydantic_serializer__.to_json(event)
        version = st.version + 1
        st.apply(event.TOPIC, parse_body(payload))
        st.version = version
        self.staged.append(Staged(st.stream_id, version, event.TOPIC, payload, key))
        return len(self.staged) - 1

    def emit_body(self, st: EntityState, topic: str, body: dict[str, Any]) -> int:
        """:meth:`emit` for an event body decided without its model, whose last change is
        a new fact (:func:`memory_es.domain.control.new_fact_alone`,
        :func:`memory_es.domain.control.supersede_body`): written by ``pydantic_core`` as
        the model would write it, sealed under the new fact's chain key, and folded as it
        is when its value is a scalar (the dict is then what parsing its JSON back would
        give; a new fact alone goes straight in), else from its JSON as :meth:`emit`
        folds."""
        changes = body["changes"]
        change = changes[-1]
        content = change["content"]
        key = self.side.keys.fresh_chain_key(st.stream_id, content["chain_id"])
        payload = to_json(body)
        version = st.version + 1
        if type(content["value"]) not in SCALARS:
            st.apply(topic, parse_body(payload))
        elif len(changes) == 1:  # what apply() would do, without its steps
            st.tenant = body["tenant"]
            start, end = change["portions"][0]
            st.add_fact(change["fact_id"], content, [Interval(start, end)], change["state"])
        else:
            st.apply(topic, body)
        st.version = version
        self.staged.append(Staged(st.stream_id, version, topic, payload, key))
        return len(self.staged) - 1

    def emit_all(self, st: EntityState, events: list[DomainEvent]) -> list[int]:
        return [self.emit(st, event, chain_of(st, event)) for event in events]

    def seal(self) -> list[StoredEvent]:
        """The staged events as the log stores them, in staging order: new chains' keys
        minted (staged in the key store, written before the events), each event sealed
        under its key with a fresh random nonce and chained to its stream's previous
        event; each touched state takes its stream's new head hash."""
        keys = self.side.keys
        minted = keys.mint_chain_keys({
            s.key: s.stream_id for s in self.staged if isinstance(s.key, str)})
        nonces = POOL.take(NONCE_BYTES * len(self.staged))
        to_stored = self.side.mapper.to_stored
        heads: dict[str, bytes] = {}
        out: list[StoredEvent] = []
        for i, (stream_id, version, topic, payload, key) in enumerate(self.staged):
            head = heads.get(stream_id)
            if head is None:
                head = self.states[stream_id].last_hash
            stored = to_stored(stream_id, version, topic, payload, self.recorded_at, head,
                               minted[key] if isinstance(key, str) else key,
                               nonces[i * NONCE_BYTES:(i + 1) * NONCE_BYTES])
            heads[stream_id] = chain_hash(head, stored)
            out.append(stored)
        for stream_id, head in heads.items():
            self.states[stream_id].last_hash = head
        return out

    # receipts -----------------------------------------------------------------------------

    def receipt(self, op: str, tenant: str | None, first: int, fact_ids: list[str],
                outcome: str = "applied", conflict_id: str | None = None) -> Receipt:
        """The staged receipt of the operation whose main event is ``first``; the unit
        keeps what it is made of (an :data:`Entry`), not the receipt itself."""
        ev = self.staged[first]
        if self._recorded_dt is None:
            self._recorded_dt = from_micros(self.recorded_at)
        event_id = f"{ev.stream_id}:{ev.version}"
        outcome = str(outcome)
        self.receipts.append((first, len(self.staged), op, tenant, event_id, fact_ids, outcome,
                              conflict_id))
        return staged_receipt(op, tenant, event_id, fact_ids, self._recorded_dt, outcome,
                              conflict_id)

    def committed_receipts(self, positions: list[int]) -> list[Receipt]:
        """The staged receipts once the unit is appended at ``positions`` (one per staged
        event): each as :meth:`receipt` returned it, with its main event's position and the
        ids of every event its operation appended."""
        recorded = self._recorded_dt or from_micros(self.recorded_at)
        return [staged_receipt(op, tenant, event_id, fact_ids, recorded, outcome, conflict_id,
                               positions[first] if positions else 0,
                               self.event_ids(first, end))
                for first, end, op, tenant, event_id, fact_ids, outcome, conflict_id
                in self.receipts]

    def _entry_of(self, receipt: Receipt) -> int:
        """Index of ``receipt``'s entry: the one with its main event (an event is the main
        event of one operation at most)."""
        for k in range(len(self.receipts) - 1, -1, -1):
            if self.receipts[k][4] == receipt.event_id:
                return k
        raise LookupError("this receipt was not staged in this unit")

    def span(self, receipt: Receipt) -> tuple[int, int]:
        """(first, end) of the events staged for ``receipt``."""
        entry = self.receipts[self._entry_of(receipt)]
        return entry[0], entry[1]

    def extend_receipt(self, receipt: Receipt) -> None:
        """Let ``receipt`` cover every event staged so far (an acknowledgement's too)."""
        k = self._entry_of(receipt)
        entry = self.receipts[k]
        self.receipts[k] = (entry[0], len(self.staged), *entry[2:])

    def first_of(self, mark: int) -> int:
        """Index of the main event of the receipt staged ``mark``-th in this unit."""
        return self.receipts[mark][0]

    def event_ids(self, first: int, end: int) -> list[str]:
        return [f"{s.stream_id}:{s.version}" for s in self.staged[first:end]]


REFOLD = EntityState("")
"""In a savepoint: the stream's state before the command is to be folded again."""


class _Savepoint:
    """How far a unit had got before the command now being staged. A plain class with
    slots: one is made for every command, and a dataclass with a default factory cost
    about twice as much to make and to free."""

    __slots__ = ("receipts", "schema", "staged", "states")

    def __init__(self, staged: int, receipts: int,
                 schema: dict[tuple[str, str], AttributeDef]) -> None:
        self.staged = staged
        self.receipts = receipts
        self.schema = schema
        self.states: dict[str, EntityState | None] = {}
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
