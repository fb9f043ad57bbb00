"""What the store hands back: receipts, facts, hits and reports (pydantic models)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from memory_es import _html
from memory_es.choices import CheckResult


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Receipt(_Model):
    """Durable proof that a write committed: where it is in the log and when."""

    op: str = Field(description="operation name, e.g. 'assert_fact'")
    tenant: str | None = None
    event_id: str = Field(description="'<stream id>:<version>' of the operation's main event")
    event_ids: list[str] = Field(default_factory=list, description="every event it appended")
    fact_id: str | None = Field(default=None, description="the fact written or touched first")
    fact_ids: list[str] = Field(default_factory=list, description="every fact it wrote or touched")
    position: int = Field(description="global log position of the main event")
    recorded_at: datetime = Field(description="transaction time of the commit (UTC)")
    conflict_id: str | None = Field(default=None,
                                    description="set when the write opened a conflict")
    outcome: str = Field(default="applied",
                         description="applied | reinforced | conflicted | noop")
    idempotent_replay: bool = Field(
        default=False, description="true when an earlier write with the same key is returned")


_STAGED_FIELDS = frozenset({"op", "tenant", "event_id", "event_ids", "fact_id", "fact_ids",
                            "position", "recorded_at", "outcome", "conflict_id"})
_set_slot = object.__setattr__


def staged_receipt(op: str, tenant: str | None, event_id: str, fact_ids: list[str],
                   recorded_at: datetime, outcome: str, conflict_id: str | None,
                   position: int = 0, event_ids: list[str] | None = None) -> Receipt:
    """``Receipt(op=..., event_ids=[event_id], fact_id=fact_ids[0] ..., position=0, ...)``
    as the unit of work stages one for every operation, without pydantic's validation:
    every field here comes from the write path itself (strings it made, the commit's aware
    time), not from a caller, and validating them was about 3.5 of a batched fact's
    ~60 us. Equal to the validated receipt, field set included
    (``tests/unit/test_fast_assert.py``). With ``position`` and ``event_ids``: the committed
    receipt, equal to the staged one's ``model_copy`` with those two updated."""
    receipt = object.__new__(Receipt)
    _set_slot(receipt, "__dict__", {
        "op": op, "tenant": tenant, "event_id": event_id,
        "event_ids": [event_id] if event_ids is None else event_ids,
        "fact_id": fact_ids[0] if fact_ids else None, "fact_ids": fact_ids, "position": position,
        "recorded_at": recorded_at, "conflict_id": conflict_id, "outcome": str(outcome),
        "idempotent_replay": False})
    _set_slot(receipt, "__pydantic_fields_set__", set(_STAGED_FIELDS))
    _set_slot(receipt, "__pydantic_extra__", None)
    _set_slot(receipt, "__pydantic_private__", None)
    return receipt


class Fact(_Model):
    """One bitemporal version of a fact (SPEC §3)."""

    fact_id: str
    version_id: str
    tenant: str
    entity: str | None
    mention: str | None = None
    attribute: str
    value: Any
    negated: bool = Field(default=False, description="a denial: the slot does not hold "
                          "``value`` (\"does not live in Oslo\")")
    text: str
    valid_from: datetime
    valid_until: datetime | None
    recorded_at: datetime
    recorded_until: datetime | None
    supersedes: list[str] = Field(default_factory=list)
    superseded_by: str | None = None
    derived_from: list[str] = Field(default_factory=list)
    source: str | None = None
    asserted_by: str
    volatility: str
    confidence: float
    verified_at: datetime | None = None
    state: str
    classification: str
    chain_id: str
    masked: bool = False
    importance: float = Field(default=0.5, description="0..1, given when the fact was written")
    tier: str = Field(default="working", description="working | short_term | medium_term | "
                      "long_term (SPEC §12.1; moved by sweep)")
    agent: str | None = Field(default=None, description="the writing agent (None: tenant-wide; "
                              "SPEC §12.7)")
    shared: bool = Field(default=False, description="an agent's fact visible to every reader")
    consolidated_into: str | None = Field(
        default=None, description="the live pattern this note is a member of (SPEC §12.6); "
        "filled by the agent reads (current, as_of, chain, recall)")

    def _repr_html_(self) -> str:
        """An HTML table of the fact (the placeholder for masked content), so a notebook
        cell shows it readably."""
        f = self
        return _html.fields(f"Fact {f.fact_id}", [
            ("entity", f.entity if f.entity is not None else f"?{f.mention}"),
            ("attribute", f.attribute), ("value", "[masked]" if f.masked else f.value),
            ("negated", f.negated),
            ("valid from", f.valid_from), ("valid until", f.valid_until),
            ("recorded at", f.recorded_at), ("recorded until", f.recorded_until),
            ("state", f.state), ("asserted by", f.asserted_by), ("source", f.source),
            ("confidence", f.confidence), ("classification", f.classification),
            ("supersedes", f.supersedes), ("superseded by", f.superseded_by),
            ("derived from", f.derived_from)])


class Hit(_Model):
    """One recall result with its blended score and, on request, the score's parts."""

    fact: Fact
    score: float
    parts: dict[str, float] = Field(default_factory=dict)
    recall_id: str | None = Field(
        default=None, description="with receipt=True: the recall to judge (SPEC §12.2)")


class StoreCheck(_Model):
    """What one store was checked for after an erasure, and what was found."""

    name: str
    method: str = Field(description="how the store was checked")
    result: CheckResult = Field(description="clean | residue | pending | unreachable")
    checked: list[str] = Field(default_factory=list, description="what was looked at")
    residues: list[str] = Field(default_factory=list, description="what is still there (ids)")
    pending: list[str] = Field(default_factory=list, description="steps not done yet")
    reason: str | None = None


class ErasureReport(_Model):
    """A residue report: every store checked; ``complete`` only when all are clean."""

    receipt_id: str | None = None
    complete: bool
    stores: list[StoreCheck]
    checked_at: datetime

    def _repr_html_(self) -> str:
        """The residue report as HTML: the verdict, then one row per store checked with its
        residues and pending steps."""
        verdict = "complete" if self.complete else "NOT complete"
        return _html.table(f"Erasure {verdict} (receipt {self.receipt_id or '-'})",
                           ("store", "result", "method", "residues", "pending"),
                           [(c.name, c.result, c.method, c.residues, c.pending)
                            for c in self.stores])


class DeletionReceipt(Receipt):
    """Proof of a destructive operation. Holds no personal data: the subject appears only
    as a keyed-hash commitment. Chained by hash into the audit log and signed (Ed25519)."""

    receipt_id: str
    effect: str = Field(default="purge", description="purge | mask | archive | forget")
    motive: str | None = None
    reason: str | None = Field(default=None, description="why, as the requester gave it "
                               "(a ticket or legal basis; kept in clear, no personal data)")
    requested_by: str | None = None
    subject: str = Field(description="keyed-hash commitment to (tenant, entity)")
    stream_id: str
    chain_id: str | None = None
    key_ids: list[str] = Field(default_factory=list)
    fact_count: int = 0
    stores: list[str] = Field(default_factory=list)
    timings_ms: dict[str, float] = Field(default_factory=dict)
    report: ErasureReport | None = None
    residue_digest: str = ""
    seq: int = 0
    prev_hash: str = ""
    hash: str = ""
    signature: str = ""
    public_key: str = ""


class Preview(_Model):
    """What a destructive operation would touch, listed (not counted), and its token."""

    op: str
    tenant: str
    token: str
    facts: list[str]
    derived: list[str] = Field(description="derived facts outside the operation's scope")
    stores: list[str]
    caches: list[str]
    exports: list[str]
    irreversible: list[str] = Field(description="steps that cannot be undone")
    high_risk: bool
    reasons: list[str] = Field(default_factory=list)

    def _repr_html_(self) -> str:
        """The preview as HTML: every affected item listed, with the confirmation token."""
        p = self
        risk = "high risk" if p.high_risk else "not high risk"
        return _html.fields(f"Preview of {p.op} in {p.tenant} ({risk})", [
            ("token", p.token), ("facts", p.facts), ("derived", p.derived),
            ("stores", p.stores), ("caches", p.caches), ("exports", p.exports),
            ("irreversible", p.irreversible), ("reasons", p.reasons)])


class AuditReport(_Model):
    """``audit_verify``: the log's hash chains and the receipt chain, recomputed."""

    ok: bool
    events_checked: int
    streams_checked: int
    authenticated: int = Field(description="events whose ciphertext was authenticated")
    shredded: int = Field(description="events whose key is destroyed (chain-checked only)")
    receipts_checked: int
    problems: list[str] = Field(default_factory=list)
    reshredded: list[str] = Field(
        default_factory=list,
        description="keys a restored key store held again and that were destroyed again")
    anchor_checked: bool = Field(default=False,
                                 description="an anchor was given and checked against the log")


class Anchor(_Model):
    """A signed head record of the log (SPEC §14), for the user to keep outside the store.

    ``audit_verify(anchor=...)`` reports every event or receipt missing at or before it:
    deleting the newest rows of the log, or rolling it back to a backup, shows."""

    position: int = Field(description="the log's head position when anchored")
    heads: dict[str, tuple[int, str]] = Field(
        description="every stream's head: (version, hex hash of its chain at that version)")
    receipts: tuple[int, str] = Field(description="(sequence, hash) of the last receipt")
    at: datetime
    public_key: str = Field(description="hex Ed25519 key that signed it")
    signature: str = ""


class Replica(_Model):
    """A views replica (a process's DuckDB views and recall index) in the registry."""

    id: str
    views: str = Field(description="its views folder")
    host: str
    applied: int = Field(description="log position its views have applied")
    compacted: int = Field(description="log position up to which its files were rewritten")
    heartbeat_at: datetime
    this_process: bool = False


class TierMove(_Model):
    """One fact moved between tiers by a sweep (SPEC §12.1)."""

    fact_id: str
    from_tier: str
    to_tier: str
    reason: str


class Utility(_Model):
    """A fact's utility ledger (SPEC §12.2): its current judgements, summed."""

    served: int = Field(description="recalls with a receipt that served it")
    useful: int
    harmful: int
    neutral: int = Field(description="served and not (yet) judged")
    utility: float = Field(description="neutral +0.1, useful +1.0, harmful -2.0, summed")
    roi: float = Field(description="utility / served (0 when never served)")
    q_value: float = Field(description="EWMA of useful (1) / harmful (0) in recall order, "
                           "from 0.5; recall's utility part")


class Posterior(_Model):
    """A fact's preference posterior Beta(alpha, beta) (SPEC §12.4)."""

    alpha: float
    beta: float
    mean: float
    observations: int = Field(description="accepted, rejected and undone outcomes counted")


class Link(_Model):
    """One automatic link of a note to a similar note (SPEC §12.5)."""

    fact_id: str = Field(description="the linked note")
    score: float = Field(description="cosine similarity of the two notes (store's embedder)")
