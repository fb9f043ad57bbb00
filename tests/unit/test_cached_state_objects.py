"""What a cached fact costs the cyclic collector (issue 16: a batched write grew slower
as the store grew, because the collector's full passes scanned every cached fact)."""

from __future__ import annotations

import gc
import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from pydantic_core import to_json

import memory_es
from memory_es.domain.entity import NO_DEPENDENTS, EntityState, FactState, settled
from memory_es.domain.events import DependentLinked, FactAsserted, FactCorrected
from memory_es.ids import stream_of

STREAM = "0190c1d2-3e4f-7000-8000-00000000b2f6"
FACT = f"{STREAM}-1"


def _tracked_parts(fact: FactState) -> list[object]:
    """The objects the collector tracks that belong to this fact alone."""
    parts: list[object] = [fact, fact.portions, *fact.portions, fact.content,
                           *fact.content.values(), fact.dependents, fact.earlier]
    return [p for p in parts if gc.is_tracked(p) and p is not NO_DEPENDENTS]


def _check_lean(fact: FactState) -> None:
    gc.collect()  # tuples of untracked items are untracked by a pass
    assert not gc.is_tracked(fact.content)
    assert fact.dependents is NO_DEPENDENTS
    assert fact.content["derived_from"] == () and fact.content["supersedes"] == ()
    assert len(_tracked_parts(fact)) == 3  # the fact, its portions list and their interval


def test_a_fact_written_in_a_batch_holds_three_tracked_objects(
        fresh_store: memory_es.MemoryStore) -> None:
    """A new fact alone in its slot, cached after its commit, holds an untracked content
    dict and no dependents set of its own: three objects for a full pass to scan."""
    with fresh_store.transact() as tx:
        receipts = [tx.assert_fact("acme", f"user:u{k}", "home.city", f"city {k}")
                    for k in range(3)]
    side = fresh_store.runtime.side
    for receipt in receipts:
        fact_id = str(receipt.fact_id)
        _check_lean(side.load(stream_of(fact_id)).facts[fact_id])


def test_a_fact_loaded_from_the_log_holds_three_tracked_objects(
        fresh_store: memory_es.MemoryStore) -> None:
    """A cold load folds the same lean fact as the write that made it."""
    receipt = fresh_store.assert_fact("acme", "user:alex", "home.city", "Oslo")
    side = fresh_store.runtime.side
    side.forget_cached()
    fact_id = str(receipt.fact_id)
    _check_lean(side.load(stream_of(fact_id)).facts[fact_id])


def _content(value: str, rev: int, derived: list[str]) -> dict[str, Any]:
    return {"tenant": "acme", "entity": "user:alex", "mention": None,
            "attribute": "home.city", "chain_id": "chain-1", "value": value,
            "negated": False, "text": value, "source": None, "asserted_by": "user",
            "volatility": "stable", "confidence": 1.0, "importance": 0.5,
            "classification": "internal", "derived_from": derived, "supersedes": [],
            "rev": rev, "agent": None, "shared": False}


@given(st.lists(st.tuples(st.text(min_size=1, max_size=8),
                          st.lists(st.text(min_size=1, max_size=4), max_size=2)),
                min_size=1, max_size=6))
def test_revisions_and_contents_follow_the_events(changes: list[tuple[str, list[str]]]) -> None:
    """Folding a fact's assertion and its corrections keeps every content in order
    (``revisions``, the present one last), each with the JSON its event carried: a list
    reference model beside the fold."""
    state = EntityState(STREAM)
    model: list[dict[str, Any]] = []
    for rev, (value, derived) in enumerate(changes):
        content = _content(value, rev, derived)
        model.append(json.loads(json.dumps(content)))
        change = {"fact_id": FACT, "portions": [[0, None]], "state": "active",
                  "content": content, "superseded_by": None, "verified_at": None}
        topic = FactAsserted.TOPIC if rev == 0 else FactCorrected.TOPIC
        state.apply(topic, {"tenant": "acme", "changes": [change]})
    fact = state.facts[FACT]
    assert [json.loads(to_json(c)) for c in fact.revisions] == model
    assert fact.content is fact.revisions[-1]
    assert json.loads(to_json(fact.content)) == model[-1]


@given(st.dictionaries(st.sampled_from(["derived_from", "supersedes", "value", "text"]),
                       st.one_of(st.lists(st.text(max_size=3), max_size=2), st.text(max_size=3),
                                 st.none())))
def test_settled_content_writes_the_same_json(content: dict[str, Any]) -> None:
    """Settling changes no JSON, and turns only an empty ``derived_from`` or
    ``supersedes`` into the empty tuple."""
    before = to_json(content)
    expected = {k: () if k in ("derived_from", "supersedes") and v == [] else v
                for k, v in content.items()}
    assert to_json(settled(dict(content))) == before
    assert settled(dict(content)) == expected


def test_a_dependent_link_gives_the_premise_its_own_set() -> None:
    """Linking a dependent replaces the shared empty set with the premise's own, and a
    copy-on-write copy's link never shows in the original."""
    state = EntityState(STREAM)
    content = _content("Oslo", 0, [])
    state.apply(FactAsserted.TOPIC, {"tenant": "acme", "changes": [{
        "fact_id": FACT, "portions": [[0, None]], "state": "active", "content": content}]})
    state.owned.clear()
    copy = state.copy()
    copy.apply(DependentLinked.TOPIC, {"tenant": "acme", "premise": FACT, "dependent": "d-1"})
    assert copy.facts[FACT].dependents == {"d-1"}
    assert state.facts[FACT].dependents is NO_DEPENDENTS
