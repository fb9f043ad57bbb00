"""What a sentence says before its subject, and slots named two ways (SPEC §15).

- A sentence adverb before the subject (``Now …``, ``Actually, …``, ``In fact, …``) marks
  a change as it does after the subject: the statement replaces the value its slot held.
  ``Also, …`` adds and ``Still, …`` continues, as after the subject.
- ``X's manager is Y`` and ``X reports to Y`` name one slot (``work.manager``), so either
  replaces the other; a manager of something else (``bank manager``) is a slot of its own.
- A German proper name in the genitive (``Paul Richters Hund``) is looked up without its
  ``-s`` when a noun it owns follows; at the end of a query it stays as written.

The reference model is the list of facts each case writes, each kept or ended as the rule
says.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from memory_es.text.interpreter import interpret
from tests.unit.text_support import current_texts, fresh_tenant

_KEPT = ["Ruth Cole plays the piano.", "Ruth Cole works in the Bristol office.",
         "Ben Okoro lives in Leeds."]
# (the fact, a statement of its slot with the change said before the subject)
_LEADS = [("Ruth Cole lives in Leeds.", "{lead} Ruth Cole lives in York."),
          ("Ruth Cole's VPN username is rcole.", "{lead} Ruth Cole's VPN username is ruth.cole."),
          ("Ruth Cole drives a Saab.", "{lead} Ruth Cole drives a Volvo.")]
_CHANGE_LEADS = ["Now", "Actually,", "In fact,"]


@settings(max_examples=18, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(_LEADS), st.sampled_from(_CHANGE_LEADS))
def test_a_change_said_before_the_subject_replaces_the_slot(
        fresh_store: memory_es.MemoryStore, case: tuple[str, str], lead: str) -> None:
    old, template = case
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for text in [old, *_KEPT]:
        ti.remember(tenant, text)
    ti.remember(tenant, template.format(lead=lead))
    texts = current_texts(fresh_store, tenant)
    assert old.rstrip(".") not in texts
    assert {k.rstrip(".") for k in _KEPT} <= texts
    assert template.format(lead=lead).rstrip(".") in texts


def test_an_addition_said_before_the_subject_keeps_what_was_held(
        fresh_store: memory_es.MemoryStore) -> None:
    """A guard: ``Also,`` before the subject adds, as ``also`` after it does."""
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for text in _KEPT:
        ti.remember(tenant, text)
    ti.remember(tenant, "Also, Ruth Cole plays the cello.")
    assert {"Ruth Cole plays the piano", "Also, Ruth Cole plays the cello"} <= current_texts(
        fresh_store, tenant)


_MANAGED = [("Ruth Cole reports to Ian Marsh.", "Ruth Cole's new manager is Sara Lind."),
            ("Ruth Cole's boss is Ian Marsh.", "Ruth Cole now reports to Sara Lind."),
            ("Ruth Cole's supervisor is Ian Marsh.", "Ruth Cole now reports to Sara Lind."),
            ("Ruth Cole reports to Ian Marsh.", "Ruth Cole's boss is now Sara Lind.")]


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(_MANAGED))
def test_a_manager_named_either_way_is_one_slot(fresh_store: memory_es.MemoryStore,
                                                case: tuple[str, str]) -> None:
    old, new = case
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for text in [old, "Ben Okoro reports to Ian Marsh.", *_KEPT]:
        ti.remember(tenant, text)
    ti.remember(tenant, new)
    texts = current_texts(fresh_store, tenant)
    assert old.rstrip(".") not in texts
    assert new.rstrip(".") in texts
    assert "Ben Okoro reports to Ian Marsh" in texts


def test_a_manager_of_something_else_is_another_slot(
        fresh_store: memory_es.MemoryStore) -> None:
    """A guard: ``bank manager`` is no ``work.manager``."""
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    ti.remember(tenant, "Ruth Cole reports to Ian Marsh.")
    ti.remember(tenant, "Ruth Cole's bank manager is now Sara Lind.")
    assert "Ruth Cole reports to Ian Marsh" in current_texts(fresh_store, tenant)


_RICHTER = ["Paul Richter spielt Handball.", "Paul Richter hat einen Hund.",
            "Paul Richter arbeitet bei der Post.", "Maria Richter hat einen Hund."]


@pytest.mark.parametrize("query", ["Vergiss Paul Richters Hund", "Paul Richters Hund"])
def test_a_german_genitive_names_the_person(fresh_store: memory_es.MemoryStore,
                                            query: str) -> None:
    """With a German verb to tell the language by, or as a noun phrase alone."""
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for text in _RICHTER:
        ti.remember(tenant, text)
    ti.forget(tenant, query)
    assert current_texts(fresh_store, tenant) == {
        t.rstrip(".") for t in _RICHTER if t != "Paul Richter hat einen Hund."}


def test_a_name_ending_in_s_before_nothing_is_no_genitive(
        fresh_store: memory_es.MemoryStore) -> None:
    """A guard: with no noun after it, ``Richters`` is read as written and names no one."""
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for text in _RICHTER:
        ti.remember(tenant, text)
    result = ti.forget(tenant, "Vergiss alles über Paul Richters")
    assert not result.touched
    assert current_texts(fresh_store, tenant) == {t.rstrip(".") for t in _RICHTER}


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(["These days", "At the moment,", "Lately", "For now"]),
       st.sampled_from([("Mia Chen works at Sky.", "person:mia-chen", "work.employer"),
                        ("I prefer dogs.", "user:self", "pref.dogs"),
                        ("we live in Oslo.", "user:self", "home.city")]))
def test_a_time_adverbial_before_the_subject_is_no_part_of_it(
        lead: str, case: tuple[str, str, str]) -> None:
    """``These days I prefer dogs``: the adverbial says when the statement holds, as after
    the verb; the subject and its slot are those of the sentence without it, and so after a
    sentence adverb (``Now I prefer dogs``: the verb agrees with ``I``)."""
    text, entity, attribute = case
    for said in (f"{lead} {text}", f"Now {text}"):
        (clause,) = interpret(said).clauses
        assert (clause.entity, clause.attribute) == (entity, attribute)

