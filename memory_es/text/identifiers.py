"""Canonical identifiers in free text: find them, normalise them, compare them exactly.

An identifier is matched by its canonical form, never by prefix or substring
(SPEC §2.7): ``nora@corp.io`` is not ``nora.q@corp.io``, ``OPS-41`` is not
``OPS-412``. Normalisation removes only what does not change the identity:

* e-mail: case, quotes around the local part (``"nora.q"@corp.io``);
* phone: punctuation and spacing, digits kept with a leading ``+`` when written;
* URL: scheme, ``www.``, trailing slash, case;
* path: ``\\`` vs ``/``, repeated separators, case;
* IPv4: zero padding of octets, a port after it; MAC: case;
* dates and times: written forms (``12/25/2025`` = ``2025-12-25``, ``2:30 PM`` = ``14:30``);
* codes, keys and numbers: case and the separators ``-``, ``.`` and spaces between groups
  (``XK7L-9P3Q`` = ``XK7L.9P3Q`` = ``xk7l9p3q``; ``4111 1111`` = ``4111-1111``).

A token is an identifier only when its **form** says so (SPEC §15): an e-mail, a phone
number, a URL, an IP or MAC address, a path, a UUID, a card number, a key (a long token
mixing letters with digits and a symbol or mixed case), a grouped record code
(``INV-300``, ``MRN-45678``: letters and at least three digits joined by ``-``/``_``),
or any number or code right after a label that says what it is (``account 7731``,
``order ABC123``, ``plate KX19 ABD``, ``commit hash 9fe01c7``; the labels are data:
``data/identifier_labels.txt``). Mixing letters and digits is not enough: ``CO2``,
``MP3``, ``4K``, ``B12`` are words. A query that is a single code-like token names
that token exactly (:func:`query_identifiers`), and matches only facts that carry the
very same token (:func:`code_tokens`).

Phone numbers match with and without country code and trunk zero (``+44 20 7946
0958`` = ``020 7946 0958`` = ``0044 (0)20 7946 0958``); ``a@x.io`` matches the
sub-address ``a+tag@x.io``; a relative path matches the same path under a drive or
root; a code matches the same code with words appended that only name its kind
(``sk-17qu`` ~ ``sk-17qu-secret``: identifier labels), never with any other word or digit
(``db-eu-02`` is not ``db-eu-02-replica``, ``INV-300`` is not ``INV-3001``). Nothing else
is fuzzy.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import lru_cache

from memory_es.text.lexicon import (
    CHINESE,
    COMMON_NOUNS,
    GERMAN,
    data_sections,
    data_words,
    words,
)
from memory_es.text.normalize import clean, strip_symbols
from memory_es.text.segment import leading_name
from projections.tokens import UNSPACED_LETTER

_LABELS = data_sections("identifier_labels.txt")
IDENTIFIER_LABELS = frozenset(w for section in _LABELS.values() for w in section)
"""Nouns that say the token after them is an identifier (``account``, ``order``, ``VIN``)."""
_HEADS = frozenset(GERMAN["label_heads"])
_LONG_HEADS = tuple(h for h in _HEADS if len(h) >= 6)
_CJK_HEADS = tuple(CHINESE["label_heads"])
_UNSPACED_WORD = re.compile(f"{UNSPACED_LETTER}+")
POSSESSIVE = "\u7684"
"""的, the particle of possession: a run holding it is a phrase (X's label), no label."""
NAME_LABELS = frozenset(_LABELS["name"])
"""Labels of a name chosen for an account or a machine (``username``): the name after
them is an identifier without a digit when its parts are joined (``tquinn-dev``)."""
JOINED_NAME = re.compile(r"[A-Za-z0-9]+(?:[_\-.][A-Za-z0-9]+)+")
"""A name of parts joined by ``-``, ``_`` or ``.`` and no space (``tquinn-dev``)."""
NUMBER_WORDS = ("number", "no", "nr", "id", "code", "hash")
"""Words that may stand between a label and its identifier (``order no. 123``): read as
part of the label, never as the identifier itself."""
_COPULAS = ("is", "was", "are", "lautet", "lauten", *(w for w in GERMAN["copula"]
                                                    if w not in GERMAN["first_person_only"]))
"""What may tie a label to its identifier: ``passport number is``, ``Mitgliedsnummer ist``,
``Kennzeichen lautet`` (German *lauten*, to read: how a number or a name is written)."""


def _written_open(label: str) -> str:
    """A label's pattern: a compound of two nouns may also be written open or hyphenated
    (``callsign``, ``call sign``, ``call-sign``; ``postcode``, ``post code``)."""
    for i in range(3, len(label) - 2):
        if label[:i] in COMMON_NOUNS and label[i:] in COMMON_NOUNS:
            return rf"{re.escape(label[:i])}[\s\-]?{re.escape(label[i:])}"
    return re.escape(label)


_LABEL_ALT = "|".join([rf"\w*(?:{'|'.join(_LONG_HEADS)})",  # a German compound's head
                       *sorted((_written_open(w) for w in IDENTIFIER_LABELS), key=len,
                               reverse=True)])
_NUMBER_ALT = "|".join(w + r"\.?" for w in NUMBER_WORDS)
_WHOSE = (r"(?:\s+(?:at|with|for|from|on|in|of|von|bei|für|im|am|beim)"
          r"(?:\s+[^\W\d][\w'’&\-]*){1,8})?"
          r"(?:,\s+(?:which|that|who)\s[^,.;:]{1,80},)?")
"""Whose or where the number is, and an aside on it set off by commas, between the label
and its copula: ``student number at Leeds City College is …``, ``member number with the
club is …``, ``blood donor number, which he shows at every session, is …``,
``Kennzeichen von Friederikes Kleinwagen lautet …`` (only before a copula: without one,
the words after a label are no identifier's owner)."""
_LABELLED = re.compile(
    rf"\b(?:{_LABEL_ALT})(?:[_\-](?:id|no|nr|number|code))?\b(?:\s+(?:{_LABEL_ALT})\b)*"
    rf"(?:\s+(?:(?:{_NUMBER_ALT})(?!\w)|#))?(?:{_WHOSE}(?-i:\s+(?:{'|'.join(_COPULAS)})(?=\s)))?"
    r"\s*[:#]?\s*"
    r"((?:#?[A-Za-z0-9][A-Za-z0-9_\-./]*[A-Za-z0-9]|(?-i:[A-Z])(?=\s\d))"
    r"(?-i:\s(?:(?=[A-Z]*\d)[A-Z0-9]{2,12}|[A-Z]{2,4})(?![\w\-])"
    r"(?:\s(?=[A-Z]*\d)[A-Z0-9]{2,12}(?![\w\-]))*"
    r"(?:\s[A-Z]{1,3}(?=\s*(?:[.,;:!?)]|$)))?)?)",
    re.IGNORECASE)
"""A label (``licence plate``, ``passport number is``) and the number or code after it,
which may be written in groups of capitals and digits (``KX19 ABD``, ``IE 6388047V``,
``K 881 2934``): after the first, each group holds a digit, except a second group of
two to four capitals (a registration's letters) and a last group of one to three
capitals that ends the sentence or clause (a UK national insurance number's suffix,
``QQ 12 34 56 C``; an Italian or French plate's last letters, ``GF 447 KD``)."""

TLDS = words("""
com org net io ai co uk de fr br au jp cn ru in edu gov dev app info biz me us ca eu nl es
it ch se no dk fi pl pt be at cz gr ie il kr mx nz sg tw tr za ar cl xyz tech cloud online
site store shop ly gg tv fm sh to
""")
FILE_EXTENSIONS = words("""
zip gz tar tgz bz2 xz rar 7z pdf doc docx xls xlsx ppt pptx txt csv tsv json xml yaml yml
toml ini cfg conf log md rst html htm css js ts py rb go rs java c h cpp sh bat exe dll so
bin img iso png jpg jpeg gif svg webp mp3 mp4 wav mov avi bak tmp db sqlite parquet key
pem crt
""")

HASHED_KINDS = frozenset({"secret", "card"})
"""Kinds whose canonical form is itself sensitive: their entity ids carry a digest."""

_UNITS = re.compile(
    r"^\d+(?:st|nd|rd|th|km|k|m|mi|kg|mg|g|lb|lbs|ml|l|gb|mb|tb|kb|ms|s|h|hr|hrs|min|"
    r"x|am|pm|yo|mph|kph|c|f|v|w|kw|mw|px|pt|p)$", re.IGNORECASE)

_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("url", re.compile(
        r"(?:\b[a-z][a-z0-9+.\-]*://|\bwww\.)[^\s<>\"'()]+"
        r"|\b[a-z0-9](?:[a-z0-9\-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9\-]*[a-z0-9])?)*"
        r"\.[a-z]{2,10}/[^\s<>\"'()]*", re.IGNORECASE)),
    ("email", re.compile(
        r"(?:\"[^\"\s@]+\"|(?<![\w.+\-])[\w.+\-]*\w)@[\w\-]+(?:\.[\w\-]+)+")),
    ("path", re.compile(
        r"\b[A-Za-z]:(?:\\+|/)[^\s<>\"']+"
        r"|(?<![\w.:/])/[\w.\-]+(?:/[\w.\-]+)+/?"
        r"|(?<![\w.:/])/[\w\-]+\.[\w]+"
        r"|\b[\w\-]+(?:/[\w.\-]+)*/[\w\-]+\.[A-Za-z0-9]{1,5}\b")),
    ("mac", re.compile(r"\b[0-9A-Fa-f]{2}(?::[0-9A-Fa-f]{2}){4,7}\b"
                       r"|\b[0-9A-Fa-f]{2}(?:-[0-9A-Fa-f]{2}){5,7}\b"
                       r"|\b[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}\b")),
    ("ip", re.compile(r"(?<![\w.])\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5}(?!\d))?(?![\w]|\.\d)")),
    ("uuid", re.compile(
        r"\b[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}\b")),
    ("iban", re.compile(r"\b[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,3})?\b")),
    ("date", re.compile(r"\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}/\d{1,2}/\d{4}\b"
                        r"|\b\d{1,2}\.\d{1,2}\.\d{4}\b")),
    ("time", re.compile(r"\b(?:[01]?\d|2[0-3]):[0-5]\d(?:\s*[AaPp]\.?[Mm]\.?)?(?![\w:])"
                        r"|\b(?:1[0-2]|0?[1-9])\s*[AaPp]\.?[Mm]\.?(?!\w)")),
    ("phone", re.compile(  # after a letter of an unspaced script too (手机号是139 5712 6048)
        r"(?<![A-Za-z0-9_+#\-$,.])(?:(?:\+|\b00)\d{1,3}[\s.\-]?)?(?:\(0\)[\s.\-]?)?"
        r"(?:\(\d{1,5}\)[\s.\-]?)?\d{1,6}(?:[\s.\-]\d{1,8}){1,5}"
        r"(?![\w\-]|\.\d)")),
    ("handle", re.compile(r"(?<![\w@.])@[A-Za-z0-9_](?:[\w\-.]*[\w])?")),
    ("hex", re.compile(r"(?<![\w&])#[0-9A-Fa-f]{6}\b|(?<![\w&])#[0-9A-Fa-f]{3}\b")),
    ("domain", re.compile(
        r"(?<![\w@.\-/])[a-z0-9](?:[a-z0-9\-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9\-]*[a-z0-9])?)+"
        r"(?![\w\-/@])", re.IGNORECASE)),
    ("code", re.compile(
        r"(?<![\w@/\\$,])#?[A-Za-z0-9](?:[A-Za-z0-9_\-.!#$%&*+]*[A-Za-z0-9_!#$%&*+])?"
        r"(?![\w@/\\])")),
]


@dataclass(frozen=True)
class Identifier:
    """One identifier found in a text."""

    kind: str
    """``email``, ``phone``, ``url``, ``domain``, ``path``, ``ip``, ``mac``, ``uuid``,
    ``date``, ``time``, ``handle``, ``hex``, ``number``, ``card``, ``code`` or ``secret``."""
    surface: str
    """As written (after Unicode hygiene)."""
    canonical: str
    """The normalised form compared for identity."""
    start: int = 0
    end: int = 0

    @property
    def entity(self) -> str:
        """A canonical entity id (``namespace:local``) for facts about this identifier."""
        return identifier_entity(self.kind, self.canonical)

    def as_dict(self) -> dict[str, str]:
        return {"kind": self.kind, "surface": self.surface, "canonical": self.canonical}


_ENTITY_NS = {"email": "email", "phone": "phone", "url": "url", "domain": "domain",
              "path": "path", "ip": "ip", "mac": "mac", "uuid": "token", "date": "date",
              "time": "time", "handle": "handle", "hex": "code", "number": "id",
              "code": "id", "card": "card", "secret": "secret"}
_LOCAL_OK = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@+\-/#]{0,255}$")


def identifier_entity(kind: str, canonical: str) -> str:
    """Entity id for an identifier; sensitive kinds carry a digest, not the value."""
    ns = _ENTITY_NS.get(kind, "id")
    if kind in HASHED_KINDS:
        return f"{ns}:h{hashlib.sha256(canonical.encode()).hexdigest()[:20]}"
    if kind == "phone":
        return f"{ns}:{phone_key(canonical)}"
    local = canonical.replace(":", "/").lstrip("+")
    if canonical.startswith("+"):
        local = "00" + local
    if not _LOCAL_OK.match(local):
        local = "h" + hashlib.sha256(canonical.encode()).hexdigest()[:20]
    return f"{ns}:{local}"


def _digits(s: str) -> str:
    return "".join(c for c in s if c.isdigit())


def _trim(surface: str) -> str:
    return surface.rstrip(".,;:!?)]}'\"”’").lstrip("([{'\"“‘")


def _canon_url(s: str) -> str:
    """Lower case, without a web scheme (``https://x.io`` and ``x.io`` are one address);
    any other scheme stays (``s3://reef-data`` is no web page)."""
    s = s.lower()
    s = re.sub(r"^(?:https?|ftp)://", "", s)
    s = re.sub(r"^www\.", "", s)
    return s.rstrip("/")


def _canon_path(s: str) -> str:
    s = s.replace("\\", "/")
    s = re.sub(r"/{2,}", "/", s)
    return s.lower().rstrip("/")


def _canon_time(s: str) -> str:
    m = re.match(r"^(\d{1,2})(?::(\d{2}))?\s*([AaPp])?", s)
    if m is None:
        return s
    hour, minute, half = int(m.group(1)), int(m.group(2) or 0), (m.group(3) or "").lower()
    if half == "p" and hour < 12:
        hour += 12
    if half == "a" and hour == 12:
        hour = 0
    return f"{hour:02d}:{minute:02d}"


def _canon_date(s: str) -> str:
    if re.match(r"^\d{4}-\d{2}-\d{2}$", s):
        return s
    sep = "/" if "/" in s else "."
    a, b, year = (int(x) for x in s.split(sep))
    month, day = (a, b) if sep == "/" and a <= 12 else (b, a)
    if month > 12:
        month, day = day, month
    return f"{year:04d}-{month:02d}-{day:02d}"


def _canon_code(s: str) -> str:
    """A code's canonical form: separators dropped, lower case; a code of digits and
    separators alone is its digits, as a number's canonical form is (``61/223/0047``)."""
    if re.fullmatch(r"[\d\-./\s]+", s) and any(c.isdigit() for c in s):
        return _digits(s)
    return re.sub(r"[\-.\s_]", "", s.lstrip("#")).lower()


def _phone_digits(surface: str) -> str:
    """Digits of a phone number, ``+`` first when international (``00`` counts as ``+``),
    a ``(0)`` trunk marker inside an international number dropped."""
    s = surface.strip()
    international = s.startswith("+") or (s.startswith("00") and not s.startswith("000"))
    if international:
        s = re.sub(r"\(0\)", "", s)
    digits = _digits(s)
    if s.startswith("00") and international:
        digits = digits[2:]
    return ("+" + digits) if international else digits


_YEAR_RANGE = re.compile(r"^(?:19|20)\d{2}\s*[-\u2013]\s*(?:19|20)?\d{2}$")


def _classify_digits(surface: str) -> tuple[str, str] | None:
    """Kind and canonical form of a run of digit groups (phone, card, number), or None
    when its form does not make it an identifier (an amount, a year range)."""
    digits = _digits(surface)
    groups = [g for g in re.split(r"[\s.\-()]+", surface.strip("+() ")) if g]
    if len(digits) < 3 or _YEAR_RANGE.match(surface.strip()):
        return None
    phone = _phone_digits(surface)
    if phone.startswith("+"):
        return ("phone", phone) if 7 <= len(digits) <= 17 else None
    if 13 <= len(digits) <= 19 and len(groups) >= 3 and all(len(g) == 4 for g in groups[:-1]):
        return "card", digits
    lengths = [len(g) for g in groups]
    nanp = lengths in ([3, 3, 4], [3, 4], [1, 3, 3, 4])
    # a Chinese mobile number: eleven digits from 1, written 3-4-4 (MIIT's numbering plan)
    cn_mobile = lengths == [3, 4, 4] and digits.startswith("1")
    trunk = digits.startswith("0") and 9 <= len(digits) <= 12 and len(groups) >= 2
    if nanp or cn_mobile or trunk or surface.lstrip().startswith("("):
        return ("phone", digits) if len(digits) >= 7 else None
    if "-" in surface and len(digits) >= 6:
        return "number", digits  # a hyphenated record number (``2024-1001``, ``123-45-6789``)
    if len(groups) == 1 and len(digits) >= 6:
        return "number", digits  # a long bare number (a one-time code, a member number)
    return None


def _secretish(token: str) -> bool:
    return any(c in token for c in "!#$%&*") and any(c.isalpha() for c in token)


_GROUPED = re.compile(r"^[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)+$")
_VOWELS = frozenset("aeiou")


def _random_group(group: str) -> bool:
    """A group of ten or more letters and digits that no word has the shape of: fewer
    than one vowel in four letters, or seven consonants in a row (a generated token,
    ``yqqcxzpqkf``; words such as ``established``, ``lengthwise``, ``catchphrase`` are
    not)."""
    if len(group) < 10 or not group.isalnum() or not group.isascii():
        return False
    letters = [c for c in group.lower() if c.isalpha()]
    if not letters:
        return False
    vowels = sum(c in _VOWELS for c in letters)
    return vowels * 4 < len(letters) or bool(re.search(r"[^aeiou\d]{7}", group.lower()))


def _code_kind(token: str) -> str | None:
    """Is a bare token an identifier by its form? A key (8+ characters mixing letters
    with digits and a symbol, mixed case, or 12+ characters; or groups joined by
    ``-``/``_`` one of which is a generated token, :func:`_random_group`), a grouped record code
    (letters and at least three digits joined by ``-``/``_``, five or more characters),
    or a long bare number. ``CO2``, ``MP3``, ``4K``, ``COVID-19``, ``12-hour`` are not."""
    core = token.lstrip("#")
    digits = sum(c.isdigit() for c in core)
    letters = sum(c.isalpha() for c in core)
    if _GROUPED.match(core) and any(_random_group(g) for g in re.split(r"[-_]", core)):
        return "code"  # a key: a prefix or label joined to a generated token (no digit needed)
    if len(core) < 5 or not digits:
        return None
    if _secretish(core):
        return "secret" if len(core) >= 6 and letters else None
    if letters and len(core) >= 8 and re.fullmatch(r"[A-Za-z0-9_\-]+", core) and (
            (any(c.isupper() for c in core) and any(c.islower() for c in core))
            or len(core) >= 12):
        return "code"  # a key or a long serial (``deltaFoxtrot123``, a VIN)
    if _GROUPED.match(core) and digits >= 3 and letters and not re.match(
            r"^\d+(?:-[a-z]{3,})+$", core):
        return "code"
    if not letters and digits >= 6:
        return "number"
    return None


def _labelled(text: str, taken: list[tuple[int, int]],
              found: list[Identifier]) -> list[Identifier]:
    """Numbers and codes right after a label that says what they are (``order ABC123``).

    A labelled code that opens with letters and holds digit groups read as a phone or a card
    (``passport number K 881 2934``) replaces them: the letters say it is no phone."""
    out: list[Identifier] = []
    pos = 0
    while (m := _LABELLED.search(text, pos)) is not None:
        pos = m.end()
        token = _trim(m.group(1))
        first, _, grouped = token.partition(" ")
        if grouped and not any(c.isdigit() for c in first) and not first.lstrip("#").isupper():
            token = first  # "server has 16 GB": a word and a number are no code in groups
        start = m.start(1)
        end = start + len(token)
        core = token.lstrip("#")
        named = JOINED_NAME.fullmatch(core) is not None and not NAME_LABELS.isdisjoint(
            re.findall(r"[a-z]+", text[m.start():start].lower()))
        if not (named or any(c.isdigit() for c in core)) or len(re.sub(r"\W", "", core)) < 3:
            pos = start  # no identifier, perhaps the next label (``Server hostname: …``)
            continue
        inside = [i for i in found if not (end <= i.start or start >= i.end)]
        if inside and core[:1].isalpha() and all(
                i.kind in ("phone", "number", "card") and start < i.start and i.end <= end
                for i in inside):
            for i in inside:
                found.remove(i)
                taken.remove((i.start, i.end))
        if any(not (end <= s or start >= e) for s, e in taken):
            continue
        if text[end:end + 1] and text[end] in "!#$%&*@":
            continue  # part of a key or an address: its own pattern reads it whole
        if not any(c.isalpha() for c in core):
            kind, canon = "number", _digits(core)
        else:
            kind, canon = "code", _canon_code(core)
        out.append(Identifier(kind, token, canon, start, end))
        taken.append((start, end))
    return out


def _extract(text: str) -> tuple[Identifier, ...]:
    found: list[Identifier] = []
    taken: list[tuple[int, int]] = []

    def free(a: int, b: int) -> bool:
        return all(b <= s or a >= e for s, e in taken)

    for kind, pattern in _PATTERNS:
        for m in pattern.finditer(text):
            raw = m.group()
            surface = _trim(raw)
            if not surface:
                continue
            start = m.start() + raw.find(surface)
            end = start + len(surface)
            if not free(start, end):
                continue
            ident = _make(kind, surface)
            if ident is None:
                continue
            found.append(Identifier(ident[0], surface, ident[1], start, end))
            taken.append((start, end))
        if kind == "phone":
            found += _labelled(text, taken, found)  # before bare codes: the label decides the span
    found.sort(key=lambda i: i.start)
    return tuple(found)


def _make(kind: str, surface: str) -> tuple[str, str] | None:
    if kind == "url":
        canon = _canon_url(surface)
        if "://" in surface:  # a scheme (RFC 3986): the form says it is an address
            return ("url", canon) if canon.rsplit("://", 1)[-1].strip("/") else None
        host = canon.split("/", 1)[0]
        if "." not in host:
            return None
        tld = host.rsplit(".", 1)[-1]
        if not surface.lower().startswith(("http", "ftp", "www.")) and tld not in TLDS:
            return None
        return "url", canon
    if kind == "email":
        local, _, domain = surface.rpartition("@")
        return "email", f"{local.strip(chr(34)).lower()}@{domain.lower().rstrip('.')}"
    if kind == "path":
        return "path", _canon_path(surface)
    if kind == "mac":  # 00:1a:2b:…, 00-1A-2B-…, 001a.2b3c.4d5e: one address (IEEE 802)
        digits = re.sub(r"[^0-9a-f]", "", surface.lower())
        return "mac", ":".join(digits[i:i + 2] for i in range(0, len(digits), 2))
    if kind == "iban":  # country, check digits, then the account in groups of four
        compact = surface.replace(" ", "")
        return ("code", compact.lower()) if 15 <= len(compact) <= 34 else None
    if kind == "ip":  # a port after it (10.4.0.12:8080) is where on the host, not who
        octets = [int(x) for x in surface.split(":", 1)[0].split(".")]
        if any(o > 255 for o in octets):
            return None
        return "ip", ".".join(str(o) for o in octets)
    if kind == "uuid":
        if not re.search(r"[a-fA-F]", surface) and "-" not in surface:
            return None
        return "uuid", surface.replace("-", "").lower()
    if kind == "date":
        try:
            return "date", _canon_date(surface)
        except ValueError:
            return None
    if kind == "time":
        if ":" not in surface and not re.search(r"[AaPp]\.?[Mm]", surface):
            return None
        return "time", _canon_time(surface)
    if kind == "phone":
        return _classify_digits(surface)
    if kind == "handle":
        return "handle", surface[1:].lower().rstrip(".-")
    if kind == "hex":
        return "code", surface[1:].lower()
    if kind == "domain":
        canon = surface.lower().rstrip(".")
        labels = canon.split(".")
        if labels[-1] not in TLDS or (labels[-1] in FILE_EXTENSIONS and len(labels) == 2):
            if labels[-1] in FILE_EXTENSIONS and any(c in surface for c in "_0123456789"):
                return "code", canon
            return None
        if all(label.isdigit() for label in labels):
            return None
        return "domain", canon
    if kind == "code":
        code = _code_kind(surface)
        if code is None:
            return None
        if code in ("secret",):
            return "secret", surface.lstrip("#").lower()
        if code == "number":
            return "number", _digits(surface)
        return code, _canon_code(surface)
    return None


_UNSPACED_SCRIPT = re.compile(UNSPACED_LETTER)
"""Kana, Han and Hangul: scripts written without spaces, so an identifier stands right
against their words (``电话是13812345678。``); they count as word characters, which the
patterns' boundaries would not cross."""


_AFTER_UNSPACED = re.compile(
    rf"({UNSPACED_LETTER}+)[:：]?\s*([A-Za-z0-9][A-Za-z0-9_\-.]*[A-Za-z0-9])")
"""A code written right after a run of a script without spaces (``微信号是zhaomin_88``)."""
_ZH_COPULAS = tuple(CHINESE["copula"])


def find_identifiers(text: str) -> tuple[Identifier, ...]:
    """Every identifier in ``text`` (after Unicode hygiene), in reading order; letters of a
    script written without spaces read as spaces (one for one, so positions hold). A code
    right after a Chinese label, perhaps with its copula (``赵敏的微信号是zhaomin_88``,
    ``微信号zhaomin_88``: WeChat ID), is one as an English label's is."""
    return _identified(clean(strip_symbols(text)))


@lru_cache(maxsize=16_384)
def _identified(cleaned: str) -> tuple[Identifier, ...]:
    found = list(_extract(_UNSPACED_SCRIPT.sub(" ", cleaned)))
    for m in _AFTER_UNSPACED.finditer(cleaned):
        run = m[1].removesuffix(next((c for c in _ZH_COPULAS if m[1].endswith(c)), ""))
        if (is_label(run.rsplit(POSSESSIVE, 1)[-1])
                and not any(i.start < m.end(2) and m.start(2) < i.end for i in found)):
            found.append(Identifier("code", m[2], _canon_code(m[2]), m.start(2), m.end(2)))
    return tuple(sorted(found, key=lambda i: i.start))


def canonical_forms(text: str) -> frozenset[str]:
    """The canonical forms of every identifier in ``text``."""
    return frozenset(i.canonical for i in find_identifiers(text))


def _national_forms(digits: str) -> set[str]:
    """A national phone number without its trunk prefix (``0`` or a leading ``1`` of an
    eleven-digit North American number), and as written."""
    forms = {digits}
    if digits.startswith("0"):
        forms.add(digits[1:])
    if len(digits) == 11 and digits.startswith("1"):
        forms.add(digits[1:])
    return {f for f in forms if len(f) >= 7}


def phones_match(a: str, b: str) -> bool:
    """Two canonical phone forms name one number: equal, or an international form and a
    national one (trunk prefix optional) that differ only by a 1-3 digit country code."""
    if a.lstrip("+") == b.lstrip("+"):
        return True
    if a.startswith("+") and b.startswith("+"):
        return False
    intl, national = (a, b) if a.startswith("+") else (b, a)
    if not intl.startswith("+"):
        return bool(_national_forms(a) & _national_forms(b))
    full = intl[1:]
    return any(full.endswith(n) and 1 <= len(full) - len(n) <= 3 for n in _national_forms(national))


CALLING_CODES = tuple(sorted(data_words("calling_codes.txt"), key=lambda c: (len(c), c)))
"""Country calling codes (ITU-T E.164), ``data/calling_codes.txt``."""


def phone_key(canonical: str) -> str:
    """The part of a phone number every way of writing it shares, its national
    significant number: an international number without its calling code (E.164 codes
    are prefix-free, so at most one fits), a national one without its trunk prefix (one
    leading ``0``, or the ``1`` of an eleven-digit North American number). ``+1 415 555
    0123``, ``(415) 555-0123`` and ``1-415-555-0123`` are all ``4155550123``; ``+44 161
    496 0500`` and ``0161 496 0500`` are ``1614960500``. The entity of a phone number is
    named by it, so one number is one entity however it was written.

    Numbers of two countries with the same national number share the key; a purge never
    shreds such an entity whole for one of them (``purge_matching`` checks every fact)."""
    if canonical.startswith("+"):
        full = canonical[1:]
        code = next((c for c in CALLING_CODES if full.startswith(c)), "")
        nsn = full[len(code):] if len(full) - len(code) >= 6 else full
    else:
        nsn = canonical
        if len(nsn) == 11 and nsn.startswith("1"):
            nsn = nsn[1:]
    return nsn[1:] if nsn.startswith("0") and len(nsn) > 7 else nsn


def entity_phone(entity: str) -> str | None:
    """The canonical phone number a ``phone:`` entity id stands for (``phone:00<digits>``,
    written before :func:`phone_key` named phone entities, is international), or None."""
    ns, _, local = entity.partition(":")
    if ns != "phone" or not local.isdigit():
        return None
    return "+" + local[2:] if local.startswith("00") else local


def phone_forms(canonical: str) -> list[str]:
    """Every digit string the same phone number may be written as: an international
    number's national forms (with and without trunk zero), a national number's
    international forms for each country code. What to look the number up under in an
    index that stores numbers as digit strings."""
    if canonical.startswith("+"):
        full = canonical[1:]
        out = [full, "00" + full]
        for n in (1, 2, 3):
            nsn = full[n:]
            if len(nsn) >= 7:
                out += [nsn, "0" + nsn, full[:n] + "0" + nsn]
        return list(dict.fromkeys(out))
    out = sorted(_national_forms(canonical)) or [canonical]
    nsns = {n for n in _national_forms(canonical) if not n.startswith("0")}
    out += [f"{pre}{cc}{mid}{n}" for n in sorted(nsns) for cc in CALLING_CODES
            for pre, mid in (("", ""), ("", "0"), ("00", ""))]
    return list(dict.fromkeys(out))


def _groups(surface: str) -> list[str]:
    return [g for g in re.split(r"[\-_.\s]+", surface.lstrip("#").lower()) if g]


def _kind_word_appended(query: str, fact: str) -> bool:
    """The fact's token is the query's token with words appended that only say what kind
    of identifier it is (``sk-17qu`` ~ ``sk-17qu-secret``, ``sk-17qu-key``): every
    appended group is an identifier label (``data/identifier_labels.txt``). Any other
    word makes another identifier (``db-eu-02`` is not ``db-eu-02-replica``)."""
    qg, fg = _groups(query), _groups(fact)
    return (len(qg) >= 2 and len(fg) > len(qg) and fg[:len(qg)] == qg
            and all(g in IDENTIFIER_LABELS for g in fg[len(qg):]))


def is_label(word: str) -> bool:
    """Does ``word`` (lower case) say that the token after it is an identifier? One of
    :data:`IDENTIFIER_LABELS`, or a compound whose head is a label: German and Chinese
    compounds name their kind by their last part (``mitgliedsnummer``, ``steuer-id``,
    ``学号``: ``data/de.txt`` and ``data/zh.txt``, ``[label_heads]``). A short German head
    (``nr``) counts after a hyphen only: alone it is also a code's letters (``NR 000
    000``), and a longer word may merely end in it."""
    if word in IDENTIFIER_LABELS or word in _LONG_HEADS:
        return True
    last = word.rsplit("-", 1)[-1]
    if last != word and (last in IDENTIFIER_LABELS or last in _HEADS):
        return True
    if _UNSPACED_WORD.fullmatch(word):  # a whole run: not someone's (王芳的学号, 王芳学号)
        return (word.endswith(_CJK_HEADS) and POSSESSIVE not in word
                and leading_name(word) is None)
    return word.isalpha() and any(word.endswith(h) and len(word) > len(h) for h in _LONG_HEADS)


def may_be_phone(ident: Identifier) -> bool:
    """A phone number, or a number of seven digits or more that may be one."""
    return ident.kind == "phone" or _digit_run(ident)


def _digit_run(ident: Identifier) -> bool:
    """A number of seven digits or more read as a number or code: a phone number written
    without separators may be one."""
    return ident.kind in ("number", "code") and ident.canonical.isdigit() and len(
        ident.canonical) >= 7


def matches(query: Identifier, fact: Identifier) -> bool:
    """Does a query identifier name this fact identifier? Exact (for two numbers, also in
    the grouping of their digits, :func:`_grouped_alike`), or one of the documented
    equivalent forms (phone with or without country code and trunk zero; a sub-address;
    a relative path; a code with its kind word appended)."""
    q, f = query.canonical, fact.canonical
    if may_be_phone(query) and may_be_phone(fact) and "phone" in (query.kind, fact.kind):
        return phones_match(q, f)  # ``612345679`` is ``+34 612 345 679`` written compact
    if q == f:  # digits grouped otherwise are another number (an SSN, an employer's tax id)
        return not {query.kind, fact.kind} <= {"number", "code"} or any(
            c.isalpha() for c in query.surface + fact.surface) or _grouped_alike(
            query.surface, fact.surface)
    if query.kind == "email" and fact.kind == "email":
        q_local, _, q_domain = q.partition("@")
        f_local, _, f_domain = f.partition("@")
        return ("+" not in q_local and q_domain == f_domain
                and f_local.split("+", 1)[0] == q_local and "+" in f_local)
    if query.kind == "path" and fact.kind == "path":
        rel = q.lstrip("/")
        return not q.startswith("/") and ":" not in q and f.endswith("/" + rel)
    if {query.kind, fact.kind} <= {"code", "secret"} and _kind_word_appended(
            query.surface, fact.surface):
        return True
    if {query.kind, fact.kind} <= {"number", "code", "card", "phone"}:
        return q.lstrip("+") == f.lstrip("+") and not (
            query.kind == "phone" and q.startswith("+"))
    return False


def _grouped_alike(a: str, b: str) -> bool:
    """Do two numbers written with the same digits group them alike? ``123-45-6789`` and
    ``123 45 6789`` do, and either is ``123456789`` written compact; ``12-3456789`` (an
    employer's tax id) groups them otherwise, and is another number."""
    groups = [[len(g) for g in re.split(r"[\s.\-/]+", s.strip()) if g] for s in (a, b)]
    return min(len(g) for g in groups) < 2 or groups[0] == groups[1]


_CODE_TOKEN = re.compile(r"(?<![\w@/\\])#?[A-Za-z0-9][A-Za-z0-9_\-.]*[A-Za-z0-9](?![\w@/\\])")


@lru_cache(maxsize=65_536)
def code_tokens(text: str) -> frozenset[str]:
    """Canonical forms of every code-like token of a text (letters with digits, or three
    or more digits), identifiers by form or not: what an explicit query token is compared
    with (``CO2`` in a fact is matched only by a query that asks for ``CO2`` itself)."""
    out: set[str] = set()
    cleaned = clean(strip_symbols(text))
    for m in _CODE_TOKEN.finditer(cleaned):
        tok = m.group().strip(".")
        if any(c.isdigit() for c in tok) and len(re.sub(r"\W", "", tok)) >= 2:
            out.add(_canon_code(tok))
    for m in _GROUPED_RUN.finditer(cleaned):  # "KX19 ABD", "SW1A 1AA": one code in groups
        groups = m.group().split()
        out.update(_canon_code("".join(groups[i:j])) for i in range(len(groups))
                   for j in range(i + 2, len(groups) + 1)
                   if any(c.isdigit() for c in "".join(groups[i:j])))
    return frozenset(out)


_GROUPED_RUN = re.compile(r"(?<![\w@/\\])[A-Z0-9]{1,12}(?: [A-Z0-9]{1,12}){1,5}(?![\w@/\\])")
"""Groups of capitals and digits side by side, as a code is written in groups."""


_GROUP = re.compile(r"[A-Z0-9]{2,6}|[A-Z0-9]{1,6}-[A-Z0-9]{1,6}")
"""A group of a code written in groups: capitals and digits (``BA``, ``4471``), or two
joined by a hyphen (``HSK-RG`` of a German plate, ``HSK-RG 411``)."""
_LETTERS_FIRST = re.compile(r"[A-Z]{1,3}(?:\s[A-Z0-9]{1,12})+")
"""A code opening with a group of capitals before groups of digits (``IE 6388047V``,
``K 881 2934``): what a digit group inside it looks like (a phone, a number) is not what
it is."""


@lru_cache(maxsize=16_384)
def query_identifiers(text: str) -> tuple[Identifier, ...]:
    """The identifiers a query names: those its form shows, or, when the query is one
    code-like token (its label words aside), that token (``ABC123``, ``CO2``, or a name
    of joined parts, ``tquinn-dev``, which only a fact whose label says it is one
    carries: :data:`NAME_LABELS`)."""
    found = find_identifiers(text)
    cleaned = clean(strip_symbols(text)).strip()
    tokens = cleaned.split()
    # words before a label qualify it ("SRA" of "SRA number 661042"): no part of a code
    labelled = [i for i, w in enumerate(tokens) if w.lower().strip(".:#") in IDENTIFIER_LABELS]
    after = tokens[labelled[-1] + 1:] if labelled else tokens
    words = [w for w in after or tokens if w.lower().strip(".:#") not in IDENTIFIER_LABELS]
    grouped = " ".join(words)
    if _LETTERS_FIRST.fullmatch(grouped) and any(c.isdigit() for c in grouped) and all(
            i.kind in ("phone", "number", "card") for i in found):
        start = max(text.find(words[0]), 0)
        return (Identifier("code", grouped, _canon_code(grouped), start, start + len(grouped)),)
    in_groups = len(words) > 1 and all(_GROUP.fullmatch(w) for w in words) and any(
        c.isdigit() for w in words for c in w)
    if found and not (in_groups and all(i.kind in ("code", "number") and i.surface != grouped
                                        for i in found)):
        return found
    if in_groups:
        # one code written in groups (``BA 4471 2209``, ``LB21 XYZ``, ``AI-0447 3196``,
        # ``OKONK 806154 IH9PL``): a query of groups alone names the whole, not one group
        words = [grouped]
    if len(words) == 1:
        tok = words[0].strip(".,;:!?()[]\"'")
        coded = any(c.isdigit() for c in tok) and any(c.isalnum() for c in tok) and len(tok) >= 2
        if coded or JOINED_NAME.fullmatch(tok):
            start = text.find(tok)
            return (Identifier("code", tok, _canon_code(tok), max(start, 0),
                               max(start, 0) + len(tok)),)
    return ()
