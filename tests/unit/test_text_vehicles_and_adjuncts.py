"""Owned vehicles and a frame's time adjuncts (SPEC §15):

- the vehicle one drives is one slot and a vehicle one owns a slot of its kind: ``drives
  a Volvo`` and ``owns a bike`` both hold, and neither waits in a conflict;
- a frame's object ends where another preposition or a time starts (``moved to Oslo in
  2019``, ``works in Holborn since 2021``): a change of place replaces it;
- two facts of one frame whose object is no name (an amount) but that give different
  names beside it are two things: ``now pays 11.99 a month for Spotify`` replaces the
  Spotify payment, never the Netflix one."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from tests.unit.text_support import current_texts, fresh_tenant

_SLOW = settings(max_examples=6, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])


@_SLOW
@given(st.sampled_from(["a bike", "a motorbike", "an electric scooter", "a van"]))
def test_a_vehicle_owned_beside_the_one_driven_holds(
        fresh_store: memory_es.MemoryStore, owned: str) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    facts = {"Omar Said drives a Volvo", f"Omar Said owns {owned}", "Leila Said owns a bike"}
    for text in sorted(facts):
        ti.remember(tenant, text + ".")
    assert current_texts(fresh_store, tenant) == facts


@_SLOW
@given(st.sampled_from([("works in Holborn since 2021", "now works in Camden"),
                        ("rents a flat in Kraków since 2019", "now rents a flat in Gdańsk"),
                        ("teaches at Leeds since May", "now teaches at York")]))
def test_a_time_after_the_object_is_no_part_of_its_frame(
        fresh_store: memory_es.MemoryStore, pair: tuple[str, str]) -> None:
    held, change = pair
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    kept = {"Mia Lund plays the oboe", "Mia Lund's sister works in Soho"}
    for text in (f"Mia Lund {held}", *kept):
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"Mia Lund {change}.")
    after = current_texts(fresh_store, tenant)
    assert kept <= after
    assert f"Mia Lund {held}" not in after


@_SLOW
@given(st.sampled_from(["Since March, Lena Berg has lived in Trondheim",
                        "Lena Berg has lived in Trondheim since March",
                        "Lena Berg has lived in Trondheim since 2024",
                        "As of June, Lena Berg lives in Trondheim"]))
def test_a_state_dated_from_a_start_replaces_its_slot(
        fresh_store: memory_es.MemoryStore, dated: str) -> None:
    """``since March`` says when the state began: the home before it ends, as with ``now``."""
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    kept = {"Lena Berg works at Equinor", "Lena Berg's sister lives in Oslo"}
    for text in ("Lena Berg moved to Oslo in 2019", *kept):
        ti.remember(tenant, text + ".")
    ti.remember(tenant, dated + ".")
    after = current_texts(fresh_store, tenant)
    assert kept <= after
    assert "Lena Berg moved to Oslo in 2019" not in after


@_SLOW
@given(st.sampled_from([("pays 9.99 a month for Spotify", "pays 15 a month for Netflix",
                         "now pays 11.99 a month for Spotify"),
                        ("gives 20 pounds a month to Oxfam", "gives 10 pounds a month to Shelter",
                         "now gives 25 pounds a month to Oxfam"),
                        ("spends 3 hours a week on Duolingo", "spends 2 hours a week on Strava",
                         "now spends 4 hours a week on Duolingo")]))
def test_names_beside_an_amount_tell_two_things_apart(
        fresh_store: memory_es.MemoryStore, case: tuple[str, str, str]) -> None:
    old, other, new = case
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for text in (old, other):
        ti.remember(tenant, f"Dan Cole {text}.")
    ti.remember(tenant, f"Dan Cole {new}.")
    assert current_texts(fresh_store, tenant) == {f"Dan Cole {other}", f"Dan Cole {new}"}
