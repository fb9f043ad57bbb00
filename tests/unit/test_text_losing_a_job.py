"""Losing one's job ends the job, and only when it is suffered (SPEC §15).

``was made redundant from her school business manager job``, ``was laid off from the
school``, ``got sacked from the depot``: the passive of the verbs of dismissal
(``data/cessation.txt``) reports that a job ended, so the job's fact ends and the
person's others stay. Their active forms tell acts on other things (``fired the kiln``,
``sacks the potatoes``) and end nothing.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from tests.unit.text_support import assert_first_ended_only, said, texts_after

_SLOW = settings(max_examples=6, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])
PEOPLE = st.sampled_from(["Marcia Campbell-Reid", "Tomás de la Fuente", "Mei Tanaka"])
JOB = "{p} works as the business manager at Perry Barr secondary school."
KEPT = ["{p} sings alto in a gospel choir.", "{p} fires her own pottery in a kiln."]


@_SLOW
@given(PEOPLE, st.sampled_from([
    "{p} was made redundant from her business manager job in July.",
    "{p} has been made redundant by Perry Barr secondary school.",
    "{p} was laid off from the school in July.",
    "{p} got sacked from the school last week.",
    "{p} was dismissed from the school in March."]))
def test_a_dismissal_ends_the_job_only(fresh_store: memory_es.MemoryStore, person: str,
                                       told: str) -> None:
    setup = [t.format(p=person) for t in (JOB, *KEPT)]
    after = texts_after(fresh_store, setup, "remember", told.format(p=person))
    assert_first_ended_only(setup, after)


@_SLOW
@given(PEOPLE, st.sampled_from(["{p} fired the kiln on Sunday.",
                                "{p} sacks the potatoes at the farm shop."]))
def test_the_active_forms_end_nothing(fresh_store: memory_es.MemoryStore, person: str,
                                      told: str) -> None:
    setup = [t.format(p=person) for t in (JOB, *KEPT)]
    after = texts_after(fresh_store, setup, "remember", told.format(p=person))
    assert said(setup) <= after
