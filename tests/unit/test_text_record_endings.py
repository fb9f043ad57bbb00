"""Endings of records and reversals of denials end their one fact (SPEC §15).

``cancelled his gym membership`` ends ``is a member of the gym`` (a membership is the
state of being a member) and leaves ``keeps a gym bag in his car``; ``closed his Barclays
account`` ends that account and leaves the savings account elsewhere; ``now eats pork``
reverses ``does not eat pork`` and leaves ``eats chicken``.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from tests.unit.text_support import current_texts, fresh_tenant

_SLOW = settings(max_examples=8, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])


@_SLOW
@given(st.sampled_from(["gym", "golf club", "choir", "library"]),
       st.sampled_from(["cancelled", "ended", "gave up"]))
def test_a_membership_ends_the_member_not_what_shares_its_word(
        fresh_store: memory_es.MemoryStore, thing: str, ending: str) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    meant = f"Sam Reed is a member of the {thing}"
    kept = {f"Sam Reed keeps a {thing} bag in his car", "Sam Reed lives in Leeds"}
    for text in (meant, *kept):
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"Sam Reed {ending} his {thing} membership.")
    current = current_texts(fresh_store, tenant)
    assert meant not in current and kept <= current


@_SLOW
@given(st.lists(st.sampled_from(["Barclays", "Monzo", "Santander", "ING"]), min_size=2,
                max_size=2, unique=True))
def test_a_closed_account_ends_that_account(fresh_store: memory_es.MemoryStore,
                                           banks: list[str]) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    meant, kept = f"Sam Reed has an account with {banks[0]}", \
        f"Sam Reed has a savings account with {banks[1]}"
    for text in (meant, kept):
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"Sam Reed closed his {banks[0]} account.")
    current = current_texts(fresh_store, tenant)
    assert meant not in current and kept in current



@_SLOW
@given(st.sampled_from(["pension", "savings", "mortgage"]),
       st.lists(st.sampled_from(["Aviva", "Scottish Widows", "Halifax", "Nationwide"]),
                min_size=2, max_size=2, unique=True))
def test_a_thing_moved_to_a_new_holder_replaces_the_old_holder(
        fresh_store: memory_es.MemoryStore, thing: str, holders: list[str]) -> None:
    """``his pension is with Aviva``: ``with`` says whose hands it is in, a place of the
    thing, which ``moved his pension to Scottish Widows`` replaces."""
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    meant, kept = f"Omar Nasser's {thing} is with {holders[0]}", \
        f"Leila Nasser's {thing} is with {holders[0]}"
    for text in (meant, kept, "Omar Nasser lives in Leeds"):
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"Omar Nasser moved his {thing} to {holders[1]}.")
    current = current_texts(fresh_store, tenant)
    assert meant not in current and kept in current


@_SLOW
@given(st.sampled_from(["mortgage", "car loan", "student loan"]))
def test_a_debt_paid_off_ends_that_debt(fresh_store: memory_es.MemoryStore, debt: str) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    meant = f"Omar Nasser has a {debt} with Halifax"
    kept = "Omar Nasser has a credit card with Amex"
    for text in (meant, kept):
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"Omar Nasser paid off his {debt}.")
    current = current_texts(fresh_store, tenant)
    assert meant not in current and kept in current


@_SLOW
@given(st.lists(st.sampled_from(["pork", "beef", "lamb", "chicken", "fish"]), min_size=2,
                max_size=2, unique=True))
def test_a_reversed_denial_of_an_activity_leaves_the_others(
        fresh_store: memory_es.MemoryStore, foods: list[str]) -> None:
    """``now eats pork`` reverses ``does not eat pork`` and says nothing of ``eats
    chicken``: an activity is one of several a person may have. (A state is one at a
    time: ``lives in Bergen now`` still replaces ``lives in Oslo``, test_text_values.)"""
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    denial, held = f"Nina Vos does not eat {foods[0]}", f"Nina Vos eats {foods[1]}"
    for text in (denial, held):
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"Nina Vos now eats {foods[0]}.")
    current = current_texts(fresh_store, tenant)
    assert denial not in current and held in current


@_SLOW
@given(st.sampled_from(["doesn't eat meat", "does not eat meat", "doesn\u2019t eat meat",
                        "never eats meat", "won't eat meat"]))
def test_a_denial_is_reversed_however_its_negator_is_written(
        fresh_store: memory_es.MemoryStore, denial: str) -> None:
    """``doesn't`` is a negator as ``does not`` is, not a word the change must repeat."""
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    kept = {"Pat Byrne works as a vet", "Pat Byrne's shoe size is 42"}
    for text in (f"Pat Byrne {denial}", *kept):
        ti.remember(tenant, text + ".")
    ti.remember(tenant, "Pat Byrne now eats meat.")
    current = current_texts(fresh_store, tenant)
    assert kept <= current
    assert f"Pat Byrne {denial}" not in current
