"""A query that does not say which of several things it means ends nothing (SPEC §15):
one owner's thing when the facts it matches are of several owners and none it names is
known (``Mia's gym membership`` with two Mias, ``her gym membership`` with no one
before it), and a noun whose kinds the facts tell apart and the query does not
(``Ines's number``: her phone number or her locker number). A kind of thing (``gym
memberships``), the kind said (``locker number``) or the plural end what they match.
A phone number written as one digit run is the phone number."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from tests.unit.text_support import current_texts, fresh_tenant

_SLOW = settings(max_examples=8, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])
_MIAS = {"Mia Lund has a gym membership", "Mia Berg has a gym membership",
         "Mia Lund lives in Oslo"}


def _tenant(store: memory_es.MemoryStore, texts: set[str]) -> tuple[str, TextInterface]:
    tenant, ti = fresh_tenant(), TextInterface(store)
    for text in sorted(texts):
        ti.remember(tenant, text + ".")
    return tenant, ti


@_SLOW
@given(st.sampled_from(["Mia's gym membership", "her gym membership", "his gym membership"]))
def test_one_owners_thing_among_several_owners_ends_nothing(
        fresh_store: memory_es.MemoryStore, query: str) -> None:
    tenant, ti = _tenant(fresh_store, _MIAS)
    result = ti.release(tenant, query)
    assert result.touched == []
    assert current_texts(fresh_store, tenant) == _MIAS


def test_a_kind_of_thing_ends_every_one(fresh_store: memory_es.MemoryStore) -> None:
    tenant, ti = _tenant(fresh_store, _MIAS)
    ti.release(tenant, "gym memberships")
    assert current_texts(fresh_store, tenant) == {"Mia Lund lives in Oslo"}


_INES = {"Ines Caro's phone number is +34 612 345 678", "Ines Caro's locker number is 214",
         "Ines Caro lives in Seville"}


@_SLOW
@given(st.sampled_from([("Ines's number", set()), ("Ines Caro's number", set()),
                        ("Ines's locker number", {"Ines Caro's locker number is 214"}),
                        ("Ines Caro's numbers", {"Ines Caro's locker number is 214",
                                                 "Ines Caro's phone number is +34 612 345 678"})]))
def test_a_noun_whose_kind_is_not_said(fresh_store: memory_es.MemoryStore,
                                       asked: tuple[str, set[str]]) -> None:
    query, ended = asked
    tenant, ti = _tenant(fresh_store, _INES)
    ti.release(tenant, query)
    assert current_texts(fresh_store, tenant) == _INES - ended


def test_a_phone_number_as_one_digit_run(fresh_store: memory_es.MemoryStore) -> None:
    mine, theirs = ("Pablo Caro's phone number is +34 612 345 679",
                    "Ines Caro's phone number is +34 612 345 678")
    tenant, ti = _tenant(fresh_store, {mine, theirs})
    ti.purge_matching(tenant, "612345679")
    assert current_texts(fresh_store, tenant) == {theirs}
