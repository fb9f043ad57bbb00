"""What the store hands back: receipts, facts, hits and reports (pydantic models)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field


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
    conflict_id: str | None = Field(default=None, description="set when the write opened a conflict")
    outcome: str = Field(default="applied",
                         description="applied | reinforced | conflicted | noop")
    idempotent_replay: bool = Field(
        default=False, description="true when an earlier write with the same key is returned")


class Fact(_Model):
    """One bitemporal version of a fact (SPEC §3)."""

    fact_id: str
    version_id: str
    tenant: str
    entity: str | None
    mention: str | None = None
    attribute: str
    value: Any
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


class Hit(_Model):
    """One recall result with its blended score and, on request, the score's parts."""

    fact: Fact
    score: float
    parts: dict[str, float] = Field(default_factory=dict)
