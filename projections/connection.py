"""Opening DuckDB the way every read model expects: UTC session, no replacement scans."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, cast

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


class Flushing:
    """A connection as readers are handed it when writes to it may be deferred: any
    attribute is looked up on the connection ``flushed()`` returns (which runs them
    first). :func:`unflushed` gives the connection itself, for tables no deferred write
    touches (:class:`projections.views.Views` uses this for the version rows)."""

    __slots__ = ("__weakref__", "_flushed", "_raw")

    def __init__(self, flushed: Callable[[], duckdb.DuckDBPyConnection],
                 raw: Callable[[], duckdb.DuckDBPyConnection]) -> None:
        self._flushed = flushed
        self._raw = raw

    def __getattr__(self, name: str) -> Any:
        return getattr(self._flushed(), name)

    def connection(self) -> duckdb.DuckDBPyConnection:
        """Typed as the connection it stands for."""
        return cast(duckdb.DuckDBPyConnection, self)


def unflushed(con: duckdb.DuckDBPyConnection) -> duckdb.DuckDBPyConnection:
    """The connection itself, deferred writes not run: only for the governance tables
    (ledgers, tier moves), which no deferred write touches; also the one key for caches
    kept per connection."""
    if isinstance(con, Flushing):
        return con._raw()  # noqa: SLF001
    return con


FEW_IDS = 16
"""Up to this many ids, :func:`ids_in` lists them one parameter each."""


def ids_in(column: str, ids: Sequence[str]) -> tuple[str, list[Any]]:
    """A filter on ``column`` for these ids (at least one) and its parameters.

    DuckDB looks a short ``IN (?, ?, ...)`` list up in the column's ART index as it is;
    the ``IN (SELECT unnest(?))`` form wraps the same lookup in a semi join (≈ 1 ms more
    per statement at 100k rows, measured on a purge's DELETE). Long lists keep that form:
    planning one parameter per id costs more than the join from about 16 ids on."""
    if len(ids) <= FEW_IDS:
        return f"{column} IN ({', '.join('?' * len(ids))})", list(ids)
    return f"{column} IN (SELECT unnest(?::VARCHAR[]))", [list(ids)]
