"""SPEC §12.5-12.6 as pure rules: the quality score, dedup outcomes, link planning,
union-find clustering and the extractive summary, each checked against a small reference
model written here independently of the implementation."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memory_es.domain import notes as n
from memory_es.errors import InvalidInput

WORDS = ["found", "cache", "because", "why", "decided", "instead", "of", "lesson", "avoid",
         "ttl", "disk", "prefix", "fixing", "发现", "原因", "estimate", "roughly", "how",
         "so", "that", "pattern", "whenever", "db", "latency"]
texts = st.lists(st.sampled_from(WORDS), min_size=0, max_size=30).map(" ".join)
fact_ids = st.sampled_from([f"f-{i:02d}-1" for i in range(12)])
sims = st.floats(min_value=-1.0, max_value=1.0, allow_nan=False)


def ref_has(text: str, term: str) -> bool:
    """Reference word matcher: tokenise Latin text into runs of [a-z0-9] (any other
    character is a token of its own, so 'so 发现 that' holds no 'so that'); CJK terms by
    substring."""
    if any(ord(ch) > 127 for ch in term):
        return term in text
    tokens = re.findall(r"[a-z0-9]+|[^a-z0-9\s]", text.lower())  # CJK and marks split runs
    parts = re.findall(r"[a-z0-9]+", term.lower())
    return any(tokens[i:i + len(parts)] == parts for i in range(len(tokens)))


def ref_score(text: str, category: str) -> float:
    size = len(text.strip())
    length = 0.0 if size < 40 else 0.15 if size > 2000 else 0.3
    kw = 0.4 if any(ref_has(text, w) for w in n.CATEGORY_KEYWORDS[category]) else 0.0
    depth = min(0.3, 0.15 * sum(ref_has(text, m) for m in n.DEPTH_MARKERS))
    return length + kw + depth


@given(texts, st.sampled_from(n.CATEGORIES))
def test_quality_matches_reference(text: str, category: str) -> None:
    """The quality score equals an independently computed length + keyword + depth sum."""
    q = n.quality(text, category)
    assert q.score == pytest.approx(ref_score(text, category))
    assert q.passed == (ref_score(text, category) >= 0.6 - 1e-9)
    assert 0.0 <= q.score <= 1.0


@given(texts, st.sampled_from(n.CATEGORIES))
def test_a_failed_note_always_says_why(text: str, category: str) -> None:
    """A note below the threshold carries at least one reason (never a bare refusal)."""
    q = n.quality(text, category)
    if not q.passed:
        assert q.issues


def test_quality_examples() -> None:
    """A deep, long finding passes, a shallow one fails, and keywords are whole words."""
    good = "We found the cache misses doubled because the TTL was short, so that fix waits."
    assert n.quality(good, "finding").score == pytest.approx(1.0)
    assert not n.quality("did stuff today", "finding").passed
    assert not n.contains_term("the prefix table", "fix")
    assert n.contains_term("我们发现缓存失效", "发现")
    chinese = "我们发现缓存命中率下降了一半\uff0c原因是过期时间太短\uff0c因为监控缺失\u3002"
    assert n.quality(chinese + " Seen over one week.", "finding").passed


def test_unknown_category_is_invalid() -> None:
    """A category outside the documented five is invalid input."""
    with pytest.raises(InvalidInput):
        n.check_category("rumour")


@given(st.lists(st.tuples(fact_ids, sims), max_size=10))
def test_dedup_matches_reference(pairs: list[tuple[str, float]]) -> None:
    """Dedup picks the most similar note: >= 0.95 duplicate, >= 0.85 merged, else new."""
    d = n.decide_dedup(pairs)
    if not pairs or max(s for _, s in pairs) < 0.85:
        assert d.outcome == "new" and d.target is None
        return
    best = max(s for _, s in pairs)
    target = min(f for f, s in pairs if s == best)
    assert (d.target, d.similarity) == (target, best)
    assert d.outcome == ("duplicate" if best >= 0.95 else "merged")


links_books = st.dictionaries(
    fact_ids, st.dictionaries(fact_ids, st.floats(0.35, 1.0), max_size=6), max_size=8)


@given(st.dictionaries(fact_ids, sims, max_size=12), links_books,
       st.integers(min_value=1, max_value=5))
def test_link_plan_respects_threshold_and_caps(candidates: dict[str, float],
                                               existing: dict[str, dict[str, float]],
                                               cap: int) -> None:
    """Links keep only similarities >= 0.35, at most ``cap``, strongest first, and a full
    note takes a new link only by evicting a strictly weaker one."""
    plan = n.plan_links(candidates.items(), existing, cap=cap)
    assert len(plan.links) <= cap
    assert all(s >= n.LINK_AT for _, s in plan.links)
    scores = [s for _, s in plan.links]
    assert scores == sorted(scores, reverse=True)
    linked = dict(plan.links)
    for other, weakest in plan.evicted:
        assert other in linked and len(existing[other]) >= cap
        assert existing[other][weakest] == min(existing[other].values())
        assert linked[other] > existing[other][weakest]
    for fid, score in linked.items():
        if len(existing.get(fid, {})) >= cap:
            assert (fid, min(existing[fid], key=lambda f: (existing[fid][f], f))) in plan.evicted
        assert candidates[fid] == score
    eligible = [f for f, s in candidates.items() if s >= n.LINK_AT
                and (len(existing.get(f, {})) < cap or s > min(existing[f].values()))]
    assert len(plan.links) == min(cap, len(eligible))


@given(st.dictionaries(fact_ids, sims, max_size=12), links_books)
def test_folded_links_are_symmetric(candidates: dict[str, float],
                                    existing: dict[str, dict[str, float]]) -> None:
    """After a plan is folded, every link is held by both of its notes with one score."""
    book: dict[str, dict[str, float]] = {}
    for a, others in existing.items():
        for b, s in others.items():
            if a != b:
                book.setdefault(a, {})[b] = s
                book.setdefault(b, {})[a] = s
    plan = n.plan_links(((f, s) for f, s in candidates.items() if f != "new"), book)
    n.fold_links(book, "new", plan)
    for a, others in book.items():
        for b, s in others.items():
            assert book[b][a] == s


def ref_components(items: dict[str, frozenset[str]], overlap: float,
                   min_cluster: int) -> list[tuple[str, ...]]:
    """Reference: connected components by breadth-first search over the overlap graph."""
    seen: set[str] = set()
    out = []
    for start in sorted(items):
        if start in seen:
            continue
        comp, frontier = {start}, [start]
        while frontier:
            x = frontier.pop()
            for y, words in items.items():
                if y not in comp and n.jaccard(items[x], words) >= overlap:
                    comp.add(y)
                    frontier.append(y)
        seen |= comp
        if len(comp) >= min_cluster:
            out.append(tuple(sorted(comp)))
    return sorted(out)


@given(st.dictionaries(fact_ids, st.frozensets(st.sampled_from(WORDS[:8]), max_size=5),
                       max_size=12),
       st.floats(0.1, 1.0), st.integers(1, 4))
def test_clusters_match_connected_components(items: dict[str, frozenset[str]],
                                             overlap: float, min_cluster: int) -> None:
    """Union-find clusters equal the connected components of the Jaccard-overlap graph."""
    assert n.clusters(items, overlap, min_cluster) == ref_components(items, overlap,
                                                                     min_cluster)


@given(st.lists(texts.filter(str.strip), min_size=1, max_size=6))
def test_summary_is_deterministic_and_extractive(members: list[str]) -> None:
    """The summary is the same on every run and every sentence comes from a member."""
    a = n.extractive_summary(members)
    assert a == n.extractive_summary(list(members))
    body = a.removeprefix("Pattern: ")
    pieces = [p.removesuffix(".") for p in re.split(r"(?<=[.!?])\s+", body)]
    assert pieces and all(any(p in m for m in members) for p in pieces)


def test_summary_never_quotes_a_member_it_was_not_given() -> None:
    """A summary of the remaining members holds no word only the removed member had."""
    members = ["Cache misses rose after deploy.", "Cache misses rose at peak load.",
               "Cache misses rose with income 20k a month."]
    rest = n.extractive_summary(members[:2])
    assert "20k" not in rest and "income" not in rest


@given(st.dictionaries(st.integers(0, 40).map(lambda i: f"f-{i:02d}-1"),
                       st.frozensets(st.sampled_from(WORDS), max_size=9), max_size=40),
       st.floats(0.05, 1.0))
def test_prefix_filter_finds_every_similar_pair(items: dict[str, frozenset[str]],
                                                overlap: float) -> None:
    """The prefix-filtered join yields exactly the pairs an all-pairs loop accepts."""
    ids = sorted(items)
    expected = {(a, b) for i, a in enumerate(ids) for b in ids[i + 1:]
                if len(items[a] & items[b]) / max(1, len(items[a] | items[b])) >= overlap}
    got = {tuple(sorted(p)) for p in n.similar_pairs(items, overlap)}
    assert got == expected
