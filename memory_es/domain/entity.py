"""The aggregate: one entity's facts as the log says they are now.

State changes only by folding stored event bodies (plain dicts, as they come out of
the log), so the write side, a cold load and a replay all go through ``apply``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from memory_es.domain.intervals import Interval
from memory_es.domain.lifecycle import RETRIEVABLE_STATES


@dataclass
class FactState:
    fact_id: str
    content: dict[str, Any]
    portions: list[Interval]
    state: str
    superseded_by: str | None = None
    verified_at: int | None = None
    dependents: set[str] = field(default_factory=set)
    prior_state: str | None = None  # what `restore` returns to
    masked: bool = False
    revisions: list[dict[str, Any]] = field(default_factory=list)  # every content, for unmask

    @property
    def attribute(self) -> str:
        return str(self.content["attribute"])

    @property
    def chain_id(self) -> str:
        return str(self.content["chain_id"])

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
    slots: dict[str, str] = field(default_factory=dict)  # attribute -> chain id
    conflicts: dict[str, Conflict] = field(default_factory=dict)
    aliases: set[str] = field(default_factory=set)
    forgotten: bool = False
    next_seq: int = 1

    def apply(self, topic: str, body: dict[str, Any] | None) -> None:
        """Fold one event. ``body`` is None when its content was shredded (purged)."""
        if body is None:
            return
        self.tenant = body.get("tenant", self.tenant)
        for change in body.get("changes", ()):
            self._apply_change(change)
        kind = topic.split(".")[1] if "." in topic else topic
        if kind == "ConflictOpened":
            self.conflicts[body["conflict_id"]] = Conflict(
                body["conflict_id"], body["fact_id"], tuple(body["against"])
            )
        elif kind == "ConflictResolved":
            conflict = self.conflicts.get(body["conflict_id"])
            if conflict is not None:
                conflict.open = False
                conflict.winner = body["winner"]
        elif kind == "DependentLinked":
            premise = self.facts.get(body["premise"])
            if premise is not None:
                premise.dependents.add(body["dependent"])
        elif kind == "AliasRegistered":
            self.aliases.add(body["surface"])
            self.entity = body["entity"]
        elif kind == "EntityForgotten":
            self.forgotten = True
            self.entity = body["entity"]
        elif kind == "FactMasked":
            if body["fact_id"] in self.facts:
                self.facts[body["fact_id"]].masked = True
        elif kind == "FactUnmasked":
            if body["fact_id"] in self.facts:
                self.facts[body["fact_id"]].masked = False
        elif kind in ("EntityPurged", "FactChainPurged"):
            for fid in body["fact_ids"]:
                self.facts.pop(fid, None)
            if kind == "EntityPurged":
                self.entity = None
                self.aliases.clear()
                self.slots.clear()
                self.conflicts.clear()
            else:
                self.slots = {a: c for a, c in self.slots.items() if c != body["chain_id"]}

    def _apply_change(self, change: dict[str, Any]) -> None:
        fid = change["fact_id"]
        fact = self.facts.get(fid)
        content = change.get("content")
        portions = [Interval(int(s), None if e is None else int(e)) for s, e in change["portions"]]
        if fact is None:
            if content is None:
                return  # a fact whose chain was purged: nothing left to change
            fact = FactState(fid, content, portions, change["state"], revisions=[content])
            self.facts[fid] = fact
            self.slots.setdefault(fact.attribute, fact.chain_id)
            if content.get("entity"):
                self.entity = content["entity"]
            seq = int(fid.rsplit("-", 1)[1])
            self.next_seq = max(self.next_seq, seq + 1)
        elif content is not None:
            fact.content = content
            fact.revisions.append(content)
        if fact.state != change["state"]:
            fact.prior_state = fact.state
        fact.portions = portions
        fact.state = change["state"]
        if change.get("superseded_by") is not None:
            fact.superseded_by = change["superseded_by"]
        if change.get("verified_at") is not None:
            fact.verified_at = change["verified_at"]

    def slot(self, attribute: str) -> list[FactState]:
        """Facts of one attribute that take part in supersession (retrievable, with portions)."""
        return [
            f for f in self.facts.values()
            if f.retrievable and f.attribute == attribute and f.content.get("entity") is not None
        ]

    def get(self, fact_id: str) -> FactState | None:
        return self.facts.get(fact_id)
