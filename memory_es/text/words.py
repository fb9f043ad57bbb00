"""The words of a sentence as the interpreter reads them: tokens and word classes.

A :class:`Tok` is a whitespace-separated token with its offsets; the predicates here
say what kind of word it is (capitalised, in another script, a finite verb agreeing
with the subject). Targeting does not use these tokens: it compares the recall
tokenizer's word forms (:mod:`projections.tokens`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from memory_es.text import lexicon as lx
from memory_es.text.lexicon import words
from memory_es.text.normalize import is_latin_text, strip_symbols

EDGE = ".,;:!?()[]{}\"'“”‘’"
"""Punctuation stripped from the ends of a token."""

_TOKEN = re.compile(r"\S+")

DETERMINERS = words("""
the a an this that these those my your his her its our their some any every each all no
another
""")
NOT_NAMES = words("""
all some most every each any no this that these those our their his her my your its last
next new old annual quarterly weekly daily monthly yearly temporary current main primary
first second third recent several many few other same both either neither another
""")
"""Capitalised at the start of a sentence, but never a name."""
PRONOUNS = words("he she they it we you i him her them")


@dataclass(frozen=True)
class Tok:
    """One whitespace-separated token and its offsets in the text it came from."""

    raw: str
    start: int
    end: int

    @property
    def word(self) -> str:
        """The token without surrounding punctuation (possessive kept)."""
        return self.raw.strip(EDGE)

    @property
    def low(self) -> str:
        return self.word.lower().replace("’", "'")

    @property
    def bare(self) -> str:
        """Lower case without a possessive ``'s``."""
        w = self.low
        return w[:-2] if w.endswith("'s") else w


def tokenize(text: str, base: int = 0) -> list[Tok]:
    """The tokens of ``text``, with offsets shifted by ``base``."""
    return [Tok(m.group(), base + m.start(), base + m.end()) for m in _TOKEN.finditer(text)]


def is_capitalised(word: str) -> bool:
    """Written like a name: an upper-case (or caseless non-Latin) first letter, or a
    digit followed by letters (``4K``)."""
    w = word.strip(EDGE)
    if not w:
        return False
    first = w[0]
    if first.isalpha() and not first.isascii():
        return first.isupper() or (not first.islower() and not first.isupper())
    return first.isupper() or (first.isdigit() and any(c.isalpha() for c in w))


def is_foreign_word(word: str) -> bool:
    """Letters of a script other than Latin (a name written in Cyrillic, Han, ...)."""
    w = strip_symbols(word.strip(EDGE))
    return bool(w) and any(c.isalpha() for c in w) and not is_latin_text(w)


def agrees(word: str, plural: bool) -> bool:
    """Is ``word`` a finite verb form agreeing with the subject?"""
    w = word.lower().replace("’", "'")
    if w in lx.AUXILIARIES or w in lx.MODALS:
        return True
    if w in lx.VERBS_PAST:
        return True
    if plural:
        return w in lx.VERBS_BARE
    if w in lx.VERBS_3SG:
        return True
    head, hyphen, last = w.rpartition("-")
    if hyphen and head.isalpha() and len(last) > 3 and last in lx.VERBS_3SG and (
            word.strip(EDGE).islower()):
        return True  # a verb with a word joined before it: hand-paints, test-solves
    # unknown regular past forms (reordered, repotted, decommissioned, co-authored)
    return (len(w) > 5 and w.endswith("ed") and w.replace("-", "").isalpha()
            and word.strip(EDGE).islower())


def starts_verb_phrase(toks: Sequence[Tok], plural: bool) -> int | None:
    """Index of the finite verb if ``toks`` starts a verb phrase (adverbs allowed first).
    After ``no longer`` the position says a verb follows: any regular form of a verb of
    the broad list is one (``no longer rows``), and so is a word of no list written in a
    third-person form with words after it (``no longer thatches for Moorland``)."""
    i = 0
    after_no_longer = False
    while i < len(toks) and i < 3:
        w = toks[i].low
        if w in ("no",) and i + 1 < len(toks) and toks[i + 1].low == "longer":
            i += 2
            after_no_longer = True
            continue
        if w in lx.ADVERBS and w not in lx.AUXILIARIES:
            i += 1
            continue
        break
    if i < len(toks) and (agrees(toks[i].word, plural) or (after_no_longer and (
            lx.inflected_verb(toks[i].low) is not None
            or (not plural and i + 1 < len(toks) and _third_person(toks[i])
                and toks[i + 1].word.strip(EDGE).isalpha())))):
        return i
    return None


def _third_person(tok: Tok) -> bool:
    """Written like a regular third-person verb form: lower case, letters, ``-s`` but not
    ``-ss`` (``thatches``, ``coppices``; a verb in ``-sses`` is on the broad list), and no
    word of the closed classes."""
    w = tok.word.strip(EDGE)
    return (len(w) > 3 and w.isalpha() and w.islower() and w.endswith("s")
            and not w.endswith(("ss", "sses", "us", "is")) and w not in lx.STOPWORDS)
