"""HTML building blocks for the models' notebook renderings (``_repr_html_``) and the audit
report.

Plain escaped tables with no scripts and no external resources, so they are safe to
embed anywhere. They know no model: the models use them, not the other way round.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from html import escape
from typing import Any


def cell(value: Any) -> str:
    """One escaped HTML cell: times in UTC, string lists comma-separated, else JSON."""
    if value is None:
        return "&ndash;"
    if isinstance(value, datetime):
        return escape(value.astimezone(UTC).isoformat().replace("+00:00", "Z"))
    if isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
        return escape(", ".join(value)) if value else "&ndash;"
    return escape(value if isinstance(value, str) else json.dumps(value, ensure_ascii=False,
                                                                  default=str))


def fields(title: str, rows: Sequence[tuple[str, Any]]) -> str:
    """A two-column table of named fields under a caption."""
    body = "".join(f"<tr><th style='text-align:left'>{escape(name)}</th><td>{cell(value)}</td>"
                   "</tr>" for name, value in rows)
    return f"<table class='memory-es'><caption>{escape(title)}</caption>{body}</table>"


def table(caption: str, headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A table with a header row; every cell escaped."""
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{cell(v)}</td>" for v in row) + "</tr>"
                   for row in rows)
    return (f"<table class='memory-es'><caption>{escape(caption)}</caption>"
            f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
