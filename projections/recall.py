"""Recall (SPEC §9): the keyword + vector projection of the version table, and its ranking.

**What is indexed.** One entry per fact that has an open (``recorded_until IS NULL``)
version passing :data:`projections.schema.ELIGIBLE` (retrievable state, not revoked
now — both derived from ``RETRIEVABLE_STATES``/``INELIGIBLE_NOW``) and not masked: its
vector in FAISS (:mod:`projections.vectors`), its terms in the BM25 index
(:mod:`projections.keywords`), and an in-memory mirror of its open versions: what
eligibility needs (tenant, classification, valid intervals), the ranking inputs
(confidence, state, provenance, volatility, record time) and the rows themselves, so
a hit becomes a ``Fact`` without another DuckDB query (re-reading 8 hits from DuckDB
cost 5-8 ms on the development machine: a full column scan). A fact that leaves
that set (forgotten, archived, deprecated, retracted, conflicted, masked, purged...)
loses its vector (``remove_ids``, count checked) and postings at once. A superseded or
decayed fact keeps its entry while its open version lies in the past, and the
currency filter evaluated at query time keeps it out of every result.

**How it follows the log.** :meth:`RecallIndex.sync` is called after each batch the
version projection applies, with the fact ids the batch touched and the batch's log
position: it reads those facts' open versions back from ``fact_versions`` (DuckDB is
the source of truth) and adds, updates or removes entries; an unchanged text is never
re-embedded. ``sync(None, position)`` diffs the whole table (open, rebuild, recovery).

**Persistence.** Vectors, postings, labels (with a digest of each indexed text),
embedder name/dimension and the tracking position are written together to one file
(``recall.npz``: temp file, fsync, then ``os.replace``) every ``checkpoint_seconds``,
on :meth:`RecallIndex.flush` and on :meth:`RecallIndex.close`; the mirror is not
persisted but re-read from DuckDB on open. On open, a file written by another embedder
is discarded and rebuilt from DuckDB (never a silent mix of vector spaces); a file
whose position differs from DuckDB's tracking position is reconciled by a full diff
against DuckDB (``sync(None)``), which re-embeds only changed texts. A crash therefore
loses no work and doubles none: syncing is idempotent.

**Ranking.** ``score = Σ WEIGHTS[part] · part`` over five parts in [0, 1]:

============  ======  =============================================================
part          weight  definition
============  ======  =============================================================
keyword       0.15    BM25 (statistics over the candidate set) / best BM25 of query
semantic      0.40    cosine of query and fact embeddings, clipped at 0
utility       0.15    confidence * state factor (reinforced 1.0, active 0.9, stale 0.5)
importance    0.15    provenance (user 1.0, third party 0.7, inference 0.4) *
                      volatility (stable 1.0, periodic 0.8, volatile 0.6)
recency       0.15    0.5 ** (age / 30 days), age since the version was recorded or
                      last verified
============  ======  =============================================================

Eligibility comes first in every channel: the candidate set is the tenant's facts that
are current (or, for as-of recall, in the belief at ``(valid_at, known_at)``, read from
DuckDB's as-of query) within the classification ceiling; FAISS ranks only those (an id
selector built from them) and BM25 scores only those, with statistics over them alone.
Each channel contributes its best ``max(4k, 32)`` candidates to a pool that is blended;
a hit needs a keyword match or a cosine of at least :data:`MIN_SEMANTIC`. With
``verify=True`` every hit is also re-read from DuckDB with the current-view filter and
any disagreement counted (the tests run that way, and assert none).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import pyarrow as pa

from memory_es.clock import to_micros
from memory_es.domain.validation import CLASSIFICATION_RANK, CLASSIFICATIONS
from memory_es.errors import IntegrityViolation, InvalidInput
from memory_es.models import Hit, StoreCheck
from projections import queries
from projections.connection import arrow
from projections.embedder import Embedder, default_embedder
from projections.keywords import KeywordIndex, bm25
from projections.rows import rows_to_facts
from projections.schema import ELIGIBLE, PUBLIC_COLUMNS
from projections.vectors import VectorIndex

log = logging.getLogger(__name__)

WEIGHTS: dict[str, float] = {
    "keyword": 0.15,
    "semantic": 0.40,
    "utility": 0.15,
    "importance": 0.15,
    "recency": 0.15,
}
"""Default blend weights (issue 4's starting point; the one place they are defined)."""

STATE_UTILITY = {"reinforced": 1.0, "active": 0.9, "stale": 0.5}
ASSERTED_IMPORTANCE = {"user": 1.0, "third_party": 0.7, "inference": 0.4}
VOLATILITY_IMPORTANCE = {"stable": 1.0, "periodic": 0.8, "volatile": 0.6}
RECENCY_HALF_LIFE_US = 30 * 86_400 * 1_000_000
MIN_SEMANTIC = 0.20
"""Relevance floor: without a keyword match, a fact needs at least this cosine. Texts
sharing nothing score 0.00 +- 0.07 with the default embedder (p99 0.17, 2,000 random
pairs at dimension 256), so 0.20 keeps hash collisions out and paraphrases in
("where does alex live" vs "user:alex home city: Detroit" is 0.54)."""

FILE = "recall.npz"
FORMAT = 1
_OPEN = np.iinfo(np.int64).max
_PROJECTION = "fact_versions"


def pool_size(k: int) -> int:
    """How many candidates each channel contributes to the blended pool."""
    return max(4 * k, 32)


def document(text: str | None, entity: str | None, mention: str | None,
             attribute: str) -> str:
    """The text a fact is indexed under: its text, plus its subject and attribute words
    when the text does not already say them."""
    doc = text or ""
    low = doc.casefold()
    extra = []
    subject = entity or mention
    if subject and subject.casefold() not in low:
        extra.append(subject)
    words = attribute.replace(".", " ").replace("_", " ")
    if words.casefold() not in low:
        extra.append(words)
    return " ".join([doc, *extra]) if extra else doc


def _digest(doc: str) -> int:
    return int.from_bytes(hashlib.blake2b(doc.encode(), digest_size=8).digest(), "little",
                          signed=True)


def utility(confidence: float, state: str) -> float:
    return float(confidence) * STATE_UTILITY.get(state, 0.9)


def importance(asserted_by: str, volatility: str) -> float:
    return ASSERTED_IMPORTANCE.get(asserted_by, 0.7) * VOLATILITY_IMPORTANCE.get(volatility, 0.8)


def recency(anchor_us: np.ndarray, now_us: int) -> np.ndarray:
    age = np.maximum(0, now_us - anchor_us).astype(np.float64)
    out: np.ndarray = np.power(0.5, age / RECENCY_HALF_LIFE_US).astype(np.float32)
    return out


def class_ceiling(max_classification: str | None) -> int:
    if max_classification is None:
        return len(CLASSIFICATIONS) - 1
    if max_classification not in CLASSIFICATION_RANK:
        raise InvalidInput(
            f"max_classification must be one of {', '.join(CLASSIFICATIONS)}")
    return CLASSIFICATION_RANK[max_classification]


def _check_k(k: int) -> int:
    if not isinstance(k, int) or isinstance(k, bool) or not 1 <= k <= 1000:
        raise InvalidInput("k must be an integer between 1 and 1000")
    return k


_ROW_COLUMNS = ", ".join(PUBLIC_COLUMNS) + (
    ", epoch_us(valid_from) AS _vf, epoch_us(valid_until) AS _vu, "
    "epoch_us(recorded_at) AS _ra, epoch_us(verified_at) AS _va")
_META_COLUMNS = ["fact_id", "tenant", "entity", "mention", "attribute", "text",
                 "classification", "confidence", "asserted_by", "volatility", "state",
                 "_vf", "_vu", "_ra", "_va"]
MERGE_TABLES = 64
"""Row tables kept before the mirror merges them into one (each sync adds one)."""


def _group(table: pa.Table) -> dict[str, dict[str, Any]]:
    """Open eligible versions grouped by fact: the first row's fields plus every
    version's ``(valid_from, valid_until, row)``."""
    facts: dict[str, dict[str, Any]] = {}
    if table.num_rows == 0:
        return facts
    cols = table.select(_META_COLUMNS).to_pydict()
    for i, fid in enumerate(cols["fact_id"]):
        entry = facts.get(fid)
        if entry is None:
            entry = {name: cols[name][i] for name in cols}
            entry["versions"] = []
            facts[fid] = entry
        vu = cols["_vu"][i]
        entry["versions"].append((cols["_vf"][i], _OPEN if vu is None else vu, i))
    return facts


class _Versions:
    """The open eligible versions behind the index, in memory.

    Each version is a *slot*: its fact's label and valid interval in numpy arrays (the
    currency test runs over them at query time) and the location of its row (all public
    columns, in an Arrow table read by :meth:`RecallIndex.sync`), so a hit becomes a
    :class:`~memory_es.models.Fact` without another DuckDB query. Nothing here is
    persisted: it is re-read from DuckDB when the index opens.
    """

    def __init__(self) -> None:
        cap = 1024
        self.label = np.full(cap, -1, np.int64)
        self.start = np.zeros(cap, np.int64)
        self.end = np.zeros(cap, np.int64)
        self.table = np.zeros(cap, np.int64)
        self.row = np.zeros(cap, np.int64)
        self.n = 0
        self.dead = 0
        self.slots_of: dict[int, list[int]] = {}
        self.tables: dict[int, pa.Table] = {}
        self.live_rows: dict[int, int] = {}
        self._next_table = 0

    def add_table(self, table: pa.Table) -> int:
        tid = self._next_table
        self._next_table += 1
        self.tables[tid] = table
        self.live_rows[tid] = 0
        return tid

    def _room(self, extra: int) -> None:
        cap = len(self.label)
        if self.n + extra <= cap:
            return
        if self.dead * 2 > self.n:
            self.compact()
            if self.n + extra <= cap:
                return
        more = max(self.n + extra, 2 * cap) - cap
        self.label = np.concatenate([self.label, np.full(more, -1, np.int64)])
        for name in ("start", "end", "table", "row"):
            setattr(self, name, np.concatenate([getattr(self, name), np.zeros(more, np.int64)]))

    def set_many(self, labels: list[int], versions: list[list[tuple[int, int, int]]],
                 tid: int) -> None:
        """Replace each label's versions with ``(valid_from, valid_until, row)`` of table
        ``tid``."""
        for label in labels:
            if label in self.slots_of:
                self.drop(label)
        count = sum(len(v) for v in versions)
        self._room(count)
        first = self.n
        flat = [(label, start, end, row) for label, vs in zip(labels, versions, strict=True)
                for start, end, row in vs]
        block = np.array(flat, dtype=np.int64).reshape(-1, 4)
        end = first + count
        self.label[first:end] = block[:, 0]
        self.start[first:end] = block[:, 1]
        self.end[first:end] = block[:, 2]
        self.row[first:end] = block[:, 3]
        self.table[first:end] = tid
        self.n = end
        self.live_rows[tid] = self.live_rows.get(tid, 0) + count
        slot = first
        for label, vs in zip(labels, versions, strict=True):
            self.slots_of[label] = list(range(slot, slot + len(vs)))
            slot += len(vs)

    def drop(self, label: int) -> None:
        slots = self.slots_of.pop(label, None)
        if not slots:
            return
        self.label[slots] = -1
        self.dead += len(slots)
        for s in slots:
            tid = int(self.table[s])
            self.live_rows[tid] -= 1
            if self.live_rows[tid] == 0:  # the rows (plaintext) leave memory with it
                del self.live_rows[tid]
                del self.tables[tid]

    def release_unused(self, tid: int) -> None:
        if self.live_rows.get(tid) == 0:
            del self.live_rows[tid]
            del self.tables[tid]

    def current(self, now_us: int) -> tuple[np.ndarray, np.ndarray]:
        """``(labels, slots)`` of the versions valid at ``now_us``."""
        n = self.n
        labels = self.label[:n]
        ok = (labels >= 0) & (self.start[:n] <= now_us) & (now_us < self.end[:n])
        slots = np.flatnonzero(ok)
        return labels[slots], slots

    def rows(self, slots: Sequence[int]) -> pa.Table:
        return pa.concat_tables([self.tables[int(self.table[s])].slice(int(self.row[s]), 1)
                                 for s in slots])

    def compact(self) -> None:
        """Drop dead slots; merge every live row into one table."""
        live = np.flatnonzero(self.label[:self.n] >= 0)
        order = live[np.lexsort((self.row[live], self.table[live]))]
        pieces = []
        if order.size:
            tids = self.table[order]
            bounds = np.flatnonzero(np.diff(tids)) + 1
            for group in np.split(order, bounds):
                table = self.tables[int(self.table[group[0]])]
                pieces.append(table.take(pa.array(self.row[group])))
        cap = max(1024, len(self.label))
        fresh = _Versions.__new__(_Versions)
        fresh.label = np.full(cap, -1, np.int64)
        for name in ("start", "end", "table", "row"):
            setattr(fresh, name, np.zeros(cap, np.int64))
        k = order.size
        fresh.label[:k] = self.label[order]
        fresh.start[:k] = self.start[order]
        fresh.end[:k] = self.end[order]
        fresh.row[:k] = np.arange(k)
        fresh.n, fresh.dead = int(k), 0
        # a table added for rows not yet placed (``sync`` -> ``set_many`` -> ``_room``) stays
        fresh.tables = {t: self.tables[t] for t, n in self.live_rows.items() if n == 0}
        fresh.live_rows = dict.fromkeys(fresh.tables, 0)
        fresh._next_table = self._next_table
        if k:
            tid = fresh.add_table(pa.concat_tables(pieces).combine_chunks())
            fresh.table[:k] = tid
            fresh.live_rows[tid] = int(k)
        fresh.slots_of = {}
        for s, label in enumerate(fresh.label[:k].tolist()):
            fresh.slots_of.setdefault(label, []).append(s)
        self.__dict__.update(fresh.__dict__)


class RecallIndex:
    """The recall projection: FAISS vectors + BM25 postings + an eligibility mirror.

    Args:
        con: the store's DuckDB connection (``fact_versions`` and ``tracking``), or a
            callable returning the current one (the store reconnects when it compacts).
        folder: where ``recall.npz`` lives (the store's folder).
        embedder: the vector space (default :func:`projections.embedder.default_embedder`).
        checkpoint_seconds: how often :meth:`sync` writes the file (also on
            :meth:`flush` and :meth:`close`).
        verify: re-read every hit from DuckDB with the current-view filter and count
            disagreements in :attr:`verify_misses` (tests; costs 5-8 ms per recall).
    """

    name = "recall_index"

    def __init__(self, con: duckdb.DuckDBPyConnection | Callable[[], duckdb.DuckDBPyConnection],
                 folder: Path | str, embedder: Embedder | None = None, *,
                 checkpoint_seconds: float = 60.0, verify: bool = False) -> None:
        self._con = con
        self.folder = Path(folder)
        self.path = self.folder / FILE
        self.embedder = embedder if embedder is not None else default_embedder()
        self.checkpoint_seconds = checkpoint_seconds
        self.verify = verify
        self.position = 0
        self.rebuilt: str | None = None
        """Why opening rebuilt or reconciled the index (``None`` if the file was current)."""
        self.last_error: str | None = None
        self.verify_misses = 0
        """Hits the mirror proposed that DuckDB's re-read rejected (must stay 0)."""
        self._stale = False
        self._needs_diff = True  # the mirror is never persisted: fill it from DuckDB
        self._unsaved = 0
        self._saved_at = time.monotonic()
        self._closed = False
        self._reset()
        self._load()
        self.catch_up()
        if self.rebuilt is not None or self._unsaved:
            self.flush()  # e.g. a purge that crashed before the file was rewritten

    @property
    def con(self) -> duckdb.DuckDBPyConnection:
        return self._con() if callable(self._con) else self._con

    @con.setter
    def con(self, value: duckdb.DuckDBPyConnection) -> None:
        self._con = value

    # state --------------------------------------------------------------------------------

    def _reset(self) -> None:
        self.vectors = VectorIndex(self.embedder.dim)
        self.keywords = KeywordIndex()
        self.versions = _Versions()
        self._label_of: dict[str, int] = {}
        self._fact_of: dict[int, str] = {}
        self._tenant_code: dict[str, int] = {}
        self._next_label = 0
        cap = 1024
        self._tenant = np.full(cap, -1, np.int32)
        self._class = np.full(cap, 127, np.int8)
        self._utility = np.zeros(cap, np.float32)
        self._importance = np.zeros(cap, np.float32)
        self._anchor = np.zeros(cap, np.int64)
        self._digest = np.zeros(cap, np.int64)

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

    def _code(self, tenant: str) -> int:
        code = self._tenant_code.get(tenant)
        if code is None:
            code = len(self._tenant_code)
            self._tenant_code[tenant] = code
        return code

    def _set_meta(self, items: list[tuple[int, dict[str, Any], int]], tid: int) -> None:
        """Mirror ``(label, fact, digest)`` entries (one numpy write per column)."""
        if not items:
            return
        labels = np.fromiter((label for label, _, _ in items), np.int64, len(items))
        facts = [fact for _, fact, _ in items]
        self._tenant[labels] = [self._code(f["tenant"]) for f in facts]
        self._class[labels] = [CLASSIFICATION_RANK.get(f["classification"], 127) for f in facts]
        self._utility[labels] = [utility(f["confidence"], f["state"]) for f in facts]
        self._importance[labels] = [importance(f["asserted_by"], f["volatility"]) for f in facts]
        self._anchor[labels] = [max(f["_ra"], f["_va"] or 0) for f in facts]
        self._digest[labels] = [digest for _, _, digest in items]
        self.versions.set_many(labels.tolist(), [f["versions"] for f in facts], tid)

    # following the version table ------------------------------------------------------------

    def duck_position(self) -> int:
        rows = self.con.execute("SELECT position FROM tracking WHERE name = ?",
                                [_PROJECTION]).fetchall()
        return int(rows[0][0]) if rows else 0

    def _open_rows(self, fact_ids: Sequence[str] | None) -> pa.Table:
        """Open, eligible, unmasked versions (of ``fact_ids``, or of every fact)."""
        sql = (f"SELECT {_ROW_COLUMNS} FROM fact_versions WHERE recorded_until IS NULL "
               f"AND {ELIGIBLE} AND NOT masked")
        if fact_ids is None:
            return arrow(self.con, sql)
        self.con.register("_recall_wanted", pa.table({"fact_id": pa.array(
            list(fact_ids), pa.string())}))
        try:
            return arrow(self.con, sql + " AND fact_id IN (SELECT fact_id FROM _recall_wanted)")
        finally:
            self.con.unregister("_recall_wanted")

    def sync(self, fact_ids: Sequence[str] | None, position: int) -> int:
        """Bring the entries of ``fact_ids`` (``None``: every fact) in line with DuckDB.

        Returns how many facts were added, re-embedded or removed.
        """
        if fact_ids is not None and not fact_ids:
            self.position = position
            return 0
        table = self._open_rows(None if fact_ids is None else sorted(set(fact_ids)))
        facts = _group(table)
        tid = self.versions.add_table(table.select(PUBLIC_COLUMNS))
        wanted = (set(facts) | set(self._label_of)) if fact_ids is None else set(fact_ids)
        removals: list[int] = []
        adds: list[tuple[str, str, int, dict[str, Any]]] = []
        kept: list[tuple[int, dict[str, Any], int]] = []
        for fid in sorted(wanted):
            fact = facts.get(fid)
            label = self._label_of.get(fid)
            if fact is None:
                if label is not None:
                    removals.append(label)
                continue
            doc = document(fact["text"], fact["entity"], fact["mention"], fact["attribute"])
            digest = _digest(doc)
            if label is not None and int(self._digest[label]) == digest:
                kept.append((label, fact, digest))
                continue
            if label is not None:
                removals.append(label)
            adds.append((fid, doc, digest, fact))
        self._remove_labels(removals)
        self._set_meta(kept, tid)
        if adds:
            first = self._next_label
            labels = np.arange(first, first + len(adds), dtype=np.int64)
            self._next_label += len(adds)
            self._grow_labels(self._next_label)
            docs = [doc for _, doc, _, _ in adds]
            self.vectors.add(labels, self.embedder.embed(docs))
            self.keywords.add(labels.tolist(), docs)
            for label, (fid, _, _, _) in zip(labels.tolist(), adds, strict=True):
                self._label_of[fid] = label
                self._fact_of[label] = fid
            self._set_meta([(label, fact, digest) for label, (_, _, digest, fact)
                            in zip(labels.tolist(), adds, strict=True)], tid)
        self.versions.release_unused(tid)
        if len(self.versions.tables) > MERGE_TABLES:
            self.versions.compact()
        self.position = position
        changed = len(removals) + len(adds)
        self._unsaved += changed
        if self._unsaved and time.monotonic() - self._saved_at >= self.checkpoint_seconds:
            self.flush()
        return changed

    def _remove_labels(self, labels: list[int]) -> None:
        if not labels:
            return
        removed = self.vectors.remove(np.asarray(labels, dtype=np.int64))
        self.keywords.remove(labels)
        for label in labels:
            fid = self._fact_of.pop(label)
            del self._label_of[fid]
            self._tenant[label] = -1
            self._class[label] = 127
            self._digest[label] = 0
            self.versions.drop(label)
        if removed != len(labels):
            self._stale = True
            raise IntegrityViolation(
                f"FAISS removed {removed} of {len(labels)} vectors; the index will be rebuilt")

    def follow(self, fact_ids: Sequence[str], position: int, since: int) -> None:
        """Follower hook for the catch-up loop, after each version-projection batch.

        Args:
            fact_ids: facts the batch touched.
            position: the log position the batch ends at.
            since: the position before the batch. If the index is not there (it missed
                batches, or the views are being replayed), it stops following and the
                next :meth:`catch_up` diffs every fact once.

        Never raises: a failure marks the index stale and the next :meth:`catch_up`
        (every search does one) rebuilds it from DuckDB, so a failing projection stops
        itself and never fails the write or the version projection.
        """
        if self._needs_diff or self.position != since:
            self._needs_diff = True  # missed batches (or a replay): one diff at catch_up
            return
        try:
            self.sync(fact_ids, position)
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

    def rebuild(self) -> int:
        """Diff every fact against DuckDB (after ``store.rebuild``); returns changes."""
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
        return self._label_of.get(fact_id)

    def fact_ids(self) -> set[str]:
        return set(self._label_of)

    def files(self) -> list[Path]:
        """Files this projection owns (for erasure scans)."""
        return [p for p in (self.path, self.path.with_name(FILE + ".tmp")) if p.exists()]

    # erasure (memory_es.erasure.Erasable) -------------------------------------------------

    def compact(self) -> None:
        """Rewrite the file so removed vectors and postings leave the disk too."""
        self.flush()

    def residue(self, fact_ids: list[str]) -> StoreCheck:
        """What FAISS, the keyword postings, the row mirror and ``recall.npz`` still hold
        of these facts."""
        wanted = set(fact_ids)
        indexed = sorted(wanted & set(self._label_of))
        in_faiss = set(self.vectors.ids().tolist())
        orphans = sorted(in_faiss - set(self._fact_of))
        in_rows = sorted(wanted & {f for t in self.versions.tables.values()
                                   for f in t.column("fact_id").to_pylist()})
        residues = (indexed + [f"orphan vector {label}" for label in orphans[:20]]
                    + [f"row of {f}" for f in in_rows if f not in indexed])
        pending = ["recall.npz not rewritten since the last removal"] if self._unsaved else []
        result = "residue" if residues else "pending" if pending else "clean"
        return StoreCheck(
            name=self.name,
            method="look the facts up in the FAISS id map, the keyword index and the "
                   "in-memory rows; check that the index file was rewritten since the "
                   "last removal",
            result=result,
            checked=[f"FAISS IndexIDMap2 ({self.vectors.ntotal} vectors)",
                     f"keyword index ({len(self.keywords)} documents)",
                     f"row mirror ({len(self.versions.tables)} tables)", str(self.path)],
            residues=residues, pending=pending)

    # persistence --------------------------------------------------------------------------

    def _meta(self) -> dict[str, Any]:
        return {"format": FORMAT, "embedder": self.embedder.name, "dim": self.embedder.dim,
                "position": self.position, "next_label": self._next_label}

    def flush(self) -> None:
        """Write vectors, postings, labels and position to ``recall.npz`` atomically
        (dead postings dropped first, so removed content leaves the file)."""
        self.keywords.compact()
        self.versions.compact()
        labels = np.fromiter(self._fact_of, dtype=np.int64, count=len(self._fact_of))
        arrays: dict[str, np.ndarray] = {
            "meta": np.frombuffer(json.dumps(self._meta()).encode(), dtype=np.uint8),
            "vectors": self.vectors.to_bytes(),
            "labels": labels,
            "fact_ids": _blob(self._fact_of[int(x)] for x in labels),
            "digests": self._digest[labels],
            **self.keywords.to_arrays(),
        }
        self.folder.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(FILE + ".tmp")
        with open(tmp, "wb") as fh:
            np.savez(fh, **arrays)  # type: ignore[arg-type]  # numpy's stub types **kwds as its flags
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, self.path)
        dir_fd = os.open(self.folder, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
        self._unsaved = 0
        self._saved_at = time.monotonic()

    def _load(self) -> None:
        """Vectors, postings and labels from the file; the mirror is refilled from DuckDB."""
        if not self.path.exists():
            self.rebuilt = "no index file"
            return
        try:
            with np.load(self.path, allow_pickle=False) as data:
                arrays = {name: data[name] for name in data.files}
            meta = json.loads(bytes(arrays["meta"]).decode())
        except Exception as e:  # an unreadable file is rebuilt, never trusted
            self.rebuilt = f"unreadable index file ({type(e).__name__})"
            return
        if meta.get("format") != FORMAT:
            self.rebuilt = f"index format {meta.get('format')} != {FORMAT}"
            return
        if meta.get("embedder") != self.embedder.name or meta.get("dim") != self.embedder.dim:
            self.rebuilt = (f"embedder changed ({meta.get('embedder')}/{meta.get('dim')} -> "
                            f"{self.embedder.name}/{self.embedder.dim})")
            return
        labels = arrays["labels"].astype(np.int64)
        vectors = VectorIndex.from_bytes(arrays["vectors"], self.embedder.dim)
        if vectors.ntotal != labels.size:
            self.rebuilt = "index file inconsistent"
            return
        self.vectors = vectors
        self.keywords = KeywordIndex.from_arrays(arrays)
        fact_ids = _unblob(arrays["fact_ids"], labels.size)
        self._fact_of = dict(zip(labels.tolist(), fact_ids, strict=True))
        self._label_of = {f: lab for lab, f in self._fact_of.items()}
        self._next_label = int(meta["next_label"])
        self._grow_labels(self._next_label)
        self._digest[labels] = arrays["digests"]
        self.position = int(meta["position"])

    def close(self) -> None:
        if self._closed:
            return
        if self._unsaved:
            self.flush()
        self._closed = True

    # search -------------------------------------------------------------------------------

    def _candidates(self, tenant: str, now_us: int, max_rank: int
                    ) -> tuple[np.ndarray, np.ndarray]:
        """``(mask over labels, slot of each label's current version)``: the tenant's
        facts current at ``now_us`` within the ceiling (DuckDB's current view, mirrored)."""
        size = len(self._tenant)
        mask = np.zeros(size, dtype=bool)
        slot_of = np.full(size, -1, np.int64)
        code = self._tenant_code.get(tenant)
        if code is None:
            return mask, slot_of
        labels, slots = self.versions.current(now_us)
        mask[labels] = True
        slot_of[labels] = slots
        mask &= (self._tenant == code) & (self._class <= max_rank)
        return mask, slot_of

    def candidates(self, tenant: str, now_us: int, max_rank: int) -> np.ndarray:
        """Boolean mask over labels: the tenant's facts current at ``now_us`` within the
        classification rank ``max_rank``."""
        return self._candidates(tenant, now_us, max_rank)[0]

    def search(self, tenant: str, query: str, k: int, now_us: int, *,
               valid_at: int | None = None, known_at: int | None = None,
               max_classification: str | None = None, explain: bool = False,
               channels: Sequence[str] | None = None) -> list[Hit]:
        """Recall: see :func:`recall`."""
        channels = _check_channels(channels)
        _check_k(k)
        max_rank = class_ceiling(max_classification)
        if not isinstance(query, str) or not query.strip():
            return []
        if valid_at is not None or known_at is not None:
            return self._search_as_of(tenant, query, k,
                                      now_us if valid_at is None else valid_at,
                                      now_us if known_at is None else known_at,
                                      max_rank, explain, channels)
        self.catch_up()
        mask, slot_of = self._candidates(tenant, now_us, max_rank)
        if not mask.any():
            return []
        pool = pool_size(k)
        qv = self.embedder.embed([query])[0]
        sem_labels, sem_sims = self.vectors.search(qv, pool, mask)
        kw_labels, kw_scores = self.keywords.scores(query, mask)
        labels = _pool(sem_labels, kw_labels, kw_scores, pool)
        known = dict(zip(sem_labels.tolist(), sem_sims.tolist(), strict=True))
        sims = np.array([known.get(lab, np.nan) for lab in labels.tolist()], np.float32)
        missing = np.flatnonzero(np.isnan(sims))
        if missing.size:
            sims[missing] = self.vectors.reconstruct(labels[missing]) @ qv
        parts = {
            "keyword": _normalised(kw_labels, kw_scores, labels),
            "semantic": np.clip(sims, 0.0, 1.0),
            "utility": self._utility[labels],
            "importance": self._importance[labels],
            "recency": recency(self._anchor[labels], now_us),
        }
        fids = [self._fact_of[int(lab)] for lab in labels.tolist()]
        order, scores = _rank(parts, fids, channels)
        chosen = order[:k]
        if chosen.size == 0:
            return []
        if self.verify:
            self._verify(tenant, [fids[i] for i in chosen], now_us, max_rank)
        table = self.versions.rows([int(slot_of[labels[i]]) for i in chosen])
        return _hits(table, list(range(len(chosen))), scores[chosen],
                     {p: v[chosen] for p, v in parts.items()}, explain)

    def _verify(self, tenant: str, fact_ids: list[str], now_us: int, max_rank: int) -> None:
        table = _current_rows(self.con, tenant, fact_ids, now_us, max_rank)
        misses = set(fact_ids) - set(table.column("fact_id").to_pylist())
        if misses:
            self.verify_misses += len(misses)
            self._stale = True
            log.warning("recall mirror disagreed with DuckDB on %d facts", len(misses))

    def _search_as_of(self, tenant: str, query: str, k: int, valid_at: int, known_at: int,
                      max_rank: int, explain: bool,
                      channels: tuple[str, ...] = ("keyword", "semantic")) -> list[Hit]:
        """As-of recall: rank the belief at ``(valid_at, known_at)`` itself, embedding
        texts that today's index does not hold (or holds with another text)."""
        self.catch_up()
        table = queries.as_of(self.con, valid_at, known_at, tenant)
        if table.num_rows == 0:
            return []
        cols = table.select(["fact_id", "entity", "mention", "attribute", "text",
                             "classification", "masked", "confidence", "state",
                             "asserted_by", "volatility", "recorded_at",
                             "verified_at"]).to_pydict()
        keep = [i for i in range(table.num_rows)
                if not cols["masked"][i]
                and CLASSIFICATION_RANK.get(cols["classification"][i], 127) <= max_rank]
        if not keep:
            return []
        table = table.take(pa.array(keep, pa.int64()))
        cols = {name: [values[i] for i in keep] for name, values in cols.items()}
        n = len(keep)
        docs = [document(cols["text"][i], cols["entity"][i], cols["mention"][i],
                         cols["attribute"][i]) for i in range(n)]
        qv = self.embedder.embed([query])[0]
        vectors = np.zeros((n, self.embedder.dim), np.float32)
        reuse: list[int] = []
        reuse_labels: list[int] = []
        fresh: list[int] = []
        for i, (fid, doc) in enumerate(zip(cols["fact_id"], docs, strict=True)):
            label = self._label_of.get(fid)
            if label is not None and int(self._digest[label]) == _digest(doc):
                reuse.append(i)
                reuse_labels.append(label)
            else:
                fresh.append(i)
        if reuse:
            vectors[reuse] = self.vectors.reconstruct(np.asarray(reuse_labels, np.int64))
        if fresh:
            vectors[fresh] = self.embedder.embed([docs[i] for i in fresh])
        sims_all = vectors @ qv
        pool = pool_size(k)
        sem_order = np.lexsort((np.asarray(cols["fact_id"], dtype=str), -sims_all))[:pool]
        # BM25 over the belief: postings of today's index for texts it holds, a small
        # index for the others, statistics over both (keywords.bm25)
        temp = KeywordIndex()
        temp.add(list(range(len(fresh))), [docs[i] for i in fresh])
        main_mask = np.zeros(len(self._tenant), dtype=bool)
        main_mask[reuse_labels] = True
        row_of = np.full(len(self._tenant), -1, np.int64)
        row_of[reuse_labels] = reuse
        (main_l, main_s), (temp_l, temp_s) = bm25(
            query, [(self.keywords, main_mask), (temp, np.ones(len(fresh), dtype=bool))])
        kw_labels = np.concatenate([row_of[main_l], np.asarray(fresh, np.int64)[temp_l]])
        kw_scores = np.concatenate([main_s, temp_s])
        labels = _pool(sem_order.astype(np.int64), kw_labels, kw_scores, pool)
        anchors = np.array([max(_us(cols["recorded_at"][i]), _us(cols["verified_at"][i]))
                            for i in labels.tolist()], dtype=np.int64)
        parts = {
            "keyword": _normalised(kw_labels, kw_scores, labels),
            "semantic": np.clip(sims_all[labels], 0.0, 1.0).astype(np.float32),
            "utility": np.array([utility(cols["confidence"][i], cols["state"][i])
                                 for i in labels.tolist()], np.float32),
            "importance": np.array([importance(cols["asserted_by"][i], cols["volatility"][i])
                                    for i in labels.tolist()], np.float32),
            "recency": recency(anchors, known_at),
        }
        fids = [cols["fact_id"][i] for i in labels.tolist()]
        order, scores = _rank(parts, fids, channels)
        chosen = order[:k]
        return _hits(table, [int(labels[i]) for i in chosen], scores[chosen],
                     {p: v[chosen] for p, v in parts.items()}, explain)


def recall(index: RecallIndex, tenant: str, query: str, k: int, now_us: int, *,
           valid_at_us: int | None = None, known_at_us: int | None = None,
           max_classification: str | None = None, explain: bool = False,
           channels: Sequence[str] | None = None) -> list[Hit]:
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
    """
    return index.search(tenant, query, k, now_us, valid_at=valid_at_us, known_at=known_at_us,
                        max_classification=max_classification, explain=explain,
                        channels=channels)


# ranking helpers ----------------------------------------------------------------------------


def _pool(sem_labels: np.ndarray, kw_labels: np.ndarray, kw_scores: np.ndarray,
          pool: int) -> np.ndarray:
    """The semantic top ``pool`` joined with the keyword top ``pool`` (labels, unique)."""
    if kw_labels.size > pool:
        top = np.argpartition(-kw_scores, pool - 1)[:pool]
        kw_labels = kw_labels[top]
    return np.unique(np.concatenate([sem_labels.astype(np.int64), kw_labels.astype(np.int64)]))


def _normalised(kw_labels: np.ndarray, kw_scores: np.ndarray, labels: np.ndarray) -> np.ndarray:
    out = np.zeros(labels.size, np.float32)
    if kw_labels.size == 0:
        return out
    best = float(kw_scores.max())
    order = np.argsort(kw_labels)
    sorted_labels = kw_labels[order]
    pos = np.searchsorted(sorted_labels, labels)
    pos = np.minimum(pos, sorted_labels.size - 1)
    found = sorted_labels[pos] == labels
    out[found] = kw_scores[order][pos[found]] / best
    return out


CHANNELS = ("keyword", "semantic")
"""The retrieval channels; ``channels=`` switches one off (the governance ablation)."""


def _check_channels(channels: Sequence[str] | None) -> tuple[str, ...]:
    if channels is None:
        return CHANNELS
    chosen = tuple(channels)
    if not chosen or any(c not in CHANNELS for c in chosen):
        from memory_es.errors import InvalidInput  # noqa: PLC0415

        raise InvalidInput(f"channels must be a non-empty subset of {', '.join(CHANNELS)}")
    return chosen


def _rank(parts: dict[str, np.ndarray], fact_ids: list[str],
          channels: tuple[str, ...] = CHANNELS) -> tuple[np.ndarray, np.ndarray]:
    """Blend, drop what fails the relevance floor, order best first (ties by fact id)."""
    for channel in CHANNELS:
        if channel not in channels:
            parts[channel] = np.zeros_like(parts[channel])
    scores = np.zeros(len(fact_ids), np.float64)
    for name, weight in WEIGHTS.items():
        scores += weight * parts[name].astype(np.float64)
    relevant = (parts["keyword"] > 0) | (parts["semantic"] >= MIN_SEMANTIC)
    order = np.lexsort((np.asarray(fact_ids, dtype=str), -scores))
    return order[relevant[order]], scores


def _current_rows(con: duckdb.DuckDBPyConnection, tenant: str, fact_ids: list[str],
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


def _hits(table: pa.Table, rows: list[int], scores: np.ndarray,
          parts: dict[str, np.ndarray], explain: bool) -> list[Hit]:

    facts = rows_to_facts(table.take(pa.array(rows, pa.int64()))) if rows else []
    hits = []
    for j, fact in enumerate(facts):
        detail = {name: float(values[j]) for name, values in parts.items()} if explain else {}
        hits.append(Hit(fact=fact, score=float(scores[j]), parts=detail))
    return hits


def _us(value: Any) -> int:
    if value is None:
        return 0
    if isinstance(value, int):
        return value
    return to_micros(value)


def _blob(items: Iterable[str]) -> np.ndarray:
    data = "\x00".join(items).encode("utf-8")
    return np.frombuffer(data, dtype=np.uint8).copy()


def _unblob(data: np.ndarray, count: int | None) -> list[str]:
    text = bytes(data).decode("utf-8")
    if count == 0 or (count is None and not text):
        return []
    return text.split("\x00")
