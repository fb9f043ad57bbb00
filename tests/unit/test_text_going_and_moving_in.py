"""Going somewhere often is a habit, not a move; moving in with someone changes whom one
lives with (SPEC §15).

- ``goes to the gym on Mondays`` (the present simple of *go*) keeps its day: ``now goes to
  the gym on Tuesdays`` replaces it, and ``goes to church on Sundays`` stays. It was read
  as a move to ``gym``, so the new day was the same value and was lost. Where one goes
  is the habit's thing: ``now goes to the pool on Sundays`` leaves ``goes to church on
  Sundays``.
- ``moved in with her boyfriend`` replaces ``lives alone`` (the household slot), not her
  brother's, nor the city she lives in.

The reference model is the list of facts each case writes.
"""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text.interpreter import interpret
from tests.unit.text_support import said, texts_after

_SLOW = settings(max_examples=8, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])


@_SLOW
@given(st.sampled_from([("the gym", "Mondays", "Tuesdays"), ("the pool", "Fridays", "Sundays"),
                        ("choir practice", "Wednesdays", "Thursdays")]))
@example(case=("the pool", "Fridays", "Sundays"))  # the day of the church habit kept
def test_a_habit_of_going_keeps_its_day(fresh_store: memory_es.MemoryStore,
                                        case: tuple[str, str, str]) -> None:
    where, old, new = case
    held = f"Maya Rao goes to {where} on {old}."
    kept = ["Maya Rao goes to church on Sundays.", "Maya Rao lives in Slough."]
    changed = f"Maya Rao now goes to {where} on {new}."
    after = texts_after(fresh_store, [held, *kept], "remember", changed)
    assert after == said([*kept, changed])


def test_going_in_the_past_is_still_a_move() -> None:
    assert interpret("Maya Rao went to Spain.").clauses[0].attribute.startswith("moved.")
    assert not interpret("Maya Rao goes to Spain.").clauses[0].attribute.startswith("moved.")


@_SLOW
@given(st.sampled_from(["her boyfriend", "her sister", "two friends"]))
def test_moving_in_with_someone_changes_the_household(fresh_store: memory_es.MemoryStore,
                                                      whom: str) -> None:
    held = "Holly Barnes lives alone."
    kept = ["Holly Barnes's brother lives alone.", "Holly Barnes lives in Derby."]
    moved = f"Holly Barnes moved in with {whom}."
    after = texts_after(fresh_store, [held, *kept], "remember", moved)
    assert after == said([*kept, moved])


def test_a_relatives_school_habit_is_not_her_value(fresh_store: memory_es.MemoryStore) -> None:
    """``Tom Hale's daughter goes to Oakfield Primary`` was read as a change of the
    daughter's value, so it superseded ``Tom Hale's daughter is in Year 5``; moving up a
    year and a new school each end their own fact, and the son's year stays."""
    setup = ["Tom Hale's daughter is in Year 5.", "Tom Hale's daughter goes to Oakfield Primary.",
             "Tom Hale's son is in Year 5."]
    for change, ended in (("Tom Hale's daughter moved up to Year 6.", setup[0]),
                          ("Tom Hale's daughter now goes to Hillcrest Academy.", setup[1])):
        after = texts_after(fresh_store, setup, "remember", change)
        assert after == said([*setup, change], but=[ended]), change
