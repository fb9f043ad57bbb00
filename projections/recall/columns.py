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
store, a constant factor (measured 2.3-4.7x) below the flat scan's.
"""

from __future__ import annotations

import numpy as np

SPARSE_QUERY = 0.25
"""A query whose non-zero dimensions are at most this share of all is scanned by column;
a denser one (a sentence embedder's) goes to FAISS, which reads whole rows anyway."""

SCALE = 127.0
"""Vectors are unit length, so every coordinate is in [-1, 1]: one fixed scale keeps the
quantisation independent of what the segment held when its copy was built."""

BLOCK = 4096
"""Label slots widened to float32 at a time (``dims * BLOCK * 4`` bytes: ≈ 440 KB for a
27-dimension query, within a core's L2)."""


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

    def scores(self, dims: np.ndarray, weights: np.ndarray) -> np.ndarray:
        """Approximate inner products of every label slot with a query that is
        ``weights`` on ``dims`` (and zero elsewhere), in the query's units.

        The columns are widened to float32 a block at a time, so the widened copy stays
        in the core's cache for the product (measured ≈ 1.6-2x faster than widening a
        whole segment at once)."""
        size = self.codes.shape[1]
        out = np.empty(size, np.float32)
        scaled = weights / SCALE
        wide = np.empty((dims.size, min(BLOCK, size)), np.float32)
        for start in range(0, size, BLOCK):
            block = wide[:, :min(BLOCK, size - start)]
            np.copyto(block, self.codes[dims, start:start + block.shape[1]], casting="unsafe")
            np.matmul(scaled, block, out=out[start:start + block.shape[1]])
        return out


def best(labels: list[np.ndarray], scores: list[np.ndarray], keep: int
         ) -> tuple[np.ndarray, np.ndarray]:
    """The ``keep`` highest-scored of several ``(labels, scores)`` parts."""
    lab = np.concatenate(labels)
    sc = np.concatenate(scores)
    if lab.size > keep:
        top = np.argpartition(-sc, keep - 1)[:keep]
        lab, sc = lab[top], sc[top]
    return lab, sc


def column_candidates(segments: list[tuple[ColumnSegment, np.ndarray]], query: np.ndarray,
                      keep: int) -> np.ndarray:
    """Labels of the (approximately) ``keep`` best allowed vectors over the segments.

    Args:
        segments: each column segment with its slice of the allowed mask (one boolean
            per label slot of the segment).
        query: the query vector.
        keep: how many candidates to return at most.

    A running threshold (the worst of the best ``keep`` so far) lets each later segment
    hand on only the slots that beat it, so selection costs little beyond the scan.
    """
    dims = np.flatnonzero(query)
    weights = query[dims].astype(np.float32)
    labels: list[np.ndarray] = []
    scores: list[np.ndarray] = []
    held = 0
    threshold = -np.inf
    for seg, allowed in segments:
        acc = seg.scores(dims, weights)
        found = np.flatnonzero((acc > threshold) & allowed)
        if not found.size:
            continue
        labels.append(found + seg.base)
        scores.append(acc[found])
        held += found.size
        if held > 4 * keep:
            lab, sc = best(labels, scores, keep)
            labels, scores, held = [lab], [sc], lab.size
            threshold = float(sc.min())
    if not labels:
        return np.zeros(0, np.int64)
    return best(labels, scores, keep)[0].astype(np.int64)
