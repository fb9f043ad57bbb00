"""A relative's fact beside the owner's, and names in apposition inside a list (SPEC §15):

- ``Ana Costa's husband Rui works at Meta`` is his: ``where Ana Costa works`` ends her
  own job and leaves his, and ``where Ana Costa's husband works`` ends his and not hers;
- a relative's fact is theirs even when no fact of the owner's matches: ``Farah's Tesco
  shares`` names no fact of Farah's beside ``Farah's husband holds Tesco shares``; a
  thing the owner has (``Karl's savings account``) is no such person, and any noun that
  names a person first and never a thing is one (``roommate``, ``landlord``, ``tutor``),
  unless another noun follows it (``Nadia's dentist appointment`` is hers, ``Nadia's
  son's dentist appointment`` her son's);
- a possessed noun with a name in apposition names a being of its own (``Ines's
  neighbour Paul``, ``Theo's bandmate Jo Hale``), whatever the noun: ``Ines grows
  dahlias`` is not Paul's fact, ``Ines's neighbour grows dahlias`` is;
- ``has two cats, Milo and Otis, and a dog called Rex``: the names belong to the cats, so
  releasing the dog keeps the cats and their names."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from memory_es.text.lists import list_items
from tests.unit.text_support import current_texts, fresh_tenant

_SLOW = settings(max_examples=8, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])


def _after(store: memory_es.MemoryStore, texts: list[str], op: str, query: str) -> set[str]:
    """The current texts of a fresh tenant after ``texts`` and one operation."""
    tenant, ti = fresh_tenant(), TextInterface(store)
    for text in texts:
        ti.remember(tenant, text + ".")
    getattr(ti, op)(tenant, query)
    return current_texts(store, tenant)


@_SLOW
@given(st.sampled_from(["husband", "wife", "sister", "manager", "son"]), st.booleans())
def test_a_relatives_act_is_theirs_unless_the_query_asks_for_them(
        fresh_store: memory_es.MemoryStore, relative: str, ask_for_them: bool) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    hers = "Ana Costa works at Google"
    theirs = f"Ana Costa's {relative} works at Meta"
    kept = "Ana Costa lives in Lisbon"
    for text in (hers, theirs, kept):
        ti.remember(tenant, text + ".")
    query = f"where Ana Costa's {relative} works" if ask_for_them else "where Ana Costa works"
    ti.forget(tenant, query)
    after = current_texts(fresh_store, tenant)
    assert kept in after
    assert (theirs in after) != ask_for_them
    assert (hers in after) == ask_for_them


@_SLOW
@given(st.sampled_from(["husband", "wife", "sister", "manager", "son"]),
       st.sampled_from([("lives in Singapore", "teaches piano"), ("works at Meta", "plays golf"),
                        ("is a nurse", "drives a Volvo")]))
def test_a_relative_asked_for_takes_every_fact_of_theirs(
        fresh_store: memory_es.MemoryStore, relative: str, theirs: tuple[str, str]) -> None:
    """``forget Mei Tan's husband`` takes each fact of his, those where he acts on an
    object too (``teaches piano``), and none of hers, even the same ones."""
    facts = [f"Mei Tan's {relative} {t}" for t in theirs]
    hers = [f"Mei Tan {t}" for t in theirs]
    after = _after(fresh_store, [*hers, *facts], "forget", f"Mei Tan's {relative}")
    assert after == set(hers)


@_SLOW
@given(st.sampled_from([("two cats", "Milo and Otis"), ("three hens", "Ada, Bea and Cy"),
                        ("two sons", "Ravi or Dev")]))
def test_names_in_apposition_stay_with_their_item(
        fresh_store: memory_es.MemoryStore, thing: tuple[str, str]) -> None:
    kind, names = thing
    text = f"Tom Hale has {kind}, {names}, and a dog called Rex"
    assert list_items(text) == ("Tom Hale has", [f"{kind}, {names}", "a dog called Rex"],
                                "and", "")
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for fact in (text, "Tom Hale lives in York"):
        ti.remember(tenant, fact + ".")
    ti.release(tenant, "Tom Hale's dog")
    after = current_texts(fresh_store, tenant)
    assert after == {f"Tom Hale has {kind}, {names}", "Tom Hale lives in York"}


@_SLOW
@given(st.sampled_from(["daughter", "husband", "father"]), st.booleans())
def test_a_relatives_thing_is_theirs_unless_the_query_asks_for_them(
        fresh_store: memory_es.MemoryStore, relative: str, ask_for_them: bool) -> None:
    """``Eva's daughter's blood type is O-`` is the daughter's; ``Eva's husband is Tom``
    stays Eva's own fact (a guard: the relative is the thing itself)."""
    hers = "Eva Lind's blood type is A+"
    theirs = f"Eva Lind's {relative}'s blood type is O-"
    kept = {"Eva Lind takes iron tablets", f"Eva Lind's {relative} is Tom Lind"}
    asked = f"{relative}'s blood type" if ask_for_them else "blood type"
    after = _after(fresh_store, [hers, theirs, *kept], "forget", f"Eva Lind's {asked}")
    assert kept <= after
    assert (theirs in after) != ask_for_them
    assert (hers in after) == ask_for_them


@_SLOW
@given(st.sampled_from(["husband", "sister", "son"]), st.booleans())
def test_a_relatives_fact_alone_is_still_theirs(
        fresh_store: memory_es.MemoryStore, relative: str, ask_for_them: bool) -> None:
    theirs = f"Farah Aziz's {relative} holds Tesco shares"
    kept = {"Farah Aziz holds 200 shares of Unilever", "Farah Aziz lives in Reading"}
    asked = f"{relative}'s Tesco shares" if ask_for_them else "Tesco shares"
    after = _after(fresh_store, [theirs, *kept], "release", f"Farah Aziz's {asked}")
    assert kept <= after
    assert (theirs in after) != ask_for_them


@_SLOW
@given(st.sampled_from(["roommate", "landlord", "tutor", "therapist", "neighbour", "mentor"]),
       st.booleans())
def test_a_person_noun_makes_the_fact_that_persons(
        fresh_store: memory_es.MemoryStore, person: str, ask_for_them: bool) -> None:
    theirs = f"Sam Ade's {person} studies medicine"
    kept = {"Sam Ade studies law at King's College", "Sam Ade lives in Leeds"}
    asked = f"Sam Ade's {person}" if ask_for_them else "Sam Ade studies medicine"
    after = _after(fresh_store, [theirs, *kept], "forget", asked)
    assert kept <= after
    assert (theirs in after) != ask_for_them


@_SLOW
@given(st.sampled_from(["dentist", "tutor", "therapist"]),
       st.sampled_from(["son", "daughter", "roommate"]))
def test_a_person_noun_before_a_thing_says_what_kind_of_thing(
        fresh_store: memory_es.MemoryStore, person: str, relative: str) -> None:
    theirs = f"Nadia Ali's {relative}'s {person} appointment is on March 4"
    kept = {"Nadia Ali's haircut is on March 5", "Nadia Ali lives in Leeds", theirs}
    after = _after(fresh_store, [f"Nadia Ali's {person} appointment is on March 3", *kept],
                   "remember", f"Nadia Ali's {person} appointment moved to March 10.")
    assert after == kept | {f"Nadia Ali's {person} appointment moved to March 10"}


@_SLOW
@given(st.sampled_from(["savings account", "bank account", "pension account"]),
       st.sampled_from(["forget", "release"]))
def test_an_account_is_the_owners_thing_not_a_person(
        fresh_store: memory_es.MemoryStore, thing: str, op: str) -> None:
    held = f"Karl Moe's {thing} is at Nordea"
    kept = {"Karl Moe's salary is 52,000 euros", "Karl Moe lives in Bergen"}
    assert _after(fresh_store, [held, *kept], op, f"Karl Moe's {thing}") == kept


_NAMED = [("neighbour Paul", "grows dahlias", "grows leeks"),
          ("bandmate Jo Hale", "plays the drums", "plays bass"),
          ("lodger Sam", "bakes bread", "brews beer")]


@_SLOW
@given(st.sampled_from(_NAMED), st.sampled_from(["", "noun", "name"]))
def test_a_named_being_of_the_owners_is_theirs(
        fresh_store: memory_es.MemoryStore, named: tuple[str, str, str], ask: str) -> None:
    """Asked for by the owner alone, the named being's fact stays; asked for by its noun
    or its name (a guard), it ends."""
    being, act, own = named
    theirs = f"Ines Duarte's {being} {act}"
    kept = {f"Ines Duarte {own}", "Ines Duarte lives in Porto"}
    noun, name = being.split(maxsplit=1)
    subject = {"": "Ines Duarte", "noun": f"Ines Duarte's {noun}",
               "name": f"Ines Duarte's {name}"}[ask]
    after = _after(fresh_store, [theirs, *kept], "forget", f"{subject} {act}")
    assert kept <= after
    assert (theirs in after) == (ask == "")
