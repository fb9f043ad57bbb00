"""Notes and their write gates (SPEC §12.5-12.6): pure rules over values.

A note is a fact with attribute ``note.<category>`` (cardinality ``many``). Before it
is written, three pure decisions are taken here: its **quality** score (length,
category keywords, depth markers; the word lists are data, English and Chinese), its
**dedup** outcome (from the similarity of the nearest visible note of the same entity
and category) and its **links** (which visible notes it links to, and which weaker
links make room on notes that already have the maximum). Consolidation's rules live
here too: **union-find** clusters by keyword (Jaccard) overlap and the deterministic
extractive summary. Nothing here embeds, reads or writes: the service computes the
similarities and stages the events.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from memory_es.errors import InvalidInput

# quality ----------------------------------------------------------------------------------

CATEGORY_KEYWORDS: Mapping[str, tuple[str, ...]] = {
    "decision": ("decided", "decide", "chose", "chosen", "instead of", "trade-off",
                 "tradeoff", "决定", "选择"),
    "finding": ("found", "observed", "noticed", "measured", "seen", "发现", "观察到"),
    "correction": ("lesson", "root cause", "avoid", "mistake", "fix", "fixed", "教训", "避免",
                   "根因"),
    "pattern": ("pattern", "whenever", "usually", "rule of thumb", "规律", "通常"),
    "estimate": ("estimate", "roughly", "about", "expect", "估计", "大约"),
}
"""Category keywords (SPEC §12.5 defaults; English and Chinese). One present scores 0.4."""

DEPTH_MARKERS: tuple[str, ...] = ("because", "why", "how", "so that", "therefore",
                                  "root cause", "为什么", "如何", "原因", "因为")
"""Depth markers: each distinct one present scores 0.15, up to 0.3."""

CATEGORIES: tuple[str, ...] = tuple(CATEGORY_KEYWORDS)
MIN_LENGTH = 40
MAX_LENGTH = 2000
LENGTH_WEIGHT = 0.3
LONG_WEIGHT = 0.15
KEYWORD_WEIGHT = 0.4
DEPTH_WEIGHT = 0.15
DEPTH_CAP = 0.3
QUALITY_THRESHOLD = 0.6


@dataclass(frozen=True)
class Quality:
    """A note's quality score in [0, 1] and the reasons it lost points."""

    score: float
    length: float
    keywords: float
    depth: float
    issues: tuple[str, ...]

    @property
    def passed(self) -> bool:
        return self.score >= QUALITY_THRESHOLD - 1e-9


def _is_ascii(term: str) -> bool:
    return all(ord(ch) < 128 for ch in term)


def contains_term(text: str, term: str) -> bool:
    """Whether ``term`` occurs in ``text``: as whole words for Latin-script terms
    (case-insensitive, so ``fix`` is not found in ``prefix``), as a substring for CJK."""
    if not _is_ascii(term):
        return term in text
    pattern = r"(?<![a-z0-9])" + re.escape(term.lower()) + r"(?![a-z0-9])"
    return re.search(pattern, text.lower()) is not None


def check_category(category: str) -> str:
    if category not in CATEGORY_KEYWORDS:
        raise InvalidInput(f"category must be one of {', '.join(CATEGORIES)}")
    return category


def quality(text: str, category: str, *,
            keywords: Mapping[str, Sequence[str]] = CATEGORY_KEYWORDS,
            depth_markers: Sequence[str] = DEPTH_MARKERS) -> Quality:
    """Score a note: length 0.3 (40-2,000 characters; 0 shorter, 0.15 longer), a category
    keyword 0.4, 0.15 per distinct depth marker up to 0.3."""
    n = len(text.strip())
    issues: list[str] = []
    if n < MIN_LENGTH:
        length = 0.0
        issues.append(f"too short: {n} characters, at least {MIN_LENGTH} expected")
    elif n > MAX_LENGTH:
        length = LONG_WEIGHT
        issues.append(f"too long: {n} characters, at most {MAX_LENGTH} for full marks")
    else:
        length = LENGTH_WEIGHT
    words = keywords.get(category, ())
    kw = KEYWORD_WEIGHT if any(contains_term(text, w) for w in words) else 0.0
    if not kw:
        issues.append(f"no {category} keyword (one of: {', '.join(words[:6])})")
    found = sum(1 for m in depth_markers if contains_term(text, m))
    depth = min(DEPTH_CAP, DEPTH_WEIGHT * found)
    if depth < DEPTH_CAP:
        issues.append(f"shallow: {found} depth marker(s) ({', '.join(depth_markers[:5])}, ...)")
    score = round(length + kw + depth, 6)
    return Quality(score, length, kw, depth, tuple(issues))


# dedup ------------------------------------------------------------------------------------

DUPLICATE_AT = 0.95
MERGE_AT = 0.85
LINK_AT = 0.35
MAX_LINKS = 20


@dataclass(frozen=True)
class Dedup:
    """``outcome`` is ``new``, ``duplicate`` or ``merged``; ``target`` the existing note."""

    outcome: str
    target: str | None = None
    similarity: float | None = None


def decide_dedup(same_slot: Iterable[tuple[str, float]]) -> Dedup:
    """From the similarities of the visible current notes of the same entity and
    category: >= 0.95 duplicate of the nearest, 0.85-0.95 merged into it, else new.
    Ties go to the smaller fact id, so the decision is deterministic."""
    best: tuple[float, str] | None = None
    for fid, sim in same_slot:
        if best is None or sim > best[0] or (sim == best[0] and fid < best[1]):
            best = (sim, fid)
    if best is None or best[0] < MERGE_AT:
        return Dedup("new")
    return Dedup("duplicate" if best[0] >= DUPLICATE_AT else "merged", best[1], best[0])


def merged_text(existing: str, new: str) -> str:
    """The text of a merged note: the existing one, then the new one."""
    return f"{existing.rstrip()}\n{new.strip()}"


# links ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class LinkPlan:
    """``links``: (other note, score) for the new note, strongest first; ``evicted``:
    (note, weakest link dropped from it) to make room, both sides dropped."""

    links: tuple[tuple[str, float], ...]
    evicted: tuple[tuple[str, str], ...]


def _weakest(links: Mapping[str, float]) -> tuple[str, float]:
    fid = min(links, key=lambda f: (links[f], f))
    return fid, links[fid]


def plan_links(candidates: Iterable[tuple[str, float]],
               existing: Mapping[str, Mapping[str, float]], *,
               threshold: float = LINK_AT, cap: int = MAX_LINKS) -> LinkPlan:
    """Which notes a new note links to (similarity >= ``threshold``, at most ``cap``)
    and which links they drop: a candidate already holding ``cap`` links takes the new
    one only when it is stronger than its weakest, which is evicted (on both sides).

    ``existing[f]`` is note ``f``'s present links (other note -> score)."""
    ranked = sorted(((fid, s) for fid, s in candidates if s >= threshold),
                    key=lambda p: (-p[1], p[0]))
    links: list[tuple[str, float]] = []
    evicted: list[tuple[str, str]] = []
    for fid, score in ranked:
        if len(links) == cap:
            break
        theirs = existing.get(fid, {})
        if len(theirs) >= cap:
            weak, weak_score = _weakest(theirs)
            if score <= weak_score:
                continue
            evicted.append((fid, weak))
        links.append((fid, score))
    return LinkPlan(tuple(links), tuple(evicted))


def fold_links(book: dict[str, dict[str, float]], fact_id: str,
               plan: LinkPlan) -> None:
    """Apply a link plan to ``book`` (note -> other -> score), both directions."""
    for a, b in plan.evicted:
        book.get(a, {}).pop(b, None)
        book.get(b, {}).pop(a, None)
    mine = book.setdefault(fact_id, {})
    for other, score in plan.links:
        mine[other] = score
        book.setdefault(other, {})[fact_id] = score


# consolidation ----------------------------------------------------------------------------

SENTENCE_END = ".!?\u3002\uff01\uff1f"
"""Latin and CJK (ideographic full stop, full-width ! and ?) sentence ends."""
_SENTENCE = re.compile(f"(?<=[{re.escape(SENTENCE_END)}])\\s*")
_WORD = re.compile(r"[a-z0-9][a-z0-9'-]*|[\u4e00-\u9fff]")
_STOP_TEXT = (
    "a an and are as at be been but by for from had has have i in into is it its of on or "
    "our so than that the their then there these they this to was we were when which while "
    "with after before over under not no")
STOPWORDS = frozenset(_STOP_TEXT.split())


def keywords(text: str) -> frozenset[str]:
    """The content words of a note (lower case, stopwords and 1-letter words dropped;
    each CJK character is a word)."""
    return frozenset(w for w in _WORD.findall(text.lower())
                     if w not in STOPWORDS and (len(w) > 1 or not _is_ascii(w)))


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    """Shared words over all words (0 for two empty sets); the union's size is counted, not built,
    so the same two integers are divided as by ``len(a & b) / len(a | b)``."""
    if not a and not b:
        return 0.0
    shared = len(a & b)
    return shared / (len(a) + len(b) - shared)


def clusters(items: Mapping[str, frozenset[str]], overlap: float,
             min_cluster: int) -> list[tuple[str, ...]]:
    """Union-find over notes: two notes join when their keyword Jaccard >= ``overlap``;
    clusters of at least ``min_cluster`` notes, members and clusters sorted.

    The pairs are found with a prefix filter, not by trying every pair (10k findings are
    50M pairs): :func:`similar_pairs`. Components do not depend on the order in which
    their edges are found, so the clusters are those of the all-pairs definition."""
    ids = sorted(items)
    parent = {i: i for i in ids}

    def find(x: str) -> str:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in similar_pairs(items, overlap, skip=lambda x, y: find(x) == find(y)):
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    groups: dict[str, list[str]] = {}
    for fid in ids:
        groups.setdefault(find(fid), []).append(fid)
    return sorted(tuple(g) for g in groups.values() if len(g) >= min_cluster)


_SLACK = 1e-9
"""Subtracted before rounding a prefix bound up: a longer prefix is only ever safer."""


def similar_pairs(items: Mapping[str, frozenset[str]], overlap: float, *,
                  skip: Callable[[str, str], bool] | None = None
                  ) -> Iterable[tuple[str, str]]:
    """Every pair with ``jaccard >= overlap`` (each once), by the prefix filter of
    all-pairs similarity joins (Bayardo et al. 2007; Xiao et al.'s mid-prefix, 2008).

    Words are ordered rarest first. Sets are visited by increasing size; a set ``b`` is
    indexed under the first ``|b| - ceil(2t/(1+t)|b|) + 1`` of its words and a later
    (not smaller) set ``a`` probes with its first ``|a| - ceil(t|a|) + 1``. Why no pair is
    missed: ``J >= t`` needs ``|a∩b| >= t/(1+t)(|a|+|b|)``, which (with ``|b| <= |a|``
    and ``|b| >= t|a|``) is at least both bounds, and two sets sharing that many words
    share one within those prefixes of a common order. Candidates are then checked with
    :func:`jaccard` itself, so rounding decides exactly as the pairwise loop did.
    ``skip(b, a)`` true: that candidate is not checked (union-find passes "already in one
    component", which leaves the components unchanged and saves most checks)."""
    t = float(overlap)
    freq: dict[str, int] = {}
    for kws in items.values():
        for w in kws:
            freq[w] = freq.get(w, 0) + 1
    index: dict[str, list[str]] = {}
    mid = 2 * t / (1 + t)
    for a in sorted(items, key=lambda f: (len(items[f]), f)):
        words = sorted(items[a], key=lambda w: (freq[w], w))
        n = len(words)
        probe = n - math.ceil(t * n - _SLACK) + 1
        seen: set[str] = set()
        for w in words[:probe]:
            for b in index.get(w, ()):
                if b not in seen:
                    seen.add(b)
                    if skip is not None and skip(b, a):
                        continue
                    if jaccard(items[a], items[b]) >= overlap:
                        yield (b, a)
        for w in words[:n - math.ceil(mid * n - _SLACK) + 1]:
            index.setdefault(w, []).append(a)


def extractive_summary(texts: Sequence[str], *, sentences: int = 3) -> str:
    """A deterministic extractive summary: the ``sentences`` member sentences whose words
    are most shared across the members, in the members' order (ties by position)."""
    pieces: list[str] = []
    for t in texts:
        pieces.extend(p.strip() for p in _SENTENCE.split(t) if p.strip())
    if not pieces:
        return ""
    freq: dict[str, int] = {}
    for t in texts:
        for w in keywords(t):
            freq[w] = freq.get(w, 0) + 1
    scored = [(sum(freq.get(w, 0) for w in keywords(p)) / (1 + len(keywords(p))) ** 0.5, -i)
              for i, p in enumerate(pieces)]
    chosen = sorted(sorted(range(len(pieces)), key=lambda i: scored[i], reverse=True)
                    [:sentences])
    seen: set[str] = set()
    out: list[str] = []
    for i in chosen:
        if pieces[i] not in seen:
            seen.add(pieces[i])
            out.append(pieces[i])
    return "Pattern: " + " ".join(p if p[-1] in SENTENCE_END else p + "." for p in out)
