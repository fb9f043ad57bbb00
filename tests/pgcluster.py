"""A private PostgreSQL server for fault tests that restart it.

Restarting the shared server at 127.0.0.1:5432 would break every other test running
beside the fault test (pytest-xdist runs them at once), so a test that restarts
PostgreSQL starts its own throw-away cluster from the installed binaries, on a free
loopback port, and stops it when done. PostgreSQL refuses to run as root, so under root
(CI) the server runs as the ``postgres`` system user.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path


def binaries() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl``, or None when PostgreSQL is absent."""
    pg_config = shutil.which("pg_config")
    if pg_config:
        found = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True,
                               check=False).stdout.strip()
        if found and (Path(found) / "initdb").exists():
            return Path(found)
    for candidate in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if (Path(candidate) / "initdb").exists():
            return Path(candidate)
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Cluster:
    """One initdb'd data folder and the server running on it."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.root = Path(tempfile.mkdtemp(prefix="memory-es-pg-"))
        self.root.chmod(0o755)
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self.port = _free_port()
        self._user = "postgres" if os.geteuid() == 0 else None
        if self._user is not None:
            entry = pwd.getpwnam(self._user)
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
        self._run("initdb", "-A", "trust", "-U", "postgres", "-D", str(self.data))

    @property
    def dsn(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres?connect_timeout=5"

    def _run(self, tool: str, *args: str) -> None:
        command = [str(self.bindir / tool), *args]
        if self._user is not None:
            command = ["runuser", "-u", self._user, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120,
                              check=False)
        if done.returncode != 0:
            log = self.log.read_text()[-2000:] if self.log.exists() else ""
            raise RuntimeError(f"{tool} {' '.join(args)} failed: {done.stderr[-2000:]}\n{log}")

    def _ctl(self, action: str, *extra: str) -> None:
        options = (f"-c listen_addresses=127.0.0.1 -p {self.port} "
                   f"-c unix_socket_directories={self.root}")
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w",
                  "-t", "60", *extra, action)

    def start(self) -> None:
        self._ctl("start")

    def restart(self) -> None:
        """A fast restart: every open session is terminated, as in a failover."""
        self._ctl("restart", "-m", "fast")

    def halt(self) -> None:
        """Stop the server, keeping its data (``start`` brings it back)."""
        self._ctl("stop", "-m", "fast")

    def stop(self) -> None:
        with contextlib.suppress(RuntimeError):
            self._ctl("stop", "-m", "immediate")
        shutil.rmtree(self.root, ignore_errors=True)


@contextlib.contextmanager
def private_cluster(bindir: Path) -> Iterator[Cluster]:
    cluster = Cluster(bindir)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()
