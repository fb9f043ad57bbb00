"""The text a fact is indexed under, and the digest that spares re-embedding it."""

from __future__ import annotations

import hashlib
import re

_DENIES = re.compile(r"\b(?:not|no|never|none|neither|nor)\b|n['\u2019]t\b")
"""Words that already make a text read as a denial."""


def document(text: str | None, entity: str | None, mention: str | None,
             attribute: str, *, negated: bool = False) -> str:
    """The text a fact is indexed under: its text, plus its subject and attribute words
    when the text does not already say them. A denial (``negated``) whose text does not
    read as one is prefixed with ``not``: recall must not serve it as the positive fact."""
    doc = text or ""
    low = doc.casefold()
    if negated and not _DENIES.search(low):
        doc, low = f"not {doc}" if doc else "not", f"not {low}"
    extra = []
    subject = entity or mention
    if subject and subject.casefold() not in low:
        extra.append(subject)
    words = attribute.replace(".", " ").replace("_", " ")
    if words.casefold() not in low:
        extra.append(words)
    return " ".join([doc, *extra]) if extra else doc


def digest(doc: str) -> int:
    """A signed 64-bit digest of a document: an entry whose digest is unchanged keeps its
    vector and postings (an unchanged text is never re-embedded)."""
    return int.from_bytes(hashlib.blake2b(doc.encode(), digest_size=8).digest(), "little",
                          signed=True)
