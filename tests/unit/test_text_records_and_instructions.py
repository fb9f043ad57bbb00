"""An agent's working records and queries worded as instructions (SPEC §15).

- A cessation with an object ends only what shares the object, not merely the verb
  (``no longer drinks coffee`` leaves ``drinks green tea``), and a name in the object
  must be in the fact it ends (``sold her Acme shares`` leaves the Globex holding).
- Several facts carry the identifier a query names: the rest of the query says which
  (``EXP-204 learning rate``); a rest that matches none of them changes nothing, even
  when one fact alone carries the identifier (``the hearing in case 2024-118`` is not
  its judge); the label before the identifier (``case``) says what it is, not which.
- An instruction at the head of a query (``Forget``, ``Please delete``) is not what
  the query names.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from memory_es.text.matching import analyse_query
from tests.unit.text_support import current_texts, fresh_tenant, said, texts_after

_SLOW = settings(max_examples=8, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])


@_SLOW
@given(st.sampled_from(["drinks", "buys", "orders"]),
       st.permutations(["coffee", "green tea", "oat milk"]))
def test_a_cessation_with_an_object_ends_only_that_object(
        fresh_store: memory_es.MemoryStore, verb: str, things: list[str]) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    ended, *kept = things
    for thing in things:
        ti.remember(tenant, f"Felix Braun {verb} {thing} every week.")
    ti.remember(tenant, f"Greta Braun {verb} {ended} every week.")
    ti.remember(tenant, f"Felix Braun no longer {verb} {ended}.")
    current = current_texts(fresh_store, tenant)
    assert f"Felix Braun {verb} {ended} every week" not in current
    assert {f"Felix Braun {verb} {k} every week" for k in kept} <= current
    assert f"Greta Braun {verb} {ended} every week" in current


@_SLOW
@given(st.permutations(["Acme", "Globex", "Initech"]),
       st.sampled_from(["sold", "has sold", "sold off", "sold all"]))
def test_a_name_in_the_ended_object_must_be_in_the_fact(
        fresh_store: memory_es.MemoryStore, companies: list[str], ending: str) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    sold, *kept = companies
    for n, company in enumerate(companies):
        ti.remember(tenant, f"Aisha Bello holds {100 * (n + 1)} shares of {company}.")
    ti.remember(tenant, f"Aisha Bello {ending} her {sold} shares.")
    holdings = {t for t in current_texts(fresh_store, tenant) if " holds " in t}
    assert {h.rsplit(" ", 1)[-1] for h in holdings} == set(kept)


RECORD = ["Experiment EXP-204 uses a learning rate of 0.001.",
          "Experiment EXP-204 runs on four machines.",
          "Experiment EXP-204 logs to the shared bucket.",
          "Experiment EXP-2041 uses a learning rate of 0.01."]


@_SLOW
@given(st.sampled_from([(0, "EXP-204 learning rate"), (1, "machines of EXP-204"),
                        (2, "EXP-204 bucket"), (2, "the storage bucket setting of EXP-204")]),
       st.sampled_from(["release", "forget"]))
def test_the_rest_of_the_query_says_which_of_the_records_facts(
        fresh_store: memory_es.MemoryStore, target: tuple[int, str], op: str) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for text in RECORD:
        ti.remember(tenant, text)
    index, query = target
    getattr(ti, op)(tenant, query)
    gone = RECORD[index].rstrip(".")
    assert current_texts(fresh_store, tenant) == {r.rstrip(".") for r in RECORD} - {gone}


def test_a_rest_that_matches_none_of_the_records_facts_changes_nothing(
        fresh_store: memory_es.MemoryStore) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for text in RECORD:
        ti.remember(tenant, text)
    result = ti.release(tenant, "EXP-204 batch size")
    assert not result.touched and result.note.startswith("no match")
    ti.release(tenant, "EXP-204")  # the identifier alone still names the whole record
    assert current_texts(fresh_store, tenant) == {RECORD[3].rstrip(".")}


@given(st.sampled_from(["Forget", "forget", "Please forget", "Delete", "please delete",
                        "Remove", "Erase", "Drop"]),
       st.sampled_from(["Zoe Kim", "Zoe's dog", "the GPU count of EXP-204"]))
def test_an_instruction_at_the_head_is_not_what_the_query_names(lead: str, rest: str) -> None:
    assert analyse_query(f"{lead} {rest}.").terms == analyse_query(rest).terms


def test_forget_a_person_by_instruction(fresh_store: memory_es.MemoryStore) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for text in ("Zoe Kim has a dog named Pepper.", "Zoe Kim lives in Oslo.",
                 "Leo Park lives in Oslo."):
        ti.remember(tenant, text)
    ti.forget(tenant, "Forget Zoe Kim.")
    assert current_texts(fresh_store, tenant) == {"Leo Park lives in Oslo"}
    assert analyse_query("drop-off at school").terms[0] == "drop-off"  # not at the head


_COURT = ["Case 2024-117 is assigned to Judge Reed.", "Case 2024-118 is assigned to Judge Okafor.",
          "The hearing in case 2024-117 is on June 2."]


@_SLOW
@given(st.sampled_from([("the hearing in case 2024-118", None),
                        ("the hearing for claim 2024-118", None),
                        ("the judge of case 2024-118", _COURT[1]),
                        ("case 2024-118", _COURT[1]),
                        ("the hearing in case 2024-117", _COURT[2])]))
def test_one_fact_with_the_identifier_still_needs_the_rest(
        fresh_store: memory_es.MemoryStore, case: tuple[str, str | None]) -> None:
    query, ended = case
    assert texts_after(fresh_store, _COURT, "forget", query) == said(_COURT, but=[ended])
