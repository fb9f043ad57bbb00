"""A job ended as a whole (SPEC §15).

- A cessation whose object only names a life domain (``quit her job``) ends the
  person's one fact of that domain; with several it is ambiguous and nothing ends.
- With no object, a verb of the domain itself (``retired``, ``resigned``) ends every fact
  of the domain, whenever it happened (``in March``, ``last spring``).
- A named job among several ends alone; a relative's retirement leaves the person's job;
  nothing outside the domain ends.
- A verb that only belongs to a domain, denied (``no longer cycles on Sundays``), ends its
  own fact, not the domain's others (``takes bus 38 to work``).
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from tests.unit.text_support import current_texts, fresh_tenant

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


def test_a_relatives_retirement_leaves_the_persons_job(
        fresh_store: memory_es.MemoryStore) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    ti.remember(tenant, "Carla Moreno works at Zara.")
    ti.remember(tenant, "Carla Moreno's father retired.")
    assert "Carla Moreno works at Zara" in current_texts(fresh_store, tenant)


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
