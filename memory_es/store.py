"""MemoryStore: the facade. Writes go to the write side, reads to the projections.

command -> event -> log -> projections -> queries: a write appends sealed events and
returns a receipt; a read first lets the projections catch up with the log
(read-your-writes), then queries DuckDB.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import json
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

import pyarrow as pa
import pyarrow.parquet as pq

from memory_es import audit
from memory_es.application import (
    UnitOfWork,
    WriteSide,
    op_alias,
    op_assert,
    op_on_entity,
    op_on_fact,
)
from memory_es.clock import ClockFn, TransactionClock, from_micros, optional_micros, to_micros
from memory_es.collector import collector_paused
from memory_es.crypto.master import load_master_key
from memory_es.domain import control
from memory_es.domain.control import AttributeDef, NewFact
from memory_es.domain.validation import (
    ASSERTED_BY,
    CARDINALITIES,
    CLASSIFICATIONS,
    VOLATILITY,
    check_attribute,
    check_choice,
    check_confidence,
    check_entity,
    check_tenant,
    check_text,
    check_value,
    is_canonical_entity,
)
from memory_es.erasure import MOTIVES, Erasable, ErasureService
from memory_es.errors import InvalidInput, NotFound, StoreClosed
from memory_es.eventlog import EventLog, PostgresEventLog, SqliteEventLog
from memory_es.ids import stream_of
from memory_es.models import (
    AuditReport,
    DeletionReceipt,
    ErasureReport,
    Fact,
    Hit,
    Preview,
    Receipt,
)
from projections import queries
from projections.catchup import Catchup, Progress
from projections.connection import arrow, connect, user_query
from projections.embedder import Embedder
from projections.erasure import EXPORTS_DDL, rewrite_database
from projections.recall import RecallIndex
from projections.rows import rows_to_facts
from projections.recall import recall as recall_query
from projections.schema import DDL, KEPT_TABLES, PUBLIC_COLUMNS, VIEWS, outdated_views
from projections.versions import VersionProjector

TEXT_COLUMNS = ("value", "text", "entity", "mention", "source", "attribute")
TARGET_FIELDS = ("fact_id", "attribute", "conflict_id", "winner")
"""What an idempotency key is bound to besides the operation: ids and attribute names only
(never values or entity ids, which would outlive a purge as a confirmable digest)."""

_REQUEST: ContextVar[str | None] = ContextVar("memory_es_request", default=None)

F = TypeVar("F", bound=Callable[..., Any])


def keyed(method: F) -> F:
    """Bind a write's idempotency key to its operation and target, so that reusing the key
    for another request raises :class:`ConflictError` instead of returning a stale receipt."""
    signature = inspect.signature(method)

    @functools.wraps(method)
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        if kwargs.get("idempotency_key") is None:
            return method(self, *args, **kwargs)
        bound = signature.bind(self, *args, **kwargs)
        target = {k: v for k, v in bound.arguments.items() if k in TARGET_FIELDS}
        token = _REQUEST.set(json.dumps([method.__name__, target], sort_keys=True))
        try:
            return method(self, *args, **kwargs)
        finally:
            _REQUEST.reset(token)
    return wrapper  # type: ignore[return-value]


class _Writes:
    """The write operations, shared by the store (one commit each) and ``transact``."""

    def _run(self, op: Callable[[UnitOfWork], Receipt], tenant: str | None = None,
             idempotency_key: str | None = None) -> Receipt:
        raise NotImplementedError

    _ws: WriteSide

    def _tenant_for(self, fact_id: str, idempotency_key: str | None) -> str | None:
        """The tenant owning ``fact_id`` (idempotency keys are per tenant); a read only."""
        if idempotency_key is None:
            return None
        tenant = self._ws.load(stream_of(fact_id)).tenant
        if tenant is None:
            raise NotFound(f"fact {fact_id} not found")
        return tenant

    def _new_fact(self, tenant: str, entity: str | None, attribute: str, value: Any,
                  valid_from: datetime | None, valid_until: datetime | None,
                  **kw: Any) -> Callable[[int], NewFact]:
        """Check a fact's shape now; return a builder that fills in the commit time."""
        check_tenant(tenant)
        mention = check_text("mention", kw.get("mention"), 512)
        if entity is None and not mention:
            raise InvalidInput("give an entity, or entity=None with mention='...'")
        if entity is not None and (not isinstance(entity, str) or not entity.strip()):
            raise InvalidInput("entity must be a canonical id 'namespace:local' or an alias")
        check_attribute(attribute)
        check_value(value)
        vf = optional_micros(valid_from, "valid_from")
        vu = optional_micros(valid_until, "valid_until")
        asserted_by = check_choice("asserted_by", kw.get("asserted_by") or "user", ASSERTED_BY)
        volatility = kw.get("volatility")
        if volatility is not None:
            check_choice("volatility", volatility, VOLATILITY)
        classification = kw.get("classification")
        if classification is not None:
            check_choice("classification", classification, CLASSIFICATIONS)
        confidence = check_confidence(kw.get("confidence", 1.0))
        derived = tuple(kw.get("derived_from") or ())
        for premise in derived:
            stream_of(premise)
        text = check_text("text", kw.get("text"))
        source = check_text("source", kw.get("source"), 512)
        interpretation = kw.get("interpretation")
        if interpretation is not None:
            if not isinstance(interpretation, dict):
                raise InvalidInput("interpretation must be a JSON object (dict)")
            check_value(interpretation)

        def build(now: int) -> NewFact:
            start = now if vf is None else vf
            if vu is not None and vu <= start:
                raise InvalidInput("valid_until must be after valid_from")
            return NewFact(
                tenant=tenant, entity=entity, attribute=attribute, value=value, valid_from=start,
                valid_until=vu, text=text, mention=mention, source=source,
                asserted_by=asserted_by, confidence=confidence, volatility=volatility,
                classification=classification, derived_from=derived,
                interpretation=interpretation)
        return build

    @keyed
    def assert_fact(self, tenant: str, entity: str | None, attribute: str, value: Any, *,
                    valid_from: datetime | None = None, valid_until: datetime | None = None,
                    text: str | None = None, source: str | None = None,
                    asserted_by: str = "user", confidence: float = 1.0,
                    volatility: str | None = None, classification: str | None = None,
                    derived_from: Sequence[str] = (), mention: str | None = None,
                    idempotency_key: str | None = None,
                    interpretation: dict[str, Any] | None = None) -> Receipt:
        """Write a fact through the §5 control plane (new, reinforce, outrank or conflict)."""
        build = self._new_fact(tenant, entity, attribute, value, valid_from, valid_until,
                               text=text, source=source, asserted_by=asserted_by,
                               confidence=confidence, volatility=volatility,
                               classification=classification, derived_from=derived_from,
                               mention=mention, interpretation=interpretation)
        return self._run(lambda uow: op_assert(self._ws, uow, build(uow.recorded_at)),
                         tenant, idempotency_key)

    @keyed
    def supersede(self, tenant: str, entity: str, attribute: str, value: Any, *,
                  valid_from: datetime | None = None, valid_until: datetime | None = None,
                  text: str | None = None, source: str | None = None,
                  asserted_by: str = "user", confidence: float = 1.0,
                  volatility: str | None = None, classification: str | None = None,
                  derived_from: Sequence[str] = (), reason: str | None = None,
                  idempotency_key: str | None = None,
                  interpretation: dict[str, Any] | None = None) -> Receipt:
        """New value for the slot over ``[valid_from, valid_until)`` (UPDATE FOR PORTION OF)."""
        if entity is None:
            raise InvalidInput("supersede needs an entity")
        build = self._new_fact(tenant, entity, attribute, value, valid_from, valid_until,
                               text=text, source=source, asserted_by=asserted_by,
                               confidence=confidence, volatility=volatility,
                               classification=classification, derived_from=derived_from,
                               interpretation=interpretation)
        check_text("reason", reason, 1024)
        return self._run(
            lambda uow: op_assert(self._ws, uow, build(uow.recorded_at), supersede=True,
                                  reason=reason), tenant, idempotency_key)

    @keyed
    def correct(self, fact_id: str, value: Any, *, text: str | None = None,
                reason: str | None = None, idempotency_key: str | None = None) -> Receipt:
        """The value was wrong over the fact's whole valid interval: record the right one."""
        stream_of(fact_id)
        check_value(value)
        check_text("text", text)
        check_text("reason", reason, 1024)
        return self._run(lambda uow: op_on_fact(
            self._ws, uow, "correct", fact_id,
            lambda st: control.decide_correct(st, fact_id, value, text, reason)),
            self._tenant_for(fact_id, idempotency_key), idempotency_key)

    @keyed
    def decay(self, fact_id: str, *, valid_until: datetime | None = None,
              reason: str | None = None, idempotency_key: str | None = None) -> Receipt:
        """Release: the fact stops being valid at ``valid_until`` (default now); row kept."""
        stream_of(fact_id)
        until = optional_micros(valid_until, "valid_until")
        return self._run(lambda uow: op_on_fact(
            self._ws, uow, "decay", fact_id,
            lambda st: control.decide_decay(
                st, fact_id, uow.recorded_at if until is None else until, reason)),
            self._tenant_for(fact_id, idempotency_key), idempotency_key)

    @keyed
    def retract(self, tenant: str, entity: str, attribute: str, *,
                valid_from: datetime | None = None, valid_until: datetime | None = None,
                reason: str | None = None, idempotency_key: str | None = None) -> Receipt:
        """Remove the slot's value over ``[valid_from, valid_until)`` (DELETE FOR PORTION OF)."""
        check_tenant(tenant)
        check_attribute(attribute)
        start = optional_micros(valid_from, "valid_from")
        end = optional_micros(valid_until, "valid_until")
        if start is not None and end is not None and end <= start:
            raise InvalidInput("valid_until must be after valid_from")
        return self._run(lambda uow: op_on_entity(
            self._ws, uow, "retract", tenant, entity,
            lambda st, _e: control.decide_retract(st, tenant, attribute, start, end, reason)),
            tenant, idempotency_key)

    @keyed
    def forget_entity(self, tenant: str, entity: str, *, reason: str | None = None,
                      idempotency_key: str | None = None) -> Receipt:
        """Amnesia of exactly this entity: every fact becomes ``forgotten`` (terminal)."""
        check_tenant(tenant)
        return self._run(lambda uow: op_on_entity(
            self._ws, uow, "forget_entity", tenant, entity,
            lambda st, canonical: control.decide_forget_entity(st, tenant, canonical, reason)),
            tenant, idempotency_key)

    @keyed
    def forget_fact(self, fact_id: str, *, reason: str | None = None,
                    idempotency_key: str | None = None) -> Receipt:
        """Cascade soft delete: the fact becomes ``forgotten``; derived facts are invalidated."""
        return self._state_op("forget_fact", fact_id, "forgotten", reason, idempotency_key)

    @keyed
    def archive(self, fact_id: str, *, reason: str | None = None,
                idempotency_key: str | None = None) -> Receipt:
        """Mark delete: hidden from every default read; reversible with ``restore``."""
        return self._state_op("archive", fact_id, "archived", reason, idempotency_key)

    @keyed
    def restore(self, fact_id: str, *, reason: str | None = None,
                idempotency_key: str | None = None) -> Receipt:
        """Undo ``archive``: the fact returns to the state it had before."""
        stream_of(fact_id)

        def decide(uow: UnitOfWork) -> Receipt:
            st, _ = self._ws.fact_state(uow, fact_id)
            fact = st.facts[fact_id]
            if fact.state != "archived":
                raise InvalidInput(f"fact {fact_id} is not archived ({fact.state})")
            target = fact.prior_state or "active"
            return op_on_fact(self._ws, uow, "restore", fact_id, lambda s: control.
                              decide_state_change(s, fact_id, target, "restore", reason))
        return self._run(decide, self._tenant_for(fact_id, idempotency_key), idempotency_key)

    @keyed
    def mask(self, fact_id: str, *, reason: str | None = None,
             idempotency_key: str | None = None) -> Receipt:
        """Replace the fact's content by a placeholder in every view (reversible: ``unmask``)."""
        stream_of(fact_id)
        return self._run(lambda uow: op_on_fact(
            self._ws, uow, "mask", fact_id,
            lambda st: control.decide_mask(st, fact_id, reason)),
            self._tenant_for(fact_id, idempotency_key), idempotency_key)

    @keyed
    def unmask(self, fact_id: str, *, reason: str | None = None,
               idempotency_key: str | None = None) -> Receipt:
        """Show a masked fact's content again (the original was kept sealed in the log)."""
        stream_of(fact_id)
        return self._run(lambda uow: op_on_fact(
            self._ws, uow, "unmask", fact_id,
            lambda st: control.decide_unmask(st, fact_id, reason)),
            self._tenant_for(fact_id, idempotency_key), idempotency_key)

    def _state_op(self, op: str, fact_id: str, target: str, reason: str | None,
                  idempotency_key: str | None) -> Receipt:
        stream_of(fact_id)
        check_text("reason", reason, 1024)
        return self._run(lambda uow: op_on_fact(
            self._ws, uow, op, fact_id,
            lambda st: control.decide_state_change(st, fact_id, target, op, reason)),
            self._tenant_for(fact_id, idempotency_key), idempotency_key)

    def resolve_conflict(self, conflict_id: str, winner: str, *,
                         reason: str | None = None) -> Receipt:
        """Settle an open conflict in favour of ``winner`` (the new fact or one it contradicts)."""
        stream_of(winner)
        return self._run(lambda uow: op_on_fact(
            self._ws, uow, "resolve_conflict", winner,
            lambda st: control.decide_resolve(st, conflict_id, winner, reason)))

    def alias(self, tenant: str, surface: str, canonical_id: str) -> Receipt:
        """Register ``surface`` (e.g. a name or e-mail) as another way to say ``canonical_id``."""
        check_tenant(tenant)
        check_entity(canonical_id)
        if not isinstance(surface, str) or not surface.strip():
            raise InvalidInput("surface must be a non-empty string of at most 512 characters")
        check_text("surface", surface, 512)
        if is_canonical_entity(surface):
            raise InvalidInput("a canonical id cannot be an alias of another entity")
        return self._run(lambda uow: op_alias(self._ws, uow, tenant, surface, canonical_id),
                         tenant)

    def define_attribute(self, tenant: str, attribute: str, *, cardinality: str = "one",
                         volatility: str = "stable", ttl_seconds: int | None = None,
                         classification: str = "internal") -> Receipt:
        """Declare an attribute's cardinality (``one``/``many``), volatility, TTL, class."""
        check_tenant(tenant)
        check_attribute(attribute)
        check_choice("cardinality", cardinality, CARDINALITIES)
        check_choice("volatility", volatility, VOLATILITY)
        check_choice("classification", classification, CLASSIFICATIONS)
        if ttl_seconds is not None and (not isinstance(ttl_seconds, int) or ttl_seconds <= 0):
            raise InvalidInput("ttl_seconds must be a positive integer")
        definition = AttributeDef(cardinality, volatility, ttl_seconds, classification)
        return self._run(lambda uow: self._ws.define_attribute(uow, tenant, attribute,
                                                               definition), tenant)


class Transaction(_Writes):
    """Several operations, one atomic commit (``with store.transact() as tx``)."""

    def __init__(self, ws: WriteSide, uow: UnitOfWork) -> None:
        self._ws = ws
        self._uow = uow
        self.receipts: list[Receipt] = []

    def _run(self, op: Callable[[UnitOfWork], Receipt], tenant: str | None = None,
             idempotency_key: str | None = None) -> Receipt:
        if idempotency_key is not None and tenant is not None:
            replay = self._ws.replayed_receipt(tenant, idempotency_key, _REQUEST.get())
            if replay is not None:  # committed before: the original receipt, nothing staged
                return replay
        receipt = op(self._uow)
        if idempotency_key is not None and tenant is not None:
            self._ws.acknowledge(self._uow, tenant, idempotency_key, receipt, _REQUEST.get())
        return receipt


class MemoryStore(_Writes):
    """An open memory-es store. Use :func:`memory_es.open` to get one."""

    def __init__(self, log: EventLog, views: Path, clock: ClockFn | None = None,
                 views_settings: dict[str, str] | None = None,
                 embedder: Embedder | None = None) -> None:
        self._log = log
        self._views_settings = dict(views_settings or {})
        self._erasables: list[Erasable] = []
        self._last_rewrite = 0  # read from the views' meta table once it is open
        self._clock = TransactionClock(clock)
        self._ws = WriteSide(log, self._clock)
        self._lock = threading.RLock()
        self.path = views
        views.mkdir(parents=True, exist_ok=True)
        self._views_file = views / "views.duckdb"
        self._con = self._connect_views()
        self._projector = VersionProjector(self._con)
        self._catchup = Catchup(log.recorder, self._ws.mapper, self._projector)
        self._closed = False
        rows = self._con.execute("SELECT value FROM meta WHERE name = 'last_rewrite'").fetchall()
        self._last_rewrite = int(rows[0][0]) if rows else 0
        self._erasure = ErasureService(self)
        self._erasure.finish_pending()
        self._catchup.run()
        self._recall = RecallIndex(lambda: self._con, views, embedder)
        self._catchup.followers.append(self._recall.follow)
        self._erasables.append(self._recall)
        self._text: Any = None

    def _connect_views(self, path: Path | None = None,
                       carry: dict[str, list[tuple[Any, ...]]] | None = None) -> Any:
        """Open (or create) a views file; ``carry``: rows of :data:`KEPT_TABLES` to insert."""
        path = path or self._views_file
        con = connect(path)
        kept = outdated_views(con)
        if kept is not None:  # an older layout: the views are derived, so replay them
            con.close()
            for stale in (path, Path(str(path) + ".wal")):
                stale.unlink(missing_ok=True)
            con = connect(path)
            carry = kept
        for name, value in self._views_settings.items():
            con.execute(f"SET {name} = '{value}'")
        for ddl in (*DDL, EXPORTS_DDL):
            con.execute(ddl)
        for table, rows in (carry or {}).items():
            if rows:
                marks = ", ".join("?" * len(rows[0]))
                con.executemany(f"INSERT INTO {table} VALUES ({marks})", rows)
        return con

    # plumbing -----------------------------------------------------------------------------

    def _check_open(self) -> None:
        if self._closed:
            raise StoreClosed("the store is closed")

    def _run(self, op: Callable[[UnitOfWork], Receipt], tenant: str | None = None,
             idempotency_key: str | None = None) -> Receipt:
        self._check_open()
        if idempotency_key is not None:
            check_text("idempotency_key", idempotency_key, 256)
        with self._lock, collector_paused():
            request = _REQUEST.get()
            if idempotency_key is not None and tenant is not None:
                replay = self._ws.replayed_receipt(tenant, idempotency_key, request)
                if replay is not None:
                    return replay
            uow = UnitOfWork(self._ws, self._clock.tick())
            try:
                receipt = op(uow)
                if idempotency_key is not None and tenant is not None:
                    self._ws.acknowledge(uow, tenant, idempotency_key, receipt, request)
            except BaseException:
                self._ws.discard(uow)
                raise
            receipts = self._ws.commit(uow)
            return receipts[0] if receipts else receipt

    @contextlib.contextmanager
    def transact(self) -> Iterator[Transaction]:
        """Several operations, one atomic commit; nothing is written if the block raises."""
        self._check_open()
        with self._lock, collector_paused():
            uow = UnitOfWork(self._ws, self._clock.tick())
            tx = Transaction(self._ws, uow)
            try:
                yield tx
            except BaseException:
                self._ws.discard(uow)
                raise
            tx.receipts = self._ws.commit(uow)

    def receipt_for(self, tenant: str, idempotency_key: str) -> Receipt:
        """The receipt of the write made with ``idempotency_key`` (durable across restarts)."""
        check_tenant(tenant)
        check_text("idempotency_key", idempotency_key, 256)
        with self._lock:
            receipt = self._ws.replayed_receipt(tenant, idempotency_key)
        if receipt is None:
            raise NotFound("no write was made with that idempotency key in this tenant")
        return receipt

    def catch_up(self, progress: Progress | None = None) -> int:
        """Bring the projections up to the log's head; returns events applied."""
        self._check_open()
        with self._lock:
            return self._catchup.run(progress)

    def _now(self) -> int:
        return self._clock.now()

    def _entity_filter(self, tenant: str, entity: str | None) -> str | None:
        if entity is None or is_canonical_entity(entity):
            return entity
        found = self._ws.entity_stream(tenant, entity, create=False)
        return None if found is None else found[1]

    # reads --------------------------------------------------------------------------------

    def current(self, tenant: str, entity: str | None = None,
                attribute: str | None = None) -> list[Fact]:
        """Facts true now (at the clock's time when read), in retrievable states."""
        check_tenant(tenant)
        if attribute is not None:
            check_attribute(attribute)
        with self._lock:
            self.catch_up()
            ent = self._entity_filter(tenant, entity)
            return rows_to_facts(queries.current(self._con, self._now(), tenant, ent, attribute,
                                                 as_records=True))

    def as_of(self, tenant: str, *, valid_at: datetime | None = None,
              known_at: datetime | None = None, entity: str | None = None,
              attribute: str | None = None) -> list[Fact]:
        """What the store believed at ``known_at`` about valid time ``valid_at`` (default now)."""
        check_tenant(tenant)
        if attribute is not None:
            check_attribute(attribute)
        now = self._now()
        v = now if valid_at is None else to_micros(valid_at, "valid_at")
        k = now if known_at is None else to_micros(known_at, "known_at")
        with self._lock:
            self.catch_up()
            ent = self._entity_filter(tenant, entity)
            return rows_to_facts(queries.as_of(self._con, v, k, tenant, ent, attribute,
                                               as_records=True))

    def chain(self, tenant: str, fact_id: str) -> list[Fact]:
        """Every fact of the drift chain containing ``fact_id``, oldest first."""
        check_tenant(tenant)
        stream_of(fact_id)
        with self._lock:
            self.catch_up()
            if not queries.fact_exists(self._con, tenant, fact_id):
                raise NotFound(f"fact {fact_id} not found in tenant {tenant}")
            return rows_to_facts(queries.chain(self._con, tenant, fact_id))

    def _set_read_time(self, valid_at: int | None = None, known_at: int | None = None) -> None:
        now = self._now()
        for name, value in (("memory_es_now", now), ("memory_es_valid_at", valid_at or now),
                            ("memory_es_known_at", known_at or now)):
            self._con.execute(f"SET VARIABLE {name} = make_timestamptz({int(value)}::BIGINT)")

    def table(self, name: str, *, tenant: str | None = None) -> pa.Table:
        """A view or table as Arrow: ``fact_versions``, ``facts_current``, ``facts_as_of``..."""
        if name not in VIEWS:
            raise InvalidInput(f"unknown table {name!r}; choose one of {', '.join(VIEWS)}")
        with self._lock:
            self.catch_up()
            self._set_read_time()
            if tenant is None:
                return arrow(self._con, f"SELECT * FROM {name}")
            return arrow(self._con, f"SELECT * FROM {name} WHERE tenant = ?",
                         [check_tenant(tenant)])

    def sql(self, query: str, params: Sequence[Any] | None = None) -> pa.Table:
        """Run SQL over the views (``memory_es_now`` and friends are set to the clock)."""
        with self._lock:
            self.catch_up()
            self._set_read_time()
            return user_query(self._con, query, list(params) if params else None)

    def export(self, path: str | Path, tenant: str | None = None, *,
               valid_at: datetime | None = None, known_at: datetime | None = None) -> Path:
        """Write an as-of snapshot (one tenant, or all) to Parquet; returns the file's path.

        Free-text columns carry no min/max statistics, so a purge that regenerates the
        file leaves no personal data behind in footers.
        """
        if tenant is not None:
            check_tenant(tenant)
        now = self._now()
        v = now if valid_at is None else to_micros(valid_at, "valid_at")
        k = now if known_at is None else to_micros(known_at, "known_at")
        with self._lock:
            self.catch_up()
            snapshot = queries.as_of(self._con, v, k, tenant)
        out = Path(path)
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_suffix(out.suffix + ".tmp")
        stats = [c for c in PUBLIC_COLUMNS if c not in TEXT_COLUMNS]
        pq.write_table(snapshot, tmp, write_statistics=stats)
        tmp.replace(out)
        with self._lock:
            self._con.execute(
                "INSERT INTO exports VALUES (?, ?, ?, ?, ?) ON CONFLICT (path) DO UPDATE SET "
                "tenant = excluded.tenant, valid_at = excluded.valid_at, "
                "known_at = excluded.known_at, written_at = excluded.written_at",
                [str(out.resolve()), tenant, v, k, self._clock.now()])
        return out

    def _regenerate_exports(self) -> None:
        """Rewrite every export the store wrote, so purged rows leave the files too."""
        for path, tenant, v, k in self._con.execute(
                "SELECT path, tenant, valid_at, known_at FROM exports").fetchall():
            if Path(path).exists():
                self.export(path, tenant, valid_at=from_micros(v), known_at=from_micros(k))

    def _compact(self) -> None:
        """Physically drop deleted bytes from every store file (SPEC §8)."""
        self._log.compact()
        self._last_rewrite = self._clock.now()
        self._con.execute("INSERT INTO meta VALUES ('last_rewrite', ?) ON CONFLICT (name) "
                          "DO UPDATE SET value = excluded.value", [str(self._last_rewrite)])
        rewrite_database(self._con, self._views_file)
        self._con = self._connect_views()
        self._projector.con = self._con
        self._catchup.forget_position()
        for erasable in self._erasables:
            compact = getattr(erasable, "compact", None)
            if compact is not None:
                compact()

    def _rewritten_after(self, at: int) -> bool:
        return self._last_rewrite >= at

    # erasure ------------------------------------------------------------------------------

    def preview(self, op: str, tenant: str, entity: str | None = None, *,
                fact_id: str | None = None, motive: str | None = None) -> Preview:
        """List what a destructive operation would touch, with its confirmation token."""
        check_tenant(tenant)
        return self._erasure.preview(op, tenant, entity, fact_id, motive)

    def purge(self, tenant: str, entity: str | None = None, *, fact_id: str | None = None,
              confirm: str | None = None, motive: str | None = "legal_erasure",
              requested_by: str | None = None) -> DeletionReceipt:
        """Crypto-shred an entity, or one fact with its whole drift chain (irreversible)."""
        check_tenant(tenant)
        if fact_id is not None:
            stream_of(fact_id)
        return self._erasure.purge(tenant, entity, fact_id, confirm=confirm, motive=motive,
                                   requested_by=requested_by)

    def erase(self, tenant: str, entity: str | None = None, *, motive: str,
              requested_by: str | None = None, fact_id: str | None = None,
              confirm: str | None = None) -> DeletionReceipt:
        """Route an erasure request by motive (SPEC §6): mask, purge, archive or forget."""
        check_tenant(tenant)
        if motive not in MOTIVES:
            raise InvalidInput(f"motive must be one of {', '.join(MOTIVES)}")
        effect = MOTIVES[motive]
        if effect == "purge":
            return self._erasure.purge(tenant, entity, fact_id, confirm=confirm, motive=motive,
                                       requested_by=requested_by, op="erase")
        with self._lock:
            self.catch_up()
            scope = self._erasure.scope(tenant, entity, fact_id)
            if effect == "forget" and fact_id is None:
                receipts = [self.forget_entity(tenant, scope.entity or "",
                                               reason=f"erase: {motive}")]
            else:
                targets = [fact_id] if fact_id is not None else scope.fact_ids
                live = sorted(
                    f for f in targets
                    if (fs := self._ws.load(stream_of(f)).get(f)) is not None
                    and fs.state not in ("forgotten", "deleted")
                    and not (effect == "mask" and fs.masked)
                    and not (effect == "archive" and fs.state == "archived"))
                if not live:
                    raise NotFound("nothing left to erase: every fact already has that layer")
                operation = {"mask": "mask", "archive": "archive", "forget": "forget_fact"}[effect]
                with self.transact() as tx:
                    for f in live:
                        getattr(tx, operation)(f, reason=f"erase: {motive}")
                receipts = tx.receipts
            self.catch_up()
            return self._erasure.issue_layer(receipts, effect, motive, requested_by, tenant,
                                             scope.entity, scope.stream_id)

    def verify_erasure(self, receipt: DeletionReceipt | dict[str, Any]) -> ErasureReport:
        """Check every store again for what the receipt's purge removed (a residue report)."""
        return self._erasure.verify(receipt)

    def audit_verify(self) -> AuditReport:
        """Recompute the log's hash chains over stored ciphertext and the receipt chain."""
        with self._lock:
            return self._erasure.audit_verify()

    # recall and the text interface --------------------------------------------------------

    def recall(self, tenant: str, query: str, k: int = 8, *, valid_at: datetime | None = None,
               known_at: datetime | None = None, max_classification: str | None = None,
               explain: bool = False, channels: Sequence[str] | None = None,
               receipt: bool = False, caller: str | None = None) -> list[Hit]:
        """Blended keyword + semantic recall over eligible facts only (filtered before top-k).

        Args:
            valid_at, known_at: recall over the belief at that point instead of now.
            max_classification: classification ceiling (public < internal < restricted <
                confidential).
            explain: fill each hit's score parts.
            channels: ``("keyword",)`` or ``("semantic",)`` to use one channel only.
            receipt: record what was served (ids and a keyed query digest) in the tenant's
                hash-chained consumption log; ``caller`` names who was served.
        """
        check_tenant(tenant)
        if max_classification is not None:
            check_choice("max_classification", max_classification, CLASSIFICATIONS)
        v = optional_micros(valid_at, "valid_at")
        k_at = optional_micros(known_at, "known_at")
        with self._lock:
            self._check_open()
            self.catch_up()
            hits = recall_query(self._recall, tenant, query, k, self._now(), valid_at_us=v,
                                known_at_us=k_at, max_classification=max_classification,
                                explain=explain, channels=channels)
            if receipt:
                audit.record_served(self, tenant, query, [h.fact for h in hits], caller, v, k_at)
            return hits

    @property
    def text(self) -> Any:
        """The text interface for agents (``memory_es.text.TextInterface``) over this store."""
        if self._text is None:
            from memory_es.text.interface import TextInterface  # noqa: PLC0415

            self._text = TextInterface(self)
        return self._text

    def remember(self, tenant: str, text: str, **kw: Any) -> list[Receipt]:
        """Interpret ``text`` into facts (one per clause) and write them."""
        return self.text.remember(tenant, text, **kw)  # type: ignore[no-any-return]

    def revise(self, tenant: str, old_query: str, new_text: str, **kw: Any) -> Any:
        """Find the memory ``old_query`` describes and replace it with ``new_text``."""
        return self.text.revise(tenant, old_query, new_text, **kw)

    def release(self, tenant: str, query: str, **kw: Any) -> Any:
        """Decay (release) what clearly matches ``query``."""
        return self.text.release(tenant, query, **kw)

    def forget(self, tenant: str, query: str, **kw: Any) -> Any:
        """Amnesia of the entity the query names (exact identifier first)."""
        return self.text.forget(tenant, query, **kw)

    def purge_matching(self, tenant: str, identifier: str, **kw: Any) -> Any:
        """Crypto-shred what holds ``identifier`` (exact identifier first)."""
        return self.text.purge_matching(tenant, identifier, **kw)

    def recall_texts(self, tenant: str, query: str, k: int = 5) -> list[str]:
        """Recall, returning only the texts."""
        return self.text.recall_texts(tenant, query, k)  # type: ignore[no-any-return]

    # audit reads --------------------------------------------------------------------------

    def replay(self, known_at: datetime, valid_at: datetime | None = None, *,
               progress: Progress | None = None) -> pa.Table:
        """Belief at transaction time ``known_at`` rebuilt from the log alone (hash chains
        checked), as an Arrow table with ``fact_versions``' columns. Unlike ``as_of`` it keeps
        facts forgotten or archived since (``present_state`` says so)."""
        self._check_open()
        with self._lock:
            return audit.replay(self, known_at, valid_at, progress)

    def history(self, tenant: str, fact_id: str) -> list[audit.HistoryEntry]:
        """Every event that touched the fact and its drift chain, oldest first."""
        check_tenant(tenant)
        with self._lock:
            return audit.history(self, tenant, fact_id)

    def served(self, tenant: str, *, since: datetime | None = None,
               fact_id: str | None = None) -> list[audit.ServedRecord]:
        """Consumption receipts: who was given which facts, when."""
        check_tenant(tenant)
        with self._lock:
            return audit.served(self, tenant, since, fact_id)

    def receipts(self) -> list[dict[str, Any]]:
        """The deletion receipts of the audit log, oldest first."""
        with self._lock:
            return self._erasure.receipts()

    def rebuild(self, progress: Progress | None = None) -> int:
        """Replay the whole log into fresh views; returns events replayed.

        The new views are built in a separate file and swapped in only when complete, so
        a rebuild that fails (a tampered event, a full disk) leaves the old views intact.
        """
        self._check_open()
        with self._lock:
            self._ws.forget_cached()
            fresh = self._views_file.with_name(self._views_file.name + ".rebuild")
            for leftover in (fresh, Path(str(fresh) + ".wal")):
                leftover.unlink(missing_ok=True)
            con = self._connect_views(fresh, carry={
                table: self._con.execute(f"SELECT * FROM {table}").fetchall()
                for table in KEPT_TABLES})
            try:
                replayed = Catchup(self._log.recorder, self._ws.mapper,
                                   VersionProjector(con)).run(progress)
                con.execute("CHECKPOINT")
            except BaseException:
                con.close()
                fresh.unlink(missing_ok=True)
                raise
            con.close()
            self._con.close()
            os.replace(fresh, self._views_file)
            Path(str(self._views_file) + ".wal").unlink(missing_ok=True)
            self._con = self._connect_views()
            self._projector.con = self._con
            self._catchup.forget_position()
            self._recall.rebuild()
            return replayed

    def log_position(self) -> int:
        """The log's head position (global order of the last event)."""
        return int(self._log.recorder.max_notification_id() or 0)

    def projection_position(self) -> int:
        return self._catchup.position()

    def now(self) -> datetime:
        return from_micros(self._now())

    # lifecycle ----------------------------------------------------------------------------

    def close(self) -> None:
        if self._closed:
            return
        with self._lock:
            self._closed = True
            with contextlib.suppress(Exception):
                self._recall.close()
            with contextlib.suppress(Exception):
                self._con.close()
            self._log.close()

    def __enter__(self) -> MemoryStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_store(path: str | Path | None = None, *, dsn: str | None = None,
               views: str | Path | None = None, clock: ClockFn | None = None,
               key_file: str | Path | None = None, schema: str | None = None,
               views_settings: dict[str, str] | None = None,
               embedder: Embedder | None = None) -> MemoryStore:
    """Open (or create) a store.

    Args:
        path: folder of the embedded store (SQLite log, key store, DuckDB views, key file).
        dsn: a PostgreSQL connection string; the log and key store go there instead.
        views: with ``dsn``, the local folder for DuckDB views (and the default key file).
        clock: a callable returning aware datetimes (tests, deterministic replays).
        key_file: the master key file (default: ``MEMORY_ES_KEY_FILE``, then
            ``MEMORY_ES_MASTER_KEY``, then ``<folder>/master.key``, created on first use).
        schema: with ``dsn``, the PostgreSQL schema to use (default ``public``).
        views_settings: DuckDB settings for the views connection (e.g. forensic tests set
            ``force_compression='uncompressed'`` so a byte scan sees what compression hides).
        embedder: the recall embedder (default: the deterministic hashing embedder; the
            ``semantic`` extra offers ``projections.embedder.SentenceEmbedder``).
    """
    if dsn is not None:
        if path is not None:
            raise InvalidInput("give either a folder or dsn=, not both")
        if views is None:
            raise InvalidInput("with dsn=, give views= (a local folder for the DuckDB views)")
        folder = Path(views)
        folder.mkdir(parents=True, exist_ok=True)
        master = load_master_key(key_file, folder / "master.key")
        log: EventLog = PostgresEventLog(dsn, master, schema)
    else:
        if path is None:
            raise InvalidInput("give a folder for the embedded store, or dsn= for PostgreSQL")
        folder = Path(path)
        folder.mkdir(parents=True, exist_ok=True)
        master = load_master_key(key_file, folder / "master.key")
        log = SqliteEventLog(folder, master)
    try:
        return MemoryStore(log, folder, clock, views_settings, embedder)
    except BaseException:
        log.close()
        raise
