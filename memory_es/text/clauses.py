"""What an interpretation is: one :class:`Clause` per fact, in reading order.

Plain frozen data shared by every interpreter (the rules of
:mod:`memory_es.text.interpreter`, or a model behind the hook) and by the text
interface that writes the clauses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from memory_es.text.identifiers import Identifier

VERSION = "rules-1"
"""Recorded with every interpretation, so a stored reading can be traced to its rules."""


@dataclass(frozen=True)
class Clause:
    """One proposed operation: a fact about one entity, with its qualifiers."""

    text: str
    """The clause as stored: verbatim, with an elided subject restored."""
    entity: str | None
    """Canonical entity id, or None when the subject cannot be resolved by rule."""
    attribute: str
    value: object
    """The fact's value (the rules propose text; a model may propose any JSON value)."""
    mention: str | None = None
    """The subject as written."""
    op: str = "assert"
    """``assert`` (a new fact), ``supersede`` (a change of state: replace the slot) or
    ``cease`` (the clause only reports that a prior state ended)."""
    negated: bool = False
    confident: bool = False
    """True when the attribute comes from a specific rule (``home.city``), False for the
    generic verb+keywords path; an ambiguous clause may take its slot from context."""
    alternatives: tuple[str, ...] = ()
    """Other attributes the predicate could mean (``moved to X``: home or employer)."""
    temporal: tuple[str, ...] = ()
    identifiers: tuple[Identifier, ...] = ()
    names: tuple[str, ...] = ()
    """Proper names mentioned in the clause (surface forms)."""
    subject_names: tuple[str, ...] = ()
    """Names that denote the clause's own entity (aliases to register)."""
    refers_back: str | None = None
    """Set when the subject is ``the same <role>`` (the role noun, or ``""``): the
    entity is the one mentioned last."""
    elided: bool = False
    """The sentence had no subject at all (``Left the harbour town, …``)."""
    adjuncts: tuple[tuple[str, str], ...] = ()
    """Reason or circumstance adjuncts as ``(marker, text)``, kept inside ``text``."""
    has_purpose: bool = False
    """A cessation clause that goes on to a new state (``left X to start Y``)."""
    ends_prior: bool = False
    """The clause says a prior state ended (``quit her job``, ``is not vegan anymore``):
    remembering it also releases the matching current fact of the same entity."""
    continuation: bool = False
    corrects: str | None = None
    """What a correction denies in the same breath (``lives in Leeds, not York``: York):
    remembering the clause ends the entity's fact that holds it."""
    unrealised: bool = False
    """The clause says something is not (yet) the case: a plan, a maybe, a condition, a
    question (``might move to Lyon``): it ends, replaces and reverses nothing."""
    domains: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()
    frame: str | None = None
    """The predicate's frame when no rule reads a slot for it (``be.on.name``, see
    :func:`memory_es.text.predicates.frame_of`)."""

    def interpretation(self, source: str | None = None) -> dict[str, object]:
        """The record the store keeps with the event (why it remembers this fact)."""
        out: dict[str, object] = {
            "interpreter": VERSION,
            "rules": list(self.rules),
            "op": self.op,
            "attribute_confident": self.confident,
        }
        if source is not None and source != self.text:
            out["source"] = source
        if self.mention:
            out["subject"] = self.mention
        if self.negated:
            out["negated"] = True
        if self.temporal:
            out["temporal"] = list(self.temporal)
        if self.identifiers:
            out["identifiers"] = [i.as_dict() for i in self.identifiers]
        if self.names:
            out["names"] = list(self.names)
        if self.refers_back is not None:
            out["refers_back"] = self.refers_back or True
        if self.alternatives:
            out["alternatives"] = list(self.alternatives)
        if self.adjuncts:
            out["adjuncts"] = [list(a) for a in self.adjuncts]
        if self.ends_prior:
            out["ends_prior"] = True
        if self.unrealised:
            out["unrealised"] = True
        if self.corrects:
            out["corrects"] = self.corrects
        if self.domains:
            out["domains"] = list(self.domains)
        return out


@dataclass(frozen=True)
class Interpretation:
    """What a text means as operations: one clause per fact, in reading order."""

    source: str
    clauses: tuple[Clause, ...]
    interpreter: str = VERSION


class Interpreter(Protocol):
    """Anything that turns a text into an :class:`Interpretation` (a model, a rule set)."""

    def __call__(self, text: str) -> Interpretation: ...
