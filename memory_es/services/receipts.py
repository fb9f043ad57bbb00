"""Deletion receipts: a signed, hash-chained audit log of every destructive operation.

A receipt holds ids, digests and counts, never personal data: the subject appears only
as a keyed-hash commitment. Each receipt names the hash of the one before it and is
signed with a key derived from the master key, so removing or editing one is visible.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from memory_es.choices import Effect
from memory_es.domain.commands import IssueDeletionReceipt
from memory_es.models import DeletionReceipt, ErasureReport, Receipt
from memory_es.runtime import Runtime

UNSIGNED = ("hash", "signature")


def canonical_json(data: Any) -> bytes:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


class ReceiptChain:
    """Issues, lists and checks the deletion receipts of one store."""

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime
        self._signer = Ed25519PrivateKey.from_private_bytes(
            runtime.keys.signing_seed())
        self.public_key = self._signer.public_key().public_bytes_raw().hex()

    def sign(self, digest: str) -> str:
        return self._signer.sign(digest.encode()).hex()

    def subject(self, tenant: str, entity: str | None) -> str:
        """The keyed-hash commitment a receipt holds instead of the entity's id."""
        return self.runtime.keys.digest("subject", tenant, entity or "").hex()

    def all(self) -> list[dict[str, Any]]:
        """Every receipt, oldest first."""
        rt = self.runtime
        sid = rt.keys.lookup("audit", "*")
        if sid is None:
            return []
        return [dict((rt.side.mapper.open(e).body or {})["receipt"])
                for e in rt.log.recorder.select_events(sid)]

    def _last(self) -> dict[str, Any] | None:
        rt = self.runtime
        sid = rt.keys.lookup("audit", "*")
        if sid is None:
            return None
        last = rt.log.recorder.select_events(sid, desc=True, limit=1)
        if not last:
            return None
        body = rt.side.mapper.open(last[0]).body
        return None if body is None else dict(body["receipt"])

    def issue(self, committed: Receipt, op: str, motive: str | None,
              requested_by: str | None, subject: str, stream_id: str, chain_id: str | None,
              key_ids: list[str], fact_count: int, report: ErasureReport | None,
              timings: dict[str, float], effect: Effect = Effect.PURGE,
              reason: str | None = None) -> DeletionReceipt:
        """Sign and append the receipt of a committed destructive operation."""
        rt = self.runtime
        with rt.lock:
            prev = self._last()
            seq = (prev["seq"] + 1) if prev else 1
            audit_sid = rt.side.system_stream("audit", "*")
            receipt_id = f"{audit_sid}:{rt.side.load(audit_sid).version + 1}"
            if report is not None:  # the report names the receipt it proves, as verify's does
                report = report.model_copy(update={"receipt_id": receipt_id})
            body: dict[str, Any] = {
                **committed.model_dump(mode="json"),
                "receipt_id": receipt_id,
                "op": op, "motive": motive, "requested_by": requested_by, "subject": subject,
                "stream_id": stream_id, "chain_id": chain_id, "key_ids": key_ids,
                "fact_count": fact_count, "stores": rt.store_names(),
                "residue_digest": hashlib.sha256(canonical_json(
                    report.model_dump(mode="json") if report else {})).hexdigest(),
                "seq": seq,
                "prev_hash": prev["hash"] if prev else "",
                "public_key": self.public_key,
                "effect": str(effect),
            }
            if reason is not None:  # absent, not null, so older receipts hash the same
                body["reason"] = reason
            digest = hashlib.sha256(canonical_json(body)).hexdigest()
            body["hash"] = digest
            body["signature"] = self.sign(digest)
            rt.writes.execute(IssueDeletionReceipt(tenant=committed.tenant or "*",
                                                   receipt=body))
        return DeletionReceipt.model_validate({**body, "report": report, "timings_ms": timings})

    def problems(self, receipts: list[dict[str, Any]]) -> list[str]:
        """What is wrong with the chain: gaps, edits, broken links, bad signatures."""
        problems: list[str] = []
        prev_hash = ""
        public = Ed25519PublicKey.from_public_bytes(bytes.fromhex(self.public_key))
        for i, r in enumerate(receipts, start=1):
            body = {k: v for k, v in r.items() if k not in UNSIGNED}
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
        return problems
