"""SPEC §12.5-12.6 on every backend: notes behind their quality and dedup gates, automatic
links that vanish with their notes, and consolidation into patterns whose words a purge
shreds. Every decision is an event, so rebuild and replay reproduce it."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es import MemoryStore, NotFound
from tests.contracts.conftest import Backend
from tests.fakes import FakeClock

T = "acme"
CACHE = "We found the cache misses doubled because the TTL was too short after the deploy."
CACHE_AGAIN = "We found the cache misses doubled because the TTL was too short after deploy."
CACHE_MORE = CACHE + " Measured on the replica too."
DB = "We decided to keep Postgres instead of MySQL because the team knows how to run it."
TTL = "We observed that a short TTL makes the cache misses rise, so that is why we fixed it."


def fid(receipt: memory_es.Receipt) -> str:
    """The fact a write receipt names."""
    assert receipt.fact_id is not None
    return receipt.fact_id


def linked(store: MemoryStore, fact_id: str, agent: str | None = None) -> dict[str, float]:
    return {link.fact_id: link.score for link in store.links(T, fact_id, agent=agent)}


def test_a_shallow_note_is_rejected_with_reasons_and_appends_nothing(backend: Backend) -> None:
    """A note scoring below 0.6 raises QualityRejected with its score and reasons, and the
    log does not move."""
    store = backend.open(FakeClock())
    before = store.log_position()
    with pytest.raises(memory_es.QualityRejected) as err:
        store.note(T, "project:atlas", "finding", "cache slow")
    assert err.value.score < 0.6
    assert any("too short" in issue for issue in err.value.issues)
    assert isinstance(err.value, memory_es.InvalidInput)
    assert store.log_position() == before


def test_a_note_is_a_current_fact_of_its_category(backend: Backend) -> None:
    """A passing note is a current fact ``note.<category>``, and notes are cardinality many."""
    store = backend.open(FakeClock())
    a = fid(store.note(T, "project:atlas", "finding", CACHE))
    b = fid(store.note(T, "project:atlas", "decision", DB))
    c = fid(store.note(T, "project:atlas", "finding", TTL))
    facts = {f.fact_id: f for f in store.current(T, entity="project:atlas")}
    assert set(facts) == {a, b, c}
    assert facts[a].attribute == "note.finding" and facts[a].text == CACHE
    assert facts[b].attribute == "note.decision"


def test_a_near_identical_note_is_a_duplicate_and_reinforces(backend: Backend) -> None:
    """Similarity >= 0.95 to a note of the same entity and category writes no new fact: the
    receipt says duplicate and names the existing note, now reinforced."""
    store = backend.open(FakeClock())
    a = fid(store.note(T, "project:atlas", "finding", CACHE))
    r = store.note(T, "project:atlas", "finding", CACHE_AGAIN)
    assert (r.outcome, r.fact_id) == ("duplicate", a)
    facts = store.current(T, entity="project:atlas")
    assert [(f.fact_id, f.state) for f in facts] == [(a, "reinforced")]


def test_a_similar_note_is_merged_into_the_existing_one(backend: Backend) -> None:
    """Similarity in 0.85-0.95 gives the existing note a new version holding both texts."""
    store = backend.open(FakeClock())
    a = fid(store.note(T, "project:atlas", "finding", CACHE))
    r = store.note(T, "project:atlas", "finding", CACHE_MORE)
    assert (r.outcome, r.fact_id) == ("merged", a)
    [fact] = store.current(T, entity="project:atlas")
    assert fact.fact_id == a and CACHE in fact.text and CACHE_MORE in fact.text


def test_dedup_is_per_entity_and_category(backend: Backend) -> None:
    """The same text on another entity or in another category is a new note, linked."""
    store = backend.open(FakeClock())
    a = fid(store.note(T, "project:atlas", "finding", CACHE))
    r = store.note(T, "project:zephyr", "finding", CACHE)
    assert r.outcome == "applied" and fid(r) != a
    assert linked(store, a)[fid(r)] == pytest.approx(1.0, abs=1e-5)


def test_links_are_bidirectional_scored_and_thresholded(backend: Backend) -> None:
    """A new note links both ways to notes with cosine >= 0.35, each side with one score."""
    store = backend.open(FakeClock())
    a = fid(store.note(T, "project:atlas", "finding", CACHE))
    b = fid(store.note(T, "project:atlas", "decision", DB))
    c = fid(store.note(T, "project:zephyr", "finding", TTL))
    la, lc = linked(store, a), linked(store, c)
    assert c in la and la[c] == lc[a] and la[c] >= 0.35
    assert all(score >= 0.35 for score in [*la.values(), *linked(store, b).values()])
    assert a not in lc or lc[a] == la[c]


def test_gate_false_skips_quality_and_dedup_but_links(backend: Backend) -> None:
    """An import (gate=False) stores a shallow note and a duplicate, and still links them."""
    store = backend.open(FakeClock())
    a = fid(store.note(T, "project:atlas", "finding", CACHE))
    r1 = store.note(T, "project:atlas", "finding", "cache slow", gate=False)
    r2 = store.note(T, "project:atlas", "finding", CACHE_AGAIN, gate=False)
    assert r1.outcome == r2.outcome == "applied"
    assert len(store.current(T, entity="project:atlas")) == 3
    assert fid(r2) in linked(store, a)


@pytest.mark.parametrize("leave", ["forget_fact", "archive", "mask", "purge"])
def test_a_note_leaving_retrievable_states_leaves_every_link(backend: Backend,
                                                             leave: str) -> None:
    """A forgotten, archived, masked or purged note disappears from the others' links."""
    store = backend.open(FakeClock())
    a = fid(store.note(T, "project:atlas", "finding", CACHE))
    gone = fid(store.note(T, "project:zephyr", "finding", TTL))
    assert gone in linked(store, a)
    if leave == "purge":
        p = store.preview("purge", T, "project:zephyr")
        store.purge(T, "project:zephyr", confirm=p.token)
    else:
        getattr(store, leave)(gone, tenant=T)
    assert gone not in linked(store, a)
    if leave != "purge":
        assert store.links(T, gone) == []


def test_archived_note_comes_back_into_links_on_restore(backend: Backend) -> None:
    """Links are judged now: restoring an archived note restores its links."""
    store = backend.open(FakeClock())
    a = fid(store.note(T, "project:atlas", "finding", CACHE))
    b = fid(store.note(T, "project:zephyr", "finding", TTL))
    store.archive(b, tenant=T)
    assert b not in linked(store, a)
    store.restore(b, tenant=T)
    assert b in linked(store, a)


def test_links_of_another_tenants_note_are_not_found(backend: Backend) -> None:
    """``links`` is tenant-bound: another tenant's fact id is NotFound."""
    store = backend.open(FakeClock())
    a = fid(store.note(T, "project:atlas", "finding", CACHE))
    with pytest.raises(NotFound):
        store.links("other", a)


def test_note_link_and_gate_decision_commit_together(backend: Backend) -> None:
    """A note, its gate decision and its links are appended in one commit."""
    store = backend.open(FakeClock())
    store.note(T, "project:atlas", "finding", CACHE)
    before = {pos for pos, *_ in backend.events()}
    r = store.note(T, "project:zephyr", "finding", TTL)
    new = [(pos, topic) for pos, _, _, topic, _ in backend.events() if pos not in before]
    topics = [t for _, t in new]
    assert "memory_es.NoteRecorded.v1" in topics and "memory_es.NotesLinked.v1" in topics
    assert len({r.recorded_at}) == 1 and len(r.event_ids) >= 1


def test_links_survive_rebuild_and_reopen(backend: Backend) -> None:
    """Links are folded from the log: rebuild and a reopen give the same links."""
    clock = FakeClock()
    store = backend.open(clock)
    a = fid(store.note(T, "project:atlas", "finding", CACHE))
    store.note(T, "project:zephyr", "finding", TTL)
    store.note(T, "project:atlas", "decision", DB)
    before = linked(store, a)
    store.rebuild()
    assert linked(store, a) == before
    store.close()
    assert linked(backend.open(clock), a) == before


def test_links_are_capped_and_the_weakest_is_evicted(backend: Backend) -> None:
    """No note holds more than 20 links, links stay symmetric, and a full note that takes a
    stronger newcomer drops its weakest link on both sides."""
    store = backend.open(FakeClock())
    ids = [fid(store.note(T, f"project:p{i}", "finding",
                          f"{CACHE} Also noted in region {i} with load {i * 7}.", gate=False))
           for i in range(23)]
    books = {a: linked(store, a) for a in ids}
    assert max(len(b) for b in books.values()) == 20
    for a, links in books.items():
        assert len(links) <= 20
        for other, score in links.items():
            assert books[other][a] == score


# -- 12.6 consolidation -------------------------------------------------------------------------

FINDINGS = [
    "We found the checkout latency spikes because the cache warms slowly after deploys.",
    "We observed checkout latency spikes after deploys because the cache warms slowly at start.",
    "We noticed checkout latency spikes after deploys, because the cache warms slowly again.",
    "We measured checkout latency spikes after deploys because the cache warms slowly; "
    "the user Dana earns 20k a month.",
]
QUOTED = "20k a month"


def findings(store: MemoryStore, texts: list[str] = FINDINGS) -> list[str]:
    """Write each finding as an import (gate=False) on its own entity; returns the ids."""
    return [fid(store.note(T, f"user:u{i}", "finding", t, gate=False))
            for i, t in enumerate(texts)]


def patterns(store: MemoryStore) -> list[memory_es.Fact]:
    return store.current(T, attribute="note.pattern")


def summarise_all(texts: Sequence[str]) -> str:
    """A summariser that quotes every member (the worst case for erasure)."""
    return " / ".join(texts)


def test_consolidate_writes_one_pattern_derived_from_its_cluster(backend: Backend) -> None:
    """Overlapping findings become one ``note.pattern`` on ``pattern:<id>``, derived from
    them; members stay current and name it; an unrelated finding is left out."""
    store = backend.open(FakeClock())
    ids = findings(store, [*FINDINGS[:3], DB.replace("decided", "found")])
    receipts = store.consolidate(T)
    [pattern] = patterns(store)
    assert [r.fact_id for r in receipts] == [pattern.fact_id]
    assert pattern.entity is not None and pattern.entity.startswith("pattern:")
    assert sorted(pattern.derived_from) == sorted(ids[:3])
    assert {f.fact_id for f in store.current(T, attribute="note.finding")} == set(ids)
    assert [store.consolidated_into(T, i) for i in ids] == [pattern.fact_id] * 3 + [None]


def test_rerun_on_unchanged_notes_writes_nothing(backend: Backend) -> None:
    """Consolidating again without new findings appends nothing and returns no receipt."""
    store = backend.open(FakeClock())
    findings(store, FINDINGS[:3])
    store.consolidate(T)
    before = store.log_position()
    assert store.consolidate(T) == []
    assert store.log_position() == before


def test_a_new_member_supersedes_the_pattern(backend: Backend) -> None:
    """A later run that finds a new member supersedes the cluster's pattern."""
    store = backend.open(FakeClock())
    findings(store, FINDINGS[:3])
    [old] = [r.fact_id for r in store.consolidate(T)]
    extra = fid(store.note(T, "user:u9", "finding", FINDINGS[3], gate=False))
    [new] = [r.fact_id for r in store.consolidate(T)]
    [pattern] = patterns(store)
    assert pattern.fact_id == new != old and extra in pattern.derived_from
    assert old in pattern.supersedes


def test_a_leaving_member_regenerates_the_pattern_in_the_same_commit(backend: Backend) -> None:
    """Forgetting a member deprecates its pattern and, with >= min_cluster left, writes a
    regenerated pattern without the member's text, in the forget's commit."""
    store = backend.open(FakeClock())
    ids = findings(store)
    [old] = [r.fact_id for r in store.consolidate(T, summarise=summarise_all)]
    r = store.forget_fact(ids[3], tenant=T)
    [pattern] = patterns(store)
    assert pattern.fact_id != old and sorted(pattern.derived_from) == sorted(ids[:3])
    assert QUOTED not in pattern.text
    assert pattern.recorded_at == r.recorded_at


def test_too_few_members_left_means_no_pattern(backend: Backend) -> None:
    """When fewer than min_cluster members remain, the pattern is deprecated, not rewritten."""
    store = backend.open(FakeClock())
    ids = findings(store, FINDINGS[:3])
    store.consolidate(T)
    store.decay(ids[0], tenant=T)
    assert patterns(store) == []


def test_a_corrected_member_stays_with_its_new_text(backend: Backend) -> None:
    """Correcting a member regenerates the pattern from the member's new text."""
    store = backend.open(FakeClock())
    ids = findings(store, FINDINGS[:3])
    store.consolidate(T, summarise=summarise_all)
    fixed = "We found checkout latency spikes after deploys because the cache warms slowly."
    store.correct(ids[0], fixed, text=fixed, tenant=T)
    [pattern] = patterns(store)
    assert ids[0] in pattern.derived_from and fixed in pattern.text
    assert FINDINGS[0] not in pattern.text


def test_purging_a_member_shreds_every_pattern_version_that_quoted_it(
        backend: Backend) -> None:
    """A purge of a member lists the pattern in its preview, shreds the pattern versions
    that drew on it (history shows the placeholder), regenerates without it, and leaves
    no byte of the member's words in any file the store owns."""
    store = backend.open(FakeClock(), views_settings={"force_compression": "uncompressed"})
    ids = findings(store)
    [old] = [r.fact_id for r in store.consolidate(T, summarise=summarise_all)]
    assert QUOTED in patterns(store)[0].text
    preview = store.preview("purge", T, "user:u3")
    assert old in preview.derived
    receipt = store.purge(T, "user:u3", confirm=preview.token)
    [pattern] = patterns(store)
    assert QUOTED not in pattern.text and ids[3] not in pattern.derived_from
    assert receipt.report is not None and receipt.report.complete
    summaries = [s for s in receipt.report.stores if s.name == "summaries"]
    assert [s.result for s in summaries] == ["clean"]
    assert store.verify_erasure(receipt).complete
    shown = store.history(T, old)
    assert shown and all(h.value in (None, "[shredded]") for h in shown)
    replayed = store.replay(known_at=store.now()).to_pylist()
    assert not any(QUOTED in str(row.get("text")) for row in replayed)
    store.close()
    assert QUOTED.encode() not in backend.raw_bytes()
    for path in backend.folder.rglob("*"):  # views, point rows, recall segments, exports
        if path.is_file():
            assert QUOTED.encode() not in path.read_bytes(), path


def test_patterns_survive_rebuild(backend: Backend) -> None:
    """Patterns are events: a rebuild gives the same patterns and memberships."""
    store = backend.open(FakeClock())
    ids = findings(store)
    store.consolidate(T)
    store.forget_fact(ids[3], tenant=T)
    before = [(p.fact_id, p.text, sorted(p.derived_from)) for p in patterns(store)]
    store.rebuild()
    assert [(p.fact_id, p.text, sorted(p.derived_from)) for p in patterns(store)] == before
    assert store.consolidated_into(T, ids[0]) == before[0][0]


# -- 12.7 agents, in the note channels -----------------------------------------------------------

AGENTS = [None, "a", "b"]
_STORES: dict[Path, MemoryStore] = {}
POOL = [CACHE, CACHE_AGAIN, CACHE_MORE, TTL, DB, FINDINGS[0], FINDINGS[1]]
writes = st.lists(st.tuples(st.sampled_from(AGENTS), st.booleans(), st.sampled_from(POOL),
                            st.sampled_from(["project:x", "project:y"])),
                  min_size=1, max_size=8)


def visible(owner: tuple[str | None, bool], viewer: str | None) -> bool:
    """Reference visibility: tenant-wide, shared, or the viewer's own."""
    agent, shared = owner
    return agent is None or shared or agent == viewer


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=writes)
def test_no_private_note_reaches_another_agent(backend: Backend,
                                               ops: list[tuple[str | None, bool, str, str]]
                                               ) -> None:
    """Across random writes by agents, dedup never folds a note into one the writer cannot
    see, and links never show a viewer a note it cannot see: zero cross-agent hits."""
    store = _STORES.get(backend.root)
    if store is None:  # one store per test run, a fresh tenant per example
        store = _STORES[backend.root] = backend.open()
    tenant = f"t{uuid.uuid4().hex[:12]}"
    owners: dict[str, tuple[str | None, bool]] = {}
    for agent, shared, text, entity in ops:
        r = store.note(tenant, entity, "finding", text, agent=agent, shared=shared)
        if r.outcome == "applied":
            owners[fid(r)] = (agent, shared)
        else:
            assert visible(owners[fid(r)], agent)
    for note, owner in owners.items():
        for viewer in AGENTS:
            for link in store.links(tenant, note, agent=viewer):
                assert visible(owners[link.fact_id], viewer)
                assert visible(owner, viewer)


def test_another_agents_private_note_is_never_a_duplicate(backend: Backend) -> None:
    """The same text from another agent is a new note, never linked to the private one;
    a shared note is seen by both, each seeing only its own private links of it."""
    store = backend.open(FakeClock())
    mine = fid(store.note(T, "project:atlas", "finding", CACHE, agent="a"))
    shared = fid(store.note(T, "project:zephyr", "finding", CACHE, agent="a", shared=True))
    theirs = store.note(T, "project:atlas", "finding", CACHE, agent="b")
    assert theirs.outcome == "applied" and fid(theirs) != mine
    assert set(linked(store, fid(theirs), agent="b")) == {shared}
    assert set(linked(store, shared, agent="b")) == {fid(theirs)}
    assert set(linked(store, shared, agent="a")) == {mine}
    assert linked(store, shared) == {}


def test_the_stores_summariser_writes_and_regenerates_patterns(backend: Backend) -> None:
    """GovernanceConfig(summarise=...) is used by consolidate() without its own summariser
    and when a member's departure regenerates the pattern; replay never calls it."""
    calls: list[int] = []

    def counted(texts: Sequence[str]) -> str:
        calls.append(len(texts))
        return f"{len(texts)} findings: " + " / ".join(sorted(texts))

    store = backend.open(FakeClock(),
                         governance=memory_es.GovernanceConfig(summarise=counted))
    ids = findings(store)
    store.consolidate(T)
    assert patterns(store)[0].text.startswith(f"{len(ids)} findings: ")
    store.forget_fact(ids[0], tenant=T)
    [pattern] = patterns(store)
    assert pattern.text.startswith(f"{len(ids) - 1} findings: ")
    assert FINDINGS[0] not in pattern.text
    made = len(calls)
    store.rebuild()
    store.replay(known_at=store.now())
    assert len(calls) == made


def test_links_as_they_stood_at_a_past_time(backend: Backend) -> None:
    """links(known_at=T) shows the links of T: not those made later, and still the ones
    of a note forgotten since (an audit read, like replay)."""
    store = backend.open(FakeClock())
    a = fid(store.note(T, "project:atlas", "finding", CACHE))
    before_any = store.now()
    b = fid(store.note(T, "project:zephyr", "finding", TTL))
    with_b = store.now()
    c = fid(store.note(T, "project:atlas", "finding", CACHE_MORE, gate=False))
    store.forget_fact(b, tenant=T)
    assert b not in linked(store, a) and c in linked(store, a)
    assert store.links(T, a, known_at=before_any) == []
    then = {link.fact_id for link in store.links(T, a, known_at=with_b)}
    assert then == {b}
    assert store.links(T, b, known_at=with_b)[0].fact_id == a
    assert store.links(T, c, known_at=with_b) == []  # c did not exist yet
