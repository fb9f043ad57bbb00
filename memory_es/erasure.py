"""Forgetting and erasure that can be proven (SPEC §6, §8).

Purge is crypto-shredding, in this order: append the purge event (ids only) ->
destroy the keys (tombstoned, never re-issued; caches dropped) -> every projection
applies the purge -> each store is compacted so deleted bytes do not linger ->
verification -> a signed deletion receipt chained into the audit log.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from memory_es.application import UnitOfWork
from memory_es.clock import from_micros, to_micros
from memory_es.crypto.keystore import chain_key_id, entity_key_id
from memory_es.crypto.mapper import SealingMapper, chain_hash
from memory_es.domain import control
from memory_es.domain.entity import EntityState
from memory_es.domain.events import DeletionReceiptIssued, EntityPurged, FactChainPurged
from memory_es.domain.lifecycle import TERMINAL_STATES
from memory_es.errors import (
    ConfirmationRequired,
    IntegrityViolation,
    InvalidInput,
    NotFound,
)
from memory_es.ids import stream_of
from memory_es.models import (
    AuditReport,
    DeletionReceipt,
    ErasureReport,
    Preview,
    Receipt,
    StoreCheck,
)
from projections.erasure import exports_residue, versions_residue

if TYPE_CHECKING:
    from memory_es.store import MemoryStore

OPERATIONS = ("purge", "forget_entity", "forget_fact", "mask", "archive", "erase")
MOTIVES = {
    "user_request": "mask",
    "legal_erasure": "purge",
    "system_cleanup": "archive",
    "security_incident": "forget",
}
IRREVERSIBLE = {
    "purge": ["destroy the entity or chain keys (content unreadable forever)",
              "delete view rows, vectors, keyword postings, cached results",
              "rewrite every store file so deleted bytes do not linger"],
    "forget": ["state becomes 'forgotten' (terminal: never retrievable again)",
               "derived facts are invalidated"],
    "mask": [],
    "archive": [],
}
CLEAR_TOPICS = frozenset({
    "memory_es.EntityPurged.v1", "memory_es.FactChainPurged.v1",
    "memory_es.WriteAcknowledged.v1", "memory_es.AttributeDefined.v1",
    "memory_es.DeletionReceiptIssued.v1", "memory_es.ConsumptionRecorded.v1",
})
"""Topics stored in clear: by construction they hold ids and counts, no personal data."""


class Erasable(Protocol):
    """A read model that holds fact content and can prove it let go of some."""

    name: str

    def residue(self, fact_ids: list[str]) -> StoreCheck: ...


@dataclass
class Scope:
    tenant: str
    stream_id: str
    entity: str | None
    chain_id: str | None
    fact_ids: list[str]
    derived: list[str]
    version: int


def canonical_json(data: Any) -> bytes:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


class ErasureService:
    """Preview, purge, erase, verify and audit over one store."""

    def __init__(self, store: MemoryStore) -> None:
        self.store = store
        self.ws = store._ws
        self.keys = store._ws.keys
        self._signer = Ed25519PrivateKey.from_private_bytes(self.keys.master.signing_seed())
        self.public_key = self._signer.public_key().public_bytes_raw().hex()

    # scope & preview ----------------------------------------------------------------------

    def scope(self, tenant: str, entity: str | None, fact_id: str | None) -> Scope:
        if fact_id is not None:
            sid = stream_of(fact_id)
        elif entity is not None:
            found = self.ws.entity_stream(tenant, entity, create=False)
            if found is None:
                raise NotFound("no such entity in this tenant")
            sid = found[0]
        else:
            raise InvalidInput("name an entity or a fact_id")
        st = self.ws.load(sid)
        if st.tenant not in (None, tenant) or (not st.facts and fact_id is not None):
            raise NotFound("no such fact in this tenant")
        if entity is not None and fact_id is None and st.entity is None and not st.facts:
            raise NotFound("no such entity in this tenant (already purged?)")
        chain_id = None
        if fact_id is not None:
            fact = st.get(fact_id)
            if fact is None:
                raise NotFound(f"fact {fact_id} not found")
            chain_id = fact.chain_id
            ids = [f.fact_id for f in st.facts.values() if f.chain_id == chain_id]
        else:
            ids = list(st.facts)
        inside = set(ids)
        derived = sorted({d for f in ids for d in st.facts[f].dependents if d not in inside
                          and self._alive(d)})
        return Scope(tenant, sid, st.entity, chain_id, ids, derived, st.version)

    def _alive(self, fact_id: str) -> bool:
        fact = self.ws.load(stream_of(fact_id)).get(fact_id)
        return fact is not None and fact.state not in TERMINAL_STATES

    def _token(self, op: str, scope: Scope) -> str:
        digest = self.keys.master.digest(
            "preview", op, scope.tenant, scope.stream_id, scope.chain_id or "",
            str(scope.version), ",".join(sorted(scope.fact_ids)))
        return digest.hex()[:32]

    def preview(self, op: str, tenant: str, entity: str | None = None,
                fact_id: str | None = None, motive: str | None = None) -> Preview:
        if op not in OPERATIONS:
            raise InvalidInput(f"op must be one of {', '.join(OPERATIONS)}")
        effect = self._effect(op, motive)
        with self.store._lock:
            self.store.catch_up()
            scope = self.scope(tenant, entity, fact_id)
            exports = [r[0] for r in self.store._con.execute("SELECT path FROM exports")
                       .fetchall()]
        reasons = []
        if effect == "purge" and scope.derived:
            reasons.append(f"{len(scope.derived)} derived fact(s) outside the purge depend on it")
        return Preview(
            op=op, tenant=tenant, token=self._token(op, scope), facts=scope.fact_ids,
            derived=scope.derived, stores=self.store_names(),
            caches=["write-side aggregate cache", "key cache", "recall results"],
            exports=exports, irreversible=IRREVERSIBLE[effect], high_risk=bool(reasons),
            reasons=reasons)

    def store_names(self) -> list[str]:
        names = ["event_log", "key_store", "duckdb_views"]
        names += [e.name for e in self.store._erasables]
        return [*names, "caches", "exports"]

    @staticmethod
    def _effect(op: str, motive: str | None) -> str:
        if op == "erase":
            if motive not in MOTIVES:
                raise InvalidInput(f"motive must be one of {', '.join(MOTIVES)}")
            return MOTIVES[motive]
        return {"forget_entity": "forget", "forget_fact": "forget"}.get(op, op)

    # purge --------------------------------------------------------------------------------

    def purge(self, tenant: str, entity: str | None, fact_id: str | None, *,
              confirm: str | None, motive: str | None, requested_by: str | None,
              op: str = "purge") -> DeletionReceipt:
        store = self.store
        t0 = time.perf_counter()
        with store._lock:
            store._check_open()
            store.catch_up()
            scope = self.scope(tenant, entity, fact_id)
            if scope.derived:
                expected = self._token(op, scope)
                if confirm is None or not hmac.compare_digest(confirm, expected):
                    raise ConfirmationRequired(
                        f"purge would leave {len(scope.derived)} derived fact(s) without their"
                        " premise: call preview() and pass confirm=preview.token")
            whole = scope.chain_id is None
            key_ids = (self.keys.keys_of_stream(scope.stream_id) or
                       [entity_key_id(scope.stream_id)]) if whole else [
                chain_key_id(scope.chain_id or "")]
            subject = self.keys.master.digest("subject", tenant, scope.entity or "").hex()
            uow = UnitOfWork(self.ws, store._clock.tick())
            try:
                st = uow.state(scope.stream_id)
                event = (EntityPurged(tenant=tenant, fact_ids=tuple(scope.fact_ids),
                                      key_ids=tuple(key_ids), motive=motive)
                         if whole else
                         FactChainPurged(tenant=tenant, chain_id=scope.chain_id or "",
                                         fact_ids=tuple(scope.fact_ids), key_ids=tuple(key_ids),
                                         motive=motive))
                first = uow.emit(st, event)
                for dependent in scope.derived:
                    dst = uow.state(stream_of(dependent))
                    uow.emit_all(dst, control.decide_deprecate(dst, dependent, "purged premise"))
                receipt = uow.receipt(op, tenant, first, scope.fact_ids)
                self.keys.mark_pending(scope.stream_id, st.version, key_ids, whole)
            except BaseException:
                self.ws.discard(uow)
                raise
            committed = self.ws.commit(uow)[0]
            t_event = time.perf_counter()
            self._shred(scope.stream_id, st.version, key_ids, whole)
            self.ws.forget_cached([scope.stream_id])
            t_shred = time.perf_counter()
            store.catch_up()
            store._regenerate_exports()
            t_project = time.perf_counter()
            store._compact()
            t_compact = time.perf_counter()
            report = self.verify_scope(scope.stream_id, scope.fact_ids, key_ids, whole,
                                       committed.recorded_at)
            t_verify = time.perf_counter()
            timings = {"append_ms": (t_event - t0) * 1e3, "shred_ms": (t_shred - t_event) * 1e3,
                       "projection_ms": (t_project - t_shred) * 1e3,
                       "compaction_ms": (t_compact - t_project) * 1e3,
                       "verify_ms": (t_verify - t_compact) * 1e3}
            return self._issue(committed, receipt.op, motive, requested_by, subject,
                               scope.stream_id, scope.chain_id, key_ids, len(scope.fact_ids),
                               report, timings)

    def _shred(self, stream_id: str, version: int, key_ids: list[str], whole: bool) -> None:
        self.keys.shred(key_ids, stream_id, unlink_names=whole)
        self.keys.clear_pending(stream_id, version)

    def finish_pending(self) -> None:
        """Complete shreddings whose purge event committed before a crash."""
        for stream_id, version, key_ids, whole in self.keys.pending():
            events = self.ws.log.recorder.select_events(stream_id, gt=version - 1, lte=version)
            if events and events[0].topic in (EntityPurged.TOPIC, FactChainPurged.TOPIC):
                self._shred(stream_id, version, key_ids, whole)
            else:
                self.keys.clear_pending(stream_id, version)

    # receipts & audit chain ---------------------------------------------------------------

    def _audit_state(self) -> tuple[EntityState, UnitOfWork]:
        uow = UnitOfWork(self.ws, self.store._clock.tick())
        return uow.state(self.ws.system_stream("audit", "*")), uow

    def _issue(self, committed: Receipt, op: str, motive: str | None,
               requested_by: str | None, subject: str, stream_id: str, chain_id: str | None,
               key_ids: list[str], fact_count: int, report: ErasureReport | None,
               timings: dict[str, float], effect: str = "purge") -> DeletionReceipt:
        st, uow = self._audit_state()
        prev = self._last_receipt(st)
        receipt_id = f"{st.stream_id}:{st.version + 1}"
        if report is not None:  # the report names the receipt it proves, as verify's does
            report = report.model_copy(update={"receipt_id": receipt_id})
        body: dict[str, Any] = {
            **committed.model_dump(mode="json"),
            "receipt_id": receipt_id,
            "op": op, "motive": motive, "requested_by": requested_by, "subject": subject,
            "stream_id": stream_id, "chain_id": chain_id, "key_ids": key_ids,
            "fact_count": fact_count, "stores": self.store_names(),
            "residue_digest": hashlib.sha256(canonical_json(
                report.model_dump(mode="json") if report else {})).hexdigest(),
            "seq": (prev["seq"] + 1) if prev else 1,
            "prev_hash": prev["hash"] if prev else "",
            "public_key": self.public_key,
        }
        body["effect"] = effect
        digest = hashlib.sha256(canonical_json(body)).hexdigest()
        body["hash"] = digest
        body["signature"] = self._signer.sign(digest.encode()).hex()
        try:
            uow.emit(st, DeletionReceiptIssued(tenant=committed.tenant or "*", receipt=body))
        except BaseException:
            self.ws.discard(uow)
            raise
        self.ws.commit(uow)
        return DeletionReceipt.model_validate({**body, "report": report, "timings_ms": timings})

    def _last_receipt(self, st: EntityState) -> dict[str, Any] | None:
        if st.version == 0:
            return None
        last = self.ws.log.recorder.select_events(st.stream_id, desc=True, limit=1)
        body = self.ws.mapper.open(last[0]).body
        return None if body is None else dict(body["receipt"])

    def receipts(self) -> list[dict[str, Any]]:
        sid = self.keys.lookup("audit", "*")
        if sid is None:
            return []
        return [dict((self.ws.mapper.open(e).body or {})["receipt"])
                for e in self.ws.log.recorder.select_events(sid)]

    def audit_verify(self) -> AuditReport:
        """Recompute every stream's hash chain over stored ciphertext and the receipt chain."""
        problems: list[str] = []
        recorder = self.ws.log.recorder
        mapper: SealingMapper = self.ws.mapper
        heads: dict[str, tuple[int, bytes]] = {}
        checked = authenticated = shredded = 0
        last_id = 0
        position = 0
        while True:
            notes = recorder.select_notifications(start=position + 1, limit=5000)
            if not notes:
                break
            for n in notes:
                if n.id != last_id + 1:
                    problems.append(f"log positions {last_id + 1}..{n.id - 1} are missing")
                last_id = n.id
                sid = str(n.originator_id)
                version, running = heads.get(sid, (0, b""))
                try:
                    _, prev, kid, _ = mapper.header(n)
                except Exception:  # a mangled header is a finding, not a crash
                    problems.append(f"{sid}:{n.originator_version}: unreadable header")
                    continue
                if n.originator_version != version + 1:
                    problems.append(f"{sid}: version {version + 1} missing "
                                    f"(found {n.originator_version})")
                if prev != (running or bytes(32)):
                    problems.append(f"{sid}:{n.originator_version}: hash chain broken")
                if kid:
                    try:
                        body = mapper.open(n).body
                    except IntegrityViolation:
                        problems.append(f"{sid}:{n.originator_version}: ciphertext altered")
                    else:
                        if body is None:
                            shredded += 1
                        else:
                            authenticated += 1
                elif n.topic not in CLEAR_TOPICS:
                    problems.append(f"{sid}:{n.originator_version}: unsealed {n.topic}")
                heads[sid] = (n.originator_version, chain_hash(running, n))
                checked += 1
            position = notes[-1].id
        receipts = self.receipts()
        prev_hash = ""
        public = Ed25519PublicKey.from_public_bytes(bytes.fromhex(self.public_key))
        for i, r in enumerate(receipts, start=1):
            body = {k: v for k, v in r.items() if k not in ("hash", "signature")}
            digest = hashlib.sha256(canonical_json(body)).hexdigest()
            if r.get("seq") != i:
                problems.append(f"receipt {i}: sequence {r.get('seq')} (a receipt is missing)")
            if digest != r.get("hash"):
                problems.append(f"receipt {i}: content does not match its hash")
            if r.get("prev_hash") != prev_hash:
                problems.append(f"receipt {i}: not chained to the previous receipt")
            try:
                public.verify(bytes.fromhex(str(r.get("signature", ""))), digest.encode())
            except (InvalidSignature, ValueError):
                problems.append(f"receipt {i}: signature invalid")
            prev_hash = str(r.get("hash", ""))
        return AuditReport(ok=not problems, events_checked=checked, streams_checked=len(heads),
                           authenticated=authenticated, shredded=shredded,
                           receipts_checked=len(receipts), problems=problems)

    # verification -------------------------------------------------------------------------

    def verify(self, receipt: DeletionReceipt | Receipt | dict[str, Any]) -> ErasureReport:
        data = receipt if isinstance(receipt, dict) else receipt.model_dump(mode="json")
        if "stream_id" not in data or "key_ids" not in data:
            raise InvalidInput("verify_erasure takes the DeletionReceipt that purge returned")
        match = [r for r in self.receipts() if r.get("receipt_id") == data.get("receipt_id")]
        if not match:
            raise NotFound("no such receipt in the audit log")
        r = match[0]
        if r.get("effect", "purge") != "purge":
            with self.store._lock:
                self.store.catch_up()
                return self.verify_layer(r["effect"], list(r["fact_ids"]), r["receipt_id"])
        whole = r.get("chain_id") is None
        with self.store._lock:
            self.store.catch_up()
            fact_ids = self._purged_fact_ids(r["stream_id"], r.get("chain_id"))
            return self.verify_scope(r["stream_id"], fact_ids, list(r["key_ids"]), whole,
                                     r["recorded_at"], receipt_id=r["receipt_id"])

    def _purged_fact_ids(self, stream_id: str, chain_id: str | None) -> list[str]:
        for stored in self.ws.log.recorder.select_events(stream_id, desc=True):
            if stored.topic in (EntityPurged.TOPIC, FactChainPurged.TOPIC):
                body = self.ws.mapper.open(stored).body or {}
                if chain_id is None or body.get("chain_id") == chain_id:
                    return list(body.get("fact_ids", ()))
        return []

    def verify_scope(self, stream_id: str, fact_ids: list[str], key_ids: list[str],
                     whole: bool, recorded_at: datetime | str,
                     receipt_id: str | None = None) -> ErasureReport:
        if isinstance(recorded_at, str):
            recorded_at = datetime.fromisoformat(recorded_at)
        purged_at = to_micros(recorded_at)
        store = self.store
        checks = [self._log_residue(stream_id, key_ids, whole), self._key_residue(
            stream_id, key_ids, whole),
            versions_residue(store._con, fact_ids, store._rewritten_after(purged_at))]
        checks += [e.residue(fact_ids) for e in store._erasables]
        cached = self.keys.cached(key_ids)
        in_cache = stream_id in self.ws._cache and any(
            f in self.ws._cache[stream_id].facts for f in fact_ids)
        checks.append(StoreCheck(
            name="caches", method="inspect the key cache and the write-side aggregate cache",
            result="residue" if cached or in_cache else "clean",
            checked=["key cache", "aggregate cache"],
            residues=cached + ([stream_id] if in_cache else [])))
        checks.append(exports_residue(store._con, fact_ids, purged_at))
        complete = all(c.result == "clean" for c in checks)
        return ErasureReport(receipt_id=receipt_id, complete=complete, stores=checks,
                             checked_at=from_micros(store._clock.now()))

    def verify_layer(self, effect: str, fact_ids: list[str],
                     receipt_id: str | None = None) -> ErasureReport:
        """For mask, archive and forget: every view shows the layer's effect on every fact."""
        expected = {"mask": "masked", "archive": "archived", "forget": "forgotten"}[effect]
        rows = self.store._con.execute(
            "SELECT fact_id, bool_and(masked), min(present_state), count(*) FROM fact_versions "
            "WHERE fact_id IN (SELECT unnest(?::VARCHAR[])) GROUP BY fact_id",
            [fact_ids]).fetchall()
        bad = [r[0] for r in rows if (effect == "mask" and not r[1])
               or (effect != "mask" and r[2] != expected)]
        erasables = [e.residue(fact_ids) for e in self.store._erasables]
        checks = [StoreCheck(
            name="duckdb_views",
            method=f"every version row of the facts is {expected}",
            result="residue" if bad else "clean",
            checked=[f"{len(rows)} facts in fact_versions"], residues=bad), *erasables]
        return ErasureReport(receipt_id=receipt_id, complete=all(c.result == "clean"
                                                                 for c in checks),
                             stores=checks, checked_at=from_micros(self.store._clock.now()))

    def issue_layer(self, receipts: list[Receipt], effect: str, motive: str,
                    requested_by: str | None, tenant: str, entity: str | None,
                    stream_id: str) -> DeletionReceipt:
        """The deletion receipt of a reversible or soft layer (mask, archive, forget)."""
        fact_ids = sorted({f for r in receipts for f in r.fact_ids})
        committed = receipts[0].model_copy(update={"fact_ids": fact_ids,
                                                   "fact_id": fact_ids[0] if fact_ids else None})
        subject = self.keys.master.digest("subject", tenant, entity or "").hex()
        # The read models dropped the facts' entries; rewrite their files too, or the
        # masked (or forgotten) content lingers on disk until the next checkpoint.
        for erasable in self.store._erasables:
            compact = getattr(erasable, "compact", None)
            if compact is not None:
                compact()
        report = self.verify_layer(effect, fact_ids)
        return self._issue(committed, "erase", motive, requested_by, subject, stream_id, None,
                           [], len(fact_ids), report, {}, effect=effect)

    def _log_residue(self, stream_id: str, key_ids: list[str], whole: bool) -> StoreCheck:
        """Every event of the stream that held content must be sealed under a destroyed key."""
        residues: list[str] = []
        shredded_keys = set(key_ids)
        events = self.ws.log.recorder.select_events(stream_id)
        for stored in events:
            _, _, kid, _ = self.ws.mapper.header(stored)
            where = f"{stream_id}:{stored.originator_version}"
            if not kid:
                if stored.topic not in CLEAR_TOPICS:
                    residues.append(f"{where} stored in clear")
                continue
            if (whole or kid in shredded_keys) and not self.keys.is_shredded(kid):
                residues.append(f"{where} sealed under live key {kid}")
        pending = [f"finish shredding {k}" for k in key_ids if not self.keys.is_shredded(k)]
        return StoreCheck(
            name="event_log",
            method="read every event of the stream: each is ciphertext under a destroyed key "
                   "or a clear record of ids only; WAL truncated",
            result="residue" if residues else ("pending" if pending else "clean"),
            checked=[f"{len(events)} events of stream {stream_id}"],
            residues=residues, pending=pending)

    def _key_residue(self, stream_id: str, key_ids: list[str], whole: bool) -> StoreCheck:
        live = [k for k in key_ids if not self.keys.is_shredded(k)]
        live += [k for k in self.keys.keys_of_stream(stream_id) if whole and k not in live]
        names = self.keys.names_of_stream(stream_id) if whole else 0
        residues = live + ([f"{names} natural-key lookup row(s)"] if names else [])
        return StoreCheck(
            name="key_store",
            method="look up the destroyed key ids, their tombstones and the natural-key rows; "
                   "secure_delete on and the file vacuumed",
            result="residue" if residues else "clean",
            checked=[*key_ids, "natural-key rows" if whole else "chain key only"],
            residues=residues)


def route(motive: str) -> str:
    if motive not in MOTIVES:
        raise InvalidInput(f"motive must be one of {', '.join(MOTIVES)}")
    return MOTIVES[motive]
