"""The recall channels' compiled loops against plain-Python references (issue 14 item 2).

The references are written here from the loops' contracts, not from their code: a sort
for the best-n cut, a numpy product over the 8-bit codes for the column scan, and the
exact float inner product for what rescoring must find.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from projections.recall import kernels
from projections.recall.columns import SCALE, ColumnScan, ColumnSegment

DIM = 32
SIZE = 64


@settings(max_examples=200, deadline=None)
@given(entries=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 500)), max_size=80,
                        unique_by=lambda e: e[1]),
       n=st.integers(1, 12))
def test_best_cuts_by_score_then_lower_label(entries: list[tuple[int, int]], n: int) -> None:
    """Scores drawn from four values, so most entries tie: the cut is still the rule."""
    scores = np.array([s for s, _ in entries], np.float32)
    labels = np.array([lab for _, lab in entries], np.int64)
    want = sorted(range(len(entries)), key=lambda i: (-scores[i], labels[i]))[:n]
    assert kernels.best(labels, scores, n).tolist() == want


def segments_of(rng: np.random.Generator, n: int) -> tuple[dict[int, ColumnSegment],
                                                           np.ndarray]:
    """Column segments holding ``n`` sparse unit vectors whose coordinates are *not* on
    the 8-bit grid (so codes are approximate), and the vectors themselves. Half are
    near copies of one vector, closer to each other than a code step: their 8-bit order
    is not their exact order."""
    vectors = rng.normal(size=(n, DIM)) * (rng.random((n, DIM)) < 0.3)
    vectors[np.abs(vectors).sum(axis=1) == 0, 0] = 1.0
    near = rng.random(n) < 0.5
    vectors[near] = vectors[0] + rng.normal(scale=0.004, size=(int(near.sum()), DIM)) * (
        vectors[0] != 0)
    vectors = (vectors / np.linalg.norm(vectors, axis=1, keepdims=True)).astype(np.float32)
    segments: dict[int, ColumnSegment] = {}
    for s in range((n + SIZE - 1) // SIZE):
        seg = segments[s] = ColumnSegment(DIM, s * SIZE, SIZE)
        labels = np.arange(s * SIZE, min(n, (s + 1) * SIZE))
        seg.put(labels, vectors[labels])
    return segments, vectors


def query_of(rng: np.random.Generator) -> np.ndarray:
    q = np.zeros(DIM, np.float32)
    q[rng.choice(DIM, DIM // 4, replace=False)] = rng.normal(size=DIM // 4)
    return (q / np.linalg.norm(q)).astype(np.float32)


def counts_of(allowed: np.ndarray, segments: int) -> np.ndarray:
    padded = np.zeros(segments * SIZE, bool)
    padded[:allowed.size] = allowed
    counts: np.ndarray = np.count_nonzero(padded.reshape(segments, SIZE), axis=1)
    return counts


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**16), n=st.integers(1, 300), k=st.integers(1, 10),
       share=st.floats(0.05, 1.0))
def test_pruned_candidates_hold_the_exact_top_k(seed: int, n: int, k: int,
                                               share: float) -> None:
    """With every allowed vector considered, the candidates left after pruning by the
    8-bit error bound still hold the exact top ``k`` (by float inner product)."""
    rng = np.random.default_rng(seed)
    segments, vectors = segments_of(rng, n)
    allowed = rng.random(n) < share
    q = query_of(rng)
    scan = ColumnScan(segments)
    got = scan.candidates(counts_of(allowed, len(segments)), allowed, q, n, k)
    assert set(got.tolist()) <= set(np.flatnonzero(allowed).tolist())
    exact = vectors @ q
    chosen = np.flatnonzero(allowed)
    if chosen.size == 0:
        assert got.size == 0
        return
    kth = np.sort(exact[chosen])[::-1][min(k, chosen.size) - 1]
    must = chosen[exact[chosen] > kth + 1e-6]  # strictly better than the k-th: no ties
    assert set(must.tolist()) <= set(got.tolist())
    assert got.size >= min(k, chosen.size)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**16), n=st.integers(1, 300), keep=st.integers(1, 40))
def test_column_scan_keeps_the_best_by_8_bit_score(seed: int, n: int, keep: int) -> None:
    """The scan's heap returns the ``keep`` best allowed labels by 8-bit score: the same
    scores as a numpy product over the codes (labels may differ only among ties)."""
    rng = np.random.default_rng(seed)
    segments, _ = segments_of(rng, n)
    allowed = rng.random(n) < 0.8
    q = query_of(rng)
    dims = np.flatnonzero(q)
    weights = (q[dims] / SCALE).astype(np.float32)
    scan = ColumnScan(segments)
    labels, scores = kernels.column_top(scan.codes, scan.bases,
                                        counts_of(allowed, len(segments)), dims, weights,
                                        allowed, keep)
    codes = np.concatenate([segments[s].codes for s in sorted(segments)], axis=1)[:, :n]
    want = (weights.astype(np.float64) @ codes[dims].astype(np.float64))[allowed]
    want_top = np.sort(want)[::-1][:keep]
    assert set(labels.tolist()) <= set(np.flatnonzero(allowed).tolist())
    assert np.allclose(np.sort(scores)[::-1], want_top, atol=1e-5)
