"""Subject -> entity: who or what a clause is about.

``user:self`` for the user, ``email:…``/``phone:…`` when an identifier anchors the
subject, ``<role>:<name>`` for an appositive (``Patient Tomas`` -> ``patient:tomas``),
``person:<name>`` for a personal name (honorifics dropped), ``topic:<noun phrase>``
for anything else. A possessive subject (``Kai's favorite colour``) also yields the
attribute its head noun names (:attr:`Subject.attribute_hint`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from memory_es.text import lexicon as lx
from memory_es.text.identifiers import Identifier
from memory_es.text.lexicon import words
from memory_es.text.normalize import strip_symbols
from memory_es.text.paths import attribute_path, entity_id, segment
from memory_es.text.words import (
    DETERMINERS,
    EDGE,
    NOT_NAMES,
    PRONOUNS,
    Tok,
    is_capitalised,
    is_foreign_word,
    tokenize,
)


@dataclass
class Subject:
    """The subject of a clause, resolved as far as the rules can."""

    entity: str | None
    surface: str
    kind: str  # user | identifier | role | person | name | topic | pronoun | none
    names: tuple[str, ...] = ()
    role: str | None = None
    plural: bool = False
    attribute_hint: str | None = None  # from "X's <noun phrase> is ..."
    rules: tuple[str, ...] = ()


HEAD_ATTRIBUTES: dict[str, str] = {
    "city": "home.city", "town": "home.city", "residence": "home.city",
    "address": "home.address", "home": "home.city", "hometown": "origin.city",
    "employer": "work.employer", "company": "work.employer", "job": "work.role",
    "occupation": "work.role", "profession": "work.role", "role": "work.role",
    "title": "work.role", "position": "work.role", "diet": "diet", "language": "language.main",
    "browser": "pref.browser", "phone": "contact.phone", "email": "contact.email",
    "partner": "relationship.partner", "spouse": "relationship.partner",
    "manager": "work.manager", "boss": "work.manager", "supervisor": "work.manager",
}
"""Head nouns of a possessive subject that name a known attribute (the slot another
predicate reads the same relation into: ``reports to`` is ``work.manager``)."""
_NP_MODIFIERS = words("""
current main primary preferred favorite favourite usual default new old present former
previous
""")


def _strip_honorific(words: list[str]) -> tuple[list[str], bool]:
    if len(words) > 1 and words[0].lower().rstrip(".") in lx.HONORIFICS:
        return words[1:], True
    return words, False


def _looks_like_name_token(word: str) -> bool:
    """A word (edge punctuation stripped) written like a name, or with a digit."""
    if not word:
        return False
    if is_foreign_word(word):
        return True
    core = strip_symbols(word)
    if not core:
        return False
    return is_capitalised(core) or any(c.isdigit() for c in core)


_CALLED_BY_ROLE = lx.ROLE_SENSE_NOUNS | frozenset().union(*lx.KIN_BY_PRONOUN.values())
"""Nouns a person is called by, capitalised after ``my`` (``My Mum``, ``My Nan``): a
word of a person sense, or a kin noun."""


def analyse_subject(region: str, region_toks: list[Tok],
                    identifiers: Sequence[Identifier]) -> Subject:
    """Resolve the subject noun phrase of a clause to a canonical entity."""
    cut = next((i for i, t in enumerate(region_toks[:-1]) if t.raw.endswith(",")), None)
    if cut is not None:
        owned = _named_possession(region_toks, cut)
        if owned is not None:
            return owned
        region_toks = region_toks[:cut + 1]  # an apposition follows the comma: not the name
    words = [t.word for t in region_toks if t.word]
    low = [t.bare for t in region_toks if t.word]
    surface = region.strip().rstrip(",:;")
    if not words:
        return Subject(None, "", "none", rules=("subject:none",))
    # pronouns and first person
    if len(low) == 1 and low[0] in PRONOUNS - {"i", "we", "you"}:
        return Subject(None, surface, "pronoun", plural=low[0] in ("they", "we"),
                       rules=("subject:pronoun",))
    if low[0] in ("my", "our") and len(words) > 1:
        rest = [w for w in words[1:] if w]
        # "My sister Ana": the name after the noun of the relation; with no such noun, a
        # name said alone ("My Mum"), never an acronym, which is the thing ("My GP", and
        # "My NHS number", whose capitals come before its noun)
        lower = next((i for i, w in enumerate(rest)
                      if not (is_capitalised(w) or is_foreign_word(w))), None)
        named = ([w for w in rest[lower + 1:] if is_capitalised(w) or is_foreign_word(w)]
                 if lower is not None else [w for w in rest if not w.isupper()])
        last = next((w.lower() for w in reversed(rest) if not (
            is_capitalised(w) or is_foreign_word(w) or w.lower() in ("the", "a", "an"))), None)
        if last in lx.PREPOSITIONS:
            # "My monthly direct debit to St Luke's Hospice": a name after a preposition
            # is where the thing goes, no relative of the user's
            named = []
        if lower is None and (not any(w.lower() in _CALLED_BY_ROLE for w in named) or (
                named and named[-1].lower() in lx.COMMON_NOUNS - _CALLED_BY_ROLE)):
            # "My Fiesta", "My Kindle": a name said alone that no person is; "My Unique
            # Taxpayer Reference": a thing, whose head noun no person is called by
            named = []
        # "My cat Miso": a named pet is the user's, as "Zoe's cat Miso" is Zoe's
        animal = any("pet" in lx.domains_of(w) for w in low[1:] if w not in
                     {n.lower() for n in named})
        if named and not animal:
            # "My sister Ana": the name is the subject, the noun its relation to the user
            name = " ".join(named)
            return Subject(entity_id("person", name), surface, "person",
                           names=(name,), rules=("subject:relative-of-user",))
        return Subject("user:self", surface, "user", attribute_hint=head_attribute(low[1:]),
                       rules=("subject:user-possessive",))
    if low[0] in lx.POSSESSIVE_PRONOUNS and len(words) > 1:
        return Subject(None, surface, "pronoun", attribute_hint=head_attribute(low[1:]),
                       rules=("subject:pronoun-possessive",))
    if low[0] == "the" and len(low) > 1 and low[1] == "user":
        possessive_user = region_toks[1].low.endswith("'s") if len(region_toks) > 1 else False
        hint = head_attribute(low[2:]) if possessive_user and len(low) > 2 else None
        return Subject("user:self", surface, "user", attribute_hint=hint,
                       rules=("subject:user",))
    if low[0] in lx.FIRST_PERSON or low[0] in ("we", "us"):
        return Subject("user:self", surface, "user", rules=("subject:user",))
    # identifiers anchor the subject ("Customer ruth@corp.io", "Ticket OPS-412")
    anchors = [i for i in identifiers if i.kind not in ("date", "time")]
    if anchors:
        ident = anchors[0]
        role_words = [w for w in region[:ident.start].split() if w]
        role = segment(role_words[-1].rstrip(":,")) if role_words else None
        return Subject(ident.entity, surface, "identifier", role=role,
                       rules=(f"subject:identifier:{ident.kind}",))
    possessive = None
    for i, t in enumerate(region_toks):
        if t.low.endswith("'s") and i < len(region_toks) - 1:
            possessive = i
            break
    first = low[0]
    if first in ("user", "users") and (len(low) == 1 or possessive == 0):
        hint = head_attribute(low[1:]) if possessive == 0 else None
        return Subject("user:self", surface, "user", attribute_hint=hint,
                       rules=("subject:user",))
    # possessive owner: "Kai's favorite colour", "Ines's badge number"
    if possessive is not None:
        owner_toks = region_toks[:possessive + 1]
        owner_words = [t.word for t in owner_toks]
        owner_words[-1] = re.sub(r"['’]s$", "", owner_words[-1])
        owner = _named(owner_words)
        hint = head_attribute(low[possessive + 1:])
        owner.attribute_hint = hint
        owner.surface = surface
        owner.rules = (*owner.rules, "subject:possessive")
        return owner
    return _named(words)


def _named_possession(toks: list[Tok], cut: int) -> Subject | None:
    """``Selkie, Hamish Crawford's dinghy, …``: a name whose apposition says it is
    someone's thing is that thing of theirs (the subject ``Hamish Crawford's dinghy``
    reads), the name one of its names. An apposition naming a person (``Mia, Tom's
    sister, …``) leaves the name the subject: the fact is the person's own."""
    name = [t.word.rstrip(",") for t in toks[:cut + 1] if t.word]
    rest = toks[cut + 1:]
    end = next((i for i, t in enumerate(rest) if t.raw.endswith(",")), len(rest) - 1)
    appos = rest[:end + 1]
    owner = next((i for i, t in enumerate(appos[:-1]) if t.low.endswith("'s")), None)
    if owner is None or not name or _named(name).kind not in ("person", "name"):
        return None
    head = appos[-1].low.rstrip(",")
    if not head.isalpha() or lx.names_a_person(head):
        return None
    region = " ".join(t.word for t in appos).rstrip(",")
    subject = analyse_subject(region, tokenize(region), [])
    if "subject:possessive" not in subject.rules or subject.kind not in ("person", "name", "user"):
        return None
    subject.names = (*subject.names, " ".join(name))
    subject.rules = (*subject.rules, "subject:named-possession")
    return subject


def head_attribute(words: Sequence[str]) -> str | None:
    """The attribute a noun phrase's head names (``favorite colour`` ->
    ``favorite.colour``, ``home city`` -> ``home.city``). A thing of the past (``old
    number``, ``former employer``) has a slot of its own under it (``….former``): it
    never holds the slot of the present one."""
    content = [w for w in words if w not in lx.STOPWORDS and w not in _NP_MODIFIERS]
    if not content:
        return None
    past = ("former",) if any(w in lx.PAST_MARKERS for w in words) else ()
    head = content[-1]
    if head in HEAD_ATTRIBUTES:
        # "work phone" and "home phone" are two slots; "home city" is home.city
        known = HEAD_ATTRIBUTES[head]
        kind = [w for w in content[:-1] if w not in known.split(".")]
        return attribute_path(*known.split("."), *(["_".join(kind)] if kind else []), *past)
    mods = [w for w in words if w in ("favorite", "favourite", "preferred")]
    prefix = "favorite" if mods else "prop"
    return attribute_path(prefix, "_".join(content), *past)


def _named(words: list[str]) -> Subject:
    """Subjects without identifiers: role + name, honorific + name, names, noun phrases."""
    low = [w.lower() for w in words]
    if not low:
        return Subject(None, "", "none", rules=("subject:none",))
    # compound subject "Mara and Pol"
    if "and" in low:
        idx = low.index("and")
        left = _named(words[:idx])
        right = _named(words[idx + 1:])
        if left.kind in ("person", "role", "name") and right.kind in ("person", "role",
                                                                       "name"):
            return Subject(left.entity, " ".join(words), left.kind,
                           names=(*left.names, *right.names), plural=True,
                           rules=("subject:compound",))
    body, honorific = _strip_honorific(words)
    if honorific and body and all(is_capitalised(w) for w in body):
        name = " ".join(body)
        return Subject(entity_id("person", name), " ".join(words), "person",
                       names=(name, " ".join(words)), rules=("subject:honorific+name",))
    # determiners make a common noun phrase, unless a proper name follows ("The Blue Lantern Inn")
    lead = low[0].rstrip(".,:")
    rest_words = words[1:] if lead in DETERMINERS else words
    if lead in DETERMINERS and rest_words and all(is_capitalised(w) for w in rest_words):
        name = " ".join(rest_words)
        return Subject(entity_id("name", name), " ".join(words), "name",
                       names=(name, " ".join(words)), rules=("subject:the+proper-name",))
    # role + name: "Patient Tomas", "Client Oleg", "Vendor 王芳", "User admin2"
    if len(words) >= 2:
        role_end = _role_prefix(low)
        if role_end:
            name_words = [w for w in words[role_end:] if strip_symbols(w).strip(EDGE)]
            name_words = [strip_symbols(w).strip(EDGE + "-") or w for w in name_words]
            lone = name_words[0] if len(name_words) == 1 else ""
            # a handle has no article: "User admin2", not "the product launch"
            lowercase_name = (bool(lone) and lead not in DETERMINERS and lone.isalpha()
                              and lone.islower()
                              and not lone.endswith(("s", "ing", "ed"))
                              and lone not in lx.STOPWORDS and lone not in lx.ROLE_NOUNS
                              and not lx.domains_of(lone))
            if name_words and (all(_looks_like_name_token(w.strip(EDGE)) or (
                    0 < i < len(name_words) - 1 and w in lx.NAME_PARTICLES)  # van der
                    for i, w in enumerate(name_words)) or lowercase_name):
                role = "_".join(segment(w) for w in low[:role_end])
                name = " ".join(name_words)
                ns = role.replace("_", "-")
                if ns in ("mr", "mrs", "ms", "dr") or _full_personal_name(name_words):
                    ns = "person"  # "Patient Omar Said" is Omar Said, in his role
                return Subject(entity_id(ns if re.match(r"^[a-z][a-z0-9_-]*$", ns)
                                         else "name", name),
                               " ".join(words), "role", names=(name, " ".join(words)),
                               role=role, rules=("subject:role+name",))
    # proper names: "Mira", "Ines Caro", "Nordic Rail", "Lumen X2"
    cleaned = [strip_symbols(w).strip(EDGE) for w in words]
    cleaned = [w for w in cleaned if w]
    inner = set(range(1, len(cleaned) - 1))
    particles = {i for i in inner if cleaned[i] in lx.NAME_PARTICLES}  # "Jürgen von Bülow"
    if (cleaned and all(is_capitalised(w) or is_foreign_word(w) or w.isdigit()
                        or (len(w) <= 2 and w.isupper()) or i in particles
                        for i, w in enumerate(cleaned))
            and cleaned[0].lower() not in NOT_NAMES
            and cleaned[0].lower() not in lx.ROLE_NOUNS
            and not _common_noun(cleaned)):
        name = " ".join(cleaned)
        # two given names and two surnames joined by a particle are a person's (Iberian
        # names: "Ana Lucía Ferreira da Silva"); so is any name of three words or fewer
        personal = (len(cleaned) - len(particles) <= (4 if particles else 3)
                    and all(_NAME_WORD.fullmatch(w) for w in cleaned))
        ns = "person" if personal else "name"
        return Subject(entity_id(ns, name), " ".join(words), "person" if personal else "name",
                       names=(name,), rules=("subject:proper-name",))
    # common noun phrase
    content = _as_compound([w for w in low if w not in DETERMINERS])
    phrase = " ".join(content) or " ".join(low)
    head = segment(content[-1]) if content else None
    if len(content) == 1 and content[0] in lx.ROLE_NOUNS:
        return Subject(f"{segment(content[0])}:self", " ".join(words), "topic", role=head,
                       rules=("subject:role",))
    return Subject(entity_id("topic", phrase), " ".join(words), "topic", role=head,
                   rules=("subject:noun-phrase",))


_LINKING = frozenset({"in", "on", "at", "of", "for"})
"""Prepositions by which English paraphrases a compound noun (``the thermostat in the
living room`` is the ``living room thermostat``, ``the code for the gate`` the ``gate
code``)."""


def _as_compound(content: list[str]) -> list[str]:
    """A thing named as ``X <preposition> Y`` (X of one or two words, Y of up to three,
    no other preposition) in the compound order ``Y X``, so that both ways of naming it
    give one entity, and its head noun is X's."""
    linked = [i for i, w in enumerate(content) if w in _LINKING]
    if len(linked) != 1 or any(w in lx.PREPOSITIONS for w in content if w not in _LINKING):
        return content
    i = linked[0]
    if not (1 <= i <= 2 and 1 <= len(content) - i - 1 <= 3):
        return content
    return content[i + 1:] + content[:i]


def _common_noun(words: Sequence[str]) -> bool:
    """A lone capitalised word that is a common noun and no personal name (``Clinic``,
    ``Warehouse``; not ``Mark``, ``Rose``): capitalised only because it starts the
    sentence, so the subject is that thing. A word written all in capitals (an acronym,
    a code) is not read so."""
    return (len(words) == 1 and words[0][:1].isupper() and not words[0].isupper()
            and words[0].lower() in lx.COMMON_NOUNS)


_NAME_WORD = re.compile(r"[^\W\d_]+(?:['\u2019-][^\W\d_]+)*")
"""A word of a person's name: letters, joined by a hyphen or an apostrophe (``Hanne-Lore``,
``O'Hanlon-Reyes``, ``D\u2019Souza``); a digit makes it a product's or a code's."""


def _full_personal_name(words: Sequence[str]) -> bool:
    """Given name and surname (two or three capitalised words of letters, and a surname's
    particles between them: ``Cornelis van der Berg``): with a role before them
    (``Patient Omar Said``) they still name the person the name alone names, so a later
    ``Omar Said stopped taking metformin`` reaches the fact. A single name keeps its
    role's namespace (``Client Oleg``: the role tells the Olegs apart)."""
    named = [w for i, w in enumerate(words)
             if not (0 < i < len(words) - 1 and w in lx.NAME_PARTICLES)]
    return 2 <= len(named) <= 3 and all(
        is_capitalised(w) and _NAME_WORD.fullmatch(w) for w in named)


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
