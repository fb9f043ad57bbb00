"""Plain read functions over the DuckDB views: current, as-of, chains, snapshots.

Every query filters with :data:`projections.schema.ELIGIBLE`, which derives from
``RETRIEVABLE_STATES``/``INELIGIBLE_NOW``: no read path keeps a state list of its own.
"""

from __future__ import annotations

from typing import Any

import duckdb
import pyarrow as pa

from projections.connection import arrow, records
from projections.schema import ELIGIBLE, INELIGIBLE_SQL, PUBLIC_COLUMNS

COLUMNS = ", ".join(PUBLIC_COLUMNS)


def _ts(us: int) -> str:
    return f"make_timestamptz({int(us)}::BIGINT)"


def _filters(tenant: str | None, entity: str | None, attribute: str | None,
             params: list[Any]) -> str:
    sql = ""
    if tenant is not None:
        sql += " AND tenant = ?"
        params.append(tenant)
    if entity is not None:
        sql += " AND entity = ?"
        params.append(entity)
    if attribute is not None:
        sql += " AND attribute = ?"
        params.append(attribute)
    return sql


def _run(con: duckdb.DuckDBPyConnection, query: str, params: list[Any],
         as_records: bool) -> Any:
    return records(con, query, params) if as_records else arrow(con, query, params)


def current(con: duckdb.DuckDBPyConnection, now: int, tenant: str | None,
            entity: str | None = None, attribute: str | None = None, *,
            as_records: bool = False) -> Any:
    """Present belief valid at the clock's time ``now`` (Arrow, or dicts with as_records)."""
    params: list[Any] = []
    where = _filters(tenant, entity, attribute, params)
    return _run(con, f"""
        SELECT {COLUMNS} FROM fact_versions
        WHERE recorded_until IS NULL AND {ELIGIBLE}
          AND valid_from <= {_ts(now)} AND (valid_until IS NULL OR {_ts(now)} < valid_until)
          {where}
        ORDER BY entity, attribute, valid_from, fact_id""", params, as_records)


def as_of(con: duckdb.DuckDBPyConnection, valid_at: int, known_at: int, tenant: str | None,
          entity: str | None = None, attribute: str | None = None, *,
          as_records: bool = False) -> Any:
    """What was believed at transaction time ``known_at`` to hold at valid time ``valid_at``."""
    params: list[Any] = []
    where = _filters(tenant, entity, attribute, params)
    k, v = _ts(known_at), _ts(valid_at)
    return _run(con, f"""
        SELECT {COLUMNS} FROM fact_versions
        WHERE recorded_at <= {k} AND (recorded_until IS NULL OR {k} < recorded_until)
          AND valid_from <= {v} AND (valid_until IS NULL OR {v} < valid_until)
          AND {ELIGIBLE} {where}
        ORDER BY entity, attribute, valid_from, fact_id""", params, as_records)


def chain(con: duckdb.DuckDBPyConnection, tenant: str, fact_id: str) -> pa.Table:
    """Each fact of the drift chain holding ``fact_id``, as last recorded, oldest first."""
    return arrow(con, f"""
        WITH c AS (SELECT chain_id FROM fact_versions WHERE tenant = ? AND fact_id = ? LIMIT 1),
        f AS (
            SELECT *, min(recorded_at) OVER (PARTITION BY fact_id) AS first_recorded
            FROM fact_versions
            WHERE tenant = ? AND chain_id = (SELECT chain_id FROM c)
              AND present_state NOT IN ({INELIGIBLE_SQL})
            QUALIFY row_number() OVER (PARTITION BY fact_id
                                       ORDER BY recorded_at DESC, position DESC) = 1
        )
        SELECT {COLUMNS} FROM f ORDER BY first_recorded, fact_id""",
        [tenant, fact_id, tenant])


def fact_exists(con: duckdb.DuckDBPyConnection, tenant: str, fact_id: str) -> bool:
    return bool(con.execute("SELECT 1 FROM fact_versions WHERE tenant = ? AND fact_id = ? "
                            "LIMIT 1", [tenant, fact_id]).fetchall())
