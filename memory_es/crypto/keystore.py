"""The key store: data keys, shredding tombstones and natural-key lookups.

Kept apart from the event log (its own SQLite file, or its own tables in PostgreSQL).
Destroying a key here is what erases content everywhere the log's ciphertext went.
The store never re-issues a key it has shredded, and forgets cached keys at once.
"""

from __future__ import annotations

import contextlib
import hmac
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from memory_es.crypto.master import MasterKey
from memory_es.crypto.sealing import (
    KEY_BYTES,
    NONCE_BYTES,
    DataKey,
    WrappedKey,
    new_key_material,
    random_bytes,
)
from memory_es.entropy import POOL
from memory_es.errors import (
    ConcurrentWriteError,
    ErasedContent,
    IntegrityViolation,
    MemoryESError,
)
from memory_es.ids import new_stream_id, uuid7_str

CHECK_PLAINTEXT = b"memory-es master key check"
PREFETCH_CHUNK = 500  # ids per IN (...) query
FLUSH_CHUNK = 400  # rows per INSERT statement (5 parameters each)
HELD_NAMES = 256
"""Names of pooled streams a commit may hold back before they are written (``flush``)."""
KEY_CACHE = 16_384
"""Unwrapped keys kept in memory (≈ 2.6 KB each with its AES-GCM context: ≈ 43 MB). A
write mints a key per new chain and a catch-up opens keys from all over the log: unbounded,
the cache held every key of the store (1.1 per fact of new entities), and the collector
scanned them all."""
NAME_CACHE = 65_536
"""Natural keys' streams kept in memory (≈ 250 bytes each); one per entity unbounded."""
SECRETS = ("names", "signing")
"""Store secrets kept wrapped under the master key: the natural-key HMAC key and the
seed of the key that signs receipts and anchors."""


def entity_key_id(stream_id: str) -> str:
    return f"e/{stream_id}"


def chain_key_id(chain_id: str) -> str:
    return f"c/{chain_id}"


class SqlBackend(Protocol):
    """The little SQL the key store needs; ``?`` placeholders on every backend."""

    blob_type: str

    def execute(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]: ...

    def changed(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run a write statement; returns how many rows it inserted, updated or deleted."""
        ...

    @contextmanager
    def transaction(self, *, durable: bool = True) -> Iterator[None]: ...

    def compact(self) -> None: ...

    def vacuum(self) -> None: ...

    def close(self) -> None: ...


class SqliteKeyBackend:
    blob_type = "BLOB"

    def __init__(self, path: Path) -> None:
        self.path = path
        self._conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False,
                                     timeout=30)
        self._lock = threading.RLock()
        self._conn.execute("PRAGMA secure_delete=ON")
        if self._conn.execute("PRAGMA secure_delete").fetchone()[0] != 1:
            raise MemoryESError("this SQLite build refuses secure_delete; keys could linger")
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=FULL")

    def execute(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._conn.execute(sql, tuple(params)).fetchall()

    def changed(self, sql: str, params: Sequence[Any] = ()) -> int:
        with self._lock:
            return int(self._conn.execute(sql, tuple(params)).rowcount)

    @contextmanager
    def transaction(self, *, durable: bool = True) -> Iterator[None]:
        """``durable=False``: committed without waiting for the disk (``synchronous=NORMAL``
        for this one commit): it survives a crash of the process, and a power loss may
        undo it, never partly. Only for rows that can be rebuilt from what is durable."""
        with self._lock:
            if not durable:
                self._conn.execute("PRAGMA synchronous=NORMAL")
            try:
                self._conn.execute("BEGIN IMMEDIATE")
                try:
                    yield
                except BaseException:
                    self._conn.execute("ROLLBACK")
                    raise
                self._conn.execute("COMMIT")
            finally:
                if not durable:
                    self._conn.execute("PRAGMA synchronous=FULL")

    def compact(self) -> None:
        """Bytes of deleted keys leave the file: ``secure_delete`` zeroes them where they
        lay, and the checkpoint moves the zeroed pages from the WAL into the file and
        truncates the WAL (no VACUUM: it would rewrite the whole file for every purge)."""
        with self._lock:
            self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def vacuum(self) -> None:
        """Rewrite the whole file (after a master-key rotation: no old copy may remain)."""
        with self._lock:
            self._conn.execute("VACUUM")
            self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def close(self) -> None:
        with self._lock:
            self._conn.close()


class PostgresKeyBackend:
    blob_type = "BYTEA"

    def __init__(self, conninfo: str, schema: str) -> None:
        self._conninfo = conninfo
        self._lock = threading.RLock()
        self._schema = schema
        self._conn = self._connect()
        self._in_tx = False

    def _connect(self) -> Any:
        import psycopg  # noqa: PLC0415  (only needed on PostgreSQL)

        conn = psycopg.connect(self._conninfo, autocommit=True)
        conn.execute(f'SET search_path TO "{self._schema}"')
        return conn

    def _live(self) -> Any:
        """The connection, replaced first when the server dropped it (a restart, a
        failover): the statement that saw the drop failed and was not retried here,
        because it may have committed; the caller's retry then finds a fresh session."""
        if self._conn.closed or self._conn.broken:
            with contextlib.suppress(Exception):
                self._conn.close()
            self._conn = self._connect()
        return self._conn

    def execute(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            cur = self._live().execute(sql.replace("?", "%s"), tuple(params))
            rows = cur.fetchall() if cur.description else []
            return [tuple(bytes(v) if isinstance(v, memoryview) else v for v in r) for r in rows]

    def changed(self, sql: str, params: Sequence[Any] = ()) -> int:
        with self._lock:
            return int(self._live().execute(sql.replace("?", "%s"), tuple(params)).rowcount)

    @contextmanager
    def transaction(self, *, durable: bool = True) -> Iterator[None]:
        """Always durable here (the key store never pools streams on PostgreSQL)."""
        with self._lock, self._live().transaction():
            yield

    def vacuum(self) -> None:
        self.compact()

    def compact(self) -> None:
        with self._lock:
            for table in ("me_keys", "me_names", "me_meta"):
                self._live().execute(f"VACUUM FULL {table}")

    def close(self) -> None:
        with self._lock:
            self._conn.close()


K = TypeVar("K")
V = TypeVar("V")


class Bounded(Generic[K, V]):
    """A map of at most ``limit`` entries that forgets the one put first (first in, first
    out: a read moves nothing, so it takes no lock and costs one dict lookup; an entry used
    often is put again after it is forgotten, at the price of one re-read). What it forgets
    must be found again where it came from: the key store re-reads and unwraps an evicted
    key from its table (a destroyed one is not there any more), and looks a name staged or
    held back up in the stage before the table."""

    __slots__ = ("_items", "get", "limit")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._items: OrderedDict[K, V] = OrderedDict()
        self.get: Callable[[K], V | None] = self._items.get

    def __setitem__(self, name: K, value: V) -> None:
        items = self._items
        items[name] = value
        if len(items) > self.limit:
            items.popitem(last=False)

    def pop(self, name: K) -> None:
        self._items.pop(name, None)

    def clear(self) -> None:
        self._items.clear()

    def __contains__(self, name: object) -> bool:
        return name in self._items

    def __len__(self) -> int:
        return len(self._items)


class KeyStore:
    """Per-stream entity keys and per-chain sub-keys (wrapped by the entity key)."""

    def __init__(self, backend: SqlBackend, master: MasterKey) -> None:
        self.backend = backend
        self.master = master
        self._cache: Bounded[str, DataKey] = Bounded(KEY_CACHE)
        self._names: Bounded[bytes, str] = Bounded(NAME_CACHE)
        self._staged_keys: dict[str, tuple[str, str | None, bytes]] = {}
        self._staged_names: dict[bytes, tuple[str, str]] = {}
        self._fresh: set[str] = set()  # key ids minted here this session: no lookup needed
        self.pool_size = 0
        """Streams minted ahead, keys durable, for new entities (0: off; see :meth:`bind`)."""
        self._pool: list[tuple[str, str]] = []  # (stream id, first chain id), not yet taken
        self._pool_loaded = False
        self._taken: dict[str, str] = {}  # stream id -> its first chain id, until used
        self._staged_takes: set[str] = set()
        self._held_names: dict[bytes, tuple[str, str]] = {}
        self._held_takes: set[str] = set()
        """Names of pooled streams whose events are in the log, not yet written here."""
        self._lock = threading.RLock()
        blob = backend.blob_type
        for ddl in (
            f"CREATE TABLE IF NOT EXISTS me_keys (key_id TEXT PRIMARY KEY, stream_id TEXT NOT NULL,"
            f" parent TEXT, wrapped {blob} NOT NULL, created_at BIGINT NOT NULL)",
            "CREATE INDEX IF NOT EXISTS me_keys_stream ON me_keys (stream_id)",
            "CREATE TABLE IF NOT EXISTS me_shredded (key_id TEXT PRIMARY KEY,"
            " stream_id TEXT NOT NULL, shredded_at BIGINT NOT NULL)",
            f"CREATE TABLE IF NOT EXISTS me_names (digest {blob} PRIMARY KEY,"
            " stream_id TEXT NOT NULL, kind TEXT NOT NULL)",
            "CREATE INDEX IF NOT EXISTS me_names_stream ON me_names (stream_id)",
            f"CREATE TABLE IF NOT EXISTS me_meta (name TEXT PRIMARY KEY, value {blob})",
            "CREATE TABLE IF NOT EXISTS me_pending (stream_id TEXT NOT NULL,"
            " version BIGINT NOT NULL,"
            " key_ids TEXT NOT NULL, unlink INTEGER NOT NULL, PRIMARY KEY (stream_id, version))",
            "CREATE TABLE IF NOT EXISTS me_reshredded (key_id TEXT PRIMARY KEY,"
            " stream_id TEXT NOT NULL, reshredded_at BIGINT NOT NULL)",
            "CREATE TABLE IF NOT EXISTS me_pool (stream_id TEXT PRIMARY KEY,"
            " chain_id TEXT NOT NULL)",
            "CREATE TABLE IF NOT EXISTS me_reconciled (name TEXT PRIMARY KEY,"
            " position BIGINT NOT NULL)",
            "CREATE TABLE IF NOT EXISTS me_replicas (replica_id TEXT PRIMARY KEY,"
            " views TEXT NOT NULL, host TEXT NOT NULL, applied BIGINT NOT NULL,"
            " compacted BIGINT NOT NULL, heartbeat_at BIGINT NOT NULL,"
            " registered_at BIGINT NOT NULL)",
        ):
            backend.execute(ddl)
        self._check_master()
        self._secrets = {name: self._secret(name) for name in SECRETS}

    def _check_master(self) -> None:
        rows = self.backend.execute("SELECT value FROM me_meta WHERE name = 'check'")
        if not rows:
            self.backend.execute(
                "INSERT INTO me_meta (name, value) VALUES ('check', ?) ON CONFLICT DO NOTHING",
                (self.master.wrap("check", CHECK_PLAINTEXT),),
            )
            return
        try:
            self.master.unwrap("check", bytes(rows[0][0]))
        except IntegrityViolation:
            raise IntegrityViolation(
                "the master key does not match this key store (wrong key file?)"
            ) from None

    def _secret(self, name: str) -> bytes:
        """A store secret, kept wrapped under the master key (created on first open from
        what older stores derived, so their digests and signatures stay valid)."""
        row = f"secret:{name}"
        rows = self.backend.execute("SELECT value FROM me_meta WHERE name = ?", (row,))
        if rows:
            return self.master.unwrap(row, bytes(rows[0][0]))
        value = self.master.legacy_secret(name)
        self.backend.execute("INSERT INTO me_meta (name, value) VALUES (?, ?) "
                             "ON CONFLICT DO NOTHING", (row, self.master.wrap(row, value)))
        stored = self.backend.execute("SELECT value FROM me_meta WHERE name = ?", (row,))
        return self.master.unwrap(row, bytes(stored[0][0]))

    def digest(self, *parts: str) -> bytes:
        """Keyed hash of a natural key: not reversible by a dictionary without the key."""
        return hmac.digest(self._secrets["names"], "\x1f".join(parts).encode(), "sha256")

    def signing_seed(self) -> bytes:
        """Seed of the Ed25519 key that signs deletion receipts and anchors."""
        return self._secrets["signing"]

    # master-key rotation ------------------------------------------------------------------

    def rotate(self, new: MasterKey) -> int:
        """Re-wrap every key and secret wrapped by the master key under ``new``, in one
        transaction, then compact so no copy wrapped under the old key stays in the file.
        Chain keys are wrapped by their entity key and need no change. Returns how many
        rows were re-wrapped."""
        with self._lock:
            self.flush()
            count = 0
            with self.backend.transaction():
                for key_id, wrapped in self.backend.execute(
                        "SELECT key_id, wrapped FROM me_keys WHERE parent IS NULL"):
                    material = self.master.unwrap(str(key_id), bytes(wrapped))
                    self.backend.execute("UPDATE me_keys SET wrapped = ? WHERE key_id = ?",
                                         (new.wrap(str(key_id), material), key_id))
                    count += 1
                for name, value in self.backend.execute(
                        "SELECT name, value FROM me_meta WHERE name = 'check' OR name LIKE ?",
                        ("secret:%",)):
                    plain = (CHECK_PLAINTEXT if name == "check"
                             else self.master.unwrap(str(name), bytes(value)))
                    self.backend.execute("UPDATE me_meta SET value = ? WHERE name = ?",
                                         (new.wrap(str(name), plain), name))
                    count += 1
            self.master = new
            self.backend.vacuum()
            return count

    # natural keys -------------------------------------------------------------------------

    def lookup(self, kind: str, *parts: str) -> str | None:
        return self._lookup(self.digest(kind, *parts))

    def lookup_digest(self, digest: bytes) -> str | None:
        """:meth:`lookup` of a natural key by its :meth:`digest`."""
        return self._lookup(digest)

    @property
    def pools_entities(self) -> bool:
        """Whether a new entity's stream comes from the pool (see :meth:`bind`)."""
        return bool(self.pool_size)

    def _lookup(self, digest: bytes, *, query: bool = True) -> str | None:
        with self._lock:
            cached = self._names.get(digest)
            if cached is None:
                unwritten = self._staged_names.get(digest) or self._held_names.get(digest)
                cached = None if unwritten is None else unwritten[0]
            if cached is not None or not query:
                return cached
            rows = self.backend.execute("SELECT stream_id FROM me_names WHERE digest = ?",
                                        (digest,))
            if rows:
                self._names[digest] = str(rows[0][0])
            return str(rows[0][0]) if rows else None

    def bind(self, kind: str, stream_id: str, *parts: str, looked_up: bool = False,
             digest: bytes | None = None) -> str:
        """Bind a natural key to a stream (staged: written by :meth:`flush` with the keys).
        An entity's name takes a stream from the pool when there is one (``stream_id`` is
        then not used).

        ``looked_up``: the caller's :meth:`lookup` has just found nothing, so the store is
        not asked a second time (a bind by another writer in between fails :meth:`flush`).
        ``digest``: :meth:`digest` of ``kind`` and ``parts``, when the caller has it."""
        if digest is None:
            digest = self.digest(kind, *parts)
        with self._lock:
            existing = self._lookup(digest, query=not looked_up)
            if existing is not None:
                return existing
            if kind == "entity" and self.pool_size:
                stream_id = self._take()
            else:
                self._fresh.add(entity_key_id(stream_id))
            self._staged_names[digest] = (stream_id, kind)
            self._names[digest] = stream_id
            return stream_id

    # streams minted ahead ---------------------------------------------------------------
    # A new entity needs a name row, an entity key and a chain key before its first event
    # is written: a key-store commit of its own, waited for on disk, then the log's. With a
    # pool, the keys of ``pool_size`` future streams are committed at once, ahead; taking
    # one commits nothing here: its name row is held back and written, without waiting
    # for the disk, with a later flush (``flush(hold_pooled=True)``). A crash or power loss
    # can lose that row but not the log's commit: the open finds the taken stream still in
    # ``me_pool`` with events in the log, and binds its name again from its first event
    # (:meth:`memory_es.write.side.WriteSide.recover_pool`). One writer process only (the
    # embedded store's lock): two would race on a name without a durable row.

    def pooled(self) -> list[tuple[str, str]]:
        """(stream id, first chain id) of every stream minted ahead and not taken, as stored."""
        return [(str(r[0]), str(r[1])) for r in self.backend.execute(
            "SELECT stream_id, chain_id FROM me_pool ORDER BY stream_id")]

    def drop_pooled(self, stream_id: str, digest: bytes | None = None,
                    kind: str = "entity") -> None:
        """Take ``stream_id`` out of the pool for good, durably; with ``digest``, bind that
        name to it in the same commit (a name an interrupted take lost)."""
        with self._lock, self.backend.transaction():
            if digest is not None:
                self.backend.execute("INSERT INTO me_names (digest, stream_id, kind) VALUES "
                                     "(?, ?, ?) ON CONFLICT DO NOTHING", (digest, stream_id, kind))
                self._names[digest] = stream_id
            self.backend.execute("DELETE FROM me_pool WHERE stream_id = ?", (stream_id,))
            self._pool = [b for b in self._pool if b[0] != stream_id]

    def _take(self) -> str:
        if not self._pool_loaded:
            self._pool = self.pooled()
            self._pool_loaded = True
        if not self._pool:
            self._refill()
        stream_id, chain_id = self._pool.pop(0)
        self._taken[stream_id] = chain_id
        self._staged_takes.add(stream_id)
        return stream_id

    def _refill(self) -> None:
        """Mint streams' entity and first chain keys in one durable commit: ``pool_size``
        of them, or twice what the unit being staged has taken (a batch of new entities)."""
        now = time.time_ns() // 1000
        rows: list[tuple[str, str, str | None, bytes, int]] = []
        minted = []
        count = max(self.pool_size, 2 * len(self._staged_takes))
        # all keys' material in one read of the system's random source, the wrapping
        # nonces in one draw (four system calls per stream before)
        material = random_bytes(2 * KEY_BYTES * count)
        nonces = POOL.take(2 * NONCE_BYTES * count)
        for i in range(count):
            stream_id, chain_id = new_stream_id(), uuid7_str()
            ekey, ckey = entity_key_id(stream_id), chain_key_id(chain_id)
            at, nat = 2 * KEY_BYTES * i, 2 * NONCE_BYTES * i
            e_material = material[at:at + KEY_BYTES]
            c_material = material[at + KEY_BYTES:at + 2 * KEY_BYTES]
            entity = DataKey(ekey, e_material)
            rows.append((ekey, stream_id, None,
                         self.master.wrap(ekey, e_material, nonces[nat:nat + NONCE_BYTES]),
                         now))
            rows.append((ckey, stream_id, ekey,
                         entity.seal(c_material, b"key:" + ckey.encode(),
                                     nonces[nat + NONCE_BYTES:nat + 2 * NONCE_BYTES]), now))
            minted.append((stream_id, chain_id, entity, DataKey(ckey, c_material)))
        with self.backend.transaction():
            self._insert_many(
                "INSERT INTO me_keys (key_id, stream_id, parent, wrapped, created_at)", rows)
            self._insert_many("INSERT INTO me_pool (stream_id, chain_id)",
                              [(sid, cid) for sid, cid, _, _ in minted])
        for stream_id, chain_id, entity, chain in minted:
            self._cache[entity.key_id] = entity
            self._cache[chain.key_id] = chain
            self._pool.append((stream_id, chain_id))

    def just_taken(self, stream_id: str) -> bool:
        """Whether ``stream_id`` came out of the pool in this session (it has no events)."""
        return stream_id in self._staged_takes

    def first_chain(self, stream_id: str) -> str | None:
        """The chain id minted with a pooled stream, the first time its unit asks (None:
        not pooled, or already used): its key is in the store already. A stream not
        taken from the pool, most of a batch's asks, is answered without the lock."""
        if stream_id not in self._taken:
            return None
        with self._lock:
            return self._taken.pop(stream_id, None)

    def mark_fresh(self, key_id: str) -> None:
        """Declare a key id that was just minted (a new chain): it cannot exist or be shredded."""
        self._fresh.add(key_id)

    def flush(self, *, hold_pooled: bool = False) -> None:
        """Write staged keys and names in one transaction, before the events that use them.

        ``hold_pooled`` (the commit path): when only names of pooled streams are staged,
        hold them back instead, up to :data:`HELD_NAMES`, and write them with the next
        flush. Their keys are durable already, and a power loss or crash before they are
        written is repaired from the log at the next open (see ``_take``), so a new
        entity's write costs the log's commit alone. Every other caller writes them all.

        A natural key that another writer bound first makes the write fail rather than
        split an entity over two streams."""
        with self._lock:
            if (hold_pooled and not self._staged_keys
                    and all(sid in self._staged_takes for sid, _ in self._staged_names.values())):
                self._held_names.update(self._staged_names)
                self._held_takes |= self._staged_takes
                self._staged_names, self._staged_takes = {}, set()
                if len(self._held_names) < HELD_NAMES:
                    return
            if self._held_names or self._held_takes:
                self._staged_names = {**self._held_names, **self._staged_names}
                self._staged_takes |= self._held_takes
                self._held_names, self._held_takes = {}, set()
            if not self._staged_keys and not self._staged_names:
                return
            now = time.time_ns() // 1000
            keys, names, takes = self._staged_keys, self._staged_names, self._staged_takes
            # Names of pooled streams alone need not wait for the disk (see ``_take``).
            durable = bool(keys) or any(sid not in takes for sid, _ in names.values())
            try:
                with self.backend.transaction(durable=durable):
                    # A few multi-row statements, not two per key (a batch stages thousands);
                    # a row already there (a retried flush, or another writer) is compared.
                    had_keys = self._insert_many(
                        "INSERT INTO me_keys (key_id, stream_id, parent, wrapped, created_at)",
                        [(k, sid, parent, wrapped, now)
                         for k, (sid, parent, wrapped) in keys.items()])
                    stored = {str(k): bytes(w) for k, w in self._select_in(
                        "SELECT key_id, wrapped FROM me_keys WHERE key_id", had_keys)}
                    for key_id in had_keys:
                        if stored.get(key_id) != keys[key_id][2]:
                            raise ConcurrentWriteError(
                                "another writer created the same key at the same time; retry")
                    had_names = self._insert_many(
                        "INSERT INTO me_names (digest, stream_id, kind)",
                        [(d, sid, kind) for d, (sid, kind) in names.items()])
                    bound = {bytes(d): str(sid) for d, sid in self._select_in(
                        "SELECT digest, stream_id FROM me_names WHERE digest", had_names)}
                    for digest in had_names:
                        if bound.get(digest) != names[digest][0]:
                            raise ConcurrentWriteError(
                                "another writer created this entity at the same time; retry")
                    taken = sorted(takes)
                    for i in range(0, len(taken), PREFETCH_CHUNK):
                        part = taken[i:i + PREFETCH_CHUNK]
                        marks = ", ".join("?" * len(part))
                        if self.backend.changed(
                                f"DELETE FROM me_pool WHERE stream_id IN ({marks})",
                                part) != len(part):
                            raise ConcurrentWriteError(
                                "another writer took the same new stream; retry")
            except ConcurrentWriteError:
                # Events sealed under our keys must not be written: forget what was staged.
                for key_id in keys:
                    self._cache.pop(key_id)
                for digest in names:
                    self._names.pop(digest)
                self._staged_keys, self._staged_names, self._staged_takes = {}, {}, set()
                raise
            # Only a committed flush empties the stage; a failed one is retried next commit.
            self._staged_keys, self._staged_names, self._staged_takes = {}, {}, set()

    def _insert_many(self, insert: str, rows: list[tuple[Any, ...]]) -> list[Any]:
        """``insert`` (``INSERT INTO t (columns)``) of ``rows``, many rows per statement; a
        row whose key is already there is skipped. Returns the keys (first column) of the
        rows to compare with what is stored: none when every row went in, else every row
        of a statement that skipped one (a row it did insert compares equal). A count of
        changes rather than ``RETURNING`` the keys inserted: ≈ 0.9 us less per row."""
        if not rows:
            return []
        per_row = "(" + ", ".join("?" * len(rows[0])) + ")"
        maybe: list[Any] = []
        for i in range(0, len(rows), FLUSH_CHUNK):
            part = rows[i:i + FLUSH_CHUNK]
            if self.backend.changed(
                    f"{insert} VALUES {', '.join([per_row] * len(part))} ON CONFLICT DO NOTHING",
                    [v for row in part for v in row]) != len(part):
                maybe += [row[0] for row in part]
        return maybe

    def _select_in(self, select: str, ids: Sequence[Any]) -> list[tuple[Any, ...]]:
        """Rows of ``select`` (ending ``WHERE column``) whose column is one of ``ids``."""
        rows: list[tuple[Any, ...]] = []
        for i in range(0, len(ids), PREFETCH_CHUNK):
            part = ids[i:i + PREFETCH_CHUNK]
            rows += self.backend.execute(f"{select} IN ({', '.join('?' * len(part))})", part)
        return rows

    # data keys --------------------------------------------------------------------------

    def is_shredded(self, key_id: str) -> bool:
        return bool(self.backend.execute("SELECT 1 FROM me_shredded WHERE key_id = ?", (key_id,)))

    def key(self, key_id: str, stream_id: str, *, create: bool,
            parent: str | None = None) -> DataKey:
        """The data key ``key_id``; created (staged) on first use unless it was ever shredded."""
        cached = self._cache.get(key_id)  # one dict read, atomic: no lock for a cached key
        if cached is not None:
            return cached
        with self._lock:
            cached = self._cache.get(key_id)
            if cached is not None:
                return cached
            fresh = key_id in self._fresh
            self._fresh.discard(key_id)
            staged = self._staged_keys.get(key_id)  # minted here, forgotten before its flush
            if staged is not None:
                rows: list[tuple[Any, ...]] = [(staged[2], staged[1])]
            else:
                rows = [] if fresh else self.backend.execute(
                    "SELECT wrapped, parent FROM me_keys WHERE key_id = ?", (key_id,))
            if rows:
                material = self._unwrap(key_id, bytes(rows[0][0]), rows[0][1], stream_id)
            else:
                if not fresh and self.is_shredded(key_id):
                    raise ErasedContent(f"key {key_id} was destroyed; it is never re-issued")
                if not create:
                    raise ErasedContent(f"key {key_id} does not exist; its content is unreadable")
                return self._create(key_id, stream_id, parent, new_key_material())
            data_key = DataKey(key_id, material)
            self._cache[key_id] = data_key
            return data_key

    def _create(self, key_id: str, stream_id: str, parent: str | None, material: bytes,
                nonce: bytes | None = None) -> DataKey:
        """A new key, staged (written by :meth:`flush`) and cached; the caller holds the lock."""
        self._staged_keys[key_id] = (
            stream_id, parent, self._wrap(key_id, material, parent, stream_id, nonce))
        data_key = self._cache[key_id] = DataKey(key_id, material)
        return data_key

    def fresh_chain_key(self, stream_id: str, chain_id: str) -> DataKey | str:
        """:meth:`chain_key`, except for a chain minted in this session whose key does not
        exist yet: its key id, for :meth:`mint_chain_keys` to create with others. The entity
        key that will wrap it is fetched now, so a destroyed one fails the caller here."""
        key_id = chain_key_id(chain_id)
        cached = self._cache.get(key_id)
        if cached is not None:
            return cached
        if key_id in self._fresh:
            self.entity_key(stream_id)
            return key_id
        return self.chain_key(stream_id, chain_id)

    def mint_chain_keys(self, wanted: Mapping[str, str]) -> dict[str, DataKey]:
        """The keys of new chains (key id -> stream id), those not created yet created
        together: their random material and wrapping nonces in one draw, each wrapped under
        its entity key and staged like any new key."""
        with self._lock:
            out: dict[str, DataKey] = {}
            todo = []
            for key_id in wanted:
                cached = self._cache.get(key_id)
                if cached is not None:
                    out[key_id] = cached
                elif key_id not in self._fresh:
                    raise IntegrityViolation(f"key {key_id} was not minted in this session")
                else:
                    todo.append(key_id)
            if todo:
                material = random_bytes((KEY_BYTES + NONCE_BYTES) * len(todo))
                nonces = len(todo) * KEY_BYTES
                for i, key_id in enumerate(todo):
                    self._fresh.discard(key_id)
                    stream_id = wanted[key_id]
                    out[key_id] = self._create(
                        key_id, stream_id, entity_key_id(stream_id),
                        material[i * KEY_BYTES:(i + 1) * KEY_BYTES],
                        material[nonces + i * NONCE_BYTES:nonces + (i + 1) * NONCE_BYTES])
            return out

    def prefetch(self, wanted: Mapping[str, str], *,
                 keep: bool = True) -> dict[str, DataKey | WrappedKey]:
        """Load the uncached keys of ``wanted`` (key id -> stream id) with one query per
        500 ids, chain keys' parents included, instead of one query per key. Returns the
        keys of ``wanted`` it has, cached or loaded, for the caller to open its batch with:
        a batch of more keys than the cache keeps would otherwise lose the first it loaded
        before it used them. Keys missing or destroyed are left out: :meth:`key` reports
        them when they are asked for.

        ``keep`` False: the chain keys loaded are neither unwrapped nor cached, but
        returned as :class:`memory_es.crypto.sealing.WrappedKey` (unwrapped at each use;
        entity keys, their parents, are cached as ever). A rebuild opens each chain's key
        for the few events of its chain and never again, from a log of far more chains than
        :data:`KEY_CACHE` holds: cached, they only pushed out the keys in use."""
        with self._lock:
            have: dict[str, DataKey | WrappedKey] = {}
            todo = []
            cached_key = self._cache.get
            fresh = self._fresh
            for key_id in wanted:
                cached = cached_key(key_id)
                if cached is not None:
                    have[key_id] = cached
                elif key_id not in fresh:
                    todo.append(key_id)
            if len(todo) < 2:
                return have
            ids = dict.fromkeys(todo)
            for entity_key in {"e/" + wanted[k] for k in todo if k[:2] == "c/"}:
                cached = cached_key(entity_key)
                if cached is not None:
                    have[entity_key] = cached
                elif entity_key not in fresh:
                    ids[entity_key] = None
            chains = []
            cache = self._cache
            unwrap = self.master.unwrap
            for found, wrapped, parent in self._select_in(
                    "SELECT key_id, wrapped, parent FROM me_keys WHERE key_id", list(ids)):
                key_id = str(found)
                if parent is None:
                    have[key_id] = cache[key_id] = DataKey(key_id, unwrap(key_id, bytes(wrapped)))
                else:
                    chains.append((key_id, wrapped, str(parent)))
            for key_id, wrapped, parent in chains:
                parent_key = have.get(parent)
                if not isinstance(parent_key, DataKey):  # missing or destroyed: key() says
                    continue
                if keep:
                    have[key_id] = cache[key_id] = DataKey(key_id, parent_key.open(
                        bytes(wrapped), b"key:" + key_id.encode()))
                else:
                    have[key_id] = WrappedKey(key_id, parent_key, bytes(wrapped))
            return have

    def _wrap(self, key_id: str, material: bytes, parent: str | None, stream_id: str,
              nonce: bytes | None = None) -> bytes:
        if parent is None:
            return self.master.wrap(key_id, material)
        return self.key(parent, stream_id, create=True).seal(
            material, b"key:" + key_id.encode(), nonce)

    def _unwrap(self, key_id: str, wrapped: bytes, parent: str | None, stream_id: str) -> bytes:
        if parent is None:
            return self.master.unwrap(key_id, wrapped)
        return self.key(parent, stream_id, create=False).open(wrapped, b"key:" + key_id.encode())

    def entity_key(self, stream_id: str, *, create: bool = True) -> DataKey:
        return self.key(entity_key_id(stream_id), stream_id, create=create)

    def chain_key(self, stream_id: str, chain_id: str, *, create: bool = True) -> DataKey:
        return self.key(chain_key_id(chain_id), stream_id, create=create,
                        parent=entity_key_id(stream_id))

    def for_id(self, key_id: str, stream_id: str) -> DataKey:
        """The key for decrypting; raises :class:`ErasedContent` once it is destroyed."""
        cached = self._cache.get(key_id)
        if cached is not None:
            return cached
        parent = entity_key_id(stream_id) if key_id.startswith("c/") else None
        return self.key(key_id, stream_id, create=False, parent=parent)

    # shredding --------------------------------------------------------------------------

    def shred(self, key_ids: Sequence[str], stream_id: str, *, unlink_names: bool,
              pending_version: int | None = None) -> list[str]:
        """Destroy keys (tombstoned, never re-issued) and, for a whole entity, its name rows.
        ``pending_version``: the shredding :meth:`mark_pending` recorded for this stream at
        that version is cleared in the same commit (one durable commit, not two; a crash
        leaves both done or neither)."""
        now = time.time_ns() // 1000
        self.flush()
        with self._lock, self.backend.transaction():
            if pending_version is not None:
                self.backend.execute("DELETE FROM me_pending WHERE stream_id = ? AND version = ?",
                                     (stream_id, pending_version))
            for key_id in key_ids:
                self.backend.execute("DELETE FROM me_keys WHERE key_id = ?", (key_id,))
                self.backend.execute(
                    "INSERT INTO me_shredded (key_id, stream_id, shredded_at) VALUES (?, ?, ?)"
                    " ON CONFLICT DO NOTHING", (key_id, stream_id, now))
                self._cache.pop(key_id)
            if unlink_names:
                for (digest,) in self.backend.execute(
                        "SELECT digest FROM me_names WHERE stream_id = ?", (stream_id,)):
                    self._names.pop(bytes(digest))
                self.backend.execute("DELETE FROM me_names WHERE stream_id = ?", (stream_id,))
        return list(key_ids)

    def mark_pending(self, stream_id: str, version: int, key_ids: Sequence[str],
                     unlink: bool) -> None:
        """Record a shredding about to be committed, so a crash after the purge event
        and before the keys are destroyed is finished at the next open."""
        self.backend.execute(
            "INSERT INTO me_pending (stream_id, version, key_ids, unlink) VALUES (?, ?, ?, ?)"
            " ON CONFLICT DO NOTHING", (stream_id, version, "\n".join(key_ids), int(unlink)))

    def clear_pending(self, stream_id: str, version: int) -> None:
        self.backend.execute("DELETE FROM me_pending WHERE stream_id = ? AND version = ?",
                             (stream_id, version))

    def pending(self) -> list[tuple[str, int, list[str], bool]]:
        rows = self.backend.execute("SELECT stream_id, version, key_ids, unlink FROM me_pending")
        return [(str(r[0]), int(r[1]), [k for k in str(r[2]).split("\n") if k], bool(r[3]))
                for r in rows]

    def revived(self, key_ids: Sequence[str], stream_id: str, *, whole: bool) -> list[str]:
        """Of keys a purge destroyed, those the key store holds again or has no tombstone
        for (an old backup restored over it), and, for a whole entity, its name rows."""
        live = [k for k in key_ids if not self.is_shredded(k) or self.backend.execute(
            "SELECT 1 FROM me_keys WHERE key_id = ?", (k,))]
        if whole:
            live += [k for k in self.keys_of_stream(stream_id) if k not in live]
            if self.names_of_stream(stream_id):
                live.append(f"names of {stream_id}")
        return live

    def reshred(self, key_ids: Sequence[str], stream_id: str, *, whole: bool) -> list[str]:
        """Destroy again what a restore revived; records each key (``audit_verify`` lists
        them) and returns them."""
        revived = self.revived(key_ids, stream_id, whole=whole)
        if not revived:
            return []
        keys = [k for k in revived if not k.startswith("names of ")]
        every = sorted({*key_ids, *keys})
        self.shred(every, stream_id, unlink_names=whole)
        now = time.time_ns() // 1000
        for key_id in revived:
            self.backend.execute(
                "INSERT INTO me_reshredded (key_id, stream_id, reshredded_at) VALUES (?, ?, ?)"
                " ON CONFLICT DO NOTHING", (key_id, stream_id, now))
        return revived

    def reshredded(self) -> list[str]:
        return [str(r[0]) for r in self.backend.execute(
            "SELECT key_id FROM me_reshredded ORDER BY reshredded_at, key_id")]

    def reconciled(self) -> int:
        """The log position up to which deletions were replayed against this key store."""
        rows = self.backend.execute(
            "SELECT position FROM me_reconciled WHERE name = 'deletions'")
        return int(rows[0][0]) if rows else 0

    def set_reconciled(self, position: int) -> None:
        self.backend.execute(
            "INSERT INTO me_reconciled (name, position) VALUES ('deletions', ?) "
            "ON CONFLICT (name) DO UPDATE SET position = excluded.position", (position,))

    def rebind(self, kind: str, stream_id: str, *parts: str) -> None:
        """Point a natural key at ``stream_id`` (a system stream whose name row was lost)."""
        digest = self.digest(kind, *parts)
        with self._lock, self.backend.transaction():
            self.backend.execute("DELETE FROM me_names WHERE digest = ?", (digest,))
            self.backend.execute("INSERT INTO me_names (digest, stream_id, kind) VALUES (?, ?, ?)",
                                 (digest, stream_id, kind))
            self._names[digest] = stream_id

    # replicas ---------------------------------------------------------------------------
    # Every views replica registers here, beside the keys, so that a residue report can
    # name each one and whether it has applied a purge (SPEC §13).

    def register_replica(self, replica_id: str, views: str, host: str) -> None:
        now = time.time_ns() // 1000
        self.backend.execute(
            "INSERT INTO me_replicas (replica_id, views, host, applied, compacted,"
            " heartbeat_at, registered_at) VALUES (?, ?, ?, 0, 0, ?, ?)"
            " ON CONFLICT (replica_id) DO UPDATE SET views = excluded.views,"
            " host = excluded.host, heartbeat_at = excluded.heartbeat_at",
            (replica_id, views, host, now, now))

    def heartbeat(self, replica_id: str, applied: int, compacted: int) -> None:
        """Committed without waiting for the disk (see ``transaction(durable=False)``): a
        power loss can only undo the newest beats, and an older beat says less is applied
        and compacted, longer ago — a report then says ``pending`` or ``unreachable``,
        never ``clean``, and the replica compacts again when it reopens."""
        with self.backend.transaction(durable=False):
            self.backend.execute(
                "UPDATE me_replicas SET applied = ?, compacted = ?, heartbeat_at = ?"
                " WHERE replica_id = ?",
                (applied, compacted, time.time_ns() // 1000, replica_id))

    def replicas(self) -> list[tuple[str, str, str, int, int, int]]:
        """(id, views, host, applied, compacted, heartbeat_at µs) of every replica."""
        return [(str(r[0]), str(r[1]), str(r[2]), int(r[3]), int(r[4]), int(r[5]))
                for r in self.backend.execute(
                    "SELECT replica_id, views, host, applied, compacted, heartbeat_at"
                    " FROM me_replicas ORDER BY registered_at, replica_id")]

    def retire_replica(self, replica_id: str) -> bool:
        found = self.backend.execute("SELECT 1 FROM me_replicas WHERE replica_id = ?",
                                     (replica_id,))
        self.backend.execute("DELETE FROM me_replicas WHERE replica_id = ?", (replica_id,))
        return bool(found)

    def names_of_stream(self, stream_id: str) -> int:
        """Name rows of ``stream_id``: stored, staged or held back (see :meth:`flush`)."""
        rows = self.backend.execute("SELECT count(*) FROM me_names WHERE stream_id = ?",
                                    (stream_id,))
        with self._lock:
            unwritten = [sid for sid, _ in (*self._staged_names.values(),
                                            *self._held_names.values())]
        return int(rows[0][0]) + unwritten.count(stream_id)

    def held(self) -> tuple[int, int]:
        """(keys, names) held in memory: at most :data:`KEY_CACHE` and :data:`NAME_CACHE`."""
        return len(self._cache), len(self._names)

    def cached(self, key_ids: Sequence[str]) -> list[str]:
        return [k for k in key_ids if k in self._cache]

    def keys_of_stream(self, stream_id: str) -> list[str]:
        rows = self.backend.execute("SELECT key_id FROM me_keys WHERE stream_id = ?", (stream_id,))
        return [str(r[0]) for r in rows]

    def close(self) -> None:
        """Write held names (best effort: the next open repairs any it could not) and
        close."""
        with contextlib.suppress(Exception):  # a close never fails on it
            self.flush()
        self._cache.clear()
        self.backend.close()
