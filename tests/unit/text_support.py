"""What the text-interface tests share: a tenant of their own for each example (a
Hypothesis example reuses the test's store), the texts that are current (after one
operation on a few remembered texts), and a note fact built without a store."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from itertools import count

from hypothesis import HealthCheck, settings

import memory_es
from memory_es.models import Fact
from memory_es.text import TextInterface

_tenants = count()


def store_examples(n: int = 6) -> settings:
    """Hypothesis settings for a text test on the store fixture: ``n`` examples (each
    writes to the store), no deadline, and the fixture shared by its examples."""
    return settings(max_examples=n, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


def fresh_tenant() -> str:
    return f"t{next(_tenants)}"


def current_texts(store: memory_es.MemoryStore, tenant: str) -> set[str]:
    return {f.text for f in store.current(tenant)}


def texts_after(store: memory_es.MemoryStore, setup: Iterable[str], op: str,
                *args: str) -> set[str]:
    """The current texts of a fresh tenant once ``setup`` is remembered, text by text,
    and the text operation ``op`` ran with ``args``."""
    tenant, ti = fresh_tenant(), TextInterface(store)
    for text in setup:
        ti.remember(tenant, text)
    getattr(ti, op)(tenant, *args)
    return current_texts(store, tenant)


def said(texts: Iterable[str], *, but: Iterable[str | None] = ()) -> set[str]:
    """``texts`` as the store keeps them (no final stop, in either script), less those of
    ``but``."""
    gone = set(but)
    return {t.rstrip(".。") for t in texts if t not in gone}


def note_fact(n: int, entity: str | None, text: str) -> Fact:
    """A current fact of ``entity`` whose text is ``text`` (slot ``note``), numbered ``n``."""
    t = datetime(2026, 1, 1, tzinfo=UTC)
    return Fact(fact_id=f"f{n}", version_id=f"v{n}", tenant="t", entity=entity,
                attribute="note", value=text, text=text, valid_from=t, valid_until=None,
                recorded_at=t, recorded_until=None, asserted_by="user",
                volatility="stable", confidence=1.0, state="active",
                classification="internal", chain_id=f"c{n}")


def assert_first_ended_only(setup: list[str], after: set[str]) -> None:
    """The first of ``setup`` is no longer current, and every other one still is."""
    assert said(setup[1:]) <= after
    assert said(setup[:1]).isdisjoint(after)
