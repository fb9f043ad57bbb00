"""Targeting interprets only the candidate facts whose words could name what is asked.

``name_words`` is the shortcut that lets :class:`~memory_es.text.matching.FactView` skip
the interpreter: it must contain every word of every name key the interpreter finds in
a Latin-script text (else a named entity would be missed), and say ``None`` for a text
with letters of another script (transliterated keys have no such shortcut).
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memory_es.text.interpreter import interpret
from memory_es.text.matching import (
    _could_name,
    _names,
    analyse_query,
    mention_matches,
    name_words,
    named_entities,
    subject_keys_of,
    view,
)
from tests.unit.text_support import note_fact

_NAMES = ["Zoë", "Brückner, Anton", "O'Brien", "Jean-Luc", "Dr. Smith", "zhang1 wei3",
          "Wei3's", "The Blue Lantern Inn", "Ærø", "Łukasz", "n o r a", "MRN 4471-2209",
          "nora [at] corp [dot] io", "Mia", "Ilya", "İsmail", "Hana's"]
_WORDS = ["lives", "in", "Oslo", "works", "at", "Acme", "is", "the", "WiFi", "password",
          "for", "guests", "her", "car", "a", "Volvo", "and", "his", "bike", "moved", "to",
          "now", "does", "not", "own", "cat", "called", "Bubbles", ",", "e-mail", ":"]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(_NAMES + _WORDS), min_size=1, max_size=12).map(" ".join))
def test_every_name_key_of_a_latin_text_is_made_of_its_name_words(text: str) -> None:
    words = name_words(text)
    if words is None:
        return
    for entity in {None} | {c.entity for c in interpret(text).clauses}:
        subject, mentions = _names(text, entity)
        own = subject_keys_of(entity) if entity is not None else frozenset()
        for key in (subject | mentions) - own:
            assert _could_name(text, frozenset({key})), (text, entity, key)


_KEYS = ["mia", "mia chen", "#guest password wifi", "~mia", "oslo", "acme", "lives oslo",
         "nora corp", "zhang wei", "zhang1 wei3", "car volvo", "bubbles"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_NAMES + _WORDS + ["Chen", "Volvo"]), min_size=1,
                max_size=10).map(" ".join),
       st.frozensets(st.sampled_from(_KEYS), max_size=6))
def test_could_name_is_some_key_made_of_the_texts_name_words(text: str,
                                                              keys: frozenset[str]) -> None:
    """The first-word shortcut answers as the definition does: some key, other than a
    loose ``~`` one, has every word among the text's name words."""
    words = name_words(text)
    expected = words is None or any(
        not k.startswith("~") and all(w in words for w in k.removeprefix("#").split())
        for k in keys)
    assert _could_name(text, keys) == expected


def test_texts_in_another_script_take_the_full_analysis() -> None:
    assert name_words("Пётр Иванов lives in Oslo") is None
    assert name_words("张伟现在住在北京") is None
    assert name_words("\u0420etra lives in Oslo") is None  # a Cyrillic look-alike letter
    assert name_words("Petra lives in Oslo") is not None



def test_facts_that_cannot_name_the_query_are_not_interpreted() -> None:
    """Only the facts sharing the asked name's words reach the interpreter, and the
    answer is the one the full analysis gives."""
    others = [note_fact(i, f"person:q{i}", f"Q{i} repaints old boats in Lerwick {i}")
              for i in range(40)]
    target = note_fact(99, "client:oksana-marchetti", "Oksana Marchetti rents a kayak in Lerwick")
    mention = note_fact(98, "person:tove", "Tove sails with Oksana Marchetti on Fridays")
    views = [view(f) for f in [*others, target, mention]]
    query = analyse_query("forget everything about Oksana Marchetti")
    before = _names.cache_info().misses
    entities = named_entities(query, views)
    matches = mention_matches(entities, query, views)
    assert entities == {"client:oksana-marchetti": "Oksana Marchetti"}
    assert {(m.fact.fact_id, m.by) for m in matches} == {("f99", "entity"), ("f98", "mention")}
    assert _names.cache_info().misses - before <= 2  # the 40 unrelated facts: never read
