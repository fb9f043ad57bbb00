"""A totality word quantifies what follows it (SPEC §15: nothing of a person changes
that the query does not name): ``all of Mia's allergies`` is every allergy of hers and
nothing else, ``everything about Mia's job`` her facts of the work topic; only a query
that says nothing beyond the person (``everything about Mia``, ``all you know about
Mia``, ``Mia's personal data``, ``Alice the data scientist``) is the whole person."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from tests.unit.text_support import current_texts, fresh_tenant

_SLOW = settings(max_examples=10, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])
BACKGROUND = ["Mia Chen lives in Leeds", "Mia Chen plays the violin",
              "Mia Chen drives a blue Volvo", "Tom Berg lives in Leeds"]
# the thing asked for, the facts of it (a reference model written as data)
THINGS = {"allergies": ["Mia Chen is allergic to latex", "Mia Chen is allergic to penicillin"],
          "phone numbers": ["Mia Chen's phone number is +44 7700 900123"],
          "job": ["Mia Chen works at Acme as a nurse"]}
QUANTIFIERS = ["all of Mia Chen's {}", "everything about Mia Chen's {}",
               "any details of Mia Chen's {}"]


@_SLOW
@given(st.sampled_from(sorted(THINGS)), st.sampled_from(QUANTIFIERS),
       st.sampled_from(["release", "forget"]))
def test_all_of_a_thing_is_that_thing_only(fresh_store: memory_es.MemoryStore, thing: str,
                                           quantified: str, op: str) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    held = [fact for facts in THINGS.values() for fact in facts]
    for text in (*BACKGROUND, *held):
        ti.remember(tenant, text + ".")
    getattr(ti, op)(tenant, quantified.format(thing))
    assert current_texts(fresh_store, tenant) == set(BACKGROUND) | (set(held) - set(THINGS[thing]))


@pytest.mark.parametrize("query", ["everything about Mia Chen", "all you know about Mia Chen",
                                   "Mia Chen's personal data", "all of Mia Chen's information",
                                   "everything about Mia Chen the violinist this year"])
def test_all_of_the_person_is_the_whole_person(fresh_store: memory_es.MemoryStore,
                                               query: str) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for text in BACKGROUND:
        ti.remember(tenant, text + ".")
    ti.forget(tenant, query)
    assert current_texts(fresh_store, tenant) == {"Tom Berg lives in Leeds"}


def test_all_of_a_thing_the_person_lacks_is_nothing(fresh_store: memory_es.MemoryStore) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for text in BACKGROUND:
        ti.remember(tenant, text + ".")
    result = ti.forget(tenant, "all of Mia Chen's pets")
    assert result.touched == [] and current_texts(fresh_store, tenant) == set(BACKGROUND)


@pytest.mark.parametrize("op", ["forget", "release"])
def test_everything_about_her_job_leaves_a_relatives_job(
        fresh_store: memory_es.MemoryStore, op: str) -> None:
    """``everything about Nora Ash's job`` is her facts of the work topic; ``Nora Ash's
    sister works at Sky``, kept under her id, is the sister's job and stays."""
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    kept = {"Nora Ash lives in Isleworth", "Nora Ash's sister works at Sky"}
    for text in (*kept, "Nora Ash works at Sky"):
        ti.remember(tenant, text + ".")
    getattr(ti, op)(tenant, "everything about Nora Ash's job")
    assert current_texts(fresh_store, tenant) == kept
