"""Lifecycle states (SPEC §7) and the single source of truth for read eligibility."""

from __future__ import annotations

from memory_es.choices import State, names
from memory_es.errors import ConflictError

STATES = names(State)

RETRIEVABLE_STATES: frozenset[str] = frozenset({"active", "reinforced", "stale"})
"""States whose versions any read may return. Every read path derives from this."""

INELIGIBLE_NOW: frozenset[str] = frozenset(
    {"forgotten", "deleted", "quarantined", "rejected", "archived"}
)
"""A fact whose present state is one of these is hidden from every normal read, at any
past point too (SPEC §2.6): eligibility is judged now."""

TERMINAL_STATES: frozenset[str] = frozenset({"forgotten", "deleted"})

_LIVE = ("active", "reinforced", "stale")
_EXITS = ("deprecated", "archived", "quarantined", "forgotten", "deleted")

TRANSITIONS: dict[str, frozenset[str]] = {
    "candidate": frozenset({"active", "rejected", "conflicted", *_EXITS}),
    "active": frozenset({*_LIVE, "conflicted", *_EXITS}),
    "reinforced": frozenset({*_LIVE, "conflicted", *_EXITS}),
    "stale": frozenset({*_LIVE, "conflicted", *_EXITS}),
    "conflicted": frozenset({"active", "rejected", *_EXITS}),
    "deprecated": frozenset({"deprecated", "archived", "forgotten", "deleted"}),
    "archived": frozenset({"candidate", *_LIVE, "conflicted", "deprecated", "rejected",
                           "quarantined", "forgotten", "deleted"}),
    "quarantined": frozenset({"active", "rejected", "archived", "forgotten", "deleted"}),
    "rejected": frozenset({"archived", "forgotten", "deleted"}),
    "forgotten": frozenset({"deleted"}),
    "deleted": frozenset(),
}
"""Declared transitions. `forgotten` and `deleted` reach no retrievable state, ever;
`conflicted` cannot be reinforced without resolution first."""


def check_transition(current: str, target: str) -> None:
    """Raise :class:`ConflictError` unless ``current -> target`` is declared."""
    if target not in TRANSITIONS.get(current, frozenset()):
        raise ConflictError(f"illegal lifecycle transition {current} -> {target}")


def is_retrievable(state: str) -> bool:
    return state in RETRIEVABLE_STATES
