"""A verb of ending in the present simple tells a habit, not an ending (SPEC §15).

``Ana sells cars`` is her trade and leaves ``owns two cars``; ``leaves the pub at 11pm``
leaves ``works at the pub``. The past (``sold her car``), a participle (``has left``) or a
verb whose past is the same word (``quit``) still ends the fact.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from tests.unit.text_support import current_texts, fresh_tenant

_SLOW = settings(max_examples=10, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])
# (fact, its habit in the present simple, its ending in the past)
PAIRS = [("owns a car", "sells cars", "sold the car"),
         ("works at the pub", "leaves the pub at 11pm", "left the pub"),
         ("drives to work", "stops at a café on the way to work", "stopped driving to work"),
         ("plays in a band", "quits rehearsals early", "quit the band")]


@_SLOW
@given(st.sampled_from(PAIRS), st.sampled_from(["Ana Lima", "Rui Costa"]))
def test_a_habit_ends_nothing_and_the_past_ends_the_fact(
        fresh_store: memory_es.MemoryStore, pair: tuple[str, str, str], name: str) -> None:
    held, habit, ending = pair
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    ti.remember(tenant, f"{name} {held}.")
    ti.remember(tenant, f"{name} {habit}.")
    assert f"{name} {held}" in current_texts(fresh_store, tenant)
    ti.remember(tenant, f"{name} {ending}.")
    assert f"{name} {held}" not in current_texts(fresh_store, tenant)
