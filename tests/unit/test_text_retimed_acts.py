"""An act told anew at another day is the same act moved (SPEC §15): ``Irina Popa now
plays chess on Fridays`` replaces ``Irina Popa plays chess at the club on Thursdays``,
whatever else the old fact says of it; another act at that time, a relative's same act
and the act at the same day stay, and with two facts of the act at other days, which is
meant is not said and neither ends.

The reference model is the list of facts each case writes: the one re-timed act ends,
every other stays.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from tests.unit.text_support import said, texts_after

_ACTS = [("plays", "chess"), ("plays", "tennis"), ("does", "yoga")]
_WHERE = ["at the club", "in the park"]
_DAYS = [("Thursdays", "Fridays"), ("Mondays", "Saturdays")]


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(_ACTS), st.sampled_from(_WHERE), st.sampled_from(_DAYS))
def test_an_act_told_at_another_day_replaces_the_one_it_moved(
        fresh_store: memory_es.MemoryStore, act: tuple[str, str], where: str,
        days: tuple[str, str]) -> None:
    verb, thing = act
    old, new = days
    held = f"Irina Popa {verb} {thing} {where} on {old}."
    setup = [held, f"Irina Popa's son {verb} {thing} too.",
             f"Irina Popa teaches piano {where} on {old}.", "Irina Popa lives in Iasi."]
    told = f"Irina Popa now {verb} {thing} on {new}."
    after = texts_after(fresh_store, setup, "remember", told)
    assert after == said([*setup, told], but=[held])


def test_two_facts_of_the_act_at_other_days_stay(fresh_store: memory_es.MemoryStore) -> None:
    setup = ["Irina Popa plays chess at the club on Thursdays.",
             "Irina Popa plays chess at school on Mondays."]
    after = texts_after(fresh_store, setup, "remember", "Irina Popa now plays chess on Fridays.")
    assert said(setup) <= after


def test_a_state_at_a_day_or_an_act_at_an_hour_stays(
        fresh_store: memory_es.MemoryStore) -> None:
    """Guards: a day leaves the hours (``is now open on Sundays``, ``opens at 7am``), and
    the act at a clock time."""
    after = texts_after(fresh_store, ["The bakery on Mill Street opens at 7am."], "remember",
                        "The bakery on Mill Street is now open on Sundays.")
    assert "The bakery on Mill Street opens at 7am" in after
    after = texts_after(fresh_store, ["Irina Popa plays chess at 7pm."], "remember",
                        "Irina Popa now plays chess on Fridays.")
    assert "Irina Popa plays chess at 7pm" in after


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from([("part-time", "full-time"), ("full-time", "part-time"),
                        ("remotely", "part-time")]),
       st.sampled_from(["the library", "a café", "the hospital"]))
def test_how_one_works_at_a_place_told_anew_replaces_how_one_did(
        fresh_store: memory_es.MemoryStore, how: tuple[str, str], where: str) -> None:
    """``now works full-time at the library`` replaces ``works part-time at the library``;
    a job at another place and a relative's job at the same place stay."""
    was = f"Rosa Jimenez works {how[0]} at {where}."
    kept = [f"Rosa Jimenez's husband works {how[0]} at {where} too.",
            "Rosa Jimenez works weekends at the market.", "Rosa Jimenez lives in Valencia."]
    now = f"Rosa Jimenez now works {how[1]} at {where}."
    assert texts_after(fresh_store, [was, *kept], "remember", now) == said([*kept, now])
