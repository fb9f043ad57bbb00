"""SPEC §12.7 on every backend: agents within a tenant. A fact an agent writes is private
to it unless shared; private facts fill the agent's own slots (no conflict or
supersession across scopes) and shadow the tenant-wide value in that agent's reads; the
agent reads see tenant-wide, shared and their own facts, the operator reads everything.
Plus §12.6's reader surface: ``consolidated_into`` and recall without consolidated members.
"""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest

import memory_es
from memory_es import MemoryStore, NotFound
from tests.contracts.conftest import Backend
from tests.fakes import FakeClock

T = "acme"
U = "user:alex"
FINDINGS = [
    "We found the checkout cache misses doubled because the TTL was too short after deploy.",
    "We observed checkout cache misses doubled when the TTL was too short, so that is why.",
    "We noticed the checkout cache misses doubled because the TTL was short after a deploy.",
]
"""Three findings whose keywords overlap enough to form one consolidation cluster."""


def fid(receipt: memory_es.Receipt) -> str:
    """The fact a write receipt names."""
    assert receipt.fact_id is not None
    return receipt.fact_id


def values(facts: list[memory_es.Fact]) -> dict[tuple[str | None, str], list[object]]:
    """(entity, attribute) -> sorted values, for comparing reads."""
    out: dict[tuple[str | None, str], list[object]] = {}
    for f in facts:
        out.setdefault((f.entity, f.attribute), []).append(f.value)
    return {k: sorted(v, key=str) for k, v in out.items()}


def recalled(store: MemoryStore, query: str, **kw: object) -> set[str]:
    return {h.fact.fact_id for h in store.recall(T, query, k=20, **kw)}  # type: ignore[arg-type]


def test_a_private_fact_is_seen_by_its_agent_only(backend: Backend) -> None:
    """A private fact reaches its own agent through current, as_of, chain, recall and
    recall_texts, and no other agent nor a read without an agent; a shared one reaches all."""
    store = backend.open(FakeClock())
    secret = fid(store.assert_fact(T, "project:atlas", "status.note", "secret plan zebra",
                                   agent="a"))
    public = fid(store.assert_fact(T, "project:atlas", "status.owner", "zebra team",
                                   agent="b", shared=True))
    for reader in (None, "b", "c"):
        seen = {f.fact_id for f in store.current(T, agent=reader)}
        seen |= {f.fact_id for f in store.as_of(T, agent=reader)}
        seen |= {f.fact_id for f in store.current(T, entity="project:atlas", agent=reader)}
        seen |= recalled(store, "zebra plan", agent=reader)
        assert secret not in seen and public in seen
        assert not any("secret" in t for t in store.recall_texts(T, "zebra plan", agent=reader))
        with pytest.raises(NotFound):
            store.chain(T, secret, agent=reader)
    mine = {f.fact_id for f in store.current(T, agent="a")}
    assert {secret, public} <= mine
    assert secret in recalled(store, "zebra plan", agent="a")
    assert any("secret" in t for t in store.recall_texts(T, "secret plan zebra", agent="a"))
    assert [f.fact_id for f in store.chain(T, secret, agent="a")] == [secret]
    fact = next(f for f in store.current(T, agent="a") if f.fact_id == secret)
    assert (fact.agent, fact.shared) == ("a", False)


def test_private_facts_form_their_own_slot(backend: Backend) -> None:
    """A private assert never conflicts with the tenant-wide value nor with another agent's,
    even from a lower-ranked source; the tenant-wide value stays current for everyone else."""
    store = backend.open(FakeClock())
    tenant_wide = fid(store.assert_fact(T, U, "home.city", "Detroit"))
    a = store.assert_fact(T, U, "home.city", "Chicago", agent="a", asserted_by="inference")
    b = store.assert_fact(T, U, "home.city", "Boston", agent="b", asserted_by="third_party")
    assert a.outcome == "applied" and a.conflict_id is None
    assert b.outcome == "applied" and b.conflict_id is None
    assert values(store.current(T, entity=U)) == {(U, "home.city"): ["Detroit"]}
    assert values(store.current(T, entity=U, agent="a")) == {(U, "home.city"): ["Chicago"]}
    assert values(store.current(T, entity=U, agent="b")) == {(U, "home.city"): ["Boston"]}
    assert values(store.current(T, entity=U, agent="c")) == {(U, "home.city"): ["Detroit"]}
    # the same agent contradicting itself is an ordinary §5 conflict, in its own slot
    again = store.assert_fact(T, U, "home.city", "Denver", agent="a", asserted_by="inference")
    assert again.outcome == "conflicted"
    assert values(store.current(T, entity=U, agent="a")) == {(U, "home.city"): ["Chicago"]}
    assert store.current(T, entity=U)[0].fact_id == tenant_wide


def test_a_private_fact_shadows_the_tenant_wide_one_in_its_agents_reads(backend: Backend
                                                                       ) -> None:
    """For a cardinality-one slot the agent's private value replaces the tenant-wide one in
    its current, as_of and recall; for a cardinality-many slot both are seen."""
    store = backend.open(FakeClock())
    store.define_attribute(T, "pref.food", cardinality="many")
    wide = fid(store.assert_fact(T, U, "home.city", "Detroit"))
    mine = fid(store.assert_fact(T, U, "home.city", "Chicago", agent="a"))
    store.assert_fact(T, U, "pref.food", "ramen")
    store.assert_fact(T, U, "pref.food", "tacos", agent="a")
    want = {(U, "home.city"): ["Chicago"], (U, "pref.food"): ["ramen", "tacos"]}
    assert values(store.current(T, entity=U, agent="a")) == want
    assert values(store.current(T, agent="a")) == want
    assert values(store.as_of(T, entity=U, agent="a")) == want
    hits = recalled(store, "alex home city Detroit Chicago", agent="a")
    assert mine in hits and wide not in hits
    assert wide in recalled(store, "alex home city Detroit Chicago")


def test_supersede_by_an_agent_replaces_its_own_private_value_only(backend: Backend) -> None:
    """``supersede(..., agent='a')`` trims agent a's private value; the tenant-wide value
    and agent b's private value stay current, and a tenant-wide supersede leaves a's alone."""
    clock = FakeClock()
    store = backend.open(clock)
    store.assert_fact(T, U, "home.city", "Detroit")
    old_a = fid(store.assert_fact(T, U, "home.city", "Chicago", agent="a"))
    store.assert_fact(T, U, "home.city", "Boston", agent="b")
    clock.advance(days=1)
    new_a = store.supersede(T, U, "home.city", "Denver", agent="a")
    assert new_a.fact_ids[1:] == [old_a]  # the only fact it trimmed
    assert values(store.current(T, entity=U, agent="a")) == {(U, "home.city"): ["Denver"]}
    assert values(store.current(T, entity=U, agent="b")) == {(U, "home.city"): ["Boston"]}
    assert values(store.current(T, entity=U)) == {(U, "home.city"): ["Detroit"]}
    store.supersede(T, U, "home.city", "Miami")
    assert values(store.current(T, entity=U)) == {(U, "home.city"): ["Miami"]}
    assert values(store.current(T, entity=U, agent="a")) == {(U, "home.city"): ["Denver"]}
    chain = store.chain(T, fid(new_a), agent="a")
    assert [f.value for f in chain] == ["Chicago", "Denver"]


def test_transactions_carry_the_agent(backend: Backend) -> None:
    """The ``transact()`` block's writes take ``agent=`` and ``shared=`` like the store's."""
    store = backend.open(FakeClock())
    with store.transact() as tx:
        tx.assert_fact(T, U, "home.city", "Oslo", agent="a")
        tx.assert_fact(T, U, "work.city", "Bergen", agent="a", shared=True)
    assert values(store.current(T, entity=U)) == {(U, "work.city"): ["Bergen"]}
    assert values(store.current(T, entity=U, agent="a")) == {
        (U, "home.city"): ["Oslo"], (U, "work.city"): ["Bergen"]}


def test_operator_reads_see_every_fact_with_agent_columns(backend: Backend,
                                                          tmp_path: Path) -> None:
    """table, sql, export, replay, history and preview see private facts too, and show who
    wrote each fact and whether it is shared."""
    clock = FakeClock()
    store = backend.open(clock)
    store.assert_fact(T, U, "home.city", "Detroit")
    secret = fid(store.assert_fact(T, U, "home.city", "Chicago", agent="a"))
    store.assert_fact(T, U, "work.city", "Toledo", agent="b", shared=True)
    want = {(None, False), ("a", False), ("b", True)}
    for table in (store.table("fact_versions"), store.table("facts_current"),
                  store.sql("SELECT * FROM fact_versions", tenant=T),
                  store.replay(store.now())):
        assert {(r["agent"], r["shared"]) for r in table.to_pylist()} == want
    exported = pq.read_table(store.export(tmp_path / "snap.parquet", tenant=T))
    assert {(r["agent"], r["shared"]) for r in exported.to_pylist()} == want
    assert store.history(T, secret)
    assert secret in store.preview("forget_entity", T, U).facts


def test_notes_never_merge_private_words_into_another_scope(backend: Backend) -> None:
    """A private note close to a tenant-wide one (the merge band) is written as a new,
    private note: the tenant-wide note's text never gains the agent's words, and the
    private note reaches nobody else's current or recall."""
    store = backend.open(FakeClock())
    wide = fid(store.note(T, "project:atlas", "finding", FINDINGS[0]))
    private = store.note(T, "project:atlas", "finding", FINDINGS[0] + " Private: zebra-7.",
                         agent="a")
    assert private.outcome != "merged"
    texts = {f.fact_id: f.text for f in store.current(T, entity="project:atlas")}
    assert "zebra-7" not in texts[wide]
    if private.outcome == "applied":
        assert fid(private) not in texts
        assert fid(private) in {f.fact_id for f in store.current(T, agent="a")}
        assert fid(private) not in recalled(store, "zebra-7 checkout cache", agent="b")


def test_consolidated_members_leave_default_recall_and_name_their_pattern(backend: Backend
                                                                         ) -> None:
    """After consolidation each member's ``consolidated_into`` names the pattern in every
    agent read; recall leaves members out by default and brings them back on request."""
    store = backend.open(FakeClock())
    members = [fid(store.note(T, "project:atlas", "finding", t, gate=False)) for t in FINDINGS]
    (pattern,) = store.consolidate(T, min_cluster=3)
    pid = fid(pattern)
    into = {f.fact_id: f.consolidated_into for f in store.current(T, entity="project:atlas")}
    assert all(into[m] == pid for m in members)
    assert {f.consolidated_into for f in store.current(T, entity=f"pattern:{pid}")} <= {None}
    default = recalled(store, "checkout cache misses TTL deploy")
    assert default.isdisjoint(members) and pid in default
    full = recalled(store, "checkout cache misses TTL deploy", include_consolidated=True)
    assert set(members) <= full
    hit = next(h for h in store.recall(T, "checkout cache TTL", k=20, include_consolidated=True)
               if h.fact.fact_id == members[0])
    assert hit.fact.consolidated_into == pid


def test_an_agents_consolidation_is_private_to_it(backend: Backend) -> None:
    """``consolidate(agent='a')`` clusters what a sees and writes a pattern only a sees;
    for everyone else the members stay ordinary recall candidates."""
    store = backend.open(FakeClock())
    members = [fid(store.note(T, "project:atlas", "finding", t, gate=False, agent="a"))
               for t in FINDINGS[:2]]
    members.append(fid(store.note(T, "project:atlas", "finding", FINDINGS[2], gate=False)))
    assert store.consolidate(T, min_cluster=3) == []  # tenant-wide sees one finding only
    (pattern,) = store.consolidate(T, min_cluster=3, agent="a")
    pid = fid(pattern)
    assert pid in {f.fact_id for f in store.current(T, agent="a")}
    for reader in (None, "b"):
        assert pid not in {f.fact_id for f in store.current(T, agent=reader)}
        assert members[2] in recalled(store, "checkout cache misses TTL", agent=reader)
        assert {f.consolidated_into for f in store.current(T, agent=reader)} == {None}
    assert members[2] not in recalled(store, "checkout cache misses TTL", agent="a")
    assert store.consolidate(T, min_cluster=3, agent="a") == []  # unchanged: nothing new


def test_old_views_without_agent_columns_are_rebuilt(backend: Backend) -> None:
    """A views snapshot from before agents (no ``agent``/``shared`` columns) is replayed on
    open, so the agent reads filter correctly at once."""
    clock = FakeClock()
    store = backend.open(clock)
    secret = fid(store.assert_fact(T, U, "home.city", "Chicago", agent="a"))
    store.current(T)  # the views catch up, and close writes their snapshot
    store.close()
    manifest = backend.folder / "views" / "manifest.json"
    written = json.loads(manifest.read_text())
    written["columns"] = [c for c in written["columns"] if c not in ("agent", "shared")]
    manifest.write_text(json.dumps(written))
    store = backend.open(clock)
    assert secret not in {f.fact_id for f in store.current(T)}
    assert secret in {f.fact_id for f in store.current(T, agent="a")}


def test_retract_by_an_agent_empties_its_own_slot_only(backend: Backend) -> None:
    """``retract(..., agent='a')`` removes a's private value; the tenant-wide one is back in
    a's reads, and a tenant-wide retract leaves a's private value alone."""
    store = backend.open(FakeClock())
    store.assert_fact(T, U, "home.city", "Detroit")
    store.assert_fact(T, U, "home.city", "Chicago", agent="a")
    store.assert_fact(T, U, "home.city", "Boston", agent="b")
    store.retract(T, U, "home.city", agent="a")
    assert values(store.current(T, entity=U, agent="a")) == {(U, "home.city"): ["Detroit"]}
    store.retract(T, U, "home.city")
    assert store.current(T, entity=U) == []
    assert values(store.current(T, entity=U, agent="b")) == {(U, "home.city"): ["Boston"]}


def test_as_of_recall_filters_and_shadows_like_present_recall(backend: Backend) -> None:
    """Recall over a past belief (``known_at``) gives each agent the same candidates as the
    present one: its own private value instead of the tenant-wide one, nobody else's."""
    clock = FakeClock()
    store = backend.open(clock)
    wide = fid(store.assert_fact(T, U, "home.city", "Detroit"))
    mine = fid(store.assert_fact(T, U, "home.city", "Chicago", agent="a"))
    then = store.now()
    clock.advance(days=1)
    query = "alex home city Detroit Chicago"
    for reader, want in ((None, {wide}), ("a", {mine}), ("b", {wide})):
        assert recalled(store, query, agent=reader, known_at=then) == want
        assert recalled(store, query, agent=reader) == want
