"""The bitemporal version projection: fact changes -> ``fact_versions`` rows.

Every event lists each touched fact's present belief (portions + state). Applying
one closes the fact's open versions at the event's transaction time and opens one
version per portion. Batches stay columnar: rows are built as plain dicts, closed
in memory when a fact changes twice in one batch, and written with one Arrow
insert and a few set-based statements. A batch and its tracking position commit in
one DuckDB transaction, so a crash can neither lose nor double an event.

Masking, unmasking and purges rewrite rows in place (they are views, not history):
they split the batch so that set-based statements see every earlier row.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import duckdb
import pyarrow as pa

from memory_es.crypto.mapper import Unsealed
from projections.schema import ARROW_SCHEMA, COLUMN_NAMES, MASKED_TEXT

CARRIED = [c for c in COLUMN_NAMES if c not in ("version_id", "valid_from", "valid_until",
                                                 "recorded_at", "recorded_until", "position")]
_SELECT_CARRIED = ", ".join(
    "epoch_us(verified_at) AS verified_at" if c == "verified_at" else c for c in CARRIED)
MASKED_VALUE = json.dumps(MASKED_TEXT)
ROW_REWRITES = frozenset({"FactMasked", "FactUnmasked", "EntityPurged", "FactChainPurged"})


def _kind(topic: str) -> str:
    return topic.split(".")[1] if "." in topic else topic


def _content_row(content: dict[str, Any], stream_id: str) -> dict[str, Any]:
    return {
        "fact_id": None, "tenant": content["tenant"], "entity": content.get("entity"),
        "mention": content.get("mention"), "attribute": content["attribute"],
        "value": json.dumps(content.get("value"), ensure_ascii=False),
        "text": content.get("text"), "supersedes": list(content.get("supersedes") or ()),
        "superseded_by": None, "derived_from": list(content.get("derived_from") or ()),
        "source": content.get("source"), "asserted_by": content.get("asserted_by", "user"),
        "volatility": content.get("volatility", "stable"),
        "confidence": float(content.get("confidence", 1.0)), "verified_at": None,
        "state": "active", "present_state": "active",
        "classification": content.get("classification", "internal"),
        "chain_id": content["chain_id"], "masked": False, "stream_id": stream_id,
        "content_rev": int(content.get("rev", 0)),
    }


def _mask(row: dict[str, Any]) -> None:
    row.update(value=MASKED_VALUE, text=MASKED_TEXT, mention=None, source=None, masked=True)


class VersionProjector:
    """Applies batches of opened events to ``fact_versions``."""

    name = "fact_versions"

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self.con = con

    def apply(self, batch: Sequence[tuple[int, Unsealed]], position: int) -> set[str]:
        """Apply events (with log positions), move tracking to ``position``; returns the ids
        of every fact whose rows changed (for the projections that follow this one)."""
        touched: set[str] = set()
        con = self.con
        con.execute("BEGIN TRANSACTION")
        try:
            segment: list[tuple[int, Unsealed]] = []
            for pos, ev in batch:
                if ev.body is None:
                    continue
                if _kind(ev.topic) in ROW_REWRITES:
                    touched |= self._apply_changes(segment)
                    segment = []
                    touched |= self._rewrite(_kind(ev.topic), ev.body)
                else:
                    segment.append((pos, ev))
            touched |= self._apply_changes(segment)
            con.execute(
                "INSERT INTO tracking VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET "
                "position = excluded.position", [self.name, position])
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise
        return touched

    # row rewrites -------------------------------------------------------------------------

    def _rewrite(self, kind: str, body: dict[str, Any]) -> set[str]:
        con = self.con
        if kind == "FactMasked":
            con.execute("UPDATE fact_versions SET value = ?, text = ?, mention = NULL, "
                        "source = NULL, masked = true WHERE fact_id = ?",
                        [MASKED_VALUE, MASKED_TEXT, body["fact_id"]])
            return {body["fact_id"]}
        if kind == "FactUnmasked":
            for content in body["contents"]:
                con.execute(
                    "UPDATE fact_versions SET value = ?, text = ?, mention = ?, source = ?, "
                    "masked = false WHERE fact_id = ? AND content_rev = ?",
                    [json.dumps(content.get("value"), ensure_ascii=False), content.get("text"),
                     content.get("mention"), content.get("source"), body["fact_id"],
                     int(content.get("rev", 0))])
            return {body["fact_id"]}
        ids = list(body["fact_ids"])
        if ids:
            con.register("_purged", pa.table({"fact_id": pa.array(ids, pa.string())}))
            con.execute("DELETE FROM fact_versions WHERE fact_id IN (SELECT fact_id FROM _purged)")
            con.unregister("_purged")
        return set(ids)

    # fact changes -------------------------------------------------------------------------

    def _latest_from_db(self, fact_ids: list[str]) -> dict[str, dict[str, Any]]:
        if not fact_ids:
            return {}
        self.con.register("_wanted", pa.table({"fact_id": pa.array(fact_ids, pa.string())}))
        try:
            rows = self.con.sql(
                f"SELECT {_SELECT_CARRIED} FROM fact_versions "
                "WHERE fact_id IN (SELECT fact_id FROM _wanted) "
                "QUALIFY row_number() OVER (PARTITION BY fact_id "
                "ORDER BY recorded_at DESC, position DESC) = 1").to_arrow_table().to_pylist()
        finally:
            self.con.unregister("_wanted")
        return {r["fact_id"]: r for r in rows}

    def _apply_changes(self, batch: Sequence[tuple[int, Unsealed]]) -> set[str]:
        if not batch:
            return set()
        needed: set[str] = set()
        created: set[str] = set()
        for _, ev in batch:
            for ch in ev.body["changes"] if ev.body else ():
                content = ch.get("content")
                if content is not None and not content.get("rev"):
                    created.add(ch["fact_id"])  # a new fact: nothing of it can be in the table
                elif ch["fact_id"] not in created:
                    needed.add(ch["fact_id"])
        latest = self._latest_from_db(sorted(needed))
        in_db = set(latest)
        open_rows: dict[str, list[dict[str, Any]]] = {}
        new_rows: list[dict[str, Any]] = []
        closes: dict[str, int] = {}
        final_state: dict[str, str] = {}

        for pos, ev in batch:
            at = ev.recorded_at
            for k, ch in enumerate(ev.body["changes"] if ev.body else ()):
                fid = ch["fact_id"]
                content = ch.get("content")
                prev = latest.get(fid)
                if content is not None:
                    base = _content_row(content, ev.stream_id)
                    if prev is not None:
                        base["superseded_by"] = prev["superseded_by"]
                        base["verified_at"] = prev["verified_at"]
                        if prev["masked"]:
                            _mask(base)
                elif prev is None:
                    continue  # the fact's chain was purged
                else:
                    base = dict(prev)
                base["fact_id"] = fid
                base["state"] = ch["state"]
                if ch.get("superseded_by") is not None:
                    base["superseded_by"] = ch["superseded_by"]
                if ch.get("verified_at") is not None:
                    base["verified_at"] = ch["verified_at"]
                if fid in open_rows:
                    for row in open_rows.pop(fid):
                        row["recorded_until"] = at
                elif fid in in_db and fid not in closes:
                    closes[fid] = at
                rows = []
                for i, (start, end) in enumerate(ch["portions"]):
                    row = dict(base)
                    row["version_id"] = f"{pos}.{k}.{i}"
                    row["valid_from"] = start
                    row["valid_until"] = end
                    row["recorded_at"] = at
                    row["recorded_until"] = None
                    row["position"] = pos
                    rows.append(row)
                new_rows.extend(rows)
                open_rows[fid] = rows
                latest[fid] = base
                final_state[fid] = ch["state"]

        for row in new_rows:
            row["present_state"] = final_state[row["fact_id"]]
        self._write(new_rows, closes, {f: s for f, s in final_state.items() if f in in_db})
        return set(final_state)

    def _write(self, rows: list[dict[str, Any]], closes: dict[str, int],
               states: dict[str, str]) -> None:
        con = self.con
        if closes:
            con.register("_closes", pa.table({
                "fact_id": pa.array(list(closes), pa.string()),
                "at": pa.array(list(closes.values()), pa.timestamp("us", tz="UTC")),
            }))
            con.execute("UPDATE fact_versions SET recorded_until = c.at FROM _closes c "
                        "WHERE fact_versions.fact_id = c.fact_id "
                        "AND fact_versions.recorded_until IS NULL")
            con.unregister("_closes")
        if states:
            con.register("_states", pa.table({
                "fact_id": pa.array(list(states), pa.string()),
                "state": pa.array(list(states.values()), pa.string()),
            }))
            con.execute("UPDATE fact_versions SET present_state = s.state FROM _states s "
                        "WHERE fact_versions.fact_id = s.fact_id "
                        "AND fact_versions.present_state <> s.state")
            con.unregister("_states")
        if rows:
            columns = {name: [r[name] for r in rows] for name in ARROW_SCHEMA.names}
            con.register("_rows", pa.table(columns, schema=ARROW_SCHEMA))
            con.execute("INSERT INTO fact_versions SELECT * FROM _rows")
            con.unregister("_rows")
