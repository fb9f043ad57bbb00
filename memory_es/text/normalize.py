"""Unicode hygiene for identifiers and names: NFKC, homoglyphs, transliteration, obfuscation.

Pure functions over strings. The rules are the ones Unicode itself documents (NFKC
compatibility folding, UTS #39 confusable look-alikes, combining marks) plus the
common ways people hide an address in prose (``nora [at] corp [dot] io``, spaced
letters). Nothing here knows any particular name.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from memory_es.text.lexicon import HONORIFICS

# UTS #39 confusables restricted to the Cyrillic and Greek letters that render like
# ASCII letters in common fonts (lower and upper case).
CONFUSABLES: dict[str, str] = {
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p",
    "с": "c", "т": "t", "у": "y", "х": "x", "і": "i", "ї": "i", "ј": "j", "ѕ": "s", "ԁ": "d",
    "ԛ": "q", "ԝ": "w", "һ": "h", "ӏ": "l", "ɡ": "g", "ү": "y",
    "А": "A", "В": "B", "Е": "E", "Ё": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P",
    "С": "C", "Т": "T", "У": "Y", "Х": "X", "І": "I", "Ї": "I", "Ј": "J", "Ѕ": "S", "Ԛ": "Q",
    "Ԝ": "W", "Һ": "H", "Ӏ": "I", "Ү": "Y",
    # Greek
    "α": "a", "ο": "o", "ρ": "p", "ν": "v", "κ": "k", "ι": "i", "υ": "u", "χ": "x", "ε": "e",
    "τ": "t", "ω": "w", "γ": "y", "ϲ": "c", "ϳ": "j",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N",
    "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X", "Ϲ": "C",
    # Latin look-alikes outside ASCII that NFKC keeps
    "ı": "i", "ɑ": "a", "ɩ": "i", "ο̇": "o",
}

_CYRILLIC = {
    "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": "e", "ё": "e", "ж": "zh", "з": "z",
    "и": "i", "й": "i", "к": "k", "л": "l", "м": "m", "н": "n", "о": "o", "п": "p", "р": "r",
    "с": "s", "т": "t", "у": "u", "ф": "f", "х": "kh", "ц": "ts", "ч": "ch", "ш": "sh",
    "щ": "shch", "ъ": "", "ы": "y", "ь": "", "э": "e", "ю": "yu", "я": "ya", "і": "i", "ї": "i",
    "є": "ie", "ґ": "g", "ў": "u",
}
_GREEK_DIGRAPHS = {"ου": "ou", "αι": "ai", "ει": "ei", "οι": "oi", "γγ": "ng", "γκ": "gk",
                   "μπ": "mp", "ντ": "nt", "τσ": "ts", "τζ": "tz", "αυ": "av", "ευ": "ev"}
_GREEK = {
    "α": "a", "β": "v", "γ": "g", "δ": "d", "ε": "e", "ζ": "z", "η": "i", "θ": "th", "ι": "i",
    "κ": "k", "λ": "l", "μ": "m", "ν": "n", "ξ": "x", "ο": "o", "π": "p", "ρ": "r", "σ": "s",
    "ς": "s", "τ": "t", "υ": "y", "φ": "f", "χ": "ch", "ψ": "ps", "ω": "o",
}
_LATIN_SPECIAL = {"ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "đ": "d", "ð": "d", "ł": "l",
                  "þ": "th", "ħ": "h", "ı": "i", "ŋ": "ng"}
_GERMAN = {"ä": "ae", "ö": "oe", "ü": "ue"}

_INVISIBLE = re.compile("[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f"
                        "\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufe00-\ufe0f\ufeff]")


def nfkc(text: str) -> str:
    """Compatibility-fold (full-width, ligatures, math letters) and drop invisible marks."""
    return _INVISIBLE.sub("", unicodedata.normalize("NFKC", text))


def script_of(ch: str) -> str:
    """A coarse script name for one character (LATIN, CYRILLIC, GREEK, HAN, ...)."""
    if ch.isascii():
        return "LATIN" if ch.isalpha() else "COMMON"
    try:
        name = unicodedata.name(ch)
    except ValueError:
        return "UNKNOWN"
    return name.split(" ", 1)[0]


def is_symbol(ch: str) -> bool:
    """Emoji, pictographs and other symbols that carry no identifying letters."""
    cat = unicodedata.category(ch)
    return cat in ("So", "Sk", "Cs", "Co", "Cn") or ch in "\u200d\u20e3"


def strip_symbols(text: str) -> str:
    """Remove emoji and pictographic symbols (and joiners between them)."""
    return "".join(ch for ch in text if not is_symbol(ch))


_WORDISH = re.compile(r"[^\s]+")


def fold_confusables(text: str) -> str:
    """Fold Cyrillic/Greek look-alike letters to Latin inside mixed-script tokens.

    A token that mixes Latin with Cyrillic or Greek letters, or that sits inside an
    identifier (``@``, digits, a dotted domain), is read as Latin disguised with
    homoglyphs. A token written wholly in another script (a real Russian or Greek
    word) is left alone: that is a name to transliterate, not a disguise.
    """
    def fold(match: re.Match[str]) -> str:
        token = match.group()
        scripts = {script_of(c) for c in token if c.isalpha()}
        foreign = scripts & {"CYRILLIC", "GREEK"}
        if not foreign:
            return token
        identifier_like = ("@" in token or any(c.isdigit() for c in token)
                           or re.search(r"\.[A-Za-z]{2,}\b", token) is not None)
        if "LATIN" in scripts or identifier_like:
            return "".join(CONFUSABLES.get(c, c) for c in token)
        return token

    return _WORDISH.sub(fold, text)


def strip_marks(text: str) -> str:
    """Remove combining accents (é -> e) and spell out special Latin letters (ß -> ss)."""
    out = []
    for ch in unicodedata.normalize("NFKD", text):
        if unicodedata.combining(ch):
            continue
        out.append(_LATIN_SPECIAL.get(ch, _LATIN_SPECIAL.get(ch.lower(), ch)))
    return unicodedata.normalize("NFC", "".join(out))


def _translit_greek(word: str) -> str:
    w = strip_marks(word.lower())
    out = []
    i = 0
    while i < len(w):
        pair = w[i:i + 2]
        if pair in _GREEK_DIGRAPHS:
            out.append(_GREEK_DIGRAPHS[pair])
            i += 2
            continue
        out.append(_GREEK.get(w[i], w[i]))
        i += 1
    return "".join(out)


def transliterate(text: str) -> str:
    """Latin rendering of Cyrillic and Greek words (ISO 9 / ELOT 743, simplified)."""
    out = []
    for token in re.split(r"(\s+)", text):
        scripts = {script_of(c) for c in token if c.isalpha()}
        if "GREEK" in scripts:
            out.append(_translit_greek(token))
        elif "CYRILLIC" in scripts:
            out.append("".join(_CYRILLIC.get(c, c) for c in token.lower()))
        else:
            out.append(token)
    return "".join(out)


def german_fold(text: str) -> str:
    """The German spelling of umlauts (ü -> ue), a second ASCII form of the same name."""
    lowered = text.lower()
    return "".join(_GERMAN.get(c, c) for c in lowered)


@lru_cache(maxsize=65_536)
def ascii_fold(text: str) -> str:
    """One ASCII form: NFKC, homoglyphs folded, transliterated, accents stripped, lower."""
    t = strip_symbols(nfkc(text))
    t = fold_confusables(t)
    t = transliterate(t)
    return strip_marks(t).lower()


def is_latin_text(text: str) -> bool:
    """True when every letter of ``text`` is in the Latin script (after NFKC)."""
    return all(script_of(c) == "LATIN" or not c.isalpha()
               for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


@lru_cache(maxsize=65_536)
def name_keys(name: str) -> frozenset[str]:
    """Comparison keys of a personal or organisation name (every plausible ASCII form).

    ``Brückner, Anton`` -> {``bruckner anton``, ``brueckner anton``}; honorifics and
    punctuation are dropped, word order kept.
    """
    base = strip_symbols(nfkc(name))
    forms = {ascii_fold(base), german_fold(strip_symbols(fold_confusables(base)))}
    keys = set()
    for form in forms:
        words = [w for w in re.split(r"[^\w]+", strip_marks(form).lower()) if w]
        words = [w for w in words if w not in HONORIFICS or len(words) == 1]
        if words and words[0] == "the":
            words = words[1:]
        if words:
            keys.add(" ".join(words))
    return frozenset(keys)


# --- obfuscated identifiers --------------------------------------------------------------

_AT = re.compile(r"\s*(?:\[\s*at\s*\]|\(\s*at\s*\)|\{\s*at\s*\}|<\s*at\s*>|\s+at\s+)\s*",
                 re.IGNORECASE)
_DOT = re.compile(r"\s*(?:\[\s*dot\s*\]|\(\s*dot\s*\)|\{\s*dot\s*\}|<\s*dot\s*>|\s+dot\s+)\s*",
                  re.IGNORECASE)
_OBF_EMAIL = re.compile(
    r"(?<![\w.])([A-Za-z0-9][\w.+\-]*?)"
    r"(\s*(?:\[\s*at\s*\]|\(\s*at\s*\)|\{\s*at\s*\}|<\s*at\s*>)\s*|\s+at\s+)"
    r"([A-Za-z0-9\-]+(?:(?:\s*(?:\[\s*dot\s*\]|\(\s*dot\s*\)|\{\s*dot\s*\}|<\s*dot\s*>)\s*"
    r"|\s+dot\s+|\.)[A-Za-z0-9\-]+)+)",
    re.IGNORECASE)
_SPACED = re.compile(r"(?<![\w])((?:[A-Za-z0-9][ .\-]){3,}[A-Za-z0-9])(?![\w])")


def _bracketed(sep: str) -> bool:
    return any(b in sep for b in "[({<")


def deobfuscate(text: str) -> str:
    """Undo the usual disguises of an address in prose.

    ``nora [at] corp [dot] io`` -> ``nora@corp.io``; ``n o r a`` -> ``nora``.
    A bare `` at `` / `` dot `` only counts when the result is a complete address
    with a dotted domain (``zed at corp dot example``), so ``works at Nordlys`` stays.
    """
    def email(match: re.Match[str]) -> str:
        local, sep, domain = match.group(1), match.group(2), match.group(3)
        bracketed = _bracketed(sep) or bool(re.search(r"[\[({<]\s*dot", domain, re.I))
        spoken_dot = re.search(r"\s+dot\s+", domain, re.I) is not None
        if not bracketed and not spoken_dot:
            return match.group()
        return f"{local}@{_DOT.sub('.', domain)}"

    text = _OBF_EMAIL.sub(email, text)
    text = re.sub(r"(?<=\w)\s*(?:\[\s*dot\s*\]|\(\s*dot\s*\))\s*(?=\w)", ".", text, flags=re.I)

    def spaced(match: re.Match[str]) -> str:
        run = match.group(1)
        seps = set(re.findall(r"[ .\-]", run))
        chars = re.sub(r"[ .\-]", "", run)
        if seps == {" "} or (seps == {"."} and chars.isalpha()):
            return chars
        return run

    text = _SPACED.sub(spaced, text)
    # spaced letters right before an @ are a spelled-out local part ("k i m @ x.io")
    text = re.sub(r"(?<![\w.])((?:[A-Za-z0-9] ){1,}[A-Za-z0-9])(?=\s*@)",
                  lambda m: m.group(1).replace(" ", ""), text)
    return re.sub(r"(?<![\w.])([\w.+\-]*\w)\s+@\s+([A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*"
                  r"\.[A-Za-z]{2,})\b", r"\1@\2", text)


def clean(text: str) -> str:
    """The analysis form of a text: NFKC, invisible marks dropped, homoglyphs folded,
    obfuscated addresses restored. Letters of other scripts are kept as written."""
    return deobfuscate(fold_confusables(nfkc(text)))


def slug(text: str, limit: int = 64) -> str:
    """A canonical-id-safe local part: ASCII, lower case, words joined by ``-``."""
    words = [w for w in re.split(r"[^a-z0-9]+", ascii_fold(text)) if w]
    return "-".join(words)[:limit].strip("-")
