"""Being hired by an organisation starts work there (SPEC §15): ``Zoe Park was hired by
Tesco`` (or recruited) ends ``Zoe Park works at Ocado`` as ``Zoe Park joined Tesco`` does,
and leaves her husband's employer and her other facts. ``hires staff by the hour`` (an
active verb) and ``was hired by a startup`` (no name) set no employer.

The reference model is the list of facts each case writes: her employer's fact ends,
every other stays.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text.interpreter import interpret
from tests.unit.text_support import said, texts_after

_KEPT = ["Zoe Park's husband works at Ocado.", "Zoe Park lives in Hatfield.",
         "Zoe Park volunteers at a food bank."]


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["hired", "recruited"]), st.sampled_from(["Tesco", "Arup", "John Lewis"]))
def test_a_hiring_ends_the_employer_before(fresh_store: memory_es.MemoryStore, verb: str,
                                          employer: str) -> None:
    held = "Zoe Park works at Ocado."
    hired = f"Zoe Park was {verb} by {employer}."
    after = texts_after(fresh_store, [held, *_KEPT], "remember", hired)
    assert after == said([*_KEPT, hired])


def test_only_a_passive_with_a_name_is_a_hiring() -> None:
    for text in ("Zoe Park hires staff by the hour.", "Zoe Park was hired by a startup."):
        assert interpret(text).clauses[0].attribute != "work.employer", text
    assert interpret("Zoe Park was hired by Tesco.").clauses[0].attribute == "work.employer"
