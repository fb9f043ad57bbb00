"""The recall index file (``recall.npz``): what is saved, how it is written, when it is
trusted.

Vectors, postings, each label's fact id and text digest, the embedder's name and
dimension and the tracking position are written together, as plain arrays (no pickle),
to one file: temp file, fsync, ``os.replace``, then an fsync of the folder, so a crash
leaves the old file or the new one, never a mix. The row mirror is not saved: it is
re-read from DuckDB on open. A file written by another embedder, in another format or
unreadable is not trusted (:class:`UnusableFile`): the index is rebuilt from DuckDB,
never a silent mix of vector spaces.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from projections.embedder import Embedder
from projections.recall.keywords import KeywordIndex
from projections.recall.vectors import VectorIndex

FILE = "recall.npz"
FORMAT = 1


class UnusableFile(Exception):
    """The index file cannot be used; the message says why (the index's ``rebuilt``)."""


@dataclass
class Snapshot:
    """What the file holds."""

    vectors: VectorIndex
    keywords: KeywordIndex
    labels: np.ndarray
    """Every indexed label (int64), in the order of :attr:`fact_ids`."""
    fact_ids: list[str]
    digests: np.ndarray
    """Each label's document digest (:func:`projections.recall.documents.digest`)."""
    position: int
    """The log position the index had applied."""
    next_label: int
    """The next label to hand out (labels are never reused)."""


def temp_path(path: Path) -> Path:
    """Where :func:`write` puts the file before it replaces ``path``."""
    return path.with_name(path.name + ".tmp")


def write(path: Path, snapshot: Snapshot, embedder: Embedder) -> None:
    """Write ``snapshot`` to ``path`` atomically (the keyword index is compacted first, so
    removed postings leave the file)."""
    meta = {"format": FORMAT, "embedder": embedder.name, "dim": embedder.dim,
            "position": snapshot.position, "next_label": snapshot.next_label}
    arrays: dict[str, np.ndarray] = {
        "meta": np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8),
        "vectors": snapshot.vectors.to_bytes(),
        "labels": snapshot.labels,
        "fact_ids": _blob(snapshot.fact_ids),
        "digests": snapshot.digests,
        **snapshot.keywords.to_arrays(),
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = temp_path(path)
    with open(tmp, "wb") as fh:
        np.savez(fh, **arrays)  # type: ignore[arg-type]  # numpy's stub types **kwds as its flags
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def read(path: Path, embedder: Embedder) -> Snapshot:
    """The snapshot saved at ``path``, if it was written in this format by ``embedder``.

    Raises:
        UnusableFile: no file, an unreadable one, another format or another embedder,
            or vectors that disagree with the labels.
    """
    if not path.exists():
        raise UnusableFile("no index file")
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
        meta = json.loads(bytes(arrays["meta"]).decode())
    except Exception as e:  # an unreadable file is rebuilt, never trusted
        raise UnusableFile(f"unreadable index file ({type(e).__name__})") from e
    if meta.get("format") != FORMAT:
        raise UnusableFile(f"index format {meta.get('format')} != {FORMAT}")
    if meta.get("embedder") != embedder.name or meta.get("dim") != embedder.dim:
        raise UnusableFile(f"embedder changed ({meta.get('embedder')}/{meta.get('dim')} -> "
                           f"{embedder.name}/{embedder.dim})")
    labels = arrays["labels"].astype(np.int64)
    vectors = VectorIndex.from_bytes(arrays["vectors"], embedder.dim)
    if vectors.ntotal != labels.size:
        raise UnusableFile("index file inconsistent")
    return Snapshot(vectors=vectors, keywords=KeywordIndex.from_arrays(arrays), labels=labels,
                    fact_ids=_unblob(arrays["fact_ids"], labels.size),
                    digests=arrays["digests"], position=int(meta["position"]),
                    next_label=int(meta["next_label"]))


def _blob(items: Iterable[str]) -> np.ndarray:
    data = "\x00".join(items).encode("utf-8")
    return np.frombuffer(data, dtype=np.uint8).copy()


def _unblob(data: np.ndarray, count: int | None) -> list[str]:
    text = bytes(data).decode("utf-8")
    if count == 0 or (count is None and not text):
        return []
    return text.split("\x00")
