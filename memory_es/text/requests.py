"""The words a user wraps an ask in when speaking to an assistant, set aside before the
ask is read: ``Could you forget Iris's address?``, ``I want you to forget everything about
Tom``, ``Please stop remembering that Iris has a dog``, ``no need to remember where Iris
works anymore``, ``Iris's job, please``.

They are the conventional forms of an indirect request (a question about the hearer's
ability or willingness, ``would you mind`` with the ask as a gerund, a statement of the
speaker's want: Searle 1975, "Indirect Speech Acts"), politeness markers, and the verbs
of keeping a memory that the ask negates. None of them says what the ask is about, so
read as content they made every such ask match nothing (or, for ``no need``, a denial).
"""

from __future__ import annotations

import re

_FRAME = (r"(?:(?:could|can|would|will)\s+you\s+(?:please\s+)?(?:mind\s+|be\s+able\s+to\s+)?"
          r"|do\s+you\s+mind\s+|(?:are|were)\s+you\s+able\s+to\s+"
          r"|i(?:\s+(?:want|would\s+like|need)|['’]d\s+like)\s+you\s+to\s+"
          r"|(?:there\s+is\s+|there['’]s\s+)?no\s+need\s+to\s+(?:keep\s+on\s+)?"
          r"|(?:please\s+)?(?:stop|quit)\s+)")
_MEMORY = r"(?:remember(?:ing)?|keep(?:ing)?|stor(?:e|ing)|track(?:ing)?)"
_LEAD = re.compile(
    rf"^\s*(?:(?:please|kindly)[\s,]+)?"
    rf"(?:{_FRAME}(?:{_MEMORY}\s+(?:(?:that|where|what|how)\s+)?)?"
    rf"|{_MEMORY}\s+(?:that|where|what|how)\s+)",
    re.IGNORECASE)
"""A request frame, then perhaps a verb of keeping a memory (``stop remembering``); or
that verb alone when a clause follows it (``remember that …``), never a noun such as
``Store opening hours`` or ``tracking number``."""
_TRAIL = re.compile(r"(?:[\s,]+(?:please|any\s*more|thanks|thank\s+you))*[\s?.!]*$", re.IGNORECASE)


def without_request(text: str) -> str:
    """``text`` without the request around its ask; the text itself when nothing is left."""
    lead = _LEAD.match(text)
    said = text[lead.end():] if lead is not None and lead.end() else text
    said = _TRAIL.sub("", said)
    return said if said.strip() else text


_DIRECTIVE = re.compile(
    r"^\s*(?:(?:(?:please|kindly|also)[\s,]+)*(?:just\s+)?"
    r"(?:note|notice|remember|be\s+aware|keep\s+in\s+mind|bear\s+in\s+mind)\s+that\s+"
    r"|(?:just\s+)?(?:fyi|for\s+your\s+information|so\s+you\s+know|to\s+let\s+you\s+know"
    r"|by\s+the\s+way|btw|(?:a\s+)?heads[\s-]+up|for\s+the\s+record|(?:a\s+)?quick\s+update)"
    r"\s*[,:;\-–—]?\s+)(?=\S)",
    re.IGNORECASE)
"""An imperative that points the hearer at what follows (``Please note that …``, ``Keep in
mind that …``): a verb of noticing or keeping in mind, then ``that`` and a clause (the
directives of a statement's uptake, Searle 1975). Without ``that`` it is an ask about a
thing (``Remember the milk``) and stays. Or a discourse marker that only announces the
news (``FYI``, ``Just so you know,``, ``By the way,``, ``Heads up:``, ``For the
record,``): read as the subject's first words, it made a person ``FYI Agnieszka …``."""


def without_directive(statement: str) -> str:
    """``statement`` without an imperative that only points at it (``Please note that Kai
    Lund moved``: ``Kai Lund moved``), its first letter then as a sentence starts."""
    lead = _DIRECTIVE.match(statement)
    if lead is None:
        return statement
    rest = statement[lead.end():]
    return rest[:1].upper() + rest[1:]
