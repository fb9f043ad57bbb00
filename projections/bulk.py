"""The version projection for a rebuild: whole stretches of the log into a fresh table.

A rebuild replays every event into an empty table, so nothing a follower or a reader
needs between two events has to exist: a segment's event bodies go to DuckDB as one
Arrow column of JSON and come back as flat columns, one row per change (:func:`decode`:
no dict per body, no tuple per content; measured at 51k events, the projector's CPU
0.65-0.68 -> 0.39-0.46 s against the Python decode it replaced), and the versions are
derived from those columns in one pass over them sorted by fact, with numpy and Arrow
instead of a Python loop that carries each fact's belief from change to change:

- a change carries its fact's latest content, ``superseded_by`` and ``verified_at``:
  each is the last one given at or before it (a forward fill within the fact's run of
  the sorted changes), seeded with what the table holds of facts that an earlier batch
  wrote (:meth:`VersionProjector._latest`); a change of a fact with no content yet (its
  chain was purged) makes no version, as in the incremental path;
- a version's ``recorded_until`` is the transaction time of its fact's next change, and
  ``present_state`` the state of its fact's last one;
- the rows keep the log's order (position, change, portion), so the table is the one
  the incremental path writes, row for row.

Everything else — batches split at masks, unmasks, purges and tier moves, governance
rows, the set-based close of facts already in the table, the tracking position — is
:class:`VersionProjector`'s own code, so the two paths differ in this one step only
(``tests/integration/test_bulk_rebuild.py`` compares them on random histories).
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from operator import attrgetter, itemgetter
from typing import Any

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from memory_es.crypto.mapper import Unsealed, parse_body, plaintexts
from memory_es.domain.events import EVENT_TYPES
from projections import governance
from projections.schema import ARROW_SCHEMA, MASKED_TEXT
from projections.snapshot import SHARDS
from projections.versions import (
    CONTENT,
    MASKED_VALUE,
    NEW_TIER,
    ROW_REWRITES,
    Content,
    VersionProjector,
    _dumps,
)

REBUILD_BATCH = 50_000
"""Events per batch of a rebuild: DuckDB's cost per statement and per registered table
is paid once per batch, and a batch's columns stay a few hundred MB at most."""

_TYPES = {f.name: f.type for f in ARROW_SCHEMA}
_CONTENT_SCHEMA = pa.schema([(name, _TYPES[name]) for name in CONTENT])


_STRUCTURE = json.dumps({"changes": [{
    "fact_id": "VARCHAR", "portions": [["BIGINT"]], "state": "VARCHAR",
    "superseded_by": "VARCHAR", "verified_at": "BIGINT",
    "content": {"tenant": "VARCHAR", "entity": "VARCHAR", "mention": "VARCHAR",
                "attribute": "VARCHAR", "value": "JSON", "text": "VARCHAR",
                "supersedes": ["VARCHAR"], "derived_from": ["VARCHAR"], "source": "VARCHAR",
                "asserted_by": "VARCHAR", "volatility": "VARCHAR", "confidence": "DOUBLE",
                "importance": "DOUBLE", "classification": "VARCHAR", "agent": "VARCHAR",
                "shared": "BOOLEAN", "negated": "BOOLEAN", "chain_id": "VARCHAR",
                "rev": "BIGINT"}}]})
_DEFAULTS = {"supersedes": "[]::VARCHAR[]", "derived_from": "[]::VARCHAR[]",
             "asserted_by": "'user'", "volatility": "'stable'", "confidence": "1.0",
             "importance": "0.5", "classification": "'internal'", "shared": "false",
             "negated": "false"}
"""What :func:`projections.versions._content` takes for a key the body does not have."""
_FIELDS = [f"coalesce(ch.content.{c}, {_DEFAULTS[c]}) AS {c}" if c in _DEFAULTS
           else f"ch.content.{c} AS {c}"
           for c in CONTENT if c not in ("value", "content_rev", "stream_id")]
_DECODE = (
    "SELECT i, k, ch.fact_id AS fact_id, ch.state AS state, ch.superseded_by AS "
    "superseded_by, ch.verified_at AS verified_at, ch.portions AS portions, "
    "ch.content IS NOT NULL AS has_content, ch.content.value::VARCHAR AS value, "
    "coalesce(ch.content.rev, 0) AS content_rev, " + ", ".join(_FIELDS)
    + " FROM (SELECT i, unnest(j.changes) AS ch, unnest(range(len(j.changes))) AS k FROM "
    f"(SELECT i, json_transform(body, '{_STRUCTURE}') AS j FROM _bodies))")
"""Every change of the registered bodies, one row each (in log order unless DuckDB was
told it need not keep the insertion order: :func:`decode` checks), content flattened
with :func:`projections.versions._content`'s defaults; ``value`` as DuckDB writes the
JSON (see :func:`_values`)."""
_SAME_JSON = r'^"[^"\\]*"$|^true$|^false$|^-?[1-9][0-9]{0,14}$|^0$'
"""A value whose JSON DuckDB writes as :func:`projections.versions._dumps` does: a string
with nothing to escape, a boolean, an integer of at most 15 digits (exact in a double)."""


def _plaintext(ev: Unsealed) -> bytes:
    raw = ev.plaintext
    if raw is None:  # made from a parsed body
        raw = json.dumps(ev.body, ensure_ascii=False, separators=(",", ":")).encode()
    return raw


_POSITION, _EVENT = itemgetter(0), itemgetter(1)
_TOPIC, _STREAM, _RECORDED = (attrgetter("topic"), attrgetter("stream_id"),
                              attrgetter("recorded_at"))
_DISPATCHED = governance.RECORD_EVENTS | governance.TIER_EVENTS | ROW_REWRITES
"""Kinds of event :meth:`VersionProjector._apply` takes out of a segment of changes."""


@dataclass(frozen=True)
class Segment:
    """A segment's events as columns: each read once, in C where it can be (a Python pass
    per event and per column cost ≈ 0.2-0.5 µs an event each at 100k events)."""

    positions: np.ndarray
    times: np.ndarray
    streams: pa.Array
    raws: list[bytes]

    @classmethod
    def of(cls, batch: Sequence[tuple[Any, ...]], raws: list[bytes] | None = None
           ) -> Segment:
        """``batch``: (position, event, ...) items; ``raws``: their bodies' JSON, when known."""
        events = list(map(_EVENT, batch))
        n = len(events)
        return cls(np.fromiter(map(_POSITION, batch), np.int64, n),
                   np.fromiter(map(_RECORDED, events), np.int64, n),
                   pa.array(list(map(_STREAM, events)), pa.string()),
                   list(map(_plaintext, events)) if raws is None else raws)


def plain_segment(batch: Sequence[tuple[int, Unsealed]]) -> Segment | None:
    """``batch`` as a :class:`Segment` when :meth:`VersionProjector._apply` would make it
    one segment of changes (no shredded event, no record, tier move or rewrite), else None."""
    raws = plaintexts(list(map(_EVENT, batch)))
    if raws is None:
        return None
    for topic in set(map(_TOPIC, map(_EVENT, batch))):
        if EVENT_TYPES.get(topic) in _DISPATCHED:
            return None
    return Segment.of(batch, raws)


def decode(con: duckdb.DuckDBPyConnection, segment: Segment) -> pa.Table:
    """The changes of a segment's events, one row per change in log order (``i``: the
    event's index in the segment, ``k``: the change's in its event), content columns as
    :data:`projections.versions.CONTENT` names them, ``stream_id`` included.

    The bodies are parsed by DuckDB in one statement (no dict per body, no tuple per
    content): their JSON goes in as one Arrow column."""
    raws = segment.raws
    con.register("_bodies", pa.table({
        "i": pa.array(np.arange(len(raws), dtype=np.int64)), "body": _strings(raws)}))
    try:
        changes = con.sql(_DECODE).to_arrow_table()
    finally:
        con.unregister("_bodies")
    i, k = changes.column("i").to_numpy(), changes.column("k").to_numpy()
    if i.size > 1 and not np.all((i[1:] > i[:-1]) | ((i[1:] == i[:-1]) & (k[1:] > k[:-1]))):
        changes = changes.take(pc.sort_indices(changes, [("i", "ascending"),
                                                         ("k", "ascending")]))
    event = changes.column("i")
    changes = changes.append_column("stream_id", segment.streams.take(event))
    values = _values(changes, raws)
    return changes.set_column(changes.schema.get_field_index("value"), "value", values)


def _values(changes: pa.Table, raws: list[bytes]) -> pa.Array:
    """Each content's ``value`` as :func:`projections.versions._dumps` writes it: DuckDB's
    JSON where it is the same text (:data:`_SAME_JSON`), else the value parsed again from
    its body in Python (floats, escapes, objects, lists: rare)."""
    given = changes.column("value").combine_chunks()
    same = pc.fill_null(pc.match_substring_regex(given, _SAME_JSON), True)
    values = pc.fill_null(given, "null")
    redo = np.flatnonzero(~same.to_numpy(zero_copy_only=False))
    if not redo.size:
        return values
    events = changes.column("i").to_numpy()[redo].tolist()
    ks = changes.column("k").to_numpy()[redo].tolist()
    out = values.to_pylist()
    for row, i, k in zip(redo.tolist(), events, ks, strict=True):
        out[row] = _dumps(parse_body(raws[i])["changes"][k]["content"].get("value"))
    return pa.array(out, pa.string())


def _strings(raws: list[bytes]) -> pa.Array:
    """UTF-8 texts as one Arrow string array, built from one joined buffer and offsets
    (checked as UTF-8 once, not converted item by item)."""
    offsets = np.zeros(len(raws) + 1, dtype=np.int64)
    np.cumsum(np.fromiter(map(len, raws), np.int64, len(raws)), out=offsets[1:])
    strings = pa.Array.from_buffers(pa.large_string(), len(raws), [
        None, pa.py_buffer(offsets), pa.py_buffer(b"".join(raws))])
    strings.validate(full=True)
    return strings


def _facts_of(ids: pa.Array, codes: np.ndarray) -> list[str]:
    """The fact ids of some codes (each once)."""
    chosen = np.zeros(len(ids), dtype=bool)
    chosen[codes] = True
    found: list[str] = ids.filter(pa.array(chosen)).to_pylist()
    return found


def _valid(values: pa.Array) -> np.ndarray:
    valid: np.ndarray = pc.is_valid(values).to_numpy(zero_copy_only=False)
    return valid


def _masked_rows(contents: pa.Table, masked: np.ndarray) -> pa.Table:
    """:func:`projections.versions._masked` of the content rows where ``masked`` holds."""
    where = pa.array(masked)
    for name, placeholder in (("value", MASKED_VALUE), ("text", MASKED_TEXT),
                              ("mention", None), ("source", None)):
        column = contents.column(name)
        contents = contents.set_column(
            contents.schema.get_field_index(name), name,
            pc.if_else(where, pa.scalar(placeholder, column.type), column))
    return contents


def _runs(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For codes sorted into runs: whether each position starts a run, and each
    position's run start."""
    first = np.empty(codes.size, dtype=bool)
    if codes.size:
        first[0] = True
        np.not_equal(codes[1:], codes[:-1], out=first[1:])
    starts = np.flatnonzero(first)
    return first, starts[np.cumsum(first) - 1]


def _last_given(given: np.ndarray, start: np.ndarray) -> np.ndarray:
    """Per position, the last position of its run at or before it where ``given`` holds
    (-1 when none): a forward fill of positions."""
    found = np.where(given, np.arange(given.size), -1)
    np.maximum.accumulate(found, out=found)
    found[found < start] = -1
    return found


def _shard(key: str) -> int:
    """:func:`projections.snapshot.shard_of` of a ``tenant_entity`` or, without an
    entity, of the chain id."""
    return zlib.crc32(key.encode()) % SHARDS


class BulkVersionProjector(VersionProjector):
    """A :class:`VersionProjector` whose changes are derived set-based; for a fresh table
    (a rebuild), fed in batches of :data:`REBUILD_BATCH`. Same rows, same tracking."""

    parses_changes = False  # bodies of a segment are decoded together (:func:`decode`)

    def _apply_whole(self, batch: Sequence[tuple[int, Unsealed]]) -> set[str] | None:
        segment = plain_segment(batch)  # (a rebuild's batches are, but for a few events)
        return None if segment is None else self._apply_segment(segment)

    def _apply_changes(self, batch: Sequence[tuple[int, Unsealed, dict[str, Any]]]) -> set[str]:
        return self._apply_segment(Segment.of(batch)) if batch else set()

    def _apply_segment(self, segment: Segment) -> set[str]:
        if not segment.raws:
            return set()
        # 1. Decode: one entry per change, in log order (DuckDB parses the bodies).
        changes = decode(self.con, segment)
        n = changes.num_rows
        if not n:
            return set()
        event = changes.column("i").to_numpy()
        c_k = changes.column("k").to_numpy()
        by_fact = changes.column("fact_id").combine_chunks().dictionary_encode()
        ids = by_fact.dictionary  # in order of first change
        n_facts = len(ids)
        c_fact = by_fact.indices.to_numpy().astype(np.int64)
        with_content = changes.column("has_content").to_numpy(zero_copy_only=False)
        creates = with_content & (changes.column("content_rev").to_numpy() == 0)
        # a fact is needed from the table when a change of it that does not create it comes
        # before the change that does (a fact is new only with its first content)
        first_create = np.full(n_facts, n, dtype=np.int64)
        np.minimum.at(first_create, c_fact[creates], np.flatnonzero(creates))
        needs = ~creates & (np.arange(n) < first_create[c_fact])
        created = set(_facts_of(ids, c_fact[creates])) if self.followed else set()
        latest = self._latest(sorted(_facts_of(ids, c_fact[needs])))
        c_content = np.where(with_content, np.cumsum(with_content) - 1, -1)
        content_fact = c_fact[with_content]
        batch_contents = changes.filter(pa.array(with_content)).select(
            list(CONTENT)).cast(_CONTENT_SCHEMA)
        c_pos = segment.positions[event]
        c_at = segment.times[event]
        portions = changes.column("portions").combine_chunks()
        c_parts = pc.fill_null(pc.list_value_length(portions), 0).to_numpy()
        pairs = pc.list_flatten(portions)
        starts = pc.list_element(pairs, 0)
        ends = pc.list_element(pairs, 1)
        state_arr = changes.column("state").combine_chunks()
        c_by = changes.column("superseded_by").combine_chunks()
        c_verified = changes.column("verified_at").combine_chunks()

        # 2. Seeds: what the table holds of facts an earlier batch wrote, as entries that
        # come first in their fact's run and make no version.
        n_seed = len(latest)
        seed_fact = pc.index_in(pa.array(list(latest), pa.string()),
                                ids).to_numpy(zero_copy_only=False).astype(np.int64)
        seeded = np.zeros(n_facts, dtype=bool)  # the facts already in the table
        seeded[seed_fact] = True
        masked = np.zeros(n_facts, dtype=bool)
        tiers = {NEW_TIER: 0}
        tier = np.zeros(n_facts, dtype=np.int64)
        seed_contents: list[Content] = []
        seed_by: list[str | None] = []
        seed_verified: list[int | None] = []
        for code, (cont, carried_by, carried_verified, is_masked, fact_tier) in zip(
                seed_fact.tolist(), latest.values(), strict=True):
            seed_contents.append(cont)
            seed_by.append(carried_by)
            seed_verified.append(carried_verified)
            masked[code] = is_masked
            tier[code] = tiers.setdefault(fact_tier, len(tiers))
        n_batch = batch_contents.num_rows
        if not n_batch and not n_seed:  # every change is of a fact whose chain was purged
            self._segments.append((None, {}, {}, created))
            return set()
        contents = batch_contents
        if n_seed:
            contents = pa.concat_tables([batch_contents, pa.table(
                [pa.array(col, _TYPES[name]) for name, col in
                 zip(CONTENT, zip(*seed_contents, strict=True), strict=True)],
                schema=_CONTENT_SCHEMA)])
        content_fact = np.concatenate([content_fact, seed_fact])
        if masked.any():  # a masked fact's later contents are masked too
            contents = _masked_rows(contents, masked[content_fact])
        seed_content = np.arange(n_batch, n_batch + n_seed, dtype=np.int64)

        # 3. The sorted pass: entries by fact (seeds first), then log order.
        fact = np.concatenate([seed_fact, c_fact])
        content_of = np.concatenate([seed_content, c_content])
        all_by = pa.concat_arrays([pa.array(seed_by, pa.string()), c_by.cast(pa.string())])
        all_verified = pa.concat_arrays([pa.array(seed_verified, pa.int64()),
                                         c_verified.cast(pa.int64())])
        order = np.argsort(fact, kind="stable")
        s_fact = fact[order]
        _, run_start = _runs(s_fact)
        s_content = content_of[order]
        has = _last_given(s_content >= 0, run_start)
        keep = has >= 0  # a change before any content of a fact not in the table: no version
        is_seed = order < n_seed
        by_given = _valid(all_by)[order] & keep
        verified_given = _valid(all_verified)[order] & keep
        s_content = s_content[has]
        by_at = _last_given(by_given, run_start)
        s_by = np.where(by_at >= 0, order[by_at], 0)
        verified_at = _last_given(verified_given, run_start)
        s_verified = np.where(verified_at >= 0, order[verified_at], 0)

        makes = keep & ~is_seed
        idx = np.flatnonzero(makes)  # sorted positions of the changes that make versions
        change = order[idx] - n_seed  # their index in log order
        ch_fact = s_fact[idx]
        times = c_at
        ch_at = times[change]
        same_next = np.zeros(idx.size, dtype=bool)
        same_next[:-1] = ch_fact[1:] == ch_fact[:-1]
        until = np.zeros(idx.size, dtype=np.int64)
        until[:-1] = ch_at[1:]
        first_change = np.ones(idx.size, dtype=bool)
        first_change[1:] = ~same_next[:-1]
        last_change = ~same_next
        # Per fact, its last change; closes and present states only of facts in the table.
        last_of = np.zeros(n_facts, dtype=np.int64)
        last_of[ch_fact[last_change]] = change[last_change]
        old_first = first_change & seeded[ch_fact]
        closes = dict(zip(ids.take(pa.array(ch_fact[old_first])).to_pylist(),
                          ch_at[old_first].tolist(), strict=True))
        old_last = last_change & seeded[ch_fact]
        states = dict(zip(ids.take(pa.array(ch_fact[old_last])).to_pylist(),
                          state_arr.take(pa.array(change[old_last])).to_pylist(), strict=True))
        touched = (set(ids.take(pa.array(ch_fact[last_change])).to_pylist())
                   if self.followed else set())
        final_content = s_content[idx][last_change]

        # 4. Versions, back in log order: one per portion of each change.
        back = np.argsort(change, kind="stable")
        change, idx = change[back], idx[back]
        ch_until_given = same_next[back]
        ch_until = until[back]
        parts = c_parts.astype(np.int64)
        offsets = np.zeros(parts.size + 1, dtype=np.int64)
        np.cumsum(parts, out=offsets[1:])
        n_rows = parts[change]
        row_change = np.repeat(np.arange(change.size), n_rows)
        row_first = np.repeat(np.cumsum(n_rows) - n_rows, n_rows)
        portion = np.arange(row_change.size) - row_first
        flat = offsets[change][row_change] + portion
        of_change = change[row_change]  # each row's change, in log order
        src = idx[row_change]  # each row's sorted position

        take_flat = pa.array(flat)
        columns: dict[str, Any] = {}
        table_contents = contents
        content_rows = pa.array(s_content[src])
        for name in CONTENT:
            columns[name] = table_contents.column(name).take(content_rows)
        pos = pa.array(c_pos[of_change])
        columns["version_id"] = pc.binary_join_element_wise(
            pos.cast(pa.string()),
            pa.array(c_k[of_change]).cast(pa.string()),
            pa.array(portion).cast(pa.string()), ".")
        columns["fact_id"] = ids.take(pa.array(s_fact[src]))
        columns["valid_from"] = starts.take(take_flat)
        columns["valid_until"] = ends.take(take_flat)
        columns["recorded_at"] = pa.array(times[of_change])
        columns["recorded_until"] = pa.array(ch_until[row_change],
                                             mask=~ch_until_given[row_change])
        columns["superseded_by"] = all_by.take(
            pa.array(s_by[src], mask=by_at[src] < 0))
        columns["verified_at"] = all_verified.take(
            pa.array(s_verified[src], mask=verified_at[src] < 0))
        columns["state"] = state_arr.take(pa.array(of_change))
        row_fact = s_fact[src]
        columns["masked"] = pa.array(masked[row_fact])
        columns["tier"] = pa.array(list(tiers), pa.string()).take(pa.array(tier[row_fact]))
        columns["position"] = pos
        columns["present_state"] = state_arr.take(pa.array(last_of[row_fact]))
        keys = pc.binary_join_element_wise(table_contents.column("tenant"),
                                           table_contents.column("entity"), "\x1f")
        by_key = pc.dictionary_encode(pc.coalesce(keys, table_contents.column("chain_id"))
                                      .combine_chunks())
        shards = pa.array([_shard(key) for key in by_key.dictionary.to_pylist()],
                          pa.int16()).take(by_key.indices)  # once per entity
        columns["tenant_entity"] = keys.take(content_rows)
        columns["shard"] = shards.take(content_rows)
        table = (pa.table([columns[f.name].cast(f.type) for f in ARROW_SCHEMA],
                          schema=ARROW_SCHEMA) if row_change.size else None)

        self.dirty_shards.update(np.unique(shards.to_numpy()[final_content]).tolist())
        self._shard_known |= touched
        self._write(table, closes, states)
        self._segments.append((table, closes, states, created))
        return touched
