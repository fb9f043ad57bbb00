"""A title before a name says who is meant, never what of them (``Dr Vogt's cat`` is no
fact about being a doctor), and a generational suffix after a name is part of it
(``Tom Berg Jr`` is not ``Tom Berg``). A title that is a calling before another
person's name says what the fact is about: ``sees Dr Obi`` is about a doctor."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from memory_es.text.normalize import name_keys
from tests.unit.text_support import current_texts, fresh_tenant

_SLOW = settings(max_examples=6, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])


def test_a_suffix_is_part_of_the_name() -> None:
    assert not name_keys("Tom Berg Jr") & name_keys("Tom Berg")
    assert name_keys("Dr Tom Berg") & name_keys("Tom Berg")


@_SLOW
@given(st.sampled_from(["Dr", "Prof.", "Mrs", "Ms"]), st.sampled_from(["cat", "motorbike"]))
def test_a_title_is_no_content(fresh_store: memory_es.MemoryStore, title: str,
                               thing: str) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    kept = f"{title} Lena Vogt works at the Charité"
    for text in (kept, f"Lena Vogt has a {thing}"):
        ti.remember(tenant, text + ".")
    ti.release(tenant, f"{title} Vogt's {thing}")
    assert current_texts(fresh_store, tenant) == {kept}


def test_forgetting_a_name_leaves_its_junior(fresh_store: memory_es.MemoryStore) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for text in ("Tom Berg lives in Oslo.", "Tom Berg Jr lives in Bergen."):
        ti.remember(tenant, text)
    ti.forget(tenant, "everything about Tom Berg")
    assert current_texts(fresh_store, tenant) == {"Tom Berg Jr lives in Bergen"}


@_SLOW
@given(st.sampled_from([("Dr", "doctor"), ("Prof.", "professor")]),
       st.sampled_from(["revise", "release"]))
def test_a_calling_before_another_persons_name_is_what_the_fact_is_about(
        fresh_store: memory_es.MemoryStore, titled: tuple[str, str], op: str) -> None:
    """``Alma Reyes's doctor`` finds ``Alma Reyes sees Dr Obi at the Park Surgery``, and
    nothing else of hers: not her own title's facts, nor one that says what else the
    titled person is to her (``Alma Reyes's dentist is Dr Moran``)."""
    title, calling = titled
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    asked = f"Alma Reyes sees {title} Obi at the Park Surgery"
    kept = {f"{title} Alma Reyes works at the Charité", "Alma Reyes walks with a stick",
            f"Alma Reyes's dentist is {title} Moran"}
    for text in (asked, *kept):
        ti.remember(tenant, text + ".")
    if op == "revise":
        ti.revise(tenant, f"Alma Reyes's {calling}", f"Alma Reyes sees {title} Hale.")
    else:
        ti.release(tenant, f"Alma Reyes's {calling}")
    after = current_texts(fresh_store, tenant)
    assert asked not in after
    assert kept <= after
