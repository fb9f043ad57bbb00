"""SPEC §12.1-12.4 as pure rules: tiers, staleness, the utility ledger, the forgetting curve
and preference posteriors, each checked against a small reference model written here
independently of the implementation."""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import memory_es
from memory_es.domain import commands as c
from memory_es.domain import governance as g
from memory_es.domain.entity import EntityState
from memory_es.domain.events import FactAsserted, FactBecameStale, FactChange, FactContent
from memory_es.errors import InvalidInput
from projections.recall import ranking
from tests.strategies import HOUR, judge_calls, outcome_lists, sweep_facts

DAY = 24 * HOUR
NOW = 400 * DAY
RETRIEVABLE = {"active", "reinforced", "stale"}
CFG = g.GovernanceConfig()


def fact(**kw: Any) -> g.SweepFact:
    values: dict[str, Any] = {"fact_id": "f-1", "tier": "working", "state": "active",
                              "importance": 0.5, "volatility": "stable",
                              "recorded_at": NOW - HOUR}
    values.update(kw)
    return g.SweepFact(**values)


# -- a reference model of the §12.1 rules, written from the SPEC text -----------------------

def ref_ttl(f: g.SweepFact) -> int | None:
    if f.ttl_seconds is not None:
        return f.ttl_seconds * 1_000_000
    return {"periodic": 30 * DAY, "volatile": DAY}.get(f.volatility)


def ref_move(f: g.SweepFact, now: int) -> str | None:
    """The tier the SPEC's five rules send a fact to this round (None: it stays)."""
    if f.state not in RETRIEVABLE:
        return None
    idle = now - (f.last_used if f.last_used is not None else f.recorded_at)
    idle = max(idle, 0)
    promotions = {
        "working": [("short_term", idle >= 24 * HOUR)],
        "short_term": [("medium_term", f.uses >= 5 or f.use_days >= 3)],
        "medium_term": [("long_term", f.importance >= 0.8)],
    }
    ttl = ref_ttl(f)
    demotions = {
        "short_term": [("working", ttl is not None and idle > ttl)],
        "medium_term": [("short_term", idle >= 7 * DAY)],
    }
    for target, applies in promotions.get(f.tier, []) + demotions.get(f.tier, []):
        if applies:
            return target
    return None


def ref_stale(f: g.SweepFact, now: int) -> bool:
    ttl = ref_ttl(f)
    fresh = f.verified_at if f.verified_at is not None else f.recorded_at
    return f.state in {"active", "reinforced"} and ttl is not None and now - fresh > ttl


@given(st.lists(sweep_facts(), max_size=12))
def test_a_round_moves_each_fact_at_most_once_as_the_reference_rules_say(
        rows: list[dict[str, Any]]) -> None:
    """One sweep round gives each fact id at most one move: the first listed fact's, the
    one the reference model picks (promotion before demotion)."""
    facts = [g.SweepFact(**r) for r in rows]
    plan = g.plan_sweep(facts, NOW)
    moved = [m.fact_id for m in plan.moves]
    assert len(moved) == len(set(moved))
    first: dict[str, g.SweepFact] = {}
    for f in facts:
        first.setdefault(f.fact_id, f)
    expected = {fid: ref_move(f, NOW) for fid, f in first.items()}
    assert {m.fact_id: m.to_tier for m in plan.moves} == {
        fid: t for fid, t in expected.items() if t is not None}
    for m in plan.moves:
        assert m.from_tier == first[m.fact_id].tier and m.reason
    assert {fid for fid, _ in plan.stale} == {
        fid for fid, f in first.items() if ref_stale(f, NOW)}


@given(st.lists(sweep_facts(), max_size=8))
def test_facts_outside_retrievable_states_never_move_or_go_stale(
        rows: list[dict[str, Any]]) -> None:
    """Conflicted, deprecated, archived and forgotten facts stay where they are."""
    plan = g.plan_sweep([g.SweepFact(**r) for r in rows], NOW)
    states = {r["fact_id"]: r["state"] for r in reversed(rows)}
    assert all(states[m.fact_id] in RETRIEVABLE for m in plan.moves)
    assert all(states[fid] in {"active", "reinforced"} for fid, _ in plan.stale)


def test_working_moves_to_short_term_after_a_day_idle() -> None:
    """A working fact idle for 24 hours moves to short_term; at 23 hours it stays."""
    assert g.tier_move(fact(recorded_at=NOW - 24 * HOUR), NOW) == (
        "short_term", "idle >= 24 h in working")
    assert g.tier_move(fact(recorded_at=NOW - 23 * HOUR), NOW) is None


def test_a_recent_use_keeps_a_working_fact_working() -> None:
    """Idle counts from the last use, not from the record time."""
    assert g.tier_move(fact(recorded_at=NOW - 10 * DAY, last_used=NOW - HOUR), NOW) is None


def test_short_term_promotes_by_uses_or_by_days_before_any_demotion() -> None:
    """Five uses or three distinct days promote to medium_term, even when the fact is also
    idle past its TTL (promotion rules are tried first)."""
    idle = {"tier": "short_term", "volatility": "volatile", "recorded_at": NOW - 5 * DAY}
    assert g.tier_move(fact(uses=5, **idle), NOW) == (
        "medium_term", "used 5 times (>= 5)")
    assert g.tier_move(fact(use_days=3, uses=3, **idle), NOW) == (
        "medium_term", "used on 3 distinct days (>= 3)")
    assert g.tier_move(fact(uses=4, use_days=2, **idle), NOW) == (
        "working", "idle > volatile TTL 24 h")


def test_short_term_of_a_stable_fact_is_never_demoted_by_age() -> None:
    """Stable facts have no TTL, so short_term idle for a year stays short_term."""
    assert g.tier_move(fact(tier="short_term", recorded_at=NOW - 365 * DAY), NOW) is None


def test_medium_term_goes_long_term_by_importance_before_idle_demotion() -> None:
    """Importance 0.8 sends medium_term to long_term even when idle a week; below it, a
    week idle sends it back to short_term."""
    old = {"tier": "medium_term", "recorded_at": NOW - 8 * DAY}
    assert g.tier_move(fact(importance=0.8, **old), NOW) == (
        "long_term", "importance 0.8 >= 0.8")
    assert g.tier_move(fact(importance=0.79, **old), NOW) == (
        "short_term", "idle >= 7 d in medium_term")


def test_long_term_never_moves() -> None:
    """None of the five rules starts from long_term."""
    assert g.tier_move(fact(tier="long_term", recorded_at=0), NOW) is None


def test_declared_ttl_wins_over_the_volatility_default() -> None:
    """An attribute's TTL replaces the default; without one, periodic is 30 d, volatile 1 d,
    stable never."""
    assert g.ttl_us("stable", 60) == 60_000_000
    assert g.ttl_us("periodic", None) == 30 * DAY
    assert g.ttl_us("volatile", None) == DAY
    assert g.ttl_us("stable", None) is None


def test_staleness_follows_verification_and_spares_stale_and_stable_facts() -> None:
    """A volatile fact verified 2 days ago is stale; one verified an hour ago, one already
    stale, and a stable one are not."""
    assert g.stale_reason(fact(volatility="volatile", recorded_at=NOW - 3 * DAY,
                               verified_at=NOW - 2 * DAY), NOW) == (
        "not verified within volatile TTL 24 h")
    assert g.stale_reason(fact(volatility="volatile", recorded_at=NOW - 3 * DAY,
                               verified_at=NOW - HOUR), NOW) is None
    assert g.stale_reason(fact(volatility="volatile", state="stale", recorded_at=0), NOW) is None
    assert g.stale_reason(fact(recorded_at=0), NOW) is None


def _state_with(fact_id: str, state: str) -> EntityState:
    st_ = EntityState("s")
    content = FactContent(tenant="t", entity="user:a", attribute="a", chain_id="c", value=1,
                          text="x")
    st_.apply(FactAsserted.TOPIC, FactAsserted(tenant="t", changes=(FactChange(
        fact_id=fact_id, portions=((0, None),), state=state, content=content),)).model_dump())
    return st_


def test_decide_stale_guards_on_the_aggregate() -> None:
    """Staleness is emitted only for a fresh, retrievable fact of that tenant."""
    events = g.decide_stale(_state_with("f-a-1", "active"), "f-a-1", "t", "why")
    assert [type(e) for e in events] == [FactBecameStale]
    assert events[0].changes[0].state == "stale"
    assert g.decide_stale(_state_with("f-a-1", "stale"), "f-a-1", "t", "why") == []
    assert g.decide_stale(_state_with("f-a-1", "archived"), "f-a-1", "t", "why") == []
    assert g.decide_stale(_state_with("f-a-1", "active"), "f-a-1", "other", "why") == []
    assert g.decide_stale(_state_with("f-a-1", "active"), "f-a-2", "t", "why") == []


# -- the ledger: re-judging algebra against a closed-form reference ---------------------------

def ref_q(verdicts: list[str]) -> float:
    """The EWMA in closed form: 0.5 * 0.7**n + sum(0.3 * x_i * 0.7**(n - i)) over the
    non-neutral judgements, x = 1 useful, 0 harmful."""
    xs = [1.0 if v == "useful" else 0.0 for v in verdicts if v != "neutral"]
    n = len(xs)
    return 0.5 * 0.7 ** n + sum(0.3 * x * 0.7 ** (n - 1 - i) for i, x in enumerate(xs))


def ledger_after(calls: list[tuple[str, str, str]]) -> dict[tuple[str, str], str]:
    ledger: dict[tuple[str, str], str] = {}
    for recall, fid, verdict in calls:
        ledger = g.rejudge(ledger, recall, [fid] if verdict == "useful" else [],
                           [fid] if verdict == "harmful" else [])
    return ledger


@given(judge_calls, st.randoms(use_true_random=False))
def test_rejudging_in_any_order_equals_judging_only_the_last_word(
        calls: list[tuple[str, str, str]], rnd: random.Random) -> None:
    """Folding judge calls gives the ledger of each (recall, fact)'s last word alone, and
    interleaving different pairs' calls in another order changes nothing."""
    last = {(r, f): v for r, f, v in calls}
    assert ledger_after(calls) == last
    keys = list(dict.fromkeys((r, f) for r, f, _ in calls))
    per_key = {k: [v for r, f, v in calls if (r, f) == k] for k in keys}
    shuffled: list[tuple[str, str, str]] = []
    queues = {k: list(vs) for k, vs in per_key.items()}
    while any(queues.values()):
        k = rnd.choice([k for k, q in queues.items() if q])
        shuffled.append((*k, queues[k].pop(0)))
    assert ledger_after(shuffled) == last


@given(st.lists(st.sampled_from(["neutral", "useful", "harmful"]), max_size=30))
def test_utility_sums_current_judgements_and_q_is_their_ewma(verdicts: list[str]) -> None:
    """utility = 0.1 neutral + 1 useful - 2 harmful, roi = utility / served, q = the EWMA."""
    u = g.utility_of(verdicts)
    n_useful, n_harmful = verdicts.count("useful"), verdicts.count("harmful")
    n_neutral = verdicts.count("neutral")
    total = 0.1 * n_neutral + n_useful - 2 * n_harmful
    assert (u.served, u.useful, u.harmful, u.neutral) == (
        len(verdicts), n_useful, n_harmful, n_neutral)
    assert u.utility == pytest.approx(total)
    assert u.roi == pytest.approx(total / len(verdicts) if verdicts else 0.0)
    assert u.q_value == pytest.approx(ref_q(verdicts))
    assert 0.0 <= u.q_value <= 1.0


def test_one_helpful_recall_is_worth_one_not_one_point_one() -> None:
    """A neutral judgement re-judged helpful is replaced, not added to."""
    ledger = g.rejudge({("r", "f"): "neutral"}, "r", ["f"], [])
    assert g.utility_of(list(ledger.values())).utility == 1.0
    harmful = g.utility_of(["harmful", "neutral"])
    assert harmful.roi < 0


def test_a_memory_that_always_misleads_ranks_below_one_that_helps() -> None:
    """Fifty misleading recalls give a lower q than five helpful ones (the issue's case)."""
    assert g.q_value(["harmful"] * 50) < g.q_value(["useful"] * 5)
    assert g.q_value([]) == 0.5


def test_judging_a_fact_both_helpful_and_misleading_is_invalid() -> None:
    """One call judges a fact once."""
    with pytest.raises(InvalidInput):
        c.JudgeRecall(tenant="t", recall_id="r", helpful=("f-a-1",), misleading=("f-a-1",))
    with pytest.raises(InvalidInput):
        c.JudgeRecall(tenant="t", recall_id=" ", helpful=("f-a-1",))


@given(st.integers(min_value=0, max_value=20), st.integers(min_value=0, max_value=20))
def test_thompson_posterior_is_beta_of_useful_and_the_rest(useful: int, extra: int) -> None:
    """explore samples Beta(useful + 1, served - useful + 1), and only below 5 serves."""
    served = useful + extra
    assert g.explore_beta(useful, served) == (useful + 1, extra + 1)
    assert g.explores(served) == (served < 5)


def test_explore_is_seeded_and_replaces_only_young_facts() -> None:
    """The same seed draws the same sample; facts served 5 times keep their q-value."""
    q = np.array([0.5, 0.9, 0.2], np.float32)
    served = np.array([0, 5, 1])
    useful = np.array([0, 5, 1])
    a = ranking.explore(q, served, useful, seed=7)
    assert np.array_equal(a, ranking.explore(q, served, useful, seed=7))
    assert a[1] == pytest.approx(0.9)
    assert all(0.0 <= float(x) <= 1.0 for x in a)
    draws = [float(ranking.explore(q, served, useful, seed=s)[2]) for s in range(400)]
    assert sum(draws) / len(draws) == pytest.approx(2 / 3, abs=0.05)  # Beta(2, 1)


# -- the forgetting curve ---------------------------------------------------------------------

def ref_curve(days: float) -> float:
    if days <= 30:
        return 1.0
    if days <= 90:
        return max(0.1, math.pow(0.98, days - 30))
    return max(0.1, math.pow(0.98, 60) * math.pow(0.95, days - 90))


@given(st.floats(min_value=0, max_value=2_000, allow_nan=False))
def test_forgetting_curve_bounds_and_rates(days: float) -> None:
    """1 for 30 days, x0.98 a day to 90, x0.95 a day after, never below 0.1, never rising."""
    w = g.forgetting(days)
    assert 0.1 <= w <= 1.0
    assert w == pytest.approx(ref_curve(days))
    assert g.forgetting(days + 1) <= w
    if 30 <= days <= 89 and ref_curve(days + 1) > 0.1:
        assert g.forgetting(days + 1) / w == pytest.approx(0.98)
    if days >= 90 and ref_curve(days + 1) > 0.1:
        assert g.forgetting(days + 1) / w == pytest.approx(0.95)


@given(st.lists(st.floats(min_value=0, max_value=500, allow_nan=False), min_size=1,
                max_size=20))
def test_recall_recency_part_is_the_same_curve(days: list[float]) -> None:
    """The ranking's array version equals the domain function at each idle time."""
    now = 10_000 * DAY
    anchors = np.array([now - int(d * DAY) for d in days], np.int64)
    got = ranking.recency(anchors, now)
    want = [g.forgetting(int(d * DAY) / DAY) for d in days]
    assert np.allclose(got, want, rtol=1e-5)


# -- preference posteriors --------------------------------------------------------------------

@given(outcome_lists, st.randoms(use_true_random=False))
def test_posterior_counts_outcomes_in_any_order(outcomes: list[str], rnd: random.Random
                                                ) -> None:
    """Beta(1 + accepted, 1 + rejected + 3 undone); unknown changes nothing; order is free."""
    p = g.posterior(outcomes)
    alpha = 1 + outcomes.count("accepted")
    beta = 1 + outcomes.count("rejected") + 3 * outcomes.count("undone")
    assert (p.alpha, p.beta) == (alpha, beta)
    assert p.mean == pytest.approx(alpha / (alpha + beta))
    assert p.observations == len(outcomes) - outcomes.count("unknown")
    shuffled = list(outcomes)
    rnd.shuffle(shuffled)
    assert g.posterior(shuffled) == p
    assert g.posterior([*outcomes, "unknown"]) == p


def test_drift_compares_the_last_week_with_the_last_quarter() -> None:
    """Accepted for months, rejected this week: the means differ by more than 0.3."""
    history = [(NOW - d * DAY, "accepted") for d in range(20, 80, 5)]
    recent = [(NOW - d * DAY, "rejected") for d in (1, 2, 3)]
    drift = g.preference_drift(history + recent, NOW)
    assert drift is not None and drift.drifted
    assert drift.short_mean == pytest.approx(1 / 5)
    assert drift.long_mean == pytest.approx(13 / 17)
    assert g.preference_drift(history, NOW) is None
    steady = g.preference_drift([*history, (NOW - DAY, "accepted")], NOW)
    assert steady is not None and not steady.drifted


# -- configuration and commands ---------------------------------------------------------------

def test_governance_config_is_exported_with_the_seeds_defaults() -> None:
    """memory_es.GovernanceConfig carries the SPEC's numbers and rejects incomplete TTLs."""
    cfg = memory_es.GovernanceConfig()
    assert (cfg.working_idle_seconds, cfg.promote_uses, cfg.promote_days) == (86_400, 5, 3)
    assert (cfg.long_term_importance, cfg.medium_idle_seconds) == (0.8, 7 * 86_400)
    assert (cfg.neutral_credit, cfg.useful_credit, cfg.harmful_credit) == (0.1, 1.0, -2.0)
    assert (cfg.q_prior, cfg.q_rate, cfg.explore_below) == (0.5, 0.3, 5)
    assert cfg.volatility_ttl_seconds == {"stable": None, "periodic": 30 * 86_400,
                                          "volatile": 86_400}
    with pytest.raises(ValueError, match="TTL"):
        memory_es.GovernanceConfig(volatility_ttl_seconds={"stable": None})
    with pytest.raises(ValueError, match="q_rate"):
        memory_es.GovernanceConfig(q_rate=0)


@pytest.mark.parametrize("bad", [-0.1, 1.5, math.nan, True, "high"])
def test_importance_outside_zero_to_one_is_invalid(bad: Any) -> None:
    """importance is a write parameter in 0..1, checked before anything is decided."""
    with pytest.raises(InvalidInput, match="importance"):
        c.AssertFact(tenant="t", entity="user:a", attribute="a", value=1, importance=bad)


def test_a_sweep_command_moves_a_fact_once() -> None:
    """ApplySweep refuses two moves of one fact."""
    move = g.PlannedMove("f-a-1", "working", "short_term", "r")
    with pytest.raises(InvalidInput):
        c.ApplySweep(tenant="t", moves=(move, move))
