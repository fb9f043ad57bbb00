"""A thing whose own time a verb sets anew (``Eli Kahn's visa was extended to March
2028``) no longer has the time another fact gave it (``… expires in March 2027``), whatever
that fact's verb; a relative's same thing, and the person's other facts, stay; with two
facts giving the thing a time, which one changed is not said, and none ends."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from memory_es.text.qualifiers import time_said
from tests.unit.text_support import current_texts, fresh_tenant

THINGS = ["visa", "lease", "contract", "grant", "membership"]
OLD_VERBS = ["expires in", "ends in", "runs until"]
SHIFTS = ["was extended to", "was extended until", "has been postponed to", "was renewed until",
          "was delayed to"]
TIMES = [("March 2027", "March 2028"), ("June", "December"), ("2027", "2029"),
         ("4 May", "11 May")]


@settings(max_examples=20, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(THINGS), st.sampled_from(OLD_VERBS), st.sampled_from(SHIFTS),
       st.sampled_from(TIMES), st.booleans())
def test_a_thing_set_to_a_new_time_ends_its_one_old_time(
        fresh_store: memory_es.MemoryStore, thing: str, old_verb: str, shift: str,
        times: tuple[str, str], two_times: bool) -> None:
    old, new = times
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    mine = f"Eli Kahn's {thing} {old_verb} {old}"
    kept = {f"Eli Kahn's wife's {thing} {old_verb} {old}", "Eli Kahn works at Stripe"}
    if two_times:
        kept.add(f"Eli Kahn's {thing} started in January 2020")
    for text in (mine, *sorted(kept)):
        ti.remember(tenant, text + ".")
    told = f"Eli Kahn's {thing} {shift} {new}"
    ti.remember(tenant, told + ".")
    expected = kept | {told} | ({mine} if two_times else set())
    assert current_texts(fresh_store, tenant) == expected


def test_the_time_a_text_gives() -> None:
    assert time_said("expires in March 2027") == "march 2027"
    assert time_said("is on 4 May at noon") == "4 may"
    assert time_said("ends in 2027") == "2027"
    assert time_said("may be renewed") is None
    assert time_said("lives in Oslo") is None
