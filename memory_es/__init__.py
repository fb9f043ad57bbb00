"""memory-es: an event-sourced, bitemporal fact store for AI-agent memory.

>>> import memory_es
>>> store = memory_es.open("./mem")
"""

import importlib
from typing import TYPE_CHECKING, Any

from memory_es.domain.governance import GovernanceConfig
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
    QualityRejected,
    ReadOnlyStore,
    StorageUnavailable,
    StoreClosed,
    StoreLocked,
)
from memory_es.models import (
    AuditReport,
    DeletionReceipt,
    ErasureReport,
    Fact,
    Hit,
    Posterior,
    Preview,
    Receipt,
    StoreCheck,
    TierMove,
    Utility,
)

if TYPE_CHECKING:
    from memory_es.store import MemoryStore, Transaction
    from memory_es.store import open_store as open

_FACADE = {"open": "open_store", "MemoryStore": "MemoryStore", "Transaction": "Transaction"}


def __getattr__(name: str) -> Any:
    """The facade is loaded on first use (PEP 562), not when the package is.

    Python initialises this package whenever any of its modules is imported, and the
    read models (``projections``) import the kernel modules (errors, models, domain,
    crypto) that live here; the facade in turn imports the read models. Loading the facade
    eagerly would make ``import projections.views`` re-enter itself half-initialised."""
    if name in _FACADE:
        store = importlib.import_module("memory_es.store")
        return getattr(store, _FACADE[name])
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
    "GovernanceConfig",
    "Hit",
    "IntegrityViolation",
    "InvalidInput",
    "MemoryESError",
    "MemoryStore",
    "NotFound",
    "Posterior",
    "Preview",
    "QualityRejected",
    "ReadOnlyStore",
    "Receipt",
    "StorageUnavailable",
    "StoreCheck",
    "StoreClosed",
    "StoreLocked",
    "TierMove",
    "Transaction",
    "Utility",
    "open",
]
