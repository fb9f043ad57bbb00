"""One store contract, two backends: the ``backend`` fixture runs each test on both.

``sqlite`` is the embedded default (one folder). ``postgres`` puts the event log and
key store on the server named by ``MEMORY_ES_TEST_PG`` (default
``postgresql://postgres@127.0.0.1:5432/test``), each test in a schema of its own that
is dropped afterwards. If the server cannot be reached the PostgreSQL tests skip,
unless ``MEMORY_ES_REQUIRE_PG=1`` (CI), where they fail instead.
"""

from __future__ import annotations

import functools
import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import memory_es
from memory_es.clock import ClockFn

PG_DSN = os.environ.get("MEMORY_ES_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")
REQUIRE_PG = os.environ.get("MEMORY_ES_REQUIRE_PG", "") == "1"
EVENTS_TABLE = "memory_es_events"


@functools.cache
def pg_unreachable() -> str | None:
    """None when the test server answers, else why not (checked once per session)."""
    try:
        import psycopg

        with psycopg.connect(PG_DSN, connect_timeout=5, autocommit=True) as conn:
            conn.execute("SELECT 1")
    except Exception as e:  # any failure means: no server for these tests
        return f"{type(e).__name__}: {e}".splitlines()[0]
    return None


def require_pg() -> None:
    """Skip (or, with MEMORY_ES_REQUIRE_PG=1, fail) when PostgreSQL is not reachable."""
    why = pg_unreachable()
    if why is None:
        return
    message = f"PostgreSQL at {PG_DSN} is not reachable ({why})"
    if REQUIRE_PG:
        pytest.fail(message + "; MEMORY_ES_REQUIRE_PG=1 makes this a failure", pytrace=False)
    pytest.skip(message)


class Backend:
    """Opens stores on one backend and reads what it physically stored."""

    def __init__(self, name: str, root: Path, schema: str | None = None) -> None:
        self.name = name
        self.root = root
        self.schema = schema
        self.key_file = root / "master.key"
        self.key_file.write_text(os.urandom(32).hex() + "\n")
        self._stores: list[memory_es.MemoryStore] = []
        self._replicas = 0

    @property
    def folder(self) -> Path:
        """The embedded store's folder, or the views folder on PostgreSQL."""
        return self.root / ("mem" if self.name == "sqlite" else "views")

    def open(self, clock: ClockFn | None = None, *, views: Path | None = None,
             views_settings: dict[str, str] | None = None,
             **options: Any) -> memory_es.MemoryStore:
        """Open (or reopen) the store; ``views`` gives a PostgreSQL reader its own replica,
        ``views_settings`` are DuckDB settings (forensic tests force no compression);
        ``options`` go to ``memory_es.open`` as they are (``governance=``, ...)."""
        if self.name == "sqlite":
            store = memory_es.open(self.folder, clock=clock, key_file=self.key_file,
                                   views_settings=views_settings, **options)
        else:
            store = memory_es.open(dsn=PG_DSN, views=views or self.folder, schema=self.schema,
                                   clock=clock, key_file=self.key_file,
                                   views_settings=views_settings, **options)
        self._stores.append(store)
        return store

    def new_replica(self) -> Path:
        """A fresh views folder (another projection worker following the same log)."""
        self._replicas += 1
        return self.root / f"replica-{self._replicas}"

    def event_states(self) -> list[bytes]:
        """The ``state`` column of every stored event, as the log holds it."""
        if self.name == "sqlite":
            import sqlite3

            conn = sqlite3.connect(self.folder / "events.db")
            try:
                return [bytes(r[0]) for r in conn.execute("SELECT state FROM stored_events")]
            finally:
                conn.close()
        return [bytes(r[0]) for r in self.pg_rows(f"SELECT state FROM {EVENTS_TABLE}")]

    def events(self) -> list[tuple[int, str, int, str, bytes]]:
        """Every stored event as (position, stream id, version, topic, state), in log order,
        read behind the store's back."""
        if self.name == "sqlite":
            import sqlite3

            conn = sqlite3.connect(self.folder / "events.db")
            try:
                rows = conn.execute("SELECT rowid, originator_id, originator_version, topic, "
                                    "state FROM stored_events ORDER BY rowid").fetchall()
            finally:
                conn.close()
        else:
            rows = self.pg_rows(f"SELECT notification_id, originator_id, originator_version, "
                                f"topic, state FROM {EVENTS_TABLE} ORDER BY notification_id")
        return [(int(p), str(s), int(v), str(t), bytes(b))
                for p, s, v, t, b in rows]

    def tamper(self, sql: str, params: tuple[object, ...] = ()) -> int:
        """Run an UPDATE or DELETE on the events table behind the store's back (``EVENTS``
        names the table, ``?`` marks parameters); returns the number of rows changed."""
        if self.name == "sqlite":
            import sqlite3

            conn = sqlite3.connect(self.folder / "events.db")
            try:
                with conn:
                    return conn.execute(sql.replace("EVENTS", "stored_events"), params).rowcount
            finally:
                conn.close()
        import psycopg

        with psycopg.connect(PG_DSN, autocommit=True) as pg:
            pg.execute(f'SET search_path TO "{self.schema}"')
            query = sql.replace("EVENTS", EVENTS_TABLE).replace("?", "%s")
            return pg.execute(query, params).rowcount

    def raw_bytes(self) -> bytes:
        """Every byte the log and key store hold: files on SQLite, table rows on PostgreSQL."""
        if self.name == "sqlite":
            return b"".join(p.read_bytes() for p in sorted(self.folder.iterdir())
                            if p.name.startswith(("events.db", "keys.db")))
        chunks: list[bytes] = []
        for table in (EVENTS_TABLE, "me_keys", "me_names", "me_meta", "me_shredded",
                      "me_pending"):
            for row in self.pg_rows(f"SELECT * FROM {table}"):
                for value in row:
                    chunks.append(bytes(value) if isinstance(value, bytes | memoryview)
                                  else str(value).encode())
        return b"\x00".join(chunks)

    def key_store_rows(self, sql: str) -> list[tuple[Any, ...]]:
        """Rows of a query on the key store (its SQLite file, or its PostgreSQL tables)."""
        if self.name == "postgres":
            return self.pg_rows(sql)
        import sqlite3

        conn = sqlite3.connect(self.folder / "keys.db")
        try:
            return list(conn.execute(sql).fetchall())
        finally:
            conn.close()

    KEY_TABLES = ("me_keys", "me_names", "me_shredded", "me_meta", "me_pending",
                  "me_reshredded", "me_reconciled")

    def backup_key_store(self) -> dict[str, bytes]:
        """A copy of the key store as an operator would take it (the store must be closed):
        its files on SQLite, a copy of each table on PostgreSQL."""
        if self.name == "sqlite":
            return {p.name: p.read_bytes() for p in self.folder.iterdir()
                    if p.name.startswith("keys.db")}
        for table in self.KEY_TABLES:
            self.pg_rows(f"DROP TABLE IF EXISTS backup_{table}")
            self.pg_rows(f"CREATE TABLE backup_{table} AS TABLE {table}")
        return {}

    def restore_key_store(self, backup: dict[str, bytes]) -> None:
        """Put a backup from :meth:`backup_key_store` back (the store must be closed)."""
        if self.name == "sqlite":
            for p in self.folder.iterdir():
                if p.name.startswith("keys.db"):
                    p.unlink()
            for name, data in backup.items():
                (self.folder / name).write_bytes(data)
            return
        for table in self.KEY_TABLES:
            self.pg_rows(f"DELETE FROM {table}")
            self.pg_rows(f"INSERT INTO {table} SELECT * FROM backup_{table}")

    def pg_rows(self, sql: str) -> list[tuple[Any, ...]]:
        import psycopg

        with psycopg.connect(PG_DSN, autocommit=True) as conn:
            conn.execute(f'SET search_path TO "{self.schema}"')
            cursor = conn.execute(sql)
            return list(cursor.fetchall()) if cursor.description else []

    def close_all(self) -> None:
        for store in self._stores:
            store.close()
        self._stores.clear()


def _drop_schema(schema: str) -> None:
    import psycopg

    with psycopg.connect(PG_DSN, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    """The same contract on the embedded default and on PostgreSQL (own schema per test)."""
    name = str(request.param)
    if name == "sqlite":
        b = Backend(name, tmp_path)
        try:
            yield b
        finally:
            b.close_all()
        return
    require_pg()
    schema = f"me_test_{uuid.uuid4().hex[:16]}"
    b = Backend(name, tmp_path, schema)
    try:
        yield b
    finally:
        b.close_all()
        _drop_schema(schema)


@pytest.fixture
def pg_backend(tmp_path: Path) -> Iterator[Backend]:
    """PostgreSQL only (scale-out behaviour the embedded default does not have)."""
    require_pg()
    schema = f"me_test_{uuid.uuid4().hex[:16]}"
    b = Backend("postgres", tmp_path, schema)
    try:
        yield b
    finally:
        b.close_all()
        _drop_schema(schema)
