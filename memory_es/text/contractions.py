"""A pronoun's contractions written out before a sentence is read (``I'm`` -> ``I am``),
``used to`` before a verb read as ``no longer`` and ``started`` before a gerund as ``is
now``: the rules read the written-out words, and a clause keeps the words as said
(:class:`Expansion`).

The rules read a subject and then its verb, word by word; ``I'm vegetarian now`` had no
subject they knew and became a note about a made-up topic, although agents hear the
user speak in contractions more often than not. A pronoun's contractions are written
out; after a name, ``'s`` is the possessive (``Omar's car``) unless a participle with no
verb after it follows (``Omar's moved to York``: has) or a word no noun phrase starts
with (``Omar's not vegan``: is), and a negated verb (``isn't``,
``don't``) is read as it stands. ``'s`` and ``'d`` stand for two verbs
each, and the words after them decide: a past participle that reads as an action makes
them ``has`` and ``had`` (``she's moved``, ``I'd sold it``), anything else ``is`` and
``would`` (``she's a nurse``, ``she's married to Tom``, ``I'd like``).
"""

from __future__ import annotations

import re

from memory_es.text import lexicon as lx
from memory_es.text.predicates import PREPOSITIONS


def _idioms() -> dict[str, tuple[str, str]]:
    """``data/ending_idioms.txt``: each idiom as said -> (what the rules read, what they
    read after a form of *have*), ``one's`` written out as each possessive determiner."""
    out: dict[str, tuple[str, str]] = {}
    for line in lx.data_lines("ending_idioms.txt"):
        said, _, read = (part.strip() for part in line.partition("="))
        past, _, perfect = (part.strip() for part in read.partition(","))
        for owner in lx.POSSESSIVE_DETERMINERS if "one's" in said else ("",):
            out[said.replace("one's", owner)] = (past.replace("one's", owner),
                                                 (perfect or past).replace("one's", owner))
    return out


_IDIOMS = _idioms()
_IDIOM_ALT = "|".join(re.escape(i).replace("'", "['’]")
                      for i in sorted(_IDIOMS, key=len, reverse=True))
_IDIOM = re.compile(rf"\b(?:{_IDIOM_ALT})\b", re.IGNORECASE)
"""An idiom of stopping (``called it a day``, ``handed in her notice``), read as the plain
word of ending it means (``stopped``, ``resigned``): the rules know those words."""
_IDIOM_KEYS = frozenset(max((w for w in i.split() if w not in lx.POSSESSIVE_DETERMINERS), key=len)
                        for i in _IDIOMS)
"""One word of each idiom (its longest): a sentence with none of them holds no idiom, and
is not searched for one (the search costs ≈ 16 µs a sentence, the check ≈ 1)."""
_KEY_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")
_HAVE = re.compile(r"(?:\b(?:has|have|had)|['’](?:s|ve|d))\s+$", re.IGNORECASE)


def _idiom_read(m: re.Match[str], sentence: str) -> str | None:
    """What the rules read for the idiom ``m`` found; None where it is literal, after a
    form of *be* or *get* (``the books are packed in boxes``)."""
    before = sentence[:m.start()]
    words = before.split()
    if words and lx.lemma_of(words[-1].lower()) in ("be", "get"):
        return None
    past, perfect = _IDIOMS[m.group().lower().replace("’", "'")]
    return perfect if _HAVE.search(before) else past


_PRONOUNS = ("I", "you", "we", "they", "he", "she", "it", "that", "there", "who", "what")
_CONTRACTED = re.compile(rf"\b({'|'.join(_PRONOUNS)})['’](m|re|ve|ll|d|s)\b", re.IGNORECASE)
_ONE_VERB = {"m": "am", "re": "are", "ve": "have", "ll": "will"}
_TWO_VERBS = {"s": ("has", "is"), "d": ("had", "would")}
_WORD = re.compile(r"[A-Za-z]+")


def expand(sentence: str) -> str:
    """``sentence`` with each pronoun's contraction written out in full."""
    return Expansion.of(sentence).written


class Expansion:
    """A sentence with its contractions written out, and ``used to`` before a verb as ``no
    longer`` (``written``), and where each edit was: the reading works on the written-out
    words, and a clause's text is given back as the user wrote it (:meth:`as_said`)."""

    __slots__ = ("edits", "said", "written")

    def __init__(self, said: str, edits: list[tuple[int, int, str]]) -> None:
        self.said = said
        self.edits = edits
        """(start, end, written out) of each edit in ``said``, in order."""
        parts, at = [], 0
        for start, end, out in edits:
            parts += [said[at:start], out]
            at = end
        self.written = "".join([*parts, said[at:]])

    @classmethod
    def of(cls, sentence: str) -> Expansion:
        low = sentence.lower()
        idioms = [(m.start(), m.end(), read) for m in _IDIOM.finditer(sentence)
                  if (read := _idiom_read(m, sentence)) is not None
                  ] if _IDIOM_KEYS.intersection(_KEY_WORD.findall(low.replace("’", "'"))) else []
        if ("'" not in sentence and "’" not in sentence and "used" not in low
                and "start" not in low and "beg" not in low and not idioms):
            return cls(sentence, [])
        edits = [*idioms, *((m.start(), m.end(), _written_out(m, sentence))
                            for m in _CONTRACTED.finditer(sentence))]
        taken = {i for start, end, _out in edits for i in range(start, end)}
        edits += [(m.start(), m.end(), out) for m in _NAMED.finditer(sentence)
                  if m.start() not in taken and (out := _verb_after_name(m, sentence)) != m.group()]
        edits += [(m.start(), m.end(), "no longer") for m in _PAST_HABIT.finditer(sentence)
                  if lx.lemma_of(m.group("verb").lower()) == m.group("verb").lower()
                  and not _after_be_or_get(sentence[:m.start()])]
        edits += [(m.start(), m.end(), f"{_be_after(sentence[:m.start()])} now")
                  for m in _BEGAN.finditer(sentence)
                  if lx.lemma_of(m.group("gerund").lower()) is not None]
        return cls(sentence, sorted(edits))

    def as_said(self, text: str) -> str:
        """``text``, a part of :attr:`written`, as the user wrote it (``text`` itself when
        it is no such part, or no contraction was written out)."""
        at = self.written.find(text) if self.edits else -1
        if at < 0:
            return text
        return self.said[self._said_at(at):self._said_at(at + len(text))]

    def _said_at(self, pos: int) -> int:
        """The position in :attr:`said` of ``pos`` in :attr:`written` (an edit's end for a
        position inside its written-out words, its start for their first)."""
        shift = 0
        for start, end, out in self.edits:
            if pos < start + shift:
                break
            if pos < start + shift + len(out):
                return start if pos == start + shift else end
            shift += len(out) - (end - start)
        return pos - shift


def _written_out(m: re.Match[str], sentence: str) -> str:
    short = m.group(2).lower()
    verb = _ONE_VERB.get(short)
    if verb is None:
        perfect, plain = _TWO_VERBS[short]
        verb = perfect if _participle_follows(sentence[m.end():]) else plain
    return f"{m.group(1)} {verb}"


_NO_MODIFIER = frozenset({"got", "been"})
"""Participles that never modify a noun (unlike ``left hand``, ``hired help``): after
``'s`` they are the verb whatever follows (``My mum's got a dog called Biscuit``)."""


def _verb_after_name(m: re.Match[str], sentence: str) -> str:
    rest = sentence[m.end():]
    words = [w.lower() for w in _WORD.findall(rest)[:6]]
    at = _first_verb_at(words)
    if at < len(words) and words[at] in _NO_MODIFIER:
        return f"{m.group(1)} has"
    if _participle_follows(rest) and not _finite_later(rest):
        return f"{m.group(1)} has"
    if _NO_NOUN_NEXT.match(rest):
        return f"{m.group(1)} is"
    return m.group()


_NAMED = re.compile(
    rf"\b([A-Z][\w-]*|(?i:{'|'.join(sorted(lx.POSSESSIVE_DETERMINERS))})\s+[a-z][\w-]*)['’]s(?=\s)")
"""A capitalised word, or a noun after a possessive determiner (``My mum's``), and
``'s``: a possessive (``Tom's car is …``), unless a participle follows and no finite verb
comes after it (``Tom Wu's moved to York``, ``My mum's got a dog``: has); ``Tom's left
hand hurts`` keeps its possessive."""


_PAST_HABIT = re.compile(r"\bused\s+to(?=\s+(?P<verb>[A-Za-z]+)\b)", re.IGNORECASE)
"""``used to`` before a verb's base form, as a clause's verb (``Jade used to play the
drums``): a habit or state that held and holds no more (Quirk et al. 1985, 4.55: *used
to* is past only), read as ``no longer``; not after *be* or *get* (``is used to working
nights``, ``she's used to work nights``: accustomed to it, :func:`_after_be_or_get`)."""
_BEGAN = re.compile(r"\b(?:(?:has|have|had)\s+)?(?:started|began|begun)"
                    r"(?=\s+(?P<gerund>[A-Za-z]+ing)\b)", re.IGNORECASE)
"""``started`` or ``began`` before a gerund, as a clause's verb (``Nora started working at
a school``): the act has begun and goes on (an inchoative, Quirk et al. 1985, 16.47),
read as ``is now`` and the gerund (``is now working at a school``), what the rules read
as a change of state."""


def _be_after(before: str) -> str:
    """The present of *be* for the subject just before (``I``: am; ``we``, ``you``,
    ``they``: are; anything else: is)."""
    words = before.split()
    last = words[-1].lower() if words else ""
    return "am" if last == "i" else "are" if last in ("we", "you", "they") else "is"


_NO_NOUN_NEXT = re.compile(r"\s+(?:not|never|no\s+longer|now|still|also|always|already)\s",
                           re.IGNORECASE)
"""Words no possessed noun phrase starts with: after a name's ``'s`` they make it ``is``
(``Mia Chen's not vegetarian anymore``, ``Ade's now a registrar``, ``Callum's still on
the pager``)."""


def _finite_later(rest: str) -> bool:
    """Does a finite verb come after the participle, before any conjunction (``left hand
    hurts``, ``hired help arrived``)? Then the words before it were a noun phrase, its
    subject (``sold her car and bought a bike`` has none: a second predicate)."""
    words = [w.lower() for w in _WORD.findall(rest.split(",", maxsplit=1)[0])]
    words = words[_first_verb_at(words) + 1:]
    words = words[:next((i for i, w in enumerate(words) if w in ("and", "but", "or")),
                        len(words))]
    return any(w in lx.VERBS_3SG or w in lx.AUXILIARIES or w in lx.VERBS_PAST for w in words)


def _participle_follows(rest: str) -> bool:
    """Does a past participle come next (past an adverb)? An irregular one always
    (``she's left``, ``it's been``, ``she's got``). A regular one when an object follows
    it (``he's joined Acme``); before a preposition or at the end, only a verb of change
    or cessation (``she's moved to Bath``, ``he's retired``): the others read as a state
    (``she's married to Tom``, ``he's based in Leeds``)."""
    words = [w.lower() for w in _WORD.findall(rest)[:6]]
    at = _first_verb_at(words)
    if at == len(words):
        return False
    word = words[at]
    if word in lx.IRREGULAR_PAST or _IDIOM.match(" ".join(words[at:])):
        return True
    if word not in lx.VERBS_PAST:
        return False
    after = words[at + 1] if at + 1 < len(words) else None
    if after is not None and after not in PREPOSITIONS:
        return True
    return lx.lemma_of(word) in lx.CHANGE_VERBS | lx.CESSATION_VERBS


def _after_be_or_get(before: str) -> bool:
    """Is the last word of ``before`` a form of *be* or *get* (by the verb list), or a
    contraction of *be* (``she's``, ``we're``, ``I'm``, ``Tom's``)?"""
    words = before.split()
    if not words:
        return False
    last = words[-1].lower().replace("’", "'")
    return last.partition("'")[2] in ("s", "re", "m") or lx.lemma_of(last) in ("be", "get")


def _first_verb_at(words: list[str]) -> int:
    """Where the word after the contraction's adverbs is (``now``, ``never``, ``not``)."""
    return next((i for i, w in enumerate(words) if w not in lx.ADVERBS and w != "not"),
                len(words))
