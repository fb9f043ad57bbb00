"""A move ends the home its subject held at a place (SPEC §15): ``I rent a flat in
Glasgow`` says where the user lives as ``I live in Glasgow`` does, so ``I've moved to
Edinburgh`` ends it. It leaves a relative's same home, a thing rented there, a home held
at a time, a home owned as a thing and the rent paid.

The reference model is the list of facts each case writes: the rented home ends, every
other stays.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from tests.unit.text_support import said, texts_after

_SUBJECTS = [("I", "My sister", "I've"), ("Ben Cole", "Ben Cole's sister", "Ben Cole has")]
_HOMES = ["flat", "house", "cottage", "apartment"]
_WHERE = ["in Glasgow", "on Elm Road"]
_NEW = ["Edinburgh", "Oak Street"]


@settings(max_examples=16, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(_SUBJECTS), st.sampled_from(_HOMES), st.sampled_from(_WHERE),
       st.sampled_from(_NEW))
def test_a_move_ends_the_home_rented_at_a_place(
        fresh_store: memory_es.MemoryStore, subject: tuple[str, str, str], home: str,
        where: str, new: str) -> None:
    who, kin, has = subject
    rents = "rent" if who == "I" else "rents"
    held = f"{who} {rents} a {home} {where}."
    setup = [held, f"{kin} {rents} a {home} {where} too.", f"{who} {rents} a garage in Leith.",
             f"{who} {rents} a {home} in Cornwall every August.",
             f"{who} {'own' if who == 'I' else 'owns'} a villa in Spain.",
             f"{who} {'pay' if who == 'I' else 'pays'} the rent by standing order."]
    moved = f"{has} moved to {new}."
    after = texts_after(fresh_store, setup, "remember", moved)
    assert after == said([*setup, moved], but=[held])


def test_a_move_read_as_a_new_employer_leaves_the_home(
        fresh_store: memory_es.MemoryStore) -> None:
    """A guard: moving to another university of the kind he works at is a new employer."""
    setup = ["Ben Cole rents a house on Elm Road.",
             "Ben Cole works at the University of Queensland."]
    after = texts_after(fresh_store, setup, "remember",
                        "Ben Cole moved to the University of Sydney.")
    assert "Ben Cole rents a house on Elm Road" in after
    assert "Ben Cole works at the University of Queensland" not in after


def test_a_new_home_in_the_same_place_leaves_the_home(
        fresh_store: memory_es.MemoryStore) -> None:
    """A guard: living in Glasgow now is where the flat he rents is."""
    setup = ["Ben Cole rents a flat in Glasgow.", "Ben Cole lives in Paisley."]
    after = texts_after(fresh_store, setup, "remember", "Ben Cole now lives in Glasgow.")
    assert "Ben Cole rents a flat in Glasgow" in after
