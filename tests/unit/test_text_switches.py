"""Switches between alternatives, and the user's named pet (SPEC §15).

- ``switched from Android to an iPhone`` ends ``uses an Android phone``: the thing left,
  with one common noun after it, is of the kind switched from. A move between places
  ends only what is exactly the place; a thing that names it among more survives.
- ``switched from the Canon R5 to a Sony`` ends ``shoots weddings with a Canon R5``: the
  thing its act was done with.
- ``now takes apixaban instead of warfarin`` ends ``takes warfarin daily``: what a verb's
  object stands instead of, said with the same verb, times and adverbs aside; a fact of
  another verb about it (``is allergic to warfarin``) or another person's stays.
- ``prefers phone calls`` ends ``prefers e-mail over phone calls``: a preference that put
  the very thing now preferred below another; ``prefers calls`` or ``drinks coffee``
  are not it.
- ``My cat Miso`` is the user's cat, as ``Zoe's cat Miso`` is Zoe's; ``My sister Ana``
  is still a person of her own.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from memory_es.text.interpreter import interpret
from tests.unit.text_support import current_texts, fresh_tenant, texts_after

_SLOW = settings(max_examples=8, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])


@_SLOW
@given(st.sampled_from([("Sam Ortiz uses an Android phone", "Android", "iPhone", "phone"),
                        ("Sam Ortiz has a Vodafone contract", "Vodafone", "Three", "contract"),
                        ("Sam Ortiz uses a Windows laptop", "Windows", "Linux", "laptop"),
                        ("Sam Ortiz banks with Barclays", "Barclays", "Monzo", "card")]),
       st.sampled_from(["switched", "changed", "has switched"]))
def test_a_switch_ends_the_thing_of_the_kind_it_left(
        fresh_store: memory_es.MemoryStore, thing: tuple[str, str, str, str],
        verb: str) -> None:
    held, old, new, noun = thing
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    kept = ["Sam Ortiz uses a Garmin watch", f"Sam Ortiz has an {old} {noun} and a Nokia {noun}",
            held.replace("Sam Ortiz", "Leo Park")]
    for text in [held, *kept]:
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"Sam Ortiz {verb} from {old} to {new}.")
    current = current_texts(fresh_store, tenant)
    assert held not in current
    assert set(kept) <= current


@_SLOW
@given(st.sampled_from([("shoots weddings with a Canon R5", "the Canon R5", "a Sony A7 IV"),
                        ("writes her novels with a Lamy pen", "the Lamy pen", "a Pilot pen"),
                        ("cooks with olive oil", "olive oil", "butter")]))
def test_a_switch_ends_what_an_act_was_done_with(
        fresh_store: memory_es.MemoryStore, thing: tuple[str, str, str]) -> None:
    """``switched from the Canon R5 to a Sony`` ends ``shoots weddings with a Canon R5``:
    the thing the act was done with is what the switch left. A relative's act with it,
    kept under her id, an act with another thing, and another person's stay."""
    act, old, new = thing
    held = f"Ines Moreau {act}"
    kept = {f"Ines Moreau's brother {act} too", "Ines Moreau paints with watercolours",
            f"Leo Park {act}"}
    after = texts_after(fresh_store, [f"{t}." for t in (held, *sorted(kept))], "remember",
                        f"Ines Moreau switched from {old} to {new}.")
    assert held not in after
    assert kept <= after


def test_a_move_between_places_ends_only_the_place(fresh_store: memory_es.MemoryStore) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for text in ("Omar Haddad supports the Leeds rugby team.", "Omar Haddad lives in Leeds.",
                 "Omar Haddad has a Leeds flat."):
        ti.remember(tenant, text)
    ti.remember(tenant, "Omar Haddad moved from Leeds to York.")
    current = current_texts(fresh_store, tenant)
    assert "Omar Haddad lives in Leeds" not in current
    assert {"Omar Haddad supports the Leeds rugby team", "Omar Haddad has a Leeds flat"} <= current


@_SLOW
@given(st.sampled_from(["cat", "dog", "rabbit", "parrot"]), st.sampled_from(["My", "Our"]),
       st.sampled_from(["died last week", "passed away", "has died"]))
def test_the_users_named_pet_is_the_users(fresh_store: memory_es.MemoryStore, animal: str,
                                          my: str, ended: str) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for text in (f"I have a {animal} called Miso.", "I have a horse called Rex.",
                 f"Leo Park has a {animal} called Miso."):
        ti.remember(tenant, text)
    reading = interpret(f"{my} {animal} Miso {ended}.").clauses[0]
    assert reading.entity == "user:self"
    ti.remember(tenant, f"{my} {animal} Miso {ended}.")
    current = current_texts(fresh_store, tenant)
    assert f"I have a {animal} called Miso" not in current
    assert {"I have a horse called Rex", f"Leo Park has a {animal} called Miso"} <= current


@given(st.sampled_from(["sister", "brother", "friend", "colleague"]))
def test_a_named_relative_is_a_person(relation: str) -> None:
    assert interpret(f"My {relation} Ana lives in Rome.").clauses[0].entity == "person:ana"


@_SLOW
@given(st.sampled_from([("drinks coffee", "has a coffee machine", "coffee", "tea"),
                        ("plays chess", "collects chess books", "chess", "go"),
                        ("studies law", "reads law reports", "law", "medicine")]))
def test_a_common_noun_before_another_is_not_a_kind(
        fresh_store: memory_es.MemoryStore, facts: tuple[str, str, str, str]) -> None:
    held, compound, old, new = facts
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for text in (held, compound):
        ti.remember(tenant, f"Ana Costa {text}.")
    ti.remember(tenant, f"Ana Costa switched from {old} to {new}.")
    current = current_texts(fresh_store, tenant)
    assert f"Ana Costa {held}" not in current
    assert f"Ana Costa {compound}" in current


@_SLOW
@given(st.sampled_from([("takes", "warfarin", "apixaban", "daily"),
                        ("drinks", "coffee", "green tea", "every morning"),
                        ("uses", "PyTorch", "JAX", "at work"),
                        ("reads", "The Times", "The Guardian", "on Sundays")]),
       st.sampled_from(["now ", ""]))
def test_what_an_object_stands_instead_of_ends(
        fresh_store: memory_es.MemoryStore, act: tuple[str, str, str, str], now: str) -> None:
    verb, old, new, when = act
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    held = f"Ines Vidal {verb} {old} {when}"
    kept = [f"Ines Vidal's husband {verb} {old}", f"Ines Vidal writes about {old}",
            "Ines Vidal lives in Porto"]
    for text in [held, *kept]:
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"Ines Vidal {now}{verb} {new} instead of {old}.")
    assert current_texts(fresh_store, tenant) == {
        *kept, f"Ines Vidal {now}{verb} {new} instead of {old}"}


@_SLOW
@given(st.sampled_from([("e-mail", "over", "phone calls"), ("tea", "to", "coffee"),
                        ("trains", "rather than", "flights"), ("mornings", "over", "evenings")]),
       st.sampled_from(["now ", ""]))
def test_a_preference_for_what_was_put_below_ends_it(
        fresh_store: memory_es.MemoryStore, pair: tuple[str, str, str], now: str) -> None:
    liked, word, below = pair
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    held = f"Omar Farouk prefers {liked} {word} {below}"
    kept = [f"Omar Farouk writes about {below}",
            f"Omar Farouk's wife prefers {liked} {word} {below}",
            "Omar Farouk lives in Cairo"]
    for text in [held, *kept]:
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"Omar Farouk {now}prefers {below.split()[-1]}x.")
    assert held in current_texts(fresh_store, tenant)  # another thing: nothing ends
    ti.remember(tenant, f"Omar Farouk {now}prefers {below}.")
    assert current_texts(fresh_store, tenant) >= set(kept)
    assert held not in current_texts(fresh_store, tenant)


@_SLOW
@given(st.sampled_from([("tea", "coffee"), ("cats", "dogs"), ("beer", "wine")]),
       st.sampled_from(["I prefer {} now", "Now I prefer {}", "These days I prefer {} now"]))
def test_a_preference_said_to_hold_now_ends_one_of_the_same_kind(
        fresh_store: memory_es.MemoryStore, pair: tuple[str, str], said: str) -> None:
    """``I prefer coffee now`` ends ``I prefer tea`` (both drinks); a preference of another
    kind (``window seats``), a relative's and one said of another time stay."""
    old, new = pair
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    kept = ["I prefer window seats", f"My partner prefers {old}", "I live in Leeds"]
    for text in [f"I prefer {old}", *kept]:
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"I preferred {new} in 2019.")
    assert f"I prefer {old}" in current_texts(fresh_store, tenant)
    ti.remember(tenant, said.format(new) + ".")
    after = current_texts(fresh_store, tenant)
    assert set(kept) <= after
    assert f"I prefer {old}" not in after
    (clause,) = interpret(f"I prefer {new} now.").clauses
    assert clause.attribute == f"pref.{new}"


@pytest.mark.parametrize(("thing", "old", "new"), [
    ("GP", "Dr Rao", "Dr Khan"), ("NHS number", "943 476 5919", "943 476 5920"),
    ("VPN username", "rcole", "rcole2")])
def test_the_users_thing_written_in_capitals_is_the_users(
        fresh_store: memory_es.MemoryStore, thing: str, old: str, new: str) -> None:
    """``My GP is Dr Rao``: an acronym after ``my`` is the thing, not a person's name as
    ``Ana`` is in ``My sister Ana``; the user's slot, which ``My GP is now Dr Khan``
    replaces, and the user's other facts stay."""
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    [clause] = interpret(f"My {thing} is {old}.").clauses
    assert clause.entity == "user:self"
    kept = "I live in Bolton"
    for text in (f"My {thing} is {old}", kept):
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"My {thing} is now {new}.")
    assert current_texts(fresh_store, tenant) == {kept, f"My {thing} is now {new}"}
    [sister] = interpret("My sister Ana lives in Leeds.").clauses
    assert sister.entity == "person:ana"
