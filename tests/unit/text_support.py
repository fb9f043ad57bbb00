"""What the text-interface tests share: a tenant of their own for each example (a
Hypothesis example reuses the test's store), and the texts that are current."""

from __future__ import annotations

from itertools import count

import memory_es

_tenants = count()


def fresh_tenant() -> str:
    return f"t{next(_tenants)}"


def current_texts(store: memory_es.MemoryStore, tenant: str) -> set[str]:
    return {f.text for f in store.current(tenant)}
