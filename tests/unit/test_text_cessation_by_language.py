"""A cancellation in German or Chinese ends the one thing cancelled (SPEC §15):

- the subject's name as written (``Krüger``) is no word the ended fact must share; the
  entity id holds it folded (``kruger``), and as content it matched every fact of hers;
- a Chinese object is compared by its words (``杂志订阅`` ends ``订阅了一本杂志``)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from tests.unit.text_support import current_texts, fresh_tenant

_SLOW = settings(max_examples=8, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])


@_SLOW
@given(st.sampled_from(["Anna Krüger", "Jörg Müller", "Lena Jäger", "Emre Öztürk", "Ida Weiß"]),
       st.sampled_from(["Zeitungsabo", "Netflix-Abo", "Fitnessstudio-Abo"]))
def test_a_german_cancellation_ends_that_subscription_only(
        fresh_store: memory_es.MemoryStore, name: str, abo: str) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    kept = {f"{name} wohnt in Bremen", f"{name} spielt Bratsche"}
    for text in (*kept, f"{name} hat ein {abo}"):
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"{name} hat ihr {abo} gekündigt.")
    after = current_texts(fresh_store, tenant)
    assert kept <= after
    assert f"{name} hat ein {abo}" not in after


def test_a_chinese_cancellation_is_compared_by_its_words(
        fresh_store: memory_es.MemoryStore) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    kept = {"王芳住在杭州", "王芳喜欢爬山"}
    for text in (*kept, "王芳订阅了一本杂志"):
        ti.remember(tenant, text + "。")
    ti.remember(tenant, "王芳取消了杂志订阅。")
    after = current_texts(fresh_store, tenant)
    assert kept <= after
    assert "王芳订阅了一本杂志" not in after
