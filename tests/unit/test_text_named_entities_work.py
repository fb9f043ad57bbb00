"""Naming entities skips the candidates' analysis a query cannot use.

:func:`~memory_es.text.matching.named_entities` indexed the subject keys of every
candidate before looking at the query, even for an e-mail address alone, which names
no one (no word sequence of it may name an entity); now it indexes none for such a
query, and only the keys of the sequences that may name when nothing else reads the
index. The answers must be those of the former code, kept here as the reference.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memory_es.text import lexicon as lx
from memory_es.text.matching import (
    _UNSPACED,
    FactView,
    Query,
    _given_names,
    analyse_query,
    named_entities,
    view,
)
from memory_es.text.normalize import nfkc, script_of
from memory_es.text.words import EDGE
from tests.unit.text_support import note_fact


def reference(query: Query, views: Sequence[FactView], *,
              given_names: bool = False) -> dict[str, str]:
    """``named_entities`` as it was before it skipped work (bf0fe5c), for comparison."""
    index: dict[str, set[str]] = {}
    asked = frozenset(k for _surface, keys, _capital in query.ngrams for k in keys)
    for v in views:
        if v.fact.entity is None:
            continue
        for key in v.subject_keys(asked):
            index.setdefault(key, set()).add(v.fact.entity)
    found: dict[str, str] = {}
    left = Counter(surface.lower() for surface, _k, _c in query.ngrams if " " not in surface)
    for surface, keys, capital in query.ngrams:
        words = surface.lower().split()
        if any(left[w] <= 0 for w in words if w in left):
            continue
        role = len(words) == 1 and words[0] in lx.ROLE_NOUNS
        if len(words) == 1 and not capital and words[0] not in ("user", "users", "me", "i") and (
                not role):
            continue
        if (all(w in lx.ROLE_NOUNS or w in lx.INFO_NOUNS for w in words) and not capital
                and words != ["user"] and not role):
            continue
        hit: set[str] = set()
        for key in keys:
            hit |= index.get(key, set())
        if hit:
            for entity in hit:
                found[entity] = f"{found[entity]} / {surface}" if entity in found else surface
            left.subtract(w for w in words if w in left)
    if given_names:
        found |= _given_names(query, index, left, found)
    said = {w.lower().strip(EDGE) for w in query.text.split()}
    if said & lx.FIRST_PERSON and "user:self" in index.get("user", set()):
        found.setdefault("user:self", "me")
    text = nfkc(query.text)
    for key, ents in index.items():
        if len(key) >= 2 and not key.isascii() and key in text and all(
                script_of(c) in _UNSPACED for c in key if c.isalpha()):
            if any(key != other and key in other and other in text for other in index):
                continue
            for entity in ents:
                found.setdefault(entity, key)
    return found



FACTS = [
    ("person:anna-berg", "Anna Berg's e-mail is anna.k@corp.io"),
    ("person:anna-lind", "Anna Lind lives in Oslo"),
    ("person:dev-malhotra", "Dev Malhotra rides a Volvo bike"),
    ("user:self", "I play padel on Fridays"),
    ("patient:self", "The patient is allergic to penicillin"),
    ("client:oksana-marchetti", "Oksana Marchetti rents a kayak, phone +49 170 1234567"),
    ("person:张伟", "张伟现在住在北京"),
    ("person:zoë-brückner", "Zoë Brückner works at Acme"),
    ("topic:sprint-goal", "Current sprint goal: ship the exporter"),
    (None, "The WiFi password for guests is KX-2231"),
    ("person:tove", "Tove sails with Oksana Marchetti on Fridays"),
]
VIEWS = [view(note_fact(i, e, t)) for i, (e, t) in enumerate(FACTS)]
PIECES = ["anna.k@corp.io", "Anna", "Berg", "Anna Berg", "Lind", "Dev", "dev", "my", "me",
          "padel", "the patient", "Oksana Marchetti", "oksana marchetti", "+49 170 1234567",
          "张伟", "北京", "Zoë", "Brückner", "sprint goal", "KX-2231", "everything", "about",
          "forget", "purge", "'s", "e-mail", "bike", "Tove", "user", "record", "nora@x.io",
          "0170 1234567", "and"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=st.lists(st.sampled_from(PIECES), min_size=1, max_size=6),
       given_names=st.booleans())
def test_named_entities_are_those_the_former_code_found(words: list[str],
                                                       given_names: bool) -> None:
    """Names, first-person words, roles, unspaced scripts, identifiers and their mixes
    name the entities they named before."""
    query = analyse_query(" ".join(words))
    assert named_entities(query, VIEWS, given_names=given_names) == reference(
        query, VIEWS, given_names=given_names)


@pytest.mark.parametrize("text", ["anna.k@corp.io", "nora@x.io"])
def test_an_e_mail_address_alone_indexes_no_candidate(
        text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """An e-mail address written in lower case is one lower-case word, which names no
    entity: no candidate's subject keys are read for it (each can mean interpreting its
    text)."""
    read: list[str | None] = []
    keys_of = FactView.subject_keys

    def counted(self: FactView, asked: frozenset[str]) -> frozenset[str]:
        read.append(self.fact.entity)
        return keys_of(self, asked)

    monkeypatch.setattr(FactView, "subject_keys", counted)
    assert named_entities(analyse_query(text), VIEWS, given_names=True) == {}
    assert read == []
