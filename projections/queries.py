"""Plain read functions over the DuckDB views: current, as-of, chains, snapshots.

Every query filters with :data:`projections.schema.ELIGIBLE` (or, for rows already
fetched, :func:`projections.schema.eligible`), which derive from ``RETRIEVABLE_STATES``/
``INELIGIBLE_NOW``: no read path keeps a state list of its own.

Reads of one entity or one chain take a different route: DuckDB plans every statement
for ≈ 1-1.5 ms, so they fetch the few rows they need from the SQLite row store that
follows the views (:mod:`projections.points`, through its composite indexes) and apply
the bitemporal test, eligibility and order in Python over plain row dicts: the same
code whichever store the rows came from. When the row store is not in line with DuckDB
(being resynchronised after a crash or a failed batch), the rows come from DuckDB's
``tenant_entity`` index instead, with identical results.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import duckdb
import pyarrow as pa

from memory_es.domain.agents import AgentScope
from memory_es.domain.lifecycle import INELIGIBLE_NOW
from projections.connection import arrow, records
from projections.governance import with_tiers_at
from projections.points import Columns, serving
from projections.schema import (
    ARROW_SCHEMA,
    ELIGIBLE,
    INELIGIBLE_SQL,
    PUBLIC_COLUMNS,
    RETRIEVABLE_SQL,
    eligible,
    tenant_entity,
)

COLUMNS = ", ".join(PUBLIC_COLUMNS)
_ENTITY_VERSIONS = f"SELECT {COLUMNS}, present_state FROM fact_versions WHERE tenant_entity = ?"
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_ENTITY_ROWS = Columns([*PUBLIC_COLUMNS, "present_state"])
_CHAIN_ROWS = Columns([*PUBLIC_COLUMNS, "present_state", "position"])
_VISIBILITY = Columns(["agent", "shared"])
PUBLIC_SCHEMA = pa.schema([ARROW_SCHEMA.field(c) for c in PUBLIC_COLUMNS])
"""``chain``'s result schema: the DuckDB query's (which names a list's item as it likes)."""
PATTERN_ATTRIBUTE = "note.pattern"
"""The attribute of consolidation patterns (SPEC §12.6)."""


def _ts(us: int) -> str:
    return f"make_timestamptz({int(us)}::BIGINT)"


def _filters(tenant: str | None, entity: str | None, attribute: str | None,
             params: list[Any], reader: AgentScope | None = None) -> str:
    """The read's filters; ``reader``: only the facts visible to its agent (SPEC §12.7;
    None: an operator read, every fact)."""
    sql = "" if reader is None else " AND " + reader.sql(params)
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


def _entity_versions(con: duckdb.DuckDBPyConnection, tenant: str, entity: str,
                     attribute: str | None, valid_at: int, known_at: int | None,
                     reader: AgentScope | None = None) -> list[dict[str, Any]]:
    """The rows :func:`as_of` (or, with ``known_at=None``, :func:`current`) returns for one
    entity, in the same order."""
    v = _EPOCH + timedelta(microseconds=valid_at)
    k = None if known_at is None else _EPOCH + timedelta(microseconds=known_at)
    key = tenant_entity(tenant, entity)
    points = serving(con)
    if points is None:
        fetched = records(con, _ENTITY_VERSIONS, [key])
    else:  # the index narrows to the rows the test below keeps; the test still decides
        where = "tenant_entity = ? AND valid_from <= ? AND (valid_until IS NULL OR ? < valid_until)"
        params: list[Any] = [key, valid_at, valid_at]
        if attribute is not None:
            where += " AND attribute = ?"
            params.append(attribute)
        if known_at is None:
            where += " AND recorded_until IS NULL"
        else:
            where += " AND recorded_at <= ? AND (recorded_until IS NULL OR ? < recorded_until)"
            params += [known_at, known_at]
        fetched = points.fetch(_ENTITY_ROWS, where, params)
    found = []
    for row in fetched:
        if not eligible(row["state"], row.pop("present_state")):
            continue
        if attribute is not None and row["attribute"] != attribute:
            continue
        if reader is not None and not reader.sees_row(row):
            continue
        until = row["recorded_until"]
        if k is None:
            if until is not None:
                continue
        elif not (row["recorded_at"] <= k and (until is None or k < until)):
            continue
        if row["valid_from"] <= v and (row["valid_until"] is None or v < row["valid_until"]):
            found.append(row)
    found.sort(key=lambda r: (r["attribute"], r["valid_from"], r["fact_id"]))
    return found


def current(con: duckdb.DuckDBPyConnection, now: int, tenant: str | None,
            entity: str | None = None, attribute: str | None = None, *,
            as_records: bool = False, reader: AgentScope | None = None) -> Any:
    """Present belief valid at the clock's time ``now`` (Arrow, or dicts with as_records)."""
    if tenant is not None and entity is not None and as_records:
        return _entity_versions(con, tenant, entity, attribute, now, None, reader)
    params: list[Any] = []
    where = _filters(tenant, entity, attribute, params, reader)
    return _run(con, f"""
        SELECT {COLUMNS} FROM fact_versions
        WHERE recorded_until IS NULL AND {ELIGIBLE}
          AND valid_from <= {_ts(now)} AND (valid_until IS NULL OR {_ts(now)} < valid_until)
          {where}
        ORDER BY entity, attribute, valid_from, fact_id""", params, as_records)


def count_current(con: duckdb.DuckDBPyConnection, now: int, tenant: str,
                  reader: AgentScope | None = None) -> int:
    """How many versions :func:`current` would return for the tenant, counted in DuckDB
    (no row leaves it)."""
    params: list[Any] = []
    where = _filters(tenant, None, None, params, reader)
    row = con.execute(f"""
        SELECT count(*) FROM fact_versions
        WHERE recorded_until IS NULL AND {ELIGIBLE}
          AND valid_from <= {_ts(now)} AND (valid_until IS NULL OR {_ts(now)} < valid_until)
          {where}""", params).fetchone()
    return int(row[0]) if row else 0


def as_of(con: duckdb.DuckDBPyConnection, valid_at: int, known_at: int, tenant: str | None,
          entity: str | None = None, attribute: str | None = None, *,
          as_records: bool = False, reader: AgentScope | None = None) -> Any:
    """What was believed at transaction time ``known_at`` to hold at valid time ``valid_at``
    (each fact's ``tier`` as it was then, too)."""
    if tenant is not None and entity is not None and as_records:
        return with_tiers_at(con, _entity_versions(con, tenant, entity, attribute, valid_at,
                                                   known_at, reader), known_at)
    params: list[Any] = []
    where = _filters(tenant, entity, attribute, params, reader)
    return with_tiers_at(con, _run(con, f"""
        SELECT {COLUMNS} FROM fact_versions WHERE {_as_of_where(valid_at, known_at)} {where}
        ORDER BY entity, attribute, valid_from, fact_id""", params, as_records), known_at)


def _as_of_where(valid_at: int, known_at: int) -> str:
    k, v = _ts(known_at), _ts(valid_at)
    return (f"recorded_at <= {k} AND (recorded_until IS NULL OR {k} < recorded_until) "
            f"AND valid_from <= {v} AND (valid_until IS NULL OR {v} < valid_until) "
            f"AND {ELIGIBLE}")


def as_of_keys(con: duckdb.DuckDBPyConnection, valid_at: int, known_at: int, tenant: str,
               classifications: list[str], reader: AgentScope | None = None) -> pa.Table:
    """The unmasked belief of :func:`as_of` within ``classifications``, narrowed to what
    as-of recall filters and splits on: ``open`` (the version is still today's, so
    today's recall index holds its document), a pattern's ``derived_from``, the
    document's words only for versions closed since, and the slot and visibility columns
    only for a reader with an agent (its private facts shadow others). Rows come in no
    particular order (sorting the whole belief would cost more than the search)."""
    params: list[Any] = []
    where = _filters(tenant, None, None, params, reader)
    params.extend(classifications)
    closed = "recorded_until IS NOT NULL"
    slots = reader is not None and reader.agent is not None
    scope = ("entity, attribute, agent, shared" if slots else
             f"CASE WHEN {closed} THEN entity END AS entity, "
             f"CASE WHEN {closed} THEN attribute END AS attribute, "
             "NULL::VARCHAR AS agent, NULL::BOOLEAN AS shared")
    return arrow(con, f"""
        SELECT fact_id, recorded_until IS NULL AS open, {scope},
               CASE WHEN attribute = '{PATTERN_ATTRIBUTE}' THEN derived_from END
                   AS derived_from,
               CASE WHEN {closed} THEN text END AS text,
               CASE WHEN {closed} THEN mention END AS mention, negated
        FROM fact_versions
        WHERE {_as_of_where(valid_at, known_at)} AND NOT masked {where}
          AND classification IN ({", ".join("?" * len(classifications))})""", params)


def as_of_closed(con: duckdb.DuckDBPyConnection, valid_at: int, known_at: int, tenant: str,
                 classifications: list[str], reader: AgentScope | None = None) -> pa.Table:
    """The versions of :func:`as_of_keys` that are closed today (recorded over after
    ``known_at``), with their words, a pattern's ``derived_from``, in fact-id order."""
    params: list[Any] = []
    where = _filters(tenant, None, None, params, reader)
    params.extend(classifications)
    return arrow(con, f"""
        SELECT fact_id, entity, attribute, text, mention, negated,
               CASE WHEN attribute = '{PATTERN_ATTRIBUTE}' THEN derived_from END
                   AS derived_from
        FROM fact_versions
        WHERE recorded_until IS NOT NULL AND {_as_of_where(valid_at, known_at)}
          AND NOT masked {where}
          AND classification IN ({", ".join("?" * len(classifications))})
        ORDER BY fact_id, valid_from""", params)


def as_of_facts(con: duckdb.DuckDBPyConnection, valid_at: int, known_at: int, tenant: str,
                fact_ids: list[str]) -> pa.Table:
    """The rows :func:`as_of` gives for these facts, without its tiers (as-of recall
    reads the tiers of the few it keeps: :func:`with_tiers_at`)."""
    return arrow(con, f"""
        SELECT {COLUMNS} FROM fact_versions
        WHERE {_as_of_where(valid_at, known_at)} AND tenant = ?
          AND fact_id IN (SELECT unnest(?::VARCHAR[]))""", [tenant, fact_ids])


def chain(con: duckdb.DuckDBPyConnection, tenant: str, fact_id: str,
          reader: AgentScope | None = None) -> pa.Table:
    """Each fact of the drift chain holding ``fact_id``, as last recorded, oldest first
    (``reader``: only the facts visible to its agent, SPEC §12.7)."""
    points = serving(con)
    if points is None:
        params: list[Any] = [tenant, fact_id, tenant]
        visible = "" if reader is None else " AND " + reader.sql(params)
        return arrow(con, f"""
            WITH c AS (SELECT chain_id FROM fact_versions WHERE tenant = ? AND fact_id = ?
                       LIMIT 1),
            f AS (
                SELECT *, min(recorded_at) OVER (PARTITION BY fact_id) AS first_recorded
                FROM fact_versions
                WHERE tenant = ? AND chain_id = (SELECT chain_id FROM c)
                  AND present_state NOT IN ({INELIGIBLE_SQL}){visible}
                QUALIFY row_number() OVER (PARTITION BY fact_id
                                           ORDER BY recorded_at DESC, position DESC) = 1
            )
            SELECT {COLUMNS} FROM f ORDER BY first_recorded, fact_id""", params)
    rows = points.fetch(_CHAIN_ROWS, "tenant = ? AND chain_id = (SELECT chain_id FROM "
                        "versions WHERE fact_id = ? AND tenant = ? LIMIT 1)",
                        [tenant, fact_id, tenant])
    latest: dict[str, dict[str, Any]] = {}
    first: dict[str, datetime] = {}
    for row in rows:
        if row.pop("present_state") in INELIGIBLE_NOW:
            continue
        if reader is not None and not reader.sees_row(row):
            continue
        fid = row["fact_id"]
        first[fid] = min(first.get(fid, row["recorded_at"]), row["recorded_at"])
        held = latest.get(fid)
        if held is None or ((row["recorded_at"], row["position"])
                            > (held["recorded_at"], held["position"])):
            latest[fid] = row
    ordered = sorted(latest.values(), key=lambda r: (first[r["fact_id"]], r["fact_id"]))
    for row in ordered:
        del row["position"]
    return pa.Table.from_pylist(ordered, schema=PUBLIC_SCHEMA)


def fact_exists(con: duckdb.DuckDBPyConnection, tenant: str, fact_id: str,
                reader: AgentScope | None = None) -> bool:
    """Whether the tenant holds the fact (``reader``: and its agent may see it)."""
    points = serving(con)
    if points is not None:
        if reader is None:
            return points.exists(tenant, fact_id)
        return any(reader.sees_row(row) for row in points.fetch(
            _VISIBILITY, "fact_id = ? AND tenant = ?", [fact_id, tenant]))
    params: list[Any] = [tenant, fact_id]
    visible = "" if reader is None else " AND " + reader.sql(params)
    return bool(con.execute("SELECT 1 FROM fact_versions WHERE tenant = ? AND fact_id = ?"
                            f"{visible} LIMIT 1", params).fetchall())


def consolidated_into(con: duckdb.DuckDBPyConnection, tenant: str, fact_ids: list[str],
                      now: int, reader: AgentScope | None = None) -> dict[str, str]:
    """Member -> pattern: the current eligible ``note.pattern`` facts (visible to
    ``reader``) whose ``derived_from`` holds these facts (SPEC §12.6), from the version
    table like every other read (no second record of membership)."""
    if not fact_ids:
        return {}
    params: list[Any] = [tenant, PATTERN_ATTRIBUTE]
    visible = "" if reader is None else " AND " + reader.sql(params)
    con.register("_members", pa.table({"fact_id": pa.array(sorted(set(fact_ids)), pa.string())}))
    try:
        rows = con.execute(f"""
            SELECT member, min(fact_id) FROM (
                SELECT fact_id, unnest(derived_from) AS member FROM fact_versions
                WHERE tenant = ? AND attribute = ? AND recorded_until IS NULL AND {ELIGIBLE}
                  AND valid_from <= {_ts(now)}
                  AND (valid_until IS NULL OR {_ts(now)} < valid_until){visible})
            WHERE member IN (SELECT fact_id FROM _members)
            GROUP BY member""", params).fetchall()
    finally:
        con.unregister("_members")
    return {str(m): str(p) for m, p in rows}


def retrievable_at(con: duckdb.DuckDBPyConnection, fact_ids: list[str],
                   known_at: int) -> set[str]:
    """The facts whose belief recorded at ``known_at`` was retrievable and unmasked then
    (an audit read: a fact forgotten or purged since still counts, as in ``replay``)."""
    if not fact_ids:
        return set()
    k = _ts(known_at)
    return {str(r[0]) for r in con.execute(
        f"SELECT DISTINCT fact_id FROM fact_versions "
        f"WHERE fact_id IN (SELECT unnest(?::VARCHAR[])) AND recorded_at <= {k} "
        f"AND (recorded_until IS NULL OR {k} < recorded_until) "
        f"AND state IN ({RETRIEVABLE_SQL}) AND NOT masked", [fact_ids]).fetchall()}
