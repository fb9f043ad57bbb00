"""Notes behind write gates (SPEC §12.5): quality, dedup and auto-links in one commit.

``note()`` scores the text (pure rules, :mod:`memory_es.domain.notes`), embeds it with
the store's embedder, and searches the notes' own vector index
(:class:`~memory_es.services.note_vectors.NoteVectors`, kept on the write side beside the
book: no projection is caught up for a note, and nothing is scanned per tenant). Dedup
scores the notes of the same entity and category; links take the nearest notes by
cosine, asking for more only while a nearer visible note could still be missing, so
both decide exactly as if every visible current note were scored (a test checks them
against that brute force). The pure rules decide the dedup outcome and the links; one
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

from memory_es.choices import CheckResult
from memory_es.domain import commands as c
from memory_es.domain import notes as rules
from memory_es.domain.agents import check_agent, check_shared, slot_owner, visible_to
from memory_es.domain.entity import FactState
from memory_es.domain.events import FactCorrected, NoteRecorded, NotesLinked
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
from memory_es.services.note_vectors import NoteVectors
from memory_es.write import patterns
from projections import queries

NEIGHBOURS = 64
"""Nearest notes asked of the vector index first (links keep at most 20); fourfold more
each time a visible note that would change the links could lie beyond them."""
DEDUP_NEIGHBOURS = 8
"""Nearest notes of the same entity and category asked first: dedup needs only the best."""
MARGIN = 1e-4
"""How far FAISS' own inner products may be trusted to agree with the exact ones (float32
sums in another order differ by ~1e-7): a note FAISS ranked below the k-th can only
matter if the k-th scored within this of a deciding threshold or rank."""
EMBED_BATCH = 1024
RETRIES = 5
CORRECTIONS_PAGE = 1000
Summariser = Callable[[Sequence[str]], str]


@dataclass
class NoteMeta:
    category: str
    agent: str | None
    shared: bool

    def visible_to(self, agent: str | None) -> bool:
        return visible_to(agent, self.agent, self.shared)

    @property
    def owner(self) -> str | None:
        return slot_owner(self.agent, self.shared)


@dataclass
class TenantNotes:
    """The fold of one tenant's notes stream."""

    version: int = 0
    notes: dict[str, NoteMeta] = field(default_factory=dict)
    links: dict[str, dict[str, float]] = field(default_factory=dict)
    fresh: list[str] = field(default_factory=list)
    """Notes recorded (new, merged or reinforced) since the vector index last read them."""


def _fold(book: TenantNotes, topic: str, body: dict[str, Any]) -> None:
    """One event of a tenant's notes stream into its fold."""
    if topic == NoteRecorded.TOPIC:
        book.notes.setdefault(body["fact_id"], NoteMeta(
            body["category"], body.get("agent"), bool(body.get("shared"))))
        book.fresh.append(body["fact_id"])
    elif topic == NotesLinked.TOPIC:
        rules.fold_links(book.links, body["fact_id"], rules.LinkPlan(
            tuple((str(f), float(s)) for f, s in body["links"]),
            tuple((str(a), str(b)) for a, b in body.get("evicted", ()))))


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
            _fold(book, stored.topic, side.mapper.open(stored).body or {})
            book.version = stored.originator_version
        return book

    def as_of(self, tenant: str, known_at: int) -> TenantNotes:
        """The tenant's notes as the log stood at transaction time ``known_at`` (a fresh
        fold of the events recorded until then; audit reads only)."""
        book = TenantNotes()
        side = self._rt.side
        sid = side.keys.lookup("notes", tenant)
        for stored in side.log.recorder.select_events(sid) if sid is not None else ():
            if side.mapper.header(stored)[0] > known_at:
                break
            _fold(book, stored.topic, side.mapper.open(stored).body or {})
            book.version = stored.originator_version
        return book

    def reset(self) -> None:
        self._tenants.clear()


class NotesService:
    """``note`` and ``links`` of one open store."""

    def __init__(self, rt: Runtime) -> None:
        self.rt = rt
        self.book = NotesBook(rt)
        self._indexes: dict[str, NoteVectors] = {}
        self._written: dict[str, tuple[str, np.ndarray]] = {}
        """Notes this service just wrote: (text, vector), so the index need not re-embed."""

    # reads ----------------------------------------------------------------------------------

    def _live(self, fact_id: str, tenant: str) -> bool:
        """Whether the note is in a retrievable state, unmasked, of this tenant (now)."""
        fact = self.rt.side.load(stream_of(fact_id)).get(fact_id)
        return (fact is not None and fact.retrievable and not fact.masked
                and fact.content.get("tenant") == tenant)

    def _live_links(self, tenant: str, book: TenantNotes, fact_id: str,
                    agent: str | None, alive: dict[str, bool] | None = None,
                    ) -> dict[str, float]:
        """The note's links to visible live notes; ``alive`` memoises liveness across
        the calls of one decision, which meet the same neighbours many times."""
        seen = {} if alive is None else alive
        out: dict[str, float] = {}
        for other, score in book.links.get(fact_id, {}).items():
            meta = book.notes.get(other)
            if meta is None or not meta.visible_to(agent):
                continue
            live = seen.get(other)
            if live is None:
                live = seen[other] = self._live(other, tenant)
            if live:
                out[other] = score
        return out

    def links(self, tenant: str, fact_id: str, agent: str | None = None,
              known_at: int | None = None) -> list[Link]:
        """The note's links visible to ``agent``, strongest first (SPEC §12.5); with
        ``known_at``, as they stood then (links and liveness both read as of that time)."""
        check_tenant(tenant)
        stream_of(fact_id)
        with self.rt.lock:  # the write lock: the book is folded under it
            fact = self.rt.side.load(stream_of(fact_id)).get(fact_id)
            if fact is None or fact.content.get("tenant") != tenant:
                raise NotFound(f"fact {fact_id} not found in tenant {tenant}")
            if known_at is not None:
                return self._links_as_of(tenant, fact_id, agent, known_at)
            book = self.book.tenant(tenant)
            meta = book.notes.get(fact_id)
            if meta is None or not meta.visible_to(agent) or not self._live(fact_id, tenant):
                return []
            live = self._live_links(tenant, book, fact_id, agent)
        ranked = sorted(live.items(), key=lambda p: (-p[1], p[0]))[:rules.MAX_LINKS]
        return [Link(fact_id=f, score=round(s, 6)) for f, s in ranked]

    def _links_as_of(self, tenant: str, fact_id: str, agent: str | None,
                     known_at: int) -> list[Link]:
        book = self.book.as_of(tenant, known_at)
        meta = book.notes.get(fact_id)
        if meta is None or not meta.visible_to(agent):
            return []
        self.rt.catch_up()
        others = [o for o in book.links.get(fact_id, {})
                  if (m := book.notes.get(o)) is not None and m.visible_to(agent)]
        alive = queries.retrievable_at(self.rt.views.con, [fact_id, *others], known_at)
        if fact_id not in alive:
            return []
        ranked = sorted(((o, book.links[fact_id][o]) for o in others if o in alive),
                        key=lambda p: (-p[1], p[0]))[:rules.MAX_LINKS]
        return [Link(fact_id=f, score=round(s, 6)) for f, s in ranked]

    # the write ------------------------------------------------------------------------------

    def _current(self, fact_id: str, tenant: str, now: int) -> FactState | None:
        """The note if it is current at ``now`` (retrievable, unmasked, valid) in this
        tenant: what dedup and links may see."""
        fact = self.rt.side.load(stream_of(fact_id)).get(fact_id)
        if (fact is None or not fact.retrievable or fact.masked
                or fact.content.get("tenant") != tenant
                or not any(p.start <= now and (p.end is None or p.end > now)
                           for p in fact.portions)):
            return None
        return fact

    def _index(self, tenant: str, book: TenantNotes) -> NoteVectors:
        """The tenant's note vectors, brought up to the book (just folded from the log) and
        to the corrections the log holds since the last look."""
        rt = self.rt
        vecs = self._indexes.get(tenant)
        if vecs is None:
            vecs = self._indexes[tenant] = NoteVectors(rt.recall.embedder.dim)
            vecs.seen = rt.log.recorder.max_notification_id() or 0
            book.fresh = list(book.notes)  # the whole book, once
        else:
            self._follow_corrections(vecs)
        if book.fresh:
            todo, book.fresh = dict.fromkeys(book.fresh), []
            self._reindex(tenant, book, vecs, list(todo))
        self._written.clear()
        return vecs

    def _follow_corrections(self, vecs: NoteVectors) -> None:
        """Corrections of indexed notes written since the last look (by anyone): their
        text changed, so their vector must be recomputed."""
        side = self.rt.side
        head = side.log.recorder.max_notification_id() or 0
        while vecs.seen < head:  # bounded by the head: what was scanned is not read again
            found = side.log.recorder.select_notifications(
                vecs.seen + 1, CORRECTIONS_PAGE, stop=head, topics=(FactCorrected.TOPIC,))
            vecs.seen = found[-1].id if len(found) == CORRECTIONS_PAGE else head
            for stored in found:
                body = side.mapper.open(stored).body or {}
                fids = [str(ch["fact_id"]) for ch in body.get("changes", ())
                        if str(ch["fact_id"]) in vecs.rows]
                if fids:
                    stream = str(stored.originator_id)
                    if side.load(stream).version < stored.originator_version:
                        side.forget_cached([stream])  # another writer's correction
                    tenant = str(body.get("tenant"))
                    self._reindex(tenant, self.book.tenant(tenant), vecs, fids)

    def _reindex(self, tenant: str, book: TenantNotes, vecs: NoteVectors,
                 fact_ids: list[str]) -> None:
        """(Re)index these notes from their present texts; a purged one leaves."""
        side = self.rt.side
        todo: list[tuple[str, str, str]] = []
        for fid in fact_ids:
            fact = side.load(stream_of(fid)).get(fid)
            if fact is None and fid not in vecs.rows:
                side.forget_cached([stream_of(fid)])  # another writer's new note
                fact = side.load(stream_of(fid)).get(fid)
            if fact is None:
                vecs.drop(fid)  # purged
                continue
            text = str(fact.content.get("text") or "")
            if vecs.text_of(fid) != text:
                todo.append((fid, str(fact.content.get("entity")), text))
        embedder = self.rt.recall.embedder
        for start in range(0, len(todo), EMBED_BATCH):
            chunk = todo[start:start + EMBED_BATCH]
            known = [self._written.pop(fid, None) for fid, _, _ in chunk]
            missing = [t for (_, _, t), k in zip(chunk, known, strict=True)
                       if k is None or k[0] != t]
            fresh = iter(embedder.embed(missing) if missing else ())
            for (fid, entity, text), k in zip(chunk, known, strict=True):
                vec = k[1] if k is not None and k[0] == text else next(fresh)
                meta = book.notes.get(fid)
                vecs.put(fid, entity, meta.category if meta else "", text, vec)

    def _visible_current(self, fid: str, tenant: str, book: TenantNotes, agent: str | None,
                         now: int) -> FactState | None:
        meta = book.notes.get(fid)
        if meta is None or not meta.visible_to(agent):
            return None
        fact = self._current(fid, tenant, now)
        if fact is None and self.rt.side.load(stream_of(fid)).get(fid) is None:
            vecs = self._indexes.get(tenant)
            if vecs is not None:
                vecs.drop(fid)  # purged: its vectors go the first time it is met
        return fact

    def _score(self, vecs: NoteVectors, fid: str, vector: np.ndarray) -> float:
        """The cosine of the note's text vector and ``vector`` (one float32 dot product,
        as every reference computes it)."""
        return float(vecs.vector(fid) @ vector)

    def _dedup_candidates(self, tenant: str, book: TenantNotes, vecs: NoteVectors,
                          canonical: str, category: str, vector: np.ndarray,
                          agent: str | None, now: int) -> list[tuple[str, float]]:
        """The visible current notes of the same entity and category that can decide
        dedup, scored: the entity's own notes, never the tenant's.

        Of the group's ``k`` nearest, the visible notes scoring above the k-th similarity
        (plus :data:`MARGIN`) are the top of the whole group's ranking. That top decides
        (:func:`rules.decide_dedup` takes the best) once it holds a note, or once the k-th
        similarity is below the merge threshold (no note left out could merge); else
        ``k`` grows."""
        group = vecs.group(canonical, category)
        k = DEDUP_NEIGHBOURS
        while True:
            scored, floor = self._nearest(tenant, book, vecs, vector, agent, now, k, group)
            if floor is None:
                return scored
            top = [(f, sim) for f, sim in scored if sim > floor + MARGIN]
            if top or floor + MARGIN < rules.MERGE_AT:
                return top
            k *= 4

    def _nearest(self, tenant: str, book: TenantNotes, vecs: NoteVectors,
                 vector: np.ndarray, agent: str | None, now: int, k: int,
                 among: list[str] | None = None) -> tuple[list[tuple[str, float]], float | None]:
        """The visible current notes among the ``k`` nearest (of ``among``, if given),
        scored exactly, and the search's floor (:meth:`NoteVectors.search`)."""
        while True:
            found, floor = vecs.search(vector, k, among=among)
            visible = [(fid, fact) for fid in found
                       if (fact := self._visible_current(fid, tenant, book, agent, now))]
            moved = [self._up_to_date(tenant, book, vecs, f, fact) for f, fact in visible]
            if not any(moved):  # else a vector moved: search again
                return [(fid, self._score(vecs, fid, vector)) for fid, _ in visible], floor

    def _up_to_date(self, tenant: str, book: TenantNotes, vecs: NoteVectors, fid: str,
                    fact: FactState) -> bool:
        """Re-embed a note whose text changed unseen (the corrections followed in the
        log should leave none); True when it had to."""
        if vecs.text_of(fid) == str(fact.content.get("text") or ""):
            return False
        self._reindex(tenant, book, vecs, [fid])
        return True

    def _link_plan(self, tenant: str, book: TenantNotes, vecs: NoteVectors,
                   vector: np.ndarray, agent: str | None, now: int) -> rules.LinkPlan:
        """The links of a new note, as :func:`rules.plan_links` would make them from every
        visible current note of the tenant, from the nearest ``k`` only.

        Of the ``k`` nearest labels, the visible notes scoring above the k-th similarity
        (plus :data:`MARGIN`) are exactly the top of the full ranking, since any note left
        out scored at most that. The plan made from that top is final when it already has
        its 20 links (the rest of the ranking is never read) or when the k-th similarity
        fell below the link threshold (the rest links to nothing); else ``k`` grows."""
        k = NEIGHBOURS
        while True:
            scored, floor = self._nearest(tenant, book, vecs, vector, agent, now, k)
            if floor is not None:
                scored = [(f, sim) for f, sim in scored if sim > floor + MARGIN]
            plan = rules.plan_links(scored, self._existing(tenant, book, scored),
                                    cap=rules.MAX_LINKS)
            if (floor is None or floor + MARGIN < rules.LINK_AT
                    or len(plan.links) == rules.MAX_LINKS):
                return plan
            k *= 4

    def _existing(self, tenant: str, book: TenantNotes,
                  scored: list[tuple[str, float]]) -> dict[str, dict[str, float]]:
        """The present links of the candidates: a note under the cap needs no eviction,
        so only the full ones' live links are read."""
        alive: dict[str, bool] = {}
        return {fid: self._live_links(tenant, book, fid, None, alive)
                if len(book.links.get(fid, {})) >= rules.MAX_LINKS
                else book.links.get(fid, {})
                for fid, sim in scored if sim >= rules.LINK_AT}

    def note(self, tenant: str, entity: str, category: str, text: str, *,
             importance: float = 0.5, agent: str | None = None, shared: bool = False,
             gate: bool = True) -> Receipt:
        """Write a note through its gates; see :meth:`memory_es.MemoryStore.note`."""
        check_tenant(tenant)
        rules.check_category(category)
        check_agent(agent)
        check_shared(shared)
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
        vector = self.rt.recall.embedder.embed([text])[0]
        for attempt in range(RETRIES):
            try:
                return self._write(tenant, entity, category, text, vector,
                                   importance, agent, shared, gate, score)
            except (ConcurrentWriteError, ConflictError):
                if attempt == RETRIES - 1:
                    raise
                self.rt.side.forget_cached()
        raise AssertionError("unreachable")

    def _write(self, tenant: str, entity: str, category: str, text: str,
               vector: np.ndarray, importance: float,
               agent: str | None, shared: bool, gate: bool, score: float | None) -> Receipt:
        rt = self.rt
        with rt.writes.lock:
            rt.check_open()
            now = rt.now()
            book = self.book.tenant(tenant)
            vecs = self._index(tenant, book)
            dedup = rules.Dedup("new")
            if gate:
                canonical = rt.side.canonical(tenant, entity)
                same = ([] if canonical is None else self._dedup_candidates(
                    tenant, book, vecs, canonical, category, vector, agent, now))
                dedup = rules.decide_dedup(same)
                if (dedup.outcome == "merged" and dedup.target is not None
                        and book.notes[dedup.target].owner != slot_owner(agent, shared)):
                    # merging would write this text into a note of another scope (a
                    # private text into a tenant-wide note): a new note instead (§12.7)
                    dedup = rules.Dedup("new")
            plan = rules.LinkPlan((), ())
            if dedup.outcome == "new":
                plan = self._link_plan(tenant, book, vecs, vector, agent, now)
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
            receipt = rt.writes.execute(cmd)
            if dedup.outcome == "new":
                self._written[str(receipt.fact_id)] = (text, vector)
            return receipt

    # consolidation (SPEC §12.6) ---------------------------------------------------------------

    def consolidate(self, tenant: str, *, entity: str | None = None, min_cluster: int = 3,
                    overlap: float = 0.4, summarise: Summariser | None = None,
                    agent: str | None = None) -> list[Receipt]:
        """Cluster the current findings visible to ``agent`` and write one pattern per
        cluster (see :meth:`memory_es.MemoryStore.consolidate`)."""
        check_tenant(tenant)
        check_agent(agent)
        if isinstance(min_cluster, bool) or not isinstance(min_cluster, int) or min_cluster < 2:
            raise InvalidInput("min_cluster must be an integer >= 2")
        if not isinstance(overlap, int | float) or not 0.0 < float(overlap) <= 1.0:
            raise InvalidInput("overlap must be in (0, 1]")
        summary_of = summarise if summarise is not None else self.rt.side.summarise
        rt = self.rt
        with rt.writes.lock:
            rt.check_open()  # reads the write side only: no projection is caught up
            now = rt.now()
            book = self.book.tenant(tenant)
            canonical = None if entity is None else rt.side.canonical(tenant, entity)
            if entity is not None and canonical is None:
                return []
            texts: dict[str, str] = {}
            facts: dict[str, FactState] = {}
            for fid, meta in book.notes.items():
                if meta.category != "finding":
                    continue
                fact = rt.side.load(stream_of(fid)).get(fid)
                if (fact is None or not patterns.live(fact, now)
                        or not visible_to(agent, fact.agent, fact.shared)
                        or fact.content.get("tenant") != tenant
                        or (canonical is not None and fact.content.get("entity") != canonical)):
                    continue
                texts[fid] = str(fact.content["text"])
                facts[fid] = fact
            groups = rules.clusters({f: rules.keywords(t) for f, t in texts.items()},
                                    float(overlap), min_cluster)
            commands: list[c.Command] = []
            for group in groups:
                existing = [p for p in self._patterns_of(group, facts, now)
                            if p.owner == agent]  # this scope's own patterns only
                if any(set(p.content["derived_from"]) == set(group) for p in existing):
                    continue  # unchanged: a rerun writes nothing
                summary = summary_of([texts[f] for f in group])
                check_text("summary", summary)
                value = patterns.pattern_value(summary, min_cluster)
                kw: dict[str, Any] = {
                    "tenant": tenant, "attribute": patterns.PATTERN, "value": value,
                    "text": summary, "derived_from": tuple(group), "asserted_by": "inference",
                    "source": "consolidation", "agent": agent}
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


PATTERN_ROWS = "SELECT fact_id, derived_from FROM fact_versions WHERE attribute = ?"
"""Every consolidation pattern's version rows, through the ``attribute`` index: with the
members' condition in the same WHERE, DuckDB reads every row instead (so it is applied
here, to the few rows this returns)."""


def summaries_residue(rt: Runtime, fact_ids: list[str]) -> StoreCheck:
    """The ``summaries`` store of a residue report (SPEC §12.6): pattern versions still in
    the views that drew on a purged fact (their chain must have been purged with it)."""
    purged = set(fact_ids)
    found: list[str] = []
    if purged:
        rows = rt.views.con.execute(PATTERN_ROWS, [patterns.PATTERN]).fetchall()
        found = list(dict.fromkeys(str(fid) for fid, members in rows
                                   if not purged.isdisjoint(members or ())))
    return StoreCheck(
        name="summaries",
        method="query fact_versions for note.pattern versions derived from the purged facts "
               "(a purge shreds every pattern chain that drew on them)",
        result=CheckResult.verdict(found, []),
        checked=[f"note.pattern versions derived from {len(fact_ids)} purged fact ids"],
        residues=found)
