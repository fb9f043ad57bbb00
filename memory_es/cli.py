"""The ``memory-es`` command: the store's operations from a shell.

Readable aligned tables for people, ``--json`` for scripts (receipts and facts exactly
as the pydantic models dump them). Values are JSON when they parse as JSON, else plain
strings (``Detroit`` and ``'"Detroit"'`` are the same value; ``42`` is a number).
Times are ISO-8601 and must carry a timezone. A user error prints one line on stderr
and exits with status 2, never a traceback; ``verify-erasure`` and ``audit-verify``
exit with 1 when the report is not complete or not ok.

Examples::

    memory-es demo
    memory-es --store ./mem assert acme user:alex home.city Detroit --valid-from 2024-01-01T00:00Z
    memory-es --store ./mem current acme --entity user:alex
    memory-es --store ./mem as-of acme --valid-at 2025-07-15T00:00Z --known-at 2025-08-01T00:00Z
    memory-es --store ./mem --json sql "select attribute, count(*) n from facts_current group by 1"
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

from memory_es.errors import InvalidInput, MemoryESError, NotFound
from memory_es.models import Fact, Receipt
from memory_es.store import MemoryStore, open_store

STORE_ENV = "MEMORY_ES_STORE"
DSN_ENV = "MEMORY_ES_DSN"
EXIT_USER_ERROR = 2
FACT_COLUMNS = ("fact_id", "entity", "attribute", "value", "valid_from", "valid_until",
                "recorded_at", "state")
MAX_CELL = 60


# parsing --------------------------------------------------------------------------------

def parse_value(text: str) -> Any:
    """JSON when ``text`` is valid JSON (``42``, ``true``, ``["a"]``, ``"x"``), else the string."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def parse_time(text: str) -> datetime:
    """ISO-8601 with a timezone (``2025-07-01T00:00:00Z``, ``...+02:00``); naive is rejected."""
    try:
        value = datetime.fromisoformat(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not an ISO-8601 time (e.g. 2025-07-01T00:00:00Z)") from None
    if value.tzinfo is None or value.utcoffset() is None:
        raise argparse.ArgumentTypeError(
            f"{text!r} has no timezone; add Z or an offset such as +02:00")
    return value


# output ---------------------------------------------------------------------------------

def _jsonable(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.astimezone(UTC).isoformat()
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, Path):
        return str(value)
    return str(value)


def dumps(data: Any) -> str:
    return json.dumps(data, indent=2, default=_jsonable, ensure_ascii=False)


def show_time(value: datetime | None) -> str:
    if value is None:
        return "-"
    value = value.astimezone(UTC)
    if value.microsecond == 0:
        return value.strftime("%Y-%m-%dT%H:%M:%SZ")
    return value.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def cell(value: Any) -> str:
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


def fact_value(fact: Fact) -> Any:
    return "<masked>" if fact.masked else fact.value


def facts_table(facts: Sequence[Fact]) -> str:
    if not facts:
        return "(no facts)"
    rows = [[f.fact_id, f.entity if f.entity is not None else f"?{f.mention}", f.attribute,
             fact_value(f), f.valid_from, f.valid_until, f.recorded_at, f.state] for f in facts]
    return render_table(FACT_COLUMNS, rows)


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


class Output:
    """Where a command's result goes: JSON or readable text on stdout."""

    def __init__(self, as_json: bool, out: TextIO) -> None:
        self.as_json = as_json
        self.out = out

    def line(self, text: str = "") -> None:
        self.out.write(text + "\n")

    def receipt(self, r: Receipt) -> None:
        if self.as_json:
            self.line(dumps(r.model_dump(mode="json")))
        else:
            self.line(receipt_text(r))

    def facts(self, facts: Sequence[Fact]) -> None:
        if self.as_json:
            self.line(dumps([f.model_dump(mode="json") for f in facts]))
        else:
            self.line(facts_table(facts))

    def data(self, data: Any, text: str) -> None:
        self.line(dumps(data) if self.as_json else text)


# the store ------------------------------------------------------------------------------

@contextlib.contextmanager
def opened(args: argparse.Namespace) -> Iterator[MemoryStore]:
    dsn = args.dsn or os.environ.get(DSN_ENV) or None
    if dsn:
        views = args.views or args.store
        store = open_store(dsn=dsn, views=views, schema=args.schema)
    else:
        if args.views or args.schema:
            raise InvalidInput("--views and --schema go with --dsn (PostgreSQL)")
        store = open_store(args.store)
    try:
        yield store
    finally:
        store.close()


def _fact_options(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "valid_from": args.valid_from, "valid_until": args.valid_until, "text": args.text,
        "source": args.source, "asserted_by": args.asserted_by, "confidence": args.confidence,
        "volatility": args.volatility, "classification": args.classification,
        "derived_from": args.derived_from or (), "idempotency_key": args.idempotency_key,
    }


def cmd_assert(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    entity = None if args.entity == "-" else args.entity
    if entity is None and not args.mention:
        raise InvalidInput("entity '-' (unresolved) needs --mention TEXT")
    out.receipt(store.assert_fact(args.tenant, entity, args.attribute, parse_value(args.value),
                                  mention=args.mention, **_fact_options(args)))


def cmd_supersede(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    out.receipt(store.supersede(args.tenant, args.entity, args.attribute, parse_value(args.value),
                                reason=args.reason, **_fact_options(args)))


def cmd_correct(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    out.receipt(store.correct(args.fact_id, parse_value(args.value), text=args.text,
                              reason=args.reason, idempotency_key=args.idempotency_key))


def cmd_decay(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    out.receipt(store.decay(args.fact_id, valid_until=args.valid_until, reason=args.reason,
                            idempotency_key=args.idempotency_key))


def cmd_retract(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    out.receipt(store.retract(args.tenant, args.entity, args.attribute,
                              valid_from=args.valid_from, valid_until=args.valid_until,
                              reason=args.reason, idempotency_key=args.idempotency_key))


def cmd_forget_entity(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    out.receipt(store.forget_entity(args.tenant, args.entity, reason=args.reason,
                                    idempotency_key=args.idempotency_key))


def cmd_alias(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    out.receipt(store.alias(args.tenant, args.surface, args.canonical_id))


def cmd_define_attribute(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    out.receipt(store.define_attribute(
        args.tenant, args.attribute, cardinality=args.cardinality, volatility=args.volatility,
        ttl_seconds=args.ttl_seconds, classification=args.classification))


def cmd_current(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    out.facts(store.current(args.tenant, entity=args.entity, attribute=args.attribute))


def cmd_as_of(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    out.facts(store.as_of(args.tenant, valid_at=args.valid_at, known_at=args.known_at,
                          entity=args.entity, attribute=args.attribute))


def cmd_chain(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    out.facts(store.chain(args.tenant, args.fact_id))


def cmd_rebuild(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    from tqdm import tqdm  # noqa: PLC0415  (only this command draws a bar)

    started = time.perf_counter()
    with tqdm(total=store.log_position(), unit="ev", desc="rebuild", file=sys.stderr,
              disable=args.quiet, leave=True) as bar:
        def progress(done: int, total: int) -> None:
            if bar.total != total:
                bar.total = total
            bar.n = done
            bar.refresh()

        events = store.rebuild(progress=progress)
    seconds = time.perf_counter() - started
    out.data({"events": events, "seconds": round(seconds, 3),
              "position": store.projection_position()},
             f"rebuilt the views from {events} events in {seconds:.2f} s")


def cmd_export(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    import pyarrow.parquet as pq  # noqa: PLC0415

    path = store.export(args.path, tenant=args.tenant, valid_at=args.valid_at,
                        known_at=args.known_at)
    rows = pq.read_metadata(path).num_rows
    out.data({"path": str(path), "rows": rows}, f"wrote {rows} facts to {path}")


def cmd_sql(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    import duckdb  # noqa: PLC0415

    try:
        table = store.sql(args.query)
    except duckdb.Error as e:
        raise InvalidInput(f"SQL error: {e}") from e
    rows = table.to_pylist()
    if out.as_json:
        out.line(dumps(rows))
        return
    if not table.column_names:
        out.line("(no result)")
        return
    out.line(render_table(table.column_names, [list(r.values()) for r in rows]))
    out.line(f"({len(rows)} row{'s' if len(rows) != 1 else ''})")


def report_text(report: Any) -> str:
    """An erasure report as lines: complete or not, then one line per store checked."""
    lines = [f"erasure complete: {'yes' if report.complete else 'NO'}"]
    rows = [[c.name, c.result, ", ".join(c.residues) or "-", ", ".join(c.pending) or "-"]
            for c in report.stores]
    lines.append(render_table(("store", "result", "residues", "pending"), rows))
    return "\n".join(lines)


def cmd_fact_op(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    operation = getattr(store, args.operation)
    out.receipt(operation(args.fact_id, reason=args.reason,
                          idempotency_key=args.idempotency_key))


def cmd_resolve_conflict(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    out.receipt(store.resolve_conflict(args.conflict_id, args.winner, reason=args.reason))


def cmd_preview(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    p = store.preview(args.op, args.tenant, args.entity, fact_id=args.fact_id,
                      motive=args.motive)
    lines = [f"{p.op} in {p.tenant}: {'HIGH RISK' if p.high_risk else 'not high risk'}",
             f"confirmation token: {p.token}",
             f"facts ({len(p.facts)}): {', '.join(p.facts) or '-'}",
             f"derived facts outside it ({len(p.derived)}): {', '.join(p.derived) or '-'}",
             f"stores: {', '.join(p.stores) or '-'}",
             f"caches: {', '.join(p.caches) or '-'}",
             f"exports: {', '.join(p.exports) or '-'}",
             f"irreversible: {', '.join(p.irreversible) or 'nothing'}"]
    lines += [f"why: {r}" for r in p.reasons]
    out.data(p.model_dump(mode="json"), "\n".join(lines))


def _deletion(out: Output, receipt: Any) -> None:
    text = (f"{receipt.op}: {receipt.effect}  receipt {receipt.receipt_id}"
            f"  facts {receipt.fact_count}  keys destroyed {len(receipt.key_ids)}"
            f"  recorded {show_time(receipt.recorded_at)}")
    if receipt.report is not None:
        text += "\n" + report_text(receipt.report)
    out.data(receipt.model_dump(mode="json"), text)


def cmd_purge(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    _deletion(out, store.purge(args.tenant, args.entity, fact_id=args.fact_id,
                               confirm=args.confirm, requested_by=args.requested_by))


def cmd_erase(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    _deletion(out, store.erase(args.tenant, args.entity, motive=args.motive,
                               requested_by=args.requested_by, fact_id=args.fact_id,
                               confirm=args.confirm))


def cmd_verify_erasure(store: MemoryStore, args: argparse.Namespace, out: Output) -> int:
    given = args.receipt
    receipt: dict[str, Any]
    if given == "-" or Path(given).is_file():
        text = sys.stdin.read() if given == "-" else Path(given).read_text()
        try:
            receipt = json.loads(text)
        except ValueError as e:
            raise InvalidInput("the receipt file is not JSON") from e
        if not isinstance(receipt, dict):
            raise InvalidInput("the receipt file must hold one JSON object")
    else:
        found = [r for r in store.receipts() if r.get("receipt_id") == given]
        if not found:
            raise NotFound(f"no deletion receipt {given} in the audit log")
        receipt = found[0]
    report = store.verify_erasure(receipt)
    out.data(report.model_dump(mode="json"), report_text(report))
    return 0 if report.complete else 1


def cmd_audit_verify(store: MemoryStore, args: argparse.Namespace, out: Output) -> int:
    r = store.audit_verify()
    text = (f"audit log {'verified' if r.ok else 'FAILED'}: {r.events_checked} events in"
            f" {r.streams_checked} streams ({r.authenticated} authenticated,"
            f" {r.shredded} shredded), {r.receipts_checked} deletion receipts")
    text += "".join(f"\n  problem: {p}" for p in r.problems)
    out.data(r.model_dump(mode="json"), text)
    return 0 if r.ok else 1


def cmd_replay(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    table = store.replay(args.known_at, args.valid_at)
    if args.out:
        import pyarrow.parquet as pq  # noqa: PLC0415

        pq.write_table(table, args.out)
        out.data({"path": args.out, "rows": table.num_rows},
                 f"wrote {table.num_rows} versions to {args.out}")
        return
    rows = table.to_pylist()
    for row in rows:  # fact_versions keeps values as JSON text; show them as values
        if isinstance(row.get("value"), str):
            row["value"] = json.loads(row["value"])
    if out.as_json:
        out.line(dumps(rows))
        return
    columns = [c for c in ("fact_id", "entity", "attribute", "value", "valid_from",
                           "valid_until", "state", "present_state") if c in table.column_names]
    if not rows:
        out.line("(no facts)")
        return
    out.line(render_table(columns, [[r[c] for c in columns] for r in rows]))


def cmd_history(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    entries = store.history(args.tenant, args.fact_id)
    if out.as_json:
        out.line(dumps([e.model_dump(mode="json") for e in entries]))
        return
    rows = [[e.recorded_at, e.op, ", ".join(e.fact_ids), e.value, e.state, e.source, e.reason]
            for e in entries]
    out.line(render_table(("recorded_at", "op", "facts", "value", "state", "source", "reason"),
                          rows))


def cmd_recall(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    hits = store.recall(args.tenant, args.query, args.k, valid_at=args.valid_at,
                        known_at=args.known_at, explain=args.explain,
                        receipt=args.receipt, caller=args.caller)
    if out.as_json:
        out.line(dumps([h.model_dump(mode="json") for h in hits]))
        return
    rows = [[f"{h.score:.3f}", h.fact.fact_id, h.fact.text,
             " ".join(f"{k}={v:.2f}" for k, v in h.parts.items())] for h in hits]
    out.line(render_table(("score", "fact_id", "text", "parts"), rows) if rows else "(no hits)")


def cmd_recall_texts(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    texts = store.recall_texts(args.tenant, args.query, args.k)
    out.data(texts, "\n".join(texts) if texts else "(nothing)")


def cmd_remember(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    receipts = store.remember(args.tenant, args.text)
    if out.as_json:
        out.line(dumps([r.model_dump(mode="json") for r in receipts]))
        return
    for r in receipts:
        out.receipt(r)


def cmd_text_op(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    operation = getattr(store, args.operation)
    result = operation(args.tenant, *args.texts)
    data = result.model_dump(mode="json") if hasattr(result, "model_dump") else result
    out.data(data, dumps(data))


def cmd_served(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    records = store.served(args.tenant, since=args.since, fact_id=args.fact_id)
    if out.as_json:
        out.line(dumps([r.model_dump(mode="json") for r in records]))
        return
    rows = [[r.served_at, r.caller, r.query_digest[:12], ", ".join(r.fact_ids)] for r in records]
    out.line(render_table(("served_at", "caller", "query digest", "facts"), rows)
             if rows else "(nothing served)")


def cmd_receipts(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    receipts = store.receipts()
    if out.as_json:
        out.line(dumps(receipts))
        return
    rows = [[r["seq"], r["receipt_id"], r["op"], r.get("effect"), r.get("motive"),
             r.get("requested_by"), r["fact_count"], r["recorded_at"], r["hash"][:16]]
            for r in receipts]
    out.line(render_table(("seq", "receipt_id", "op", "effect", "motive", "requested_by",
                           "facts", "recorded_at", "hash"), rows) if rows else "(no receipts)")


def cmd_mcp(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    from memory_es.mcp_server import serve  # noqa: PLC0415  (optional extra: mcp)

    del out
    serve(store, args.tenant)


# the demo -------------------------------------------------------------------------------

def _day(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def run_demo(folder: Path, out: Output, *, kept: bool = True) -> dict[str, Any]:
    """Write, supersede, correct and query a small store; purge if the store can."""
    summary: dict[str, Any] = {"store": str(folder)}
    say = (lambda _text="": None) if out.as_json else out.line
    tenant = "demo"
    with contextlib.closing(open_store(folder)) as store:
        say(f"memory-es demo: a fresh embedded store in {folder}")
        say()
        say("1. Facts arrive, and the agent's knowledge drifts")
        r1 = store.assert_fact(tenant, "user:alex", "browser.default", "Firefox",
                               valid_from=_day("2025-01-01"), source="chat:1")
        r2 = store.supersede(tenant, "user:alex", "browser.default", "Chrome",
                             valid_from=_day("2025-06-01"), source="chat:7",
                             reason="user switched browsers")
        typo = store.assert_fact(tenant, "user:alex", "home.city", "Detriot",
                                 valid_from=_day("2024-03-01"), source="form:signup")
        known_before_fix = typo.recorded_at
        r3 = store.supersede(tenant, "user:alex", "browser.default", "Edge",
                             valid_from=_day("2025-09-01"), source="chat:12")
        fix = store.correct(str(typo.fact_id), "Detroit", reason="typo in the sign-up form")
        store.assert_fact(tenant, "user:dana", "pref.turnover", "low", source="chat:3")
        receipts = [r1, r2, typo, r3, fix]
        for r in receipts:
            say("   " + receipt_text(r))
        summary["receipts"] = [r.model_dump(mode="json") for r in receipts]

        say()
        say("2. What is true now (superseded and corrected versions never reach it)")
        now = store.current(tenant)
        say(_indent(facts_table(now)))
        summary["current"] = [f.model_dump(mode="json") for f in now]

        say()
        say(f"3. As of: what did the store believe at {show_time(known_before_fix)}"
            " (before the correction) about 2025-07-15?")
        past = store.as_of(tenant, valid_at=_day("2025-07-15"), known_at=known_before_fix,
                           entity="user:alex")
        say(_indent(facts_table(past)))
        summary["as_of"] = {"valid_at": "2025-07-15T00:00:00+00:00",
                            "known_at": known_before_fix.isoformat(),
                            "facts": [f.model_dump(mode="json") for f in past]}

        say()
        say("4. The drift chain of user:alex browser.default, oldest first")
        chain = store.chain(tenant, str(r3.fact_id))
        say("   " + " -> ".join(json.dumps(fact_value(f)) for f in chain))
        say(_indent(facts_table(chain)))
        summary["chain"] = [f.model_dump(mode="json") for f in chain]

        say()
        say('5. Recall for an agent: "which browser does alex use?" (only current facts compete)')
        hits = store.recall(tenant, "which browser does alex use", 2)
        for h in hits:
            say(f"   {h.score:.3f}  {h.fact.text}")
        summary["recall"] = [h.model_dump(mode="json") for h in hits]

        summary["erasure"] = _demo_erasure(store, tenant, say)
        audit = store.audit_verify()
        say()
        say(f"7. Tamper evidence: {audit.events_checked} events re-hashed over their ciphertext,"
            f" {audit.receipts_checked} signed receipt(s): {'ok' if audit.ok else 'FAILED'}")
        summary["audit"] = audit.model_dump(mode="json")
        if kept:
            say()
            say(f"Try it yourself: memory-es --store {folder} current {tenant}")
    return summary


def _demo_erasure(store: MemoryStore, tenant: str, say: Callable[..., None]) -> Any:
    say()
    say("6. Legal erasure of user:dana: crypto-shred, then verify")
    preview = store.preview("purge", tenant, "user:dana")
    receipt = store.purge(tenant, "user:dana", confirm=preview.token)
    report = store.verify_erasure(receipt)
    dump = report.model_dump(mode="json")
    say(f"   deletion receipt {receipt.receipt_id} (keys destroyed: {len(receipt.key_ids)})")
    say(_indent(report_text(report)))
    left = store.current(tenant, entity="user:dana")
    say(f"   facts about user:dana left: {len(left)}")
    return {"receipt": receipt.model_dump(mode="json"), "report": dump}


def _indent(text: str) -> str:
    return "\n".join("   " + line for line in text.splitlines())


def cmd_demo(args: argparse.Namespace, out: Output) -> None:
    started = time.perf_counter()
    if args.folder is None:
        folder = Path(tempfile.mkdtemp(prefix="memory-es-demo-"))
        try:
            summary = run_demo(folder / "mem", out, kept=args.keep)
        finally:
            if not args.keep:
                shutil.rmtree(folder, ignore_errors=True)
        if not args.keep:
            summary["store"] = None
    else:
        folder = Path(args.folder)
        if folder.exists() and any(folder.iterdir()):
            raise InvalidInput(f"demo needs a new or empty folder; {folder} is not empty")
        summary = run_demo(folder, out)
    summary["seconds"] = round(time.perf_counter() - started, 3)
    if out.as_json:
        out.line(dumps(summary))
    else:
        out.line(f"(done in {summary['seconds']:.2f} s"
                 + ("; the temporary store was removed)" if summary["store"] is None else ")"))


# the parser -----------------------------------------------------------------------------

Handler = Callable[[MemoryStore, argparse.Namespace, Output], int | None]


def _globals(parser: argparse.ArgumentParser, *, top: bool) -> None:
    """Global options, accepted before or after the subcommand."""
    default: Any = (lambda value: value) if top else (lambda _value: argparse.SUPPRESS)
    parser.add_argument("--store", metavar="PATH",
                        default=default(os.environ.get(STORE_ENV) or "./mem"),
                        help=f"embedded store folder (default ${STORE_ENV} or ./mem); with --dsn,"
                             " the default views folder")
    parser.add_argument("--dsn", default=default(None),
                        help=f"PostgreSQL connection string (or ${DSN_ENV}) for log and keys")
    parser.add_argument("--views", metavar="PATH", default=default(None),
                        help="with --dsn: local folder for the DuckDB views")
    parser.add_argument("--schema", default=default(None),
                        help="with --dsn: PostgreSQL schema (default public)")
    parser.add_argument("--json", action="store_true", default=default(False),
                        help="print JSON for scripts instead of tables")


def _fact_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("tenant")
    p.add_argument("entity", help="canonical id 'namespace:local' or a registered alias")
    p.add_argument("attribute", help="lower-case dotted path, e.g. home.city")
    p.add_argument("value", help="JSON if it parses as JSON, else a string")
    p.add_argument("--valid-from", type=parse_time, metavar="TIME")
    p.add_argument("--valid-until", type=parse_time, metavar="TIME")
    p.add_argument("--text", help="natural-language rendering used for recall")
    p.add_argument("--source", help="channel: conversation, tool or document id")
    p.add_argument("--asserted-by", default="user", choices=["user", "third_party", "inference"])
    p.add_argument("--confidence", type=float, default=1.0)
    p.add_argument("--volatility", choices=["stable", "periodic", "volatile"])
    p.add_argument("--classification",
                   choices=["public", "internal", "restricted", "confidential"])
    p.add_argument("--derived-from", nargs="+", metavar="FACT_ID")
    p.add_argument("--idempotency-key", metavar="KEY")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="memory-es",
        description="Event-sourced, bitemporal fact store for AI-agent memory.",
        epilog="Times are ISO-8601 with a timezone, e.g. 2025-07-01T00:00:00Z. "
               "Exit status: 0 ok, 1 an erasure or audit report that is not clean, 2 user error.")
    _globals(parser, top=True)
    common = argparse.ArgumentParser(add_help=False)
    _globals(common, top=False)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def command(name: str, handler: Handler | None, help_text: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, parents=[common], help=help_text, description=help_text)
        p.set_defaults(handler=handler)
        return p

    p = command("demo", None, "run a short tour on a fresh store (temporary unless FOLDER)")
    p.add_argument("folder", nargs="?", help="a new or empty folder to keep the store in")
    p.add_argument("--keep", action="store_true", help="keep the temporary store")

    p = command("assert", cmd_assert, "write a fact (new, reinforce, outrank or conflict)")
    _fact_args(p)
    p.add_argument("--mention", help="surface text of an unresolved mention (entity '-')")

    p = command("supersede", cmd_supersede,
                "new value for a slot over [valid-from, valid-until) (UPDATE FOR PORTION OF)")
    _fact_args(p)
    p.add_argument("--reason")

    p = command("correct", cmd_correct, "the recorded value was wrong: record the right one")
    p.add_argument("fact_id")
    p.add_argument("value", help="JSON if it parses as JSON, else a string")
    p.add_argument("--text")
    p.add_argument("--reason")
    p.add_argument("--idempotency-key", metavar="KEY")

    p = command("decay", cmd_decay, "release a fact: it stops being valid (default now)")
    p.add_argument("fact_id")
    p.add_argument("--valid-until", type=parse_time, metavar="TIME")
    p.add_argument("--reason")
    p.add_argument("--idempotency-key", metavar="KEY")

    p = command("retract", cmd_retract,
                "remove a slot's value over a valid-time period (DELETE FOR PORTION OF)")
    p.add_argument("tenant")
    p.add_argument("entity")
    p.add_argument("attribute")
    p.add_argument("--valid-from", type=parse_time, metavar="TIME")
    p.add_argument("--valid-until", type=parse_time, metavar="TIME")
    p.add_argument("--reason")
    p.add_argument("--idempotency-key", metavar="KEY")

    p = command("forget-entity", cmd_forget_entity,
                "amnesia: every fact of exactly this entity becomes forgotten")
    p.add_argument("tenant")
    p.add_argument("entity")
    p.add_argument("--reason")
    p.add_argument("--idempotency-key", metavar="KEY")

    p = command("alias", cmd_alias, "register SURFACE as another name of CANONICAL_ID")
    p.add_argument("tenant")
    p.add_argument("surface")
    p.add_argument("canonical_id")

    p = command("define-attribute", cmd_define_attribute,
                "declare an attribute's cardinality, volatility, TTL and classification")
    p.add_argument("tenant")
    p.add_argument("attribute")
    p.add_argument("--cardinality", default="one", choices=["one", "many"])
    p.add_argument("--volatility", default="stable", choices=["stable", "periodic", "volatile"])
    p.add_argument("--ttl-seconds", type=int)
    p.add_argument("--classification", default="internal",
                   choices=["public", "internal", "restricted", "confidential"])

    for name, help_text in (("archive", "mark delete: hidden from every read; reversible"),
                            ("restore", "undo archive"),
                            ("mask", "replace the content by a placeholder everywhere"),
                            ("unmask", "undo mask"),
                            ("forget-fact", "cascade soft delete (terminal)")):
        p = command(name, cmd_fact_op, help_text)
        p.set_defaults(operation=name.replace("-", "_"))
        p.add_argument("fact_id")
        p.add_argument("--reason")
        p.add_argument("--idempotency-key", metavar="KEY")

    p = command("resolve-conflict", cmd_resolve_conflict,
                "settle an open conflict in favour of WINNER (a fact id)")
    p.add_argument("conflict_id")
    p.add_argument("winner")
    p.add_argument("--reason")

    p = command("preview", cmd_preview,
                "list what a destructive operation would touch, with its confirmation token")
    p.add_argument("op", help="purge, erase, forget_entity, ...")
    p.add_argument("tenant")
    p.add_argument("entity", nargs="?")
    p.add_argument("--fact-id")
    p.add_argument("--motive")

    p = command("purge", cmd_purge,
                "crypto-shred an entity, or one fact with its drift chain (irreversible)")
    p.add_argument("tenant")
    p.add_argument("entity", nargs="?")
    p.add_argument("--fact-id")
    p.add_argument("--confirm", metavar="TOKEN", help="the preview's token (high-risk purges)")
    p.add_argument("--requested-by")

    p = command("erase", cmd_erase, "route an erasure request by motive (mask, purge, ...)")
    p.add_argument("tenant")
    p.add_argument("entity", nargs="?")
    p.add_argument("--motive", required=True,
                   choices=["user_request", "legal_erasure", "system_cleanup",
                            "security_incident"])
    p.add_argument("--fact-id")
    p.add_argument("--confirm", metavar="TOKEN")
    p.add_argument("--requested-by")

    p = command("verify-erasure", cmd_verify_erasure,
                "check every store again for what a deletion receipt removed (exit 1 if not"
                " complete)")
    p.add_argument("receipt", help="a receipt id, a JSON file of the receipt, or - for stdin")

    command("audit-verify", cmd_audit_verify,
            "recompute the log's hash chains and the receipt chain (exit 1 on a problem)")

    p = command("replay", cmd_replay,
                "belief at --known-at rebuilt from the log alone (audit read)")
    p.add_argument("--known-at", type=parse_time, metavar="TIME", required=True)
    p.add_argument("--valid-at", type=parse_time, metavar="TIME")
    p.add_argument("--out", metavar="PATH", help="write Parquet instead of printing")

    for name in ("history", "blame"):
        p = command(name, cmd_history, "every event that touched a fact and its chain")
        p.add_argument("tenant")
        p.add_argument("fact_id")

    p = command("recall", cmd_recall, "blended keyword + semantic recall over eligible facts")
    p.add_argument("tenant")
    p.add_argument("query")
    p.add_argument("-k", type=int, default=8)
    p.add_argument("--valid-at", type=parse_time, metavar="TIME")
    p.add_argument("--known-at", type=parse_time, metavar="TIME")
    p.add_argument("--explain", action="store_true", help="show each hit's score parts")
    p.add_argument("--receipt", action="store_true", help="record what was served")
    p.add_argument("--caller", help="who is served (with --receipt)")

    p = command("recall-texts", cmd_recall_texts, "recall, texts only")
    p.add_argument("tenant")
    p.add_argument("query")
    p.add_argument("-k", type=int, default=5)

    p = command("remember", cmd_remember, "interpret TEXT into facts and write them")
    p.add_argument("tenant")
    p.add_argument("text")

    for name, texts, help_text in (
            ("revise", ("old_query", "new_text"), "replace the memory OLD_QUERY describes"),
            ("release", ("query",), "decay what clearly matches QUERY"),
            ("forget", ("query",), "amnesia of the entity QUERY names"),
            ("purge-matching", ("identifier",), "crypto-shred what holds IDENTIFIER")):
        p = command(name, cmd_text_op, help_text)
        p.set_defaults(operation=name.replace("-", "_"))
        p.add_argument("tenant")
        p.add_argument("texts", nargs=len(texts), metavar=tuple(t.upper() for t in texts))

    p = command("served", cmd_served, "consumption receipts: who was given which facts")
    p.add_argument("tenant")
    p.add_argument("--since", type=parse_time, metavar="TIME")
    p.add_argument("--fact-id")

    command("receipts", cmd_receipts, "the deletion receipts of the audit log")

    p = command("mcp", cmd_mcp, "serve the text interface as MCP tools over stdio")
    p.add_argument("tenant", help="the one tenant this server acts for")

    command("bench", None, "run the benchmark suite (memory-es bench --help)")

    p = command("current", cmd_current, "facts true now")
    p.add_argument("tenant")
    p.add_argument("--entity")
    p.add_argument("--attribute")

    p = command("as-of", cmd_as_of,
                "what the store believed at --known-at about valid time --valid-at")
    p.add_argument("tenant")
    p.add_argument("--valid-at", type=parse_time, metavar="TIME", help="default now")
    p.add_argument("--known-at", type=parse_time, metavar="TIME", help="default now")
    p.add_argument("--entity")
    p.add_argument("--attribute")

    p = command("chain", cmd_chain, "the drift chain containing FACT_ID, oldest first")
    p.add_argument("tenant")
    p.add_argument("fact_id")

    p = command("rebuild", cmd_rebuild, "drop every view and replay the log (progress bar)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")

    p = command("export", cmd_export, "write an as-of snapshot to Parquet")
    p.add_argument("path")
    p.add_argument("--tenant", help="one tenant (default all)")
    p.add_argument("--valid-at", type=parse_time, metavar="TIME", help="default now")
    p.add_argument("--known-at", type=parse_time, metavar="TIME", help="default now")

    p = command("sql", cmd_sql, "run SQL over the views (fact_versions, facts_current, ...)")
    p.add_argument("query")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 2 user error)."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == ["bench"]:
        from memory_es.bench import main as bench  # noqa: PLC0415  (heavy, optional imports)

        return bench(arguments[1:])
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # argparse's own exit: --help (0) or a usage error (2)
        return e.code if isinstance(e.code, int) else EXIT_USER_ERROR
    out = Output(args.json, sys.stdout)
    try:
        if args.command == "demo":
            cmd_demo(args, out)
            return 0
        handler: Handler = args.handler
        with opened(args) as store:
            status = handler(store, args, out)
    except MemoryESError as e:
        print(f"memory-es: error: {e}", file=sys.stderr)
        return EXIT_USER_ERROR
    except KeyboardInterrupt:
        print("memory-es: interrupted", file=sys.stderr)
        return 130
    return status or 0


if __name__ == "__main__":
    sys.exit(main())
