"""Why the views are not a DuckDB file (issues 3 and 14): DELETE plus CHECKPOINT (or
VACUUM) leaves the deleted row's bytes, so a purge had to copy the whole database. The
views' snapshot is sharded by entity instead, and a purge writes one shard again. The
forensic purge test (every byte of every file the store owns, open and closed,
uncompressed) and the other purge tests run on SQLite and PostgreSQL in
``tests/contracts/test_erasure_contract.py``.
"""

from __future__ import annotations

import uuid
from pathlib import Path

import duckdb

import memory_es
from projections.schema import tenant_entity
from projections.snapshot import MANIFEST, SHARDS, SUFFIX, shard_of


def test_duckdb_delete_and_checkpoint_alone_leave_the_marker(tmp_path: Path) -> None:
    """Regression: in DuckDB a DELETE followed by CHECKPOINT, VACUUM and FORCE CHECKPOINT
    leaves the deleted row's bytes in the file (why the views keep no DuckDB file)."""
    path = tmp_path / "scratch.duckdb"
    m = f"zqm{uuid.uuid4().hex}"
    con = duckdb.connect(str(path))
    con.execute("SET force_compression = 'uncompressed'")
    con.execute("CREATE TABLE t (id INTEGER, v VARCHAR)")
    con.execute("INSERT INTO t SELECT i, 'filler-' || i FROM range(5000) r(i)")
    con.execute("INSERT INTO t VALUES (-1, ?)", [f"secret {m}"])
    con.execute("CHECKPOINT")
    assert m.encode() in path.read_bytes()  # the scan sees it while it is live
    con.execute("DELETE FROM t WHERE id = -1")
    for statement in ("CHECKPOINT", "VACUUM", "FORCE CHECKPOINT"):
        con.execute(statement)
    assert con.execute("SELECT count(*) FROM t WHERE v LIKE '%zqm%'").fetchone() == (0,)
    con.close()
    assert not Path(str(path) + ".wal").exists()
    assert m.encode() in path.read_bytes()  # deleted, checkpointed, closed: still on disk



def test_a_purge_writes_only_the_shard_that_held_the_entity(tmp_path: Path) -> None:
    """The purge's compaction writes the purged entity's shard again (and the small
    tables), never the other shards' files: its cost follows the entity, not the store."""
    folder = tmp_path / "m"
    entities = [f"user:u{i}" for i in range(300)]
    with memory_es.open(folder, views_settings={"force_compression": "uncompressed"}) as store:
        for entity in entities:
            store.assert_fact("acme", entity, "home.city", f"zqm-{entity}-city")
        store.current("acme", entity=entities[0])  # the views catch up; close writes them
    shards = {p.name for p in (folder / "views").glob(f"fv-*{SUFFIX}")}
    assert len(shards) > SHARDS // 2
    with memory_es.open(folder, views_settings={"force_compression": "uncompressed"}) as store:
        receipt = store.purge("acme", entities[7])
        assert receipt.report is not None and receipt.report.complete
    after = {p.name for p in (folder / "views").glob(f"fv-*{SUFFIX}")}
    shard = shard_of(tenant_entity("acme", entities[7]), "")
    gone = shards - after
    assert [name.split("-")[1] for name in gone] == [f"{shard:03d}"]
    assert len(after - shards) <= 1  # the shard's new file (none if it is now empty)
    files = [p for p in (folder / "views").iterdir() if p.name != MANIFEST]
    assert not [p for p in files if b"zqm-user:u7-city" in p.read_bytes()]
    assert [p for p in files if b"zqm-user:u8-city" in p.read_bytes()]


def test_a_purge_drops_the_purged_facts_ledger_rows_and_keeps_the_others(
        tmp_path: Path) -> None:
    """Served, judged and fed-back rows of a purged entity's facts leave the views' ledger
    tables with its versions; another entity's rows, served by the same recall, stay."""
    store = memory_es.open(str(tmp_path / "s"))
    store.assert_fact("t", "user:ann", "pet.name", "Ann has a cat called Miso")
    store.assert_fact("t", "user:bob", "pet.name", "Bob has a cat called Pixel")
    hits = store.recall("t", "cat called", k=5, receipt=True)
    served = {h.fact.entity: h.fact.fact_id for h in hits}
    assert set(served) == {"user:ann", "user:bob"}
    recall_id = hits[0].recall_id
    assert recall_id is not None
    store.judge("t", recall_id, helpful=list(served.values()))
    con = store.runtime.views.con

    def ledger(fact_id: str) -> list[tuple[str, int]]:
        store.catch_up()
        return [(table, con.execute(f"SELECT count(*) FROM {table} WHERE fact_id = ?",
                                    [fact_id]).fetchone()[0])  # type: ignore[index]
                for table in ("served", "judgements")]

    assert ledger(served["user:ann"]) == [("served", 1), ("judgements", 1)]
    store.purge("t", "user:ann")
    assert ledger(served["user:ann"]) == [("served", 0), ("judgements", 0)]
    assert ledger(served["user:bob"]) == [("served", 1), ("judgements", 1)]
    store.close()


def test_the_views_residue_check_finds_a_purged_facts_row_under_any_entity(
        tmp_path: Path) -> None:
    """The check looks rows up by fact id (an index), not through the entity the purge
    named: a row filed under another entity, by a projection bug say, is still residue."""
    with memory_es.open(tmp_path / "s") as store:
        fid = store.assert_fact("acme", "user:ann", "home.city", "Oslo").fact_id
        assert fid is not None
        store.assert_fact("acme", "user:bob", "home.city", "Rome")
        store.catch_up()
        views = store.runtime.views
        assert views.versions_residue([fid], 0).residues == [fid]
        views.con.execute("UPDATE fact_versions SET tenant_entity = ?, entity = 'user:bob' "
                          "WHERE fact_id = ?", [tenant_entity("acme", "user:bob"), fid])
        check = views.versions_residue([fid], 0)
        assert check.result == "residue" and check.residues == [fid]
        assert views.versions_residue(["f-none"], 0).residues == []
