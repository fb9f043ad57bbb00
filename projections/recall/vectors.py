"""The vector channel: FAISS, searched with a filter, exact by default, IVF when enabled.

Labels are the dense integers :class:`projections.recall.RecallIndex` hands out (one
per indexed fact, never reused). The index is an exact ``IndexIDMap2`` over
``IndexFlatIP``; a flat scan grows with the index (≈ 170 ms at 1M, NOTES), so with
:data:`IVF_FROM` set, past that many vectors it is retrained as an ``IndexIVFFlat`` with
a hashtable direct map, which still removes ids cheaply and reconstructs vectors, and it
is retrained again each time it has grown fourfold. Both serialise to bytes, so the
owner writes the index into its own file atomically. HNSW is ruled out: it cannot
remove vectors (NOTES), and a removed vector that stays on disk is residue.

A sparse query (the default hashing embedder's: a few dozen non-zero dimensions) is not
sent to FAISS: it scans an 8-bit, column-major copy of the vectors, which reads only the
query's dimensions, and rescores the best candidates exactly from FAISS
(:mod:`projections.recall.columns`).

Every search takes the set of labels the caller may see (a boolean mask over labels:
one tenant's eligible facts) and FAISS ranks **only** those: a
:class:`faiss.IDSelectorBitmap` built from the mask for large sets, or a direct dot
product over the reconstructed vectors for small ones. Eligibility is therefore
applied before top-k, and a label outside the mask can never be returned.
"""

from __future__ import annotations

import math
import os
from typing import Any

import faiss
import numpy as np

from projections.recall.columns import ColumnScan, ColumnSegment, is_sparse

faiss.cvar.distance_compute_blas_threshold = 20
"""faiss-cpu 1.15 ships 128000, which keeps batched flat searches off BLAS; 20 made a
batch-of-100 search 3-3.5x faster (NOTES). It is a process-wide FAISS setting."""

SEARCH_THREADS = 1
"""OpenMP threads per search. One query gains little from a second thread, and OpenMP's
spinning barrier turns contention into stalls: with 2 threads on a busy 2-core machine a
10k-vector scan took 10 ms (p95 29 ms) against 0.7 ms (p95 5.5 ms) on one thread.
``omp_set_num_threads`` applies to the calling thread only."""

SMALL = 2048
"""Up to this many allowed labels, score by reconstructing their vectors (cost grows
with the set); above it, scan the flat index with a bitmap selector (cost grows with
the index)."""

RESCORE = 4
"""Candidates per requested hit that a sparse query rescores exactly (at least
:data:`RESCORE_MIN`): the 8-bit scores only have to place a true hit in that pool."""
RESCORE_MIN = 128


IVF_FROM = int(os.environ.get("MEMORY_ES_IVF_FROM", "0")) or None
"""Vectors from which the index becomes an IVF; None (the default): always exact.

Measured with ``python -m benchmarks.vector_bench`` at 100k facts and the default
hashing embedder: the IVF searched 9x faster (p50 0.75 ms against 7.0 ms) but found only
42 % of the exact top 10 (68 % at nprobe 256). Hashed features do not cluster, so the
nearest neighbours of a query (facts sharing its entity token) lie in many lists. An IVF
suits a sentence embedder; set ``MEMORY_ES_IVF_FROM`` (e.g. 65536) to use one."""
TRAIN_SAMPLE = 65_536
"""Vectors the IVF's centroids are trained on (a sample of the index, drawn evenly)."""
NPROBE = 32
"""Inverted lists scanned per query at least; more when the allowed labels are sparse."""
CANDIDATES = 10
"""Allowed vectors per requested hit the probed lists should hold, on average."""


def lists_for(n: int) -> int:
    """Inverted lists for ``n`` vectors (about 4·√n, as FAISS's guidelines suggest)."""
    return int(min(16_384, max(256, 4 * math.sqrt(n))))


class VectorIndex:
    """Inner-product FAISS index keyed by integer labels (flat, then IVF)."""

    def __init__(self, dim: int, index: Any = None) -> None:
        self.dim = dim
        # Any: faiss' generated stubs type every index as the base Index (no id_map, and
        # remove_ids/SearchParameters without their numpy overloads).
        self.index: Any = index if index is not None else faiss.IndexIDMap2(
            faiss.IndexFlatIP(dim))
        if self.index.d != dim:
            raise ValueError(f"index has dimension {self.index.d}, expected {dim}")
        self.ivf_from: int | None = IVF_FROM
        self.trained_for = int(self.index.ntotal) if self.is_ivf else 0

    @property
    def is_ivf(self) -> bool:
        return isinstance(self.index, faiss.IndexIVF)

    @property
    def ntotal(self) -> int:
        """How many vectors the index holds."""
        return int(self.index.ntotal)

    def ids(self) -> np.ndarray:
        """Every label in the index (storage order)."""
        if not self.is_ivf:
            return faiss.vector_to_array(self.index.id_map).astype(np.int64)
        lists = self.index.invlists
        parts = [faiss.rev_swig_ptr(lists.get_ids(i), lists.list_size(i)).copy()
                 for i in range(self.index.nlist) if lists.list_size(i)]
        return (np.concatenate(parts).astype(np.int64) if parts
                else np.zeros(0, np.int64))

    def add(self, labels: np.ndarray, vectors: np.ndarray) -> None:
        """Add one vector per (new) label; past the thresholds, (re)train the IVF."""
        if len(labels):
            self.index.add_with_ids(np.ascontiguousarray(vectors, dtype=np.float32),
                                    np.ascontiguousarray(labels, dtype=np.int64))
        n = self.ntotal
        if self.ivf_from is None:
            return
        if (not self.is_ivf and n >= self.ivf_from) or (
                self.is_ivf and n >= 4 * max(self.trained_for, 1)):
            self._train(n)

    def _train(self, n: int) -> None:
        """Move every vector into a freshly trained IVF sized for ``n``."""
        labels = self.ids()
        vectors = self.reconstruct(labels)
        sample = vectors[np.linspace(0, len(vectors) - 1, min(TRAIN_SAMPLE, len(vectors)))
                         .astype(np.int64)]
        nlist = min(lists_for(n), max(1, len(sample) // 39))  # FAISS wants ≥ 39 per list
        ivf = faiss.IndexIVFFlat(faiss.IndexFlatIP(self.dim), self.dim, nlist,
                                 faiss.METRIC_INNER_PRODUCT)
        ivf.train(np.ascontiguousarray(sample, dtype=np.float32))
        ivf.set_direct_map_type(faiss.DirectMap.Hashtable)  # type: ignore[attr-defined]  # swig
        ivf.add_with_ids(np.ascontiguousarray(vectors, dtype=np.float32), labels)
        self.index = ivf
        self.trained_for = n

    def remove(self, labels: np.ndarray) -> int:
        """Remove labels in one call (each call is linear in the index); returns the count."""
        if not len(labels):
            return 0
        return int(self.index.remove_ids(np.ascontiguousarray(labels, dtype=np.int64)))

    def reconstruct(self, labels: np.ndarray) -> np.ndarray:
        """The stored vectors of these labels, one row each."""
        if not len(labels):
            return np.zeros((0, self.dim), dtype=np.float32)
        out: np.ndarray = self.index.reconstruct_batch(
            np.ascontiguousarray(labels, dtype=np.int64))
        return out

    def search(self, query: np.ndarray, k: int, allowed: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray]:
        """Top-``k`` labels by inner product among the ``allowed`` ones.

        Args:
            query: one vector, shape ``(dim,)``.
            k: how many to return at most.
            allowed: boolean mask over labels (index = label).

        Returns:
            ``(labels, similarities)``, best first.
        """
        chosen = np.flatnonzero(allowed)
        if chosen.size == 0 or k <= 0 or self.ntotal == 0:
            return np.zeros(0, np.int64), np.zeros(0, np.float32)
        q = np.ascontiguousarray(query, dtype=np.float32).reshape(1, -1)
        if chosen.size <= SMALL:
            return _top_of(chosen, self.reconstruct(chosen) @ q[0], k)
        return self.search_bitmap(q[0], k, np.packbits(allowed, bitorder="little"),
                                  int(chosen.size))

    def search_bitmap(self, query: np.ndarray, k: int, bitmap: np.ndarray, allowed: int
                      ) -> tuple[np.ndarray, np.ndarray]:
        """Top-``k`` among the labels set in ``bitmap`` (the allowed mask packed
        little-endian, as :class:`faiss.IDSelectorBitmap` reads it); ``allowed`` is how
        many of them this index may hold (it sizes the IVF's probe)."""
        if allowed == 0 or k <= 0 or self.ntotal == 0:
            return np.zeros(0, np.int64), np.zeros(0, np.float32)
        q = np.ascontiguousarray(query, dtype=np.float32).reshape(1, -1)
        faiss.omp_set_num_threads(SEARCH_THREADS)
        selector = faiss.IDSelectorBitmap(bitmap.size, faiss.swig_ptr(bitmap))  # n in bytes
        if self.is_ivf:
            per_list = max(allowed / self.index.nlist, 1e-9)
            nprobe = int(min(self.index.nlist, max(NPROBE, math.ceil(CANDIDATES * k / per_list))))
            params: Any = faiss.SearchParametersIVF(  # type: ignore[call-arg]  # swig kwargs
                sel=selector, nprobe=nprobe)
        else:
            params = faiss.SearchParameters(sel=selector)  # type: ignore[call-arg]  # swig kwarg
        sims, labels = self.index.search(q, min(k, allowed), params=params)
        keep = labels[0] >= 0
        return labels[0][keep].astype(np.int64), sims[0][keep].astype(np.float32)

    def to_bytes(self) -> np.ndarray:
        """The index serialised by FAISS, for the owner's file."""
        out: np.ndarray = faiss.serialize_index(self.index)
        return out

    @classmethod
    def from_bytes(cls, data: np.ndarray, dim: int) -> VectorIndex:
        """The index :meth:`to_bytes` serialised."""
        index = faiss.deserialize_index(np.ascontiguousarray(data, dtype=np.uint8))
        return cls(dim, index)


class SegmentedVectors:
    """The vectors split by label range: labels ``[s·size, (s+1)·size)`` live in segment
    ``s``, one :class:`VectorIndex` each.

    Why: removing a vector from a FAISS flat index moves every vector behind it (180 ms
    at 1M vectors of 256 dimensions on the development machine), and the owner rewrites
    what changed; with segments both cost one segment, whatever the store's size. Labels
    only grow, so new vectors land in the newest segment and older ones only shrink.
    A search scans each segment that holds an allowed label with the same bitmap
    selector and merges their top ``k``; the result is the one index's (ties aside).

    Args:
        dim: the vector dimension.
        size: labels per segment.
        columns: keep each segment's column copy at all times (see
            :mod:`projections.recall.columns`); otherwise it is built on the first sparse
            query that reaches the segment.
    """

    def __init__(self, dim: int, size: int, *, columns: bool = False) -> None:
        if size < 1:
            raise ValueError("segment size must be at least 1")
        self.dim = dim
        self.size = size
        self.segments: dict[int, VectorIndex] = {}
        self.keep_columns = columns
        """Keep every segment's column copy from its first vector (a sparse embedder's
        index), so no recall waits for one to be built."""
        self.columns: dict[int, ColumnSegment] = {}
        """Per segment, its 8-bit column copy for sparse queries (built on first use)."""
        self.ivf_from: int | None = IVF_FROM
        """Vectors from which one segment becomes an IVF (None: always exact)."""
        self._scan: ColumnScan | None = None
        """Every column copy in one list for the compiled scan (None: to be rebuilt)."""
        self._counted: tuple[np.ndarray, np.ndarray] | None = None
        """The last read-only mask and its per-segment counts."""

    @property
    def ntotal(self) -> int:
        """How many vectors the segments hold."""
        return sum(seg.ntotal for seg in self.segments.values())

    def ids(self) -> np.ndarray:
        """Every label held, segment by segment."""
        parts = [self.segments[s].ids() for s in sorted(self.segments)]
        return np.concatenate(parts) if parts else np.zeros(0, np.int64)

    def segment_ids(self, segment: int) -> np.ndarray:
        """The labels one segment holds (none if it holds nothing)."""
        seg = self.segments.get(segment)
        return seg.ids() if seg is not None else np.zeros(0, np.int64)

    def _groups(self, labels: np.ndarray) -> list[tuple[int, np.ndarray]]:
        """``(segment, positions in labels)`` for each segment the labels fall in."""
        labels = np.asarray(labels, dtype=np.int64)
        if labels.size == 0:
            return []
        owner = labels // self.size
        order = np.argsort(owner, kind="stable")
        bounds = np.flatnonzero(np.diff(owner[order])) + 1
        return [(int(owner[g[0]]), g) for g in np.split(order, bounds)]

    def add(self, labels: np.ndarray, vectors: np.ndarray) -> None:
        """Add one vector per (new) label to the segment of its label."""
        vectors = np.asarray(vectors, dtype=np.float32)
        for segment, where in self._groups(labels):
            seg = self.segments.get(segment)
            if seg is None:
                seg = self.segments[segment] = VectorIndex(self.dim)
                seg.ivf_from = self.ivf_from
            seg.add(np.asarray(labels, np.int64)[where], vectors[where])
            if (cols := self.columns.get(segment)) is not None:
                cols.put(np.asarray(labels, np.int64)[where], vectors[where])
            elif self.keep_columns:
                self._column_segment(segment)

    def remove(self, labels: np.ndarray) -> int:
        """Remove labels from their segments (a segment left empty is dropped); returns
        how many were held."""
        removed = 0
        for segment, where in self._groups(labels):
            seg = self.segments.get(segment)
            if seg is None:
                continue
            removed += seg.remove(np.asarray(labels, np.int64)[where])
            if (cols := self.columns.get(segment)) is not None:
                cols.clear(np.asarray(labels, np.int64)[where])
            if seg.ntotal == 0:
                del self.segments[segment]
                if self.columns.pop(segment, None) is not None:
                    self._scan = None
        return removed

    def reconstruct(self, labels: np.ndarray) -> np.ndarray:
        """The stored vectors of these labels, one row each (every label must be held)."""
        labels = np.asarray(labels, dtype=np.int64)
        out = np.zeros((labels.size, self.dim), dtype=np.float32)
        for segment, where in self._groups(labels):
            seg = self.segments.get(segment)
            if seg is None:
                raise KeyError(f"no vectors in segment {segment}")
            out[where] = seg.reconstruct(labels[where])
        return out

    def search(self, query: np.ndarray, k: int, allowed: np.ndarray, *, flat: bool = False
               ) -> tuple[np.ndarray, np.ndarray]:
        """Top-``k`` labels by inner product among the ``allowed`` ones (a boolean mask
        over labels, every one of them held), best first: see :meth:`VectorIndex.search`.
        ``flat``: always FAISS's scan, never the column copy (the baseline it is
        measured against)."""
        counts = self._per_segment(allowed)
        total = int(counts.sum())
        if total == 0 or k <= 0 or not self.segments:
            return np.zeros(0, np.int64), np.zeros(0, np.float32)
        q = np.ascontiguousarray(query, dtype=np.float32)
        if total <= SMALL:
            chosen = np.flatnonzero(allowed)
            held = chosen[np.isin(chosen // self.size, list(self.segments))]
            return _top_of(held, self.reconstruct(held) @ q, k)
        if not flat and is_sparse(q):
            return self._search_columns(q, k, allowed, counts)
        bitmap = np.packbits(allowed, bitorder="little")
        found = [seg.search_bitmap(q, k, bitmap, int(counts[s]))
                 for s, seg in sorted(self.segments.items()) if s < counts.size and counts[s]]
        if not found:
            return np.zeros(0, np.int64), np.zeros(0, np.float32)
        labels = np.concatenate([f[0] for f in found])
        sims = np.concatenate([f[1] for f in found])
        return _top_of(labels, sims, k)

    def _per_segment(self, allowed: np.ndarray) -> np.ndarray:
        """How many labels of each segment the mask allows (one count per segment up to
        the mask's last), without listing them: at 1M labels listing cost ≈ 6 ms. The
        counts of a read-only mask are kept while it is the one passed (the recall index
        keeps its eligibility masks read-only between changes; ≈ 1 ms at 1M)."""
        kept = self._counted
        if kept is not None and kept[0] is allowed:
            return kept[1]
        full = allowed.size // self.size * self.size
        counts: np.ndarray = np.count_nonzero(allowed[:full].reshape(-1, self.size), axis=1)
        if full < allowed.size:
            counts = np.append(counts, np.count_nonzero(allowed[full:]))
        if not allowed.flags.writeable:
            self._counted = (allowed, counts)
        return counts

    def _column_segment(self, segment: int) -> ColumnSegment:
        """The segment's column copy, built from FAISS when first asked for."""
        cols = self.columns.get(segment)
        if cols is None:
            ids = self.segments[segment].ids()
            cols = self.columns[segment] = ColumnSegment(self.dim, segment * self.size,
                                                         self.size)
            self._scan = None
            cols.put(ids, self.segments[segment].reconstruct(ids))
        return cols

    def _search_columns(self, query: np.ndarray, k: int, allowed: np.ndarray,
                        counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """A sparse query: candidates from the column copies' 8-bit scores, then the
        best ``k`` of them by the exact (FAISS float32) inner product."""
        for s in self.segments:
            if s < counts.size and counts[s] and s not in self.columns:
                self._column_segment(s)
        if self._scan is None:
            self._scan = ColumnScan(self.columns)
        chosen = self._scan.candidates(counts, allowed, query,
                                       max(RESCORE * k, RESCORE_MIN), k)
        return _top_of(chosen, self.reconstruct(chosen) @ query, k)


def _top_of(labels: np.ndarray, sims: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The ``k`` best ``(labels, similarities)``, best first (ties by label order)."""
    top = np.lexsort((labels, -sims))[:k]
    return labels[top].astype(np.int64), sims[top].astype(np.float32)
