"""A possessed thing that moved to a place is no longer where it was (SPEC §15):
``Eva Stone's studio moved to Peckham`` ends ``Eva Stone's studio is in Hackney``
(``in``, ``at`` or ``on``: where the thing was), and leaves the owner's own place, the
same thing of another owner and another thing of hers.

The reference model is the list of facts each case writes: the thing's place ends,
every other stays.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from tests.unit.text_support import said, texts_after

_THINGS = ["studio", "office", "workshop", "shop"]
_WHERE = ["in Hackney", "at Mill Yard", "on Quarry Road"]
_NEW = ["Peckham", "Bow Wharf", "Leeds"]


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(_THINGS), st.sampled_from(_WHERE), st.sampled_from(_NEW))
def test_a_moved_thing_leaves_its_old_place(fresh_store: memory_es.MemoryStore, thing: str,
                                            where: str, new: str) -> None:
    held = f"Eva Stone's {thing} is {where}."
    other = "garage" if thing != "garage" else "studio"
    setup = [held, "Eva Stone lives in Hackney.", f"Eva Stone's assistant's {thing} is {where}.",
             f"Eva Stone's {other} is {where}."]
    moved = f"Eva Stone's {thing} moved to {new}."
    after = texts_after(fresh_store, setup, "remember", moved)
    assert after == said([*setup, moved], but=[held])
