"""A thing given away to someone is no longer had (SPEC §15): ``Nora Quinn gave her
Labrador to her sister`` ends ``Nora Quinn has a Labrador``, as ``gave her Labrador away``
does; a verb of giving of data/giving_verbs.txt, in the past, of a thing the subject had
and ``to`` who got it. A favour done for someone (``gave her sister a lift to work``: two
objects) ends nothing, nor does a habit of giving (``gives her time to the hospice``) or
one not done yet (``is giving her red bike to her niece next week``).

The reference model is the list of facts each case writes: the thing given ends, every
other stays.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from tests.unit.text_support import said, texts_after

_THINGS = [("a Labrador", "Labrador"), ("an old piano", "old piano"), ("a red bike", "red bike")]
_GIVEN = ["gave", "donated", "has given"]
_TO = ["to her sister", "to the school", "to a neighbour last week"]


@settings(max_examples=16, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(_THINGS), st.sampled_from(_GIVEN), st.sampled_from(_TO))
def test_a_thing_given_to_someone_is_no_longer_had(
        fresh_store: memory_es.MemoryStore, thing: tuple[str, str], verb: str,
        to: str) -> None:
    had, named = thing
    held = f"Nora Quinn has {had}."
    other = "Nora Quinn has a harp." if named != "harp" else "Nora Quinn has a cello."
    setup = [held, other, "Nora Quinn has a sister.", "Nora Quinn gives lifts to her neighbours.",
             f"Nora Quinn's sister has {had} too."]
    gift = f"Nora Quinn {verb} her {named} {to}."
    after = texts_after(fresh_store, setup, "remember", gift)
    assert said(setup, but=[held]) <= after
    assert held.rstrip(".") not in after


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["gave her sister a lift to work.", "gave her neighbour a hand to move.",
                        "gives her time to the hospice.",
                        "is giving her red bike to her niece next week."]))
def test_a_favour_a_habit_or_a_plan_of_giving_ends_nothing(
        fresh_store: memory_es.MemoryStore, told: str) -> None:
    setup = ["Nora Quinn has a sister.", "Nora Quinn gives lifts to her neighbours.",
             "Nora Quinn has a car.", "Nora Quinn volunteers at the hospice.",
             "Nora Quinn has a red bike."]
    after = texts_after(fresh_store, setup, "remember", f"Nora Quinn {told}")
    assert said(setup) <= after
