"""The event log and key store on SQLite (embedded default) or PostgreSQL.

Both come from ``eventsourcing``'s persistence modules; this module only chooses one,
pins the application name (every setting is looked up with it as prefix), and adds
the few statements the library has no call for (a position lookup, compaction).
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path
from typing import Any

from eventsourcing.persistence import ApplicationRecorder, InfrastructureFactory
from eventsourcing.utils import Environment

from memory_es.crypto.keystore import KeyStore, PostgresKeyBackend, SqliteKeyBackend
from memory_es.crypto.master import MasterKey
from memory_es.errors import InvalidInput

APP_NAME = "memory_es"


class EventLog:
    """An ``eventsourcing`` application recorder plus the key store beside it."""

    kind: str
    recorder: ApplicationRecorder
    keys: KeyStore

    def position_of(self, stream_id: str, version: int) -> int | None:
        raise NotImplementedError

    def files(self) -> list[Path]:
        """Files this log owns on local disk (for forensic scans)."""
        return []

    def compact(self) -> None:
        """Make deleted bytes unrecoverable from the log's own files."""

    def close(self) -> None:
        self.keys.close()
        with contextlib.suppress(Exception):
            self._factory.close()

    _factory: Any


class SqliteEventLog(EventLog):
    kind = "sqlite"

    def __init__(self, root: Path, master: MasterKey) -> None:
        self.path = root / "events.db"
        env = Environment(APP_NAME, {
            "PERSISTENCE_MODULE": "eventsourcing.sqlite",
            "SQLITE_DBNAME": str(self.path),
            "ORIGINATOR_ID_TYPE": "text",
        })
        self._factory = InfrastructureFactory.construct(env)
        self.recorder = self._factory.application_recorder()
        self.keys = KeyStore(SqliteKeyBackend(root / "keys.db"), master)
        with self._raw() as conn:
            conn.execute("PRAGMA secure_delete=ON")

    def _raw(self) -> sqlite3.Connection:
        return sqlite3.connect(self.path, timeout=30)

    def position_of(self, stream_id: str, version: int) -> int | None:
        with self.recorder.datastore.transaction(commit=False) as c:  # type: ignore[attr-defined]
            c.execute("SELECT rowid FROM stored_events WHERE originator_id=? AND "
                      "originator_version=?", (stream_id, version))
            row = c.fetchone()
        return None if row is None else int(row[0])

    def files(self) -> list[Path]:
        folder = self.path.parent
        return [p for p in folder.iterdir() if p.name.startswith(("events.db", "keys.db"))]

    def compact(self) -> None:
        conn = self._raw()
        try:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            conn.close()
        self.keys.backend.compact()


class PostgresEventLog(EventLog):
    kind = "postgres"

    def __init__(self, dsn: str, master: MasterKey, schema: str | None = None) -> None:
        import psycopg  # noqa: PLC0415
        from psycopg.conninfo import conninfo_to_dict  # noqa: PLC0415

        try:
            info = conninfo_to_dict(dsn)
        except psycopg.ProgrammingError as e:
            raise InvalidInput("dsn is not a valid PostgreSQL connection string") from e
        options = str(info.pop("options", "") or "")
        self.schema = schema or "public"
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute(f'CREATE SCHEMA IF NOT EXISTS "{self.schema}"')
        env = Environment(APP_NAME, {
            "PERSISTENCE_MODULE": "eventsourcing.postgres",
            "POSTGRES_DBNAME": str(info.get("dbname", "postgres")),
            "POSTGRES_HOST": str(info.get("host", "127.0.0.1")),
            "POSTGRES_PORT": str(info.get("port", "5432")),
            "POSTGRES_USER": str(info.get("user", "postgres")),
            "POSTGRES_PASSWORD": str(info.get("password", "")),
            "POSTGRES_SCHEMA": self.schema,
            "ORIGINATOR_ID_TYPE": "text",
        })
        del options
        self._factory = InfrastructureFactory.construct(env)
        self.recorder = self._factory.application_recorder()
        self.keys = KeyStore(PostgresKeyBackend(dsn, self.schema), master)

    def position_of(self, stream_id: str, version: int) -> int | None:
        with self.recorder.datastore.transaction(commit=False) as c:  # type: ignore[attr-defined]
            c.execute(
                f'SELECT notification_id FROM "{self.schema}".{APP_NAME}_events '
                "WHERE originator_id=%s AND originator_version=%s", (stream_id, version))
            row = c.fetchone()
        return None if row is None else int(row["notification_id"])

    def compact(self) -> None:
        self.keys.backend.compact()
