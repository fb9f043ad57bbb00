"""The recall projection (:class:`RecallIndex`) and the recall query over it (:func:`recall`).

The index gives every indexed fact a dense integer *label* (never reused) under which
its vector (:mod:`projections.recall.vectors`), its postings
(:mod:`projections.recall.keywords`) and its ranking inputs live, plus the row mirror
(:mod:`projections.recall.mirror`) that judges currency and turns hits into facts.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from memory_es.choices import CheckResult
from memory_es.clock import to_micros
from memory_es.domain.agents import AgentScope, shadow, slot_owner
from memory_es.domain.governance import DEFAULT, GovernanceConfig, q_value
from memory_es.domain.validation import CLASSIFICATION_RANK, CLASSIFICATIONS
from memory_es.errors import IntegrityViolation
from memory_es.models import Fact, Hit, StoreCheck
from projections import governance, queries
from projections.connection import arrow
from projections.embedder import Embedder, default_embedder, has_sparse_vectors
from projections.recall import persist
from projections.recall.documents import digest, document
from projections.recall.eligible import UPDATE_MOST, ChangedLabels, Eligible, updated
from projections.recall.keywords import KeywordIndex, KeywordSegments
from projections.recall.mirror import ROW_COLUMNS, Grouped, VersionMirror
from projections.recall.ranking import (
    Ranked,
    blend,
    check_channels,
    check_k,
    class_ceiling,
    explore,
    importance,
    merge_pools,
    pool_size,
)
from projections.recall.vectors import SegmentedVectors
from projections.rows import rows_to_facts
from projections.schema import ELIGIBLE, PUBLIC_COLUMNS
from projections.tokens import identifiers_only, keyword_tokens
from projections.versions import AppliedBatch, handed_rows, row_schema

log = logging.getLogger(__name__)

_PROJECTION = "fact_versions"


class RecallIndex:
    """The recall projection: FAISS vectors + BM25 postings + an eligibility mirror.

    Args:
        con: the store's DuckDB connection (``fact_versions`` and ``tracking``), or a
            callable returning the current one (the store reconnects when it compacts).
        folder: the store's (or replica's) views folder; the index's files are in its
            ``recall/`` folder (:mod:`projections.recall.persist`).
        embedder: the vector space (default :func:`projections.embedder.default_embedder`).
        checkpoint_seconds: how often :meth:`sync` writes the file (also on
            :meth:`flush` and :meth:`close`).
        verify: re-read every hit from DuckDB with the current-view filter and count
            disagreements in :attr:`verify_misses` (tests; costs 5-8 ms per recall).
        position: the version projection's applied position as its owner keeps it in
            memory (it may be ahead of DuckDB's tracking row while the views' writes are
            deferred); without it every recall asks DuckDB (≈ 1-6 ms a statement).
        ledger_con: the connection the ledger tables are read through when following
            (one that need not wait for the version rows' deferred writes).
    """

    name = "recall_index"

    def __init__(self, con: duckdb.DuckDBPyConnection | Callable[[], duckdb.DuckDBPyConnection],
                 folder: Path | str, embedder: Embedder | None = None, *,
                 checkpoint_seconds: float = 60.0, verify: bool = False,
                 position: Callable[[], int] | None = None,
                 ledger_con: Callable[[], duckdb.DuckDBPyConnection] | None = None) -> None:
        self._con = con
        self._position = position
        self._beside: ThreadPoolExecutor | None = None
        """The keyword channel's thread, started by the first large recall."""
        self._ledger_con = ledger_con
        self.folder = Path(folder)
        self.path = persist.folder_of(self.folder)
        """The folder of the manifest and the segment files."""
        self._manifest: persist.Manifest | None = None
        self._dirty: set[int] = set()
        """Segments changed since their file was written."""
        self._removed_from: set[int] = set()
        """Segments whose file still holds facts removed since (a purge waits for them)."""
        self._rewrite_all = False
        """After a reset: every segment the manifest names is rewritten (or dropped)."""
        self.embedder = embedder if embedder is not None else default_embedder()
        self.checkpoint_seconds = checkpoint_seconds
        self.verify = verify
        self.position = 0
        self.rebuilt: str | None = None
        """Why opening rebuilt or reconciled the index (``None`` if the file was current)."""
        self.last_error: str | None = None
        self.verify_misses = 0
        """Hits the mirror proposed that DuckDB's re-read rejected (must stay 0)."""
        self.governance: GovernanceConfig = DEFAULT
        """The q-value's and the forgetting curve's numbers (:meth:`configure` sets them)."""
        self._stale = False
        self._needs_diff = True  # the mirror is never persisted: fill it from DuckDB
        self._unsaved = 0
        self.defer_vectors = False
        """While true (a deferred purge), removed vectors leave FAISS at :meth:`compact`."""
        self._unremoved: list[int] = []
        self._saved_at = time.monotonic()
        self._closed = False
        self._reset()
        self._load()
        self.catch_up()
        if self.rebuilt is not None or self._unsaved:
            self.flush()  # e.g. a purge that crashed before the file was rewritten

    @property
    def con(self) -> duckdb.DuckDBPyConnection:
        """The store's DuckDB connection as of now."""
        return self._con() if callable(self._con) else self._con

    @con.setter
    def con(self, value: duckdb.DuckDBPyConnection) -> None:
        self._con = value

    def ledgers_con(self) -> duckdb.DuckDBPyConnection:
        """The connection the ledger tables are read through when following (``ledger_con``
        when given: one that need not wait for the version rows' deferred writes)."""
        return self._ledger_con() if self._ledger_con is not None else self.con

    # state --------------------------------------------------------------------------------

    def _reset(self) -> None:
        self.vectors = SegmentedVectors(self.embedder.dim, persist.SEGMENT_LABELS,
                                        columns=has_sparse_vectors(self.embedder))
        self._unremoved = []
        self.keywords = KeywordSegments(persist.SEGMENT_LABELS)
        self._rewrite_all = True
        self.versions = VersionMirror()
        self._label_of: dict[str, int] = {}
        self._fact_of: dict[int, str] = {}
        self._ids: dict[int, pa.Array] = {}
        """Per segment, each label's fact id (null: a free label), built when a lookup
        needs it after the segment's labels changed (:meth:`_labels_of`)."""
        self._tenant_code: dict[str, int] = {}
        self._next_label = 0
        cap = 1024
        self._tenant = np.full(cap, -1, np.int32)
        self._class = np.full(cap, 127, np.int8)
        self._utility = np.zeros(cap, np.float32)
        self._importance = np.zeros(cap, np.float32)
        self._anchor = np.zeros(cap, np.int64)
        self._digest = np.zeros(cap, np.int64)
        self._served = np.zeros(cap, np.int32)
        self._useful = np.zeros(cap, np.int32)
        self._owner = np.full(cap, -1, np.int32)
        """Code of the agent whose private fact it is (-1: tenant-wide or shared, SPEC §12.7)."""
        self._owner_code: dict[str, int] = {}
        self._slot = np.zeros(cap, np.int64)
        """Digest of the fact's (tenant, entity, attribute): a private fact shadows the
        tenant-wide facts of its slot in its agent's recall."""
        self._private: dict[int, str] = {}
        """Label -> attribute of every indexed private fact (shadowing needs its cardinality)."""
        self._members: dict[int, tuple[str, ...]] = {}
        """Label of a consolidation pattern -> its members (they leave default recall)."""
        self._eligible_cache: dict[tuple[str, int, bool], Eligible] = {}
        self._changed = ChangedLabels()
        """Labels whose slots or metadata (tenant, class, members) changed, for the kept
        masks to be updated by (:mod:`projections.recall.eligible`)."""

    def reset(self) -> None:
        """Forget everything (the next :meth:`catch_up` repopulates it from DuckDB)."""
        self._reset()
        self.position = 0
        self._unsaved += 1

    def _grow_labels(self, needed: int) -> None:
        cap = len(self._tenant)
        if needed <= cap:
            return
        extra = max(needed, 2 * cap) - cap
        self._tenant = np.concatenate([self._tenant, np.full(extra, -1, np.int32)])
        self._class = np.concatenate([self._class, np.full(extra, 127, np.int8)])
        self._utility = np.concatenate([self._utility, np.zeros(extra, np.float32)])
        self._importance = np.concatenate([self._importance, np.zeros(extra, np.float32)])
        self._anchor = np.concatenate([self._anchor, np.zeros(extra, np.int64)])
        self._digest = np.concatenate([self._digest, np.zeros(extra, np.int64)])
        self._served = np.concatenate([self._served, np.zeros(extra, np.int32)])
        self._useful = np.concatenate([self._useful, np.zeros(extra, np.int32)])
        self._owner = np.concatenate([self._owner, np.full(extra, -1, np.int32)])
        self._slot = np.concatenate([self._slot, np.zeros(extra, np.int64)])

    def _code(self, tenant: str) -> int:
        code = self._tenant_code.get(tenant)
        if code is None:
            code = len(self._tenant_code)
            self._tenant_code[tenant] = code
        return code

    def _set_meta(self, labels: list[int], facts: list[int], digests: list[int],
                  grouped: Grouped, tid: int, ledgers: dict[str, governance.Ledger]) -> None:
        """Mirror each label's fact (``facts``: indices into ``grouped``) and document
        digest, one numpy write per column and one Python call per distinct value where a
        value maps to a number; the utility part is the fact's q-value, recency runs from
        its last use."""
        if not labels:
            return
        self._changed.note(labels)
        at = np.asarray(labels, np.int64)
        which = np.asarray(facts, np.int64)
        col = functools.partial(grouped.column, facts=which)
        tenants, attributes = col("tenant"), col("attribute")
        self._tenant[at] = _mapped(tenants, self._code)
        self._class[at] = _mapped(col("classification"),
                                  lambda c: CLASSIFICATION_RANK.get(c, 127))
        cfg = self.governance
        last_used = np.zeros(at.size, np.int64)
        if ledgers:
            unused = governance.Ledger()
            books = [ledgers.get(grouped.fact_ids[i], unused) for i in facts]
            self._utility[at] = [q_value(b.judgements, cfg) for b in books]
            self._served[at] = [len(b.judgements) for b in books]
            self._useful[at] = [b.judgements.count("useful") for b in books]
            last_used[:] = [b.last_used or 0 for b in books]
        else:
            self._utility[at] = q_value((), cfg)
            self._served[at] = 0
            self._useful[at] = 0
        self._importance[at] = _mapped(
            list(zip(col("asserted_by"), col("volatility"), col("confidence"), col("state"),
                     col("importance"), strict=True)), lambda key: importance(*key))
        recorded = np.array(col("_ra"), np.int64)
        verified = np.array([v or 0 for v in col("_va")], np.int64)
        self._anchor[at] = np.maximum(np.maximum(recorded, verified), last_used)
        self._digest[at] = digests
        owners = [slot_owner(a, bool(shared)) for a, shared in zip(
            col("agent", last=True), col("shared", last=True), strict=True)]
        self._owner[at] = [-1 if o is None else self._owner_code.setdefault(o, len(
            self._owner_code)) for o in owners]
        self._slot[at] = [digest(f"{t}\x1f{e}\x1f{a}") for t, e, a in zip(
            tenants, col("entity"), attributes, strict=True)]
        patterns = [k for k, a in enumerate(attributes) if a == queries.PATTERN_ATTRIBUTE]
        members = dict(zip(patterns, grouped.column("derived_from", which[patterns], last=True),
                           strict=True)) if patterns else {}
        if self._private or self._members or patterns or any(o is not None for o in owners):
            for k, (label, owner) in enumerate(zip(labels, owners, strict=True)):
                if owner is None:
                    self._private.pop(label, None)
                else:
                    self._private[label] = str(attributes[k])
                if members.get(k):
                    self._members[label] = tuple(members[k])
                else:
                    self._members.pop(label, None)
        counts, starts, ends, version_rows = grouped.versions(which)
        self.versions.place(at, counts, starts, ends, version_rows, tid)

    # following the version table ------------------------------------------------------------

    def duck_position(self) -> int:
        """The version projection's tracking position in DuckDB (``position``, when given:
        the views' applied position, which may be ahead of DuckDB's tracking row while
        their writes are deferred; the rows of those batches reached this index through
        :meth:`follow`)."""
        if self._position is not None:
            return self._position()
        rows = self.con.execute("SELECT position FROM tracking WHERE name = ?",
                                [_PROJECTION]).fetchall()
        return int(rows[0][0]) if rows else 0

    def _open_rows(self, fact_ids: Sequence[str] | None,
                   applied: AppliedBatch | None = None) -> pa.Table:
        """Open, eligible, unmasked versions (of ``fact_ids``, or of every fact). From a
        batch the projector handed over whole (``applied``), they are its own rows: it
        closed every earlier open row of the facts it touched, so no DuckDB read."""
        sql = (f"SELECT {ROW_COLUMNS} FROM fact_versions WHERE recorded_until IS NULL "
               f"AND {ELIGIBLE} AND NOT masked")
        if applied is not None and applied.rows is not None and fact_ids is not None:
            return handed_rows(applied.rows, lambda: arrow(self.con, sql + " LIMIT 0").schema)
        if fact_ids is None:
            return arrow(self.con, sql)
        if not fact_ids:  # a purge's own facts are gone: no read, not even an empty one
            return row_schema(lambda: arrow(self.con, sql + " LIMIT 0").schema).empty_table()
        self.con.register("_recall_wanted", pa.table({"fact_id": pa.array(
            list(fact_ids), pa.string())}))
        try:
            return arrow(self.con, sql + " AND fact_id IN (SELECT fact_id FROM _recall_wanted)")
        finally:
            self.con.unregister("_recall_wanted")

    def sync(self, fact_ids: Sequence[str] | None, position: int,
             applied: AppliedBatch | None = None, gone: frozenset[str] = frozenset()) -> int:
        """Bring the entries of ``fact_ids`` (``None``: every fact) in line with DuckDB;
        ``applied``: the batch that changed them, handed over whole by the projector;
        ``gone``: those a purge deleted (removed without a DuckDB read).

        Returns how many facts were added, re-embedded or removed.
        """
        if fact_ids is not None and not fact_ids:
            self.position = position
            return 0
        table = self._open_rows(None if fact_ids is None else sorted(set(fact_ids) - gone),
                                applied)
        grouped = Grouped(table)
        fresh = applied.fresh if applied is not None else frozenset()
        books = None if fact_ids is None else [f for f in grouped.fact_ids if f not in fresh]
        ledgers = governance.ledgers(self.ledgers_con(), books) if books is None or books else {}
        tid = self.versions.add_table(table.select(PUBLIC_COLUMNS))
        wanted = (set(grouped.index) | set(self._label_of)) if fact_ids is None \
            else set(fact_ids)
        everyone = np.arange(len(grouped), dtype=np.int64)
        texts = zip(*(grouped.column(name, everyone)
                      for name in ("text", "entity", "mention", "attribute", "negated")),
                    strict=True)
        docs = [document(text, entity, mention, attribute, negated=bool(negated))
                for text, entity, mention, attribute, negated in texts]
        removals: list[int] = []
        adds: list[tuple[str, str, int, int]] = []
        kept: list[tuple[int, int, int]] = []
        for fid in sorted(wanted):
            i = grouped.index.get(fid)
            label = self._label_of.get(fid)
            if i is None:
                if label is not None:
                    removals.append(label)
                continue
            doc_digest = digest(docs[i])
            if label is not None and int(self._digest[label]) == doc_digest:
                kept.append((label, i, doc_digest))
                continue
            if label is not None:
                removals.append(label)
            adds.append((fid, docs[i], doc_digest, i))
        self._remove_labels(removals)
        self._set_meta([label for label, _, _ in kept], [i for _, i, _ in kept],
                       [d for _, _, d in kept], grouped, tid, ledgers)
        if adds:
            first = self._next_label
            labels = np.arange(first, first + len(adds), dtype=np.int64)
            self._next_label += len(adds)
            self._grow_labels(self._next_label)
            added = [doc for _, doc, _, _ in adds]
            self.vectors.add(labels, self.embedder.embed(added))
            self.keywords.add(labels.tolist(), added)
            self._dirty.update((labels // persist.SEGMENT_LABELS).tolist())
            for label, (fid, _, _, _) in zip(labels.tolist(), adds, strict=True):
                self._label_of[fid] = label
                self._fact_of[label] = fid
                self._ids.pop(label // persist.SEGMENT_LABELS, None)
            self._set_meta(labels.tolist(), [i for _, _, _, i in adds],
                           [d for _, _, d, _ in adds], grouped, tid, ledgers)
        self.versions.release_unused(tid)
        self.versions.merge_small()
        self.position = position
        changed = len(removals) + len(adds)
        self._unsaved += changed
        if self._unsaved and time.monotonic() - self._saved_at >= self.checkpoint_seconds:
            self.flush()
        return changed

    def _remove_labels(self, labels: list[int]) -> None:
        if not labels:
            return
        self._changed.note(labels)
        if self.defer_vectors:  # FAISS removal is linear in the index: batch it (compact)
            self._unremoved.extend(labels)
            removed = len(labels)
        else:
            removed = self.vectors.remove(np.asarray(labels, dtype=np.int64))
        self.keywords.remove(labels)
        segments = {label // persist.SEGMENT_LABELS for label in labels}
        self._dirty |= segments
        self._removed_from |= segments
        for segment in segments:
            self._ids.pop(segment, None)
        for label in labels:
            fid = self._fact_of.pop(label)
            del self._label_of[fid]
            self._tenant[label] = -1
            self._class[label] = 127
            self._owner[label] = -1
            self._private.pop(label, None)
            self._members.pop(label, None)
            self._digest[label] = 0
        self.versions.drop_many(labels)
        if removed != len(labels):
            self._stale = True
            raise IntegrityViolation(
                f"FAISS removed {removed} of {len(labels)} vectors; the index will be rebuilt")

    def follow(self, fact_ids: Sequence[str], position: int, since: int,
               applied: AppliedBatch | None = None) -> None:
        """Follower hook for the catch-up loop, after each version-projection batch.

        Args:
            fact_ids: facts the batch touched.
            position: the log position the batch ends at.
            since: the position before the batch. If the index is not there (it missed
                batches, or the views are being replayed), it stops following and the
                next :meth:`catch_up` diffs every fact once.
            applied: what the batch wrote (:attr:`VersionProjector.applied`); used when
                it is this batch's and complete, else the rows are read from DuckDB.

        Never raises: a failure marks the index stale and the next :meth:`catch_up`
        (every search does one) rebuilds it from DuckDB, so a failing projection stops
        itself and never fails the write or the version projection.
        """
        if position <= self.position and not self._needs_diff:
            return  # already held (the views replay what their snapshot had not kept)
        if self._needs_diff or self.position != since:
            self._needs_diff = True  # missed batches (or a replay): one diff at catch_up
            return
        gone = applied.purged if applied is not None and applied.position == position \
            else frozenset()
        if applied is not None and not (applied.complete and applied.position == position):
            applied = None
        try:
            self.sync(fact_ids, position, applied, gone)
        except Exception as e:  # a failing projection stops itself, never the caller
            self._stale = True
            self.last_error = f"{type(e).__name__}: {e}"
            log.exception("recall index sync failed; it will be rebuilt")

    def catch_up(self) -> None:
        """Reconcile with DuckDB's tracking position (a full diff when they differ)."""
        position = self.duck_position()
        needs_diff, self._needs_diff = self._needs_diff, False
        if self._stale:
            self._reset()
            self.rebuilt = self.rebuilt or "recovery"
            self.sync(None, position)
            self._stale = False
        elif needs_diff or position != self.position:
            if self.rebuilt is None and position != self.position:
                self.rebuilt = f"position {self.position} != {position}"
            self.sync(None, position)

    def refresh_ledgers(self, fact_ids: Iterable[str]) -> None:
        """Follower hook for ledger-only changes (a recall receipt, a judgement): update
        the q-values, serve counts and last uses of these facts without re-reading their
        rows. Never raises: a failure makes the next :meth:`catch_up` rebuild the index."""
        labels = [(f, self._label_of[f]) for f in fact_ids if f in self._label_of]
        if not labels or self._needs_diff or self._stale:
            return
        try:
            books = governance.ledgers(self.ledgers_con(), [f for f, _ in labels])
            unused = governance.Ledger()
            for fid, label in labels:
                book = books.get(fid, unused)
                self._utility[label] = q_value(book.judgements, self.governance)
                self._served[label] = len(book.judgements)
                self._useful[label] = book.judgements.count("useful")
                self._anchor[label] = max(int(self._anchor[label]), book.last_used or 0)
        except Exception as e:  # a failing projection stops itself, never the caller
            self._stale = True
            self.last_error = f"{type(e).__name__}: {e}"
            log.exception("recall index ledger refresh failed; it will be rebuilt")

    def configure(self, config: GovernanceConfig) -> None:
        """Use ``config``'s numbers for q-values and the forgetting curve (a store opened
        with ``governance=``); q-values already mirrored are recomputed."""
        if config == self.governance:
            return
        self.governance = config
        self.sync(None, self.duck_position())

    def in_line(self, position: int) -> bool:
        """Whether this index mirrors the views at ``position`` (it followed every batch
        up to there, and no failure left it to be rebuilt)."""
        return not self._needs_diff and not self._stale and self.position == position

    def rebuild(self, changed: Sequence[str] | None = None) -> int:
        """Diff every fact against DuckDB (after ``store.rebuild``), or, when the index was
        :meth:`in_line` with the views the rebuild replaced, only the facts whose rows
        the rebuild changed (``changed``: :attr:`projections.views.Views.rebuilt_changes`);
        returns changes."""
        if changed is not None and not self._needs_diff and not self._stale:
            return self.sync(sorted(changed), self.duck_position())
        self._needs_diff = False
        return self.sync(None, self.duck_position())

    def remove(self, fact_ids: Iterable[str]) -> int:
        """Remove facts now (before a purge deletes their rows); returns how many were
        indexed. Call :meth:`flush` afterwards so the file forgets them too."""
        labels = [self._label_of[f] for f in set(fact_ids) if f in self._label_of]
        self._remove_labels(labels)
        self._unsaved += len(labels)
        return len(labels)

    # introspection ------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._label_of)

    def __contains__(self, fact_id: object) -> bool:
        return fact_id in self._label_of

    def label(self, fact_id: str) -> int | None:
        """The fact's label, if it is indexed."""
        return self._label_of.get(fact_id)

    def fact_of(self, label: int) -> str:
        """The fact indexed under ``label``."""
        return self._fact_of[label]

    def digest_of(self, fact_id: str) -> int | None:
        """The digest of the document the fact is indexed under (None: not indexed)."""
        label = self._label_of.get(fact_id)
        return None if label is None else int(self._digest[label])

    def fact_ids(self) -> set[str]:
        """Every indexed fact."""
        return set(self._label_of)

    def files(self) -> list[Path]:
        """Files this projection owns, as they exist now (for erasure scans): the
        manifest, the segment files it names and any leftover of a crash."""
        named, leftovers = persist.listing(self.path, self._manifest)
        return [self.path / n for n in named] + leftovers

    # erasure (memory_es.erasure.Erasable) -------------------------------------------------

    def compact(self) -> None:
        """Remove the vectors whose removal was deferred, and rewrite the segments that
        held removed facts, so their vectors and postings leave the disk too."""
        if self._unremoved:
            pending = np.asarray(self._unremoved, dtype=np.int64)
            removed = self.vectors.remove(pending)
            self._unremoved = []
            if removed != pending.size:
                self._stale = True
                raise IntegrityViolation(f"FAISS removed {removed} of {pending.size} vectors;"
                                         " the index will be rebuilt")
        self.flush()

    def residue(self, fact_ids: list[str]) -> StoreCheck:
        """What FAISS, the keyword postings, the row mirror and the index's files still
        hold of these facts."""
        wanted = set(fact_ids)
        indexed = sorted(f for f in wanted if f in self._label_of)
        # Counts, not scans (a scan of every vector and row costs as much as the store):
        # every vector belongs to an indexed fact or awaits a deferred removal, and the
        # mirror counts the rows it holds for removed facts.
        orphans = self.vectors.ntotal - len(self._fact_of) - len(self._unremoved)
        residues = list(indexed) + ([f"{orphans} vectors of no indexed fact"] if orphans else [])
        pending = self._unwritten()
        if self._unremoved:
            pending.append(f"remove {len(self._unremoved)} vectors from FAISS (deferred)")
        if self.versions.held_dead:
            pending.append(f"drop {self.versions.held_dead} rows of removed versions from the "
                           "row mirror")
        named, leftovers = persist.listing(self.path, self._manifest)
        residues += [f"leftover {p.name}" for p in leftovers]
        residues += [f"leftover {n} rows of {name} (not zeroed yet)"
                     for name, n in persist.stray_rows(self._manifest).items()]
        result = CheckResult.verdict(residues, pending)
        return StoreCheck(
            name=self.name,
            method="look the facts up in the FAISS id maps, the keyword segments and the "
                   "in-memory rows; list the index's files as they exist now: every segment "
                   "file that held a removed fact must have been rewritten since (its "
                   "vector rows zeroed), no file may be one the manifest does not name, "
                   "and no vector row the manifest holds no label in may be unzeroed",
            result=result,
            checked=[f"FAISS, {len(self.vectors.segments)} segments "
                     f"({self.vectors.ntotal} vectors)",
                     f"keyword index ({len(self.keywords)} documents)",
                     f"row mirror ({len(self.versions.tables)} tables)",
                     *(str(self.path / n) for n in named), *(str(p) for p in leftovers)],
            residues=residues, pending=pending)

    def _unwritten(self) -> list[str]:
        """What removals left on disk: the segment files that still hold removed facts."""
        if self._rewrite_all and self._manifest is not None and self._manifest.files:
            return [f"rewrite the {len(self._manifest.files)} recall segment files (the "
                    "index was rebuilt since they were written)"]
        named = self._manifest.files if self._manifest is not None else {}
        rows = self._manifest.vectors if self._manifest is not None else {}
        return [f"rewrite {named[s]} and zero the rows of {rows[s]} (hold removed facts)"
                for s in sorted(self._removed_from) if s in named]

    # persistence --------------------------------------------------------------------------

    def flush(self) -> None:
        """Rewrite the segments that changed since they were written, then commit the
        manifest (:func:`projections.recall.persist.write`: a crash leaves the old state
        or the new one). Their dead postings are dropped first, so removed content
        leaves the files, and the row mirror lets go of removed rows."""
        segments = set(self._dirty)
        if self._rewrite_all:
            segments |= set(self.vectors.segments)
            segments |= set(self._manifest.files) if self._manifest is not None else set()
        self.versions.purge_rows()
        try:
            self._manifest = persist.write(
                self.path, persist.Entries(vectors=self.vectors, keywords=self.keywords,
                                           fact_of=self._fact_of, digests=self._digest),
                segments, self._manifest, self.position, self._next_label, self.embedder,
                reuse=not self._rewrite_all)
        except BaseException:
            # Interrupted: the disk holds the old manifest or the new one; follow it, so
            # what it does not name counts as a leftover, and so do the rows it left in
            # the vector files. Everything stays to be written.
            self._manifest = persist.recover(self.path, self.embedder, self._manifest)
            raise
        self._dirty.clear()
        self._removed_from.clear()
        self._rewrite_all = False
        self._unsaved = 0
        self._saved_at = time.monotonic()

    def _load(self) -> None:
        """Vectors, postings and labels from the segment files (side files of a crash
        are deleted first); the mirror is refilled from DuckDB."""
        try:
            manifest, saved = persist.read(self.path, self.embedder)
        except persist.UnusableFile as e:
            legacy = self.folder / persist.LEGACY_FILE
            self.rebuilt = (f"previous index format ({persist.LEGACY_FILE})"
                            if legacy.exists() and "no index file" in str(e) else str(e))
            persist.remove_leftovers(self.path, None)  # untrusted: never mixed in
            return
        persist.remove_leftovers(self.path, manifest)
        self._manifest = manifest
        self._rewrite_all = False
        self.vectors = saved.vectors
        self.keywords = saved.keywords
        self._fact_of = saved.fact_of
        self._label_of = {f: lab for lab, f in self._fact_of.items()}
        self._ids = {}
        self._next_label = manifest.next_label
        self._grow_labels(self._next_label)
        self._digest[:saved.digests.size] = saved.digests
        self.position = manifest.position

    def close(self) -> None:
        """Write the file if anything changed since it was last written."""
        if self._closed:
            return
        if self._unsaved:
            self.flush()
        if self._beside is not None:
            self._beside.shutdown()
        self._closed = True

    # search -------------------------------------------------------------------------------

    def candidate_slots(self, tenant: str, now_us: int, max_rank: int,
                        reader: AgentScope | None = None, *,
                        single: Callable[[str], bool] | None = None,
                        include_consolidated: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """``(mask over labels, slot of each label's current version)``: the tenant's
        facts current at ``now_us`` within the ceiling (DuckDB's current view, mirrored).

        ``reader``: only the facts visible to its agent (SPEC §12.7; None: every fact);
        where ``single(attribute)`` says a slot is cardinality one, the agent's private
        facts shadow the tenant-wide ones of their slot. ``include_consolidated=False``
        drops the members of the current patterns the reader sees (SPEC §12.6)."""
        if reader is None:
            return self._eligible(tenant, now_us, max_rank, include_consolidated)
        shared, slot_of = self._eligible(tenant, now_us, max_rank, True)
        mask = shared.copy()
        self._visible(mask, reader, single)
        if not include_consolidated:
            self._drop_members(mask)  # the patterns this reader sees, not every agent's
        return mask, slot_of

    def _eligible(self, tenant: str, now_us: int, max_rank: int, include_consolidated: bool
                  ) -> tuple[np.ndarray, np.ndarray]:
        """The tenant's current facts within the ceiling, for every reader (read-only
        arrays), without the current patterns' members unless ``include_consolidated``.
        Kept per (tenant, ceiling, members) and updated by the labels changed since
        (:mod:`projections.recall.eligible`): at 1M facts building them costs ≈ 8 ms, a
        recall's whole budget, and a write changes a few labels."""
        key = (tenant, max_rank, include_consolidated)
        kept = self._eligible_cache.get(key)
        epoch, seen = self.versions.epoch, self._changed.end
        if kept is not None and kept.epoch == epoch and kept.since <= now_us < kept.until:
            if kept.seen == seen and kept.mask.size == len(self._tenant):
                return kept.mask, kept.slot_of  # nothing changed since it was made
            changed = self._changed.since(kept.seen)
            if (changed is not None and kept.code is not None
                    and len(changed) <= UPDATE_MOST * len(self._tenant)):
                admitted, slot_of, until = updated(
                    kept, changed, versions=self.versions, tenant=self._tenant,
                    rank=self._class, max_rank=max_rank, now_us=now_us)
                return self._keep(key, Eligible(epoch, seen, now_us, until, kept.code,
                                                admitted, admitted, slot_of),
                                  include_consolidated)
        size = len(self._tenant)
        mask = np.zeros(size, dtype=bool)
        slot_of = np.full(size, -1, np.int64)
        code = self._tenant_code.get(tenant)
        until = now_us + 1
        if code is not None:
            labels, slots, until = self.versions.current_until(now_us)
            mask[labels] = True
            slot_of[labels] = slots
            self._admit(mask, code, max_rank)
        return self._keep(key, Eligible(epoch, seen, now_us, until, code, mask, mask, slot_of),
                          include_consolidated)

    def _keep(self, key: tuple[str, int, bool], made: Eligible,
              include_consolidated: bool) -> tuple[np.ndarray, np.ndarray]:
        """Drop the patterns' members from a mask just made (unless
        ``include_consolidated``), make its arrays read-only and keep it."""
        mask = made.admitted
        if not include_consolidated:
            mask = mask.copy()
            self._drop_members(mask)
        for array in (made.admitted, mask, made.slot_of):
            array.flags.writeable = False
        if len(self._eligible_cache) >= ELIGIBLE_KEPT and key not in self._eligible_cache:
            self._eligible_cache.clear()
        self._eligible_cache[key] = Eligible(made.epoch, made.seen, made.since, made.until,
                                             made.code, made.admitted, mask, made.slot_of)
        return mask, made.slot_of

    def _admit(self, mask: np.ndarray, code: int, max_rank: int) -> None:
        """Narrow a mask of current labels to the tenant's (``code``) within the ceiling."""
        mask &= (self._tenant == code) & (self._class <= max_rank)

    def _eligible_among(self, tenant: str, labels: Iterable[int], now_us: int, max_rank: int,
                        reader: AgentScope | None, single: Callable[[str], bool] | None,
                        include_consolidated: bool) -> dict[int, int]:
        """Which of ``labels`` :meth:`candidate_slots` admits (label -> slot of its current
        version), judged label by label: the whole mask is rebuilt after every write, and
        a handful of labels is checked in less time than that costs. The patterns' own
        labels are judged too (their members leave with them, :meth:`_drop_members`);
        an agent's view reads the whole mask, as its private facts shadow others."""
        if reader is not None and reader.agent is not None:
            mask, slot_of = self.candidate_slots(tenant, now_us, max_rank, reader,
                                                 single=single,
                                                 include_consolidated=include_consolidated)
            return {lab: int(slot_of[lab]) for lab in labels if lab < mask.size and mask[lab]}
        code = self._tenant_code.get(tenant)
        asked = set(labels)
        if code is None or not asked:
            return {}
        mask = np.zeros(len(self._tenant), dtype=bool)
        slots: dict[int, int] = {}
        judged = asked if include_consolidated else asked | set(self._members)
        for lab in judged:
            slot = self.versions.slot_at(lab, now_us) if lab < mask.size else None
            if slot is not None:
                mask[lab] = True
                slots[lab] = slot
        self._admit(mask, code, max_rank)
        if reader is not None:
            self._visible(mask, reader, single)
        if not include_consolidated:
            self._drop_members(mask)
        return {lab: slots[lab] for lab in sorted(asked & slots.keys()) if mask[lab]}

    def _visible(self, mask: np.ndarray, reader: AgentScope,
                 single: Callable[[str], bool] | None) -> None:
        """Narrow ``mask`` to what ``reader`` sees: tenant-wide and shared facts, its own
        private ones, minus the tenant-wide facts its private ones shadow."""
        size = mask.size
        owner = self._owner[:size]
        mine = self._owner_code.get(reader.agent) if reader.agent is not None else None
        if mine is None:
            mask &= owner == -1
            return
        mask &= (owner == -1) | (owner == mine)
        own = np.flatnonzero(mask & (owner == mine)).tolist()
        ones: dict[str, bool] = {}  # single() once per attribute
        private: list[int] = []
        for lab in own:
            attr = self._private[lab]
            if attr not in ones:
                ones[attr] = single is None or single(attr)
            if ones[attr]:
                private.append(lab)
        if private:
            shadowed = np.isin(self._slot[:size], self._slot[np.asarray(private, np.int64)])
            mask &= ~(shadowed & (owner == -1))

    def _drop_members(self, mask: np.ndarray) -> None:
        """Drop from ``mask`` the members of the patterns it holds."""
        members = [m for lab, ms in self._members.items() if lab < mask.size and mask[lab]
                   for m in ms]
        labels = [lab for m in members if (lab := self._label_of.get(m)) is not None
                  and lab < mask.size]
        if labels:
            mask[np.asarray(labels, np.int64)] = False

    def candidates(self, tenant: str, now_us: int, max_rank: int) -> np.ndarray:
        """Boolean mask over labels: the tenant's facts current at ``now_us`` within the
        classification rank ``max_rank``."""
        return self.candidate_slots(tenant, now_us, max_rank)[0]

    def search(self, tenant: str, query: str, k: int, now_us: int, *,
               valid_at: int | None = None, known_at: int | None = None,
               max_classification: str | None = None, explain: bool = False,
               channels: Sequence[str] | None = None, explore_utility: bool = False,
               seed: int | None = None, reader: AgentScope | None = None,
               single: Callable[[str], bool] | None = None,
               include_consolidated: bool = True) -> list[Hit]:
        """Recall: see :func:`recall`."""
        chosen_channels = check_channels(channels)
        if identifiers_only(query):  # matched exactly, by the keyword channel alone
            chosen_channels = tuple(c for c in chosen_channels if c != "semantic")
        check_k(k)
        max_rank = class_ceiling(max_classification)
        if not isinstance(query, str) or not query.strip():
            return []
        if valid_at is not None or known_at is not None:
            return self._search_as_of(tenant, query, k,
                                      now_us if valid_at is None else valid_at,
                                      now_us if known_at is None else known_at,
                                      max_rank, explain, chosen_channels,
                                      (explore_utility, seed), reader, single,
                                      include_consolidated)
        self.catch_up()
        mask, slot_of = self.candidate_slots(tenant, now_us, max_rank, reader, single=single,
                                             include_consolidated=include_consolidated)
        if not mask.any():
            return []
        pool = pool_size(k)
        semantic = "semantic" in chosen_channels
        keywords = self._keyword_scores(query, mask, beside=semantic)
        if semantic:
            qv = self.embedder.embed([query])[0]
            sem_labels, sem_sims = self.vectors.search(qv, pool, mask)
            kw_labels, kw_scores = keywords()
            labels = merge_pools(sem_labels, kw_labels, kw_scores, pool)
            known = dict(zip(sem_labels.tolist(), sem_sims.tolist(), strict=True))
            sims = np.array([known.get(lab, np.nan) for lab in labels.tolist()], np.float32)
            missing = np.flatnonzero(np.isnan(sims))
            if missing.size:
                sims[missing] = self.vectors.reconstruct(labels[missing]) @ qv
        else:  # the channel is off: no pool and no part of its own (no embedding, no scan)
            kw_labels, kw_scores = keywords()
            labels = merge_pools(np.zeros(0, np.int64), kw_labels, kw_scores, pool)
            sims = np.zeros(labels.size, np.float32)
        fids = [self._fact_of[int(lab)] for lab in labels.tolist()]
        q = self._utility[labels]
        if explore_utility:
            q = explore(q, self._served[labels], self._useful[labels], seed, self.governance)
        ranked = blend(labels, fids, k, keyword=(kw_labels, kw_scores), similarity=sims,
                       utility=q, importance=self._importance[labels],
                       anchor_us=self._anchor[labels], now_us=now_us,
                       channels=chosen_channels, config=self.governance)
        if ranked.positions.size == 0:
            return []
        if self.verify:
            self._verify(tenant, [fids[i] for i in ranked.positions], now_us, max_rank)
        table = self.versions.rows([int(slot_of[labels[i]]) for i in ranked.positions])
        return _hits(table, list(range(ranked.positions.size)), ranked, explain)

    def holding(self, tenant: str, query: str, now_us: int, most: int, *,
                max_classification: str | None = None, reader: AgentScope | None = None,
                single: Callable[[str], bool] | None = None,
                include_consolidated: bool = True) -> list[Fact] | None:
        """The eligible facts (those :meth:`search` ranks) that hold a keyword
        term of ``query``, unranked, in label order: every whole identifier the query
        names, and each other term at most ``most`` facts hold (the domain of a common
        provider says nothing about whose address it is). ``None`` when an identifier is
        held by more than ``most`` facts or more than ``most`` facts are found: there a
        ranked :meth:`search` chooses.

        Why: a purge acts on exact identifiers only (SPEC §15), and the facts that carry
        one are the few that hold its terms; ranking the tenant's eligible facts for them
        (the eligibility mask, BM25 over a domain tens of thousands of facts share, the
        rows of a full result) cost a purge at 100k facts most of its time."""
        self.catch_up()
        found: set[int] = set()
        for token in keyword_tokens(query):
            postings = self.keywords.postings(token.term)
            if postings is None:
                continue
            if postings[0].size > most:
                if token.kind == "id":
                    return None
                continue
            found.update(postings[0].tolist())
        slots = self._eligible_among(tenant, (lab for lab in found if self.keywords.has(lab)),
                                     now_us, class_ceiling(max_classification), reader, single,
                                     include_consolidated)
        if len(slots) > most:
            return None
        if self.verify and slots:
            self._verify(tenant, [self._fact_of[lab] for lab in slots], now_us,
                         class_ceiling(max_classification))
        return rows_to_facts(self.versions.rows(list(slots.values()))) if slots else []

    def _keyword_scores(self, query: str, mask: np.ndarray, *, beside: bool
                        ) -> Callable[[], tuple[np.ndarray, np.ndarray]]:
        """BM25 of the query over the mask, as a call that returns it. With ``beside``
        and an index of at least :data:`OVERLAP_FROM` labels, it runs in a second thread
        while the caller scans the vectors: both channels spend their time in compiled
        loops that release the GIL, so on two cores the recall costs about the slower
        channel instead of their sum."""
        if not beside or mask.size < OVERLAP_FROM:
            found = self.keywords.scores(query, mask)
            return lambda: found
        if self._beside is None:
            self._beside = ThreadPoolExecutor(max_workers=1, thread_name_prefix="recall-bm25")
        return self._beside.submit(self.keywords.scores, query, mask).result

    def _verify(self, tenant: str, fact_ids: list[str], now_us: int, max_rank: int) -> None:
        table = current_rows(self.con, tenant, fact_ids, now_us, max_rank)
        misses = set(fact_ids) - set(table.column("fact_id").to_pylist())
        if misses:
            self.verify_misses += len(misses)
            self._stale = True
            log.warning("recall mirror disagreed with DuckDB on %d facts", len(misses))

    def _search_as_of(self, tenant: str, query: str, k: int, valid_at: int, known_at: int,
                      max_rank: int, explain: bool, channels: tuple[str, ...],
                      exploring: tuple[bool, int | None] = (False, None),
                      reader: AgentScope | None = None, single: Callable[[str], bool] | None = None,
                      include_consolidated: bool = True) -> list[Hit]:
        """As-of recall: rank the belief at ``(valid_at, known_at)`` itself.

        A version of that belief still open today is today's document, so it is searched
        in today's index, masked to those labels, as present recall searches it; only the
        versions closed since (superseded, corrected or moved on after ``known_at``) are
        embedded and indexed for the query, with BM25's statistics over both. Full rows
        are read for the pool's members alone, so the work that grows with the belief is
        one narrow DuckDB scan and numpy masks. The fresh rows are kept in fact-id order:
        the keyword pool's cut at tied scores then never depends on DuckDB's row order."""
        self.catch_up()
        allowed = [c for c in CLASSIFICATIONS if CLASSIFICATION_RANK[c] <= max_rank]
        if reader is not None and reader.agent is not None:  # private facts shadow others
            belief = self._belief_of_rows(tenant, valid_at, known_at, allowed, reader, single,
                                          include_consolidated)
        else:
            belief = self._belief_of_mirror(tenant, valid_at, known_at, max_rank, allowed,
                                            reader, include_consolidated)
        if belief is None:
            return []
        label, is_open, docs, fact_ids = belief
        size = len(self._tenant)
        fresh = np.asarray(sorted(docs, key=fact_ids.__getitem__), np.int64)
        reused = np.flatnonzero(label >= 0)
        main_mask = np.zeros(size, dtype=bool)
        main_mask[label[reused]] = True
        row_of = np.full(size, -1, np.int64)
        row_of[label[reused]] = reused
        pool = pool_size(k)
        qv = self.embedder.embed([query])[0]
        fresh_vectors = (self.embedder.embed([docs[i] for i in fresh.tolist()]) if fresh.size
                         else np.zeros((0, self.embedder.dim), np.float32))
        sem_labels, sem_sims = self.vectors.search(qv, pool, main_mask)
        cand = np.concatenate([row_of[sem_labels], fresh])
        cand_sims = np.concatenate([sem_sims, fresh_vectors @ qv]).astype(np.float32)
        order = np.lexsort((np.asarray([fact_ids[i] for i in cand.tolist()], dtype=str),
                            -cand_sims))[:pool]
        temp = KeywordIndex()
        temp.add(list(range(fresh.size)), [docs[i] for i in fresh.tolist()])
        (main_l, main_s), [(temp_l, temp_s)] = self.keywords.bm25(
            query, main_mask, [(temp, np.ones(fresh.size, dtype=bool))])
        kw_rows = np.concatenate([row_of[main_l], fresh[temp_l]])
        kw_scores = np.concatenate([main_s, temp_s])
        rows = merge_pools(cand[order], kw_rows, kw_scores, pool)
        members = rows.tolist()
        sims = self._similarities(rows, label, fresh, fresh_vectors, qv)
        member_ids = [fact_ids[i] for i in members]
        table = self._member_rows(member_ids, [int(label[i]) if is_open[i] else -1
                                               for i in members], valid_at, known_at, tenant)
        cols = table.select(["confidence", "state", "asserted_by", "volatility",
                             "recorded_at", "verified_at", "importance"]).to_pydict()
        # the ledger as it stood at known_at: q-values and last uses of that belief
        books = governance.ledgers(self.con, member_ids, tenant=tenant, known_at=known_at)
        unused = governance.Ledger()
        ledger = [books.get(f, unused) for f in member_ids]
        q = np.array([q_value(b.judgements, self.governance) for b in ledger], np.float32)
        if exploring[0]:
            q = explore(q, np.array([len(b.judgements) for b in ledger], np.int32),
                        np.array([b.judgements.count("useful") for b in ledger], np.int32),
                        exploring[1], self.governance)
        ranked = blend(
            rows, member_ids, k, keyword=(kw_rows, kw_scores), similarity=sims, utility=q,
            importance=np.array([importance(a, v, c, st, w) for a, v, c, st, w in zip(
                cols["asserted_by"], cols["volatility"], cols["confidence"], cols["state"],
                cols["importance"], strict=True)], np.float32),
            anchor_us=np.array([max(_us(r), _us(v), b.last_used or 0) for r, v, b in zip(
                cols["recorded_at"], cols["verified_at"], ledger, strict=True)],
                dtype=np.int64),
            now_us=known_at, channels=channels, config=self.governance)
        return _hits(table, [int(i) for i in ranked.positions], ranked, explain)

    def _belief_of_rows(self, tenant: str, valid_at: int, known_at: int, allowed: list[str],
                        reader: AgentScope, single: Callable[[str], bool] | None,
                        include_consolidated: bool) -> _Belief | None:
        """The belief's rows from one DuckDB scan of every version it holds, open or
        closed: for an agent, whose private facts shadow others slot by slot."""
        keys = _scoped(queries.as_of_keys(self.con, valid_at, known_at, tenant, allowed,
                                          reader), reader, single, include_consolidated)
        if keys.num_rows == 0:
            return None
        ids = keys.column("fact_id")
        held = self._labels_of(ids)
        is_open = keys.column("open").to_numpy(zero_copy_only=False)
        label = np.where(is_open, held, -1)
        docs: dict[int, str] = {}
        for i, doc in self._documents(keys, np.flatnonzero(label < 0), is_open,
                                      valid_at, known_at, tenant).items():
            known = int(held[i])
            if known >= 0 and int(self._digest[known]) == digest(doc):
                label[i] = known  # closed since, but the same words: today's document
            else:
                docs[i] = doc
        return label, is_open, docs, _FactIds(ids)

    def _belief_of_mirror(self, tenant: str, valid_at: int, known_at: int, max_rank: int,
                          allowed: list[str], reader: AgentScope | None,
                          include_consolidated: bool) -> _Belief | None:
        """The belief's rows without reading what is still open from DuckDB.

        A version open today was open at ``known_at`` if it was recorded by then, and the
        mirror holds every open eligible unmasked version (its valid interval and row), so
        those rows are today's labels, picked by numpy masks; DuckDB is scanned only for
        the versions closed after ``known_at``, usually few. Rows: the open labels, then
        the closed versions."""
        size = len(self._tenant)
        shared, slot_of = self.candidate_slots(tenant, valid_at, max_rank, reader)
        mask = shared.copy()
        held = np.flatnonzero(mask)
        mask[held[self.versions.recorded_after(slot_of[held], known_at)]] = False
        closed = queries.as_of_closed(self.con, valid_at, known_at, tenant, allowed, reader)
        ids = closed.column("fact_id").to_pylist()
        if not include_consolidated:
            members = {m for lab, ms in self._members.items() if lab < size and mask[lab]
                       for m in ms}
            members.update(m for ms in closed.column("derived_from").to_pylist()
                           for m in (ms or ()))
            for m in members:
                lab = self._label_of.get(m)
                if lab is not None:
                    mask[lab] = False
            kept = [i for i, f in enumerate(ids) if f not in members]
            if len(kept) < len(ids):
                closed = closed.take(pa.array(kept, pa.int64()))
                ids = [ids[i] for i in kept]
        opened = np.flatnonzero(mask)
        if opened.size == 0 and not ids:
            return None
        words = closed.select(["text", "entity", "mention", "attribute", "negated"]).to_pydict()
        label = np.concatenate([opened, np.full(len(ids), -1, np.int64)])
        docs: dict[int, str] = {}
        for j, fid in enumerate(ids):
            doc = document(words["text"][j], words["entity"][j], words["mention"][j],
                           words["attribute"][j], negated=bool(words["negated"][j]))
            known = self._label_of.get(fid)
            if known is not None and int(self._digest[known]) == digest(doc):
                label[opened.size + j] = known  # closed since, same words: today's document
            else:
                docs[opened.size + j] = doc
        is_open = np.arange(label.size) < opened.size
        return label, is_open, docs, _OpenThenClosed(opened, self._fact_of, ids)

    def _member_rows(self, fact_ids: list[str], labels: list[int], valid_at: int,
                     known_at: int, tenant: str) -> pa.Table:
        """The pool members' rows as :func:`queries.as_of` gives them, in this order: a
        version still open (``labels[j]`` its label, else -1) from the mirror, which
        holds exactly the open versions; only the others are read from DuckDB."""
        slots = [self.versions.slot_at(lab, valid_at) if lab >= 0 else None
                 for lab in labels]
        rows: dict[str, int] = {}
        parts = []
        held = [(f, s) for f, s in zip(fact_ids, slots, strict=True) if s is not None]
        if held:
            parts.append(self.versions.rows([s for _, s in held]))
            rows.update((f, j) for j, (f, _) in enumerate(held))
        rest = [f for f, s in zip(fact_ids, slots, strict=True) if s is None]
        if rest or not parts:
            read = queries.as_of_facts(self.con, valid_at, known_at, tenant, rest)
            base = len(rows)
            rows.update((f, base + j) for j, f in enumerate(read.column("fact_id").to_pylist()))
            parts.append(read.select(PUBLIC_COLUMNS).cast(parts[0].schema) if parts
                         else read.select(PUBLIC_COLUMNS))
        table = pa.concat_tables(parts).take(pa.array([rows[f] for f in fact_ids], pa.int64()))
        return governance.with_tiers_at(self.con, table, known_at)

    def _labels_of(self, fact_ids: pa.ChunkedArray) -> np.ndarray:
        """Each fact's label in this index, -1 where it holds none (one hash join in
        Arrow, not a Python lookup per fact)."""
        size = persist.SEGMENT_LABELS
        for segment in range(-(-self._next_label // size)):
            if segment not in self._ids:
                self._ids[segment] = pa.array(
                    [self._fact_of.get(label) for label in range(segment * size,
                                                                 (segment + 1) * size)],
                    pa.string())
        chunks = [self._ids[s] for s in sorted(self._ids)]
        if not chunks:
            return np.full(len(fact_ids), -1, np.int64)
        found = pc.index_in(fact_ids, value_set=pa.concat_arrays(chunks))
        out: np.ndarray = pc.fill_null(found, -1).to_numpy(zero_copy_only=False).astype(
            np.int64)
        return out

    def _documents(self, keys: pa.Table, rows: np.ndarray, is_open: np.ndarray,
                   valid_at: int, known_at: int, tenant: str) -> dict[int, str]:
        """The documents of these belief rows, which today's index does not hold under
        their fact: a closed version's words came with the keys; an open version's (not
        indexed: the index lags or left it out) are read."""
        if rows.size == 0:
            return {}
        part = keys.take(pa.array(rows)).select(
            ["fact_id", "text", "entity", "mention", "attribute", "negated"]).to_pydict()
        want = [f for f, i in zip(part["fact_id"], rows.tolist(), strict=True) if is_open[i]]
        if want:
            read = queries.as_of_facts(self.con, valid_at, known_at, tenant, want).select(
                ["fact_id", "text", "mention"]).to_pydict()
            words = dict(zip(read["fact_id"], zip(read["text"], read["mention"],
                                                  strict=True), strict=True))
            for j, fid in enumerate(part["fact_id"]):
                if fid in words:
                    part["text"][j], part["mention"][j] = words[fid]
        return {i: document(part["text"][j], part["entity"][j], part["mention"][j],
                            part["attribute"][j], negated=bool(part["negated"][j]))
                for j, i in enumerate(rows.tolist())}

    def _similarities(self, rows: np.ndarray, label: np.ndarray, fresh: np.ndarray,
                      fresh_vectors: np.ndarray, qv: np.ndarray) -> np.ndarray:
        """The cosine to the query of each of these belief rows: from today's vectors
        for rows it holds, from the vectors embedded for the query for the others."""
        out = np.zeros(rows.size, np.float32)
        held = label[rows] >= 0
        if held.any():
            out[held] = self.vectors.reconstruct(label[rows[held]]) @ qv
        if (~held).any():
            at = {int(r): j for j, r in enumerate(fresh.tolist())}
            out[~held] = fresh_vectors[[at[int(r)] for r in rows[~held]]] @ qv
        return out


def recall(index: RecallIndex, tenant: str, query: str, k: int, now_us: int, *,
           valid_at_us: int | None = None, known_at_us: int | None = None,
           max_classification: str | None = None, explain: bool = False,
           channels: Sequence[str] | None = None, explore_utility: bool = False,
           seed: int | None = None, reader: AgentScope | None = None,
           single: Callable[[str], bool] | None = None,
           include_consolidated: bool = True) -> list[Hit]:
    """Blended recall over the tenant's eligible facts (SPEC §9).

    Args:
        index: the store's :class:`RecallIndex`.
        tenant: isolation boundary; no other tenant's fact can be a candidate.
        query: free text.
        k: at most this many hits (1-1000).
        now_us: the clock's time (currency is judged now).
        valid_at_us, known_at_us: as-of recall over the belief at this point (either
            may be given; the other defaults to ``now_us``).
        max_classification: ceiling (``public`` < ``internal`` < ``restricted`` <
            ``confidential``); ``None`` allows every level.
        explain: fill each hit's ``parts`` (score = Σ WEIGHTS[p] · parts[p]).
        channels: retrieval channels to use (default both ``keyword`` and ``semantic``).
        explore_utility: Thompson-sample the utility part of facts served fewer than 5
            times (SPEC §12.2); ``seed`` makes the draw reproducible.
        reader: only the facts visible to its agent are candidates, before ranking
            (SPEC §12.7); None: every fact of the tenant.
        single: whether an attribute is cardinality one (its private facts shadow the
            tenant-wide ones in their agent's recall).
        include_consolidated: False drops the members of the current patterns the reader
            sees from the candidates (SPEC §12.6).
    """
    return index.search(tenant, query, k, now_us, valid_at=valid_at_us, known_at=known_at_us,
                        max_classification=max_classification, explain=explain,
                        channels=channels, explore_utility=explore_utility, seed=seed,
                        reader=reader, single=single,
                        include_consolidated=include_consolidated)


OVERLAP_FROM = 65_536
"""Label slots from which recall runs BM25 in a second thread beside the vector scan
(below it, a thread hand-off costs about what the overlap saves)."""

ELIGIBLE_KEPT = 16
"""(tenant, ceiling, members) keys whose eligibility masks are kept between recalls."""


def _mapped(values: list[Any], fn: Callable[[Any], Any]) -> list[Any]:
    """``fn`` of each value, called once per distinct value (hashable values)."""
    seen: dict[Any, Any] = {}
    out = []
    for value in values:
        mapped = seen.get(value, seen)
        if mapped is seen:
            mapped = seen[value] = fn(value)
        out.append(mapped)
    return out


class _OpenThenClosed:
    """Fact ids of the rows :meth:`RecallIndex._belief_of_mirror` gives: today's labels
    first, then the closed versions'."""

    def __init__(self, opened: np.ndarray, fact_of: dict[int, str], closed: list[str]) -> None:
        self._opened, self._fact_of, self._closed = opened, fact_of, closed

    def __getitem__(self, row: int) -> str:
        n = self._opened.size
        return self._fact_of[int(self._opened[row])] if row < n else self._closed[row - n]


_Belief = tuple[np.ndarray, np.ndarray, dict[int, str], "_FactIds | _OpenThenClosed"]
"""As-of recall's rows: each row's label in today's index (-1: a fresh document), whether
its version is open today, the fresh rows' documents, each row's fact id."""


class _FactIds:
    """Fact ids of belief rows, converted to Python only for the rows asked about."""

    def __init__(self, column: pa.ChunkedArray) -> None:
        self._column = column
        self._seen: dict[int, str] = {}

    def __getitem__(self, row: int) -> str:
        fid = self._seen.get(row)
        if fid is None:
            fid = self._seen[row] = str(self._column[row].as_py())
        return fid


def _scoped(table: pa.Table, reader: AgentScope | None, single: Callable[[str], bool] | None,
            include_consolidated: bool) -> pa.Table:
    """As-of rows narrowed like :meth:`RecallIndex.candidate_slots` narrows labels: the
    reader's private facts shadow tenant-wide ones, consolidated members dropped.

    Only the rows these rules can touch become Python rows: those of the slots where the
    reader holds a private fact (:func:`shadow` decides them), and the patterns."""
    if table.num_rows == 0:
        return table
    drop = np.zeros(table.num_rows, dtype=bool)
    if reader is not None and reader.agent is not None:
        owned = pc.and_(pc.equal(table.column("agent"), reader.agent),
                        pc.invert(table.column("shared")))
        slot = pc.binary_join_element_wise(table.column("entity"),
                                           table.column("attribute"), "\x1f")
        mine = pc.unique(pc.filter(slot, pc.fill_null(owned, False)))
        touched = np.flatnonzero(pc.fill_null(pc.is_in(slot, value_set=mine),
                                              False).to_numpy(zero_copy_only=False))
        if touched.size:
            rows = table.take(pa.array(touched)).select(
                ["entity", "attribute", "agent", "shared"]).to_pylist()
            for i, row in zip(touched.tolist(), rows, strict=True):
                row["tenant"], row["_i"] = "", i  # one tenant: the slot is (entity, attribute)
            kept = {r["_i"] for r in shadow(rows, reader,
                                            single if single is not None else (lambda _a: True))}
            drop[[i for i in touched.tolist() if i not in kept]] = True
    if not include_consolidated:
        derived = pc.drop_null(table.column("derived_from")).to_pylist()
        members = pa.array(sorted({m for ms in derived for m in (ms or ())}), pa.string())
        if len(members):
            drop |= pc.is_in(table.column("fact_id"), value_set=members).to_numpy(
                zero_copy_only=False)
    if not drop.any():
        return table
    return table.take(pa.array(np.flatnonzero(~drop)))


def current_rows(con: duckdb.DuckDBPyConnection, tenant: str, fact_ids: list[str],
                 now_us: int, max_rank: int) -> pa.Table:
    """Re-read proposed hits from DuckDB with the full current-view filter."""
    if not fact_ids:
        return pa.table({"fact_id": pa.array([], pa.string())})
    allowed = [c for c in CLASSIFICATIONS if CLASSIFICATION_RANK[c] <= max_rank]
    now = f"make_timestamptz({int(now_us)}::BIGINT)"
    return arrow(con, f"""
        SELECT {", ".join(PUBLIC_COLUMNS)} FROM fact_versions
        WHERE tenant = ? AND fact_id IN ({", ".join("?" * len(fact_ids))})
          AND recorded_until IS NULL AND {ELIGIBLE} AND NOT masked
          AND valid_from <= {now} AND (valid_until IS NULL OR {now} < valid_until)
          AND classification IN ({", ".join("?" * len(allowed))})""",
        [tenant, *fact_ids, *allowed])


def _hits(table: pa.Table, rows: list[int], ranked: Ranked, explain: bool) -> list[Hit]:
    """The ranked members as hits: ``rows`` are their rows in ``table``, in rank order."""
    if rows != list(range(table.num_rows)):
        table = table.take(pa.array(rows, pa.int64()))
    facts = rows_to_facts(table) if rows else []
    hits = []
    for j, fact in enumerate(facts):
        detail = ({name: float(values[j]) for name, values in ranked.parts.items()}
                  if explain else {})
        hits.append(Hit(fact=fact, score=float(ranked.scores[j]), parts=detail))
    return hits


def _us(value: Any) -> int:
    if value is None:
        return 0
    if isinstance(value, int):
        return value
    return to_micros(value)
