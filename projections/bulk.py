"""The version projection for a rebuild: whole stretches of the log into a fresh table.

A rebuild replays every event into an empty table, so nothing a follower or a reader
needs between two events has to exist: changes are decoded straight into flat columns
(one entry per change, its portions in one flat list), and the versions are derived
from those columns in one pass over them sorted by fact, with numpy and Arrow instead
of a Python loop that carries each fact's belief from change to change:

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

import zlib
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from memory_es.crypto.mapper import Unsealed
from projections.schema import ARROW_SCHEMA
from projections.snapshot import SHARDS
from projections.versions import CONTENT, NEW_TIER, Content, VersionProjector, _content, _masked

REBUILD_BATCH = 50_000
"""Events per batch of a rebuild: DuckDB's cost per statement and per registered table
is paid once per batch, and a batch's columns stay a few hundred MB at most."""

_TYPES = {f.name: f.type for f in ARROW_SCHEMA}


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

    def _apply_changes(self, batch: Sequence[tuple[int, Unsealed, dict[str, Any]]]) -> set[str]:
        if not batch:
            return set()
        # 1. Decode: one entry per change, in log order.
        codes: dict[str, int] = {}
        c_fact: list[int] = []
        c_pos: list[int] = []
        c_k: list[int] = []
        c_at: list[int] = []
        c_state: list[str] = []
        c_by: list[str | None] = []
        c_verified: list[int | None] = []
        c_content: list[int] = []
        c_parts: list[int] = []
        content_fact: list[int] = []
        starts: list[int] = []
        ends: list[int | None] = []
        contents: list[Content] = []
        created: set[str] = set()
        needed: set[str] = set()
        for pos, ev, body in batch:
            at, stream_id = ev.recorded_at, ev.stream_id
            for k, ch in enumerate(body["changes"] if body else ()):
                fid = ch["fact_id"]
                code = codes.setdefault(fid, len(codes))
                content = ch.get("content")
                if content is not None:
                    c_content.append(len(contents))
                    contents.append(_content(content, stream_id))
                    content_fact.append(code)
                    if not content.get("rev"):
                        created.add(fid)
                    elif fid not in created:
                        needed.add(fid)
                else:
                    c_content.append(-1)
                    if fid not in created:
                        needed.add(fid)
                c_fact.append(code)
                c_pos.append(pos)
                c_k.append(k)
                c_at.append(at)
                c_state.append(ch["state"])
                c_by.append(ch.get("superseded_by"))
                c_verified.append(ch.get("verified_at"))
                portions = ch["portions"]
                c_parts.append(len(portions))
                for start, end in portions:
                    starts.append(start)
                    ends.append(end)
        if not c_fact:
            return set()
        fact_ids = list(codes)
        latest = self._latest(sorted(needed))
        in_db = set(latest)

        # 2. Seeds: what the table holds of facts an earlier batch wrote, as entries that
        # come first in their fact's run and make no version.
        seed_fact = [codes[f] for f in latest]
        n_seed = len(seed_fact)
        masked = np.zeros(len(codes), dtype=bool)
        tier: list[str] = [NEW_TIER] * len(codes)
        seed_content: list[int] = []
        seed_by: list[str | None] = []
        seed_verified: list[int | None] = []
        for fid, (cont, carried_by, carried_verified, is_masked, fact_tier) in latest.items():
            seed_content.append(len(contents))
            contents.append(cont)
            content_fact.append(codes[fid])
            seed_by.append(carried_by)
            seed_verified.append(carried_verified)
            masked[codes[fid]] = is_masked
            tier[codes[fid]] = fact_tier
        if not contents:  # every change is of a fact whose chain was purged
            self._segments.append((None, {}, {}, created))
            return set()
        if masked.any():  # a masked fact's later contents are masked too
            contents = [_masked(c) if masked[f] else c
                        for c, f in zip(contents, content_fact, strict=True)]

        # 3. The sorted pass: entries by fact (seeds first), then log order.
        fact = np.asarray(seed_fact + c_fact, dtype=np.int64)
        content_of = np.asarray(seed_content + c_content, dtype=np.int64)
        all_by = seed_by + c_by
        all_verified = seed_verified + c_verified
        order = np.argsort(fact, kind="stable")
        s_fact = fact[order]
        _, run_start = _runs(s_fact)
        s_content = content_of[order]
        has = _last_given(s_content >= 0, run_start)
        keep = has >= 0  # a change before any content of a fact not in the table: no version
        is_seed = order < n_seed
        by_given = np.fromiter((b is not None for b in all_by), np.bool_,
                               len(all_by))[order] & keep
        verified_given = np.fromiter((v is not None for v in all_verified), np.bool_,
                                     len(all_verified))[order] & keep
        s_content = s_content[has]
        by_at = _last_given(by_given, run_start)
        s_by = np.where(by_at >= 0, order[by_at], 0)
        verified_at = _last_given(verified_given, run_start)
        s_verified = np.where(verified_at >= 0, order[verified_at], 0)

        changes = keep & ~is_seed
        idx = np.flatnonzero(changes)  # sorted positions of the changes that make versions
        change = order[idx] - n_seed  # their index in log order
        ch_fact = s_fact[idx]
        times = np.asarray(c_at, dtype=np.int64)
        ch_at = times[change]
        same_next = np.zeros(idx.size, dtype=bool)
        same_next[:-1] = ch_fact[1:] == ch_fact[:-1]
        until = np.zeros(idx.size, dtype=np.int64)
        until[:-1] = ch_at[1:]
        first_change = np.ones(idx.size, dtype=bool)
        first_change[1:] = ~same_next[:-1]
        last_change = ~same_next
        state_arr = pa.array(c_state, pa.string())
        final_state = dict(zip(
            (fact_ids[f] for f in ch_fact[last_change].tolist()),
            state_arr.take(pa.array(change[last_change])).to_pylist(), strict=True))
        closes = {fact_ids[f]: t for f, t in zip(
            ch_fact[first_change].tolist(), ch_at[first_change].tolist(), strict=True)
            if fact_ids[f] in in_db}
        final_content = dict(zip(ch_fact[last_change].tolist(),
                                 s_content[idx][last_change].tolist(), strict=True))

        # 4. Versions, back in log order: one per portion of each change.
        back = np.argsort(change, kind="stable")
        change, idx = change[back], idx[back]
        ch_until_given = same_next[back]
        ch_until = until[back]
        parts = np.asarray(c_parts, dtype=np.int64)
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
        table_contents = pa.table(
            [pa.array(col, _TYPES[name]) for name, col in
             zip(CONTENT, zip(*contents, strict=True), strict=True)], names=list(CONTENT))
        content_rows = pa.array(s_content[src])
        for name in CONTENT:
            columns[name] = table_contents.column(name).take(content_rows)
        pos = pa.array(np.asarray(c_pos, dtype=np.int64)[of_change])
        columns["version_id"] = pc.binary_join_element_wise(
            pos.cast(pa.string()),
            pa.array(np.asarray(c_k, dtype=np.int64)[of_change]).cast(pa.string()),
            pa.array(portion).cast(pa.string()), ".")
        columns["fact_id"] = pa.array(fact_ids, pa.string()).take(
            pa.array(s_fact[src]))
        columns["valid_from"] = pa.array(starts, pa.int64()).take(take_flat)
        columns["valid_until"] = pa.array(ends, pa.int64()).take(take_flat)
        columns["recorded_at"] = pa.array(times[of_change])
        columns["recorded_until"] = pa.array(ch_until[row_change],
                                             mask=~ch_until_given[row_change])
        columns["superseded_by"] = pa.array(all_by, pa.string()).take(
            pa.array(s_by[src], mask=by_at[src] < 0))
        columns["verified_at"] = pa.array(all_verified, pa.int64()).take(
            pa.array(s_verified[src], mask=verified_at[src] < 0))
        columns["state"] = state_arr.take(pa.array(of_change))
        row_fact = s_fact[src]
        columns["masked"] = pa.array(masked[row_fact])
        columns["tier"] = pa.array(tier, pa.string()).take(pa.array(row_fact))
        columns["position"] = pos
        present = [final_state.get(f, "") for f in fact_ids]
        columns["present_state"] = pa.array(present, pa.string()).take(pa.array(row_fact))
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

        states = {f: s for f, s in final_state.items() if f in in_db}
        shard_list = shards.to_pylist()
        self.dirty_shards.update(shard_list[c] for c in final_content.values())
        self._shard_known |= final_state.keys()
        self._write(table, closes, states)
        self._segments.append((table, closes, states, created))
        return set(final_state)
