"""The event log and key store on SQLite (embedded default) or PostgreSQL.

Both come from ``eventsourcing``'s persistence modules; this module only chooses one,
pins the application name (every setting is looked up with it as prefix), and adds
the few statements the library has no call for (a position lookup, compaction).
"""

from __future__ import annotations

import contextlib
import re
import sqlite3
import threading
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from eventsourcing.persistence import (
    ApplicationRecorder,
    DatabaseError,
    DataError,
    InfrastructureFactory,
    IntegrityError,
    InterfaceError,
    InternalError,
    NotSupportedError,
    OperationalError,
    PersistenceError,
    ProgrammingError,
    StoredEvent,
)
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteDatastore
from eventsourcing.utils import Environment

from memory_es.crypto.keystore import (
    KeyStore,
    PostgresKeyBackend,
    SqlBackend,
    SqliteKeyBackend,
)
from memory_es.crypto.master import MasterKey
from memory_es.errors import InvalidInput, MemoryESError, StorageUnavailable
from memory_es.faults import storage_fault

APP_NAME = "memory_es"
APPEND_CHUNK = 2_000
"""Events per multi-row INSERT on SQLite (4 parameters each, below the 32,766 that SQLite
builds since 3.32 allow). A unit that fits in one statement is appended by that statement
alone, in autocommit: a statement is atomic and, on this connection, as durable as a
``BEGIN IMMEDIATE`` ... ``COMMIT`` around it (one fsync of the WAL), without the two
statements' round trips (≈ 8 % of a single write's CPU on a RAM disk)."""


class EventLog:
    """An ``eventsourcing`` application recorder plus the key store beside it."""

    kind: str
    recorder: ApplicationRecorder
    keys: KeyStore

    def append(self, stored: Sequence[StoredEvent]) -> list[int]:
        """Insert ``stored`` in one transaction; their log positions, in order. A stream
        version already taken fails the whole call with the library's ``IntegrityError``."""
        return list(self.recorder.insert_events(stored) or [])

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


def _key_store(backend: Callable[[], SqlBackend], master: MasterKey) -> KeyStore:
    """A key store on a new backend connection, closed again if the store refuses to open
    (a wrong master key, say)."""
    opened = backend()
    try:
        return KeyStore(opened, master)
    except BaseException:
        opened.close()
        raise


class SqliteRecorder(SQLiteApplicationRecorder):
    """The library's recorder, reading the log's head on a connection of its own. Every
    read asks for the head first (read-your-writes, other processes' writes included);
    the library's pooled transaction around that one SELECT cost ≈ 20 µs of a ≈ 200 µs
    one-entity read, the statement alone ≈ 3 µs. The connection only reads, outside any
    transaction, so each call sees every commit made before it."""

    def __init__(self, datastore: SQLiteDatastore, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)
        self._probe: sqlite3.Connection | None = None
        self._probe_lock = threading.Lock()

    def max_notification_id(self) -> int:
        with self._probe_lock:
            if self._probe is None:
                self._probe = sqlite3.connect(self.datastore.pool.db_name, timeout=30,
                                              check_same_thread=False)
            row = self._probe.execute(self.select_max_notification_id_statement).fetchone()
        return int(row[0] or 0)

    def select_rows(self, start: int, limit: int, stop: int) -> list[tuple[Any, ...]]:
        """:meth:`select_notifications` from ``start`` to ``stop`` as the table's rows,
        (position, stream id, version, topic, state), without the library's object per
        row (a third of reading a rebuild's rows; for
        :meth:`memory_es.crypto.mapper.SealingMapper.open_rows`). Plain tuples, not the
        pool's ``sqlite3.Row``s (≈ 0.15 µs a row less to make and to unpack)."""
        with self.datastore.transaction(commit=False) as c:
            c.sqlite_cursor.row_factory = None
            c.execute(f"SELECT rowid, originator_id, originator_version, topic, state FROM "
                      f"{self.events_table_name} WHERE rowid>=? AND rowid<=? ORDER BY rowid "
                      "LIMIT ?", [start, stop, limit])
            rows: list[tuple[Any, ...]] = c.fetchall()
        return rows

    def close_probe(self) -> None:
        with self._probe_lock:
            if self._probe is not None:
                self._probe.close()
                self._probe = None


class SqliteEventLog(EventLog):
    kind = "sqlite"
    recorder: SqliteRecorder

    def __init__(self, root: Path, master: MasterKey) -> None:
        self.path = root / "events.db"
        env = Environment(APP_NAME, {
            "PERSISTENCE_MODULE": "eventsourcing.sqlite",
            "SQLITE_DBNAME": str(self.path),
            "ORIGINATOR_ID_TYPE": "text",
            "APPLICATION_RECORDER_TOPIC": f"{__name__}:{SqliteRecorder.__qualname__}",
        })
        self._factory = InfrastructureFactory.construct(env)
        self.recorder = self._factory.application_recorder()
        try:
            self.keys = _key_store(lambda: SqliteKeyBackend(root / "keys.db"), master)
        except BaseException:
            self._factory.close()
            raise
        with self._raw() as conn:
            conn.execute("PRAGMA secure_delete=ON")
        self._write_con: sqlite3.Connection | None = None
        self._write_lock = threading.Lock()

    def append(self, stored: Sequence[StoredEvent]) -> list[int]:
        """A few multi-row INSERTs in one transaction, instead of the library's one
        statement per event, on a connection kept for writing: the library's pooled
        transaction around the same INSERT and COMMIT cost ≈ 60 µs more per durable write
        (≈ 260 µs against ≈ 200 µs, interleaved). The commit is as durable as the
        library's (WAL, ``synchronous=FULL``), and a failure is raised as the library
        raises it (a stream version already taken: its ``IntegrityError``), with nothing
        written. Positions are rowids: inside one write transaction each row gets the
        table's largest rowid plus one (the log never deletes a row), so the batch's
        positions are consecutive, ending at the last insert's rowid (the first of
        several is read back to confirm it; rows are never deleted, so a read after the
        statement's own commit finds the same rowid)."""
        rows = [(s.originator_id.hex if isinstance(s.originator_id, uuid.UUID)
                 else s.originator_id, s.originator_version, s.topic, s.state) for s in stored]
        if not rows:
            return []
        with self._write_lock:
            con = self._writer()
            if len(rows) <= APPEND_CHUNK:  # one statement: a transaction of its own
                try:
                    return self._insert(con, rows)
                except sqlite3.Error as e:
                    raise _library_error(e) from e
            try:
                con.execute("BEGIN IMMEDIATE")
                positions = self._insert(con, rows)
                con.execute("COMMIT")
            except BaseException as e:
                with contextlib.suppress(sqlite3.Error):
                    con.execute("ROLLBACK")
                if isinstance(e, sqlite3.Error):
                    raise _library_error(e) from e
                raise
        return positions

    def _insert(self, con: sqlite3.Connection, rows: list[tuple[Any, ...]]) -> list[int]:
        table = self.recorder.events_table_name
        last = 0
        for i in range(0, len(rows), APPEND_CHUNK):
            part = rows[i:i + APPEND_CHUNK]
            cursor = con.execute(
                f"INSERT INTO {table} VALUES {', '.join(['(?,?,?,?)'] * len(part))}",
                [v for row in part for v in row])
            last = int(cursor.lastrowid or 0)
        first = last - len(rows) + 1
        if first == last:
            return [last]
        select = f"SELECT rowid FROM {table} WHERE originator_id=? AND originator_version=?"
        found = con.execute(select, rows[0][:2]).fetchone()
        if found is None or int(found[0]) != first:  # not expected: ask row by row
            return [int(con.execute(select, row[:2]).fetchone()[0]) for row in rows]
        return list(range(first, last + 1))

    def _writer(self) -> sqlite3.Connection:
        if self._write_con is None:
            con = sqlite3.connect(self.path, timeout=30, isolation_level=None,
                                  check_same_thread=False)
            con.execute("PRAGMA synchronous=FULL")
            self._write_con = con
        return self._write_con

    def _raw(self) -> sqlite3.Connection:
        return sqlite3.connect(self.path, timeout=30)

    def close(self) -> None:
        self.recorder.close_probe()
        with self._write_lock:
            if self._write_con is not None:
                self._write_con.close()
                self._write_con = None
        super().close()

    def position_of(self, stream_id: str, version: int) -> int | None:
        with self.recorder.datastore.transaction(commit=False) as c:
            c.execute("SELECT rowid FROM stored_events WHERE originator_id=? AND "
                      "originator_version=?", (stream_id, version))
            row = c.fetchone()
        return None if row is None else int(row[0])

    def files(self) -> list[Path]:
        folder = self.path.parent
        return [p for p in folder.iterdir() if p.name.startswith(("events.db", "keys.db"))]

    def compact(self) -> None:
        """Deleted key bytes leave the key store's files. The log itself deletes nothing
        (a purge only makes its ciphertext unreadable), so its file needs no rewrite."""
        self.keys.backend.compact()


_LIBRARY_ERRORS: tuple[tuple[type[sqlite3.Error], type[PersistenceError]], ...] = (
    (sqlite3.IntegrityError, IntegrityError), (sqlite3.OperationalError, OperationalError),
    (sqlite3.InterfaceError, InterfaceError), (sqlite3.DataError, DataError),
    (sqlite3.InternalError, InternalError), (sqlite3.ProgrammingError, ProgrammingError),
    (sqlite3.NotSupportedError, NotSupportedError), (sqlite3.DatabaseError, DatabaseError))


def _library_error(error: sqlite3.Error) -> PersistenceError:
    """The ``eventsourcing`` exception its SQLite module raises for ``error``: callers
    handle one family of errors whichever connection wrote."""
    for raw, wrapped in _LIBRARY_ERRORS:
        if isinstance(error, raw):
            return wrapped(error)
    return PersistenceError(error)


SCHEMA_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,62}$")
# DSN parameters the eventsourcing postgres module can be given; anything else (sslmode,
# options, ...) would be dropped silently, so it is refused: set it as a libpq environment
# variable instead (PGSSLMODE, PGOPTIONS, ...), which both connections honour.
DSN_KEYS = frozenset({"host", "hostaddr", "port", "dbname", "user", "password",
                      "connect_timeout"})


def _postgres_settings(dsn: str, schema: str) -> dict[str, str]:
    """eventsourcing's POSTGRES_* settings for ``dsn``; refuses what it cannot carry."""
    import psycopg  # noqa: PLC0415  (only needed on PostgreSQL)
    from psycopg.conninfo import conninfo_to_dict  # noqa: PLC0415

    try:
        info = conninfo_to_dict(dsn)
    except psycopg.ProgrammingError as e:
        raise InvalidInput("dsn is not a valid PostgreSQL connection string") from e
    unsupported = sorted(set(info) - DSN_KEYS)
    if unsupported:
        raise InvalidInput(
            f"dsn parameter(s) {', '.join(unsupported)} cannot be passed to the event log;"
            " set them as libpq environment variables (e.g. PGSSLMODE) instead")
    host = str(info.get("host") or info.get("hostaddr") or "127.0.0.1")
    settings = {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": str(info.get("dbname") or "postgres"),
        "POSTGRES_HOST": host,
        "POSTGRES_PORT": str(info.get("port") or "5432"),
        "POSTGRES_USER": str(info.get("user") or "postgres"),
        "POSTGRES_PASSWORD": str(info.get("password") or ""),
        "POSTGRES_SCHEMA": schema,
        "ORIGINATOR_ID_TYPE": "text",
    }
    if info.get("connect_timeout"):
        settings["POSTGRES_CONNECT_TIMEOUT"] = str(info["connect_timeout"])
    return settings


class PostgresEventLog(EventLog):
    kind = "postgres"

    def __init__(self, dsn: str, master: MasterKey, schema: str | None = None) -> None:
        import psycopg  # noqa: PLC0415

        self.schema = schema or "public"
        if not SCHEMA_RE.match(self.schema):
            raise InvalidInput("schema must be a plain identifier (letters, digits, '_')")
        env = Environment(APP_NAME, _postgres_settings(dsn, self.schema))
        try:
            guard = psycopg.connect(dsn, autocommit=True)
        except psycopg.Error as e:
            raise _open_error("the event log", e) from e
        # Processes opening a fresh database at once would race on its DDL (the tables,
        # the key store's rows): one session-level advisory lock per schema orders them.
        try:
            guard.execute("SELECT pg_advisory_lock(hashtext(%s))", (f"memory_es:{self.schema}",))
            self._open(dsn, env, master, psycopg)
        finally:
            with contextlib.suppress(Exception):
                guard.close()  # closing the session releases the advisory lock

    def _open(self, dsn: str, env: Environment, master: MasterKey, psycopg: Any) -> None:
        try:
            with (psycopg.connect(dsn, autocommit=True) as conn,
                  contextlib.suppress(psycopg.errors.UniqueViolation)):
                conn.execute(f'CREATE SCHEMA IF NOT EXISTS "{self.schema}"')
            self._factory = InfrastructureFactory.construct(env)
            self.recorder = self._factory.application_recorder()
        except (psycopg.Error, PersistenceError) as e:
            with contextlib.suppress(Exception):
                self._factory.close()
            raise _open_error("the event log", e) from e
        try:
            self.keys = _key_store(lambda: PostgresKeyBackend(dsn, self.schema), master)
        except psycopg.Error as e:
            self._factory.close()
            raise _open_error("the key store", e) from e
        except BaseException:
            self._factory.close()
            raise

    def position_of(self, stream_id: str, version: int) -> int | None:
        with self.recorder.datastore.transaction(commit=False) as c:  # type: ignore[attr-defined]
            c.execute(
                f'SELECT notification_id FROM "{self.schema}".{APP_NAME}_events '
                "WHERE originator_id=%s AND originator_version=%s", (stream_id, version))
            row = c.fetchone()
        return None if row is None else int(row["notification_id"])

    def compact(self) -> None:
        self.keys.backend.compact()


def _open_error(what: str, error: BaseException) -> MemoryESError:
    """``StorageUnavailable`` when the server is down or restarting (worth a retry), else
    a plain ``MemoryESError`` (a wrong password, a missing database)."""
    message = f"cannot open {what} on PostgreSQL: {_reason(error)}"
    return StorageUnavailable(message) if storage_fault(error) else MemoryESError(message)


def _reason(error: BaseException) -> str:
    """The driver's first line (names host, port, database or user; never the password)."""
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0] if text else ''}".rstrip(": ")
