"""Gather what an audit needs from the store's public reads, and lay it out as HTML."""

from __future__ import annotations

import base64
import hashlib
import io
import json
from collections.abc import Iterable, Sequence
from datetime import datetime
from html import escape
from pathlib import Path
from typing import Any

import pyarrow.compute as pc

from memory_es import _html, plots
from memory_es._files import atomic_write
from memory_es.domain.validation import is_canonical_entity
from memory_es.errors import InvalidInput, NotFound
from memory_es.models import AuditReport, Fact
from memory_es.store import MemoryStore

SECTIONS = ("facts-now", "as-of", "diagrams", "chains", "served", "receipts", "audit")
"""Every section a report holds, by element id, in order (the browser test checks each)."""

TITLES = {
    "facts-now": "Facts now", "as-of": "Facts as believed at chosen times",
    "diagrams": "Bitemporal diagrams", "chains": "Drift chains with reasons",
    "served": "What was served to whom", "receipts": "Deletion receipts and residue reports",
    "audit": "Audit log verification",
}
MAX_AS_OF = 6
MAX_ENTITIES = 12
MAX_CHAINS = 24
FACT_HEADERS = ("entity", "attribute", "value", "valid from", "valid until", "recorded at",
                "state", "asserted by", "source", "fact id")

CSS = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1d2330;
background:#f6f7f9}
header{background:#1f2a44;color:#fff;padding:18px 28px}header h1{margin:0 0 4px;font-size:21px}
header p{margin:0;opacity:.85}main{padding:8px 28px 40px;max-width:1180px}
section{background:#fff;border:1px solid #dde1e8;border-radius:8px;margin:18px 0;padding:4px 18px
 14px}
h2{font-size:17px;margin:14px 0 8px}h3{font-size:14px;margin:14px 0 6px}
table.memory-es{border-collapse:collapse;width:100%;margin:6px 0 12px;font-size:12.5px}
table.memory-es caption{text-align:left;font-weight:600;padding:4px 0}
table.memory-es th,table.memory-es td{border:1px solid #e2e5ea;padding:3px 6px;text-align:left;
vertical-align:top;overflow-wrap:break-word}table.memory-es thead th{background:#eef1f6}
img{max-width:100%;height:auto;border:1px solid #eee;margin:6px 0}
.ok{color:#1e7b34;font-weight:600}.bad{color:#b3261e;font-weight:600}.note{color:#5b6472}
nav a{color:#cfe0ff;margin-right:12px;font-size:13px}
"""

SCRIPT = ("(function(){var s=document.querySelectorAll('section[data-section]');"
          "var i=document.images,ok=0;for(var k=0;k<i.length;k++){"
          "if(i[k].complete&&i[k].naturalWidth>0){ok++;}}"
          "document.body.setAttribute('data-rendered',s.length+' sections, '+ok+'/'+i.length"
          "+' images');console.info('memory-es report rendered: '+s.length+' sections, '+ok+'/'"
          "+i.length+' images');})();")
"""Counts what rendered, for people and for the browser test; it fetches nothing."""


def load_anchor(path: str | Path) -> dict[str, Any]:
    """An anchor file (the JSON of ``store.anchor()``) as the dict ``audit_verify`` takes.

    Raises:
        InvalidInput: the file cannot be read or does not hold one JSON object.
    """
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise InvalidInput(f"cannot read the anchor file ({type(e).__name__})") from e
    if not isinstance(data, dict):
        raise InvalidInput("the anchor file must hold one JSON object")
    return data


def _png(figure: Any) -> str:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=90, metadata={"Software": None})
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def _facts_table(caption: str, facts: Sequence[Fact]) -> str:
    rows = [(f.entity or f"?{f.mention}", f.attribute, "[masked]" if f.masked else f.value,
             f.valid_from, f.valid_until, f.recorded_at, f.state, f.asserted_by, f.source,
             f.fact_id) for f in facts]
    if not rows:
        return f"<p class='note'>{escape(caption)}: no facts.</p>"
    return _html.table(caption, FACT_HEADERS, rows)


def _section(key: str, body: str) -> str:
    return (f"<section id='{key}' data-section='{key}'><h2>{escape(TITLES[key])}</h2>{body}"
            "</section>")


class _Report:
    """One report's data, read once from the store's public API."""

    def __init__(self, store: MemoryStore, tenant: str, entity: str | None,
                 as_of: Sequence[datetime], anchor: dict[str, Any] | None) -> None:
        self.store = store
        self.tenant = tenant
        self.entity = entity
        self.now = store.now()
        self.anchor = anchor
        versions = store.table("fact_versions", tenant=tenant)
        if entity is not None:
            versions = versions.filter(pc.equal(versions["entity"], entity))
        self.rows = versions.select(["fact_id", "entity", "chain_id", "recorded_at"]).to_pylist()
        self.fact_ids = {r["fact_id"] for r in self.rows}
        self.as_of = list(as_of) or self._change_points()

    def _change_points(self) -> list[datetime]:
        """By default: the last moments the subject's belief changed (each commit)."""
        times = sorted({r["recorded_at"] for r in self.rows})
        return times[-MAX_AS_OF:]

    def facts_now(self) -> str:
        facts = self.store.current(self.tenant, entity=self.entity)
        return (f"<p class='note'>Current view at {_html.cell(self.now)}: superseded, lapsed,"
                " forgotten and erased facts never appear here.</p>"
                + _facts_table("current facts", facts))

    def facts_as_of(self) -> str:
        parts = ["<p class='note'>What the store would have answered at each time (valid time"
                 " and transaction time both set to it). Facts forgotten or erased since stay"
                 " hidden: eligibility is judged now.</p>"]
        for at in self.as_of:
            facts = self.store.as_of(self.tenant, valid_at=at, known_at=at, entity=self.entity)
            parts.append(_facts_table(f"as of {_html.cell(at)}", facts))
        if not self.as_of:
            parts.append("<p class='note'>No versions to travel to.</p>")
        return "".join(parts)

    def _entities(self) -> list[str]:
        if self.entity is not None:
            return [self.entity]
        return sorted({str(r["entity"]) for r in self.rows if r["entity"]})

    def diagrams(self) -> str:
        entities = self._entities()
        parts = ["<p class='note'>Valid time across, transaction time up (one step per"
                 " commit); one rectangle per version. Dashed: closed in transaction time."
                 " Hatched: purged.</p>"]
        for name in entities[:MAX_ENTITIES]:
            try:
                figure = plots.bitemporal(self.store, self.tenant, name)
            except NotFound as e:
                parts.append(f"<p class='note'>{escape(name)}: {escape(str(e))}</p>")
                continue
            parts.append(f"<h3>{escape(name)}</h3><img alt='bitemporal diagram of"
                         f" {escape(name)}' src='{_png(figure)}'>")
        if len(entities) > MAX_ENTITIES:
            parts.append(f"<p class='note'>{len(entities) - MAX_ENTITIES} more entities not"
                         " drawn; run the report with --entity for each.</p>")
        if not entities:
            parts.append("<p class='note'>No versions to draw.</p>")
        return "".join(parts)

    def chains(self) -> str:
        latest: dict[str, tuple[datetime, str]] = {}
        for r in self.rows:
            if r["chain_id"] not in latest or r["recorded_at"] > latest[r["chain_id"]][0]:
                latest[r["chain_id"]] = (r["recorded_at"], r["fact_id"])
        picked = sorted(latest.values())[:MAX_CHAINS]
        parts: list[str] = []
        for _, fact_id in picked:
            history = self.store.history(self.tenant, fact_id)
            rows = [(e.recorded_at, e.op, e.value, e.state, e.asserted_by, e.source, e.reason,
                     e.fact_ids) for e in history]
            parts.append(f"<h3>chain of {escape(fact_id)}</h3>")
            parts.append(f"<img alt='drift chain of {escape(fact_id)}'"
                         f" src='{_png(plots.chain(self.store, self.tenant, fact_id))}'>")
            parts.append(_html.table("events (store.history), oldest first",
                                     ("recorded at", "op", "value", "state", "asserted by",
                                      "source", "reason", "facts"), rows))
        if len(latest) > MAX_CHAINS:
            parts.append(f"<p class='note'>{len(latest) - MAX_CHAINS} more chains not shown."
                         "</p>")
        return "".join(parts) or "<p class='note'>No drift chains.</p>"

    def served(self) -> str:
        records = self.store.served(self.tenant)
        if self.entity is not None:
            records = [r for r in records if self.fact_ids & set(r.fact_ids)]
        rows = [(r.served_at, r.caller, r.query_digest[:16], r.valid_at, r.known_at,
                 r.fact_ids) for r in records]
        note = ("<p class='note'>Consumption receipts from the hash-chained consumption log:"
                " ids and a keyed digest of the query, never its text.</p>")
        if not rows:
            return note + "<p class='note'>Nothing was served with a receipt.</p>"
        return note + _html.table("served (oldest first)", ("served at", "caller",
                                                             "query digest", "valid at",
                                                             "known at", "facts"), rows)

    def receipts(self) -> str:
        receipts = [r for r in self.store.receipts() if r.get("tenant") == self.tenant]
        parts = ["<p class='note'>Every destructive operation of the tenant leaves a signed,"
                 " hash-chained receipt without personal data (the subject is a keyed-hash"
                 " commitment, so receipts are listed for the whole tenant). Each residue"
                 " report below was recomputed now.</p>"]
        for r in receipts:
            parts.append(_html.fields(f"receipt {r.get('receipt_id')}", [
                (k, r.get(k)) for k in ("seq", "op", "effect", "motive", "reason",
                                        "requested_by", "recorded_at", "fact_count",
                                        "fact_ids", "key_ids", "stores", "residue_digest",
                                        "hash") if k in r]))
            parts.append(self.store.verify_erasure(r)._repr_html_())
        if not receipts:
            parts.append("<p class='note'>No deletion receipts in this tenant.</p>")
        return "".join(parts)

    def audit(self) -> str:
        report: AuditReport = (self.store.audit_verify(anchor=self.anchor)
                               if self.anchor is not None else self.store.audit_verify())
        verdict = ("<p class='ok'>verified</p>" if report.ok
                   else "<p class='bad'>PROBLEMS FOUND</p>")
        anchor = ("<p class='note'>Checked against the given anchor (log position"
                  f" {_html.cell(self.anchor.get('position'))}, taken"
                  f" {_html.cell(self.anchor.get('at'))}).</p>" if self.anchor is not None
                  else "<p class='note'>No anchor given: truncation of the newest records"
                       " cannot be ruled out (give --anchor).</p>")
        return verdict + anchor + _html.fields("audit_verify()", list(
            report.model_dump(mode="json").items()))

    def html(self) -> str:
        body = "".join(_section(key, getattr(self, method)()) for key, method in (
            ("facts-now", "facts_now"), ("as-of", "facts_as_of"), ("diagrams", "diagrams"),
            ("chains", "chains"), ("served", "served"), ("receipts", "receipts"),
            ("audit", "audit")))
        digest = base64.b64encode(hashlib.sha256(SCRIPT.encode()).digest()).decode()
        policy = (f"default-src 'none'; img-src data:; style-src 'unsafe-inline';"
                  f" script-src 'sha256-{digest}'; base-uri 'none'; form-action 'none'")
        subject = self.entity or "every entity"
        nav = "".join(f"<a href='#{k}'>{escape(TITLES[k])}</a>" for k in SECTIONS)
        return (
            "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
            f"<meta http-equiv='Content-Security-Policy' content=\"{policy}\">"
            f"<title>memory-es audit report: {escape(subject)} in {escape(self.tenant)}</title>"
            f"<style>{CSS}</style></head><body><header>"
            f"<h1>Audit report: {escape(subject)} in tenant {escape(self.tenant)}</h1>"
            f"<p>Generated {_html.cell(self.now)} (store time) at log position"
            f" {self.store.log_position()}. Self-contained: opening it reaches no network.</p>"
            f"<nav>{nav}</nav></header><main>{body}</main><script>{SCRIPT}</script>"
            "</body></html>")


def build(store: MemoryStore, tenant: str, *, entity: str | None = None,
          as_of: Iterable[datetime] = (), anchor: dict[str, Any] | None = None) -> str:
    """The audit report as one HTML document (a string).

    Args:
        store: an open store.
        tenant: the tenant the report is about.
        entity: one canonical entity (default: every entity of the tenant).
        as_of: times to show the belief at (default: the last commits that changed it).
        anchor: an anchor (``store.anchor()`` as JSON, see :func:`load_anchor`) to check
            the audit log against.
    """
    if entity is not None and not is_canonical_entity(entity):
        raise InvalidInput("entity must be a canonical id 'namespace:local' (e.g. user:alex)")
    return _Report(store, tenant, entity, list(as_of), anchor).html()


def write(store: MemoryStore, tenant: str, path: str | Path, *, entity: str | None = None,
          as_of: Iterable[datetime] = (), anchor: dict[str, Any] | None = None) -> Path:
    """Write the report to ``path`` atomically (a temporary file renamed over it).

    Raises:
        InvalidInput: the output folder does not exist.
        MemoryESError: the file system refused the write (nothing is left behind).
    """
    document = build(store, tenant, entity=entity, as_of=as_of, anchor=anchor)
    return atomic_write(path, lambda out: out.write(document.encode("utf-8")), "report")
