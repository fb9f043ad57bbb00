"""Replicas are part of the erasure proof, and an embedded store has one writer (SPEC §13).

Every views replica registers itself; a purge's residue report has one entry per
replica and read model, ``complete`` only once every replica has applied the purge and
rewritten its files; a replica silent past the heartbeat timeout is ``unreachable``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import memory_es
from memory_es import ReadOnlyStore, StoreLocked, worker
from memory_es.services import erasure
from tests.contracts.conftest import PG_DSN, Backend
from tests.fakes import FakeClock

ROOT = Path(__file__).resolve().parents[2]
T = "acme"
MARKER = "zqm-replica-marker-4711"


def entries(report: memory_es.ErasureReport, replica_id: str) -> list[str]:
    return sorted({s.result for s in report.stores if s.name.endswith(f"@{replica_id}")})


def test_purge_is_pending_until_every_replica_has_applied_it(pg_backend: Backend,
                                                            clock: FakeClock) -> None:
    """With a second replica that has not caught up, the purge's report is not complete
    and names that replica pending; once it has caught up (and rewritten its files) the
    same receipt verifies complete, and its views file holds no byte of the content."""
    writer = pg_backend.open(clock, views_settings={"force_compression": "uncompressed"})
    reader_views = pg_backend.new_replica()
    reader = pg_backend.open(clock, views=reader_views,
                             views_settings={"force_compression": "uncompressed"})
    writer.assert_fact(T, "user:alex", "home.city", MARKER)
    writer.assert_fact(T, "user:bea", "home.city", "Oslo")
    assert [f.value for f in reader.current(T, entity="user:alex")] == [MARKER]
    receipt = writer.purge(T, "user:alex")
    assert receipt.report is not None and not receipt.report.complete
    reader_id = next(r.id for r in writer.replicas() if not r.this_process)
    assert entries(receipt.report, reader_id) == ["pending"]
    assert entries(receipt.report, writer.runtime.replica_id) == ["clean"]
    assert reader.current(T, entity="user:alex") == []  # its catch-up applies and compacts
    report = writer.verify_erasure(receipt)
    assert report.complete, [(s.name, s.result) for s in report.stores if s.result != "clean"]
    raw = b"".join(p.read_bytes() for p in reader_views.iterdir() if p.is_file())
    assert MARKER.encode() not in raw


def test_silent_replica_is_unreachable_never_clean(pg_backend: Backend, clock: FakeClock,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A replica whose heartbeat is older than the timeout is reported unreachable; after
    retire_replica it leaves the proof (and its local files are deleted)."""
    writer = pg_backend.open(clock)
    away_views = pg_backend.new_replica()
    away = pg_backend.open(clock, views=away_views)
    writer.assert_fact(T, "user:alex", "home.city", "Detroit")
    away.current(T)
    away_id = away.runtime.replica_id
    away.close()  # closing does not deregister: its files still hold what it applied
    monkeypatch.setattr(erasure, "REPLICA_TIMEOUT", 0.0)
    time.sleep(0.01)
    receipt = writer.purge(T, "user:alex")
    assert receipt.report is not None and not receipt.report.complete
    assert entries(receipt.report, away_id) == ["unreachable"]
    assert away_id in {r.id for r in writer.replicas()}
    writer.retire_replica(away_id)
    assert away_id not in {r.id for r in writer.replicas()}
    assert not [p.name for p in away_views.iterdir()
                if p.name.startswith(("views", "points", "recall"))]
    assert writer.verify_erasure(receipt).complete


def test_replica_reopened_after_a_purge_applies_it_before_anything_else(
        pg_backend: Backend, clock: FakeClock) -> None:
    """A replica closed before a purge applies it and rewrites its files on reopen."""
    writer = pg_backend.open(clock)
    views = pg_backend.new_replica()
    reader = pg_backend.open(clock, views=views,
                             views_settings={"force_compression": "uncompressed"})
    writer.assert_fact(T, "user:alex", "home.city", MARKER)
    reader.current(T)
    reader.close()
    receipt = writer.purge(T, "user:alex")
    assert receipt.report is not None and not receipt.report.complete
    again = pg_backend.open(clock, views=views)
    assert again.runtime.compacted >= receipt.position
    assert writer.verify_erasure(receipt).complete
    assert not any(MARKER.encode() in p.read_bytes() for p in views.iterdir() if p.is_file())


def test_worker_process_follows_the_log_and_completes_the_proof(pg_backend: Backend,
                                                                clock: FakeClock) -> None:
    """`memory-es worker` in its own process follows the writer, reports its lag, and
    rewrites its replica after a purge, so the purge verifies complete (bounded loop)."""
    writer = pg_backend.open(clock)
    writer.assert_fact(T, "user:alex", "home.city", MARKER)
    views = pg_backend.new_replica()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    worker = subprocess.Popen(
        [sys.executable, "-m", "memory_es.cli", "--json", "--dsn", PG_DSN, "--views",
         str(views), "--schema", str(pg_backend.schema), "--key-file",
         str(pg_backend.key_file), "worker", "--interval", "0.2", "--max-seconds", "150"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # A loaded machine (the suite on both cores) can take tens of seconds to start a
        # process; the purge must come after the worker registered, or the proof would
        # not cover its replica and the test would prove nothing about it.
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and len(writer.replicas()) < 2:
            time.sleep(0.1)
        assert len(writer.replicas()) == 2, "the worker did not register its replica"
        receipt = writer.purge(T, "user:alex")
        report = writer.verify_erasure(receipt)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not report.complete:
            time.sleep(0.2)
            report = writer.verify_erasure(receipt)
        assert report.complete, [(s.name, s.result) for s in report.stores]
        # The proof needs the purge applied; the lag asked below needs the receipt after
        # it applied too, which the worker may not have reached yet.
        head = writer.log_position()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not any(
                r.applied >= head for r in writer.replicas() if not r.this_process):
            time.sleep(0.2)
    finally:
        worker.terminate()
        out, err = worker.communicate(timeout=30)
    assert worker.returncode == 0, err[-2000:]
    states = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    assert states and states[-1]["lag"] == 0
    assert not any(MARKER.encode() in p.read_bytes() for p in views.iterdir() if p.is_file())


def test_second_writer_is_refused_and_readers_read_beside_it(tmp_path: Path,
                                                             clock: FakeClock) -> None:
    """A second writer of an embedded store gets StoreLocked naming the holder; a reader
    opened read_only sees the writer's writes, refuses its own, and is part of the proof."""
    folder = tmp_path / "m"
    writer = memory_es.open(folder, clock=clock)
    try:
        with pytest.raises(StoreLocked) as locked:
            memory_es.open(folder, clock=clock)
        assert str(os.getpid()) in str(locked.value)
        writer.assert_fact(T, "user:alex", "home.city", "Detroit")
        reader = memory_es.open(folder, clock=clock, read_only=True)
        try:
            assert [f.value for f in reader.current(T)] == ["Detroit"]
            with pytest.raises(ReadOnlyStore):
                reader.assert_fact(T, "user:bea", "home.city", "Oslo")
            writer.supersede(T, "user:alex", "home.city", "Chicago")
            assert [f.value for f in reader.current(T)] == ["Chicago"]
            receipt = writer.purge(T, "user:alex")
            assert receipt.report is not None and not receipt.report.complete
            reader.current(T)
            assert writer.verify_erasure(receipt).complete
        finally:
            reader.close()
    finally:
        writer.close()
    with memory_es.open(folder, clock=clock) as again:  # the lock went with its holder
        assert again.current(T) == []


def test_second_writer_in_another_process_gets_one_line(tmp_path: Path) -> None:
    """The CLI run by a second process prints StoreLocked in one line and exits 2."""
    folder = tmp_path / "m"
    with memory_es.open(folder) as writer:
        writer.assert_fact(T, "user:alex", "home.city", "Detroit")
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        done = subprocess.run([sys.executable, "-m", "memory_es.cli", "--store", str(folder),
                               "current", T], env=env, capture_output=True, text=True,
                              timeout=120, check=False)
    assert done.returncode == 2
    assert "StoreLocked" in done.stderr or "held by" in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_a_worker_stopped_before_its_first_round_still_reports_where_it_stands(
        pg_backend: Backend, clock: FakeClock) -> None:
    """A signal that stops the worker before any round (while its replica opened) still
    leaves one state line: where the replica stands against the log's head."""
    writer = pg_backend.open(clock)
    writer.assert_fact(T, "user:alex", "home.city", MARKER)
    replica = pg_backend.open(clock, views=pg_backend.new_replica())
    lines: list[dict[str, object]] = []
    worker.follow(replica, PG_DSN, interval=0.1, report=lines.append, stop=[True])
    assert len(lines) == 1
    assert lines[0]["lag"] == 0 and lines[0]["head"] == writer.log_position()
