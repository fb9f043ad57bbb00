"""HTML renderings of the models, for notebooks (``_repr_html_``) and the audit report.

Plain escaped tables with no scripts and no external resources, so they are safe to
embed anywhere. Kept out of :mod:`memory_es.models` so the models stay plain data.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from html import escape
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from memory_es.models import ErasureReport, Fact, Preview


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


def fact(f: Fact) -> str:
    """A fact's fields, the masked placeholder instead of masked content."""
    return fields(f"Fact {f.fact_id}", [
        ("entity", f.entity if f.entity is not None else f"?{f.mention}"),
        ("attribute", f.attribute), ("value", "[masked]" if f.masked else f.value),
        ("valid from", f.valid_from), ("valid until", f.valid_until),
        ("recorded at", f.recorded_at), ("recorded until", f.recorded_until),
        ("state", f.state), ("asserted by", f.asserted_by), ("source", f.source),
        ("confidence", f.confidence), ("classification", f.classification),
        ("supersedes", f.supersedes), ("superseded by", f.superseded_by),
        ("derived from", f.derived_from)])


def erasure(report: ErasureReport) -> str:
    """The verdict, then one row per store checked with its residues and pending steps."""
    verdict = "complete" if report.complete else "NOT complete"
    return table(f"Erasure {verdict} (receipt {report.receipt_id or '-'})",
                 ("store", "result", "method", "residues", "pending"),
                 [(c.name, c.result, c.method, c.residues, c.pending) for c in report.stores])


def preview(p: Preview) -> str:
    """Every item a destructive operation would touch, and its confirmation token."""
    risk = "high risk" if p.high_risk else "not high risk"
    return fields(f"Preview of {p.op} in {p.tenant} ({risk})", [
        ("token", p.token), ("facts", p.facts), ("derived", p.derived), ("stores", p.stores),
        ("caches", p.caches), ("exports", p.exports), ("irreversible", p.irreversible),
        ("reasons", p.reasons)])
