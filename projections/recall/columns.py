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

from projections.recall.loading import load_kernels

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


class ColumnScan:
    """Every column segment in one list the compiled scan walks in a single call.

    Why: at 1M labels there are 68 segments, and a call per segment (two compiled loops,
    slicing, a partition) cost ≈ 1-1.5 ms of Python per query. The list (a numba typed
    list, ≈ 0.2 ms to build) is rebuilt only when a segment's copy is made or dropped: a
    copy's codes are written in place, never replaced.

    Args:
        segments: the column copies by segment number.
    """

    def __init__(self, segments: dict[int, ColumnSegment]) -> None:
        load_kernels()  # numba loads in ~0.9 s: on first use
        from numba.typed import List  # noqa: PLC0415

        self.numbers = np.array(sorted(segments), np.int64)
        self.bases = np.array([segments[s].base for s in self.numbers.tolist()], np.int64)
        self.codes = List()
        for s in self.numbers.tolist():
            self.codes.append(segments[s].codes)

    def candidates(self, counts: np.ndarray, allowed: np.ndarray, query: np.ndarray,
                   keep: int, k: int) -> np.ndarray:
        """Labels of the allowed vectors that may be among the ``k`` best, from the
        ``keep`` best by their 8-bit scores.

        Args:
            counts: allowed labels per segment number (see ``SegmentedVectors``).
            allowed: the eligibility mask over labels.
            query: the query vector.
            keep: how many candidates to consider at most.
            k: how many the caller keeps after rescoring them exactly.

        Only candidates that can still be among the best ``k`` are returned: a code is
        off by at most half a step (``0.5 / SCALE``), so an 8-bit score is within
        ``ε = 0.5 / SCALE · Σ|query|`` of the exact one, and a candidate scoring below
        the ``k``-th best by more than ``2ε`` is beaten by ``k`` others whatever the
        exact scores. The caller's rescoring reads fewer vectors for the same answer.
        """
        load_kernels()  # numba loads in ~0.9 s: on first use
        from projections.recall import kernels  # noqa: PLC0415

        dims = np.flatnonzero(query)
        weights = (query[dims] / SCALE).astype(np.float32)
        inside = self.numbers < counts.size
        per = np.zeros(self.numbers.size, np.int64)
        per[inside] = counts[self.numbers[inside]]
        labels, values = kernels.column_top(self.codes, self.bases, per, dims, weights,
                                            allowed, keep)
        if labels.size > k:
            slack = 2 * (0.5 / SCALE * float(np.abs(query[dims]).sum()) + ROUNDING)
            kth = np.partition(values, labels.size - k)[labels.size - k]
            labels = labels[values >= kth - slack]
        return labels.copy()
