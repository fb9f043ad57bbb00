"""A projection killed with SIGKILL in the middle of a batch neither loses nor doubles events.

One subprocess writes a few thousand events and exits without projecting them. A
second one opens the store with small catch-up batches and a projector that kills
its own process with SIGKILL inside the DuckDB transaction of its N-th batch. The
store reopened afterwards must equal a full rebuild, with the tracking position at
the log's head and every version row present exactly once.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import memory_es
from tests.conftest import StoreFactory

ROOT = Path(__file__).resolve().parents[2]

WRITER = textwrap.dedent("""
    import datetime as dt, sys
    import memory_es

    start = dt.datetime(2025, 1, 1, tzinfo=dt.UTC)
    day = lambda n: start + dt.timedelta(days=n)
    now = [dt.datetime(2025, 6, 1, tzinfo=dt.UTC)]
    store = memory_es.open(sys.argv[1], clock=lambda: now[0])
    facts, forgotten = [], set()
    for round_ in range(24):
        now[0] += dt.timedelta(minutes=5)
        with store.transact() as tx:
            for j in range(40):
                entity = f"user:u{(round_ * 7 + j) % 60}"
                r = tx.supersede("acme", entity, "home.city", f"city-{round_}-{j}",
                                 valid_from=day(round_ + j % 5))
                facts.append((r.fact_id, entity))
        with store.transact() as tx:
            for k in range(0, len(facts), 37):  # old facts too: they live in earlier batches
                if facts[k][1] not in forgotten:
                    tx.correct(facts[k][0], f"corrected-{round_}-{k}")
            tx.retract("acme", f"user:u{round_ % 60}", "home.city",
                       valid_from=day(round_ + 1), valid_until=day(round_ + 2))
        if round_ % 6 == 5:
            store.forget_entity("acme", f"user:u{round_}")
            forgotten.add(f"user:u{round_}")
        premise = store.assert_fact("acme", f"user:p{round_}", "home.region", "north",
                                    valid_from=day(0))
        store.assert_fact("acme", f"user:d{round_}", "home.country", "NO",
                          derived_from=[premise.fact_id], valid_from=day(0))
        store.supersede("acme", f"user:p{round_}", "home.region", "south", valid_from=day(3))
    print(store.log_position())
    store.close()
""")

KILLER = textwrap.dedent("""
    import os, signal, sys
    import memory_es
    import projections.views
    import projections.catchup
    from projections.versions import VersionProjector

    folder, where = sys.argv[1], sys.argv[4]
    batch_size, kill_in = int(sys.argv[2]), int(sys.argv[3])

    class SmallBatches(projections.catchup.Catchup):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.batch = batch_size

    projections.views.Catchup = SmallBatches

    def die():
        sys.stdout.flush()
        os.kill(os.getpid(), signal.SIGKILL)

    class Doomed:
        # Wraps the DuckDB connection during one batch: SIGKILL mid-transaction.
        def __init__(self, con):
            self._con = con
        def __getattr__(self, name):
            return getattr(self._con, name)
        def execute(self, query, *args, **kwargs):
            statement = " ".join(str(query).split()).upper()
            if where == "before-commit" and statement == "COMMIT":
                die()
            result = self._con.execute(query, *args, **kwargs)
            if where == "after-insert" and statement.startswith("INSERT INTO FACT_VERSIONS"):
                die()
            return result
        def commit(self):
            die()

    calls = [0]
    original = VersionProjector.apply

    def apply(self, batch, position, *since):
        calls[0] += 1
        if calls[0] == kill_in:
            self.con = Doomed(self.con)
        return original(self, batch, position, *since)

    VersionProjector.apply = apply
    memory_es.open(folder)
    print("survived", calls[0])
""")


def run(script: str, *args: object) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", script, *map(str, args)], env=env,
                          capture_output=True, text=True, timeout=240, check=False)


def tracked_position(folder: Path) -> int:
    """Where the point-read store stands: it commits with every batch, while the views'
    snapshot is written only at close, compaction or every PERSIST_EVERY events, so a
    kill leaves the views to replay and the row store ahead of them."""
    con = sqlite3.connect(folder / "points.sqlite")
    try:
        rows = con.execute("SELECT position FROM tracking").fetchall()
    finally:
        con.close()
    return int(rows[0][0]) if rows else 0


def snapshot_position(folder: Path) -> int:
    manifest = folder / "views" / "manifest.json"
    return int(json.loads(manifest.read_text())["position"]) if manifest.exists() else 0


@pytest.fixture(scope="module")
def written_log(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    """A store folder whose log holds a few thousand events the views never saw."""
    folder = tmp_path_factory.mktemp("crash") / "store"
    done = run(WRITER, folder)
    assert done.returncode == 0, done.stderr
    head = int(done.stdout.split()[-1])
    assert head > 1000
    return folder, head


@pytest.mark.parametrize(("kill_in", "where"), [
    (7, "after-insert"),
    (4, "before-commit"),
    pytest.param(1, "after-insert", marks=pytest.mark.slow),
    pytest.param(11, "before-commit", marks=pytest.mark.slow),
])
def test_projection_killed_mid_batch_resumes_to_a_full_rebuild(
    written_log: tuple[Path, int], tmp_path: Path, store_factory: StoreFactory,
    kill_in: int, where: str,
) -> None:
    """After SIGKILL inside batch N, the reopened store equals a rebuild: nothing lost or
    applied twice."""
    source, head = written_log
    folder = tmp_path / "copy"
    folder.mkdir()
    for f in source.iterdir():  # each case starts from the same unprojected log
        if f.is_file():  # views/ and recall/: derived
            (folder / f.name).write_bytes(f.read_bytes())
    batch = 53
    killed = run(KILLER, folder, batch, kill_in, where)
    assert killed.returncode == -signal.SIGKILL, (killed.returncode, killed.stdout, killed.stderr)
    assert tracked_position(folder) == (kill_in - 1) * batch < head  # died mid catch-up
    assert snapshot_position(folder) == 0  # the views' progress died with the process

    store = store_factory(folder, clock=None)
    assert store.projection_position() == store.log_position() == head
    resumed = sorted(store.table("fact_versions").to_pylist(), key=lambda r: r["version_id"])
    ids = [r["version_id"] for r in resumed]
    assert len(ids) == len(set(ids)), "a version was applied twice"
    assert store.rebuild() == head
    rebuilt = sorted(store.table("fact_versions").to_pylist(), key=lambda r: r["version_id"])
    assert resumed == rebuilt
    positions = {r["position"] for r in resumed}
    assert max(positions) <= head
    assert len(positions) > 300


def test_subprocess_harness_survives_without_a_kill(
    written_log: tuple[Path, int], tmp_path: Path,
) -> None:
    """The killer script only dies when told to: with no kill it projects everything."""
    source, head = written_log
    folder = tmp_path / "copy"
    folder.mkdir()
    for f in source.iterdir():
        if f.is_file():  # views/ and recall/: derived
            (folder / f.name).write_bytes(f.read_bytes())
    survived = run(KILLER, folder, 500, 10**6, "before-commit")
    assert survived.returncode == 0, survived.stderr
    assert survived.stdout.split()[0] == "survived"
    assert tracked_position(folder) == head
    with memory_es.open(folder) as store:
        assert store.projection_position() == head
