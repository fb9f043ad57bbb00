"""DuckDB schema of the bitemporal read model (SPEC §9).

``fact_versions`` holds one row per version of every fact not purged. The views are
derived from :data:`memory_es.domain.lifecycle.RETRIEVABLE_STATES` and
:data:`INELIGIBLE_NOW`, never from state lists of their own. ``facts_current`` is a
view evaluated at the store clock's time when read (the ``memory_es_now`` variable),
so a change scheduled for a future valid time takes effect with no new event.
"""

from __future__ import annotations

import pyarrow as pa

from memory_es.domain.lifecycle import INELIGIBLE_NOW, RETRIEVABLE_STATES

TS = pa.timestamp("us", tz="UTC")
IDS = "USING COMPRESSION uncompressed"
"""For the random id columns: fetching a row through the entity index from DuckDB's
default string compression costs ≈ 0.15 ms per column, and ids barely compress
(measured at 100k facts: point read 1.66 -> 1.09 ms, file 7 -> 16 MiB)."""
STRINGS = pa.list_(pa.string())

VERSION_COLUMNS: list[tuple[str, pa.DataType, str]] = [
    ("version_id", pa.string(), f"VARCHAR {IDS} NOT NULL"),
    ("fact_id", pa.string(), f"VARCHAR {IDS} NOT NULL"),
    ("tenant", pa.string(), "VARCHAR NOT NULL"),
    ("entity", pa.string(), "VARCHAR"),
    ("mention", pa.string(), "VARCHAR"),
    ("attribute", pa.string(), "VARCHAR NOT NULL"),
    ("value", pa.string(), "VARCHAR"),
    ("text", pa.string(), "VARCHAR"),
    ("valid_from", TS, "TIMESTAMPTZ NOT NULL"),
    ("valid_until", TS, "TIMESTAMPTZ"),
    ("recorded_at", TS, "TIMESTAMPTZ NOT NULL"),
    ("recorded_until", TS, "TIMESTAMPTZ"),
    ("supersedes", STRINGS, "VARCHAR[]"),
    ("superseded_by", pa.string(), "VARCHAR"),
    ("derived_from", STRINGS, "VARCHAR[]"),
    ("source", pa.string(), "VARCHAR"),
    ("asserted_by", pa.string(), "VARCHAR NOT NULL"),
    ("volatility", pa.string(), "VARCHAR NOT NULL"),
    ("confidence", pa.float64(), "DOUBLE NOT NULL"),
    ("importance", pa.float64(), "DOUBLE NOT NULL"),
    ("verified_at", TS, "TIMESTAMPTZ"),
    ("state", pa.string(), "VARCHAR NOT NULL"),
    ("tier", pa.string(), "VARCHAR NOT NULL"),
    ("present_state", pa.string(), "VARCHAR NOT NULL"),
    ("classification", pa.string(), "VARCHAR NOT NULL"),
    ("agent", pa.string(), "VARCHAR"),
    ("shared", pa.bool_(), "BOOLEAN NOT NULL"),
    ("negated", pa.bool_(), "BOOLEAN NOT NULL"),
    ("chain_id", pa.string(), f"VARCHAR {IDS} NOT NULL"),
    ("masked", pa.bool_(), "BOOLEAN NOT NULL"),
    ("content_rev", pa.int64(), "INTEGER NOT NULL"),
    ("stream_id", pa.string(), f"VARCHAR {IDS} NOT NULL"),
    ("position", pa.int64(), "BIGINT NOT NULL"),
    ("tenant_entity", pa.string(), "VARCHAR"),
    ("shard", pa.int16(), "SMALLINT NOT NULL"),
]
COLUMN_NAMES = [name for name, _, _ in VERSION_COLUMNS]
ARROW_SCHEMA = pa.schema([(name, typ) for name, typ, _ in VERSION_COLUMNS])
TIME_COLUMNS = frozenset(n for n, t, _ in VERSION_COLUMNS if t == TS)

PUBLIC_COLUMNS = [c for c in COLUMN_NAMES if c not in ("present_state", "stream_id", "position",
                                                       "content_rev", "tenant_entity", "shard")]


def tenant_entity(tenant: str, entity: str | None) -> str | None:
    """The key point reads look rows up by (``tenant_entity``, indexed): the entity alone
    would also fetch every other tenant's rows of a common id such as ``user:me``."""
    return None if entity is None else f"{tenant}\x1f{entity}"


MASKED_TEXT = "[masked]"
"""Placeholder that replaces masked content in every view (value holds it as a JSON string)."""


def _sql_list(values: frozenset[str]) -> str:
    return ", ".join(f"'{v}'" for v in sorted(values))


RETRIEVABLE_SQL = _sql_list(RETRIEVABLE_STATES)
INELIGIBLE_SQL = _sql_list(INELIGIBLE_NOW)

ELIGIBLE = f"state IN ({RETRIEVABLE_SQL}) AND present_state NOT IN ({INELIGIBLE_SQL})"
"""Row filter every normal read applies: retrievable then, not revoked now."""


def eligible(state: str, present_state: str) -> bool:
    """:data:`ELIGIBLE` for one row already fetched (the point-read path)."""
    return state in RETRIEVABLE_STATES and present_state not in INELIGIBLE_NOW


NOW = "getvariable('memory_es_now')"

TABLE_DDL = [
    "CREATE TABLE IF NOT EXISTS fact_versions ("
    + ", ".join(f"{name} {sql}" for name, _, sql in VERSION_COLUMNS)
    + ")",
    # Point reads (one entity) look rows up through this index instead of a scan.
    "CREATE INDEX IF NOT EXISTS fact_versions_tenant_entity ON fact_versions (tenant_entity)",
    # Purges, their residue checks and masks find a fact's rows by id: a lookup, not a scan
    # of a million rows (15 ms at 1M; ≈ 0.6 µs per inserted row to keep up).
    "CREATE INDEX IF NOT EXISTS fact_versions_fact ON fact_versions (fact_id)",
    # A purge's residue report finds the consolidation patterns' rows (a handful) by their
    # attribute instead of reading the attribute of every row (1.3 ms at 100k).
    "CREATE INDEX IF NOT EXISTS fact_versions_attribute ON fact_versions (attribute)",
    "CREATE TABLE IF NOT EXISTS tracking (name VARCHAR PRIMARY KEY, position BIGINT NOT NULL)",
    # governance (SPEC §12.1-12.4): append-only, ids and numbers only (projections.governance)
    "CREATE TABLE IF NOT EXISTS served (tenant VARCHAR NOT NULL, recall_id VARCHAR, "
    "fact_id VARCHAR NOT NULL, rank INTEGER NOT NULL, served_at TIMESTAMPTZ NOT NULL, "
    "position BIGINT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS judgements (tenant VARCHAR NOT NULL, recall_id VARCHAR NOT NULL, "
    "fact_id VARCHAR NOT NULL, judgement VARCHAR NOT NULL, judged_at TIMESTAMPTZ NOT NULL, "
    "position BIGINT NOT NULL, event_id VARCHAR NOT NULL)",
    "CREATE TABLE IF NOT EXISTS tier_moves (tenant VARCHAR NOT NULL, fact_id VARCHAR NOT NULL, "
    "from_tier VARCHAR NOT NULL, to_tier VARCHAR NOT NULL, reason VARCHAR, "
    "moved_at TIMESTAMPTZ NOT NULL, position BIGINT NOT NULL, event_id VARCHAR NOT NULL)",
    "CREATE TABLE IF NOT EXISTS feedback (tenant VARCHAR NOT NULL, fact_id VARCHAR NOT NULL, "
    "outcome VARCHAR NOT NULL, recorded_at TIMESTAMPTZ NOT NULL, position BIGINT NOT NULL, "
    "event_id VARCHAR NOT NULL)",
    "CREATE TABLE IF NOT EXISTS meta (name VARCHAR PRIMARY KEY, value VARCHAR)",
]

VIEW_DDL = [
    f"""CREATE OR REPLACE VIEW facts_current AS
        SELECT {", ".join(PUBLIC_COLUMNS)} FROM fact_versions
        WHERE recorded_until IS NULL AND {ELIGIBLE}
          AND valid_from <= {NOW} AND (valid_until IS NULL OR {NOW} < valid_until)""",
    f"""CREATE OR REPLACE VIEW facts_as_of AS
        SELECT {", ".join(PUBLIC_COLUMNS)} FROM fact_versions
        WHERE recorded_at <= getvariable('memory_es_known_at')
          AND (recorded_until IS NULL OR getvariable('memory_es_known_at') < recorded_until)
          AND valid_from <= getvariable('memory_es_valid_at')
          AND (valid_until IS NULL OR getvariable('memory_es_valid_at') < valid_until)
          AND {ELIGIBLE}""",
    f"""CREATE OR REPLACE VIEW fact_chains AS
        SELECT {", ".join(PUBLIC_COLUMNS)} FROM fact_versions
        WHERE present_state NOT IN ({INELIGIBLE_SQL})""",
]
"""The views over ``fact_versions``: the same definitions serve the views file and the
``sql()`` sandbox."""

DDL = [*TABLE_DDL, *VIEW_DDL]

VIEWS = ("fact_versions", "facts_current", "facts_as_of", "fact_chains")

KEPT_TABLES = ("exports", "export_temps", "meta")
"""Tables of the views file that are not derived from the log: a rebuild carries them over."""
