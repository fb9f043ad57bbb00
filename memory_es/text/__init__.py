"""The agent-facing text interface: text in, facts and forgetting out.

``TextInterface(store)`` offers ``remember``, ``revise``, ``release``, ``forget``,
``purge_matching`` and ``recall_texts`` over any store with the methods of
:class:`~memory_es.text.ports.TextStore`. Text becomes operations through a pluggable
interpreter: the deterministic rules of :mod:`memory_es.text.interpreter` by default,
or any callable (a model) that proposes the same clauses.

Reading order of the package: ``clauses`` (what an interpretation is) ->
``words``, ``paths``, ``sentences``, ``subjects``, ``predicates`` (the rule table),
``qualifiers`` -> ``interpreter``; ``identifiers`` and ``normalize`` (exact identifiers,
Unicode hygiene); ``matching`` (which facts a query targets), ``revision`` and
``purge_scope`` (what a revise or purge then does) -> ``interface``, over ``ports``.
"""

from memory_es.text.clauses import Clause, Interpretation, Interpreter
from memory_es.text.identifiers import Identifier, find_identifiers
from memory_es.text.interface import Target, TextInterface, TextResult
from memory_es.text.interpreter import ModelInterpreter, RuleInterpreter, interpret
from memory_es.text.matching import Thresholds
from memory_es.text.ports import TextStore, WriteOptions

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
    "TextStore",
    "Thresholds",
    "WriteOptions",
    "find_identifiers",
    "interpret",
]
