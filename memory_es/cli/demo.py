"""``memory-es demo``: a short scripted tour on a fresh store.

Writes, supersedes and corrects a few facts, reads them now, as of a past belief and
along their drift chain, recalls for an agent, purges one entity with its proof, and
re-verifies the audit log; then draws the bitemporal diagram and the drift chain and
writes the audit report (``--pictures DIR``; with the ``plots`` extra). The store is
temporary unless a folder is given.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import shutil
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memory_es.cli.render import (
    Output,
    dumps,
    fact_value,
    facts_table,
    indent,
    receipt_text,
    report_text,
    show_time,
)
from memory_es.errors import InvalidInput
from memory_es.store import MemoryStore, open_store

TENANT = "demo"


def _day(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def run_demo(folder: Path, out: Output, *, kept: bool = True,
             pictures: Path | None = None) -> dict[str, Any]:
    """Write, supersede, correct and query a small store; purge if the store can."""
    summary: dict[str, Any] = {"store": str(folder)}
    say = (lambda _text="": None) if out.as_json else out.line
    tenant = TENANT
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
        say(indent(facts_table(now)))
        summary["current"] = [f.model_dump(mode="json") for f in now]

        say()
        say(f"3. As of: what did the store believe at {show_time(known_before_fix)}"
            " (before the correction) about 2025-07-15?")
        past = store.as_of(tenant, valid_at=_day("2025-07-15"), known_at=known_before_fix,
                           entity="user:alex")
        say(indent(facts_table(past)))
        summary["as_of"] = {"valid_at": "2025-07-15T00:00:00+00:00",
                            "known_at": known_before_fix.isoformat(),
                            "facts": [f.model_dump(mode="json") for f in past]}

        say()
        say("4. The drift chain of user:alex browser.default, oldest first")
        chain = store.chain(tenant, str(r3.fact_id))
        say("   " + " -> ".join(json.dumps(fact_value(f)) for f in chain))
        say(indent(facts_table(chain)))
        summary["chain"] = [f.model_dump(mode="json") for f in chain]

        say()
        say('5. Recall for an agent: "which browser does alex use?" (only current facts compete)')
        hits = store.recall(tenant, "which browser does alex use", 2, receipt=True,
                            caller="demo-agent")
        for h in hits:
            say(f"   {h.score:.3f}  {h.fact.text}")
        summary["recall"] = [h.model_dump(mode="json") for h in hits]

        summary["erasure"] = _demo_erasure(store, tenant, say)
        audit = store.audit_verify()
        say()
        say(f"7. Tamper evidence: {audit.events_checked} events re-hashed over their ciphertext,"
            f" {audit.receipts_checked} signed receipt(s): {'ok' if audit.ok else 'FAILED'}")
        summary["audit"] = audit.model_dump(mode="json")
        summary["pictures"] = _demo_pictures(store, tenant, str(r3.fact_id), pictures, say)
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
    say(indent(report_text(report)))
    left = store.current(tenant, entity="user:dana")
    say(f"   facts about user:dana left: {len(left)}")
    return {"receipt": receipt.model_dump(mode="json"), "report": dump}


def _demo_pictures(store: MemoryStore, tenant: str, fact_id: str, folder: Path | None,
                   say: Callable[..., None]) -> dict[str, str] | None:
    """Step 8: the bitemporal diagram, the drift chain and the audit report, as files."""
    say()
    if folder is None:
        say("8. Pictures: add --pictures DIR to draw the diagrams and write the audit report")
        return None
    try:
        from memory_es import plots, report  # noqa: PLC0415  (optional extra: plots)
    except ImportError:
        say("8. Pictures: pip install 'memory-es[plots]' to draw them")
        return None
    folder.mkdir(parents=True, exist_ok=True)
    anchor = store.anchor().model_dump(mode="json")
    written = {
        "bitemporal": plots.save(plots.bitemporal(store, tenant, "user:alex"),
                                 folder / "bitemporal.png"),
        "chain": plots.save(plots.chain(store, tenant, fact_id), folder / "chain.png"),
        "report": report.write(store, tenant, folder / "report.html", entity="user:alex",
                               anchor=anchor),
    }
    say("8. Pictures of time and an audit report for a person (self-contained HTML)")
    for what, path in written.items():
        say(f"   {what}: {path}")
    return {what: str(path) for what, path in written.items()}


def cmd_demo(args: argparse.Namespace, out: Output) -> None:
    """Run the tour in ``args.folder`` (new or empty) or in a temporary folder."""
    started = time.perf_counter()
    if args.folder is None:
        folder = Path(tempfile.mkdtemp(prefix="memory-es-demo-"))
        pictures = Path(args.pictures) if args.pictures else folder / "pictures"
        try:
            summary = run_demo(folder / "mem", out, kept=args.keep, pictures=pictures)
        finally:
            if not args.keep:
                shutil.rmtree(folder, ignore_errors=True)
        if not args.keep:
            summary["store"] = None
            if not args.pictures:
                summary["pictures"] = None
    else:
        folder = Path(args.folder)
        if folder.exists() and any(folder.iterdir()):
            raise InvalidInput(f"demo needs a new or empty folder; {folder} is not empty")
        summary = run_demo(folder, out,
                           pictures=Path(args.pictures) if args.pictures else None)
    summary["seconds"] = round(time.perf_counter() - started, 3)
    if out.as_json:
        out.line(dumps(summary))
    else:
        out.line(f"(done in {summary['seconds']:.2f} s"
                 + ("; the temporary store was removed)" if summary["store"] is None else ")"))
