"""The derived word lists (common nouns, English verbs) keep the rule their notes state.

Each file says where its words come from; the part of the rule that can be checked
without the source lexicon is checked here: a source note, lower-case alphabetic words
of three letters or more, a Zipf frequency of at least 3.0 in wordfreq's English list,
and, for the nouns, no everyday personal names.
"""

from __future__ import annotations

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
