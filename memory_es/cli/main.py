"""The command table, the parser built from it, and ``main``.

Each :class:`Command` row names a subcommand, its one-line help, its arguments and its
handler; :func:`build_parser` turns the table into argparse in one loop, and :func:`main`
runs the handler of the row the command line names. Closed sets of values (``choices``)
come from :mod:`memory_es.choices`, so the CLI accepts exactly what the store does.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from memory_es.choices import (
    AssertedBy,
    Cardinality,
    Classification,
    Motive,
    Volatility,
    names,
)
from memory_es.cli import bench, demo
from memory_es.cli import commands as c
from memory_es.cli.commands import Handler
from memory_es.cli.render import Output
from memory_es.errors import InvalidInput, MemoryESError
from memory_es.store import MemoryStore, open_store

STORE_ENV = "MEMORY_ES_STORE"
DSN_ENV = "MEMORY_ES_DSN"
EXIT_USER_ERROR = 2
EXIT_INTERRUPTED = 130

BareHandler = Callable[[argparse.Namespace, Output], int | None]
RawHandler = Callable[[Sequence[str]], int]


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


# the table ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Arg:
    """One ``add_argument`` call: a name or flags, and its keyword options."""

    flags: tuple[str, ...]
    options: Mapping[str, Any]


def arg(*flags: str, **options: Any) -> Arg:
    return Arg(flags, options)


def time_arg(flag: str, **options: Any) -> Arg:
    """An ISO-8601 time option (timezone required)."""
    return arg(flag, type=parse_time, metavar="TIME", **options)


@dataclass(frozen=True)
class Command:
    """One subcommand and exactly one way to run it.

    ``handler`` gets the store the global options name, opened and closed around it;
    ``bare`` runs without one (``demo`` makes its own); ``raw`` gets the words after the
    command's name unparsed (``bench`` has its own parser).
    """

    name: str
    help: str
    args: tuple[Arg, ...] = ()
    handler: Handler | None = None
    bare: BareHandler | None = None
    raw: RawHandler | None = None

    def __post_init__(self) -> None:
        if sum(h is not None for h in (self.handler, self.bare, self.raw)) != 1:
            raise TypeError(f"command {self.name!r} needs exactly one of handler, bare, raw")


TENANT = arg("tenant")
FACT_ID = arg("fact_id")
VALUE = arg("value", help="JSON if it parses as JSON, else a string")
REASON = arg("--reason")
KEY = arg("--idempotency-key", metavar="KEY")
ENTITY_OR_FACT = (TENANT, arg("entity", nargs="?"), arg("--fact-id"))
BOUND = arg("--tenant", help="the tenant the fact must belong to (another tenant's id is "
                              "not found; nothing is written)")
ON_FACT = (FACT_ID, REASON, KEY, BOUND)
AGENT = arg("--agent", metavar="NAME",
            help="read as this agent: tenant-wide, shared and its own facts (SPEC §12.7)")
WRITER = (arg("--agent", metavar="NAME",
              help="the writing agent: the fact is private to it unless --shared"),
          arg("--shared", action="store_true", help="an agent's fact every agent sees"))
FACT = (
    TENANT,
    arg("entity", help="canonical id 'namespace:local' or a registered alias"),
    arg("attribute", help="lower-case dotted path, e.g. home.city"),
    VALUE,
    time_arg("--valid-from"),
    time_arg("--valid-until"),
    arg("--text", help="natural-language rendering used for recall"),
    arg("--source", help="channel: conversation, tool or document id"),
    arg("--asserted-by", default=AssertedBy.USER.value, choices=names(AssertedBy)),
    arg("--confidence", type=float, default=1.0),
    arg("--importance", type=float, default=0.5, help="0..1 (ranking, long-term tier)"),
    arg("--volatility", choices=names(Volatility)),
    arg("--classification", choices=names(Classification)),
    arg("--derived-from", nargs="+", metavar="FACT_ID"),
    KEY,
    *WRITER,
)
AS_OF_TIMES = (time_arg("--valid-at", help="default now"),
               time_arg("--known-at", help="default now"))

COMMANDS: tuple[Command, ...] = (
    Command("demo", "run a short tour on a fresh store (temporary unless FOLDER)", (
        arg("folder", nargs="?", help="a new or empty folder to keep the store in"),
        arg("--keep", action="store_true", help="keep the temporary store"),
        arg("--pictures", metavar="DIR",
            help="write the diagrams and the audit report there (default: beside a"
                 " temporary store)"),
    ), bare=demo.cmd_demo),
    # writes
    Command("assert", "write a fact (new, reinforce, outrank or conflict)", (
        *FACT, arg("--mention", help="surface text of an unresolved mention (entity '-')"),
        arg("--negated", action="store_true",
            help="a denial: the slot does not hold VALUE (it stands beside other values)"),
    ), c.cmd_assert),
    Command("supersede",
            "new value for a slot over [valid-from, valid-until) (UPDATE FOR PORTION OF)",
            (*FACT, REASON), c.cmd_supersede),
    Command("correct", "the recorded value was wrong: record the right one",
            (FACT_ID, VALUE, arg("--text"), REASON, KEY, BOUND), c.cmd_correct),
    Command("decay", "release a fact: it stops being valid (default now)",
            (FACT_ID, time_arg("--valid-until"), REASON, KEY, BOUND), c.cmd_decay),
    Command("retract", "remove a slot's value over a valid-time period (DELETE FOR PORTION OF)", (
        TENANT, arg("entity"), arg("attribute"), time_arg("--valid-from"),
        time_arg("--valid-until"), REASON, KEY,
    ), c.cmd_retract),
    Command("forget-entity", "amnesia: every fact of exactly this entity becomes forgotten",
            (TENANT, arg("entity"), REASON, KEY), c.cmd_forget_entity),
    Command("alias", "register SURFACE as another name of CANONICAL_ID",
            (TENANT, arg("surface"), arg("canonical_id")), c.cmd_alias),
    Command("define-attribute",
            "declare an attribute's cardinality, volatility, TTL and classification", (
                TENANT, arg("attribute"),
                arg("--cardinality", default=Cardinality.ONE.value, choices=names(Cardinality)),
                arg("--volatility", default=Volatility.STABLE.value, choices=names(Volatility)),
                arg("--ttl-seconds", type=int),
                arg("--classification", default=Classification.INTERNAL.value,
                    choices=names(Classification)),
            ), c.cmd_define_attribute),
    Command("archive", "mark delete: hidden from every read; reversible", ON_FACT, c.cmd_archive),
    Command("restore", "undo archive", ON_FACT, c.cmd_restore),
    Command("mask", "replace the content by a placeholder everywhere", ON_FACT, c.cmd_mask),
    Command("unmask", "undo mask", ON_FACT, c.cmd_unmask),
    Command("forget-fact", "cascade soft delete (terminal)", ON_FACT, c.cmd_forget_fact),
    Command("resolve-conflict", "settle an open conflict in favour of WINNER (a fact id)",
            (arg("conflict_id"), arg("winner"), REASON, BOUND), c.cmd_resolve_conflict),
    # erasure and audit
    Command("preview",
            "list what a destructive operation would touch, with its confirmation token",
            (arg("op", help="purge, erase, forget_entity, ..."), *ENTITY_OR_FACT,
             arg("--motive")), c.cmd_preview),
    Command("purge", "crypto-shred an entity, or one fact with its drift chain (irreversible)", (
        *ENTITY_OR_FACT,
        arg("--confirm", metavar="TOKEN", help="the preview's token (high-risk purges)"),
        arg("--requested-by"),
        arg("--reason", help="recorded in the receipt (a ticket or legal basis, no personal "
                             "data)"),
        arg("--deferred", action="store_true",
            help="share one file rewrite with other purges (run 'compact' later)"),
    ), c.cmd_purge),
    Command("compact", "rewrite the files deferred purges left (their reports turn complete)",
            handler=c.cmd_compact),
    Command("erase", "route an erasure request by motive (mask, purge, ...)", (
        TENANT, arg("entity", nargs="?"),
        arg("--motive", required=True, choices=names(Motive)),
        arg("--fact-id"), arg("--confirm", metavar="TOKEN"), arg("--requested-by"),
    ), c.cmd_erase),
    Command("verify-erasure",
            "check every store again for what a deletion receipt removed (exit 1 if not"
            " complete)",
            (arg("receipt", help="a receipt id, a JSON file of the receipt, or - for stdin"),),
            c.cmd_verify_erasure),
    Command("audit-verify",
            "recompute the log's hash chains and the receipt chain (exit 1 on a problem)",
            (arg("--anchor", metavar="FILE",
                 help="an anchor file from 'anchor': also report what is missing before it"),),
            c.cmd_audit_verify),
    Command("anchor",
            "write a signed head record of the log to FILE, to keep outside the store",
            (arg("file", help="where to write the anchor (outside the store's folder)"),),
            c.cmd_anchor),
    Command("worker",
            "follow a PostgreSQL log into this process's own views replica (--dsn, --views)", (
                arg("--interval", type=float, default=1.0,
                    help="seconds between polls when no NOTIFY arrives (default 1)"),
                arg("--max-seconds", type=float, help="stop after this long (default: never)"),
            ), bare=c.cmd_worker),
    Command("replicas", "list the registered views replicas and how far each has applied",
            handler=c.cmd_replicas),
    Command("retire-replica", "remove a decommissioned replica from the registry",
            (arg("replica_id"),), c.cmd_retire_replica),
    Command("rotate-master-key",
            "re-wrap every live key under a fresh master key written to NEW_KEY_FILE",
            (arg("new_key_file", help="a path that does not exist yet"),),
            c.cmd_rotate_master_key),
    Command("replay", "belief at --known-at rebuilt from the log alone (audit read)", (
        time_arg("--known-at", required=True), time_arg("--valid-at"),
        arg("--out", metavar="PATH", help="write Parquet instead of printing"),
    ), c.cmd_replay),
    Command("history", "every event that touched a fact and its chain", (TENANT, FACT_ID),
            c.cmd_history),
    Command("blame", "every event that touched a fact and its chain", (TENANT, FACT_ID),
            c.cmd_history),
    # recall and the text interface
    Command("recall", "blended keyword + semantic recall over eligible facts", (
        TENANT, arg("query"), arg("-k", type=int, default=8),
        time_arg("--valid-at"), time_arg("--known-at"),
        arg("--explain", action="store_true", help="show each hit's score parts"),
        arg("--receipt", action="store_true", help="record what was served"),
        arg("--caller", help="who is served (with --receipt)"), AGENT,
        arg("--include-consolidated", action="store_true",
            help="also the notes a pattern consolidated (left out by default)"),
    ), c.cmd_recall),
    Command("recall-texts", "recall, texts only",
            (TENANT, arg("query"), arg("-k", type=int, default=5), AGENT),
            c.cmd_recall_texts),
    Command("remember", "interpret TEXT into facts and write them", (TENANT, arg("text")),
            c.cmd_remember),
    Command("revise", "replace the memory OLD_QUERY describes", (
        TENANT, arg("old_query", metavar="OLD_QUERY"), arg("new_text", metavar="NEW_TEXT"),
    ), c.cmd_revise),
    Command("release", "decay what clearly matches QUERY",
            (TENANT, arg("query", metavar="QUERY")), c.cmd_release),
    Command("forget", "amnesia of the entity QUERY names",
            (TENANT, arg("query", metavar="QUERY")), c.cmd_forget),
    Command("purge-matching", "crypto-shred what holds IDENTIFIER",
            (TENANT, arg("identifier", metavar="IDENTIFIER")), c.cmd_purge_matching),
    Command("served", "consumption receipts: who was given which facts",
            (TENANT, time_arg("--since"), arg("--fact-id")), c.cmd_served),
    # governance (SPEC §12.1-12.4)
    Command("sweep", "one tiering round now: move facts between tiers, mark lapsed ones stale",
            (TENANT,), c.cmd_sweep),
    Command("judge", "re-judge the facts a recall served (recall --receipt prints its id)", (
        TENANT, arg("recall_id"),
        arg("--helpful", nargs="+", default=[], metavar="FACT_ID"),
        arg("--misleading", nargs="+", default=[], metavar="FACT_ID"),
    ), c.cmd_judge),
    Command("utility", "a fact's utility ledger: served, judgements, utility, ROI, q-value",
            (TENANT, FACT_ID, time_arg("--known-at", help="default now")), c.cmd_utility),
    Command("receipts", "the deletion receipts of the audit log", handler=c.cmd_receipts),
    # notes (SPEC §12.5-12.6)
    Command("note", "write a note behind the quality and dedup gates, auto-linked", (
        TENANT, arg("entity"),
        arg("category", help="decision, finding, correction, pattern or estimate"),
        arg("text"), arg("--importance", type=float, default=0.5), *WRITER,
        arg("--no-gate", action="store_true",
            help="skip quality and dedup (imports); links are still made"),
    ), c.cmd_note),
    Command("links", "a note's automatic links, strongest first (now, or --known-at)",
            (TENANT, FACT_ID, AGENT, time_arg("--known-at")), c.cmd_links),
    Command("consolidate", "cluster current findings into patterns (one per cluster)", (
        TENANT, arg("--entity"), arg("--min-cluster", type=int, default=3),
        arg("--overlap", type=float, default=0.4), AGENT,
    ), c.cmd_consolidate),
    Command("plot",
            "draw a picture as PNG or SVG: 'plot TENANT ENTITY [--attribute A]' (bitemporal"
            " diagram) or 'plot chain TENANT FACT_ID' (drift chain timeline)", (
                arg("target", nargs="+", metavar="ARG",
                    help="TENANT ENTITY, or: chain TENANT FACT_ID"),
                arg("--attribute", help="only this attribute (bitemporal diagram)"),
                arg("--out", required=True, metavar="FILE", help="FILE.png or FILE.svg"),
            ), c.cmd_plot),
    Command("report", "write a self-contained HTML audit report (no network when opened)", (
        TENANT, arg("--entity", help="one canonical entity (default: every entity)"),
        arg("--anchor", metavar="FILE", help="an anchor file to check the audit log against"),
        time_arg("--as-of", action="append",
                 help="show the belief at this time (repeatable; default: the last changes)"),
        arg("--out", required=True, metavar="FILE", help="FILE.html"),
    ), c.cmd_report),
    Command("mcp", "serve the text interface as MCP tools over stdio", (
        arg("tenant", help="the one tenant this server acts for"),
        arg("--agent", metavar="NAME",
            help="serve this one agent: its writes are private to it, its reads see "
                 "tenant-wide, shared and its own facts (SPEC §12.7)"),
    ), c.cmd_mcp),
    Command("bench", "run the benchmark suite (memory-es bench --help)", raw=bench.main),
    # reads
    Command("current", "facts true now",
            (TENANT, arg("--entity"), arg("--attribute"), AGENT), c.cmd_current),
    Command("as-of", "what the store believed at --known-at about valid time --valid-at",
            (TENANT, *AS_OF_TIMES, arg("--entity"), arg("--attribute"), AGENT), c.cmd_as_of),
    Command("chain", "the drift chain containing FACT_ID, oldest first",
            (TENANT, FACT_ID, AGENT), c.cmd_chain),
    Command("rebuild", "drop every view and replay the log (progress bar)",
            (arg("--quiet", action="store_true", help="no progress bar"),), c.cmd_rebuild),
    Command("export", "write an as-of snapshot to Parquet", (
        arg("path"), arg("--tenant", help="one tenant (default all)"), *AS_OF_TIMES,
    ), c.cmd_export),
    Command("sql", "run SQL over the views (fact_versions, facts_current, ...)",
            (arg("query"),), c.cmd_sql),
)
BY_NAME = {command.name: command for command in COMMANDS}


def global_options() -> tuple[Arg, ...]:
    """Options accepted before or after the command (defaults read from the environment)."""
    return (
        arg("--store", metavar="PATH", default=os.environ.get(STORE_ENV) or "./mem",
            help=f"embedded store folder (default ${STORE_ENV} or ./mem); with --dsn,"
                 " the default views folder"),
        arg("--dsn", default=None,
            help=f"PostgreSQL connection string (or ${DSN_ENV}) for log and keys"),
        arg("--views", metavar="PATH", default=None,
            help="with --dsn: local folder for the DuckDB views"),
        arg("--schema", default=None, help="with --dsn: PostgreSQL schema (default public)"),
        arg("--key-file", metavar="PATH", default=None,
            help="the master key file (default $MEMORY_ES_KEY_FILE, else <folder>/master.key)"),
        arg("--json", action="store_true", default=False,
            help="print JSON for scripts instead of tables"),
    )


# the parser -----------------------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    """The argparse parser of :data:`COMMANDS`, global options before or after a command."""
    parser = argparse.ArgumentParser(
        prog="memory-es",
        description="Event-sourced, bitemporal fact store for AI-agent memory.",
        epilog="Times are ISO-8601 with a timezone, e.g. 2025-07-01T00:00:00Z. "
               "Exit status: 0 ok, 1 an erasure or audit report that is not clean, 2 user error.")
    common = argparse.ArgumentParser(add_help=False)  # after the command: keep what came before
    for option in global_options():
        parser.add_argument(*option.flags, **option.options)
        common.add_argument(*option.flags, **{**option.options, "default": argparse.SUPPRESS})
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in COMMANDS:
        p = sub.add_parser(command.name, parents=[common], help=command.help,
                           description=command.help)
        for a in command.args:
            p.add_argument(*a.flags, **a.options)
    return parser


@contextlib.contextmanager
def opened(args: argparse.Namespace) -> Iterator[MemoryStore]:
    """The store the global options name: an embedded folder, or PostgreSQL with ``--dsn``."""
    dsn = args.dsn or os.environ.get(DSN_ENV) or None
    if dsn:
        views = args.views or args.store
        store = open_store(dsn=dsn, views=views, schema=args.schema, key_file=args.key_file)
    else:
        if args.views or args.schema:
            raise InvalidInput("--views and --schema go with --dsn (PostgreSQL)")
        store = open_store(args.store, key_file=args.key_file)
    try:
        yield store
    finally:
        store.close()


def run(command: Command, args: argparse.Namespace, out: Output) -> int | None:
    if command.handler is not None:
        with opened(args) as store:
            return command.handler(store, args, out)
    if command.bare is not None:
        return command.bare(args, out)
    raise InvalidInput(f"global options do not apply to {command.name}; run: memory-es"
                       f" {command.name} --help")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 1 report not clean, 2 user error)."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    first = BY_NAME.get(arguments[0]) if arguments else None
    if first is not None and first.raw is not None:
        return first.raw(arguments[1:])
    try:
        args = build_parser().parse_args(arguments)
    except SystemExit as e:  # argparse's own exit: --help (0) or a usage error (2)
        return e.code if isinstance(e.code, int) else EXIT_USER_ERROR
    try:
        status = run(BY_NAME[args.command], args, Output(args.json, sys.stdout))
    except MemoryESError as e:
        if args.json:  # scripts get the error's kind and its data, not only a sentence
            detail = {"error": type(e).__name__, "message": str(e)}
            detail.update({name: getattr(e, name) for name in ("score", "issues")
                           if getattr(e, name, None) is not None})
            print(json.dumps(detail, ensure_ascii=False), file=sys.stderr)
        else:
            print(f"memory-es: error: {e}", file=sys.stderr)
        return EXIT_USER_ERROR
    except KeyboardInterrupt:
        print("memory-es: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    return status or 0


if __name__ == "__main__":
    sys.exit(main())
