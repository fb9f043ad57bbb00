"""The derived word lists (common nouns, English verbs) keep the rule their notes state.

Each file says where its words come from; the part of the rule that can be checked
without the source lexicon is checked here: a source note, lower-case alphabetic words
of three letters or more, a Zipf frequency of at least 3.0 in wordfreq's English list,
and, for the nouns, no everyday personal names.
"""

from __future__ import annotations

import re
from importlib import resources

import pytest

from memory_es.text import lexicon as lx

wordfreq = pytest.importorskip("wordfreq")


@pytest.mark.parametrize(("name", "words"), [("common_nouns.txt", lx.COMMON_NOUNS),
                                              ("english_verbs.txt", lx.ENGLISH_VERBS)])
def test_a_derived_list_keeps_its_admission_rule(name: str, words: frozenset[str]) -> None:
    """Source note present; every word lower-case, alphabetic and frequent enough."""
    raw = resources.files("memory_es.text").joinpath("data", name).read_text("utf-8")
    assert "Source:" in raw
    assert len(words) > 1000
    bad = [w for w in words if not (w.isalpha() and w.islower() and len(w) >= 3)
           or wordfreq.zipf_frequency(w, "en") < 3.0]
    assert bad == []


def test_the_nouns_hold_no_everyday_personal_names() -> None:
    """First names that are also nouns were taken out when the list was derived."""
    assert not {"mark", "rose", "will", "hope", "bill", "jack", "grace", "victor",
                "summer", "april", "smith", "baker", "cook"} & lx.COMMON_NOUNS


def listed_words(name: str) -> list[str]:
    """Every word of a hand-compiled list (comments and ``[domain]`` headers dropped)."""
    raw = resources.files("memory_es.text").joinpath("data", name).read_text("utf-8")
    words = []
    for line in raw.splitlines():
        text = line.split("#")[0].strip()
        if text and not text.startswith("["):
            words += [part for w in text.split() for part in w.split("_")]
    return words


def frequent(word: str) -> bool:
    return bool(wordfreq.zipf_frequency(word, "en") >= 3.0)


def inflection_of_frequent(word: str) -> bool:
    """A regular inflection (-s, -es, -ed, -d, -ing, -ly) of a frequent word, allowing
    the spelling changes English makes (dropped final e, doubled consonant, y to i)."""
    for suffix in ("s", "es", "ed", "d", "ing", "ly"):
        stem = word[:-len(suffix)]
        if not word.endswith(suffix) or len(stem) < 2:
            continue
        if frequent(stem) or frequent(stem + "e") or (
                len(stem) > 2 and stem[-1] == stem[-2] and frequent(stem[:-1])) or (
                stem.endswith("i") and frequent(stem[:-1] + "y")):
            return True
    return False


def compound_of_frequent(word: str) -> bool:
    """Two frequent words written as one ("passcode", "microchip")."""
    return any(frequent(word[:i]) and frequent(word[i:]) for i in range(3, len(word) - 2))


ABBREVIATIONS = {"acct", "iban", "mrn", "inv", "sku", "otp"}
"""Abbreviations printed on the documents whose numbers identifier_labels.txt names."""


@pytest.mark.parametrize("name", ["topics.txt", "verbs.txt", "cessation.txt",
                                  "topic_names.txt", "identifier_labels.txt",
                                  "linking_adverbs.txt", "travel_verbs.txt",
                                  "time_shift_verbs.txt", "dying_verbs.txt", "kinds.txt",
                                  "vehicle_kinds.txt"])
def test_a_compiled_list_keeps_its_admission_rule(name: str) -> None:
    """The hand-compiled lists' headers state their rule: a source note, and every word
    frequent (Zipf >= 3.0), a regular inflection of a frequent word, or, for the
    identifier labels, a compound of two frequent words or a listed abbreviation."""
    raw = resources.files("memory_es.text").joinpath("data", name).read_text("utf-8")
    assert "Source:" in raw
    allowed = ABBREVIATIONS if name == "identifier_labels.txt" else set()
    bad = [w for w in listed_words(name)
           if not (frequent(w) or inflection_of_frequent(w) or w in allowed
                   or (name == "identifier_labels.txt" and compound_of_frequent(w)))]
    assert bad == []


@pytest.mark.parametrize(("name", "domain"), [("diets.txt", "diet"), ("breeds.txt", "pet")])
def test_a_closed_class_stands_beside_the_topics(name: str, domain: str) -> None:
    """A closed class (the eating patterns, the dog and cat breeds) states its source and
    rule: lower-case alphabetic words that are not already in ``topics.txt`` nor words of
    another topic, every one of them a word of its topic."""
    raw = resources.files("memory_es.text").joinpath("data", name).read_text("utf-8")
    assert "Source:" in raw
    words = listed_words(name)
    assert words and all(w.isalpha() and w.islower() for w in words)
    assert not set(words) & set(listed_words("topics.txt"))
    assert all(lx.domains_of(w) == frozenset({domain}) for w in words)


def test_the_role_nouns_are_common_nouns() -> None:
    """``role_nouns.txt`` is a part of ``common_nouns.txt`` (its rule keeps the words of
    that list with a WordNet sense in noun.person), with its source note."""
    raw = resources.files("memory_es.text").joinpath("data", "role_nouns.txt").read_text("utf-8")
    assert "Source:" in raw
    assert len(lx.ROLE_SENSE_NOUNS) > 1000
    assert lx.ROLE_SENSE_NOUNS <= lx.COMMON_NOUNS


def test_the_ending_idioms_keep_the_admission_rule() -> None:
    """``ending_idioms.txt`` states its source, and every word on either side of its
    ``=`` is frequent (Zipf >= 3.0): no idiom is there for a rare word."""
    raw = resources.files("memory_es.text").joinpath("data", "ending_idioms.txt").read_text("utf-8")
    assert "Source:" in raw
    entries = [line.split("#")[0].strip() for line in raw.splitlines()]
    words = {w for e in entries if e for w in re.split(r"[\s=,]+", e) if w}
    assert words and all(frequent(w) for w in words)
