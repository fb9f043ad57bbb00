"""An act begun is a change of state (SPEC §15): ``Nora Quinn started working at a
school`` says what ``Nora Quinn now works at a school`` says, so it replaces ``works at a
bank``; ``started`` or ``began`` before a gerund reads as ``is now`` and the gerund
(memory_es.text.contractions), whoever the subject, and the text is kept as said.

The reference model is the list of facts each case writes: the employer replaced ends,
every other stays, and the new fact's text is the sentence as said.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text.contractions import expand
from tests.unit.text_support import said, texts_after

_SUBJECTS = [("I", "I work", "I live"), ("Nora Quinn", "Nora Quinn works", "Nora Quinn lives"),
             ("We", "We work", "We live")]


@settings(max_examples=16, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(_SUBJECTS), st.sampled_from(["started", "began", "have started"]),
       st.sampled_from(["a school", "the town hall"]))
def test_work_begun_replaces_the_employer(
        fresh_store: memory_es.MemoryStore, subject: tuple[str, str, str], began: str,
        place: str) -> None:
    who, works, lives = subject
    aux = began if who != "Nora Quinn" else began.replace("have", "has")
    held = f"{works} at a bank."
    setup = [held, f"{works} out on Mondays.", f"{lives} in Galway."]
    told = f"{who} {aux} working at {place}."
    after = texts_after(fresh_store, setup, "remember", told)
    assert after == said([*setup, told], but=[held])


def test_started_before_anything_but_a_gerund_is_as_said() -> None:
    """Guards: ``started a new job`` and ``started to work`` keep their words, and
    ``Nora started working`` reads as ``is now``, ``I`` as ``am``, ``they`` as ``are``."""
    assert expand("Nora started a new job.") == "Nora started a new job."
    assert expand("Nora started to work at Aldi.") == "Nora started to work at Aldi."
    assert expand("Nora started working at Aldi.") == "Nora is now working at Aldi."
    assert expand("I began learning Spanish.") == "I am now learning Spanish."
    assert expand("They have started running.") == "They are now running."
