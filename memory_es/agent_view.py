"""One agent's view of a store (SPEC §12.7): the text interface run on behalf of an agent.

:class:`AgentView` offers the methods of :class:`memory_es.text.ports.TextStore` and
forwards each to the store with ``agent=`` filled in: its fact writes are the agent's
(private), its reads see what that agent sees. ``recall_texts(..., agent=)`` and the MCP
server started with ``--agent`` drive a :class:`~memory_es.text.TextInterface` over it,
so the text package itself never needs to know about agents.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from datetime import datetime
from typing import TYPE_CHECKING, Any

from memory_es.domain.agents import check_agent
from memory_es.models import DeletionReceipt, Fact, Hit, Preview, Receipt

if TYPE_CHECKING:
    from memory_es.store import MemoryStore, Transaction


class _AgentWrites:
    """Fact writes with ``agent=`` filled in, over the store or one ``transact()`` block."""

    def __init__(self, target: MemoryStore | Transaction, agent: str) -> None:
        self._target = target
        self.agent = agent

    def alias(self, tenant: str, surface: str, canonical_id: str) -> Receipt:
        return self._target.alias(tenant, surface, canonical_id)

    def assert_fact(self, tenant: str, entity: str | None, attribute: str, value: object, *,
                    valid_from: datetime | None = None, valid_until: datetime | None = None,
                    text: str | None = None, source: str | None = None,
                    asserted_by: str = "user", confidence: float = 1.0,
                    volatility: str | None = None, classification: str | None = None,
                    mention: str | None = None, idempotency_key: str | None = None,
                    interpretation: dict[str, object] | None = None,
                    negated: bool = False) -> Receipt:
        return self._target.assert_fact(
            tenant, entity, attribute, value, valid_from=valid_from, valid_until=valid_until,
            text=text, source=source, asserted_by=asserted_by, confidence=confidence,
            volatility=volatility, classification=classification, mention=mention,
            idempotency_key=idempotency_key, interpretation=interpretation, agent=self.agent,
            negated=negated)

    def supersede(self, tenant: str, entity: str, attribute: str, value: object, *,
                  valid_from: datetime | None = None, valid_until: datetime | None = None,
                  text: str | None = None, source: str | None = None,
                  asserted_by: str = "user", confidence: float = 1.0,
                  volatility: str | None = None, classification: str | None = None,
                  reason: str | None = None, idempotency_key: str | None = None,
                  interpretation: dict[str, object] | None = None) -> Receipt:
        return self._target.supersede(
            tenant, entity, attribute, value, valid_from=valid_from, valid_until=valid_until,
            text=text, source=source, asserted_by=asserted_by, confidence=confidence,
            volatility=volatility, classification=classification, reason=reason,
            idempotency_key=idempotency_key, interpretation=interpretation, agent=self.agent)

    def decay(self, fact_id: str, *, reason: str | None = None,
              tenant: str | None = None) -> Receipt:
        return self._target.decay(fact_id, reason=reason, tenant=tenant)

    def forget_entity(self, tenant: str, entity: str, *, reason: str | None = None) -> Receipt:
        return self._target.forget_entity(tenant, entity, reason=reason)

    def forget_fact(self, fact_id: str, *, reason: str | None = None,
                    tenant: str | None = None) -> Receipt:
        return self._target.forget_fact(fact_id, reason=reason, tenant=tenant)


class _AgentTransaction(_AgentWrites):
    """A ``transact()`` block whose fact writes are the agent's."""

    def __init__(self, tx: Transaction, agent: str) -> None:
        super().__init__(tx, agent)
        self.receipts: list[Receipt] = []
        """Filled, like the block's own, once the block has committed."""


class AgentView(_AgentWrites):
    """``store`` as agent ``agent`` reads and writes it."""

    def __init__(self, store: MemoryStore, agent: str) -> None:
        super().__init__(store, str(check_agent(agent)))
        self.store = store

    def current(self, tenant: str, entity: str | None = None,
                attribute: str | None = None) -> list[Fact]:
        return self.store.current(tenant, entity, attribute, agent=self.agent)

    def count(self, tenant: str) -> int:
        return self.store.count(tenant, agent=self.agent)

    def as_of(self, tenant: str, **kw: Any) -> list[Fact]:
        return self.store.as_of(tenant, agent=self.agent, **kw)

    def recall(self, tenant: str, query: str, k: int = 8, **kw: Any) -> list[Hit]:
        return self.store.recall(tenant, query, k, agent=self.agent, **kw)

    def holding(self, tenant: str, query: str, *, most: int = 64) -> list[Fact] | None:
        return self.store.holding(tenant, query, most=most, agent=self.agent)

    @contextlib.contextmanager
    def transact(self) -> Iterator[_AgentTransaction]:
        with self.store.transact() as tx:
            block = _AgentTransaction(tx, self.agent)
            yield block
        block.receipts = tx.receipts

    def now(self) -> datetime:
        return self.store.now()

    def preview(self, op: str, tenant: str, entity: str | None = None, *,
                fact_id: str | None = None) -> Preview:
        return self.store.preview(op, tenant, entity, fact_id=fact_id)

    def purge(self, tenant: str, entity: str | None = None, *, fact_id: str | None = None,
              confirm: str | None = None, requested_by: str | None = None,
              compact: str = "now") -> DeletionReceipt:
        return self.store.purge(tenant, entity, fact_id=fact_id, confirm=confirm,
                                requested_by=requested_by, compact=compact)
