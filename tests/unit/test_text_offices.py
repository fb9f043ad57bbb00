"""An office of an organisation is one to a holder (SPEC §15: a change ends what it
replaces, and nothing else).

- ``is now chair of the tennis club`` ends the one fact giving another office of that
  club (``is treasurer of the tennis club``, ``is the secretary of the tennis club``):
  the copula and a noun without an article, or with ``the``, before ``of``.
- An office of another organisation, a place among many there (``is a member of``), a
  relative's office there and the entity's other facts stay; with two offices of the
  club, which one ends is not said, and none does.
- A place among a body's many (``a member of``, ``a trustee of``, ``a director of``) told
  with ``now`` adds one: it ends the entity's place in no other body.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from tests.unit.text_support import texts_after

_SLOW = settings(max_examples=10, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])
_OFFICES = ["treasurer", "secretary", "chair", "vice-chair", "captain", "president",
            "CEO"]
_BODIES = ["the tennis club", "the parish council", "the Leeds Rowing Club"]


@_SLOW
@given(st.permutations(_OFFICES), st.sampled_from(_BODIES), st.sampled_from(["", "the "]))
def test_a_new_office_ends_the_old_office_of_that_body(
        fresh_store: memory_es.MemoryStore, offices: list[str], body: str,
        article: str) -> None:
    old, new = offices[:2]
    other = next(b for b in _BODIES if b != body)
    held = f"Kay Lin is {article}{old} of {body}"
    kept = [f"Kay Lin is {old} of {other}", f"Kay Lin is a member of {body}",
            f"Kay Lin's husband is {old} of {body}", "Kay Lin lives in York"]
    told = f"Kay Lin is now {new} of {body}."
    after = texts_after(fresh_store, [f"{t}." for t in (held, *kept)], "remember", told)
    assert {*kept, told.rstrip(".")} <= after
    assert held not in after


def test_two_offices_of_one_body_leave_both(fresh_store: memory_es.MemoryStore) -> None:
    held = ["Kay Lin is treasurer of the tennis club", "Kay Lin is secretary of the tennis club"]
    after = texts_after(fresh_store, [f"{t}." for t in held], "remember",
                        "Kay Lin is now chair of the tennis club.")
    assert set(held) <= after


def test_an_office_without_now_leaves_the_old_one(fresh_store: memory_es.MemoryStore) -> None:
    held = "Kay Lin is treasurer of the tennis club"
    after = texts_after(fresh_store, [f"{held}."], "remember",
                        "Kay Lin is chair of the tennis club.")
    assert held in after


def test_a_hyphenated_office_is_one(fresh_store: memory_es.MemoryStore) -> None:
    held = "Ravi Patel is chair of the school governors"
    after = texts_after(fresh_store, [f"{held}."], "remember",
                        "Ravi Patel is now vice-chair of the school governors.")
    assert held not in after


@_SLOW
@given(st.sampled_from(["member", "trustee", "director", "governor"]),
       st.permutations(["the tennis club", "the golf club", "the rowing club"]))
def test_a_new_place_among_many_adds(fresh_store: memory_es.MemoryStore, noun: str,
                                     bodies: list[str]) -> None:
    held = [f"Kay Lin is a {noun} of {bodies[0]}", f"Kay Lin is treasurer of {bodies[2]}"]
    told = f"Kay Lin is now a {noun} of {bodies[1]}."
    after = texts_after(fresh_store, [f"{t}." for t in held], "remember", told)
    assert {*held, told.rstrip(".")} <= after


def test_a_new_home_of_that_kind_replaces_the_old(fresh_store: memory_es.MemoryStore) -> None:
    """A tenant of a flat is where one lives, one at a time: not a place among many."""
    held = "Omar Haddad is a tenant of Flat 4 on Mill Lane"
    after = texts_after(fresh_store, [f"{held}.", "Omar Haddad is a fan of cricket."],
                        "remember", "Omar Haddad is now a tenant of Flat 9 on Mill Lane.")
    assert held not in after
    assert "Omar Haddad is a fan of cricket" in after


@_SLOW
@given(st.permutations(["the rugby team", "the cricket team", "the hockey team"]),
       st.sampled_from(["captain", "coach", "manager"]))
def test_an_office_of_another_body_of_that_kind_leaves_the_old(
        fresh_store: memory_es.MemoryStore, bodies: list[str], office: str) -> None:
    """``coach`` is a verb too: after ``is`` its bare form is the office's noun."""
    held = [f"Ben Cole is {office} of {bodies[0]}", f"Ben Cole is a member of {bodies[1]}"]
    told = f"Ben Cole is now {office} of {bodies[1]}."
    after = texts_after(fresh_store, [f"{t}." for t in held], "remember", told)
    assert {*held, told.rstrip(".")} <= after
    replaced = texts_after(fresh_store, [f"{held[0]}."], "remember",
                           f"Ben Cole is now vice-{office} of {bodies[0]}.")
    assert held[0] not in replaced


def test_an_office_of_two_words_is_one(fresh_store: memory_es.MemoryStore) -> None:
    """``head coach``: a word that qualifies the office's noun before ``of``."""
    held = ["Nina Ash is coach of the under-12s", "Nina Ash is a member of the tennis club"]
    after = texts_after(fresh_store, [f"{t}." for t in held], "remember",
                        "Nina Ash is now head coach of the under-12s.")
    assert held[0] not in after
    assert held[1] in after


def test_a_part_of_a_body_is_no_office(fresh_store: memory_es.MemoryStore) -> None:
    """``part`` has no sense that names a person: ``is part of`` says no office."""
    held = "Gwen Hart is part of the rowing club"
    after = texts_after(fresh_store, [f"{held}."], "remember",
                        "Gwen Hart is now captain of the rowing club.")
    assert held in after
