"""The in-memory mirror of the open eligible versions behind the recall index.

Each version is a *slot*: its fact's label and valid interval in numpy arrays (the
currency test runs over them at query time) and the location of its row (all public
columns, in an Arrow table read by :meth:`projections.recall.RecallIndex.sync`), so a
hit becomes a :class:`~memory_es.models.Fact` without another DuckDB query (re-reading
8 hits from DuckDB cost 5-8 ms on the development machine: a full column scan).
Nothing here is persisted: it is re-read from DuckDB when the index opens.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pyarrow as pa

from projections.schema import PUBLIC_COLUMNS

ROW_COLUMNS = ", ".join(PUBLIC_COLUMNS) + (
    ", epoch_us(valid_from) AS _vf, epoch_us(valid_until) AS _vu, "
    "epoch_us(recorded_at) AS _ra, epoch_us(verified_at) AS _va")
"""What the index selects from ``fact_versions``: the public columns plus the times in
microseconds (``_vf``, ``_vu``, ``_ra``, ``_va``)."""

MERGE_TABLES = 64
"""Row tables kept before the mirror merges them into one (each sync adds one)."""

_META_COLUMNS = ["fact_id", "tenant", "entity", "mention", "attribute", "text",
                 "classification", "confidence", "importance", "asserted_by", "volatility",
                 "state",
                 "_vf", "_vu", "_ra", "_va"]
_OPEN = np.iinfo(np.int64).max

Version = tuple[int, int, int]
"""``(valid_from, valid_until, row)``: an open valid time ends at the largest int64."""


def group_versions(table: pa.Table) -> dict[str, dict[str, Any]]:
    """Open eligible versions (rows of :data:`ROW_COLUMNS`) grouped by fact: the first
    row's fields plus ``versions``, every version's :data:`Version`."""
    facts: dict[str, dict[str, Any]] = {}
    if table.num_rows == 0:
        return facts
    cols = table.select(_META_COLUMNS).to_pydict()
    for i, fid in enumerate(cols["fact_id"]):
        entry = facts.get(fid)
        if entry is None:
            entry = {name: cols[name][i] for name in cols}
            entry["versions"] = []
            facts[fid] = entry
        vu = cols["_vu"][i]
        entry["versions"].append((cols["_vf"][i], _OPEN if vu is None else vu, i))
    return facts


class VersionMirror:
    """Slots of the open eligible versions, and the row tables that hold their rows."""

    def __init__(self) -> None:
        cap = 1024
        self.label = np.full(cap, -1, np.int64)
        self.start = np.zeros(cap, np.int64)
        self.end = np.zeros(cap, np.int64)
        self.table = np.zeros(cap, np.int64)
        self.row = np.zeros(cap, np.int64)
        self.n = 0
        self.dead = 0
        self.slots_of: dict[int, list[int]] = {}
        self.tables: dict[int, pa.Table] = {}
        self.live_rows: dict[int, int] = {}
        self._next_table = 0

    def add_table(self, table: pa.Table) -> int:
        """Hold a table of rows; returns its id for :meth:`set_many`."""
        tid = self._next_table
        self._next_table += 1
        self.tables[tid] = table
        self.live_rows[tid] = 0
        return tid

    def _room(self, extra: int) -> None:
        cap = len(self.label)
        if self.n + extra <= cap:
            return
        if self.dead * 2 > self.n:
            self.compact()
            if self.n + extra <= cap:
                return
        more = max(self.n + extra, 2 * cap) - cap
        self.label = np.concatenate([self.label, np.full(more, -1, np.int64)])
        for name in ("start", "end", "table", "row"):
            setattr(self, name, np.concatenate([getattr(self, name), np.zeros(more, np.int64)]))

    def set_many(self, labels: list[int], versions: list[list[Version]], tid: int) -> None:
        """Replace each label's versions with its :data:`Version` list (rows of table
        ``tid``)."""
        for label in labels:
            if label in self.slots_of:
                self.drop(label)
        count = sum(len(v) for v in versions)
        self._room(count)
        first = self.n
        flat = [(label, start, end, row) for label, vs in zip(labels, versions, strict=True)
                for start, end, row in vs]
        block = np.array(flat, dtype=np.int64).reshape(-1, 4)
        end = first + count
        self.label[first:end] = block[:, 0]
        self.start[first:end] = block[:, 1]
        self.end[first:end] = block[:, 2]
        self.row[first:end] = block[:, 3]
        self.table[first:end] = tid
        self.n = end
        self.live_rows[tid] = self.live_rows.get(tid, 0) + count
        slot = first
        for label, vs in zip(labels, versions, strict=True):
            self.slots_of[label] = list(range(slot, slot + len(vs)))
            slot += len(vs)

    def drop(self, label: int) -> None:
        """Forget a label's versions; a table left without live rows is let go."""
        slots = self.slots_of.pop(label, None)
        if not slots:
            return
        self.label[slots] = -1
        self.dead += len(slots)
        for s in slots:
            tid = int(self.table[s])
            self.live_rows[tid] -= 1
            if self.live_rows[tid] == 0:  # the rows (plaintext) leave memory with it
                del self.live_rows[tid]
                del self.tables[tid]

    def release_unused(self, tid: int) -> None:
        """Let table ``tid`` go if none of its rows was placed."""
        if self.live_rows.get(tid) == 0:
            del self.live_rows[tid]
            del self.tables[tid]

    def current(self, now_us: int) -> tuple[np.ndarray, np.ndarray]:
        """``(labels, slots)`` of the versions valid at ``now_us``."""
        n = self.n
        labels = self.label[:n]
        ok = (labels >= 0) & (self.start[:n] <= now_us) & (now_us < self.end[:n])
        slots = np.flatnonzero(ok)
        return labels[slots], slots

    def rows(self, slots: Sequence[int]) -> pa.Table:
        """The rows of these slots, in order."""
        return pa.concat_tables([self.tables[int(self.table[s])].slice(int(self.row[s]), 1)
                                 for s in slots])

    def compact(self) -> None:
        """Drop dead slots; merge every live row into one table."""
        live = np.flatnonzero(self.label[:self.n] >= 0)
        order = live[np.lexsort((self.row[live], self.table[live]))]
        pieces = []
        if order.size:
            tids = self.table[order]
            bounds = np.flatnonzero(np.diff(tids)) + 1
            for group in np.split(order, bounds):
                table = self.tables[int(self.table[group[0]])]
                pieces.append(table.take(pa.array(self.row[group])))
        cap = max(1024, len(self.label))
        k = order.size
        label = np.full(cap, -1, np.int64)
        start, end, row = (np.zeros(cap, np.int64) for _ in range(3))
        label[:k] = self.label[order]
        start[:k] = self.start[order]
        end[:k] = self.end[order]
        row[:k] = np.arange(k)
        self.label, self.start, self.end, self.row = label, start, end, row
        self.table = np.zeros(cap, np.int64)
        self.n, self.dead = int(k), 0
        # a table added for rows not yet placed (``sync`` -> ``set_many`` -> ``_room``) stays
        self.tables = {t: self.tables[t] for t, n in self.live_rows.items() if n == 0}
        self.live_rows = dict.fromkeys(self.tables, 0)
        if k:
            tid = self.add_table(pa.concat_tables(pieces).combine_chunks())
            self.table[:k] = tid
            self.live_rows[tid] = int(k)
        self.slots_of = {}
        for s, lab in enumerate(self.label[:k].tolist()):
            self.slots_of.setdefault(lab, []).append(s)
