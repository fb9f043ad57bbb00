"""Opening DuckDB the way every read model expects: UTC session, no replacement scans."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa


def connect(path: Path | str) -> duckdb.DuckDBPyConnection:
    con = duckdb.connect(str(path))
    con.execute("SET TimeZone = 'UTC'")
    con.execute("SET python_enable_replacements = false")
    return con


def arrow(con: duckdb.DuckDBPyConnection, query: str, params: list[Any] | None = None) -> pa.Table:
    """Run a query and return an Arrow table (the columnar fast path)."""
    relation = con.sql(query, params=params) if params else con.sql(query)
    if relation is None:
        return pa.table({})
    return relation.to_arrow_table() if hasattr(relation, "to_arrow_table") else relation.arrow()


def records(con: duckdb.DuckDBPyConnection, query: str,
            params: list[Any] | None = None) -> list[dict[str, Any]]:
    """Run a query and return its rows as dicts: the fast path for a few rows (point
    reads), where building an Arrow table costs more than the rows themselves."""
    cursor = con.execute(query, params or [])
    names = [d[0] for d in cursor.description or ()]
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


READ_ONLY = frozenset({duckdb.StatementType.SELECT, duckdb.StatementType.EXPLAIN})


def user_query(con: duckdb.DuckDBPyConnection, query: str,
               params: list[Any] | None = None) -> pa.Table:
    """:func:`arrow` for SQL a caller wrote: DuckDB's errors become ``InvalidInput``.

    The message names only the kind of failure (DuckDB's own text can quote stored
    values, e.g. in a conversion error); the original stays chained as ``__cause__``.
    """
    # Imported here: importing ``memory_es`` first imports this module (a cycle).
    from memory_es.errors import InvalidInput  # noqa: PLC0415

    if not isinstance(query, str):
        raise InvalidInput("query must be a string of SQL")
    try:
        statements = con.extract_statements(query)
    except duckdb.Error as e:
        raise InvalidInput(f"SQL error ({type(e).__name__}) while parsing the query") from e
    if len(statements) != 1 or statements[0].type not in READ_ONLY:
        raise InvalidInput("sql() runs one read-only statement (SELECT, WITH, EXPLAIN, ...);"
                           " the views are derived from the log and change only through it")
    try:
        return arrow(con, query, params)
    except duckdb.Error as e:
        raise InvalidInput(f"SQL error ({type(e).__name__}); DuckDB's own message is kept"
                           " in __cause__, since it can quote stored values") from e
