"""A column-major, 8-bit copy of one segment's vectors, scanned for sparse queries.

Why: a flat FAISS scan reads every dimension of every vector (≈ 1.1 GB at 1M vectors of
256 float32), but the default hashing embedder's queries are sparse: a question has
≈ 27 non-zero dimensions of 256. Stored by dimension, a query reads only its own
dimensions' columns, and at one byte a value that is ≈ 30 MB at 1M vectors instead of
1.1 GB. The 8-bit scores only *propose* candidates: :class:`SegmentedVectors` rescores
a generous pool of them exactly from FAISS's float32 vectors, so the similarities it
returns are FAISS's and the ranking differs from a flat scan only where a true top hit
fell out of that pool (measured by recall@10 against the flat index in
``benchmarks/recall_bench.py``).

The copy lives in memory only (one byte per dimension and vector: ≈ 280 MB at 1.1M
vectors of 256). A sparse embedder's index keeps it from the first vector; any other
builds a segment's copy from FAISS the first time a sparse query reaches it. It follows
every add and remove from then on, and a removed vector's codes are zeroed at once, so
nothing of it outlives its removal from FAISS.

The scan still reads every allowed vector's query dimensions, so its cost grows with the
store, a constant factor below the flat scan's; its loop is compiled
(:mod:`projections.recall.kernels`).
"""

from __future__ import annotations

import numpy as np

SPARSE_QUERY = 0.25
"""A query whose non-zero dimensions are at most this share of all is scanned by column;
a denser one (a sentence embedder's) goes to FAISS, which reads whole rows anyway."""

SCALE = 127.0
"""Vectors are unit length, so every coordinate is in [-1, 1]: one fixed scale keeps the
quantisation independent of what the segment held when its copy was built."""

ROUNDING = 1e-4
"""Slack for float32 rounding in an 8-bit score's sum (far above it for unit vectors)."""


def is_sparse(query: np.ndarray) -> bool:
    """Whether a query vector is sparse enough for the column scan."""
    return int(np.count_nonzero(query)) <= SPARSE_QUERY * query.size


class ColumnSegment:
    """The 8-bit columns of the labels ``[base, base + size)``.

    Args:
        dim: the vector dimension.
        base: the segment's first label.
        size: labels per segment.
    """

    def __init__(self, dim: int, base: int, size: int) -> None:
        self.base = base
        self.codes = np.zeros((dim, size), dtype=np.int8)

    def put(self, labels: np.ndarray, vectors: np.ndarray) -> None:
        """Store (or overwrite) the columns of these labels."""
        if not len(labels):
            return
        coded = np.clip(np.rint(np.asarray(vectors, np.float32) * SCALE), -127, 127)
        self.codes[:, np.asarray(labels, np.int64) - self.base] = coded.astype(np.int8).T

    def clear(self, labels: np.ndarray) -> None:
        """Zero the columns of removed labels."""
        if len(labels):
            self.codes[:, np.asarray(labels, np.int64) - self.base] = 0


def column_candidates(segments: list[tuple[ColumnSegment, np.ndarray]], query: np.ndarray,
                      keep: int, k: int) -> np.ndarray:
    """Labels of the allowed vectors that may be among the ``k`` best, from the
    (approximately) ``keep`` best by their 8-bit scores.

    Args:
        segments: each column segment with its slice of the allowed mask (one boolean
            per label slot of the segment; shorter for a segment's unused tail).
        query: the query vector.
        keep: how many candidates to consider at most.
        k: how many the caller will keep after rescoring them exactly.

    A running threshold (the worst of the best ``keep`` so far) lets each later segment
    hand on only the slots that beat it, so selection costs little beyond the scan.

    Of those, only candidates that can still be among the best ``k`` are returned: a
    code is off by at most half a step (``0.5 / SCALE``), so an 8-bit score is within
    ``ε = 0.5 / SCALE · Σ|query|`` of the exact one, and a candidate scoring below the
    ``k``-th best by more than ``2ε`` is beaten by ``k`` others whatever the exact scores.
    The caller's exact rescoring then reads fewer vectors, and its answer is the same.
    """
    from projections.recall import kernels  # noqa: PLC0415  (numba loads in ~0.9 s: on first use)

    dims = np.flatnonzero(query)
    weights = (query[dims] / SCALE).astype(np.float32)
    size = max((seg.codes.shape[1] for seg, _ in segments), default=0)
    labels = np.empty(4 * keep + size, np.int64)
    values = np.empty(4 * keep + size, np.float32)
    acc = np.empty(size, np.float32)
    held = 0
    threshold = np.float32(-np.inf)
    for seg, allowed in segments:
        scores = acc[:seg.codes.shape[1]]
        kernels.accumulate(seg.codes, dims, weights, scores)
        held = kernels.gather_above(scores, allowed, threshold, seg.base, labels, values, held)
        if held > 4 * keep:
            top = np.argpartition(-values[:held], keep - 1)[:keep]
            labels[:keep], values[:keep] = labels[top], values[top]
            held = keep
            threshold = values[:keep].min()
    labels, values = labels[:held], values[:held]
    if held > k:
        slack = 2 * (0.5 / SCALE * float(np.abs(query[dims]).sum()) + ROUNDING)
        kth = np.partition(values, held - k)[held - k]
        near = values >= kth - slack
        labels, values = labels[near], values[near]
    if labels.size > keep:
        labels = labels[np.argpartition(-values, keep - 1)[:keep]]
    return labels.copy()
