"""The §7 lifecycle: a declared transition table and one eligibility constant."""

from __future__ import annotations

import pytest

import memory_es
from memory_es.domain.lifecycle import (
    INELIGIBLE_NOW,
    RETRIEVABLE_STATES,
    STATES,
    TERMINAL_STATES,
    TRANSITIONS,
    check_transition,
    is_retrievable,
)

ILLEGAL = [(a, b) for a in STATES for b in STATES if b not in TRANSITIONS[a]]
LEGAL = [(a, b) for a in STATES for b in sorted(TRANSITIONS[a])]


def _reachable(start: str) -> set[str]:
    seen: set[str] = set()
    todo = [start]
    while todo:
        for nxt in TRANSITIONS[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def test_retrievable_states_are_active_reinforced_and_stale() -> None:
    """RETRIEVABLE_STATES is exactly the §7 set, and the package exports that one object."""
    assert frozenset({"active", "reinforced", "stale"}) == RETRIEVABLE_STATES
    assert memory_es.RETRIEVABLE_STATES is RETRIEVABLE_STATES
    assert all(is_retrievable(s) == (s in RETRIEVABLE_STATES) for s in STATES)


def test_ineligible_states_are_never_retrievable() -> None:
    """A state that hides a fact now is not a retrievable state."""
    assert not INELIGIBLE_NOW & RETRIEVABLE_STATES
    assert {"forgotten", "deleted", "quarantined", "rejected", "archived"} == INELIGIBLE_NOW


def test_transition_table_covers_every_state_and_only_known_states() -> None:
    """Every state has a row, and every target is a declared state."""
    assert set(TRANSITIONS) == set(STATES)
    for targets in TRANSITIONS.values():
        assert targets <= set(STATES)


@pytest.mark.parametrize("terminal", sorted(TERMINAL_STATES))
def test_forgotten_and_deleted_never_reach_a_retrievable_state(terminal: str) -> None:
    """No path of declared transitions leads from a terminal state back to retrieval."""
    assert not _reachable(terminal) & RETRIEVABLE_STATES


def test_forgotten_only_exits_to_deleted_and_deleted_has_no_exit() -> None:
    """`forgotten -> deleted` is the only way out of the terminal states."""
    assert frozenset({"deleted"}) == TRANSITIONS["forgotten"]
    assert frozenset() == TRANSITIONS["deleted"]


def test_conflicted_cannot_be_reinforced_automatically() -> None:
    """A conflicted fact goes through resolution, never straight to reinforced."""
    assert "reinforced" not in TRANSITIONS["conflicted"]
    with pytest.raises(memory_es.ConflictError):
        check_transition("conflicted", "reinforced")


@pytest.mark.parametrize(("current", "target"), ILLEGAL)
def test_illegal_transitions_raise_conflict_error(current: str, target: str) -> None:
    """Every undeclared transition raises a ConflictError (a MemoryESError)."""
    with pytest.raises(memory_es.ConflictError) as info:
        check_transition(current, target)
    assert isinstance(info.value, memory_es.MemoryESError)


@pytest.mark.parametrize(("current", "target"), LEGAL)
def test_declared_transitions_are_allowed(current: str, target: str) -> None:
    """Every declared transition passes the check."""
    check_transition(current, target)
