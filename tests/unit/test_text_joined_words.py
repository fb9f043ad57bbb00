"""Words written joined (SPEC §15): a hyphenated given name names its person, a verb with
a word joined before it is the verb, a German compound's last part names it, and a
German genitive of a name with particles is its owner's; and two words a query says side
by side say which of the facts that hold both it means."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import memory_es
from memory_es.text.interpreter import interpret
from memory_es.text.paths import entity_id
from tests.unit.text_support import assert_first_ended_only, store_examples, texts_after

_SLOW = store_examples(6)


@_SLOW
@given(st.sampled_from([("Mei-Ling O'Donoghue", "Mei-Ling's"),
                        ("Jukka-Pekka Hämäläinen", "Jukka-Pekka's"),
                        ("Thanh-Huong Nguyen", "Thanh-Huong's")]),
       st.sampled_from(["forget", "release"]))
def test_a_hyphenated_given_name_names_its_person(
        fresh_store: memory_es.MemoryStore, person: tuple[str, str], op: str) -> None:
    full, given_name = person
    setup = [f"{full} takes a puppet show round Islington primary schools on Wednesdays.",
             "Siobhan Kelly takes a puppet show round Islington primary schools on Wednesdays.",
             f"{full} works as a stage manager at the Almeida Theatre."]
    after = texts_after(fresh_store, setup, op, f"{given_name} Wednesday puppet show")
    assert_first_ended_only(setup, after)


@_SLOW
@given(st.sampled_from([("hand-paints", "hand-painting"), ("test-solves", "test-solving"),
                        ("spray-paints", "spray-painting")]),
       st.sampled_from(["forget", "release"]))
def test_a_verb_with_a_word_joined_before_it_is_the_verb(
        fresh_store: memory_es.MemoryStore, verb: tuple[str, str], op: str) -> None:
    finite, gerund = verb
    setup = [f"Aroha Te Rangi-Walker {finite} shop signs along Cuba Street on weekdays.",
             f"Aroha Te Rangi-Walker's flatmate, Priya Sharma, also {finite} shop signs "
             "along Cuba Street on weekdays.",
             "Aroha Te Rangi-Walker teaches a lettering workshop at the arts centre."]
    after = texts_after(fresh_store, setup, op,
                        f"Aroha's weekday {gerund} for the shops on Cuba Street")
    assert_first_ended_only(setup, after)


@_SLOW
@given(st.sampled_from([("Saturday", "cryptic", "crossword"), ("Sunday", "roast", "dinner")]),
       st.sampled_from(["forget", "release"]))
def test_two_words_said_side_by_side_say_which_fact(
        fresh_store: memory_es.MemoryStore, words: tuple[str, str, str], op: str) -> None:
    day, thing, head = words
    setup = [f"Priya Abernethy sets the {day} {thing} {head} for the Evening Echo.",
             f"Priya Abernethy runs a {thing} workshop at Leeds Library on {day} afternoons.",
             "Priya Abernethy writes the weekday quick crossword for the Evening Echo."]
    after = texts_after(fresh_store, setup, op, f"Priya's {day} {thing} for the paper")
    assert_first_ended_only(setup, after)


@given(st.sampled_from(["Katharina von Stetten", "Jan-Hendrik van der Velde",
                        "Jürgen von Bülow"]),
       st.sampled_from(["Handynummer lautet 0171 5538902", "Auto ist ein Golf"]))
def test_a_german_genitive_of_a_name_with_particles_is_its_owners(name: str,
                                                                  rest: str) -> None:
    clause, = interpret(f"{name}s {rest}.").clauses
    assert clause.entity == entity_id("person", name)


@_SLOW
@given(st.sampled_from([("Lager", "Versandlager"), ("Nummer", "Personalnummer"),
                        ("Gruppe", "Walkinggruppe")]),
       st.sampled_from(["forget", "release"]))
def test_the_last_part_of_a_german_compound_names_it(
        fresh_store: memory_es.MemoryStore, head: tuple[str, str], op: str) -> None:
    word, compound = head
    setup = [f"Dragana Petrović hat montags die Frühschicht in der {compound} von Brandt.",
             f"Dragana Petrovićs Schwager, Zoran Jović, hat montags die Frühschicht in der "
             f"{compound} von Brandt.",
             "Dragana Petrović sitzt im Betriebsrat von Brandt Logistik in Leipzig."]
    after = texts_after(fresh_store, setup, op, f"Draganas Frühschicht in der {word}")
    assert_first_ended_only(setup, after)


@_SLOW
@given(st.sampled_from([("Jukka-Pekka Hämäläinen", "Jukka-Pekka"),
                        ("Mei-Ling O'Donoghue", "Mei-Ling")]),
       st.sampled_from(["no longer coaches the under-14 team",
                        "has handed the under-14 team over to a new coach"]))
def test_a_hyphenated_given_name_in_an_ending_is_the_known_persons(
        fresh_store: memory_es.MemoryStore, person: tuple[str, str], ending: str) -> None:
    full, given_name = person
    setup = [f"{full} coaches the under-14 team at the ice rink on Tuesday evenings.",
             "Mikko Laine coaches the under-14 team at the ice rink on Tuesday evenings.",
             f"{full} plays for the rec side on Sundays."]
    after = texts_after(fresh_store, setup, "remember", f"{given_name} {ending}.")
    assert_first_ended_only(setup, after)


@_SLOW
@given(st.sampled_from([("Thursday", "night", "evening", "mornings"),
                        ("Tuesday", "evening", "night", "afternoons")]),
       st.sampled_from(["forget", "release"]))
def test_a_fact_that_shares_only_a_day_beside_one_that_shares_more_is_another(
        fresh_store: memory_es.MemoryStore, when: tuple[str, str, str, str], op: str) -> None:
    day, asked, held, other = when
    setup = [f"Eilidh MacAskill plays lead in the {day} {held} league at Kinnoull Curling "
             "Club.",
             f"Eilidh MacAskill looks after the ice at Kinnoull Curling Club on {day} {other}.",
             "Eilidh MacAskill coaches the wheelchair squad on Monday afternoons."]
    after = texts_after(fresh_store, setup, op, f"Eilidh's spot in the {day} {asked} league")
    assert_first_ended_only(setup, after)


@_SLOW
@given(st.sampled_from([("weekend", "Saturday and Sunday"), ("weekday", "Monday to Friday")]),
       st.sampled_from(["walks", "outings"]))
def test_the_weekend_is_its_days(fresh_store: memory_es.MemoryStore, span: tuple[str, str],
                                 noun: str) -> None:
    word, days = span
    setup = [f"Thanh Nguyen leads guided alpaca treks for visitors at Fellside Alpacas near "
             f"Keswick on {days} mornings.",
             f"Thanh Nguyen's husband, Declan Moore, also leads guided alpaca treks for "
             f"visitors at Fellside Alpacas near Keswick on {days} mornings.",
             "Thanh Nguyen shears the alpacas at Fellside Alpacas every June.",
             "Thanh Nguyen runs feeding sessions for school groups at Fellside Alpacas on "
             "Wednesday mornings."]
    after = texts_after(fresh_store, setup, "revise",
                        f"Thanh's {word} {noun} with the alpacas for visitors",
                        "Thanh Nguyen leads guided alpaca treks for visitors on Sunday mornings.")
    assert_first_ended_only(setup, after)


@_SLOW
@given(st.sampled_from(["Ibrahim Al-Khouri", "Yusuf Haddad"]),
       st.sampled_from(["forget", "release"]))
def test_the_fact_holding_the_most_pairs_said_side_by_side_is_meant(
        fresh_store: memory_es.MemoryStore, person: str, op: str) -> None:
    setup = [f"{person} works the wet fish counter at Harbour Fresh on Freeman Street in "
             "Grimsby from Tuesday to Saturday.",
             f"{person} buys fish for Harbour Fresh at the Grimsby Fish Market auction early "
             "on Monday mornings.",
             f"{person} gives a filleting demonstration at the Grimsby Fishing Heritage Centre.",
             f"{person} drives fish boxes from Harbour Fresh to restaurants in Cleethorpes."]
    given_name = person.split(maxsplit=1)[0]
    after = texts_after(fresh_store, setup, op, f"{given_name}'s shifts serving customers "
                        "behind the fish counter at Harbour Fresh")
    assert_first_ended_only(setup, after)


@_SLOW
@given(st.sampled_from([("Ana Lucía Ferreira da Silva", "Ana Lucía"),
                        ("María José García de López", "María José")]),
       st.sampled_from(["forget", "release"]))
def test_two_given_names_and_two_surnames_with_a_particle_are_a_person(
        fresh_store: memory_es.MemoryStore, person: tuple[str, str], op: str) -> None:
    full, given_names = person
    setup = [f"{full} works as an ecological consultant for Clydeside Ecology, carrying out "
             "bat surveys on building sites.",
             f"{full} leads the bat detector walk along the River Kelvin on Friday evenings.",
             f"{full} counts the bats at the roost under the Kelvin footbridge each June."]
    after = texts_after(fresh_store, setup, op,
                        f"{given_names}'s job doing bat surveys for developers")
    assert_first_ended_only(setup, after)


@_SLOW
@given(st.sampled_from([("fixing shoes", "repairs shoes"), ("cutting keys", "cuts keys")]),
       st.sampled_from(["forget", "release"]))
def test_a_gerund_after_a_noun_of_a_whole_topic_says_what_the_job_is(
        fresh_store: memory_es.MemoryStore, acts: tuple[str, str], op: str) -> None:
    """``Tomasz's weekday job fixing shoes at the kiosk``: after ``job`` the gerund's phrase
    says what the job is, as a preposition's would; it names no kind of shoe."""
    asked, told = acts
    setup = [f"Tomasz Wiśniewski {told} at the Quick Heel kiosk in the Victoria Centre "
             "from Monday to Friday.",
             "Tomasz Wiśniewski restores vintage leather boots for collectors.",
             "Tomasz Wiśniewski teaches a leather-stitching evening class on Thursdays."]
    after = texts_after(fresh_store, setup, op,
                        f"Tomasz's weekday job {asked} at the shopping centre kiosk")
    assert_first_ended_only(setup, after)
