"""A change to a slot named by its value replaces the fact of the same frame (SPEC §15).

``works in Holborn`` is ``work.unit.holborn``: the slot holds its value, so ``now works in
Camden`` writes a new slot and would leave the old one current beside it. The frame
(verb, preposition, kind of object) says what changed: the fact of the same frame ends.
An added one (``now also works in Camden``) ends nothing, nor does a change of another
frame (``works on Project Atlas``).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from tests.unit.text_support import current_texts, fresh_tenant

_SLOW = settings(max_examples=8, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])
_PLACES = ["Holborn", "Camden", "Mayfair", "Soho", "Brixton"]


def _after_change(store: memory_es.MemoryStore, old: str, kept: str, new: str) -> set[str]:
    """The current texts once ``old`` and ``kept`` are remembered, then the change ``new``."""
    tenant, ti = fresh_tenant(), TextInterface(store)
    for text in (old, kept, new):
        ti.remember(tenant, text + ".")
    return current_texts(store, tenant)


@_SLOW
@given(st.lists(st.sampled_from(_PLACES), min_size=2, max_size=2, unique=True), st.booleans())
def test_a_new_value_of_the_frame_replaces_the_old(fresh_store: memory_es.MemoryStore,
                                                   places: list[str], added: bool) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    old = f"Dev Patel works in {places[0]}"
    kept = ["Dev Patel works on Project Atlas", "Dev Patel lives in Croydon",
            f"Asha Patel works in {places[0]}"]
    for text in (old, *kept):
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"Dev Patel now {'also ' if added else ''}works in {places[1]}.")
    current = current_texts(fresh_store, tenant)
    assert set(kept) <= current
    assert (old in current) == added


_CITIES = ["Oslo", "Bergen", "Tromsø", "Stavanger"]


@_SLOW
@given(st.lists(st.sampled_from(_CITIES), min_size=2, max_size=2, unique=True),
       st.sampled_from([("manages", "office"), ("leads", "team"), ("runs", "branch")]),
       st.booleans())
def test_a_new_modifier_of_the_same_object_replaces_the_old(
        fresh_store: memory_es.MemoryStore, cities: list[str], frame: tuple[str, str],
        added: bool) -> None:
    """``now manages the Bergen office`` ends ``manages the Oslo office``: the same verb
    and head noun, another modifier. Another head (``the Bergen warehouse``) stays, and
    so does everything when the change says it adds (``now also manages``)."""
    verb, head = frame
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    old = f"Per Lund {verb} the {cities[0]} {head}"
    kept = [f"Per Lund {verb} the {cities[1]} warehouse", f"Ida Holm {verb} the {cities[0]} {head}",
            "Per Lund lives in Oslo"]
    for text in (old, *kept):
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"Per Lund now {'also ' if added else ''}{verb} the {cities[1]} {head}.")
    current = current_texts(fresh_store, tenant)
    assert set(kept) <= current
    assert (old in current) == added


@_SLOW
@given(st.sampled_from(["red", "blue", "grey"]), st.sampled_from(["also", "as well"]))
def test_an_added_thing_never_supersedes_its_slot(fresh_store: memory_es.MemoryStore,
                                                  colour: str, marker: str) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    held = f"Mia Lund owns a {colour} car"
    ti.remember(tenant, held + ".")
    text = (f"Mia Lund {marker} owns a green car now." if marker == "also"
            else f"Mia Lund now owns a green car {marker}.")
    ti.remember(tenant, text)
    assert held in current_texts(fresh_store, tenant)


@_SLOW
@given(st.lists(st.sampled_from(["Rufus", "Bella", "Max"]), min_size=2, max_size=2, unique=True),
       st.sampled_from([("7am", "8am"), ("6pm", "5pm")]))
def test_a_named_object_at_a_new_time_replaces_the_old_time(
        fresh_store: memory_es.MemoryStore, dogs: list[str], times: tuple[str, str]) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    old = f"Ella Moss walks {dogs[0]} at {times[0]}"
    kept = f"Ella Moss walks {dogs[1]} at {times[0]}"
    for text in (old, kept):
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"Ella Moss now walks {dogs[0]} at {times[1]}.")
    current = current_texts(fresh_store, tenant)
    assert old not in current and kept in current


@_SLOW
@given(st.sampled_from([("data", "ML"), ("Orion", "payments"), ("London", "sales")]),
       st.sampled_from([("leads", "team"), ("manages", "office")]))
def test_a_name_and_a_common_modifier_of_one_head_are_one_frame(
        fresh_store: memory_es.MemoryStore, pair: tuple[str, str], frame: tuple[str, str]) -> None:
    """``now leads the ML team`` ends ``leads the data team``: a name or a common word
    before the same head is another of the same thing."""
    (old_mod, new_mod), (verb, head) = pair, frame
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    old = f"Priya Nair {verb} the {old_mod} {head}"
    kept = [f"Ravi Nair {verb} the {old_mod} {head}", "Priya Nair works remotely"]
    for text in (old, *kept):
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"Priya Nair now {verb} the {new_mod} {head}.")
    current = current_texts(fresh_store, tenant)
    assert set(kept) <= current
    assert old not in current



@_SLOW
@given(st.sampled_from([("takes ramipril", "day"), ("plays tennis", "week"),
                        ("visits his mum", "month")]),
       st.sampled_from([("once", "twice"), ("twice", "three times")]))
def test_how_often_a_thing_is_done_is_its_measure(
        fresh_store: memory_es.MemoryStore, act: tuple[str, str], counts: tuple[str, str]) -> None:
    """``now takes ramipril twice a day`` ends ``takes ramipril once a day`` (another count
    of the same thing per the same period), not the wife's, nor another thing done as often."""
    (verb_object, period), (old, new) = act, counts
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    held = f"Hal Berg {verb_object} {old} a {period}"
    kept = [f"Hal Berg's wife {verb_object} {old} a {period}", f"Hal Berg reads {old} a {period}",
            "Hal Berg lives in Oslo"]
    for text in (held, *kept):
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"Hal Berg now {verb_object} {new} a {period}.")
    current = current_texts(fresh_store, tenant)
    assert set(kept) <= current
    assert held not in current


@pytest.mark.parametrize(("old", "new"), [("three times", "twice"), ("once", "four times")])
def test_how_often_a_verb_alone_is_done_is_one_frame(fresh_store: memory_es.MemoryStore,
                                                     old: str, new: str) -> None:
    """``now swims twice a week`` ends ``swims three times a week``: the verb and the
    period are one frame, whatever the count; another verb (``runs twice a week``) or
    another period stays."""
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    held = f"Ian Cole swims {old} a week"
    kept = ["Ian Cole runs twice a week", "Ian Cole swims once a year", "Ian Cole lives in Hove"]
    for text in (held, *kept):
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"Ian Cole now swims {new} a week.")
    current = current_texts(fresh_store, tenant)
    assert set(kept) <= current
    assert held not in current


@_SLOW
@given(st.sampled_from([("two", "coffees", "one", "coffee"), ("one", "banana", "three", "bananas"),
                        ("ten", "cigarettes", "five", "cigarettes")]),
       st.sampled_from(["drinks", "has", "eats", "smokes"]))
def test_an_objects_head_counts_by_its_stem(
        fresh_store: memory_es.MemoryStore, counts: tuple[str, str, str, str], verb: str) -> None:
    """``now drinks one coffee a day`` ends ``drinks two coffees a day``: the object's head
    in the singular and in the plural is one frame; another verb's fact stays."""
    old_n, old_head, new_n, new_head = counts
    old = f"Amir Haddad {verb} {old_n} {old_head} a day"
    kept = "Amir Haddad walks two dogs a day"
    new = f"Amir Haddad now {verb} {new_n} {new_head} a day"
    assert _after_change(fresh_store, old, kept, new) == {kept, new}


@_SLOW
@given(st.sampled_from([("Spotify Family plan", "Spotify Duo plan"),
                        ("Labour party", "Green party"), ("Family Law team", "Tax team")]))
def test_a_capitalised_word_says_no_kind_of_object(
        fresh_store: memory_es.MemoryStore, pair: tuple[str, str]) -> None:
    """``is now on the Spotify Duo plan`` ends ``is on the Spotify Family plan``: the
    object's kind is read from its common words (a plan), not from a name's (``Family``
    is no family), so the two are one frame."""
    old = f"Nadia Rahman is on the {pair[0]}"
    kept = "Nadia Rahman lives in Leeds"
    new = f"Nadia Rahman is now on the {pair[1]}"
    assert _after_change(fresh_store, old, kept, new) == {kept, new}


@_SLOW
@given(st.sampled_from([("Gold", "Platinum", "status with Star Alliance"),
                        ("Silver", "Gold", "membership at Pure Gym")]))
def test_a_name_qualifying_a_common_head_is_the_heads_modifier(
        fresh_store: memory_es.MemoryStore, tiers: tuple[str, str, str]) -> None:
    """``now has Platinum status with Star Alliance`` ends ``has Gold status with Star
    Alliance``: the head of the object is its common noun, a name before it one of its
    modifiers, as in ``leads the ML team`` (a name alone, ``walks Rufus``, stays the
    object)."""
    old_tier, new_tier, rest = tiers
    old = f"Luca Conti has {old_tier} {rest}"
    kept = "Luca Conti lives in Milan"
    new = f"Luca Conti now has {new_tier} {rest}"
    assert _after_change(fresh_store, old, kept, new) == {kept, new}


@_SLOW
@given(st.sampled_from([("3rd", "4th"), ("2nd", "5th")]), st.sampled_from(["floor", "level"]))
def test_an_ordinal_after_now_is_no_date(
        fresh_store: memory_es.MemoryStore, ordinals: tuple[str, str], unit: str) -> None:
    """``is now on the 4th floor`` ends ``is on the 3rd floor``: whether an object is a
    time is read from its preposition and words, not from the ``now`` before them, so the
    two are one frame (``be.on.n:floor``)."""
    old = f"The office printer is on the {ordinals[0]} {unit}"
    kept = "The office printer is a Brother HL-L2350"
    new = f"The office printer is now on the {ordinals[1]} {unit}"
    assert _after_change(fresh_store, old, kept, new) == {kept, new}


@_SLOW
@given(st.sampled_from(["iCloud", "eBay Plus", "iTunes Match"]),
       st.sampled_from([("10.99", "11.99"), ("7", "9")]))
def test_a_brand_written_in_camel_case_is_a_name(
        fresh_store: memory_es.MemoryStore, brand: str, prices: tuple[str, str]) -> None:
    """``pays £4.99 a month for iCloud`` names what it pays for as ``… for Spotify`` does:
    a brand with a lower-case first letter is a name, so a new price for Spotify leaves the
    iCloud payment."""
    old = f"Amy Roe pays £{prices[0]} a month for Spotify"
    kept = f"Amy Roe pays £4.99 a month for {brand}"
    new = f"Amy Roe now pays £{prices[1]} a month for Spotify"
    assert _after_change(fresh_store, old, kept, new) == {kept, new}
