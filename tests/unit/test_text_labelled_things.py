"""A change to a labelled thing replaces the one fact of that kind (SPEC §15).

``Owen has moved to room C4`` ends ``Owen's classroom is room B12``: the noun says which
kind of thing, the label is the value. Facts of other kinds stay, and with two facts of
the kind (a classroom and an office, both rooms) the change does not say which one it
replaces, so none ends.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from tests.unit.text_support import current_texts, fresh_tenant

_SLOW = settings(max_examples=10, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])
_NOUNS = ["room", "desk", "bay", "locker", "platform", "gate"]
_LABELS = st.from_regex(r"[A-D]?[1-9][0-9]?", fullmatch=True)


def _other(noun: str) -> str:
    return _NOUNS[(_NOUNS.index(noun) + 1) % len(_NOUNS)]


@_SLOW
@given(st.sampled_from(_NOUNS), _LABELS, _LABELS, st.sampled_from(["has moved to", "now uses"]))
def test_a_new_label_replaces_the_old_one(fresh_store: memory_es.MemoryStore, noun: str,
                                          old: str, new: str, change: str) -> None:
    if old == new:
        return
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    meant = f"Owen Price's {noun} is {noun} {old}"
    kept = [f"Owen Price's {_other(noun)} is {_other(noun)} {old}", "Owen Price drives to school",
            f"Sara Lim's {noun} is {noun} {old}"]
    for text in (meant, *kept):
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"Owen Price {change} {noun} {new}.")
    current = current_texts(fresh_store, tenant)
    assert set(kept) <= current
    assert meant not in current


@_SLOW
@given(st.sampled_from(_NOUNS), st.lists(_LABELS, min_size=3, max_size=3, unique=True))
def test_two_of_a_kind_leave_the_change_unsaid(fresh_store: memory_es.MemoryStore, noun: str,
                                                labels: list[str]) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    held = [f"Owen Price's office is {noun} {labels[0]}",
            f"Owen Price's classroom is {noun} {labels[1]}"]
    for text in held:
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"Owen Price has moved to {noun} {labels[2]}.")
    assert set(held) <= current_texts(fresh_store, tenant)
