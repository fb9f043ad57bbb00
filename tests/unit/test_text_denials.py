"""A denial with a change marker ends the fact it denies and nothing else (SPEC §15):
the same verb and a distinctive word in common is enough (``doesn't have Disney+ any
more`` ends ``has a Disney+ subscription``); in Chinese, each noun of a ``的`` phrase
counts (``取消了健身杂志的订阅`` ends ``订阅了健身杂志``). A purge by a code that one fact's
own words mark as an identifier lists a fact that merely mentions it.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from memory_es.text.matching import analyse_query, identifier_matches, view
from tests.unit.test_text_matching import fact

T = "acme"
_given = iter(range(1_000_000))
HOLDINGS = [("has", "have", "a Disney+ subscription", "Disney+"),
            ("owns", "own", "a Brompton bike", "Brompton"),
            ("plays", "play", "chess at the Rook club", "chess"),
            ("rents", "rent", "a garage on Mill Lane", "garage")]
MARKERS = ("any more", "anymore", "now")


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(HOLDINGS), st.sampled_from(MARKERS))
def test_a_denial_ends_the_fact_with_its_verb_and_word(
        fresh_store: memory_es.MemoryStore, holding: tuple[str, str, str, str],
        marker: str) -> None:
    third, bare, obj, word = holding
    tenant = f"{T}-{bare}-{MARKERS.index(marker)}"
    ti = TextInterface(fresh_store)
    ti.remember(tenant, f"Omar Haddad {third} {obj}.")
    ti.remember(tenant, "Omar Haddad builds model ships.")
    ti.remember(tenant, f"Omar Haddad doesn't {bare} {word} {marker}.")
    texts = {f.text for f in fresh_store.current(tenant)}
    assert f"Omar Haddad {third} {obj}" not in texts
    assert "Omar Haddad builds model ships" in texts


def test_a_chinese_cessation_names_the_nouns_of_its_object(
        fresh_store: memory_es.MemoryStore) -> None:
    ti = TextInterface(fresh_store)
    for text in ("林晓订阅了健身杂志。", "林晓喜欢跑步。", "何强订阅了健身杂志。"):
        ti.remember(T, text)
    ti.remember(T, "林晓取消了健身杂志的订阅。")
    texts = {f.text for f in fresh_store.current(T)}
    assert "林晓订阅了健身杂志" not in texts
    assert {"林晓喜欢跑步", "何强订阅了健身杂志"} <= texts


@pytest.mark.parametrize("query", ["4471", " 4471 "])
def test_a_mention_of_an_identifier_is_listed_not_targeted(query: str) -> None:
    """``4471`` is no identifier by its form; a label makes it one in the first fact
    (``locker number 4471``), so the second, which only mentions the number, is a
    mention (listed; a purge erases it only when confirmed)."""
    owner = view(fact("Dana uses locker number 4471."))
    mention = view(fact("Omar parks in bay 4471 on Mondays."))
    found = identifier_matches(analyse_query(query), [owner, mention])
    assert [(m.fact.text, m.by) for m in found] == [(owner.fact.text, "identifier"),
                                                     (mention.fact.text, "mention")]


def test_a_purge_of_one_iban_leaves_the_next_one(fresh_store: memory_es.MemoryStore) -> None:
    ti = TextInterface(fresh_store)
    ti.remember(T, "Omar Haddad's IBAN is GB29 NWBK 6016 1331 9268 19.")
    ti.remember(T, "Rhys Pritchard's IBAN is GB29 NWBK 6016 1331 9268 18.")
    result = ti.purge_matching(T, "GB29NWBK60161331926819")
    assert result.receipts
    assert [f.text for f in fresh_store.current(T)] == [
        "Rhys Pritchard's IBAN is GB29 NWBK 6016 1331 9268 18"]


INTRANSITIVE = ("rows", "swims", "smokes", "cycles", "paints")


@settings(max_examples=10, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(INTRANSITIVE))
def test_no_longer_with_a_bare_verb_ends_that_activity(fresh_store: memory_es.MemoryStore,
                                                      verb: str) -> None:
    """``… and no longer rows``: after ``no longer`` a verb follows, so the clause is its
    own; it ends the fact headed by the same verb, not the person's other facts."""
    tenant = f"{T}-nl-{verb}"
    ti = TextInterface(fresh_store)
    for text in ("Mateo Ferreira lives in Hull.", f"Mateo Ferreira {verb} on weekends.",
                 "Mateo Ferreira restores old radios."):
        ti.remember(tenant, text)
    ti.remember(tenant, f"Mateo Ferreira moved to Leeds and no longer {verb}.")
    texts = {f.text for f in fresh_store.current(tenant)}
    assert f"Mateo Ferreira {verb} on weekends" not in texts
    assert "Mateo Ferreira lives in Hull" not in texts
    assert "Mateo Ferreira restores old radios" in texts


def test_a_revision_off_the_topic_still_ends_what_it_names(
        fresh_store: memory_es.MemoryStore) -> None:
    """``Hanna's job`` + ``quit Nordbank and now drives a taxi``: the new text is not
    about work, but it says which fact ended."""
    ti = TextInterface(fresh_store)
    for text in ("Hanna Lindqvist works at Nordbank.",
                 "Hanna Lindqvist runs a chess club on Thursdays."):
        ti.remember(T, text)
    ti.revise(T, "Hanna's job", "Hanna Lindqvist quit Nordbank and now drives a taxi.")
    texts = {f.text for f in fresh_store.current(T)}
    assert "Hanna Lindqvist works at Nordbank" not in texts
    assert "Hanna Lindqvist runs a chess club on Thursdays" in texts
    assert any("taxi" in t for t in texts)


@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(("Lena", "Omar")), st.sampled_from(("; ", ". ", ", and ")))
def test_a_given_name_after_the_full_name_is_that_person(
        fresh_store: memory_es.MemoryStore, first: str, joiner: str) -> None:
    """``Met Lena Okafor and Omar Haddad … Lena prefers e-mail``: in the text that named
    them in full, a given name is that person; forgetting Omar Haddad forgets what the
    note said of Omar, and Lena's details stay."""
    tenant = f"{T}-gn-{next(_given)}"
    ti = TextInterface(fresh_store)
    ti.remember(tenant, f"Met Lena Okafor and Omar Haddad today. Lena prefers e-mail{joiner}"
                        "Omar prefers phone calls.")
    full = {"Lena": "Lena Okafor", "Omar": "Omar Haddad"}[first]
    ti.forget(tenant, f"forget everything about {full}")
    texts = " | ".join(f.text for f in fresh_store.current(tenant))
    gone, kept = ("prefers e-mail", "phone calls") if first == "Lena" else (
        "phone calls", "prefers e-mail")
    assert gone not in texts and kept in texts


def test_a_denial_ends_only_a_fact_whose_value_it_denies(
        fresh_store: memory_es.MemoryStore) -> None:
    ti = TextInterface(fresh_store)
    for text in ("Omar Haddad prefers phone calls.", "Omar Haddad's phone is 020 7946 0958."):
        ti.remember(T, text)
    ti.remember(T, "Omar Haddad no longer prefers phone calls.")
    texts = {f.text for f in fresh_store.current(T)}
    assert "Omar Haddad prefers phone calls" not in texts
    assert "Omar Haddad's phone is 020 7946 0958" in texts


@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from([("drives a silver Skoda", "Skoda", "was sold last spring"),
                        ("keeps a Brompton in the hall", "Brompton", "was stolen"),
                        ("keeps a Brompton in the hall", "Brompton", "was repaired"),
                        ("owns a Leica camera", "Leica", "was lost on holiday"),
                        ("pays for a Netflix plan", "Netflix plan", "was cancelled")]))
def test_a_possessed_thing_that_ended_ends_the_fact_naming_it(
        fresh_store: memory_es.MemoryStore, case: tuple[str, str, str]) -> None:
    """``Mateo's Skoda was sold``, ``… Brompton was stolen``: the thing possessed names
    the fact it ends; the person's other facts survive. (``was repaired`` is no
    cessation: nothing ends.)"""
    fact, thing, ending = case
    tenant = f"{T}-pt-{next(_given)}"
    ti = TextInterface(fresh_store)
    for text in (f"Mateo Ferreira {fact}.", "Mateo Ferreira restores old radios."):
        ti.remember(tenant, text)
    ti.remember(tenant, f"Mateo Ferreira's {thing} {ending}.")
    texts = {f.text for f in fresh_store.current(tenant)}
    assert "Mateo Ferreira restores old radios" in texts
    assert (f"Mateo Ferreira {fact}" in texts) == (ending == "was repaired")


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from([("does not own a car", "bought a car last week"),
                        ("is not vegetarian", "is vegetarian now"),
                        ("never drinks coffee", "drinks coffee every morning now"),
                        ("does not speak French", "speaks French now")]),
       st.booleans())
def test_a_new_fact_ends_the_denial_it_reverses(fresh_store: memory_es.MemoryStore,
                                                pair: tuple[str, str], other: bool) -> None:
    """``does not own a car`` then ``bought a car last week``: the denial ends, the
    person's other facts stay; a new fact about something else leaves the denial."""
    denial, reversal = pair
    tenant = f"{T}-rv-{next(_given)}"
    ti = TextInterface(fresh_store)
    for text in (f"Kwame Asante {denial}.", "Kwame Asante restores old radios."):
        ti.remember(tenant, text)
    ti.remember(tenant, "Kwame Asante plays the trumpet." if other else
                f"Kwame Asante {reversal}.")
    texts = {f.text for f in fresh_store.current(tenant)}
    assert "Kwame Asante restores old radios" in texts
    assert (f"Kwame Asante {denial}" in texts) == other


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from([("drives a red Ford", "sold his red Ford to Lena's brother"),
                        ("sees Dr Lind every month", "stopped seeing Dr Lind"),
                        ("rents a garage on Mill Lane", "gave up the garage on Mill Lane"),
                        ("has a season ticket", "has given up his season ticket"),
                        ("has a Spotify account", "deleted his Spotify account"),
                        ("has a trampoline", "gave away his trampoline"),
                        ("has a trampoline", "gave his trampoline away")]))
def test_an_ending_with_the_whole_object_ends_that_fact_only(
        fresh_store: memory_es.MemoryStore, pair: tuple[str, str]) -> None:
    """A cessation whose whole object is in one of the person's facts ends that fact,
    whatever its topic; another person's alike fact, and the person's other facts,
    survive."""
    fact, ending = pair
    tenant = f"{T}-eo-{next(_given)}"
    ti = TextInterface(fresh_store)
    for text in (f"Omar Haddad {fact}.", f"Lena Okafor {fact}.", "Omar Haddad builds ships."):
        ti.remember(tenant, text)
    ti.remember(tenant, f"Omar Haddad {ending}.")
    texts = {f.text for f in fresh_store.current(tenant)}
    assert f"Omar Haddad {fact}" not in texts
    assert {f"Lena Okafor {fact}", "Omar Haddad builds ships"} <= texts


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from([("weighs 82 kg", "now weighs 78 kg"),
                        ("runs 5 km every morning", "now runs 10 km every morning"),
                        ("'s rent is 900 euros a month", "'s rent went up from 900 to 950 euros"),
                        ("'s credit limit is 2000 pounds",
                         "'s credit limit was raised to 3000 pounds")]))
def test_a_changed_number_replaces_the_old_one(fresh_store: memory_es.MemoryStore,
                                               pair: tuple[str, str]) -> None:
    """A measure after its verb (``weighs 82 kg``) is a frame a change of state replaces;
    a possessed amount that went ``to`` a number is that thing's new value. Another
    person's alike fact survives."""
    old, new = pair
    sep = "" if old.startswith("'") else " "
    tenant = f"{T}-nc-{next(_given)}"
    ti = TextInterface(fresh_store)
    for text in (f"Kwame Asante{sep}{old}.", f"Lena Okafor{sep}{old}."):
        ti.remember(tenant, text)
    ti.remember(tenant, f"Kwame Asante{sep}{new}.")
    texts = {f.text for f in fresh_store.current(tenant)}
    assert f"Kwame Asante{sep}{old}" not in texts
    assert f"Lena Okafor{sep}{old}" in texts


@settings(max_examples=10, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from([("is diabetic", "isn't diabetic"), ("is diabetic", "is not diabetic"),
                        ("plays chess", "doesn't play chess"),
                        ("is left-handed", "isn't left-handed"),
                        ("collects stamps", "does not collect stamps")]))
def test_a_denial_of_the_same_words_ends_what_it_denies(
        fresh_store: memory_es.MemoryStore, pair: tuple[str, str]) -> None:
    """``Hugo isn't diabetic`` (a contracted copula is the copula) ends ``Hugo is diabetic``
    and is kept as said; his other facts, and his sister's same fact, stay."""
    held, denied = pair
    tenant = f"d{next(_given)}"
    ti = TextInterface(fresh_store)
    kept = {"Hugo Lam lives in Paris", "Hugo Lam speaks French", f"Ana Lam {held}"}
    for text in (f"Hugo Lam {held}", *kept):
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"Hugo Lam {denied}.")
    texts = {f.text for f in fresh_store.current(tenant)}
    assert kept | {f"Hugo Lam {denied}"} <= texts
    assert f"Hugo Lam {held}" not in texts


@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["doesn't only", "does not just", "doesn't merely"]))
def test_a_negated_restriction_is_no_denial(fresh_store: memory_es.MemoryStore,
                                            negator: str) -> None:
    """Guard: ``doesn't only play the cello, she also plays the piano`` says she plays the
    cello; read as a denial, it ended ``plays the cello``."""
    tenant = f"d{next(_given)}"
    ti = TextInterface(fresh_store)
    for text in ("Priya Raman plays the cello.", "Priya Raman is allergic to latex."):
        ti.remember(tenant, text)
    ti.remember(tenant, f"Priya Raman {negator} play the cello, she also plays the piano.")
    texts = {f.text for f in fresh_store.current(tenant)}
    assert {"Priya Raman plays the cello", "Priya Raman is allergic to latex"} <= texts


@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from([("keeps bees behind the shed", "gave up beekeeping"),
                        ("watches birds at the lake", "gave up birdwatching"),
                        ("rides horses on Sundays", "quit horseriding")]))
def test_an_activity_named_by_its_compound_ends_that_activity(
        fresh_store: memory_es.MemoryStore, pair: tuple[str, str]) -> None:
    """``gave up beekeeping`` ends ``keeps bees``: the compound of an object and a verb's
    ``-ing`` names doing that to it. Her other facts and her partner's stay."""
    held, ended = pair
    tenant = f"d{next(_given)}"
    ti = TextInterface(fresh_store)
    kept = {"Olga Berg keeps chickens", "Olga Berg grows roses in the front bed",
            f"Olga Berg's partner Nils {held}"}
    for text in (f"Olga Berg {held}", *kept):
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"Olga Berg {ended}.")
    texts = {f.text for f in fresh_store.current(tenant)}
    assert kept <= texts
    assert f"Olga Berg {held}" not in texts
