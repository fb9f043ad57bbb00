"""An accepted position names the new employer (SPEC §15): ``accepted a position at
Google``, and the office of any role of the work topic written with ``-ship``
(``internship``, ``professorship``: derived, not listed); a ``-ship``
noun of a word outside work (``partnership``, ``friendship``) is no position."""

from __future__ import annotations

import pytest

from memory_es.text.interpreter import RuleInterpreter


@pytest.mark.parametrize("text", ["Ana accepted a position at Google.",
                                  "Ana accepted an internship at Siemens.",
                                  "Ana took a professorship at Uppsala."])
def test_an_accepted_position_is_the_employer(text: str) -> None:
    (clause,) = RuleInterpreter()(text).clauses
    assert clause.attribute == "work.employer" and clause.confident


@pytest.mark.parametrize("text", ["Ana took a partnership in the firm.",
                                  "Ana accepted the friendship of her neighbour."])
def test_a_ship_noun_of_no_role_is_no_position(text: str) -> None:
    (clause,) = RuleInterpreter()(text).clauses
    assert clause.attribute != "work.employer"


@pytest.mark.parametrize("text", ["Sara got a new job at Mott MacDonald.",
                                  "Sara landed a role at Ocado.",
                                  "Sara started a new position at the BBC."])
def test_a_new_job_is_the_employer_and_a_change(text: str) -> None:
    """``got a new job at X`` is a job one has now: it replaces the employer."""
    (clause,) = RuleInterpreter()(text).clauses
    assert clause.attribute == "work.employer" and clause.op == "supersede"


@pytest.mark.parametrize("text", ["Sara got a job offer at Google.",
                                  "Sara got a job done at home."])
def test_an_offer_or_a_job_done_is_no_employer(text: str) -> None:
    (clause,) = RuleInterpreter()(text).clauses
    assert clause.attribute != "work.employer"
