"""memory-es: an event-sourced, bitemporal fact store for AI-agent memory.

>>> import memory_es
>>> store = memory_es.open("./mem")
"""

from typing import TYPE_CHECKING, Any

from memory_es.domain.lifecycle import INELIGIBLE_NOW, RETRIEVABLE_STATES
from memory_es.errors import (
    ConcurrentWriteError,
    ConfirmationRequired,
    ConflictError,
    ErasedContent,
    IntegrityViolation,
    InvalidInput,
    MemoryESError,
    NotFound,
    StoreClosed,
)
from memory_es.models import (
    AuditReport,
    DeletionReceipt,
    ErasureReport,
    Fact,
    Hit,
    Preview,
    Receipt,
    StoreCheck,
)

if TYPE_CHECKING:
    from memory_es.store import MemoryStore, Transaction
    from memory_es.store import open_store as open


def __getattr__(name: str) -> Any:
    """The store is imported on first use: ``projections`` imports this package's errors
    and models, and the store imports ``projections`` (an import cycle otherwise)."""
    if name in ("open", "MemoryStore", "Transaction"):
        from memory_es import store  # noqa: PLC0415

        return {"open": store.open_store, "MemoryStore": store.MemoryStore,
                "Transaction": store.Transaction}[name]
    raise AttributeError(f"module 'memory_es' has no attribute {name!r}")


__all__ = [
    "INELIGIBLE_NOW",
    "RETRIEVABLE_STATES",
    "AuditReport",
    "ConcurrentWriteError",
    "ConfirmationRequired",
    "ConflictError",
    "DeletionReceipt",
    "ErasedContent",
    "ErasureReport",
    "Fact",
    "Hit",
    "IntegrityViolation",
    "InvalidInput",
    "MemoryESError",
    "MemoryStore",
    "NotFound",
    "Preview",
    "Receipt",
    "StoreCheck",
    "StoreClosed",
    "Transaction",
    "open",
]
