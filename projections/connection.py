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
