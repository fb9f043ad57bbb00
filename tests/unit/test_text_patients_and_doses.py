"""People named with a role, surnames that are verbs, and doses with how often (SPEC §15):

- a role before a given name and surname (``Patient Omar Said``, ``Customer Ana Lima``)
  names the person the name alone names, so a later sentence without the role reaches
  the fact; a single name keeps its role's namespace (``Client Oleg``);
- a capitalised name word that is also a verb (``Said``, ``Will``, ``Mark``) is no verb
  when adverbs and then a verb follow it (``Omar Said now takes ...``), nor a modal
  between capitalised words (``Patient Will Hart takes ...``);
- a dose raised to an amount with how often (``increased to 1000 mg twice daily``)
  replaces the one fact with another amount of that medicine, never a wife's."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text.interpreter import interpret
from tests.unit.text_support import said, texts_after

_SLOW = settings(max_examples=8, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])
_PEOPLE = st.sampled_from(["Omar Said", "Will Hart", "Ana Lima", "Grace Mark"])


@_SLOW
@given(_PEOPLE, st.sampled_from(["Patient", "Customer", "Client", "Employee"]))
@example(name="Will Hart", role="Patient")
@example(name="Omar Said", role="Customer")
def test_a_role_before_a_full_name_is_the_person(
        fresh_store: memory_es.MemoryStore, name: str, role: str) -> None:
    kept = [f"{name} lives in Porto.", f"{name}'s sister takes metformin daily."]
    after = texts_after(fresh_store, [f"{role} {name} takes metformin daily.", *kept],
                        "remember", f"{name} stopped taking metformin.")
    assert said(kept) <= after
    assert f"{role} {name} takes metformin daily" not in after


def test_a_role_before_one_name_keeps_its_namespace() -> None:
    [clause] = interpret("Client Oleg pays by invoice.").clauses
    assert clause.entity == "client:oleg"


@example(name="Omar Said", adverbs="now", rest="takes metformin daily")
@given(_PEOPLE, st.sampled_from(["now", "still", "now mostly"]),
       st.sampled_from(["takes metformin daily", "works at Lidl", "lives in Leeds"]))
def test_a_name_word_that_is_a_verb_is_no_verb_before_adverbs_and_a_verb(
        name: str, adverbs: str, rest: str) -> None:
    [clause] = interpret(f"{name} {adverbs} {rest}.").clauses
    assert clause.entity == "person:" + name.lower().replace(" ", "-")


@_SLOW
@given(_PEOPLE, st.sampled_from([("metformin", "500 mg", "1000 mg twice daily"),
                                 ("sertraline", "50 mg", "100 mg every morning"),
                                 ("ramipril", "2.5 mg", "5 mg once a day")]),
       st.sampled_from(["increased", "raised", "lowered"]))
@example(name="Ana Lima", dose=("metformin", "500 mg", "1000 mg twice daily"), verb="increased")
def test_a_dose_with_how_often_replaces_the_one_amount(
        fresh_store: memory_es.MemoryStore, name: str, dose: tuple[str, str, str],
        verb: str) -> None:
    medicine, old, new = dose
    kept = [f"{name} lives in Porto.", f"{name}'s wife takes {medicine} {old} daily."]
    after = texts_after(fresh_store, [f"{name} takes {medicine} {old} twice daily.", *kept],
                        "remember", f"{name}'s {medicine} dose was {verb} to {new}.")
    assert said(kept) <= after
    assert f"{name} takes {medicine} {old} twice daily" not in after
