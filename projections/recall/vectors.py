"""The vector channel: FAISS, searched with a filter, exact by default, IVF when enabled.

Labels are the dense integers :class:`projections.recall.RecallIndex` hands out (one
per indexed fact, never reused). The index is an exact ``IndexIDMap2`` over
``IndexFlatIP``; a flat scan grows with the index (≈ 170 ms at 1M, NOTES), so with
:data:`IVF_FROM` set, past that many vectors it is retrained as an ``IndexIVFFlat`` with
a hashtable direct map, which still removes ids cheaply and reconstructs vectors, and it
is retrained again each time it has grown fourfold. Both serialise to bytes, so the
owner writes the index into its own file atomically. HNSW is ruled out: it cannot
remove vectors (NOTES), and a removed vector that stays on disk is residue.

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
            sims = self.reconstruct(chosen) @ q[0]
            top = np.argsort(-sims, kind="stable")[:k]
            return chosen[top].astype(np.int64), sims[top].astype(np.float32)
        faiss.omp_set_num_threads(SEARCH_THREADS)
        bitmap = np.packbits(allowed, bitorder="little")
        selector = faiss.IDSelectorBitmap(bitmap.size, faiss.swig_ptr(bitmap))  # n in bytes
        if self.is_ivf:
            per_list = max(chosen.size / self.index.nlist, 1e-9)
            nprobe = int(min(self.index.nlist, max(NPROBE, math.ceil(CANDIDATES * k / per_list))))
            params: Any = faiss.SearchParametersIVF(  # type: ignore[call-arg]  # swig kwargs
                sel=selector, nprobe=nprobe)
        else:
            params = faiss.SearchParameters(sel=selector)  # type: ignore[call-arg]  # swig kwarg
        sims, labels = self.index.search(q, min(k, int(chosen.size)), params=params)
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
