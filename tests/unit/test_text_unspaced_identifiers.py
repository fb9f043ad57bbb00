"""An identifier written right against a script without spaces (``王芳的电话是13812345678。``)
is found, indexed and purged like any other, and ``X的Y是Z`` is X's Y (SPEC §15)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface, interpret
from memory_es.text.identifiers import find_identifiers
from projections.tokens import keyword_terms
from tests.unit.text_support import current_texts, fresh_tenant

NUMBERS = st.integers(min_value=10**10, max_value=2 * 10**10 - 1).map(lambda n: f"1{n}"[:11])


@settings(max_examples=25, deadline=None)
@given(NUMBERS, st.sampled_from(["王芳的电话是{}。", "电话\uff1a{}\uff0c找李娜",
                                 "山田さんの番号は{}です"]))
def test_a_number_against_unspaced_words_is_found_where_it_stands(number: str,
                                                                  template: str) -> None:
    text = template.format(number)
    found = find_identifiers(text)
    assert [text[i.start:i.end] for i in found] == [number]
    assert number in keyword_terms(text)


def test_x_de_y_shi_z_is_xs_y() -> None:
    clause = interpret("王芳的电话是13812345678。").clauses[0]
    assert clause.entity == "person:wang-fang" and clause.value == "13812345678"


@settings(max_examples=4, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["138 1234 5678", "13812345678", "+86 138 1234 5678"]))
def test_a_purge_of_the_number_erases_that_fact_only(fresh_store: memory_es.MemoryStore,
                                                     asked: str) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    kept = {"王芳有一只猫", "王芳住在杭州", "王芳芳的电话是13812345679"}
    for text in (*kept, "王芳的电话是13812345678"):
        ti.remember(tenant, text + "。")
    ti.purge_matching(tenant, asked)
    assert current_texts(fresh_store, tenant) == kept
