"""Notes behind write gates (SPEC §12.5): quality, dedup and auto-links in one commit.

``note()`` scores the text (pure rules, :mod:`memory_es.domain.notes`), embeds it with
the store's embedder, and asks the recall index's vector channel for the nearest notes
of the tenant that are current now and visible to the writer (a boolean mask over the
index's labels: tenant, currency and the note set; never a scan of the tenant's facts).
From those neighbours the pure rules decide the dedup outcome and the links; one
:class:`~memory_es.domain.commands.WriteNote` then stages the fact, the gate decision
and the links in one unit of work.

The gate decisions and links live in the tenant's notes stream (clear: ids, names and
numbers). :class:`NotesBook` is its fold, read straight from the log (so a rebuild or
a replay gives the same links); a link is shown only while both of its notes are in a
retrievable state and not masked, judged when read (§2.6), so a forgotten, archived,
masked or purged note drops out of every other note's links without another event.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyarrow as pa

from memory_es.choices import CheckResult
from memory_es.domain import commands as c
from memory_es.domain import notes as rules
from memory_es.domain.entity import FactState
from memory_es.domain.events import NoteRecorded, NotesLinked
from memory_es.domain.governance import check_importance
from memory_es.domain.validation import check_tenant, check_text
from memory_es.errors import (
    ConcurrentWriteError,
    ConflictError,
    InvalidInput,
    NotFound,
    QualityRejected,
)
from memory_es.ids import stream_of, uuid7_str
from memory_es.models import Link, Receipt, StoreCheck
from memory_es.runtime import Runtime
from memory_es.write import patterns
from projections.recall.documents import document
from projections.recall.ranking import class_ceiling

NEIGHBOURS = 64
"""Nearest visible notes asked of the vector channel (links keep at most 20 of them)."""
RETRIES = 5
Summariser = Callable[[Sequence[str]], str]
VECTOR_CACHE = 4096


@dataclass
class NoteMeta:
    category: str
    agent: str | None
    shared: bool

    def visible_to(self, agent: str | None) -> bool:
        return self.agent is None or self.shared or self.agent == agent


@dataclass
class TenantNotes:
    """The fold of one tenant's notes stream."""

    version: int = 0
    notes: dict[str, NoteMeta] = field(default_factory=dict)
    links: dict[str, dict[str, float]] = field(default_factory=dict)


class NotesBook:
    """Gate decisions and links per tenant, folded from the notes streams of the log."""

    def __init__(self, rt: Runtime) -> None:
        self._rt = rt
        self._tenants: dict[str, TenantNotes] = {}

    def tenant(self, tenant: str) -> TenantNotes:
        """The tenant's notes as of the log's head (reads only the events not yet folded)."""
        book = self._tenants.setdefault(tenant, TenantNotes())
        side = self._rt.side
        sid = side.keys.lookup("notes", tenant)
        if sid is None:
            return book
        for stored in side.log.recorder.select_events(sid, gt=book.version or None):
            body = side.mapper.open(stored).body or {}
            if stored.topic == NoteRecorded.TOPIC:
                book.notes.setdefault(body["fact_id"], NoteMeta(
                    body["category"], body.get("agent"), bool(body.get("shared"))))
            elif stored.topic == NotesLinked.TOPIC:
                rules.fold_links(book.links, body["fact_id"], rules.LinkPlan(
                    tuple((str(f), float(s)) for f, s in body["links"]),
                    tuple((str(a), str(b)) for a, b in body.get("evicted", ()))))
            book.version = stored.originator_version
        return book

    def reset(self) -> None:
        self._tenants.clear()


class NotesService:
    """``note`` and ``links`` of one open store."""

    def __init__(self, rt: Runtime) -> None:
        self.rt = rt
        self.book = NotesBook(rt)
        self._vectors: dict[tuple[str, str], np.ndarray] = {}

    # reads ----------------------------------------------------------------------------------

    def _live(self, fact_id: str, tenant: str) -> bool:
        """Whether the note is in a retrievable state, unmasked, of this tenant (now)."""
        fact = self.rt.side.load(stream_of(fact_id)).get(fact_id)
        return (fact is not None and fact.retrievable and not fact.masked
                and fact.content.get("tenant") == tenant)

    def _live_links(self, tenant: str, book: TenantNotes, fact_id: str,
                    agent: str | None) -> dict[str, float]:
        out: dict[str, float] = {}
        for other, score in book.links.get(fact_id, {}).items():
            meta = book.notes.get(other)
            if meta is not None and meta.visible_to(agent) and self._live(other, tenant):
                out[other] = score
        return out

    def links(self, tenant: str, fact_id: str, agent: str | None = None) -> list[Link]:
        """The note's links visible to ``agent``, strongest first (SPEC §12.5)."""
        check_tenant(tenant)
        stream_of(fact_id)
        with self.rt.lock:  # the write lock: the book is folded under it
            fact = self.rt.side.load(stream_of(fact_id)).get(fact_id)
            if fact is None or fact.content.get("tenant") != tenant:
                raise NotFound(f"fact {fact_id} not found in tenant {tenant}")
            book = self.book.tenant(tenant)
            meta = book.notes.get(fact_id)
            if meta is None or not meta.visible_to(agent) or not self._live(fact_id, tenant):
                return []
            live = self._live_links(tenant, book, fact_id, agent)
        ranked = sorted(live.items(), key=lambda p: (-p[1], p[0]))[:rules.MAX_LINKS]
        return [Link(fact_id=f, score=round(s, 6)) for f, s in ranked]

    # the write ------------------------------------------------------------------------------

    def _neighbours(self, tenant: str, book: TenantNotes, vector: np.ndarray,
                    query: np.ndarray, agent: str | None) -> list[tuple[str, float]]:
        """The nearest current notes of the tenant visible to ``agent``: the vector
        channel searched under a mask of (tenant, current now, note, visible)."""
        index = self.rt.recall
        index.catch_up()
        mask = index.candidates(tenant, self.rt.now(), class_ceiling(None))
        labels = [lab for fid, meta in book.notes.items() if meta.visible_to(agent)
                  if (lab := index.label(fid)) is not None and lab < mask.size]
        if not labels:
            return []
        allowed = np.zeros(mask.size, dtype=bool)
        allowed[np.asarray(labels, dtype=np.int64)] = True
        allowed &= mask
        found, _ = index.vectors.search(query, NEIGHBOURS, allowed)
        texts: dict[str, str] = {}
        for lab in found.tolist():
            fid = index.fact_of(int(lab))
            fact = self.rt.side.load(stream_of(fid)).get(fid)
            if (fid in book.notes and fact is not None and fact.retrievable
                    and not fact.masked and fact.content.get("tenant") == tenant):
                texts[fid] = str(fact.content["text"])
        return [(fid, float(self._vector(fid, t) @ vector)) for fid, t in texts.items()]

    def _vector(self, fact_id: str, text: str) -> np.ndarray:
        """The note's text embedded (the index holds the fact's *document*, which adds
        subject and attribute words: candidates come from it, scores from the texts)."""
        key = (fact_id, text)
        vec = self._vectors.get(key)
        if vec is None:
            vec = self.rt.recall.embedder.embed([text])[0]
            if len(self._vectors) >= VECTOR_CACHE:
                self._vectors.pop(next(iter(self._vectors)))
            self._vectors[key] = vec
        return vec

    def note(self, tenant: str, entity: str, category: str, text: str, *,
             importance: float = 0.5, agent: str | None = None, shared: bool = False,
             gate: bool = True) -> Receipt:
        """Write a note through its gates; see :meth:`memory_es.MemoryStore.note`."""
        check_tenant(tenant)
        rules.check_category(category)
        check_text("agent", agent, 128)
        if not isinstance(text, str) or not text.strip():
            raise InvalidInput("a note needs a non-empty text")
        check_text("text", text)
        importance = check_importance(importance)
        if not isinstance(entity, str) or not entity.strip():
            raise InvalidInput("entity must be a canonical id 'namespace:local' or an alias")
        score: float | None = None
        if gate:
            q = rules.quality(text, category)
            if not q.passed:
                raise QualityRejected(
                    f"note rejected by the quality gate (score {q.score:.2f} < "
                    f"{rules.QUALITY_THRESHOLD}): " + "; ".join(q.issues),
                    score=q.score, issues=list(q.issues))
            score = q.score
        canonical = self.rt.side.canonical(tenant, entity) or entity
        vector, query = self.rt.recall.embedder.embed(
            [text, document(text, canonical, None, f"note.{category}")])
        for attempt in range(RETRIES):
            try:
                return self._write(tenant, entity, category, text, (vector, query),
                                   importance, agent, shared, gate, score)
            except (ConcurrentWriteError, ConflictError):
                if attempt == RETRIES - 1:
                    raise
                self.rt.side.forget_cached()
        raise AssertionError("unreachable")

    def _write(self, tenant: str, entity: str, category: str, text: str,
               vectors: tuple[np.ndarray, np.ndarray], importance: float,
               agent: str | None, shared: bool, gate: bool, score: float | None) -> Receipt:
        rt = self.rt
        with rt.writes.lock:
            rt.catch_up()
            book = self.book.tenant(tenant)
            near = self._neighbours(tenant, book, *vectors, agent)
            dedup = rules.Dedup("new")
            if gate:
                canonical = rt.side.canonical(tenant, entity)
                same = [(fid, sim) for fid, sim in near
                        if book.notes[fid].category == category and canonical is not None
                        and self._entity_of(fid) == canonical]
                dedup = rules.decide_dedup(same)
            plan = rules.LinkPlan((), ())
            if dedup.outcome == "new":
                # a note under the cap needs no eviction: its live links are not read
                existing = {fid: self._live_links(tenant, book, fid, None)
                            if len(book.links.get(fid, {})) >= rules.MAX_LINKS
                            else book.links.get(fid, {})
                            for fid, sim in near if sim >= rules.LINK_AT}
                plan = rules.plan_links(near, existing)
            merged = text
            if dedup.outcome == "merged" and dedup.target is not None:
                old = rt.side.load(stream_of(dedup.target)).get(dedup.target)
                merged = rules.merged_text(str(old.content["text"]) if old else "", text)
            cmd = c.WriteNote(
                tenant=tenant, entity=entity, category=category, text=merged,
                importance=importance, agent=agent, shared=shared, gated=gate, score=score,
                outcome="applied" if dedup.outcome == "new" else dedup.outcome,
                target=dedup.target,
                similarity=None if dedup.similarity is None else round(dedup.similarity, 6),
                links=tuple((f, round(s, 6)) for f, s in plan.links), evicted=plan.evicted)
            return rt.writes.execute(cmd)

    def _entity_of(self, fact_id: str) -> str | None:
        fact = self.rt.side.load(stream_of(fact_id)).get(fact_id)
        return None if fact is None else fact.content.get("entity")

    # consolidation (SPEC §12.6) ---------------------------------------------------------------

    def consolidate(self, tenant: str, *, entity: str | None = None, min_cluster: int = 3,
                    overlap: float = 0.4, summarise: Summariser | None = None,
                    agent: str | None = None) -> list[Receipt]:
        """Cluster the current findings visible to ``agent`` and write one pattern per
        cluster (see :meth:`memory_es.MemoryStore.consolidate`)."""
        check_tenant(tenant)
        check_text("agent", agent, 128)
        if isinstance(min_cluster, bool) or not isinstance(min_cluster, int) or min_cluster < 2:
            raise InvalidInput("min_cluster must be an integer >= 2")
        if not isinstance(overlap, int | float) or not 0.0 < float(overlap) <= 1.0:
            raise InvalidInput("overlap must be in (0, 1]")
        if agent is not None:
            raise InvalidInput("agent-scoped patterns need private facts (SPEC §12.7), which "
                               "this store does not have yet: consolidate tenant-wide")
        summary_of = summarise if summarise is not None else rules.extractive_summary
        rt = self.rt
        with rt.writes.lock:
            rt.catch_up()
            now = rt.now()
            book = self.book.tenant(tenant)
            canonical = None if entity is None else rt.side.canonical(tenant, entity)
            if entity is not None and canonical is None:
                return []
            texts: dict[str, str] = {}
            facts: dict[str, FactState] = {}
            for fid, meta in book.notes.items():
                if meta.category != "finding" or not meta.visible_to(agent):
                    continue
                fact = rt.side.load(stream_of(fid)).get(fid)
                if (fact is None or not patterns.live(fact, now)
                        or fact.content.get("tenant") != tenant
                        or (canonical is not None and fact.content.get("entity") != canonical)):
                    continue
                texts[fid] = str(fact.content["text"])
                facts[fid] = fact
            groups = rules.clusters({f: rules.keywords(t) for f, t in texts.items()},
                                    float(overlap), min_cluster)
            commands: list[c.Command] = []
            for group in groups:
                existing = self._patterns_of(group, facts, now)
                if any(set(p.content["derived_from"]) == set(group) for p in existing):
                    continue  # unchanged: a rerun writes nothing
                summary = summary_of([texts[f] for f in group])
                check_text("summary", summary)
                value = patterns.pattern_value(summary, min_cluster)
                kw: dict[str, Any] = {
                    "tenant": tenant, "attribute": patterns.PATTERN, "value": value,
                    "text": summary, "derived_from": tuple(group), "asserted_by": "inference",
                    "source": "consolidation"}
                if existing:
                    commands.append(c.Supersede(entity=str(existing[0].content["entity"]), **kw))
                else:
                    commands.append(c.AssertFact(
                        entity=f"pattern:{uuid7_str().replace('-', '')}", **kw))
            if not commands:
                return []
            with rt.writes.unit() as staging:
                for cmd in commands:
                    staging.stage(cmd)
            return staging.receipts

    def _patterns_of(self, group: tuple[str, ...], facts: dict[str, FactState],
                     now: int) -> list[FactState]:
        """The live patterns drawing on any member of ``group`` (oldest id first)."""
        found: dict[str, FactState] = {}
        for m in group:
            for d in sorted(facts[m].dependents):
                pf = self.rt.side.load(stream_of(d)).get(d)
                if pf is not None and patterns.is_pattern(pf) and patterns.live(pf, now):
                    found[d] = pf
        return [found[k] for k in sorted(found)]

    def consolidated_into(self, tenant: str, fact_id: str) -> str | None:
        """The live pattern a note is a member of, if any."""
        fact = self.rt.side.load(stream_of(fact_id)).get(fact_id)
        if fact is None or fact.content.get("tenant") != tenant:
            raise NotFound(f"fact {fact_id} not found in tenant {tenant}")
        now = self.rt.now()
        for d in sorted(fact.dependents):
            pf = self.rt.side.load(stream_of(d)).get(d)
            if pf is not None and patterns.is_pattern(pf) and patterns.live(pf, now):
                return d
        return None


def summaries_residue(rt: Runtime, fact_ids: list[str]) -> StoreCheck:
    """The ``summaries`` store of a residue report (SPEC §12.6): pattern versions still in
    the views that drew on a purged fact (their chain must have been purged with it)."""
    found: list[str] = []
    if fact_ids:
        con = rt.views.con
        con.register("_purged", pa.table({"fact_id": pa.array(fact_ids, pa.string())}))
        try:
            found = [str(r[0]) for r in con.execute(
                "SELECT DISTINCT fact_id FROM fact_versions WHERE attribute = ? AND "
                "list_has_any(derived_from, (SELECT list(fact_id) FROM _purged))",
                [patterns.PATTERN]).fetchall()]
        finally:
            con.unregister("_purged")
    return StoreCheck(
        name="summaries",
        method="query fact_versions for note.pattern versions derived from the purged facts "
               "(a purge shreds every pattern chain that drew on them)",
        result=CheckResult.verdict(found, []),
        checked=[f"note.pattern versions derived from {len(fact_ids)} purged fact ids"],
        residues=found)
