"""The store as the text interface sees it: the methods it calls, and nothing else.

:class:`~memory_es.text.interface.TextInterface` is written against :class:`TextStore`,
not against :class:`memory_es.store.MemoryStore`: the text package sits above the
store only through this protocol (``MemoryStore`` satisfies it structurally), and a
test can drive it with any object that offers these methods.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Protocol, TypedDict

from memory_es.models import DeletionReceipt, Fact, Hit, Preview, Receipt


class WriteOptions(TypedDict, total=False):
    """Keyword options ``remember``/``revise`` pass through to the store's writes."""

    source: str | None
    asserted_by: str
    confidence: float
    volatility: str | None
    classification: str | None
    valid_from: datetime | None
    valid_until: datetime | None
    idempotency_key: str | None


class TextWriter(Protocol):
    """The writes a text operation stages: the store itself, or one ``transact()`` block.
    Fact-id operations always name the tenant (SPEC §14)."""

    def alias(self, tenant: str, surface: str, canonical_id: str) -> Receipt: ...

    def assert_fact(self, tenant: str, entity: str | None, attribute: str, value: object, *,
                    valid_from: datetime | None = None, valid_until: datetime | None = None,
                    text: str | None = None, source: str | None = None,
                    asserted_by: str = "user", confidence: float = 1.0,
                    volatility: str | None = None, classification: str | None = None,
                    mention: str | None = None, idempotency_key: str | None = None,
                    interpretation: dict[str, object] | None = None,
                    negated: bool = False) -> Receipt: ...

    def supersede(self, tenant: str, entity: str, attribute: str, value: object, *,
                  valid_from: datetime | None = None, valid_until: datetime | None = None,
                  text: str | None = None, source: str | None = None,
                  asserted_by: str = "user", confidence: float = 1.0,
                  volatility: str | None = None, classification: str | None = None,
                  reason: str | None = None, idempotency_key: str | None = None,
                  interpretation: dict[str, object] | None = None) -> Receipt: ...

    def decay(self, fact_id: str, *, reason: str | None = None,
              tenant: str | None = None) -> Receipt: ...

    def forget_entity(self, tenant: str, entity: str, *, reason: str | None = None) -> Receipt:
        ...

    def forget_fact(self, fact_id: str, *, reason: str | None = None,
                    tenant: str | None = None) -> Receipt: ...


class StagedWrites(TextWriter, Protocol):
    """A ``transact()`` block: its receipts, in staging order, once it has committed."""

    @property
    def receipts(self) -> list[Receipt]: ...


class TextStore(TextWriter, Protocol):
    """The public store methods the text interface uses (SPEC §11)."""

    def current(self, tenant: str, entity: str | None = None,
                attribute: str | None = None) -> list[Fact]: ...

    def count(self, tenant: str) -> int: ...

    def recall(self, tenant: str, query: str, k: int = 8, *,
               channels: Sequence[str] | None = None) -> list[Hit]: ...

    def holding(self, tenant: str, query: str, *, most: int = 64) -> list[Fact] | None: ...

    def transact(self) -> AbstractContextManager[StagedWrites]: ...

    def now(self) -> datetime: ...

    def preview(self, op: str, tenant: str, entity: str | None = None, *,
                fact_id: str | None = None) -> Preview: ...

    def purge(self, tenant: str, entity: str | None = None, *, fact_id: str | None = None,
              confirm: str | None = None, requested_by: str | None = None,
              compact: str = "now") -> DeletionReceipt: ...
