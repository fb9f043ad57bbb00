"""The write side's storage: stream states (cached), names, schemas and appends.

Built on ``eventsourcing``'s recorders: several streams are appended in one atomic
:meth:`~memory_es.eventlog.EventLog.append` (multi-row INSERTs on SQLite), and the unique
(stream, version) index is the optimistic-concurrency guard. Aggregate folding is our own
(``domain.entity``) rather than the library's ``Aggregate`` classes: events here are
pydantic models with stable topics, and the library's per-event protocol checks cost half
of ``save()`` (NOTES.md).

Only :mod:`memory_es.write.service` opens, appends or discards a unit of work; this
module offers the pieces it sequences.
"""

from __future__ import annotations

import uuid
from collections import OrderedDict
from collections.abc import Callable, Sequence

from eventsourcing.persistence import IntegrityError, PersistenceError

from memory_es.clock import TransactionClock
from memory_es.crypto.mapper import SealingMapper, chain_hash
from memory_es.domain.control import AttributeDef
from memory_es.domain.entity import EntityState
from memory_es.domain.events import AttributeDefined, EntityPurged, FactChainPurged
from memory_es.domain.notes import extractive_summary
from memory_es.domain.validation import is_canonical_entity
from memory_es.errors import (
    ConcurrentWriteError,
    ConflictError,
    ErasedContent,
    IntegrityViolation,
    InvalidInput,
    MemoryESError,
    NotFound,
)
from memory_es.eventlog import EventLog
from memory_es.faults import storage_faults
from memory_es.ids import new_stream_id, stream_of
from memory_es.models import Receipt
from memory_es.write.unit import UnitOfWork

CACHE_SIZE = 50_000
CACHE_FACTS = 100_000
"""Facts the cached stream states may hold in all (≈ 2.5 KB and ten objects the cyclic
collector tracks per fact: ≈ 250 MB). Bounded by states alone, the cache grew with the
entities' sizes, to ≈ 1.1 GB at 50,000 states of ten facts, and the collector's full
passes scanned all of it."""
POOL_SIZE = 256
"""New entity streams minted ahead on SQLite (see :meth:`KeyStore.bind`)."""
PURGE_TOPICS = frozenset({EntityPurged.TOPIC, FactChainPurged.TOPIC})
UNDECLARED = AttributeDef()
"""An attribute no one declared (frozen, so one instance serves every lookup)."""


def surface_key(text: str) -> str:
    """An alias as it is looked up: case-folded, white space collapsed."""
    return " ".join(text.casefold().split())


def _entity_of(body: dict[str, object]) -> str | None:
    """The canonical entity a stream's first event names (a fact's content, an alias, an
    amnesia record), if it names one."""
    entity = body.get("entity")
    if isinstance(entity, str):
        return entity
    for change in body.get("changes") or ():  # type: ignore[attr-defined]
        content = change.get("content") or {}
        if isinstance(content.get("entity"), str):
            return str(content["entity"])
    return None


def ack_stream(digest: bytes) -> str:
    return str(uuid.UUID(bytes=digest[:16]))


class WriteSide:
    """Loads entity streams (cached), resolves names, appends units of work."""

    def __init__(self, log: EventLog, clock: TransactionClock) -> None:
        self.log = log
        self.keys = log.keys
        self.mapper = SealingMapper(log.keys)
        self.clock = clock
        self._cache: OrderedDict[str, EntityState] = OrderedDict()
        self._sizes: dict[str, int] = {}  # facts of each cached state as it was cached
        self._facts = 0
        self._schemas: dict[str, dict[str, AttributeDef]] = {}
        self.summariser: Callable[[Sequence[str]], str] = extractive_summary
        """Set from ``GovernanceConfig.summarise`` by the store that opens this side."""
        self._pool_checked = log.kind != "sqlite"  # one writer process: SQLite only
        if not self._pool_checked:
            self.keys.pool_size = POOL_SIZE
        last = log.recorder.max_notification_id()
        if last:
            tail = log.recorder.select_notifications(start=last, limit=1)
            if tail:
                self.clock.observe(self.mapper.header(tail[0])[0])

    def summarise(self, texts: Sequence[str]) -> str:
        return self.summariser(texts)

    # streams ------------------------------------------------------------------------------

    def load(self, stream_id: str) -> EntityState:
        """A stream's committed state. Callers must not change it: units copy it first."""
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
        """Cache a state, then forget the least recently used ones beyond
        :data:`CACHE_SIZE` states or :data:`CACHE_FACTS` facts (never the one just cached)."""
        st.owned.clear()  # a published state is shared: the next unit copies before it writes
        sid = st.stream_id
        self._facts += len(st.facts) - self._sizes.get(sid, 0)
        self._sizes[sid] = len(st.facts)
        self._cache[sid] = st
        self._cache.move_to_end(sid)
        while len(self._cache) > 1 and (len(self._cache) > CACHE_SIZE
                                        or self._facts > CACHE_FACTS):
            self._facts -= self._sizes.pop(self._cache.popitem(last=False)[0])

    def forget_cached(self, stream_ids: list[str] | None = None) -> None:
        if stream_ids is None:
            self._cache.clear()
            self._sizes.clear()
            self._facts = 0
            self._schemas.clear()
            return
        for sid in stream_ids:
            if self._cache.pop(sid, None) is not None:
                self._facts -= self._sizes.pop(sid)

    def held(self) -> tuple[int, int]:
        """(states, facts) in the stream-state cache."""
        return len(self._cache), self._facts

    def caches_facts(self, stream_id: str, fact_ids: list[str]) -> bool:
        """Whether the aggregate cache still holds any of these facts (a residue check)."""
        cached = self._cache.get(stream_id)
        return cached is not None and any(f in cached.facts for f in fact_ids)

    def tenant_of(self, fact_id: str) -> str:
        """The tenant owning ``fact_id``; NotFound when no such fact exists."""
        tenant = self.load(stream_of(fact_id)).tenant
        if tenant is None:
            raise NotFound(f"fact {fact_id} not found")
        return tenant

    # names --------------------------------------------------------------------------------

    def entity_stream(self, tenant: str, entity: str, *, create: bool) -> tuple[str, str] | None:
        """(stream id, canonical entity) for a canonical id or a registered alias."""
        if not isinstance(entity, str):
            raise InvalidInput("entity must be a canonical id 'namespace:local' or an alias")
        if is_canonical_entity(entity):
            digest = self.keys.digest("entity", tenant, entity)
            sid = self.keys.lookup_digest(digest)
            if sid is None:
                if not create:
                    return None
                sid = self._bind("entity", tenant, entity, digest=digest)
            return sid, entity
        sid = self.keys.lookup("alias", tenant, surface_key(entity))
        if sid is None:
            raise InvalidInput(
                "entity must be a canonical id 'namespace:local' or a registered alias")
        canonical = self.load(sid).entity
        if canonical is None:
            raise NotFound("the alias points at an entity that no longer exists")
        return sid, canonical

    def canonical(self, tenant: str, entity: str | None) -> str | None:
        """The canonical id an entity filter names (None: no such entity, or no filter)."""
        if entity is None or is_canonical_entity(entity):
            return entity
        found = self.entity_stream(tenant, entity, create=False)
        return None if found is None else found[1]

    def _bind(self, kind: str, *parts: str, digest: bytes | None = None) -> str:
        """Bind a natural key, which the caller has just looked up in vain, to a new stream.
        A stream created here has no events yet: its empty state is cached, not loaded.
        ``digest``: the key store's digest of ``kind`` and ``parts``, when known."""
        # a name the pool's recovery bound again is looked up anew
        looked_up = kind != "entity" or not self.recover_pool()
        pooled = kind == "entity" and self.keys.pools_entities
        fresh = "" if pooled else new_stream_id()  # a pooled name takes the pool's stream
        sid = self.keys.bind(kind, fresh, *parts, looked_up=looked_up, digest=digest)
        if sid == fresh or self.keys.just_taken(sid):
            self._remember(EntityState(sid))
        return sid

    def recover_pool(self) -> bool:
        """Finish takes from the key store's pool whose name rows a crash or power loss
        lost after their events were committed (a take's name row is held back, see
        :meth:`KeyStore.flush`): each such stream gets its name back from its first event.
        Run once, when the writer opens and before this process takes a pooled stream.
        Whether a name was bound."""
        if self._pool_checked:
            return False
        self._pool_checked = True
        bound = False
        for stream_id, _ in self.keys.pooled():
            first = self.log.recorder.select_events(stream_id, limit=1)
            if not first:
                continue  # never used: stays in the pool
            try:
                body = self.mapper.open(first[0]).body or {}
            except ErasedContent:  # purged since: no name to give back
                self.keys.drop_pooled(stream_id)
                continue
            tenant, entity = body.get("tenant"), _entity_of(body)
            digest = (self.keys.digest("entity", tenant, entity)
                      if isinstance(tenant, str) and entity is not None
                      and not self.keys.names_of_stream(stream_id) else None)
            self.keys.drop_pooled(stream_id, digest)
            bound = bound or digest is not None
        return bound

    def resolve(self, tenant: str, entity: str) -> tuple[str, str]:
        """(stream id, canonical entity), creating the stream on first use."""
        found = self.entity_stream(tenant, entity, create=True)
        if found is None:  # unreachable: create=True always yields a stream
            raise NotFound("entity could not be resolved")
        return found

    def system_stream(self, kind: str, tenant: str) -> str:
        sid = self.keys.lookup(kind, tenant)
        return sid or self._bind(kind, tenant)

    def bind_alias(self, tenant: str, surface: str, stream_id: str) -> None:
        existing = self.keys.lookup("alias", tenant, surface_key(surface))
        if existing is not None and existing != stream_id:
            raise ConflictError("that alias already names another entity")
        self.keys.bind("alias", stream_id, tenant, surface_key(surface))

    # schema -------------------------------------------------------------------------------

    def attribute(self, tenant: str, attribute: str) -> AttributeDef:
        return self._schema(tenant).get(attribute, UNDECLARED)

    def _schema(self, tenant: str) -> dict[str, AttributeDef]:
        schema = self._schemas.get(tenant)
        if schema is None:
            schema = {}
            sid = self.keys.lookup("schema", tenant)
            if sid is not None:
                for stored in self.log.recorder.select_events(sid):
                    if stored.topic != AttributeDefined.TOPIC:
                        continue
                    body = self.mapper.open(stored).body or {}
                    schema[body["attribute"]] = AttributeDef(
                        body["cardinality"], body["volatility"], body["ttl_seconds"],
                        body["classification"])
            self._schemas[tenant] = schema
        return schema

    # idempotency --------------------------------------------------------------------------

    def ack_stream(self, tenant: str, key: str) -> str:
        return ack_stream(self.keys.digest("idempotency", tenant, key))

    def replayed_receipt(self, tenant: str, key: str,
                         request: str | None = None) -> Receipt | None:
        """The receipt stored under ``key``; a different ``request`` with the same key is a
        conflict (the key is being reused for another operation or target)."""
        events = self.log.recorder.select_events(self.ack_stream(tenant, key), limit=1)
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

    # appending ----------------------------------------------------------------------------

    def append(self, uow: UnitOfWork) -> list[int]:
        """Insert the unit's events atomically; returns their log positions."""
        try:
            with storage_faults("the write"):
                stored = uow.seal()
                self.keys.flush(hold_pooled=True)
                return self.log.append(stored)
        except IntegrityError:
            raise ConcurrentWriteError(
                "another writer appended to one of these streams first; nothing was written"
            ) from None
        except PersistenceError as e:
            raise MemoryESError(f"the event log refused the write: {type(e).__name__}") from e

    def publish(self, uow: UnitOfWork) -> None:
        """After a successful append: the unit's copies become the committed states."""
        for st in uow.states.values():
            self._remember(st)
        for (tenant, attribute), definition in uow.schema.items():
            self._schema(tenant)[attribute] = definition

    def abandon(self, uow: UnitOfWork, *, append_failed: bool) -> None:
        """Drop a unit that will not be published. Its copies were never shared, so the
        cache is untouched; a unit that failed before appending gives its transaction time
        back. One whose append failed may have lost a race to another writer (or, on a
        broken connection, not know whether it committed): its streams are re-read from
        the log next time, and its time is not reused."""
        if append_failed:
            self.forget_cached(list(uow.states))
        else:
            self.clock.release(uow.recorded_at)
