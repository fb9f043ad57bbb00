"""Write-time control: every decision is a pure function of state, request and time.

Guard, then emit: each ``decide_*`` checks its rules (raising domain errors) and
returns the events to append; state only changes when those events are applied.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from memory_es.choices import Effect, State
from memory_es.domain.agents import slot_key, slot_owner
from memory_es.domain.entity import EntityState, FactState
from memory_es.domain.events import (
    AliasRegistered,
    ConflictOpened,
    ConflictResolved,
    DomainEvent,
    EntityForgotten,
    FactAsserted,
    FactChange,
    FactContent,
    FactCorrected,
    FactDecayed,
    FactDeprecated,
    FactMasked,
    FactReinforced,
    FactRetracted,
    FactStateChanged,
    FactSuperseded,
    FactUnmasked,
)
from memory_es.domain.intervals import Interval, clip_end, overlaps, subtract
from memory_es.domain.lifecycle import TERMINAL_STATES, TRANSITIONS, check_transition
from memory_es.domain.validation import PRECEDENCE, default_text, value_key
from memory_es.errors import ConflictError, InvalidInput, NotFound

IdFactory = Callable[[], str]


@dataclass(frozen=True)
class AttributeDef:
    """A tenant's declaration of an attribute (``define_attribute``)."""

    cardinality: str = "one"
    volatility: str = "stable"
    ttl_seconds: int | None = None
    classification: str = "internal"


class NewFact(NamedTuple):
    """A validated request to write one fact (the shape is checked at the edge).

    A named tuple, immutable like the frozen dataclass it was, built for every fact
    written at about a third of the cost (one C call instead of a ``__setattr__`` per
    field: 2.2 -> 0.8 us in a ``timeit`` loop).
    """

    tenant: str
    entity: str | None
    attribute: str
    value: Any
    valid_from: int
    valid_until: int | None
    text: str | None = None
    mention: str | None = None
    source: str | None = None
    asserted_by: str = "user"
    confidence: float = 1.0
    volatility: str | None = None
    classification: str | None = None
    derived_from: tuple[str, ...] = ()
    interpretation: dict[str, Any] | None = None
    importance: float = 0.5
    agent: str | None = None
    """The writing agent (None: tenant-wide); private unless ``shared`` (SPEC §12.7)."""
    shared: bool = False
    negated: bool = False
    """A denial: the slot does not hold ``value`` (:func:`slot_relation`)."""

    @property
    def owner(self) -> str | None:
        """Whose slot it writes into (the agent's own when private)."""
        return slot_owner(self.agent, self.shared)


def same_value(a: Any, b: Any) -> bool:
    """JSON equality (1 and True differ, key order does not matter)."""
    return value_key(a) == value_key(b)


def _portions(portions: list[Interval]) -> tuple[tuple[int, int | None], ...]:
    return tuple((p.start, p.end) for p in portions)


def _keep(fact: FactState, **overrides: Any) -> FactChange:
    values: dict[str, Any] = {
        "fact_id": fact.fact_id,
        "portions": _portions(fact.portions),
        "state": fact.state,
    }
    values.update(overrides)
    return FactChange(**values)


def _overlapping(state: EntityState, nf: NewFact) -> list[FactState]:
    return [
        f for f in state.slot(nf.attribute, nf.owner)
        if any(overlaps(p, nf.valid_from, nf.valid_until) for p in f.portions)
    ]


SAME, RIVAL, DENIED, APART = "same", "rival", "denied", "apart"


def slot_relation(negated: bool, value: str, other: FactState) -> str:
    """How a new fact (its polarity, its value's :func:`value_key`) stands to a fact of
    the same slot whose valid time it overlaps: the one rule of denials (SPEC §3).

    A fact is positive (the slot holds ``value``) or a denial (``negated``: the slot does
    not hold ``value``). A denial shares its slot and drift chain with the positive facts
    (so ``chain``, ``retract`` and a chain purge see it), but only these pairs interact:

    - ``same``: same polarity, same value — the statement again (reinforced).
    - ``rival``: two positive facts of different values — at most one value per valid
      time; the §5 control plane decides (outrank and supersede, or conflict) unless the
      attribute's cardinality is ``many``.
    - ``denied``: opposite polarity, same value — a fact and its denial cannot both hold,
      so the newer ends the older over its own valid period, whoever asserted either
      (``lives in Oslo`` ends ``does not live in Oslo``, and the other way round).
    - ``apart``: everything else — a denial and a positive fact of different values
      (``does not live in Oslo`` and ``lives in Bergen``), or two denials: both stand, and
      neither supersedes nor conflicts with the other by sharing the slot.

    A conflicted new fact is not present belief, so it ends nothing (the denial stays)."""
    alike = other.value_key() == value
    if other.negated == negated:
        return SAME if alike else (APART if negated else RIVAL)
    return DENIED if alike else APART


def _related(nf: NewFact, facts: list[FactState]) -> dict[str, list[FactState]]:
    """``facts`` by their :func:`slot_relation` to ``nf`` (the new value's JSON made once)."""
    out: dict[str, list[FactState]] = {SAME: [], RIVAL: [], DENIED: [], APART: []}
    if facts:
        wanted = value_key(nf.value)
        for f in facts:
            out[slot_relation(nf.negated, wanted, f)].append(f)
    return out


def _new_fact(
    state: EntityState, nf: NewFact, attr: AttributeDef, fact_id: str, new_chain: IdFactory,
    *, status: str, supersedes: tuple[str, ...] = (),
) -> dict[str, Any]:
    """The new fact's :class:`FactChange` as its event writes it, every field in the
    model's order: an event validates it into the change and its content at once (built
    here first, each would be another trip through pydantic per fact written), and the
    fast lanes (:func:`new_fact_alone`, :func:`supersede_body`) write it as it is."""
    chain_id = state.slots.get(slot_key(nf.attribute, nf.owner)) or new_chain()
    return {
        "fact_id": fact_id,
        "portions": [[nf.valid_from, nf.valid_until]],
        "state": status,
        "content": _content(nf, attr, chain_id, list(supersedes) or ()),
        "superseded_by": None,
        "verified_at": None,
    }


def _content(nf: NewFact, attr: AttributeDef, chain_id: str,
             supersedes: list[str] | tuple[()]) -> dict[str, Any]:
    """A new fact's content as its event writes it: every field in the model's order, so
    that ``pydantic_core.to_json`` of it is the model's own JSON (the fast lanes write it
    without the model, and fold it as it is: its empty lists are empty tuples, as
    :func:`memory_es.domain.entity.settled` leaves them)."""
    return {
        "tenant": nf.tenant,
        "entity": nf.entity,
        "mention": nf.mention,
        "attribute": nf.attribute,
        "chain_id": chain_id,
        "value": nf.value,
        "negated": nf.negated,
        "text": nf.text if nf.text is not None else default_text(nf.entity, nf.attribute,
                                                                 nf.value, nf.negated),
        "source": nf.source,
        "asserted_by": nf.asserted_by,
        "volatility": nf.volatility or attr.volatility,
        "confidence": float(nf.confidence),
        "importance": float(nf.importance),
        "classification": nf.classification or attr.classification,
        "derived_from": list(nf.derived_from) if nf.derived_from else (),
        "supersedes": supersedes,
        "rev": 0,
        "agent": nf.agent,
        "shared": nf.shared,
    }


SCALARS = frozenset({str, int, float, bool, type(None)})
"""The exact types of a value that its JSON parses back to (a ``str`` or ``int`` subclass,
such as an enum member, parses back as a plain ``str`` or ``int``)."""


def new_fact_alone(state: EntityState, nf: NewFact, attr: AttributeDef, fact_id: str,
                   new_chain: IdFactory) -> dict[str, Any] | None:
    """What :func:`decide_assert` decides for a fact that nothing in its slot overlaps
    (the common case of a batch of new facts: a new active fact, nothing ended, nothing
    to cascade), as the JSON body of its :data:`FactAsserted` event: a dict that
    ``pydantic_core.to_json`` writes byte for byte as the event model would, its fields
    in the model's order. None when the fast lane does not apply (an unresolved mention,
    premises, or an overlapping fact in the slot): :func:`decide_assert` decides then.

    Its inputs were checked when the command was built (the same checks that make the
    event's own validation redundant: strings, booleans, finite numbers, JSON values), so
    the event is not validated a second time; ``tests/test_fast_assert.py`` holds this
    body against the event model's JSON."""
    if nf.entity is None or nf.derived_from or _overlapping(state, nf):
        return None
    return {
        "tenant": nf.tenant,
        "changes": [_new_fact(state, nf, attr, fact_id, new_chain, status="active")],
        "reason": None,
        "interpretation": nf.interpretation,
    }


def _trim(facts: list[FactState], start: int | None, end: int | None,
          superseded_by: str | None) -> list[FactChange]:
    return [
        _keep(f, portions=_portions(subtract(f.portions, start, end)), superseded_by=superseded_by)
        for f in facts
    ]


def decide_assert(
    state: EntityState, nf: NewFact, attr: AttributeDef, *, now: int, fact_id: str,
    new_chain: IdFactory, new_conflict: IdFactory,
) -> list[DomainEvent]:
    """Assert with the §5 control plane: new, reinforce, outranking supersede, or conflict."""
    if nf.entity is None:  # unresolved mention: stored, never part of supersession
        return [FactAsserted(
            tenant=nf.tenant, interpretation=nf.interpretation,
            changes=(_new_fact(state, nf, attr, fact_id, new_chain, status="active"),),
        )]
    related = _related(nf, _overlapping(state, nf))
    same, denied = related[SAME], related[DENIED]
    different = [] if attr.cardinality == "many" else related[RIVAL]
    if same and not different and not denied:
        return [FactReinforced(
            tenant=nf.tenant,
            changes=tuple(_keep(f, state="reinforced", verified_at=now) for f in same),
        )]
    if not different and not denied:
        return [FactAsserted(
            tenant=nf.tenant, interpretation=nf.interpretation,
            changes=(_new_fact(state, nf, attr, fact_id, new_chain, status="active"),),
        )]
    rank = PRECEDENCE[nf.asserted_by]
    if all(rank > PRECEDENCE[f.content["asserted_by"]] for f in different):
        ended = [*same, *different, *denied]
        trims = _trim(ended, nf.valid_from, nf.valid_until, fact_id)
        new = _new_fact(state, nf, attr, fact_id, new_chain, status="active",
                        supersedes=tuple(f.fact_id for f in ended))
        return [FactAsserted(
            tenant=nf.tenant, interpretation=nf.interpretation, changes=(*trims, new),
            reason=(f"asserted_by={nf.asserted_by} outranks the current value" if different
                    else "contradicts a fact of the same value and opposite polarity"),
        )]
    conflict_id = new_conflict()
    new = _new_fact(state, nf, attr, fact_id, new_chain, status="conflicted")
    return [
        FactAsserted(tenant=nf.tenant, interpretation=nf.interpretation, changes=(new,),
                     reason="contradicts present belief without outranking it"),
        ConflictOpened(tenant=nf.tenant, conflict_id=conflict_id, fact_id=fact_id,
                       against=tuple(f.fact_id for f in different)),
    ]


def supersede_body(
    state: EntityState, nf: NewFact, attr: AttributeDef, *, fact_id: str,
    new_chain: IdFactory, reason: str | None = None,
) -> dict[str, Any]:
    """UPDATE ... FOR PORTION OF: overlapping facts keep only their portions outside.

    The one :class:`FactSuperseded` it decides, as its JSON body (every field in the
    model's order, as :func:`new_fact_alone`'s): the write path seals and folds it as it
    is when it ends no premise (:func:`ends_premises`), and :func:`decide_supersede` makes
    the event of it otherwise. The facts it ends come first, the new fact last; an empty
    ``supersedes`` is the empty tuple, as a fold leaves it."""
    if nf.entity is None:
        raise InvalidInput("an unresolved mention cannot supersede; resolve it first")
    related = _related(nf, _overlapping(state, nf))
    ended = [*related[SAME], *related[RIVAL], *related[DENIED]]  # not those APART
    start, end = nf.valid_from, nf.valid_until
    changes: list[dict[str, Any]] = [{
        "fact_id": f.fact_id,
        "portions": [[p.start, p.end] for p in subtract(f.portions, start, end)],
        "state": f.state, "content": None, "superseded_by": fact_id, "verified_at": None,
    } for f in ended]
    changes.append(_new_fact(state, nf, attr, fact_id, new_chain, status="active",
                             supersedes=tuple(f.fact_id for f in ended)))
    return {"tenant": nf.tenant, "changes": changes, "reason": reason,
            "period": [start, end], "interpretation": nf.interpretation}


def ends_premises(state: EntityState, body: dict[str, Any]) -> bool:
    """Whether a decided body changes a fact that others were derived from (the cascade
    must then see its event; :func:`changed_premises`)."""
    for change in body["changes"]:
        fact = state.get(change["fact_id"])
        if fact is not None and fact.dependents:
            return True
    return False


def decide_supersede(
    state: EntityState, nf: NewFact, attr: AttributeDef, *, fact_id: str,
    new_chain: IdFactory, reason: str | None = None,
) -> list[DomainEvent]:
    """:func:`supersede_body` as its event."""
    return [FactSuperseded.model_validate(supersede_body(
        state, nf, attr, fact_id=fact_id, new_chain=new_chain, reason=reason))]


def _existing(state: EntityState, fact_id: str) -> FactState:
    fact = state.get(fact_id)
    if fact is None:
        raise NotFound(f"fact {fact_id} not found")
    return fact


def _not_terminal(fact: FactState, operation: str) -> None:
    if fact.state in TERMINAL_STATES:
        raise ConflictError(f"cannot {operation} fact {fact.fact_id}: it is {fact.state}")


def decide_correct(
    state: EntityState, fact_id: str, value: Any, text: str | None, reason: str | None,
) -> list[DomainEvent]:
    """Same fact, same valid interval, new value; the old version closes in record time only."""
    fact = _existing(state, fact_id)
    _not_terminal(fact, "correct")
    content = dict(fact.content)
    content["rev"] = int(content.get("rev", 0)) + 1
    content["value"] = value
    content["text"] = text if text is not None else default_text(
        content["entity"], content["attribute"], value, bool(content.get("negated", False)))
    return [FactCorrected(
        tenant=str(content["tenant"]), reason=reason,
        changes=(_keep(fact, content=FactContent(**content)),),
    )]


def decide_retract(
    state: EntityState, tenant: str, attribute: str, start: int | None, end: int | None,
    reason: str | None, owner: str | None = None,
) -> list[DomainEvent]:
    """DELETE ... FOR PORTION OF: the period reads empty, the rest is untouched (in the
    tenant's slot, or in agent ``owner``'s private one). Empty means of denials too: a
    retraction says nothing is known of the slot then."""
    facts = [
        f for f in state.slot(attribute, owner)
        if any(overlaps(p, start, end) for p in f.portions)
    ]
    return [FactRetracted(
        tenant=tenant, reason=reason, period=(start, end),
        changes=tuple(_trim(facts, start, end, None)),
    )]


def decide_decay(state: EntityState, fact_id: str, until: int,
                 reason: str | None) -> list[DomainEvent]:
    """Release: validity ends at ``until``; lifecycle state and row are kept."""
    fact = _existing(state, fact_id)
    _not_terminal(fact, "decay")
    return [FactDecayed(
        tenant=str(fact.content["tenant"]), reason=reason, valid_until=until,
        changes=(_keep(fact, portions=_portions(clip_end(fact.portions, until))),),
    )]


def decide_forget_entity(state: EntityState, tenant: str, entity: str,
                         reason: str | None) -> list[DomainEvent]:
    """Amnesia of exactly one entity: every fact becomes ``forgotten`` (terminal)."""
    changes = tuple(
        _keep(f, state="forgotten") for f in state.facts.values()
        if "forgotten" in TRANSITIONS[f.state]
    )
    return [EntityForgotten(tenant=tenant, entity=entity, changes=changes, reason=reason)]


def decide_deprecate(state: EntityState, fact_id: str, premise: str) -> list[DomainEvent]:
    """Invalidate a derived fact whose premise changed (nothing if it is already out)."""
    fact = state.get(fact_id)
    if fact is None or fact.state in ("deprecated", "archived", "rejected", *TERMINAL_STATES):
        return []
    return [FactDeprecated(
        tenant=str(fact.content["tenant"]), premise=premise,
        reason=f"premise {premise} left present belief or changed",
        changes=(_keep(fact, state="deprecated"),),
    )]


def decide_state_change(state: EntityState, fact_id: str, target: str, operation: str,
                        reason: str | None) -> list[DomainEvent]:
    """An explicit lifecycle operation, checked against the declared transition table."""
    fact = _existing(state, fact_id)
    check_transition(fact.state, target)
    return [FactStateChanged(
        tenant=str(fact.content["tenant"]), operation=operation, reason=reason,
        changes=(_keep(fact, state=target),),
    )]


def decide_restore(state: EntityState, fact_id: str, reason: str | None) -> list[DomainEvent]:
    """Undo ``archive``: the fact returns to the state it had before it was archived."""
    fact = _existing(state, fact_id)
    if fact.state != State.ARCHIVED:
        raise InvalidInput(f"fact {fact_id} is not archived ({fact.state})")
    return decide_state_change(state, fact_id, fact.prior_state or State.ACTIVE, "restore",
                               reason)


def needs_layer(fact: FactState | None, effect: Effect) -> bool:
    """Whether erasing ``fact`` with a soft or reversible layer would still change it:
    a fact that is gone, terminal, or already has that layer is left alone."""
    if fact is None or fact.state in TERMINAL_STATES:
        return False
    if effect is Effect.MASK:
        return not fact.masked
    if effect is Effect.ARCHIVE:
        return fact.state != State.ARCHIVED
    return True


def decide_resolve(state: EntityState, conflict_id: str, winner: str,
                   reason: str | None) -> list[DomainEvent]:
    """Settle a conflict: the winner is current; the loser is trimmed or rejected."""
    conflict = state.conflicts.get(conflict_id)
    if conflict is None:
        raise NotFound(f"conflict {conflict_id} not found")
    if not conflict.open:
        raise ConflictError(f"conflict {conflict_id} is already resolved")
    if winner != conflict.fact_id and winner not in conflict.against:
        raise InvalidInput(f"winner must be {conflict.fact_id} or one of the facts it contradicts")
    new = _existing(state, conflict.fact_id)
    tenant = str(new.content["tenant"])
    changes: list[FactChange] = []
    if winner == conflict.fact_id:
        if new.state != "conflicted":
            raise ConflictError(f"fact {new.fact_id} is no longer conflicted ({new.state})")
        # The winner takes the contradicted facts' place, not that of facts written since
        # (a later supersede keeps its period): at most one present value per valid time.
        won = list(new.portions)
        wanted = new.value_key()
        for other in state.slot(new.attribute, new.owner):
            if (other.fact_id not in conflict.against and other.fact_id != new.fact_id
                    and slot_relation(new.negated, wanted, other) != APART):
                for p in other.portions:
                    won = subtract(won, p.start, p.end)
        for fid in conflict.against:
            old = state.get(fid)
            if old is None or not old.retrievable:
                continue
            for p in won:
                old_portions = subtract(old.portions, p.start, p.end)
                old = FactState(old.fact_id, old.content, old_portions, old.state)
            changes.append(_keep(old, superseded_by=new.fact_id))
        changes.append(_keep(new, state="active", portions=_portions(won)))
    elif new.state == "conflicted":
        changes.append(_keep(new, state="rejected"))
    return [ConflictResolved(tenant=tenant, conflict_id=conflict_id, winner=winner,
                             changes=tuple(changes), reason=reason)]


def decide_mask(state: EntityState, fact_id: str, reason: str | None) -> list[DomainEvent]:
    """Mask: the views show a placeholder instead of the content (reversible)."""
    fact = _existing(state, fact_id)
    _not_terminal(fact, "mask")
    if fact.masked:
        raise ConflictError(f"fact {fact_id} is already masked")
    return [FactMasked(tenant=str(fact.content["tenant"]), fact_id=fact_id, reason=reason)]


def decide_unmask(state: EntityState, fact_id: str, reason: str | None) -> list[DomainEvent]:
    """Unmask: restate every content revision so the views can show it again."""
    fact = _existing(state, fact_id)
    _not_terminal(fact, "unmask")
    if not fact.masked:
        raise ConflictError(f"fact {fact_id} is not masked")
    return [FactUnmasked(
        tenant=str(fact.content["tenant"]), fact_id=fact_id, reason=reason,
        contents=tuple(FactContent(**c) for c in fact.revisions),
    )]


def decide_alias(tenant: str, surface: str, entity: str) -> list[DomainEvent]:
    return [AliasRegistered(tenant=tenant, surface=surface, entity=entity)]


def changed_premises(events: list[DomainEvent], state: EntityState) -> list[tuple[str, str]]:
    """(premise, dependent) pairs to invalidate: facts with dependents that changed or left."""
    pairs: list[tuple[str, str]] = []
    for event in events:
        if isinstance(event, FactReinforced):
            continue
        for change in event.changes:
            fact = state.get(change.fact_id)
            if fact is None or (change.content is not None and not fact.dependents):
                continue
            pairs.extend((change.fact_id, dep) for dep in sorted(fact.dependents))
    return pairs
