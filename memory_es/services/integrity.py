"""Tamper evidence: the log's hash chains, the receipt chain, and signed head anchors.

``audit_verify`` recomputes every stream's chain over the stored ciphertext (so a purge
never breaks it), checks the deletion-receipt chain and its signatures, that every
purge has its receipt and that no key a purge destroyed is back, and, given an
:class:`~memory_es.models.Anchor` the user kept outside the store, that nothing at or
before that head is missing (truncation or rollback of the newest records).
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from memory_es.clock import from_micros
from memory_es.crypto.mapper import chain_hash
from memory_es.domain.events import CLEAR_TOPICS, EntityPurged, FactChainPurged
from memory_es.errors import IntegrityViolation, InvalidInput
from memory_es.faults import storage_faults
from memory_es.models import Anchor, AuditReport
from memory_es.runtime import Runtime
from memory_es.services.receipts import ReceiptChain, canonical_json

BATCH = 5_000
PURGE_TOPICS = frozenset({EntityPurged.TOPIC, FactChainPurged.TOPIC})


@dataclass
class LogScan:
    """What one pass over the whole log found."""

    heads: dict[str, tuple[int, bytes]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    checked: int = 0
    authenticated: int = 0
    shredded: int = 0
    position: int = 0
    purges: list[tuple[str, int, list[str], bool]] = field(default_factory=list)
    """(stream, version, key ids, whole entity) of every purge event."""


def scan_log(rt: Runtime, anchor: Anchor | None = None) -> LogScan:
    """Recompute every stream's hash chain in log order; with ``anchor``, also check each
    anchored stream's chain hash at its anchored version."""
    recorder = rt.log.recorder
    mapper = rt.side.mapper
    scan = LogScan()
    anchored = {} if anchor is None else {s: (v, h) for s, (v, h) in anchor.heads.items()}
    # SQLite's positions are rowids with no gaps; PostgreSQL's come from a sequence, and a
    # writer that lost a race to another leaves a gap. There only the per-stream versions
    # and hash chains (and anchors, for the newest records) say whether an event is gone.
    gapless = rt.log.kind == "sqlite"
    last_id = 0
    while True:
        notes = recorder.select_notifications(start=scan.position + 1, limit=BATCH)
        if not notes:
            break
        for n in notes:
            if gapless and n.id != last_id + 1:
                scan.problems.append(f"log positions {last_id + 1}..{n.id - 1} are missing")
            last_id = n.id
            sid = str(n.originator_id)
            version, running = scan.heads.get(sid, (0, b""))
            try:
                _, prev, kid, _ = mapper.header(n)
            except Exception:  # a mangled header is a finding, not a crash
                scan.problems.append(f"{sid}:{n.originator_version}: unreadable header")
                continue
            if n.originator_version != version + 1:
                scan.problems.append(f"{sid}: version {version + 1} missing "
                                     f"(found {n.originator_version})")
            if prev != (running or bytes(32)):
                scan.problems.append(f"{sid}:{n.originator_version}: hash chain broken")
            body: dict[str, Any] | None = None
            if kid:
                try:
                    body = mapper.open(n).body
                except IntegrityViolation:
                    scan.problems.append(f"{sid}:{n.originator_version}: ciphertext altered")
                else:
                    if body is None:
                        scan.shredded += 1
                    else:
                        scan.authenticated += 1
            elif n.topic not in CLEAR_TOPICS:
                scan.problems.append(f"{sid}:{n.originator_version}: unsealed {n.topic}")
            elif n.topic in PURGE_TOPICS:
                body = mapper.open(n).body or {}
                scan.purges.append((sid, n.originator_version, list(body.get("key_ids", ())),
                                    n.topic == EntityPurged.TOPIC))
            running = chain_hash(running, n)
            scan.heads[sid] = (n.originator_version, running)
            at = anchored.get(sid)
            if at is not None and at[0] == n.originator_version and at[1] != running.hex():
                scan.problems.append(f"{sid}:{n.originator_version}: differs from the anchor")
            scan.checked += 1
        scan.position = notes[-1].id
    return scan


def audit_verify(rt: Runtime, receipts: ReceiptChain,
                 anchor: Anchor | dict[str, Any] | None = None) -> AuditReport:
    """Every check of the module docstring; a bare boolean never: ``problems`` says what."""
    checked_anchor = None if anchor is None else parse_anchor(anchor)
    if checked_anchor is not None:
        check_signature(checked_anchor, receipts)
    scan = scan_log(rt, checked_anchor)
    problems = scan.problems
    chain = receipts.all()
    problems += receipts.problems(chain)
    receipted = {str(r.get("event_id")) for r in chain}
    for sid, version, key_ids, whole in scan.purges:
        if f"{sid}:{version}" not in receipted:
            problems.append(f"{sid}:{version}: a purge without its deletion receipt")
        problems += [f"{sid}: {k} is present although the stream was purged"
                     for k in rt.keys.revived(key_ids, sid, whole=whole)]
    if checked_anchor is not None:
        problems += anchor_problems(checked_anchor, scan, chain)
    return AuditReport(ok=not problems, events_checked=scan.checked,
                       streams_checked=len(scan.heads), authenticated=scan.authenticated,
                       shredded=scan.shredded, receipts_checked=len(chain), problems=problems,
                       reshredded=rt.keys.reshredded(), anchor_checked=checked_anchor is not None)


def anchor_problems(anchor: Anchor, scan: LogScan, chain: list[dict[str, Any]]) -> list[str]:
    """What the log lacks of what the anchor saw."""
    problems = []
    if scan.position < anchor.position:
        problems.append(f"the log ends at position {scan.position}, before the anchor's "
                        f"{anchor.position}: its newest records were removed")
    for sid, (version, _) in anchor.heads.items():
        found = scan.heads.get(sid, (0, b""))[0]
        if found < version:
            problems.append(f"{sid}: versions {found + 1}..{version} missing (anchored)")
    seq, digest = anchor.receipts
    if seq:
        if len(chain) < seq:
            problems.append(f"receipts {len(chain) + 1}..{seq} missing (anchored)")
        elif chain[seq - 1].get("hash") != digest:
            problems.append(f"receipt {seq} differs from the anchor")
    return problems


def make_anchor(rt: Runtime, receipts: ReceiptChain) -> Anchor:
    """Sign the present head of the log and of the receipt chain."""
    scan = scan_log(rt)
    chain = receipts.all()
    last = chain[-1] if chain else {}
    body = Anchor(position=scan.position,
                  heads={sid: (v, h.hex()) for sid, (v, h) in sorted(scan.heads.items())},
                  receipts=(int(last.get("seq", 0)), str(last.get("hash", ""))),
                  at=from_micros(rt.now()), public_key=receipts.public_key)
    return body.model_copy(update={"signature": receipts.sign(anchor_digest(body))})


def write_anchor(rt: Runtime, receipts: ReceiptChain, path: Path) -> Anchor:
    """Anchor now and write it to ``path`` atomically (a temporary file, then a rename)."""
    anchor = make_anchor(rt, receipts)
    tmp = path.with_name(path.name + ".tmp")
    with storage_faults(f"writing the anchor to {path.name}"):
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            tmp.write_text(anchor.model_dump_json(indent=2) + "\n")
            os.replace(tmp, path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
    return anchor


def anchor_digest(anchor: Anchor) -> str:
    return hashlib.sha256(canonical_json(
        anchor.model_dump(mode="json", exclude={"signature"}))).hexdigest()


def parse_anchor(anchor: Anchor | dict[str, Any]) -> Anchor:
    if isinstance(anchor, Anchor):
        return anchor
    if not isinstance(anchor, dict):
        raise InvalidInput("anchor must be an Anchor or its JSON form as a dict")
    try:
        return Anchor.model_validate(anchor)
    except ValueError as e:
        raise InvalidInput("anchor is not a memory-es anchor (fields missing or malformed)"
                           ) from e


def check_signature(anchor: Anchor, receipts: ReceiptChain) -> None:
    """An anchor signed by another store, or edited since, is refused (not 'verified')."""
    if anchor.public_key != receipts.public_key:
        raise IntegrityViolation("the anchor was signed by another store's key")
    public = Ed25519PublicKey.from_public_bytes(bytes.fromhex(anchor.public_key))
    try:
        public.verify(bytes.fromhex(anchor.signature), anchor_digest(anchor).encode())
    except (InvalidSignature, ValueError):
        raise IntegrityViolation("the anchor's signature does not match its content") from None
