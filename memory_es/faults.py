"""Storage faults reach callers as :class:`~memory_es.errors.StorageUnavailable`.

SQLite, DuckDB, PostgreSQL and the file system each report a full disk, a read-only
folder or a vanished server in their own exception classes, often wrapped by the
library above them. :func:`storage_faults` walks an exception's cause chain once and
turns those into the one typed error, with a fixed message: a driver's own text can
quote the statement and its values, so it stays chained as ``__cause__`` only.
"""

from __future__ import annotations

import errno
from types import TracebackType
from typing import Literal

from memory_es.errors import MemoryESError, StorageUnavailable

STORAGE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM,
                            errno.EFBIG, errno.EIO, errno.ENOENT, errno.ENOTDIR, errno.EEXIST,
                            errno.EISDIR})
STORAGE_PHRASES = (
    "disk is full", "database or disk is full", "no space left", "readonly database",
    "read-only", "unable to open database", "disk i/o error", "file too large",
    "could not write", "could not extend file", "permission denied",
    "connection refused", "could not connect", "server closed the connection",
    "terminating connection", "connection is lost", "the connection is closed",
    "the database system is starting up", "the database system is shutting down",
    "the database system is in recovery mode",
)
"""How the drivers we use word a storage fault (SQLite, DuckDB, psycopg, the OS)."""


def storage_fault(error: BaseException) -> str | None:
    """What kind of storage fault ``error`` (or anything in its cause chain) is, if any."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, MemoryESError):
            return None
        if isinstance(current, OSError) and current.errno in STORAGE_ERRNOS:
            return current.strerror or type(current).__name__
        text = str(current).casefold()
        for phrase in STORAGE_PHRASES:
            if phrase in text:
                return phrase
        current = current.__cause__ or current.__context__
    return None


class StorageFaults:
    """Re-raise a storage fault inside the block as ``StorageUnavailable`` naming ``doing``
    (a class rather than a generator: every write enters two, and a generator's context
    manager costs several times as much to enter and leave)."""

    __slots__ = ("doing",)

    def __init__(self, doing: str) -> None:
        self.doing = doing

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 tb: TracebackType | None) -> Literal[False]:
        if not isinstance(error, Exception) or isinstance(error, MemoryESError):
            return False
        fault = storage_fault(error)
        if fault is None:
            return False
        raise StorageUnavailable(
            f"{self.doing} failed: the storage is unavailable ({fault}); nothing was written"
        ) from error


def storage_faults(doing: str) -> StorageFaults:
    """Re-raise a storage fault inside the block as ``StorageUnavailable`` naming ``doing``."""
    return StorageFaults(doing)
