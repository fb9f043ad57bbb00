"""A new role ends the fact that gave the old one (SPEC §15: a change ends what it
replaces, and nothing else).

- ``was promoted to``, ``was demoted to``, ``was elevated to`` and a role: the role held
  from now on (``work.role``), as ``is now a …`` says; so do a verb done again, ``as``
  and an occupation (``retrained as a nurse``), but not the verb said once (``trained as
  a nurse`` may be long past) nor a thing's (``reopened as a café``).
- The one fact that gave the entity's role in another slot ends with it: a role at an
  organisation (``is a staff nurse at St Mary's``), or the copula and a person noun
  (``is a constable in the Met``). A relative's role, kept under the entity's id, what
  the entity is otherwise (``a mother of two``, ``a customer of Barclays``) and its other
  facts stay.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text.interpreter import interpret
from tests.unit.text_support import texts_after

_HELD = ["Leah Byrne is a staff nurse at St Mary's", "Leah Byrne is a constable in the Met",
         "Leah Byrne's job title is Staff Nurse"]
_KEPT = ["Leah Byrne lives in Derby", "Leah Byrne's brother is a constable in the Met",
         "Leah Byrne is a mother of two", "Leah Byrne is a customer of Barclays"]
_TOLD = ["Leah Byrne was promoted to ward sister.", "Leah Byrne was demoted to cadet.",
         "Leah Byrne was elevated to chief inspector.", "Leah Byrne is now a charge nurse."]


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(_HELD), st.sampled_from(_TOLD))
def test_a_new_role_ends_the_fact_of_the_old_one(
        fresh_store: memory_es.MemoryStore, held: str, told: str) -> None:
    kept = [k for k in _KEPT if k != held]
    after = texts_after(fresh_store, [f"{t}." for t in (held, *kept)], "remember", told)
    assert {*kept, told.rstrip(".")} <= after
    assert held not in after


@given(st.sampled_from(["promoted", "demoted", "elevated"]),
       st.sampled_from(["head of sales", "sergeant", "partner"]))
def test_a_move_to_a_role_is_the_role_slot_changed(verb: str, role: str) -> None:
    clause = interpret(f"Omar Said was {verb} to {role} in May.").clauses[0]
    assert (clause.attribute, clause.value, clause.op) == ("work.role", role, "supersede")


@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["sub-editor", "co-founder", "assistant-director"]))
def test_a_hyphenated_role_is_its_last_parts_kind(
        fresh_store: memory_es.MemoryStore, role: str) -> None:
    """``is a sub-editor at the Herald`` gives a role at an organisation, as ``an editor``
    would (English compounds are headed on the right), so a promotion ends it."""
    held, kept = f"Leah Byrne is a {role} at the Herald", "Leah Byrne lives in Derby"
    after = texts_after(fresh_store, [f"{held}.", f"{kept}."], "remember",
                        "Leah Byrne was promoted to chief executive.")
    assert kept in after
    assert held not in after


@given(st.sampled_from(["a nurse", "a data analyst", "an electrician"]))
def test_a_role_taken_anew_is_the_role_slot_changed(role: str) -> None:
    clause = interpret(f"Omar Said retrained as {role}.").clauses[0]
    assert (clause.attribute, clause.op) == ("work.role", "supersede")
    assert clause.value == role.split(maxsplit=1)[1]
    assert interpret(f"Omar Said trained as {role}.").clauses[0].attribute != "work.role"
    assert interpret("The bakery reopened as a café.").clauses[0].attribute != "work.role"


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["head chef", "lead singer", "support worker", "cover teacher"]),
       st.sampled_from(["Sketch", "the Ritz", "St Anne's"]))
def test_a_verb_form_before_a_noun_after_be_is_part_of_the_role(
        fresh_store: memory_es.MemoryStore, role: str, place: str) -> None:
    """``is head chef at Sketch``: after ``be`` a verb's bare form before a noun that is
    no verb qualifies that noun (``head``, ``lead``, ``support``, ``cover``): the copula's
    role there, which a new one ends, never the verb ``head``."""
    held = f"Ann Cole is {role} at {place}"
    reading = interpret(held + ".").clauses[0]
    assert reading.frame == f"be+{role.rsplit(maxsplit=1)[-1]}.at.name"
    kept = [f"Ann Cole's brother is {role} at Nopi", "Ann Cole plays golf"]
    after = texts_after(fresh_store, [f"{t}." for t in (held, *kept)], "remember",
                        f"Ann Cole is now {role} at Nopi.")
    assert held not in after
    assert {*kept, f"Ann Cole is now {role} at Nopi"} <= after
