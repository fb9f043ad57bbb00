"""What the commands print: aligned tables and lines for people, JSON with ``--json``.

JSON is what the pydantic models dump (``model_dump(mode="json")``), indented, with times
in UTC ISO-8601 and bytes as hex. Tables are plain text: a header, a rule, one line per
row, every cell on one line and cut at :data:`MAX_CELL` characters.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO, TypeVar

from pydantic import BaseModel

from memory_es.models import (
    AuditReport,
    DeletionReceipt,
    ErasureReport,
    Fact,
    Hit,
    Link,
    Preview,
    Receipt,
)

FACT_COLUMNS = ("fact_id", "entity", "attribute", "value", "valid_from", "valid_until",
                "recorded_at", "state")
REPLAY_COLUMNS = ("fact_id", "entity", "attribute", "value", "valid_from", "valid_until",
                  "state", "present_state")
MAX_CELL = 60

M = TypeVar("M", bound=BaseModel)


# values ---------------------------------------------------------------------------------

def _jsonable(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.astimezone(UTC).isoformat()
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, Path):
        return str(value)
    return str(value)


def dumps(data: Any) -> str:
    """Indented JSON; times, bytes and paths as strings."""
    return json.dumps(data, indent=2, default=_jsonable, ensure_ascii=False)


def show_time(value: datetime | None) -> str:
    """UTC, ``Z``-suffixed, microseconds only when there are some; ``-`` for none."""
    if value is None:
        return "-"
    value = value.astimezone(UTC)
    if value.microsecond == 0:
        return value.strftime("%Y-%m-%dT%H:%M:%SZ")
    return value.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def cell(value: Any) -> str:
    """One table cell: strings as they are, other values as JSON, on one line, cut short."""
    if value is None:
        text = "-"
    elif isinstance(value, datetime):
        text = show_time(value)
    elif isinstance(value, str):
        text = value
    else:
        text = json.dumps(value, default=_jsonable, ensure_ascii=False)
    text = " ".join(text.split()) if text else text
    return text if len(text) <= MAX_CELL else text[: MAX_CELL - 1] + "…"


def render_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """Plain aligned text: a header, a rule, one line per row."""
    cells = [[cell(v) for v in row] for row in rows]
    widths = [len(h) for h in headers]
    for row in cells:
        for i, text in enumerate(row):
            widths[i] = max(widths[i], len(text))
    lines = ["  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)).rstrip(),
             "  ".join("-" * w for w in widths)]
    lines += ["  ".join(t.ljust(w) for t, w in zip(row, widths, strict=True)).rstrip()
              for row in cells]
    return "\n".join(lines)


def indent(text: str) -> str:
    return "\n".join("   " + line for line in text.splitlines())


# facts and receipts ---------------------------------------------------------------------

def fact_value(fact: Fact) -> Any:
    """A fact's value cell: the placeholder when masked, ``not <value>`` for a denial."""
    if fact.masked:
        return "<masked>"
    return f"not {fact.value}" if fact.negated else fact.value


def facts_table(facts: Sequence[Fact]) -> str:
    if not facts:
        return "(no facts)"
    rows = [[f.fact_id, f.entity if f.entity is not None else f"?{f.mention}", f.attribute,
             fact_value(f), f.valid_from, f.valid_until, f.recorded_at, f.state] for f in facts]
    return render_table(FACT_COLUMNS, rows)


def links_table(links: Sequence[Link]) -> str:
    if not links:
        return "(no links)"
    return render_table(("fact_id", "score"), [[link.fact_id, f"{link.score:.3f}"]
                                               for link in links])


def receipt_text(r: Receipt) -> str:
    parts = [f"{r.op}: {r.outcome}"]
    if r.fact_ids:
        parts.append("fact " + ", ".join(r.fact_ids))
    if r.conflict_id:
        parts.append(f"conflict {r.conflict_id}")
    parts.append(f"event {r.event_id}")
    parts.append(f"position {r.position}")
    parts.append(f"recorded {show_time(r.recorded_at)}")
    if r.idempotent_replay:
        parts.append("(replayed: nothing new was written)")
    return "  ".join(parts)


# erasure and audit ----------------------------------------------------------------------

def preview_text(p: Preview) -> str:
    lines = [f"{p.op} in {p.tenant}: {'HIGH RISK' if p.high_risk else 'not high risk'}",
             f"confirmation token: {p.token}",
             f"facts ({len(p.facts)}): {', '.join(p.facts) or '-'}",
             f"derived facts outside it ({len(p.derived)}): {', '.join(p.derived) or '-'}",
             f"stores: {', '.join(p.stores) or '-'}",
             f"caches: {', '.join(p.caches) or '-'}",
             f"exports: {', '.join(p.exports) or '-'}",
             f"irreversible: {', '.join(p.irreversible) or 'nothing'}"]
    lines += [f"why: {r}" for r in p.reasons]
    return "\n".join(lines)


def report_text(report: ErasureReport) -> str:
    """An erasure report as lines: complete or not, then one line per store checked."""
    lines = [f"erasure complete: {'yes' if report.complete else 'NO'}"]
    rows = [[c.name, c.result, ", ".join(c.residues) or "-", ", ".join(c.pending) or "-"]
            for c in report.stores]
    lines.append(render_table(("store", "result", "residues", "pending"), rows))
    return "\n".join(lines)


def deletion_text(receipt: DeletionReceipt) -> str:
    text = (f"{receipt.op}: {receipt.effect}  receipt {receipt.receipt_id}"
            f"  facts {receipt.fact_count}  keys destroyed {len(receipt.key_ids)}"
            f"  recorded {show_time(receipt.recorded_at)}")
    if receipt.report is not None:
        text += "\n" + report_text(receipt.report)
    return text


def audit_text(r: AuditReport) -> str:
    text = (f"audit log {'verified' if r.ok else 'FAILED'}: {r.events_checked} events in"
            f" {r.streams_checked} streams ({r.authenticated} authenticated,"
            f" {r.shredded} shredded), {r.receipts_checked} deletion receipts")
    return text + "".join(f"\n  problem: {p}" for p in r.problems)


def receipts_table(receipts: Sequence[dict[str, Any]]) -> str:
    rows = [[r["seq"], r["receipt_id"], r["op"], r.get("effect"), r.get("motive"),
             r.get("requested_by"), r["fact_count"], r["recorded_at"], r["hash"][:16]]
            for r in receipts]
    return render_table(("seq", "receipt_id", "op", "effect", "motive", "requested_by",
                         "facts", "recorded_at", "hash"), rows) if rows else "(no receipts)"


# audit reads and recall -----------------------------------------------------------------

def replay_table(columns: Sequence[str], rows: Sequence[dict[str, Any]]) -> str:
    shown = [c for c in REPLAY_COLUMNS if c in columns]
    if not rows:
        return "(no facts)"
    return render_table(shown, [[r[c] for c in shown] for r in rows])


def history_table(entries: Sequence[Any]) -> str:
    """``store.history`` entries, oldest first."""
    rows = [[e.recorded_at, e.op, ", ".join(e.fact_ids), e.value, e.state, e.source, e.reason]
            for e in entries]
    return render_table(("recorded_at", "op", "facts", "value", "state", "source", "reason"),
                        rows)


def hits_table(hits: Sequence[Hit]) -> str:
    rows = [[f"{h.score:.3f}", h.fact.fact_id, h.fact.text,
             " ".join(f"{k}={v:.2f}" for k, v in h.parts.items())] for h in hits]
    return render_table(("score", "fact_id", "text", "parts"), rows) if rows else "(no hits)"


def served_table(records: Sequence[Any]) -> str:
    """``store.served`` consumption receipts."""
    rows = [[r.served_at, r.caller, r.query_digest[:12], ", ".join(r.fact_ids)] for r in records]
    return (render_table(("served_at", "caller", "query digest", "facts"), rows)
            if rows else "(nothing served)")


def wrote_text(what: str, path: Path) -> str:
    """One line naming a file a command wrote (a figure, a report) and its size."""
    return f"wrote the {what} to {path} ({path.stat().st_size:,} bytes)"


def sql_text(columns: Sequence[str], rows: Sequence[dict[str, Any]]) -> str:
    if not columns:
        return "(no result)"
    table = render_table(columns, [list(r.values()) for r in rows])
    return f"{table}\n({len(rows)} row{'s' if len(rows) != 1 else ''})"


# where it goes --------------------------------------------------------------------------

class Output:
    """Where a command's result goes: JSON or readable text on stdout."""

    def __init__(self, as_json: bool, out: TextIO) -> None:
        self.as_json = as_json
        self.out = out

    def line(self, text: str = "") -> None:
        self.out.write(text + "\n")

    def data(self, data: Any, text: str) -> None:
        """``data`` as JSON with ``--json``, else ``text``."""
        self.line(dumps(data) if self.as_json else text)

    def receipt(self, r: Receipt) -> None:
        if self.as_json:
            self.line(dumps(r.model_dump(mode="json")))
        else:
            self.line(receipt_text(r))

    def receipts(self, receipts: Sequence[Receipt]) -> None:
        """A JSON list, or one receipt per line."""
        if self.as_json:
            self.line(dumps([r.model_dump(mode="json") for r in receipts]))
            return
        for r in receipts:
            self.line(receipt_text(r))

    def facts(self, facts: Sequence[Fact]) -> None:
        self.models(facts, facts_table)

    def models(self, items: Sequence[M], table: Callable[[Sequence[M]], str]) -> None:
        """A JSON list of pydantic models, or their ``table``."""
        if self.as_json:
            self.line(dumps([item.model_dump(mode="json") for item in items]))
        else:
            self.line(table(items))
