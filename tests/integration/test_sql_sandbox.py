"""``sql()`` is a read-only, sandboxed query (SPEC §14): one test per escape class.

Every attempt must raise ``InvalidInput`` and leave the views, the files beside the store
and every other tenant's rows exactly as they were.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memory_es import InvalidInput, MemoryStore

T, OTHER = "acme", "globex"

ESCAPES = {
    "explain analyze update": "EXPLAIN ANALYZE UPDATE fact_versions SET value = '\"hacked\"'",
    "explain analyze delete": "EXPLAIN ANALYZE DELETE FROM fact_versions WHERE tenant = 'globex'",
    "cte-wrapped update": "WITH x AS (SELECT 1) UPDATE fact_versions SET value = '\"h\"'",
    "cte-wrapped delete": "WITH x AS (SELECT 1) DELETE FROM fact_versions",
    "insert": "INSERT INTO fact_versions SELECT * FROM fact_versions",
    "drop view": "DROP VIEW facts_current",
    "read_text": "SELECT * FROM read_text('{key}')",
    "read_blob": "SELECT * FROM read_blob('{key}')",
    "glob": "SELECT * FROM glob('{folder}/*')",
    "read_csv": "SELECT * FROM read_csv('{key}')",
    "copy to": "COPY (SELECT * FROM fact_versions) TO '{folder}/leak.csv'",
    "explain analyze copy": "EXPLAIN ANALYZE COPY (SELECT 1) TO '{folder}/leak2.csv'",
    "attach": "ATTACH '{folder}/views.duckdb' AS v",
    "install": "INSTALL httpfs",
    "load": "LOAD httpfs",
    "set": "SET enable_external_access = true",
    "set threads": "SET threads = 1",
    "pragma": "PRAGMA enable_profiling",
    "two statements": "SELECT 1; DELETE FROM fact_versions",
    "checkpoint": "CHECKPOINT",
}


@pytest.fixture
def two_tenants(fresh_store: MemoryStore) -> MemoryStore:
    fresh_store.assert_fact(T, "user:alex", "bank.iban", "DE02 1203 0000 0000 2020 51")
    fresh_store.assert_fact(OTHER, "user:zoe", "bank.iban", "FR14 2004 1010 0505 0001 3M02 606")
    return fresh_store


def snapshot(store: MemoryStore) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = store.table("fact_versions").sort_by("version_id").to_pylist()
    return rows


@pytest.mark.parametrize("name", sorted(ESCAPES))
def test_escape_is_refused_and_changes_nothing(two_tenants: MemoryStore, name: str) -> None:
    """Each write, file, network, extension or configuration escape raises InvalidInput and
    leaves the views and the store folder as they were."""
    store = two_tenants
    folder = Path(store.path)
    query = ESCAPES[name].format(key=folder / "master.key", folder=folder)
    before, files = snapshot(store), sorted(p.name for p in folder.iterdir())
    with pytest.raises(InvalidInput):
        store.sql(query)
    assert snapshot(store) == before
    assert sorted(p.name for p in folder.iterdir()) == files
    assert len(store.sql("SELECT * FROM fact_versions")) == 2


def test_master_key_never_comes_out_through_sql(two_tenants: MemoryStore) -> None:
    """No file function reads the master key's bytes, whichever spelling is used."""
    key = (Path(two_tenants.path) / "master.key").read_text().strip()
    for spelling in ("SELECT content FROM read_text('{p}')", "SELECT * FROM read_blob('{p}')",
                     "SELECT * FROM read_csv('{p}', header=false)"):
        with pytest.raises(InvalidInput) as caught:
            two_tenants.sql(spelling.format(p=Path(two_tenants.path) / "master.key"))
        assert key not in str(caught.value)


def test_tenant_scoped_sql_sees_only_that_tenant(two_tenants: MemoryStore) -> None:
    """sql(tenant=...) returns that tenant's rows from every view, whatever the query names."""
    store = two_tenants
    for query in ("SELECT tenant FROM fact_versions", "SELECT tenant FROM facts_current",
                  "SELECT tenant FROM main.fact_versions", "SELECT tenant FROM fact_chains"):
        assert set(store.sql(query, tenant=T).column("tenant").to_pylist()) == {T}
    assert store.sql("SELECT count(*) AS n FROM fact_versions",
                     tenant="nobody").column("n").to_pylist() == [0]


def test_sandbox_follows_new_writes(two_tenants: MemoryStore) -> None:
    """A query after a write sees it (the snapshot follows the log's position)."""
    store = two_tenants
    store.supersede(T, "user:alex", "bank.iban", "NL91 ABNA 0417 1643 00")
    values = store.sql("SELECT value FROM facts_current WHERE tenant = ?", [T])
    assert values.column("value").to_pylist() == ['"NL91 ABNA 0417 1643 00"']


def test_writes_the_sandbox_lets_run_vanish(two_tenants: MemoryStore) -> None:
    """A statement that only writes into the sandbox's own scratch space (EXPLAIN ANALYZE of
    a CREATE) runs in a transaction that is rolled back: nothing of it survives the call,
    and the views are untouched."""
    store = two_tenants
    before = snapshot(store)
    store.sql("EXPLAIN ANALYZE CREATE TABLE stolen AS SELECT * FROM fact_versions")
    with pytest.raises(InvalidInput):
        store.sql("SELECT * FROM stolen")
    assert snapshot(store) == before


def test_incremental_snapshot_equals_the_views_after_every_kind_of_change(
        fresh_store: MemoryStore) -> None:
    """The sandbox re-reads only the facts a change touched; after asserts, supersedes,
    corrections, masks, archives and purges, interleaved with queries, what sql() sees
    equals the views row for row."""
    store = fresh_store

    def same() -> None:
        ours = store.sql("SELECT * FROM fact_versions ORDER BY version_id").to_pylist()
        views = store.table("fact_versions").sort_by("version_id").to_pylist()
        assert ours == views

    first = store.assert_fact(T, "user:alex", "home.city", "Detroit")
    same()
    store.supersede(T, "user:alex", "home.city", "Chicago")
    store.assert_fact(T, "user:bea", "home.city", "Oslo")
    same()
    store.correct(first.fact_id or "", "Detroit, MI")
    store.mask(store.current(T, entity="user:bea")[0].fact_id)
    same()
    store.archive(store.current(T, entity="user:alex")[0].fact_id)
    store.assert_fact(T, "user:cy", "home.city", "Lima")
    same()
    store.purge(T, "user:bea")
    same()
    store.rebuild()
    same()
