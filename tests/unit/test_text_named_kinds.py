"""Changes to a named kind of thing, endings whose value is no verb, and hard deletes of
codes no label vouches for (SPEC §15):

- ``downgraded to the Pro plan`` and ``is now on the Pro plan`` replace ``is on the
  Enterprise plan``; ``transferred to the Gothenburg office`` replaces ``works in the
  Stockholm office``; with two facts of the kind, which one changed is not said; so, for
  a kind told by a lower-case word, ``switched to day shifts`` replaces ``works night
  shifts`` (never ``studies law`` for ``tax law``: a verb is no kind);
- ``has since moved to X``: ``since`` between an auxiliary and a verb is an adverb;
- ``is no longer allergic to penicillin`` ends the allergy, never every fact of health;
- ``purge B3`` beside ``salary band is B3`` erases nothing without confirmation: mixing
  letters and digits is no identifier; a label (``database host``) vouches for one."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from memory_es.text.identifiers import find_identifiers
from tests.unit.text_support import current_texts, fresh_tenant

_SLOW = settings(max_examples=6, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])


def _after(store: memory_es.MemoryStore, facts: list[str], change: str) -> set[str]:
    tenant, ti = fresh_tenant(), TextInterface(store)
    for text in facts:
        ti.remember(tenant, text + ".")
    ti.remember(tenant, change)
    return current_texts(store, tenant)


@_SLOW
@given(st.sampled_from([("is on the Enterprise plan", "downgraded to the Pro plan"),
                        ("is on the Enterprise plan", "is now on the Pro plan"),
                        ("works in the Stockholm office", "transferred to the Gothenburg office"),
                        ("is on the Basic tier", "upgraded to the Premium tier")]),
       st.sampled_from(["Acme Corp", "Nadia Haddad"]))
def test_a_change_to_a_named_kind_replaces_its_one_fact(
        fresh_store: memory_es.MemoryStore, pair: tuple[str, str], name: str) -> None:
    held, change = pair
    kept = {f"{name} has 250 seats", f"{name}'s account manager is Sara Lind",
            f"{name} keeps a Gold card"}
    after = _after(fresh_store, [f"{name} {held}", *kept], f"{name} {change}.")
    assert kept <= after
    assert f"{name} {held}" not in after


@_SLOW
@given(st.sampled_from([("works night shifts at the hospital", "switched to day shifts"),
                        ("drinks black coffee in the morning", "changed to decaf coffee"),
                        ("has a corner desk by the window", "moved to a standing desk")]),
       st.sampled_from(["Hugo Lambert", "Nadia Haddad"]))
def test_a_change_to_a_kind_told_by_a_word_replaces_its_one_fact(
        fresh_store: memory_es.MemoryStore, pair: tuple[str, str], name: str) -> None:
    held, change = pair
    kept = {f"{name} swims on Wednesdays", f"{name} lives in Leeds"}
    after = _after(fresh_store, [f"{name} {held}", *kept], f"{name} {change}.")
    assert kept <= after
    assert f"{name} {held}" not in after


def test_a_verb_before_the_noun_is_no_kind(fresh_store: memory_es.MemoryStore) -> None:
    """Guard: ``studies law`` is no kind of law that ``tax law`` replaces."""
    kept = {"Ana Ruiz studies law", "Ana Ruiz lives in York"}
    after = _after(fresh_store, sorted(kept), "Ana Ruiz switched to tax law.")
    assert kept <= after


def test_with_two_facts_of_the_kind_none_ends(fresh_store: memory_es.MemoryStore) -> None:
    """Guard: which plan was downgraded is not said."""
    kept = {"Acme Corp is on the Enterprise plan", "Acme Corp is on the Unlimited plan"}
    after = _after(fresh_store, sorted(kept), "Acme Corp downgraded to the Pro plan.")
    assert kept <= after


def test_since_between_auxiliary_and_verb_is_an_adverb(
        fresh_store: memory_es.MemoryStore) -> None:
    kept = {"Mei Wong works at DBS", "Mei Wong's sister lives in Perth"}
    after = _after(fresh_store, ["Mei Wong lives in Singapore", *kept],
                   "Mei Wong has since moved to Hong Kong.")
    assert kept <= after
    assert "Mei Wong lives in Singapore" not in after


@_SLOW
@given(st.sampled_from(["penicillin", "peanuts", "latex"]))
def test_an_ending_of_no_verb_ends_its_own_fact_only(
        fresh_store: memory_es.MemoryStore, allergen: str) -> None:
    kept = {"Tunde Adeyemi's blood pressure is 140/90", "Tunde Adeyemi takes ramipril 5 mg",
            "Tunde Adeyemi has asthma"}
    after = _after(fresh_store, [f"Tunde Adeyemi is allergic to {allergen}", *kept],
                   f"Tunde Adeyemi is no longer allergic to {allergen}.")
    assert kept <= after
    assert f"Tunde Adeyemi is allergic to {allergen}" not in after


@_SLOW
@given(st.sampled_from(["B3", "X5-Pro", "A4"]), st.booleans())
def test_a_code_no_label_vouches_for_is_erased_only_when_confirmed(
        fresh_store: memory_es.MemoryStore, code: str, confirm: bool) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    held = f"Sara Lind's salary band is {code}"
    kept = {"Sara Lind reports to Tom Ek", "Sara Lind works in Stockholm"}
    for text in (held, *kept):
        ti.remember(tenant, text + ".")
    result = ti.purge_matching(tenant, code, confirm=confirm)
    after = current_texts(fresh_store, tenant)
    assert kept <= after
    assert (held not in after) == confirm
    assert bool(result.pending) != confirm


def test_a_label_vouches_for_a_host_name(fresh_store: memory_es.MemoryStore) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    kept = {"Ines Moreau's database host is db-eu-02-replica", "Mateo Ferreira restores radios"}
    for text in ("Mateo Ferreira's database host is db-eu-02", *kept):
        ti.remember(tenant, text + ".")
    ti.purge_matching(tenant, "db-eu-02")
    after = current_texts(fresh_store, tenant)
    assert kept <= after
    assert "Mateo Ferreira's database host is db-eu-02" not in after


def test_a_label_read_as_a_token_leaves_the_next_label() -> None:
    """``Server hostname: prod-web-01``: ``server`` labels no code here, ``hostname`` does."""
    [found] = find_identifiers("Server hostname: prod-web-01 was decommissioned.")
    assert found.surface == "prod-web-01"
