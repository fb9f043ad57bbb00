"""MemoryStore: the facade. Arguments become commands, commands go to the runtime's one
write path, and reads go to the projections.

command -> event -> log -> projections -> queries: a write appends sealed events and
returns a receipt; a read first lets the projections catch up with the log
(read-your-writes), then queries them.
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

import pyarrow as pa

from memory_es.agent_view import AgentView
from memory_es.choices import Compaction, DestructiveOp
from memory_es.clock import ClockFn, from_micros, optional_micros, to_micros
from memory_es.crypto.master import load_master_key
from memory_es.domain import commands as c
from memory_es.domain.agents import AgentScope, shadow
from memory_es.domain.events import PreferenceDriftDetected
from memory_es.domain.governance import GovernanceConfig
from memory_es.domain.validation import (
    CLASSIFICATIONS,
    check_attribute,
    check_choice,
    check_tenant,
    check_text,
)
from memory_es.errors import InvalidInput, NotFound, ReadOnlyStore
from memory_es.eventlog import EventLog, PostgresEventLog, SqliteEventLog
from memory_es.faults import storage_faults
from memory_es.ids import stream_of, uuid7_str
from memory_es.locks import FolderLock, first_free_slot
from memory_es.models import (
    Anchor,
    AuditReport,
    DeletionReceipt,
    ErasureReport,
    Fact,
    Hit,
    Link,
    Posterior,
    Preview,
    Receipt,
    Replica,
    TierMove,
    Utility,
)
from memory_es.runtime import Runtime
from memory_es.services import audit, integrity, keys
from memory_es.services.erasure import ErasureService
from memory_es.services.governance import GovernanceService
from memory_es.services.notes import NotesService
from memory_es.text.interface import TextInterface, TextResult
from memory_es.write.service import Staging
from projections import queries
from projections.catchup import Progress
from projections.embedder import Embedder
from projections.recall import recall as recall_query
from projections.rows import rows_to_facts

ANCHOR_ENV = "MEMORY_ES_ANCHOR_FILE"
REPLICA_FILES = ("views", "points.sqlite", "recall", "replica.id")
"""What a replica's folder holds (name prefixes): a retired replica's files go with it."""


class _Writes:
    """The write operations, shared by the store (one commit each) and ``transact``:
    each turns its arguments into a command and submits it.

    Operations that name a fact by id take ``tenant=``: given, another tenant's fact id is
    ``NotFound`` and nothing is appended (the CLI and the MCP server always pass it)."""

    def _submit(self, command: c.Command) -> Receipt:
        raise NotImplementedError

    def assert_fact(self, tenant: str, entity: str | None, attribute: str, value: Any, *,
                    valid_from: datetime | None = None, valid_until: datetime | None = None,
                    text: str | None = None, source: str | None = None,
                    asserted_by: str = "user", confidence: float = 1.0,
                    volatility: str | None = None, classification: str | None = None,
                    derived_from: Sequence[str] = (), mention: str | None = None,
                    idempotency_key: str | None = None,
                    interpretation: dict[str, Any] | None = None,
                    importance: float = 0.5, agent: str | None = None,
                    shared: bool = False, negated: bool = False) -> Receipt:
        """Write a fact through the §5 control plane (new, reinforce, outrank or conflict).

        ``importance`` (0..1) feeds ranking and the long-term tier (SPEC §12.1).
        ``agent``: the writing agent; its fact is private to it unless ``shared`` and then
        fills the agent's own slot, never conflicting with other agents' or tenant-wide
        facts (SPEC §12.7). ``negated``: a denial, the slot does not hold ``value``; it
        ends a positive fact of that value and stands beside those of other values
        (:func:`memory_es.domain.control.slot_relation`)."""
        return self._submit(c.AssertFact.of(
            tenant=tenant, entity=entity, attribute=attribute, value=value,
            valid_from=optional_micros(valid_from, "valid_from"),
            valid_until=optional_micros(valid_until, "valid_until"), text=text, source=source,
            asserted_by=asserted_by or "user", confidence=confidence, volatility=volatility,
            classification=classification, derived_from=tuple(derived_from or ()),
            mention=mention, interpretation=interpretation, reason=None,
            idempotency_key=idempotency_key, importance=importance, agent=agent,
            shared=shared, negated=negated))

    def supersede(self, tenant: str, entity: str, attribute: str, value: Any, *,
                  valid_from: datetime | None = None, valid_until: datetime | None = None,
                  text: str | None = None, source: str | None = None,
                  asserted_by: str = "user", confidence: float = 1.0,
                  volatility: str | None = None, classification: str | None = None,
                  derived_from: Sequence[str] = (), reason: str | None = None,
                  idempotency_key: str | None = None,
                  interpretation: dict[str, Any] | None = None,
                  importance: float = 0.5, agent: str | None = None,
                  shared: bool = False, negated: bool = False) -> Receipt:
        """New value for the slot over ``[valid_from, valid_until)`` (UPDATE FOR PORTION OF).

        With ``agent`` (not ``shared``) the slot is that agent's private one: only its own
        private value is replaced (SPEC §12.7). ``negated``: a denial of ``value``, which
        ends only the facts it contradicts or repeats; other values stand
        (:func:`memory_es.domain.control.slot_relation`)."""
        return self._submit(c.Supersede.of(
            tenant=tenant, entity=entity, attribute=attribute, value=value,
            valid_from=optional_micros(valid_from, "valid_from"),
            valid_until=optional_micros(valid_until, "valid_until"), text=text, source=source,
            asserted_by=asserted_by or "user", confidence=confidence, volatility=volatility,
            classification=classification, derived_from=tuple(derived_from or ()),
            mention=None, reason=reason, interpretation=interpretation,
            idempotency_key=idempotency_key, importance=importance, agent=agent,
            shared=shared, negated=negated))

    def correct(self, fact_id: str, value: Any, *, text: str | None = None,
                reason: str | None = None, idempotency_key: str | None = None,
                tenant: str | None = None) -> Receipt:
        """The value was wrong over the fact's whole valid interval: record the right one."""
        return self._submit(c.Correct(fact_id=fact_id, value=value, text=text, reason=reason,
                                      idempotency_key=idempotency_key, tenant=tenant))

    def decay(self, fact_id: str, *, valid_until: datetime | None = None,
              reason: str | None = None, idempotency_key: str | None = None,
              tenant: str | None = None) -> Receipt:
        """Release: the fact stops being valid at ``valid_until`` (default now); row kept."""
        return self._submit(c.Decay(
            fact_id=fact_id, valid_until=optional_micros(valid_until, "valid_until"),
            reason=reason, idempotency_key=idempotency_key, tenant=tenant))

    def retract(self, tenant: str, entity: str, attribute: str, *,
                valid_from: datetime | None = None, valid_until: datetime | None = None,
                reason: str | None = None, idempotency_key: str | None = None,
                agent: str | None = None) -> Receipt:
        """Remove the slot's value over ``[valid_from, valid_until)`` (DELETE FOR PORTION OF);
        with ``agent``, from that agent's private slot only (SPEC §12.7)."""
        return self._submit(c.Retract(
            tenant=tenant, entity=entity, attribute=attribute,
            valid_from=optional_micros(valid_from, "valid_from"),
            valid_until=optional_micros(valid_until, "valid_until"), reason=reason,
            idempotency_key=idempotency_key, agent=agent))

    def forget_entity(self, tenant: str, entity: str, *, reason: str | None = None,
                      idempotency_key: str | None = None) -> Receipt:
        """Amnesia of exactly this entity: every fact becomes ``forgotten`` (terminal)."""
        return self._submit(c.ForgetEntity(tenant=tenant, entity=entity, reason=reason,
                                           idempotency_key=idempotency_key))

    def forget_fact(self, fact_id: str, *, reason: str | None = None,
                    idempotency_key: str | None = None,
                    tenant: str | None = None) -> Receipt:
        """Cascade soft delete: the fact becomes ``forgotten``; derived facts are invalidated."""
        return self._submit(c.ForgetFact(fact_id=fact_id, reason=reason,
                                         idempotency_key=idempotency_key, tenant=tenant))

    def archive(self, fact_id: str, *, reason: str | None = None,
                idempotency_key: str | None = None,
                tenant: str | None = None) -> Receipt:
        """Mark delete: hidden from every default read; reversible with ``restore``."""
        return self._submit(c.Archive(fact_id=fact_id, reason=reason,
                                      idempotency_key=idempotency_key, tenant=tenant))

    def restore(self, fact_id: str, *, reason: str | None = None,
                idempotency_key: str | None = None,
                tenant: str | None = None) -> Receipt:
        """Undo ``archive``: the fact returns to the state it had before."""
        return self._submit(c.Restore(fact_id=fact_id, reason=reason,
                                      idempotency_key=idempotency_key, tenant=tenant))

    def mask(self, fact_id: str, *, reason: str | None = None,
             idempotency_key: str | None = None,
             tenant: str | None = None) -> Receipt:
        """Replace the fact's content by a placeholder in every view (reversible: ``unmask``)."""
        return self._submit(c.Mask(fact_id=fact_id, reason=reason,
                                   idempotency_key=idempotency_key, tenant=tenant))

    def unmask(self, fact_id: str, *, reason: str | None = None,
               idempotency_key: str | None = None,
               tenant: str | None = None) -> Receipt:
        """Show a masked fact's content again (the original was kept sealed in the log)."""
        return self._submit(c.Unmask(fact_id=fact_id, reason=reason,
                                     idempotency_key=idempotency_key, tenant=tenant))

    def resolve_conflict(self, conflict_id: str, winner: str, *,
                         reason: str | None = None, tenant: str | None = None) -> Receipt:
        """Settle an open conflict in favour of ``winner`` (the new fact or one it contradicts)."""
        return self._submit(c.ResolveConflict(conflict_id=conflict_id, fact_id=winner,
                                              reason=reason, tenant=tenant))

    def alias(self, tenant: str, surface: str, canonical_id: str) -> Receipt:
        """Register ``surface`` (e.g. a name or e-mail) as another way to say ``canonical_id``."""
        return self._submit(c.Alias(tenant=tenant, surface=surface, canonical_id=canonical_id))

    def define_attribute(self, tenant: str, attribute: str, *, cardinality: str = "one",
                         volatility: str = "stable", ttl_seconds: int | None = None,
                         classification: str = "internal") -> Receipt:
        """Declare an attribute's cardinality (``one``/``many``), volatility, TTL, class."""
        return self._submit(c.DefineAttribute(
            tenant=tenant, attribute=attribute, cardinality=cardinality, volatility=volatility,
            ttl_seconds=ttl_seconds, classification=classification))


class Transaction(_Writes):
    """Several operations, one atomic commit (``with store.transact() as tx``).

    Usable only inside its ``with`` block: afterwards every write raises ``StoreClosed``.
    """

    def __init__(self, staging: Staging) -> None:
        self._staging = staging

    @property
    def receipts(self) -> list[Receipt]:
        """The committed receipts, in staging order, once the block has ended (empty before
        and when it raised)."""
        return self._staging.receipts

    def _submit(self, command: c.Command) -> Receipt:
        return self._staging.stage(command)


class MemoryStore(_Writes):
    """An open memory-es store. Use :func:`memory_es.open` to get one."""

    def __init__(self, runtime: Runtime, *, governance: GovernanceConfig | None = None,
                 preference_verification: bool = False) -> None:
        self.runtime = runtime
        self.path = runtime.folder
        self._erasure = ErasureService(runtime)
        self._governance = GovernanceService(runtime, governance, preference_verification)
        if governance is not None and governance.summarise is not None:
            runtime.side.summariser = governance.summarise
        self._text = TextInterface(self)

    def _submit(self, command: c.Command) -> Receipt:
        self._check_writable()
        return self.runtime.writes.execute(command)

    def _check_writable(self) -> None:
        self.runtime.check_open()
        if self.runtime.read_only:
            raise ReadOnlyStore("this store was opened with read_only=True; writes go through "
                                "the process that holds it for writing")

    @contextlib.contextmanager
    def transact(self) -> Iterator[Transaction]:
        """Several operations, one atomic commit; nothing is written if the block raises."""
        self._check_writable()
        with self.runtime.writes.unit() as staging:
            tx = Transaction(staging)
            yield tx

    def receipt_for(self, tenant: str, idempotency_key: str) -> Receipt:
        """The receipt of the write made with ``idempotency_key`` (durable across restarts)."""
        check_tenant(tenant)
        check_text("idempotency_key", idempotency_key, c.KEY_LIMIT)
        with self.runtime.lock:
            receipt = self.runtime.side.replayed_receipt(tenant, idempotency_key)
        if receipt is None:
            raise NotFound("no write was made with that idempotency key in this tenant")
        return receipt

    def catch_up(self, progress: Progress | None = None) -> int:
        """Bring the projections up to the log's head; returns events applied."""
        return self.runtime.catch_up(progress)

    # reads --------------------------------------------------------------------------------

    def _single(self, tenant: str) -> Callable[[str], bool]:
        """Whether an attribute of ``tenant`` is cardinality one (a private fact of such a
        slot shadows the tenant-wide ones in its agent's reads, SPEC §12.7)."""
        side = self.runtime.side
        return lambda attribute: side.attribute(tenant, attribute).cardinality == "one"

    def _agent_facts(self, tenant: str, rows: list[dict[str, Any]], reader: AgentScope,
                     now: int) -> list[Fact]:
        """Rows visible to ``reader`` as facts: shadowed rows dropped, each note's
        ``consolidated_into`` filled from the version table (SPEC §12.6-12.7)."""
        rows = shadow(rows, reader, self._single(tenant))
        return self._with_membership(tenant, rows_to_facts(rows), reader, now)

    def _with_membership(self, tenant: str, facts: list[Fact], reader: AgentScope,
                         now: int) -> list[Fact]:
        notes = [f.fact_id for f in facts if f.attribute.startswith("note.")]
        into = queries.consolidated_into(self.runtime.views.con, tenant, notes, now, reader)
        if not into:
            return facts
        return [f.model_copy(update={"consolidated_into": into[f.fact_id]})
                if f.fact_id in into else f for f in facts]

    def current(self, tenant: str, entity: str | None = None,
                attribute: str | None = None, *, agent: str | None = None) -> list[Fact]:
        """Facts true now (at the clock's time when read), in retrievable states.

        ``agent``: tenant-wide and shared facts plus that agent's own private ones, which
        shadow the tenant-wide facts of their cardinality-one slot; without it, tenant-wide
        and shared facts only (SPEC §12.7)."""
        check_tenant(tenant)
        if attribute is not None:
            check_attribute(attribute)
        reader = AgentScope(agent)
        rt = self.runtime
        with rt.lock:
            rt.catch_up()
            ent = rt.side.canonical(tenant, entity)
            now = rt.now()
            return self._agent_facts(tenant, queries.current(
                rt.views.con, now, tenant, ent, attribute, as_records=True, reader=reader),
                reader, now)

    def count(self, tenant: str, *, agent: str | None = None) -> int:
        """How many current versions :meth:`current` reads for the tenant, counted without
        reading them: a size to choose a strategy by. With ``agent``, those it may see,
        before its private facts shadow others (so at least as many as it is shown)."""
        check_tenant(tenant)
        rt = self.runtime
        with rt.lock:
            rt.catch_up()
            return queries.count_current(rt.views.con, rt.now(), tenant, AgentScope(agent))

    def as_of(self, tenant: str, *, valid_at: datetime | None = None,
              known_at: datetime | None = None, entity: str | None = None,
              attribute: str | None = None, agent: str | None = None) -> list[Fact]:
        """What the store believed at ``known_at`` about valid time ``valid_at`` (default now),
        as ``agent`` sees it (see :meth:`current`)."""
        check_tenant(tenant)
        if attribute is not None:
            check_attribute(attribute)
        reader = AgentScope(agent)
        rt = self.runtime
        now = rt.now()
        v = now if valid_at is None else to_micros(valid_at, "valid_at")
        k = now if known_at is None else to_micros(known_at, "known_at")
        with rt.lock:
            rt.catch_up()
            ent = rt.side.canonical(tenant, entity)
            return self._agent_facts(tenant, queries.as_of(
                rt.views.con, v, k, tenant, ent, attribute, as_records=True, reader=reader),
                reader, rt.now())

    def chain(self, tenant: str, fact_id: str, *, agent: str | None = None) -> list[Fact]:
        """Every fact of the drift chain containing ``fact_id``, oldest first (those visible
        to ``agent``; a fact it cannot see is not found, SPEC §12.7)."""
        check_tenant(tenant)
        stream_of(fact_id)
        reader = AgentScope(agent)
        rt = self.runtime
        with rt.lock:
            rt.catch_up()
            if not queries.fact_exists(rt.views.con, tenant, fact_id, reader):
                raise NotFound(f"fact {fact_id} not found in tenant {tenant}")
            facts = rows_to_facts(queries.chain(rt.views.con, tenant, fact_id, reader))
            return self._with_membership(tenant, facts, reader, rt.now())

    def table(self, name: str, *, tenant: str | None = None) -> pa.Table:
        """A view or table as Arrow: ``fact_versions``, ``facts_current``, ``facts_as_of``..."""
        if tenant is not None:
            check_tenant(tenant)
        rt = self.runtime
        with rt.lock:
            rt.catch_up()
            return rt.views.table(name, rt.now(), tenant)

    def sql(self, query: str, params: Sequence[Any] | None = None, *,
            tenant: str | None = None) -> pa.Table:
        """Run one read-only SQL statement over the views, sandboxed (SPEC §14).

        The statement runs on a separate, locked DuckDB database over a snapshot of the
        version rows: it can change nothing and reach no file or network. With ``tenant``
        it sees that tenant's rows only. ``memory_es_now`` and friends are set to the
        store's clock; a refused or failing statement raises ``InvalidInput``.
        """
        if tenant is not None:
            check_tenant(tenant)
        rt = self.runtime
        with rt.lock:
            rt.catch_up()
            return rt.views.sql(query, rt.now(), params, tenant=tenant)

    def export(self, path: str | Path, tenant: str | None = None, *,
               valid_at: datetime | None = None, known_at: datetime | None = None) -> Path:
        """Write an as-of snapshot (one tenant, or all) to Parquet; returns the file's path.

        Free-text columns carry no min/max statistics, so a purge that regenerates the
        file leaves no personal data behind in footers.
        """
        if tenant is not None:
            check_tenant(tenant)
        rt = self.runtime
        now = rt.now()
        v = now if valid_at is None else to_micros(valid_at, "valid_at")
        k = now if known_at is None else to_micros(known_at, "known_at")
        with rt.lock:
            rt.catch_up()
            return rt.views.export(Path(path), tenant, v, k, rt.now())

    # erasure ------------------------------------------------------------------------------

    def preview(self, op: str, tenant: str, entity: str | None = None, *,
                fact_id: str | None = None, motive: str | None = None) -> Preview:
        """List what a destructive operation would touch, with its confirmation token."""
        check_tenant(tenant)
        return self._erasure.preview(op, tenant, entity, fact_id, motive)

    def purge(self, tenant: str, entity: str | None = None, *, fact_id: str | None = None,
              confirm: str | None = None, motive: str | None = "legal_erasure",
              requested_by: str | None = None, reason: str | None = None,
              compact: str = "now") -> DeletionReceipt:
        """Crypto-shred an entity, or one fact with its whole drift chain (irreversible).

        ``reason`` is recorded in the deletion receipt, which is kept in clear for audit:
        give a ticket number or a legal basis, never personal data. ``compact="deferred"``
        lets many purges share one rewrite of the views and recall files: the keys are
        destroyed and the rows removed at once, the files are rewritten by
        :meth:`compact` (or within the erasure deadline), and until then the receipt's
        report says ``pending`` for exactly those files."""
        check_tenant(tenant)
        deferred = Compaction.of(compact) is Compaction.DEFERRED
        check_text("reason", reason, c.REASON_LIMIT)
        if fact_id is not None:
            stream_of(fact_id)
        self._check_writable()
        receipt = self._erasure.purge(tenant, entity, fact_id, confirm=confirm, motive=motive,
                                      requested_by=requested_by, op=DestructiveOp.PURGE,
                                      reason=reason, deferred=deferred)
        self._anchor_after_erasure()
        return receipt

    def erase(self, tenant: str, entity: str | None = None, *, motive: str,
              requested_by: str | None = None, fact_id: str | None = None,
              confirm: str | None = None, reason: str | None = None,
              compact: str = "now") -> DeletionReceipt:
        """Route an erasure request by motive (SPEC §6): mask, purge, archive or forget.
        ``reason`` and ``compact`` are as for :meth:`purge`."""
        check_tenant(tenant)
        deferred = Compaction.of(compact) is Compaction.DEFERRED
        check_text("reason", reason, c.REASON_LIMIT)
        self._check_writable()
        receipt = self._erasure.erase(tenant, entity, fact_id, motive=motive,
                                      requested_by=requested_by, confirm=confirm, reason=reason,
                                      deferred=deferred)
        self._anchor_after_erasure()
        return receipt

    def compact(self) -> None:
        """Run the compaction deferred purges left (``purge(..., compact="deferred")``)."""
        self._check_writable()
        self.runtime.compact()

    def _anchor_after_erasure(self) -> None:
        if self.runtime.anchor_file is not None:
            with self.runtime.lock:
                integrity.write_anchor(self.runtime, self._erasure.receipts,
                                       self.runtime.anchor_file)

    def verify_erasure(self, receipt: DeletionReceipt | dict[str, Any]) -> ErasureReport:
        """Check every store again for what the receipt's purge removed (a residue report)."""
        self.runtime.check_open()
        return self._erasure.verify(receipt)

    def audit_verify(self, anchor: Anchor | dict[str, Any] | None = None) -> AuditReport:
        """Recompute the log's hash chains over stored ciphertext and the receipt chain.

        With ``anchor`` (from :meth:`anchor`, or its JSON form as a dict), also report
        every event or receipt missing at or before that head."""
        self.runtime.check_open()
        with self.runtime.lock:
            return integrity.audit_verify(self.runtime, self._erasure.receipts, anchor)

    def anchor(self) -> Anchor:
        """A signed head record (log position, every stream's head hash, the receipt
        chain's head, the time) to keep outside the store for ``audit_verify(anchor=)``."""
        self.runtime.check_open()
        with self.runtime.lock:
            return integrity.make_anchor(self.runtime, self._erasure.receipts)

    def rotate_master_key(self, new_key_file: str | Path) -> int:
        """Write a fresh master key to ``new_key_file`` (a path that must not exist yet),
        re-wrap every live key under it and remove every copy under the old key; returns
        how many wrapped rows changed. Reopen the store with ``key_file=new_key_file``."""
        self._check_writable()
        return keys.rotate_master_key(self.runtime, new_key_file)

    # replicas (SPEC §13) ------------------------------------------------------------------

    def replicas(self) -> list[Replica]:
        """Every registered views replica, with how far it applied and compacted the log."""
        self.runtime.check_open()
        return [Replica(id=rid, views=views, host=host, applied=applied, compacted=compacted,
                        heartbeat_at=from_micros(beat), this_process=rid == self.runtime.replica_id)
                for rid, views, host, applied, compacted, beat in self.runtime.keys.replicas()]

    def retire_replica(self, replica_id: str) -> None:
        """Remove a decommissioned replica from the registry (and from the proof), deleting
        its files when they are on this machine. This process's own replica cannot retire."""
        self.runtime.check_open()
        if replica_id == self.runtime.replica_id:
            raise InvalidInput("a replica cannot retire itself while it is open")
        found = [r for r in self.replicas() if r.id == replica_id]
        if not found:
            raise NotFound(f"no replica {replica_id} is registered")
        folder = Path(found[0].views)
        if found[0].host == self.runtime.host and folder.is_dir():
            for leftover in folder.iterdir():
                if not leftover.name.startswith(REPLICA_FILES):
                    continue
                if leftover.is_dir():
                    shutil.rmtree(leftover, ignore_errors=True)
                else:
                    leftover.unlink(missing_ok=True)
        self.runtime.keys.retire_replica(replica_id)

    def receipts(self) -> list[dict[str, Any]]:
        """The deletion receipts of the audit log, oldest first."""
        with self.runtime.lock:
            return self._erasure.receipts.all()

    # recall and the text interface --------------------------------------------------------

    def recall(self, tenant: str, query: str, k: int = 8, *, valid_at: datetime | None = None,
               known_at: datetime | None = None, max_classification: str | None = None,
               explain: bool = False, channels: Sequence[str] | None = None,
               receipt: bool = False, caller: str | None = None, explore: bool = False,
               seed: int | None = None, agent: str | None = None,
               include_consolidated: bool = False) -> list[Hit]:
        """Blended keyword + semantic recall over eligible facts only (filtered before top-k).

        Args:
            valid_at, known_at: recall over the belief at that point instead of now.
            max_classification: classification ceiling (public < internal < restricted <
                confidential).
            explain: fill each hit's score parts.
            channels: ``("keyword",)`` or ``("semantic",)`` to use one channel only.
            receipt: record what was served (ids and a keyed query digest) in the tenant's
                hash-chained consumption log; ``caller`` names who was served. Every hit
                then carries the same ``recall_id``, and each served fact enters the
                utility ledger as neutral in that same commit (``judge`` re-judges it).
            explore: Thompson-sample the utility part of facts served fewer than 5 times
                (SPEC §12.2); ``seed`` makes the draw reproducible. The default is
                deterministic.
            agent: candidates are the tenant-wide and shared facts plus that agent's own
                (its private facts shadow the tenant-wide ones of their cardinality-one
                slot); without it, tenant-wide and shared facts only. Filtered before
                ranking, so another agent's private fact never takes a place (SPEC §12.7).
            include_consolidated: also rank the members of consolidation patterns, which
                leave the default candidates (SPEC §12.6).
        """
        check_tenant(tenant)
        if max_classification is not None:
            check_choice("max_classification", max_classification, CLASSIFICATIONS)
        if not isinstance(include_consolidated, bool):
            raise InvalidInput("include_consolidated must be True or False")
        reader = AgentScope(agent)
        v = optional_micros(valid_at, "valid_at")
        k_at = optional_micros(known_at, "known_at")
        rt = self.runtime
        with rt.lock:
            rt.catch_up()
            now = rt.now()
            hits = recall_query(rt.recall, tenant, query, k, now, valid_at_us=v,
                                known_at_us=k_at, max_classification=max_classification,
                                explain=explain, channels=channels, explore_utility=explore,
                                seed=seed, reader=reader, single=self._single(tenant),
                                include_consolidated=include_consolidated)
            facts = self._with_membership(tenant, [h.fact for h in hits], reader, now)
            hits = [h if h.fact is f else h.model_copy(update={"fact": f})
                    for h, f in zip(hits, facts, strict=True)]
            if receipt:
                recall_id = uuid7_str()
                audit.record_served(rt, tenant, query, [h.fact for h in hits], caller, v, k_at,
                                    recall_id=recall_id)
                hits = [h.model_copy(update={"recall_id": recall_id}) for h in hits]
            return hits

    def holding(self, tenant: str, query: str, *, most: int = 64,
                agent: str | None = None) -> list[Fact] | None:
        """The facts :meth:`recall` considers (same eligibility, same reader) that hold a
        keyword term of ``query``, unranked: every whole identifier the query names and
        each other term at most ``most`` facts hold. ``None`` when an identifier is held by
        more than ``most`` facts, or more than ``most`` facts are found: :meth:`recall`
        ranks them instead.

        The exact lookup of a purge by identifier (SPEC §15): the few facts that carry
        an identifier, without ranking every fact that shares a common piece of it."""
        check_tenant(tenant)
        if not isinstance(query, str):
            raise InvalidInput("query must be a string")
        if not isinstance(most, int) or isinstance(most, bool) or most < 1:
            raise InvalidInput("most must be a positive integer")
        reader = AgentScope(agent)
        rt = self.runtime
        with rt.lock:
            rt.catch_up()
            now = rt.now()
            facts = rt.recall.holding(tenant, query, now, most, reader=reader,
                                      single=self._single(tenant), include_consolidated=False)
            return None if facts is None else self._with_membership(tenant, facts, reader, now)

    # governance (SPEC §12.1-12.4) ---------------------------------------------------------

    @property
    def governance(self) -> GovernanceConfig:
        """The governance rules' numbers this store was opened with."""
        return self._governance.config

    def sweep(self, tenant: str) -> list[TierMove]:
        """One tiering round at the store clock's time (SPEC §12.1).

        Each fact moves at most once (promotion rules tried first): working idle 24 h ->
        short_term; short_term used 5 times or on 3 days -> medium_term; short_term idle
        past its volatility TTL -> working; medium_term with importance >= 0.8 ->
        long_term; medium_term idle 7 days -> short_term. Facts whose freshness is older
        than their volatility TTL turn ``stale``. Every move and lapse is an event, all
        committed at once; returns the moves."""
        self._check_writable()
        return self._governance.sweep(tenant)

    def sweep_if_due(self, tenant: str) -> list[TierMove]:
        """:meth:`sweep` when ``GovernanceConfig.sweep_interval_seconds`` has passed since
        this process last swept ``tenant`` (the MCP server calls it on every request)."""
        if self._governance.config.sweep_interval_seconds is None:
            return []
        self._check_writable()
        return self._governance.sweep_if_due(tenant)

    def judge(self, tenant: str, recall_id: str, helpful: Sequence[str] = (),
              misleading: Sequence[str] = ()) -> Receipt:
        """Re-judge facts served by ``recall_id``: helpful ones become useful (+1.0),
        misleading ones harmful (-2.0). Judging the same fact of a recall again replaces
        its judgement. A fact that recall did not serve is ``InvalidInput``; another
        tenant's recall is ``NotFound``."""
        self._check_writable()
        return self._governance.judge(tenant, recall_id, helpful, misleading)

    def utility(self, tenant: str, fact_id: str, *,
                known_at: datetime | None = None) -> Utility:
        """The fact's utility ledger: served, useful, harmful, neutral, utility, ROI and
        q-value (as of ``known_at``, default now)."""
        return self._governance.utility(tenant, fact_id, known_at)

    def feedback(self, tenant: str, fact_id: str, outcome: str) -> Receipt | None:
        """Record ``accepted``, ``rejected``, ``undone`` or ``unknown`` for a preference
        fact. With ``preference_verification`` off (the default) a strict no-op: nothing
        is appended and None is returned."""
        if self._governance.preference_verification:
            self._check_writable()
        return self._governance.feedback(tenant, fact_id, outcome)

    def preference(self, tenant: str, fact_id: str, *,
                   known_at: datetime | None = None) -> Posterior | None:
        """The fact's preference posterior Beta(alpha, beta) (None while the flag is off)."""
        return self._governance.preference(tenant, fact_id, known_at)

    def preference_drift(self, tenant: str, entity: str,
                         attribute: str) -> PreferenceDriftDetected | None:
        """Whether the slot's current preference drifted (last 7 days vs last 90): if so,
        a ``PreferenceDriftDetected`` audit event is appended and returned. Never
        supersedes, decays or changes a state (None while the flag is off)."""
        if self._governance.preference_verification:
            self._check_writable()
        return self._governance.preference_drift(tenant, entity, attribute)

    # governance end ------------------------------------------------------------------------

    # notes (SPEC §12.5-12.6) ---------------------------------------------------------------

    @functools.cached_property
    def _notes(self) -> NotesService:
        return NotesService(self.runtime)

    def note(self, tenant: str, entity: str, category: str, text: str, *,
             importance: float = 0.5, agent: str | None = None, shared: bool = False,
             gate: bool = True) -> Receipt:
        """Write a free-form note (``note.<category>``, cardinality many) behind its gates.

        Quality (length, category keywords, depth markers) below 0.6 raises
        ``QualityRejected`` (``.score``, ``.issues``) and appends nothing. Dedup against
        the visible current notes of the same entity and category: cosine >= 0.95 returns
        the existing note reinforced (``outcome='duplicate'``), 0.85-0.95 gives it a new
        version holding both texts (``outcome='merged'``). A new note is linked both ways
        to every visible current note with cosine >= 0.35 (at most 20 per note, the
        weakest evicted). ``gate=False`` (imports) skips quality and dedup, never links.
        The note, its gate decision and its links are one commit.

        ``agent``/``shared``: the note is private to ``agent`` unless shared, like any
        fact (SPEC §12.7); dedup, links and consolidation only ever see the notes
        visible to the writer (tenant-wide, shared, its own), and a private note is
        never merged into a note of another scope."""
        self._check_writable()
        return self._notes.note(tenant, entity, category, text, importance=importance,
                                agent=agent, shared=shared, gate=gate)

    def links(self, tenant: str, fact_id: str, *, agent: str | None = None,
              known_at: datetime | None = None) -> list[Link]:
        """The note's automatic links visible to ``agent``, strongest first; a note out of
        the retrievable states (forgotten, archived, masked, purged, ...) is in none.
        ``known_at``: the links as they stood at that transaction time (an audit read:
        a note forgotten since still shows, as in ``replay``)."""
        self.runtime.check_open()
        return self._notes.links(tenant, fact_id, agent, None if known_at is None
                                 else to_micros(known_at, "known_at"))

    def consolidate(self, tenant: str, *, entity: str | None = None, min_cluster: int = 3,
                    overlap: float = 0.4, summarise: Callable[[Sequence[str]], str] | None = None,
                    agent: str | None = None) -> list[Receipt]:
        """Cluster the current ``note.finding`` notes (keyword Jaccard >= ``overlap``,
        union-find, clusters of >= ``min_cluster``) and write one ``note.pattern`` per
        cluster on ``pattern:<cluster id>``, ``derived_from`` its members, with text from
        ``summarise`` (default: a deterministic extractive summary). A cluster that gained
        members supersedes its pattern; an unchanged one writes nothing. When a member
        later leaves present belief or is corrected, its pattern is deprecated and
        regenerated from the rest in the same commit; a purge of a member crypto-shreds
        every pattern version that drew on it. Returns the patterns' receipts."""
        self._check_writable()
        return self._notes.consolidate(tenant, entity=entity, min_cluster=min_cluster,
                                       overlap=overlap, summarise=summarise, agent=agent)

    def consolidated_into(self, tenant: str, fact_id: str) -> str | None:
        """The live pattern the note is a member of (None when it is in none)."""
        self.runtime.check_open()
        return self._notes.consolidated_into(tenant, fact_id)

    # notes end -----------------------------------------------------------------------------

    @property
    def text(self) -> TextInterface:
        """The text interface for agents (``memory_es.text.TextInterface``) over this store."""
        return self._text

    def remember(self, tenant: str, text: str, **kw: Any) -> list[Receipt]:
        """Interpret ``text`` into facts (one per clause) and write them."""
        return self._text.remember(tenant, text, **kw)

    def revise(self, tenant: str, old_query: str, new_text: str, **kw: Any) -> TextResult:
        """Find the memory ``old_query`` describes and replace it with ``new_text``."""
        return self._text.revise(tenant, old_query, new_text, **kw)

    def release(self, tenant: str, query: str, **kw: Any) -> TextResult:
        """Decay (release) what clearly matches ``query``."""
        return self._text.release(tenant, query, **kw)

    def forget(self, tenant: str, query: str, **kw: Any) -> TextResult:
        """Amnesia of the entity the query names (exact identifier first)."""
        return self._text.forget(tenant, query, **kw)

    def purge_matching(self, tenant: str, identifier: str, **kw: Any) -> TextResult:
        """Crypto-shred what holds ``identifier`` (exact identifier first)."""
        return self._text.purge_matching(tenant, identifier, **kw)

    def recall_texts(self, tenant: str, query: str, k: int = 5, *,
                     agent: str | None = None) -> list[str]:
        """Recall, returning only the texts (as ``agent`` sees the tenant, SPEC §12.7)."""
        if agent is None:
            return self._text.recall_texts(tenant, query, k)
        return TextInterface(AgentView(self, agent)).recall_texts(tenant, query, k)

    # audit reads --------------------------------------------------------------------------

    def replay(self, known_at: datetime, valid_at: datetime | None = None, *,
               progress: Progress | None = None) -> pa.Table:
        """Belief at transaction time ``known_at`` rebuilt from the log alone (hash chains
        checked), as an Arrow table with ``fact_versions``' columns. Unlike ``as_of`` it keeps
        facts forgotten or archived since (``present_state`` says so)."""
        self.runtime.check_open()
        with self.runtime.lock:
            return audit.replay(self.runtime, known_at, valid_at, progress,
                                self._governance.config)

    def history(self, tenant: str, fact_id: str) -> list[audit.HistoryEntry]:
        """Every event that touched the fact and its drift chain, oldest first."""
        check_tenant(tenant)
        with self.runtime.lock:
            return audit.history(self.runtime, tenant, fact_id)

    def served(self, tenant: str, *, since: datetime | None = None,
               fact_id: str | None = None) -> list[audit.ServedRecord]:
        """Consumption receipts: who was given which facts, when."""
        check_tenant(tenant)
        with self.runtime.lock:
            return audit.served(self.runtime, tenant, since, fact_id)

    def projection_lag(self) -> int:
        """Events in the log this replica has not applied yet."""
        return max(0, self.log_position() - self.runtime.views.position())

    def rebuild(self, progress: Progress | None = None) -> int:
        """Replay the whole log into fresh views; returns events replayed.

        The new views are built in a separate file and swapped in only when complete, so
        a rebuild that fails (a tampered event, a full disk) leaves the old views intact.
        """
        return self.runtime.rebuild(progress)

    def log_position(self) -> int:
        """The log's head position (global order of the last event)."""
        return int(self.runtime.log.recorder.max_notification_id() or 0)

    def projection_position(self) -> int:
        return self.runtime.views.position()

    def now(self) -> datetime:
        return from_micros(self.runtime.now())

    # lifecycle ----------------------------------------------------------------------------

    def close(self) -> None:
        self.runtime.close()

    def __enter__(self) -> MemoryStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_store(path: str | Path | None = None, *, dsn: str | None = None,
               views: str | Path | None = None, clock: ClockFn | None = None,
               key_file: str | Path | None = None, schema: str | None = None,
               views_settings: dict[str, str] | None = None,
               embedder: Embedder | None = None, read_only: bool = False,
               anchor_file: str | Path | None = None, preference_verification: bool = False,
               governance: GovernanceConfig | None = None) -> MemoryStore:
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
        read_only: read beside the process that writes: this process keeps its own views
            replica (embedded: ``<folder>/replicas/reader-N``) and refuses writes. Without
            it, a second process opening an embedded store gets ``StoreLocked``.
        anchor_file: after every purge or erase, write a fresh signed anchor there
            (default ``MEMORY_ES_ANCHOR_FILE``; keep it outside the store's folder).
        preference_verification: turn on ``feedback``/``preference``/``preference_drift``
            (SPEC §12.4); off, they append nothing and return None.
        governance: the §12 rules' numbers (default ``GovernanceConfig()``).
    """
    anchor_path = anchor_file or os.environ.get(ANCHOR_ENV) or None
    locks: list[FolderLock] = []

    def release() -> None:
        for held in locks:
            held.release()

    try:
        with storage_faults("opening the store"):
            if dsn is not None:
                if path is not None:
                    raise InvalidInput("give either a folder or dsn=, not both")
                if views is None:
                    raise InvalidInput("with dsn=, give views= (a local folder for the views)")
                folder = Path(views)
                locks.append(FolderLock(folder / "views.lock", f"the views folder {folder}"))
                master, default_key = load_master_key(key_file, folder / "master.key")
                log: EventLog = PostgresEventLog(dsn, master, schema)
            else:
                if path is None:
                    raise InvalidInput("give a folder for the embedded store, or dsn= for "
                                       "PostgreSQL")
                root = Path(path)
                if read_only:
                    if not (root / "events.db").exists():
                        raise NotFound(f"no store at {root} to read")
                    folder, slot = first_free_slot(root / "replicas", "reader", "reader")
                    locks.append(slot)
                else:
                    folder = root
                    locks.append(FolderLock(root / "writer.lock", f"the store at {root}"))
                master, default_key = load_master_key(key_file, root / "master.key",
                                                      create=not (root / "keys.db").exists())
                log = SqliteEventLog(root, master)
            runtime: Runtime | None = None
            try:
                runtime = Runtime(log, folder, clock, views_settings, embedder, default_key,
                                  None if anchor_path is None else Path(anchor_path),
                                  read_only=read_only, on_close=release)
                if not read_only:  # recovery is the writer's: readers follow what it did
                    runtime.side.recover_pool()  # names a crash lost, before any lookup
                    ErasureService(runtime).finish_pending()  # before the views see the log
                    keys.reconcile_deletions(runtime)  # a restored key store revives nobody
                runtime.start()
                return MemoryStore(runtime, governance=governance,
                                   preference_verification=preference_verification)
            except BaseException:
                if runtime is not None:
                    runtime.close()
                else:
                    log.close()
                raise
    except BaseException:
        release()
        raise
