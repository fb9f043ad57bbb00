"""A purge of a name lists the facts of others that mention it as needing ``confirm=True``
(SPEC §15); the call with it must then erase them, although the first call already
erased every fact of the person's own, so that no entity of that name is left."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from tests.unit.text_support import current_texts, fresh_tenant

_SLOW = settings(max_examples=8, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])
# Written by hand: facts of others that name the person, in several shapes
MENTIONS = ["Priya Nair's manager is {n}.", "Tom Berg shares a flat with {n}.",
            "The payments team is led by {n}."]


@_SLOW
@given(st.sampled_from(["Raj Mehta", "Ana Lima", "Jonas Richter"]),
       st.sampled_from(MENTIONS))
def test_confirming_erases_what_the_first_purge_listed(
        fresh_store: memory_es.MemoryStore, name: str, mention: str) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    theirs = mention.format(n=name)
    kept = "Priya Nair lives in Pune."
    for text in (f"{name} lives in Porto.", theirs, kept):
        ti.remember(tenant, text)
    first = ti.purge_matching(tenant, name)
    assert first.pending and current_texts(fresh_store, tenant) == {
        theirs.rstrip("."), kept.rstrip(".")}
    ti.purge_matching(tenant, name, confirm=True)
    assert current_texts(fresh_store, tenant) == {kept.rstrip(".")}


def test_a_name_only_others_mention_needs_confirm(fresh_store: memory_es.MemoryStore) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    theirs = "Priya Nair's manager is Raj Mehta"
    ti.remember(tenant, theirs + ".")
    result = ti.purge_matching(tenant, "Raj Mehta")
    assert result.pending and current_texts(fresh_store, tenant) == {theirs}
    ti.purge_matching(tenant, "Raj Mehta", confirm=True)
    assert current_texts(fresh_store, tenant) == set()
