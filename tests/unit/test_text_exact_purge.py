"""A purge by identifiers alone looks the identifiers up instead of ranking the tenant.

``purge_matching`` of a text made only of identifiers takes its candidates from
``store.holding`` (the facts that hold the query's keyword terms, unranked) instead of
``store.recall``; recall stays the path of every other text and of a lookup that finds
nothing carrying the identifier. The two paths must select, preview and erase the same
facts: these tests run both on one store (and on two copies of it, to erase).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import memory_es
from memory_es.models import Fact
from memory_es.text import TextInterface
from memory_es.text.interface import CANDIDATES, TextResult
from tests.fakes import FakeClock

T = "acme"

TEXTS = [
    "Ana Lima's e-mail is ana.lima@corp.io.",
    "Ana Lima lives in Porto.",
    "Ana Lima's work address is ana.lima+work@corp.io.",
    "Ben Okafor's e-mail is ben@corp.io.",
    "Ben Okafor and Ana Lima share the inbox ops@corp.io.",
    "Chidi Eze forwards alerts to ops@corp.io.",
    "Dana Roy's e-mail is dana at corp dot io.",
    "Ben Okafor's phone is +44 20 7946 0958.",
    "Ana Lima can be called on 020 7946 0958.",
    "Chidi Eze's mobile is (415) 555-0123.",
    "Dana Roy's number is 0161 496 0500.",
    "Ana Lima's badge is MRN-45678.",
    "Ben Okafor's order ABC123 shipped on Monday.",
    "The staging key is sk_live_9fQ2xZ7LmN4p.",
    "Eve Park's e-mail is eve@old.io.",
]
"""People who share identifiers and people who do not: e-mails (one shared, one with a
sub-address, one written out), phone numbers in several forms, codes and a key."""

QUERIES = [
    "ana.lima@corp.io", "ANA.LIMA@CORP.IO", "ops@corp.io", "ben@corp.io", "dana@corp.io",
    "+44 20 7946 0958", "020 7946 0958", "0044 20 7946 0958", "(415) 555-0123",
    "415-555-0123", "0161 496 0500", "MRN-45678", "ABC123", "sk_live_9fQ2xZ7LmN4p",
    "eve@old.io", "eve@new.io", "nobody@corp.io", "ana.lima@corp.io ben@corp.io",
]


def _fill(store: memory_es.MemoryStore) -> None:
    ti = TextInterface(store)
    for text in TEXTS:
        ti.remember(T, text)
    ti.remember("other", "Ana Lima's e-mail is ana.lima@corp.io.")
    ti.revise(T, "Eve Park's e-mail", "Eve Park's e-mail is eve@new.io.")


@pytest.fixture
def filled(tmp_path: Path) -> Iterator[memory_es.MemoryStore]:
    store = memory_es.open(tmp_path / "m", clock=FakeClock())
    _fill(store)
    yield store
    store.close()


def _general(ti: TextInterface) -> TextInterface:
    """The interface with the exact lookup off: every purge ranks, as before."""
    ti._held_terms = lambda tenant, text: None  # type: ignore[method-assign]  # noqa: SLF001
    return ti


def _counting(store: memory_es.MemoryStore) -> list[str]:
    """The queries ``store.recall`` is asked from now on."""
    calls: list[str] = []
    recall = store.recall

    def counted(tenant: str, query: str, k: int = 8, **kw: Any) -> Any:
        calls.append(query)
        return recall(tenant, query, k, **kw)

    store.recall = counted  # type: ignore[method-assign]
    return calls


def test_both_paths_select_the_same_facts(filled: memory_es.MemoryStore) -> None:
    """Each query selects what the ranked candidates select (targets, as sets: the lookup
    finds facts in label order, recall in rank order); the lookup alone decides for every
    query whose identifier a current fact carries."""
    exact, general = TextInterface(filled), _general(TextInterface(filled))
    calls = _counting(filled)
    unranked = 0
    for q in QUERIES:
        before = len(calls)
        got = {t.model_dump_json() for t in exact.match(T, q, purpose="purge")}
        unranked += len(calls) == before
        assert got == {t.model_dump_json() for t in general.match(T, q, purpose="purge")}, q
    assert unranked == len(QUERIES) - 2  # eve@old.io was revised, nobody@ names no one


def test_a_purge_by_identifier_ranks_nothing(filled: memory_es.MemoryStore) -> None:
    """An identifier a fact carries is purged without a recall; one no fact carries
    still reports the nearest candidates, which only a ranking finds."""
    ti = TextInterface(filled)
    calls = _counting(filled)
    res = ti.purge_matching(T, "ben@corp.io", compact="deferred")
    assert res.touched and calls == []
    res = ti.purge_matching(T, "nobody@corp.io")
    assert not res.touched and res.targets and calls


def _comparable(res: TextResult) -> dict[str, Any]:
    """A result without what differs between two runs of one purge (tokens, receipts'
    times and signatures), lists as sets: the lookup finds facts in label order, recall
    in rank order."""
    return {
        "touched": set(res.touched), "note": res.note, "pending": set(res.pending),
        "targets": {t.model_dump_json() for t in res.targets},
        "previews": {p.model_copy(update={"token": ""}).model_dump_json()
                     for p in res.previews},
        "receipts": {(r.fact_ids and tuple(sorted(r.fact_ids)), r.outcome)
                     for r in res.receipts},
    }


def test_both_paths_erase_the_same_facts(tmp_path: Path) -> None:
    """Two copies of one store, every query purged in turn on each (without, then with
    confirmation): the same results, and the same facts left."""
    first = memory_es.open(tmp_path / "a", clock=FakeClock())
    _fill(first)
    first.close()
    shutil.copytree(tmp_path / "a", tmp_path / "b")
    stores = [memory_es.open(tmp_path / name, clock=FakeClock()) for name in ("a", "b")]
    try:
        exact, general = TextInterface(stores[0]), _general(TextInterface(stores[1]))
        for q in QUERIES:
            for confirm in (False, True):
                got = [_comparable(ti.purge_matching(T, q, confirm=confirm, compact="deferred"))
                       for ti in (exact, general)]
                assert got[0] == got[1], (q, confirm)
        left = [{f.fact_id for f in s.current(T)} for s in stores]
        assert left[0] == left[1]
        assert len(left[0]) < len(TEXTS)
    finally:
        for s in stores:
            s.close()


def _ids(facts: list[Fact] | None) -> set[str]:
    assert facts is not None
    return {f.fact_id for f in facts}


FINDINGS = [
    "We found the checkout cache misses doubled because the TTL was too short after deploy.",
    "We observed checkout cache misses doubled when the TTL was too short, so that is why.",
    "We noticed the checkout cache misses doubled because the TTL was short after a deploy.",
]


@pytest.mark.parametrize("agent", [None, "a", "b"])
def test_holding_admits_what_recall_ranks(fresh_store: memory_es.MemoryStore,
                                          agent: str | None) -> None:
    """``holding`` judges eligibility label by label; recall with the whole mask. For
    every reader both see the same facts: another tenant's, superseded, retracted and
    other agents' private facts are out, an agent's private value shadows the tenant-wide
    one in its reads, and the members of a pattern the reader sees leave with it."""
    s = fresh_store
    s.assert_fact(T, "user:alex", "home.city", "Detroit", text="alex lives in Detroit TTL")
    s.assert_fact(T, "user:alex", "home.city", "Chicago", agent="a",
                  text="alex lives in Chicago TTL")
    s.assert_fact(T, "user:alex", "pet", "cat", agent="b", text="alex has a cat TTL")
    old = s.assert_fact(T, "user:kim", "home.city", "Oslo", text="kim lives in Oslo TTL")
    s.supersede(T, "user:kim", "home.city", "Bergen", text="kim lives in Bergen TTL")
    s.assert_fact(T, "user:lee", "job", "cook", text="lee cooks TTL")
    s.retract(T, "user:lee", "job")
    s.assert_fact("other", "user:alex", "home.city", "Lima", text="alex lives in Lima TTL")
    for text in FINDINGS:
        s.note(T, "project:atlas", "finding", text, gate=False, agent="a")
    for text in FINDINGS:
        s.note(T, "project:zeta", "finding", text.replace("checkout", "payment"), gate=False)
    assert s.consolidate(T, min_cluster=3)
    assert s.consolidate(T, min_cluster=3, agent="a")
    for n in range(30):  # a term in nearly every fact still has weight in BM25
        s.assert_fact(T, f"item:{n}", "label", n, text=f"item {n} is filed")
    for query in ("TTL", "alex lives Detroit Chicago", "checkout cache", "payment TTL",
                  "kim Oslo Bergen", "lee cooks", "misses doubled deploy"):
        ranked = {h.fact.fact_id for h in s.recall(T, query, k=1000, channels=("keyword",),
                                                    agent=agent)}
        assert _ids(s.holding(T, query, most=1000, agent=agent)) == ranked, query
    assert old.fact_id not in _ids(s.holding(T, "Oslo", most=1000))


def test_holding_skips_common_pieces_and_declines_common_identifiers(
        fresh_store: memory_es.MemoryStore) -> None:
    """A piece of the query more facts hold than ``most`` says nothing and is left out;
    a whole identifier held that widely, or more facts found than ``most``, declines
    (``None``): a ranking must choose."""
    s = fresh_store
    for n in range(6):
        s.assert_fact(T, f"person:p{n}", "contact.email", f"p{n}@corp.io",
                      text=f"P{n}'s e-mail is p{n}@corp.io")
    for n in range(4):
        s.assert_fact(T, "person:p0", f"case.{'abcd'[n]}", n,
                      text=f"p0@corp.io was used in case {n}")
    assert len(_ids(s.holding(T, "p3@corp.io", most=5))) == 1  # corp.io (10 facts) skipped
    assert len(_ids(s.holding(T, "p3@corp.io", most=10))) == 10  # every fact of corp.io
    assert s.holding(T, "p0@corp.io", most=4) is None  # the address itself is in 5
    assert s.holding(T, "p0@corp.io", most=5) is not None
    assert s.holding(T, "p3@corp.io p4@corp.io p5@corp.io", most=2) is None  # 3 found
    assert s.holding(T, "   ", most=5) == []
    assert CANDIDATES == 64
