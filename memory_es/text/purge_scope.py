"""What a text purge crypto-shreds: whole entities, or single drift chains.

A pure function over the matched facts, used by
:meth:`~memory_es.text.interface.TextInterface.purge_matching`.
"""

from __future__ import annotations

import re

from memory_es.text.identifiers import Identifier
from memory_es.text.matching import IDENTIFIER_NAMESPACES, FactView, Match, view

Scope = tuple[str | None, str | None]
"""``(entity, None)`` shreds an entity; ``(None, fact_id)`` shreds one drift chain."""


def distinctive(ident: Identifier) -> bool:
    """Identifiers specific enough to erase everywhere (not a bare date or a time)."""
    return ident.kind not in ("date", "time") and len(re.sub(r"\W", "", ident.canonical)) >= 4


def purge_scopes(matches: list[Match], tier: str, whole: bool, named: dict[str, str],
                 views: list[FactView]) -> list[Scope]:
    """The scopes to shred, entities first.

    An identifier is erased everywhere it is written: facts sharing a distinctive
    identifier with a matched fact join it. A fact's entity is shredded whole when the
    query names the entity as a whole or by name, or when the entity *is* an identifier
    (``email:…``); otherwise only the fact's drift chain is.
    """
    chosen = {m.fact.fact_id: m.fact for m in matches}
    erased_ids: set[str] = {i.canonical for m in matches for i in view(m.fact).identifiers}
    if tier in ("identifier", "lexical", "semantic"):
        for v in views:
            if v.fact.fact_id not in chosen and any(
                    i.canonical in erased_ids for i in v.identifiers
                    if distinctive(i)):
                chosen[v.fact.fact_id] = v.fact
    entities: list[str] = []
    chains: list[str] = []
    for fact in chosen.values():
        ent = fact.entity
        if ent is not None and (whole or ent in named
                                or ent.split(":", 1)[0] in IDENTIFIER_NAMESPACES):
            if ent not in entities:
                entities.append(ent)
        else:
            chains.append(fact.fact_id)
    scopes: list[Scope] = [(e, None) for e in entities]
    scopes += [(None, f) for f in chains if chosen[f].entity not in entities]
    return scopes
