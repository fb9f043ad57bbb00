"""Where a query's noun phrase ends (SPEC §15).

- Before a relative clause: ``the library knitting group I go to`` is a group, told by
  ``library`` and ``knitting``, which the user goes to; ``the pottery class I go to``
  shares only the clause's ``go`` with the knitting circle and is no match. ``that``
  after an information noun opens what it holds (``the note that Nadia speaks Polish``).
- Before a preposition's phrase: ``union role at the call centre`` is no match for a fact
  that shares only the call centre.
- After a possessive: ``Tariq's leased company car`` owns the car, no ``has leased``.

A relative's fact kept under the user (``My mum also goes to …``) is hers: ``mum``,
``nan``, ``gran`` and ``granny`` are kin, as ``mom`` is."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import memory_es
from tests.unit.text_support import assert_first_ended_only, said, store_examples, texts_after

_SLOW = store_examples()
CIRCLE = "I go to the Thursday afternoon knitting circle at Hebden Bridge library."
KIN = "My {k} also goes to the Thursday afternoon knitting circle at Hebden Bridge library."
KEPT = "I volunteer at Hebden Bridge library on Saturday mornings."
KIN_WORDS = st.sampled_from(["mum", "nan", "gran", "granny", "mother"])


@_SLOW
@given(KIN_WORDS, st.sampled_from(["the library knitting group I go to",
                                   "the knitting circle that I go to", "my knitting circle"]))
def test_a_relative_clause_leaves_the_thing_it_restricts(
        fresh_store: memory_es.MemoryStore, kin: str, asked: str) -> None:
    setup = [CIRCLE, KIN.format(k=kin), KEPT]
    after = texts_after(fresh_store, setup, "release", asked)
    assert_first_ended_only(setup, after)


@_SLOW
@given(st.sampled_from(["the pottery class I go to", "the yoga class I go to",
                        "the choir she sings in"]))
def test_what_only_the_relative_clause_shares_is_no_match(
        fresh_store: memory_es.MemoryStore, asked: str) -> None:
    setup = [CIRCLE, KEPT]
    assert said(setup) <= texts_after(fresh_store, setup, "release", asked)


def test_that_after_an_information_noun_holds_what_it_says(
        fresh_store: memory_es.MemoryStore) -> None:
    """``the note that Nadia speaks Polish``: a content clause, not a relative one."""
    setup = ["Nadia Petrova speaks Polish.", "Nadia Petrova rows on Sundays."]
    after = texts_after(fresh_store, setup, "release", "the note that Nadia speaks Polish")
    assert_first_ended_only(setup, after)


CALL_CENTRE = ["{p} trains new recruits at the Taff Energy call centre on Monday afternoons.",
               "{p} works night shifts on the billing helpline at the Taff Energy call centre.",
               "{p} is the Unison workplace representative at the Taff Energy call centre.",
               "{p} is studying part-time for a psychology degree."]


@_SLOW
@given(st.sampled_from(["Priyanka Raghunathan", "Owain Pryce"]),
       st.sampled_from(["{p}'s union role at the call centre",
                        "{p}'s first aid duty at the call centre"]))
def test_a_thing_met_only_where_it_is_is_no_match(fresh_store: memory_es.MemoryStore,
                                                  person: str, asked: str) -> None:
    """``union role at the call centre``: a fact that shares only the place after the
    preposition, and nothing of the noun phrase before it, is another thing there."""
    setup = [t.format(p=person) for t in CALL_CENTRE]
    assert said(setup) <= texts_after(fresh_store, setup, "forget", asked.format(p=person))


@_SLOW
@given(st.sampled_from(["Priyanka Raghunathan", "Owain Pryce"]))
def test_a_thing_met_before_its_place_still_matches(fresh_store: memory_es.MemoryStore,
                                                    person: str) -> None:
    setup = [t.format(p=person) for t in CALL_CENTRE]
    after = texts_after(fresh_store, setup, "forget",
                        f"{person}'s night shifts at the call centre")
    assert said([setup[0], *setup[2:]]) <= after
    assert said(setup[1:2]).isdisjoint(after)


@_SLOW
@given(st.sampled_from(["Tariq Al-Mansouri", "Tom Baker"]),
       st.sampled_from(["{p}'s leased company car", "{p}'s rented lock-up garage"]))
def test_a_possessive_before_a_participle_is_a_thing(fresh_store: memory_es.MemoryStore,
                                                     person: str, asked: str) -> None:
    """``Tariq's leased company car``: ``'s`` owns the car; it is no ``has leased``, whose
    verb would be another act than the fact's ``drives``."""
    setup = [f"{person} drives a leased Skoda Octavia as a company car from Pennine Brokers.",
             f"{person} keeps his tools in a rented lock-up garage in Rusholme.",
             f"{person} looks after the insurance renewals for his uncle's restaurants."]
    after = texts_after(fresh_store, setup, "release", asked.format(p=person))
    gone = 0 if "car" in asked else 1
    assert said([t for i, t in enumerate(setup) if i != gone]) <= after
    assert said(setup[gone:gone + 1]).isdisjoint(after)


def test_a_name_after_the_noun_phrase_still_tells_the_thing(
        fresh_store: memory_es.MemoryStore) -> None:
    """``the errands Bernadette runs for her housebound neighbour Harold``: ``errands`` is
    no word of the fact, but ``Harold`` names whom it is for."""
    setup = ["Bernadette O'Rourke does the weekly food shopping for her housebound "
             "neighbour on Greenside, Harold Beck.",
             "Bernadette O'Rourke helps serve the Wednesday lunch club at the community "
             "centre."]
    after = texts_after(fresh_store, setup, "release",
                        "the errands Bernadette runs for her housebound neighbour Harold")
    assert_first_ended_only(setup, after)


@_SLOW
@given(st.sampled_from(["Priyanka Raghunathan", "Owain Pryce"]))
def test_a_possessor_in_the_place_owns_no_thing_asked_for(
        fresh_store: memory_es.MemoryStore, person: str) -> None:
    """``Priyanka's night shifts at the call centre``: the thing is the shifts, so the
    fact's ``at Taff Energy's call centre`` says where they are, not that they are Taff
    Energy's; ``walks her neighbour's dog`` is still no dog of hers."""
    setup = [f"{person} works night shifts on the billing helpline at Taff Energy's call "
             "centre.",
             f"{person} trains new recruits at Taff Energy's call centre on Mondays.",
             f"{person} walks her neighbour's dog in Bute Park."]
    after = texts_after(fresh_store, setup, "forget",
                        f"{person}'s night shifts at the call centre")
    assert_first_ended_only(setup, after)
    assert said(setup) <= texts_after(fresh_store, setup, "forget", f"{person}'s dog")
