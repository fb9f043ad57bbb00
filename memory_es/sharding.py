"""Tenant routing across several logs, so write throughput grows with shards (SPEC §13).

eventsourcing's PostgreSQL recorder takes a table lock for every insert, so one log has
one writer at a time, however many processes append. Tenants never share facts, so a
deployment can give each shard its own log (another database, or another schema of the
same one) and route every call by tenant. :func:`shard_of` is the rule (a stable hash,
the same in every process and release); :class:`ShardedStore` opens one store per shard
and hands each call to the store of its tenant.

Calls that name no tenant (``replay``, ``audit_verify``, ``sql`` without ``tenant=``)
are per log: ask ``stores`` for each shard's store.
"""

from __future__ import annotations

import hashlib
import inspect
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from memory_es.errors import InvalidInput
from memory_es.store import MemoryStore, open_store


def shard_of(tenant: str, shards: int) -> int:
    """The shard a tenant's facts live in: stable across processes and restarts."""
    if shards < 1:
        raise InvalidInput("a sharded store needs at least one shard")
    digest = hashlib.sha256(f"memory-es shard\x1f{tenant}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % shards


def _first_parameter(method: str) -> str | None:
    parameters = list(inspect.signature(getattr(MemoryStore, method)).parameters)
    return parameters[1] if len(parameters) > 1 else None


class ShardedStore:
    """One store per shard; every tenant-scoped call goes to its tenant's store.

    Example:
        >>> stores = ShardedStore.open(dsn, schemas=["s0", "s1"], views="./views")
        >>> stores.assert_fact("acme", "user:alex", "home.city", "Oslo")
    """

    def __init__(self, stores: Sequence[MemoryStore]) -> None:
        if not stores:
            raise InvalidInput("a sharded store needs at least one shard")
        self.stores = list(stores)

    @classmethod
    def open(cls, dsn: str, *, schemas: Sequence[str], views: str | Path,
             **options: Any) -> ShardedStore:
        """One PostgreSQL schema per shard (each its own log and key store); each shard's
        views live in ``<views>/<schema>``. ``options`` go to every :func:`open_store`."""
        opened: list[MemoryStore] = []
        try:
            for schema in schemas:
                opened.append(open_store(dsn=dsn, schema=schema, views=Path(views) / schema,
                                         **options))
        except BaseException:
            for store in opened:
                store.close()
            raise
        return cls(opened)

    def for_tenant(self, tenant: str) -> MemoryStore:
        return self.stores[shard_of(tenant, len(self.stores))]

    def __getattr__(self, name: str) -> Callable[..., Any]:
        """A store method, routed by the tenant it names (first argument or ``tenant=``)."""
        if name.startswith("_") or not callable(getattr(MemoryStore, name, None)):
            raise AttributeError(name)

        tenant_first = _first_parameter(name) == "tenant"

        def routed(*args: Any, **kwargs: Any) -> Any:
            tenant = args[0] if tenant_first and args else kwargs.get("tenant")
            if not isinstance(tenant, str):
                raise InvalidInput(f"{name} names no tenant (fact-id operations take "
                                   "tenant=): call it on each of .stores")
            return getattr(self.for_tenant(tenant), name)(*args, **kwargs)
        return routed

    def close(self) -> None:
        for store in self.stores:
            store.close()

    def __enter__(self) -> ShardedStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
