"""The agent-facing text interface: remember, revise, release, forget, purge, recall.

Agents speak text, not (entity, attribute, value) triples. :class:`TextInterface`
turns text into the store's operations through a pluggable interpreter (rules by
default, any model as a hook) and decides *at write time* what a sentence does: a
new fact, a replacement of a named prior, a release, an amnesia, a crypto-shred.

Targeting (revise, release, forget, purge) follows one order — exact identifier
first, entity names next, words next, the store's semantic ranking last — and acts
only on what clears the thresholds in :class:`~memory_es.text.matching.Thresholds`.
Every call returns the facts it touched; destructive calls carry the store's
preview of what they erase. Every interpretation is stored with its event.

The store is anything that offers the methods of :class:`~memory_es.text.ports.TextStore`
(``MemoryStore`` does); this package never imports the store itself.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from typing import Unpack

from pydantic import BaseModel, ConfigDict, Field, SerializeAsAny

from memory_es.errors import ConfirmationRequired, ConflictError, InvalidInput, NotFound
from memory_es.models import Preview, Receipt
from memory_es.text.clauses import Clause, Interpretation, Interpreter
from memory_es.text.interpreter import ProposeFn, as_interpreter, interpret
from memory_es.text.matching import (
    DEFAULT_THRESHOLDS,
    NEGATION_TERM,
    FactView,
    Match,
    Query,
    Thresholds,
    analyse_query,
    asks_for_whole_entity,
    coverage,
    entity_keys,
    entity_terms,
    identifier_matches,
    idf_weights,
    lexical_matches,
    mention_matches,
    named_entities,
    names_only,
    query_terms_naming,
    relevance,
    view,
    view_terms,
)
from memory_es.text.normalize import name_keys
from memory_es.text.ports import TextStore, WriteOptions
from memory_es.text.purge_scope import purge_scopes
from memory_es.text.revision import (
    continuing_clause,
    retired_words,
    revised_slot,
    without_back_references,
)
from projections.tokens import stem, word_forms, word_parts

WRITE_OPTIONS = WriteOptions.__optional_keys__
"""Keyword options ``remember``/``revise`` pass through to the store's writes."""

Extra = dict[str, object]
"""What the interface adds to a clause's interpretation record (antecedent, revises...)."""


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Target(_Model):
    """A fact a text operation selected, and why."""

    fact_id: str
    entity: str | None
    attribute: str
    text: str
    by: str = Field(description="identifier | entity | mention | lexical | semantic")
    score: float
    detail: str = ""


class TextResult(_Model):
    """What a text operation did: what it matched, what it wrote, what it erased."""

    op: str
    query: str
    targets: list[Target] = Field(default_factory=list)
    touched: list[str] = Field(default_factory=list, description="fact ids changed")
    receipts: list[SerializeAsAny[Receipt]] = Field(
        default_factory=list, description="receipts of the writes (deletion receipts for purges)")
    previews: list[Preview] = Field(default_factory=list,
                                    description="store previews of destructive steps")
    pending: list[str] = Field(default_factory=list,
                               description="steps not done (e.g. confirmation required)")
    note: str = ""

    @property
    def count(self) -> int:
        return len(self.touched)


def _target(m: Match) -> Target:
    return Target(fact_id=m.fact.fact_id, entity=m.fact.entity, attribute=m.fact.attribute,
                  text=m.fact.text, by=m.by, score=m.score, detail=m.detail)


class TextInterface:
    """Text-level operations over a store (:class:`~memory_es.text.ports.TextStore`,
    e.g. ``MemoryStore``).

    Args:
        store: the store to read and write.
        interpreter: how text becomes operations. ``None`` uses the deterministic rules
            (:class:`~memory_es.text.interpreter.RuleInterpreter`); any callable that
            takes a text and returns an ``Interpretation``, ``Clause`` objects or
            mappings with their fields is used as a model hook (rules as fallback).
        thresholds: when targeting is confident enough to act.
    """

    def __init__(self, store: TextStore, interpreter: Interpreter | ProposeFn | None = None,
                 *, thresholds: Thresholds = DEFAULT_THRESHOLDS) -> None:
        self.store = store
        self.interpreter = as_interpreter(interpreter)
        self.thresholds = thresholds

    # --- reading the tenant -------------------------------------------------------------

    def _views(self, tenant: str) -> list[FactView]:
        return [view(f) for f in self.store.current(tenant)]

    def _antecedent(self, tenant: str, role: str, views: Sequence[FactView] | None = None
                    ) -> str | None:
        """The entity a ``same <role>`` phrase points back to: the most recent entity
        whose namespace, name or subject noun is the role; else the most recent one."""
        facts = sorted((v.fact for v in (views if views is not None else self._views(tenant))
                        if v.fact.entity is not None),
                       key=lambda f: f.recorded_at, reverse=True)
        if not facts:
            return None
        if role:
            role_words = {stem(w) for w in word_parts(role.lower())}
            for fact in facts[:50]:
                words = {stem(w) for w in word_parts((fact.entity or "").lower())}
                subject = {stem(w) for c in interpret(fact.text).clauses
                           for w in word_forms(c.mention or "")}
                if role_words & (words | subject):
                    return fact.entity
        return facts[0].entity

    # --- remember -------------------------------------------------------------------------

    def interpret(self, text: str) -> Interpretation:
        """How the interpreter reads ``text`` (nothing is written)."""
        return self.interpreter(text)

    def remember(self, tenant: str, text: str, **kw: Unpack[WriteOptions]) -> list[Receipt]:
        """Interpret ``text`` and write one fact per clause.

        Clauses that report a change of state on a confidently-read slot (``User now
        works at X``) supersede that slot; everything else is asserted through the
        store's control plane (reinforce, outrank or conflict, never a silent
        overwrite). ``Same customer as …`` attaches to the entity mentioned last and
        registers the new surface as an alias.
        """
        options = self._options(kw)
        reading = self.interpreter(text)
        receipts: list[Receipt] = []
        for n, clause in enumerate(reading.clauses):
            entity, extra = self._resolve(tenant, clause)
            if clause.ends_prior and entity is not None:
                receipts += self._retire_prior(tenant, entity, clause)
            receipts.append(self._write(tenant, clause, entity, reading.source, extra,
                                        _per_clause(options, n),
                                        supersede=clause.op == "supersede"))
        return receipts

    def _retire_prior(self, tenant: str, entity: str, clause: Clause) -> list[Receipt]:
        """Release the current facts of ``entity`` that a cessation clause ends: same topic
        (attribute or domain) and a distinctive word in common (``quit her job at X`` ends
        ``works at X``; ``is not vegan anymore`` ends ``is vegan``)."""
        positive = clause.attribute.removeprefix("not.")
        domains = set(clause.domains) | {positive.split(".", 1)[0]}
        said = view_terms(clause.text) - entity_terms(entity)
        out: list[Receipt] = []
        for v in self._views(tenant):
            f = v.fact
            if f.entity != entity or f.attribute.startswith("not."):
                continue
            same_topic = f.attribute == positive or bool(v.domains & domains)
            shared = (v.terms - {NEGATION_TERM}) & said
            if same_topic and shared:
                with contextlib.suppress(ConflictError, NotFound):
                    out.append(self.store.decay(f.fact_id,
                                                reason=f"ended: {clause.text}"[:1024]))
        return out

    @staticmethod
    def _options(kw: WriteOptions) -> WriteOptions:
        unknown = set(kw) - WRITE_OPTIONS
        if unknown:
            raise InvalidInput(f"unknown option(s): {', '.join(sorted(unknown))}")
        return kw

    def _resolve(self, tenant: str, clause: Clause, fallback: str | None = None
                 ) -> tuple[str | None, Extra]:
        entity = clause.entity
        extra: Extra = {}
        if clause.refers_back is not None:
            antecedent = self._antecedent(tenant, clause.refers_back)
            if antecedent is not None:
                entity = antecedent
                extra["antecedent"] = antecedent
        elif entity is None and fallback is not None:
            entity = fallback
            extra["subject_from_context"] = fallback
        if entity is not None:
            surfaces = list(clause.subject_names)
            if clause.refers_back is not None:
                surfaces += [i.surface for i in clause.identifiers]
            self._aliases(tenant, entity, surfaces)
        return entity, extra

    def _aliases(self, tenant: str, entity: str, surfaces: Sequence[str]) -> None:
        """Register surfaces that name ``entity`` but cannot be derived from its id."""
        derived = entity_keys(entity)
        for surface in dict.fromkeys(s.strip() for s in surfaces):
            if not surface or len(surface) > 512 or ":" in surface:
                continue
            if name_keys(surface) <= derived:
                continue
            try:
                self.store.current(tenant, entity=surface)
                continue  # already names an entity (this one, or another: never re-pointed)
            except (InvalidInput, NotFound):
                pass
            with contextlib.suppress(ConflictError, InvalidInput, NotFound):
                self.store.alias(tenant, surface, entity)

    def _write(self, tenant: str, clause: Clause, entity: str | None, origin: str,
               extra: Mapping[str, object], options: WriteOptions, *, supersede: bool,
               text: str | None = None, attribute: str | None = None,
               reason: str | None = None) -> Receipt:
        record = {**clause.interpretation(origin), **extra}
        attribute = attribute or clause.attribute
        if attribute != clause.attribute:
            record["slot_from_context"] = attribute
        body = text if text is not None else clause.text
        if entity is None:
            return self.store.assert_fact(
                tenant, None, attribute, clause.value, text=body,
                mention=(clause.mention or body)[:512], interpretation=record, **options)
        if supersede:
            return self.store.supersede(tenant, entity, attribute, clause.value, text=body,
                                        reason=reason, interpretation=record, **options)
        return self.store.assert_fact(tenant, entity, attribute, clause.value,
                                      text=body, interpretation=record, **options)

    # --- targeting --------------------------------------------------------------------------

    def match(self, tenant: str, query: str, *, purpose: str = "release") -> list[Target]:
        """The facts an operation with this query would act on (a dry run)."""
        views = self._views(tenant)
        matches, _tier, _whole = self._select(tenant, query, views, purpose)
        return [_target(m) for m in matches]

    def _select(self, tenant: str, text: str, views: list[FactView], purpose: str
                ) -> tuple[list[Match], str, bool]:
        th = self.thresholds
        query = analyse_query(text)
        found = identifier_matches(query, views)
        if found:
            return found, "identifier", False
        entities = named_entities(query, views)
        ratio = th.purge_ratio if purpose == "purge" else th.ratio
        if entities:
            scope = [v for v in views if v.fact.entity in entities]
            whole = asks_for_whole_entity(query, entities)
            if whole or (purpose in ("forget", "purge") and names_only(query, entities)):
                return mention_matches(entities, query, views), "entity", True
            skip = query_terms_naming(entities)
            found = lexical_matches(query, scope, th, ratio=ratio, skip=skip, all_views=views)
            if found:
                return found, "lexical", False
            if purpose in ("forget", "purge", "release"):
                return mention_matches(entities, query, views), "entity", True
            found = self._weak(tenant, text, query, scope, views, skip)
            if found:
                return found, "semantic", False
            if len(scope) == 1:
                # the query names an entity that holds a single current fact: that fact
                return [Match(scope[0].fact, "entity", 0.5, "only fact of the entity")], \
                    "entity", False
        found = lexical_matches(query, views, th, ratio=ratio)
        if found:
            return found, "lexical", False
        if purpose == "revise":
            found = self._weak(tenant, text, query, views, views, ())
            if found:
                return found, "semantic", False
        return [], "none", False

    def _weak(self, tenant: str, text: str, query: Query, scope: list[FactView],
              views: list[FactView], skip: Sequence[str] | set[str]) -> list[Match]:
        """Tier 4, for revise: below ``min_coverage`` a fact is still the target when it is
        the clear best — its coverage (words or topics) is at least ``semantic_floor`` and
        no other candidate reaches half of it — with the store's recall rank as the
        tie-breaker."""
        if not scope:
            return []
        th = self.thresholds
        idf = idf_weights(views)
        scored = sorted(((coverage(query, v, idf, th, skip), v) for v in scope),
                        key=lambda p: -p[0])
        best, top = scored[0]
        runner = scored[1][0] if len(scored) > 1 else 0.0
        if best >= th.semantic_floor and runner < 0.5 * best:
            return [Match(top.fact, "semantic", round(best, 4), "clear best below min coverage")]
        ranked = self._semantic(tenant, text, scope, query)
        if ranked and best >= th.semantic_floor:
            contenders = {v.fact.fact_id for c, v in scored if c >= 0.5 * best}
            if ranked[0].fact.fact_id in contenders:
                return ranked
        return []

    def _semantic(self, tenant: str, text: str, scope: list[FactView], query: Query
                  ) -> list[Match]:
        """Last resort: the store's recall ranking, top hit within scope, if it is on topic."""
        if not scope:
            return []
        ids = {v.fact.fact_id: v for v in scope}
        try:
            hits = self.store.recall(tenant, text, k=min(max(len(ids), 5), 50))
        except (InvalidInput, NotFound):
            return []
        idf = idf_weights(scope)
        for hit in hits:
            v = ids.get(hit.fact.fact_id)
            if v is None:
                continue
            if relevance(query, v, idf, self.thresholds) >= self.thresholds.semantic_floor:
                return [Match(v.fact, "semantic", round(float(hit.score), 4))]
            break
        return []

    # --- revise -----------------------------------------------------------------------------

    def revise(self, tenant: str, old_query: str, new_text: str,
               **kw: Unpack[WriteOptions]) -> TextResult:
        """Replace what ``old_query`` describes with what ``new_text`` says.

        The new clause that continues the matched fact supersedes its slot (a drift-chain
        link; the slot comes from the new clause when it reads one confidently, else from
        the matched fact). Matched facts outside that slot are released (decay). A clause
        that only reports the end of the old state (``sold the piano``) and adjuncts that
        name only retired content (``after <old value> …``) become the supersession's
        reason instead of present belief. Without a match, the text is remembered with
        change-of-state semantics.
        """
        options = self._options(kw)
        views = self._views(tenant)
        matches, tier, _whole = self._select(tenant, old_query, views, "revise")
        reading = self.interpreter(new_text)
        targets = [_target(m) for m in matches]
        if not matches:
            written: list[Receipt] = []
            for n, clause in enumerate(reading.clauses):
                entity, extra = self._resolve(tenant, clause)
                written.append(self._write(tenant, clause, entity, reading.source, extra,
                                           _per_clause(options, n),
                                           supersede=clause.confident and entity is not None))
            return TextResult(op="revise", query=old_query, targets=targets, receipts=written,
                              touched=[f for r in written for f in r.fact_ids],
                              note="no fact cleared the thresholds; remembered as new")
        base = matches[0].fact
        retired = retired_words(matches, reading)
        clauses = list(reading.clauses)
        reasons = [c.text for c in clauses if c.op == "cease" and not c.has_purpose]
        content = [c for c in clauses if not (c.op == "cease" and not c.has_purpose)]
        receipts: list[Receipt] = []
        touched: list[str] = []
        closed: set[str] = set()
        primary = continuing_clause(content, matches) if content else None
        for clause in content:
            entity, extra = self._resolve(tenant, clause, fallback=base.entity)
            if clause.elided or (clause.entity is None and clause.refers_back is None):
                entity = base.entity if entity is None or clause.elided else entity
            text, dropped = without_back_references(clause, retired)
            reason = "; ".join([*reasons, *dropped]) or f"revise: {old_query}"
            if clause is primary and entity is not None:
                slot = revised_slot(clause, matches, entity)
                receipt = self._write(tenant, clause, entity, reading.source,
                                      extra | {"revises": [m.fact.fact_id for m in matches]},
                                      _per_clause(options, content.index(clause)),
                                      supersede=True, text=text, attribute=slot,
                                      reason=reason[:1024])
                receipts.append(receipt)
                touched += receipt.fact_ids
                closed |= {m.fact.fact_id for m in matches
                           if m.fact.entity == entity and m.fact.attribute == slot}
            else:
                supersede = (clause.op == "supersede" and clause.confident
                             and entity is not None)
                receipt = self._write(tenant, clause, entity, reading.source, extra,
                                      _per_clause(options, content.index(clause)),
                                      supersede=supersede, text=text)
                receipts.append(receipt)
                touched += receipt.fact_ids
        for m in matches:
            if m.fact.fact_id in closed or m.fact.fact_id in touched:
                continue
            with contextlib.suppress(ConflictError, NotFound):
                r = self.store.decay(m.fact.fact_id,
                                     reason=("revise: " + ("; ".join(reasons) or old_query))
                                     [:1024])
                receipts.append(r)
                touched.append(m.fact.fact_id)
        return TextResult(op="revise", query=old_query, targets=targets, receipts=receipts,
                          touched=list(dict.fromkeys(touched)), note=f"targeted by {tier}")

    # --- release / forget -------------------------------------------------------------------

    def release(self, tenant: str, query: str, *, reason: str | None = None) -> TextResult:
        """Decay (release) what the query describes; rows stay for audit.

        A query that names an entity as a whole (``everything about Mira``, ``Ilya's
        profile``) releases every current fact of that entity and every fact that
        names it; otherwise the best-matching facts are released.
        """
        views = self._views(tenant)
        matches, tier, _whole = self._select(tenant, query, views, "release")
        receipts: list[Receipt] = []
        touched: list[str] = []
        for m in matches:
            with contextlib.suppress(ConflictError, NotFound):
                r = self.store.decay(m.fact.fact_id, reason=(reason or f"release: {query}")[:1024])
                receipts.append(r)
                touched.append(m.fact.fact_id)
        return TextResult(op="release", query=query, targets=[_target(m) for m in matches],
                          touched=touched, receipts=receipts, note=f"targeted by {tier}")

    def forget(self, tenant: str, query: str, *, reason: str | None = None) -> TextResult:
        """Amnesia of the entity the query names (``forget_entity``, terminal), and of the
        facts that name it (``forget_fact``). Nothing happens when no entity is named."""
        views = self._views(tenant)
        q = analyse_query(query)
        entities = named_entities(q, views)
        for m in identifier_matches(q, views):
            if m.fact.entity is not None:
                entities.setdefault(m.fact.entity, m.detail)
        if not entities:
            return TextResult(op="forget", query=query, note="the query names no entity")
        matches = mention_matches(entities, q, views)
        receipts: list[Receipt] = []
        touched: list[str] = []
        why = (reason or f"forget: {query}")[:1024]
        previews = self._previews("forget_entity", tenant, list(entities))
        for entity in entities:
            r = self.store.forget_entity(tenant, entity, reason=why)
            receipts.append(r)
            touched += r.fact_ids
        for m in matches:
            if m.by == "mention" and m.fact.fact_id not in touched:
                with contextlib.suppress(ConflictError, NotFound):
                    r = self.store.forget_fact(m.fact.fact_id, reason=why)
                    receipts.append(r)
                    touched += r.fact_ids
        return TextResult(op="forget", query=query, targets=[_target(m) for m in matches],
                          touched=list(dict.fromkeys(touched)), receipts=receipts,
                          previews=previews, note="targeted by entity name")

    def _previews(self, op: str, tenant: str, entities: Sequence[str]) -> list[Preview]:
        out: list[Preview] = []
        for entity in entities:
            with contextlib.suppress(InvalidInput, NotFound):
                out.append(self.store.preview(op, tenant, entity))
        return out

    # --- purge ------------------------------------------------------------------------------

    def purge_matching(self, tenant: str, identifier: str, *, confirm: bool = False,
                       requested_by: str | None = None) -> TextResult:
        """Crypto-shred what an identifier names: exact identifier first.

        Facts carrying the identifier are erased with their entity when the entity *is*
        an identifier (``email:…``, ``phone:…``) or the entity the query names, and
        with their drift chain otherwise. Facts sharing a canonical identifier with an
        erased fact are erased too (an identifier is erased everywhere it is written).
        Without an identifier match, entity names, then words decide (stricter ratio).
        High-risk purges (dependants outside the scope) need ``confirm=True``: the
        store's preview token is then passed; otherwise they are listed as pending.
        """
        views = self._views(tenant)
        matches, tier, whole = self._select(tenant, identifier, views, "purge")
        q = analyse_query(identifier)
        named = named_entities(q, views) if tier != "identifier" else {}
        scopes = purge_scopes(matches, tier, whole, named, views)
        result_targets = [_target(m) for m in matches]
        receipts: list[Receipt] = []
        previews: list[Preview] = []
        pending: list[str] = []
        touched: list[str] = []
        done_entities: set[str] = set()
        for entity, fact_id in scopes:
            if fact_id is not None and entity in done_entities:
                continue
            try:
                p = self.store.preview("purge", tenant, entity if fact_id is None else None,
                                       fact_id=fact_id)
            except (InvalidInput, NotFound):
                continue
            previews.append(p)
            token = p.token if confirm else None
            try:
                r = self.store.purge(tenant, entity if fact_id is None else None,
                                     fact_id=fact_id, confirm=token,
                                     requested_by=requested_by)
            except ConfirmationRequired:
                pending.append(f"purge {entity or fact_id}: confirmation required")
                continue
            except NotFound:
                continue
            receipts.append(r)
            touched += r.fact_ids
            if fact_id is None and entity is not None:
                done_entities.add(entity)
        return TextResult(op="purge", query=identifier, targets=result_targets,
                          touched=list(dict.fromkeys(touched)), receipts=receipts,
                          previews=previews, pending=pending, note=f"targeted by {tier}")

    # --- recall -----------------------------------------------------------------------------

    def recall_texts(self, tenant: str, query: str, k: int = 5) -> list[str]:
        """The texts of up to ``k`` current facts for a query, best first.

        The store's ``recall`` ranks (currency, eligibility and tenant are enforced there,
        before top-k); facts that share something with the query — a word, a topic, an
        exact identifier, a name, or a person when the query asks about people — come
        first, topped up from the current facts when recall returns fewer than ``k``.
        When nothing is related, the ranking is returned as is, except for a query made
        only of identifiers: it returns nothing rather than near-identical identifiers.
        """
        if k <= 0:
            return []
        q = analyse_query(query)
        ranked = [view(h.fact) for h in self.store.recall(tenant, query, k=max(4 * k, 20))]
        current: list[FactView] = []
        if len(ranked) < k:
            seen = {v.fact.fact_id for v in ranked}
            current = [v for v in self._views(tenant) if v.fact.fact_id not in seen]
        idf = idf_weights(ranked + current)
        score = {v.fact.fact_id: relevance(q, v, idf, self.thresholds) for v in ranked + current}
        current.sort(key=lambda v: (-score[v.fact.fact_id], v.fact.recorded_at), reverse=False)
        pool = ranked + current
        relevant = [v for v in pool if score[v.fact.fact_id] > 0]
        if not relevant and q.identifiers and all(t in q.id_terms for t in q.terms):
            # an identifier that names nothing retrieves nothing (never a near-identical one)
            return []
        chosen = relevant or pool
        return [v.fact.text for v in chosen[:k]]


def _per_clause(options: WriteOptions, n: int) -> WriteOptions:
    """One idempotency key per clause (``key#n``): a retried call replays every receipt."""
    key = options.get("idempotency_key")
    if key is None:
        return options
    per_clause = options.copy()
    per_clause["idempotency_key"] = f"{key}#{n}"
    return per_clause


__all__ = ["Target", "TextInterface", "TextResult"]
