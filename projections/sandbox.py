"""Where ``sql()`` runs: a separate, locked DuckDB database that cannot change the views
or reach the file system or the network (SPEC §14).

A prefix check on the statement is not a sandbox (``EXPLAIN ANALYZE UPDATE ...`` is an
EXPLAIN that writes). So the caller's SQL never touches the views' own connection: it
runs on an in-memory database created with ``enable_external_access = false`` and a
locked configuration, over an Arrow snapshot of ``fact_versions`` registered as a
read-only relation, inside a transaction that is always rolled back. Writes fail or
vanish, file and network functions (``read_text``, ``read_blob``, ``glob``, ``COPY``,
``ATTACH``, ``INSTALL``, ``LOAD``) are refused by DuckDB itself, and ``SET`` cannot
reopen any of it.

A tenant-scoped query sees a snapshot holding only that tenant's rows, so no spelling
of a table name reaches another tenant's data.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.compute as pc

from memory_es.errors import InvalidInput
from projections.connection import arrow
from projections.schema import ARROW_SCHEMA, VIEW_DDL

EXPORTS_SCHEMA = pa.schema([("path", pa.string()), ("tenant", pa.string()),
                            ("valid_at", pa.int64()), ("known_at", pa.int64()),
                            ("written_at", pa.int64())])

READ_STATEMENTS = frozenset({duckdb.StatementType.SELECT, duckdb.StatementType.EXPLAIN})
"""Statement kinds accepted at all: anything else is refused before it runs, with a clear
message (the sandbox would stop it anyway; this only names the reason)."""


class Sandbox:
    """A locked, in-memory DuckDB database over a snapshot of the version rows."""

    def __init__(self) -> None:
        self._con = duckdb.connect(":memory:", config={"enable_external_access": False})
        self._con.execute("SET TimeZone = 'UTC'")
        self._con.execute("SET python_enable_replacements = false")
        self._con.register("fact_versions", ARROW_SCHEMA.empty_table())
        self._con.register("exports", EXPORTS_SCHEMA.empty_table())
        for ddl in VIEW_DDL:
            self._con.execute(ddl)
        self._con.execute("SET lock_configuration = true")
        self._snapshot: dict[str, pa.Table] | None = None
        self._snapshot_key: object = None
        self._dirty: set[str] = set()

    def touch(self, fact_ids: Sequence[str]) -> None:
        """Facts whose versions changed since the snapshot (a catch-up follower)."""
        self._dirty.update(fact_ids)

    def invalidate(self) -> None:
        """The next query takes a whole new snapshot (the views file was replaced)."""
        self._snapshot = None

    def refresh(self, key: object, con: duckdb.DuckDBPyConnection) -> None:
        """Bring the snapshot to ``key`` (the views' position, generation and exports) from
        the views' connection ``con``: the first time, or after :meth:`invalidate`, in
        full; afterwards only the rows of the facts :meth:`touch` named are read again, so
        a query after a write costs what the write changed, not the whole table."""
        if self._snapshot is not None and key == self._snapshot_key:
            return
        exports = arrow(con, "SELECT * FROM exports")
        if self._snapshot is None:
            rows = arrow(con, "SELECT * FROM fact_versions")
        else:
            rows = self._snapshot["fact_versions"]
            if self._dirty:
                dirty = pa.array(sorted(self._dirty), pa.string())
                fresh = arrow(con, "SELECT * FROM fact_versions WHERE fact_id IN "
                                   "(SELECT unnest(?::VARCHAR[]))", [dirty.to_pylist()])
                keep = pc.invert(pc.is_in(rows["fact_id"], value_set=dirty))
                rows = pa.concat_tables([rows.filter(keep), fresh.cast(rows.schema)])
        self._snapshot = {"fact_versions": rows, "exports": exports}
        self._snapshot_key, self._dirty = key, set()

    def query(self, query: str, params: Sequence[Any] | None, *, tenant: str | None,
              now: int) -> pa.Table:
        """Run one read-only statement over the snapshot (one tenant's rows, or all)."""
        if not isinstance(query, str):
            raise InvalidInput("query must be a string of SQL")
        if self._snapshot is None:
            raise InvalidInput("the sandbox has no snapshot yet")
        try:
            statements = self._con.extract_statements(query)
        except duckdb.Error as e:
            raise InvalidInput(f"SQL error ({type(e).__name__}) while parsing the query") from e
        if len(statements) != 1 or statements[0].type not in READ_STATEMENTS:
            raise InvalidInput("sql() runs one read-only statement (SELECT, WITH, EXPLAIN, ...);"
                               " the views are derived from the log and change only through it")
        con = self._con.cursor()
        try:
            for name, table in self._snapshot.items():
                con.register(name, table if tenant is None else table.filter(
                    pc.equal(table["tenant"], pa.scalar(tenant, pa.string()))))
            for name in ("memory_es_now", "memory_es_valid_at", "memory_es_known_at"):
                con.execute(f"SET VARIABLE {name} = make_timestamptz({int(now)}::BIGINT)")
            con.execute("BEGIN TRANSACTION")
            try:
                return arrow(con, query, list(params) if params else None)
            finally:
                con.execute("ROLLBACK")
        except duckdb.Error as e:
            raise InvalidInput(f"SQL error ({type(e).__name__}); DuckDB's own message is kept"
                               " in __cause__, since it can quote stored values") from e
        finally:
            con.close()

    def close(self) -> None:
        self._snapshot = None
        self._con.close()
