"""Adaptive governance (SPEC §12.1-12.4): every rule a pure function of values.

Tiers move by use and importance, never by elapsed time alone; a served fact is judged
neutral until re-judged; a preference is a Beta posterior over outcomes; recency falls
along a forgetting curve. Nothing here reads a clock or a store: the sweep, the ledger
and the posterior are folds over what the caller hands in, so a replay computes what
the live store computed.

Times are UTC microseconds.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field, field_validator

from memory_es.choices import FeedbackOutcome, Judgement, State, Tier, Volatility
from memory_es.domain.entity import EntityState
from memory_es.domain.events import DomainEvent, FactBecameStale, FactChange
from memory_es.domain.lifecycle import RETRIEVABLE_STATES, check_transition
from memory_es.errors import InvalidInput
from memory_es.models import Posterior, Utility

US = 1_000_000
HOUR_US = 3_600 * US
DAY_US = 24 * HOUR_US

TIER_ORDER: tuple[str, ...] = tuple(t.value for t in Tier)
STALE_FROM: frozenset[str] = frozenset({"active", "reinforced"})
"""States a fact can go ``stale`` from (``stale`` itself stays; the rest are not retrievable)."""


class GovernanceConfig(BaseModel):
    """The governance rules' numbers (the seeds' defaults), per store:
    ``memory_es.open(..., governance=GovernanceConfig(...))``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    summarise: Callable[[Sequence[str]], str] | None = Field(
        default=None, exclude=True,
        description="the summariser of consolidation patterns, used by consolidate() and "
                    "when a pattern is regenerated after a member leaves (None: the "
                    "deterministic extractive default); its text is stored in the event, "
                    "so replay never calls it")
    working_idle_seconds: int = Field(default=86_400, gt=0,
                                      description="working idle this long -> short_term")
    promote_uses: int = Field(default=5, gt=0,
                              description="short_term used this often -> medium_term")
    promote_days: int = Field(default=3, gt=0,
                              description="... or used on this many distinct (UTC) days")
    long_term_importance: float = Field(default=0.8, ge=0, le=1,
                                        description="medium_term this important -> long_term")
    medium_idle_seconds: int = Field(default=7 * 86_400, gt=0,
                                     description="medium_term idle this long -> short_term")
    volatility_ttl_seconds: dict[str, int | None] = Field(
        default_factory=lambda: {"stable": None, "periodic": 30 * 86_400, "volatile": 86_400},
        description="default TTL per volatility (an attribute's declared TTL wins); "
                    "None: never stale by age")
    neutral_credit: float = Field(default=0.1, description="a served, unjudged fact")
    useful_credit: float = Field(default=1.0, description="a fact judged helpful")
    harmful_credit: float = Field(default=-2.0, description="a fact judged misleading")
    q_prior: float = Field(default=0.5, ge=0, le=1, description="q-value before any judgement")
    q_rate: float = Field(default=0.3, gt=0, le=1, description="EWMA rate of the q-value")
    explore_below: int = Field(default=5, ge=0,
                               description="explore=True samples q for facts served fewer times")
    curve_grace_days: float = Field(default=30.0, ge=0,
                                    description="idle this long before recency falls")
    curve_slow: float = Field(default=0.98, gt=0, le=1, description="daily factor after grace")
    curve_fast_after_days: float = Field(default=90.0, ge=0,
                                         description="idle this long before the fast fall")
    curve_fast: float = Field(default=0.95, gt=0, le=1, description="daily factor after that")
    curve_floor: float = Field(default=0.1, ge=0, le=1, description="recency never falls below")
    prior_alpha: float = Field(default=1.0, gt=0, description="preference prior Beta(a, .)")
    prior_beta: float = Field(default=1.0, gt=0, description="preference prior Beta(., b)")
    accepted_alpha: float = Field(default=1.0, ge=0, description="alpha added by 'accepted'")
    rejected_beta: float = Field(default=1.0, ge=0, description="beta added by 'rejected'")
    undone_beta: float = Field(default=3.0, ge=0, description="beta added by 'undone'")
    drift_short_days: int = Field(default=7, gt=0, description="recent preference window")
    drift_long_days: int = Field(default=90, gt=0, description="longer preference window")
    drift_threshold: float = Field(default=0.3, ge=0, le=1,
                                   description="posterior means further apart than this drift")
    sweep_interval_seconds: float | None = Field(
        default=None, gt=0, description="long-running processes (MCP server) sweep this often")

    @field_validator("volatility_ttl_seconds")
    @classmethod
    def _every_volatility(cls, value: dict[str, int | None]) -> dict[str, int | None]:
        missing = {v.value for v in Volatility} - set(value)
        if missing or any(t is not None and t <= 0 for t in value.values()):
            raise ValueError("give a positive TTL (or None) for stable, periodic and volatile")
        return value


DEFAULT = GovernanceConfig()


def check_importance(value: float) -> float:
    """``importance`` as a float in 0..1.

    Raises:
        InvalidInput: not a number in 0..1 (booleans and NaN included).
    """
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0.0 <= value <= 1.0:
        raise InvalidInput("importance must be a number between 0 and 1")
    return float(value)


# 12.1 tiers and staleness -----------------------------------------------------------------

@dataclass(frozen=True)
class SweepFact:
    """What the sweep knows about one fact (read from the views at the store's time)."""

    fact_id: str
    tier: str
    state: str
    importance: float
    volatility: str
    recorded_at: int
    """When the fact was first recorded."""
    verified_at: int | None = None
    ttl_seconds: int | None = None
    """The attribute's declared TTL (None: the volatility's default)."""
    uses: int = 0
    """Recalls with a receipt that served it, over its whole life."""
    use_days: int = 0
    """Distinct UTC days it was used on."""
    last_used: int | None = None


@dataclass(frozen=True)
class PlannedMove:
    fact_id: str
    from_tier: str
    to_tier: str
    reason: str


@dataclass(frozen=True)
class SweepPlan:
    """One round: at most one tier move per fact, and the facts that turn stale."""

    moves: tuple[PlannedMove, ...]
    stale: tuple[tuple[str, str], ...]
    """(fact id, reason) of each fact whose freshness lapsed."""


def ttl_us(volatility: str, declared_seconds: int | None,
           config: GovernanceConfig = DEFAULT) -> int | None:
    """A fact's TTL: its attribute's declared TTL, else its volatility's default."""
    seconds = (declared_seconds if declared_seconds is not None
               else config.volatility_ttl_seconds.get(volatility))
    return None if seconds is None else int(seconds) * US


def idle_us(fact: SweepFact, now: int) -> int:
    """Time since the last use (since ``recorded_at`` when never used), never negative."""
    since = fact.last_used if fact.last_used is not None else fact.recorded_at
    return max(0, now - since)


@functools.lru_cache(maxsize=256)
def span(us: int) -> str:
    """A duration as the reasons print it, to the second: days from 2 days, hours from 1
    hour, else seconds (whole when it is whole, else one decimal)."""
    seconds = us // US
    for unit, size, floor in (("d", 86_400, 2 * 86_400), ("h", 3_600, 3_600)):
        if seconds >= floor:
            return (f"{seconds // size} {unit}" if seconds % size == 0
                    else f"{seconds / size:.1f} {unit}")
    return f"{seconds} s"


def tier_move(fact: SweepFact, now: int,
              config: GovernanceConfig = DEFAULT) -> tuple[str, str] | None:
    """The one move the rules make for ``fact`` this round, as ``(to_tier, reason)``; the
    reason names the rule and its threshold (the inputs are in the log).

    Promotion rules are tried before demotion rules, and the first that applies wins, so
    a fact never promotes and demotes in one round. Facts outside ``RETRIEVABLE_STATES``
    never move.
    """
    if fact.state not in RETRIEVABLE_STATES:
        return None
    idle = idle_us(fact, now)
    tier = fact.tier
    if tier == Tier.WORKING:
        limit = config.working_idle_seconds * US
        if idle >= limit:
            return Tier.SHORT_TERM, f"idle >= {span(limit)} in working"
    elif tier == Tier.SHORT_TERM:
        if fact.uses >= config.promote_uses:
            return Tier.MEDIUM_TERM, f"used {fact.uses} times (>= {config.promote_uses})"
        if fact.use_days >= config.promote_days:
            return Tier.MEDIUM_TERM, (f"used on {fact.use_days} distinct days "
                                      f"(>= {config.promote_days})")
        ttl = ttl_us(fact.volatility, fact.ttl_seconds, config)
        if ttl is not None and idle > ttl:
            return Tier.WORKING, f"idle > {fact.volatility} TTL {span(ttl)}"
    elif tier == Tier.MEDIUM_TERM:
        if fact.importance >= config.long_term_importance:
            return Tier.LONG_TERM, (f"importance {fact.importance:g} >= "
                                    f"{config.long_term_importance:g}")
        limit = config.medium_idle_seconds * US
        if idle >= limit:
            return Tier.SHORT_TERM, f"idle >= {span(limit)} in medium_term"
    return None


def stale_reason(fact: SweepFact, now: int, config: GovernanceConfig = DEFAULT) -> str | None:
    """Why ``fact`` turns ``stale`` now (None: it stays fresh): its ``verified_at`` (or
    ``recorded_at``) is older than its volatility TTL. Stable facts without a declared
    TTL never go stale by age."""
    if fact.state not in STALE_FROM:
        return None
    ttl = ttl_us(fact.volatility, fact.ttl_seconds, config)
    if ttl is None:
        return None
    fresh = fact.verified_at if fact.verified_at is not None else fact.recorded_at
    if now - fresh > ttl:
        return f"not verified within {fact.volatility} TTL {span(ttl)}"
    return None


def plan_sweep(facts: Iterable[SweepFact], now: int,
               config: GovernanceConfig = DEFAULT) -> SweepPlan:
    """One sweep round over ``facts`` at ``now`` (each fact considered once)."""
    moves: list[PlannedMove] = []
    stale: list[tuple[str, str]] = []
    seen: set[str] = set()
    for fact in facts:
        if fact.fact_id in seen:
            continue
        seen.add(fact.fact_id)
        move = tier_move(fact, now, config)
        if move is not None:
            moves.append(PlannedMove(fact.fact_id, fact.tier, str(move[0]), move[1]))
        why = stale_reason(fact, now, config)
        if why is not None:
            stale.append((fact.fact_id, why))
    return SweepPlan(tuple(moves), tuple(stale))


def decide_stale(state: EntityState, fact_id: str, tenant: str,
                 reason: str) -> list[DomainEvent]:
    """Turn a fact ``stale`` (guard, then emit): nothing when it is gone, of another
    tenant, or no longer fresh and retrievable (the sweep planned on the views)."""
    fact = state.get(fact_id)
    if (fact is None or fact.content.get("tenant") != tenant or not fact.retrievable
            or fact.state not in STALE_FROM):
        return []
    check_transition(fact.state, State.STALE)
    return [FactBecameStale(
        tenant=tenant, reason=reason,
        changes=(FactChange(fact_id=fact_id, state=State.STALE,
                            portions=tuple((p.start, p.end) for p in fact.portions)),))]


# 12.2 the utility ledger ------------------------------------------------------------------

LedgerKey = tuple[str, str]
"""(recall id, fact id): one served fact of one recall."""


def check_judgement(helpful: Sequence[str], misleading: Sequence[str]) -> None:
    """A fact is judged once per call: helpful or misleading, not both."""
    both = set(helpful) & set(misleading)
    if both:
        raise InvalidInput(f"fact {sorted(both)[0]} is both helpful and misleading")


def rejudge(ledger: Mapping[LedgerKey, str], recall_id: str, helpful: Iterable[str],
            misleading: Iterable[str]) -> dict[LedgerKey, str]:
    """The ledger after one ``judge`` call: each named (recall, fact) gets the new
    judgement, *replacing* what it had (never adding a second count)."""
    out = dict(ledger)
    for fact_id in helpful:
        out[(recall_id, fact_id)] = Judgement.USEFUL
    for fact_id in misleading:
        out[(recall_id, fact_id)] = Judgement.HARMFUL
    return out


def credit(judgement: str, config: GovernanceConfig = DEFAULT) -> float:
    """One judgement's contribution to utility."""
    if judgement == Judgement.USEFUL:
        return config.useful_credit
    if judgement == Judgement.HARMFUL:
        return config.harmful_credit
    return config.neutral_credit


def q_value(judgements: Iterable[str], config: GovernanceConfig = DEFAULT) -> float:
    """EWMA of the judgements in recall order (useful 1, harmful 0, neutral left out),
    starting at the prior."""
    q = config.q_prior
    rate = config.q_rate
    for judgement in judgements:
        if judgement == Judgement.USEFUL:
            q += rate * (1.0 - q)
        elif judgement == Judgement.HARMFUL:
            q += rate * (0.0 - q)
    return q


def utility_of(judgements: Sequence[str], config: GovernanceConfig = DEFAULT) -> Utility:
    """A fact's ledger from its current judgements, one per recall, in recall order."""
    served = len(judgements)
    useful = sum(1 for j in judgements if j == Judgement.USEFUL)
    harmful = sum(1 for j in judgements if j == Judgement.HARMFUL)
    total = sum(credit(j, config) for j in judgements)
    return Utility(served=served, useful=useful, harmful=harmful,
                   neutral=served - useful - harmful, utility=total,
                   roi=total / served if served else 0.0, q_value=q_value(judgements, config))


def explores(served: int, config: GovernanceConfig = DEFAULT) -> bool:
    """Whether ``explore=True`` samples this fact's q-value (served fewer than 5 times)."""
    return served < config.explore_below


def explore_beta(useful: int, served: int) -> tuple[float, float]:
    """The Thompson-sampling posterior Beta(useful + 1, served - useful + 1)."""
    return useful + 1.0, max(0, served - useful) + 1.0


# 12.3 the forgetting curve ----------------------------------------------------------------

def forgetting(idle_days: float, config: GovernanceConfig = DEFAULT) -> float:
    """Recency weight of a fact idle ``idle_days``: 1 up to 30 days, then x0.98 per day,
    beyond 90 days x0.95 per day, never below 0.1. Ranking only."""
    idle = max(0.0, float(idle_days))
    slow = max(0.0, min(idle, config.curve_fast_after_days) - config.curve_grace_days)
    fast = max(0.0, idle - max(config.curve_fast_after_days, config.curve_grace_days))
    weight: float = config.curve_slow ** slow * config.curve_fast ** fast
    return max(config.curve_floor, min(1.0, weight))


# 12.4 preference verification -------------------------------------------------------------

def posterior(outcomes: Iterable[str], config: GovernanceConfig = DEFAULT) -> Posterior:
    """Beta posterior of a preference: accepted adds to alpha, rejected and undone to beta;
    unknown is recorded but leaves it unchanged (and is not an observation)."""
    alpha, beta, seen = config.prior_alpha, config.prior_beta, 0
    for outcome in outcomes:
        if outcome == FeedbackOutcome.ACCEPTED:
            alpha += config.accepted_alpha
        elif outcome == FeedbackOutcome.REJECTED:
            beta += config.rejected_beta
        elif outcome == FeedbackOutcome.UNDONE:
            beta += config.undone_beta
        else:
            continue
        seen += 1
    return Posterior(alpha=alpha, beta=beta, mean=alpha / (alpha + beta), observations=seen)


@dataclass(frozen=True)
class Drift:
    """The two windows' posterior means, and whether they are further apart than allowed."""

    short_mean: float
    long_mean: float
    short_outcomes: int
    long_outcomes: int
    drifted: bool


def preference_drift(outcomes: Iterable[tuple[int, str]], now: int,
                     config: GovernanceConfig = DEFAULT) -> Drift | None:
    """Compare the posterior of the last 7 days with that of the last 90 (each the prior
    plus the outcomes recorded in its window); None with no outcome in the last 7 days."""
    short_from = now - config.drift_short_days * DAY_US
    long_from = now - config.drift_long_days * DAY_US
    items = list(outcomes)
    short = [o for at, o in items if short_from < at <= now]
    if not short:
        return None
    long = [o for at, o in items if long_from < at <= now]
    s, lo = posterior(short, config).mean, posterior(long, config).mean
    return Drift(s, lo, len(short), len(long), abs(s - lo) > config.drift_threshold)
