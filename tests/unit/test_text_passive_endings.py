"""An ending told in the active of a fact told in the passive (SPEC §15): ``Kim Tran no
longer leads the Orion project`` (or ``stopped leading``) ends ``The Orion project is led
by Kim Tran``: the object's fact of the same verb with the subject as its whole agent.
Another project the person leads, a fact the project has of another verb, a thing led by
two people and a colleague's alike fact stay."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import memory_es
from tests.unit.text_support import said, texts_after

_SLOW = settings(max_examples=8, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])


@_SLOW
@given(st.sampled_from(["Kim Tran", "Sara Holt", "Idris Bello"]),
       st.sampled_from([("leads", "led", "the Orion project", "the Vega project"),
                        ("owns", "owned", "the corner bakery", "the flower shop"),
                        ("manages", "managed", "the Leeds office", "the York office")]),
       st.sampled_from(["no longer {verb}", "stopped {gerund}"]))
@example(name="Kim Tran", act=("leads", "led", "the Orion project", "the Vega project"),
         wording="no longer {verb}")
def test_an_active_ending_ends_the_passive_fact(
        fresh_store: memory_es.MemoryStore, name: str, act: tuple[str, str, str, str],
        wording: str) -> None:
    verb, participle, thing, other = act
    gerund = verb[:-1].removesuffix("e") + "ing"
    held = f"{thing.capitalize()} is {participle} by {name}."
    kept = [f"{other.capitalize()} is {participle} by {name}.",
            f"{thing.capitalize()} uses PostgreSQL 14.",
            f"{thing.capitalize()} is {participle} by {name} and Ana Ruiz.",
            f"{name} lives in Leeds."]
    after = texts_after(fresh_store, [held, *kept], "remember",
                        f"{name} {wording.format(verb=verb, gerund=gerund)} {thing}.")
    assert said(kept) <= after
    assert held.rstrip(".") not in after
