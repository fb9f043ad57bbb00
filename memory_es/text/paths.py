"""Names the interpreter builds from words: attribute paths, entity ids, values, topics.

``attribute_path("work", "unit", "radiology")`` -> ``work.unit.radiology``;
``entity_id("person", "Ines Caro")`` -> ``person:ines-caro``. Every path segment is
ASCII, lower case and starts with a letter, so the store accepts it.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence

from memory_es.text import lexicon as lx
from memory_es.text.normalize import ascii_fold, nfkc, slug
from memory_es.text.qualifiers import names_a_month, without_time
from memory_es.text.words import EDGE


def segment(word: str) -> str:
    """One attribute path segment: ASCII, lower case, ``_`` between runs, a letter first."""
    s = re.sub(r"[^a-z0-9]+", "_", ascii_fold(word)).strip("_")
    if not s:
        return ""
    if not s[0].isalpha():
        s = "n" + s
    return s


def attribute_path(*parts: str, limit: int = 120) -> str:
    """A dotted attribute path from words (``note`` when nothing is left)."""
    segs = [s for s in (segment(p) for p in parts) if s]
    out = ".".join(segs)[:limit].rstrip("._")
    return out or "note"


def keywords(words: Iterable[str], n: int = 3) -> list[str]:
    """Up to ``n`` content words as path segments (function words, adverbs, negators
    and auxiliaries skipped)."""
    out: list[str] = []
    for w in words:
        lw = w.lower().strip(EDGE).replace("’", "'")
        if lw.endswith("'s"):
            lw = lw[:-2]
        function = (lw in lx.STOPWORDS or lw in lx.AUXILIARIES) and not names_a_month(
            w.strip(EDGE))  # "for May": the month, not the modal
        if not lw or function or lw in lx.ADVERBS or lw in lx.NEGATORS or lw.endswith("n't"):
            continue
        seg = segment(lw)
        if seg and seg not in out:
            out.append(seg)
        if len(out) >= n:
            break
    return out


def entity_id(namespace: str, name: str) -> str:
    """``namespace:<slug of name>``; a digest when the name has no ASCII form."""
    local = slug(name)
    if not local:
        digest = hashlib.sha256(nfkc(name).strip().casefold().encode()).hexdigest()[:16]
        local = f"u{digest}"
    return f"{namespace}:{local}"


def value_text(words: Sequence[str]) -> str:
    """The words of a value as one string, edge punctuation and the temporal qualifiers
    at its end stripped (:func:`~memory_es.text.qualifiers.without_time`)."""
    return without_time(" ".join(w.strip(EDGE) for w in words).strip())


def domains_in(words: Iterable[str]) -> tuple[str, ...]:
    """The topic domains of the words, in order of first appearance; a verb and the
    particle after it count as one word (``broke up``: the thesaurus's ``break_up``)."""
    found: list[str] = []
    clean = [w.strip(EDGE) for w in words]
    for i, w in enumerate(clean):
        domains = set(lx.domains_of(w))
        if i + 1 < len(clean):
            verb = lx.lemma_of(w.lower()) or w.lower()
            domains |= lx.WORD_DOMAINS.get(f"{verb}_{clean[i + 1].lower()}", frozenset())
        for d in sorted(domains):
            if d not in found:
                found.append(d)
    return tuple(found)
