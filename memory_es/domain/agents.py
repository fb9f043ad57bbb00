"""Agents within a tenant (SPEC §12.7): who may see a fact, and whose slot it fills.

One rule, stated once: a fact is visible to a reader when it is tenant-wide
(``agent`` None), shared, or the reader's own. Every agent channel derives from it:
the fact reads (row by row through :meth:`AgentScope.sees`, in SQL through
:meth:`AgentScope.sql`), the recall candidates, note dedup and links, consolidation.
The operator reads (``table``, ``sql``, ``export``, ``replay``, ``history``,
``preview``) use no reader at all and see everything.

Private facts (an agent, not shared) form the agent's own *slots*: they take part in
supersession and conflicts only with that agent's other private facts
(:func:`slot_owner`), and in that agent's reads a private fact of a cardinality-``one``
slot shadows the tenant-wide (or shared) facts of the same slot (:func:`shadow`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from memory_es.domain.validation import check_text
from memory_es.errors import InvalidInput

AGENT_LIMIT = 128
"""Longest agent name (characters)."""

Row = TypeVar("Row", bound=dict[str, Any])


def check_agent(agent: str | None) -> str | None:
    """An agent name: None (tenant-wide) or a non-empty string of at most 128 characters."""
    if agent is None:
        return None
    if not isinstance(agent, str) or not agent.strip():
        raise InvalidInput("agent must be a non-empty name, or None for tenant-wide")
    check_text("agent", agent, AGENT_LIMIT)
    return agent


def check_shared(shared: bool) -> bool:
    if not isinstance(shared, bool):
        raise InvalidInput("shared must be True or False")
    return shared


def visible_to(reader: str | None, agent: str | None, shared: bool) -> bool:
    """Whether a fact written by ``agent`` (``shared`` or not) is visible to ``reader``
    (None: a reader with no agent, who sees tenant-wide and shared facts only): the
    tenant's slot is everyone's, a private slot its agent's. The recall index applies
    exactly this to the :func:`slot_owner` it keeps per fact; :meth:`AgentScope.sql` is
    its SQL spelling (a unit test runs both against it)."""
    owner = slot_owner(agent, shared)
    return owner is None or owner == reader


def slot_owner(agent: str | None, shared: bool) -> str | None:
    """Whose slot a fact fills: the agent's own when private, the tenant's (None) when
    tenant-wide or shared."""
    return None if agent is None or shared else agent


def slot_key(attribute: str, owner: str | None) -> str:
    """The key of a slot in an entity's aggregate: the attribute for the tenant's slot,
    the attribute and the agent for a private one (attributes never contain ``@``)."""
    return attribute if owner is None else f"{attribute}@{owner}"


@dataclass(frozen=True)
class AgentScope:
    """A read on behalf of ``agent`` (None: no agent). Reads given no reader at all are
    operator reads and see every fact."""

    agent: str | None = None

    def __post_init__(self) -> None:
        check_agent(self.agent)

    def sees(self, agent: str | None, shared: bool) -> bool:
        return visible_to(self.agent, agent, shared)

    def sees_row(self, row: dict[str, Any]) -> bool:
        """:meth:`sees` for a version row (``agent`` and ``shared`` columns)."""
        return visible_to(self.agent, row.get("agent"), bool(row.get("shared")))

    def sql(self, params: list[Any], prefix: str = "") -> str:
        """:func:`visible_to` as a SQL condition over the ``agent``/``shared`` columns
        (``prefix``: a table alias with its dot), its parameter appended to ``params``."""
        base = f"({prefix}agent IS NULL OR {prefix}shared"
        if self.agent is None:
            return base + ")"
        params.append(self.agent)
        return base + f" OR {prefix}agent = ?)"


def shadow(rows: Iterable[Row], reader: AgentScope | None,
           single: Callable[[str], bool]) -> list[Row]:
    """Drop, for ``reader``'s agent, the tenant-wide and shared rows of every slot
    (tenant, entity, attribute) where it holds a private row, when ``single(attribute)``
    (cardinality ``one``). Rows must be visible to the reader and describe one point in
    time (a current or as-of read). Without a reader or an agent nothing is shadowed."""
    rows = list(rows)
    if reader is None or reader.agent is None:
        return rows
    mine = {(r["tenant"], r["entity"], r["attribute"]) for r in rows
            if r.get("entity") is not None
            and slot_owner(r.get("agent"), bool(r.get("shared"))) == reader.agent}
    if not mine:
        return rows
    return [r for r in rows
            if slot_owner(r.get("agent"), bool(r.get("shared"))) == reader.agent
            or (r["tenant"], r["entity"], r["attribute"]) not in mine
            or not single(str(r["attribute"]))]
