"""A particle verb has the topic of its meaning (SPEC §15).

``broke up with Tom Berg`` is a relationship ending (the thesaurus's ``break_up``): it
ends ``is dating Tom Berg`` or ``is engaged to Tom Berg`` and leaves what the person does
with Tom in other domains (``works with``, ``plays tennis with``) and another person's
relationship with him.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from memory_es.text.paths import domains_in
from tests.unit.text_support import current_texts, fresh_tenant

_SLOW = settings(max_examples=8, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])
ENDINGS = st.sampled_from(["broke up with", "has broken up with", "split up with"])


@given(ENDINGS)
def test_a_particle_verb_names_its_topic(ending: str) -> None:
    assert "relationship" in domains_in(ending.split())
    assert "relationship" not in domains_in(ending.replace(" up", "").split())


@_SLOW
@given(ENDINGS, st.sampled_from(["is dating", "is engaged to", "is married to"]))
def test_a_break_up_ends_the_relationship_only(fresh_store: memory_es.MemoryStore,
                                               ending: str, held: str) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    relationship = f"Yuki Arai {held} Tom Berg"
    kept = ["Yuki Arai works with Tom Berg", "Yuki Arai plays tennis with Tom Berg",
            f"Mia Lund {held} Tom Berg"]
    for text in (relationship, *kept):
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"Yuki Arai {ending} Tom Berg.")
    current = current_texts(fresh_store, tenant)
    assert set(kept) <= current
    assert relationship not in current


@given(st.sampled_from(["gave away her chickens", "gave her chickens away",
                        "has given away her chickens"]))
@settings(max_examples=3, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_giving_away_ends_what_was_kept(fresh_store: memory_es.MemoryStore,
                                        ending: str) -> None:
    """``give away`` disposes of a thing as ``sell`` does: the chickens end, her job and a
    cousin's chickens stay."""
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    kept = {"Ola Nowak works at Ikea", "Ola Nowak's cousin keeps chickens"}
    for text in (*kept, "Ola Nowak keeps chickens"):
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"Ola Nowak {ending}.")
    after = current_texts(fresh_store, tenant)
    assert kept <= after
    assert "Ola Nowak keeps chickens" not in after
