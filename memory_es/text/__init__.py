"""The agent-facing text interface: text in, facts and forgetting out.

``TextInterface(store)`` offers ``remember``, ``revise``, ``release``, ``forget``,
``purge_matching`` and ``recall_texts``. Text becomes operations through a pluggable
interpreter: the deterministic rules of :mod:`memory_es.text.interpreter` by default,
or any callable (a model) that proposes the same clauses.
"""

from memory_es.text.identifiers import Identifier, find_identifiers
from memory_es.text.interface import Target, TextInterface, TextResult
from memory_es.text.interpreter import (
    Clause,
    Interpretation,
    Interpreter,
    ModelInterpreter,
    RuleInterpreter,
    interpret,
)
from memory_es.text.matching import Thresholds

__all__ = [
    "Clause",
    "Identifier",
    "Interpretation",
    "Interpreter",
    "ModelInterpreter",
    "RuleInterpreter",
    "Target",
    "TextInterface",
    "TextResult",
    "Thresholds",
    "find_identifiers",
    "interpret",
]
