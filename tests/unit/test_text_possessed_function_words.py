"""What a possessive possesses is content even when the word is on the stopword list
(``Mia's will``, ``Tom's list``): dropped, the query named the person alone and asked
for all of her. A German function word that is an English noun (``hat``, ``die``) is a
function word in German text only."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from memory_es.text import lexicon as lx
from memory_es.text.matching import possessed_nouns, text_terms
from tests.unit.text_support import current_texts, fresh_tenant

POSSESSED = ["will", "can", "list", "show", "hat", "must", "die"]
"""Not ``file``: an information noun, ``Mia's file`` is all that is known of her."""


def test_a_contracted_is_possesses_nothing() -> None:
    assert possessed_nouns("Mia's will") == {"will"}
    assert possessed_nouns("Mia's in Oslo now") == frozenset()
    assert possessed_nouns("it's a list") == frozenset()


def test_a_german_article_is_a_function_word_in_german_only() -> None:
    assert "hat" in text_terms("Mia has a red hat")[0]
    assert lx.reads_german(["die", "geige", "von", "anna"])
    assert not lx.reads_german(["mia", "has", "a", "red", "hat"])


@settings(max_examples=16, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(POSSESSED), st.sampled_from(["release", "forget"]))
def test_a_possessed_function_word_is_never_the_whole_person(
        fresh_store: memory_es.MemoryStore, thing: str, op: str) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    kept = {"Mia Lund lives in York", "Mia Lund has a dog"}
    for text in (f"Mia Lund's {thing} is in the top drawer", *kept):
        ti.remember(tenant, text + ".")
    getattr(ti, op)(tenant, f"Mia Lund's {thing}")
    assert current_texts(fresh_store, tenant) == kept


def test_an_english_sentence_with_hat_is_not_read_as_german() -> None:
    from memory_es.text import interpret

    english = interpret("The hat is on the shelf.").clauses[0]
    assert english.entity == "topic:hat" and "lang:de" not in english.rules
    owned = interpret("Mia Lund's hat is in the top drawer.").clauses[0]
    assert owned.entity == "person:mia-lund" and "lang:de" not in owned.rules
    german = interpret("Mia hat ein Auto.").clauses[0]
    assert german.entity == "person:mia" and "lang:de" in german.rules


def test_a_word_whose_stem_is_a_role_noun_is_no_role(
        fresh_store: memory_es.MemoryStore) -> None:
    """``shopping`` stems to ``shop``, a role noun; the word itself is none, so ``Mia Lund's
    shopping list`` is a thing of hers, not all of her."""
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    kept = {"Mia Lund lives in York", "Mia Lund has a dog"}
    for text in ("Mia Lund's shopping list is on the fridge", *kept):
        ti.remember(tenant, text + ".")
    ti.release(tenant, "Mia Lund's shopping list")
    assert current_texts(fresh_store, tenant) == kept
