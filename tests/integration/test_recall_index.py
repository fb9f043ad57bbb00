"""Recall over a real store: eligibility before top-k, tenant isolation, removal, as-of,
restart and embedder changes (SPEC §9, issue 4)."""

from __future__ import annotations

import datetime as dt
import importlib.util
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.clock import to_micros
from memory_es.models import Hit
from projections.embedder import HashingEmbedder, SentenceEmbedder
from projections.recall import WEIGHTS, RecallIndex, recall
from tests.conftest import StoreFactory
from tests.fakes import FakeClock

T = "acme"


class Wired:
    """A store with a recall index following its version projection."""

    def __init__(self, store: memory_es.MemoryStore, embedder: HashingEmbedder | None = None,
                 checkpoint_seconds: float = 60.0) -> None:
        self.store = store
        store.catch_up()
        own = store.runtime.recall  # one index per folder: the store's own, or a stand-in
        if own is not None and (embedder is None or own.embedder.name == embedder.name):
            self.index = own
            own.verify = True
            return
        if own is not None:  # a test of another embedder: take the store's place
            own.close()
            store.runtime.views.catchup.followers.remove(own.follow)
            store.runtime.erasables.remove(own)
        self.index = RecallIndex(lambda: store.runtime.views.con, store.path, embedder,
                                 checkpoint_seconds=checkpoint_seconds, verify=True)
        store.runtime.views.catchup.followers.append(self.index.follow)
        store.runtime.erasables.append(self.index)

    def recall(self, query: str, k: int = 8, tenant: str = T, **kw: object) -> list[Hit]:
        self.store.catch_up()
        return recall(self.index, tenant, query, k, self.store.runtime.now(), **kw)  # type: ignore[arg-type]

    def values(self, query: str, k: int = 8, tenant: str = T, **kw: object) -> list[object]:
        return [h.fact.value for h in self.recall(query, k, tenant, **kw)]

    def close(self) -> None:
        self.index.close()


@pytest.fixture
def wired(fresh_store: memory_es.MemoryStore) -> Iterator[Wired]:
    """A fresh store whose recall index follows every batch."""
    w = Wired(fresh_store)
    yield w
    w.close()
    assert w.index.last_error is None
    assert w.index.verify_misses == 0


def gone(w: Wired, fact_id: str, label: int | None) -> None:
    """The fact has no entry: not in the mirror, and its label is not in FAISS."""
    assert fact_id not in w.index
    assert label is not None
    assert label not in set(w.index.vectors.ids().tolist())
    assert w.index.vectors.ntotal == len(w.index)


# eligibility ---------------------------------------------------------------------------------


def test_superseded_value_never_recalled(wired: Wired, clock: FakeClock) -> None:
    """After a supersede, the old value is absent even for its exact text; the new one wins."""
    wired.store.assert_fact(T, "user:alex", "home.city", "Detroit")
    clock.advance(hours=1)
    wired.store.supersede(T, "user:alex", "home.city", "Chicago")
    clock.advance(minutes=1)
    for query in ("user:alex home city: Detroit", "Detroit", "where does alex live"):
        values = wired.values(query)
        assert "Detroit" not in values
    assert wired.values("where does alex live")[0] == "Chicago"


def test_long_drift_does_not_starve_top_k(wired: Wired, clock: FakeClock) -> None:
    """Fifty superseded values matching the query better do not push the current one out
    of k=1: eligibility is applied before ranking, not after."""
    wired.store.assert_fact(T, "user:alex", "pref.browser", "Browser 0",
                            text="alex default browser is Firefox build 0")
    for i in range(1, 50):
        clock.advance(minutes=1)
        wired.store.supersede(T, "user:alex", "pref.browser", f"Browser {i}",
                              text=f"alex default browser is Firefox build {i}")
    clock.advance(minutes=1)
    wired.store.supersede(T, "user:alex", "pref.browser", "Edge", text="alex switched to Edge")
    clock.advance(minutes=1)
    assert wired.values("alex default browser Firefox build 7", k=1) == ["Edge"]


def test_decayed_fact_never_recalled(wired: Wired, clock: FakeClock) -> None:
    """A released fact stays out of recall for its exact text."""
    r = wired.store.assert_fact(T, "user:alex", "session.otp", "481516")
    clock.advance(minutes=5)
    wired.store.decay(r.fact_id or "")
    clock.advance(minutes=1)
    assert wired.recall("user:alex session otp: 481516") == []
    assert wired.recall("481516") == []


def test_forgotten_entity_leaves_the_index(wired: Wired, clock: FakeClock) -> None:
    """forget_entity removes the vectors (ids and count checked); siblings survive."""
    r = wired.store.assert_fact(T, "user:alex", "home.city", "Detroit")
    wired.store.assert_fact(T, "user:alexandra", "home.city", "Detroit")
    wired.store.catch_up()
    label = wired.index.label(r.fact_id or "")
    assert wired.index.vectors.ntotal == 2
    clock.advance(minutes=1)
    wired.store.forget_entity(T, "user:alex")
    assert [h.fact.entity for h in wired.recall("user:alex home city: Detroit")] == [
        "user:alexandra"]
    gone(wired, r.fact_id or "", label)
    assert wired.index.vectors.ntotal == 1


def test_archived_fact_leaves_and_restore_brings_it_back(wired: Wired, clock: FakeClock) -> None:
    """Archive removes the vector; restore (explicit, reversible) indexes it again."""
    r = wired.store.assert_fact(T, "user:alex", "employer", "Acme Corp")
    fid = r.fact_id or ""
    wired.store.catch_up()
    label = wired.index.label(fid)
    clock.advance(minutes=1)
    wired.store.archive(fid)
    assert wired.recall("user:alex employer: Acme Corp") == []
    gone(wired, fid, label)
    clock.advance(minutes=1)
    wired.store.restore(fid)
    assert wired.values("user:alex employer: Acme Corp") == ["Acme Corp"]
    assert wired.index.label(fid) != label


def test_masked_fact_is_not_matched_by_its_content(wired: Wired, clock: FakeClock) -> None:
    """A masked fact's content is not used: its vector and postings are gone."""
    r = wired.store.assert_fact(T, "user:alex", "health.condition", "asthma")
    fid = r.fact_id or ""
    wired.store.catch_up()
    label = wired.index.label(fid)
    clock.advance(minutes=1)
    wired.store.mask(fid)
    assert wired.recall("asthma") == []
    assert wired.recall("user:alex health condition: asthma") == []
    gone(wired, fid, label)
    clock.advance(minutes=1)
    wired.store.unmask(fid)
    assert wired.values("asthma") == ["asthma"]


def test_purged_entity_leaves_no_bytes_in_the_index_file(wired: Wired, clock: FakeClock) -> None:
    """After a purge, no vector or posting remains and the index file holds no plaintext;
    the residue check reports the recall index clean."""
    r = wired.store.assert_fact(T, "user:zed", "email", "zed.secret@example.org")
    wired.store.assert_fact(T, "user:alex", "home.city", "Detroit")
    wired.store.catch_up()
    wired.index.flush()
    assert b"zed.secret@example.org" in b"".join(p.read_bytes() for p in wired.index.files())
    clock.advance(minutes=1)
    receipt = wired.store.purge(T, "user:zed")
    assert wired.recall("zed.secret@example.org") == []
    assert r.fact_id not in wired.index
    raw = b"".join(p.read_bytes() for p in wired.index.files())
    assert b"zed.secret" not in raw and b"example.org" not in raw
    report = wired.store.verify_erasure(receipt)
    check = next(c for c in report.stores if c.name == "recall_index")
    assert check.result == "clean", check


def test_retracted_and_conflicted_facts_are_not_indexed(wired: Wired, clock: FakeClock) -> None:
    """A fact retracted over all valid time has no open version and no vector; a conflicted
    assertion is not retrievable and gets none either."""
    wired.store.assert_fact(T, "prop:7797", "owner", "Dana Reyes")
    clock.advance(minutes=1)
    wired.store.retract(T, "prop:7797", "owner")
    c = wired.store.assert_fact(T, "user:alex", "home.city", "Detroit")
    clock.advance(minutes=1)
    conflicted = wired.store.assert_fact(T, "user:alex", "home.city", "Paris",
                                         asserted_by="inference")
    assert conflicted.outcome == "conflicted"
    assert wired.recall("Dana Reyes owner") == []
    assert "Paris" not in wired.values("Paris")
    assert set(wired.index.fact_ids()) == {c.fact_id}


def test_future_valid_time_is_judged_when_read(wired: Wired, clock: FakeClock) -> None:
    """A value scheduled for a future valid time is recalled once that time comes, with no
    new event."""
    later = clock.now + dt.timedelta(days=2)
    wired.store.assert_fact(T, "user:alex", "home.city", "Bergen", valid_from=later)
    assert wired.recall("Bergen") == []
    clock.set(later + dt.timedelta(minutes=1))
    assert wired.values("Bergen") == ["Bergen"]


def test_hits_carry_the_current_version_after_many_small_syncs(wired: Wired,
                                                               clock: FakeClock) -> None:
    """One sync per write (more than the mirror keeps before merging its row tables):
    every hit is still the right fact with its current value and version."""
    receipts = {}
    for i in range(80):
        receipts[i] = wired.store.assert_fact(T, f"user:u{i}", "account.id", f"acct-{i:04d}")
        wired.store.catch_up()
        clock.advance(seconds=1)
    for i in range(0, 80, 10):
        wired.store.correct(receipts[i].fact_id or "", f"acct-{i:04d}-x")
        clock.advance(seconds=1)
    assert len(wired.index.versions.tables) <= 65
    current = {f.fact_id: f for f in wired.store.current(T)}
    for i in range(0, 80, 7):
        hit = wired.recall(f"acct-{i:04d}", k=1)[0]
        assert hit.fact == current[receipts[i].fact_id or ""]
        assert hit.fact.entity == f"user:u{i}"


def test_classification_ceiling(wired: Wired) -> None:
    """Facts above the ceiling are never candidates."""
    wired.store.assert_fact(T, "user:alex", "salary", "95000", classification="confidential")
    wired.store.assert_fact(T, "user:alex", "nickname", "Al", classification="public")
    assert "95000" not in wired.values("alex salary 95000", max_classification="internal")
    assert wired.values("alex salary 95000")[0] == "95000"
    assert wired.values("alex nickname", max_classification="public") == ["Al"]
    with pytest.raises(memory_es.InvalidInput):
        wired.recall("alex", max_classification="secret")


# tenants ---------------------------------------------------------------------------------------


def test_tenants_do_not_influence_each_other(store_factory: StoreFactory, tmp_path: Path) -> None:
    """A tenant's hits and scores are the same whether or not another tenant holds many
    exactly matching facts (no leakage through candidates or BM25 statistics)."""
    def run(with_other: bool, folder: Path) -> list[tuple[str, float]]:
        w = Wired(store_factory(folder))
        w.store.assert_fact(T, "user:alex", "home.city", "Detroit")
        w.store.assert_fact(T, "user:alex", "employer", "Acme Corp")
        if with_other:
            for i in range(40):
                w.store.assert_fact("globex", f"user:u{i}", "home.city", "Detroit")
        try:
            return [(str(h.fact.value), round(h.score, 6))
                    for h in w.recall("who lives in Detroit")]
        finally:
            w.close()
    assert run(True, tmp_path / "a") == run(False, tmp_path / "b")


TENANTS = ["acme", "globex", "initech"]
ENTITIES = ["user:alex", "user:bob", "user:alexandra"]
ATTRIBUTES = ["home.city", "employer", "email"]
VALUES = ["Detroit", "Oslo", "Acme Corp", "alex@acme.io", "bob@acme.io"]


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(writes=st.lists(st.tuples(st.sampled_from(TENANTS), st.sampled_from(ENTITIES),
                                 st.sampled_from(ATTRIBUTES), st.sampled_from(VALUES),
                                 st.booleans()), min_size=1, max_size=12),
       queries=st.lists(st.tuples(st.sampled_from(TENANTS),
                                  st.sampled_from(VALUES + ENTITIES + [
                                      "where does alex live", "who employs bob"])),
                        min_size=1, max_size=6))
def test_no_cross_tenant_hit(writes: list[tuple[str, str, str, str, bool]],
                             queries: list[tuple[str, str]]) -> None:
    """Property: whatever was written, every hit belongs to the asking tenant and is one of
    that tenant's current facts."""
    with tempfile.TemporaryDirectory() as folder:
        clock = FakeClock()
        store = memory_es.open(Path(folder) / "s", clock=clock)
        w = Wired(store)
        try:
            for tenant, entity, attribute, value, supersede in writes:
                clock.advance(minutes=1)
                if supersede:
                    store.supersede(tenant, entity, attribute, value)
                else:
                    store.assert_fact(tenant, entity, attribute, value)
            clock.advance(minutes=1)
            for tenant, query in queries:
                current = {f.fact_id for f in store.current(tenant)}
                for hit in w.recall(query, k=20, tenant=tenant):
                    assert hit.fact.tenant == tenant
                    assert hit.fact.fact_id in current
            assert w.index.verify_misses == 0
        finally:
            w.close()
            store.close()


# ranking ---------------------------------------------------------------------------------------


def test_explain_parts_add_up_to_the_score(wired: Wired) -> None:
    """score = Σ WEIGHTS[part] · part, each part in [0, 1]."""
    wired.store.assert_fact(T, "user:alex", "home.city", "Detroit")
    wired.store.assert_fact(T, "user:alex", "employer", "Acme Corp", confidence=0.5,
                            asserted_by="third_party")
    hits = wired.recall("where does alex live", explain=True)
    assert hits
    for hit in hits:
        assert set(hit.parts) == set(WEIGHTS)
        assert all(0.0 <= v <= 1.0 for v in hit.parts.values())
        assert hit.score == pytest.approx(sum(WEIGHTS[p] * v for p, v in hit.parts.items()))
    assert wired.recall("where does alex live")[0].parts == {}


def test_current_recall_equals_as_of_now(wired: Wired, clock: FakeClock) -> None:
    """The index path and the as-of path (which embeds the belief on the fly) agree at
    (now, now): same facts, same order, same scores."""
    for i, city in enumerate(["Detroit", "Oslo", "Lima", "Kyiv", "Perth"]):
        wired.store.assert_fact(T, f"user:u{i}", "home.city", city)
        wired.store.assert_fact(T, f"user:u{i}", "employer", f"Company {i}")
        clock.advance(minutes=3)
    wired.store.supersede(T, "user:u1", "home.city", "Bergen")
    clock.advance(minutes=1)
    now = clock.now
    for query in ("where does u1 live", "Company 3", "Detroit", "employer"):
        fast = wired.recall(query, explain=True)
        slow = wired.recall(query, explain=True, valid_at_us=to_micros(now),
                            known_at_us=to_micros(now))
        assert [h.fact.fact_id for h in fast] == [h.fact.fact_id for h in slow]
        for a, b in zip(fast, slow, strict=True):
            assert a.score == pytest.approx(b.score, abs=1e-5)


def test_as_of_recall_returns_the_then_current_value(wired: Wired, clock: FakeClock) -> None:
    """Recall at an earlier (valid, known) point returns what was current then; a
    correction made later does not change what was believed before it."""
    wired.store.assert_fact(T, "user:alex", "pref.browser", "Firefox")
    t1 = clock.advance(days=30)
    wired.store.supersede(T, "user:alex", "pref.browser", "Chrome")
    t2 = clock.advance(days=30)
    r = wired.store.supersede(T, "user:alex", "pref.browser", "Edge")
    t3 = clock.advance(days=1)
    wired.store.correct(r.fact_id or "", "Edge Dev")
    clock.advance(days=1)
    query = "which browser does alex prefer"
    at = {name: to_micros(t - dt.timedelta(hours=1)) for name, t in
          (("t1", t1), ("t2", t2), ("t3", t3))}
    assert wired.values(query, k=1) == ["Edge Dev"]
    assert wired.values(query, k=1, valid_at_us=at["t1"], known_at_us=at["t1"]) == ["Firefox"]
    assert wired.values(query, k=1, valid_at_us=at["t2"], known_at_us=at["t2"]) == ["Chrome"]
    assert wired.values(query, k=1, valid_at_us=at["t3"], known_at_us=at["t3"]) == ["Edge"]
    assert wired.values(query, k=1, valid_at_us=at["t1"]) == ["Firefox"]


def test_as_of_recall_hides_facts_that_are_ineligible_now(wired: Wired,
                                                          clock: FakeClock) -> None:
    """Eligibility is judged now: a fact forgotten since is absent from as-of recall too."""
    wired.store.assert_fact(T, "user:dana", "home.city", "Lisbon")
    before = to_micros(clock.advance(days=1))
    wired.store.forget_entity(T, "user:dana")
    clock.advance(days=1)
    assert wired.recall("Lisbon", valid_at_us=before, known_at_us=before) == []


# persistence -------------------------------------------------------------------------------------


def test_restart_reconciles_with_duckdb(store_factory: StoreFactory, store_path: Path,
                                        clock: FakeClock) -> None:
    """Writes made while no index followed (or after its last save) are picked up when it
    reopens: new facts appear, forgotten ones leave, unchanged texts are not re-embedded."""
    store = store_factory()
    w = Wired(store)
    keep = store.assert_fact(T, "user:alex", "home.city", "Detroit")
    store.assert_fact(T, "user:bob", "home.city", "Oslo")
    w.recall("Detroit")
    w.close()
    store.runtime.views.catchup.followers.clear()
    clock.advance(minutes=1)
    store.forget_entity(T, "user:bob")
    store.assert_fact(T, "user:carol", "home.city", "Lima")
    store.catch_up()

    class Counting(HashingEmbedder):
        texts = 0

        def embed(self, texts):  # type: ignore[no-untyped-def]
            Counting.texts += len(texts)
            return super().embed(texts)

    embedder = Counting()
    index = RecallIndex(lambda: store.runtime.views.con, store.path, embedder)
    assert index.rebuilt is not None and index.rebuilt.startswith("position")
    assert index.position == store.projection_position()
    assert Counting.texts == 1  # only Lima
    assert index.fact_ids() == {keep.fact_id, *(f.fact_id for f in store.current(T)
                                                if f.value == "Lima")}
    assert [h.fact.value for h in recall(index, T, "Lima", 5, store.runtime.now())] == ["Lima"]
    index.close()


def test_unsaved_work_is_recovered_after_a_crash(store_factory: StoreFactory,
                                                 clock: FakeClock) -> None:
    """An index dropped without closing (its file older than DuckDB) is reconciled, not
    trusted: nothing is lost and nothing doubled."""
    store = store_factory()
    w = Wired(store)
    store.assert_fact(T, "user:alex", "home.city", "Detroit")
    w.recall("Detroit")
    w.index.flush()
    saved = w.index.position
    store.assert_fact(T, "user:bob", "home.city", "Oslo")
    store.catch_up()
    assert w.index.position > saved
    store.runtime.views.catchup.followers.clear()  # "crash": the index object is abandoned unsaved
    again = RecallIndex(lambda: store.runtime.views.con, store.path)
    assert again.vectors.ntotal == len(again) == 2
    assert [h.fact.value for h in recall(again, T, "Oslo", 5, store.runtime.now())] == ["Oslo"]
    again.close()


def test_embedder_change_rebuilds(store_factory: StoreFactory) -> None:
    """An index file written by another embedder is rebuilt in the new vector space, never
    mixed; reopening with the same embedder trusts the file."""
    store = store_factory()
    w = Wired(store, HashingEmbedder(256))
    store.assert_fact(T, "user:alex", "home.city", "Detroit")
    store.assert_fact(T, "user:bob", "employer", "Acme Corp")
    w.recall("Detroit")
    w.close()
    store.runtime.views.catchup.followers.clear()
    other = RecallIndex(lambda: store.runtime.views.con, store.path, HashingEmbedder(128))
    assert other.rebuilt is not None and "embedder changed" in other.rebuilt
    assert other.vectors.dim == 128
    assert {seg.index.d for seg in other.vectors.segments.values()} == {128}
    assert other.vectors.ntotal == 2
    found = recall(other, T, "Detroit", 5, store.runtime.now())
    assert [h.fact.value for h in found] == ["Detroit"]
    other.close()
    same = RecallIndex(lambda: store.runtime.views.con, store.path, HashingEmbedder(128))
    assert same.rebuilt is None
    assert same.vectors.ntotal == 2
    same.close()


def test_a_failing_sync_never_fails_the_write_and_heals(wired: Wired,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """If the recall projection fails, the write and the version projection still succeed;
    the next recall rebuilds the index from DuckDB."""
    def broken(*_: object) -> None:
        raise RuntimeError("disk full")

    monkeypatch.setattr(wired.index.vectors, "add", broken)
    wired.store.assert_fact(T, "user:alex", "home.city", "Detroit")
    wired.store.catch_up()
    assert wired.index.last_error is not None
    monkeypatch.undo()
    assert wired.values("Detroit") == ["Detroit"]
    wired.index.last_error = None


def test_rebuild_of_the_store_is_followed(wired: Wired, clock: FakeClock) -> None:
    """After store.rebuild (views dropped and replayed), a diff against DuckDB restores the
    same entries without re-embedding."""
    wired.store.assert_fact(T, "user:alex", "home.city", "Detroit")
    wired.store.assert_fact(T, "user:bob", "home.city", "Oslo")
    before = wired.values("Oslo")
    wired.store.rebuild()
    assert wired.index.rebuild() == 0
    assert wired.values("Oslo") == before
    assert np.array_equal(np.sort(wired.index.vectors.ids()), np.sort(
        np.array([wired.index.label(f) for f in wired.index.fact_ids()])))


def test_compaction_while_placing_rows_keeps_their_table() -> None:
    """Growing the version mirror mid-placement never drops the table being placed."""
    import pyarrow as pa

    from projections.recall.mirror import VersionMirror as _Versions

    versions = _Versions()
    first = versions.add_table(pa.table({"x": list(range(1024))}))
    versions.set_many(list(range(1024)), [[(0, 10, i)] for i in range(1024)], first)
    for label in range(600):  # most slots dead: the next growth compacts first
        versions.drop(label)
    second = versions.add_table(pa.table({"x": list(range(700))}))
    versions.set_many(list(range(2000, 2700)), [[(0, 10, i)] for i in range(700)], second)
    versions.compact()
    labels, slots = versions.current(5)
    assert sorted(labels.tolist()) == [*range(600, 1024), *range(2000, 2700)]
    assert versions.rows(slots.tolist()).num_rows == len(labels)


def test_semantic_embedder_connects_other_wording(tmp_path: Path) -> None:
    """With the ``semantic`` extra, the semantic channel alone finds a fact worded
    differently from the query; a superseded value still never comes back. Skipped where
    the extra is not installed, unless ``MEMORY_ES_REQUIRE_SEMANTIC=1`` (CI): then it fails."""
    if importlib.util.find_spec("sentence_transformers") is None:
        message = "the 'semantic' extra (sentence-transformers) is not installed"
        if os.environ.get("MEMORY_ES_REQUIRE_SEMANTIC", "") == "1":
            pytest.fail(message + "; MEMORY_ES_REQUIRE_SEMANTIC=1 makes this a failure",
                        pytrace=False)
        pytest.skip(message)
    store = memory_es.open(tmp_path / "store", embedder=SentenceEmbedder())
    try:
        store.assert_fact("acme", "user:alex", "home.city", "Detroit",
                          text="Alex lives in Detroit")
        store.assert_fact("acme", "user:alex", "pet.name", "Rex",
                          text="Alex has a dog called Rex")
        store.supersede("acme", "user:alex", "home.city", "Oslo", text="Alex moved to Oslo")
        hits = store.recall("acme", "which town is alex's home", k=1, channels=("semantic",))
        assert [h.fact.value for h in hits] == ["Oslo"]
        hits = store.recall("acme", "what animal does alex own", k=1, channels=("semantic",))
        assert [h.fact.value for h in hits] == ["Rex"]
        everything = store.recall("acme", "where did alex live", k=8)
        assert "Detroit" not in [h.fact.value for h in everything]
    finally:
        store.close()


def test_a_rebuild_re_diffs_only_the_facts_whose_rows_it_changed(
        wired: Wired, monkeypatch: pytest.MonkeyPatch) -> None:
    """When the index mirrors the views a rebuild replaces, only the facts whose rows or
    ledgers the replay changed are diffed again, not every fact: a fact the old views (and
    so the index) held wrongly as revoked is found again after the rebuild."""
    store = wired.store
    store.assert_fact(T, "user:alex", "home.city", "Detroit")
    wrong = store.assert_fact(T, "user:bob", "home.city", "Oslo").fact_ids[0]
    store.catch_up()
    store.runtime.views.con.execute(
        "UPDATE fact_versions SET present_state = 'forgotten' WHERE fact_id = ?", [wrong])
    wired.index.sync([wrong], store.runtime.views.position())  # mirrors the wrong rows
    assert wired.values("Oslo") == []
    diffed: list[list[str] | None] = []
    sync = wired.index.sync

    def recorded(fact_ids: list[str] | None, position: int) -> int:
        diffed.append(fact_ids if fact_ids is None else sorted(fact_ids))
        return sync(fact_ids, position)

    monkeypatch.setattr(wired.index, "sync", recorded)
    store.rebuild()
    assert diffed == [[wrong]]
    assert wired.values("Oslo") == ["Oslo"]
    assert wired.values("Detroit") == ["Detroit"]


def test_an_index_of_an_older_format_is_rebuilt(store_factory: StoreFactory) -> None:
    """An index saved in format 3 lacks the bigram terms of unspaced scripts: it is
    rebuilt on open, not queried with terms it never held."""
    import json

    from projections.recall import persist

    store = store_factory()
    w = Wired(store, HashingEmbedder(256))
    store.assert_fact(T, "person:chen", "hobby", "陈国华每周日在人民公园教退休老人拉二胡")
    w.recall("陈国华")
    manifest = w.index.path / persist.MANIFEST
    w.close()
    store.runtime.views.catchup.followers.clear()
    meta = json.loads(manifest.read_text())
    manifest.write_text(json.dumps({**meta, "format": 3}))
    again = RecallIndex(lambda: store.runtime.views.con, store.path, HashingEmbedder(256))
    assert again.rebuilt is not None and "format 3" in again.rebuilt
    found = recall(again, T, "退休老人", 5, store.runtime.now())
    assert [h.fact.entity for h in found] == ["person:chen"]
    again.close()
