"""The keyword channel: an incremental, purgeable BM25 inverted index.

Documents are identified by dense integer *labels* (the same labels as the vector
index; :class:`projections.recall.RecallIndex` hands them out and never reuses one).
Terms come from :func:`projections.tokens.keyword_terms`: light stems plus whole
identifiers, so ``alice@acme.io`` and ``acct-7731`` are terms of their own.

**Why an in-memory inverted index, persisted with the vector index, and not DuckDB.**
Measured on the 2-core development machine with 100k documents (the benchmark in
``benchmarks/recall_bench.py`` and a throwaway comparison):

- DuckDB's ``fts`` extension is not available offline and its index does not follow
  table changes (NOTES), so it cannot serve an incremental projection.
- A DuckDB term table ``postings(term, label, tf)`` scored with one ``GROUP BY``
  costs 6-10 ms per query at 100k documents (two or three common terms), plus
  ≈0.5 ms per statement, and its candidate filter must be shipped to DuckDB as an
  Arrow table on every query; deleted postings stay in freed DuckDB blocks until the
  whole file is rewritten (NOTES), which a purge then has to do.
- This index scores the same query in ≈0.3-1 ms with numpy over append-only
  posting arrays, applies the caller's eligibility mask *before* ranking, and a
  purge leaves nothing on disk: :meth:`compact` drops the dead postings and any term
  left without a live document, and the owner rewrites its file (temp file, then
  ``os.replace``).

BM25 statistics (``N``, document frequency, average length) are computed over the
caller's candidate set at query time (one tenant's eligible documents), so one
tenant's documents never shift another tenant's scores, and removed documents never
count. Removal is a tombstone (the label's length set to zero); :meth:`compact`
runs when dead postings pass a quarter of all postings, and always before saving.
"""

from __future__ import annotations

import math
from array import array
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from projections.recall.loading import load_kernels
from projections.tokens import keyword_terms

K1 = 1.2
B = 0.75


class KeywordIndex:
    """BM25 inverted index over integer labels; add, remove, score, compact, save.

    Postings are kept *packed*: one array of labels and one of term frequencies for all
    terms, grouped by term (term ``t``'s are ``[off[t], off[t+1])``), as a saved index
    loads and as :meth:`compact` leaves them; postings added since are held per term
    until the next compaction folds them in. So compacting and saving a segment are a
    few numpy passes over its postings, not a Python loop over its terms.

    Args:
        arrays: a saved index (:meth:`to_arrays`) to start from; empty when ``None``.
    """

    def __init__(self, arrays: Mapping[str, np.ndarray] | None = None) -> None:
        self._term_ids: dict[str, int] = {}
        self._terms: list[str] = []
        """Each term id's term; ``""``: a hole left by a term that died."""
        self._holes = 0
        self._off = np.zeros(1, np.int64)
        """Offsets of the packed terms' postings (terms past its end have none packed)."""
        self._plab = np.zeros(0, np.int64)
        self._ptf = np.zeros(0, np.float32)
        self._extra: dict[int, tuple[array[int], array[float]]] = {}
        """Per term, the postings added since the last packing."""
        self._doc_len = np.zeros(1024, dtype=np.float32)
        self._doc_terms = np.zeros(1024, dtype=np.int32)
        self._postings = 0
        self._dead = 0
        self.generation = 0
        """Bumped whenever a document is added or removed (the statistics change)."""
        if arrays is not None:
            self._restore(arrays)

    def _restore(self, data: Mapping[str, np.ndarray]) -> None:
        n = int(data["kw_nterms"][0])
        terms = bytes(data["kw_terms"]).decode("utf-8").split("\x00") if n else []
        lengths = data["kw_lengths"].astype(np.int64)
        if len(terms) != lengths.size:
            raise ValueError("saved keyword index: terms and lengths disagree")
        self._term_ids = {term: i for i, term in enumerate(terms) if term}
        self._terms = terms
        self._holes = len(terms) - len(self._term_ids)
        self._off = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
        self._plab = data["kw_labels"].astype(np.int64)
        self._ptf = data["kw_tfs"].astype(np.float32)
        self._doc_len = data["kw_doc_len"].astype(np.float32)
        self._doc_terms = data["kw_doc_terms"].astype(np.int32)
        self._postings = int(self._plab.size)

    # updates ------------------------------------------------------------------------------

    def _grow(self, label: int) -> None:
        if label >= len(self._doc_len):
            extra = max(label + 1, 2 * len(self._doc_len)) - len(self._doc_len)
            self._doc_len = np.concatenate([self._doc_len, np.zeros(extra, np.float32)])
            self._doc_terms = np.concatenate([self._doc_terms, np.zeros(extra, np.int32)])

    def add(self, labels: Sequence[int], texts: Sequence[str]) -> None:
        """Index each text under its (new) label."""
        for label, text in zip(labels, texts, strict=True):
            terms = keyword_terms(text)
            if not terms:
                continue
            self._grow(label)
            if self._doc_len[label] > 0:
                raise ValueError(f"label {label} is already indexed")
            counts = Counter(terms)
            for term, tf in counts.items():
                tid = self._term_ids.get(term)
                if tid is None:
                    tid = len(self._terms)
                    self._term_ids[term] = tid
                    self._terms.append(term)
                added = self._extra.get(tid)
                if added is None:
                    added = self._extra[tid] = (array("q"), array("f"))
                added[0].append(label)
                added[1].append(float(tf))
            self._doc_len[label] = len(terms)
            self.generation += 1
            self._doc_terms[label] = len(counts)
            self._postings += len(counts)

    def remove(self, labels: Iterable[int]) -> int:
        """Tombstone documents; returns how many were indexed."""
        removed = 0
        for label in labels:
            if label < len(self._doc_len) and self._doc_len[label] > 0:
                self._doc_len[label] = 0
                self.generation += 1
                self._dead += int(self._doc_terms[label])
                self._doc_terms[label] = 0
                removed += 1
        if self._dead * 4 > self._postings:
            self.compact()
        return removed

    def compact(self) -> None:
        """Drop dead postings and every term left without a live document, and fold the
        postings added since into the packed arrays: numpy passes over the postings, and
        Python work only for the terms that died (their slots stay as empty holes until
        they are half of the vocabulary, then it is renumbered)."""
        if self._dead == 0 and not self._extra:
            return
        tid, labels, tfs = self._all_postings()
        keep = self._doc_len[labels] > 0
        if not keep.all():
            tid, labels, tfs = tid[keep], labels[keep], tfs[keep]
        counts = np.bincount(tid, minlength=len(self._terms))
        for i in np.flatnonzero(counts == 0).tolist():
            if self._terms[i]:
                del self._term_ids[self._terms[i]]
                self._terms[i] = ""
                self._holes += 1
        if self._holes * 2 > len(self._terms):
            alive = counts > 0
            self._terms = [self._terms[i] for i in np.flatnonzero(alive).tolist()]
            self._term_ids = {term: j for j, term in enumerate(self._terms)}
            counts = counts[alive]
            self._holes = 0
        self._off = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        self._plab, self._ptf = labels, tfs
        self._extra = {}
        self._postings = int(labels.size)
        self._dead = 0

    def _all_postings(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(term id, label, tf)`` of every posting, grouped by term id."""
        packed = np.repeat(np.arange(self._off.size - 1), np.diff(self._off))
        if not self._extra:
            return packed, self._plab, self._ptf
        tids = list(self._extra)
        sizes = np.fromiter((len(self._extra[t][0]) for t in tids), np.int64, len(tids))
        tid = np.concatenate([packed, np.repeat(np.asarray(tids, np.int64), sizes)])
        labels = np.concatenate([self._plab, np.frombuffer(
            b"".join(self._extra[t][0] for t in tids), dtype=np.int64)])
        tfs = np.concatenate([self._ptf, np.frombuffer(
            b"".join(self._extra[t][1] for t in tids), dtype=np.float32)])
        order = np.argsort(tid, kind="stable")  # a term's packed postings, then its new ones
        return tid[order], labels[order], tfs[order]

    # reads --------------------------------------------------------------------------------

    def __len__(self) -> int:
        return int(np.count_nonzero(self._doc_len))

    def terms(self) -> list[str]:
        """Every term with a posting (live or, before :meth:`compact`, dead)."""
        return [term for term in self._terms if term]

    def has(self, label: int) -> bool:
        """Whether the label is indexed (and not removed)."""
        return label < len(self._doc_len) and bool(self._doc_len[label] > 0)

    @property
    def doc_lengths(self) -> np.ndarray:
        """Terms per label (0: not indexed), read-only; one entry per label slot."""
        view = self._doc_len.view()
        view.flags.writeable = False
        return view

    def postings(self, term: str) -> tuple[np.ndarray, np.ndarray] | None:
        """``(labels, term frequencies)`` of a term's postings (dead ones too, before
        :meth:`compact`), or ``None`` when no document has it."""
        tid = self._term_ids.get(term)
        if tid is None:
            return None
        if tid + 1 < self._off.size:
            first, end = int(self._off[tid]), int(self._off[tid + 1])
            labels, tfs = self._plab[first:end], self._ptf[first:end]
        else:
            labels, tfs = self._plab[:0], self._ptf[:0]
        added = self._extra.get(tid)
        if added is None:
            return labels, tfs
        return (np.concatenate([labels, np.asarray(added[0], dtype=np.int64)]),
                np.concatenate([tfs, np.asarray(added[1], dtype=np.float32)]))

    def live(self, candidates: np.ndarray) -> np.ndarray:
        """The candidates (a boolean mask over labels) this index holds, as a mask over
        its label slots."""
        size = len(self._doc_len)
        mask = np.zeros(size, dtype=bool)
        n = min(size, len(candidates))
        mask[:n] = candidates[:n]
        mask &= self._doc_len > 0
        return mask

    def stats(self, candidates: np.ndarray) -> tuple[np.ndarray, int, float]:
        """``(live mask, documents, their summed length)`` of the candidates: the BM25
        statistics of a candidate set."""
        mask = self.live(candidates)
        return mask, int(np.count_nonzero(mask)), float(self._doc_len[mask].sum())

    def scores(self, query: str, candidates: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """BM25 scores of the candidate documents matching at least one query term.

        Args:
            query: the query text (analysed like documents).
            candidates: boolean mask over labels; only these documents are scored and
                only they count in the statistics (eligibility before ranking).

        Returns:
            ``(labels, scores)``, both unsorted, scores > 0.
        """
        return bm25(query, [(self, candidates)])[0]

    # persistence --------------------------------------------------------------------------

    def to_arrays(self) -> dict[str, np.ndarray]:
        """Compact, then export as plain arrays (no pickle) for the owner's file, each in
        the narrowest type that holds it exactly (labels and lengths as int32, term
        frequencies -- counts -- as uint16), so a purge writes fewer bytes. A hole of the
        vocabulary is exported as an empty term without postings."""
        self.compact()
        blob = "\x00".join(self._terms).encode("utf-8")
        return {
            "kw_terms": np.frombuffer(blob, dtype=np.uint8),
            "kw_nterms": np.array([len(self._terms)], dtype=np.int64),
            "kw_lengths": _narrow(np.diff(self._off), np.int32),
            "kw_labels": _narrow(self._plab, np.int32),
            "kw_tfs": _narrow(self._ptf, np.uint16),
            "kw_doc_len": self._doc_len.copy(),
            "kw_doc_terms": self._doc_terms.copy(),
        }

    @classmethod
    def from_arrays(cls, data: Mapping[str, np.ndarray]) -> KeywordIndex:
        """The index :meth:`to_arrays` exported."""
        return cls(data)


def _narrow(values: np.ndarray, dtype: type[np.generic]) -> np.ndarray:
    """``values`` as ``dtype`` if that keeps every value exactly, else unchanged."""
    narrow = values.astype(dtype)
    return narrow if np.array_equal(narrow, values) else values


class KeywordSegments:
    """The keyword index split by label range, like the vectors
    (:class:`projections.recall.vectors.SegmentedVectors`): segment ``s`` is a
    :class:`KeywordIndex` over the labels ``[s·size, (s+1)·size)``, stored under local
    labels (``label - s·size``). A removal tombstones and compacts one segment's postings
    only, so the owner rewrites that segment's file alone, with none of the removed
    document's terms; scores are :func:`bm25` over every segment with candidates, with
    shared statistics, so they equal one index's.

    Args:
        size: labels per segment.
    """

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError("segment size must be at least 1")
        self.size = size
        self.segments: dict[int, KeywordIndex] = {}
        self.kept: _Kept | None = None
        """The statistics of the last read-only candidate mask (see :class:`_Joined`)."""
        self.joined: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        """Recent terms' postings joined over the segments, oldest first (see
        :meth:`_Joined.postings`); valid while ``joined_state`` holds."""
        self.joined_state: tuple[tuple[int, int, int], ...] = ()

    def __len__(self) -> int:
        return sum(len(seg) for seg in self.segments.values())

    def add(self, labels: Sequence[int], texts: Sequence[str]) -> None:
        """Index each text under its (new) label, in the label's segment."""
        for label, text in zip(labels, texts, strict=True):
            segment, local = divmod(int(label), self.size)
            seg = self.segments.get(segment)
            if seg is None:
                seg = self.segments[segment] = KeywordIndex()
            seg.add([local], [text])

    def remove(self, labels: Iterable[int]) -> int:
        """Tombstone documents; returns how many were indexed."""
        removed = 0
        for label in labels:
            segment, local = divmod(int(label), self.size)
            seg = self.segments.get(segment)
            if seg is not None:
                removed += seg.remove([local])
        return removed

    def has(self, label: int) -> bool:
        """Whether the label is indexed (and not removed)."""
        segment, local = divmod(int(label), self.size)
        seg = self.segments.get(segment)
        return seg is not None and seg.has(local)

    def postings(self, term: str) -> tuple[np.ndarray, np.ndarray] | None:
        """A term's postings over every segment, under global labels (dead ones too,
        before a segment compacts): see :meth:`_Joined.postings`."""
        return _Joined(self).postings(term) if self.segments else None

    def parts(self, candidates: np.ndarray) -> list[tuple[int, KeywordIndex, np.ndarray]]:
        """``(first label, segment, its slice of the mask)`` for each segment holding a
        candidate."""
        out = []
        for segment in sorted(self.segments):
            base = segment * self.size
            local = candidates[base:base + self.size]
            if local.any():
                out.append((base, self.segments[segment], local))
        return out

    def bm25(self, query: str, candidates: np.ndarray,
             extra: Sequence[tuple[KeywordIndex, np.ndarray]] = ()
             ) -> tuple[tuple[np.ndarray, np.ndarray], list[tuple[np.ndarray, np.ndarray]]]:
        """:func:`bm25` over the candidates of every segment and the ``extra`` parts,
        with shared statistics: ``((labels, scores) of the segments, [(labels, scores)
        of each extra part])``."""
        if not self.segments:
            empty = (np.zeros(0, np.int64), np.zeros(0, np.float32))
            return empty, bm25(query, list(extra))
        found = bm25(query, [(_Joined(self), candidates), *extra])
        return found[0], found[1:]

    def scores(self, query: str, candidates: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """BM25 scores of the candidate documents matching a query term: see
        :meth:`KeywordIndex.scores`."""
        return self.bm25(query, candidates)[0]


JOINED_KEPT = 2_000_000
"""Postings kept joined at most (≈ 24 MB: an int64 label and a float32 count each)."""


@dataclass(frozen=True)
class _Kept:
    """The statistics of one read-only candidate mask, valid while ``state`` holds."""

    state: tuple[tuple[int, int, int], ...]
    candidates: np.ndarray
    lengths: np.ndarray
    stats: tuple[np.ndarray, int, float]


class _Joined:
    """Every segment read as one index over global labels, for :func:`bm25`.

    Why: at 1M labels (68 segments) scoring segment by segment cost a few numpy calls
    per segment and query term, most of a 10 ms recall; joined, a term is one posting
    array and the statistics one pass, kept between recalls that pass the same
    read-only eligibility mask (the recall index keeps one until something changes)."""

    def __init__(self, owner: KeywordSegments) -> None:
        self.owner = owner
        self.doc_lengths = np.zeros(0, np.float32)
        self.state = tuple((s, id(i), i.generation) for s, i in owner.segments.items())
        """What the joined view depends on: each segment and its generation (fixed for
        one :func:`bm25` call, which makes this view)."""

    def _lengths(self) -> np.ndarray:
        size = self.owner.size
        segments = self.owner.segments
        last = max(segments)
        out = np.zeros(last * size + min(size, len(segments[last].doc_lengths)), np.float32)
        for segment, index in segments.items():
            lengths = index.doc_lengths[:size]
            out[segment * size:segment * size + lengths.size] = lengths
        return out

    def stats(self, candidates: np.ndarray) -> tuple[np.ndarray, int, float]:
        """See :meth:`KeywordIndex.stats`."""
        state = self.state
        kept = self.owner.kept
        if kept is not None and kept.state == state and kept.candidates is candidates:
            self.doc_lengths = kept.lengths
            return kept.stats
        self.doc_lengths = lengths = self._lengths()
        mask = np.zeros(lengths.size, dtype=bool)
        n = min(lengths.size, len(candidates))
        mask[:n] = candidates[:n]
        mask &= lengths > 0
        found = (mask, int(np.count_nonzero(mask)), float(lengths[mask].sum()))
        if not candidates.flags.writeable:
            self.owner.kept = _Kept(state, candidates, lengths, found)
        return found

    def postings(self, term: str) -> tuple[np.ndarray, np.ndarray] | None:
        """A term's postings over every segment, under global labels. The joined arrays
        of recent terms are kept while no segment changes (:data:`JOINED_KEPT`): a
        common term's postings are in most of the 68 segments at 1M labels, and joining
        them again cost ≈ 1 ms of Python per term and recall."""
        owner = self.owner
        if owner.joined_state != self.state:
            owner.joined, owner.joined_state = {}, self.state
        kept = owner.joined.get(term)
        if kept is not None:
            return kept
        found = [(segment, hit) for segment, index in owner.segments.items()
                 if (hit := index.postings(term)) is not None]
        if not found:
            return None
        size = owner.size
        joined = (np.concatenate([ids + segment * size for segment, (ids, _) in found]),
                  np.concatenate([tfs for _, (_, tfs) in found]))
        if joined[0].size <= JOINED_KEPT:
            for part in joined:
                part.flags.writeable = False
            held = sum(ids.size for ids, _ in owner.joined.values())
            for old in list(owner.joined):
                if held + joined[0].size <= JOINED_KEPT:
                    break
                held -= owner.joined.pop(old)[0].size
            owner.joined[term] = joined
        return joined


def bm25(query: str, parts: Sequence[tuple[KeywordIndex | _Joined, np.ndarray]]
         ) -> list[tuple[np.ndarray, np.ndarray]]:
    """BM25 over the union of several indexes' candidates, with shared statistics.

    As-of recall scores the belief at a past point: documents whose text today's index
    holds are read from it, the others from a small index built for the query; the
    statistics (``N``, document frequency, average length) cover both, so the scores are
    those of one index over the whole candidate set.

    Returns:
        per part, ``(labels, scores)`` of its candidates matching a query term.
    """
    empty = (np.zeros(0, np.int64), np.zeros(0, np.float32))
    stats = [index.stats(candidates) for index, candidates in parts]
    masks = [m for m, _, _ in stats]
    n_docs = sum(n for _, n, _ in stats)
    terms = list(dict.fromkeys(keyword_terms(query)))
    if n_docs == 0 or not terms:
        return [empty for _ in parts]
    avgdl = sum(total for _, _, total in stats) / n_docs
    load_kernels()  # numba loads in ~0.9 s: on first use
    from projections.recall import kernels  # noqa: PLC0415

    found: list[list[tuple[np.ndarray, np.ndarray, float]]] = [[] for _ in parts]
    for term in terms:
        hits = [(j, postings) for j, (index, _) in enumerate(parts)
                if (postings := index.postings(term)) is not None]
        df = sum(kernels.count_allowed(ids, masks[j]) for j, (ids, _) in hits)
        if df == 0:
            continue
        idf = math.log(1.0 + (n_docs - df + 0.5) / (df + 0.5))
        if idf < 1e-3:
            continue  # in (nearly) every candidate: carries no evidence
        for j, (ids, tfs) in hits:
            found[j].append((ids, tfs, idf))
    out = []
    for (index, _), mask, matched in zip(parts, masks, found, strict=True):
        if not matched:
            out.append(empty)
            continue
        lengths = index.doc_lengths
        total = np.zeros(len(lengths), dtype=np.float32)
        touched = np.empty(min(len(lengths), sum(ids.size for ids, _, _ in matched)),
                           np.int64)
        held = 0
        for ids, tfs, idf in matched:
            held = kernels.add_bm25(ids, tfs, mask, lengths, idf, K1, B, avgdl, total,
                                    touched, held)
        if held * 32 > total.size:  # a scan for the matches beats sorting them
            held = kernels.positive(total, touched)
            labels = touched[:held]
        else:
            labels = np.sort(touched[:held])
        out.append((labels, total[labels]))
    return out
