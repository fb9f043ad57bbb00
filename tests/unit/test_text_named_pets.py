"""Two animals of one kind, each named, are two facts (SPEC §15: a change ends what it
replaces, and nothing else): ``has a cat called Pixel`` beside ``has a cat called Juno``
is a second cat, not a conflicting value of the first; each can be released alone."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from tests.unit.text_support import said, texts_after

_SLOW = settings(max_examples=10, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])


@_SLOW
@given(st.sampled_from(["cat", "dog", "golden retriever", "rabbit"]),
       st.sampled_from(["called", "named"]), st.permutations(["Juno", "Pixel", "Rolo"]))
def test_two_named_animals_of_one_kind_are_both_held(
        fresh_store: memory_es.MemoryStore, kind: str, naming: str, names: list[str]) -> None:
    first, second = names[:2]
    setup = [f"Theo Marsh has a {kind} {naming} {first}.",
             f"Theo Marsh has a {kind} {naming} {second}.", "Theo Marsh lives in Frome."]
    assert said(setup) <= texts_after(fresh_store, setup, "remember", "Theo Marsh is a vet.")
    after = texts_after(fresh_store, setup, "release", f"Theo Marsh's {kind} {second}")
    assert after == said(setup, but=[setup[1]])
