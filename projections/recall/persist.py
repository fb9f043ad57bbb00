"""The recall index on disk: segment files and a manifest, so that a purge rewrites the
segments that held the purged facts, never the whole index.

**Layout.** ``<folder>/recall/`` holds:

- one file per *segment*, ``seg-<segment>-<generation>.npz``: segment ``s`` is the label
  range ``[s·size, (s+1)·size)`` (:data:`SEGMENT_LABELS` labels), and its file holds
  those labels' vectors, keyword postings (under local labels), fact ids and text
  digests, as plain arrays (no pickle). Labels are handed out in order and never reused,
  so new facts land in the newest (*open*) segment; once the labels move past its range
  it is sealed: it only ever shrinks, when its facts leave the index.
- ``manifest.json``: the format, the embedder's name and dimension, the segment size,
  the log position the index had applied, the next label, the generation, and the file
  (with its size) of each segment. It is the commit point.

**Writing** (:func:`write`) rewrites only the segments that changed since they were last
written (a purge: the segments that held the purged labels; their postings are compacted
first, so no purged term stays in the file). Each rewritten segment gets a new file name
(the next generation), written and fsynced; then the folder is fsynced, the manifest is
written to a temp file, fsynced and moved over the old one with ``os.replace``, the
folder is fsynced again, and only then are the superseded segment files deleted (and the
folder fsynced). A crash before the manifest's replace leaves the old manifest and the
old files it names, a crash after it the new ones: never a mix. Files a crash left
behind (new generations no manifest names, superseded ones not yet deleted, the
manifest's temp file) are :func:`leftovers`: :func:`remove_leftovers` deletes them when
the index opens, and until then the residue report lists them.

**Reading** (:func:`read`) trusts a manifest written in this format, by this embedder,
with this segment size, whose segment files all exist with the recorded sizes and
agree with it; anything else raises :class:`UnusableFile` and the index is rebuilt from
DuckDB, never a silent mix of vector spaces. The single ``recall.npz`` of the previous
format is not migrated: it is unusable, the index is rebuilt from DuckDB, and the old
file is deleted once the new layout is written (:data:`LEGACY_FILE`; until then it is a
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

import numpy as np

from projections.durable import fsync_path
from projections.embedder import Embedder
from projections.recall.keywords import KeywordIndex, KeywordSegments
from projections.recall.vectors import SegmentedVectors

FOLDER = "recall"
"""The recall index's folder, inside the store's (or replica's) views folder."""
MANIFEST = "manifest.json"
LEGACY_FILE = "recall.npz"
"""The one-file index of format 1 (in the views folder itself)."""
FORMAT = 2
SEGMENT_LABELS = 16_384
"""Labels per segment. A purge rewrites the segments holding the purged facts: at 256
dimensions one full segment is ≈ 16 MB of vectors plus its postings; a recall scans one
FAISS index per segment holding a candidate (61 at 1M labels)."""

_SEGMENT_NAME = re.compile(r"^seg-(\d+)-(\d+)\.npz$")


class UnusableFile(Exception):
    """The saved index cannot be used; the message says why (the index's ``rebuilt``)."""


def before_step(name: str) -> None:
    """Called with the name of each step of :func:`write` before it runs: ``write
    seg-…``, ``sync folder``, ``write manifest``, ``replace manifest``, ``delete
    superseded``. It does nothing; fault tests replace it to stop a write at any step."""


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
    """The commit point: what was applied, and which file holds each segment."""

    position: int
    next_label: int
    generation: int
    files: dict[int, str] = field(default_factory=dict)
    sizes: dict[int, int] = field(default_factory=dict)


def folder_of(views_folder: Path) -> Path:
    return views_folder / FOLDER


def segment_name(segment: int, generation: int) -> str:
    return f"seg-{segment:06d}-{generation:08d}.npz"


def read_manifest(folder: Path, embedder: Embedder) -> Manifest:
    """The manifest in ``folder``, if this embedder and format wrote it.

    Raises:
        UnusableFile: none, unreadable, another format, embedder or segment size.
    """
    path = folder / MANIFEST
    if not path.exists():
        raise UnusableFile("no index file")
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
        files = {int(s): str(entry["file"]) for s, entry in meta["segments"].items()}
        sizes = {int(s): int(entry["bytes"]) for s, entry in meta["segments"].items()}
        manifest = Manifest(position=int(meta["position"]), next_label=int(meta["next_label"]),
                            generation=int(meta["generation"]), files=files, sizes=sizes)
    except Exception as e:  # an unreadable manifest is rebuilt, never trusted
        raise UnusableFile(f"unreadable index manifest ({type(e).__name__})") from e
    if meta.get("format") != FORMAT:
        raise UnusableFile(f"index format {meta.get('format')} != {FORMAT}")
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


def leftovers(folder: Path, manifest: Manifest | None) -> list[Path]:
    """Files in ``folder`` the manifest does not name (a crash's side files, superseded
    segments not yet deleted), and the previous format's file beside it."""
    named = set(manifest.files.values()) if manifest is not None else set()
    found = [p for p in sorted(folder.iterdir()) if p.name != MANIFEST and p.name not in named
             ] if folder.is_dir() else []
    legacy = folder.parent / LEGACY_FILE
    return found + ([legacy] if legacy.exists() else [])


def remove_leftovers(folder: Path, manifest: Manifest | None) -> int:
    """Delete :func:`leftovers`; returns how many there were."""
    found = leftovers(folder, manifest)
    for path in found:
        path.unlink(missing_ok=True)
    if found and folder.is_dir():
        fsync_path(folder)
    return len(found)


def write(folder: Path, entries: Entries, segments: Iterable[int], manifest: Manifest | None,
          position: int, next_label: int, embedder: Embedder) -> Manifest:
    """Rewrite ``segments`` (and only them) and commit a new manifest: see the module
    docstring for the order. Returns the new manifest.

    ``manifest`` is the current one (``None`` when there is none: every segment that
    holds a label must then be in ``segments``).
    """
    old = manifest if manifest is not None else Manifest(0, 0, 0)
    generation = old.generation + 1
    files, sizes = dict(old.files), dict(old.sizes)
    folder.mkdir(parents=True, exist_ok=True)
    superseded: list[str] = []
    for segment in sorted(set(segments)):
        if segment in files:
            superseded.append(files.pop(segment))
            sizes.pop(segment)
        arrays = _segment_arrays(entries, segment, embedder)
        if arrays is None:  # the segment lost its last fact: no file
            continue
        name = segment_name(segment, generation)
        before_step(f"write {name}")
        with open(folder / name, "wb") as fh:
            np.savez(fh, **arrays)  # type: ignore[arg-type]  # numpy's stub types **kwds as its flags
            fh.flush()
            os.fsync(fh.fileno())
        files[segment] = name
        sizes[segment] = (folder / name).stat().st_size
    before_step("sync folder")
    fsync_path(folder)
    new = Manifest(position=position, next_label=next_label, generation=generation,
                   files=files, sizes=sizes)
    meta = {"format": FORMAT, "embedder": embedder.name, "dim": embedder.dim,
            "segment_labels": SEGMENT_LABELS, "position": position, "next_label": next_label,
            "generation": generation,
            "segments": {str(s): {"file": files[s], "bytes": sizes[s]} for s in sorted(files)}}
    tmp = folder / (MANIFEST + ".tmp")
    before_step("write manifest")
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(meta, fh)
        fh.flush()
        os.fsync(fh.fileno())
    before_step("replace manifest")
    os.replace(tmp, folder / MANIFEST)
    fsync_path(folder)
    before_step("delete superseded")
    for name in superseded:
        (folder / name).unlink(missing_ok=True)
    legacy = folder.parent / LEGACY_FILE
    if legacy.exists():
        legacy.unlink()
    if superseded:
        fsync_path(folder)
    return new


def _segment_arrays(entries: Entries, segment: int, embedder: Embedder
                    ) -> dict[str, np.ndarray] | None:
    held = entries.vectors.segment_ids(segment)
    labels = np.sort(held[np.fromiter((int(x) in entries.fact_of for x in held), bool,
                                      held.size)])
    if labels.size == 0:
        return None
    keywords = entries.keywords.segments.get(segment, KeywordIndex())
    meta = {"format": FORMAT, "embedder": embedder.name, "dim": embedder.dim,
            "segment": segment, "count": int(labels.size)}
    return {
        "meta": np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8),
        "labels": labels,
        "vectors": entries.vectors.reconstruct(labels),
        "fact_ids": _blob(entries.fact_of[int(x)] for x in labels),
        "digests": entries.digests[labels].astype(np.int64),
        **keywords.to_arrays(),
    }


def read(folder: Path, embedder: Embedder) -> tuple[Manifest, Entries]:
    """The manifest and every segment it names, if all of it can be trusted.

    Raises:
        UnusableFile: see :func:`read_manifest`; or a segment file missing, of another
            size, unreadable, or disagreeing with the manifest.
    """
    manifest = read_manifest(folder, embedder)
    vectors = SegmentedVectors(embedder.dim, SEGMENT_LABELS)
    keywords = KeywordSegments(SEGMENT_LABELS)
    fact_of: dict[int, str] = {}
    digests = np.zeros(manifest.next_label, np.int64)
    for segment, name in sorted(manifest.files.items()):
        path = folder / name
        if not _SEGMENT_NAME.match(name) or not path.exists() \
                or path.stat().st_size != manifest.sizes[segment]:
            raise UnusableFile(f"index segment {segment} missing or of another size")
        arrays = _load(path)
        meta = json.loads(bytes(arrays["meta"]).decode())
        labels = arrays["labels"].astype(np.int64)
        if (meta.get("format"), meta.get("embedder"), meta.get("dim"), meta.get("segment"),
                meta.get("count")) != (FORMAT, embedder.name, embedder.dim, segment,
                                       labels.size) \
                or labels.size == 0 or (labels // SEGMENT_LABELS != segment).any() \
                or arrays["vectors"].shape != (labels.size, embedder.dim):
            raise UnusableFile(f"index segment {segment} inconsistent")
        vectors.add(labels, arrays["vectors"])
        keywords.segments[segment] = KeywordIndex.from_arrays(arrays)
        ids = _unblob(arrays["fact_ids"], labels.size)
        fact_of.update(zip(labels.tolist(), ids, strict=True))
        if labels.max() >= manifest.next_label or arrays["digests"].shape != labels.shape:
            raise UnusableFile(f"index segment {segment} inconsistent")
        digests[labels] = arrays["digests"]
    return manifest, Entries(vectors=vectors, keywords=keywords, fact_of=fact_of,
                             digests=digests)


def _load(path: Path) -> Mapping[str, np.ndarray]:
    try:
        with np.load(path, allow_pickle=False) as data:
            return {name: data[name] for name in data.files}
    except Exception as e:  # an unreadable file is rebuilt, never trusted
        raise UnusableFile(f"unreadable index segment ({type(e).__name__})") from e


def _blob(items: Iterable[str]) -> np.ndarray:
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
