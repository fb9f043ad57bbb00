"""A SQLite row store beside the DuckDB views, made for point reads (issue 16, item 1).

**Why SQLite.** DuckDB spends ≈ 1-1.5 ms planning every statement, so a one-entity
``current``/``as_of`` cost ≈ 1.2-1.9 ms however few rows it returned; an indexed SQLite
lookup of the same rows costs tens of microseconds (NOTES.md). An in-memory index was the
other option, but at a million facts it would hold every version in Python objects (GiBs)
and would have to be rebuilt from DuckDB on every open; a SQLite file is bounded in
memory, survives a restart, and keeps its own tracking position. DuckDB keeps the
snapshots and analytics; this file holds a copy of ``fact_versions`` (every column, taken
generically from :data:`projections.schema.ARROW_SCHEMA`, so a column added there appears
here with no change) with the indexes point reads need.

**How it follows.** It is a follower of the version projection's catch-up
(:class:`projections.catchup.Catchup`), committed after each DuckDB batch with the batch's
log position in one SQLite transaction. A batch the projector hands over whole
(:class:`projections.versions.AppliedBatch`: one segment of changes, no in-place rewrite)
is applied from its own rows: the same close-and-restate UPDATE the projector ran, then
its inserted rows, so nothing is read back from DuckDB (a one-event batch, paid by every
read after a write, cost ≈ 3-10 ms in DuckDB's fixed cost per statement for the re-read;
applying it here costs ≈ 0.1 ms). Any other batch (a mask, unmask, purge, tier move, or
several segments) replaces the touched facts' rows with DuckDB's, so those rewrites have
one implementation only, DuckDB's. Measured at 20k facts in 5,000-event batches,
following costs ≈ 19 µs per event, mostly SQLite's insert into the three indexes.

**Serving the projector.** Indexed by fact id, this store also answers the projector's
question "what is each touched fact's latest belief" (:meth:`PointRows.latest`) when it
is in line with the views at the batch's start, instead of a DuckDB window query.

**Crash safety.** The two stores commit one after the other, so a crash in between
leaves this one behind (or, after a DuckDB restore, ahead). On open, and after any batch
it missed or failed to apply, its position differs from DuckDB's, and it is rebuilt from
DuckDB in bulk into a fresh file swapped in when complete: nothing is lost or doubled.
Until it is back in line, reads go to DuckDB (:attr:`PointRows.ready`).

**Erasure.** ``PRAGMA secure_delete=ON`` makes SQLite zero a deleted row's bytes in its
page (and freed pages), so a purge removes them with a write proportional to the purged
rows, not a rewrite of the whole file. Older page images stay in the ``-wal`` file until
a ``wal_checkpoint(TRUNCATE)`` (NOTES.md), which :meth:`PointRows.compact` runs; until
it has run after a purge or a mask, :meth:`PointRows.residue` says ``pending``.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
import time
import weakref
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import duckdb
import pyarrow as pa

from memory_es.choices import CheckResult
from memory_es.errors import StorageUnavailable
from memory_es.models import StoreCheck
from projections.schema import ARROW_SCHEMA, COLUMN_NAMES, MASKED_TEXT
from projections.versions import CONTENT, AppliedBatch, Carried

log = logging.getLogger(__name__)

FILE_NAME = "points.sqlite"
SIDE_SUFFIXES = ("-wal", "-shm", "-journal")
FRESH_SUFFIX = ".fresh"
"""A bulk resynchronisation writes ``points.sqlite.fresh`` and renames it when complete."""
RETRY_SECONDS = 30.0
"""After a failed resynchronisation, reads use DuckDB and the next try waits this long."""
LOAD_BATCH = 50_000
_EPOCH = datetime(1970, 1, 1, tzinfo=ZoneInfo("UTC"))
"""The time zone object DuckDB's ``fetchall`` gives, so rows from either store are equal
in type as well as in value."""
_PROJECTION = "fact_versions"


def _sql_type(t: pa.DataType) -> str:
    if pa.types.is_timestamp(t) or pa.types.is_integer(t) or pa.types.is_boolean(t):
        return "INTEGER"  # timestamps as epoch microseconds, booleans as 0/1
    if pa.types.is_floating(t):
        return "REAL"
    return "TEXT"  # strings, and lists as JSON text


COLUMNS = [(f.name, f.type, _sql_type(f.type)) for f in ARROW_SCHEMA]
_MARKS = ", ".join("?" * len(COLUMN_NAMES))
_FACT_ID, _MASKED = COLUMN_NAMES.index("fact_id"), COLUMN_NAMES.index("masked")

DDL = (
    "CREATE TABLE IF NOT EXISTS versions ("
    + ", ".join(f'"{name}" {sql}' for name, _, sql in COLUMNS) + ")",
    # one entity's versions (current / as_of), in read order
    "CREATE INDEX IF NOT EXISTS versions_entity ON versions "
    "(tenant_entity, attribute, valid_from, fact_id)",
    "CREATE INDEX IF NOT EXISTS versions_fact ON versions (fact_id)",  # upkeep, fact_exists
    "CREATE INDEX IF NOT EXISTS versions_chain ON versions (chain_id)",  # chain
    "CREATE TABLE IF NOT EXISTS tracking (name TEXT PRIMARY KEY, position INTEGER NOT NULL)",
)


def _decoder(kind: pa.DataType) -> Callable[[Any], Any] | None:
    """How a stored value of this Arrow type becomes what DuckDB's ``fetchall`` gives."""
    if pa.types.is_timestamp(kind):
        return lambda v: None if v is None else _EPOCH + timedelta(microseconds=v)
    if pa.types.is_list(kind):
        # most lists are empty: no JSON decoder call for them
        return lambda v: None if v is None else [] if v == "[]" else json.loads(v)
    if pa.types.is_boolean(kind):
        return lambda v: None if v is None else bool(v)
    return None


_DECODERS = {name: _decoder(kind) for name, kind, _ in COLUMNS}


class Columns:
    """A prepared read of some columns: the SELECT list and each column's decoder."""

    def __init__(self, columns: Sequence[str]) -> None:
        self.names = list(columns)
        self.select = ", ".join(f'"{c}"' for c in self.names)
        self.decoders = [(i, name, dec) for i, name in enumerate(self.names)
                         if (dec := _DECODERS[name]) is not None]

    def decode(self, row: Sequence[Any]) -> dict[str, Any]:
        """One stored row as the dict :func:`projections.connection.records` gives."""
        out = dict(zip(self.names, row, strict=True))
        for i, name, dec in self.decoders:
            out[name] = dec(row[i])
        return out


def _as_stored(name: str, kind: pa.DataType) -> str:
    """The DuckDB expression that gives a column as this store keeps it: encoding in the
    query is vectorised (in Python, the JSON of the list columns alone cost ≈ 10 µs/row)."""
    if pa.types.is_timestamp(kind):
        return f"epoch_us({name})"
    if pa.types.is_list(kind):
        return f"to_json({name})::VARCHAR"
    return name


_SELECT_STORED = ", ".join(_as_stored(name, kind) for name, kind, _ in COLUMNS)


PATCH_LIMIT = 20_000
"""After a rebuild, up to this many facts whose rows changed are replaced in place
(:meth:`PointRows.patch`, in one transaction); beyond, the store is copied whole. A
bound on that transaction's size, not a measured break-even."""
SMALL_BATCH = 64
"""Up to this many touched facts, their rows are re-read with the ids as one list
parameter and ``fetchall`` (≈ 2.5 ms CPU on a loaded 2-core machine); above it, by a join
with a registered Arrow table (≈ 8 ms of fixed cost, but linear in the ids)."""


def _rows(table: pa.Table) -> Iterator[tuple[Any, ...]]:
    """Rows of a ``_SELECT_STORED`` result, ready for ``executemany``."""
    return zip(*(table.column(i).to_pylist() for i in range(table.num_columns)), strict=True)


def _duck_rows(con: duckdb.DuckDBPyConnection, fact_ids: list[str]) -> list[tuple[Any, ...]]:
    """The stored form of every ``fact_versions`` row of these facts."""
    sql = f"SELECT {_SELECT_STORED} FROM fact_versions"
    if len(fact_ids) <= SMALL_BATCH:
        return con.execute(sql + " WHERE list_contains(?::VARCHAR[], fact_id)",
                           [fact_ids]).fetchall()
    con.register("_points_wanted", pa.table({"fact_id": pa.array(fact_ids, pa.string())}))
    try:
        return list(_rows(con.sql(sql + " WHERE fact_id IN (SELECT fact_id FROM "
                                  "_points_wanted)").to_arrow_table()))
    finally:
        con.unregister("_points_wanted")


_to_json = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
"""Lists as DuckDB's ``to_json(...)::VARCHAR`` writes them (no spaces)."""


def _stored_column(column: pa.ChunkedArray) -> list[Any]:
    """A column of the projector's Arrow rows in this store's form (as ``_SELECT_STORED``)."""
    kind = column.type
    if pa.types.is_timestamp(kind):
        column = column.cast(pa.int64())
    values: list[Any] = column.to_pylist()
    if pa.types.is_list(kind):
        return [None if v is None else _to_json(v) for v in values]
    return values


def stored_rows(table: pa.Table) -> Iterator[tuple[Any, ...]]:
    """Rows of an :data:`ARROW_SCHEMA` table, ready for ``executemany``."""
    return zip(*(_stored_column(table.column(name)) for name in COLUMN_NAMES), strict=True)


_LATEST = Columns(["fact_id", "superseded_by", "masked", "tier", *CONTENT])
_RESTATE = ("UPDATE versions SET recorded_until = CASE WHEN recorded_until IS NULL THEN ? "
            "ELSE recorded_until END, present_state = ? WHERE fact_id = ? "
            "AND (recorded_until IS NULL OR present_state <> ?)")
"""The projector's close-and-restate UPDATE (:meth:`VersionProjector._write`), per fact."""


def duck_position(con: duckdb.DuckDBPyConnection) -> int:
    rows = con.execute("SELECT position FROM tracking WHERE name = ?", [_PROJECTION]).fetchall()
    return int(rows[0][0]) if rows else 0


def _connect(path: Path) -> sqlite3.Connection:
    con = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    con.execute("PRAGMA secure_delete = ON")
    if con.execute("PRAGMA secure_delete").fetchone() != (1,):
        con.close()
        raise StorageUnavailable("this SQLite build cannot zero deleted rows (secure_delete); the "
                           "point-read store would keep purged bytes")
    con.execute("PRAGMA journal_mode = WAL")
    # Derived data: a commit lost to a power cut is caught by the tracking position and
    # resynchronised from DuckDB, so NORMAL (fsync at checkpoints) is enough.
    con.execute("PRAGMA synchronous = NORMAL")
    return con


class PointRows:
    """The point-read copy of one views folder's ``fact_versions``."""

    name = "point_rows"

    def __init__(self, folder: Path, duck: Callable[[], duckdb.DuckDBPyConnection],
                 applied: Callable[[], AppliedBatch | None] | None = None) -> None:
        self.file = folder / FILE_NAME
        self._duck = duck
        self._applied = applied
        """What the version projector's last batch wrote (used when handed over whole)."""
        self.reread_batches = 0
        """Batches followed by re-reading DuckDB (the others came from the projector)."""
        self.position = 0
        self.ready = False
        """Whether reads may use this store: its position is DuckDB's."""
        self.unscrubbed = False
        """A purge or a mask removed plaintext since the ``-wal`` file was last truncated."""
        self.last_error: str | None = None
        self._retry_at = 0.0
        self.fresh_file().unlink(missing_ok=True)  # a resynchronisation killed mid-way
        self.con = self._open()
        self.compact()  # a crash may have left page images of removed rows in the -wal

    def fresh_file(self) -> Path:
        return self.file.with_name(self.file.name + FRESH_SUFFIX)

    def files(self) -> list[Path]:
        """Every file of this store that exists (for erasure scans)."""
        names = [self.file.name, *(self.file.name + s for s in SIDE_SUFFIXES),
                 self.fresh_file().name]
        return [p for p in (self.file.with_name(n) for n in names) if p.exists()]

    def _open(self) -> sqlite3.Connection:
        try:
            con = _connect(self.file)
            found = [r[1] for r in con.execute("PRAGMA table_info(versions)").fetchall()]
            if found and found != COLUMN_NAMES:  # another column layout: rebuilt below
                con.execute("DROP TABLE versions")
                con.execute("DELETE FROM tracking")
            for ddl in DDL:
                con.execute(ddl)
        except sqlite3.DatabaseError:  # unreadable (a torn file): it is derived, start over
            log.warning("point-read store unreadable; it is rebuilt from DuckDB")
            with contextlib.suppress(Exception):
                con.close()
            for path in (self.file, *(self.file.with_name(self.file.name + s)
                                      for s in SIDE_SUFFIXES)):
                path.unlink(missing_ok=True)
            con = _connect(self.file)
            for ddl in DDL:
                con.execute(ddl)
        rows = con.execute("SELECT position FROM tracking WHERE name = ?",
                           [_PROJECTION]).fetchall()
        self.position = int(rows[0][0]) if rows else 0
        return con

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self.con.close()

    # following the version projection ----------------------------------------------------

    def reconcile(self, *, force: bool = False) -> None:
        """Make this store match DuckDB again when their positions differ (a crash between
        the two commits, a missed or failed batch) or, with ``force``, always (the views
        were rebuilt): bulk, from DuckDB. Never raises: on failure reads keep using DuckDB
        and a later call (after :data:`RETRY_SECONDS`, or forced) tries again."""
        duck = self._duck()
        target = duck_position(duck)
        if self.position == target and not force:
            self.ready = True
            return
        if time.monotonic() < self._retry_at and not force:
            return
        try:
            self.resync(duck, target)
        except Exception as e:  # a failing projection stops itself, never the caller
            self.ready = False
            self.last_error = f"{type(e).__name__}: {e}"
            self._retry_at = time.monotonic() + RETRY_SECONDS
            log.exception("point-read store resynchronisation failed; reads use DuckDB")

    def resync(self, duck: duckdb.DuckDBPyConnection, position: int) -> None:
        """Copy every row of ``fact_versions`` into a fresh file and swap it in."""
        fresh = self.fresh_file()
        fresh.unlink(missing_ok=True)
        con = sqlite3.connect(fresh, isolation_level=None)
        try:
            con.execute("PRAGMA journal_mode = OFF")  # a fresh file: nothing to roll back to
            con.execute("PRAGMA synchronous = OFF")
            con.execute("BEGIN")
            # Indexes built once after the load (a sort each), not row by row during it.
            indexes = [ddl for ddl in DDL if ddl.startswith("CREATE INDEX")]
            for ddl in DDL:
                if ddl not in indexes:
                    con.execute(ddl)
            reader = duck.sql(f"SELECT {_SELECT_STORED} FROM fact_versions").to_arrow_reader(
                LOAD_BATCH)
            for batch in reader:
                con.executemany(f"INSERT INTO versions VALUES ({_MARKS})",
                                _rows(pa.Table.from_batches([batch])))
            for ddl in indexes:
                con.execute(ddl)
            con.execute("INSERT INTO tracking VALUES (?, ?)", [_PROJECTION, position])
            con.execute("COMMIT")
            con.close()
            with open(fresh, "rb") as f:
                os.fsync(f.fileno())
        except BaseException:
            con.close()
            fresh.unlink(missing_ok=True)
            raise
        self.con.close()
        os.replace(fresh, self.file)
        for suffix in SIDE_SUFFIXES:
            self.file.with_name(self.file.name + suffix).unlink(missing_ok=True)
        self.con = self._open()
        self.ready = self.position == position
        self.unscrubbed = False  # fresh file, old -wal removed
        self.last_error = None

    def in_line(self, duck: duckdb.DuckDBPyConnection, position: int) -> bool:
        """Whether this store holds what ``duck``'s ``fact_versions`` holds at ``position``
        (in line with it, and as many rows: a cheap check of a copy kept by following)."""
        if not self.ready or self.position != position:
            return False
        try:
            mine = self.con.execute("SELECT count(*) FROM versions").fetchall()
        except sqlite3.Error:
            return False
        theirs = duck.execute("SELECT count(*) FROM fact_versions").fetchall()
        return bool(mine) and mine == theirs

    def patch(self, fact_ids: list[str], position: int) -> bool:
        """After a rebuild, when this store was :meth:`in_line` with the old views: replace
        the rows of the facts whose rows the new views changed (all in one transaction)
        and move to ``position``. False when that is not worth it (more than
        :data:`PATCH_LIMIT` of the rows) or failed: the caller then copies everything."""
        if len(fact_ids) > PATCH_LIMIT:
            return False
        try:
            if fact_ids or position != self.position:
                self._apply(fact_ids, position)
        except Exception as e:
            self.ready = False
            self.last_error = f"{type(e).__name__}: {e}"
            log.exception("point-read store patch after a rebuild failed; copied again")
            return False
        self.ready = True
        return True

    def follow(self, fact_ids: Sequence[str], position: int, since: int) -> None:
        """Follower hook (:data:`projections.catchup.Follower`): apply the batch the
        projector handed over, or replace the touched facts' rows with DuckDB's, and move
        the position, in one transaction. Never raises."""
        if position <= self.position:
            return  # already held (the views replay what their snapshot had not kept)
        if not self.ready or self.position != since:
            self.ready = False  # missed a batch: :meth:`reconcile` resynchronises
            return
        applied = self._applied() if self._applied is not None else None
        try:
            if applied is not None and applied.complete and applied.position == position:
                self._apply_batch(applied)
            else:
                self.reread_batches += 1
                gone = applied.purged if applied is not None and applied.position == position \
                    else frozenset()
                self._apply(list(fact_ids), position, gone)
        except Exception as e:
            self.ready = False
            self.last_error = f"{type(e).__name__}: {e}"
            log.exception("point-read store update failed; it will be resynchronised")

    def _apply_batch(self, applied: AppliedBatch) -> None:
        """Apply a batch from the projector's own rows (no DuckDB read)."""
        con = self.con
        con.execute("BEGIN IMMEDIATE")
        try:
            if applied.states:
                con.executemany(_RESTATE, [(applied.closes.get(f), state, f, state)
                                           for f, state in applied.states.items()])
            if applied.rows is not None:
                con.executemany(f"INSERT INTO versions VALUES ({_MARKS})",
                                stored_rows(applied.rows))
            con.execute("INSERT INTO tracking VALUES (?, ?) ON CONFLICT (name) DO UPDATE "
                        "SET position = excluded.position", [_PROJECTION, applied.position])
            con.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                con.execute("ROLLBACK")
            raise
        self.position = applied.position

    def latest(self, fact_ids: list[str], since: int) -> dict[str, Carried] | None:
        """Each fact's latest belief (:data:`projections.versions.Carried`) as of log
        position ``since``, or None when this store is not there (the projector asks
        DuckDB then). Never raises."""
        if not self.ready or self.position != since:
            return None
        try:
            cursor = self.con.execute(
                f"SELECT {_LATEST.select}, verified_at FROM versions WHERE fact_id IN "
                "(SELECT value FROM json_each(?)) ORDER BY fact_id, recorded_at DESC, "
                "position DESC", [json.dumps(fact_ids)])
            found: dict[str, Carried] = {}
            for row in cursor.fetchall():
                if row[0] in found:
                    continue
                r = _LATEST.decode(row[:-1])
                found[row[0]] = (tuple(r[c] for c in CONTENT), r["superseded_by"], row[-1],
                                 r["masked"], r["tier"])
            return found
        except sqlite3.Error:
            log.exception("point-read store could not serve the projector; DuckDB does")
            return None

    def _apply(self, fact_ids: list[str], position: int,
               gone: frozenset[str] = frozenset()) -> None:
        """Replace the rows of ``fact_ids`` with DuckDB's (``gone``: purged, nothing to read)."""
        con = self.con
        wanted = [f for f in fact_ids if f not in gone]
        rows = _duck_rows(self._duck(), wanted) if wanted else []
        ids = json.dumps(fact_ids)
        con.execute("BEGIN IMMEDIATE")
        try:
            removed = False
            if fact_ids:
                before = {r[0] for r in con.execute(
                    "SELECT DISTINCT fact_id FROM versions WHERE masked = 0 AND fact_id IN "
                    "(SELECT value FROM json_each(?))", [ids])}
                con.execute("DELETE FROM versions WHERE fact_id IN "
                            "(SELECT value FROM json_each(?))", [ids])
                con.executemany(f"INSERT INTO versions VALUES ({_MARKS})", rows)
                after = {r[_FACT_ID] for r in rows if not r[_MASKED]}
                removed = bool(before - after)  # purged, or masked: plaintext removed
            con.execute("INSERT INTO tracking VALUES (?, ?) ON CONFLICT (name) DO UPDATE "
                        "SET position = excluded.position", [_PROJECTION, position])
            con.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                con.execute("ROLLBACK")
            raise
        self.position = position
        self.unscrubbed = self.unscrubbed or removed

    # reads --------------------------------------------------------------------------------

    def fetch(self, columns: Columns, where: str, params: Sequence[Any],
              order: str = "") -> list[dict[str, Any]]:
        """Rows as dicts (the shape :func:`projections.connection.records` returns)."""
        cursor = self.con.execute(
            f"SELECT {columns.select} FROM versions WHERE {where} {order}", params)
        return [columns.decode(r) for r in cursor.fetchall()]

    def exists(self, tenant: str, fact_id: str) -> bool:
        return self.con.execute("SELECT 1 FROM versions WHERE fact_id = ? AND tenant = ? "
                                "LIMIT 1", [fact_id, tenant]).fetchone() is not None

    # erasure ------------------------------------------------------------------------------

    def compact(self) -> None:
        """Move every page into the main file and truncate the ``-wal``: with secure_delete
        on, removed rows' bytes were zeroed in their pages, so this removes the last copies
        (older page images in the -wal). Cost: the pages written since the last call."""
        busy, _, _ = self.con.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        if busy:
            raise StorageUnavailable("the point-read store's -wal could not be truncated "
                               "(another connection holds it)")
        self.unscrubbed = False

    def residue(self, fact_ids: list[str]) -> StoreCheck:
        """Rows of the facts still here, and whether the -wal was truncated since a purge or
        a mask removed plaintext (``pending`` until it was)."""
        found: list[str] = []
        if fact_ids:
            found = sorted(r[0] for r in self.con.execute(
                "SELECT DISTINCT fact_id FROM versions WHERE fact_id IN "
                "(SELECT value FROM json_each(?))", [json.dumps(fact_ids)]))
        pending = ["truncate points.sqlite-wal (it holds page images from before the "
                   "removal)"] if self.unscrubbed else []
        if not self.ready:
            pending.append("resynchronise from DuckDB" + (f" ({self.last_error})"
                                                          if self.last_error else ""))
        leftover = self.fresh_file()
        if leftover.exists():
            pending.append(f"remove {leftover.name}")
        return StoreCheck(
            name=self.name,
            method="look the facts up in points.sqlite (secure_delete on: deleted rows are "
                   "zeroed in place); -wal truncated since the last removal",
            result=CheckResult.verdict(found, pending),
            checked=[f"{len(fact_ids)} fact ids in {self.file.name}",
                     *(p.name for p in self.files())],
            residues=found, pending=pending)

    def layer_residue(self, fact_ids: list[str], *, masked: bool,
                      state: str | None) -> StoreCheck:
        """For mask, archive and forget: every row of the facts shows the layer (masked with
        the placeholder, or in ``state``); after a mask, ``pending`` until the -wal that
        held the content was truncated."""
        rows = self.con.execute(
            "SELECT fact_id, min(masked = 1 AND text = ? AND mention IS NULL AND source IS NULL),"
            " min(present_state), max(present_state) FROM versions WHERE fact_id IN "
            "(SELECT value FROM json_each(?)) GROUP BY fact_id",
            [MASKED_TEXT, json.dumps(fact_ids)]).fetchall()
        bad = sorted(str(fid) for fid, all_masked, low, high in rows
                     if (masked and not all_masked) or (state is not None and low != state)
                     or (state is not None and high != state))
        pending = ["truncate points.sqlite-wal (it holds the unmasked rows' pages)"] if (
            masked and self.unscrubbed) else []
        if not self.ready:
            pending.append("resynchronise from DuckDB")
        return StoreCheck(
            name=self.name,
            method="every row of the facts in points.sqlite shows the layer; -wal truncated",
            result=CheckResult.verdict(bad, pending),
            checked=[f"{len(rows)} facts in {self.file.name}"], residues=bad, pending=pending)


_SERVING: weakref.WeakKeyDictionary[duckdb.DuckDBPyConnection, PointRows] = (
    weakref.WeakKeyDictionary())
"""Which point-read store serves a views connection: the read functions of
:mod:`projections.queries` take the DuckDB connection (their callers hold nothing else),
and :class:`projections.views.Views` registers its store for each connection it opens."""


def serve(con: duckdb.DuckDBPyConnection, points: PointRows) -> None:
    _SERVING[con] = points


def serving(con: duckdb.DuckDBPyConnection) -> PointRows | None:
    """The point-read store for ``con`` when it is in line with DuckDB, else None."""
    points = _SERVING.get(con)
    return points if points is not None and points.ready else None
