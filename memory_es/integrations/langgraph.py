"""LangGraph long-term memory on memory-es: :class:`MemoryESStore` is a ``BaseStore``.

Agents built with LangGraph keep long-term memory in a ``BaseStore`` (namespaced items
with search). This adapter gives them memory that is current by construction: an
overwrite is a supersede, a delete is a forget (or a purge), and search runs through
recall over current facts only. What the interface cannot say (time travel, drift
chains, provable erasure) stays reachable on the adapter itself.

Mapping (SPEC §16):

* **Tenant** is fixed per adapter (``MemoryESStore(store, "acme")``).
* **Namespace** ``(ns, local, *rest)`` names the entity ``ns:local`` (used verbatim:
  entity ids are exact, ``("user", "alex")`` never reaches ``user:alexandra``); ``rest``
  is the leading part of the attribute path.
* **Key** is the rest of the attribute path, canonicalised by :func:`canonical_key`.
  ``("user", "alex", "prefs")`` + ``"theme"`` and ``("user", "alex")`` + ``"prefs.theme"``
  both name attribute ``prefs.theme``: namespace and key together spell one path, and
  search and ``list_namespaces`` report it split before its last segment.
* **Value** (a JSON object) is the fact's value. A fact written outside the adapter
  whose value is not an object reads back as ``{"value": <value>}``.
* ``created_at`` is the valid-from of the first value in the item's line of supersedes
  (for items the adapter wrote: the time of the first put; a put after a delete starts
  a new line); ``updated_at`` is the transaction time of the current version.

Key canonicalisation (:func:`canonical_key`, idempotent: a key the adapter hands back
addresses the same item): Unicode NFKC, lower case; ``.`` separates path segments; in
each segment, surrounding spaces are dropped and every run of whitespace, ``-``, ``/``
or ``:`` becomes ``_``; a segment starting with a digit gets the prefix ``k`` (so
``str(uuid4())`` keys work: ``"3f2a-…"`` becomes ``"k3f2a_…"``). What is left must be
ASCII ``[a-z][a-z0-9_]*`` per segment and the whole attribute at most 128 characters;
anything else (empty segments, other punctuation, non-ASCII letters) raises
:class:`InvalidKey`. Keys are therefore case-insensitive: ``"Theme"`` and ``"theme"``
are one item. Namespace labels after the entity follow the same rule.

Behaviour:

* ``put`` on an existing key supersedes the slot from now on (SQL:2011 ``UPDATE FOR
  PORTION OF [now, ∞)``), so ``get`` and ``search`` return only the new value; putting
  the same value again reinforces it. The puts of one ``batch`` (each run of consecutive
  puts and deletes) commit atomically in one transaction; the last put of a key wins.
* ``delete`` (and ``put(..., None)``) is ``forget_fact``: terminal, derived facts are
  invalidated. ``MemoryESStore(..., delete="purge")`` makes it a purge instead: the
  key's whole drift chain is crypto-shredded and a deletion receipt issued (a purge
  that the store judges high-risk still needs the preview's token: use
  :meth:`MemoryESStore.purge` with ``confirm=``).
* ``search`` with a ``query`` goes through ``store.recall``; without one it lists
  ``store.current``, newest first. Either way only facts current now (retrievable
  state, open in transaction time, valid now) are returned, and ``filter`` is applied
  after that, to current facts only. ``$eq``, ``$ne``, ``$gt``, ``$gte``, ``$lt`` and
  ``$lte`` are supported.
* TTLs are not supported (``supports_ttl`` is false): valid time is the store's way to
  let memory lapse (``adapter.store.decay``). ``index=`` lists of fields choose the text
  that recall indexes; ``index=False`` cannot switch recall off for one fact and is
  ignored.

What LangGraph's interface cannot express, and where it is: :meth:`MemoryESStore.as_of`
(belief at a past transaction time about a valid time), :meth:`~MemoryESStore.chain`
and :meth:`~MemoryESStore.history` (the drift chain with reasons, including forgotten
values), :meth:`~MemoryESStore.preview`, :meth:`~MemoryESStore.purge` and
:meth:`~MemoryESStore.verify_erasure` (provable erasure), :meth:`~MemoryESStore.facts`
(provenance: ``source``, ``asserted_by``, ``confidence``, state), and
:attr:`~MemoryESStore.store` for everything else.
"""

from __future__ import annotations

import asyncio
import json
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from langgraph.store.base import (
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    get_text_at_path,
)

from memory_es.domain.lifecycle import RETRIEVABLE_STATES
from memory_es.domain.validation import check_tenant, is_canonical_entity
from memory_es.errors import InvalidInput, NotFound
from memory_es.models import DeletionReceipt, ErasureReport, Fact, Preview
from memory_es.services.audit import HistoryEntry
from memory_es.store import MemoryStore

__all__ = ["InvalidKey", "InvalidNamespace", "MemoryESStore", "canonical_key"]

DeleteMode = Literal["forget", "purge"]
MAX_ATTRIBUTE = 128
MAX_TEXT = 8192
OPERATORS = frozenset({"$eq", "$ne", "$gt", "$gte", "$lt", "$lte"})
_RUNS = re.compile(r"[\s\-/:]+")
_SEGMENT = re.compile(r"[a-z][a-z0-9_]*")


class InvalidKey(InvalidInput):
    """An item key (or namespace label after the entity) cannot become an attribute path."""


class InvalidNamespace(InvalidInput, InvalidNamespaceError):
    """A namespace does not name a memory-es entity (also LangGraph's own error type)."""


# the mapping ----------------------------------------------------------------------------

def _segment(text: str, what: str) -> str:
    seg = _RUNS.sub("_", text.strip())
    if seg[:1].isascii() and seg[:1].isdigit():
        seg = "k" + seg
    if not _SEGMENT.fullmatch(seg):
        raise InvalidKey(f"{what} must be ASCII letters, digits and '_' after canonicalisation,"
                         " starting with a letter (see canonical_key)")
    return seg


def canonical_key(key: str) -> str:
    """The attribute path a LangGraph key names (idempotent; see the module docstring).

    Args:
        key: an item key such as ``"Home City"``, ``"prefs.theme"`` or ``str(uuid4())``.

    Returns:
        The dotted lower-case path (``"home_city"``, ``"prefs.theme"``, ``"k3f2a…"``).

    Raises:
        InvalidKey: the key is empty or has a segment that cannot be canonicalised.
    """
    if not isinstance(key, str):
        raise InvalidKey("an item key must be a string")
    text = unicodedata.normalize("NFKC", key).strip().lower()
    if not text:
        raise InvalidKey("an item key cannot be empty")
    parts = [_segment(part, f"key segment {i + 1}") for i, part in enumerate(text.split("."))]
    return ".".join(parts)


def _check_labels(labels: Sequence[Any]) -> tuple[str, ...]:
    """LangGraph's label rules, raised as a typed error (``batch`` can bypass its checks)."""
    for label in labels:
        if not isinstance(label, str) or not label:
            raise InvalidNamespace("namespace labels must be non-empty strings")
        if "." in label or "\x00" in label:
            raise InvalidNamespace("namespace labels cannot contain '.' or NUL")
    return tuple(labels)


@dataclass(frozen=True)
class _Slot:
    """One item: an (entity, attribute) slot of the adapter's tenant."""

    entity: str
    attribute: str


def _entity(labels: Sequence[str]) -> str:
    entity = f"{labels[0]}:{labels[1]}"
    if not is_canonical_entity(entity):
        raise InvalidNamespace(
            "the first two namespace labels must form a canonical entity id 'namespace:local'"
            " (lower-case namespace; local id of letters, digits and _ - @ + / #)")
    return entity


def _slot(namespace: Sequence[Any], key: str) -> _Slot:
    labels = _check_labels(namespace)
    if len(labels) < 2:
        raise InvalidNamespace("a namespace starts with (namespace, local id) naming one entity,"
                               " e.g. ('user', 'alex')")
    rest = [_segment(unicodedata.normalize("NFKC", label).lower(), f"namespace label {i + 3}")
            for i, label in enumerate(labels[2:])]
    attribute = ".".join([*rest, canonical_key(key)])
    if len(attribute) > MAX_ATTRIBUTE:
        raise InvalidKey(f"namespace labels after the entity and the key together must be at"
                         f" most {MAX_ATTRIBUTE} characters")
    return _Slot(_entity(labels), attribute)


def _namespace_of(fact: Fact) -> tuple[str, ...] | None:
    """The namespace an item is reported in: entity labels, then the path but its last."""
    if fact.entity is None:
        return None
    ns, local = fact.entity.split(":", 1)
    return (ns, local, *fact.attribute.split(".")[:-1])


def _key_of(fact: Fact) -> str:
    return fact.attribute.rsplit(".", 1)[-1]


@dataclass(frozen=True)
class _Prefix:
    """A search scope: every label of the prefix compared exactly (width control)."""

    labels: tuple[str, ...]

    @classmethod
    def parse(cls, labels: Sequence[Any]) -> _Prefix:
        checked = _check_labels(labels)
        if len(checked) >= 2:
            _entity(checked)
        rest = tuple(_segment(unicodedata.normalize("NFKC", label).lower(),
                              f"namespace label {i + 3}") for i, label in enumerate(checked[2:]))
        return cls(checked[:2] + rest)

    @property
    def entity(self) -> str | None:
        return f"{self.labels[0]}:{self.labels[1]}" if len(self.labels) >= 2 else None

    def holds(self, fact: Fact) -> bool:
        namespace = _namespace_of(fact)
        return namespace is not None and namespace[: len(self.labels)] == self.labels


def _as_item_value(value: Any) -> dict[str, Any]:
    return dict(value) if isinstance(value, dict) else {"value": value}


def _json_value(value: Mapping[str, Any]) -> dict[str, Any]:
    if not isinstance(value, Mapping) or not all(isinstance(k, str) for k in value):
        raise InvalidInput("an item value must be a mapping with string keys (or None to delete)")
    plain = dict(value)
    try:
        json.dumps(plain, allow_nan=False)
    except (TypeError, ValueError):
        raise InvalidInput("an item value must be JSON-serialisable (finite numbers)") from None
    return plain


def _leaves(value: Any, into: list[str], path: str = "") -> list[str]:
    if isinstance(value, dict):
        for k, v in value.items():
            _leaves(v, into, f"{path}.{k}" if path else str(k))
    elif isinstance(value, list):
        for v in value:
            _leaves(v, into, path)
    elif value is not None:
        into.append(f"{path}: {value}" if path else str(value))
    return into


def _text(slot: _Slot, value: dict[str, Any], index: Literal[False] | list[str] | None) -> str:
    """What recall indexes: the entity, the attribute's words, and the chosen fields."""
    if isinstance(index, list) and index:
        body = [t for path in index for t in get_text_at_path(value, path)]
    else:
        body = _leaves(value, [])
    head = f"{slot.entity} {slot.attribute.replace('.', ' ').replace('_', ' ')}: "
    return (head + "; ".join(body))[:MAX_TEXT]


# filters --------------------------------------------------------------------------------

def _check_filter(spec: Mapping[str, Any] | None) -> None:
    for condition in (spec or {}).values():
        if isinstance(condition, Mapping):
            unknown = {k for k in condition if k.startswith("$")} - OPERATORS
            if unknown:
                raise InvalidInput(f"unsupported filter operator(s) {sorted(unknown)}; use one"
                                   f" of {sorted(OPERATORS)}")


def _compare(actual: Any, operator: str, expected: Any) -> bool:
    if operator == "$eq":
        return bool(actual == expected)
    if operator == "$ne":
        return bool(actual != expected)
    try:
        a, b = float(actual), float(expected)
    except (TypeError, ValueError):
        return False
    return {"$gt": a > b, "$gte": a >= b, "$lt": a < b, "$lte": a <= b}[operator]


def _matches(actual: Any, expected: Any) -> bool:
    if isinstance(expected, Mapping):
        if any(k.startswith("$") for k in expected):
            return all(_compare(actual, op, v) for op, v in expected.items())
        return isinstance(actual, dict) and all(_matches(actual.get(k), v)
                                                for k, v in expected.items())
    return bool(actual == expected)


def _passes(value: dict[str, Any], spec: Mapping[str, Any] | None) -> bool:
    return all(_matches(value.get(k), v) for k, v in (spec or {}).items())


def _path_matches(condition: MatchCondition, namespace: tuple[str, ...]) -> bool:
    path = tuple(condition.path)
    if len(namespace) < len(path):
        return False
    window = namespace[: len(path)] if condition.match_type == "prefix" else (
        namespace[len(namespace) - len(path):])
    return all(p in ("*", n) for n, p in zip(window, path, strict=True))


# planned operations ---------------------------------------------------------------------

@dataclass(frozen=True)
class _Write:
    slot: _Slot
    value: dict[str, Any] | None
    text: str | None


@dataclass(frozen=True)
class _Get:
    slot: _Slot


@dataclass(frozen=True)
class _Search:
    prefix: _Prefix
    query: str | None
    filter: Mapping[str, Any] | None
    limit: int
    offset: int


_Planned = _Write | _Get | _Search | ListNamespacesOp


def _plan(op: Op) -> _Planned:
    """Validate one operation (nothing runs until every operation of a batch is valid)."""
    if isinstance(op, PutOp):
        if op.ttl is not None:
            raise NotImplementedError("TTL is not supported by MemoryESStore; let memory lapse"
                                      " in valid time with adapter.store.decay")
        slot = _slot(op.namespace, op.key)
        if op.value is None:
            return _Write(slot, None, None)
        value = _json_value(op.value)
        return _Write(slot, value, _text(slot, value, op.index))
    if isinstance(op, GetOp):
        return _Get(_slot(op.namespace, op.key))
    if isinstance(op, SearchOp):
        if op.limit < 0 or op.offset < 0:
            raise InvalidInput("search limit and offset must be non-negative")
        _check_filter(op.filter)
        return _Search(_Prefix.parse(op.namespace_prefix), op.query or None, op.filter,
                       op.limit, op.offset)
    if isinstance(op, ListNamespacesOp):
        for condition in op.match_conditions or ():
            _check_labels([label for label in condition.path if label != "*"])
        if op.limit < 0 or op.offset < 0 or (op.max_depth is not None and op.max_depth < 1):
            raise InvalidInput("limit and offset must be non-negative and max_depth positive")
        return op
    raise InvalidInput(f"unknown store operation {type(op).__name__}")


# the store ------------------------------------------------------------------------------

class MemoryESStore(BaseStore):
    """A LangGraph ``BaseStore`` over one tenant of a memory-es store.

    Args:
        store: an open :class:`memory_es.MemoryStore` (the adapter does not close it).
        tenant: the tenant every item of this adapter lives in.
        delete: ``"forget"`` (default: ``delete`` is ``forget_fact``, terminal and
            cascading, the history kept for audit) or ``"purge"`` (``delete``
            crypto-shreds the key's whole drift chain and issues a deletion receipt:
            for stores under a legal duty to erase).
        source: the ``source`` (channel) recorded on every fact the adapter writes.
        requested_by: recorded on the deletion receipts of purges the adapter makes.

    Raises:
        InvalidInput: the tenant or the delete mode is not valid.
    """

    def __init__(self, store: MemoryStore, tenant: str, *, delete: DeleteMode = "forget",
                 source: str = "langgraph", requested_by: str | None = None) -> None:
        check_tenant(tenant)
        if delete not in ("forget", "purge"):
            raise InvalidInput("delete must be 'forget' or 'purge'")
        self._store = store
        self._tenant = tenant
        self._delete: DeleteMode = delete
        self._source = source
        self._requested_by = requested_by

    @property
    def store(self) -> MemoryStore:
        """The memory-es store underneath (for every operation LangGraph cannot express)."""
        return self._store

    @property
    def tenant(self) -> str:
        return self._tenant

    # BaseStore --------------------------------------------------------------------------

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run operations in order; every operation is validated before any runs.

        Consecutive puts and deletes commit in one transaction (all or nothing); reads
        see every write before them in the batch.
        """
        planned = [_plan(op) for op in ops]
        results: list[Result] = [None] * len(planned)
        i = 0
        while i < len(planned):
            step = planned[i]
            if isinstance(step, _Write):
                j = i
                while j < len(planned) and isinstance(planned[j], _Write):
                    j += 1
                self._write([w for w in planned[i:j] if isinstance(w, _Write)])
                i = j
                continue
            if isinstance(step, _Get):
                results[i] = self._get(step.slot)
            elif isinstance(step, _Search):
                results[i] = self._search(step)
            else:
                results[i] = self._list_namespaces(step)
            i += 1
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """:meth:`batch` in a worker thread, so the event loop is never blocked."""
        listed = list(ops)
        return await asyncio.to_thread(self.batch, listed)

    # the operations ---------------------------------------------------------------------

    def _current(self, slot: _Slot) -> list[Fact]:
        facts = self._store.current(self._tenant, entity=slot.entity, attribute=slot.attribute)
        return sorted(facts, key=lambda f: f.recorded_at, reverse=True)

    def _write(self, writes: Sequence[_Write]) -> None:
        last = {w.slot: w for w in writes}  # the last put of a key wins, as in LangGraph
        currents = {slot: self._current(slot) for slot in last}
        staged = [w for w in last.values()
                  if w.value is not None or (self._delete == "forget" and currents[w.slot])]
        purges = [w.slot for w in last.values() if w.value is None and self._delete == "purge"]
        if staged:
            with self._store.transact() as tx:
                for w in staged:
                    current = currents[w.slot]
                    if w.value is None:
                        for fact in current:
                            tx.forget_fact(fact.fact_id, reason="langgraph delete")
                    elif current and current[0].value == w.value and not current[0].masked:
                        tx.assert_fact(self._tenant, w.slot.entity, w.slot.attribute, w.value,
                                       text=w.text, source=self._source)
                    else:
                        tx.supersede(self._tenant, w.slot.entity, w.slot.attribute, w.value,
                                     text=w.text, source=self._source,
                                     reason="langgraph put" if current else None)
        for slot in purges:
            for fact_id in self._chains(slot):
                self._store.purge(self._tenant, slot.entity, fact_id=fact_id,
                                  requested_by=self._requested_by)

    def _items(self, facts: Sequence[Fact],
               scores: Sequence[float | None] | None = None) -> list[SearchItem]:
        created = self._created_at(facts)
        out: list[SearchItem] = []
        for i, fact in enumerate(facts):
            namespace = _namespace_of(fact)
            if namespace is None:
                continue
            out.append(SearchItem(
                namespace=namespace, key=_key_of(fact), value=_as_item_value(fact.value),
                created_at=created.get(fact.fact_id, fact.recorded_at),
                updated_at=fact.recorded_at, score=None if scores is None else scores[i]))
        return out

    def _get(self, slot: _Slot) -> Item | None:
        current = self._current(slot)
        if not current:
            return None
        found = self._items(current[:1])[0]
        return Item(namespace=found.namespace, key=found.key, value=found.value,
                    created_at=found.created_at, updated_at=found.updated_at)

    def _is_current(self, fact: Fact, now: datetime) -> bool:
        """Currency enforced on every search result, whatever channel produced it."""
        return (fact.state in RETRIEVABLE_STATES and fact.recorded_until is None
                and fact.valid_from <= now
                and (fact.valid_until is None or now < fact.valid_until))

    def _search(self, op: _Search) -> list[SearchItem]:
        now = self._store.now()
        wanted = op.offset + op.limit

        def keep(fact: Fact) -> bool:
            return (op.prefix.holds(fact) and self._is_current(fact, now)
                    and _passes(_as_item_value(fact.value), op.filter))

        found: dict[tuple[str | None, str], tuple[Fact, float | None]] = {}
        if op.query is None:
            facts = self._store.current(self._tenant, entity=op.prefix.entity)
            for fact in sorted(facts, key=lambda f: (f.recorded_at, f.fact_id), reverse=True):
                if keep(fact):
                    found.setdefault((fact.entity, fact.attribute), (fact, None))
        else:
            k = max(8, 2 * wanted)
            while True:
                hits = self._store.recall(self._tenant, op.query, k)
                found = {}
                for hit in hits:
                    if keep(hit.fact):
                        found.setdefault((hit.fact.entity, hit.fact.attribute),
                                         (hit.fact, hit.score))
                if len(found) >= wanted or len(hits) < k:
                    break
                k *= 4
        page = list(found.values())[op.offset: wanted]
        return self._items([f for f, _ in page], [s for _, s in page])

    def _list_namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        namespaces = {ns for fact in self._store.current(self._tenant)
                      if (ns := _namespace_of(fact)) is not None}
        if op.match_conditions:
            namespaces = {ns for ns in namespaces
                          if all(_path_matches(c, ns) for c in op.match_conditions)}
        if op.max_depth is not None:
            namespaces = {ns[: op.max_depth] for ns in namespaces}
        return sorted(namespaces)[op.offset: op.offset + op.limit]

    # store reads the views answer -------------------------------------------------------

    def _created_at(self, facts: Sequence[Fact]) -> dict[str, datetime]:
        """When each item's line of values began: follow ``supersedes`` back to its first
        fact and take its valid-from (for items the adapter wrote, the time of the first
        put). One chain read per drift chain; a forget ends a line, so a key put again
        after its delete starts a new one."""
        lines: dict[str, dict[str, Fact]] = {}
        out: dict[str, datetime] = {}
        for fact in facts:
            if fact.chain_id not in lines:
                lines[fact.chain_id] = {f.fact_id: f
                                        for f in self._store.chain(self._tenant, fact.fact_id)}
            line = lines[fact.chain_id]
            cursor, seen = fact, {fact.fact_id}
            while True:
                earlier = [line[p] for p in cursor.supersedes if p in line and p not in seen]
                if not earlier:
                    break
                cursor = min(earlier, key=lambda f: f.valid_from)
                seen.add(cursor.fact_id)
            out[fact.fact_id] = min(cursor.valid_from, fact.recorded_at)
        return out

    def _chains(self, slot: _Slot) -> list[str]:
        """One fact id per drift chain the slot ever had (current, forgotten or older)."""
        rows = self._store.sql(
            "SELECT chain_id, min(fact_id) AS fact_id FROM fact_versions WHERE tenant = ?"
            " AND entity = ? AND attribute = ? GROUP BY chain_id ORDER BY min(recorded_at)",
            [self._tenant, slot.entity, slot.attribute], tenant=self._tenant).to_pylist()
        return [str(r["fact_id"]) for r in rows]

    # what LangGraph cannot express ------------------------------------------------------

    def facts(self, namespace: tuple[str, ...], key: str) -> list[Fact]:
        """The current facts behind an item, with their provenance, state and times."""
        return self._current(_slot(namespace, key))

    def as_of(self, namespace: tuple[str, ...], key: str | None = None, *,
              valid_at: datetime | None = None,
              known_at: datetime | None = None) -> list[Item]:
        """Items as the store believed them at ``known_at`` about valid time ``valid_at``.

        LangGraph reads only the present; this is ``store.as_of`` (both default to now),
        so a value overwritten or deleted since is shown as it was believed then.

        Args:
            namespace: an entity namespace ``(ns, local, *rest)``.
            key: one item, or ``None`` for every item under ``namespace``.
            valid_at: the valid time asked about.
            known_at: the transaction time of the belief.
        """
        if key is not None:
            slot = _slot(namespace, key)
            facts = self._store.as_of(self._tenant, valid_at=valid_at, known_at=known_at,
                                      entity=slot.entity, attribute=slot.attribute)
        else:
            prefix = _Prefix.parse(namespace)
            facts = [f for f in self._store.as_of(self._tenant, valid_at=valid_at,
                                                  known_at=known_at, entity=prefix.entity)
                     if prefix.holds(f)]
        items = self._items(facts)
        return [Item(namespace=i.namespace, key=i.key, value=i.value, created_at=i.created_at,
                     updated_at=i.updated_at) for i in items]

    def _fact_id(self, slot: _Slot) -> str:
        current = self._current(slot)
        if current:
            return current[0].fact_id
        chains = self._chains(slot)
        if not chains:
            raise NotFound("no item with that namespace and key in this tenant")
        return chains[-1]

    def chain(self, namespace: tuple[str, ...], key: str) -> list[Fact]:
        """The item's drift chain, oldest first (``store.chain``): how its value evolved.

        Raises:
            NotFound: the key never had a value.
        """
        return self._store.chain(self._tenant, self._fact_id(_slot(namespace, key)))

    def history(self, namespace: tuple[str, ...], key: str) -> list[HistoryEntry]:
        """Every event that touched the item, oldest first, with reasons (``store.history``).

        Unlike :meth:`chain` it includes forgotten values (an audit read).
        """
        slot = _slot(namespace, key)
        entries = [e for fid in self._chains(slot)
                   for e in self._store.history(self._tenant, fid)]
        if not entries:
            raise NotFound("no item with that namespace and key in this tenant")
        return sorted(entries, key=lambda e: e.recorded_at)

    def preview(self, namespace: tuple[str, ...], key: str | None = None) -> list[Preview]:
        """What :meth:`purge` would erase, listed, with the confirmation token(s)."""
        if key is None:
            return [self._store.preview("purge", self._tenant, _entity(_check_labels(namespace)))]
        slot = _slot(namespace, key)
        return [self._store.preview("purge", self._tenant, slot.entity, fact_id=fid)
                for fid in self._chains(slot)]

    def purge(self, namespace: tuple[str, ...], key: str | None = None, *,
              confirm: str | None = None,
              requested_by: str | None = None) -> list[DeletionReceipt]:
        """Crypto-shred one item's whole history, or (``key=None``) the whole entity.

        Legal erasure that LangGraph's ``delete`` cannot promise: the content is gone from
        every view and the returned receipts carry residue reports.

        Args:
            namespace: ``(ns, local)`` for the entity, with ``rest`` when ``key`` is given.
            key: the item, or ``None`` for every fact of the entity.
            confirm: the preview's token, needed when the store judges the purge high-risk.
            requested_by: recorded on the receipt (default: the adapter's).

        Raises:
            ConfirmationRequired: a high-risk purge without its token (nothing changed).
            NotFound: nothing to purge.
        """
        who = requested_by or self._requested_by
        if key is None:
            entity = _entity(_check_labels(namespace))
            return [self._store.purge(self._tenant, entity, confirm=confirm, requested_by=who)]
        slot = _slot(namespace, key)
        chains = self._chains(slot)
        if not chains:
            raise NotFound("no item with that namespace and key in this tenant")
        return [self._store.purge(self._tenant, slot.entity, fact_id=fid, confirm=confirm,
                                  requested_by=who) for fid in chains]

    def verify_erasure(self, receipt: DeletionReceipt) -> ErasureReport:
        """Check every store again for what a purge removed (a residue report)."""
        return self._store.verify_erasure(receipt)
