"""Every closed set of names the store accepts or reports, defined once.

Each set is a :class:`~enum.StrEnum`, so its members compare equal to the plain strings
stored in events and views, and every reader (validation, the CLI's ``choices``, the
erasure router, reports) derives from the one definition here.
"""

from __future__ import annotations

from enum import StrEnum

from memory_es.errors import InvalidInput


class State(StrEnum):
    """Lifecycle states (SPEC §7)."""

    CANDIDATE = "candidate"
    ACTIVE = "active"
    REINFORCED = "reinforced"
    STALE = "stale"
    CONFLICTED = "conflicted"
    DEPRECATED = "deprecated"
    ARCHIVED = "archived"
    QUARANTINED = "quarantined"
    REJECTED = "rejected"
    FORGOTTEN = "forgotten"
    DELETED = "deleted"


class AssertedBy(StrEnum):
    """Who asserted a fact, in descending precedence (SPEC §3)."""

    USER = "user"
    THIRD_PARTY = "third_party"
    INFERENCE = "inference"


class Volatility(StrEnum):
    STABLE = "stable"
    PERIODIC = "periodic"
    VOLATILE = "volatile"


class Classification(StrEnum):
    """Sensitivity classes, in ascending order (a recall ceiling admits the lower ones)."""

    PUBLIC = "public"
    INTERNAL = "internal"
    RESTRICTED = "restricted"
    CONFIDENTIAL = "confidential"


class Cardinality(StrEnum):
    ONE = "one"
    MANY = "many"


class Effect(StrEnum):
    """The four deletion layers (SPEC §6)."""

    MASK = "mask"
    ARCHIVE = "archive"
    FORGET = "forget"
    PURGE = "purge"


class Motive(StrEnum):
    """Why something is erased; ``erase`` routes each motive to one layer (SPEC §6)."""

    USER_REQUEST = "user_request"
    LEGAL_ERASURE = "legal_erasure"
    SYSTEM_CLEANUP = "system_cleanup"
    SECURITY_INCIDENT = "security_incident"

    @property
    def effect(self) -> Effect:
        return MOTIVE_EFFECTS[self]


MOTIVE_EFFECTS: dict[Motive, Effect] = {
    Motive.USER_REQUEST: Effect.MASK,
    Motive.LEGAL_ERASURE: Effect.PURGE,
    Motive.SYSTEM_CLEANUP: Effect.ARCHIVE,
    Motive.SECURITY_INCIDENT: Effect.FORGET,
}


class DestructiveOp(StrEnum):
    """Operations that have a ``preview``."""

    PURGE = "purge"
    FORGET_ENTITY = "forget_entity"
    FORGET_FACT = "forget_fact"
    MASK = "mask"
    ARCHIVE = "archive"
    ERASE = "erase"

    def effect(self, motive: Motive | None) -> Effect:
        """The layer this operation applies (``erase`` needs its motive to know)."""
        if self is DestructiveOp.ERASE:
            if motive is None:
                raise ValueError("erase needs a motive")
            return motive.effect
        if self in (DestructiveOp.FORGET_ENTITY, DestructiveOp.FORGET_FACT):
            return Effect.FORGET
        return Effect(self.value)


class Outcome(StrEnum):
    """What a write did (``Receipt.outcome``)."""

    APPLIED = "applied"
    REINFORCED = "reinforced"
    CONFLICTED = "conflicted"
    NOOP = "noop"


class Compaction(StrEnum):
    """When a purge rewrites the files that held the purged bytes (SPEC §13): at once, or
    at ``store.compact()`` (or the erasure deadline), shared with other purges."""

    NOW = "now"
    DEFERRED = "deferred"

    @classmethod
    def of(cls, value: str) -> Compaction:
        """``value`` as a member, or :class:`InvalidInput` naming the choices."""
        try:
            return cls(value)
        except ValueError:
            raise InvalidInput("compact must be " + " or ".join(
                repr(c.value) for c in cls)) from None


class CheckResult(StrEnum):
    """One store's verdict in a residue report: ``pending`` is never reported as done."""

    CLEAN = "clean"
    RESIDUE = "residue"
    PENDING = "pending"
    UNREACHABLE = "unreachable"

    @staticmethod
    def verdict(residues: list[str], pending: list[str]) -> CheckResult:
        """Residue found beats work left, and only a check with neither is clean."""
        if residues:
            return CheckResult.RESIDUE
        return CheckResult.PENDING if pending else CheckResult.CLEAN


class Tier(StrEnum):
    """Memory tiers (SPEC §12.1), from the hottest to the most durable; a fact starts in
    ``working``."""

    WORKING = "working"
    SHORT_TERM = "short_term"
    MEDIUM_TERM = "medium_term"
    LONG_TERM = "long_term"


class Judgement(StrEnum):
    """How one served fact was judged for one recall (SPEC §12.2)."""

    NEUTRAL = "neutral"
    USEFUL = "useful"
    HARMFUL = "harmful"


class FeedbackOutcome(StrEnum):
    """What the user did with a preference (SPEC §12.4)."""

    ACCEPTED = "accepted"
    REJECTED = "rejected"
    UNDONE = "undone"
    UNKNOWN = "unknown"


def names(choice: type[StrEnum]) -> tuple[str, ...]:
    """The members' values, in declaration order (for messages and CLI ``choices``)."""
    return tuple(member.value for member in choice)
