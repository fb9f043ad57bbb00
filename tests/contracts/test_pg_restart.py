"""PostgreSQL restarted under load: writers and a worker ride it out (SPEC §13).

The server is a private cluster (:mod:`tests.pgcluster`), so the restarts cannot
disturb the tests running beside this one. Two writer processes append while a worker
follows the log; the parent restarts the server a bounded number of times. A writer
whose write fails with ``StorageUnavailable`` resends it with the same idempotency key,
as a client should. Afterwards every write is in the log exactly once, and the worker,
which never stopped, has converged to what a replay of the log gives.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import memory_es
from tests.contracts.conftest import REQUIRE_PG
from tests.pgcluster import Cluster, binaries, private_cluster

ROOT = Path(__file__).resolve().parents[2]
WRITES = 30  # per writer
RESTARTS = 2

WRITER = textwrap.dedent("""
    import sys, time
    import memory_es
    from memory_es.errors import StorageUnavailable
    dsn, key_file, views, wid = sys.argv[1:5]
    store = None
    i = 0
    for _ in range(2000):  # bounded: a restart costs a few failed attempts
        if i == int(sys.argv[5]):
            break
        try:
            if store is None:
                store = memory_es.open(dsn=dsn, key_file=key_file, views=views)
            store.assert_fact("acme", f"user:shared{i % 3}", f"w{wid}.n{i}", i,
                              idempotency_key=f"w{wid}-{i}")
        except (StorageUnavailable, memory_es.MemoryESError) as e:
            if store is None or isinstance(e, StorageUnavailable):
                print("retry", type(e).__name__, file=sys.stderr, flush=True)
                time.sleep(0.1)
                continue
            raise
        print(i, flush=True)
        i += 1
        time.sleep(0.02)
    store.close()
""")


@pytest.fixture
def cluster() -> Iterator[Cluster]:
    found = binaries()
    if found is None:
        message = "PostgreSQL's server binaries (initdb, pg_ctl) are not installed"
        if REQUIRE_PG:
            pytest.fail(message + "; MEMORY_ES_REQUIRE_PG=1 makes this a failure")
        pytest.skip(message)
    with private_cluster(found) as running:
        yield running


def _reports(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()
            if line.startswith("{")]


@pytest.mark.slow
def test_writers_and_worker_survive_server_restarts(cluster: Cluster, tmp_path: Path) -> None:
    key_file = tmp_path / "master.key"
    key_file.write_text(os.urandom(32).hex() + "\n")
    memory_es.open(dsn=cluster.dsn, key_file=key_file, views=tmp_path / "setup").close()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    worker_out = tmp_path / "worker.out"
    worker_views = tmp_path / "worker"
    with worker_out.open("w") as out, (tmp_path / "worker.log").open("w") as log:
        worker = subprocess.Popen(
            [sys.executable, "-m", "memory_es.cli", "--dsn", cluster.dsn, "--views",
             str(worker_views), "--key-file", str(key_file), "worker", "--interval", "0.1",
             "--max-seconds", "150", "--json"], env=env, stdout=out, stderr=log)
    started = time.monotonic() + 60  # on a loaded machine the worker takes a while to start
    while time.monotonic() < started and not _reports(worker_out) and worker.poll() is None:
        time.sleep(0.1)  # restarts before its first poll would test nothing of the worker
    writers = [subprocess.Popen(
        [sys.executable, "-c", WRITER, cluster.dsn, str(key_file), str(tmp_path / f"w{w}"),
         str(w), str(WRITES)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True) for w in range(2)]
    try:
        for _ in range(RESTARTS):
            time.sleep(1.5)
            cluster.restart()
        outcomes = [w.communicate(timeout=180) for w in writers]
        for proc, (acks, err) in zip(writers, outcomes, strict=True):
            assert proc.returncode == 0, err[-3000:]
            assert [int(a) for a in acks.split()] == list(range(WRITES))
        with memory_es.open(dsn=cluster.dsn, key_file=key_file,
                            views=tmp_path / "check") as check:
            head = check.log_position()
            written = sorted((f.attribute, f.value) for f in check.current("acme"))
            assert written == sorted((f"w{w}.n{i}", i) for w in range(2)
                                     for i in range(WRITES))  # none lost, none doubled
            assert check.audit_verify().ok
            replayed = check.replay(known_at=check.now()).num_rows
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not any(
                int(str(r.get("applied", 0))) >= head for r in _reports(worker_out)):
            time.sleep(0.2)
        assert worker.poll() is None, (tmp_path / "worker.log").read_text()[-3000:]
    finally:
        everyone: list[subprocess.Popen[Any]] = [*writers, worker]
        for running in everyone:
            if running.poll() is None:
                running.terminate()
        worker.wait(timeout=60)
    assert worker.returncode == 0, (tmp_path / "worker.log").read_text()[-3000:]
    assert any("error" in r for r in _reports(worker_out)), "the restarts were not noticed"
    replica = memory_es.open(dsn=cluster.dsn, key_file=key_file, views=worker_views,
                             read_only=True)
    try:
        assert replica.table("fact_versions").num_rows == replayed
        assert replica.sql("SELECT count(*) AS n FROM facts_current").to_pylist()[0]["n"] \
            == 2 * WRITES
    finally:
        replica.close()


@pytest.mark.slow
def test_a_worker_started_while_the_server_is_down_waits_for_it(cluster: Cluster,
                                                              tmp_path: Path) -> None:
    """A worker cannot open its replica while the server is down: it reports the outage
    and waits, then follows the log once the server is back."""
    key_file = tmp_path / "master.key"
    key_file.write_text(os.urandom(32).hex() + "\n")
    with memory_es.open(dsn=cluster.dsn, key_file=key_file, views=tmp_path / "w") as store:
        store.assert_fact("acme", "user:a", "home.city", "Oslo")
        head = store.log_position()
    cluster.halt()
    out = tmp_path / "worker.out"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with out.open("w") as sink, (tmp_path / "worker.log").open("w") as log:
        worker = subprocess.Popen(
            [sys.executable, "-m", "memory_es.cli", "--dsn", cluster.dsn, "--views",
             str(tmp_path / "replica"), "--key-file", str(key_file), "worker", "--interval",
             "0.2", "--max-seconds", "60", "--json"], env=env, stdout=sink, stderr=log)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not any("error" in r for r in _reports(out)):
            assert worker.poll() is None, (tmp_path / "worker.log").read_text()[-3000:]
            time.sleep(0.2)
        cluster.start()
        while time.monotonic() < deadline and not any(
                int(str(r.get("applied", 0))) >= head for r in _reports(out)):
            assert worker.poll() is None, (tmp_path / "worker.log").read_text()[-3000:]
            time.sleep(0.2)
        assert any(int(str(r.get("applied", 0))) >= head for r in _reports(out))
    finally:
        worker.terminate()
        worker.wait(timeout=60)
    assert worker.returncode == 0, (tmp_path / "worker.log").read_text()[-3000:]
