"""``is a <role> at <Org>`` names an employer (SPEC §15); ``is in <something> at <Org>``
says where the subject is, and holds no job: a person in a works syndicate or club at
their employer keeps the job told beside it, with no conflict in the employer's slot."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from tests.unit.text_support import current_texts, fresh_tenant, said, store_examples

_SLOW = store_examples()


@_SLOW
@given(st.sampled_from(["Priya Raghunathan", "Ole Johansen", "Kemi Adeyemi"]),
       st.sampled_from(["in the office lottery syndicate", "on the staff social committee",
                        "in the works choir", "with the office running club"]),
       st.sampled_from(["Kingsway Logistics", "Harland Engineering"]))
def test_being_in_a_group_at_an_organisation_is_no_job(
        fresh_store: memory_es.MemoryStore, person: str, group: str, org: str) -> None:
    ti, tenant = TextInterface(fresh_store), fresh_tenant()
    texts = [f"{person} is {group} at {org} in Leicester.",
             f"{person} works as a payroll officer at {org} in Leicester."]
    outcomes = [r.outcome for t in texts for r in ti.remember(tenant, t)]
    assert "conflicted" not in outcomes
    assert said(texts) <= current_texts(fresh_store, tenant)


def test_a_role_at_an_organisation_is_still_a_job(fresh_store: memory_es.MemoryStore) -> None:
    ti, tenant = TextInterface(fresh_store), fresh_tenant()
    ti.remember(tenant, "Ole Johansen is a payroll officer at Kingsway Logistics.")
    ti.remember(tenant, "Ole Johansen is a payroll officer at Harland Engineering now.")
    assert current_texts(fresh_store, tenant) == {
        "Ole Johansen is a payroll officer at Harland Engineering now"}
