"""A capitalised word after ``my`` is a person only when people are called by it (SPEC §15).

``My Mum lives in Leeds`` and ``My Nan is 90`` speak of a relative; ``My Fiesta is blue``
and ``My Kindle is black`` of a thing of the user's, so that ``I've sold my Fiesta`` ends
what was said of it.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text.interpreter import RuleInterpreter
from tests.unit.text_support import texts_after

_SLOW = settings(max_examples=6, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])


@given(st.sampled_from(["Mum", "Nan", "Dad", "Grandma"]),
       st.sampled_from(["lives in Leeds", "is a nurse"]))
def test_a_relative_called_by_a_kin_word_is_a_person(word: str, said: str) -> None:
    clause = RuleInterpreter()(f"My {word} {said}.").clauses[0]
    assert clause.entity == f"person:{word.lower()}"


@given(st.sampled_from(["Fiesta", "Kindle", "Prius", "Brompton"]),
       st.sampled_from(["is blue", "is in the garage"]))
def test_a_name_no_person_is_called_by_is_the_users_thing(name: str, said: str) -> None:
    clause = RuleInterpreter()(f"My {name} {said}.").clauses[0]
    assert clause.entity == "user:self"


@_SLOW
@given(st.sampled_from([("drive a Ford Fiesta", "Fiesta"), ("ride a Brompton", "Brompton")]))
def test_selling_the_users_named_thing_ends_what_was_said_of_it(
        fresh_store: memory_es.MemoryStore, thing: tuple[str, str]) -> None:
    held, name = thing
    after = texts_after(fresh_store, [f"I {held}.", f"My {name} is blue.", "I live in Reading."],
                        "remember", f"I've sold my {name}.")
    assert f"My {name} is blue" not in after
    assert "I live in Reading" in after


@given(st.sampled_from(["Unique Taxpayer Reference", "Patient Portal Password",
                        "Student Loan Account", "Employee Parking Permit"]))
def test_a_thing_whose_head_no_person_is_called_by_is_the_users(name: str) -> None:
    """``My Unique Taxpayer Reference is …``: a word people are called by (``taxpayer``,
    ``patient``) inside it does not make it a person: its head noun says what it is."""
    clause = RuleInterpreter()(f"My {name} is 83104 27695.").clauses[0]
    assert clause.entity == "user:self"
