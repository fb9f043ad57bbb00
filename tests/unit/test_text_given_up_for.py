"""What a person gives up, said with the object inside a phrasal verb or given for
something else (SPEC §15):

- a phrasal verb of ending holds with its object between verb and particle (``gave the
  chess club up``, ``handed the bakery over to her son``, ``called the wedding off``;
  a place inside the object when ``to`` follows the particle, ``handed her mornings at
  the studio over to a colleague``): the fact of that thing ends, every other stays;
- a verb of exchange gives up its object for what follows ``for`` (``traded her Skoda
  for a Kia``, ``swapped coffee for green tea``): the fact that held the object ends, a
  relative's same fact and a fact that only shares a word (``owns a coffee machine``)
  stay;
- a German verb before a preposition English shares, followed by a German article, is
  German (``studiert an der Uni Kiel``): a change replaces that verb's frame, never the
  brother's same fact."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import memory_es
from tests.unit.text_support import said, texts_after

_SLOW = settings(max_examples=8, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])
_NAMES = ["Nora Vance", "Idris Bello", "Mei Tanaka", "Jonas Becker"]


@_SLOW
@given(st.sampled_from(_NAMES),
       st.sampled_from([("coaches the junior chess club", "gave the junior chess club up"),
                        ("runs the corner bakery",
                         "handed the corner bakery over to her son"),
                        ("owns the billing service",
                         "handed the billing service over to a colleague"),
                        ("plans a wedding in June", "called the wedding off"),
                        ("narrates audiobooks at the Larkspur studio on Tuesday mornings",
                         "handed her Tuesday mornings at the Larkspur studio over to a "
                         "colleague")]))
@example(name="Mei Tanaka", pair=("runs the corner bakery",
                                  "handed the corner bakery over to her son"))
@example(name="Idris Bello", pair=(
    "narrates audiobooks at the Larkspur studio on Tuesday mornings",
    "handed her Tuesday mornings at the Larkspur studio over to a colleague"))
def test_a_phrasal_ending_around_its_object_ends_that_fact(
        fresh_store: memory_es.MemoryStore, name: str, pair: tuple[str, str]) -> None:
    held, ending = pair
    kept = [f"{name} lives in Bath.", f"{name} plays chess online.",
            f"{name}'s sister {held}."]
    setup = [f"{name} {held}.", *kept]
    after = texts_after(fresh_store, setup, "remember", f"{name} {ending}.")
    assert said(kept) <= after
    assert f"{name} {held}" not in after


@_SLOW
@given(st.sampled_from(_NAMES),
       st.sampled_from([("drives a Skoda", "traded her Skoda for a Kia"),
                        ("drives a Skoda", "swapped her Skoda for a Kia"),
                        ("drinks coffee", "swapped coffee for green tea"),
                        ("banks with Barclays", "exchanged Barclays for Monzo")]))
@example(name="Nora Vance", pair=("drinks coffee", "swapped coffee for green tea"))
def test_what_is_given_for_another_thing_ends(
        fresh_store: memory_es.MemoryStore, name: str, pair: tuple[str, str]) -> None:
    held, exchange = pair
    kept = [f"{name} lives in Bath.", f"{name} owns a coffee machine.",
            f"{name}'s daughter {held}."]
    after = texts_after(fresh_store, [f"{name} {held}.", *kept], "remember",
                        f"{name} {exchange}.")
    assert said(kept) <= after
    assert f"{name} {held}" not in after


@_SLOW
@given(st.sampled_from(["Lena Vogt", "Emre Öztürk", "Ida Weiß"]),
       st.sampled_from(["jetzt", "seit März"]),
       st.sampled_from([("studiert", "an der Uni Kiel", "an der Uni Hamburg"),
                        ("arbeitet", "in der Bäckerei", "in der Apotheke"),
                        ("joggt", "um den See", "um den Park")]))
@example(name="Ida Weiß", now="seit März",
         frame=("studiert", "an der Uni Kiel", "an der Uni Hamburg"))
def test_a_german_verb_before_a_shared_preposition_and_an_article(
        fresh_store: memory_es.MemoryStore, name: str, now: str,
        frame: tuple[str, str, str]) -> None:
    verb, old, new = frame
    kept = [f"{name} wohnt in Kiel.", f"{name} spielt Tennis.",
            f"{name}s Bruder {verb} {old}."]
    after = texts_after(fresh_store, [f"{name} {verb} {old}.", *kept], "remember",
                        f"{name} {verb} {now} {new}.")
    assert said(kept) <= after
    assert f"{name} {verb} {old}" not in after


@_SLOW
@given(st.sampled_from(_NAMES),
       st.sampled_from([("works weekend shifts", "traded shifts for the weekend"),
                        ("works night shifts", "swapped shifts for a week"),
                        ("drives a Skoda", "swapped cars for the summer")]))
def test_a_time_after_for_gives_nothing_up(
        fresh_store: memory_es.MemoryStore, name: str, pair: tuple[str, str]) -> None:
    """``traded shifts for the weekend``: a time after ``for`` says for how long, not
    what was taken instead, so nothing the person holds ends."""
    held, exchange = pair
    setup = [f"{name} {held}.", f"{name} lives in Bath."]
    after = texts_after(fresh_store, setup, "remember", f"{name} {exchange}.")
    assert said(setup) <= after


@settings(max_examples=4, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["traded", "swapped", "exchanged"]))
def test_what_is_said_of_a_thing_given_away_goes_with_it(
        fresh_store: memory_es.MemoryStore, verb: str) -> None:
    """``traded her Ford Focus for a Kia Niro`` ends ``Beth's Ford Focus is red`` as well
    as ``drives a Ford Focus``; her husband's Focus and what is said of her car under
    another noun (``car is insured with Aviva``) stay."""
    held = ["Beth Long drives a Ford Focus", "Beth Long's Ford Focus is red"]
    kept = ["Beth Long's husband drives a Ford Focus too", "Beth Long's car is insured with Aviva",
            "Beth Long lives in Hull"]
    after = texts_after(fresh_store, [f"{t}." for t in (*held, *kept)], "remember",
                        f"Beth Long {verb} her Ford Focus for a Kia Niro.")
    assert not set(held) & after
    assert set(kept) <= after
