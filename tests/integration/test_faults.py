"""Storage faults and crash leftovers (SPEC §14): typed errors, nothing half-written, and no
plaintext left behind in side files.

The faults are real: a child process runs under a file-size limit (``RLIMIT_FSIZE``, so
SQLite and DuckDB hit ``EFBIG`` as on a full disk), or is SIGKILLed in the middle of an
export; the parent then reopens the store and checks what is on disk.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import memory_es
from memory_es import InvalidInput, StorageUnavailable
from memory_es.ids import stream_of

ROOT = Path(__file__).resolve().parents[2]
T = "acme"

FULL_DISK = textwrap.dedent("""
    import json, resource, signal, sys
    import memory_es
    folder, limit = sys.argv[1], int(sys.argv[2])
    store = memory_es.open(folder)
    store.assert_fact("acme", "user:alex", "home.city", "Detroit")
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a full disk: writes fail with EFBIG
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    try:
        for i in range(100_000):
            store.assert_fact("acme", f"user:u{i}", "bio.text", "x" * 4000)
    except memory_es.MemoryESError as e:
        print(json.dumps({"error": type(e).__name__, "is_os_error": isinstance(e, OSError),
                          "message": str(e), "written": i}))
    except BaseException as e:
        print(json.dumps({"error": type(e).__name__, "message": str(e)[:200]}))
""")

KILLED_EXPORT = textwrap.dedent("""
    import os, signal, sys
    import memory_es
    import projections.views as views
    folder, target = sys.argv[1], sys.argv[2]
    store = memory_es.open(folder)
    store.assert_fact("acme", "user:alex", "home.city", "zqm-export-marker")

    real_replace = os.replace

    def die(src, dst):
        if str(dst) != target:  # the views' own snapshot files are renamed as usual
            return real_replace(src, dst)
        sys.stdout.flush()
        os.kill(os.getpid(), signal.SIGKILL)

    views.os.replace = die  # killed after the temporary file is written, before its rename
    store.export(target, "acme")
""")


def run(script: str, *args: object) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", script, *map(str, args)], env=env,
                          capture_output=True, text=True, timeout=240, check=False)


def test_full_disk_is_storage_unavailable_and_loses_nothing_committed(tmp_path: Path) -> None:
    """When the disk fills, the write raises StorageUnavailable (an OSError too), and every
    write that returned a receipt before it is still there after a reopen."""
    folder = tmp_path / "m"
    done = run(FULL_DISK, folder, 4 * 1024 * 1024)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["error"] == "StorageUnavailable", (result, done.stderr[-2000:])
    assert result["is_os_error"]
    assert "x" * 40 not in result["message"]
    with memory_es.open(folder) as store:
        assert store.audit_verify().ok
        assert len(store.current(T)) == result["written"] + 1


def test_export_into_an_unusable_folder_leaves_no_file(tmp_path: Path) -> None:
    """An export whose target folder cannot exist raises a typed error and writes nothing."""
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where a folder should be")
    with memory_es.open(tmp_path / "m") as store:
        store.assert_fact(T, "user:alex", "home.city", "Detroit")
        with pytest.raises(StorageUnavailable):
            store.export(blocker / "snap.parquet", T)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m", "not-a-folder"]


KILLED_AFTER_NEW_ENTITIES = textwrap.dedent("""
    import os, signal, sys
    import memory_es
    store = memory_es.open(sys.argv[1])
    for name in ("alex", "bo", "cy"):
        store.assert_fact("acme", f"user:{name}", "home.city", f"zqm-{name}")
    os.kill(os.getpid(), signal.SIGKILL)  # the held name rows are never written
""")


def test_new_entities_keep_their_names_after_a_kill(tmp_path: Path) -> None:
    """A new entity's write commits the log alone (its name row is held back): after a
    SIGKILL the next open binds each name again from the log, so the entity is found by
    name, a later write joins its stream, and a purge by name erases it."""
    folder = tmp_path / "m"
    killed = run(KILLED_AFTER_NEW_ENTITIES, folder)
    assert killed.returncode == -9, killed.stderr[-2000:]
    with memory_es.open(folder) as store:
        receipt = store.purge(T, "user:bo")  # before any write could bind a name
        assert receipt.report is not None and receipt.report.complete
        assert store.current(T, entity="user:bo") == []
        alex = store.current(T, entity="user:alex")
        assert [f.value for f in alex] == ["zqm-alex"]
        again = store.assert_fact(T, "user:alex", "work.city", "Lyon")
        assert stream_of(str(again.fact_id)) == stream_of(alex[0].fact_id)
        assert [f.value for f in store.current(T, entity="user:cy")] == ["zqm-cy"]


def test_export_killed_before_its_rename_is_cleaned_up_on_open(tmp_path: Path) -> None:
    """A SIGKILL mid-export leaves a temporary file of plaintext outside the store; the next
    open removes it (it was registered before it was written)."""
    folder, target = tmp_path / "m", tmp_path / "out" / "snap.parquet"
    killed = run(KILLED_EXPORT, folder, target)
    assert killed.returncode == -9, killed.stderr[-2000:]
    leftover = target.with_name(target.name + ".tmp")
    assert leftover.exists() and b"zqm-export-marker" in leftover.read_bytes()
    with memory_es.open(folder) as store:
        assert not leftover.exists()
        assert not target.exists()
        receipt = store.purge(T, "user:alex")
        assert receipt.report is not None and receipt.report.complete


def test_snapshot_side_files_are_removed_on_open_and_counted_until_then(tmp_path: Path) -> None:
    """Files of a views snapshot killed mid-way (no manifest names them) are removed when
    the store opens; while they exist, a purge's residue report names them and is not
    complete."""
    folder = tmp_path / "m"
    with memory_es.open(folder) as store:
        store.assert_fact(T, "user:alex", "home.city", "zqm-rebuild-marker")
    side = folder / "views" / "fv-000-99999999.arrow"
    side.parent.mkdir(exist_ok=True)
    side.write_bytes(b"zqm-rebuild-marker")
    with memory_es.open(folder) as store:
        assert not side.exists()
        side.write_bytes(b"zqm-rebuild-marker")  # as if left by this process's own crash
        report = store.purge(T, "user:alex").report
        assert report is not None and not report.complete
        leftovers = next(s for s in report.stores if s.name == "leftovers")
        assert leftovers.result == "residue" and str(side) in leftovers.residues


def test_values_beyond_the_limits_are_invalid_input(tmp_path: Path) -> None:
    """Huge integers, non-finite floats and over-long values are InvalidInput, not a driver
    error, and append nothing."""
    with memory_es.open(tmp_path / "m") as store:
        for value in (10**5000, 2**63, -(2**63), float("inf"), "x" * (64 * 1024 + 1)):
            with pytest.raises(InvalidInput):
                store.assert_fact(T, "user:alex", "n.v", value)
        assert store.log_position() == 0
        store.assert_fact(T, "user:alex", "n.v", 2**63 - 1)
        assert [f.value for f in store.current(T)] == [2**63 - 1]


def test_a_folder_that_cannot_be_a_folder_is_storage_unavailable(tmp_path: Path) -> None:
    """Opening a store where a file stands in the way raises StorageUnavailable."""
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(StorageUnavailable):
        memory_es.open(blocker / "m")


def test_a_failed_open_leaks_no_file_handle(tmp_path: Path) -> None:
    """Opening with the wrong master key, a hundred times, leaves this process with no more
    open files than before (every connection the failed open made is closed)."""
    folder = tmp_path / "m"
    with memory_es.open(folder) as store:
        store.assert_fact(T, "user:alex", "home.city", "Detroit")
    wrong = tmp_path / "wrong.key"
    wrong.write_text("22" * 32 + "\n")
    fds = Path("/proc/self/fd")
    before = len(list(fds.iterdir()))
    for _ in range(100):
        with pytest.raises(memory_es.MemoryESError):
            memory_es.open(folder, key_file=wrong)
    assert len(list(fds.iterdir())) <= before
    with memory_es.open(folder) as store:  # and the writer lock was released each time
        assert [f.value for f in store.current(T)] == ["Detroit"]
