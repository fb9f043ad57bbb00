"""Hypothesis strategies shared by the suite.

Intervals for the pure interval algebra, and operation sequences for the reference
model test. Operations are small frozen records; times are whole days on a grid
(``tests.fakes.day``) so that random sequences collide on boundaries often.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

# -- intervals (µs integers, None = open) -----------------------------------------------------

bounds = st.integers(min_value=-1_000, max_value=1_000)


@st.composite
def intervals(draw: st.DrawFn, *, open_end: bool = True) -> tuple[int, int | None]:
    """A non-empty half-open interval ``[start, end)``; ``end`` may be None (open)."""
    start = draw(bounds)
    if open_end and draw(st.booleans()):
        return (start, None)
    return (start, start + draw(st.integers(min_value=1, max_value=500)))


@st.composite
def disjoint_portions(draw: st.DrawFn) -> list[tuple[int, int | None]]:
    """A sorted list of disjoint, non-touching-or-touching portions (as a fact holds them)."""
    cuts = sorted(draw(st.sets(bounds, min_size=0, max_size=8)))
    pairs = [(cuts[i], cuts[i + 1]) for i in range(0, len(cuts) - 1, 2)]
    portions: list[tuple[int, int | None]] = list(pairs)
    if portions and bool(draw(st.booleans())):  # bool(): else mypy types it by `portions`
        last_start = portions[-1][0]
        portions[-1] = (last_start, None)
    return portions


optional_bound = st.none() | bounds


@st.composite
def periods(draw: st.DrawFn) -> tuple[int | None, int | None]:
    """A valid removal period ``[lo, hi)``: either bound may be None (infinite), and
    ``lo < hi`` when both are given (the store rejects anything else)."""
    lo, hi = draw(optional_bound), draw(optional_bound)
    if lo is not None and hi is not None and hi <= lo:
        lo, hi = hi, lo + 1 if hi == lo else lo
    return lo, hi

# -- operation sequences for the reference model ---------------------------------------------

ENTITIES = ("user:alex", "user:alexandra", "project:atlas")
ATTRIBUTES = ("home.city", "pref.browser")
VALUES: tuple[Any, ...] = ("Detroit", "Chicago", "Oslo", 1, True)
ASSERTED_BY = ("user", "third_party", "inference")

# Weighted towards one slot, so that writes collide (reinforce, conflict, trim, split).
entities = st.sampled_from(ENTITIES[:1] * 4 + ENTITIES[1:])
attributes = st.sampled_from(ATTRIBUTES[:1] * 3 + ATTRIBUTES[1:])
values = st.sampled_from(VALUES[:2] * 3 + VALUES[2:])
valid_days = st.integers(min_value=0, max_value=30)
optional_days = st.none() | valid_days


@st.composite
def valid_periods(draw: st.DrawFn) -> tuple[int | None, int | None]:
    """Mostly well-formed ``(valid_from, valid_until)`` day pairs, sometimes not at all.

    ``valid_from=None`` means "from the commit time"; an empty or inverted period is
    kept now and then, since the store must refuse it without writing anything.
    """
    if draw(st.integers(min_value=0, max_value=9)) == 0:
        return draw(optional_days), draw(optional_days)
    start = draw(optional_days)
    if draw(st.booleans()):
        return start, None
    base = 12 if start is None else start  # the clock runs from day 10 on
    return start, base + draw(st.integers(min_value=1, max_value=15))


@dataclass(frozen=True)
class Assert:
    entity: str
    attribute: str
    value: Any
    valid_from: int | None
    valid_until: int | None
    asserted_by: str


@dataclass(frozen=True)
class Supersede:
    entity: str
    attribute: str
    value: Any
    valid_from: int | None
    valid_until: int | None


@dataclass(frozen=True)
class Correct:
    fact: int  # index into the facts written so far (modulo their count)
    value: Any


@dataclass(frozen=True)
class Decay:
    fact: int
    valid_until: int | None


@dataclass(frozen=True)
class Retract:
    entity: str
    attribute: str
    valid_from: int | None
    valid_until: int | None


@dataclass(frozen=True)
class Forget:
    entity: str


@dataclass(frozen=True)
class Resolve:
    conflict: int  # index into the conflicts opened so far (modulo their count)
    favour_new: bool  # True: the conflicted newcomer wins; False: the incumbent does


@dataclass(frozen=True)
class Advance:
    """Move the clock forward by ``minutes`` (0: a clock standing still)."""

    minutes: int


@dataclass(frozen=True)
class Transact:
    ops: tuple[Any, ...]


Op = Assert | Supersede | Correct | Decay | Retract | Forget | Resolve | Advance | Transact

asserts = st.builds(
    lambda e, a, v, p, by: Assert(e, a, v, p[0], p[1], by),
    entities, attributes, values, valid_periods(),
    st.sampled_from(ASSERTED_BY[:1] * 2 + ASSERTED_BY))  # mostly the default, user
supersedes = st.builds(
    lambda e, a, v, p: Supersede(e, a, v, p[0], p[1]),
    entities, attributes, values, valid_periods())
corrects = st.builds(Correct, st.integers(min_value=0, max_value=50), values)
decays = st.builds(Decay, st.integers(min_value=0, max_value=50), optional_days)
retracts = st.builds(lambda e, a, p: Retract(e, a, p[0], p[1]),
                     entities, attributes, valid_periods())
forgets = st.builds(Forget, st.sampled_from(ENTITIES))  # uniform: forgetting ends a slot's story
resolves = st.builds(Resolve, st.integers(min_value=0, max_value=20), st.booleans())
advances = st.builds(Advance, st.sampled_from((0, 0, 1, 60, 60 * 24, 60 * 24 * 3)))

tx_ops = st.one_of(asserts, supersedes, corrects, decays, retracts, resolves)
transacts = st.builds(Transact, st.lists(tx_ops, min_size=1, max_size=3).map(tuple))

operations = st.one_of(
    asserts, asserts, asserts, supersedes, supersedes, corrects, decays, retracts, forgets,
    resolves, resolves,
    advances, advances, transacts,
)


def op_sequences(max_size: int = 14) -> st.SearchStrategy[list[Op]]:
    """Random operation sequences, each starting with an assertion so reads have data."""
    return st.tuples(asserts, st.lists(operations, min_size=min(3, max_size),
                                       max_size=max_size)).map(lambda t: [t[0], *t[1]])

# -- operation sequences for the projection equivalence test ---------------------------------
# The reference-model operations above, plus the fact-level lifecycle operations, purges,
# derived facts and the points where the projections catch up (in batches of random size).


@dataclass(frozen=True)
class Mask:
    fact: int


@dataclass(frozen=True)
class Unmask:
    fact: int


@dataclass(frozen=True)
class Archive:
    fact: int


@dataclass(frozen=True)
class Restore:
    fact: int


@dataclass(frozen=True)
class ForgetFact:
    fact: int


@dataclass(frozen=True)
class Derive:
    """An inferred fact derived from an earlier one (so that premise changes cascade)."""

    premise: int
    entity: str
    attribute: str
    value: Any


@dataclass(frozen=True)
class Purge:
    """Crypto-shred the named fact's drift chain, or its whole entity."""

    fact: int
    whole_entity: bool


@dataclass(frozen=True)
class CatchUp:
    """The projections follow the log: the store's in batches of ``store_batch`` events,
    a mirror's in batches of ``mirror_batch``."""

    store_batch: int
    mirror_batch: int


ProjectionOp = Op | Mask | Unmask | Archive | Restore | ForgetFact | Derive | Purge | CatchUp

fact_indexes = st.integers(min_value=0, max_value=50)
masks = st.builds(Mask, fact_indexes)
unmasks = st.builds(Unmask, fact_indexes)
archives = st.builds(Archive, fact_indexes)
restores = st.builds(Restore, fact_indexes)
forget_facts = st.builds(ForgetFact, fact_indexes)
derives = st.builds(Derive, fact_indexes, entities, attributes, values)
purges = st.builds(Purge, fact_indexes, st.booleans())
batch_sizes = st.sampled_from((1, 1, 2, 3, 5, 8, 5000))
catch_ups = st.builds(CatchUp, batch_sizes, batch_sizes)

fact_ops = st.one_of(masks, unmasks, archives, restores, forget_facts, derives)
projection_transacts = st.builds(
    Transact, st.lists(st.one_of(tx_ops, fact_ops), min_size=1, max_size=4).map(tuple))

projection_operations = st.one_of(
    asserts, asserts, supersedes, supersedes, corrects, decays, retracts, forgets, resolves,
    masks, unmasks, archives, restores, forget_facts, derives, purges,
    advances, projection_transacts, projection_transacts, catch_ups, catch_ups, catch_ups,
)


def projection_op_sequences(max_size: int = 20) -> st.SearchStrategy[list[ProjectionOp]]:
    """Random write sequences with catch-up points, each starting with an assertion."""
    return st.tuples(asserts, st.lists(projection_operations, min_size=min(3, max_size),
                                       max_size=max_size)).map(lambda t: [t[0], *t[1]])


# -- governance (SPEC §12.1-12.4) -------------------------------------------------------------

TIERS = ("working", "short_term", "medium_term", "long_term")
GOVERNANCE_STATES = ("active", "reinforced", "stale", "conflicted", "deprecated", "archived",
                     "forgotten")
HOUR = 3_600 * 1_000_000


@st.composite
def sweep_facts(draw: st.DrawFn) -> dict[str, Any]:
    """The fields of one :class:`memory_es.domain.governance.SweepFact`, on an hour grid
    around the thresholds (24 h, 7 d, 30 d) so that rules tie often."""
    recorded = draw(st.integers(min_value=0, max_value=60 * 24)) * HOUR
    used = draw(st.one_of(st.none(), st.integers(min_value=0, max_value=60 * 24)))
    verified = draw(st.one_of(st.none(), st.integers(min_value=0, max_value=60 * 24)))
    return {
        "fact_id": f"f-{draw(st.integers(min_value=0, max_value=5))}",
        "tier": draw(st.sampled_from(TIERS)),
        "state": draw(st.sampled_from(GOVERNANCE_STATES)),
        "importance": draw(st.sampled_from([0.0, 0.5, 0.79, 0.8, 1.0])),
        "volatility": draw(st.sampled_from(["stable", "periodic", "volatile"])),
        "recorded_at": recorded,
        "verified_at": None if verified is None else verified * HOUR,
        "ttl_seconds": draw(st.sampled_from([None, None, 3_600, 86_400 * 2])),
        "uses": draw(st.integers(min_value=0, max_value=7)),
        "use_days": draw(st.integers(min_value=0, max_value=4)),
        "last_used": None if used is None else used * HOUR,
    }


judge_calls = st.lists(
    st.tuples(st.sampled_from(["r1", "r2", "r3"]), st.sampled_from(["f-1", "f-2"]),
              st.sampled_from(["useful", "harmful"])),
    max_size=12)
"""A sequence of single judgements ``(recall id, fact id, verdict)``."""

outcome_lists = st.lists(st.sampled_from(["accepted", "rejected", "undone", "unknown"]),
                         max_size=20)
