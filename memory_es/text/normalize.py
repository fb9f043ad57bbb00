"""Unicode hygiene for identifiers and names: NFKC, homoglyphs, transliteration, obfuscation.

Pure functions over strings. The rules are the ones Unicode itself documents (NFKC
compatibility folding, UTS #39 confusable look-alikes, combining marks) plus the
common ways people hide an address in prose (``nora [at] corp [dot] io``, spaced
letters). Nothing here knows any particular name.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from anyascii import anyascii

from memory_es.text.lexicon import HONORIFICS, PINYIN_SYLLABLES, STOPWORDS, lemma_of

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
    if text.isascii():  # the only ASCII symbols of those categories are ^ and ` (Sk)
        return text.replace("^", "").replace("`", "") if "^" in text or "`" in text else text
    return "".join(ch for ch in text if not is_symbol(ch))


_WORDISH = re.compile(r"[^\s]+")


def fold_confusables(text: str) -> str:
    """Fold Cyrillic/Greek look-alike letters to Latin inside mixed-script tokens.

    A token that mixes Latin with Cyrillic or Greek letters, or that sits inside an
    identifier (``@``, digits, a dotted domain), is read as Latin disguised with
    homoglyphs. A token written wholly in another script (a real Russian or Greek
    word) is left alone: that is a name to transliterate, not a disguise.
    """
    if text.isascii():  # no Cyrillic or Greek letter to fold
        return text

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
    if text.isascii():  # nothing to decompose, no special letter
        return text
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


_KANA = ("HIRAGANA", "KATAKANA")
_SCRIPTS_WITH_LIBRARIES = frozenset({"CJK", "HIRAGANA", "KATAKANA", "DEVANAGARI", "HANGUL",
                                     "ARABIC", "HEBREW", "THAI"})


def _pinyin(token: str) -> str:
    """Toneless pinyin, the family name (first character) apart from the given name."""
    from pypinyin import lazy_pinyin  # noqa: PLC0415  (lazy: its dictionary is large)

    out: list[str] = []
    run: list[str] = []
    for ch in token:
        if script_of(ch) == "CJK":
            run.append(ch)
            continue
        if run:
            out.append(_han_name(lazy_pinyin("".join(run))))
            run = []
        out.append(ch)
    if run:
        out.append(_han_name(lazy_pinyin("".join(run))))
    return "".join(out)


def _han_name(syllables: list[str]) -> str:
    if len(syllables) in (2, 3, 4):
        return syllables[0] + " " + "".join(syllables[1:])
    return " ".join(syllables)


@lru_cache(maxsize=1)
def _kakasi() -> Any:
    import pykakasi  # noqa: PLC0415  (lazy: it loads its dictionaries)

    return pykakasi.kakasi()  # type: ignore[no-untyped-call]  # pykakasi has no annotations


def japanese_readings(text: str) -> list[str]:
    """Hepburn, Kunrei and passport romaji of a Japanese text (kanji read by pykakasi);
    none when some character has no reading (a simplified Chinese character: ``王伟``
    would read as ``ou`` alone, a key that any text starting with 王 shares)."""
    parts = _kakasi().convert(text)
    if any(not p["hepburn"].strip() for p in parts if any(c.isalpha() for c in p["orig"])):
        return []
    return [" ".join(w for w in (" ".join(p[scheme] for p in parts)).split() if w)
            for scheme in ("hepburn", "kunrei", "passport")]


def _devanagari(token: str) -> list[str]:
    """ITRANS and IAST readings of a Devanagari word, the final inherent vowel dropped
    as it is in speech (``राज`` -> ``raj``)."""
    # lazy (large tables); the package ships no type stubs
    from indic_transliteration import sanscript  # type: ignore[import-untyped]  # noqa: PLC0415

    out = []
    for scheme in (sanscript.ITRANS, sanscript.IAST):
        latin = strip_marks(sanscript.transliterate(token, sanscript.DEVANAGARI, scheme)).lower()
        words = []
        for word, native in zip(latin.split(), token.split(), strict=False):
            last = native[-1:]
            bare = word
            if word.endswith("a") and last and unicodedata.category(last) == "Lo":
                bare = word[:-1]  # a consonant without a vowel sign: no final vowel
            words.append(bare)
        out.append(" ".join(words))
    return out


def transliterate(text: str) -> str:
    """One Latin rendering of words in other scripts: Cyrillic (ISO 9, simplified),
    Greek (ELOT 743), Chinese (pinyin), Japanese (Hepburn), Devanagari (ITRANS),
    anything else through ``anyascii``."""
    out = []
    for token in re.split(r"(\s+)", text):
        scripts = {script_of(c) for c in token if c.isalpha()}
        if "GREEK" in scripts:
            out.append(_translit_greek(token))
        elif "CYRILLIC" in scripts:
            out.append("".join(_CYRILLIC.get(c, c) for c in token.lower()))
        elif scripts & {"HIRAGANA", "KATAKANA"}:
            out.append((japanese_readings(token) or [anyascii(token)])[0])
        elif "CJK" in scripts:
            out.append(_pinyin(token))
        elif "DEVANAGARI" in scripts:
            out.append(_devanagari(token)[0])
        elif scripts & _SCRIPTS_WITH_LIBRARIES:
            out.append(anyascii(token))
        else:
            out.append(token)
    return "".join(out)


def latin_forms(text: str) -> frozenset[str]:
    """Every Latin rendering of a name in another script, under several schemes: for
    Cyrillic our ISO 9 table and ``anyascii`` (BGN/PCGN-like); for Greek ELOT 743 and
    ``anyascii``; for Chinese toneless pinyin (family name apart, and all syllables
    apart); for Japanese Hepburn, Kunrei and passport romaji (kanji also read as
    Chinese); for Devanagari ITRANS and IAST. Lower case, accents stripped."""
    scripts = {script_of(c) for c in text if c.isalpha()}
    forms = {transliterate(text), anyascii(text)}
    if scripts & {"HIRAGANA", "KATAKANA"} or "CJK" in scripts:
        forms.update(japanese_readings(text))
    if "CJK" in scripts:
        from pypinyin import lazy_pinyin  # noqa: PLC0415  (lazy: its dictionary is large)

        forms.add(" ".join(lazy_pinyin(text)))
    if "DEVANAGARI" in scripts:
        forms.update(_devanagari(text))
    out = set()
    for form in forms:
        f = strip_marks(form).lower()
        out.add(f)
        if scripts & {"HIRAGANA", "KATAKANA", "CJK"}:
            out.add(f.replace("ou", "o").replace("uu", "u"))  # long vowels written short
    return frozenset(re.sub(r"\s+", " ", f).strip() for f in out if f.strip())


_LOOSE = [("shch", "sch"), ("kh", "h"), ("tz", "c"), ("ts", "c"), ("ph", "f"), ("x", "ks"),
          ("y", "i"), ("j", "i"), ("w", "v")]


def loose_key(latin: str) -> str:
    """A key under which Latin spellings of one foreign name meet (``Dmitry``, ``Dmitriy``,
    ``Dmitrii``; ``Yulia``, ``Iuliia``; ``Alexey``, ``Aleksei``): variant letters merged,
    doubled letters single. Used only between a query and a name first written in another
    script."""
    s = latin.lower()
    for a, b in _LOOSE:
        s = s.replace(a, b)
    return "~" + re.sub(r"(.)\1+", r"\1", s)


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


def name_forms(text: str) -> frozenset[str]:
    """The lower-case forms of a Latin-script text that :func:`name_keys` splits into
    words (ASCII-folded and German-folded): every word of a name key of a name in the
    text is a word of one of them (targeting uses this to skip interpreting a fact)."""
    base = strip_symbols(nfkc(text))
    return frozenset(strip_marks(f).lower() for f in (
        ascii_fold(base), german_fold(strip_symbols(fold_confusables(base)))))


_TONED = re.compile(r"(?<=[a-z])[1-5](?=\s|$)")


def _without_tone_numbers(form: str) -> str | None:
    """A name written in pinyin with tone numbers (``zhang1 wei3``) without them: the
    digits are not part of the name. Only when at least two words carry a tone number and
    every one of them is a pinyin syllable: one numbered word (``A1``, ``P2``, ``M4``) is a
    code, and keeps its digit."""
    words = re.findall(r"([a-z]+)[1-5](?=\s|$)", form)
    if len(words) < 2 or not set(words) <= PINYIN_SYLLABLES:
        return None
    return _TONED.sub("", form)


@lru_cache(maxsize=65_536)
def name_keys(name: str) -> frozenset[str]:
    """Comparison keys of a personal or organisation name (every plausible ASCII form).

    ``Brückner, Anton`` -> {``bruckner anton``, ``brueckner anton``}; honorifics and
    punctuation are dropped, word order kept.
    """
    base = strip_symbols(nfkc(name))
    forms = {ascii_fold(base), german_fold(strip_symbols(fold_confusables(base)))}
    foreign = not is_latin_text(base)
    if foreign:
        forms |= latin_forms(fold_confusables(base))
    forms |= {f for f in map(_without_tone_numbers, forms) if f is not None}
    # a hyphenated given name is also written as one word (``Min-jun``, ``Minjun``)
    forms |= {f.replace("-", "") for f in forms if "-" in f}
    keys = set()
    for form in forms:
        words = [w for w in re.split(r"[^\w]+", strip_marks(form).lower()) if w]
        while len(words) > 1 and words[0] in HONORIFICS:
            words = words[1:]  # a title before the name; "Jr" after it is part of it
        if words and words[0] == "the":
            words = words[1:]
        if words:
            keys.add(" ".join(words))
            if foreign and all(w.isascii() for w in words):
                keys.add(loose_key(" ".join(words)))
                if len(words) in (2, 3):  # family name first or last: both name the person
                    keys.add(loose_key(" ".join(reversed(words))))
                    keys.add(loose_key("".join(words)))
    return frozenset(keys)


@lru_cache(maxsize=65_536)
def query_name_keys(name: str) -> frozenset[str]:
    """The keys a query's words are looked up under: :func:`name_keys`, plus the loose
    keys (:func:`loose_key`) that only names first written in another script carry."""
    keys = name_keys(name)
    return keys | {loose_key(k) for k in keys if k.isascii() and not k.startswith("~")}


# --- obfuscated identifiers --------------------------------------------------------------

_AT = re.compile(r"\s*(?:\[\s*at\s*\]|\(\s*at\s*\)|\{\s*at\s*\}|<\s*at\s*>|\s+at\s+)\s*",
                 re.IGNORECASE)
_DOT = re.compile(r"\s*(?:\[\s*dot\s*\]|\(\s*dot\s*\)|\{\s*dot\s*\}|<\s*dot\s*>|\s+dot\s+)\s*",
                  re.IGNORECASE)
_OBF_LOCAL = (r"(?<![\w.])([A-Za-z0-9][\w.+\-]*?(?:(?:\s+dot\s+|\s*(?:\[\s*dot\s*\]|\(\s*dot\s*\)"
              r"|\{\s*dot\s*\}|<\s*dot\s*>)\s*)[A-Za-z0-9][\w+\-]*)*)")
"""An address's local part, its dots spoken or bracketed too (``lena [dot] park``)."""
_OBF_AT = r"\s*(?:\[\s*at\s*\]|\(\s*at\s*\)|\{\s*at\s*\}|<\s*at\s*>)\s*"
_OBF_DOMAIN = (r"([A-Za-z0-9\-]+(?:(?:\s*(?:\[\s*dot\s*\]|\(\s*dot\s*\)|\{\s*dot\s*\}|<\s*dot\s*>)"
               r"\s*|\s+dot\s+|\.)[A-Za-z0-9\-]+)+)")
_OBF_EMAIL_MARKED = re.compile(_OBF_LOCAL + f"({_OBF_AT})" + _OBF_DOMAIN, re.IGNORECASE)
"""An address whose ``at`` is bracketed: read first, so a spoken ``at`` before it
(``reads mail at k.osei {at} …``) is not taken for its separator."""
_OBF_EMAIL = re.compile(_OBF_LOCAL + f"({_OBF_AT}|\\s+at\\s+)" + _OBF_DOMAIN, re.IGNORECASE)
_SPACED = re.compile(r"(?<![\w])((?:[A-Za-z0-9][ .\-]){3,}[A-Za-z0-9])(?![\w])")


def _bracketed(sep: str) -> bool:
    return any(b in sep for b in "[({<")


def _is_word(local: str) -> bool:
    low = local.lower()
    return low in STOPWORDS or lemma_of(low) is not None


def _sub_overlapping(pattern: re.Pattern[str], fn: Callable[[re.Match[str]], str],
                     text: str) -> str:
    """``pattern.sub(fn, text)``, except that a match ``fn`` leaves as it is does not hide
    a match that starts inside it (``reached at VET.DESK AT PAWS DOT EXAMPLE``: the first
    ``at`` is prose, the second one the address's)."""
    out: list[str] = []
    pos = 0
    while (m := pattern.search(text, pos)) is not None:
        done = fn(m)
        if done == m.group():
            out.append(text[pos:m.start(2) + 1])
            pos = m.start(2) + 1
            continue
        out.append(text[pos:m.start()] + done)
        pos = m.end()
    return "".join(out) + text[pos:]


_MAILTO = re.compile(r"\bmailto:(?=[^\s@]+@)", re.IGNORECASE)


def deobfuscate(text: str) -> str:
    """Undo the usual disguises of an address in prose.

    ``nora [at] corp [dot] io`` -> ``nora@corp.io``; ``n o r a`` -> ``nora``.
    A bare `` at `` / `` dot `` only counts when the result is a complete address
    with a dotted domain (``zed at corp dot example``), so ``works at Nordlys`` stays.
    A link's ``mailto:`` is no word of the address (``mailto:nora@corp.io``).
    """
    text = _MAILTO.sub("", text)
    def email(match: re.Match[str]) -> str:
        local, sep, domain = match.group(1), match.group(2), match.group(3)
        bracketed = _bracketed(sep) or bool(re.search(r"[\[({<]\s*dot", domain, re.I))
        spoken_dot = re.search(r"\s+dot\s+", domain, re.I) is not None
        if not bracketed and not spoken_dot:
            return match.group()
        if not bracketed and " " not in local and _is_word(local):
            return match.group()  # "works at acme dot io": a verb, not a mailbox
        return f"{_DOT.sub('.', local)}@{_DOT.sub('.', domain)}"

    text = _sub_overlapping(_OBF_EMAIL, email, _OBF_EMAIL_MARKED.sub(email, text))
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


@lru_cache(maxsize=16_384)
def clean(text: str) -> str:
    """The analysis form of a text: NFKC, invisible marks dropped, homoglyphs folded,
    obfuscated addresses restored. Letters of other scripts are kept as written."""
    return deobfuscate(fold_confusables(nfkc(text)))


def slug(text: str, limit: int = 64) -> str:
    """A canonical-id-safe local part: ASCII, lower case, words joined by ``-``."""
    words = [w for w in re.split(r"[^a-z0-9]+", ascii_fold(text)) if w]
    return "-".join(words)[:limit].strip("-")
