"""A plural written as an acronym and a lower-case ``s`` (``GPUs``, ``VMs``) counts the
acronym, so ``GPU count`` meets ``trains on 64 GPUs``; the light stem alone keeps
``gpus`` whole, as it keeps ``campus``."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from memory_es.text.matching import acronym_plurals, text_terms
from tests.unit.text_support import current_texts, fresh_tenant

ACRONYMS = st.text(alphabet="BCDFGHKLMNPQRTVWXZU", min_size=2, max_size=5)


@settings(max_examples=30, deadline=None)
@given(ACRONYMS)
def test_an_acronym_plural_counts_the_acronym(acronym: str) -> None:
    terms, _parts, _domains = text_terms(f"The cluster runs on 64 {acronym}s.")
    assert acronym.lower() in terms


def test_case_says_nothing_in_a_text_written_in_capitals() -> None:
    assert acronym_plurals("THE CLUSTER RUNS ON 64 GPUs") == {}
    assert acronym_plurals("The campus has two buses") == {}


@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ACRONYMS)
def test_a_revise_of_the_count_ends_that_projects_fact_only(
        fresh_store: memory_es.MemoryStore, acronym: str) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    mine, other = (f"Project Aurora trains on 64 {acronym}s.",
                   f"Project Borealis trains on 64 {acronym}s.")
    for text in (mine, other, "Project Aurora's dataset is CommonPile v2."):
        ti.remember(tenant, text)
    ti.revise(tenant, f"Project Aurora's {acronym} count",
              f"Project Aurora trains on 128 {acronym}s.")
    assert current_texts(fresh_store, tenant) == {
        other.rstrip("."), "Project Aurora's dataset is CommonPile v2",
        f"Project Aurora trains on 128 {acronym}s"}
