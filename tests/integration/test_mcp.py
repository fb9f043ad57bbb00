"""The MCP server exposes the text interface and as-of reads for one fixed tenant."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError

import memory_es
from memory_es.mcp_server import build_server


def _call(server: Any, name: str, arguments: dict[str, Any]) -> Any:
    result = asyncio.run(server.call_tool(name, arguments))
    assert not result.is_error
    data = result.structured_content
    if data is None:
        return json.loads(result.content[0].text)
    return data.get("result", data)


def test_tools_are_listed(tmp_path: Path) -> None:
    """The server lists the text-interface tools and the as-of read."""
    with memory_es.open(tmp_path / "m") as store:
        names = {t.name for t in asyncio.run(build_server(store, "acme").list_tools())}
    assert {"remember", "recall_texts", "recall", "as_of", "current", "revise", "release",
            "forget", "purge_matching"} <= names


def test_remember_then_recall_stays_in_its_tenant(tmp_path: Path) -> None:
    """What one tenant's server remembers is recalled there and never by another tenant's."""
    with memory_es.open(tmp_path / "m") as store:
        acme, other = build_server(store, "acme"), build_server(store, "other")
        _call(acme, "remember", {"text": "Alex lives in Detroit."})
        texts = _call(acme, "recall_texts", {"query": "where does Alex live", "k": 3})
        assert any("Detroit" in t for t in texts)
        assert _call(other, "recall_texts", {"query": "where does Alex live", "k": 3}) == []
        assert _call(acme, "as_of", {}) != []
        assert store.served("acme") == []  # recall_texts is not the receipt-taking recall
        _call(acme, "recall", {"query": "Detroit", "k": 2})
        assert len(store.served("acme")) == 1


def test_a_store_error_reaches_the_agent_with_its_message(tmp_path: Path) -> None:
    """A typed store error (a naive time, an unknown entity form) reaches the agent as a
    tool error that names the error and says why, not a bare "Error executing tool"."""
    with memory_es.open(tmp_path / "m") as store:
        server = build_server(store, "acme")
        with pytest.raises(ToolError) as naive:
            asyncio.run(server.call_tool("as_of", {"valid_at": "2025-01-01T00:00:00"}))
        assert "InvalidInput" in str(naive.value) and "valid_at" in str(naive.value)
        assert not isinstance(naive.value, UnexpectedToolError)
        with pytest.raises(ToolError) as entity:
            asyncio.run(server.call_tool("current", {"entity": "not a canonical id"}))
        assert "InvalidInput" in str(entity.value) and "canonical" in str(entity.value)


def test_a_note_refused_by_the_quality_gate_tells_the_agent_why(tmp_path: Path) -> None:
    """The note tool passes the gate's score and every reason on; a good note is written
    and linked to a similar one."""
    with memory_es.open(tmp_path / "m") as store:
        server = build_server(store, "acme")
        with pytest.raises(ToolError) as refused:
            asyncio.run(server.call_tool("note", {"entity": "team:ops", "category": "finding",
                                                  "text": "flaky"}))
        message = str(refused.value)
        assert "QualityRejected" in message and "too short" in message
        assert "finding keyword" in message and "depth marker" in message
        first = _call(server, "note", {
            "entity": "team:ops", "category": "finding",
            "text": "Found that the nightly export fails because the disk quota is hit."})
        second = _call(server, "note", {
            "entity": "team:web", "category": "finding",
            "text": "Observed that the nightly export fails since the quota of the disk "
                    "is reached, measured twice."})
        assert first["outcome"] == second["outcome"] == "applied"
        linked = _call(server, "links", {"fact_id": first["fact_id"]})
        assert [link["fact_id"] for link in linked] == [second["fact_id"]]
