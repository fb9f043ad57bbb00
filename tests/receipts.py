"""Typed reads of a write's receipt.

``Receipt.fact_id`` is optional because some writes (a purge, forgetting an entity) name
no single fact; the writes tests take ids from always name one.
"""

from __future__ import annotations

from memory_es.models import Receipt


def fact_id_of(receipt: Receipt) -> str:
    """The id of the fact ``receipt``'s write produced or touched first."""
    assert receipt.fact_id is not None, f"{receipt.op} named no fact"
    return receipt.fact_id
