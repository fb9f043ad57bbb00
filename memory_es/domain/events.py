"""Immutable domain events, named in the past tense.

Each event is frozen, forbids unknown fields and has a stable stored topic that does
not depend on module paths. Times are UTC microseconds. Every event that changes
facts lists its effect as :class:`FactChange` records: the fact's complete present
belief after the event. Projections and the aggregate fold the same records, so a
replay cannot drift from what the write side decided.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class FactContent(Frozen):
    """Everything about a fact that is fixed when it is written (sealed in the log)."""

    tenant: str
    entity: str | None = Field(description="canonical entity id; None for an unresolved mention")
    mention: str | None = None
    attribute: str
    chain_id: str = Field(description="drift-chain (slot) id; also names the chain's sub-key")
    value: Any
    negated: bool = Field(
        default=False, description="a denial: the slot does not hold ``value`` (SPEC §3); "
        "events written before denials existed load as positive facts")
    text: str
    source: str | None = None
    asserted_by: str = "user"
    volatility: str = "stable"
    confidence: float = 1.0
    importance: float = Field(default=0.5, description="0..1, given by the writer (SPEC §12.1)")
    classification: str = "internal"
    derived_from: tuple[str, ...] = ()
    supersedes: tuple[str, ...] = ()
    rev: int = Field(default=0, description="content revision: 0 when written, +1 per correction")
    agent: str | None = Field(
        default=None, description="the writing agent (None: tenant-wide; SPEC §12.7); events "
        "written before agents existed load as tenant-wide")
    shared: bool = Field(default=False,
                         description="an agent's fact visible to every reader of the tenant")


class FactChange(Frozen):
    """A fact's present belief after an event: its valid portions and lifecycle state."""

    fact_id: str
    portions: tuple[tuple[int, int | None], ...] = Field(
        description="disjoint valid-time portions [start, end) still believed; empty = withdrawn"
    )
    state: str
    content: FactContent | None = Field(
        default=None, description="set for a new fact or a corrected value"
    )
    superseded_by: str | None = None
    verified_at: int | None = None


class DomainEvent(Frozen):
    """Base of all events. ``TOPIC`` is the stable stored name; bump its suffix on change."""

    TOPIC: ClassVar[str] = ""
    SCOPE: ClassVar[str] = "chain"  # which key seals it: a chain's sub-key, or the entity key
    tenant: str
    changes: tuple[FactChange, ...] = ()
    reason: str | None = None


class FactAsserted(DomainEvent):
    """A new fact (possibly conflicted, possibly superseding facts it outranks)."""

    TOPIC = "memory_es.FactAsserted.v1"
    interpretation: dict[str, Any] | None = Field(
        default=None, description="how a text interpreter produced it, when it came from text"
    )


class FactSuperseded(DomainEvent):
    """A new value for a slot over a valid period; overlapping facts trimmed or split."""

    TOPIC = "memory_es.FactSuperseded.v1"
    period: tuple[int, int | None]
    interpretation: dict[str, Any] | None = None


class FactCorrected(DomainEvent):
    """The recorded value was wrong over its whole valid interval."""

    TOPIC = "memory_es.FactCorrected.v1"


class FactRetracted(DomainEvent):
    """A slot's value removed over a valid period (DELETE ... FOR PORTION OF)."""

    TOPIC = "memory_es.FactRetracted.v1"
    period: tuple[int | None, int | None]


class FactDecayed(DomainEvent):
    """A fact released: its validity closed, its row kept for audit."""

    TOPIC = "memory_es.FactDecayed.v1"
    valid_until: int


class FactReinforced(DomainEvent):
    """The same value asserted again: freshness renewed, no new fact."""

    TOPIC = "memory_es.FactReinforced.v1"


class FactDeprecated(DomainEvent):
    """A derived fact invalidated because a premise left present belief or changed."""

    TOPIC = "memory_es.FactDeprecated.v1"
    premise: str


class FactStateChanged(DomainEvent):
    """An explicit lifecycle operation on one fact (archive, restore, quarantine, ...)."""

    TOPIC = "memory_es.FactStateChanged.v1"
    operation: str


class DependentLinked(DomainEvent):
    """A fact derived from one of this stream's facts was written (drives cascades)."""

    TOPIC = "memory_es.DependentLinked.v1"
    premise: str
    dependent: str


class ConflictOpened(DomainEvent):
    """An assertion contradicted present belief without outranking it."""

    TOPIC = "memory_es.ConflictOpened.v1"
    conflict_id: str
    fact_id: str
    against: tuple[str, ...]


class ConflictResolved(DomainEvent):
    """A conflict settled in favour of one side."""

    TOPIC = "memory_es.ConflictResolved.v1"
    conflict_id: str
    winner: str


class FactMasked(DomainEvent):
    """Content replaced by a placeholder in every view; the original stays sealed in the log."""

    TOPIC = "memory_es.FactMasked.v1"
    fact_id: str


class FactUnmasked(DomainEvent):
    """Masking undone: the fact's content revisions are restated (sealed) for the views."""

    TOPIC = "memory_es.FactUnmasked.v1"
    fact_id: str
    contents: tuple[FactContent, ...]


class EntityPurged(DomainEvent):
    """Crypto-shredding of a whole entity stream. Holds ids only, never personal data."""

    TOPIC = "memory_es.EntityPurged.v1"
    SCOPE = "none"
    fact_ids: tuple[str, ...]
    key_ids: tuple[str, ...]
    motive: str | None = None


class FactChainPurged(DomainEvent):
    """Crypto-shredding of one drift chain (its sub-key); siblings are untouched."""

    TOPIC = "memory_es.FactChainPurged.v1"
    SCOPE = "none"
    chain_id: str
    fact_ids: tuple[str, ...]
    key_ids: tuple[str, ...]
    motive: str | None = None


class DeletionReceiptIssued(DomainEvent):
    """A signed deletion receipt appended to the audit chain (no personal data)."""

    TOPIC = "memory_es.DeletionReceiptIssued.v1"
    SCOPE = "none"
    receipt: dict[str, Any]


class ConsumptionRecorded(DomainEvent):
    """Facts served to a caller (recall receipt). Ids and a keyed query digest only."""

    TOPIC = "memory_es.ConsumptionRecorded.v1"
    SCOPE = "none"
    caller: str | None
    query_digest: str
    valid_at: int | None
    known_at: int | None
    fact_ids: tuple[str, ...]
    version_ids: tuple[str, ...]
    states: tuple[str, ...]
    recall_id: str | None = Field(
        default=None, description="the recall's id: each served fact is judged neutral for it "
        "by this event itself (SPEC §12.2), until a RecallJudged re-judges it")


class TierChanged(DomainEvent):
    """A sweep moved one fact between tiers (SPEC §12.1). Ids and tier names only."""

    TOPIC = "memory_es.TierChanged.v1"
    SCOPE = "none"
    fact_id: str
    from_tier: str
    to_tier: str


class FactBecameStale(DomainEvent):
    """A sweep found the fact's freshness older than its volatility TTL (stays retrievable)."""

    TOPIC = "memory_es.FactBecameStale.v1"


class RecallJudged(DomainEvent):
    """A recall's served facts re-judged (replacing their earlier judgement, SPEC §12.2)."""

    TOPIC = "memory_es.RecallJudged.v1"
    SCOPE = "none"
    recall_id: str
    helpful: tuple[str, ...] = Field(description="fact ids now judged useful")
    misleading: tuple[str, ...] = Field(description="fact ids now judged harmful")


class FeedbackRecorded(DomainEvent):
    """An outcome observed for a preference fact (SPEC §12.4). Ids and the outcome only."""

    TOPIC = "memory_es.FeedbackRecorded.v1"
    SCOPE = "none"
    fact_id: str
    outcome: str = Field(description="accepted | rejected | undone | unknown")


class PreferenceDriftDetected(DomainEvent):
    """The last 7 days' preference posterior left the last 90 days' (an audit record:
    nothing is superseded or decayed)."""

    TOPIC = "memory_es.PreferenceDriftDetected.v1"
    SCOPE = "none"
    fact_id: str
    short_mean: float = Field(description="posterior mean over the short window")
    long_mean: float = Field(description="posterior mean over the long window")
    short_outcomes: int
    long_outcomes: int
    short_days: int
    long_days: int


class EntityForgotten(DomainEvent):
    """Amnesia: every fact of exactly this entity became ``forgotten``."""

    TOPIC = "memory_es.EntityForgotten.v1"
    SCOPE = "entity"
    entity: str


class AliasRegistered(DomainEvent):
    """A surface form now resolves to this stream's canonical entity."""

    TOPIC = "memory_es.AliasRegistered.v1"
    SCOPE = "entity"
    surface: str
    entity: str


class AttributeDefined(DomainEvent):
    """A tenant declared an attribute's cardinality, volatility, TTL and classification."""

    TOPIC = "memory_es.AttributeDefined.v1"
    SCOPE = "none"
    attribute: str
    cardinality: str
    volatility: str
    ttl_seconds: int | None
    classification: str


class WriteAcknowledged(DomainEvent):
    """The receipt of a write made with an idempotency key (its stream is keyed by it)."""

    TOPIC = "memory_es.WriteAcknowledged.v1"
    SCOPE = "none"
    receipt: dict[str, Any]
    request: str | None = Field(
        default=None, description="operation and target (never values) the key was used for")


# notes (SPEC §12.5-12.6) ------------------------------------------------------------------
# Gate decisions and links hold ids, names and numbers only: they go, in clear, to the
# tenant's notes stream (one stream, so two writers racing on a note's links conflict).


class NoteRecorded(DomainEvent):
    """A note passed (or bypassed) its gates: what the gates decided. Ids and numbers only."""

    TOPIC = "memory_es.NoteRecorded.v1"
    SCOPE = "none"
    fact_id: str = Field(description="the note written, or the existing one it deduplicated into")
    category: str
    outcome: str = Field(description="applied | duplicate | merged")
    gated: bool = Field(description="False when written with gate=False (imports)")
    score: float | None = Field(default=None, description="quality score (None when bypassed)")
    similarity: float | None = Field(
        default=None, description="cosine similarity to the note it deduplicated into")
    agent: str | None = Field(default=None, description="the writing agent (None: tenant-wide)")
    shared: bool = False


class NotesLinked(DomainEvent):
    """A note linked both ways to similar notes; weaker links evicted to make room."""

    TOPIC = "memory_es.NotesLinked.v1"
    SCOPE = "none"
    fact_id: str
    links: tuple[tuple[str, float], ...] = Field(description="(other note, cosine) pairs")
    evicted: tuple[tuple[str, str], ...] = Field(
        default=(), description="(note, other) links dropped, both directions")


EVENT_TYPES: dict[str, type[DomainEvent]] = {
    cls.TOPIC: cls
    for cls in (
        FactAsserted, FactSuperseded, FactCorrected, FactRetracted, FactDecayed,
        FactReinforced, FactDeprecated, FactStateChanged, DependentLinked, ConflictOpened,
        ConflictResolved, EntityForgotten, AliasRegistered, AttributeDefined, WriteAcknowledged,
        FactMasked, FactUnmasked, EntityPurged, FactChainPurged, DeletionReceiptIssued,
        ConsumptionRecorded, TierChanged, FactBecameStale, RecallJudged, FeedbackRecorded,
        PreferenceDriftDetected,
        NoteRecorded, NotesLinked,
    )
}

CLEAR_TOPICS: frozenset[str] = frozenset(
    topic for topic, cls in EVENT_TYPES.items() if cls.SCOPE == "none")
"""Topics stored in clear: by construction they hold ids and counts, no personal data."""
