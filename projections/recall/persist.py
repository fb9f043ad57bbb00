"""The recall index on disk: per segment, a vector file changed in place and a small
file rewritten whole, plus a manifest, so that a purge writes about what it removed.

**Layout.** ``<folder>/recall/`` holds, per *segment* (segment ``s`` is the label range
``[s·size, (s+1)·size)``, :data:`SEGMENT_LABELS` labels):

- ``vec-<segment>-<generation>.f32``: the segment's vectors as raw little-endian
  float32 rows at fixed offsets (row ``r`` is label ``s·size + r``); a row no label of
  the manifest holds is zeros. ``generation`` is the one that created the file: later
  writes change it in place (new rows appended or filled, removed rows zeroed).
- ``seg-<segment>-<generation>.arr``: the rest, as plain arrays (no pickle): the held
  labels, their fact ids and text digests, and the keyword postings (under local
  labels). It is small next to the vectors and rewritten whole at each write, so it is
  a bare container (:func:`_dump`: a header naming each array's type, shape and offset,
  then their bytes), not a zip: ``np.savez`` took ≈ 0.8 ms of a purge's rewrite for its
  ≈ 0.6 MB, the container ≈ 0.03 ms. An earlier release's ``.npz`` small file is read
  as it is, and replaced by the segment's next write.
- ``manifest.json``: the format, the embedder's name and dimension, the segment size,
  the log position the index had applied, the next label, the generation, and per
  segment its two files (the small one with its size, the vector file with its row
  count). It is the commit point.

Labels are handed out in order and never reused, so new facts land in the newest
(*open*) segment; once the labels move past its range it only ever shrinks.

**Writing** (:func:`write`) touches only the segments that changed since they were last
written. For each: the rows of labels the manifest does not hold yet are written into
its vector file in place (``pwrite``, fdatasync) -- or, after the index was rebuilt
(labels reassigned), a whole new vector file is written; then its small file is written under
the next generation's name and fsynced (postings compacted first, so no removed term
stays). Then the folder is fsynced, the manifest written to a temp file, fsynced and
moved over the old one with ``os.replace``, and the folder fsynced again. Only then are
the rows of removed labels overwritten with zeros in place (``scrub``, fdatasync) and the
superseded files deleted (and the folder fsynced). So a row the old manifest names is
never touched before the new manifest is durable: a crash before the replace leaves the
old manifest with every file and row it names intact, a crash after it the new one;
never a mix, and recovery does not depend on replaying the log. What a crash left
behind -- files no manifest names, the manifest's temp file, and rows of the vector
files the manifest does not hold that are not zeros (removed rows not yet scrubbed,
rows written for a write that never committed) -- are leftovers: :func:`read` finds
the rows (it reads every vector file whole anyway), :func:`remove_leftovers` deletes
the files and zeroes those rows when the index opens, and until then the residue report
lists them (:func:`leftovers`, :func:`stray_rows`).

**Reading** (:func:`read`) trusts a manifest written in this format, by this embedder,
with this segment size, whose files all exist with the recorded sizes (a vector file at
least its row count) and agree with it; anything else raises :class:`UnusableFile` and
the index is rebuilt from DuckDB, never a silent mix of vector spaces. An older format
(the single ``recall.npz`` of format 1, the one-file segments of format 2) is not
migrated: it is unusable, the index is rebuilt from DuckDB, and the old files are
deleted (:data:`LEGACY_FILE` once the new layout is written; until then it is a
leftover). The row mirror is never saved: it is re-read from DuckDB on open.

The same layout serves every replica: the embedded store, a read-only reader and a
PostgreSQL worker each keep it in their own views folder.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

import numpy as np

from projections.durable import fsync_path
from projections.embedder import Embedder, has_sparse_vectors
from projections.recall.keywords import KeywordIndex, KeywordSegments
from projections.recall.vectors import SegmentedVectors

FOLDER = "recall"
"""The recall index's folder, inside the store's (or replica's) views folder."""
MANIFEST = "manifest.json"
LEGACY_FILE = "recall.npz"
"""The one-file index of format 1 (in the views folder itself)."""
FORMAT = 4
"""Format 4 adds the bigram terms of unspaced scripts to the keyword postings
(:func:`projections.tokens.keyword_tokens`); an index of format 3 lacks them, so it is
rebuilt rather than queried with terms it never held."""
SEGMENT_LABELS = 4_096
"""Labels per segment. At 256 dimensions one full segment's vector file is ≈ 4 MB, of
which a purge overwrites only the removed rows; its small file (labels, fact ids,
digests, postings: ≈ 0.5 MB) is rewritten whole, on a thread beside the views' own
rewrite. A recall scans one FAISS index per segment holding a candidate (245 at 1M
labels). At 100k facts, 16,384 labels made that rewrite ≈ 14 ms of a complete purge's
≈ 28, and 4,096 ≈ 9 ms, with recall p50 2.0 ms either way (2,048: 8 ms, recall 2.2)."""
ROW_DTYPE = np.dtype("<f4")
"""How a vector file stores each component."""

_SEGMENT_NAME = re.compile(r"^seg-(\d+)-(\d+)\.(arr|npz)$")
CONTAINER = b"MEARR01\n"
"""The first bytes of a small file (:func:`_dump`); the header's length follows."""
ALIGN = 8
"""Each array starts at a multiple of this offset (typed views of the bytes read)."""
KINDS = frozenset("biuf")
"""Array kinds a small file may hold: no objects, so nothing is unpickled."""
_VECTOR_NAME = re.compile(r"^vec-(\d+)-(\d+)\.f32$")


class UnusableFile(Exception):
    """The saved index cannot be used; the message says why (the index's ``rebuilt``)."""


def before_step(name: str) -> None:
    """Called with the name of each step of :func:`write` before it runs: ``write
    vec-…`` (a whole new vector file), ``write rows vec-…`` (new rows in place), ``write
    seg-…``, ``sync folder``, ``write manifest``, ``replace manifest``, ``scrub vec-…``
    (removed rows zeroed), ``delete superseded``. It does nothing; fault tests replace
    it to stop a write at any step."""


@dataclass
class Entries:
    """What the index holds, as :func:`write` reads it and :func:`read` returns it."""

    vectors: SegmentedVectors
    keywords: KeywordSegments
    fact_of: dict[int, str]
    """The fact indexed under each label."""
    digests: np.ndarray
    """Each label's document digest, indexed by label
    (:func:`projections.recall.documents.digest`)."""


@dataclass
class Manifest:
    """The commit point: what was applied, and which files hold each segment."""

    position: int
    next_label: int
    generation: int
    dim: int = 0
    """The vectors' dimension (a vector file's row is ``dim`` float32)."""
    files: dict[int, str] = field(default_factory=dict)
    """Each segment's small file (labels, fact ids, digests, postings)."""
    sizes: dict[int, int] = field(default_factory=dict)
    vectors: dict[int, str] = field(default_factory=dict)
    """Each segment's vector file."""
    rows: dict[int, int] = field(default_factory=dict)
    """Rows each vector file had when the manifest was committed (at least)."""
    held: dict[int, np.ndarray] = field(default_factory=dict)
    """Per segment, a mask over its rows: the labels this manifest holds (not saved:
    read from the small files)."""
    ids: dict[int, np.ndarray] = field(default_factory=dict)
    """Per segment, the fact ids of the held labels in label order (an object array; not
    saved), so the next write looks up only the labels added since."""
    written: dict[str, np.ndarray] = field(default_factory=dict)
    """Per vector file, a mask over its rows: those that may hold bytes (not saved).
    Bits are set before a row is written and cleared once its zeros are durable, so a
    write that fails leaves it conservative; one dict is handed from manifest to
    manifest."""

    def names(self) -> list[str]:
        """Every file this manifest names (small files and vector files)."""
        return sorted([*self.files.values(), *self.vectors.values()])


def folder_of(views_folder: Path) -> Path:
    return views_folder / FOLDER


def segment_name(segment: int, generation: int) -> str:
    return f"seg-{segment:06d}-{generation:08d}.arr"


def vector_name(segment: int, generation: int) -> str:
    return f"vec-{segment:06d}-{generation:08d}.f32"


def read_manifest(folder: Path, embedder: Embedder) -> Manifest:
    """The manifest in ``folder``, if this embedder and format wrote it (``held`` and
    ``written`` left empty: :func:`read` and :func:`recover` fill them).

    Raises:
        UnusableFile: none, unreadable, another format, embedder or segment size.
    """
    path = folder / MANIFEST
    if not path.exists():
        raise UnusableFile("no index file")
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
        if meta.get("format") != FORMAT:
            raise UnusableFile(f"index format {meta.get('format')} != {FORMAT}")
        entries = {int(s): entry for s, entry in meta["segments"].items()}
        manifest = Manifest(
            position=int(meta["position"]), next_label=int(meta["next_label"]),
            generation=int(meta["generation"]), dim=int(meta["dim"]),
            files={s: str(e["file"]) for s, e in entries.items()},
            sizes={s: int(e["bytes"]) for s, e in entries.items()},
            vectors={s: str(e["vectors"]) for s, e in entries.items()},
            rows={s: int(e["rows"]) for s, e in entries.items()})
    except UnusableFile:
        raise
    except Exception as e:  # an unreadable manifest is rebuilt, never trusted
        raise UnusableFile(f"unreadable index manifest ({type(e).__name__})") from e
    if meta.get("embedder") != embedder.name or meta.get("dim") != embedder.dim:
        raise UnusableFile(f"embedder changed ({meta.get('embedder')}/{meta.get('dim')} -> "
                           f"{embedder.name}/{embedder.dim})")
    if meta.get("segment_labels") != SEGMENT_LABELS:
        raise UnusableFile(f"segment size {meta.get('segment_labels')} != {SEGMENT_LABELS}")
    return manifest


def current_manifest(folder: Path, embedder: Embedder) -> Manifest | None:
    """The manifest on disk now, or ``None`` when there is none this index can use."""
    try:
        return read_manifest(folder, embedder)
    except UnusableFile:
        return None


def recover(folder: Path, embedder: Embedder, before: Manifest | None) -> Manifest | None:
    """After a :func:`write` that did not finish: the manifest on disk now (the old one
    or the new one), with its held labels read back from its small files and the row
    masks ``before`` carried (the write kept them up to date), so that :func:`stray_rows`
    reports what the interrupted write left in the vector files and the next write
    zeroes it. ``None`` when no usable manifest is on disk."""
    manifest = current_manifest(folder, embedder)
    if manifest is None:
        return None
    if before is not None:
        manifest.written = before.written
    try:
        for segment, name in manifest.files.items():
            labels = load_small(folder / name)["labels"]
            manifest.held[segment] = _mask(labels - segment * SEGMENT_LABELS)
    except Exception:  # unreadable: the next open decides (it rebuilds if it must)
        return manifest
    for segment, name in manifest.vectors.items():
        if name not in manifest.written:  # not written by this process: what it holds
            manifest.written[name] = manifest.held[segment].copy()
    return manifest


def listing(folder: Path, manifest: Manifest | None) -> tuple[list[str], list[Path]]:
    """One read of ``folder``: the names in it the manifest names (and the manifest), and
    :func:`leftovers`. A residue report lists both, and a stat per named file cost more
    than the rest of the recall check at a million facts."""
    present = sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []
    named = set(manifest.names()) if manifest is not None else set()
    legacy = folder.parent / LEGACY_FILE
    return ([n for n in present if n == MANIFEST or n in named],
            [folder / n for n in present if n != MANIFEST and n not in named]
            + ([legacy] if legacy.exists() else []))


def leftovers(folder: Path, manifest: Manifest | None) -> list[Path]:
    """Files in ``folder`` the manifest does not name (a crash's side files, superseded
    segments not yet deleted), and the previous format's file beside it."""
    return listing(folder, manifest)[1]


def stray_rows(manifest: Manifest | None) -> dict[str, int]:
    """Per vector file the manifest names: how many of its rows may still hold bytes
    though the manifest holds no label there (removed rows not yet scrubbed, rows of a
    write that did not commit). Empty when every such row is zeros."""
    if manifest is None:
        return {}
    out = {}
    for segment, name in sorted(manifest.vectors.items()):
        count = _stray(manifest, segment).size
        if count:
            out[name] = count
    return out


def remove_leftovers(folder: Path, manifest: Manifest | None) -> int:
    """Delete :func:`leftovers` and zero the :func:`stray_rows` (cutting a vector file
    back to its row count); returns how many files and rows there were."""
    found = leftovers(folder, manifest)
    for path in found:
        path.unlink(missing_ok=True)
    if found and folder.is_dir():
        fsync_path(folder)
    scrubbed = 0
    if manifest is not None:
        for segment, name in sorted(manifest.vectors.items()):
            scrubbed += _scrub(folder / name, manifest, segment)
    return len(found) + scrubbed


def write(folder: Path, entries: Entries, segments: Iterable[int], manifest: Manifest | None,
          position: int, next_label: int, embedder: Embedder, *, reuse: bool = True
          ) -> Manifest:
    """Write ``segments`` (and only them) and commit a new manifest: see the module
    docstring for the order. Returns the new manifest.

    ``manifest`` is the current one (``None`` when there is none: every segment that
    holds a label must then be in ``segments``). ``reuse=False`` (the index was rebuilt,
    so a label may now name another fact) writes every segment's vectors to a new file
    instead of changing the current one in place.
    """
    old = manifest if manifest is not None else Manifest(0, 0, 0)
    new = Manifest(position=position, next_label=next_label, generation=old.generation + 1,
                   dim=embedder.dim,
                   files=dict(old.files), sizes=dict(old.sizes), vectors=dict(old.vectors),
                   rows=dict(old.rows), held=dict(old.held), ids=dict(old.ids),
                   written=old.written)
    folder.mkdir(parents=True, exist_ok=True)
    superseded: list[str] = []
    for segment in sorted(set(segments)):
        superseded += _write_segment(folder, entries, segment, old, new, embedder, reuse)
    before_step("sync folder")
    fsync_path(folder)
    _commit(folder, new, embedder)
    for segment in sorted(new.vectors):
        if _stray(new, segment).size:
            before_step(f"scrub {new.vectors[segment]}")
            _scrub(folder / new.vectors[segment], new, segment)
    before_step("delete superseded")
    for name in superseded:
        (folder / name).unlink(missing_ok=True)
        new.written.pop(name, None)
    legacy = folder.parent / LEGACY_FILE
    if legacy.exists():
        legacy.unlink()
    if superseded:
        fsync_path(folder)
    return new


def _write_segment(folder: Path, entries: Entries, segment: int, old: Manifest, new: Manifest,
                   embedder: Embedder, reuse: bool) -> list[str]:
    """Write one segment's vector rows and small file into ``new`` (not committed yet);
    returns the files the commit supersedes."""
    superseded = [new.files.pop(segment)] if segment in new.files else []
    new.sizes.pop(segment, None)
    labels = _held_labels(entries, segment)
    base = segment * SEGMENT_LABELS
    if labels.size == 0:  # the segment lost its last fact: no files
        if segment in new.vectors:
            superseded.append(new.vectors.pop(segment))
        new.rows.pop(segment, None)
        new.held.pop(segment, None)
        new.ids.pop(segment, None)
        return superseded
    held = _mask(labels - base)
    ids = _fact_ids(entries, segment, labels, old if reuse else None)
    if reuse and segment in old.vectors and segment in old.held:
        name = old.vectors[segment]
        fresh = np.flatnonzero(held & ~old.held[segment])
        if fresh.size:
            before_step(f"write rows {name}")
            _put_rows(folder / name, new.written[name], fresh,
                      entries.vectors.reconstruct(fresh + base))
        new.rows[segment] = max(old.rows[segment], int(labels[-1] - base) + 1)
    else:
        if segment in new.vectors:
            superseded.append(new.vectors[segment])
        name = vector_name(segment, new.generation)
        before_step(f"write {name}")
        new.written[name] = held.copy()
        rows = int(labels[-1] - base) + 1
        block = np.zeros((rows, embedder.dim), ROW_DTYPE)
        block[labels - base] = entries.vectors.reconstruct(labels)
        _write_file(folder / name, block.tobytes())
        new.vectors[segment], new.rows[segment] = name, rows
    new.held[segment], new.ids[segment] = held, ids
    small = segment_name(segment, new.generation)
    before_step(f"write {small}")
    with open(folder / small, "wb") as fh:
        _dump(fh, _small_arrays(entries, segment, labels, ids, embedder))
        fh.flush()
        os.fsync(fh.fileno())
    new.files[segment] = small
    new.sizes[segment] = (folder / small).stat().st_size
    return superseded


def _commit(folder: Path, new: Manifest, embedder: Embedder) -> None:
    """Write the manifest to a temp file and move it over the old one (the commit)."""
    meta = {"format": FORMAT, "embedder": embedder.name, "dim": embedder.dim,
            "segment_labels": SEGMENT_LABELS, "position": new.position,
            "next_label": new.next_label, "generation": new.generation,
            "segments": {str(s): {"file": new.files[s], "bytes": new.sizes[s],
                                  "vectors": new.vectors[s], "rows": new.rows[s]}
                         for s in sorted(new.files)}}
    tmp = folder / (MANIFEST + ".tmp")
    before_step("write manifest")
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(meta, fh)
        fh.flush()
        os.fsync(fh.fileno())
    before_step("replace manifest")
    os.replace(tmp, folder / MANIFEST)
    fsync_path(folder)


def _held_labels(entries: Entries, segment: int) -> np.ndarray:
    """The segment's labels that name a fact, sorted (a vector whose removal from FAISS
    is deferred is held there but names none)."""
    held = entries.vectors.segment_ids(segment).tolist()
    fact_of = entries.fact_of
    return np.sort(np.asarray([x for x in held if x in fact_of], np.int64))


def _fact_ids(entries: Entries, segment: int, labels: np.ndarray, old: Manifest | None
              ) -> np.ndarray:
    """The fact ids of these (sorted) labels as an object array: those the last write
    held are taken from its cache (a label names one fact for its vector file's life),
    only the others are looked up."""
    cached, held = (old.ids.get(segment), old.held.get(segment)) if old is not None \
        else (None, None)
    if cached is None or held is None:
        return _objects([entries.fact_of[x] for x in labels.tolist()])
    was = np.flatnonzero(held) + segment * SEGMENT_LABELS
    out = np.empty(labels.size, dtype=object)
    at = np.minimum(np.searchsorted(was, labels), max(was.size - 1, 0))
    found = (was[at] == labels) if was.size else np.zeros(labels.size, dtype=bool)
    out[found] = cached[at[found]]
    missing = np.flatnonzero(~found)
    out[missing] = _objects([entries.fact_of[x] for x in labels[missing].tolist()])
    return out


def _objects(items: list[str]) -> np.ndarray:
    out = np.empty(len(items), dtype=object)
    out[:] = items
    return out


def _small_arrays(entries: Entries, segment: int, labels: np.ndarray, ids: np.ndarray,
                  embedder: Embedder) -> dict[str, np.ndarray]:
    keywords = entries.keywords.segments.get(segment, KeywordIndex())
    meta = {"format": FORMAT, "embedder": embedder.name, "dim": embedder.dim,
            "segment": segment, "count": int(labels.size)}
    return {
        "meta": np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8),
        "labels": labels,
        "fact_ids": _blob(ids.tolist()),
        "digests": entries.digests[labels].astype(np.int64),
        **keywords.to_arrays(),
    }


def _mask(rows: np.ndarray) -> np.ndarray:
    """A mask over a segment's rows with these set."""
    out = np.zeros(SEGMENT_LABELS, dtype=bool)
    out[rows] = True
    return out


def _stray(manifest: Manifest, segment: int) -> np.ndarray:
    """Rows of the segment's vector file that may hold bytes but no label (sorted; none
    while its held labels are unknown: then nothing is zeroed, the next open decides)."""
    written = manifest.written.get(manifest.vectors[segment])
    held = manifest.held.get(segment)
    if written is None or held is None:
        return np.zeros(0, np.int64)
    return np.flatnonzero(written & ~held)


def _runs(rows: np.ndarray) -> list[tuple[int, int]]:
    """Sorted distinct rows as ``(first, end)`` runs of consecutive rows."""
    if rows.size == 0:
        return []
    cuts = np.flatnonzero(np.diff(rows) != 1) + 1
    starts = np.concatenate([[0], cuts])
    ends = np.concatenate([cuts, [rows.size]])
    return [(int(rows[a]), int(rows[b - 1]) + 1) for a, b in zip(starts, ends, strict=True)]


def _put_rows(path: Path, written: np.ndarray, rows: np.ndarray, vectors: np.ndarray) -> None:
    """Write ``vectors`` into these rows of a vector file in place, then fdatasync."""
    data = np.ascontiguousarray(vectors, dtype=ROW_DTYPE)
    row_bytes = data.shape[1] * ROW_DTYPE.itemsize
    written[rows] = True  # before the bytes: a failure leaves the mask conservative
    fd = os.open(path, os.O_WRONLY)
    try:
        at = 0
        for first, end in _runs(rows):
            os.pwrite(fd, data[at:at + end - first].tobytes(), first * row_bytes)
            at += end - first
        os.fdatasync(fd)  # the data and the size; no other metadata changed
    finally:
        os.close(fd)


def _scrub(path: Path, manifest: Manifest, segment: int) -> int:
    """Overwrite the segment's stray rows with zeros in place, and cut the file back to
    its row count if a write that did not commit grew it, then fdatasync; returns how many
    rows (and tails) it removed."""
    rows = _stray(manifest, segment)
    limit = manifest.rows[segment]
    row_bytes = manifest.dim * ROW_DTYPE.itemsize
    inside = rows[rows < limit]
    tail = path.exists() and path.stat().st_size > limit * row_bytes
    if inside.size or tail:
        fd = os.open(path, os.O_WRONLY)
        try:
            for first, end in _runs(inside):
                os.pwrite(fd, bytes((end - first) * row_bytes), first * row_bytes)
            if tail:
                os.ftruncate(fd, limit * row_bytes)
            os.fdatasync(fd)
        finally:
            os.close(fd)
    manifest.written[manifest.vectors[segment]][rows] = False
    return int(inside.size) + int(tail)


def _write_file(path: Path, data: bytes) -> None:
    with open(path, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())


def read(folder: Path, embedder: Embedder) -> tuple[Manifest, Entries]:
    """The manifest and every segment it names, if all of it can be trusted; rows of
    the vector files that hold bytes but no label are marked in the manifest's
    ``written`` (:func:`stray_rows`) for :func:`remove_leftovers`.

    Raises:
        UnusableFile: see :func:`read_manifest`; or a segment's file missing, of another
            size, unreadable, or disagreeing with the manifest.
    """
    manifest = read_manifest(folder, embedder)
    vectors = SegmentedVectors(embedder.dim, SEGMENT_LABELS, columns=has_sparse_vectors(embedder))
    keywords = KeywordSegments(SEGMENT_LABELS)
    fact_of: dict[int, str] = {}
    digests = np.zeros(manifest.next_label, np.int64)
    for segment in sorted(manifest.files):
        labels, arrays = _read_small(folder, manifest, segment, embedder)
        local = labels - segment * SEGMENT_LABELS
        manifest.held[segment] = _mask(local)
        block = _read_vectors(folder, manifest, segment, embedder.dim)
        if int(local[-1]) >= manifest.rows[segment]:
            raise UnusableFile(f"index segment {segment} inconsistent")
        vectors.add(labels, block[local])
        free = np.flatnonzero(~manifest.held[segment][:block.shape[0]])
        written = manifest.held[segment].copy()
        written[free[block[free].any(axis=1)]] = True  # left by a crash: zeroed at open
        manifest.written[manifest.vectors[segment]] = written
        keywords.segments[segment] = KeywordIndex.from_arrays(arrays)
        ids = _unblob(arrays["fact_ids"], labels.size)
        fact_of.update(zip(labels.tolist(), ids, strict=True))
        manifest.ids[segment] = _objects(ids)
        digests[labels] = arrays["digests"]
    return manifest, Entries(vectors=vectors, keywords=keywords, fact_of=fact_of,
                             digests=digests)


def _read_small(folder: Path, manifest: Manifest, segment: int, embedder: Embedder
                ) -> tuple[np.ndarray, Mapping[str, np.ndarray]]:
    """A segment's small file, checked against the manifest: ``(labels, arrays)``."""
    name = manifest.files[segment]
    path = folder / name
    if not _SEGMENT_NAME.match(name) or not path.exists() \
            or path.stat().st_size != manifest.sizes[segment]:
        raise UnusableFile(f"index segment {segment} missing or of another size")
    arrays = load_small(path)
    try:
        meta = json.loads(bytes(arrays["meta"]).decode())
        labels = arrays["labels"].astype(np.int64)
        ok = (meta.get("format"), meta.get("embedder"), meta.get("dim"), meta.get("segment"),
              meta.get("count")) == (FORMAT, embedder.name, embedder.dim, segment, labels.size)
        ok = ok and labels.size > 0 and bool((labels // SEGMENT_LABELS == segment).all()) \
            and bool((np.diff(labels) > 0).all()) and int(labels[-1]) < manifest.next_label \
            and arrays["digests"].shape == labels.shape
    except Exception as e:  # a malformed file is rebuilt, never trusted
        raise UnusableFile(f"index segment {segment} unreadable ({type(e).__name__})") from e
    if not ok:
        raise UnusableFile(f"index segment {segment} inconsistent")
    return labels, arrays


def _read_vectors(folder: Path, manifest: Manifest, segment: int, dim: int) -> np.ndarray:
    """A segment's vector file as ``(rows, dim)``: at least the manifest's row count
    (more, or a partial row, is what an uncommitted write appended)."""
    name = manifest.vectors[segment]
    path = folder / name
    rows = manifest.rows[segment]
    row_bytes = dim * ROW_DTYPE.itemsize
    if not _VECTOR_NAME.match(name) or not path.exists() \
            or path.stat().st_size < rows * row_bytes or rows > SEGMENT_LABELS:
        raise UnusableFile(f"index segment {segment} missing or of another size")
    size = min(path.stat().st_size // row_bytes, SEGMENT_LABELS)
    data = np.fromfile(path, dtype=ROW_DTYPE, count=size * dim)
    return data.reshape(size, dim)


def _dump(fh: BinaryIO, arrays: Mapping[str, np.ndarray]) -> None:
    """Write ``arrays`` as one small file: :data:`CONTAINER`, the header's length (8 bytes,
    little-endian), the header (JSON: each array's name, type, shape and offset from the
    end of the header), then each array's bytes at its offset."""
    entries, parts, at = [], [], 0
    for name, array in arrays.items():
        data = np.ascontiguousarray(array)
        pad = -at % ALIGN
        parts += [bytes(pad), data.tobytes()]
        at += pad
        entries.append([name, data.dtype.str, list(data.shape), at])
        at += data.nbytes
    header = json.dumps(entries).encode()
    fh.write(CONTAINER + len(header).to_bytes(8, "little") + header)
    fh.write(b"".join(parts))


def _undump(raw: bytes) -> dict[str, np.ndarray]:
    """The arrays :func:`_dump` wrote (each a copy); ValueError for anything else."""
    start = len(CONTAINER) + 8
    if raw[:len(CONTAINER)] != CONTAINER:
        raise ValueError("not a small file of the recall index")
    end = start + int.from_bytes(raw[len(CONTAINER):start], "little")
    body = memoryview(raw)[end:]
    out = {}
    for name, kind, shape, at in json.loads(raw[start:end]):
        dtype = np.dtype(kind)
        count = int(np.prod(shape, dtype=np.int64))
        if dtype.kind not in KINDS or at < 0 or at + count * dtype.itemsize > len(body):
            raise ValueError(f"array {name!r} of another type or past the end")
        out[str(name)] = np.frombuffer(body, dtype, count, at).reshape(shape).copy()
    return out


def load_small(path: Path) -> Mapping[str, np.ndarray]:
    """A segment's small file, either container, as named arrays.

    Raises:
        UnusableFile: the file cannot be read as one.
    """
    try:
        if path.suffix == ".npz":  # an earlier release's small file
            with np.load(path, allow_pickle=False) as data:
                return {name: data[name] for name in data.files}
        return _undump(path.read_bytes())
    except Exception as e:  # an unreadable file is rebuilt, never trusted
        raise UnusableFile(f"unreadable index segment ({type(e).__name__})") from e


def _blob(items: list[str]) -> np.ndarray:
    data = "\x00".join(items).encode("utf-8")
    return np.frombuffer(data, dtype=np.uint8).copy()


def _unblob(data: np.ndarray, count: int) -> list[str]:
    text = bytes(data).decode("utf-8")
    if count == 0:
        return []
    items = text.split("\x00")
    if len(items) != count:
        raise UnusableFile("index segment's fact ids disagree with its labels")
    return items
