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
