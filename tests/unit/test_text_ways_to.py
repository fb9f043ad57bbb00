"""How one gets somewhere is one slot per destination (SPEC §15): ``now cycles to school``
ends ``drives to school``, and ``now takes the bus to school`` ends ``walks to school``;
to work it is the commute, so ``now cycles to work`` ends ``commutes by train``. The car
one drives, a way to another place, a child taken to school and other people's ways stay.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import lexicon as lx
from tests.unit.text_support import said, texts_after

_SLOW = settings(max_examples=10, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])
# Written by hand: ways of getting somewhere, as a person would say them
WAYS = ["drives", "cycles", "walks", "takes the bus", "takes the train", "rides a scooter"]


@_SLOW
@given(st.lists(st.sampled_from(WAYS), min_size=2, max_size=2, unique=True),
       st.sampled_from(["school", "the gym", "the office"]))
def test_a_new_way_to_a_place_ends_the_old_way_there(
        fresh_store: memory_es.MemoryStore, ways: list[str], place: str) -> None:
    old, new = ways
    other = "the market" if place != "the market" else "the park"
    setup = [f"Owen Price {old} to {place}.", f"Owen Price walks to {other}.",
             "Owen Price drives a blue Golf.", "Owen Price takes his son to school.",
             f"Sara Lim {old} to {place}."]
    after = texts_after(fresh_store, setup, "remember", f"Owen Price now {new} to {place}.")
    assert after == said(setup, but=[setup[0]]) | {f"Owen Price now {new} to {place}"}


@_SLOW
@given(st.sampled_from(["cycles", "walks", "takes the bus", "drives"]))
def test_a_new_way_to_work_ends_the_commute(fresh_store: memory_es.MemoryStore,
                                            way: str) -> None:
    setup = ["Leo Brandt commutes by train.", "Leo Brandt drives a blue Golf.",
             "Leo Brandt walks to the park on Sundays."]
    after = texts_after(fresh_store, setup, "remember", f"Leo Brandt now {way} to work.")
    assert after == said(setup, but=[setup[0]]) | {f"Leo Brandt now {way} to work"}


def test_the_travel_verbs_have_a_source_and_are_verbs() -> None:
    assert {"drive", "cycle", "walk", "commute"} <= lx.TRAVEL_VERBS
    assert lx.TRAVEL_VERBS.isdisjoint(lx.MOTION_VERBS)  # moving house is no way to a place


def test_how_often_is_no_part_of_the_place(fresh_store: memory_es.MemoryStore) -> None:
    setup = ["Mei Wong flies to Shanghai every month.", "Mei Wong lives in Hong Kong."]
    after = texts_after(fresh_store, setup, "remember", "Mei Wong now takes the train to Shanghai.")
    assert after == {"Mei Wong lives in Hong Kong", "Mei Wong now takes the train to Shanghai"}
