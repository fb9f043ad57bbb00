"""Recall's scoring (SPEC §9): five parts in [0, 1], one weighted blend, one order.

``score = Σ WEIGHTS[part] · part``:

============  ======  =============================================================
part          weight  definition
============  ======  =============================================================
keyword       0.15    BM25 (statistics over the candidate set) / best BM25 of query
semantic      0.40    cosine of query and fact embeddings, clipped at 0
utility       0.15    the fact's q-value (SPEC §12.2: 0.5, then the EWMA of its
                      judgements); with ``explore=True`` a Thompson sample for facts
                      served fewer than 5 times
importance    0.15    (0.5 + 0.5 * written importance) * confidence * state factor
                      (reinforced 1.0, active 0.9, stale 0.5) * provenance (user 1.0,
                      third party 0.7, inference 0.4) * volatility (stable 1.0,
                      periodic 0.8, volatile 0.6)
recency       0.15    the forgetting curve (SPEC §12.3) of the days idle since the last
                      use, record or verification: 1 for 30 days, then x0.98 a day,
                      beyond 90 days x0.95 a day, never below 0.1
============  ======  =============================================================

Each channel contributes its best :func:`pool_size` candidates to a pool that
:func:`blend` scores; a hit needs a keyword match or a cosine of at least
:data:`MIN_SEMANTIC`. Current and as-of recall gather the inputs differently (the
index's mirror, or the belief read from DuckDB) and share :func:`blend`, so one query
is ranked by one rule. Everything here is pure: arrays in, arrays out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from memory_es.domain.governance import DAY_US, DEFAULT, GovernanceConfig, explore_beta
from memory_es.domain.validation import CLASSIFICATION_RANK, CLASSIFICATIONS
from memory_es.errors import InvalidInput
from projections.recall.loading import load_kernels

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

CHANNELS = ("keyword", "semantic")
"""The retrieval channels; ``channels=`` switches one off (the governance ablation)."""


def pool_size(k: int) -> int:
    """How many candidates each channel contributes to the blended pool."""
    return max(4 * k, 32)


def utility(confidence: float, state: str) -> float:
    """Confidence weighed by lifecycle state (a factor of the ``importance`` part)."""
    return float(confidence) * STATE_UTILITY.get(state, 0.9)


def importance(asserted_by: str, volatility: str, confidence: float = 1.0,
               state: str = "active", weight: float = 0.5) -> float:
    """The ``importance`` part: written importance, confidence and state, provenance and
    volatility (each in [0, 1], so their product is)."""
    return ((0.5 + 0.5 * float(weight)) * utility(confidence, state)
            * ASSERTED_IMPORTANCE.get(asserted_by, 0.7)
            * VOLATILITY_IMPORTANCE.get(volatility, 0.8))


def recency(anchor_us: np.ndarray, now_us: int,
            config: GovernanceConfig = DEFAULT) -> np.ndarray:
    """The ``recency`` part: the forgetting curve of the days since each anchor (the same
    function as :func:`memory_es.domain.governance.forgetting`, over arrays)."""
    idle = np.maximum(0, now_us - anchor_us).astype(np.float64) / DAY_US
    slow = np.clip(np.minimum(idle, config.curve_fast_after_days) - config.curve_grace_days,
                   0.0, None)
    fast = np.clip(idle - max(config.curve_fast_after_days, config.curve_grace_days), 0.0, None)
    weight = np.power(config.curve_slow, slow) * np.power(config.curve_fast, fast)
    out: np.ndarray = np.clip(weight, config.curve_floor, 1.0).astype(np.float32)
    return out


def explore(q: np.ndarray, served: np.ndarray, useful: np.ndarray, seed: int | None,
            config: GovernanceConfig = DEFAULT) -> np.ndarray:
    """The ``utility`` part with ``explore=True``: facts served fewer than
    ``config.explore_below`` times get a Thompson sample from Beta(useful + 1,
    served - useful + 1) instead of their q-value (seeded: the same seed, the same draw)."""
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise InvalidInput("seed must be a non-negative integer (or None)")
    out = q.astype(np.float32).copy()
    young = np.flatnonzero(served < config.explore_below)
    if young.size:
        rng = np.random.default_rng(seed)
        a, b = zip(*(explore_beta(int(useful[i]), int(served[i])) for i in young), strict=True)
        out[young] = rng.beta(np.asarray(a), np.asarray(b)).astype(np.float32)
    return out


def class_ceiling(max_classification: str | None) -> int:
    """The highest classification rank a caller may see (``None``: every level).

    Raises:
        InvalidInput: ``max_classification`` is not a classification.
    """
    if max_classification is None:
        return len(CLASSIFICATIONS) - 1
    if max_classification not in CLASSIFICATION_RANK:
        raise InvalidInput(
            f"max_classification must be one of {', '.join(CLASSIFICATIONS)}")
    return CLASSIFICATION_RANK[max_classification]


def check_k(k: int) -> int:
    """``k`` itself, if it is an integer in 1..1000.

    Raises:
        InvalidInput: otherwise.
    """
    if not isinstance(k, int) or isinstance(k, bool) or not 1 <= k <= 1000:
        raise InvalidInput("k must be an integer between 1 and 1000")
    return k


def check_channels(channels: Sequence[str] | None) -> tuple[str, ...]:
    """The channels to use (``None``: all of :data:`CHANNELS`).

    Raises:
        InvalidInput: ``channels`` is empty or names an unknown channel.
    """
    if channels is None:
        return CHANNELS
    chosen = tuple(channels)
    if not chosen or any(c not in CHANNELS for c in chosen):
        raise InvalidInput(f"channels must be a non-empty subset of {', '.join(CHANNELS)}")
    return chosen


def merge_pools(sem_labels: np.ndarray, kw_labels: np.ndarray, kw_scores: np.ndarray,
                pool: int) -> np.ndarray:
    """The semantic top ``pool`` joined with the keyword top ``pool`` (labels, unique;
    keyword ties at the cut go to the lower label)."""
    if kw_labels.size > pool:
        load_kernels()  # numba loads in ~0.9 s: on first use
        from projections.recall import kernels  # noqa: PLC0415

        kw_labels = kw_labels[kernels.best(kw_labels, kw_scores, pool)]
    return np.unique(np.concatenate([sem_labels.astype(np.int64), kw_labels.astype(np.int64)]))


def keyword_part(kw_labels: np.ndarray, kw_scores: np.ndarray, labels: np.ndarray
                 ) -> np.ndarray:
    """The ``keyword`` part of each of ``labels``: its BM25 over the query's best."""
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


def rank(parts: dict[str, np.ndarray], fact_ids: Sequence[str]
         ) -> tuple[np.ndarray, np.ndarray]:
    """Weigh the parts, drop what fails the relevance floor, order best first.

    Returns:
        ``(order, scores)``: positions of the relevant members, best first (ties by
        fact id), and every member's score.
    """
    scores = np.zeros(len(fact_ids), np.float64)
    for name, weight in WEIGHTS.items():
        scores += weight * parts[name].astype(np.float64)
    relevant = (parts["keyword"] > 0) | (parts["semantic"] >= MIN_SEMANTIC)
    order = np.lexsort((np.asarray(fact_ids, dtype=str), -scores))
    return order[relevant[order]], scores


@dataclass(frozen=True)
class Ranked:
    """The best members of a pool, as :func:`blend` ordered them."""

    positions: np.ndarray
    """Positions in the pool, best first (at most ``k``)."""
    scores: np.ndarray
    """Their scores."""
    parts: dict[str, np.ndarray]
    """Their parts (a switched-off channel's part is 0)."""


def blend(pool: np.ndarray, fact_ids: Sequence[str], k: int, *,
          keyword: tuple[np.ndarray, np.ndarray], similarity: np.ndarray,
          utility: np.ndarray, importance: np.ndarray, anchor_us: np.ndarray, now_us: int,
          channels: Sequence[str] = CHANNELS, config: GovernanceConfig = DEFAULT) -> Ranked:
    """Score a pool and keep its best ``k`` relevant members.

    Args:
        pool: the members' labels, as :func:`merge_pools` joined them.
        fact_ids: each member's fact id (breaks ties).
        k: at most this many members are kept.
        keyword: ``(labels, scores)`` of the keyword channel's matches (any labels;
            members without a match get 0).
        similarity: each member's cosine to the query.
        utility: each member's q-value (or its :func:`explore` sample).
        importance: each member's :func:`importance`.
        anchor_us: each member's last use, record or verification time.
        now_us: the time recency is judged at.
        channels: the channels in use; the others' parts are 0.
        config: the forgetting curve's numbers.
    """
    parts = {
        "keyword": keyword_part(*keyword, pool),
        "semantic": np.clip(similarity, 0.0, 1.0).astype(np.float32),
        "utility": utility,
        "importance": importance,
        "recency": recency(anchor_us, now_us, config),
    }
    for channel in CHANNELS:
        if channel not in channels:
            parts[channel] = np.zeros_like(parts[channel])
    order, scores = rank(parts, fact_ids)
    chosen = order[:k]
    return Ranked(chosen, scores[chosen], {p: v[chosen] for p, v in parts.items()})
