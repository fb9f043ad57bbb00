"""One error tree for the whole product.

Every error derives from :class:`MemoryESError`; each subclass also inherits the
builtin it specialises, so ``except ValueError`` keeps working for callers that do
not know this package. Messages name ids, fields and limits, never payloads or keys.
"""

from __future__ import annotations


class MemoryESError(Exception):
    """Base of every error raised by memory-es."""


class InvalidInput(MemoryESError, ValueError):
    """The request is malformed; nothing was written."""


class NotFound(MemoryESError, LookupError):
    """The fact, conflict, receipt or entity named does not exist (for this tenant)."""


class ConflictError(MemoryESError):
    """The request contradicts the store's present state (illegal transition, open conflict)."""


class ConcurrentWriteError(ConflictError):
    """Another writer appended to the same stream first; nothing of this request was written."""


class ErasedContent(MemoryESError, PermissionError):
    """The content was crypto-shredded: its key is destroyed and it can never be read again."""


class ConfirmationRequired(MemoryESError, PermissionError):
    """A high-risk operation needs the confirmation token of its preview."""


class IntegrityViolation(MemoryESError):
    """Stored data failed an integrity check (hash chain, authentication tag, signature)."""


class StoreClosed(MemoryESError, RuntimeError):
    """The store was closed."""


class StorageUnavailable(MemoryESError, OSError):
    """The storage refused the write: the disk is full, the folder is read-only or gone, or
    the database is unreachable. Nothing of the failed operation was written."""


class StoreLocked(MemoryESError, BlockingIOError):
    """Another process holds the embedded store open for writing."""


class ReadOnlyStore(MemoryESError, PermissionError):
    """The store was opened with ``read_only=True``: it reads, it does not write."""


class QualityRejected(InvalidInput):
    """A note failed its write gate; ``score`` and ``issues`` say why."""

    def __init__(self, message: str, *, score: float, issues: list[str]) -> None:
        super().__init__(message)
        self.score = score
        self.issues = list(issues)
