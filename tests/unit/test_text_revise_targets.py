"""What a revise may retire (SPEC §15: only what the query specifically matches): facts
of what its new text is about, and of those only one the query or the new text picks
out. ``revise('violin', 'Mia plays the cello')`` leaves Tom's violin;
``revise("Priya's allergy", 'Priya is allergic to dust')`` with two allergies ends
neither, ``... 'Priya is no longer allergic to cats'`` ends the cat allergy."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from tests.unit.text_support import current_texts, fresh_tenant

_SLOW = settings(max_examples=10, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])
PEOPLE = ["Mia Chen", "Tom Berg", "Ana Lima", "Kai Berg"]


@_SLOW
@given(st.lists(st.sampled_from(PEOPLE), min_size=2, max_size=4, unique=True),
       st.sampled_from(["violin", "plays the violin"]))
def test_a_revise_retires_only_the_new_texts_persons_fact(
        fresh_store: memory_es.MemoryStore, players: list[str], query: str) -> None:
    """Reference model: the set of people holding the fact; the revise moves exactly
    its first person from the violin to the cello."""
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for who in players:
        ti.remember(tenant, f"{who} plays the violin.")
    ti.revise(tenant, query, f"{players[0]} plays the cello.")
    assert current_texts(fresh_store, tenant) == {
        f"{players[0]} plays the cello", *(f"{who} plays the violin" for who in players[1:])}


def test_two_facts_the_query_fits_equally_stay_unless_the_new_text_names_one(
        fresh_store: memory_es.MemoryStore) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    held = {"Priya Raman is allergic to latex", "Priya Raman is allergic to cats"}
    for text in held:
        ti.remember(tenant, text + ".")
    result = ti.revise(tenant, "Priya Raman's allergy", "Priya Raman is allergic to dust.")
    assert result.note.startswith("no match")
    assert current_texts(fresh_store, tenant) == held | {"Priya Raman is allergic to dust"}
    ti.revise(tenant, "Priya Raman's allergy", "Priya Raman is no longer allergic to cats.")
    assert "Priya Raman is allergic to cats" not in current_texts(fresh_store, tenant)
    assert "Priya Raman is allergic to latex" in current_texts(fresh_store, tenant)
