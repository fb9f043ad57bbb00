"""One handler per command: read the parsed arguments, call the store, hand the result on.

Every handler has the shape ``(store, args, out) -> exit status or None`` and uses only
the store's public API; what is printed, and how, is :mod:`memory_es.cli.render`'s.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from memory_es import worker
from memory_es.choices import Compaction
from memory_es.cli import render
from memory_es.cli.render import Output
from memory_es.errors import InvalidInput, NotFound
from memory_es.models import Receipt
from memory_es.store import MemoryStore

Handler = Callable[[MemoryStore, argparse.Namespace, Output], int | None]


def parse_value(text: str) -> Any:
    """JSON when ``text`` is valid JSON (``42``, ``true``, ``["a"]``, ``"x"``), else the string."""
    try:
        return json.loads(text)
    except ValueError:
        return text


# writes ---------------------------------------------------------------------------------

def _fact_options(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "valid_from": args.valid_from, "valid_until": args.valid_until, "text": args.text,
        "source": args.source, "asserted_by": args.asserted_by, "confidence": args.confidence,
        "importance": args.importance,
        "volatility": args.volatility, "classification": args.classification,
        "derived_from": args.derived_from or (), "idempotency_key": args.idempotency_key,
        "agent": args.agent, "shared": args.shared,
    }


def cmd_assert(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    entity = None if args.entity == "-" else args.entity
    if entity is None and not args.mention:
        raise InvalidInput("entity '-' (unresolved) needs --mention TEXT")
    out.receipt(store.assert_fact(args.tenant, entity, args.attribute, parse_value(args.value),
                                  mention=args.mention, negated=args.negated,
                                  **_fact_options(args)))


def cmd_supersede(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    out.receipt(store.supersede(args.tenant, args.entity, args.attribute, parse_value(args.value),
                                reason=args.reason, **_fact_options(args)))


def cmd_correct(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    out.receipt(store.correct(args.fact_id, parse_value(args.value), text=args.text,
                              reason=args.reason, idempotency_key=args.idempotency_key,
                              tenant=args.tenant))


def cmd_decay(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    out.receipt(store.decay(args.fact_id, valid_until=args.valid_until, reason=args.reason,
                            idempotency_key=args.idempotency_key, tenant=args.tenant))


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


def _on_fact(operation: Callable[..., Receipt], args: argparse.Namespace, out: Output) -> None:
    out.receipt(operation(args.fact_id, reason=args.reason, idempotency_key=args.idempotency_key,
                          tenant=args.tenant))


def cmd_archive(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    _on_fact(store.archive, args, out)


def cmd_restore(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    _on_fact(store.restore, args, out)


def cmd_mask(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    _on_fact(store.mask, args, out)


def cmd_unmask(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    _on_fact(store.unmask, args, out)


def cmd_forget_fact(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    _on_fact(store.forget_fact, args, out)


def cmd_resolve_conflict(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    out.receipt(store.resolve_conflict(args.conflict_id, args.winner, reason=args.reason,
                                       tenant=args.tenant))


# notes (SPEC §12.5-12.6) -----------------------------------------------------------------

def cmd_note(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    """A refusal by the quality gate is a ``QualityRejected``: the caller prints its reasons."""
    out.receipt(store.note(args.tenant, args.entity, args.category, args.text,
                           importance=args.importance, agent=args.agent, shared=args.shared,
                           gate=not args.no_gate))


def cmd_links(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    links = store.links(args.tenant, args.fact_id, agent=args.agent, known_at=args.known_at)
    out.models(links, render.links_table)


def cmd_consolidate(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    receipts = store.consolidate(args.tenant, entity=args.entity, min_cluster=args.min_cluster,
                                 overlap=args.overlap, agent=args.agent)
    out.receipts(receipts)
    if not receipts and not out.as_json:
        out.line("(no pattern written: no new or grown cluster)")


# erasure and audit ----------------------------------------------------------------------

def cmd_preview(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    p = store.preview(args.op, args.tenant, args.entity, fact_id=args.fact_id,
                      motive=args.motive)
    out.data(p.model_dump(mode="json"), render.preview_text(p))


def cmd_purge(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    receipt = store.purge(args.tenant, args.entity, fact_id=args.fact_id, confirm=args.confirm,
                          requested_by=args.requested_by, reason=args.reason,
                          compact=Compaction.DEFERRED if args.deferred else Compaction.NOW)
    out.data(receipt.model_dump(mode="json"), render.deletion_text(receipt))


def cmd_compact(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    started = time.perf_counter()
    store.compact()
    elapsed = (time.perf_counter() - started) * 1e3
    out.data({"compacted": True, "ms": round(elapsed, 1)}, f"compacted in {elapsed:.0f} ms")


def cmd_erase(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    receipt = store.erase(args.tenant, args.entity, motive=args.motive,
                          requested_by=args.requested_by, fact_id=args.fact_id,
                          confirm=args.confirm)
    out.data(receipt.model_dump(mode="json"), render.deletion_text(receipt))


def _given_receipt(store: MemoryStore, given: str) -> dict[str, Any]:
    """A receipt from stdin (``-``), a JSON file, or the audit log by receipt id."""
    if given == "-" or Path(given).is_file():
        text = sys.stdin.read() if given == "-" else Path(given).read_text()
        try:
            receipt = json.loads(text)
        except ValueError as e:
            raise InvalidInput("the receipt file is not JSON") from e
        if not isinstance(receipt, dict):
            raise InvalidInput("the receipt file must hold one JSON object")
        return receipt
    found = [r for r in store.receipts() if r.get("receipt_id") == given]
    if not found:
        raise NotFound(f"no deletion receipt {given} in the audit log")
    return found[0]


def cmd_verify_erasure(store: MemoryStore, args: argparse.Namespace, out: Output) -> int:
    report = store.verify_erasure(_given_receipt(store, args.receipt))
    out.data(report.model_dump(mode="json"), render.report_text(report))
    return 0 if report.complete else 1


def cmd_audit_verify(store: MemoryStore, args: argparse.Namespace, out: Output) -> int:
    anchor = None
    if args.anchor is not None:
        try:
            anchor = json.loads(Path(args.anchor).read_text())
        except (OSError, ValueError) as e:
            raise InvalidInput(f"cannot read the anchor file {args.anchor}: {e}") from e
    r = store.audit_verify(anchor=anchor)
    out.data(r.model_dump(mode="json"), render.audit_text(r))
    return 0 if r.ok else 1


def cmd_anchor(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    target = Path(args.file).resolve()
    if target.is_relative_to(Path(store.path).resolve()):
        raise InvalidInput("keep the anchor outside the store's folder: a restore or a "
                           "truncation of the folder would take the anchor with it")
    anchor = store.anchor()
    tmp = target.with_name(target.name + ".tmp")
    try:
        tmp.write_text(anchor.model_dump_json(indent=2) + "\n")
        tmp.replace(target)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        raise InvalidInput(f"cannot write the anchor to {target}: {e.strerror}") from e
    out.data({"file": str(target), "position": anchor.position, "streams": len(anchor.heads)},
             f"anchor at log position {anchor.position} ({len(anchor.heads)} streams) "
             f"written to {target}")


def cmd_rotate_master_key(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    count = store.rotate_master_key(args.new_key_file)
    out.data({"rewrapped": count, "key_file": str(Path(args.new_key_file).resolve())},
             f"{count} wrapped keys and secrets re-wrapped; open the store with "
             f"--key-file {args.new_key_file} (or MEMORY_ES_KEY_FILE) from now on")


def cmd_receipts(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    receipts = store.receipts()
    out.line(render.dumps(receipts) if out.as_json else render.receipts_table(receipts))


# audit reads ----------------------------------------------------------------------------

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
    out.line(render.dumps(rows) if out.as_json else render.replay_table(table.column_names, rows))


def cmd_history(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    out.models(store.history(args.tenant, args.fact_id), render.history_table)


def cmd_served(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    out.models(store.served(args.tenant, since=args.since, fact_id=args.fact_id),
               render.served_table)


# pictures and the audit report (optional extra: plots) ----------------------------------

def cmd_plot(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    """``plot TENANT ENTITY`` (bitemporal diagram) or ``plot chain TENANT FACT_ID``."""
    from memory_es import plots  # noqa: PLC0415  (optional extra: plots)

    words = list(args.target)
    if len(words) == 3 and words[0] == "chain":
        if args.attribute is not None:
            raise InvalidInput("--attribute goes with 'plot TENANT ENTITY', not 'plot chain'")
        figure, what = plots.chain(store, words[1], words[2]), "drift chain"
    elif len(words) == 2:
        figure = plots.bitemporal(store, words[0], words[1], args.attribute)
        what = "bitemporal diagram"
    else:
        raise InvalidInput("usage: plot TENANT ENTITY [--attribute A] --out FILE, or"
                           " plot chain TENANT FACT_ID --out FILE")
    path = plots.save(figure, args.out)
    out.data({"path": str(path), "figure": what}, render.wrote_text(what, path))


def cmd_report(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    from memory_es import report  # noqa: PLC0415  (optional extra: plots)

    anchor = report.load_anchor(args.anchor) if args.anchor else None
    path = report.write(store, args.tenant, args.out, entity=args.entity,
                        as_of=args.as_of or (), anchor=anchor)
    out.data({"path": str(path), "sections": list(report.SECTIONS)},
             render.wrote_text("audit report", path))


# reads ----------------------------------------------------------------------------------

def cmd_current(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    out.facts(store.current(args.tenant, entity=args.entity, attribute=args.attribute,
                            agent=args.agent))


def cmd_as_of(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    out.facts(store.as_of(args.tenant, valid_at=args.valid_at, known_at=args.known_at,
                          entity=args.entity, attribute=args.attribute, agent=args.agent))


def cmd_chain(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    out.facts(store.chain(args.tenant, args.fact_id, agent=args.agent))


def cmd_recall(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    hits = store.recall(args.tenant, args.query, args.k, valid_at=args.valid_at,
                        known_at=args.known_at, explain=args.explain,
                        receipt=args.receipt, caller=args.caller, agent=args.agent,
                        include_consolidated=args.include_consolidated)
    out.models(hits, render.hits_table)
    if hits and hits[0].recall_id is not None and not out.as_json:
        out.line(f"recall_id {hits[0].recall_id} (judge TENANT RECALL_ID --helpful ...)")


# governance (SPEC §12.1-12.4) -----------------------------------------------------------

def cmd_sweep(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    moves = store.sweep(args.tenant)
    out.models(moves, lambda ms: render.render_table(
        ("fact_id", "from", "to", "reason"),
        [[m.fact_id, m.from_tier, m.to_tier, m.reason] for m in ms]) if ms else "(no moves)")


def cmd_judge(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    out.receipt(store.judge(args.tenant, args.recall_id, helpful=args.helpful,
                            misleading=args.misleading))


def cmd_utility(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    u = store.utility(args.tenant, args.fact_id, known_at=args.known_at)
    out.data(u.model_dump(mode="json"), render.render_table(
        ("served", "useful", "harmful", "neutral", "utility", "roi", "q_value"),
        [[u.served, u.useful, u.harmful, u.neutral, f"{u.utility:.2f}", f"{u.roi:.3f}",
          f"{u.q_value:.3f}"]]))


def cmd_recall_texts(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    texts = store.recall_texts(args.tenant, args.query, args.k, agent=args.agent)
    out.data(texts, "\n".join(texts) if texts else "(nothing)")


def cmd_sql(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    import duckdb  # noqa: PLC0415

    try:
        table = store.sql(args.query)
    except duckdb.Error as e:
        raise InvalidInput(f"SQL error: {e}") from e
    rows = table.to_pylist()
    out.line(render.dumps(rows) if out.as_json else render.sql_text(table.column_names, rows))


def cmd_export(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    import pyarrow.parquet as pq  # noqa: PLC0415

    path = store.export(args.path, tenant=args.tenant, valid_at=args.valid_at,
                        known_at=args.known_at)
    rows = pq.read_metadata(path).num_rows
    out.data({"path": str(path), "rows": rows}, f"wrote {rows} facts to {path}")


# the text interface ---------------------------------------------------------------------

def cmd_remember(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    out.receipts(store.remember(args.tenant, args.text))


def _text_result(result: Any, out: Output) -> None:
    """The text interface's results are JSON in both modes."""
    data = result.model_dump(mode="json") if hasattr(result, "model_dump") else result
    out.data(data, render.dumps(data))


def cmd_revise(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    _text_result(store.revise(args.tenant, args.old_query, args.new_text), out)


def cmd_release(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    _text_result(store.release(args.tenant, args.query), out)


def cmd_forget(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    _text_result(store.forget(args.tenant, args.query), out)


def cmd_purge_matching(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    _text_result(store.purge_matching(args.tenant, args.identifier), out)


def cmd_mcp(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    from memory_es.mcp_server import serve  # noqa: PLC0415  (optional extra: mcp)

    del out
    serve(store, args.tenant, getattr(args, "agent", None))


# maintenance ----------------------------------------------------------------------------

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


def cmd_worker(args: argparse.Namespace, out: Output) -> int:
    dsn = args.dsn or os.environ.get("MEMORY_ES_DSN")
    if not dsn:
        raise InvalidInput("the worker follows a PostgreSQL log: give --dsn (or MEMORY_ES_DSN)")

    def report(state: dict[str, Any]) -> None:  # one JSON object per line: a stream
        out.line(json.dumps(state, sort_keys=True) if out.as_json else
                 f"replica {state['replica']}: applied {state['applied']} of "
                 f"{state['head']} (lag {state['lag']})")
        out.out.flush()

    worker.run(dsn, args.views or args.store, schema=args.schema, key_file=args.key_file,
               interval=args.interval, max_seconds=args.max_seconds, report=report)
    return 0


def cmd_replicas(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    replicas = store.replicas()
    out.data([r.model_dump(mode="json") for r in replicas], render.render_table(
        ("id", "host", "views", "applied", "compacted", "heartbeat_at", "this"),
        [[r.id, r.host, r.views, r.applied, r.compacted, r.heartbeat_at,
          "*" if r.this_process else ""] for r in replicas]))


def cmd_retire_replica(store: MemoryStore, args: argparse.Namespace, out: Output) -> None:
    store.retire_replica(args.replica_id)
    out.data({"retired": args.replica_id}, f"replica {args.replica_id} retired")
