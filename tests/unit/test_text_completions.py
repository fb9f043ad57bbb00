"""An activity brought to its end ends the fact that told it in progress (SPEC §15: a
change ends what it names, and nothing else).

- ``finished``, ``completed`` (also after ``has`` or ``just``) and what was done: the
  entity's facts in the progressive (``is knitting a scarf``) that share a word with it
  end, and those ``on`` a course, a regime or a trial (``is on a course of iron tablets``,
  ``is on the TRACE trial``) or what one ``works on`` (``the bridge project``), whose head
  or last word it names, when every word of what was completed is the fact's
  (``completed the TRACE trial`` leaves ``is on the ZETA trial``).
- A habit told in the present (``walks to work``), a place one holds (``is on the
  board of``), a relative's activity kept under the entity's id, and the present of the
  verb (``finishes a scarf every week``: a habit) end nothing.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from tests.unit.text_support import texts_after

# (the fact in progress, what completes it)
_DONE = [
    ("Iris Kemp is knitting a scarf for her nephew", "Iris Kemp finished the scarf."),
    ("Iris Kemp is on a course of iron tablets", "Iris Kemp has finished her iron tablets."),
    ("Iris Kemp is studying for a diploma in coaching",
     "Iris Kemp completed her diploma in coaching."),
    ("Iris Kemp is painting the garden fence", "Iris Kemp just finished painting the fence."),
    ("Iris Kemp is on the TRACE trial", "Iris Kemp completed the TRACE trial."),
    ("Iris Kemp works on the bridge project", "Iris Kemp finished the bridge project."),
]
_KEPT = ["Iris Kemp walks to work", "Iris Kemp is on the board of the Fence Society",
         "Iris Kemp's son is knitting a scarf", "Iris Kemp lives in Selby",
         "Iris Kemp is on the ZETA trial", "Iris Kemp works on the tunnel project"]


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(_DONE))
def test_a_completed_activity_ends_its_progress_only(
        fresh_store: memory_es.MemoryStore, case: tuple[str, str]) -> None:
    going, done = case
    after = texts_after(fresh_store, [f"{t}." for t in (going, *_KEPT)], "remember", done)
    assert {*_KEPT, done.rstrip(".")} <= after
    assert going not in after


@settings(max_examples=4, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["Iris Kemp finished her walk to work early.",
                        "Iris Kemp finishes a scarf every week.",
                        "Iris Kemp will finish the scarf next week."]))
def test_what_is_no_completion_of_a_progress_ends_nothing(
        fresh_store: memory_es.MemoryStore, said: str) -> None:
    held = ["Iris Kemp is knitting a scarf for her nephew", *_KEPT]
    assert set(held) <= texts_after(fresh_store, [f"{t}." for t in held], "remember", said)


@settings(max_examples=4, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from([("is on the VITAL trial", "is on the ZETA trial", "the trial"),
                        ("works on the bridge project", "works on the tunnel project",
                         "the project"),
                        ("is knitting a scarf", "is knitting a hat", "her knitting")]))
def test_a_completion_two_activities_fit_ends_neither(
        fresh_store: memory_es.MemoryStore, case: tuple[str, str, str]) -> None:
    """``finished the trial`` beside two trials does not say which one ended: both stay
    (the statement itself is kept)."""
    one, other, what = case
    held = [f"Iris Kemp {one}", f"Iris Kemp {other}", "Iris Kemp lives in Selby"]
    after = texts_after(fresh_store, [f"{t}." for t in held], "remember",
                        f"Iris Kemp finished {what}.")
    assert {*held, f"Iris Kemp finished {what}"} <= after


def test_a_contracted_progressive_is_in_progress(fresh_store: memory_es.MemoryStore) -> None:
    """``I'm training for a marathon`` is kept as said and is still a progressive that
    ``I finished the marathon`` ends."""
    held = ["I'm training for a marathon", "I live in Leith"]
    after = texts_after(fresh_store, [f"{t}." for t in held], "remember",
                        "I finished the marathon.")
    assert "I'm training for a marathon" not in after
    assert {"I live in Leith", "I finished the marathon"} <= after
