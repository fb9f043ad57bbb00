"""Version rows as public ``Fact`` models: the one place a read model's row becomes a fact."""

from __future__ import annotations

import json
from typing import Any

import pyarrow as pa

from memory_es.models import Fact


def rows_to_facts(rows: pa.Table | list[dict[str, Any]]) -> list[Fact]:
    """Version rows (an Arrow table or dicts) as ``Fact`` models, values decoded from JSON."""
    facts = []
    for row in rows.to_pylist() if isinstance(rows, pa.Table) else rows:
        row["value"] = json.loads(row["value"]) if row["value"] is not None else None
        row["supersedes"] = row["supersedes"] or []
        row["derived_from"] = row["derived_from"] or []
        facts.append(Fact.model_validate(row))
    return facts
