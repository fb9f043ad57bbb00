"""Agents within a tenant (SPEC §12.7), as a property against a small reference model.

Several agents (and tenant-wide writers) assert and supersede at random, some facts
shared; afterwards every agent's ``current``, ``as_of`` and ``recall`` must agree with an
independent model of the slots: a private fact is its agent's own slot, shadows the
tenant-wide value of a cardinality-one slot for that agent only, and never reaches any
other reader (zero cross-agent hits).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es import MemoryStore

AGENTS: tuple[str | None, ...] = (None, "a", "b", "c")
READERS: tuple[str | None, ...] = AGENTS
ENTITIES = ("user:p0", "user:p1")
ONE, MANY = "pref.color", "pref.tag"
VALUES = ("red", "blue", "green")
_tenants = itertools.count()

Write = tuple[str, str | None, bool, str, str, str]
"""(operation, agent, shared, entity, attribute, value)."""

writes = st.tuples(st.sampled_from(("assert", "supersede")), st.sampled_from(AGENTS),
                   st.booleans(), st.sampled_from(ENTITIES), st.sampled_from((ONE, MANY)),
                   st.sampled_from(VALUES))


@dataclass
class Model:
    """Slots (entity, attribute, owner) -> values; the owner is the agent of a private
    fact, None for tenant-wide and shared facts. Written without the store's code."""

    slots: dict[tuple[str, str, str | None], set[str]] = field(default_factory=dict)

    def write(self, op: str, agent: str | None, shared: bool, entity: str, attribute: str,
              value: str) -> None:
        owner = agent if agent is not None and not shared else None
        held = self.slots.setdefault((entity, attribute, owner), set())
        if op == "supersede":
            held.clear()
            held.add(value)
        elif attribute == MANY or not held:
            held.add(value)
        # cardinality one, another value current: a conflict, the current value stays

    def view(self, reader: str | None) -> dict[tuple[str, str], list[str]]:
        """What ``reader`` sees: the tenant's slot, unless its own private slot of a
        cardinality-one attribute holds a value; both for cardinality many."""
        out: dict[tuple[str, str], list[str]] = {}
        for entity in ENTITIES:
            for attribute in (ONE, MANY):
                wide = self.slots.get((entity, attribute, None), set())
                mine = (self.slots.get((entity, attribute, reader), set())
                        if reader is not None else set())
                # one fact per value and slot: the same value in two slots is two facts
                seen = [*mine] if attribute == ONE and mine else [*wide, *mine]
                if seen:
                    out[(entity, attribute)] = sorted(seen)
        return out


@pytest.fixture(scope="module")
def agents_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MemoryStore]:
    """One store for every example; each example writes into a tenant of its own."""
    store = memory_es.open(Path(tmp_path_factory.mktemp("agents")) / "m")
    yield store
    store.close()


def _visible(fact: memory_es.Fact, reader: str | None) -> bool:
    return fact.agent is None or fact.shared or fact.agent == reader


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(ops=st.lists(writes, min_size=1, max_size=14))
def test_agents_see_exactly_their_model_and_nothing_private_of_others(
        agents_store: MemoryStore, ops: list[Write]) -> None:
    """After random writes by several agents, each reader's current and as_of equal the
    reference model, and no read or recall of any reader holds another agent's private fact."""
    store = agents_store
    tenant = f"t{next(_tenants)}"
    store.define_attribute(tenant, MANY, cardinality="many")
    model = Model()
    for op, agent, shared, entity, attribute, value in ops:
        write = store.supersede if op == "supersede" else store.assert_fact
        write(tenant, entity, attribute, value, agent=agent, shared=shared)
        model.write(op, agent, shared, entity, attribute, value)
    for reader in READERS:
        want = model.view(reader)
        current = store.current(tenant, agent=reader)
        got: dict[tuple[str, str], list[str]] = {}
        for f in current:
            assert f.entity is not None
            got.setdefault((f.entity, f.attribute), []).append(str(f.value))
        assert {k: sorted(v) for k, v in got.items()} == want
        as_of = store.as_of(tenant, agent=reader)
        assert {f.fact_id for f in as_of} == {f.fact_id for f in current}
        hits = store.recall(tenant, "red blue green pref color tag p0 p1", k=50, agent=reader)
        crossed = [h.fact.fact_id for h in hits if not _visible(h.fact, reader)]
        assert crossed == []
        assert {h.fact.fact_id for h in hits} <= {f.fact_id for f in current}
