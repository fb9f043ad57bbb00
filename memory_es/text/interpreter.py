"""Text -> structured operations, by rule: deterministic, pure, no model call.

The default interpreter reads an agent's sentence the way a careful clerk would:

1. **Identifiers** are found and normalised first (``identifiers``), including
   obfuscated and mixed-script forms, so ``NORA@CORP.IO``, ``nora [at] corp [dot] io``
   and ``nоra@corp.io`` (Cyrillic ``о``) are one address.
2. **Sentences and clauses.** A sentence is split where two verb phrases are
   coordinated (``rents a flat in Ghent and teaches yoga``) so that one clause can later
   be superseded while the other survives. The elided subject is restored in the
   clause text. A conjunct is *not* split off when it leans on the first one: an
   anaphor (``there``, ``it``, ``them``, ``one``), an elided verb phrase
   (``does not intend to``), or an elaboration of a negation in the same topic
   (``does not own a bike and commutes on foot``).
3. **Subject -> entity.** ``user:self`` for the user, ``email:…``/``phone:…`` when an
   identifier anchors the subject, ``<role>:<name>`` for an appositive (``Patient
   Tomas`` -> ``patient:tomas``), ``person:<name>`` for a personal name (honorifics
   dropped), ``topic:<noun phrase>`` for anything else. ``Same client as Wang
   Fang …`` refers back: the interface resolves it to the entity mentioned last.
4. **Predicate -> attribute.** A lower dotted path from the predicate: ``home.city``,
   ``work.employer``, ``pref.<topic>``, ``not.<attribute>`` under negation; otherwise a
   generic path from the verb and its object's keywords, so unrelated facts never
   share a slot.
5. **Qualifiers** stay with the fact: negation, temporal phrases (``since 2022``,
   ``from 2012 to 2016``), change markers (``now``, ``switched to``), cessation
   (``sold the piano``) and reason adjuncts (``after …``, ``due to …``).

Every decision is recorded under ``rules`` in the clause's interpretation, which
the store keeps with the event: the store can say why it remembers a fact.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, Protocol

from memory_es.text import lexicon as lx
from memory_es.text.identifiers import Identifier, find_identifiers
from memory_es.text.lexicon import words
from memory_es.text.normalize import ascii_fold, is_latin_text, nfkc, slug, strip_symbols

VERSION = "rules-1"
"""Recorded with every interpretation, so a stored reading can be traced to its rules."""


@dataclass(frozen=True)
class Clause:
    """One proposed operation: a fact about one entity, with its qualifiers."""

    text: str
    """The clause as stored: verbatim, with an elided subject restored."""
    entity: str | None
    """Canonical entity id, or None when the subject cannot be resolved by rule."""
    attribute: str
    value: Any
    mention: str | None = None
    """The subject as written."""
    op: str = "assert"
    """``assert`` (a new fact), ``supersede`` (a change of state: replace the slot) or
    ``cease`` (the clause only reports that a prior state ended)."""
    negated: bool = False
    confident: bool = False
    """True when the attribute comes from a specific rule (``home.city``), False for the
    generic verb+keywords path; an ambiguous clause may take its slot from context."""
    alternatives: tuple[str, ...] = ()
    """Other attributes the predicate could mean (``moved to X``: home or employer)."""
    temporal: tuple[str, ...] = ()
    identifiers: tuple[Identifier, ...] = ()
    names: tuple[str, ...] = ()
    """Proper names mentioned in the clause (surface forms)."""
    subject_names: tuple[str, ...] = ()
    """Names that denote the clause's own entity (aliases to register)."""
    refers_back: str | None = None
    """Set when the subject is ``the same <role>`` (the role noun, or ``""``): the
    entity is the one mentioned last."""
    elided: bool = False
    """The sentence had no subject at all (``Left the harbour town, …``)."""
    adjuncts: tuple[tuple[str, str], ...] = ()
    """Reason or circumstance adjuncts as ``(marker, text)``, kept inside ``text``."""
    has_purpose: bool = False
    """A cessation clause that goes on to a new state (``left X to start Y``)."""
    ends_prior: bool = False
    """The clause says a prior state ended (``quit her job``, ``is not vegan anymore``):
    remembering it also releases the matching current fact of the same entity."""
    continuation: bool = False
    domains: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()

    def interpretation(self, source: str | None = None) -> dict[str, Any]:
        """The record the store keeps with the event (why it remembers this fact)."""
        out: dict[str, Any] = {
            "interpreter": VERSION,
            "rules": list(self.rules),
            "op": self.op,
            "attribute_confident": self.confident,
        }
        if source is not None and source != self.text:
            out["source"] = source
        if self.mention:
            out["subject"] = self.mention
        if self.negated:
            out["negated"] = True
        if self.temporal:
            out["temporal"] = list(self.temporal)
        if self.identifiers:
            out["identifiers"] = [i.as_dict() for i in self.identifiers]
        if self.names:
            out["names"] = list(self.names)
        if self.refers_back is not None:
            out["refers_back"] = self.refers_back or True
        if self.alternatives:
            out["alternatives"] = list(self.alternatives)
        if self.adjuncts:
            out["adjuncts"] = [list(a) for a in self.adjuncts]
        if self.ends_prior:
            out["ends_prior"] = True
        if self.domains:
            out["domains"] = list(self.domains)
        return out


@dataclass(frozen=True)
class Interpretation:
    """What a text means as operations: one clause per fact, in reading order."""

    source: str
    clauses: tuple[Clause, ...]
    interpreter: str = VERSION


class Interpreter(Protocol):
    """Anything that turns a text into an :class:`Interpretation` (a model, a rule set)."""

    def __call__(self, text: str) -> Interpretation: ...


# --- tokens ---------------------------------------------------------------------------------

_TOKEN = re.compile(r"\S+")
_EDGE = ".,;:!?()[]{}\"'“”‘’"


@dataclass(frozen=True)
class Tok:
    raw: str
    start: int
    end: int

    @property
    def word(self) -> str:
        """The token without surrounding punctuation (possessive kept)."""
        return self.raw.strip(_EDGE)

    @property
    def low(self) -> str:
        return self.word.lower().replace("’", "'")

    @property
    def bare(self) -> str:
        """Lower case without a possessive ``'s``."""
        w = self.low
        return w[:-2] if w.endswith("'s") else w


def _tokens(text: str, base: int = 0) -> list[Tok]:
    return [Tok(m.group(), base + m.start(), base + m.end()) for m in _TOKEN.finditer(text)]


def _is_cap(word: str) -> bool:
    w = word.strip(_EDGE)
    if not w:
        return False
    first = w[0]
    if first.isalpha() and not first.isascii():
        return first.isupper() or (not first.islower() and not first.isupper())
    return first.isupper() or (first.isdigit() and any(c.isalpha() for c in w))


def _is_foreign_word(word: str) -> bool:
    w = strip_symbols(word.strip(_EDGE))
    return bool(w) and any(c.isalpha() for c in w) and not is_latin_text(w)


_DETERMINERS = words("""
the a an this that these those my your his her its our their some any every each all no
another
""")
_NOT_NAMES = words("""
all some most every each any no this that these those our their his her my your its last
next new old annual quarterly weekly daily monthly yearly temporary current main primary
first second third recent several many few other same both either neither another
""")
_PRONOUNS = words("he she they it we you i him her them")


def _agrees(word: str, plural: bool) -> bool:
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
    # unknown regular past forms (reordered, repotted, decommissioned, co-authored)
    return (len(w) > 5 and w.endswith("ed") and w.replace("-", "").isalpha()
            and word.strip(_EDGE).islower())


def _starts_vp(toks: Sequence[Tok], plural: bool) -> int | None:
    """Index of the finite verb if ``toks`` starts a verb phrase (adverbs allowed first)."""
    i = 0
    while i < len(toks) and i < 3:
        w = toks[i].low
        if w in ("no",) and i + 1 < len(toks) and toks[i + 1].low == "longer":
            i += 2
            continue
        if w in lx.ADVERBS and w not in lx.AUXILIARIES:
            i += 1
            continue
        break
    if i < len(toks) and _agrees(toks[i].word, plural):
        return i
    return None


# --- sentences ----------------------------------------------------------------------------

_ABBREV = words("""
mr mrs ms dr prof st sr jr vs etc e.g i.e inc ltd co no approx dept fig jan feb mar apr
jun jul aug sep sept oct nov dec u.s a.m p.m
""")


def _sentences(text: str) -> list[tuple[int, str]]:
    """Split into sentences, keeping offsets; abbreviations and identifiers do not end one."""
    out: list[tuple[int, str]] = []
    start = 0
    for m in re.finditer(r"[.!?]+(?=\s+[\"'“(]?[A-Z0-9\u0370-\uffff])|;(?=\s)", text):
        end = m.end()
        before = text[start:m.start()].split()
        last = before[-1].lower().rstrip(".") if before else ""
        if last in _ABBREV or (len(last) == 1 and last.isalpha()):
            continue
        chunk = text[start:end].strip()
        if chunk:
            out.append((start + text[start:end].find(chunk), chunk))
        start = end
    chunk = text[start:].strip()
    if chunk:
        out.append((start + text[start:].find(chunk), chunk))
    return out


# --- subjects -----------------------------------------------------------------------------


@dataclass
class Subject:
    entity: str | None
    surface: str
    kind: str  # user | identifier | role | person | name | topic | pronoun | none
    names: tuple[str, ...] = ()
    role: str | None = None
    plural: bool = False
    attribute_hint: str | None = None  # from "X's <noun phrase> is ..."
    rules: tuple[str, ...] = ()


_HEAD_ATTRIBUTES: dict[str, str] = {
    "city": "home.city", "town": "home.city", "residence": "home.city",
    "address": "home.address", "home": "home.city", "hometown": "origin.city",
    "employer": "work.employer", "company": "work.employer", "job": "work.role",
    "occupation": "work.role", "profession": "work.role", "role": "work.role",
    "title": "work.role", "position": "work.role", "diet": "diet", "language": "language.main",
    "browser": "pref.browser", "phone": "contact.phone", "email": "contact.email",
    "partner": "relationship.partner", "spouse": "relationship.partner",
}
_NP_MODIFIERS = words("""
current main primary preferred favorite favourite usual default new old present former
previous
""")


def _segment(word: str) -> str:
    s = re.sub(r"[^a-z0-9]+", "_", ascii_fold(word)).strip("_")
    if not s:
        return ""
    if not s[0].isalpha():
        s = "n" + s
    return s


def _path(*parts: str, limit: int = 120) -> str:
    segs = [s for s in (_segment(p) for p in parts) if s]
    out = ".".join(segs)[:limit].rstrip("._")
    return out or "note"


def _keywords(words: Iterable[str], n: int = 3) -> list[str]:
    out: list[str] = []
    for w in words:
        lw = w.lower().strip(_EDGE).replace("’", "'")
        if lw.endswith("'s"):
            lw = lw[:-2]
        if not lw or lw in lx.STOPWORDS or lw in lx.ADVERBS or lw in lx.NEGATORS:
            continue
        if lw in lx.AUXILIARIES or lw.endswith("n't"):
            continue
        seg = _segment(lw)
        if seg and seg not in out:
            out.append(seg)
        if len(out) >= n:
            break
    return out


def _name_entity(namespace: str, name: str) -> str:
    local = slug(name)
    if not local:
        digest = hashlib.sha256(nfkc(name).strip().casefold().encode()).hexdigest()[:16]
        local = f"u{digest}"
    return f"{namespace}:{local}"


def _strip_honorific(words: list[str]) -> tuple[list[str], bool]:
    if len(words) > 1 and words[0].lower().rstrip(".") in lx.HONORIFICS:
        return words[1:], True
    return words, False


def _looks_like_name_token(tok: Tok) -> bool:
    w = tok.word
    if not w:
        return False
    if _is_foreign_word(w):
        return True
    core = strip_symbols(w)
    if not core:
        return False
    return _is_cap(core) or any(c.isdigit() for c in core)


def analyse_subject(region: str, region_toks: list[Tok],
                    identifiers: Sequence[Identifier]) -> Subject:
    """Resolve the subject noun phrase of a clause to a canonical entity."""
    words = [t.word for t in region_toks if t.word]
    low = [t.bare for t in region_toks if t.word]
    surface = region.strip().rstrip(",:;")
    if not words:
        return Subject(None, "", "none", rules=("subject:none",))
    # pronouns and first person
    if len(low) == 1 and low[0] in _PRONOUNS - {"i", "we", "you"}:
        return Subject(None, surface, "pronoun", plural=low[0] in ("they", "we"),
                       rules=("subject:pronoun",))
    if low[0] in ("my", "our") and len(words) > 1:
        rest = [w for w in words[1:] if w]
        named = [w for w in rest if _is_cap(w) or _is_foreign_word(w)]
        if named:
            # "My sister Ana": the name is the subject, the noun its relation to the user
            name = " ".join(named)
            return Subject(_name_entity("person", name), surface, "person",
                           names=(name,), rules=("subject:relative-of-user",))
        return Subject("user:self", surface, "user", attribute_hint=_head_attribute(low[1:]),
                       rules=("subject:user-possessive",))
    if low[0] in ("his", "her", "their", "its") and len(words) > 1:
        return Subject(None, surface, "pronoun", attribute_hint=_head_attribute(low[1:]),
                       rules=("subject:pronoun-possessive",))
    if low[0] == "the" and len(low) > 1 and low[1] == "user":
        possessive_user = region_toks[1].low.endswith("'s") if len(region_toks) > 1 else False
        hint = _head_attribute(low[2:]) if possessive_user and len(low) > 2 else None
        return Subject("user:self", surface, "user", attribute_hint=hint,
                       rules=("subject:user",))
    if low[0] in lx.FIRST_PERSON or low[0] in ("we", "us"):
        return Subject("user:self", surface, "user", rules=("subject:user",))
    # identifiers anchor the subject ("Customer ruth@corp.io", "Ticket OPS-412")
    anchors = [i for i in identifiers if i.kind not in ("date", "time")]
    if anchors:
        ident = anchors[0]
        role_words = [w for w in region[:ident.start].split() if w]
        role = _segment(role_words[-1].rstrip(":,")) if role_words else None
        return Subject(ident.entity, surface, "identifier", role=role,
                       rules=(f"subject:identifier:{ident.kind}",))
    possessive = None
    for i, t in enumerate(region_toks):
        if t.low.endswith("'s") and i < len(region_toks) - 1:
            possessive = i
            break
    first = low[0]
    if first in ("user", "users") and (len(low) == 1 or possessive == 0):
        hint = _head_attribute(low[1:]) if possessive == 0 else None
        return Subject("user:self", surface, "user", attribute_hint=hint,
                       rules=("subject:user",))
    # possessive owner: "Kai's favorite colour", "Ines's badge number"
    if possessive is not None:
        owner_toks = region_toks[:possessive + 1]
        owner_words = [t.word for t in owner_toks]
        owner_words[-1] = re.sub(r"['’]s$", "", owner_words[-1])
        owner = _named(owner_words, list(owner_toks))
        hint = _head_attribute(low[possessive + 1:])
        owner.attribute_hint = hint
        owner.surface = surface
        owner.rules = (*owner.rules, "subject:possessive")
        return owner
    return _named(words, region_toks)


def _head_attribute(words: Sequence[str]) -> str | None:
    content = [w for w in words if w not in lx.STOPWORDS and w not in _NP_MODIFIERS]
    if not content:
        return None
    head = content[-1]
    if head in _HEAD_ATTRIBUTES:
        return _HEAD_ATTRIBUTES[head]
    mods = [w for w in words if w in ("favorite", "favourite", "preferred")]
    prefix = "favorite" if mods else "prop"
    return _path(prefix, "_".join(content))


def _named(words: list[str], toks: list[Tok]) -> Subject:
    """Subjects without identifiers: role + name, honorific + name, names, noun phrases."""
    low = [w.lower() for w in words]
    if not low:
        return Subject(None, "", "none", rules=("subject:none",))
    # compound subject "Mara and Pol"
    if "and" in low:
        idx = low.index("and")
        left = _named(words[:idx], toks[:idx])
        right = _named(words[idx + 1:], toks[idx + 1:])
        if left.kind in ("person", "role", "name") and right.kind in ("person", "role",
                                                                       "name"):
            return Subject(left.entity, " ".join(words), left.kind,
                           names=(*left.names, *right.names), plural=True,
                           rules=("subject:compound",))
    body, honorific = _strip_honorific(words)
    if honorific and body and all(_is_cap(w) for w in body):
        name = " ".join(body)
        return Subject(_name_entity("person", name), " ".join(words), "person",
                       names=(name, " ".join(words)), rules=("subject:honorific+name",))
    # determiners make a common noun phrase, unless a proper name follows ("The Blue Lantern Inn")
    lead = low[0].rstrip(".,:")
    rest_words = words[1:] if lead in _DETERMINERS else words
    if lead in _DETERMINERS and rest_words and all(_is_cap(w) for w in rest_words):
        name = " ".join(rest_words)
        return Subject(_name_entity("name", name), " ".join(words), "name",
                       names=(name, " ".join(words)), rules=("subject:the+proper-name",))
    # role + name: "Patient Tomas", "Client Oleg", "Vendor 王芳", "User admin2"
    if len(words) >= 2:
        role_end = _role_prefix(low)
        if role_end:
            name_words = [w for w in words[role_end:] if strip_symbols(w).strip(_EDGE)]
            name_words = [strip_symbols(w).strip(_EDGE + "-") or w for w in name_words]
            lone = name_words[0] if len(name_words) == 1 else ""
            lowercase_name = (bool(lone) and lone.isalpha() and lone.islower()
                              and not lone.endswith(("s", "ing", "ed"))
                              and lone not in lx.STOPWORDS and lone not in lx.ROLE_NOUNS
                              and not lx.domains_of(lone))
            if name_words and (all(_looks_like_name_token(Tok(w, 0, 0)) for w in name_words)
                               or lowercase_name):
                role = "_".join(_segment(w) for w in low[:role_end])
                name = " ".join(name_words)
                ns = role.replace("_", "-")
                if ns in ("mr", "mrs", "ms", "dr"):
                    ns = "person"
                return Subject(_name_entity(ns if re.match(r"^[a-z][a-z0-9_-]*$", ns)
                                            else "name", name),
                               " ".join(words), "role", names=(name, " ".join(words)),
                               role=role, rules=("subject:role+name",))
    # proper names: "Mira", "Ines Caro", "Nordic Rail", "Lumen X2"
    cleaned = [strip_symbols(w).strip(_EDGE) for w in words]
    cleaned = [w for w in cleaned if w]
    if (cleaned and all(_is_cap(w) or _is_foreign_word(w) or w.isdigit()
                        or (len(w) <= 2 and w.isupper()) for w in cleaned)
            and cleaned[0].lower() not in _NOT_NAMES
            and cleaned[0].lower() not in lx.ROLE_NOUNS):
        name = " ".join(cleaned)
        personal = (len(cleaned) <= 3 and all(w.replace("-", "").isalpha() for w in cleaned))
        ns = "person" if personal else "name"
        return Subject(_name_entity(ns, name), " ".join(words), "person" if personal else "name",
                       names=(name,), rules=("subject:proper-name",))
    # common noun phrase
    content = [w for w in low if w not in _DETERMINERS]
    phrase = " ".join(content) or " ".join(low)
    head = _segment(content[-1]) if content else None
    if len(content) == 1 and content[0] in lx.ROLE_NOUNS:
        return Subject(f"{_segment(content[0])}:self", " ".join(words), "topic", role=head,
                       rules=("subject:role",))
    return Subject(_name_entity("topic", phrase), " ".join(words), "topic", role=head,
                   rules=("subject:noun-phrase",))


def _role_prefix(low: Sequence[str]) -> int:
    """How many leading words are a role noun phrase (``customer``, ``branch office``)."""
    words = [w.rstrip(".,:") for w in low]
    if words[0] in lx.ROLE_NOUNS or words[0] in lx.HONORIFICS:
        if len(words) > 2 and words[1] in lx.ROLE_NOUNS and not _is_cap_word(words[1]):
            return 2
        return 1
    if len(words) > 2 and words[1] in lx.ROLE_NOUNS:
        return 2
    return 0


def _is_cap_word(word: str) -> bool:
    return bool(word) and word[0].isupper()


# --- predicates -----------------------------------------------------------------------------

_TEMPORAL = re.compile(
    r"\b(?:since|until|till|from|between|throughout|during|before|after|starting|beginning|"
    r"as of|in|on|by|through)\s+(?:early\s+|late\s+|mid-?)?"
    r"(?:(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|spring|summer|autumn|"
    r"fall|winter)\s+)?(?:\d{4}-\d{2}-\d{2}|\d{4})"
    r"(?:\s*(?:to|-|–|and|until)\s*(?:\d{4}|present|now|today))?"
    r"|\b(?:last|next|this|earlier this|later this)\s+"
    r"(?:week|month|year|quarter|spring|summer|autumn|fall|winter|semester|term|season|"
    r"cycle|election|weekend|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b"
    r"|\b\d+\s+(?:days?|weeks?|months?|years?)\s+ago\b|\bever since\b"
    r"|\b(?:19|20)\d{2}\s*-\s*(?:19|20)\d{2}\b|\bin\s+(?:19|20)\d{2}\b"
    r"|\b(?:yesterday|today|tomorrow|tonight|recently|currently|now|nowadays|formerly|"
    r"previously|years ago|in childhood|as a child)\b", re.IGNORECASE)

_PREPOSITIONS = words("""
in at to for from with on by of as into onto via about near over under
""")


@dataclass
class Predicate:
    attribute: str
    value: Any
    confident: bool
    alternatives: tuple[str, ...] = ()
    domains: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()


def _object_after(toks: Sequence[Tok], start: int, stop_at_prep: bool = True) -> list[str]:
    out: list[str] = []
    for t in toks[start:]:
        w = t.low
        if out and stop_at_prep and w in _PREPOSITIONS | {"and", "but", "since", "until",
                                                           "after", "because", "due"}:
            break
        if w in ("a", "an", "the", "their", "his", "her", "my", "its", "our", "your"):
            if out:
                break
            continue
        out.append(t.word)
        if t.raw.endswith((",", ";", ":")):
            break
    return out


def _value_text(words: Sequence[str]) -> str:
    return " ".join(w.strip(_EDGE) for w in words).strip()


def _domains(words: Iterable[str]) -> tuple[str, ...]:
    found: list[str] = []
    for w in words:
        for d in sorted(lx.domains_of(w.strip(_EDGE))):
            if d not in found:
                found.append(d)
    return tuple(found)


def analyse_predicate(toks: list[Tok], verb_index: int, subject: Subject,
                      negated: bool) -> Predicate:
    """Attribute and value of a predicate (tokens after the subject)."""
    words = [t.low for t in toks]
    rules: list[str] = []
    if not toks:
        return Predicate("note", "", False, rules=("predicate:empty",))
    vi = min(max(verb_index, 0), len(toks) - 1)
    # skip auxiliaries and adverbs to the main verb
    main = vi
    while main < len(words) - 1 and (words[main] in lx.AUXILIARIES or words[main] in lx.ADVERBS
                                     or words[main] in lx.NEGATORS or words[main] == "longer"
                                     or words[main].endswith("n't")):
        nxt = words[main + 1]
        if words[main] in lx.AUXILIARIES and nxt not in lx.ADVERBS and nxt not in lx.NEGATORS \
                and lx.lemma_of(nxt) is None and nxt != "longer" and not nxt.endswith("n't") \
                and not (nxt.endswith("ed") and nxt.isalpha()):
            break
        main += 1
    if lx.lemma_of(words[main]) is None and not words[main].endswith("ed"):
        # "was strictly keto": adverbs skipped onto a complement; the verb is the copula
        for j in range(main - 1, vi - 1, -1):
            if lx.lemma_of(words[j]) is not None:
                main = j
                break
    verb = words[main]
    lemma = lx.lemma_of(verb) or verb
    rest = toks[main + 1:]
    rest_low = [t.low for t in rest]
    value = _value_text([t.word for t in toks[main:]])
    domains = _domains(words)

    def found(attribute: str, val: Any, confident: bool = True,
              alternatives: tuple[str, ...] = (), rule: str = "") -> Predicate:
        if rule:
            rules.append(rule)
        return Predicate(attribute, val, confident, alternatives, domains, tuple(rules))

    # copula: "is <hint value>" for possessive subjects, "is a <role> at <Org>", "is vegan"
    if lemma == "be":
        comp = rest_low
        comp_words = [t.word for t in rest]
        if subject.attribute_hint:
            return found(subject.attribute_hint, _value_text(comp_words), True,
                         rule="predicate:possessive-noun")
        if comp[:2] in (["originally", "from"],) or comp[:1] == ["from"]:
            return found("origin.city", _value_text(_object_after(rest, comp.index("from") + 1)),
                         rule="predicate:origin")
        if "at" in comp or "for" in comp:
            prep = comp.index("at") if "at" in comp else comp.index("for")
            head = comp[:prep]
            if prep + 1 < len(rest) and _is_cap(rest[prep + 1].word) and (
                    set(_domains(head)) & {"work"} or any(w in ("a", "an") for w in head[:1])):
                return found("work.employer", _value_text(_object_after(rest, prep + 1)),
                             rule="predicate:role-at-organisation")
        if comp and comp[0] in ("allergic",):
            obj = _object_after(rest, 2) if len(comp) > 1 and comp[1] == "to" else []
            return found(_path("health", "allergy", *_keywords(obj, 2)), _value_text(obj),
                         rule="predicate:allergy")
        if comp[:2] == ["fluent", "in"] or comp[:1] == ["fluent"]:
            obj = _object_after(rest, 2 if comp[1:2] == ["in"] else 1)
            return found(_path("language", *_keywords(obj, 1)), _value_text(obj),
                         rule="predicate:language")
        content = [w for w in comp if w not in lx.STOPWORDS and w not in lx.ADVERBS]
        dom = _domains(content[:2])
        if ("relationship" in dom and comp[:1] != ["married"]) or content[:1] in (
                ["married"], ["single"], ["engaged"], ["divorced"], ["widowed"]):
            return found("relationship.status", _value_text(comp_words),
                         rule="predicate:marital-status")
        if "diet" in dom and len(content) <= 3:
            return found("diet", _value_text(comp_words), rule="predicate:diet")
        if "work" in dom and comp[:1] in (["a"], ["an"]):
            return found("work.role", _value_text(comp_words), rule="predicate:occupation")
        if "personality" in dom:
            return found("personality", _value_text(comp_words), rule="predicate:personality")
        kw = _keywords(comp_words, 2)
        return found(_path("is", *kw), value, False, rule="predicate:copula")
    # residence
    if lemma in ("live", "reside") or (lemma == "base" and "in" in rest_low[:1]):
        if rest_low[:1] == ["with"] or rest_low[:1] == ["alone"]:
            return found("home.household", value, rule="predicate:household")
        if _has_address(rest):
            return found("home.address", _value_text(_object_after(rest, 1, False)),
                         rule="predicate:address")
        if rest_low[:1] in (["in"], ["at"], ["on"]):
            return found("home.city", _value_text(_object_after(rest, 1)),
                         rule="predicate:residence")
        return found("home.city", value, True, rule="predicate:residence")
    motion = lemma in ("move", "relocate", "return", "transfer", "switch", "go", "come",
                       "migrate", "revert", "transition", "upgrade") and "to" in rest_low[:3]
    if motion:
        to = rest_low.index("to")
        obj = _object_after(rest, to + 1)
        if _has_address(rest[to + 1:]):
            return found("home.address", _value_text(obj), rule="predicate:moved-to-address")
        if lemma == "relocate":
            return found("home.city", _value_text(obj), rule="predicate:relocated")
        alt = ("home.city", "work.employer")
        return found(_path("moved", *_keywords(obj, 2)), _value_text(obj), False, alt,
                     rule="predicate:change-of-state")
    # employment
    if lemma in ("work", "employ"):
        if rest_low[:1] in (["at"], ["for"]) or "employed" in words:
            return found("work.employer", _value_text(_object_after(rest, 1)),
                         rule="predicate:works-at")
        if rest_low[:1] == ["as"]:
            obj = _object_after(rest, 1, False)
            if "at" in [w.lower() for w in obj]:
                return found("work.employer", _value_text(obj), rule="predicate:works-as-at")
            return found("work.role", _value_text(obj), rule="predicate:works-as")
        if rest_low[:1] == ["in"]:
            return found(_path("work", "unit", *_keywords([t.word for t in rest[1:]], 2)),
                         value, rule="predicate:works-in")
        if rest_low[:1] == ["on"]:
            return found(_path("work", "project", *_keywords([t.word for t in rest[1:]], 2)),
                         value, rule="predicate:works-on")
        return found(_path("work", *_keywords([t.word for t in rest], 2)), value,
                     rule="predicate:works")
    if (lemma in ("join", "start") and rest and _is_cap(rest[0].word)
            and rest_low[0] not in ("the", "a")):
        return found("work.employer", _value_text(_object_after(rest, 0)),
                     rule="predicate:joined-organisation")
    if lemma == "start" and rest_low[:1] == ["at"] and len(rest) > 1 and _is_cap(rest[1].word):
        return found("work.employer", _value_text(_object_after(rest, 1)),
                     rule="predicate:started-at")
    if lemma in ("accept", "take") and any(w in ("position", "job", "role", "offer",
                                                 "professorship") for w in rest_low[:4]):
        return found("work.employer", value, rule="predicate:accepted-position")
    if lemma == "report" and rest_low[:1] == ["to"]:
        return found("work.manager", _value_text(_object_after(rest, 1)),
                     rule="predicate:reports-to")
    if lemma == "speak":
        return found(_path("language", *_keywords([t.word for t in rest], 1)), value,
                     rule="predicate:speaks")
    if lemma in ("drive", "lease") or (lemma == "own" and "transport" in _domains(rest_low)):
        return found("transport.vehicle", value, rule="predicate:vehicle")
    if lemma == "commute":
        return found("transport.commute", value, rule="predicate:commute")
    if lemma == "marry":
        return found("relationship.status", value, rule="predicate:married")
    if lemma == "eat" or (lemma == "follow" and "diet" in _domains(rest_low)):
        return found("diet", value, rule="predicate:diet")
    if lemma == "prefer":
        obj = _object_after(rest, 0)
        heads = [w for w in (x.lower() for x in obj) if w not in lx.STOPWORDS]
        topic = heads[-1] if heads else "general"
        return found(_path("pref", topic), _value_text(obj), len(heads) > 1,
                     rule="predicate:prefers")
    if lemma in ("own", "have", "adopt") and "pet" in _domains(rest_low):
        return found(_path("pet", *_keywords([t.word for t in rest], 2)), value,
                     rule="predicate:pet")
    if "health" in _domains(rest_low) and lemma in ("have", "develop", "diagnose", "suffer"):
        return found(_path("health", *_keywords([t.word for t in rest], 2)), value,
                     rule="predicate:health")
    # generic: verb lemma + object keywords, so unrelated facts never share a slot
    kw = _keywords([t.word for t in rest], 3)
    return found(_path(lemma, *kw), value, False, rule="predicate:generic")


def _has_address(toks: Sequence[Tok]) -> bool:
    words = [t.low for t in toks[:6]]
    if words and words[0] in ("at", "on", "in", "to"):
        words = words[1:]
    return bool(words) and words[0].isdigit() and any(
        w in ("street", "st", "avenue", "ave", "road", "rd", "lane", "ln", "boulevard",
              "blvd", "drive", "dr", "way", "court", "ct", "place", "pl", "square",
              "terrace", "close") for w in words[1:])


# --- clauses --------------------------------------------------------------------------------

_ANAPHOR = re.compile(r"\b(?:there|it|them|other|others|else|the same|either)\b"
                      r"|\b(?:one|ones|so|such)\W*$"
                      r"|\b(?:this|that)\b(?=\s*(?:$|[.,;!?]|firmly|strongly|clearly|"
                      r"repeatedly|often|again|too|as well))", re.IGNORECASE)
"""Words that lean on the previous conjunct (pronouns, ``other``, ``else``)."""
_ELLIPSIS_END = re.compile(r"\b(?:to|not|too|either|so|does|do|did|has|have|will|can|"
                           r"would|should)\W*$", re.IGNORECASE)


def _negated(words: Sequence[str]) -> bool:
    for i, w in enumerate(words):
        if w in lx.NEGATORS and not (w == "no" and i + 1 < len(words)
                                     and words[i + 1] in ("longer",)):
            if w == "no" and i + 1 < len(words) and words[i + 1] in ("matter",):
                continue
            return True
        if w.endswith(lx.NEGATED_CONTRACTIONS):
            return True
        if w == "no" and i + 1 < len(words) and words[i + 1] == "longer":
            return True
        if w in lx.NEGATING_VERBS:
            return True
    return False


def _cessation(words: Sequence[str], text_low: str) -> bool:
    if any(p in text_low for p in lx.CESSATION_PHRASES):
        return True
    for i, w in enumerate(words[:4]):
        lemma = lx.lemma_of(w)
        if lemma in lx.CESSATION_VERBS:
            following = [x for x in words[i + 1:i + 4] if x not in lx.STOPWORDS]
            # "left feedback", "left a note": giving something, not ending a state
            return not (lemma == "leave" and following and following[0] in _MESSAGE_NOUNS)
    return bool(re.search(r"\blet\b.*\b(?:expire|lapse|go)\b", text_low))


_MESSAGE_NOUNS = words("""
feedback comment comments note notes message messages review reviews tip tips voicemail
rating reply replies mark trace
""")


def _has_purpose(text_low: str) -> bool:
    m = re.search(r"\bto\s+([a-z]+)", text_low)
    return m is not None and lx.lemma_of(m.group(1)) == m.group(1)


def _adjuncts(text: str) -> tuple[tuple[str, str], ...]:
    out = []
    low = text.lower()
    for marker in lx.ADJUNCT_MARKERS:
        for m in re.finditer(rf"(?:^|[\s,]){re.escape(marker)}\s", low):
            start = m.start() + (1 if low[m.start()] in " ," else 0)
            tail = text[start:]
            cut = re.search(r"[,;](?=\s)|\s(?:and|but)\s", tail[len(marker) + 1:])
            piece = tail[:len(marker) + 1 + cut.start()] if cut else tail
            piece = piece.rstrip(" .;,!?")
            if re.match(rf"{re.escape(marker)}\s+(?:19|20)\d{{2}}\s*$", piece, re.I):
                continue  # "after 2019" is a temporal qualifier, not a reason
            out.append((marker, piece))
    out.sort(key=lambda a: text.find(a[1]))
    return tuple(out)


def _names_in(toks: Sequence[Tok], skip_first: bool) -> tuple[str, ...]:
    """Proper names: runs of capitalised (or non-Latin) words not at sentence start."""
    names: list[str] = []
    run: list[str] = []
    for i, t in enumerate(toks):
        w = strip_symbols(t.word).strip(_EDGE)
        w = re.sub(r"['’]s$", "", w)
        if t.raw.startswith("(") and run:
            names.append(" ".join(run))
            run = []
        if w.lower().rstrip(".") in lx.ROLE_NOUNS or w.lower().rstrip(".") in lx.HONORIFICS:
            if run:
                names.append(" ".join(run))
            run = []
            continue
        is_name = bool(w) and (i > 0 or not skip_first) and (
            ((_is_cap(w) and w.lower() not in lx.STOPWORDS and w.lower() not in _NOT_NAMES
             and not w.isupper()) or (w.isupper() and len(w) <= 5 and w.isalpha()))
            or _is_foreign_word(w))
        if is_name and not any(c.isdigit() for c in w):
            run.append(w)
            if t.raw.rstrip().endswith((",", ".", ";", ":", ")")):
                names.append(" ".join(run))
                run = []
        else:
            if run:
                names.append(" ".join(run))
            run = []
    if run:
        names.append(" ".join(run))
    return tuple(dict.fromkeys(n for n in names if n))


@dataclass
class _Conjunct:
    start: int  # offset of the conjunct in the sentence (after the conjunction)
    text: str
    toks: list[Tok]
    verb: int


def _split_conjuncts(sentence: str, pred_start: int, plural: bool,
                     protected: Sequence[tuple[int, int]]) -> list[_Conjunct]:
    """Split the predicate where a new finite verb phrase is coordinated."""
    pred = sentence[pred_start:]
    toks = _tokens(pred, pred_start)
    cuts: list[tuple[int, int]] = []  # (token index of conjunction, index of next token)
    for i, t in enumerate(toks):
        w = t.low
        joiner = w in ("and", "but") or (w == "while" and i > 0)
        if not joiner:
            continue
        if any(s <= t.start < e for s, e in protected):
            continue
        nxt = toks[i + 1:]
        vp = _starts_vp(nxt, plural)
        if vp is not None:
            cuts.append((i, i + 1))
    # comma lists of verb phrases ending in ", and <VP>": "is X, based in Y, speaks Z, and ..."
    if cuts:
        for i, t in enumerate(toks[:-1]):
            if not t.raw.endswith(",") or toks[i + 1].low in ("and", "but"):
                continue
            nxt = toks[i + 1:]
            verb_phrase = _starts_vp(nxt, plural) is not None or (
                nxt[0].low.endswith("ed") and lx.lemma_of(nxt[0].low) is not None)
            if verb_phrase and all(c[0] != i + 1 for c in cuts):
                cuts.append((i + 1, i + 1))
        cuts.sort()
    pieces: list[_Conjunct] = []
    begin = 0
    for conj, resume in [*cuts, (len(toks), len(toks))]:
        seg = toks[begin:conj]
        if seg:
            start = seg[0].start
            end = seg[-1].end
            text = sentence[start:end].rstrip(" ,;")
            vi = _starts_vp(seg, plural)
            pieces.append(_Conjunct(start, text, seg, vi if vi is not None else 0))
        begin = resume
    return pieces


def _subject_split(sentence: str, toks: list[Tok],
                   identifiers: Sequence[Identifier]) -> tuple[int, int | None, bool]:
    """(index of the first predicate token, index of a key-value colon token, plural)."""
    spans = [(i.start, i.end) for i in identifiers]

    def inside_identifier(t: Tok) -> bool:
        return any(s <= t.start < e for s, e in spans)

    plural = False
    for i, t in enumerate(toks):
        if inside_identifier(t):
            continue
        w = t.low
        if i == 0:
            if w in ("i", "we", "they", "you"):
                plural = True
            continue
        if t.raw.endswith(":") and i <= 8:
            return i + 1, i, plural
        if w == "and" and i <= 3 and _is_cap(toks[i - 1].word):
            plural = True
            continue
        prev_cap = _is_cap(toks[i - 1].word)
        if toks[i - 1].low.endswith("'s"):
            continue  # right after a possessive: an adjective of the noun phrase
        if _agrees(t.word, plural) or (w in lx.ADVERBS and i + 1 < len(toks)
                                       and _agrees(toks[i + 1].word, plural)):
            if w in lx.ADVERBS:
                return i, None, plural
            if _is_cap(t.word) and prev_cap and lx.lemma_of(w) and w not in lx.AUXILIARIES:
                # a capitalised word inside a name ("Will", "Mark") is not the verb
                nxt = toks[i + 1] if i + 1 < len(toks) else None
                if nxt is not None and _agrees(nxt.word, plural):
                    continue
            return i, None, plural
        if w in ("no",) and i + 1 < len(toks) and toks[i + 1].low == "longer":
            return i, None, plural
        if w in lx.NEGATING_VERBS:
            return i, None, plural
        if (not plural and i <= 3 and w.isalpha() and w.endswith("s") and not w.endswith("ss")
                and t.word.islower() and w not in lx.STOPWORDS
                and (i + 1 >= len(toks) or not _agrees(toks[i + 1].word, True))):
            # an unknown -s word after the subject, not followed by a verb: the verb
            return i, None, plural
    # no finite verb: a key-value line without a colon, or a fragment
    first = toks[0].low if toks else ""
    if (lx.lemma_of(first) and not _is_cap(toks[0].word)) or (
            toks and lx.lemma_of(first) and len(toks) > 1 and not _is_cap(toks[1].word)
            and toks[1].low not in lx.AUXILIARIES and lx.lemma_of(first) != first
            and first.endswith("ed")):
        return 0, None, plural
    return len(toks), None, plural


def _leading_temporal(toks: Sequence[Tok]) -> int:
    """Length of a leading temporal phrase (``Throughout 2021``, ``In May 2019,``)."""
    if not toks or toks[0].low not in lx.TEMPORAL_PREPOSITIONS | {"last", "this", "next"}:
        return 0
    i = 1
    while i < len(toks) and i <= 4:
        w = toks[i].low
        if re.match(r"^\d{1,4}(?:s)?$", w) or w in lx.TEMPORAL_WORDS or w in ("of", "early",
                                                                          "late", "the"):
            i += 1
            if toks[i - 1].raw.endswith(","):
                break
            continue
        break
    has_time = any(re.match(r"^\d", t.low) or t.low in lx.TEMPORAL_WORDS for t in toks[1:i])
    return i if has_time else 0


def _same_cue(low_text: str) -> str | None:
    """``Same customer (…)``, ``The same user …``, ``… alternate format: …``, ``aka``."""
    m = re.match(r"^(?:the\s+)?same\s+([a-z][a-z\-]*(?:\s+(?:office|id|number|record|"
                 r"account|address|key|form))?)", low_text)
    if m:
        return m.group(1)
    if re.match(r"^(?:equivalent|alternate|alternative)\b", low_text):
        return ""
    m = re.match(r"^([a-z][\w\-]*(?:\s+[a-z][\w\-]*){0,2})\s+(?:alternate|alternative|"
                 r"equivalent)\b", low_text)
    if m:
        return m.group(1).split()[0]
    m = re.match(r"^([a-z][\w\-]*)-equivalent\b", low_text)
    if m:
        return ""
    if re.search(r"\b(?:is|are|was|refers? to|means)\s+the\s+same\s+(?:person|account|"
                 r"customer|user|one|entity|record|individual|thing)\b", low_text):
        return ""
    return None


def _coref_names(sentence: str, toks: list[Tok]) -> tuple[str, ...]:
    """The name a ``same <role> as <Name>`` sentence introduces."""
    names: list[str] = []
    m = re.search(r"\bsame\s+[\w\- ,]*?\b(?:as|written|aka|in [\w\- ]+?:|form:|[\w\-]+ form:|"
                  r"nickname|known as|called)\s*(.+)$", sentence, re.IGNORECASE)
    m2 = re.search(r"\(([^)]+)\)", sentence)
    cands = []
    if m:
        cands.append(m.group(1))
    if m2 and ("," in m2.group(1) or len(re.findall(r"\b[A-Z]", m2.group(1))) >= 2):
        cands.append(m2.group(1))
    m3 = re.match(r"^(?:the\s+)?same\s+[a-z]+(?:\s+office)?\s+(.+)$", sentence, re.IGNORECASE)
    if m3:
        cands.append(m3.group(1))
    for cand in cands:
        found: list[str] = []
        for w in cand.split():
            if w.startswith("(") and found:
                break
            core = strip_symbols(w).strip(_EDGE + ",")
            if not core:
                continue
            if _is_cap(core) or _is_foreign_word(core) or core.startswith("@"):
                found.append(core)
                if w.endswith((",", ")")) and len(found) >= 2:
                    break
                if w.endswith(")"):
                    break
                continue
            if w.endswith(",") and found:
                break
            if found:
                break
        if found:
            names.append(" ".join(found))
    # "Brückner, Anton" style (surname, given name)
    m4 = re.search(r"\b([A-Z][\w\-]+),\s+([A-Z][\w\-]+)\b", sentence)
    if m4:
        names.append(f"{m4.group(1)}, {m4.group(2)}")
    return tuple(dict.fromkeys(n for n in names if n and n.lower() not in _NOT_NAMES))


class RuleInterpreter:
    """The default, deterministic interpreter (no model, no network, no randomness)."""

    version = VERSION

    def __call__(self, text: str) -> Interpretation:
        return interpret(text)


@lru_cache(maxsize=8192)
def interpret(text: str) -> Interpretation:
    """Interpret ``text`` into clauses (cached: the same text always reads the same)."""
    if not isinstance(text, str):
        raise TypeError("text must be a string")
    source = nfkc(text).strip()
    clauses: list[Clause] = []
    for _offset, sentence in _sentences(source):
        clauses.extend(_interpret_sentence(sentence))
    if not clauses and source:
        clauses.append(Clause(text=source, entity=None, attribute="note", value=source,
                              mention=source, rules=("fallback:unparsed",)))
    return Interpretation(source=source, clauses=tuple(clauses))


def _interpret_sentence(sentence: str) -> list[Clause]:
    sentence = sentence.strip()
    body = sentence.rstrip(".!?;").rstrip()
    identifiers = find_identifiers(body)
    # identifiers are found on a cleaned copy; re-anchor them on this text by surface
    anchored: list[Identifier] = []
    for ident in identifiers:
        pos = body.find(ident.surface)
        anchored.append(replace(ident, start=pos if pos >= 0 else 0,
                                end=(pos if pos >= 0 else 0) + len(ident.surface)))
    toks = _tokens(body)
    if not toks:
        return []
    low_body = ascii_fold(body)
    cue = _same_cue(low_body)
    pred_index, colon, _plural = _subject_split(body, toks, anchored)
    rules: list[str] = []
    # key-value lines: "Backup router IP: 172.16.0.9"
    if colon is not None:
        key_toks = toks[:colon + 1]
        key = body[:key_toks[-1].end].rstrip(":").strip()
        after = body[key_toks[-1].end:].strip()
        after_toks = _tokens(after, key_toks[-1].end + (len(body[key_toks[-1].end:])
                                                        - len(body[key_toks[-1].end:]
                                                              .lstrip())))
        after_ids = [i for i in anchored if i.start >= key_toks[-1].end]
        key_ids = [i for i in anchored if i.end <= key_toks[-1].end]
        vp_in_value = None
        for j, t in enumerate(after_toks):
            if j > 0 and _agrees(t.word, False):
                vp_in_value = j
                break
        if after_ids and vp_in_value is not None and after_ids[0].start < after_toks[
                vp_in_value].start:
            # "Badge: BX-7741 belongs to Ines Caro": the identifier is the subject
            subj_toks = after_toks[:vp_in_value]
            subject = analyse_subject(body[:after_toks[vp_in_value].start], subj_toks,
                                      after_ids)
            subject.surface = body[:after_toks[vp_in_value].start].strip()
            pred_start = after_toks[vp_in_value].start
            rules.append("sentence:label+identifier-subject")
        else:
            anchor = (after_ids or key_ids)
            anchor = [i for i in anchor if i.kind not in ("date", "time")] or anchor
            key_low = [t.bare for t in key_toks]
            attribute = _path("label", *(_keywords([t.word for t in key_toks], 4) or ["value"]))
            if anchor:
                ident = anchor[0]
                subject = Subject(ident.entity, key, "identifier",
                                  rules=(f"subject:identifier:{ident.kind}",))
            else:
                subject = analyse_subject(key, key_toks, key_ids)
                if subject.kind in ("topic",) and any(w in lx.HONORIFICS for w in key_low):
                    pass
            if cue is not None:
                subject.kind = "refers_back"
            clause = _finish(sentence=body, text=body, subject=subject,
                             pred=Predicate(attribute, after.rstrip(". ") or key, True,
                                            domains=_domains([*key_low, *after.lower().split()]),
                                            rules=("predicate:key-value",)),
                             toks=toks, identifiers=anchored, cue=cue, negated=False,
                             rules=[*rules, "sentence:key-value"],
                             conj_text=after, elided=False)
            return [clause]
    else:
        subject_toks = toks[:pred_index]
        while subject_toks and subject_toks[0].low in lx.ADVERBS and len(subject_toks) > 1:
            subject_toks = subject_toks[1:]  # "Now Ada prefers …": the adverb is no name
        lead = _leading_temporal(subject_toks)
        if lead and lead < len(subject_toks):
            subject_toks = subject_toks[lead:]  # "Throughout 2021 the user was …"
            rules.append("temporal:leading-phrase")
        region = body[subject_toks[0].start:subject_toks[-1].end] if subject_toks else ""
        subject = analyse_subject(region, subject_toks,
                                  [i for i in anchored if subject_toks
                                   and i.start < subject_toks[-1].end])
        pred_start = toks[pred_index].start if pred_index < len(toks) else len(body)
    elided = subject.kind == "none"
    if elided:
        rules.append("subject:elided")
    if cue is not None:
        rules.append("coreference:same-as-before")
    protected = [(i.start, i.end) for i in anchored]
    conjuncts = _split_conjuncts(body, pred_start, subject.plural, protected)
    if not conjuncts:
        conjuncts = [_Conjunct(pred_start, body[pred_start:], _tokens(body[pred_start:],
                                                                     pred_start), 0)]
    conjuncts = _merge_dependent(conjuncts, subject)
    out: list[Clause] = []
    subject_text = body[:pred_start].strip()
    for k, conj in enumerate(conjuncts):
        text = body if len(conjuncts) == 1 else (
            conj.text if k == 0 and not subject_text else
            f"{subject_text} {conj.text}".strip() if k > 0 else
            body[:conj.start + len(conj.text)].strip())
        if k == 0 and len(conjuncts) > 1:
            text = body[:conj.start + len(conj.text)].strip()
        words = [t.low for t in conj.toks]
        negated = _negated(words)
        pred = analyse_predicate(conj.toks, conj.verb, subject, negated)
        clause_rules = [*rules, *subject.rules, *pred.rules]
        if len(conjuncts) > 1:
            clause_rules.append(f"clause:{k + 1}/{len(conjuncts)}")
        out.append(_finish(sentence=body, text=text, subject=subject, pred=pred, toks=conj.toks,
                           identifiers=anchored, cue=cue, negated=negated, rules=clause_rules,
                           conj_text=conj.text, elided=elided))
    return out


def _merge_dependent(conjuncts: list[_Conjunct], subject: Subject) -> list[_Conjunct]:
    """Keep a conjunct with the previous one when it cannot stand alone."""
    merged: list[_Conjunct] = []
    for conj in conjuncts:
        if merged:
            prev = merged[-1]
            prev_words = [t.low for t in prev.toks]
            words = [t.low for t in conj.toks]
            anaphoric = bool(_ANAPHOR.search(conj.text)) or bool(_ELLIPSIS_END.search(conj.text))
            neg_elaboration = _negated(prev_words) and bool(
                set(_domains(prev_words)) & set(_domains(words)))
            same_slot = False
            if not anaphoric and not neg_elaboration:
                a = analyse_predicate(prev.toks, prev.verb, subject, False)
                b = analyse_predicate(conj.toks, conj.verb, subject, False)
                same_slot = a.confident and b.confident and a.attribute == b.attribute
            if anaphoric or neg_elaboration or same_slot:
                merged[-1] = _Conjunct(prev.start, prev.text + _between(prev, conj) + conj.text,
                                       prev.toks + conj.toks, prev.verb)
                continue
        merged.append(conj)
    return merged


def _between(prev: _Conjunct, conj: _Conjunct) -> str:
    gap = conj.start - (prev.start + len(prev.text))
    if gap <= 1:
        return " "
    return " and " if gap <= 6 else ", and "


def _finish(*, sentence: str, text: str, subject: Subject, pred: Predicate, toks: list[Tok],
            identifiers: Sequence[Identifier], cue: str | None, negated: bool,
            rules: list[str], conj_text: str, elided: bool) -> Clause:
    text_low = ascii_fold(conj_text)
    words = [t.low for t in toks]
    temporal = tuple(dict.fromkeys(m.group().strip() for m in _TEMPORAL.finditer(text)))
    attribute = pred.attribute
    if negated and not attribute.startswith("not."):
        attribute = _path("not", *attribute.split("."))
        rules.append("negation:kept-with-fact")
    cessation = _cessation(words, text_low)
    purpose = cessation and _has_purpose(text_low)
    change = any(re.search(rf"\b{re.escape(m)}\b", text_low) for m in lx.CHANGE_MARKERS)
    continuation = any(re.search(rf"\b{re.escape(m)}\b", text_low)
                       for m in lx.CONTINUATION_MARKERS)
    dated = any(re.search(r"\d|\b(?:last|next|this|ago)\b", t, re.IGNORECASE)
                for t in temporal)
    op = "assert"
    ends_prior = cessation or (negated and change)
    if ends_prior:
        rules.append("ends-a-prior-state")
    if cessation and not purpose and not negated and not dated:
        # an undated cessation only says the prior state ended (the supersession records
        # that); a dated one ("sold the piano in May 2024") is an event to remember
        op = "cease"
        rules.append("cessation:ends-a-prior-state")
    elif cessation:
        rules.append("cessation:dated-event")
    elif (change and pred.confident and not continuation and not negated
          and subject.entity is not None):
        op = "supersede"
        rules.append("change-of-state:replaces-slot")
    if temporal:
        rules.append("temporal:kept-with-fact")
    # identifiers restored from an obfuscated form are not in the text verbatim: they
    # belong to the clause that holds the start of the sentence
    clause_ids = tuple(i for i in identifiers if i.surface in text or (
        i.surface not in sentence and text.startswith(sentence[:8])))
    names = _names_in(_tokens(text), skip_first=subject.kind not in ("person", "role", "name"))
    subject_names = tuple(subject.names)
    refers = None
    if cue is not None:
        refers = cue
        subject_names = (*subject_names, *_coref_names(sentence, _tokens(sentence)))
        subject_names = tuple(dict.fromkeys(subject_names))
    entity = subject.entity
    if subject.kind == "pronoun":
        refers = ""
        entity = None
    return Clause(
        text=text.strip(), entity=entity, attribute=attribute, value=pred.value,
        mention=subject.surface or None, op=op, negated=negated, confident=pred.confident,
        alternatives=pred.alternatives, temporal=temporal, identifiers=clause_ids,
        names=names, subject_names=subject_names, refers_back=refers, elided=elided,
        adjuncts=_adjuncts(text), has_purpose=purpose, ends_prior=ends_prior,
        continuation=continuation,
        domains=pred.domains, rules=tuple(dict.fromkeys(rules)))


# --- model hook -----------------------------------------------------------------------------

ProposeFn = Callable[[str], Any]


def clause_from_mapping(data: Mapping[str, Any], source: str) -> Clause:
    """Build a clause from a model's proposal (a mapping with the clause's field names)."""
    known = set(Clause.__dataclass_fields__)
    unknown = set(data) - known
    if unknown:
        raise ValueError(f"unknown clause fields: {', '.join(sorted(unknown))}")
    values = dict(data)
    values.setdefault("text", source)
    values.setdefault("entity", None)
    values.setdefault("attribute", "note")
    values.setdefault("value", values["text"])
    ids = values.get("identifiers") or ()
    values["identifiers"] = tuple(
        i if isinstance(i, Identifier) else Identifier(**i) for i in ids)
    for name in ("alternatives", "temporal", "names", "subject_names", "domains", "rules"):
        values[name] = tuple(values.get(name) or ())
    values["adjuncts"] = tuple(tuple(a) for a in values.get("adjuncts") or ())
    values["rules"] = (*values["rules"], "proposed-by:model")
    return Clause(**values)


@dataclass
class ModelInterpreter:
    """Wrap any callable (a language model, a service) that proposes the operations.

    The callable receives the text and returns an :class:`Interpretation`, a list of
    :class:`Clause`, or a list of mappings with the clause's field names. If it
    raises or returns nothing usable and ``fallback`` is set, the rules decide.
    """

    propose: ProposeFn
    fallback: Interpreter | None = field(default_factory=RuleInterpreter)
    version: str = "model-hook"

    def __call__(self, text: str) -> Interpretation:
        try:
            proposal = self.propose(text)
        except Exception:
            if self.fallback is None:
                raise
            return self.fallback(text)
        if isinstance(proposal, Interpretation):
            return proposal
        clauses: list[Clause] = []
        for item in proposal or ():
            if isinstance(item, Clause):
                clauses.append(replace(item, rules=(*item.rules, "proposed-by:model")))
            elif isinstance(item, Mapping):
                clauses.append(clause_from_mapping(item, text))
            else:
                raise TypeError("a proposal must be Clause objects or mappings")
        if not clauses and self.fallback is not None:
            return self.fallback(text)
        return Interpretation(source=text, clauses=tuple(clauses), interpreter=self.version)


def as_interpreter(obj: Interpreter | ProposeFn | None) -> Interpreter:
    """The interpreter to use: the rules by default, a model hook wrapped if needed."""
    if obj is None:
        return RuleInterpreter()
    if isinstance(obj, (RuleInterpreter, ModelInterpreter)):
        return obj
    return ModelInterpreter(obj)
