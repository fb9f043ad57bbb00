"""Fact ids are not bearer tokens across tenants (SPEC §14).

A caller bound to tenant B that knows tenant A's fact ids can neither change nor read
anything of A: every fact-id operation with ``tenant=B`` on A's ids is ``NotFound`` and
appends nothing, and no read of B returns A's rows.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es import MemoryStore, NotFound

A, B = "alpha", "beta"

OPERATIONS: dict[str, Callable[[MemoryStore, str, str], Any]] = {
    "correct": lambda s, f, t: s.correct(f, "changed", tenant=t),
    "decay": lambda s, f, t: s.decay(f, tenant=t),
    "archive": lambda s, f, t: s.archive(f, tenant=t),
    "restore": lambda s, f, t: s.restore(f, tenant=t),
    "mask": lambda s, f, t: s.mask(f, tenant=t),
    "unmask": lambda s, f, t: s.unmask(f, tenant=t),
    "forget_fact": lambda s, f, t: s.forget_fact(f, tenant=t),
    "keyed_correct": lambda s, f, t: s.correct(f, "changed", tenant=t, idempotency_key="k1"),
    "history": lambda s, f, t: s.history(t, f),
    "chain": lambda s, f, t: s.chain(t, f),
    "purge_fact": lambda s, f, t: s.purge(t, fact_id=f),
}


def rows_of(store: MemoryStore, tenant: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = store.sql("SELECT * FROM fact_versions ORDER BY version_id",
                                           tenant=tenant).to_pylist()
    return rows


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """One store with facts in both tenants, reused across examples (operations on the
    wrong tenant must leave it unchanged, which is what the property checks)."""
    store = memory_es.open(tmp_path_factory.mktemp("iso") / "m")
    ids = {A: [], B: []}  # type: dict[str, list[str]]
    for tenant in (A, B):
        for i, (attr, value) in enumerate([("home.city", "Oslo"), ("bank.iban", "NO93 8601"),
                                           ("pref.color", "green")]):
            r = store.assert_fact(tenant, f"user:p{i}", attr, f"{tenant}-{value}")
            ids[tenant].append(r.fact_id or "")
    yield store, ids
    store.close()


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=st.lists(st.tuples(st.sampled_from(sorted(OPERATIONS)), st.integers(0, 2)),
                    min_size=1, max_size=6))
def test_tenant_b_never_changes_or_reveals_tenant_a(shared: Any, ops: list[tuple[str, int]]
                                                     ) -> None:
    """Whatever sequence of fact-id operations tenant B runs on A's ids, each is NotFound,
    the log does not move, A's rows stay identical, and B's reads hold no row of A."""
    store, ids = shared
    before, head = rows_of(store, A), store.log_position()
    for name, index in ops:
        with pytest.raises(NotFound):
            OPERATIONS[name](store, ids[A][index], B)
    assert store.log_position() == head
    assert rows_of(store, A) == before
    seen = {f.fact_id for f in store.current(B)} | {f.fact_id for f in store.as_of(B)}
    seen |= {h.fact.fact_id for h in store.recall(B, "Oslo NO93 green", k=10)}
    assert seen.isdisjoint(ids[A])


def test_the_right_tenant_still_operates_on_its_own_ids(tmp_path: Path) -> None:
    """With its own tenant named, every fact-id operation works as before."""
    with memory_es.open(tmp_path / "m") as store:
        fid = store.assert_fact(A, "user:p", "home.city", "Oslo").fact_id or ""
        store.correct(fid, "Bergen", tenant=A)
        assert [f.value for f in store.current(A)] == ["Bergen"]
        store.archive(fid, tenant=A)
        assert store.current(A) == []
        store.restore(fid, tenant=A)
        store.mask(fid, tenant=A)
        store.unmask(fid, tenant=A)
        store.forget_fact(fid, tenant=A)
        assert store.current(A) == []
