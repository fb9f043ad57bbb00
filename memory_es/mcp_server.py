"""``memory-es mcp``: the text interface and as-of reads as Model Context Protocol tools.

One server process serves one tenant (fixed at start), over stdio, with the official
``mcp`` SDK (the ``mcp`` extra); started with an agent (``--agent NAME``) it serves that
agent only: its writes are the agent's (private, SPEC §12.7) and its reads see what the
agent sees (tenant-wide, shared and its own facts). Tools return plain JSON-able values;
destructive tools return what they touched, and purge needs the preview token an earlier
call returned.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from datetime import datetime
from typing import Any, TypeVar

from memory_es.agent_view import AgentView
from memory_es.errors import MemoryESError
from memory_es.store import MemoryStore
from memory_es.text.interface import TextInterface

F = TypeVar("F", bound=Callable[..., Any])


def _facts(facts: list[Any]) -> list[dict[str, Any]]:
    return [f.model_dump(mode="json") for f in facts]


def _dump(result: Any) -> Any:
    if hasattr(result, "model_dump"):
        return result.model_dump(mode="json")
    if isinstance(result, list):
        return [_dump(r) for r in result]
    return result


def _time(value: str | None) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value)


def build_server(store: MemoryStore, tenant: str, agent: str | None = None) -> Any:
    """An ``MCPServer`` whose tools act on ``store`` for ``tenant`` only (and, given
    ``agent``, as that agent: every write carries it, every read passes it)."""
    from mcp.server.mcpserver import MCPServer  # noqa: PLC0415  (optional extra)
    from mcp.server.mcpserver.exceptions import ToolError  # noqa: PLC0415

    server = MCPServer(
        "memory-es",
        instructions=f"Bitemporal agent memory for tenant {tenant!r}"
                     + ("" if agent is None else f" (agent {agent!r})")
                     + ": remember facts, recall what is true now or at any past point, "
                       "revise, release, forget.")
    texts = store.text if agent is None else TextInterface(AgentView(store, agent))

    def tool(fn: F) -> F:
        """Register ``fn`` as a tool whose typed errors reach the agent with their message.

        The SDK shows the agent only "Error executing tool X" for an exception it does not
        know; a store error's message is written for the caller (it never holds payloads
        or keys), so it is passed on as a ``ToolError``, with its kind and any reasons."""
        @functools.wraps(fn)
        def answered(*args: Any, **kwargs: Any) -> Any:
            try:
                store.sweep_if_due(tenant)  # GovernanceConfig(sweep_interval_seconds=...)
                return fn(*args, **kwargs)
            except MemoryESError as e:
                issues = [str(i) for i in getattr(e, "issues", None) or () if str(i) not in str(e)]
                detail = f" ({'; '.join(issues)})" if issues else ""
                raise ToolError(f"{type(e).__name__}: {e}{detail}") from e
        server.tool()(answered)
        return fn

    @tool
    def remember(text: str) -> list[dict[str, Any]]:
        """Store what the text says (one fact per clause); returns the write receipts."""
        return _dump(texts.remember(tenant, text))  # type: ignore[no-any-return]

    @tool
    def recall_texts(query: str, k: int = 5) -> list[str]:
        """Texts of up to k current, eligible facts for the query, best first."""
        return store.recall_texts(tenant, query, k, agent=agent)

    @tool
    def recall(query: str, k: int = 8, valid_at: str | None = None,
               known_at: str | None = None) -> list[dict[str, Any]]:
        """Ranked facts for the query (now, or as of ISO-8601 times with a time zone)."""
        hits = store.recall(tenant, query, k, valid_at=_time(valid_at),
                            known_at=_time(known_at), receipt=True,
                            caller="mcp" if agent is None else f"mcp:{agent}", agent=agent)
        return [{"score": h.score, "recall_id": h.recall_id, **h.fact.model_dump(mode="json")}
                for h in hits]

    @tool
    def judge(recall_id: str, helpful: list[str] | None = None,
              misleading: list[str] | None = None) -> dict[str, Any]:
        """Say which facts a recall served helped and which misled (re-judging replaces);
        they then rank by what they were worth."""
        return _dump(store.judge(tenant, recall_id, helpful or (),  # type: ignore[no-any-return]
                                 misleading or ()))

    @tool
    def as_of(valid_at: str | None = None, known_at: str | None = None,
              entity: str | None = None, attribute: str | None = None) -> list[dict[str, Any]]:
        """What the store believed at known_at about valid_at (ISO-8601 with a time zone)."""
        return _facts(store.as_of(tenant, valid_at=_time(valid_at), known_at=_time(known_at),
                                  entity=entity, attribute=attribute, agent=agent))

    @tool
    def current(entity: str | None = None, attribute: str | None = None) -> list[dict[str, Any]]:
        """Facts true now."""
        return _facts(store.current(tenant, entity=entity, attribute=attribute, agent=agent))

    @tool
    def revise(old_query: str, new_text: str) -> Any:
        """Replace the memory old_query describes with new_text."""
        return _dump(texts.revise(tenant, old_query, new_text))

    @tool
    def release(query: str) -> Any:
        """Let what matches the query lapse (decay); rows stay for audit."""
        return _dump(texts.release(tenant, query))

    @tool
    def forget(query: str) -> Any:
        """Amnesia of the entity the query names."""
        return _dump(texts.forget(tenant, query))

    @tool
    def note(entity: str, category: str, text: str, importance: float = 0.5,
             shared: bool = False) -> dict[str, Any]:
        """Write a note (decision, finding, correction, pattern or estimate) behind the
        quality and dedup gates; a refusal says why. The receipt's outcome is applied,
        duplicate or merged; similar notes are linked both ways."""
        return _dump(store.note(tenant, entity, category, text,  # type: ignore[no-any-return]
                                importance=importance, agent=agent, shared=shared))

    @tool
    def links(fact_id: str) -> list[dict[str, Any]]:
        """A note's automatic links (similar notes), strongest first."""
        return [link.model_dump(mode="json") for link in store.links(tenant, fact_id,
                                                                     agent=agent)]

    @tool
    def consolidate(entity: str | None = None) -> list[dict[str, Any]]:
        """Cluster current findings into reusable patterns; returns the patterns written."""
        return _dump(store.consolidate(tenant, entity=entity,  # type: ignore[no-any-return]
                                       agent=agent))

    @tool
    def purge_matching(identifier: str) -> Any:
        """Crypto-shred what holds the identifier (exact identifier first)."""
        return _dump(texts.purge_matching(tenant, identifier))

    return server


def serve(store: MemoryStore, tenant: str, agent: str | None = None) -> None:
    """Serve over stdio until the client disconnects (as ``agent``, when given)."""
    build_server(store, tenant, agent).run("stdio")
