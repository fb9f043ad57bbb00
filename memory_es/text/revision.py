"""How a revision continues the facts it replaces: which new clause, which slot, why.

Pure functions over the matched facts and the new text's clauses, used by
:meth:`~memory_es.text.interface.TextInterface.revise`.
"""

from __future__ import annotations

import re

from memory_es.text import lexicon as lx
from memory_es.text.clauses import Clause, Interpretation
from memory_es.text.matching import Match, view, view_terms

_WORD_EDGE = ".,;:!?()'\""


def continuing_clause(content: list[Clause], matches: list[Match]) -> Clause:
    """The new clause that continues the matched fact (same slot or topic, first); a
    clause that reports the end of a state (``Sold the Skoda last spring``) is the
    change, not the state that continues."""
    targets = [view(m.fact) for m in matches]
    attrs = {m.fact.attribute for m in matches}
    domains: set[str] = set().union(*(t.domains for t in targets))

    def score(c: Clause) -> float:
        s = 0.0
        if c.attribute in attrs:  # a denial has its positive slot: same slot, either way
            s += 3
        if set(c.alternatives) & attrs:
            s += 2
        s += len(set(c.domains) & domains) * 0.5
        s -= 0.1 * content.index(c)
        if c.continuation or c.ends_prior:
            s -= 2
        return s

    return max(content, key=score)


def about_the_new_text(matches: list[Match], reading: Interpretation
                       ) -> tuple[list[Match], str]:
    """The matches a revise may retire: facts of what its new text is about, and one fact
    of it, never a choice the query did not make. A query that fits facts of several
    people (``violin``: Mia's and Tom's) keeps the new text's person's; one that fits
    several facts of one person equally (``Priya's allergy``: latex and cats) keeps those
    the new text names, by their slot or by a word of theirs the others lack (``gave up
    the network pager``), or none. Returns the matches kept and, when none is, why."""
    about = {c.entity for c in reading.clauses if c.entity is not None and c.refers_back is None}
    entities = {m.fact.entity for m in matches}
    if len(entities) > 1:
        matches = [m for m in matches if m.fact.entity in about]
        if not matches:
            return [], "no match: the query fits facts of several entities, none of them " \
                       "the one the new text is about"
    if len({m.fact.fact_id for m in matches}) > 1:
        slots = {c.attribute for c in reading.clauses if c.confident}
        views = [view(m.fact) for m in matches]
        shared = frozenset.intersection(*(v.terms for v in views))
        said = view_terms(reading.source)
        named = [m for m, v in zip(matches, views, strict=True)
                 if m.fact.attribute in slots or (v.terms - shared) & said]
        if not named:
            return [], "no match: the query fits several facts equally and the new text " \
                       "names none of them"
        matches = named
    return matches, ""


def revised_slot(clause: Clause, matches: list[Match], entity: str) -> str:
    """The attribute the continuing clause supersedes: its own when it reads one
    confidently, else the matched fact's (or the alternative in the same topic)."""
    same_entity = [m for m in matches if m.fact.entity == entity]
    if not same_entity:
        return clause.attribute
    target = same_entity[0].fact.attribute
    if clause.attribute == target:
        return target
    if clause.confident:
        return clause.attribute
    if clause.alternatives and target in clause.alternatives:
        return target
    if clause.alternatives:
        target_domain = target.split(".", 1)[0]
        for alt in clause.alternatives:
            if alt.split(".", 1)[0] == target_domain:
                return alt
    return target


def retired_words(matches: list[Match], reading: Interpretation) -> set[str]:
    """Proper nouns and identifiers of the retired facts that the new text's main
    clauses do not repeat."""
    old: set[str] = set()
    for m in matches:
        old |= {w for w in view(m.fact).proper if w}
    new_main: set[str] = set()
    for c in reading.clauses:
        main = c.text
        for _marker, adj in c.adjuncts:
            main = main.replace(adj, " ")
        new_main |= {w.strip(_WORD_EDGE) for w in main.split()}
    return {w for w in old - new_main if w and w not in lx.STOPWORDS}


def without_back_references(clause: Clause, retired: set[str]) -> tuple[str, list[str]]:
    """The clause's text without the adjuncts that name retired content
    (``after <the old value> …``), and the adjuncts dropped (they become the reason)."""
    text = clause.text
    dropped: list[str] = []
    for _marker, adj in clause.adjuncts:
        words = {w.strip(_WORD_EDGE) for w in adj.split()}
        if words & retired and adj in text:
            text = text.replace(adj, "").replace(" ,", ",")
            dropped.append(adj)
    text = re.sub(r"\s{2,}", " ", text).strip().rstrip(",;")
    return (text or clause.text), dropped
