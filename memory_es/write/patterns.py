"""Consolidation patterns on the write side (SPEC §12.6): regeneration and shredding.

A pattern is a fact ``note.pattern`` on an entity ``pattern:<cluster id>``, derived from
its member notes; its value records the summary and the cluster's ``min_cluster``, its
text is the summary (stored in the event: replay never calls a summariser). Two rules
run inside the unit of work that changes a member:

- **regeneration**: when the §5 cascade deprecates a pattern (a member left present
  belief or was corrected), a new pattern is written from the members still live, in
  the same commit, if at least ``min_cluster`` remain;
- **shredding**: when a purge reaches a member, every chain of patterns that drew on it
  is purged too (``FactChainPurged``: its sub-key is destroyed with the member's key), so
  no pattern version keeps the member's words in a readable form; the regenerated
  pattern starts a new chain, under a new key.
"""

from __future__ import annotations

from typing import Any

from memory_es.crypto.keystore import chain_key_id
from memory_es.domain import control
from memory_es.domain.agents import slot_key, slot_owner
from memory_es.domain.commands import AssertFact
from memory_es.domain.control import AttributeDef, NewFact
from memory_es.domain.entity import FactState
from memory_es.domain.events import (
    DependentLinked,
    FactAsserted,
    FactChainPurged,
    FactChange,
    FactContent,
)
from memory_es.ids import fact_id as make_fact_id
from memory_es.ids import stream_of, uuid7_str
from memory_es.models import Receipt
from memory_es.write.side import WriteSide
from memory_es.write.unit import UnitOfWork

PATTERN = "note.pattern"
DEFAULT_MIN_CLUSTER = 3


def is_pattern(fact: FactState | None) -> bool:
    return fact is not None and fact.attribute == PATTERN


def live(fact: FactState | None, now: int) -> bool:
    """Retrievable, unmasked and valid at ``now``: what a pattern may still draw on."""
    return (fact is not None and fact.retrievable and not fact.masked
            and any(p.end is None or p.end > now for p in fact.portions))


def pattern_value(summary: str, min_cluster: int) -> dict[str, Any]:
    return {"summary": summary, "min_cluster": min_cluster}


def write_pattern(uow: UnitOfWork, stream_id: str, tenant: str, entity: str,
                  members: list[str], min_cluster: int,
                  agent: str | None = None) -> str | None:
    """Stage a new pattern on ``stream_id`` from the live members' present texts
    (``agent``: the pattern is that agent's private one, SPEC §12.6-12.7)."""
    texts = []
    for m in members:
        fact = uow.state(stream_of(m)).get(m)
        if live(fact, uow.recorded_at) and fact is not None:
            texts.append(str(fact.content["text"]))
    if len(texts) < min_cluster:
        return None
    summary = uow.side.summarise(texts)
    st = uow.state(stream_id)
    new_id = make_fact_id(stream_id, st.next_seq)
    nf = NewFact(tenant=tenant, entity=entity, attribute=PATTERN,
                 value=pattern_value(summary, min_cluster), valid_from=uow.recorded_at,
                 valid_until=None, text=summary, source="consolidation",
                 asserted_by="inference", derived_from=tuple(members), agent=agent)
    uow.emit_all(st, control.decide_assert(st, nf, AttributeDef(), now=uow.recorded_at,
                                           fact_id=new_id, new_chain=uow.new_chain,
                                           new_conflict=uuid7_str))
    for premise in members:
        pst = uow.state(stream_of(premise))
        uow.emit(pst, DependentLinked(tenant=tenant, premise=premise, dependent=new_id),
                 pst.facts[premise].chain_id)
    return new_id


def _remaining(uow: UnitOfWork, content: dict[str, Any]) -> list[str]:
    return [m for m in content.get("derived_from", ())
            if live(uow.state(stream_of(m)).get(m), uow.recorded_at)]


def _min_cluster(content: dict[str, Any]) -> int:
    value = content.get("value")
    if isinstance(value, dict) and isinstance(value.get("min_cluster"), int):
        return int(value["min_cluster"])
    return DEFAULT_MIN_CLUSTER


def regenerate(uow: UnitOfWork, deprecated: list[str]) -> list[str]:
    """After a cascade: regenerate every pattern it deprecated, from the members left."""
    written: list[str] = []
    for pid in deprecated:
        st = uow.state(stream_of(pid))
        fact = st.get(pid)
        if not is_pattern(fact) or fact is None or fact.content.get("entity") is None:
            continue
        if any(live(f, uow.recorded_at) for f in st.facts.values() if is_pattern(f)):
            continue  # already regenerated in this unit (two members left at once)
        content = fact.content
        new = write_pattern(uow, st.stream_id, str(content["tenant"]), str(content["entity"]),
                            _remaining(uow, content), _min_cluster(content),
                            content.get("agent"))
        if new is not None:
            written.append(new)
    return written


def shred_and_regenerate(side: WriteSide, uow: UnitOfWork, tenant: str,
                         patterns: list[str], motive: str | None) -> list[str]:
    """A purge reached members of these patterns: purge each pattern chain (its key is
    destroyed after the commit, like the member's), then regenerate from what is left."""
    done: set[tuple[str, str]] = set()
    regenerated: list[str] = []
    for pid in patterns:
        st = uow.state(stream_of(pid))
        fact = st.get(pid)
        if fact is None or (st.stream_id, fact.chain_id) in done:
            continue
        chain = fact.chain_id
        done.add((st.stream_id, chain))
        latest = max((f for f in st.facts.values() if f.chain_id == chain),
                     key=lambda f: int(f.fact_id.rsplit("-", 1)[1]))
        content = latest.content
        ids = tuple(f.fact_id for f in st.facts.values() if f.chain_id == chain)
        key = chain_key_id(chain)
        uow.emit(st, FactChainPurged(tenant=tenant, chain_id=chain, fact_ids=ids,
                                     key_ids=(key,), motive=motive,
                                     reason="a member of this pattern was purged"))
        side.keys.mark_pending(st.stream_id, st.version, [key], False)
        if content.get("entity") is None:
            continue
        new = write_pattern(uow, st.stream_id, tenant, str(content["entity"]),
                            _remaining(uow, content), _min_cluster(content),
                            content.get("agent"))
        if new is not None:
            regenerated.append(new)
    return regenerated


def new_note(side: WriteSide, uow: UnitOfWork, tenant: str, entity: str, attribute: str,
             text: str, importance: float, *, agent: str | None = None,
             shared: bool = False) -> Receipt:
    """Stage a note as a new fact, never a reinforcement of another writer's same text:
    the gates decided dedup among the notes the writer can see (SPEC §12.5, §12.7)."""
    cmd = AssertFact(tenant=tenant, entity=entity, attribute=attribute, value=text,
                     text=text, importance=importance, source="note")  # validates the shape
    sid, canonical = side.resolve(tenant, entity)
    st = uow.state(sid)
    attr = uow.attribute(tenant, attribute)
    new_id = make_fact_id(sid, st.next_seq)
    content = FactContent(
        tenant=tenant, entity=canonical, attribute=attribute,
        chain_id=st.slots.get(slot_key(attribute, slot_owner(agent, shared))) or uow.new_chain(),
        value=cmd.value, text=text, source=cmd.source, volatility=attr.volatility,
        importance=cmd.importance, classification=attr.classification, agent=agent,
        shared=shared)
    first = uow.emit(st, FactAsserted(tenant=tenant, changes=(FactChange(
        fact_id=new_id, portions=((uow.recorded_at, None),), state="active",
        content=content),)), content.chain_id)
    return uow.receipt(cmd.OP, tenant, first, [new_id])
