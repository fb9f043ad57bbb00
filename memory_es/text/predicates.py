"""Predicate -> attribute and value: a table of rules, tried in order.

:func:`analyse_predicate` finds the main verb of a clause's predicate (auxiliaries and
adverbs skipped) and lays the predicate out as a :class:`PredicateReading`. Each
:class:`Rule` of :data:`PREDICATE_RULES` then says *when* it applies to a reading and
*what* slot it reads (``home.city``, ``work.employer``, ``pref.<topic>``...); the first
rule that applies decides, and its name is recorded with the fact. The last rule
always applies: a generic path from the verb and its object's keywords, so unrelated
facts never share a slot.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

from memory_es.text import lexicon as lx
from memory_es.text.identifiers import IDENTIFIER_LABELS
from memory_es.text.paths import attribute_path, domains_in, keywords, value_text
from memory_es.text.qualifiers import CALENDAR, FREQUENCY, TEMPORAL, names_a_month
from memory_es.text.subjects import HEAD_ATTRIBUTES, Subject, head_attribute
from memory_es.text.words import Tok, is_capitalised
from projections.tokens import stem

PREPOSITIONS = lx.PREPOSITIONS
_OBJECT_STOPS = PREPOSITIONS | {"and", "but", "since", "until", "after", "because", "due"}
_OBJECT_DETERMINERS = ("a", "an", "the", *sorted(lx.POSSESSIVE_DETERMINERS))
_STREET_WORDS = ("street", "st", "avenue", "ave", "road", "rd", "lane", "ln", "boulevard",
                 "blvd", "drive", "dr", "way", "court", "ct", "place", "pl", "square",
                 "terrace", "close")
_PLACED = ("base", "locate", "situated", "headquartered")
"""Verbs of placing, by lemma, or by participle where the verb itself is too rare for
verbs.txt (``situate``, ``headquarter``)."""
_MOTION_VERBS = ("move", "relocate", "return", "transfer", "switch", "go", "come",
                 "migrate", "revert", "transition", "upgrade")
_HABITUAL_MOTION = frozenset({"go", "goes", "come", "comes"})
"""Present-simple forms of the verbs of going whose ``to`` names where one goes often."""
_POSITION_NOUNS = ("position", "job", "role", "offer")
_PERIOD_PLURALS = frozenset(f"{w}s" for w in lx.PERIODS)
"""The parts of the day and the week in the plural: right after a verb one says when the
act is done (``works nights``, ``swims mornings``), as ``on Sundays`` does."""
_EVERY = frozenset({"every", "each"})
_PERIOD_WORDS = _PERIOD_PLURALS | lx.PERIODS
"""... and after a preposition, in the singular too (``sleeps in the morning``): a time."""
_MARITAL_WORDS = (["married"], ["single"], ["engaged"], ["divorced"], ["widowed"])


@dataclass(frozen=True)
class Predicate:
    """The slot a predicate reads: attribute, value, and how sure the rules are."""

    attribute: str
    value: object
    confident: bool
    alternatives: tuple[str, ...] = ()
    domains: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()
    frame: str | None = None
    """For a verb that takes a preposition: ``lemma.preposition.kind`` (:func:`frame_of`),
    what a change of state replaces when the entity holds nothing in its slot (a generic
    reading, or a slot named by its value: ``works in Camden`` is ``work.unit.camden``)."""


_TIME_PREPOSITIONS = frozenset({"since", "until", "till", "before", "after", "during"})
_PATH_PREPOSITIONS = frozenset({"along", "via", "through", "across", "past", "around"})
"""Prepositions of a path, the way taken (English grammar's spatial prepositions of path,
beside those of a goal, ``to``, and of a means, ``by``, ``on``)."""


def _says_a_route(p: PredicateReading) -> bool:
    """Does the verb go straight on to the way taken (``commutes along the canal path``,
    ``drives along the coast road``)? Then the fact is the route, beside the slot of how
    one travels or what one drives, never a value of it."""
    return bool(p.rest_low[:1]) and p.rest_low[0] in _PATH_PREPOSITIONS


def _for_someone(p: PredicateReading) -> bool:
    """Does the clause say whom it is done for (``drives the number 48 bus for Soar Valley
    Buses``, ``drives the minibus for the day centre``)? Then driving is a job, one of
    several a person may hold, not the one vehicle they drive."""
    rest = p.rest_words
    return any(w.lower() == "for" and (nxt.lower() in ("the", "a", "an") or is_capitalised(nxt))
               for w, nxt in itertools.pairwise(rest))


def frame_of(reading: PredicateReading) -> str | None:
    """The frame of a verb followed by a preposition and its object (or by a direct object
    of up to three lower-case words first, whose head then joins the verb: ``rents a flat
    in Kraków`` is ``rent+flat.in.name``): the verb's lemma, the preposition, and the kind
    of object: ``name`` (every word capitalised), ``n:<unit>``
    (a number and the word after it) or ``common:<kind>`` (:func:`_head_kind`: ``in a band``
    and ``in a choir`` are music; ``in a meeting`` is neither). Adverbs and function words are left
    out of the object (``on Oak Road now`` is a name). A number right after the verb is
    a measure (``weighs 82 kg``: ``weigh..n:kg``). None otherwise."""
    rest = reading.rest_low
    if (moved := _moved_possession(reading)) is not None:
        return f"{reading.lemma}.poss.{moved}"  # "moved its headquarters to …"
    if (often := _frequency_frame(reading)) is not None:
        return often
    if (numbered := _numbered_frame(reading)) is not None:
        return numbered
    if rest[:1] and rest[0] in _PERIOD_PLURALS:
        return f"{reading.lemma}..when"  # "works nights (on ward 4)": now works days
    if (every := _every_period_frame(reading)) is not None:
        return every
    if rest and any(c.isdigit() for c in rest[0]) and len(rest) > 1 and rest[1].isalpha():
        # "weighs 82 kg", "runs 5 km": verb and unit; "holds 200 shares of Nokia": and
        # what is measured, so 80 shares of Ericsson are another thing's amount
        measured = object_after(reading.rest, 3) if rest[2:3] == ["of"] else []
        of = ".of." + "+".join(w.lower() for w in measured) if measured else ""
        return f"{reading.lemma}..n:{rest[1]}{of}"
    lemma, at = reading.lemma, 0
    if rest and rest[0] not in PREPOSITIONS:
        if not any(w in PREPOSITIONS for w in rest[:4]):
            return _object_frame(reading)
        # "rents a flat in Kraków": the direct object's head joins the verb
        at = next((i for i, w in enumerate(rest[:4]) if w in PREPOSITIONS), 0)
        head = [t.word for t in reading.rest[:at] if t.word and t.low not in _OBJECT_DETERMINERS
                and t.low not in lx.ADVERBS]  # "is now on the Pro plan": no object
        if len(head) > 1 and all(w.isalpha() for w in head) and is_capitalised(head[-1]) and all(
                w.islower() for w in head[:-1]):
            head = head[-1:]  # "takes her cat Simba to …": the name says who, as "takes Simba"
        if head and (not all(w.isalpha() for w in head) or not (
                all(w.islower() for w in head) or all(is_capitalised(w) for w in head)
                or head[-1].islower())):
            # "walks Rufus at 7am": a named object joins the verb too; a common noun a
            # name qualifies is the head ("has Gold status with Star Alliance": status)
            return None
        lemma = f"{lemma}+{head[-1]}" if head else lemma
    elif reading.verb in _HABITUAL_MOTION and rest[:1] == ["to"]:
        # "goes to the gym on Mondays": where one goes often is the habit's thing, as a
        # direct object is ("go+gym"), and the adjunct after it its frame ("on Tuesdays"
        # now replaces it; "goes to the pool" is another habit)
        after = next((i for i in range(2, len(rest)) if rest[i] in PREPOSITIONS), None)
        place = [w for w in rest[1:after] if w not in lx.STOPWORDS and w not in lx.ADVERBS]
        if after is not None and place:
            lemma, at = f"{lemma}+{place[-1]}", after
    if not rest or rest[at] not in PREPOSITIONS:
        return None
    # the object ends where another preposition starts an adjunct ("to Oslo in 2019",
    # "at Leeds since May")
    end = next((i for i in range(at + 2, len(rest))
                if rest[i] in PREPOSITIONS or rest[i] in _TIME_PREPOSITIONS), len(rest))
    words = [t.word for t in reading.rest[at + 1:end] if t.word and t.low not in lx.ADVERBS
             and (t.low not in lx.STOPWORDS or names_a_month(t.word))]
    # ... and where a time says since when ("on Mill Lane since 2020": a name)
    untimed = TEMPORAL.sub(" ", " ".join(words)).split()
    words = untimed if untimed else words
    if not words:
        return None
    if all(w.lower() in _PERIOD_WORDS for w in words):
        kind = "date"  # "sleeps in the mornings": now sleeps in the afternoons
    elif CALENDAR.fullmatch(" ".join(words)) or any(_numeric(w) for w in words):
        if CALENDAR.search(" ".join(words)) or TEMPORAL.search(f"{rest[at]} {' '.join(words)}"):
            kind = "date"  # "expires in May 2026", "in June 2036", "at noon": one frame
        else:
            units = [w.lower() for w in words if w.isalpha()]
            kind = "n:" + (units[-1] if units else "")
    elif all(is_capitalised(w) for w in words):
        kind = "name"
    else:  # a capitalised word is a name's, not the kind's ("the Spotify Family plan")
        kind = "common:" + _head_kind([w.lower() for w in words if not is_capitalised(w)])
    return f"{lemma}.{rest[at]}.{kind}"


def _head_kind(common: list[str]) -> str:
    """The kind of a preposition's object of common words: its head's (the last word's)
    topics (``in a band``, ``in the city orchestra``: music), or for a head of no topic
    after modifiers, the head itself (``in employment law`` and ``in family law`` are one
    kind, ``law``: the modifiers say which law, as a direct object's do in
    :func:`_object_frame`; ``on the night shift`` is not ``on the payments project``)."""
    if not common:
        return ""
    if topics := domains_in(common[-1:]):
        return "+".join(topics)
    return f"={stem(common[-1])}" if len(common) > 1 else ""


def _role_after(p: PredicateReading) -> list[str]:
    """The role after ``to`` (``promoted to senior analyst``), with what ``of`` adds to
    it (``head of sales``); a place or a time after it is no part of it."""
    role = object_after(p.rest, 1)
    at = 1 + len(role)
    while p.rest_low[at:at + 1] == ["of"] and (more := object_after(p.rest, at + 1)):
        role, at = [*role, "of", *more], at + 1 + len(more)
    return role


def _numeric(word: str) -> bool:
    """A number, an amount or a time (``12``, ``£40``, ``7am``, ``4K``), not a model name
    whose letters come first (``R6``, ``B12``: a name, like the brand before it)."""
    return any(ch.isdigit() for ch in word) and not word[:1].isalpha()


def _frequency_frame(reading: PredicateReading) -> str | None:
    """``swims three times a week``, ``takes ramipril once a day``: how often the verb (and
    its object's head, of up to three words) is done is one frame per period, so another
    count replaces it (``now swims twice a week``); another object is another frame."""
    said = " ".join(reading.rest_low)
    m = FREQUENCY.search(said)
    if m is None:
        return None
    before = [w for w in said[:m.start()].split()
              if w not in _OBJECT_DETERMINERS and w not in lx.ADVERBS]
    if len(before) > 3 or any(w in PREPOSITIONS for w in before):
        return None
    head = f"+{before[-1]}" if before else ""
    return f"{reading.lemma}{head}..per:{m.group('period').lower()}"


def _every_period_frame(reading: PredicateReading) -> str | None:
    """``swims every morning``, ``walks Biscuit each evening``: ``every`` and a part of the
    day or week say when the act is done, as ``works nights`` does, and the direct object
    before them, if any, joins the verb (``walk+Biscuit..when``): ``now walks Biscuit every
    evening`` replaces it, walking another dog is another act. Not after a preposition
    (``goes to the gym every Monday`` is the place's frame)."""
    rest = reading.rest_low
    at = next((i for i, w in enumerate(rest[:5]) if w in _EVERY), None)
    if (at is None or rest[at + 1:at + 2] == [] or rest[at + 1] not in lx.PERIODS
            or any(w in PREPOSITIONS for w in rest[:at])):
        return None
    head = [t.word for t in reading.rest[:at] if t.word and t.low not in _OBJECT_DETERMINERS
            and t.low not in lx.ADVERBS]
    return f"{reading.lemma}{'+' + head[-1] if head else ''}..when"


def _numbered_frame(reading: PredicateReading) -> str | None:
    """``rents plot 14 at the allotments``, ``takes bus 42``: a direct object that is a
    common word and a number is one of a numbered kind, and another number of that kind
    is another one in the same place (``now rents plot 22``), whatever follows it."""
    rest = reading.rest
    if len(rest) < 2:
        return None
    noun, number = rest[0], rest[1].word
    if not (noun.word.isalpha() and noun.word.islower() and noun.low not in PREPOSITIONS
            and noun.low not in lx.STOPWORDS and noun.low not in lx.ADVERBS
            and _numeric(number)):
        return None
    return f"{reading.lemma}+{stem(noun.low)}.no"


def _object_frame(reading: PredicateReading) -> str | None:
    """The frame of a verb and a direct object whose head noun a modifier qualifies
    (``manages the Oslo office``, ``leads the payments team``): verb and head; a change
    to another modifier of the same head replaces it, a name or a common word alike
    (``now manages the Bergen office``, ``now leads the ML team``). None for a bare object
    (``teaches physics``, ``has a dog``), which a change of object adds to rather than
    replaces, unless it is a name (the interface's ``_replace_verb_object``: ``now runs
    Caddy``). The head counts by its stem: ``drinks two coffees a day`` and ``now drinks
    one coffee a day`` are one frame."""
    words = [w for w in object_after(reading.rest, 0) if w.lower() not in lx.ADVERBS]
    if len(words) < 2 or not (words[-1].isalpha() and words[-1].islower()):
        return None
    return f"{reading.lemma}+{stem(words[-1].lower())}.obj"


def object_after(toks: Sequence[Tok], start: int, stop_at_prep: bool = True) -> list[str]:
    """The object noun phrase from ``toks[start]`` on, as words (determiners dropped;
    it ends at a preposition, a conjunction or a clause punctuation mark). Without
    ``stop_at_prep`` a prepositional phrase is part of it, its determiner dropped too
    (``forklift driver at the Gdańsk depot``: ``forklift driver at Gdańsk depot``)."""
    out: list[str] = []
    rest = toks[start:]
    for i, t in enumerate(rest):
        w = t.low
        if out and stop_at_prep and w in _OBJECT_STOPS and not (
                w == "of" and is_capitalised(out[-1]) and i + 1 < len(rest)
                and is_capitalised(rest[i + 1].word)):  # "University of Queensland": a name
            break
        if w in _OBJECT_DETERMINERS:
            if out and out[-1].lower() not in _OBJECT_STOPS:
                break
            continue
        out.append(t.word)
        if t.raw.endswith((",", ";", ":")):
            break
    return out


def has_address(toks: Sequence[Tok]) -> bool:
    """A street address follows (``at 12 Harbour Road``)."""
    words = [t.low for t in toks[:6]]
    if words and words[0] in ("at", "on", "in", "to"):
        words = words[1:]
    return bool(words) and words[0].isdigit() and any(w in _STREET_WORDS for w in words[1:])


@dataclass(frozen=True)
class PredicateReading:
    """A predicate laid out for the rules: its main verb and what follows it."""

    subject: Subject
    words: list[str]
    """Lower-case words of the whole predicate."""
    verb: str
    """The main verb as written (lower case)."""
    lemma: str
    """The main verb's lemma (the word itself when it is no known verb)."""
    rest: list[Tok]
    """The tokens after the main verb (a copula's complement)."""
    value: str
    """The predicate from the main verb on, as text."""

    @cached_property
    def rest_low(self) -> list[str]:
        return [t.low for t in self.rest]

    @cached_property
    def rest_words(self) -> list[str]:
        return [t.word for t in self.rest]

    @property
    def hint(self) -> str:
        """The attribute a possessive subject names (``Kai's favorite colour is …``)."""
        return self.subject.attribute_hint or ""

    @cached_property
    def content(self) -> list[str]:
        """The complement's words that are neither function words nor adverbs."""
        return [w for w in self.rest_low if w not in lx.STOPWORDS and w not in lx.ADVERBS]

    @cached_property
    def head(self) -> list[str]:
        """The complement's content words up to a preposition that follows one of them:
        what the complement is (``a volunteer at the food bank`` is a volunteer, not
        food; ``on a keto diet`` keeps its diet)."""
        out: list[str] = []
        for w in self.rest_low:
            if out and w in PREPOSITIONS:
                break
            if w not in lx.STOPWORDS and w not in lx.ADVERBS:
                out.append(w)
        return out

    @cached_property
    def content_domains(self) -> tuple[str, ...]:
        """The topic domains of the first two words of the complement's head."""
        return domains_in(self.head[:2])

    @cached_property
    def rest_domains(self) -> tuple[str, ...]:
        return domains_in(self.rest_low)

    @property
    def copula(self) -> bool:
        """``be``, or ``become``: the linking verb of a change of state takes the same
        complement (``became a tax resident of Portugal`` fills the slot of ``is a tax
        resident of Sweden``); the change itself is marked by the word (change_markers)."""
        return self.lemma in ("be", "become")

    @property
    def residence(self) -> bool:
        """Where the subject lives or is: ``lives in``, ``resides in``, and the passives
        of placing something (``is based / located / situated / headquartered in``),
        which say where a firm, an office or a clinic is as ``lives in`` says it of a
        person, so ``relocated to`` changes either."""
        return self.lemma in ("live", "reside") or (
            self.lemma in _PLACED and "in" in self.rest_low[:1])

    @property
    def motion(self) -> bool:
        """A verb of motion or change with ``to`` among its next three words; not *go* or
        *come* in the present simple, which tells a habit (``goes to the gym on
        Mondays``), not a move."""
        return (self.lemma in _MOTION_VERBS and "to" in self.rest_low[:3]
                and self.verb not in _HABITUAL_MOTION)

    @property
    def employment(self) -> bool:
        return self.lemma in ("work", "employ")


class Slot(NamedTuple):
    """What a rule reads: the attribute and value, and whether it is sure of the slot."""

    attribute: str
    value: str
    confident: bool = True
    alternatives: tuple[str, ...] = ()


@dataclass(frozen=True)
class Rule:
    """One predicate rule: when it applies, and the slot it then reads."""

    name: str
    """Recorded with the fact (``predicate:residence``)."""
    applies: Callable[[PredicateReading], bool]
    reads: Callable[[PredicateReading], Slot]


# --- the rules' helpers ------------------------------------------------------------------


def _origin(p: PredicateReading) -> Slot:
    comp = p.rest_low
    return Slot("origin.city", value_text(object_after(p.rest, comp.index("from") + 1)))


def _role_preposition(comp: list[str]) -> int:
    return comp.index("at") if "at" in comp else comp.index("for")


def _office_of_a_role(word: str) -> bool:
    """A noun in ``-ship`` of a word of work names the office of that role
    (``professorship``, ``internship``, ``partnership`` is not: ``partner`` is no work
    word)."""
    return word.endswith("ship") and "work" in domains_in([word[:-4]])


def _role_at_organisation(p: PredicateReading) -> bool:
    """``is a <role> at <Org>``: ``at``/``for`` after a work word, before a capitalised
    name, perhaps after ``the`` (``a chef at the Ritz``). Any other noun there is no
    employment (``a regular at Café Luso``, ``a season ticket holder at Benfica``, ``a
    member at Hilltop Golf Club``). A complement that opens with a preposition is where
    the subject is, no role it holds (``is in the office lottery syndicate at Acme``)."""
    comp = p.rest_low
    if ("at" not in comp and "for" not in comp) or comp[0] in PREPOSITIONS:
        return False
    prep = _role_preposition(comp)
    head = comp[:prep]
    name = prep + 2 if comp[prep + 1:prep + 2] == ["the"] else prep + 1
    return name < len(p.rest) and is_capitalised(p.rest[name].word) and (
        "work" in domains_in(head))


def _employer_after_role(p: PredicateReading) -> Slot:
    prep = _role_preposition(p.rest_low)
    return Slot("work.employer", value_text(object_after(p.rest, prep + 1)))


def _has_an_animal(p: PredicateReading) -> bool:
    """Is what the subject has an animal: a word of animals that heads its object, no
    noun after it (``has a tabby cat called Miso``, ``adopted a rescue greyhound``, ``has
    one cat now``)? One that qualifies another head is none (``has a PADI Rescue
    certification``, ``has a cat flap``)."""
    words = [w.lower() for w in object_after(p.rest, 0)]
    at = next((i for i, w in enumerate(words) if w in ("called", "named")), len(words))
    return any("pet" in lx.domains_of(w) and (
        i + 1 == at or words[i + 1] in lx.STOPWORDS or words[i + 1] in lx.ADVERBS
        or words[i + 1] in lx.TEMPORAL_WORDS) for i, w in enumerate(words[:at]))


def _pet(p: PredicateReading) -> Slot:
    """``has a cat called Juno``: the kind of animal and, when the text gives it, its
    name, so a second cat (``has a cat called Pixel``) is a fact of its own, not a
    conflicting value of the first."""
    words = p.rest_words
    at = next((i for i, w in enumerate(p.rest_low) if w in ("called", "named")), len(words))
    return Slot(attribute_path("pet", *keywords(words[:at], 2), *keywords(words[at + 1:], 2)),
                p.value)


def _allergy(p: PredicateReading) -> Slot:
    comp = p.rest_low
    obj = object_after(p.rest, 2) if len(comp) > 1 and comp[1] == "to" else []
    return Slot(attribute_path("health", "allergy", *keywords(obj, 2)), value_text(obj))


def _fluency(p: PredicateReading) -> Slot:
    obj = object_after(p.rest, 2 if p.rest_low[1:2] == ["in"] else 1)
    return Slot(attribute_path("language", *keywords(obj, 1)), value_text(obj))


def _marital_status(p: PredicateReading) -> bool:
    return ("relationship" in p.content_domains and p.rest_low[:1] != ["married"]) or (
        p.content[:1] in _MARITAL_WORDS)


def _without_adverbs(words: list[str]) -> list[str]:
    """A value without the adverbs it opens with (``now blue``: blue)."""
    start = 0
    while start < len(words) - 1 and words[start].lower() in lx.ADVERBS:
        start += 1
    return words[start:]


def _one_of_a_body(p: PredicateReading) -> bool:
    """Does the copula's complement say one of a body's members: ``a`` or ``an``, one
    noun, then ``of`` and what it is of (``a member of the tennis club``, ``a trustee of
    Oxfam``, ``a director of Cyra Ltd``)? The indefinite article picks one of several
    holders, as the zero article of ``is chair of`` picks the one. Not where one lives
    (``a tenant of Flat 4``, ``a resident of Leeds``: the home topic, one at a time)."""
    rest = [w.lower() for w in _without_adverbs(p.rest_words)]
    return len(rest) > 3 and rest[0] in ("a", "an") and rest[2] == "of" and (
        rest[1] in lx.COMMON_NOUNS or rest[1] in lx.PERSON_NOUNS) and not any(
        "home" in lx.domains_of(w) for w in rest[1:])


def office_and_body(complement: Sequence[str]) -> tuple[str, str] | None:
    """(office, body) when a copula's complement names an office of a body: no article
    or ``the``, a noun with a sense that names a person or a title of the work topic
    (``CEO``; a hyphenated one by its last part: ``vice-chair``; not ``part`` of ``is part
    of the club``), perhaps after one word that qualifies it (``head coach``), then
    ``of`` (``is chair of the tennis club``: chair, tennis club; ``was the treasurer of
    the PTA``). A singular noun without an article after the copula is a role one person
    holds at a time (Quirk et al. 1985, §5.34: the zero article of unique roles); ``is a
    member of`` says one place among many and is none. Adverbs are no part of either."""
    rest = [w for w in (w.lower().strip(".,;:!?") for w in complement)
            if w and w not in lx.ADVERBS]
    if rest[:1] == ["the"]:
        rest = rest[1:]
    at = rest.index("of") if "of" in rest[1:3] else 0
    if not (at > 0 and len(rest) > at + 1 and _office_noun(rest[at - 1]) and (
            at == 1 or (rest[0] not in lx.PAST_MARKERS and rest[0] not in lx.STOPWORDS))):
        return None
    return " ".join(rest[:at]), " ".join(w for w in rest[at + 1:] if w != "the")


def _office_noun(word: str) -> bool:
    """A noun with a sense that names a person (``chair``, not ``part``) or a title of the
    work topic (``CEO``), a hyphenated one by its last part."""
    head = word.rsplit("-", 1)[-1]
    return head in lx.ROLE_SENSE_NOUNS or head in lx.PERSON_NOUNS or (
        "work" in lx.domains_of(head))


def _complement_slot(p: PredicateReading) -> str:
    """The slot of ``X's <thing> is <complement>``: the thing's own, or, for a complement
    that opens with a preposition (``is in Leith``, ``is on the market for £250,000``),
    the thing's under that preposition: where a flat is and that it is for sale are two
    facts of it, not one value replacing the other (``is now in Portobello`` replaces the
    first). A time stays the thing's own slot (``is on 4 June``, ``is at 3pm``: when), and
    so does a slot of its own that the noun names (``X's home is in Taipei``: home.city).
    A lone lower-case word (``is white``, ``is new``) says how the thing is, a slot of its
    own beside what it is (``is a Volvo``, ``is registration AB12 CDE``), unless the
    thing is a name or an identifier (``VPN username is rcole``: its value). A physical
    thing's complement headed by a lower-case word before a preposition (``is due for an
    MOT``, ``is parked in the garage``) is a state of it under that word, beside what it is
    (``is a grey Skoda``); an abstract thing's (``role is head of sales``) is its value."""
    if not p.hint.startswith("prop."):
        return p.hint
    words = _without_adverbs(p.rest_words)
    first = words[0].lower() if words else ""
    said = " ".join(words)
    noun = re.split(r"[._]", p.hint)[-1]
    named = noun in IDENTIFIER_LABELS or noun.endswith("name")  # "VPN username is rcole"
    if not named and len(words) == 1 and first.isalpha() and words[0] == first:
        return f"{p.hint}.state"  # "is white", "is new": how it is, beside what it is
    if (len(words) > 2 and first.isalpha() and words[0] == first and first not in PREPOSITIONS
            and first not in lx.STOPWORDS and words[1].lower() in PREPOSITIONS
            and noun in lx.CONCRETE_NOUNS):
        return f"{p.hint}.{first}"  # "car is due for an MOT": a state, beside "is a Skoda"
    if (first in PREPOSITIONS and first not in _TIME_PREPOSITIONS
            and CALENDAR.search(said) is None and TEMPORAL.search(said) is None):
        return f"{p.hint}.{first}"
    return p.hint


def _new_named(p: PredicateReading) -> tuple[list[str], list[str]] | None:
    """(the noun, the name) of ``has a new boss, Ian Pike`` (``… called``/``named``): one
    or two lower-case words after ``a new``, then a name in apposition. Only a noun whose
    slot holds one value (:data:`~memory_es.text.subjects.HEAD_ATTRIBUTES`: a boss, a
    partner, a phone): ``has a new neighbour, Ann`` or ``a new dog named Rex`` adds one."""
    rest = p.rest_low
    if p.lemma not in ("have", "get") or rest[:2] != ["a", "new"]:
        return None
    for j in range(3, min(len(rest), 5)):
        cut = p.rest[j - 1].raw.endswith(",") or rest[j] in ("called", "named")
        if not cut:
            continue
        noun = [t.low for t in p.rest[2:j]]
        name = [t.word for t in p.rest[j + (rest[j] in ("called", "named")):]]
        if (noun and all(w.isalpha() for w in noun) and noun[-1] in HEAD_ATTRIBUTES and name
                and all(is_capitalised(w) for w in name)):
            return noun, name
        return None
    return None


def _new_named_slot(p: PredicateReading) -> Slot:
    noun, name = _new_named(p) or ([], [])
    return Slot(head_attribute(noun) or "", value_text(name))


def _moved_possession(p: PredicateReading) -> str | None:
    """The noun of a motion verb's possessed object (``moved its headquarters to …``,
    ``transferred her savings to …``): the thing that moved, not its owner."""
    rest = p.rest_low
    if not (p.motion and rest[:1] and rest[0] in lx.POSSESSIVE_DETERMINERS):
        return None
    to = rest.index("to")
    return rest[to - 1] if to == 2 and rest[1].isalpha() else None


_AGE = re.compile(r"(\d{1,3})(?:\s+years?(?:\s+old)?)?")


def _of_a_being(p: PredicateReading) -> bool:
    """Is the subject one that has an age: no possessive, or one that names a person or
    an animal the owner has (``Ana's son Leo``, ``my sister``, ``Oscar's cat Pepper``),
    not a thing (``Mia's score``)?"""
    return not p.hint or any(lx.names_a_person(w) or "pet" in lx.domains_of(w)
                             for w in re.split(r"[._]", p.hint)[1:])


def _age(p: PredicateReading) -> str | None:
    """The number of ``is 34 years old`` or ``turned 35`` (adverbs before it skipped)."""
    words = [w for w in p.rest_low if w not in lx.ADVERBS]
    m = _AGE.fullmatch(" ".join(words))
    return m.group(1) if m else None


def _after_to(p: PredicateReading) -> int:
    return p.rest_low.index("to") + 1


def _destination(p: PredicateReading) -> list[str]:
    """The object of a motion verb's ``to`` (``moved to <the coast>``)."""
    return object_after(p.rest, _after_to(p))


def _names_a_place(value: str) -> bool:
    """A destination written as a proper name (every word capitalised) with no word of a
    workplace, team or other topic (``moved to Oslo``, ``moved to New Zealand``; not
    ``moved to Google's Zurich team``, ``moved to the Premium plan``, nor a day: ``moved to
    Thursday``): where a person
    moves to, said with a name alone, is most likely where they live; the reading stays
    unconfident (a name can be an employer's: ``moved to Acme``), so a revision takes
    the slot of the fact it replaces. A name that ends in a street word names a street
    (``moved to Oak Avenue``), whatever topic that word has."""
    words = value.split()
    return bool(words) and all(is_capitalised(w) for w in words) and (
        words[-1].lower() in _STREET_WORDS or not domains_in([w.lower() for w in words])
    ) and CALENDAR.search(value) is None


def _travel_destination(p: PredicateReading) -> list[str] | None:
    """Where a way of getting somewhere leads: a verb of travel (``cycles to work``), or
    ``take`` and a means of transport (``takes the bus to school``), then ``to`` and a
    destination within its next four words (``drives her kids to school``); None for
    any other predicate."""
    travel = p.lemma in lx.TRAVEL_VERBS or (p.lemma == "take" and any(
        "transport" in lx.domains_of(w) for w in p.head[:2]))
    if not travel or "to" not in p.rest_low[:4]:
        return None
    words = object_after(p.rest, p.rest_low.index("to") + 1)
    # a place ends where how often starts ("to Shanghai every month", "to work twice")
    end = next((i for i, w in enumerate(words) if w.lower() in lx.ADVERBS
                or w.lower() in ("every", "each", "once", "twice")), len(words))
    return words[:end] or None


def _way_to(p: PredicateReading) -> Slot:
    destination = keywords(_travel_destination(p) or [], 2)
    if destination == ["work"]:
        return Slot("transport.commute", p.value)
    return Slot(attribute_path("transport", "to", *destination), p.value)


def _works_as(p: PredicateReading) -> list[str]:
    return object_after(p.rest, 1, False)


def _occupation_after(p: PredicateReading) -> bool:
    """Does the object after ``as`` end in a person noun of the work topic (``as a
    nurse``, ``as a data analyst``; not ``as a café``)?"""
    head = [w.lower() for w in _works_as(p)][-1:]
    return bool(head) and head[0] in lx.PERSON_NOUNS and "work" in lx.domains_of(head[0])


_BELOW = frozenset(p.split()[0] for p in lx.PREFERRED_OVER if " " in p)
"""Words that open what a preference puts below its object (``trains rather than
flights``): not part of the object (``over`` and ``to`` end it as prepositions)."""


def _preference(p: PredicateReading) -> Slot:
    obj = object_after(p.rest, 0)
    obj = obj[:next((i for i, w in enumerate(obj) if i and w.lower() in _BELOW), len(obj))]
    heads = [w for w in (x.lower() for x in obj) if w not in lx.STOPWORDS and w not in lx.ADVERBS]
    topic = heads[-1] if heads else "general"  # "prefers coffee now": coffee
    return Slot(attribute_path("pref", topic), value_text(obj), len(heads) > 1)


def _to_quantity(p: PredicateReading) -> int | None:
    """Index of ``to`` before a number in the predicate (``went up from 900 to 950``; not
    a date or a time: ``moved to 12 May``)."""
    comp = p.rest_low
    return next((i for i, w in enumerate(comp[:-1])
                 if w == "to" and any(c.isdigit() for c in comp[i + 1])
                 and CALENDAR.match(" ".join(comp[i + 1:])) is None), None)


def _possessed_amount(p: PredicateReading) -> str | None:
    """The slot of a possessed thing whose amount the verb sets (``cut his grocery budget
    to £350``, ``raised her credit limit to 5,000``: the thing's own slot, as ``X's grocery
    budget is …`` names it); None for any other predicate."""
    return _possessed_slot(p, _to_quantity(p))


def _possessed_slot(p: PredicateReading, to: int | None) -> str | None:
    """The slot of the thing named between a possessive determiner and ``to`` (one to
    three words: ``her energy supplier to …``), as ``X's energy supplier is …`` names it."""
    rest = p.rest_low
    if to is None or not 2 <= to <= 4 or rest[0] not in lx.POSSESSIVE_DETERMINERS:
        return None
    return head_attribute(rest[1:to])


def _had_measure(p: PredicateReading) -> Slot | None:
    """The slot of a thing of one to three words that a subject has, followed by ``of``
    and an amount (``has a FIDE rating of 1850``, ``has a credit score of 720``): the slot
    ``X's FIDE rating is …`` names, so a new amount said either way replaces it. None for
    any other predicate (``has a cup of tea`` names no amount)."""
    rest = p.rest_low
    if p.lemma != "have" or rest[:1] not in (["a"], ["an"]):
        return None
    of = next((i for i in range(2, min(5, len(rest) - 1)) if rest[i] == "of"), None)
    if of is None or not _numeric(p.rest_words[of + 1]):
        return None
    attribute = head_attribute(rest[1:of])
    return Slot(attribute, value_text(p.rest_words[of + 1:])) if attribute else None


def _possessed_change(p: PredicateReading) -> str | None:
    """The slot of a possessed thing a change verb gives a new value (``switched her
    energy supplier to EDF``, ``changed his phone number to …``, ``upgraded her plan to
    Premium``); None for any other predicate. A motion verb moves the thing itself
    (``moved its headquarters to …``: :func:`_moved_possession`)."""
    rest = p.rest_low
    if p.lemma not in lx.CHANGE_VERBS or p.lemma in lx.MOTION_VERBS or "to" not in rest[:-1]:
        return None
    return _possessed_slot(p, rest.index("to"))


CHANGE_RULES = frozenset({"predicate:quantity-change", "predicate:possessed-amount",
                          "predicate:possessed-change", "predicate:done-again",
                          "predicate:moved-possession",
                          "predicate:possessive-change", "predicate:marital-change",
                          "predicate:marital-event", "predicate:change-of-state",
                          "predicate:new-position", "predicate:new-named", "predicate:hired-by",
                          "predicate:moved-in-with", "predicate:role-change",
                          "predicate:role-anew",
                          "predicate:age-change"})
"""Rules whose reading is itself a change of state (``rent went up to 950``, ``moved its
headquarters to Manchester``, ``email changed to …``, ``switched her supplier to EDF``,
``got divorced``, ``married Lee``, ``turned 35``, ``moved up to Year 5``, ``got a new
job at Arup``)."""

PREDICATE_RULES: tuple[Rule, ...] = (
    # "cut his grocery budget to £350": the possessed thing's new amount
    Rule("predicate:possessed-amount", lambda p: not p.hint and _possessed_amount(p) is not None,
         lambda p: Slot(_possessed_amount(p) or "", value_text(
             p.rest_words[(_to_quantity(p) or 0) + 1:]))),
    # "has a FIDE rating of 1850": the thing's amount, in the slot "X's FIDE rating is …"
    # names
    Rule("predicate:had-measure", lambda p: not p.hint and _had_measure(p) is not None,
         lambda p: _had_measure(p) or Slot("", "")),
    # "switched her energy supplier to EDF": the possessed thing's new value, in the slot
    # "X's energy supplier is …" names
    Rule("predicate:possessed-change", lambda p: not p.hint and _possessed_change(p) is not None,
         lambda p: Slot(_possessed_change(p) or "", value_text(
             p.rest_words[p.rest_low.index("to") + 1:]))),
    # a person's or a pet's age: "is 34 years old", "turned 35", "Ana's son Leo is 7" (the
    # son's); never a possessed thing's number ("Mia's score is 34")
    Rule("predicate:age", lambda p: p.copula and _of_a_being(p) and _age(p) is not None,
         lambda p: Slot(f"{p.hint}.age" if p.hint else "age", _age(p) or "")),
    Rule("predicate:age-change", lambda p: p.lemma == "turn" and _of_a_being(p)
         and _age(p) is not None, lambda p: Slot("age", _age(p) or "")),
    # copula: "is <hint value>" for possessive subjects, "is a <role> at <Org>", "is vegan"
    Rule("predicate:possessive-noun", lambda p: p.copula and bool(p.hint),
         lambda p: Slot(_complement_slot(p), value_text(_without_adverbs(p.rest_words)))),
    # "X's rent went up to 950", "X's limit was raised to 3000": the thing's new amount
    Rule("predicate:quantity-change",
         lambda p: bool(p.hint) and not p.copula and _to_quantity(p) is not None,
         lambda p: Slot(p.hint, value_text(p.rest_words[(_to_quantity(p) or 0) + 1:]))),
    # "X's email changed to …", "X's plan switched to Premium": the thing's new value (a
    # thing moved to a day or time is an event moved, and one moved to a place moved
    # house: the frame and residence rules read them)
    Rule("predicate:possessive-change",
         lambda p: bool(p.hint) and p.lemma in lx.CHANGE_VERBS and "to" in p.rest_low[:2]
         and p.verb not in _HABITUAL_MOTION  # "X's daughter goes to Oakfield": a habit
         and CALENDAR.search(" ".join(p.rest_words)) is None
         and not (p.lemma == "move" and _names_a_place(value_text(_destination(p)))),
         lambda p: Slot(p.hint, value_text(p.rest_words[p.rest_low.index("to") + 1:]))),
    Rule("predicate:origin",
         lambda p: p.copula and (p.rest_low[:2] == ["originally", "from"]
                                 or p.rest_low[:1] == ["from"]),
         _origin),
    Rule("predicate:role-at-organisation",
         lambda p: p.copula and _role_at_organisation(p),
         _employer_after_role),
    Rule("predicate:allergy", lambda p: p.copula and p.rest_low[:1] == ["allergic"], _allergy),
    Rule("predicate:language", lambda p: p.copula and p.rest_low[:1] == ["fluent"], _fluency),
    Rule("predicate:marital-change", lambda p: p.lemma in ("get", "become")
         and _marital_status(p), lambda p: Slot("relationship.status", value_text(p.rest_words))),
    Rule("predicate:marital-status", lambda p: p.copula and _marital_status(p),
         lambda p: Slot("relationship.status", value_text(p.rest_words))),
    Rule("predicate:diet",
         lambda p: p.copula and "diet" in p.content_domains and len(p.content) <= 3,
         lambda p: Slot("diet", value_text(p.rest_words))),
    # "is a member of the tennis club", "is now a director of Cyra Ltd": one of a body's
    # members, and one of the bodies a person may belong to, so a new one adds
    Rule("predicate:one-of-a-body", lambda p: p.copula and _one_of_a_body(p),
         lambda p: Slot(attribute_path("is", *keywords(p.rest_words, 2)), p.value, False)),
    # "is a nurse", "is now a midwife" (the adverb is no part of the role)
    Rule("predicate:occupation",
         lambda p: p.copula and "work" in p.content_domains
         and _without_adverbs(p.rest_low)[:1] in (["a"], ["an"]),
         lambda p: Slot("work.role", value_text(_without_adverbs(p.rest_words)))),
    Rule("predicate:personality", lambda p: p.copula and "personality" in p.content_domains,
         lambda p: Slot("personality", value_text(p.rest_words))),
    # "is chair of the tennis club": an office, one holder at a time; a new one replaces
    # only an office of the same body (memory_es.text.interface._replace_office)
    Rule("predicate:office", lambda p: p.copula and office_and_body(p.rest_words) is not None,
         lambda p: Slot(attribute_path("is", *keywords(p.rest_words, 2)), p.value, False)),
    Rule("predicate:copula", lambda p: p.copula,
         lambda p: Slot(attribute_path("is", *keywords(p.rest_words, 2)), p.value, False)),
    # residence
    Rule("predicate:household",
         lambda p: p.residence and p.rest_low[:1] in (["with"], ["alone"]),
         lambda p: Slot("home.household", p.value)),
    # "moved in with her boyfriend": whom one lives with from now on
    Rule("predicate:moved-in-with",
         lambda p: p.lemma == "move" and p.rest_low[:2] == ["in", "with"] and len(p.rest) > 2,
         lambda p: Slot("home.household", value_text(p.rest_words[1:]))),
    Rule("predicate:address", lambda p: p.residence and has_address(p.rest),
         lambda p: Slot("home.address", value_text(object_after(p.rest, 1, False)))),
    Rule("predicate:residence",
         lambda p: p.residence and p.rest_low[:1] in (["in"], ["at"], ["on"]),
         lambda p: Slot("home.city", value_text(object_after(p.rest, 1)))),
    Rule("predicate:residence", lambda p: p.residence,
         lambda p: Slot("home.city", p.value)),
    # a change of place or state: "moved to …", "relocated to …", "switched to …"
    Rule("predicate:moved-possession", lambda p: _moved_possession(p) is not None,
         lambda p: Slot(f"prop.{_moved_possession(p)}", value_text(_destination(p)), False)),
    Rule("predicate:moved-to-address",
         lambda p: p.motion and has_address(p.rest[_after_to(p):]),
         lambda p: Slot("home.address", value_text(_destination(p)))),
    Rule("predicate:relocated", lambda p: p.motion and p.lemma == "relocate",
         lambda p: Slot("home.city", value_text(_destination(p)))),
    Rule("predicate:moved-to-place", lambda p: p.motion and p.lemma == "move" and (
        _names_a_place(value_text(_destination(p)))),
         lambda p: Slot("home.city", value_text(_destination(p)), False,
                        ("home.city", "work.employer"))),
    Rule("predicate:change-of-state", lambda p: p.motion,
         lambda p: Slot(attribute_path("moved", *keywords(_destination(p), 2)),
                        value_text(_destination(p)), False, ("home.city", "work.employer"))),
    # employment
    Rule("predicate:hired-by",
         lambda p: p.lemma in lx.HIRING_VERBS and p.rest_low[:1] == ["by"] and len(p.rest) > 1
         and is_capitalised(p.rest[1].word),
         lambda p: Slot("work.employer", value_text(object_after(p.rest, 1)))),
    # "was promoted to senior analyst": the role held from now on
    Rule("predicate:role-change",
         lambda p: p.verb in lx.ROLE_CHANGE_FORMS and p.rest_low[:1] == ["to"] and len(p.rest) > 1,
         lambda p: Slot("work.role", value_text(_role_after(p)))),
    # "retrained as a nurse": a verb done again (again_verbs.txt), then "as" and a
    # person's occupation, is the role held from now on
    Rule("predicate:role-anew",
         lambda p: p.verb in lx.AGAIN_PAST and p.rest_low[:1] == ["as"] and _occupation_after(p),
         lambda p: Slot("work.role", value_text(_works_as(p)))),
    Rule("predicate:works-at",
         lambda p: p.employment and (p.rest_low[:1] in (["at"], ["for"])
                                     or "employed" in p.words),
         lambda p: Slot("work.employer", value_text(object_after(p.rest, 1)))),
    Rule("predicate:works-as-at",
         lambda p: p.employment and p.rest_low[:1] == ["as"]
         and "at" in [w.lower() for w in _works_as(p)],
         lambda p: Slot("work.employer", value_text(_works_as(p)))),
    Rule("predicate:works-as", lambda p: p.employment and p.rest_low[:1] == ["as"],
         lambda p: Slot("work.role", value_text(_works_as(p)))),
    Rule("predicate:works-in", lambda p: p.employment and p.rest_low[:1] == ["in"],
         lambda p: Slot(attribute_path("work", "unit", *keywords(p.rest_words[1:], 2)),
                        p.value)),
    Rule("predicate:works-on", lambda p: p.employment and p.rest_low[:1] == ["on"],
         lambda p: Slot(attribute_path("work", "project", *keywords(p.rest_words[1:], 2)),
                        p.value)),
    Rule("predicate:works", lambda p: p.employment,
         lambda p: Slot(attribute_path("work", *keywords(p.rest_words, 2)), p.value)),
    Rule("predicate:joined-organisation",
         lambda p: p.lemma in ("join", "start") and bool(p.rest)
         and is_capitalised(p.rest[0].word) and p.rest_low[0] not in ("the", "a"),
         lambda p: Slot("work.employer", value_text(object_after(p.rest, 0)))),
    Rule("predicate:started-at",
         lambda p: p.lemma == "start" and p.rest_low[:1] == ["at"] and len(p.rest) > 1
         and is_capitalised(p.rest[1].word),
         lambda p: Slot("work.employer", value_text(object_after(p.rest, 1)))),
    Rule("predicate:accepted-position",
         lambda p: p.lemma in ("accept", "take")
         and any(w in _POSITION_NOUNS or _office_of_a_role(w) for w in p.rest_low[:4]),
         lambda p: Slot("work.employer", p.value)),
    # "got a new job at Arup", "landed a role at Ocado", "started a new position at …": a
    # job one has now (an offer one got is not yet one)
    Rule("predicate:new-position",
         lambda p: p.lemma in ("get", "land", "start") and any(
             w in _POSITION_NOUNS and w != "offer" and p.rest_low[i + 1:i + 2] == ["at"]
             for i, w in enumerate(p.rest_low[:4])),
         lambda p: Slot("work.employer", p.value)),
    # "has a new boss, Ian Pike", "got a new manager called Ana Gil": the thing's new value,
    # in the slot "X's boss is …" names
    Rule("predicate:new-named", lambda p: not p.hint and _new_named(p) is not None,
         _new_named_slot),
    Rule("predicate:reports-to", lambda p: p.lemma == "report" and p.rest_low[:1] == ["to"],
         lambda p: Slot("work.manager", value_text(object_after(p.rest, 1)))),
    # everyday topics
    Rule("predicate:speaks", lambda p: p.lemma == "speak" and p.rest_low[:1] not in (
        ["with"], ["to"]),
         lambda p: Slot(attribute_path("language", *keywords(p.rest_words, 1)), p.value)),
    # how one gets somewhere is one slot per destination ("drives to school", "now
    # cycles to school"); to work it is the commute ("commutes by train")
    Rule("predicate:way-to", lambda p: _travel_destination(p) is not None, _way_to),
    # the vehicle one drives is one slot; a vehicle one owns is a slot of its kind
    # ("drives a Volvo" and "owns a bike" both hold)
    Rule("predicate:vehicle", lambda p: p.lemma in ("drive", "lease") and not _says_a_route(p)
         and not _for_someone(p),
         lambda p: Slot("transport.vehicle", p.value)),
    Rule("predicate:owned-vehicle", lambda p: p.lemma == "own" and "transport" in p.rest_domains,
         lambda p: Slot(attribute_path("transport", "vehicle", *keywords(p.rest_words, 2)),
                        p.value)),
    # how one commutes is one slot ("commutes by train", "cycles to work"); the route
    # taken is a fact beside it ("commutes along the canal path")
    Rule("predicate:commute", lambda p: p.lemma == "commute" and not _says_a_route(p),
         lambda p: Slot("transport.commute", p.value)),
    # "married Lee Park", "divorced in May": the event itself, a change of the status
    Rule("predicate:marital-event", lambda p: p.lemma in ("marry", "divorce")
         and p.words[:1] in (["married"], ["divorced"]),
         lambda p: Slot("relationship.status", p.value)),
    # "is married", "is now divorced", "was widowed", "is engaged (to Lee)": the marital
    # verbs' participles are the statuses themselves (_MARITAL_WORDS); "engaged in
    # research" or "engaged a lawyer" is another sense
    Rule("predicate:married", lambda p: p.lemma in ("marry", "divorce", "widow") or (
        p.lemma == "engage" and p.rest_low[:1] in (["to"], [])),
         lambda p: Slot("relationship.status", p.value)),
    Rule("predicate:diet",
         lambda p: p.lemma == "eat" or (p.lemma == "follow" and "diet" in p.rest_domains),
         lambda p: Slot("diet", p.value)),
    Rule("predicate:prefers", lambda p: p.lemma == "prefer", _preference),
    Rule("predicate:pet",
         lambda p: p.lemma in ("own", "have", "adopt") and _has_an_animal(p), _pet),
    Rule("predicate:health",
         lambda p: "health" in p.rest_domains
         and p.lemma in ("have", "develop", "diagnose", "suffer"),
         lambda p: Slot(attribute_path("health", *keywords(p.rest_words, 2)), p.value)),
    # generic: verb lemma + object keywords, so unrelated facts never share a slot
    Rule("predicate:generic", lambda p: True,
         lambda p: Slot(attribute_path(p.lemma, *keywords(p.rest_words, 3)), p.value, False)),
)
"""The predicate rules, most specific first; the last one always applies."""


def verb_reach(words: Sequence[str], start: int = 0) -> int:
    """Index of the first word from ``start`` past the auxiliaries, adverbs and negators
    before a verb or its complement (``does not really like``: like; ``is not vegan``:
    vegan): a negator inside this reach negates the clause, one after it only what follows
    it (``lives in Leeds but not in the centre``). A modal is always followed by a verb,
    one the lexicon knows or not (``can deadlift``, as ``can now deadlift``); another
    auxiliary before a word that is no verb is the verb itself (``is vegan``). ``have
    to`` before a verb is a modal too (``had to give up walking Biscuit``: give)."""
    main = start
    while main < len(words) - 1 and (words[main] in lx.AUXILIARIES or words[main] in lx.ADVERBS
                                     or words[main] in lx.NEGATORS or words[main] == "longer"
                                     or words[main].endswith("n't") or _since_then(words, main)):
        nxt = words[main + 1]
        if words[main] in lx.AUXILIARIES and nxt not in lx.ADVERBS and nxt not in lx.NEGATORS \
                and lx.lemma_of(nxt) is None and not _have_to(words, main) \
                and nxt != "longer" and not nxt.endswith("n't") \
                and not (nxt.endswith("ed") and nxt.isalpha()) \
                and not _since_then(words, main + 1) \
                and not (_uncontracted(words[main]) in lx.MODALS and nxt.isalpha()):
            break
        main += 2 if _have_to(words, main) else 1
    return main


def _have_to(words: Sequence[str], i: int) -> bool:
    """Is ``words[i]`` a form of ``have`` that with ``to`` makes a modal before a verb?"""
    return (lx.lemma_of(words[i]) == "have" and words[i + 1:i + 2] == ["to"]
            and i + 2 < len(words) - 1 and lx.lemma_of(words[i + 2]) is not None)


def _since_then(words: Sequence[str], i: int) -> bool:
    """``has since moved``: ``since`` between an auxiliary and a verb is an adverb (from
    then on), not the preposition of ``since 2019``."""
    return (words[i] == "since" and 0 < i < len(words) - 1 and words[i - 1] in lx.AUXILIARIES
            and lx.lemma_of(words[i + 1]) is not None)


def _bare_as_noun(words: Sequence[str], i: int) -> bool:
    """Is ``words[i]`` a verb's bare form before ``of``, before an office's noun and
    ``of`` (``coach of``, ``head coach of``), or before a noun that is no verb (``head
    chef at``, ``close friends with``)? After a form of ``be`` a verb is a participle
    (``is coaching``, ``is run by``), so such a word is a noun of the complement."""
    w, nxt = words[i], words[i + 1] if i + 1 < len(words) else ""
    return ((nxt == "of" or (words[i + 2:i + 3] == ["of"] and _office_noun(nxt))
             or (nxt.isalpha() and lx.lemma_of(nxt) is None and nxt not in PREPOSITIONS
                 and nxt not in lx.STOPWORDS and nxt not in lx.ADVERBS))
            and lx.lemma_of(w) == w and w not in lx.VERBS_PAST
            and not w.endswith(("ing", "ed")))


def read_predicate(toks: Sequence[Tok], verb_index: int, subject: Subject) -> PredicateReading:
    """Find the main verb (auxiliaries, adverbs and negators skipped) and lay the
    predicate out for the rules. ``toks`` must not be empty."""
    words = [t.low for t in toks]
    vi = min(max(verb_index, 0), len(toks) - 1)
    main = verb_reach(words, vi)
    if (lx.lemma_of(words[main]) is None and not words[main].endswith("ed")) or (
            main > vi and (toks[main].word[:1].isupper() or _bare_as_noun(words, main))
            and any(lx.lemma_of(w) == "be" for w in words[vi:main])):
        # "was strictly keto": adverbs skipped onto a complement; the verb is the copula
        # ("is now Mark Fry": a name there is the complement, though "mark" is a verb;
        # "is now coach of the team", "is head chef at": a bare form after "be" is no verb)
        for j in range(main - 1, vi - 1, -1):
            if lx.lemma_of(words[j]) is not None:
                main = j
                break
    verb = words[main]
    lemma = lx.lemma_of(verb) or lx.lemma_of(_uncontracted(verb))  # "isn't": be
    start = main + 1
    if lemma == "be":  # "is not allergic to …": the complement is "allergic …"
        while start < len(words) - 1 and (words[start] in lx.NEGATORS
                                          or words[start] == "longer"):
            start += 1
    return PredicateReading(subject=subject, words=words, verb=verb, lemma=lemma or verb,
                            rest=list(toks[start:]),
                            value=value_text([t.word for t in toks[main:]]))


_NEGATED_MODALS = {"wo": "will", "sha": "shall", "ca": "can"}


def _uncontracted(word: str) -> str:
    """A negated verb's own form (``isn't``: ``is``; ``won't``: ``will``)."""
    ending = next((e for e in lx.NEGATED_CONTRACTIONS if word.endswith(e)), "")
    base = word[:len(word) - len(ending)]
    return _NEGATED_MODALS.get(base, base)


def unrealised(reading: PredicateReading, question: bool = False) -> bool:
    """Does the predicate say that something is not (yet) the case? A question; a modal
    before the main verb (``might move``, ``won't sell``; not ``can``, a present
    ability); a condition or indirect question (``if``, ``whether``); a verb of desire,
    intention or deliberation (``plans to quit``, ``is thinking about selling``); or
    ``going to`` and a verb (lists in ``data/unrealised.txt``)."""
    before = reading.words[:len(reading.words) - len(reading.rest) - 1]
    modals = {_uncontracted(w) for w in before}
    rest = reading.rest_low
    going_to = (reading.lemma == "go" and "going" in reading.words and rest[:1] == ["to"]
                and len(rest) > 1 and lx.lemma_of(rest[1]) == rest[1])
    return (question or going_to or bool(modals & lx.UNREALISED_MODALS)
            or reading.lemma in lx.UNREALISED_VERBS
            or any(w in lx.UNREALISED_SUBORDINATORS for w in reading.words))


def analyse_predicate(toks: Sequence[Tok], verb_index: int, subject: Subject,
                      question: bool = False) -> Predicate:
    """Attribute and value of a predicate (tokens after the subject): the slot of the
    first rule of :data:`PREDICATE_RULES` that applies. An unrealised predicate
    (:func:`unrealised`) holds no slot: ``might move to Lyon`` is no home."""
    if not toks:
        return Predicate("note", "", False, rules=(
            "predicate:empty", *(["modality:unrealised"] if question else [])))
    reading = read_predicate(toks, verb_index, subject)
    domains = domains_in(reading.words)
    unreal = unrealised(reading, question)
    for rule in PREDICATE_RULES[-1:] if unreal else PREDICATE_RULES:
        if rule.applies(reading):
            slot = rule.reads(reading)
            attribute = slot.attribute
            if reading.hint and not reading.copula and not attribute.startswith(reading.hint):
                # "Lena's cat eats salmon" is the cat's diet, not Lena's: a verb after a
                # possessive subject speaks of the thing possessed
                attribute = f"{reading.hint}.{attribute}"
            if unreal:
                return Predicate(attribute, slot.value, False, (), domains,
                                 (rule.name, "modality:unrealised"))
            again = ("predicate:done-again",) if reading.verb in lx.AGAIN_PAST else ()
            return Predicate(attribute, slot.value, slot.confident, slot.alternatives,
                             domains, (rule.name, *again), frame_of(reading))
    raise AssertionError("the generic predicate rule always applies")
