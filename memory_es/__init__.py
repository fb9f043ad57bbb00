"""memory-es: an event-sourced, bitemporal fact store for AI-agent memory.

>>> import memory_es
>>> store = memory_es.open("./mem")
"""

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
from memory_es.models import Fact, Hit, Receipt
from memory_es.store import MemoryStore, Transaction
from memory_es.store import open_store as open

__all__ = [
    "INELIGIBLE_NOW",
    "RETRIEVABLE_STATES",
    "ConcurrentWriteError",
    "ConfirmationRequired",
    "ConflictError",
    "ErasedContent",
    "Fact",
    "Hit",
    "IntegrityViolation",
    "InvalidInput",
    "MemoryESError",
    "MemoryStore",
    "NotFound",
    "Receipt",
    "StoreClosed",
    "Transaction",
    "open",
]
