"""An ask for one thing ends that thing, never the facts that merely share a word with it
(SPEC §15: nothing changes that the query does not specifically match).

``release Elin's coffee habit`` beside ``drinks black coffee``, ``owns a coffee
grinder`` and ``works at a coffee roastery``: no fact holds a habit, and the word they
share cannot say which one thing is meant, so nothing ends. ``release Zoe's dog`` beside
``walks her neighbour's dog`` and ``has a dog called Biscuit``: the neighbour's dog is
not hers.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from tests.unit.text_support import current_texts, fresh_tenant

_SLOW = settings(max_examples=8, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])
_SHARED = st.sampled_from(["coffee", "garden", "chess", "tennis", "guitar"])


@_SLOW
@given(_SHARED, st.sampled_from(["habit", "budget", "plan", "hobby"]))
def test_a_modifier_shared_by_several_facts_ends_none(fresh_store: memory_es.MemoryStore,
                                                      word: str, head: str) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    facts = {f"Elin Berg owns a {word} bag", f"Elin Berg works at a {word} club",
             f"Elin Berg reads a {word} magazine", "Elin Berg drinks green tea"}
    for text in facts:
        ti.remember(tenant, text + ".")
    result = ti.release(tenant, f"Elin Berg's {word} {head}")
    assert current_texts(fresh_store, tenant) == facts
    assert result.note.startswith("no match")


@_SLOW
@given(_SHARED, st.sampled_from(["bag", "club", "magazine"]))
def test_the_head_a_fact_holds_ends_that_fact(fresh_store: memory_es.MemoryStore,
                                              word: str, head: str) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    facts = {f"Elin Berg owns a {word} bag", f"Elin Berg works at a {word} club",
             f"Elin Berg reads a {word} magazine"}
    for text in facts:
        ti.remember(tenant, text + ".")
    ti.release(tenant, f"Elin Berg's {word} {head}")
    current = current_texts(fresh_store, tenant)
    assert {f for f in facts if f.endswith(head)}.isdisjoint(current)
    assert {f for f in facts if not f.endswith(head)} <= current


@_SLOW
@given(st.sampled_from(["dog", "cat", "car", "boat"]),
       st.sampled_from(["neighbour", "brother", "boss", "landlady"]))
def test_someone_elses_thing_stands_aside(fresh_store: memory_es.MemoryStore, thing: str,
                                          other: str) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    theirs = f"Zoe Clarke looks after her {other}'s {thing}"
    hers = f"Zoe Clarke has a {thing} called Biscuit"
    for text in (theirs, hers, "Zoe Clarke lives in Leeds"):
        ti.remember(tenant, text + ".")
    ti.release(tenant, f"Zoe Clarke's {thing}")
    current = current_texts(fresh_store, tenant)
    assert hers not in current
    assert {theirs, "Zoe Clarke lives in Leeds"} <= current
