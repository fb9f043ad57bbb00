"""A value is what a statement states, not when: time phrases stay out of values.

"X lives in Bergen now" stores ``Bergen``; "moved to Oslo last month" stores
``home.city = Oslo`` valid from about a month ago. The rule is one class of phrases
(dates, ``since …``, ``last month``, ``now``, ``these days``…), in every predicate.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from memory_es.text.interpreter import interpret
from memory_es.text.qualifiers import TIME_ADVERBIALS, without_time

T = "acme"


def _only(text: str) -> tuple[str, object]:
    (clause,) = interpret(text).clauses
    return clause.attribute, clause.value


@pytest.mark.parametrize(("text", "attribute", "value"), [
    ("Mia lives in Bergen now.", "home.city", "Bergen"),
    ("Dev Anand lives in Pune these days.", "home.city", "Pune"),
    ("Kai works at Nordlys Shipping at the moment.", "work.employer", "Nordlys Shipping"),
    ("The patient is vegetarian currently.", "diet", "vegetarian"),
    ("Marta has lived in Lisbon since 2022.", "home.city", "Lisbon"),
    ("Lena wohnt jetzt in Hamburg.", "home.city", "Hamburg"),
    ("张伟现在住在北京。", "home.city", "北京"),
])
def test_time_phrases_are_not_part_of_the_value(text: str, attribute: str, value: str) -> None:
    assert _only(text) == (attribute, value)


_PLACES = st.sampled_from(["Bergen", "Oslo", "New Zealand", "Cape Town", "Graz", "Turku"])
_TIMES = st.sampled_from([*TIME_ADVERBIALS, "now", "currently", "since 2019",
                          "last month", "3 years ago", "in 2021"])


@given(_PLACES, _TIMES)
def test_a_residence_with_any_time_phrase_stores_the_place(place: str, time: str) -> None:
    """Reference: the value of "X lives in <place> <time>" is exactly <place>."""
    attribute, value = _only(f"Noor lives in {place} {time}.")
    assert (attribute, value) == ("home.city", place)


@pytest.mark.parametrize(("value", "kept"), [
    ("The Now", "The Now"),  # a name, written with a capital
    ("now", "now"),  # nothing but a time phrase: left as it is
    ("Acme Corp", "Acme Corp"),
])
def test_names_and_bare_time_phrases_are_kept(value: str, kept: str) -> None:
    assert without_time(value) == kept


def test_moving_to_a_named_place_is_a_change_of_home() -> None:
    assert _only("User moved to Oslo last month.") == ("home.city", "Oslo")
    assert _only("Priya moved to New Zealand in 2021.") == ("home.city", "New Zealand")
    attribute, _ = _only("Kim moved to the Premium plan.")
    assert attribute != "home.city"


def test_moved_last_month_is_home_city_valid_from_a_month_ago(
        fresh_store: memory_es.MemoryStore) -> None:
    text = TextInterface(fresh_store)
    text.remember(T, "User moved to Oslo last month.")
    (fact,) = fresh_store.current(T)
    assert (fact.attribute, fact.value) == ("home.city", "Oslo")
    assert 25 <= (fresh_store.now() - fact.valid_from).days <= 35


@pytest.mark.parametrize("span", ["from 2015 to 2019", "between 2015 and 2019", "2015-2019"])
def test_a_closed_span_of_years_is_a_slot_beside_the_present(
        fresh_store: memory_es.MemoryStore, span: str) -> None:
    """``lived in Oslo from 2015 to 2019`` held over those years: a slot of its own beside
    the one ``lives in Bergen`` fills, so neither conflicts with the other, and a move ends
    the present home only (the stay stays a fact to recall)."""
    text = TextInterface(fresh_store)
    text.remember(T, f"Rob Fox lived in Oslo {span}.")
    text.remember(T, "Rob Fox lives in Bergen.")
    text.remember(T, "Rob Fox moved to Stavanger.")
    assert sorted((f.attribute, f.value) for f in fresh_store.current(T)) == [
        ("home.city", "Stavanger"), ("home.city.span", "Oslo")]


def test_a_negation_retracts_the_fact_it_contradicts_and_nothing_else(
        fresh_store: memory_es.MemoryStore) -> None:
    """Same slot and same value: released; another value or another slot: kept."""
    text = TextInterface(fresh_store)
    text.remember(T, "Mia lives in Oslo.")
    text.remember(T, "Mia works at Acme.")
    text.remember(T, "Kai works at Nordlys.")
    text.remember(T, "Mia does not live in Bergen.")
    text.remember(T, "Kai does not work at Fjordline.")
    kept = {f.text for f in fresh_store.current(T)}
    assert {"Mia lives in Oslo", "Mia works at Acme", "Kai works at Nordlys"} <= kept
    text.remember(T, "Mia does not live in Oslo.")
    text.remember(T, "Kai does not work at Nordlys.")
    now = {f.text for f in fresh_store.current(T)}
    assert "Mia lives in Oslo" not in now and "Kai works at Nordlys" not in now
    assert "Mia works at Acme" in now


def test_a_denial_retracts_what_it_contradicts_and_loses_no_statement(
        fresh_store: memory_es.MemoryStore) -> None:
    """A confident "X does not <slot> <value>" that contradicts a current fact retracts it
    and writes nothing else; one that contradicts nothing is what the user said, and is
    kept as a denial of its own slot (``home.city`` not ``Oslo``, flagged ``negated``,
    never an attribute ``not.home.city``): a negative habit or preference is a fact too."""
    text = TextInterface(fresh_store)
    text.remember(T, "Mia lives in Oslo.")
    text.remember(T, "Mia works at Acme.")
    retracted = text.remember(T, "Mia does not live in Oslo.")
    assert [r.op for r in retracted] == ["decay"]
    now = fresh_store.current(T)
    assert not [f for f in now if f.negated or "not" in f.attribute.split(".")]
    assert [f.text for f in now] == ["Mia works at Acme"]
    kept = text.remember(T, "Liam does not eat meat.")
    assert len(kept) == 1 and kept[0].op == "assert_fact"
    assert any("Liam does not eat meat" in (f.text or "") for f in fresh_store.current(T))
    denial = text.remember(T, "Mia does not live in Bergen.")
    [stored] = [f for f in fresh_store.current(T) if f.fact_id == denial[0].fact_id]
    assert (stored.attribute, stored.value, stored.negated) == ("home.city", "Bergen", True)
    text.remember(T, "Mia lives in Oslo.")  # another value: the denial stands beside it
    mia = {(f.attribute, f.value, f.negated) for f in fresh_store.current(T, stored.entity)}
    assert {("home.city", "Bergen", True), ("home.city", "Oslo", False)} <= mia
    text.remember(T, "Mia lives in Bergen now.")  # its own value: the denial ends
    mia = {(f.attribute, f.value, f.negated) for f in fresh_store.current(T, stored.entity)}
    assert ("home.city", "Bergen", True) not in mia and ("home.city", "Bergen", False) in mia
