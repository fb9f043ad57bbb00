"""The views' durable copy: Arrow IPC files per shard of ``fact_versions``, one per other
table, listed by a manifest that is swapped in atomically (issue 14, item 1).

**Why not a DuckDB file.** DuckDB never zeroes a freed block, so the only way to take a
purged row's bytes out of a views file was to copy the whole database into a fresh one:
6.1 s of a 6.5 s purge at a million facts, growing with the store. Here the views live in
an in-memory DuckDB database (one connection, one transaction per batch, as before) and
this snapshot is their copy on disk. Rows are spread over :data:`SHARDS` files by entity
(a purge removes an entity or one of its chains, so its rows sit in one shard), and a
purge's compaction rewrites only the shards whose rows changed since the last snapshot:
its cost follows what changed, not the size of the store.

**Crash safety.** A snapshot writes every changed file under a new generation's name,
fsyncs them, then replaces the manifest (write, fsync, rename, fsync the folder), and only
then unlinks the files the old manifest named. A crash before the rename leaves the old
snapshot whole; files no manifest names are side files (:meth:`Snapshot.leftovers`),
removed on open. The views are derived: what a crash loses since the last snapshot is
replayed from the log on open, from the manifest's tracking position.

**Why Arrow IPC, not Parquet.** A purge rewrites the shard that held the purged rows,
and a shard is small (≈ 800 rows at 100k facts): Parquet's fixed cost per column and page
(35 columns, encoded, compressed and described in a Thrift footer) made reading and
writing one 808-row shard cost 1.9 + 2.6 ms, against 0.7 + 0.7 ms as LZ4-compressed IPC
(measured on one shard of the text benchmark's store, pyarrow 26). IPC's record batches
are the Arrow buffers themselves, and carry no column statistics, so no stored value is
quoted in a footer either. Views written by an older release (Parquet, layout 1) are
replayed from the log on open, as any other layout change; tables that do not derive
from the log are read from their Parquet file once and written as IPC by the next
snapshot.
"""

from __future__ import annotations

import json
import os
import zlib
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from pyarrow import ipc

from memory_es.errors import StorageUnavailable
from projections.durable import fsync_path

T = TypeVar("T")
DIRECTORY = "views"
MANIFEST = "manifest.json"
SHARDS = 128
"""Files ``fact_versions`` is spread over. At a million facts a shard holds ≈ 9k rows,
which one purge rewrote in ≈ 30 ms as Parquet (pyarrow, zstd, no statistics)."""
SUFFIX = ".arrow"
CODEC = "lz4"
"""IPC buffer compression: LZ4 wrote and read a shard as fast as no compression did, in a
third of the bytes (the shard above: 118 kB against 320 kB; zstd: 64 kB, 1.2 + 1.5 ms)."""
LAYOUT = 2
"""Bumped when the snapshot's own format changes (the column layout is checked apart)."""
PARALLEL_FROM = 4
WRITERS = 8
"""From :data:`PARALLEL_FROM` shard files on (all of them after a rebuild, dozens after a
deferred compaction), they are written and fsynced by this many threads: parquet
encoding and fsync release the GIL, and one file at a time left the rebuild waiting on
128 fsyncs in a row."""


def shard_of(tenant_entity: str | None, chain_id: str) -> int:
    """The shard of a fact's rows: by entity, so an entity's purge touches one file; a fact
    without an entity goes by its chain (what a purge of it removes). CRC-32, not Python's
    ``hash``: the value is stored and must be the same in every process and release."""
    key = tenant_entity if tenant_entity is not None else chain_id
    return zlib.crc32(key.encode()) % SHARDS


@dataclass
class Manifest:
    """What one snapshot holds: the files by shard and by table, and where it stands."""

    position: int = 0
    generation: int = 0
    columns: list[str] = field(default_factory=list)
    shards: dict[int, str] = field(default_factory=dict)
    tables: dict[str, str] = field(default_factory=dict)
    rows: dict[str, list[list[Any]]] = field(default_factory=dict)
    """Tables of a few rows kept in the manifest itself (no file, no fsync of their own)."""
    layout: int = LAYOUT

    def files(self) -> set[str]:
        return {*self.shards.values(), *self.tables.values()}

    def to_json(self) -> str:
        return json.dumps({"layout": self.layout, "position": self.position,
                           "generation": self.generation, "columns": self.columns,
                           "shards": {str(k): v for k, v in sorted(self.shards.items())},
                           "tables": dict(sorted(self.tables.items())),
                           "rows": self.rows}, indent=1)

    @classmethod
    def from_json(cls, text: str) -> Manifest:
        data = json.loads(text)
        return cls(position=int(data["position"]), generation=int(data["generation"]),
                   columns=list(data["columns"]),
                   shards={int(k): str(v) for k, v in data["shards"].items()},
                   tables={str(k): str(v) for k, v in data["tables"].items()},
                   rows={str(k): list(v) for k, v in data.get("rows", {}).items()},
                   layout=int(data.get("layout", 0)))


class Snapshot:
    """The snapshot folder of one views folder."""

    def __init__(self, folder: Path, compression: str | None = CODEC) -> None:
        self.dir = folder / DIRECTORY
        self.compression = compression
        self.manifest = self._read()

    def _read(self) -> Manifest | None:
        path = self.dir / MANIFEST
        if not path.exists():
            return None
        try:
            return Manifest.from_json(path.read_text())
        except (ValueError, KeyError) as e:  # derived data: a torn manifest means replay
            raise StorageUnavailable(f"the views snapshot manifest {path} is unreadable "
                                     f"({e}); remove {self.dir} to rebuild the views") from e

    def leftovers(self) -> list[Path]:
        """Files of the folder no manifest names: an interrupted snapshot's, or an old one's
        a crash kept from being unlinked (they may hold rows purged since)."""
        if not self.dir.exists():
            return []
        named = self.manifest.files() if self.manifest is not None else set()
        return sorted(p for p in self.dir.iterdir()
                      if p.name != MANIFEST and p.name not in named)

    # loading -----------------------------------------------------------------------------

    def load(self, con: duckdb.DuckDBPyConnection, columns: list[str],
             tables: Iterable[str], *, kept: Iterable[str]) -> bool:
        """Fill ``con``'s (empty) tables from the snapshot. False when there is none or its
        layout is not ``columns``: then only the ``kept`` tables (not derived from the log)
        are loaded and the views are replayed; the next snapshot writes every shard."""
        m = self.manifest
        if m is None:
            return False
        current = m.layout == LAYOUT and m.columns == columns
        if current and m.shards:
            _insert(con, "fact_versions", ", ".join(columns), pa.concat_tables(
                [_read(self.dir / name) for _, name in sorted(m.shards.items())]))
        for table in (tables if current else set(kept) & set(tables)):
            name = m.tables.get(table)
            if name is not None and name.endswith(SUFFIX):
                _insert(con, table, "*", _read(self.dir / name))
            elif name is not None:  # an older release's Parquet file
                con.execute(f"INSERT INTO {table} SELECT * FROM read_parquet(?)",
                            [str(self.dir / name)])
            found = m.rows.get(table)
            if found:
                marks = ", ".join("?" * len(found[0]))
                con.executemany(f"INSERT INTO {table} VALUES ({marks})", found)
        return current

    # writing -----------------------------------------------------------------------------

    def write(self, con: duckdb.DuckDBPyConnection, *, position: int, columns: list[str],
              shards: set[int] | None, tables: dict[str, bool],
              pruned: dict[int, set[str]] | None = None,
              rows: dict[str, list[list[Any]]] | None = None,
              unlink: bool = True) -> list[str]:
        """Write a new generation, then swap the manifest in; returns the files it unlinked
        (with ``unlink`` False: the old generation's files, for the caller to
        :meth:`unlink`; until then they count as :meth:`leftovers`).

        Args:
            shards: the shards to write from ``con`` (None: every shard).
            tables: every table the snapshot holds as a file, True for those to write
                again (one it does not hold yet is written too).
            pruned: shards whose only change is that these facts' rows were deleted:
                their file is written again from the old one without them (a read of one
                small file instead of a scan of ``fact_versions``).
            rows: tables of a few rows, kept in the manifest.
        """
        return self._write(con, position, columns, shards, tables, complete=True,
                           pruned=pruned or {}, rows=rows, unlink=unlink)

    def write_tables(self, con: duckdb.DuckDBPyConnection, tables: list[str]) -> list[str]:
        """Write only ``tables``, which must not derive from the log (the export registry):
        the snapshot keeps its position and every other file."""
        old = self.manifest or Manifest()
        return self._write(con, old.position, old.columns, set(),
                           dict.fromkeys(tables, True), complete=False)

    def _write(self, con: duckdb.DuckDBPyConnection, position: int, columns: list[str],
               shards: set[int] | None, tables: dict[str, bool], *, complete: bool,
               pruned: dict[int, set[str]] | None = None,
               rows: dict[str, list[list[Any]]] | None = None,
               unlink: bool = True) -> list[str]:
        old = self.manifest or Manifest()
        fresh = Manifest(position=position, generation=old.generation + 1, columns=columns,
                         shards=dict(old.shards),
                         tables={t: n for t, n in old.tables.items()
                                 if t in tables or not complete})
        fresh.rows = dict(old.rows if rows is None else rows)
        outdated = old.columns != columns or old.layout != LAYOUT
        if outdated:  # every file is written again, in this layout
            fresh.shards = {}
            if complete:
                fresh.tables = {}
        rewrite = set(range(SHARDS)) if shards is None or outdated else shards
        pruned = {} if outdated else {s: ids for s, ids in (pruned or {}).items()
                                      if s not in rewrite}
        self.dir.mkdir(parents=True, exist_ok=True)
        written: list[Path] = []  # each one written and fsynced
        try:
            written += self._write_shards(con, columns, rewrite, fresh)
            written += self._prune_shards(old, pruned, fresh)
            for table, changed in tables.items():
                if changed or table not in fresh.tables:
                    name = f"{table}-{fresh.generation:08d}{SUFFIX}"
                    written.append(self.dir / name)
                    self._write_synced(con.sql(f"SELECT * FROM {table}").to_arrow_table(),
                                       self.dir / name)
                    fresh.tables[table] = name
            staged = self.dir / (MANIFEST + ".next")
            staged.write_text(fresh.to_json())
            fsync_path(staged)
            os.replace(staged, self.dir / MANIFEST)
            fsync_path(self.dir)
        except BaseException:
            for path in written:
                path.unlink(missing_ok=True)
            raise
        self.manifest = fresh
        gone = sorted(old.files() - fresh.files())
        if unlink:
            self.unlink(gone)
        return gone

    def unlink(self, names: list[str]) -> None:
        """Remove files of an old generation (no manifest names them any more)."""
        for name in names:
            (self.dir / name).unlink(missing_ok=True)

    def _write_shards(self, con: duckdb.DuckDBPyConnection, columns: list[str],
                      shards: set[int], fresh: Manifest) -> list[Path]:
        if not shards:
            return []
        where = "" if len(shards) == SHARDS else " WHERE shard IN (SELECT unnest(?::SMALLINT[]))"
        params: list[Any] = [] if not where else [sorted(shards)]
        rows = con.sql(f"SELECT {', '.join(columns)} FROM fact_versions{where} ORDER BY shard",
                       params=params or None).to_arrow_table()
        keys = rows.column("shard").to_numpy()
        bounds = np.searchsorted(keys, np.arange(SHARDS + 1))
        written: list[Path] = []
        parts: list[pa.Table] = []
        for shard in sorted(shards):
            start, stop = int(bounds[shard]), int(bounds[shard + 1])
            fresh.shards.pop(shard, None)
            if start == stop:
                continue  # an empty shard has no file
            name = f"fv-{shard:03d}-{fresh.generation:08d}{SUFFIX}"
            # take, not slice: IPC writes a sliced string column's whole data buffer, so
            # a slice's file would hold other shards' values (a purged one included).
            parts.append(rows.take(np.arange(start, stop)))
            fresh.shards[shard] = name
            written.append(self.dir / name)
        _each(self._write_synced, list(zip(parts, written, strict=True)))
        return written

    def _write_synced(self, table: pa.Table, path: Path) -> None:
        self._write_file(table, path)
        fsync_path(path)

    def _prune_shards(self, old: Manifest, pruned: dict[int, set[str]],
                      fresh: Manifest) -> list[Path]:
        """Write each pruned shard again from its old file, without the deleted facts."""
        jobs = [(shard, facts) for shard, facts in sorted(pruned.items())
                if shard in old.shards]  # one never written: its rows never reached a file
        for shard, _ in jobs:
            fresh.shards.pop(shard, None)

        def prune(shard: int, facts: set[str]) -> Path | None:
            rows = _read(self.dir / old.shards[shard])
            kept = rows.filter(pc.invert(pc.is_in(rows.column("fact_id"),
                                                  value_set=pa.array(sorted(facts), pa.string()))))
            if not kept.num_rows:
                return None
            path = self.dir / f"fv-{shard:03d}-{fresh.generation:08d}{SUFFIX}"
            self._write_synced(kept, path)
            return path

        written = []
        for (shard, _), path in zip(jobs, _each(prune, jobs), strict=True):
            if path is not None:
                fresh.shards[shard] = path.name
                written.append(path)
        return written

    def _write_file(self, table: pa.Table, path: Path) -> None:
        # One thread per file: several files are written at once by _each, and the recall
        # index's rewrite runs beside a purge's.
        options = ipc.IpcWriteOptions(compression=self.compression, use_threads=False)
        with pa.OSFile(str(path), "wb") as sink, \
                ipc.new_file(sink, table.schema, options=options) as writer:
            writer.write_table(table)


def _each(fn: Callable[..., T], jobs: list[tuple[Any, ...]]) -> list[T]:
    """``fn`` over ``jobs``, on :data:`WRITERS` threads from :data:`PARALLEL_FROM` jobs on
    (reading, encoding and fsyncing Parquet release the GIL)."""
    if len(jobs) < PARALLEL_FROM:
        return [fn(*job) for job in jobs]
    with ThreadPoolExecutor(WRITERS) as pool:
        return list(pool.map(fn, *zip(*jobs, strict=True)))


def _read(path: Path) -> pa.Table:
    """One file, decompressed on this thread (a purge's runs beside the recall rewrite)."""
    with pa.OSFile(str(path), "rb") as source:
        return ipc.open_file(source, options=ipc.IpcReadOptions(use_threads=False)).read_all()


def _insert(con: duckdb.DuckDBPyConnection, table: str, columns: str, rows: pa.Table) -> None:
    con.register("snapshot_rows", rows)
    try:
        con.execute(f"INSERT INTO {table} SELECT {columns} FROM snapshot_rows")
    finally:
        con.unregister("snapshot_rows")
