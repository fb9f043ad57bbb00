"""A name with ``of`` inside (``University of Queensland``, ``Bank of England``) is one
value, and a move to another of the same kind changes the slot that holds one (SPEC §15):
``moved to the University of Sydney`` ends ``works at the University of Queensland``;
where she lives, her husband's employer and her other facts stay. A move to a name of no
kind she holds (``moved to Meta`` beside ``works at Google``) leaves the employer.

The reference model is the list of facts each case writes: the employer's fact ends,
every other stays.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text.interpreter import interpret
from tests.unit.text_support import said, texts_after

_KINDS = [("University of Queensland", "University of Sydney"),
          ("Bank of England", "Bank of Canada"),
          ("St Mary's Hospital", "Royal Free Hospital"),
          ("Leeds City Council", "York City Council")]


def test_a_name_with_of_inside_is_one_value() -> None:
    assert interpret("Kim Sato works at the University of Queensland."
                     ).clauses[0].value == "University of Queensland"
    assert interpret("Ana works at the Bank of England.").clauses[0].value == "Bank of England"
    assert "apple" in interpret("Ana holds 200 shares of Apple.").clauses[0].attribute


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(_KINDS))
def test_a_move_to_another_of_the_kind_changes_that_slot(
        fresh_store: memory_es.MemoryStore, kind: tuple[str, str]) -> None:
    old, new = kind
    held = f"Kim Sato works at the {old}."
    kept = ["Kim Sato lives in Brisbane.", f"Kim Sato's husband works at the {old}.",
            "Kim Sato studies coral bleaching."]
    moved = f"Kim Sato moved to the {new}."
    after = texts_after(fresh_store, [held, *kept], "remember", moved)
    assert after == said([*kept, moved])


def test_a_move_to_a_name_of_no_held_kind_leaves_the_employer(
        fresh_store: memory_es.MemoryStore) -> None:
    after = texts_after(fresh_store, ["Kim Sato works at Google."], "remember",
                        "Kim Sato moved to Meta.")
    assert "Kim Sato works at Google" in after


@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["Elm Street", "Leeds", "Mill Lane"]),
       st.sampled_from(["Oak Avenue", "Mulholland Drive", "Quarry Road"]),
       st.sampled_from(["moved", "has moved"]))
def test_a_move_to_a_street_changes_where_one_lives(
        fresh_store: memory_es.MemoryStore, old: str, street: str, moved: str) -> None:
    """``has moved to Oak Avenue`` ends ``lives on Elm Street``: a name ending in a street
    word names a place (``avenue`` is a word of home, ``drive`` of transport); where she
    works stays."""
    prep = "in" if old == "Leeds" else "on"
    kept = {"Ana Lopes works at Acme", "Ana Lopes plays chess"}
    after = texts_after(fresh_store, [f"Ana Lopes lives {prep} {old}.", *sorted(
        f"{k}." for k in kept)], "remember", f"Ana Lopes {moved} to {street}.")
    assert f"Ana Lopes lives {prep} {old}" not in after
    assert kept | {f"Ana Lopes {moved} to {street}"} <= after
