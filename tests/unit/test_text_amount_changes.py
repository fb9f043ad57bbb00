"""A possessed thing's new amount replaces the one fact that holds its old amount (SPEC §15).

``Dev's citalopram dose was raised to 20 mg`` ends ``takes 10 mg of citalopram``: the same
unit, a thing the possessive names, another number. ``takes 5 mg of melatonin`` stays;
with two amounts of the thing (a morning and an evening dose) which one changed is not
said, and nothing ends; an amount in another unit is another measure.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from tests.unit.text_support import current_texts, fresh_tenant, said, texts_after

_SLOW = settings(max_examples=8, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])
THINGS = st.sampled_from([("citalopram", "dose", "mg"), ("insulin", "dose", "units"),
                          ("coffee", "intake", "cups"), ("savings", "deposit", "euros")])
CHANGED = st.sampled_from(["was raised to", "went up to", "was cut to", "dropped to"])


@_SLOW
@given(THINGS, CHANGED)
def test_the_things_old_amount_ends(fresh_store: memory_es.MemoryStore,
                                    thing: tuple[str, str, str], changed: str) -> None:
    name, noun, unit = thing
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    held = f"Dev Malhotra takes 10 {unit} of {name}"
    kept = [f"Dev Malhotra takes 5 {unit} of melatonin", f"Ana Lima takes 10 {unit} of {name}"]
    for text in (held, *kept):
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"Dev Malhotra's {name} {noun} {changed} 20 {unit}.")
    current = current_texts(fresh_store, tenant)
    assert held not in current
    assert set(kept) <= current


@_SLOW
@given(THINGS)
def test_two_amounts_or_another_unit_end_nothing(fresh_store: memory_es.MemoryStore,
                                                 thing: tuple[str, str, str]) -> None:
    name, noun, unit = thing
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    held = [f"Dev Malhotra takes 10 {unit} of {name} in the morning",
            f"Dev Malhotra takes 5 {unit} of {name} at night", "Ana Lima takes 2 ml of iron"]
    for text in held:
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"Dev Malhotra's {name} {noun} was raised to 20 {unit}.")
    ti.remember(tenant, "Ana Lima's iron dose was raised to 4 mg.")
    assert set(held) <= current_texts(fresh_store, tenant)


@_SLOW
@given(THINGS, CHANGED)
def test_an_amount_written_after_its_thing_ends_too(fresh_store: memory_es.MemoryStore,
                                                    thing: tuple[str, str, str],
                                                    changed: str) -> None:
    """``takes metformin 500 mg``, as a prescription writes it, is an amount of metformin."""
    name, noun, unit = thing
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    held = f"Anil Rao takes {name} 500 {unit} twice a day"
    kept = [f"Anil Rao takes melatonin 500 {unit} at night", "Anil Rao has type 2 diabetes"]
    for text in (held, *kept):
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"Anil Rao's {name} {noun} {changed} 1000 {unit}.")
    current = current_texts(fresh_store, tenant)
    assert held not in current
    assert set(kept) <= current


@_SLOW
@given(st.sampled_from(["rose to", "fell to", "went up to", "increased to"]),
       st.sampled_from([("rent", "£1,100 a month", "£1,150 a month"),
                        ("salary", "£42,000", "£45,000"), ("bill", "£60 a month", "£75 a month")]))
def test_a_possessed_amount_that_rose_or_fell_replaces_the_old(
        fresh_store: memory_es.MemoryStore, verb: str, thing: tuple[str, str, str]) -> None:
    """An irregular past (``rose``, ``fell``) reads as its verb does (``rise``, ``fall``):
    ``Jay Patel's rent rose to £1,150 a month`` ends the old rent, not his flatmate's."""
    noun, old, new = thing
    kept = [f"Jay Patel's flatmate's {noun} is {old}", "Jay Patel lives in Leeds"]
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for text in (f"Jay Patel's {noun} is {old}", *kept):
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"Jay Patel's {noun} {verb} {new}.")
    assert current_texts(fresh_store, tenant) == {*kept, f"Jay Patel's {noun} {verb} {new}"}


@pytest.mark.parametrize("change", ["Ana Ruiz's rent went up to £1,300 a month.",
                                    "Ana Ruiz's rent was raised to £1,300."])
def test_a_new_sum_of_a_possessed_thing_replaces_the_one_sum_that_names_it(
        fresh_store: memory_es.MemoryStore, change: str) -> None:
    """``rent went up to £1,300`` ends ``pays £1,200 a month in rent`` (a sum in the same
    currency, in a fact naming the rent), never her gym fee nor a flatmate's rent."""
    kept = ["Ana Ruiz pays £40 a month for the gym.",
            "Ana Ruiz's flatmate pays £1,200 a month in rent."]
    after = texts_after(fresh_store, ["Ana Ruiz pays £1,200 a month in rent.", *kept],
                        "remember", change)
    assert said(kept) <= after
    assert "Ana Ruiz pays £1,200 a month in rent" not in after
