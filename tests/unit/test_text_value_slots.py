"""A change to a slot named by its value replaces the fact of the same frame (SPEC §15).

``works in Holborn`` is ``work.unit.holborn``: the slot holds its value, so ``now works in
Camden`` writes a new slot and would leave the old one current beside it. The frame
(verb, preposition, kind of object) says what changed: the fact of the same frame ends.
An added one (``now also works in Camden``) ends nothing, nor does a change of another
frame (``works on Project Atlas``).
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from tests.unit.text_support import current_texts, fresh_tenant

_SLOW = settings(max_examples=8, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])
_PLACES = ["Holborn", "Camden", "Mayfair", "Soho", "Brixton"]


@_SLOW
@given(st.lists(st.sampled_from(_PLACES), min_size=2, max_size=2, unique=True), st.booleans())
def test_a_new_value_of_the_frame_replaces_the_old(fresh_store: memory_es.MemoryStore,
                                                   places: list[str], added: bool) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    old = f"Dev Patel works in {places[0]}"
    kept = ["Dev Patel works on Project Atlas", "Dev Patel lives in Croydon",
            f"Asha Patel works in {places[0]}"]
    for text in (old, *kept):
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"Dev Patel now {'also ' if added else ''}works in {places[1]}.")
    current = current_texts(fresh_store, tenant)
    assert set(kept) <= current
    assert (old in current) == added
