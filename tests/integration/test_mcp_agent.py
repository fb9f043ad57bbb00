"""``memory-es mcp TENANT --agent NAME`` (SPEC §12.7): a server for one agent writes as
that agent and reads what it sees; another agent's server never sees its private memory."""

from __future__ import annotations

from pathlib import Path

import pytest

import memory_es
import memory_es.mcp_server
from memory_es.cli import main
from memory_es.cli.main import build_parser
from memory_es.mcp_server import build_server
from tests.integration.test_mcp import _call


def test_an_agents_server_keeps_its_memories_private(tmp_path: Path) -> None:
    """What agent a's server remembers is a's private fact: a's server recalls it, agent
    b's server and the tenant-wide server do not, and the operator table shows its agent."""
    with memory_es.open(tmp_path / "m") as store:
        a = build_server(store, "acme", agent="a")
        b = build_server(store, "acme", agent="b")
        wide = build_server(store, "acme")
        _call(a, "remember", {"text": "Alex lives in Detroit."})
        assert any("Detroit" in t for t in _call(a, "recall_texts",
                                                 {"query": "where does Alex live", "k": 3}))
        for other in (b, wide):
            assert not any("Detroit" in t for t in _call(
                other, "recall_texts", {"query": "where does Alex live", "k": 3}))
            assert _call(other, "current", {}) == []
            assert _call(other, "recall", {"query": "Detroit", "k": 3}) == []
        assert [f["agent"] for f in _call(a, "current", {})] == ["a"]
        assert [f["agent"] for f in _call(a, "as_of", {})] == ["a"]
        rows = store.table("fact_versions").to_pylist()
        assert {(r["agent"], r["shared"]) for r in rows} == {("a", False)}


def test_the_cli_starts_the_server_for_one_agent(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """``mcp TENANT --agent NAME`` parses, and hands the agent to the server."""
    args = build_parser().parse_args(["mcp", "acme", "--agent", "planner"])
    assert (args.tenant, args.agent) == ("acme", "planner")
    served: list[tuple[str, str | None]] = []
    monkeypatch.setattr(memory_es.mcp_server, "serve",
                        lambda store, tenant, agent=None: served.append((tenant, agent)))
    assert main(["--store", str(tmp_path / "m"), "mcp", "acme", "--agent", "planner"]) == 0
    assert served == [("acme", "planner")]
