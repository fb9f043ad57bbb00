"""An ask wrapped in a request does what the bare ask does (SPEC §15).

``Could you forget Iris's address?``, ``I want you to forget …``, ``Please stop
remembering that …``, ``no need to remember … anymore``, ``…, please``, ``Would you mind
forgetting …`` (the ask as a gerund): the request says nothing of what is asked for. The
reference is the bare ask on a store of the same facts.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from memory_es.text.requests import without_request
from tests.unit.text_support import current_texts, fresh_tenant

_FACTS = ["Iris Lund lives at 4 Elm Street", "Iris Lund's email is iris@lund.se",
          "Iris Lund has a dog called Bo", "Iris Lund works at Volvo",
          "Tom Lund has a dog called Max"]
_ASKS = [("forget", "Iris Lund's address"), ("forget", "Iris Lund has a dog"),
         ("release", "Iris Lund's email"), ("forget", "everything about Tom Lund"),
         ("release", "where Iris Lund works")]
_WRAPS = ["Could you forget {}?", "Can you please forget {}", "I want you to forget {}",
          "I'd like you to forget {}", "Please stop remembering that {}", "{}, please",
          "No need to remember {} anymore", "Would you forget {}? Thanks",
          "Would you mind forgetting {}?", "Do you mind dropping {}",
          "Would you be able to forget {}?", "Are you able to delete {}?"]


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(_ASKS), st.sampled_from(_WRAPS))
def test_a_wrapped_ask_does_what_the_bare_ask_does(fresh_store: memory_es.MemoryStore,
                                                   ask: tuple[str, str], wrap: str) -> None:
    op, bare = ask
    after = []
    for query in (bare, wrap.format(bare)):
        tenant, ti = fresh_tenant(), TextInterface(fresh_store)
        for text in _FACTS:
            ti.remember(tenant, text + ".")
        getattr(ti, op)(tenant, query)
        after.append(current_texts(fresh_store, tenant))
    assert after[0] == after[1]
    assert after[0] != set(_FACTS)  # the bare ask itself ends something


def test_words_that_only_look_like_a_request_stay() -> None:
    for text in ["Store opening hours", "tracking number 1Z999", "Will Smith's address",
                 "Keeping bees", "the kitchen light"]:
        assert without_request(text) == text


_STATEMENTS = ["Iris Lund doesn't work at Volvo anymore.", "Iris Lund moved to Malmö.",
               "Iris Lund's email is now iris@lund.dk.", "Iris Lund no longer has a dog."]
_POINTERS = ["Please note that {}", "Note that {}", "Please remember that {}",
             "Keep in mind that {}", "Just be aware that {}", "FYI {}", "Just so you know, {}",
             "By the way, {}", "Heads up: {}", "For the record, {}", "BTW {}"]


@settings(max_examples=24, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(_STATEMENTS), st.sampled_from(_POINTERS))
def test_a_statement_pointed_at_does_what_the_statement_does(
        fresh_store: memory_es.MemoryStore, statement: str, pointer: str) -> None:
    """``Please note that Iris Lund moved to Malmö``, ``FYI Iris Lund moved to Malmö``: the
    imperative or the discourse marker only points at the statement, which changes what
    it changes (Iris's, not Tom's, and nothing else)."""
    bare, pointed = fresh_tenant(), fresh_tenant()
    ti = TextInterface(fresh_store)
    for tenant in (bare, pointed):
        for text in _FACTS:
            ti.remember(tenant, text + ".")
    ti.remember(bare, statement)
    ti.remember(pointed, pointer.format(statement))
    assert current_texts(fresh_store, pointed) == current_texts(fresh_store, bare)
