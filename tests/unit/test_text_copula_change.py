"""A change told with a linking verb (SPEC §15): ``is now a tax resident of Portugal`` or
``became a tax resident of Portugal`` ends the one fact that holds the same status with
another value (``is a tax resident of Sweden``), and nothing else; a status that can
stand beside the old one (``became an Irish citizen``, ``is now a fan of opera too``)
ends nothing. What a complement *is* decides its topic, not its adjuncts: ``a volunteer
at the food bank`` is no diet."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from tests.unit.text_support import current_texts, fresh_tenant

_SLOW = settings(max_examples=8, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])
# (a status with a slot for its value, the old value, the new value)
STATUSES = st.sampled_from([
    ("a tax resident of", "Sweden", "Portugal"),
    ("a permanent resident of", "Norway", "Canada"),
    ("a tenant of", "Flat 4", "Flat 9"),
])
CHANGES = st.sampled_from(["is now", "became", "has become"])
KEPT = ["{n} is a member of the Ski Club", "{n} owns a flat in Lisbon", "{n} plays the cello"]


@_SLOW
@given(STATUSES, CHANGES, st.sampled_from(["Lars Nyberg", "Ana Lima"]))
def test_the_old_value_of_the_status_ends_and_the_rest_stays(
        fresh_store: memory_es.MemoryStore, status: tuple[str, str, str], change: str,
        name: str) -> None:
    (what, old, new), tenant = status, fresh_tenant()
    ti = TextInterface(fresh_store)
    kept = [k.format(n=name) for k in KEPT]
    for text in (f"{name} is {what} {old}", *kept):
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"{name} {change} {what} {new}.")
    assert current_texts(fresh_store, tenant) == {*kept, f"{name} {change} {what} {new}"}


def test_a_status_that_can_stand_beside_the_old_one_ends_nothing(
        fresh_store: memory_es.MemoryStore) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    held = ["Priya Raman is a British citizen", "Tom Berg is a fan of jazz",
            "Mia Chen is a volunteer at the food bank"]
    for text in held:
        ti.remember(tenant, text + ".")
    for text in ("Priya Raman became an Irish citizen.", "Tom Berg is now a fan of opera too.",
                 "Mia Chen became a volunteer at the animal shelter."):
        ti.remember(tenant, text)
    assert set(held) <= current_texts(fresh_store, tenant)


def test_an_adjunct_does_not_make_a_complement_a_diet(fresh_store: memory_es.MemoryStore) -> None:
    """``Mia is now vegan`` changes her diet and leaves her volunteering at the food bank."""
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    ti.remember(tenant, "Mia Chen is a volunteer at the food bank.")
    ti.remember(tenant, "Mia Chen eats meat.")
    ti.remember(tenant, "Mia Chen is now vegan.")
    assert "Mia Chen is a volunteer at the food bank" in current_texts(fresh_store, tenant)


@_SLOW
@given(st.sampled_from(["a regular at Café Luso", "a season ticket holder at Benfica",
                        "a member at Hilltop Golf Club", "a guest at the Ritz"]),
       st.sampled_from(["became", "is now", "is"]))
def test_a_status_held_at_a_place_is_no_employer(
        fresh_store: memory_es.MemoryStore, status: str, verb: str) -> None:
    """Only a role of the work topic at a place names an employer: ``became a regular at
    Café Luso`` leaves ``works at Google``."""
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    ti.remember(tenant, "Ana Lima works at Google.")
    ti.remember(tenant, f"Ana Lima {verb} {status}.")
    assert "Ana Lima works at Google" in current_texts(fresh_store, tenant)


def test_a_work_role_at_a_place_is_the_new_employer(fresh_store: memory_es.MemoryStore) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    ti.remember(tenant, "Ana Lima works at Google.")
    ti.remember(tenant, "Ana Lima became a nurse at St Thomas' Hospital.")
    assert current_texts(fresh_store, tenant) == {"Ana Lima became a nurse at St Thomas' Hospital"}


@pytest.mark.parametrize("change", ["is now divorced", "is divorced now", "got divorced"])
def test_a_marital_participle_is_the_status_it_names(
        fresh_store: memory_es.MemoryStore, change: str) -> None:
    """``is now divorced`` changes the status ``is married`` holds; a sister's divorce
    leaves it."""
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for text in ("Lina Berg is married.", "Lina Berg plays the oboe."):
        ti.remember(tenant, text)
    ti.remember(tenant, f"Lina Berg's sister {change}.")
    assert "Lina Berg is married" in current_texts(fresh_store, tenant)
    ti.remember(tenant, f"Lina Berg {change}.")
    assert current_texts(fresh_store, tenant) >= {f"Lina Berg {change}", "Lina Berg plays the oboe"}
    assert "Lina Berg is married" not in current_texts(fresh_store, tenant)
