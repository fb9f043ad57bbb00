"""A thing's act, kept under its owner's id, is the thing's (SPEC §15): a change told of
the owner alone leaves it. ``Nina Wolfe now holds 450 shares of Shell`` ends her own
``holds 300 shares of Shell`` and leaves ``Nina Wolfe's fund holds 300 shares of
Shell``; a change told of the thing still reaches it."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import memory_es
from tests.unit.text_support import said, texts_after

_SLOW = settings(max_examples=8, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])
# (the thing, the act both hold, the owner's change, the thing's change)
_ACTS = st.sampled_from([
    ("fund", "holds 300 shares of Shell", "now holds 450 shares of Shell"),
    ("bakery", "sells sourdough", "no longer sells sourdough"),
    ("team", "plays in the Sunday league", "now plays in the Saturday league"),
])


@_SLOW
@given(st.sampled_from(["Nina Wolfe", "Tariq Aziz", "Lena Holm"]), _ACTS)
@example(name="Nina Wolfe",
         act=("fund", "holds 300 shares of Shell", "now holds 450 shares of Shell"))
def test_the_owners_change_leaves_the_things_act(
        fresh_store: memory_es.MemoryStore, name: str, act: tuple[str, str, str]) -> None:
    thing, held, change = act
    kept = [f"{name}'s {thing} {held}.", f"{name} lives in Leeds."]
    after = texts_after(fresh_store, [f"{name} {held}.", *kept], "remember",
                        f"{name} {change}.")
    assert said(kept) <= after
    assert f"{name} {held}" not in after


@_SLOW
@given(st.sampled_from(["Nina Wolfe", "Tariq Aziz"]), _ACTS)
def test_a_change_told_of_the_thing_reaches_it(
        fresh_store: memory_es.MemoryStore, name: str, act: tuple[str, str, str]) -> None:
    thing, held, change = act
    kept = [f"{name} lives in Leeds."]
    after = texts_after(fresh_store, [f"{name}'s {thing} {held}.", *kept], "remember",
                        f"{name}'s {thing} {change}.")
    assert said(kept) <= after
    assert f"{name}'s {thing} {held}" not in after


def test_what_a_thing_of_the_owners_is_stays_the_owners(
        fresh_store: memory_es.MemoryStore) -> None:
    """Being something is no act of the thing: ``Owen Price's classroom is room B12`` is
    the owner's slot, which ``Owen Price has moved to room C4`` replaces, naming the
    room and not the classroom."""
    kept = ["Owen Price teaches year 9 chemistry.", "Owen Price drives to school."]
    after = texts_after(fresh_store, ["Owen Price's classroom is room B12.", *kept],
                        "remember", "Owen Price has moved to room C4.")
    assert said(kept) <= after
    assert "Owen Price's classroom is room B12" not in after
