"""An addition said of a value a relative holds is the slot's value (SPEC §15).

``Ben Cole lives in Cork too``, after ``Ben Cole's uncle lives in Cork``, keeps Cork in a
slot of its own (an addition sits beside the value its slot holds). When the slot holds
nothing, ``too`` said "as he does": a change of the slot (``moved to Dublin``, ``now works
at the hospital``) replaces it. An addition no one else holds may sit beside a value
never told, and stays.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from tests.unit.text_support import texts_after

_SLOW = settings(max_examples=8, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])
# (what the relative and the person hold, the person's change)
SLOTS = [("lives in Cork", "moved to Dublin"),
         ("works at the council", "now works at the hospital"),
         ("lives in Graz", "now lives in Linz")]


@_SLOW
@given(st.sampled_from(SLOTS), st.sampled_from(["uncle", "sister", "father"]),
       st.sampled_from(["too", "as well"]))
def test_a_change_replaces_an_addition_shared_with_a_relative(
        fresh_store: memory_es.MemoryStore, slot: tuple[str, str], kin: str,
        marker: str) -> None:
    held, change = slot
    after = texts_after(fresh_store, [f"Ben Cole's {kin} {held}.", f"Ben Cole {held} {marker}.",
                                      "Ben Cole is a student."],
                        "remember", f"Ben Cole {change}.")
    assert f"Ben Cole {held} {marker}" not in after
    assert {f"Ben Cole's {kin} {held}", "Ben Cole is a student", f"Ben Cole {change}"} <= after


@_SLOW
@given(st.sampled_from(SLOTS), st.sampled_from(["son", "wife"]))
def test_a_relatives_addition_shared_with_the_owner_is_replaced_alike(
        fresh_store: memory_es.MemoryStore, slot: tuple[str, str], kin: str) -> None:
    """``Ron Page's son lives in Kendal too``, where Ron lives: the son's move replaces
    it, and Ron's own fact stays."""
    held, change = slot
    after = texts_after(fresh_store, [f"Ron Page {held}.", f"Ron Page's {kin} {held} too."],
                        "remember", f"Ron Page's {kin} {change}.")
    assert f"Ron Page's {kin} {held} too" not in after
    assert {f"Ron Page {held}", f"Ron Page's {kin} {change}"} <= after


@_SLOW
@given(st.sampled_from([("works at a café on weekends", "now works at the hospital"),
                        ("teaches at the college", "now teaches at the academy")]),
       st.sampled_from(["also", "too"]))
def test_an_addition_no_one_else_holds_stays(
        fresh_store: memory_es.MemoryStore, slot: tuple[str, str], marker: str) -> None:
    """``also works at a café on weekends`` may sit beside a job never told: ``now works
    at the hospital`` leaves it."""
    held, change = slot
    told = (f"Ben Cole also {held}" if marker == "also" else f"Ben Cole {held} too")
    after = texts_after(fresh_store, [f"{told}.", "Ben Cole is a student."],
                        "remember", f"Ben Cole {change}.")
    assert told in after
