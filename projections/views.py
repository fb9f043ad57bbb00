"""The DuckDB views' whole life in one object: connect, follow, rebuild, compact, export.

Everything that knows the views file's name, its connection or its tracking position
lives here, so the facade and the services ask this object instead of holding a
connection of their own (a rebuild or a compaction replaces the connection, and every
reader sees the new one through :attr:`Views.con`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
from eventsourcing.persistence import ApplicationRecorder

from memory_es.choices import CheckResult
from memory_es.crypto.mapper import SealingMapper
from memory_es.errors import InvalidInput
from memory_es.faults import storage_faults
from memory_es.models import StoreCheck
from projections import governance, queries
from projections.bulk import REBUILD_BATCH, BulkVersionProjector
from projections.catchup import Catchup, Progress
from projections.connection import Flushing, arrow, connect
from projections.erasure import EXPORTS_DDL, exports_residue, versions_residue
from projections.points import PointRows, serve
from projections.sandbox import Sandbox
from projections.schema import (
    COLUMN_NAMES,
    DDL,
    KEPT_TABLES,
    PUBLIC_COLUMNS,
    VIEWS,
)
from projections.snapshot import CODEC, Snapshot
from projections.versions import VersionProjector

TEXT_COLUMNS = ("value", "text", "entity", "mention", "source", "attribute")
"""Free-text columns: an export writes no min/max statistics for them (no personal data
in Parquet footers)."""

PERSIST_EVERY = 100_000
"""Events the views apply before they write a snapshot on their own (besides compaction,
a rebuild and close): what a crash can make them replay on open."""
MANIFEST_TABLES = ("meta", "tracking")
"""Tables of a few rows the snapshot keeps in its manifest (``meta``'s from
:attr:`Views.last_rewrite`)."""
REGISTRY = ["export_temps", "exports"]
"""Tables that do not derive from the log: written on their own as soon as they change, so
a crash cannot lose track of a file holding plaintext outside the store."""
OLD_FILE = "views.duckdb"
"""The views file of releases before the snapshot (carried over once, then removed)."""


NO_CHECKPOINT = "1000TB"
"""A rebuild's checkpoint threshold while it replays: none then, one after. DuckDB
checkpoints an in-memory database too, every 16 MiB committed, and each one compresses
again row groups of the growing table: at 1M facts (20 batches of 50k rows) the COMMITs
took 4.5 s of CPU, against 1.3 s without and 1.2 s for one checkpoint after."""

DIFFED_TABLES = ("fact_versions", "served", "judgements", "feedback", "tier_moves")
"""The derived tables whose rows a rebuild compares, old against new, per fact: the
versions, and the ledgers the recall index's q-values come from."""


@dataclass(frozen=True)
class Changes:
    """How the tables of two databases differ (:func:`compare`)."""

    facts: list[str]
    """Facts with a row added, removed or changed in any of the tables."""
    shards: set[int]
    """Snapshot shards of those ``fact_versions`` rows, before and after."""
    tables: set[str]
    """The tables that differ."""


def _digests_sql(tables: Sequence[str]) -> str:
    return " UNION ALL ".join(
        f"SELECT '{t}' AS tbl, fact_id, {'shard' if t == 'fact_versions' else 'NULL'}"
        f"::SMALLINT AS shard, hash(r) AS digest FROM {t} r" for t in tables)


def digests(con: duckdb.DuckDBPyConnection, tables: Sequence[str] = DIFFED_TABLES) -> pa.Table:
    """Each row of ``tables`` digested whole (DuckDB's ``hash`` of the row), with its
    table, fact and (for versions) snapshot shard: what :func:`compare` compares."""
    return con.sql(_digests_sql(tables)).to_arrow_table()


def totals(con: duckdb.DuckDBPyConnection,
           tables: Sequence[str] = DIFFED_TABLES) -> dict[str, tuple[int, int]]:
    """Per table: its row count and the sum of its rows' digests (the digests of
    :func:`digests`, summed without wrapping): equal for two multisets of equal rows,
    whatever their order. A checksum :func:`compare` looks at before comparing row by row."""
    rows = con.execute(" UNION ALL ".join(
        f"SELECT '{t}', count(*), coalesce(sum(hash(r)::HUGEINT), 0)::VARCHAR FROM {t} r"
        for t in tables)).fetchall()
    return {str(t): (int(n), int(s)) for t, n, s in rows}


def compare(old: pa.Table | Callable[[], pa.Table], new: duckdb.DuckDBPyConnection,
            tables: Sequence[str] = DIFFED_TABLES,
            old_totals: dict[str, tuple[int, int]] | None = None) -> Changes:
    """How ``tables`` differ between the database whose :func:`digests` are ``old`` and
    ``new``, row by row and order aside: the two multisets of (table, fact, shard,
    digest) compared in ``new``.

    With ``old_totals`` (the old database's :func:`totals`), the two sides' totals are
    compared first and, when every table's count and digest sum are equal, the rows are
    not (no difference; the usual case, a rebuild of views that were right). ``old`` may
    then be a callable, called only when the rows are compared."""
    if old_totals is not None and totals(new, tables) == old_totals:
        return Changes(facts=[], shards=set(), tables=set())
    old_rows = old() if callable(old) else old
    rows_of = _digests_sql(tables)
    new.register("_old_digests", old_rows)
    try:
        rows = new.execute(
            f"SELECT DISTINCT tbl, fact_id, shard FROM ((({rows_of}) EXCEPT ALL (SELECT * "
            f"FROM _old_digests)) UNION ALL ((SELECT * FROM _old_digests) EXCEPT ALL "
            f"({rows_of})))").fetchall()
    finally:
        new.unregister("_old_digests")
    return Changes(facts=sorted({str(r[1]) for r in rows}),
                   shards={int(r[2]) for r in rows if r[2] is not None},
                   tables={str(r[0]) for r in rows})


def _migrate(folder: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Rows of :data:`KEPT_TABLES` from an old views file, which is then removed (the rest
    is derived and replayed)."""
    old = folder / OLD_FILE
    carry: dict[str, list[tuple[Any, ...]]] = {}
    if old.exists():
        try:
            con = duckdb.connect(str(old), read_only=True)
            try:
                found = {r[0] for r in con.execute(
                    "SELECT table_name FROM information_schema.tables").fetchall()}
                carry = {t: con.execute(f"SELECT * FROM {t}").fetchall()
                         for t in KEPT_TABLES if t in found}
            finally:
                con.close()
        except duckdb.Error:  # unreadable: exports it named are no longer tracked
            carry = {}
    for suffix in ("", ".wal", ".rebuild", ".rebuild.wal", ".rewrite", ".rewrite.wal"):
        (folder / (OLD_FILE + suffix)).unlink(missing_ok=True)
    return carry


class Views:
    """The DuckDB read model of one store (or one replica) and the exports it wrote.

    The tables live in an in-memory DuckDB database; :mod:`projections.snapshot` is their
    copy on disk, written at compaction, rebuild, close and every :data:`PERSIST_EVERY`
    events, and loaded on open (the log's tail after it is replayed)."""

    def __init__(self, folder: Path, recorder: ApplicationRecorder, mapper: SealingMapper,
                 settings: dict[str, str] | None = None) -> None:
        self.folder = folder
        self._recorder = recorder
        self._mapper = mapper
        self._settings = dict(settings or {})
        uncompressed = self._settings.get("force_compression") == "uncompressed"
        self.snapshot = Snapshot(folder, compression=None if uncompressed else CODEC)
        carry = _migrate(folder)
        for leftover in self.snapshot.leftovers():  # a snapshot killed mid-way
            leftover.unlink(missing_ok=True)
        self._con = self._connect(carry)
        self._table_names: list[str] | None = None
        self._reader = Flushing(self.flushed, lambda: self._con).connection()
        self.snapshot.load(self._con, COLUMN_NAMES, self._tables(), kept=KEPT_TABLES)
        if carry:
            self._persist_registry()
        self.projector = VersionProjector(self._con)
        self.projector.deferring = True  # reads flush through :attr:`con`
        self.catchup = Catchup(recorder, mapper, self.projector)
        self._fingerprints = self._table_fingerprints()
        self._measured = (self._con, governance.writes(self._con))
        self._persisted = self.position()
        # The point-read row store (projections.points) follows the same catch-up, first,
        # so reads after a batch see it in line; it is resynchronised here when a crash
        # left it behind or ahead of the views.
        self.points = PointRows(folder, lambda: self.con, lambda: self.projector.applied)
        self.catchup.followers.append(self.points.follow)
        # ... and tells the projector each touched fact's latest belief (no DuckDB query
        # per batch) whenever it is in line with the views.
        self.projector.latest_source = self.points.latest
        serve(self._con, self.points)
        serve(self.con, self.points)
        self.ahead: list[Callable[[], int]] = [lambda: self.points.position]
        """Positions of followers that keep their own files and may be ahead of a snapshot
        after a crash: the first catch-up stops at each, so they skip what they hold."""
        if self.points.position <= self.position():
            self.points.reconcile()
        for (path,) in self.con.execute("SELECT path FROM export_temps").fetchall():
            Path(path).unlink(missing_ok=True)  # an export killed before its rename
        self.con.execute("DELETE FROM export_temps")
        rows = self.con.execute("SELECT value FROM meta WHERE name = 'last_rewrite'").fetchall()
        self.last_rewrite = int(rows[0][0]) if rows else 0
        """Log position of the last compaction. Kept here, not in DuckDB's ``meta`` (read
        once above, then emptied: an UPDATE per compaction cost ≈ 1 ms to plan); each
        snapshot writes it into its manifest's rows."""
        self.con.execute("DELETE FROM meta")
        self._generation = 0  # bumped whenever the connection is replaced
        self.rebuilt_changes: list[str] | None = None
        """After :meth:`rebuild`: the facts whose rows it changed, if they were compared."""
        self._exports_written = 0
        self._empty_registry: set[str] = set()
        """Tables of the export registry (``exports``, ``export_temps``) read empty since
        the last :meth:`export` (only that method adds to them, open empties
        ``export_temps`` and a rebuild carries both over as they are): reads of them are
        answered from here until the next export."""
        self._sandbox: Sandbox | None = None

    def leftovers(self) -> list[Path]:
        """Side files of an interrupted snapshot or resynchronisation that still exist."""
        found = self.snapshot.leftovers()
        if self.points.fresh_file().exists():
            found.append(self.points.fresh_file())
        return found

    # connections --------------------------------------------------------------------------

    @property
    def con(self) -> duckdb.DuckDBPyConnection:
        """The views' connection for readers: any use of it first runs the version
        projection's deferred writes (:attr:`VersionProjector.pending_position`), so every
        DuckDB read sees every applied event. Point reads that the row store serves
        (:func:`projections.points.serving` knows this object) never touch DuckDB and so
        never wait for those writes."""
        return self._reader

    def flushed(self) -> duckdb.DuckDBPyConnection:
        """The connection itself, after the deferred writes ran (to hand to code that needs
        the real object)."""
        projector = self.__dict__.get("projector")
        if projector is not None:
            projector.flush()
        return self._con

    def ledger_con(self) -> duckdb.DuckDBPyConnection:
        """The connection without running deferred writes: only for the governance ledger
        tables (``served``, ``judgements``, ``feedback``), which a deferred batch never
        touches (a batch with a ledger record is applied at once)."""
        return self._con

    def _connect(self, carry: dict[str, list[tuple[Any, ...]]] | None = None
                 ) -> duckdb.DuckDBPyConnection:
        """A fresh in-memory database with the views' tables; ``carry``: rows of
        :data:`KEPT_TABLES` to insert."""
        con = connect(":memory:")
        # Nothing of the views may reach disk but the snapshot: no spilling to temp files.
        con.execute("SET temp_directory = ''")
        for name, value in self._settings.items():
            con.execute(f"SET {name} = '{value}'")
        for ddl in (*DDL, *EXPORTS_DDL):
            con.execute(ddl)
        for table, rows in (carry or {}).items():
            if rows:
                marks = ", ".join("?" * len(rows[0]))
                con.executemany(f"INSERT INTO {table} VALUES ({marks})", rows)
        return con

    def _checkpoint(self, con: duckdb.DuckDBPyConnection) -> None:
        """The replayed database checkpointed once (its tables compressed), and its
        checkpoint threshold back to what the views use."""
        if "checkpoint_threshold" in self._settings:
            con.execute(f"SET checkpoint_threshold = '{self._settings['checkpoint_threshold']}'")
        else:
            con.execute("RESET checkpoint_threshold")
        con.execute("CHECKPOINT")

    def _tables(self) -> list[str]:
        """The tables a snapshot holds besides ``fact_versions``. Read once: every
        connection of these views is made by :meth:`_connect` from the same statements,
        and the catalogue query took ≈ 1 ms of each purge's compaction."""
        if self._table_names is None:
            self._table_names = sorted(r[0] for r in self.con.execute(
                "SELECT table_name FROM duckdb_tables() WHERE database_name = "
                "current_database() AND table_name <> 'fact_versions'").fetchall())
        return list(self._table_names)

    def _swap_in(self, con: duckdb.DuckDBPyConnection) -> None:
        self._generation += 1
        self._empty_registry.clear()
        if self._sandbox is not None:
            self._sandbox.invalidate()
        self.projector.discard_pending()  # for the old database: the new one has it all
        self._con = con
        self.projector.con = con
        self.catchup.forget_position()
        serve(con, self.points)

    def close(self) -> None:
        if self._sandbox is not None:
            self._sandbox.close()
        try:
            if (self.position() != self._persisted or self.projector.dirty_shards
                    or self.projector.removed):
                self.persist()
        finally:
            self.points.close()
            self._con.close()

    # the snapshot -------------------------------------------------------------------------

    def _table_fingerprints(self, tables: list[str] | None = None
                            ) -> dict[str, tuple[int, int]]:
        """Row count and last position of each table a snapshot writes only when changed
        (the governance ledgers: append-only, and a purge deletes from them), in one
        statement (``tables``: what :meth:`_tables` returns, when the caller has it)."""
        wanted = [t for t in (self._tables() if tables is None else tables)
                  if t not in MANIFEST_TABLES and t not in REGISTRY]
        if not wanted:
            return {}
        rows = self.con.execute(" UNION ALL ".join(
            f"SELECT '{t}', count(*), coalesce(max(position), -1) FROM {t}"
            for t in wanted)).fetchall()
        return {str(t): (int(count), int(last)) for t, count, last in rows}

    def persist(self, *, every_shard: bool = False, unlink: bool = True,
                shards: set[int] | frozenset[int] = frozenset(),
                tables: set[str] | frozenset[str] = frozenset()) -> list[str]:
        """Write a snapshot of what changed since the last one (``every_shard``: all;
        ``shards`` and ``tables``: these too, a rebuild's differences); returns the old
        generation's files it replaced (``unlink`` False: left for the caller to
        :meth:`projections.snapshot.Snapshot.unlink`)."""
        projector = self.projector
        written = None if every_shard else set(projector.dirty_shards) | shards
        present = self._tables()
        # The ledgers are measured again only when they may have changed since.
        measured = (self._con, governance.writes(self._con))
        fingerprints = (self._fingerprints if measured == self._measured
                        else self._table_fingerprints(present))
        changed = {t: fingerprints.get(t) != self._fingerprints.get(t) or t in tables
                   for t in present if t not in MANIFEST_TABLES}
        position = self.position()
        # The projector's is the one tracking row, and the catch-up keeps its position:
        # reading the table back cost a purge ≈ 0.7 ms of DuckDB planning.
        rows: dict[str, list[list[Any]]] = {
            "meta": [["last_rewrite", str(self.last_rewrite)]] if self.last_rewrite else [],
            "tracking": [[projector.name, position]] if position else []}
        with storage_faults("the views snapshot"):
            gone = self.snapshot.write(self.flushed(), position=position,
                                       columns=COLUMN_NAMES, shards=written, tables=changed,
                                       pruned=projector.removed, rows=rows, unlink=unlink)
        projector.dirty_shards, projector.removed = set(), {}
        self._fingerprints, self._measured = fingerprints, measured
        self._persisted = position
        return gone

    def _persist_registry(self) -> None:
        with storage_faults("the views snapshot"):
            self.snapshot.write_tables(self.flushed(), REGISTRY)

    # following the log --------------------------------------------------------------------

    def catch_up(self, progress: Progress | None = None) -> int:
        applied = 0
        if self.ahead:  # once per open: stop where files ahead of the snapshot stand
            head = self.catchup.recorder.max_notification_id() or 0
            for stop in sorted({p() for p in self.ahead}):
                if self.position() < stop <= head:
                    applied += self.catchup.run(progress, stop=stop)
            self.ahead = []
            self.points.reconcile()
        applied += self.catchup.run(progress)
        if not self.points.ready:  # it missed or failed a batch: resynchronise in bulk
            self.points.reconcile()
        if self.position() - self._persisted >= PERSIST_EVERY:
            self.persist()
        return applied

    def position(self) -> int:
        return self.catchup.position()

    def rebuild(self, progress: Progress | None = None) -> int:
        """Replay the whole log into a fresh database, swapped in only when complete: a
        rebuild that fails (a tampered event, a full disk) leaves the old views intact.

        The files derived from the views (the snapshot, the point-read store, and through
        :attr:`rebuilt_changes` the recall index) are then brought in line with the new
        database by what differs from the old one (:func:`compare`): the snapshot
        writes the shards whose rows changed or were waiting to be written, and the
        point-read store, when it was in line with the old views, takes the changed
        facts' rows again (else it is copied whole)."""
        self.rebuilt_changes = None
        old = self.flushed()  # the deferred writes first: the old tables are compared
        con = self._connect(carry={
            table: old.execute(f"SELECT * FROM {table}").fetchall() for table in KEPT_TABLES})
        try:
            in_line = self.points.in_line(old, self.position())
            with ThreadPoolExecutor(1) as pool:  # the old views are idle during the replay
                old_totals = pool.submit(totals, old)
                projector = BulkVersionProjector(con, followed=False)
                con.execute(f"SET checkpoint_threshold = '{NO_CHECKPOINT}'")
                replayed = Catchup(self._recorder, self._mapper, projector,
                                   batch=REBUILD_BATCH, read_ahead=True).run(progress)
                self._checkpoint(con)
                # The old rows are digested one by one only when the totals differ.
                changes = compare(lambda: digests(old), con, old_totals=old_totals.result())
        except BaseException:
            con.close()
            raise
        old.close()
        self._swap_in(con)
        self.rebuilt_changes = changes.facts
        # Views equal to the old ones leave the old snapshot as right as it was (it and the
        # log after its position replay to them): the shards waiting to be written are
        # written when they would have been without the rebuild, unless a purge's rows
        # still sit in a file (a rebuild counts as a compaction). The old snapshot's files
        # that a new one no longer names are unlinked while the point-read store is
        # brought in line: each unlink waits on the journal, not the CPU.
        gone = (self.persist(shards=changes.shards, tables=changes.tables, unlink=False)
                if changes.facts or changes.tables or self.projector.removed else [])
        with ThreadPoolExecutor(1) as pool:
            unlinked = pool.submit(self.snapshot.unlink, gone)
            if not in_line or not self.points.patch(changes.facts, self.position()):
                self.points.reconcile(force=True)  # a fresh copy
            elif self.points.unscrubbed:  # a rebuild counts as a compaction (the runtime's)
                self.points.compact()
            with storage_faults("the views snapshot"):
                unlinked.result()
        return replayed

    # erasure ------------------------------------------------------------------------------

    def compact(self, at: int) -> None:
        """Write the shards whose rows changed, so deleted rows leave every file; the other
        shards' files are kept as they are (they never held those rows)."""
        self.last_rewrite = at
        self.persist()
        self.points.compact()

    def versions_residue(self, fact_ids: list[str], purged_at: int) -> StoreCheck:
        return versions_residue(self.con, fact_ids, self.last_rewrite >= purged_at)

    def points_residue(self, fact_ids: list[str]) -> StoreCheck:
        return self.points.residue(fact_ids)

    def exports_residue(self, fact_ids: list[str], purged_at: int) -> StoreCheck:
        return exports_residue(self._registry("exports", "path, written_at"), fact_ids,
                               purged_at)

    def _registry(self, table: str, columns: str) -> list[tuple[Any, ...]]:
        """Rows of a table of the export registry; none, without a query, while it is
        known empty."""
        if table in self._empty_registry:
            return []
        rows = self._con.execute(f"SELECT {columns} FROM {table}").fetchall()
        if not rows:
            self._empty_registry.add(table)
        return rows

    def leftovers_residue(self) -> StoreCheck:
        """Crash leftovers: side files of the views and unfinished export files."""
        found = [str(p) for p in self.leftovers()]
        found += [str(r[0]) for r in self._registry("export_temps", "path")
                  if Path(r[0]).exists()]
        return StoreCheck(
            name="leftovers",
            method="look for side files of an interrupted rebuild or compaction and for "
                   "temporary export files (removed on open)",
            result=CheckResult.verdict(found, []), checked=[str(self.folder)], residues=found)

    def layer_rows(self, fact_ids: list[str]) -> list[tuple[str, bool, str, int]]:
        """Per fact: (fact id, every version masked, present state, versions)."""
        return [(str(r[0]), bool(r[1]), str(r[2]), int(r[3])) for r in self.con.execute(
            "SELECT fact_id, bool_and(masked), min(present_state), count(*) FROM fact_versions "
            "WHERE fact_id IN (SELECT unnest(?::VARCHAR[])) GROUP BY fact_id",
            [fact_ids]).fetchall()]

    # exports ------------------------------------------------------------------------------

    def export_paths(self) -> list[str]:
        """The export registry, read without running the deferred writes: only
        :meth:`export` writes it (a forget's preview asks, and must not pay for them)."""
        return [str(r[0]) for r in self._registry("exports", "path")]

    def export(self, path: Path, tenant: str | None, valid_at: int, known_at: int,
               now: int) -> Path:
        """Write an as-of snapshot to Parquet and register it (purge regenerates it).

        The snapshot goes to a temporary file beside the target, renamed when complete;
        the temporary file is registered first, so one left by a crash is removed at the
        next open and counted by the residue report until then."""
        self._empty_registry.clear()  # whatever happens below, the registry is read again
        snapshot = queries.as_of(self.con, valid_at, known_at, tenant)
        tmp = path.with_name(path.name + ".tmp")
        stats = [c for c in PUBLIC_COLUMNS if c not in TEXT_COLUMNS]
        with storage_faults(f"the export to {path.name}"):
            path.parent.mkdir(parents=True, exist_ok=True)
            self.con.execute("INSERT INTO export_temps VALUES (?) ON CONFLICT DO NOTHING",
                             [str(tmp.resolve())])
            self._persist_registry()
            try:
                pq.write_table(snapshot, tmp, write_statistics=stats)
                os.replace(tmp, path)
            except BaseException:
                tmp.unlink(missing_ok=True)
                raise
            finally:
                self.con.execute("DELETE FROM export_temps WHERE path = ?", [str(tmp.resolve())])
        self.con.execute(
            "INSERT INTO exports VALUES (?, ?, ?, ?, ?) ON CONFLICT (path) DO UPDATE SET "
            "tenant = excluded.tenant, valid_at = excluded.valid_at, "
            "known_at = excluded.known_at, written_at = excluded.written_at",
            [str(path.resolve()), tenant, valid_at, known_at, now])
        self._persist_registry()
        self._exports_written += 1
        return path

    def regenerate_exports(self, now: int) -> None:
        """Rewrite every export the store wrote, so purged rows leave the files too."""
        for path, tenant, v, k in self._registry("exports", "path, tenant, valid_at, known_at"):
            if Path(path).exists():
                self.export(Path(path), tenant, int(v), int(k), now)

    # analytics ----------------------------------------------------------------------------

    def set_read_time(self, now: int, valid_at: int | None = None,
                      known_at: int | None = None) -> None:
        for name, value in (("memory_es_now", now), ("memory_es_valid_at", valid_at or now),
                            ("memory_es_known_at", known_at or now)):
            self.con.execute(f"SET VARIABLE {name} = make_timestamptz({int(value)}::BIGINT)")

    def table(self, name: str, now: int, tenant: str | None = None) -> pa.Table:
        if name not in VIEWS:
            raise InvalidInput(f"unknown table {name!r}; choose one of {', '.join(VIEWS)}")
        self.set_read_time(now)
        if tenant is None:
            return arrow(self.con, f"SELECT * FROM {name}")
        return arrow(self.con, f"SELECT * FROM {name} WHERE tenant = ?", [tenant])

    def sql(self, query: str, now: int, params: Sequence[Any] | None = None, *,
            tenant: str | None = None) -> pa.Table:
        """A caller's SQL, in the sandbox (:mod:`projections.sandbox`), over the rows as
        of the views' present position (one snapshot per position, shared by calls)."""
        if self._sandbox is None:
            sandbox = self._sandbox = Sandbox()
            self.catchup.followers.append(lambda touched, _pos, _since: sandbox.touch(touched))
        self._sandbox.refresh((self.position(), self._generation, self._exports_written),
                              self.con)
        return self._sandbox.query(query, params, tenant=tenant, now=now)
