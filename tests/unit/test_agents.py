"""The one visibility rule of SPEC §12.7 (memory_es.domain.agents), and events written
before agents existed."""

from __future__ import annotations

from typing import Any

import duckdb
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memory_es.domain.agents import AgentScope, shadow, slot_key, slot_owner, visible_to
from memory_es.domain.entity import EntityState
from memory_es.domain.events import FactAsserted, FactContent
from memory_es.errors import InvalidInput

names = st.sampled_from([None, "a", "b"])
CON = duckdb.connect()
"""One in-memory DuckDB for every example."""


@given(reader=names, agent=names, shared=st.booleans())
def test_visibility_is_tenant_wide_shared_or_own(reader: str | None, agent: str | None,
                                                 shared: bool) -> None:
    """A fact is visible exactly when it is tenant-wide, shared, or the reader's own."""
    want = agent is None or shared or (reader is not None and reader == agent)
    assert visible_to(reader, agent, shared) is want


@settings(deadline=None)  # DuckDB plans each statement (a few ms, more on a busy machine)
@given(reader=names, agent=names, shared=st.booleans())
def test_the_sql_condition_says_what_the_python_rule_says(reader: str | None,
                                                          agent: str | None,
                                                          shared: bool) -> None:
    """AgentScope.sql, run by DuckDB over one row, agrees with visible_to."""
    params: list[Any] = [agent, shared]
    condition = AgentScope(reader).sql(params)
    ordered = [*params[2:], agent, shared]  # the condition comes first in the text
    (row,) = CON.execute(f"SELECT {condition} FROM (SELECT ?::VARCHAR AS agent, "
                         "?::BOOLEAN AS shared)", ordered).fetchall()
    assert bool(row[0]) is visible_to(reader, agent, shared)


def test_private_facts_have_their_own_slot_key() -> None:
    """Tenant-wide and shared facts fill the attribute's slot, private ones the agent's."""
    assert slot_owner(None, False) is None and slot_owner("a", True) is None
    assert slot_owner("a", False) == "a"
    assert slot_key("home.city", None) == "home.city"
    assert slot_key("home.city", "a") != slot_key("home.city", "b") != "home.city"


def row(agent: str | None, value: str, attribute: str = "home.city",
        shared: bool = False) -> dict[str, Any]:
    return {"tenant": "t", "entity": "user:x", "attribute": attribute, "agent": agent,
            "shared": shared, "value": value}


def test_a_private_row_shadows_tenant_wide_rows_of_a_single_slot_only() -> None:
    """For agent a, its private row hides the tenant-wide and shared rows of the same
    cardinality-one slot, never those of a many slot, and nothing for other readers."""
    rows = [row(None, "Detroit"), row("b", "Boston", shared=True), row("a", "Chicago"),
            row(None, "ramen", "pref.food"), row("a", "tacos", "pref.food")]
    single = {"home.city": True, "pref.food": False}.__getitem__
    kept = shadow(rows, AgentScope("a"), single)
    assert [r["value"] for r in kept] == ["Chicago", "ramen", "tacos"]
    assert shadow(rows, AgentScope("b"), single) == rows
    assert shadow(rows, None, single) == rows


def test_agent_names_are_checked() -> None:
    """An agent is None or a non-empty name of at most 128 characters."""
    for bad in ("", "  ", "x" * 129, 3):
        with pytest.raises(InvalidInput):
            AgentScope(bad)  # type: ignore[arg-type]


def test_events_written_before_agents_load_as_tenant_wide() -> None:
    """A stored fact body without ``agent``/``shared`` validates and folds as tenant-wide."""
    old = {"tenant": "t", "entity": "user:x", "attribute": "home.city", "chain_id": "c1",
           "value": "Oslo", "text": "Oslo"}
    content = FactContent.model_validate(old)
    assert (content.agent, content.shared) == (None, False)
    state = EntityState("s1")
    state.apply(FactAsserted.TOPIC, {"tenant": "t", "changes": [
        {"fact_id": "s1-1", "portions": [[0, None]], "state": "active", "content": old}]})
    fact = state.facts["s1-1"]
    assert (fact.agent, fact.shared, fact.owner) == (None, False, None)
    assert state.slot("home.city") == [fact] and state.slot("home.city", "a") == []
