"""The in-memory mirror of the open eligible versions behind the recall index.

Each version is a *slot*: its fact's label and valid interval in numpy arrays (the
currency test runs over them at query time) and the location of its row (all public
columns, in an Arrow table read by :meth:`projections.recall.RecallIndex.sync`), so a
hit becomes a :class:`~memory_es.models.Fact` without another DuckDB query (re-reading
8 hits from DuckDB cost 5-8 ms on the development machine: a full column scan).
Nothing here is persisted: it is re-read from DuckDB when the index opens.

Rows are held in chunks of at most :data:`CHUNK_ROWS`, so dropping the rows of removed
versions (:meth:`VersionMirror.purge_rows`, after a purge) rewrites the chunks that held
them, never every row of the store.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from projections.schema import PUBLIC_COLUMNS

ROW_COLUMNS = ", ".join(PUBLIC_COLUMNS) + (
    ", epoch_us(valid_from) AS _vf, epoch_us(valid_until) AS _vu, "
    "epoch_us(recorded_at) AS _ra, epoch_us(verified_at) AS _va")
"""What the index selects from ``fact_versions``: the public columns plus the times in
microseconds (``_vf``, ``_vu``, ``_ra``, ``_va``)."""

MERGE_TABLES = 64
"""Small row tables kept before the mirror merges them (each sync adds one)."""
CHUNK_ROWS = 1_024
"""Rows per held table at most: a table read in one go is split into chunks this size.
A purge copies each chunk that held a purged row, so this bounds that copy (one chunk
of 16,384 rows took 2-7 ms on the development machine after a reopen; at 100k facts,
:meth:`VersionMirror.purge_rows` took 2.8 ms a purge with 4,096 and 1.0 with 1,024, and
recall p50 stayed 2.1 ms: a query reads at most one chunk per hit)."""

_OPEN = np.iinfo(np.int64).max
_EPOCHS = itertools.count()

Version = tuple[int, int, int]
"""``(valid_from, valid_until, row)``: an open valid time ends at the largest int64."""


class Grouped:
    """Open eligible versions (rows of :data:`ROW_COLUMNS`) grouped by fact, column by
    column (a re-diff after a rebuild groups every open version: a dict per fact cost
    more than everything else the index does with them).

    ``fact_ids`` lists the facts in order of first appearance; fact ``i``'s fields are
    those of row ``first[i]`` (its scope, ``agent``, ``shared`` and ``derived_from``, of
    row ``last[i]``), and its versions are its rows in table order."""

    def __init__(self, table: pa.Table) -> None:
        self.table = table
        ids = pc.dictionary_encode(table.column("fact_id").combine_chunks())
        self.fact_ids: list[str] = ids.dictionary.to_pylist()
        self.index = {fid: i for i, fid in enumerate(self.fact_ids)}
        code = ids.indices.to_numpy(zero_copy_only=False).astype(np.int64)
        n = len(self.fact_ids)
        rows = np.arange(code.size, dtype=np.int64)
        self.first = np.full(n, code.size, np.int64)
        np.minimum.at(self.first, code, rows)
        self.last = np.zeros(n, np.int64)
        np.maximum.at(self.last, code, rows)
        self._order = np.argsort(code, kind="stable")  # rows by fact, in table order
        self._count = np.bincount(code, minlength=n)
        self._offset = np.cumsum(self._count) - self._count
        self._columns: dict[str, list[Any]] = {}

    def __len__(self) -> int:
        return len(self.fact_ids)

    def _values(self, name: str) -> list[Any]:
        values = self._columns.get(name)
        if values is None:
            values = self._columns[name] = self.table.column(name).to_pylist()
        return values

    def column(self, name: str, facts: np.ndarray, *, last: bool = False) -> list[Any]:
        """A column's values for these facts (indices into :attr:`fact_ids`)."""
        values = self._values(name)
        return [values[r] for r in (self.last if last else self.first)[facts].tolist()]

    def versions(self, facts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                   np.ndarray]:
        """For :meth:`VersionMirror.place`: each fact's count of versions, then their
        valid times (an open end as the largest int64) and rows, fact after fact."""
        counts = self._count[facts]
        total = int(counts.sum())
        within = np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(counts) - counts, counts)
        rows = self._order[np.repeat(self._offset[facts], counts) + within]
        starts, ends = self._values("_vf"), self._values("_vu")
        at = rows.tolist()
        return (counts, np.array([starts[r] for r in at], np.int64),
                np.array([_OPEN if ends[r] is None else ends[r] for r in at], np.int64), rows)


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
        self.in_table: dict[int, list[np.ndarray]] = {}
        """Per held table, the slots placed in it (dead ones and ones since moved included:
        a reader checks :attr:`table` and :attr:`label`), so :meth:`purge_rows` finds a
        table's slots without scanning every slot."""
        self.tables: dict[int, pa.Table] = {}
        self.live_rows: dict[int, int] = {}
        self.dead_rows: dict[int, int] = {}
        """Per held table, rows of dropped versions it still holds (:meth:`purge_rows`)."""
        self._chunks: dict[int, int] = {}  # first table id of an added table -> its chunks
        self._latest: dict[int, int] = {}  # held table -> the latest recorded_at it holds
        self._next_table = 0
        self.generation = 0
        """Bumped by every change to the slots, so a reader can tell a cached answer of
        :meth:`current` from a stale one."""
        self.epoch = next(_EPOCHS)
        """Changed (to a number no mirror of this process had) when slots are renumbered
        (:meth:`compact`): what a reader kept by slot number is void then, while a label's
        slots changed by :meth:`place` or :meth:`drop_many` void only that label's."""

    def add_table(self, table: pa.Table) -> int:
        """Hold a table of rows (as chunks of :data:`CHUNK_ROWS`); returns its id for
        :meth:`set_many`."""
        first = self._next_table
        count = max(1, -(-table.num_rows // CHUNK_ROWS))
        for i in range(count):
            tid = first + i
            self.tables[tid] = table.slice(i * CHUNK_ROWS, CHUNK_ROWS)
            self.live_rows[tid] = 0
        self._next_table += count
        self._chunks[first] = count
        return first

    @property
    def held_dead(self) -> int:
        """Rows of dropped versions still held in memory (until :meth:`purge_rows`)."""
        return sum(self.dead_rows.values())

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
        flat = [(start, end, row) for vs in versions for start, end, row in vs]
        block = np.array(flat, dtype=np.int64).reshape(-1, 3)
        self.place(np.asarray(labels, np.int64), np.array([len(v) for v in versions], np.int64),
                   block[:, 0], block[:, 1], block[:, 2], tid)

    def place(self, labels: np.ndarray, counts: np.ndarray, starts: np.ndarray,
              ends: np.ndarray, rows: np.ndarray, tid: int) -> None:
        """:meth:`set_many` in columns: label ``labels[i]`` gets the next ``counts[i]``
        versions of ``starts``, ``ends`` (valid time) and ``rows`` (of table ``tid``)."""
        self.generation += 1
        label_list = labels.tolist()
        self.drop_many(label_list)
        count = int(counts.sum())
        self._room(count)
        first = self.n
        end = first + count
        self.label[first:end] = np.repeat(labels, counts)
        self.start[first:end] = starts
        self.end[first:end] = ends
        self.row[first:end] = rows % CHUNK_ROWS
        chunk = tid + rows // CHUNK_ROWS
        self.table[first:end] = chunk
        self.n = end
        self._note_tables(np.arange(first, end), chunk)
        slot = first
        for label, n in zip(label_list, counts.tolist(), strict=True):
            self.slots_of[label] = list(range(slot, slot + n))
            slot += n

    def _note_tables(self, slots: np.ndarray, chunk: np.ndarray) -> None:
        """Count and index these slots, just placed in tables ``chunk`` (one each)."""
        order = np.argsort(chunk, kind="stable")
        tids, starts, counts = np.unique(chunk[order], return_index=True, return_counts=True)
        for t, at, placed in zip(tids.tolist(), starts.tolist(), counts.tolist(), strict=True):
            self.live_rows[t] = self.live_rows.get(t, 0) + placed
            self.in_table.setdefault(t, []).append(slots[order[at:at + placed]])

    def _let_go(self, tid: int) -> None:
        """Drop a held table with no live rows (its plaintext leaves memory with it)."""
        del self.live_rows[tid]
        del self.tables[tid]
        self.dead_rows.pop(tid, None)
        self.in_table.pop(tid, None)

    def drop(self, label: int) -> None:
        """Forget a label's versions; a table left without live rows is let go."""
        self.drop_many((label,))

    def drop_many(self, labels: Sequence[int]) -> None:
        """:meth:`drop` of each label, with one numpy write per array and one count per
        held table (a rebuild's re-diff replaces every label's versions at once)."""
        slots = [s for label in labels for s in self.slots_of.pop(label, ())]
        self.generation += 1
        if not slots:
            return
        at = np.asarray(slots, np.int64)
        self.label[at] = -1
        self.start[at] = 0
        self.end[at] = 0
        self.dead += len(slots)
        tids, counts = np.unique(self.table[at], return_counts=True)
        for tid, n in zip(tids.tolist(), counts.tolist(), strict=True):
            left = self.live_rows[tid] - n
            if left == 0:
                self._let_go(tid)
            else:
                self.live_rows[tid] = left
                self.dead_rows[tid] = self.dead_rows.get(tid, 0) + n

    def release_unused(self, tid: int) -> None:
        """Let the chunks of table ``tid`` go that none of its placed rows is in."""
        self.generation += 1
        for chunk in range(tid, tid + self._chunks.pop(tid, 1)):
            if self.live_rows.get(chunk) == 0:
                self._let_go(chunk)

    def purge_rows(self) -> int:
        """Rewrite the held tables that still hold rows of dropped versions with their
        live rows only (each at most :data:`CHUNK_ROWS` rows); returns how many tables.
        Slots keep their place; only their row numbers change."""
        self.generation += 1
        tids = sorted(t for t, n in self.dead_rows.items() if n)
        if not tids:
            return 0
        for tid in tids:
            placed = np.concatenate(self.in_table[tid])
            mine = placed[(self.table[placed] == tid) & (self.label[placed] >= 0)]
            self.in_table[tid] = [mine]
            old_rows = self.row[mine]
            present = np.zeros(self.tables[tid].num_rows, dtype=bool)
            present[old_rows] = True
            self.tables[tid] = self.tables[tid].take(pa.array(np.flatnonzero(present))
                                                     ).combine_chunks()
            self.row[mine] = (np.cumsum(present) - 1)[old_rows]
            del self.dead_rows[tid]
        return len(tids)

    def merge_small(self) -> None:
        """Merge the held tables with fewer than a quarter of :data:`CHUNK_ROWS` live rows
        (each sync adds one) once there are more than :data:`MERGE_TABLES`: bounded work,
        the large chunks are left as they are."""
        self.generation += 1
        small = sorted(t for t, live in self.live_rows.items()
                       if 0 < live < CHUNK_ROWS // 4 and t not in self._chunks)
        if len(small) <= MERGE_TABLES:
            return
        n = self.n
        slots = np.flatnonzero(np.isin(self.table[:n], small) & (self.label[:n] >= 0))
        self._rehome(slots)
        for tid in small:
            self.tables.pop(tid, None)
            self.live_rows.pop(tid, None)
            self.dead_rows.pop(tid, None)
            self.in_table.pop(tid, None)

    def _rehome(self, slots: np.ndarray) -> None:
        """Copy the rows of these (live) slots into new chunks and point the slots there."""
        if slots.size == 0:
            return
        order = slots[np.lexsort((self.row[slots], self.table[slots]))]
        tids = self.table[order]
        bounds = np.flatnonzero(np.diff(tids)) + 1
        pieces = [self.tables[int(self.table[g[0]])].take(pa.array(self.row[g]))
                  for g in np.split(order, bounds)]
        merged = pa.concat_tables(pieces).combine_chunks()
        first = self.add_table(merged)
        del self._chunks[first]
        positions = np.arange(order.size)
        self.table[order] = first + positions // CHUNK_ROWS
        self.row[order] = positions % CHUNK_ROWS
        self._note_tables(order, self.table[order])

    def current_until(self, now_us: int) -> tuple[np.ndarray, np.ndarray, int]:
        """:meth:`current` and the first moment after ``now_us`` at which its answer can
        change (a held version starts or ends): the answer holds for every time in
        ``[now_us, until)`` while :attr:`generation` stays the same."""
        labels, slots = self.current(now_us)
        n = self.n
        live = self.label[:n] >= 0
        bounds = [b[live & (b > now_us)] for b in (self.start[:n], self.end[:n])]
        until = min((int(b.min()) for b in bounds if b.size), default=_OPEN)
        return labels, slots, until

    def current(self, now_us: int) -> tuple[np.ndarray, np.ndarray]:
        """``(labels, slots)`` of the versions valid at ``now_us``."""
        n = self.n
        labels = self.label[:n]
        ok = (labels >= 0) & (self.start[:n] <= now_us) & (now_us < self.end[:n])
        slots = np.flatnonzero(ok)
        return labels[slots], slots

    def recorded_after(self, slots: np.ndarray, at_us: int) -> np.ndarray:
        """Whether each slot's version was recorded after ``at_us`` (as-of recall keeps
        the open versions recorded by its ``known_at``). A held table never gains a row,
        so the latest time it holds, read once, bounds all of its rows: only the slots
        of tables holding a later time are read row by row."""
        late = np.zeros(slots.size, dtype=bool)
        if slots.size == 0:
            return late
        latest = np.zeros(self._next_table, np.int64)
        cached = self._latest
        self._latest = {}
        for tid, table in self.tables.items():
            bound = cached.get(tid)
            if bound is None:
                top = pc.max(table.column("recorded_at")).cast(pa.int64()).as_py()
                bound = -1 if top is None else int(top)
            latest[tid] = self._latest[tid] = bound
        tables = self.table[slots]
        check = np.flatnonzero(latest[tables] > at_us)
        if check.size == 0:
            return late
        order = check[np.argsort(tables[check], kind="stable")]
        tids, starts = np.unique(tables[order], return_index=True)
        for tid, idx in zip(tids.tolist(), np.split(order, starts[1:]), strict=True):
            at = self.tables[tid].column("recorded_at").take(pa.array(self.row[slots[idx]]))
            late[idx] = at.cast(pa.int64()).to_numpy(zero_copy_only=False) > at_us
        return late

    def slot_at(self, label: int, at_us: int) -> int | None:
        """The slot of ``label``'s open version valid at ``at_us`` (None: none is)."""
        for slot in self.slots_of.get(label, ()):
            if self.start[slot] <= at_us < self.end[slot]:
                return slot
        return None

    def rows(self, slots: Sequence[int]) -> pa.Table:
        """The rows of these slots, in order, as one chunk (a chunk per row cost reading
        64 rows into Python twice what combining them does)."""
        return pa.concat_tables([self.tables[int(self.table[s])].slice(int(self.row[s]), 1)
                                 for s in slots]).combine_chunks()

    def compact(self) -> None:
        """Drop dead slots and the rows of dropped versions; copy every live row into new
        chunks, except the rows of a table still being placed (``sync`` ->
        ``set_many`` -> ``_room``): its chunks stay, so later placements find them.
        Linear in the mirror: it runs when half the slots are dead (``_room``) or when
        asked; a purge only needs :meth:`purge_rows`."""
        self.generation += 1
        self.epoch = next(_EPOCHS)
        placing = np.fromiter((f + i for f, c in self._chunks.items() for i in range(c)),
                              np.int64)
        live = np.flatnonzero(self.label[:self.n] >= 0)
        order = live[np.lexsort((self.row[live], self.table[live]))]
        staying = np.isin(self.table[order], placing)
        moving = order[~staying]
        pieces = []
        if moving.size:
            tids = self.table[moving]
            bounds = np.flatnonzero(np.diff(tids)) + 1
            for group in np.split(moving, bounds):
                table = self.tables[int(self.table[group[0]])]
                pieces.append(table.take(pa.array(self.row[group])))
        cap = max(1024, len(self.label))
        k = order.size
        label = np.full(cap, -1, np.int64)
        start, end, row, tab = (np.zeros(cap, np.int64) for _ in range(4))
        order = np.concatenate([order[staying], moving])  # new slot s holds old slot order[s]
        label[:k] = self.label[order]
        start[:k] = self.start[order]
        end[:k] = self.end[order]
        kept = int(staying.sum())
        row[:kept] = self.row[order[:kept]]
        tab[:kept] = self.table[order[:kept]]
        positions = np.arange(k - kept)
        row[kept:k] = positions % CHUNK_ROWS
        self.tables = {int(t): self.tables[int(t)] for t in placing.tolist()
                       if int(t) in self.tables}
        self.dead_rows = {t: n for t, n in self.dead_rows.items() if t in self.tables}
        self.live_rows = dict.fromkeys(self.tables, 0)
        self.in_table = {}
        self._note_tables(np.arange(kept), tab[:kept])
        if k > kept:
            first = self.add_table(pa.concat_tables(pieces).combine_chunks())
            del self._chunks[first]
            tab[kept:k] = first + positions // CHUNK_ROWS
            self._note_tables(np.arange(kept, k), tab[kept:k])
        self.label, self.start, self.end, self.row, self.table = label, start, end, row, tab
        self.n, self.dead = int(k), 0
        self.slots_of = {}
        for s, lab in enumerate(self.label[:k].tolist()):
            self.slots_of.setdefault(lab, []).append(s)
