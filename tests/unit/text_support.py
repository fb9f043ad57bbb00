"""What the text-interface tests share: a tenant of their own for each example (a
Hypothesis example reuses the test's store), the texts that are current, and a note fact
built without a store."""

from __future__ import annotations

from datetime import UTC, datetime
from itertools import count

import memory_es
from memory_es.models import Fact

_tenants = count()


def fresh_tenant() -> str:
    return f"t{next(_tenants)}"


def current_texts(store: memory_es.MemoryStore, tenant: str) -> set[str]:
    return {f.text for f in store.current(tenant)}


def note_fact(n: int, entity: str | None, text: str) -> Fact:
    """A current fact of ``entity`` whose text is ``text`` (slot ``note``), numbered ``n``."""
    t = datetime(2026, 1, 1, tzinfo=UTC)
    return Fact(fact_id=f"f{n}", version_id=f"v{n}", tenant="t", entity=entity,
                attribute="note", value=text, text=text, valid_from=t, valid_until=None,
                recorded_at=t, recorded_until=None, asserted_by="user",
                volatility="stable", confidence=1.0, state="active",
                classification="internal", chain_id=f"c{n}")
