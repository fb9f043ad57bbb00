"""Version rows as public ``Fact`` models: the one place a read model's row becomes a fact."""

from __future__ import annotations

import json
from typing import Any

import pyarrow as pa
from pydantic import TypeAdapter

from memory_es.models import Fact

_FACTS = TypeAdapter(list[Fact])
"""Validates a list in one call (per row, the call itself was a fifth of the cost)."""


def rows_to_facts(rows: pa.Table | list[dict[str, Any]]) -> list[Fact]:
    """Version rows (an Arrow table or dicts) as ``Fact`` models, values decoded from JSON."""
    rows = rows.to_pylist() if isinstance(rows, pa.Table) else rows
    for row in rows:
        row["value"] = json.loads(row["value"]) if row["value"] is not None else None
        row["supersedes"] = row["supersedes"] or []
        row["derived_from"] = row["derived_from"] or []
    return _FACTS.validate_python(rows)
