"""A verb of doing again (SPEC §15): ``was reassigned to Judge Mills`` is a form of
``assign`` and says the assignment changed, so it ends the one fact that holds the same
slot with another value (``is assigned to Judge Reed``), and nothing else. A "re" verb
with a meaning of its own (``represents``) and a present habit (``reviews``) end nothing.
"""

from __future__ import annotations

from importlib import resources

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import lexicon as lx
from memory_es.text.interpreter import interpret
from tests.unit.text_support import said, texts_after

_SLOW = settings(max_examples=8, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])
# (the subject, the slot as first said, as said again, the old value, the new value)
SLOTS = st.sampled_from([
    ("Case 2024-117", "is assigned to", "was reassigned to", "Judge Reed", "Judge Mills"),
    ("The dentist appointment", "is scheduled for", "was rescheduled for", "Monday",
     "Friday"),
    ("The build server", "is set to", "was reset to", "UTC", "CET"),
    ("The launch", "is scheduled for", "was rescheduled for", "May", "June"),
])


@_SLOW
@given(SLOTS, st.sampled_from(["Ana Lima", "Tomas Berg"]))
def test_the_slot_done_again_ends_its_old_value_and_nothing_else(
        fresh_store: memory_es.MemoryStore, slot: tuple[str, str, str, str, str],
        other: str) -> None:
    subject, first, again, old, new = slot
    setup = [f"{subject} {first} {old}.", f"{other} {first} {old}.",
             f"{subject} is on the third floor."]
    after = texts_after(fresh_store, setup, "remember", f"{subject} {again} {new}.")
    assert after == said(setup, but=[setup[0]]) | {f"{subject} {again} {new}"}


def test_a_re_verb_of_its_own_meaning_or_a_habit_ends_nothing(
        fresh_store: memory_es.MemoryStore) -> None:
    setup = ["Ana Lima is assigned to the Oslo office.", "Ana Lima reviews contracts on Fridays."]
    for text in ("Ana Lima represents the Bergen office.", "Ana Lima reviews budgets."):
        assert texts_after(fresh_store, setup, "remember", text) == said([*setup, text])


def test_the_list_holds_verbs_of_doing_again_as_forms_of_their_base() -> None:
    raw = resources.files("memory_es.text").joinpath("data", "again_verbs.txt").read_text("utf-8")
    assert "Source:" in raw and "WordNet 3.1" in raw
    assert lx.lemma_of("reassigned") == "assign" and lx.lemma_of("rescheduled") == "schedule"
    assert lx.lemma_of("returned") == "return" and lx.lemma_of("represents") == "represent"
    assert {"reassigned", "reopened", "rewrote", "reset"} <= lx.AGAIN_PAST
    assert lx.AGAIN_PAST.isdisjoint({"reassigns", "reopen", "reviewed", "returned"})


def test_may_after_a_preposition_is_the_month() -> None:
    """``scheduled for May`` names its month as ``scheduled for June`` does (``may`` is
    also a modal verb, which ``Ana may move`` keeps)."""
    (may,) = interpret("The launch is scheduled for May.").clauses
    (june,) = interpret("The launch is scheduled for June.").clauses
    assert (may.attribute, may.frame) == ("schedule.may", june.frame)
    (modal,) = interpret("Ana Lima may move to Leeds.").clauses
    assert modal.unrealised
