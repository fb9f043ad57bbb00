"""Commands: imperative, frozen requests, validated when they are built.

A command is what a caller asked for, before anything is decided: the facade turns
arguments into one, the write service executes it. Each checks its own shape in
``__post_init__`` (so an invalid request never reaches a unit of work) and knows its
idempotency fingerprint: the operation and its target ids, never values or entity
ids, which would outlive a purge as a confirmable digest.

Times are UTC microseconds (the facade converts aware datetimes at the edge).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from memory_es.choices import (
    Cardinality,
    Classification,
    FeedbackOutcome,
    State,
    Volatility,
    names,
)
from memory_es.domain.agents import check_agent, check_shared
from memory_es.domain.control import AttributeDef, NewFact
from memory_es.domain.governance import PlannedMove, check_importance, check_judgement
from memory_es.domain.validation import (
    ASSERTED_BY,
    CLASSIFICATIONS,
    VOLATILITY,
    check_attribute,
    check_choice,
    check_confidence,
    check_entity,
    check_tenant,
    check_text,
    check_value,
    is_canonical_entity,
)
from memory_es.errors import InvalidInput
from memory_es.ids import stream_of

REASON_LIMIT = 1024
KEY_LIMIT = 256
FINGERPRINT_FIELDS = ("fact_id", "attribute", "conflict_id")
"""What an idempotency key is bound to besides the operation."""


@dataclass(frozen=True, kw_only=True)
class Command:
    """Base of every write request."""

    OP: ClassVar[str] = ""
    RETRY: ClassVar[bool] = True
    """Whether the write service may decide it again after losing a race to another writer."""
    idempotency_key: str | None = None

    def __post_init__(self) -> None:
        check_text("idempotency_key", self.idempotency_key, KEY_LIMIT)

    @property
    def fingerprint(self) -> str:
        """The operation and its target, which a reused idempotency key must match."""
        target = {f.name: getattr(self, f.name) for f in fields(self)
                  if f.name in FINGERPRINT_FIELDS}
        return json.dumps([self.OP, target], sort_keys=True)

    @property
    def tenant_hint(self) -> str | None:
        """The tenant the command names, if it names one (fact-id commands do not)."""
        tenant = getattr(self, "tenant", None)
        return tenant if isinstance(tenant, str) else None


@dataclass(frozen=True, kw_only=True)
class AssertFact(Command):
    """Write a fact through the §5 control plane (new, reinforce, outrank or conflict)."""

    OP: ClassVar[str] = "assert_fact"
    tenant: str
    entity: str | None
    attribute: str
    value: Any
    valid_from: int | None = None
    valid_until: int | None = None
    text: str | None = None
    source: str | None = None
    asserted_by: str = "user"
    confidence: float = 1.0
    volatility: str | None = None
    classification: str | None = None
    derived_from: tuple[str, ...] = ()
    mention: str | None = None
    interpretation: dict[str, Any] | None = None
    reason: str | None = None
    importance: float = 0.5
    agent: str | None = None
    """The writing agent (None: tenant-wide). Its fact is private unless ``shared``: a
    private fact fills the agent's own slot (SPEC §12.7)."""
    shared: bool = False
    negated: bool = False
    """A denial: the slot does not hold ``value`` (see :func:`memory_es.domain.control.
    slot_relation` for how it stands to the slot's other facts)."""

    def __post_init__(self) -> None:
        # The same checks as always, each skipped when its field holds the default that it
        # would accept anyway: a batch builds one command per fact, and a check per field
        # was a tenth of a batched fact's time.
        super().__post_init__()
        check_tenant(self.tenant)
        if self.agent is not None:
            check_agent(self.agent)
        if self.shared is not False:
            check_shared(self.shared)
        if self.negated is not False and self.negated is not True:
            raise InvalidInput("negated must be a boolean")
        if type(self.importance) is not float or not 0.0 <= self.importance <= 1.0:
            object.__setattr__(self, "importance", check_importance(self.importance))
        mention = None if self.mention is None else check_text("mention", self.mention, 512)
        if self.entity is None and not mention:
            raise InvalidInput("give an entity, or entity=None with mention='...'")
        if self.entity is not None and (not isinstance(self.entity, str)
                                        or not self.entity.strip()):
            raise InvalidInput("entity must be a canonical id 'namespace:local' or an alias")
        check_attribute(self.attribute)
        check_value(self.value)
        if self.asserted_by != "user":
            check_choice("asserted_by", self.asserted_by, ASSERTED_BY)
        if self.volatility is not None:
            check_choice("volatility", self.volatility, VOLATILITY)
        if self.classification is not None:
            check_choice("classification", self.classification, CLASSIFICATIONS)
        if type(self.confidence) is not float or not 0.0 <= self.confidence <= 1.0:
            object.__setattr__(self, "confidence", check_confidence(self.confidence))
        if self.derived_from != ():
            if isinstance(self.derived_from, str):
                raise InvalidInput("derived_from must be a sequence of fact ids")
            object.__setattr__(self, "derived_from", tuple(self.derived_from or ()))
            for premise in self.derived_from:
                stream_of(premise)
        if self.text is not None:
            check_text("text", self.text)
        if self.source is not None:
            check_text("source", self.source, 512)
        if self.reason is not None:
            check_text("reason", self.reason, REASON_LIMIT)
        if self.interpretation is not None:
            if not isinstance(self.interpretation, dict):
                raise InvalidInput("interpretation must be a JSON object (dict)")
            check_value(self.interpretation)
        if (self.valid_from is not None and self.valid_until is not None
                and self.valid_until <= self.valid_from):
            raise InvalidInput("valid_until must be after valid_from")

    @classmethod
    def of(cls, *, tenant: str, entity: str | None, attribute: str, value: Any,
           valid_from: int | None, valid_until: int | None, text: str | None,
           source: str | None, asserted_by: str, confidence: float, volatility: str | None,
           classification: str | None, derived_from: tuple[str, ...], mention: str | None,
           interpretation: dict[str, Any] | None, reason: str | None,
           idempotency_key: str | None, importance: float, agent: str | None,
           shared: bool, negated: bool) -> AssertFact:
        """``cls(...)`` given every field, with the same checks, at half the cost: a frozen
        dataclass's ``__init__`` sets its 21 fields one ``object.__setattr__`` at a time
        (≈ 2-3 us of a batched fact's time), here they are filled in at once. The facade
        builds every ``assert_fact`` and ``supersede`` through it; a test holds its
        parameters to the dataclass's fields."""
        self = object.__new__(cls)
        self.__dict__.update({
            "idempotency_key": idempotency_key, "tenant": tenant, "entity": entity,
            "attribute": attribute, "value": value, "valid_from": valid_from,
            "valid_until": valid_until, "text": text, "source": source,
            "asserted_by": asserted_by, "confidence": confidence, "volatility": volatility,
            "classification": classification, "derived_from": derived_from,
            "mention": mention, "interpretation": interpretation, "reason": reason,
            "importance": importance, "agent": agent, "shared": shared, "negated": negated})
        self.__post_init__()
        return self

    def new_fact(self, now: int, entity: str | None = None) -> NewFact:
        """The fact to decide on, its open start filled in with the commit time."""
        start = now if self.valid_from is None else self.valid_from
        if self.valid_until is not None and self.valid_until <= start:
            raise InvalidInput("valid_until must be after valid_from")
        # positional, in NewFact's field order (a keyword call of a 19-field named tuple
        # costs ~0.5 us more per fact; a test holds the two equal)
        return NewFact(
            self.tenant, self.entity if entity is None else entity, self.attribute,
            self.value, start, self.valid_until, self.text, self.mention, self.source,
            self.asserted_by, self.confidence, self.volatility, self.classification,
            self.derived_from, self.interpretation, self.importance, self.agent,
            self.shared, self.negated)


@dataclass(frozen=True, kw_only=True)
class Supersede(AssertFact):
    """A new value for the slot over a valid period (UPDATE ... FOR PORTION OF)."""

    OP: ClassVar[str] = "supersede"

    def __post_init__(self) -> None:
        if self.entity is None:
            raise InvalidInput("supersede needs an entity")
        super().__post_init__()


@dataclass(frozen=True, kw_only=True)
class FactCommand(Command):
    """A command that names one fact by id (its stream is derived from the id)."""

    fact_id: str
    reason: str | None = None
    tenant: str | None = None
    """When given, the fact must belong to this tenant (else NotFound): fact ids are not
    bearer tokens across tenants (SPEC §14)."""

    def __post_init__(self) -> None:
        super().__post_init__()
        stream_of(self.fact_id)
        check_text("reason", self.reason, REASON_LIMIT)
        if self.tenant is not None:
            check_tenant(self.tenant)


@dataclass(frozen=True, kw_only=True)
class Correct(FactCommand):
    """The value was wrong over the fact's whole valid interval."""

    OP: ClassVar[str] = "correct"
    value: Any
    text: str | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        check_value(self.value)
        check_text("text", self.text)


@dataclass(frozen=True, kw_only=True)
class Decay(FactCommand):
    """Release: the fact stops being valid at ``valid_until`` (None: the commit time)."""

    OP: ClassVar[str] = "decay"
    valid_until: int | None = None


@dataclass(frozen=True, kw_only=True)
class ForgetFact(FactCommand):
    """Cascade soft delete: the fact becomes ``forgotten`` (terminal)."""

    OP: ClassVar[str] = "forget_fact"
    TARGET: ClassVar[str] = State.FORGOTTEN


@dataclass(frozen=True, kw_only=True)
class Archive(FactCommand):
    """Mark delete: hidden from every default read, reversible with ``restore``."""

    OP: ClassVar[str] = "archive"
    TARGET: ClassVar[str] = State.ARCHIVED


@dataclass(frozen=True, kw_only=True)
class Restore(FactCommand):
    """Undo ``archive``."""

    OP: ClassVar[str] = "restore"


@dataclass(frozen=True, kw_only=True)
class Mask(FactCommand):
    """Content becomes a placeholder in every view (the original stays sealed)."""

    OP: ClassVar[str] = "mask"


@dataclass(frozen=True, kw_only=True)
class Unmask(FactCommand):
    OP: ClassVar[str] = "unmask"


@dataclass(frozen=True, kw_only=True)
class ResolveConflict(FactCommand):
    """Settle an open conflict in favour of the fact ``fact_id`` (the winner)."""

    OP: ClassVar[str] = "resolve_conflict"
    conflict_id: str


@dataclass(frozen=True, kw_only=True)
class Retract(Command):
    """Remove the slot's value over a valid period (DELETE ... FOR PORTION OF)."""

    OP: ClassVar[str] = "retract"
    tenant: str
    entity: str
    attribute: str
    valid_from: int | None = None
    valid_until: int | None = None
    reason: str | None = None
    agent: str | None = None
    """Retract from this agent's private slot (None: the tenant's slot)."""

    def __post_init__(self) -> None:
        super().__post_init__()
        check_tenant(self.tenant)
        check_agent(self.agent)
        check_attribute(self.attribute)
        check_text("reason", self.reason, REASON_LIMIT)
        if (self.valid_from is not None and self.valid_until is not None
                and self.valid_until <= self.valid_from):
            raise InvalidInput("valid_until must be after valid_from")


@dataclass(frozen=True, kw_only=True)
class ForgetEntity(Command):
    """Amnesia of exactly one entity."""

    OP: ClassVar[str] = "forget_entity"
    tenant: str
    entity: str
    reason: str | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        check_tenant(self.tenant)
        check_text("reason", self.reason, REASON_LIMIT)


@dataclass(frozen=True, kw_only=True)
class Alias(Command):
    """Register ``surface`` as another way to say ``canonical_id``."""

    OP: ClassVar[str] = "alias"
    tenant: str
    surface: str
    canonical_id: str

    def __post_init__(self) -> None:
        super().__post_init__()
        check_tenant(self.tenant)
        check_entity(self.canonical_id)
        if not isinstance(self.surface, str) or not self.surface.strip():
            raise InvalidInput("surface must be a non-empty string of at most 512 characters")
        check_text("surface", self.surface, 512)
        if is_canonical_entity(self.surface):
            raise InvalidInput("a canonical id cannot be an alias of another entity")


@dataclass(frozen=True, kw_only=True)
class DefineAttribute(Command):
    """Declare an attribute's cardinality, volatility, TTL and classification."""

    OP: ClassVar[str] = "define_attribute"
    tenant: str
    attribute: str
    cardinality: str = Cardinality.ONE
    volatility: str = Volatility.STABLE
    ttl_seconds: int | None = None
    classification: str = Classification.INTERNAL

    def __post_init__(self) -> None:
        super().__post_init__()
        check_tenant(self.tenant)
        check_attribute(self.attribute)
        check_choice("cardinality", self.cardinality, names(Cardinality))
        check_choice("volatility", self.volatility, VOLATILITY)
        check_choice("classification", self.classification, CLASSIFICATIONS)
        if self.ttl_seconds is not None and (
                isinstance(self.ttl_seconds, bool) or not isinstance(self.ttl_seconds, int)
                or self.ttl_seconds <= 0):
            raise InvalidInput("ttl_seconds must be a positive integer")

    @property
    def definition(self) -> AttributeDef:
        return AttributeDef(str(self.cardinality), str(self.volatility), self.ttl_seconds,
                            str(self.classification))


@dataclass(frozen=True, kw_only=True)
class PurgeScope(Command):
    """Crypto-shred a whole stream (``chain_id`` None) or one drift chain of it.

    Built by the erasure service once it has worked out the scope; ``derived`` are the
    facts outside the scope that lose a premise and are deprecated in the same commit."""

    OP: ClassVar[str] = "purge"
    RETRY: ClassVar[bool] = False  # its scope was read before: the erasure service retries
    tenant: str
    stream_id: str
    chain_id: str | None
    fact_ids: tuple[str, ...]
    key_ids: tuple[str, ...]
    derived: tuple[str, ...] = ()
    motive: str | None = None
    op: str = "purge"


@dataclass(frozen=True, kw_only=True)
class IssueDeletionReceipt(Command):
    """Append a signed deletion receipt to the audit chain (ids and digests only)."""

    OP: ClassVar[str] = "deletion_receipt"
    tenant: str
    receipt: dict[str, Any]


@dataclass(frozen=True, kw_only=True)
class RecordServed(Command):
    """A consumption receipt: which fact versions a recall served, to whom (no text)."""

    OP: ClassVar[str] = "served"
    tenant: str
    caller: str | None
    query_digest: str
    valid_at: int | None
    known_at: int | None
    fact_ids: tuple[str, ...]
    version_ids: tuple[str, ...]
    states: tuple[str, ...]
    recall_id: str | None = None
    """Set when the served facts enter the utility ledger (judged neutral by this event)."""


# governance (SPEC §12.1-12.4) -------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class ApplySweep(Command):
    """Commit one sweep round: each tier move as a ``TierChanged`` event, each lapsed fact
    as ``FactBecameStale``. Built by the governance service from its plan."""

    OP: ClassVar[str] = "sweep"
    tenant: str
    moves: tuple[PlannedMove, ...] = ()
    stale: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        super().__post_init__()
        check_tenant(self.tenant)
        ids = [m.fact_id for m in self.moves]
        if len(ids) != len(set(ids)):
            raise InvalidInput("a sweep moves each fact at most once")


@dataclass(frozen=True, kw_only=True)
class JudgeRecall(Command):
    """Re-judge the facts one recall served: helpful -> useful, misleading -> harmful."""

    OP: ClassVar[str] = "judge"
    tenant: str
    recall_id: str
    helpful: tuple[str, ...] = ()
    misleading: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        super().__post_init__()
        check_tenant(self.tenant)
        if not isinstance(self.recall_id, str) or not self.recall_id.strip():
            raise InvalidInput("recall_id must be the id a recall with receipt=True returned")
        check_text("recall_id", self.recall_id, 128)
        for name in ("helpful", "misleading"):
            ids = getattr(self, name)
            if isinstance(ids, str):
                raise InvalidInput(f"{name} must be a sequence of fact ids")
            object.__setattr__(self, name, tuple(dict.fromkeys(ids or ())))
            for fact_id in getattr(self, name):
                stream_of(fact_id)
        check_judgement(self.helpful, self.misleading)


@dataclass(frozen=True, kw_only=True)
class RecordFeedback(FactCommand):
    """An outcome observed for a preference fact (accepted, rejected, undone, unknown)."""

    OP: ClassVar[str] = "feedback"
    outcome: str = "unknown"

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.tenant is None:
            raise InvalidInput("feedback names a tenant")
        check_choice("outcome", self.outcome, names(FeedbackOutcome))


@dataclass(frozen=True, kw_only=True)
class RecordDrift(FactCommand):
    """Record that a preference's recent posterior drifted (an audit event only)."""

    OP: ClassVar[str] = "preference_drift"
    short_mean: float
    long_mean: float
    short_outcomes: int
    long_outcomes: int
    short_days: int
    long_days: int


# notes (SPEC §12.5-12.6) ------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class WriteNote(Command):
    """Write a note whose gates were decided (quality, dedup, links): one commit."""

    OP: ClassVar[str] = "note"
    RETRY: ClassVar[bool] = False
    """Its dedup and links were decided on a view of the notes: the service decides again."""
    tenant: str
    entity: str
    category: str
    text: str
    importance: float = 0.5
    agent: str | None = None
    shared: bool = False
    gated: bool = True
    score: float | None = None
    outcome: str = "applied"
    """``applied`` (a new note), ``duplicate`` or ``merged`` (into ``target``)."""
    target: str | None = None
    similarity: float | None = None
    links: tuple[tuple[str, float], ...] = ()
    evicted: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        super().__post_init__()
        check_tenant(self.tenant)
        check_agent(self.agent)
        check_shared(self.shared)
        if self.outcome not in ("applied", "duplicate", "merged"):
            raise InvalidInput("outcome must be applied, duplicate or merged")
        if (self.target is None) != (self.outcome == "applied"):
            raise InvalidInput("a duplicate or merged note names its target, a new one none")
        for fid, _ in self.links:
            stream_of(fid)
