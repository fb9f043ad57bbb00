"""The aggregate: one entity's facts as the log says they are now.

State changes only by folding stored event bodies (plain dicts, as they come out of
the log), so the write side, a cold load and a replay all go through ``apply``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from memory_es.domain.agents import slot_key, slot_owner
from memory_es.domain.events import (
    EVENT_TYPES,
    AliasRegistered,
    ConflictOpened,
    ConflictResolved,
    DependentLinked,
    EntityForgotten,
    EntityPurged,
    FactChainPurged,
    FactMasked,
    FactUnmasked,
)
from memory_es.domain.intervals import Interval
from memory_es.domain.lifecycle import RETRIEVABLE_STATES
from memory_es.domain.validation import value_key


def content_slot_key(content: dict[str, Any]) -> str:
    """The slot key of the fact whose content this is (its attribute, and its agent when
    private), read from the content directly: it is asked for every fact folded in."""
    agent = content.get("agent")
    owner = slot_owner(None if agent is None else str(agent), bool(content.get("shared", False)))
    return slot_key(str(content["attribute"]), owner)


NO_DEPENDENTS: frozenset[str] = frozenset()
"""A fact's dependents until it has one (shared: one object for every such fact)."""
EMPTY_LISTS = ("derived_from", "supersedes")
"""Content fields whose empty list a fact holds as the empty tuple (see :class:`FactState`)."""


def settled(content: dict[str, Any]) -> dict[str, Any]:
    """``content`` as a fact holds it: an empty ``derived_from`` or ``supersedes`` as the
    empty tuple (the same JSON), in place. A dict of strings, numbers and empty tuples is
    one the cyclic collector does not track; with a list in it, it and the list were two
    more objects per cached fact for every full pass to scan (issue 16: the passes are
    what made a batched write slower as the store grew)."""
    for name in EMPTY_LISTS:
        if content.get(name) == []:
            content[name] = ()
    return content


@dataclass
class FactState:
    """One fact as its events left it. Its parts that rarely change are immutable and
    shared (``dependents``, ``earlier``): a fact written once holds three objects the
    cyclic collector tracks (itself, its portions and their interval) rather than nine,
    and the write side caches up to ``CACHE_FACTS`` of them. ``content`` is the event's
    body with its empty lists as empty tuples (:func:`settled`)."""

    fact_id: str
    content: dict[str, Any]
    portions: list[Interval]
    state: str
    superseded_by: str | None = None
    verified_at: int | None = None
    dependents: frozenset[str] = NO_DEPENDENTS
    prior_state: str | None = None  # what `restore` returns to
    masked: bool = False
    earlier: tuple[dict[str, Any], ...] = ()
    """Its contents before the present one, oldest first (for unmask)."""
    _value_key: tuple[dict[str, Any], str] | None = field(
        default=None, init=False, repr=False, compare=False)
    """(the content it was made from, :meth:`value_key`): not copied by :meth:`clone`."""

    def clone(self) -> FactState:
        """A copy whose mutable parts are its own (content dicts are never mutated)."""
        return replace(self, portions=list(self.portions))

    @property
    def revisions(self) -> tuple[dict[str, Any], ...]:
        """Every content it had, oldest first, the present one last."""
        return (*self.earlier, self.content)

    def value_key(self) -> str:
        """Its value's :func:`~memory_es.domain.validation.value_key`, made once per content:
        every write into a slot compares its value with each fact there (a note category
        holds thousands)."""
        memo = self._value_key
        if memo is None or memo[0] is not self.content:
            memo = self._value_key = (self.content, value_key(self.content["value"]))
        return memo[1]

    @property
    def attribute(self) -> str:
        return str(self.content["attribute"])

    @property
    def negated(self) -> bool:
        """A denial (content written before denials existed has no flag: positive)."""
        return bool(self.content.get("negated", False))

    @property
    def chain_id(self) -> str:
        return str(self.content["chain_id"])

    @property
    def agent(self) -> str | None:
        """The agent that wrote it (None: tenant-wide)."""
        agent = self.content.get("agent")
        return None if agent is None else str(agent)

    @property
    def shared(self) -> bool:
        return bool(self.content.get("shared", False))

    @property
    def owner(self) -> str | None:
        """Whose slot it fills: its agent's when private, the tenant's (None) otherwise."""
        return slot_owner(self.agent, self.shared)

    @property
    def slot_key(self) -> str:
        return content_slot_key(self.content)

    @property
    def retrievable(self) -> bool:
        return self.state in RETRIEVABLE_STATES and bool(self.portions)


@dataclass
class Conflict:
    conflict_id: str
    fact_id: str
    against: tuple[str, ...]
    open: bool = True
    winner: str | None = None


@dataclass
class EntityState:
    """One (tenant, entity) stream: its facts, slots, conflicts and aliases."""

    stream_id: str
    version: int = 0
    last_hash: bytes = b""
    tenant: str | None = None
    entity: str | None = None
    facts: dict[str, FactState] = field(default_factory=dict)
    slots: dict[str, str] = field(default_factory=dict)
    """Slot key (:func:`memory_es.domain.agents.slot_key`: the attribute, with the agent
    for a private slot) -> chain id."""
    conflicts: dict[str, Conflict] = field(default_factory=dict)
    aliases: set[str] = field(default_factory=set)
    forgotten: bool = False
    next_seq: int = 1
    owned: set[str] = field(default_factory=set, repr=False, compare=False)
    """Ids of the facts and conflicts this state may mutate in place: those it created or
    already copied. Everything else is shared with the state it was copied from."""
    by_slot: dict[str, tuple[str, ...]] = field(default_factory=dict, repr=False,
                                                compare=False)
    """Slot key -> ids of the facts in that slot (:func:`content_slot_key` of their
    content), oldest first; purged ids stay until read. :meth:`slot` looks at one slot's
    facts, not at every fact of the entity, which made each write into a large entity
    cost in proportion to its size. Tuples, replaced rather than changed, so that a copy
    can share them."""

    def copy(self) -> EntityState:
        """A copy-on-write copy: folding events into it never changes ``self``.

        The containers are copied now (cheap, C-level); each fact or conflict is copied the
        first time the copy changes it, so a unit of work pays for what it touches only."""
        new = object.__new__(EntityState)  # every field is set below: no __init__ needed
        new.__dict__.update(self.__dict__)
        new.facts = dict(self.facts)
        new.slots = dict(self.slots)
        new.conflicts = dict(self.conflicts)
        new.aliases = set(self.aliases)
        new.owned = set()
        new.by_slot = dict(self.by_slot)
        return new

    def _own_fact(self, fact_id: str) -> FactState | None:
        fact = self.facts.get(fact_id)
        if fact is not None and fact_id not in self.owned:
            fact = self.facts[fact_id] = fact.clone()
            self.owned.add(fact_id)
        return fact

    def _own_conflict(self, conflict_id: str) -> Conflict | None:
        conflict = self.conflicts.get(conflict_id)
        if conflict is not None and conflict_id not in self.owned:
            conflict = self.conflicts[conflict_id] = replace(conflict)
            self.owned.add(conflict_id)
        return conflict

    def apply(self, topic: str, body: dict[str, Any] | None) -> None:
        """Fold one event. ``body`` is None when its content was shredded (purged)."""
        if body is None:
            return
        self.tenant = body.get("tenant", self.tenant)
        for change in body.get("changes", ()):
            self._apply_change(change)
        kind = EVENT_TYPES.get(topic)
        if kind is ConflictOpened:
            self.conflicts[body["conflict_id"]] = Conflict(
                body["conflict_id"], body["fact_id"], tuple(body["against"])
            )
            self.owned.add(body["conflict_id"])
        elif kind is ConflictResolved:
            conflict = self._own_conflict(body["conflict_id"])
            if conflict is not None:
                conflict.open = False
                conflict.winner = body["winner"]
        elif kind is DependentLinked:
            premise = self._own_fact(body["premise"])
            if premise is not None:
                premise.dependents = premise.dependents | {body["dependent"]}
        elif kind is AliasRegistered:
            self.aliases.add(body["surface"])
            self.entity = body["entity"]
        elif kind is EntityForgotten:
            self.forgotten = True
            self.entity = body["entity"]
        elif kind is FactMasked or kind is FactUnmasked:
            fact = self._own_fact(body["fact_id"])
            if fact is not None:
                fact.masked = kind is FactMasked
        elif kind is EntityPurged:
            for fid in body["fact_ids"]:
                self.facts.pop(fid, None)
            self.entity = None
            self.aliases.clear()
            self.slots.clear()
            self.conflicts.clear()
        elif kind is FactChainPurged:
            for fid in body["fact_ids"]:
                self.facts.pop(fid, None)
            self.slots = {a: c for a, c in self.slots.items() if c != body["chain_id"]}

    def _apply_change(self, change: dict[str, Any]) -> None:
        fid = change["fact_id"]
        fact = self._own_fact(fid)
        content = change.get("content")
        portions = [Interval(int(s), None if e is None else int(e)) for s, e in change["portions"]]
        if fact is None:
            if content is None:
                return  # a fact whose chain was purged: nothing left to change
            fact = self.add_fact(fid, settled(content), portions, change["state"])
        elif content is not None:
            key, was = content_slot_key(content), content_slot_key(fact.content)
            fact.earlier = (*fact.earlier, fact.content)
            fact.content = settled(content)
            if key != was:  # no decision moves a fact today; the index stays exact if one does
                self.by_slot[was] = tuple(f for f in self.by_slot.get(was, ()) if f != fid)
                members = {*self.by_slot.get(key, ()), fid}
                self.by_slot[key] = tuple(f for f in self.facts if f in members)
        if fact.state != change["state"]:
            fact.prior_state = fact.state
        fact.portions = portions
        fact.state = change["state"]
        if change.get("superseded_by") is not None:
            fact.superseded_by = change["superseded_by"]
        if change.get("verified_at") is not None:
            fact.verified_at = change["verified_at"]

    def add_fact(self, fid: str, content: dict[str, Any], portions: list[Interval],
                 state: str) -> FactState:
        """Fold a fact this state does not hold yet (its first change, with its content,
        :func:`settled`). :meth:`apply` folds every new fact through here; the write path
        calls it directly for a new fact alone
        (:meth:`memory_es.write.unit.UnitOfWork.emit_body`)."""
        fact = FactState(fid, content, portions, state)
        self.facts[fid] = fact
        self.owned.add(fid)
        key = content_slot_key(content)
        self.slots.setdefault(key, str(content["chain_id"]))
        self.by_slot[key] = (*self.by_slot.get(key, ()), fid)
        if content.get("entity"):
            self.entity = content["entity"]
        seq = int(fid.rsplit("-", 1)[1])
        self.next_seq = max(self.next_seq, seq + 1)
        return fact

    def slot(self, attribute: str, owner: str | None = None) -> list[FactState]:
        """Facts of one slot that take part in supersession (retrievable, with portions):
        the tenant's slot of ``attribute`` (``owner`` None: tenant-wide and shared facts)
        or agent ``owner``'s private one (SPEC §12.7)."""
        facts = self.facts
        found = []
        for fact_id in self.by_slot.get(slot_key(attribute, owner), ()):  # exactly the slot's
            f = facts.get(fact_id)  # None: purged
            if f is not None and f.retrievable and f.content.get("entity") is not None:
                found.append(f)
        return found

    def get(self, fact_id: str) -> FactState | None:
        return self.facts.get(fact_id)
