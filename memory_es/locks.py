"""One writer per embedded store: an advisory lock on a file in the store's folder.

SQLite would let two processes append (it serialises them), but the DuckDB views file
and the recall index can be open in one process only, and two writers' caches would
disagree. So the first process that opens a folder for writing holds ``writer.lock``
(``flock``, released by the kernel when the process dies, even by SIGKILL); a second gets
:class:`~memory_es.errors.StoreLocked` naming the holder. Readers (``read_only=True``)
take no writer lock: each holds one replica slot of its own instead.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import socket
import time
from datetime import UTC, datetime
from pathlib import Path

from memory_es.errors import StoreLocked


class FolderLock:
    """An exclusive lock on ``path`` for the life of this object (until :meth:`release`)."""

    def __init__(self, path: Path, what: str) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(fd)
            os.close(fd)
            raise StoreLocked(f"{what} is held by {holder}; open it with read_only=True to "
                              "read beside it, or stop that process") from None
        os.ftruncate(fd, 0)
        os.write(fd, json.dumps({"pid": os.getpid(), "host": socket.gethostname(),
                                 "since": datetime.now(UTC).isoformat(timespec="seconds")},
                                sort_keys=True).encode())
        os.fsync(fd)
        self._fd: int | None = fd

    def release(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None


def _holder(fd: int) -> str:
    """Who holds the lock, as the holder wrote it (pid, host, since)."""
    for _ in range(20):  # the holder writes its record right after locking
        try:
            data = json.loads(os.pread(fd, 4096, 0).decode() or "{}")
        except (OSError, ValueError):
            data = {}
        if data:
            return (f"process {data.get('pid')} on {data.get('host')} "
                    f"since {data.get('since')}")
        time.sleep(0.01)
    return "another process"


def first_free_slot(folder: Path, prefix: str, what: str) -> tuple[Path, FolderLock]:
    """The first ``<folder>/<prefix>-N`` whose lock this process can take (a reader's own
    replica; the same slot is reused across runs, so its views only catch up)."""
    for n in range(64):
        slot = folder / f"{prefix}-{n}"
        try:
            return slot, FolderLock(slot / "slot.lock", f"{what} slot {n}")
        except StoreLocked:
            continue
    raise StoreLocked(f"all 64 {what} slots in {folder} are held by other processes")
