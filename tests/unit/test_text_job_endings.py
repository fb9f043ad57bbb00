"""A job ended as a whole (SPEC §15).

- A cessation whose object only names a life domain (``quit her job``) ends the
  person's one fact of that domain; with several it is ambiguous and nothing ends.
- With no object, a verb of the domain itself (``retired``, ``resigned``) ends every fact
  of the domain, whenever it happened (``in March``, ``last spring``).
- A named job among several ends alone; a relative's retirement ends the relative's work
  and leaves the person's job; nothing outside the domain ends.
- A verb that only belongs to a domain, denied (``no longer cycles on Sundays``), ends its
  own fact, not the domain's others (``takes bus 38 to work``).
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from tests.unit.text_support import current_texts, fresh_tenant, texts_after

_SLOW = settings(max_examples=8, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])
_JOBS = ["works as a nurse at St Mary's", "is an accountant at Deloitte", "is a pharmacist",
         "works at a bakery"]
_OTHERS = ["lives in Turin", "plays the cello", "is allergic to latex", "has two daughters"]


@_SLOW
@given(st.sampled_from(_JOBS), st.sampled_from(_OTHERS),
       st.sampled_from(["quit her job", "quit her job last week", "left her job",
                        "quit her job in March"]))
def test_a_job_named_as_a_whole_ends_the_one_job(
        fresh_store: memory_es.MemoryStore, job: str, other: str, ended: str) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for text in (f"Lucia Ferrari {job}.", f"Lucia Ferrari {other}.", f"Ana Ruiz {job}."):
        ti.remember(tenant, text)
    ti.remember(tenant, f"Lucia Ferrari {ended}.")
    current = current_texts(fresh_store, tenant)
    assert f"Lucia Ferrari {job}" not in current
    assert {f"Lucia Ferrari {other}", f"Ana Ruiz {job}"} <= current


@_SLOW
@given(st.sampled_from(["retired", "retired in March", "retired last spring", "resigned"]),
       st.sampled_from(_OTHERS))
def test_retiring_ends_every_fact_of_work(fresh_store: memory_es.MemoryStore, verb: str,
                                          other: str) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    work = ["Tomas Novak works at Skoda", "Tomas Novak is a mechanic"]
    for text in (*work, f"Tomas Novak {other}"):
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"Tomas Novak {verb}.")
    current = current_texts(fresh_store, tenant)
    assert not set(work) & current
    assert f"Tomas Novak {other}" in current


def test_two_jobs_and_a_job_named_as_a_whole_end_nothing(
        fresh_store: memory_es.MemoryStore) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    jobs = {"Sara Lind works at a bakery", "Sara Lind is a tutor in the evenings"}
    for text in jobs:
        ti.remember(tenant, text + ".")
    ti.remember(tenant, "Sara Lind quit her job.")
    assert jobs <= current_texts(fresh_store, tenant)
    ti.remember(tenant, "Sara Lind quit her job at the bakery.")
    current = current_texts(fresh_store, tenant)
    assert "Sara Lind works at a bakery" not in current
    assert "Sara Lind is a tutor in the evenings" in current


@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["father", "mother", "husband"]),
       st.sampled_from(["works at Ford", "is a carpenter"]))
def test_a_relatives_retirement_ends_their_work_and_leaves_the_persons(
        fresh_store: memory_es.MemoryStore, kin: str, work: str) -> None:
    """``Carla's father retired`` ends his facts of work, kept under her id, and leaves
    her job and his other facts."""
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    kept = ["Carla Moreno works at Zara", f"Carla Moreno's {kin} lives in Vigo",
            f"Carla Moreno's {kin} plays golf"]
    for text in (*kept, f"Carla Moreno's {kin} {work}"):
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"Carla Moreno's {kin} retired.")
    after = current_texts(fresh_store, tenant)
    assert set(kept) <= after
    assert f"Carla Moreno's {kin} {work}" not in after


def test_a_role_at_a_place_keeps_the_place(fresh_store: memory_es.MemoryStore) -> None:
    """``works as a forklift driver at the Gdańsk depot``: the article of the place does
    not cut the value short, so ``no longer works at the Gdańsk depot`` ends that job."""
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    job = "Tomasz Wiśniewski works as a forklift driver at the Gdańsk depot"
    kept = {"Tomasz Wiśniewski's manager is Ewa Lis", "Ewa Lis manages the night shift"}
    for text in (job, *kept):
        ti.remember(tenant, text + ".")
    assert any("Gdańsk depot" in str(f.value) for f in fresh_store.current(tenant))
    ti.remember(tenant, "Tomasz Wiśniewski no longer works at the Gdańsk depot.")
    assert job not in current_texts(fresh_store, tenant)
    assert kept <= current_texts(fresh_store, tenant)


@_SLOW
@given(st.sampled_from([("cycles on Sundays", "takes bus 38 to work"),
                        ("swims at the lido", "plays squash on Fridays"),
                        ("drives to Leeds on Mondays", "cycles to work"),
                        ("teaches yoga", "works at a bakery")]))
def test_a_denied_act_of_a_domain_ends_only_its_own_fact(
        fresh_store: memory_es.MemoryStore, facts: tuple[str, str]) -> None:
    act, other = facts
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for text in (f"Kofi Mensah {act}.", f"Kofi Mensah {other}.", "Kofi Mensah lives in Leeds."):
        ti.remember(tenant, text)
    ti.remember(tenant, f"Kofi Mensah no longer {act}.")
    current = current_texts(fresh_store, tenant)
    assert f"Kofi Mensah {act}" not in current
    assert {f"Kofi Mensah {other}", "Kofi Mensah lives in Leeds"} <= current


_KIN_FACTS = ["Rosa Diaz's mother lives in Seville", "Rosa Diaz's mother plays bridge",
              "Rosa Diaz's father lives in Seville", "Rosa Diaz's father plays golf",
              "Rosa Diaz lives in Madrid", "Rosa Diaz works at Zara"]


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from([("Rosa Diaz's mother is a retired teacher.", None),
                        ("Rosa Diaz's mother is retired.", None),
                        ("Rosa Diaz's father no longer plays golf.",
                         "Rosa Diaz's father plays golf"),
                        ("Rosa Diaz's mother gave up bridge.",
                         "Rosa Diaz's mother plays bridge")]))
def test_a_relatives_ending_ends_only_what_it_names(
        fresh_store: memory_es.MemoryStore, case: tuple[str, str | None]) -> None:
    """A person of the owner's is no thing that ended: ``Rosa's mother is a retired
    teacher`` leaves where the mother lives (the word ``mother`` picks her facts out and
    is no content they share), ``Rosa's father no longer plays golf`` ends his golf
    alone; an ending told again (``is retired`` after ``is a retired teacher``) ends
    nothing."""
    said, ended = case
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    held = [*_KIN_FACTS, "Rosa Diaz's mother is a retired teacher"]
    for text in held:
        ti.remember(tenant, text + ".")
    ti.remember(tenant, said)
    after = current_texts(fresh_store, tenant)
    assert set(held) - {ended} <= after
    assert ended is None or ended not in after


@settings(max_examples=4, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["teaches", "plays"]), st.sampled_from(["mother", "brother"]))
def test_a_relatives_denied_act_ends_the_act_of_its_verb(
        fresh_store: memory_es.MemoryStore, verb: str, kin: str) -> None:
    """``Rosa's mother no longer teaches piano`` leaves ``Rosa's mother plays piano``: the
    word for her is no content the two share."""
    other = "plays" if verb == "teaches" else "teaches"
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for text in (f"Rosa Diaz's {kin} {verb} piano.", f"Rosa Diaz's {kin} {other} piano."):
        ti.remember(tenant, text)
    ti.remember(tenant, f"Rosa Diaz's {kin} no longer {verb} piano.")
    after = current_texts(fresh_store, tenant)
    assert f"Rosa Diaz's {kin} {verb} piano" not in after
    assert f"Rosa Diaz's {kin} {other} piano" in after


def test_retiring_leaves_a_fact_that_tells_a_retirement(
        fresh_store: memory_es.MemoryStore) -> None:
    """``retired`` ends the facts of work, not ``is a retired nurse``: it says the same."""
    after = texts_after(fresh_store, ["Rosa Diaz is a retired nurse.", "Rosa Diaz works at Zara."],
                        "remember", "Rosa Diaz retired.")
    assert "Rosa Diaz works at Zara" not in after
    assert "Rosa Diaz is a retired nurse" in after


@settings(max_examples=4, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["mother-in-law", "brother-in-law", "sister-in-law"]))
def test_an_in_law_is_a_person_of_the_owners(fresh_store: memory_es.MemoryStore,
                                              kin: str) -> None:
    """``mother-in-law`` is headed by ``mother``, not ``law``: ``Gita's mother-in-law is a
    retired teacher`` leaves where she lives, as a mother's would."""
    held = [f"Gita Rao's {kin} lives in Mysore", "Gita Rao lives in Bangalore"]
    after = texts_after(fresh_store, [f"{t}." for t in held], "remember",
                        f"Gita Rao's {kin} is a retired teacher.")
    assert set(held) <= after
