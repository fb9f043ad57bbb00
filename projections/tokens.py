"""Text analysis shared by the recall channels: identifiers, light stems, concepts.

One analyzer feeds both the keyword channel (lexical: stems and whole identifiers)
and the default hashing embedder (stems, identifiers, concepts and character
n-grams). It is deterministic, needs no download and knows no benchmark string:

- **identifiers** (e-mails, URLs, canonical ids ``ns:local``, phone numbers,
  tokens mixing letters and digits such as ``acct-7731`` or ``sk_live_9f2``) are
  kept whole, normalised (lower case, phone numbers as digits), *and* split into
  parts, so ``alice@acme.io`` matches both itself and ``alice``;
- **words** get a light suffix-stripping stem (``lives``/``living``/``lived`` ->
  ``liv``), so inflections meet;
- a small **concept table** maps common words of agent memory to one concept
  (``live``/``reside``/``home``/``moved`` -> residence; ``job``/``employer`` ->
  work; ``like``/``prefer``/``favourite`` -> preference...), so paraphrases of
  common words meet in the embedder. The keyword channel stays lexical and does
  not use concepts.

The text interface (``memory_es.text``) reads queries and facts with the same pieces
and the same stem (:func:`word_forms`, :func:`word_parts`, :func:`stem`), so a word
recall matches is a word text targeting matches.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import NamedTuple

STOPWORDS: frozenset[str] = frozenset([
    "a", "an", "the", "is", "are", "was", "were", "be", "been", "being", "am", "do", "does",
    "did", "doing", "of", "in", "on", "at", "to", "for", "with", "by", "from", "and", "or",
    "but", "not", "no", "nor", "what", "which", "who", "whom", "whose", "where", "when", "how",
    "why", "that", "this", "these", "those", "it", "its", "i", "me", "my", "mine", "you",
    "your", "yours", "he", "him", "his", "she", "her", "hers", "they", "them", "their",
    "theirs", "we", "us", "our", "ours", "has", "have", "had", "having", "now", "about", "as",
    "into", "than", "then", "there", "here", "so", "such", "can", "could", "would", "should",
    "will", "shall", "may", "might", "must", "just", "also", "any", "some", "all", "tell",
    "know", "please", "let", "lets", "get", "got", "s", "t", "currently", "still", "very",
    "really", "too", "up", "out", "over", "under", "again",
])
"""Function words dropped from keyword terms and word features. ``where``/``when``
still contribute their concept (location/time) to the embedder."""

_CONCEPTS: dict[str, tuple[str, ...]] = {
    "residence": ("live", "lives", "living", "lived", "reside", "resides", "resident",
                  "residence", "residing", "home", "house", "housing", "dwell", "move",
                  "moved", "moving", "relocate", "relocated", "relocation", "address",
                  "apartment", "settled", "hometown"),
    "location": ("where", "city", "town", "village", "place", "location", "located",
                 "based", "country", "region", "area", "neighborhood", "neighbourhood",
                 "hometown"),
    "work": ("work", "works", "worked", "working", "job", "jobs", "employer", "employed",
             "employ", "employment", "employee", "company", "occupation", "career",
             "workplace", "office", "hired", "profession", "boss", "colleague", "firm"),
    "role": ("role", "title", "position", "profession", "occupation", "rank"),
    "preference": ("like", "likes", "liked", "prefer", "prefers", "preferred",
                   "preference", "favourite", "favorite", "fav", "love", "loves",
                   "enjoy", "enjoys", "pref", "fond", "default"),
    "dislike": ("dislike", "dislikes", "hate", "hates", "avoid", "avoids"),
    "name": ("name", "named", "called", "nickname", "surname", "firstname", "lastname"),
    "email": ("email", "e-mail", "mail", "inbox", "mailbox"),
    "phone": ("phone", "mobile", "cell", "telephone", "cellphone"),
    "contact": ("contact", "reach", "email", "phone"),
    "birth": ("birthday", "born", "birth", "dob", "birthdate"),
    "age": ("age", "aged", "old"),
    "family": ("wife", "husband", "spouse", "partner", "married", "marriage", "child",
               "children", "kid", "kids", "son", "daughter", "parent", "mother", "father",
               "mom", "mum", "dad", "sister", "brother", "sibling", "family"),
    "pet": ("pet", "pets", "dog", "dogs", "cat", "cats", "puppy", "kitten"),
    "language": ("language", "languages", "speak", "speaks", "spoken", "fluent", "tongue"),
    "food": ("food", "eat", "eats", "diet", "cuisine", "dish", "meal", "meals",
             "vegetarian", "vegan", "lunch", "dinner", "breakfast"),
    "drink": ("drink", "drinks", "beverage", "coffee", "tea"),
    "allergy": ("allergy", "allergies", "allergic", "intolerance", "intolerant"),
    "education": ("school", "study", "studied", "student", "university", "college",
                  "education", "degree", "graduate", "graduated", "major"),
    "hobby": ("hobby", "hobbies", "pastime", "interest", "interests", "interested"),
    "credential": ("password", "passcode", "passphrase", "pin", "secret", "otp", "token",
                   "apikey", "credential", "credentials", "login"),
    "schedule": ("meet", "meeting", "meetings", "appointment", "schedule", "scheduled",
                 "calendar", "deadline", "due", "event"),
    "time": ("when", "date", "time", "day", "today", "tomorrow", "yesterday"),
    "money": ("budget", "cost", "price", "spend", "salary", "income", "pay", "paid",
              "payment", "balance", "wage"),
    "vehicle": ("car", "vehicle", "drive", "drives", "truck", "bike", "motorbike"),
    "health": ("health", "doctor", "medication", "medicine", "condition", "diagnosis",
               "illness", "sick", "disease"),
    "browser": ("browser", "chrome", "firefox", "safari", "edge"),
    "timezone": ("timezone", "tz"),
}
"""Concept -> common words (stemmed when the table is built). A word may belong to
several concepts (``address`` is residence and location)."""

_ID_RE = re.compile(
    r"""
    (?P<url>https?://[^\s<>"']+)
  | (?P<email>[\w.%+\-]+@[\w\-]+(?:\.[\w\-]+)+)
  | (?P<canonical>[a-z][a-z0-9_\-]*:[\w][\w.@\-]*)
  | (?P<phone>\+?\d[\d \-().]{6,}\d)
  | (?P<word>\w+(?:['\u2019\-_.]\w+)*)
    """,
    re.VERBOSE,
)
_PARTS_RE = re.compile(r"[^\W_]+")
_ID_CHARS = re.compile(r"[\d\-_.'\u2019]")
_DIGIT = re.compile(r"\d")
_ALPHA = re.compile(r"[^\W\d_]")
_DOUBLE = re.compile(r"([b-df-hj-np-tv-z])\1$")


def normalise(text: str) -> str:
    """NFKC, case-folded: full-width and compatibility forms meet their plain spelling."""
    return unicodedata.normalize("NFKC", text).casefold()


@lru_cache(maxsize=65_536)
def stem(word: str) -> str:
    """A light, deterministic suffix stripper for English words (identifiers untouched)."""
    w = word
    if len(w) <= 3 or not w.isalpha():
        return w
    if w.endswith("ies") and len(w) > 4:
        w = w[:-3] + "y"
    elif w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    for suffix in ("ing", "edly", "ed"):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            w = w[: -len(suffix)]
            if _DOUBLE.search(w) and not w.endswith(("ll", "ss", "zz")):
                w = w[:-1]
            break
    if w.endswith("e") and len(w) > 3:
        w = w[:-1]
    return w


def _build_concepts() -> dict[str, tuple[str, ...]]:
    table: dict[str, list[str]] = {}
    for concept, words in _CONCEPTS.items():
        for word in words:
            for key in {word, stem(word)}:
                table.setdefault(key, [])
                if concept not in table[key]:
                    table[key].append(concept)
    return {k: tuple(v) for k, v in table.items()}


CONCEPTS: dict[str, tuple[str, ...]] = _build_concepts()
"""Surface word or stem -> concepts."""


class Token(NamedTuple):
    """One analysed token."""

    term: str
    """What the keyword channel indexes: a stem, or a whole normalised identifier."""
    kind: str
    """``word`` | ``id`` (whole identifier) | ``part`` (piece of an identifier) |
    ``ns`` (namespace of a canonical id: weak evidence) | ``stop``."""
    concepts: tuple[str, ...] = ()


def _word(raw: str, kind: str = "word") -> Token:
    if raw in STOPWORDS:
        return Token(raw, "stop", CONCEPTS.get(raw, ()))
    s = stem(raw)
    return Token(s, kind, CONCEPTS.get(raw) or CONCEPTS.get(s, ()))


def _parts(value: str, kind: str = "part") -> list[Token]:
    """Pieces of an identifier (stemmed like words; only plain words keep concepts)."""
    tokens = [_word(p, kind) for p in _PARTS_RE.findall(value) if p]
    if kind == "part":
        tokens = [Token(t.term, t.kind) for t in tokens]
    return tokens


UNSPACED_LETTER = "[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]"
"""A letter of a script written without spaces (kana, Han, Hangul), as a regex class."""
_SCRIPT_EDGE = re.compile(
    rf"(?<={UNSPACED_LETTER})(?=[A-Za-z0-9+])|(?<=[A-Za-z0-9])(?={UNSPACED_LETTER})")
"""Where a script written without spaces meets Latin letters or digits (``电话是1381…``):
a piece ends there, so a number or an address in such a text is a piece of its own."""


def pieces(text: str) -> list[tuple[str, str]]:
    """The raw pieces of ``text`` as ``(kind, surface)``: ``url``, ``email``,
    ``canonical``, ``phone`` or ``word`` (normalised, not yet stemmed)."""
    return [(m.lastgroup or "word", m.group())
            for m in _ID_RE.finditer(_SCRIPT_EDGE.sub(" ", normalise(text)))]


@lru_cache(maxsize=262_144)
def piece_tokens(kind: str, raw: str) -> tuple[Token, ...]:
    """Tokens of one piece (identifiers whole, then their parts)."""
    out: list[Token] = []
    if kind == "word":
        if not _ID_CHARS.search(raw):
            out.append(_word(raw))
        else:
            ident = raw.strip(".-_'\u2019")
            if _DIGIT.search(ident) and _ALPHA.search(ident):
                out.append(Token(ident, "id"))
                out.extend(_parts(ident))
            elif ident.isdigit():
                out.append(Token(ident, "id"))
            else:
                out.extend(_parts(ident, "word"))
    elif kind == "phone":
        digits = "".join(c for c in raw if c.isdigit())
        if len(digits) >= 7:
            out.append(Token(digits, "id"))
        else:
            out.extend(Token(p, "id") for p in _PARTS_RE.findall(raw))
    elif kind == "canonical":
        ident = raw.rstrip(".-")
        namespace, _, local = ident.partition(":")
        out.append(Token(ident, "id"))
        out.append(Token(namespace, "ns"))
        if "@" in local:
            out.append(Token(local, "id"))
        out.extend(_parts(local))
    else:  # url, email
        ident = raw.rstrip(".,;:!?)")
        out.append(Token(ident, "id"))
        if kind == "email":
            user, _, domain = ident.partition("@")
            out.extend(_parts(user))
            out.append(Token(domain, "part"))
        else:
            out.extend(_parts(ident.split("://", 1)[-1]))
    return tuple(out)


def identifiers_only(text: str) -> bool:
    """Is every piece of ``text`` a whole identifier (``MRN-45678``, an e-mail, a phone
    number, a random key)? Such a query has no meaning for an embedding to carry:
    identifiers are matched exactly, and its hashed features would meet unrelated facts
    by collision alone."""
    found = [piece_tokens(*piece) for piece in pieces(text)]
    return bool(found) and all(tokens and tokens[0].kind == "id" for tokens in found)


def word_forms(text: str) -> list[str]:
    """Each piece of ``text`` as one comparable word form, in order.

    The pieces of :func:`pieces` (normalised; e-mails, URLs, canonical ids and phone
    numbers whole), with the typographic apostrophe made plain and a possessive ``'s``
    dropped: ``Mia's`` -> ``mia``, ``don’t`` -> ``don't``. Not stemmed.
    """
    out: list[str] = []
    for _kind, raw in pieces(text):
        form = raw.replace("\u2019", "'")
        out.append(form[:-2] if form.endswith("'s") else form)
    return out


def word_parts(word: str) -> list[str]:
    """The letter-and-digit runs of a compound word or identifier, in order
    (``acct-7731`` -> ``acct``, ``7731``; ``user:alex`` -> ``user``, ``alex``)."""
    return _PARTS_RE.findall(word)


def analyse(text: str) -> list[Token]:
    """Tokens of ``text`` in order (identifiers whole, then their parts)."""
    return [t for kind, raw in pieces(text) for t in piece_tokens(kind, raw)]


_UNSPACED_RUN = re.compile(f"{UNSPACED_LETTER}{{3,}}")


def _bigrams(run: str) -> list[Token]:
    """The overlapping two-letter pieces of a run of a script written without spaces
    (``退休老人`` -> ``退休``, ``休老``, ``老人``).

    Why: such a run is a whole clause (``陈国华每周日上午在人民公园教…``), so as one term it
    meets only the same clause; its words are not marked. Overlapping bigrams are the
    usual lexical index of Chinese, Japanese and Korean (Lucene's CJK analyzer does the
    same): a query's words meet a fact's without a dictionary, and BM25 ranks facts
    sharing more of them first."""
    return [Token(run[i:i + 2], "word") for i in range(len(run) - 1)]


def keyword_tokens(text: str) -> list[Token]:
    """The tokens of the lexical channel's terms, in order (:func:`keyword_terms`); their
    kinds tell an exact lookup a whole identifier (``id``) from a piece or a word. A run
    of three or more letters of a script written without spaces is kept whole and as its
    bigrams (:func:`_bigrams`)."""
    tokens: list[Token] = []
    seen: set[str] = set()
    for t in analyse(text):
        if t.kind == "stop" or (t.kind in ("part", "ns") and t.term in seen):
            continue
        seen.add(t.term)
        tokens.append(t)
        if t.kind == "word" and not t.term.isascii() and _UNSPACED_RUN.fullmatch(t.term):
            tokens.extend(_bigrams(t.term))
    return tokens


def keyword_terms(text: str) -> list[str]:
    """Terms for the lexical channel: stems and identifiers, function words dropped.

    A piece of an identifier counts only where its term is not already in the text
    (``alex`` of ``user:alex`` and of ``alex@acme.io`` is one occurrence, not two).
    """
    return [t.term for t in keyword_tokens(text)]
