"""What a text purge crypto-shreds, and whether it needs the caller's confirmation.

A pure function over the matched facts, used by
:meth:`~memory_es.text.interface.TextInterface.purge_matching` (SPEC §15). A purge acts
on exact identifiers and on the canonical entities the text names (or a thing of one, by
that entity's own words), never on words or similarity across entities:

* a fact that carries the identifier is shredded with its drift chain, or with its
  entity when the entity *is* that identifier (``email:…``, ``secret:…``);
* a named entity is shredded whole; facts of *other* entities that mention it by name
  are only listed, and join the purge with ``confirm=True``;
* a thing of a named entity (``Marta Nowak's passport``, tier ``thing``) is shredded as
  the drift chain of the one fact of that entity that holds it; a description that
  fits several of its facts erases nothing without ``confirm=True``;
* a purge whose facts belong to several entities (people, records, identifiers other
  than the one asked for), or to an entity and a person of its kept under its id, is high
  risk: nothing is erased without ``confirm=True``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from memory_es.text.matching import Match

Scope = tuple[str | None, str | None]
"""``(entity, None)`` shreds an entity; ``(None, fact_id)`` shreds one drift chain."""


@dataclass
class PurgePlan:
    """The scopes to shred, and why the purge is high risk (empty: it is not)."""

    scopes: list[Scope] = field(default_factory=list)
    risks: list[str] = field(default_factory=list)
    mentions: list[Match] = field(default_factory=list)
    """Facts of other entities that only mention a named entity (shredded on confirm)."""


def _owner(m: Match, kept_for: Mapping[str, str]) -> str:
    person = kept_for.get(m.fact.fact_id)
    owner = m.fact.entity or f"fact {m.fact.fact_id}"
    return owner if person is None else f"{owner}'s {person}"


def plan_purge(matches: list[Match], tier: str, own_entities: set[str], *,
               one_number: frozenset[str] = frozenset(),
               split: frozenset[str] = frozenset(),
               kept_for: Mapping[str, str] | None = None) -> PurgePlan:
    """Scopes for ``matches`` (tier ``identifier``, ``entity`` or ``thing``), entities
    first.

    ``own_entities`` are the entities the query itself names or is (an identifier's own
    entity): shredding them is what was asked; any other entity reached is a risk.
    ``one_number``: entities that are all the phone number asked for (stored under ids of
    several spellings before phone entities were named by :func:`phone_key`): one
    entity, not several. ``split``: entities never shredded whole, only their matched
    chains (an identifier entity that also holds another number). ``kept_for``: facts
    that are a person's of their entity's (fact id -> ``sister``), kept under its id
    (``Sue Park's sister's date of birth is …``): that person is another owner."""
    plan = PurgePlan()
    direct = [m for m in matches if m.by != "mention"]
    plan.mentions = [m for m in matches if m.by == "mention"]
    entities: list[str] = []
    chains: list[str] = []
    for m in direct:
        ent = m.fact.entity
        whole = tier != "thing" and ent is not None and ent not in split and (
            ent in own_entities or ent in one_number or tier == "entity")
        if whole and ent is not None:
            if ent not in entities:
                entities.append(ent)
        elif m.fact.fact_id not in chains:
            chains.append(m.fact.fact_id)
    plan.scopes = [(e, None) for e in entities]
    plan.scopes += [(None, f) for f in chains]
    owners = sorted({"the number asked for" if m.fact.entity in one_number
                     else _owner(m, kept_for or {}) for m in direct})
    if len(owners) > 1:
        plan.risks.append(f"the purge spans {len(owners)} entities ({', '.join(owners)})")
    if tier == "thing" and len(chains) > 1:
        plan.risks.append(f"the description fits {len(chains)} facts of "
                          f"{', '.join(owners)}")
    codes = [m for m in plan.mentions if m.detail.startswith("token:")]
    if names := len(plan.mentions) - len(codes):
        plan.risks.append(f"{names} fact(s) of other entities mention the name")
    if codes:
        plan.risks.append(f"{len(codes)} fact(s) hold the code, but neither its form nor a "
                          f"label in them says it is an identifier")
    return plan
