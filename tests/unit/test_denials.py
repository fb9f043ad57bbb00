"""Denials below and above the store: old events, recall documents, text revisions.

A denial is a fact flagged ``negated`` on its own slot. Events written before the flag
existed must load as positive facts; a denial's recall document must read as one; a
text revision that replaces a denial must not leave it standing beside the new value.
"""

from __future__ import annotations

from typing import Any

import memory_es
from memory_es.domain.entity import EntityState
from memory_es.domain.events import FactAsserted, FactContent
from memory_es.text import TextInterface
from memory_es.text.matching import NEGATION_TERM, view
from projections.recall.documents import digest, document
from projections.versions import CONTENT, _content

T = "acme"

OLD_CONTENT: dict[str, Any] = {  # a content as events sealed before denials existed hold it
    "tenant": T, "entity": "user:mia", "mention": None, "attribute": "home.city",
    "chain_id": "c1", "value": "Oslo", "text": "Mia lives in Oslo", "source": None,
    "asserted_by": "user", "volatility": "stable", "confidence": 1.0, "importance": 0.5,
    "classification": "internal", "derived_from": [], "supersedes": [], "rev": 0,
    "agent": None, "shared": False}


def test_an_event_written_before_denials_loads_as_a_positive_fact() -> None:
    """The event model, the aggregate's fold and the version rows all default the flag."""
    assert FactContent.model_validate(OLD_CONTENT).negated is False
    body = {"tenant": T, "changes": [{"fact_id": "s1-1", "portions": [[0, None]],
                                      "state": "active", "content": OLD_CONTENT}]}
    FactAsserted.model_validate(body)
    state = EntityState("s1")
    state.apply(FactAsserted.TOPIC, body)
    assert state.facts["s1-1"].negated is False
    assert _content(OLD_CONTENT, "s1")[CONTENT.index("negated")] is False
    assert _content({**OLD_CONTENT, "negated": True}, "s1")[CONTENT.index("negated")] is True


def test_a_denials_document_reads_as_a_denial() -> None:
    """Prefixed with ``not`` unless its text already denies; other facts are unchanged."""
    assert document("Mia lives in Oslo", "user:mia", None, "home.city",
                    negated=True).startswith("not Mia lives in Oslo")
    said = "Mia does not live in Oslo"
    assert document(said, "user:mia", None, "home.city", negated=True).startswith(said)
    assert document("Mia lives in Oslo", "user:mia", None, "home.city").startswith("Mia")


def test_a_denial_without_text_is_written_as_one(fresh_store: memory_es.MemoryStore) -> None:
    """The default text of a denial says ``not``: recall cannot serve it as the value."""
    r = fresh_store.assert_fact(T, "user:mia", "home.city", "Oslo", negated=True)
    [fact] = fresh_store.current(T)
    assert fact.fact_id == r.fact_id and fact.negated and fact.text.endswith(": not Oslo")


def test_targeting_sees_a_denial_as_negated_whatever_its_text(
        fresh_store: memory_es.MemoryStore) -> None:
    """A denial written with a text that does not say ``not`` still carries the
    negation term that text queries are matched on; the same text, positive, does not."""
    fresh_store.assert_fact(T, "user:mia", "home.city", "Oslo", text="Mia, Oslo", negated=True)
    fresh_store.assert_fact(T, "user:kai", "home.city", "Oslo", text="Kai, Oslo")
    terms = {f.entity: view(f).terms for f in fresh_store.current(T)}
    assert NEGATION_TERM in terms["user:mia"] and NEGATION_TERM not in terms["user:kai"]


def test_revising_a_denial_with_a_value_releases_the_denial(
        fresh_store: memory_es.MemoryStore) -> None:
    """The new value's supersession does not end a denial of another value (they stand
    side by side), so a revision that replaces the denial releases it."""
    text = TextInterface(fresh_store)
    text.remember(T, "Omar does not own a car.")
    text.remember(T, "Omar prefers tea.")
    [denial] = [f for f in fresh_store.current(T) if f.negated]
    result = text.revise(T, "Omar's car", "Omar owns a Volvo now.")
    assert denial.fact_id in result.touched
    now = fresh_store.current(T)
    assert not [f for f in now if f.negated]
    assert {f.text for f in now} >= {"Omar prefers tea"} and any("Volvo" in f.text for f in now)


def test_revising_a_value_with_a_denial_writes_the_denial(
        fresh_store: memory_es.MemoryStore) -> None:
    """The matched value is released and the denial is stored flagged, on the same slot."""
    text = TextInterface(fresh_store)
    text.remember(T, "Mia lives in Bergen.")
    text.revise(T, "Mia's city", "Mia does not live in Bergen.")
    assert {(f.attribute, f.value, f.negated) for f in fresh_store.current(T)} == {
        ("home.city", "Bergen", True)}



def test_the_recall_index_holds_a_denial_under_its_denying_document(
        fresh_store: memory_es.MemoryStore) -> None:
    """A denial whose own text reads positively is indexed under its document, which says
    ``not`` (what a sentence embedder reads; the default embedder and BM25 skip ``not``)."""
    store = fresh_store
    fid = store.assert_fact("t", "person:mia", "home.city", "Oslo", negated=True,
                            text="Mia lives in Oslo").fact_id
    assert fid is not None
    store.recall("t", "Mia", k=1)  # the index follows the log
    denying = document("Mia lives in Oslo", "person:mia", None, "home.city", negated=True)
    assert denying.startswith("not ")
    assert store.runtime.recall.digest_of(fid) == digest(denying)


def test_a_negated_supersede_ends_only_what_it_denies(fresh_store: memory_es.MemoryStore,
                                                       clock: Any) -> None:
    """``supersede(..., negated=True)`` ends the positive fact of the denied value over its
    period, and leaves another value of the slot standing (a cardinality-many slot)."""
    store = fresh_store
    store.define_attribute("t", "pet.name", cardinality="many")
    store.assert_fact("t", "person:mia", "pet.name", "Rex")
    store.assert_fact("t", "person:mia", "pet.name", "Tom")
    clock.advance(minutes=1)
    store.supersede("t", "person:mia", "pet.name", "Rex", negated=True)
    assert {(f.value, f.negated) for f in store.current("t", entity="person:mia")} == {
        ("Rex", True), ("Tom", False)}
