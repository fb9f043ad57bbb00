"""The items of a listed fact, so that releasing one item keeps the others.

``Hanna speaks French, German and Welsh`` is one fact (coordinated nouns share a verb:
:mod:`memory_es.text.sentences` keeps them together). A release or forget of ``Hanna's
German`` must not take French and Welsh with it: the operation ends the fact and writes
what is left (``Hanna speaks French and Welsh``) in the same commit.
"""

from __future__ import annotations

import re

from memory_es.text.matching import view_terms
from memory_es.text.predicates import PREPOSITIONS
from memory_es.text.words import agrees

_COORDINATOR = re.compile(r"\s+(and|or)\s+", re.IGNORECASE)
MAX_ITEM_WORDS = 4
"""An item longer than this is a clause, not a listed thing."""


_NAME = r"[A-Z][\w'’-]*"
_APPOSED = re.compile(rf",\s+{_NAME}(?:\s*,\s*{_NAME})*\s+(?:and|or)\s+{_NAME}\s*,")
"""Names in apposition to the item before them (``two cats, Milo and Otis, and a dog``):
part of that item, their commas and coordinator none of the list's."""
_COMMA, _SPACE = "\ue001", "\ue000"
"""Stand-ins (private-use characters) for an apposition's commas and spaces while the
list around it is read."""


def _masked(text: str) -> str:
    return _APPOSED.sub(lambda m: m.group().replace(",", _COMMA).replace(" ", _SPACE), text)


def _unmasked(text: str) -> str:
    return text.replace(_COMMA, ",").replace(_SPACE, " ")


def list_items(text: str) -> tuple[str, list[str], str, str] | None:
    """``(prefix, items, coordinator, end)`` of a text that ends in a list of two or more
    things after its verb or preposition (``speaks | French, German, Welsh | and | .``);
    None for any other text. Names in apposition stay with their item (``has | two cats,
    Milo and Otis | a dog called Rex``)."""
    found = _items(_masked(text))
    if found is None:
        return None
    prefix, items, coordinator, end = found
    return (_unmasked(prefix), [_unmasked(i).rstrip(",").strip() for i in items], coordinator,
            end)


def _items(text: str) -> tuple[str, list[str], str, str] | None:
    body = text.rstrip()
    end = body[len(body.rstrip(".!?;")):]
    body = body[:len(body) - len(end)]
    found = list(_COORDINATOR.finditer(body))
    if not found:
        return None
    last = found[-1]
    head, tail = body[:last.start()], body[last.end():]
    *middle, first_part = [s.strip() for s in head.split(",")][::-1]
    first_words = first_part.split()
    start = len(first_words)
    while start > 0 and not _opens_list(first_words[start - 1]):
        start -= 1
    if start == 0:
        return None  # no verb or preposition before the list: a subject, not an object
    items = [" ".join(first_words[start:]), *middle[::-1], tail.strip()]
    if any(not item or len(item.split()) > MAX_ITEM_WORDS for item in items):
        return None
    prefix = " ".join(first_words[:start])
    return prefix, items, last.group(1), end


def _opens_list(word: str) -> bool:
    w = word.lower().strip(",")
    return agrees(w, False) or w in PREPOSITIONS


def without_items(text: str, asked: frozenset[str]) -> str | None:
    """The text without the listed items the query's content terms (``asked``) name, or
    None when it is no list, names no item, names every item, or says more than items
    (``Hanna's languages``: the fact as a whole)."""
    parts = list_items(text)
    if parts is None or not asked:
        return None
    prefix, items, coordinator, end = parts
    named = [item for item in items if view_terms(item) & asked]
    if not named or len(named) == len(items):
        return None
    if not asked <= frozenset().union(*(view_terms(item) for item in named)):
        return None
    kept = [item for item in items if item not in named]
    listed = kept[0] if len(kept) == 1 else f"{', '.join(kept[:-1])} {coordinator} {kept[-1]}"
    return f"{prefix} {listed}{end}"
