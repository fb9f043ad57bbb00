"""Canonical identifiers in free text: find them, normalise them, compare them exactly.

An identifier is matched by its canonical form, never by prefix or substring
(SPEC §2.7): ``nora@corp.io`` is not ``nora.q@corp.io``, ``OPS-41`` is not
``OPS-412``. Normalisation removes only what does not change the identity:

* e-mail: case, quotes around the local part (``"nora.q"@corp.io``);
* phone: punctuation and spacing, digits kept with a leading ``+`` when written;
* URL: scheme, ``www.``, trailing slash, case;
* path: ``\\`` vs ``/``, repeated separators, case;
* IPv4: zero padding of octets; MAC: case;
* dates and times: written forms (``12/25/2025`` = ``2025-12-25``, ``2:30 PM`` = ``14:30``);
* codes, keys and numbers: case and the separators ``-``, ``.`` and spaces between groups
  (``XK7L-9P3Q`` = ``XK7L.9P3Q`` = ``xk7l9p3q``; ``4111 1111`` = ``4111-1111``).

A *less specific* query form also matches the more specific forms it covers (never
the reverse): a phone number without a country code matches the same national
number with one; ``a@x.io`` matches the sub-address ``a+tag@x.io``; a relative path
matches the same path under a drive or root. Nothing else is fuzzy.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import lru_cache

from memory_es.text.lexicon import words
from memory_es.text.normalize import clean, strip_symbols

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
        r"(?:\b(?:https?|ftp)://|\bwww\.)[^\s<>\"'()]+"
        r"|\b[a-z0-9](?:[a-z0-9\-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9\-]*[a-z0-9])?)*"
        r"\.[a-z]{2,10}/[^\s<>\"'()]*", re.IGNORECASE)),
    ("email", re.compile(
        r"(?:\"[^\"\s@]+\"|(?<![\w.+\-])[\w.+\-]*\w)@[\w\-]+(?:\.[\w\-]+)+")),
    ("path", re.compile(
        r"\b[A-Za-z]:(?:\\+|/)[^\s<>\"']+"
        r"|(?<![\w.:/])/[\w.\-]+(?:/[\w.\-]+)+/?"
        r"|(?<![\w.:/])/[\w\-]+\.[\w]+"
        r"|\b[\w\-]+(?:/[\w.\-]+)*/[\w\-]+\.[A-Za-z0-9]{1,5}\b")),
    ("mac", re.compile(r"\b[0-9A-Fa-f]{2}(?::[0-9A-Fa-f]{2}){4,7}\b")),
    ("ip", re.compile(r"(?<![\w.])\d{1,3}(?:\.\d{1,3}){3}(?![\w]|\.\d)")),
    ("uuid", re.compile(
        r"\b[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}\b")),
    ("date", re.compile(r"\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}/\d{1,2}/\d{4}\b"
                        r"|\b\d{1,2}\.\d{1,2}\.\d{4}\b")),
    ("time", re.compile(r"\b(?:[01]?\d|2[0-3]):[0-5]\d(?:\s*[AaPp]\.?[Mm]\.?)?(?![\w:])"
                        r"|\b(?:1[0-2]|0?[1-9])\s*[AaPp]\.?[Mm]\.?(?!\w)")),
    ("phone", re.compile(
        r"(?<![\w+#\-$,.])(?:\+\d{1,3}[\s.\-]?)?(?:\(\d{2,4}\)[\s.\-]?)?\d{2,4}(?:[\s.\-]\d{2,5}){1,4}"
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
    return re.sub(r"[\-.\s]", "", s.lstrip("#")).lower()


def _classify_digits(surface: str) -> tuple[str, str] | None:
    """Kind and canonical form of a run of digit groups (phone, card, number)."""
    digits = _digits(surface)
    if len(digits) < 3:
        return None
    groups = re.split(r"[\s.\-()]+", surface.strip("+() "))
    groups = [g for g in groups if g]
    if surface.startswith(("+", "(")):
        if len(digits) < 7:
            return None
        return "phone", ("+" + digits if surface.startswith("+") else digits)
    if 13 <= len(digits) <= 19 and all(len(g) == 4 for g in groups[:-1]) and len(groups) >= 3:
        return "card", digits
    if len(groups) in (2, 3) and [len(g) for g in groups] in ([3, 3, 4], [3, 4]):
        return "phone", digits
    return "number", digits


def _secretish(token: str) -> bool:
    return any(c in token for c in "!#$%&*") and any(c.isalpha() for c in token)


def _code_kind(token: str) -> str | None:
    """Is a bare token an identifier-like code? (letters with digits, ``_``, camelCase)."""
    core = token.lstrip("#")
    if len(core) < 3 or _UNITS.match(core):
        return None
    has_digit = any(c.isdigit() for c in core)
    has_alpha = any(c.isalpha() for c in core)
    if _secretish(core):
        return "secret" if has_digit or len(core) >= 6 else None
    if has_digit and has_alpha:
        if re.match(r"^\d+[A-Za-z]{1,3}$", core) and len(core) <= 5:
            return None
        if re.match(r"^\d+(?:-[a-z]{3,})+$", core):
            return None  # an adjective compound (12-hour, 200-person), not a code
        return "code"
    if has_digit and not has_alpha:
        digits = _digits(core)
        if len(digits) >= 3 and not re.match(r"^(19|20)\d{2}$", core):
            return "number"
        return None
    if core.isupper() and core.isalpha() and len(core) >= 6:
        return "code"  # long all-capital codes (bank identifiers, tickers)
    return None


@lru_cache(maxsize=16_384)
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
    found.sort(key=lambda i: i.start)
    return tuple(found)


def _make(kind: str, surface: str) -> tuple[str, str] | None:
    if kind == "url":
        canon = _canon_url(surface)
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
    if kind == "mac":
        return "mac", surface.lower()
    if kind == "ip":
        octets = [int(x) for x in surface.split(".")]
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


def find_identifiers(text: str) -> tuple[Identifier, ...]:
    """Every identifier in ``text`` (after Unicode hygiene), in reading order."""
    return _extract(clean(strip_symbols(text)))


def canonical_forms(text: str) -> frozenset[str]:
    """The canonical forms of every identifier in ``text``."""
    return frozenset(i.canonical for i in find_identifiers(text))


def matches(query: Identifier, fact: Identifier) -> bool:
    """Does a query identifier name this fact identifier? Exact, or less specific."""
    q, f = query.canonical, fact.canonical
    if q == f:
        return True
    if query.kind == "phone" and fact.kind == "phone":
        return not q.startswith("+") and f.startswith("+") and len(q) >= 7 and f.endswith(q)
    if query.kind == "email" and fact.kind == "email":
        q_local, _, q_domain = q.partition("@")
        f_local, _, f_domain = f.partition("@")
        return ("+" not in q_local and q_domain == f_domain
                and f_local.split("+", 1)[0] == q_local and "+" in f_local)
    if query.kind == "path" and fact.kind == "path":
        rel = q.lstrip("/")
        return not q.startswith("/") and ":" not in q and f.endswith("/" + rel)
    if {query.kind, fact.kind} <= {"number", "code", "card", "phone"}:
        return q.lstrip("+") == f.lstrip("+") and not (
            query.kind == "phone" and q.startswith("+"))
    return False
