"""The notes' own vector index (SPEC §12.5): what dedup and auto-links search, per tenant.

Why not the recall index: it is a read-side projection, so searching it meant catching
every projection up before each note (≈ 85 ms of a 108 ms note at only 300 notes, most of
it projecting the previous note), and it holds each fact's *document* (subject and
attribute words added), so its ranks were only candidates to rescore from the texts. This
index holds each note's **text** vector, the very vector its similarity is the cosine of
(the store's embedder, rows L2-normalised), and only notes. It is kept on the write side,
beside the notes book it follows: every ``NoteRecorded`` folded from the log (this
process's and other writers') indexes or re-indexes its note from the note's present
text, and corrections written by anyone are found in the log by topic (no catch-up).

It is an exhaustive FAISS ``IndexIDMap2`` (no IVF: hashed features do not cluster, so an
IVF misses most true neighbours, see projections/recall/vectors.py) over a half-precision
copy of the vectors: a search reads half the memory of a float32 scan, which is all its
cost at 100k notes. Half precision keeps each component within 2^-10 of its size, so a
similarity it gives lies within 2^-10·‖x‖·‖q‖ of the exact one; the floor a search
returns is raised by that bound, and every score a decision uses is recomputed from the
float32 vector kept beside the index, so the decisions stay exactly brute force's.
A label is one (note, text) pair; a note whose text changed gets a new label and its old
one becomes a tombstone (removing from a flat index is linear in the index, so it is done
in one batch when tombstones pass a quarter of the index, and at once for a purged note).
Whether a note is current and visible is judged by the caller when a label is returned;
this index only knows vectors, entities and categories.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import faiss
import numpy as np

SEARCH_THREADS = 1
"""One query gains little from a second OpenMP thread on a busy machine (see
projections/recall/vectors.py); set per search, since it applies to the calling thread."""
COMPACT_FROM = 1024
"""Tombstones tolerated before a compaction is even considered."""
HALF_ROUNDING = 2.0 ** -10
"""Relative error of a float32 component stored in half precision: 2^-11 rounded to
nearest, 2^-10 even if truncated (normal range; the subnormal error is below 2^-24)."""


class NoteVectors:
    """One tenant's note text vectors: search by cosine, groups by (entity, category)."""

    def __init__(self, dim: int) -> None:
        self.dim = dim
        # Any: faiss' generated stubs type every index as the base Index
        self.index: Any = faiss.IndexIDMap2(faiss.IndexScalarQuantizer(
            dim, faiss.ScalarQuantizer.QT_fp16, faiss.METRIC_INNER_PRODUCT))
        self.exact: dict[str, np.ndarray] = {}
        """note -> the float32 vector of its indexed text, as the embedder gave it."""
        self.longest = 0.0
        """The largest norm indexed: it scales the half-precision error bound."""
        self.rows: dict[str, tuple[int, str]] = {}
        """note -> (its live label, the text that label's vector embeds)."""
        self.fact_of: dict[int, str] = {}
        """live label -> note (a label missing here is a tombstone)."""
        self.groups: dict[tuple[str, str], dict[str, None]] = {}
        """(entity, category) -> its notes, in indexing order (dedup's candidates)."""
        self.seen = 0
        """Log position up to which corrections of notes were looked for."""
        self._next = 0

    @property
    def ntotal(self) -> int:
        """Vectors in the FAISS index, tombstones included."""
        return int(self.index.ntotal)

    def text_of(self, fact_id: str) -> str | None:
        row = self.rows.get(fact_id)
        return None if row is None else row[1]

    def put(self, fact_id: str, entity: str, category: str, text: str,
            vector: np.ndarray) -> None:
        """Index ``fact_id`` under ``text`` (a no-op when that is already its text)."""
        old = self.rows.get(fact_id)
        if old is not None:
            if old[1] == text:
                return
            self.fact_of.pop(old[0], None)
        label = self._next
        self._next += 1
        exact = np.ascontiguousarray(vector, dtype=np.float32).reshape(-1)
        self.index.add_with_ids(exact.reshape(1, -1), np.asarray([label], dtype=np.int64))
        self.exact[fact_id] = exact
        self.longest = max(self.longest, float(np.linalg.norm(exact)))
        self.rows[fact_id] = (label, text)
        self.fact_of[label] = fact_id
        self.groups.setdefault((entity, category), {})[fact_id] = None
        self._maybe_compact()

    def drop(self, fact_id: str) -> None:
        """Forget a note and remove its vectors now (a purged note's words must go)."""
        row = self.rows.pop(fact_id, None)
        if row is None:
            return
        self.exact.pop(fact_id, None)
        self.fact_of.pop(row[0], None)
        for members in self.groups.values():
            members.pop(fact_id, None)
        self.index.remove_ids(np.asarray(self._dead_labels([row[0]]), dtype=np.int64))

    def _dead_labels(self, extra: Iterable[int]) -> list[int]:
        ids = faiss.vector_to_array(self.index.id_map).astype(np.int64)
        return sorted({int(i) for i in ids if int(i) not in self.fact_of} | set(extra))

    def _maybe_compact(self) -> None:
        dead = self.ntotal - len(self.fact_of)
        if dead > COMPACT_FROM and dead * 4 > self.ntotal:
            self.index.remove_ids(np.asarray(self._dead_labels(()), dtype=np.int64))

    def vector(self, fact_id: str) -> np.ndarray:
        """The vector of the note's indexed text (bit for bit what the embedder gave)."""
        return self.exact[fact_id]

    def group(self, entity: str, category: str) -> list[str]:
        return list(self.groups.get((entity, category), {}))

    def search(self, query: np.ndarray, k: int,
               among: list[str] | None = None) -> tuple[list[str], float | None]:
        """The live notes among the ``k`` nearest labels, best first, and a floor: no
        candidate left out has an exact similarity above it (the lowest similarity FAISS
        returned plus the half-precision bound; ``None`` when the search covered every
        candidate, so nothing was left out). ``among``: only these notes' live labels are
        candidates (dedup's group), filtered inside FAISS rather than by reading every
        member."""
        size = self.ntotal
        params: Any = None
        if among is not None:
            labels = np.asarray([self.rows[f][0] for f in among if f in self.rows],
                                dtype=np.int64)
            size = int(labels.size)
            params = faiss.SearchParameters(  # type: ignore[call-arg]  # swig kwarg
                sel=faiss.IDSelectorBatch(labels))
        if size == 0:
            return [], None
        faiss.omp_set_num_threads(SEARCH_THREADS)
        q = np.ascontiguousarray(query, dtype=np.float32).reshape(1, -1)
        sims, found_labels = self.index.search(q, min(k, size), params=params)
        found = [self.fact_of[lab] for lab in found_labels[0].tolist()
                 if lab in self.fact_of]
        if k >= size:
            return found, None
        bound = HALF_ROUNDING * self.longest * float(np.linalg.norm(q))
        return found, float(sims[0][-1]) + bound
