"""Many writers and a projection worker on one PostgreSQL log, killed at random (SPEC §13).

Bounded loops on loopback: three writer processes append to overlapping entities while a
worker follows the log; the parent SIGKILLs writers and the worker at random points and
restarts them. Each writer resends its last unacknowledged write with the same
idempotency key. At the end nothing acknowledged is lost, nothing is doubled, and the
worker's replica equals what a replay of the log gives.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import memory_es
from tests.contracts.conftest import PG_DSN, Backend

ROOT = Path(__file__).resolve().parents[2]
T = "acme"
WRITES = 40  # per writer
MAX_KILLS = 6

WRITER = textwrap.dedent("""
    import sys
    import memory_es
    dsn, schema, key_file, views, wid, start, count = sys.argv[1:8]
    store = memory_es.open(dsn=dsn, schema=schema, key_file=key_file, views=views)
    for i in range(int(start), int(count)):
        entity = f"user:shared{i % 3}"  # every writer writes the same three streams
        store.assert_fact("acme", entity, f"w{wid}.n{i}", i,
                          idempotency_key=f"w{wid}-{i}")
        print(i, flush=True)
    store.close()
""")


def spawn(script: str, *args: object) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-c", script, *map(str, args)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def acknowledged(proc: subprocess.Popen[str]) -> tuple[list[int], str]:
    out, err = proc.communicate(timeout=120)
    return [int(line) for line in out.split()], err


@pytest.mark.slow
def test_writers_and_worker_survive_sigkill(pg_backend: Backend) -> None:
    """SIGKILLs of writers and of the worker lose and double nothing: every acknowledged
    write is in the log exactly once, and the worker's replica converges to the replay."""
    rng = random.Random(4)
    setup = pg_backend.open()  # creates the schema and key store once, then steps aside
    setup.close()
    args = (PG_DSN, pg_backend.schema, pg_backend.key_file)
    worker_views = pg_backend.new_replica()
    worker_cmd = [sys.executable, "-m", "memory_es.cli", "--dsn", PG_DSN, "--views",
                  str(worker_views), "--schema", str(pg_backend.schema), "--key-file",
                  str(pg_backend.key_file), "worker", "--interval", "0.1",
                  "--max-seconds", "90"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    worker_log = (pg_backend.root / "worker.log").open("a")
    worker_out = pg_backend.root / "worker.out"

    def start_worker() -> subprocess.Popen[bytes]:
        worker_out.write_text("")  # only this instance's reports count
        with worker_out.open("a") as out:  # the child keeps its own copy of the descriptor
            return subprocess.Popen([*worker_cmd, "--json"], env=env, stdout=out,
                                    stderr=worker_log)

    worker = start_worker()
    done = dict.fromkeys(range(3), 0)
    kills = 0
    deadline = time.monotonic() + 240
    try:
        while any(n < WRITES for n in done.values()) and time.monotonic() < deadline:
            procs = {wid: spawn(WRITER, *args, pg_backend.root / f"w{wid}", wid, n, WRITES)
                     for wid, n in done.items() if n < WRITES}
            time.sleep(rng.uniform(0.5, 2.0))
            if kills < MAX_KILLS:  # bounded: then the survivors finish their writes
                kills += 1
                procs[rng.choice(sorted(procs))].send_signal(signal.SIGKILL)
                if rng.random() < 0.5:
                    worker.send_signal(signal.SIGKILL)
                    worker.wait(timeout=30)
                    worker = start_worker()
            results = {wid: acknowledged(proc) for wid, proc in procs.items()}
            for wid, (acks, err) in results.items():
                if procs[wid].returncode not in (0, -signal.SIGKILL):
                    raise AssertionError(err[-3000:])
                if acks:
                    done[wid] = max(done[wid], acks[-1] + 1)
        assert all(n == WRITES for n in done.values()), done
        with memory_es.open(dsn=PG_DSN, schema=pg_backend.schema,
                            key_file=pg_backend.key_file, views=pg_backend.root / "watch") as w:
            head = w.log_position()
        # the running worker converges: it reports having applied the head
        while time.monotonic() < deadline and not any(
                json.loads(line).get("applied", 0) >= head
                for line in worker_out.read_text().splitlines() if line.startswith("{")):
            time.sleep(0.2)
    finally:
        worker.send_signal(signal.SIGTERM)
        worker.wait(timeout=60)
        worker_log.close()
    assert worker.returncode == 0, (pg_backend.root / "worker.log").read_text()[-3000:]
    with memory_es.open(dsn=PG_DSN, schema=pg_backend.schema, key_file=pg_backend.key_file,
                        views=pg_backend.root / "check") as check:
        facts = check.current(T)
        written = sorted((f.attribute, f.value) for f in facts)
        expected = sorted((f"w{wid}.n{i}", i) for wid in range(3) for i in range(WRITES))
        assert written == expected  # none lost, none doubled
        assert check.audit_verify().ok
        replayed = check.replay(known_at=check.now()).num_rows
    replica = memory_es.open(dsn=PG_DSN, schema=pg_backend.schema,
                             key_file=pg_backend.key_file, views=worker_views, read_only=True)
    try:
        rows = replica.sql("SELECT count(*) AS n FROM facts_current").to_pylist()[0]["n"]
        assert rows == len(expected)
        assert replica.table("fact_versions").num_rows == replayed
    finally:
        replica.close()
