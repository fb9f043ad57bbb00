"""An ending told in the active of a fact told in the passive (SPEC §15): ``Kim Tran no
longer leads the Orion project`` (or ``stopped leading``) ends ``The Orion project is led
by Kim Tran``: the object's fact of the same verb with the subject as its whole agent.
Another project the person leads, a fact the project has of another verb, a thing led by
two people and a colleague's alike fact stay."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text.interpreter import interpret
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


def test_a_thing_cancelled_ends_what_was_said_of_it(fresh_store: memory_es.MemoryStore) -> None:
    """``The product launch was cancelled``: the launch is no more, so its date and hall
    end; another event on the same day stays, and so does a thing that cancelled
    something of its own (``The book club cancelled its December meeting``)."""
    setup = ["The product launch is on 4 June.", "The product launch is in Hall B.",
             "The quarterly review is on 4 June.", "The book club meets on Tuesdays."]
    assert texts_after(fresh_store, setup, "remember", "The product launch was cancelled.") == (
        said(setup[2:]) | {"The product launch was cancelled"})
    assert said(setup) <= texts_after(fresh_store, setup, "remember",
                                      "The book club cancelled its December meeting.")


def test_a_handle_takes_no_article() -> None:
    """A role noun and a lower-case word name a user (``User admin2``), never after an
    article: ``The product launch`` is a thing, not the product called launch."""
    (launch,) = interpret("The product launch is on 4 June.").clauses
    (user,) = interpret("User admin2 has root access.").clauses
    assert (launch.entity, user.entity) == ("topic:product-launch", "user:admin2")
