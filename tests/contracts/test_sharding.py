"""Tenant routing across logs (SPEC §13): each tenant's facts live in exactly one shard."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from memory_es import InvalidInput
from memory_es.sharding import ShardedStore, shard_of
from tests.contracts.conftest import PG_DSN, _drop_schema, require_pg


@pytest.fixture
def sharded(tmp_path: Path) -> Iterator[ShardedStore]:
    """Two PostgreSQL schemas, one log each, behind one router."""
    require_pg()
    schemas = [f"me_shard_{uuid.uuid4().hex[:12]}" for _ in range(2)]
    key = tmp_path / "master.key"
    key.write_text("ab" * 32 + "\n")
    store = ShardedStore.open(PG_DSN, schemas=schemas, views=tmp_path / "views", key_file=key)
    try:
        yield store
    finally:
        store.close()
        for schema in schemas:
            _drop_schema(schema)


def test_shard_of_is_stable_and_spreads_tenants() -> None:
    """The rule is a stable hash: the same tenant always lands on the same shard, and many
    tenants spread over every shard."""
    assert shard_of("acme", 4) == shard_of("acme", 4)
    assert {shard_of(f"t{i}", 4) for i in range(200)} == {0, 1, 2, 3}
    with pytest.raises(InvalidInput):
        shard_of("acme", 0)


@pytest.mark.postgres
def test_calls_route_by_tenant_and_logs_stay_apart(sharded: ShardedStore) -> None:
    """Writes and reads go to the tenant's shard only; fact-id calls route by tenant=; a
    call that names no tenant is refused rather than sent to an arbitrary shard."""
    tenants = [f"tenant{i}" for i in range(20)]
    for tenant in tenants:
        sharded.assert_fact(tenant, "user:alex", "home.city", f"{tenant}-city")
    for tenant in tenants:
        home = sharded.for_tenant(tenant)
        assert [f.value for f in sharded.current(tenant)] == [f"{tenant}-city"]
        others = [s for s in sharded.stores if s is not home]
        assert all(s.current(tenant) == [] for s in others)
    first = sharded.current(tenants[0])[0]
    sharded.correct(first.fact_id, "fixed", tenant=tenants[0])
    assert [f.value for f in sharded.current(tenants[0])] == ["fixed"]
    with pytest.raises(InvalidInput):
        sharded.correct(first.fact_id, "again")
    assert sum(s.log_position() for s in sharded.stores) == len(tenants) + 1  # one log each
    assert all(s.log_position() > 0 for s in sharded.stores)
