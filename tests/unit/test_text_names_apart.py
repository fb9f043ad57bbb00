"""A query that gives a proper name the fact lacks, where the fact gives another one,
names another thing (SPEC §15: no operation changes what it was not asked to).

``Eva Lund's train to Naples`` shares ``train`` with ``Eva Lund's train to Florence``
and nothing else: the two names say they are two trains. A name the fact holds, or a
query without a name of its own, leaves the rule out.

The reference model is the list of facts each case writes: the asked one ends, every
other stays.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from tests.unit.text_support import said, texts_after

_EVA = ["Eva Lund's flight to Rome leaves on May 3.", "Eva Lund lives in Malmo.",
        "Eva Lund's train to Florence leaves on May 7."]
_TOM = ["Tom Berg meets Rhys Owen every Monday.", "Tom Berg's laptop runs Ubuntu.",
        "Tom Berg plays squash."]
_ADA = ["Ada Kim studies at Leiden University.", "Ada Kim's sister lives in Utrecht.",
        "Ada Kim's bike is a Gazelle."]

# (setup, an operation that names a thing by another name than any fact gives it)
_OTHERS = [
    (_EVA, "release", "Eva Lund's train to Naples"),
    (_EVA, "forget", "Eva Lund's flight to Paris"),
    (_EVA, "forget", "Eva Lund's train to Venice"),
    (_TOM, "forget", "Tom Berg's meeting with Anna Lee"),
    (_TOM, "release", "Tom Berg's laptop running Windows"),
    (_ADA, "forget", "Ada Kim studies at Delft University"),
    (_ADA, "release", "Ada Kim's Batavus bike"),
]


@settings(max_examples=24, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(_OTHERS))
def test_a_name_the_fact_lacks_ends_nothing(fresh_store: memory_es.MemoryStore,
                                            case: tuple[list[str], str, str]) -> None:
    setup, op, query = case
    assert texts_after(fresh_store, setup, op, query) == said(setup)


# (setup, an operation that names the thing, the fact it ends)
_SAME = [
    (_EVA, "release", "Eva Lund's train to Florence", _EVA[2]),
    (_EVA, "forget", "Eva Lund's flight to Rome", _EVA[0]),
    (_EVA, "forget", "Eva Lund's train", _EVA[2]),
    (_TOM, "forget", "Tom Berg's meeting with Rhys", _TOM[0]),
    (_TOM, "release", "Tom Berg's laptop", _TOM[1]),
    (_ADA, "forget", "Ada Kim studies at Leiden", _ADA[0]),
    (_ADA, "release", "Ada Kim's Gazelle bike", _ADA[2]),
]


@settings(max_examples=24, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(_SAME))
def test_the_name_the_fact_holds_ends_it(fresh_store: memory_es.MemoryStore,
                                         case: tuple[list[str], str, str, str]) -> None:
    """A guard: the rule leaves the thing named as the fact names it, or not named."""
    setup, op, query, ended = case
    assert texts_after(fresh_store, setup, op, query) == said(setup, but=[ended])
