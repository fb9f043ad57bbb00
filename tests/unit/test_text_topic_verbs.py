"""A revise that names only a topic is told which fact by the new text's verb (SPEC §15).

``revise("Yuki's language", "Yuki speaks Irish")`` with ``Yuki speaks Welsh`` and ``Yuki
is learning Spanish``: the topic name alone cannot say which fact is meant, the new
text's verb can: the fact with the same verb is replaced. With no fact of that verb, or
several, none is retired and the new text is remembered beside them. Where no verb is
shared, a fact about someone else's thing is no fact of the topic: ``Kwame's pet``
revised by ``Kwame adopted a rabbit`` replaces ``Kwame has a cat``, not ``Kwame feeds the
neighbour's dog``; with two pets of his own, neither.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from tests.unit.text_support import current_texts, fresh_tenant, texts_after

_SLOW = settings(max_examples=8, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])
_LANGUAGES = ["Welsh", "Spanish", "Irish", "Polish", "Greek", "Danish"]


@_SLOW
@given(st.lists(st.sampled_from(_LANGUAGES), min_size=3, max_size=3, unique=True),
       st.booleans())
def test_the_new_verb_picks_the_fact(fresh_store: memory_es.MemoryStore, langs: list[str],
                                     speaks: bool) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    spoken, learnt = f"Yuki Arai speaks {langs[0]}", f"Yuki Arai is learning {langs[1]}"
    kept = ["Yuki Arai practises calligraphy", "Yuki Arai swims before work"]
    for text in (spoken, learnt, *kept):
        ti.remember(tenant, text + ".")
    new = f"Yuki Arai speaks {langs[2]}" if speaks else f"Yuki Arai is learning {langs[2]}"
    ti.revise(tenant, "Yuki Arai's language", new + ".")
    current = current_texts(fresh_store, tenant)
    assert set(kept) <= current and new in current
    assert (spoken not in current) == speaks
    assert (learnt not in current) == (not speaks)


@_SLOW
@given(st.lists(st.sampled_from(_LANGUAGES), min_size=3, max_size=3, unique=True))
def test_a_verb_of_no_fact_or_of_two_retires_none(fresh_store: memory_es.MemoryStore,
                                                   langs: list[str]) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    held = [f"Yuki Arai speaks {langs[0]}", f"Yuki Arai speaks {langs[1]}"]
    for text in held:
        ti.remember(tenant, text + ".")
    ti.revise(tenant, "Yuki Arai's language", f"Yuki Arai speaks {langs[2]}.")
    assert set(held) <= current_texts(fresh_store, tenant)


_PETS = ["cat", "dog", "rabbit", "hamster", "parrot", "tortoise"]


@_SLOW
@given(st.lists(st.sampled_from(_PETS), min_size=3, max_size=3, unique=True),
       st.sampled_from(["feeds the neighbour's", "walks her sister's"]))
def test_someone_elses_thing_is_set_aside(fresh_store: memory_es.MemoryStore,
                                         pets: list[str], care: str) -> None:
    owned, cared = f"Lena Ortiz has a {pets[0]}", f"Lena Ortiz {care} {pets[1]}"
    kept = ["Lena Ortiz plays the trumpet", "Lena Ortiz bakes rye bread"]
    new = f"Lena Ortiz adopted a {pets[2]}"
    after = texts_after(fresh_store, [f"{t}." for t in (owned, cared, *kept)], "revise",
                        "Lena Ortiz's pet", new + ".")
    assert after == {cared, *kept, new}


@_SLOW
@given(st.lists(st.sampled_from(_PETS), min_size=3, max_size=3, unique=True))
def test_two_of_ones_own_retire_none(fresh_store: memory_es.MemoryStore,
                                     pets: list[str]) -> None:
    held = [f"Lena Ortiz has a {pets[0]}", f"Lena Ortiz keeps a {pets[1]}",
            f"Lena Ortiz feeds the neighbour's {pets[0]}"]
    after = texts_after(fresh_store, [f"{t}." for t in held], "revise", "Lena Ortiz's pet",
                        f"Lena Ortiz adopted a {pets[2]}.")
    assert set(held) <= after


def test_a_place_named_with_a_possessive_is_nobodys_thing(
        fresh_store: memory_es.MemoryStore) -> None:
    setup = ["Hana Sato works as a nurse at St Mary's.", "Hana Sato's shift starts at 7 am.",
             "Hana Sato's colleague Ben works as a nurse at St Mary's."]
    after = texts_after(fresh_store, setup, "revise", "Hana Sato's job",
                        "Hana Sato works as a midwife at St Mary's.")
    assert "Hana Sato's shift starts at 7 am" in after
