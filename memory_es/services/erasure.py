"""Forgetting and erasure that can be proven (SPEC §6, §8).

Purge is crypto-shredding, in this order: append the purge event (ids only) ->
destroy the keys (tombstoned, never re-issued; caches dropped) -> every projection
applies the purge -> each store is compacted so deleted bytes do not linger ->
verification -> a signed deletion receipt chained into the audit log.
"""

from __future__ import annotations

import hmac
import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from memory_es.choices import CheckResult, DestructiveOp, Effect, Motive, State, names
from memory_es.clock import from_micros, to_micros
from memory_es.crypto.keystore import chain_key_id, entity_key_id
from memory_es.domain import commands as c
from memory_es.domain.control import needs_layer
from memory_es.domain.events import CLEAR_TOPICS, EntityPurged, FactChainPurged
from memory_es.domain.lifecycle import TERMINAL_STATES
from memory_es.errors import ConcurrentWriteError, ConfirmationRequired, InvalidInput, NotFound
from memory_es.ids import stream_of
from memory_es.models import DeletionReceipt, ErasureReport, Preview, Receipt, StoreCheck
from memory_es.runtime import REPLICA_TIMEOUT, Runtime
from memory_es.services.notes import summaries_residue
from memory_es.services.receipts import ReceiptChain
from memory_es.write.service import RETRIES

IRREVERSIBLE: dict[Effect, list[str]] = {
    Effect.PURGE: ["destroy the entity or chain keys (content unreadable forever)",
                   "delete view rows, vectors, keyword postings, cached results",
                   "rewrite every store file so deleted bytes do not linger"],
    Effect.FORGET: ["state becomes 'forgotten' (terminal: never retrievable again)",
                    "derived facts are invalidated"],
    Effect.MASK: [],
    Effect.ARCHIVE: [],
}
LAYER_STATE = {Effect.MASK: "masked", Effect.ARCHIVE: State.ARCHIVED,
               Effect.FORGET: State.FORGOTTEN}
"""What every version of a fact shows once a soft or reversible layer applies."""
LAYER_COMMAND: dict[Effect, type[c.FactCommand]] = {
    Effect.MASK: c.Mask, Effect.ARCHIVE: c.Archive, Effect.FORGET: c.ForgetFact}


def parse_motive(motive: str | None) -> Motive:
    if motive not in names(Motive):
        raise InvalidInput(f"motive must be one of {', '.join(names(Motive))}")
    return Motive(motive)


def parse_op(op: str) -> DestructiveOp:
    if op not in names(DestructiveOp):
        raise InvalidInput(f"op must be one of {', '.join(names(DestructiveOp))}")
    return DestructiveOp(op)


@dataclass(frozen=True)
class Scope:
    """What one destructive request reaches: a stream, or one drift chain of it."""

    tenant: str
    stream_id: str
    entity: str | None
    chain_id: str | None
    fact_ids: list[str]
    derived: list[str]
    version: int


class ErasureService:
    """Preview, purge, erase and verify over one runtime."""

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime
        self.receipts = ReceiptChain(runtime)

    # scope & preview ----------------------------------------------------------------------

    def scope(self, tenant: str, entity: str | None, fact_id: str | None) -> Scope:
        side = self.runtime.side
        if fact_id is not None:
            sid = stream_of(fact_id)
        elif entity is not None:
            found = side.entity_stream(tenant, entity, create=False)
            if found is None:
                raise NotFound("no such entity in this tenant")
            sid = found[0]
        else:
            raise InvalidInput("name an entity or a fact_id")
        st = side.load(sid)
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
        fact = self.runtime.side.load(stream_of(fact_id)).get(fact_id)
        return fact is not None and fact.state not in TERMINAL_STATES

    def _token(self, op: DestructiveOp, scope: Scope) -> str:
        digest = self.runtime.keys.digest(
            "preview", op, scope.tenant, scope.stream_id, scope.chain_id or "",
            str(scope.version), ",".join(sorted(scope.fact_ids)))
        return digest.hex()[:32]

    def preview(self, op: str, tenant: str, entity: str | None = None,
                fact_id: str | None = None, motive: str | None = None) -> Preview:
        operation = parse_op(op)
        effect = operation.effect(parse_motive(motive) if operation is DestructiveOp.ERASE
                                  else None)
        rt = self.runtime
        with rt.lock:
            rt.catch_up()
            scope = self.scope(tenant, entity, fact_id)
            exports = rt.views.export_paths()
        reasons = []
        if effect is Effect.PURGE and scope.derived:
            reasons.append(f"{len(scope.derived)} derived fact(s) outside the purge depend on it")
        return Preview(
            op=operation.value, tenant=tenant, token=self._token(operation, scope),
            facts=scope.fact_ids, derived=scope.derived, stores=rt.store_names(),
            caches=["write-side aggregate cache", "key cache", "recall results"],
            exports=exports, irreversible=IRREVERSIBLE[effect], high_risk=bool(reasons),
            reasons=reasons)

    # purge --------------------------------------------------------------------------------

    def purge(self, tenant: str, entity: str | None, fact_id: str | None, *,
              confirm: str | None, motive: str | None, requested_by: str | None,
              op: DestructiveOp = DestructiveOp.PURGE,
              reason: str | None = None, deferred: bool = False) -> DeletionReceipt:
        rt = self.runtime
        t0 = time.perf_counter()
        with rt.lock:
            if deferred:
                rt.defer_compaction()
            scope, key_ids, committed = self._append_purge(
                tenant, entity, fact_id, confirm=confirm, motive=motive, op=op)
            whole = scope.chain_id is None
            version = rt.side.load(scope.stream_id).version
            t_event = time.perf_counter()
            self._shred(scope.stream_id, version, key_ids, whole)
            self.finish_pending()  # pattern chains that drew on it (SPEC §12.6)
            rt.side.forget_cached([scope.stream_id])
            t_shred = time.perf_counter()
            rt.catch_up()  # applies the purge, then (unless deferred) rewrites the files
            rt.views.regenerate_exports(rt.now())
            t_project = time.perf_counter()
            rt.compact_log()
            t_compact = time.perf_counter()
            report = self.verify_scope(scope.stream_id, scope.fact_ids, key_ids, whole,
                                       committed.recorded_at, committed.position)
            t_verify = time.perf_counter()
            timings = {"append_ms": (t_event - t0) * 1e3, "shred_ms": (t_shred - t_event) * 1e3,
                       "projection_ms": (t_project - t_shred) * 1e3,
                       "compaction_ms": (t_compact - t_project) * 1e3,
                       "verify_ms": (t_verify - t_compact) * 1e3}
            return self.receipts.issue(
                committed, committed.op, motive, requested_by,
                self.receipts.subject(tenant, scope.entity), scope.stream_id, scope.chain_id,
                key_ids, len(scope.fact_ids), report, timings, reason=reason)

    def _append_purge(self, tenant: str, entity: str | None, fact_id: str | None, *,
                      confirm: str | None, motive: str | None, op: DestructiveOp
                      ) -> tuple[Scope, list[str], Receipt]:
        """Work out the scope and append the purge event; when another writer appended to
        the stream in between, the scope is worked out again (a preview's token then no
        longer matches, as it should)."""
        rt = self.runtime
        for attempt in range(RETRIES):
            rt.catch_up()
            scope = self.scope(tenant, entity, fact_id)
            if scope.derived:
                expected = self._token(op, scope)
                if confirm is None or not hmac.compare_digest(confirm, expected):
                    raise ConfirmationRequired(
                        f"purge would leave {len(scope.derived)} derived fact(s) without their"
                        " premise: call preview() and pass confirm=preview.token")
            key_ids = ((rt.keys.keys_of_stream(scope.stream_id)
                        or [entity_key_id(scope.stream_id)])
                       if scope.chain_id is None else [chain_key_id(scope.chain_id)])
            try:
                return scope, key_ids, rt.writes.execute(c.PurgeScope(
                    tenant=tenant, stream_id=scope.stream_id, chain_id=scope.chain_id,
                    fact_ids=tuple(scope.fact_ids), key_ids=tuple(key_ids),
                    derived=tuple(scope.derived), motive=motive, op=str(op)))
            except ConcurrentWriteError:
                if attempt == RETRIES - 1:
                    raise
        raise AssertionError("unreachable")

    def _shred(self, stream_id: str, version: int, key_ids: list[str], whole: bool) -> None:
        keys = self.runtime.keys
        keys.shred(key_ids, stream_id, unlink_names=whole, pending_version=version)

    def finish_pending(self) -> None:
        """Complete shreddings whose purge event committed before a crash."""
        rt = self.runtime
        for stream_id, version, key_ids, whole in rt.keys.pending():
            events = rt.log.recorder.select_events(stream_id, gt=version - 1, lte=version)
            if events and events[0].topic in (EntityPurged.TOPIC, FactChainPurged.TOPIC):
                self._shred(stream_id, version, key_ids, whole)
            else:
                rt.keys.clear_pending(stream_id, version)

    # soft and reversible layers -----------------------------------------------------------

    def erase(self, tenant: str, entity: str | None, fact_id: str | None, *, motive: str,
              requested_by: str | None, confirm: str | None,
              reason: str | None = None, deferred: bool = False) -> DeletionReceipt:
        """Route an erasure request by motive (SPEC §6): mask, purge, archive or forget."""
        why = parse_motive(motive)
        effect = why.effect
        if effect is Effect.PURGE:
            return self.purge(tenant, entity, fact_id, confirm=confirm, motive=why.value,
                              requested_by=requested_by, op=DestructiveOp.ERASE, reason=reason,
                              deferred=deferred)
        rt = self.runtime
        why_text = f"erase: {why.value}"
        with rt.lock:
            rt.catch_up()
            scope = self.scope(tenant, entity, fact_id)
            if effect is Effect.FORGET and fact_id is None:
                receipts = [rt.writes.execute(c.ForgetEntity(
                    tenant=tenant, entity=scope.entity or "", reason=why_text))]
            else:
                targets = [fact_id] if fact_id is not None else scope.fact_ids
                live = sorted(f for f in targets
                              if needs_layer(rt.side.load(stream_of(f)).get(f), effect))
                if not live:
                    raise NotFound("nothing left to erase: every fact already has that layer")
                command = LAYER_COMMAND[effect]
                with rt.writes.unit() as staging:
                    for f in live:
                        staging.stage(command(fact_id=f, reason=why_text))
                receipts = staging.receipts
            rt.catch_up()
            return self._issue_layer(receipts, effect, why, requested_by, tenant,
                                     scope.entity, scope.stream_id, reason)

    def _issue_layer(self, receipts: list[Receipt], effect: Effect, motive: Motive,
                     requested_by: str | None, tenant: str, entity: str | None,
                     stream_id: str, reason: str | None) -> DeletionReceipt:
        """The deletion receipt of a reversible or soft layer (mask, archive, forget)."""
        fact_ids = sorted({f for r in receipts for f in r.fact_ids})
        committed = receipts[0].model_copy(update={"fact_ids": fact_ids,
                                                   "fact_id": fact_ids[0] if fact_ids else None})
        # The read models dropped the facts' entries; rewrite their files too, or the
        # masked (or forgotten) content lingers on disk until the next checkpoint.
        self.runtime.compact_read_models()
        report = self.verify_layer(effect, fact_ids)
        return self.receipts.issue(committed, DestructiveOp.ERASE.value, motive.value,
                                   requested_by,
                                   self.receipts.subject(tenant, entity), stream_id, None, [],
                                   len(fact_ids), report, {}, effect=effect, reason=reason)

    # verification -------------------------------------------------------------------------

    def verify(self, receipt: DeletionReceipt | Receipt | dict[str, Any]) -> ErasureReport:
        if not isinstance(receipt, DeletionReceipt | Receipt | dict):
            raise InvalidInput("verify_erasure takes the DeletionReceipt that purge or erase "
                               f"returned (or its JSON form), not {type(receipt).__name__}")
        data = receipt if isinstance(receipt, dict) else receipt.model_dump(mode="json")
        if "stream_id" not in data or "key_ids" not in data:
            raise InvalidInput("verify_erasure takes the DeletionReceipt that purge returned")
        match = [r for r in self.receipts.all() if r.get("receipt_id") == data.get("receipt_id")]
        if not match:
            raise NotFound("no such receipt in the audit log")
        r = match[0]
        rt = self.runtime
        with rt.lock:
            rt.catch_up()
            if r.get("effect", Effect.PURGE) != Effect.PURGE:
                return self.verify_layer(Effect(r["effect"]), list(r["fact_ids"]),
                                         r["receipt_id"])
            fact_ids = self._purged_fact_ids(r["stream_id"], r.get("chain_id"))
            return self.verify_scope(r["stream_id"], fact_ids, list(r["key_ids"]),
                                     r.get("chain_id") is None, r["recorded_at"],
                                     int(r.get("position") or 0), receipt_id=r["receipt_id"])

    def _purged_fact_ids(self, stream_id: str, chain_id: str | None) -> list[str]:
        rt = self.runtime
        for stored in rt.log.recorder.select_events(stream_id, desc=True):
            if stored.topic in (EntityPurged.TOPIC, FactChainPurged.TOPIC):
                body = rt.side.mapper.open(stored).body or {}
                if chain_id is None or body.get("chain_id") == chain_id:
                    return list(body.get("fact_ids", ()))
        return []

    def verify_scope(self, stream_id: str, fact_ids: list[str], key_ids: list[str],
                     whole: bool, recorded_at: datetime | str, position: int,
                     receipt_id: str | None = None) -> ErasureReport:
        if isinstance(recorded_at, str):
            recorded_at = datetime.fromisoformat(recorded_at)
        purged_at = to_micros(recorded_at)
        rt = self.runtime
        checks = [self._log_residue(stream_id, key_ids, whole),
                  self._key_residue(stream_id, key_ids, whole),
                  rt.views.versions_residue(fact_ids, purged_at),
                  rt.views.points_residue(fact_ids)]
        checks += [e.residue(fact_ids) for e in rt.erasables]
        cached = rt.keys.cached(key_ids)
        in_cache = rt.side.caches_facts(stream_id, fact_ids)
        checks.append(StoreCheck(
            name="caches", method="inspect the key cache and the write-side aggregate cache",
            result=CheckResult.RESIDUE if cached or in_cache else CheckResult.CLEAN,
            checked=["key cache", "aggregate cache"],
            residues=cached + ([stream_id] if in_cache else [])))
        checks.append(rt.views.exports_residue(fact_ids, purged_at))
        checks.append(summaries_residue(rt, fact_ids))  # SPEC §12.6
        checks.append(rt.views.leftovers_residue())
        checks += self._replica_checks(position)
        return ErasureReport(receipt_id=receipt_id, complete=_complete(checks), stores=checks,
                             checked_at=from_micros(rt.now()))

    def _replica_checks(self, position: int) -> list[StoreCheck]:
        """One entry per registered replica and read model: clean once the replica has
        applied the purge at ``position`` and rewritten its files; ``unreachable`` when
        its heartbeat is older than the timeout; ``pending`` otherwise."""
        rt = self.runtime
        now_us = time.time_ns() // 1000
        checks = []
        for row in rt.keys.replicas():
            replica_id, views, host, applied, compacted, beat = row
            if replica_id == rt.replica_id:  # this process knows its own state first-hand
                applied, compacted, beat = rt.views.position(), rt.compacted, now_us
            silent = (now_us - beat) / 1e6
            if compacted >= position:
                result, pending = CheckResult.CLEAN, []
            elif silent > REPLICA_TIMEOUT:
                result = CheckResult.UNREACHABLE
                pending = [f"no heartbeat for {silent:.0f} s (timeout {REPLICA_TIMEOUT:.0f} s)"]
            else:
                result = CheckResult.PENDING
                pending = [f"apply and compact log position {position} (applied {applied}, "
                           f"compacted {compacted})"]
            for store in ("duckdb_views", rt.views.points.name, *(e.name for e in rt.erasables)):
                checks.append(StoreCheck(
                    name=f"{store}@{replica_id}",
                    method="the replica registry: the replica's applied and compacted log "
                           "positions and its heartbeat",
                    result=result, checked=[f"{views} on {host}"], pending=pending))
        return checks

    def verify_layer(self, effect: Effect, fact_ids: list[str],
                     receipt_id: str | None = None) -> ErasureReport:
        """For mask, archive and forget: every view shows the layer's effect on every fact."""
        rt = self.runtime
        expected = LAYER_STATE[effect]
        rows = rt.views.layer_rows(fact_ids)
        bad = [fid for fid, masked, state, _ in rows
               if (effect is Effect.MASK and not masked)
               or (effect is not Effect.MASK and state != expected)]
        checks = [StoreCheck(
            name="duckdb_views",
            method=f"every version row of the facts is {expected}",
            result=CheckResult.RESIDUE if bad else CheckResult.CLEAN,
            checked=[f"{len(rows)} facts in fact_versions"], residues=bad),
            rt.views.points.layer_residue(fact_ids, masked=effect is Effect.MASK,
                                          state=None if effect is Effect.MASK else expected),
            *(e.residue(fact_ids) for e in rt.erasables)]
        return ErasureReport(receipt_id=receipt_id, complete=_complete(checks), stores=checks,
                             checked_at=from_micros(rt.now()))

    def _log_residue(self, stream_id: str, key_ids: list[str], whole: bool) -> StoreCheck:
        """Every event of the stream that held content must be sealed under a destroyed key."""
        rt = self.runtime
        residues: list[str] = []
        shredded_keys = set(key_ids)
        events = rt.log.recorder.select_events(stream_id)
        for stored in events:
            _, _, kid, _ = rt.side.mapper.header(stored)
            where = f"{stream_id}:{stored.originator_version}"
            if not kid:
                if stored.topic not in CLEAR_TOPICS:
                    residues.append(f"{where} stored in clear")
                continue
            if (whole or kid in shredded_keys) and not rt.keys.is_shredded(kid):
                residues.append(f"{where} sealed under live key {kid}")
        pending = [f"finish shredding {k}" for k in key_ids if not rt.keys.is_shredded(k)]
        return StoreCheck(
            name="event_log",
            method="read every event of the stream: each is ciphertext under a destroyed key "
                   "or a clear record of ids only; WAL truncated",
            result=CheckResult.verdict(residues, pending),
            checked=[f"{len(events)} events of stream {stream_id}"],
            residues=residues, pending=pending)

    def _key_residue(self, stream_id: str, key_ids: list[str], whole: bool) -> StoreCheck:
        keys = self.runtime.keys
        live = [k for k in key_ids if not keys.is_shredded(k)]
        live += [k for k in keys.keys_of_stream(stream_id) if whole and k not in live]
        names_left = keys.names_of_stream(stream_id) if whole else 0
        residues = live + ([f"{names_left} natural-key lookup row(s)"] if names_left else [])
        return StoreCheck(
            name="key_store",
            method="look up the destroyed key ids, their tombstones and the natural-key rows; "
                   "secure_delete on and the file vacuumed",
            result=CheckResult.RESIDUE if residues else CheckResult.CLEAN,
            checked=[*key_ids, "natural-key rows" if whole else "chain key only"],
            residues=residues)


def _complete(checks: list[StoreCheck]) -> bool:
    return all(check.result == CheckResult.CLEAN for check in checks)
