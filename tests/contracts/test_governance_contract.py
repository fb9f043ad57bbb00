"""SPEC §12.1-12.4 on every backend: tiers and staleness by sweep, the utility ledger,
the forgetting curve in recall, and preference verification behind its flag. Every
change is an event, so rebuild and replay reproduce it."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest

import memory_es
from memory_es import InvalidInput, MemoryStore, NotFound
from tests.contracts.conftest import Backend
from tests.fakes import FakeClock

T = "acme"


def fid_of(receipt: memory_es.Receipt) -> str:
    """The fact a write receipt names."""
    assert receipt.fact_id is not None
    return receipt.fact_id


def topics(backend: Backend) -> list[str]:
    return [topic for _, _, _, topic, _ in backend.events()]


def tier(store: MemoryStore, fact_id: str) -> str:
    return next(f.tier for f in store.current(T) if f.fact_id == fact_id)


def recall_serving(store: MemoryStore, query: str, fact_id: str, **kw: Any) -> str:
    """Recall with a receipt; the fact must be among the hits. Returns the recall id."""
    hits = store.recall(T, query, receipt=True, **kw)
    assert fact_id in [h.fact.fact_id for h in hits]
    rid = hits[0].recall_id
    assert rid is not None
    return rid


# -- 12.1 tiers -------------------------------------------------------------------------------

def test_a_new_fact_starts_in_working_with_its_importance(backend: Backend) -> None:
    """Every fact has a tier (working when new) and the importance it was written with."""
    store = backend.open(FakeClock())
    a = fid_of(store.assert_fact(T, "user:alex", "home.city", "Detroit"))
    b = fid_of(store.supersede(T, "user:alex", "pref.tea", "green", importance=0.9))
    facts = {f.fact_id: f for f in store.current(T)}
    assert (facts[a].tier, facts[a].importance) == ("working", 0.5)
    assert (facts[b].tier, facts[b].importance) == ("working", 0.9)
    before = store.log_position()
    with pytest.raises(InvalidInput, match="importance"):
        store.assert_fact(T, "user:alex", "pref.coffee", "black", importance=2)
    assert store.log_position() == before


def test_sweep_moves_idle_working_facts_and_commits_each_move(backend: Backend) -> None:
    """After 24 idle hours a working fact moves to short_term, as one TierChanged event
    per move, with its reason; a second sweep right after moves nothing."""
    clock = FakeClock()
    store = backend.open(clock)
    ids = [fid_of(store.assert_fact(T, f"user:u{i}", "home.city", f"C{i}")) for i in range(3)]
    assert store.sweep(T) == []
    clock.advance(hours=24)
    moves = store.sweep(T)  # the facts were recorded 1 µs apart: the first is 24 h idle
    assert [(m.fact_id, m.from_tier, m.to_tier, m.reason) for m in moves] == [
        (ids[0], "working", "short_term", "idle >= 24 h in working")]
    clock.advance(seconds=1)
    moves += store.sweep(T)
    assert sorted(m.fact_id for m in moves) == sorted(ids)
    assert topics(backend).count("memory_es.TierChanged.v1") == 3
    assert all(tier(store, f) == "short_term" for f in ids)
    assert store.sweep(T) == []
    assert [e.op for e in store.history(T, ids[0])] == ["FactAsserted", "TierChanged"]


def test_one_move_per_round_promotion_before_demotion(backend: Backend) -> None:
    """A fact used five times climbs one tier per round: working -> short_term ->
    medium_term -> long_term (importance 0.8), never two steps in one sweep."""
    clock = FakeClock()
    store = backend.open(clock)
    fid = fid_of(store.assert_fact(T, "user:alex", "home.city", "Detroit", importance=0.8))
    for _ in range(5):
        recall_serving(store, "where does alex live", fid)
    clock.advance(hours=25)
    assert [(m.from_tier, m.to_tier) for m in store.sweep(T)] == [("working", "short_term")]
    assert [(m.to_tier, m.reason) for m in store.sweep(T)] == [
        ("medium_term", "used 5 times (>= 5)")]
    assert [m.to_tier for m in store.sweep(T)] == ["long_term"]
    assert store.sweep(T) == []
    assert tier(store, fid) == "long_term"


def test_uses_on_three_days_promote_and_idleness_demotes(backend: Backend) -> None:
    """Three days of use lift short_term to medium_term; a week idle brings it back."""
    clock = FakeClock()
    store = backend.open(clock)
    fid = fid_of(store.assert_fact(T, "user:alex", "home.city", "Detroit"))
    clock.advance(hours=25)
    store.sweep(T)
    for _ in range(3):
        recall_serving(store, "where does alex live", fid)
        clock.advance(days=1)
    assert [m.reason for m in store.sweep(T)] == ["used on 3 distinct days (>= 3)"]
    clock.advance(days=7)
    assert [(m.from_tier, m.to_tier) for m in store.sweep(T)] == [
        ("medium_term", "short_term")]


def test_short_term_past_its_ttl_returns_to_working_and_goes_stale(backend: Backend) -> None:
    """A volatile fact idle past its one-day TTL is demoted to working and turned stale
    in the same round; it stays retrievable, and reinforcing it makes it fresh again."""
    clock = FakeClock()
    store = backend.open(clock)
    fid = fid_of(store.assert_fact(T, "user:alex", "status.mood", "calm",
                            volatility="volatile"))
    clock.advance(hours=24)
    store.sweep(T)
    assert tier(store, fid) == "short_term"
    clock.advance(hours=2)
    assert [(m.to_tier, m.reason) for m in store.sweep(T)] == [
        ("working", "idle > volatile TTL 24 h")]
    [fact] = store.current(T, entity="user:alex")
    assert (fact.state, fact.tier) == ("stale", "working")
    assert [h.fact.fact_id for h in store.recall(T, "alex mood")] == [fid]
    assert store.assert_fact(T, "user:alex", "status.mood", "calm").outcome == "reinforced"
    assert store.current(T, entity="user:alex")[0].state == "reinforced"
    store.sweep(T)  # fresh again: it may move tiers (reinforcing is no use), not go stale
    assert store.current(T, entity="user:alex")[0].state == "reinforced"


def test_staleness_follows_the_declared_ttl_or_the_volatility_default(backend: Backend
                                                                       ) -> None:
    """Periodic facts go stale after 30 days, declared TTLs win, stable facts never."""
    clock = FakeClock()
    store = backend.open(clock)
    store.define_attribute(T, "job.title", volatility="stable", ttl_seconds=3_600 * 48)
    periodic = fid_of(store.assert_fact(T, "user:a", "home.city", "Oslo",
                                        volatility="periodic"))
    declared = fid_of(store.assert_fact(T, "user:a", "job.title", "chef"))
    stable = fid_of(store.assert_fact(T, "user:a", "birth.city", "Rome"))
    clock.advance(days=3)
    store.sweep(T)
    states = {f.fact_id: f.state for f in store.current(T)}
    assert states == {periodic: "active", declared: "stale", stable: "active"}
    clock.advance(days=28)
    store.sweep(T)
    states = {f.fact_id: f.state for f in store.current(T)}
    assert states[periodic] == "stale" and states[stable] == "active"
    assert "memory_es.FactBecameStale.v1" in topics(backend)


def test_facts_outside_retrievable_states_never_move(backend: Backend) -> None:
    """Archived, forgotten and conflicted facts keep their tier and state."""
    clock = FakeClock()
    store = backend.open(clock)
    archived = fid_of(store.assert_fact(T, "user:a", "home.city", "Oslo",
                                        volatility="volatile"))
    store.archive(archived)
    store.assert_fact(T, "user:b", "home.city", "Rome")
    store.forget_entity(T, "user:b")
    store.assert_fact(T, "user:c", "home.city", "Paris")
    store.assert_fact(T, "user:c", "home.city", "Lyon", asserted_by="inference")
    clock.advance(days=3)
    assert [m.fact_id for m in store.sweep(T)] == [store.current(T)[0].fact_id]
    assert {r["tier"] for r in store.replay(known_at=store.now()).to_pylist()
            if r["entity"] != "user:c" or r["state"] == "conflicted"} == {"working"}


# -- 12.2 the utility ledger ------------------------------------------------------------------

def test_recall_receipt_judges_served_facts_neutral_in_the_same_commit(backend: Backend
                                                                        ) -> None:
    """Every hit carries one recall id; the consumption event alone is the neutral
    judgement (one event appended), worth 0.1 until re-judged."""
    store = backend.open(FakeClock())
    a = fid_of(store.assert_fact(T, "user:alex", "home.city", "Detroit"))
    store.assert_fact(T, "user:alex", "work.city", "Chicago")
    before = store.log_position()
    hits = store.recall(T, "alex city", receipt=True)
    assert store.log_position() == before + 1
    assert len(hits) == 2 and len({h.recall_id for h in hits}) == 1
    assert hits[0].recall_id is not None
    assert store.recall(T, "alex city")[0].recall_id is None
    assert store.utility(T, a) == memory_es.Utility(
        served=1, useful=0, harmful=0, neutral=1, utility=0.1, roi=0.1, q_value=0.5)


def test_judge_rejudges_and_never_adds(backend: Backend) -> None:
    """helpful -> utility 1.0 (not 1.1); judged again misleading it is -2.0; q follows."""
    store = backend.open(FakeClock())
    fid = fid_of(store.assert_fact(T, "user:alex", "home.city", "Detroit"))
    rid = recall_serving(store, "where does alex live", fid)
    store.judge(T, rid, helpful=[fid])
    store.judge(T, rid, helpful=[fid])
    u = store.utility(T, fid)
    assert (u.served, u.useful, u.neutral, u.utility, u.roi) == (1, 1, 0, 1.0, 1.0)
    assert u.q_value == pytest.approx(0.65)
    store.judge(T, rid, misleading=[fid])
    u = store.utility(T, fid)
    assert (u.useful, u.harmful, u.utility, u.roi) == (0, 1, -2.0, -2.0)
    assert u.q_value == pytest.approx(0.35)
    rid2 = recall_serving(store, "where does alex live", fid)
    store.judge(T, rid2, misleading=[fid])
    u = store.utility(T, fid)
    assert (u.served, u.harmful, u.roi) == (2, 2, -2.0)
    assert "RecallJudged" in [e.op for e in store.history(T, fid)]


def test_judge_refuses_what_the_recall_did_not_serve(backend: Backend) -> None:
    """A fact not served by that recall is InvalidInput, another tenant's recall or an
    unknown one NotFound; neither appends anything."""
    store = backend.open(FakeClock())
    fid = fid_of(store.assert_fact(T, "user:alex", "home.city", "Detroit"))
    other = fid_of(store.assert_fact(T, "user:bo", "pet.name", "Rex"))
    theirs = fid_of(store.assert_fact("globex", "user:alex", "home.city", "Lima"))
    rid = recall_serving(store, "where does alex live", fid)
    foreign = store.recall("globex", "alex city", receipt=True)[0].recall_id
    assert foreign is not None
    before = store.log_position()
    with pytest.raises(InvalidInput, match="not served"):
        store.judge(T, rid, helpful=[other])
    with pytest.raises(NotFound):
        store.judge(T, foreign, helpful=[theirs])
    with pytest.raises(NotFound):
        store.judge(T, "01a00000-0000-7000-8000-000000000000", helpful=[fid])
    with pytest.raises(NotFound):
        store.utility(T, theirs)
    assert store.log_position() == before


def test_q_value_is_recalls_utility_part(backend: Backend) -> None:
    """explain shows the q-value as the utility part, and a memory that misled many times
    ranks below a twin that helped a few times."""
    store = backend.open(FakeClock())
    bad = fid_of(store.assert_fact(T, "user:alex", "home.city", "Detroit"))
    good = fid_of(store.assert_fact(T, "user:alex", "work.city", "Detroit"))
    for _ in range(10):
        rid = recall_serving(store, "alex city Detroit", bad)
        store.judge(T, rid, misleading=[bad])
    for _ in range(3):
        rid = recall_serving(store, "alex city Detroit", good)
        store.judge(T, rid, helpful=[good])
    hits = {h.fact.fact_id: h for h in store.recall(T, "alex city Detroit", explain=True)}
    assert hits[bad].parts["utility"] == pytest.approx(store.utility(T, bad).q_value)
    assert hits[good].parts["utility"] == pytest.approx(store.utility(T, good).q_value)
    assert hits[good].score > hits[bad].score


def test_explore_samples_only_young_facts_and_is_seeded(backend: Backend) -> None:
    """explore=True with a seed repeats its draw; without explore recall is deterministic;
    a fact served 5 times keeps its q-value."""
    store = backend.open(FakeClock())
    old = fid_of(store.assert_fact(T, "user:alex", "home.city", "Detroit"))
    young = fid_of(store.assert_fact(T, "user:bo", "home.city", "Detroit"))
    for _ in range(5):
        recall_serving(store, "alex home city", old, k=1)
    q = "home city Detroit"
    a = store.recall(T, q, explain=True, explore=True, seed=3)
    b = store.recall(T, q, explain=True, explore=True, seed=3)
    assert [(h.fact.fact_id, h.score) for h in a] == [(h.fact.fact_id, h.score) for h in b]
    parts = {h.fact.fact_id: h.parts["utility"] for h in a}
    assert parts[old] == pytest.approx(0.5)
    draws = {round(h.parts["utility"], 6) for s in range(8)
             for h in store.recall(T, q, explain=True, explore=True, seed=s)
             if h.fact.fact_id == young}
    assert len(draws) > 1
    plain = [store.recall(T, q, explain=True)[0].parts["utility"] for _ in range(3)]
    assert plain == [0.5, 0.5, 0.5]


# -- 12.3 the forgetting curve ----------------------------------------------------------------

def test_forgetting_curve_ranks_only(backend: Backend) -> None:
    """Idle 60 days, recency is 0.98**30; state, tier and valid time are untouched."""
    clock = FakeClock()
    store = backend.open(clock)
    fid = fid_of(store.assert_fact(T, "user:alex", "birth.city", "Rome"))
    assert store.recall(T, "alex birth city", explain=True)[0].parts["recency"] == 1.0
    clock.advance(days=60)
    [hit] = store.recall(T, "alex birth city", explain=True)
    assert hit.parts["recency"] == pytest.approx(0.98 ** 30, rel=1e-4)
    assert (hit.fact.state, hit.fact.valid_until) == ("active", None)
    clock.advance(days=400)
    [hit] = store.recall(T, "alex birth city", explain=True)
    assert hit.parts["recency"] == pytest.approx(0.1)
    assert store.current(T)[0].fact_id == fid


# -- 12.4 preference verification -------------------------------------------------------------

def test_preference_verification_off_is_a_strict_no_op(backend: Backend) -> None:
    """With the flag off feedback, preference and preference_drift return None and
    append nothing."""
    store = backend.open(FakeClock())
    fid = fid_of(store.assert_fact(T, "user:alex", "pref.turnover", "low"))
    before = store.log_position()
    assert store.feedback(T, fid, "rejected") is None
    assert store.preference(T, fid) is None
    assert store.preference_drift(T, "user:alex", "pref.turnover") is None
    assert store.log_position() == before


def test_feedback_updates_the_posterior(backend: Backend) -> None:
    """accepted -> alpha + 1, rejected -> beta + 1, undone -> beta + 3; unknown is an event
    that leaves the posterior as it was; another tenant's fact is NotFound."""
    store = backend.open(FakeClock(), preference_verification=True)
    fid = fid_of(store.assert_fact(T, "user:alex", "pref.turnover", "low"))
    assert store.preference(T, fid) == memory_es.Posterior(
        alpha=1, beta=1, mean=0.5, observations=0)
    for outcome in ("accepted", "rejected", "undone"):
        assert store.feedback(T, fid, outcome) is not None
    p = store.preference(T, fid)
    assert p is not None and (p.alpha, p.beta, p.observations) == (2, 5, 3)
    before = store.log_position()
    store.feedback(T, fid, "unknown")
    assert store.log_position() == before + 1
    assert store.preference(T, fid) == p
    with pytest.raises(InvalidInput):
        store.feedback(T, fid, "liked")
    with pytest.raises(NotFound):
        store.feedback("globex", fid, "accepted")
    assert "FeedbackRecorded" in [e.op for e in store.history(T, fid)]


def test_preference_drift_is_detected_and_only_recorded(backend: Backend) -> None:
    """Accepted for two months, rejected this week: a PreferenceDriftDetected event is
    appended and returned; the fact stays current and unchanged."""
    clock = FakeClock()
    store = backend.open(clock, preference_verification=True)
    fid = fid_of(store.assert_fact(T, "user:alex", "pref.turnover", "low"))
    assert store.preference_drift(T, "user:alex", "pref.turnover") is None
    for _ in range(8):
        store.feedback(T, fid, "accepted")
        clock.advance(days=7)
    assert store.preference_drift(T, "user:alex", "pref.turnover") is None  # no recent one
    for _ in range(3):
        store.feedback(T, fid, "rejected")
    before = store.current(T)
    drift = store.preference_drift(T, "user:alex", "pref.turnover")
    assert drift is not None and drift.fact_id == fid
    assert drift.short_mean < drift.long_mean - 0.3
    assert "memory_es.PreferenceDriftDetected.v1" in topics(backend)
    assert store.current(T) == before


# -- everything replays -----------------------------------------------------------------------

def test_rebuild_and_replay_reproduce_tiers_ledgers_and_posteriors(backend: Backend) -> None:
    """replay(known_at=T) and as_of(known_at=T) show tiers, ledgers and posteriors as they
    stood at T; a rebuild gives the same present."""
    clock = FakeClock()
    store = backend.open(clock, preference_verification=True)
    fid = fid_of(store.assert_fact(T, "user:alex", "home.city", "Detroit"))
    rid = recall_serving(store, "where does alex live", fid)
    store.feedback(T, fid, "accepted")
    t1 = store.now()
    clock.advance(hours=25)
    store.sweep(T)
    store.judge(T, rid, helpful=[fid])
    store.feedback(T, fid, "undone")
    now_rows = {r["fact_id"]: r for r in store.replay(known_at=store.now()).to_pylist()}
    then = {r["fact_id"]: r for r in store.replay(known_at=t1).to_pylist()}
    assert (then[fid]["tier"], then[fid]["neutral"], then[fid]["useful"]) == ("working", 1, 0)
    assert (then[fid]["alpha"], then[fid]["beta"]) == (2, 1)
    assert (now_rows[fid]["tier"], now_rows[fid]["useful"]) == ("short_term", 1)
    assert (now_rows[fid]["alpha"], now_rows[fid]["beta"]) == (2, 4)
    assert now_rows[fid]["q_value"] == pytest.approx(0.65)
    assert store.as_of(T, known_at=t1)[0].tier == "working"
    assert store.utility(T, fid, known_at=t1).neutral == 1
    before = (store.current(T), store.utility(T, fid), store.preference(T, fid))
    store.rebuild()
    assert (store.current(T), store.utility(T, fid), store.preference(T, fid)) == before
    store.close()
    reopened = backend.open(clock, preference_verification=True)
    assert reopened.current(T)[0].tier == "short_term"
    assert reopened.utility(T, fid).useful == 1


def test_purge_removes_governance_rows_with_the_fact(backend: Backend) -> None:
    """After a purge the ledger of the purged fact is gone with it (NotFound)."""
    clock = FakeClock()
    store = backend.open(clock)
    fid = fid_of(store.assert_fact(T, "user:alex", "home.city", "Detroit"))
    recall_serving(store, "where does alex live", fid)
    clock.advance(hours=25)
    store.sweep(T)
    con = store.runtime.views.con

    def rows(table: str) -> int:
        return int(con.execute(f"SELECT count(*) FROM {table} WHERE fact_id = ?",
                               [fid]).fetchall()[0][0])

    assert rows("served") > 0
    store.purge(T, "user:alex")
    assert [rows(t) for t in ("served", "judgements", "tier_moves", "feedback")] == [0] * 4
    with pytest.raises(NotFound):
        store.utility(T, fid)
    assert store.sql("SELECT count(*) AS n FROM fact_versions").column("n")[0].as_py() == 0
    clock.advance(timedelta(days=1))
    assert store.sweep(T) == []


def test_a_periodic_sweep_runs_once_per_interval(backend: Backend) -> None:
    """With sweep_interval_seconds set, sweep_if_due sweeps at most once per interval
    (and the configured numbers apply); without it, never."""
    clock = FakeClock()
    store = backend.open(clock, governance=memory_es.GovernanceConfig(
        sweep_interval_seconds=3_600, working_idle_seconds=60))
    assert store.governance.sweep_interval_seconds == 3_600
    a = fid_of(store.assert_fact(T, "user:a", "home.city", "Oslo"))
    clock.advance(seconds=61)
    assert [m.fact_id for m in store.sweep_if_due(T)] == [a]
    b = fid_of(store.assert_fact(T, "user:b", "home.city", "Rome"))
    clock.advance(seconds=61)
    assert store.sweep_if_due(T) == []  # due by the rules, not by the interval
    assert tier(store, b) == "working"
    clock.advance(hours=1)
    assert [m.fact_id for m in store.sweep_if_due(T)] == [b]
    store.assert_fact(T, "user:c", "home.city", "Bern")
    clock.advance(days=2)
    store.close()
    plain = backend.open(clock)
    assert plain.sweep_if_due(T) == []
    assert [m.to_tier for m in plain.sweep(T)] == ["short_term"]


def test_cli_sweeps_judges_and_reports_utility(backend: Backend,
                                                capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """memory-es recall --receipt, judge, utility and sweep reach the same ledger."""
    from memory_es.cli import main as cli_main
    from tests.contracts.conftest import PG_DSN

    where = (["--store", str(backend.folder)] if backend.name == "sqlite" else
             ["--dsn", PG_DSN, "--views", str(backend.folder), "--schema",
              str(backend.schema)])
    monkeypatch.setenv("MEMORY_ES_KEY_FILE", str(backend.key_file))

    def run(*words: str) -> Any:
        assert cli_main([*where, "--json", *words]) == 0
        return json.loads(capsys.readouterr().out)

    fid = run("assert", "acme", "user:alex", "home.city", "Detroit", "--importance", "0.9")[
        "fact_id"]
    [hit] = run("recall", "acme", "where does alex live", "--receipt")
    assert run("judge", "acme", hit["recall_id"], "--helpful", fid)["op"] == "judge"
    assert run("utility", "acme", fid) == {"served": 1, "useful": 1, "harmful": 0,
                                           "neutral": 0, "utility": 1.0, "roi": 1.0,
                                           "q_value": 0.65}
    assert run("sweep", "acme") == []
    assert cli_main([*where, "judge", "acme", hit["recall_id"], "--misleading",
                     "f-" + "0" * 32 + "-9"]) == 2
