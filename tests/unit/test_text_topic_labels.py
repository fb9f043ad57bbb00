"""A query that names a person and only a topic picks a fact by the topic rule alone.

A noun that names a topic as a whole (``language``, ``vehicle``, ``pet``, ``diet``) is
a label: the interpreter writes it into slot names (``language.welsh``,
``transport.vehicle``) and some facts use the word, so meeting it says which topic,
never which fact. With two facts in the topic, a revise retires neither.
"""

from __future__ import annotations

import memory_es
from memory_es.text import TextInterface
from memory_es.text.matching import analyse_query, only_names_a_topic, query_terms_naming

T = "acme"


def _current(store: memory_es.MemoryStore) -> set[str]:
    return {f.text for f in store.current(T)}


def test_topic_names_are_labels_and_members_are_content() -> None:
    """``Omar's language`` only names a topic; ``residence city``, ``vehicle ownership``
    and ``employer Google`` say more than the topic."""
    skip = query_terms_naming({"person:omar-haddad": "Omar Haddad"})
    assert only_names_a_topic(analyse_query("Omar Haddad's language"), skip)
    assert only_names_a_topic(analyse_query("Omar Haddad's vehicle"), skip)
    assert not only_names_a_topic(analyse_query("Omar Haddad's Welsh lessons"), skip)
    user = query_terms_naming({"user:self": "user"})
    for query in ("user residence city", "user vehicle ownership",
                  "user current employer Google"):
        assert not only_names_a_topic(analyse_query(query), user), query


def test_a_topic_word_in_two_slot_names_retires_neither(
        fresh_store: memory_es.MemoryStore) -> None:
    """Two language facts (slots ``language.welsh``, ``language.tagalog``): a revise of
    ``Omar Haddad's language`` says not which, so both stay and the new text is added."""
    ti = TextInterface(fresh_store)
    for text in ("Omar Haddad speaks Welsh.", "Omar Haddad is fluent in Tagalog.",
                 "Omar Haddad builds model ships."):
        ti.remember(T, text)
    result = ti.revise(T, "Omar Haddad's language", "Omar Haddad started learning Finnish.")
    assert result.targets == [] or all(t.by == "candidate" for t in result.targets)
    assert {"Omar Haddad speaks Welsh", "Omar Haddad is fluent in Tagalog",
            "Omar Haddad builds model ships"} <= _current(fresh_store)


def test_a_slot_name_alone_does_not_single_out_a_fact(
        fresh_store: memory_es.MemoryStore) -> None:
    """Only one of two transport facts has ``vehicle`` in its slot: that is no reason to
    retire it for ``Dev Malhotra's vehicle``."""
    ti = TextInterface(fresh_store)
    for text in ("Dev Malhotra drives a Peugeot 208.", "Dev Malhotra cycles to the station."):
        ti.remember(T, text)
    ti.revise(T, "Dev Malhotra's vehicle", "Dev Malhotra bought a camper van.")
    assert {"Dev Malhotra drives a Peugeot 208",
            "Dev Malhotra cycles to the station"} <= _current(fresh_store)


def test_the_one_fact_in_a_topic_is_still_revised(fresh_store: memory_es.MemoryStore) -> None:
    """With a single fact in the topic, the topic name still finds it."""
    ti = TextInterface(fresh_store)
    for text in ("Sofia Bianchi drives a Renault Zoe.", "Sofia Bianchi climbs at the gym."):
        ti.remember(T, text)
    ti.revise(T, "Sofia Bianchi's vehicle", "Sofia Bianchi bought a cargo bike.")
    now = _current(fresh_store)
    assert "Sofia Bianchi drives a Renault Zoe" not in now
    assert "Sofia Bianchi climbs at the gym" in now


def test_a_topic_carried_by_an_adjunct_does_not_make_a_second_candidate(
        fresh_store: memory_es.MemoryStore) -> None:
    """``listens to audiobooks during the commute`` is about audiobooks: the commute is a
    circumstance, so ``Kwame Asante's vehicle`` names only the car fact."""
    ti = TextInterface(fresh_store)
    for text in ("Kwame Asante drives a Skoda Fabia.",
                 "Kwame Asante listens to audiobooks during the commute."):
        ti.remember(T, text)
    ti.revise(T, "Kwame Asante's vehicle", "Kwame Asante bought an electric scooter.")
    now = _current(fresh_store)
    assert "Kwame Asante drives a Skoda Fabia" not in now
    assert "Kwame Asante listens to audiobooks during the commute" in now


def test_a_single_slot_fact_is_revised_whatever_the_new_text_says(
        fresh_store: memory_es.MemoryStore) -> None:
    """One work fact: ``Judy employer`` still replaces it, even when the new text reads
    as a move (the topic rule only steps in when the topic holds several facts)."""
    ti = TextInterface(fresh_store)
    ti.remember(T, "Judy started at Apple in 2020.")
    ti.remember(T, "Judy plays squash on Mondays.")
    ti.revise(T, "Judy employer", "Judy moved to Microsoft in 2022.")
    now = _current(fresh_store)
    assert "Judy started at Apple in 2020" not in now
    assert "Judy plays squash on Mondays" in now
