"""The agent-facing text interface: remember, revise, release, forget, purge, recall.

Agents speak text, not (entity, attribute, value) triples. :class:`TextInterface`
turns text into the store's operations through a pluggable interpreter (rules by
default, any model as a hook) and decides *at write time* what a sentence does: a
new fact, a replacement of a named prior, a release, an amnesia, a crypto-shred.

Targeting (revise, release, forget, purge) follows one order — exact identifier
first, entity names next, words last — and acts only on what the query specifically
names (SPEC §15): a name alone is never content, a query naming a person and a thing
the person has no fact about changes nothing, and a purge acts on identifiers and
named entities only, never on word or vector similarity. Candidates come from the
store's indexes (the keyword channel of recall, which also holds whole identifiers, and
entity and alias lookups), never from a scan of the tenant or its vectors.
Every operation commits all its writes in one transaction or none (SPEC §14); every
call returns the facts it touched, or the nearest candidates when nothing matched;
destructive calls carry the store's preview of what they erase. Every interpretation
is stored with its event.

The store is anything that offers the methods of :class:`~memory_es.text.ports.TextStore`
(``MemoryStore`` does); this package never imports the store itself.
"""

from __future__ import annotations

import contextlib
import itertools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Unpack

from pydantic import BaseModel, ConfigDict, Field, SerializeAsAny

from memory_es.choices import Compaction
from memory_es.errors import ConfirmationRequired, ConflictError, InvalidInput, NotFound
from memory_es.models import Fact, Preview, Receipt
from memory_es.text import lexicon as lx
from memory_es.text.clauses import Clause, Interpretation, Interpreter
from memory_es.text.compounds import without_subjects
from memory_es.text.contractions import expand as expand_contractions
from memory_es.text.identifiers import (
    Identifier,
    entity_phone,
    may_be_phone,
    phone_forms,
    phones_match,
)
from memory_es.text.interpreter import ADDS_RULE, ProposeFn, as_interpreter, interpret
from memory_es.text.lists import without_items
from memory_es.text.matching import (
    DEFAULT_THRESHOLDS,
    NEGATION_TERM,
    PERSON_NAMESPACES,
    TIME_TERMS,
    FactView,
    Match,
    Query,
    Thresholds,
    analyse_query,
    asks_for_whole_entity,
    content_terms,
    core_domains,
    coverage,
    entity_keys,
    entity_terms,
    german_compound_parts,
    german_stems,
    gerund_of,
    identifier_matches,
    idf_weights,
    kind_match,
    lexical_matches,
    mention_matches,
    named_entities,
    names_an_activity,
    names_another,
    names_only,
    nominalises,
    only_identifiers,
    only_names_a_topic,
    query_domains,
    query_terms_naming,
    query_topics,
    relevance,
    shared_content,
    sibling_kind,
    specific,
    topic_facts,
    topic_match,
    vehicle_match,
    verb_sense_apart,
    view,
    view_terms,
    within_identified,
)
from memory_es.text.normalize import name_keys, slug
from memory_es.text.paths import domains_in, entity_id, keywords
from memory_es.text.ports import TextStore, TextWriter, WriteOptions
from memory_es.text.predicates import PREPOSITIONS, office_and_body
from memory_es.text.purge_scope import plan_purge
from memory_es.text.qualifiers import (
    CALENDAR,
    FREQUENCY,
    SEASON_OR_MONTH,
    WEEKDAY,
    time_said,
    valid_from_of,
    without_ending_participle,
    without_time,
    without_times,
)
from memory_es.text.requests import without_request
from memory_es.text.revision import (
    about_the_new_text,
    continuing_clause,
    retired_words,
    revised_slot,
    without_back_references,
)
from memory_es.text.segment import content_words, is_chinese_run
from memory_es.text.subjects import analyse_subject
from memory_es.text.words import EDGE, agrees, tokenize
from projections.tokens import identifiers_only, stem, word_forms, word_parts

WRITE_OPTIONS = WriteOptions.__optional_keys__
"""Keyword options ``remember``/``revise`` pass through to the store's writes."""

Extra = dict[str, object]
"""What the interface adds to a clause's interpretation record (antecedent, revises...)."""


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Target(_Model):
    """A fact a text operation selected, and why."""

    fact_id: str
    entity: str | None
    attribute: str
    text: str
    by: str = Field(description="identifier | entity | mention | lexical | semantic | "
                                "candidate (considered, not acted on)")
    score: float
    detail: str = ""


class TextResult(_Model):
    """What a text operation did: what it matched, what it wrote, what it erased."""

    op: str
    query: str
    targets: list[Target] = Field(default_factory=list)
    touched: list[str] = Field(default_factory=list, description="fact ids changed")
    receipts: list[SerializeAsAny[Receipt]] = Field(
        default_factory=list, description="receipts of the writes (deletion receipts for purges)")
    previews: list[Preview] = Field(default_factory=list,
                                    description="store previews of destructive steps")
    pending: list[str] = Field(default_factory=list,
                               description="steps not done (e.g. confirmation required)")
    note: str = ""

    @property
    def count(self) -> int:
        return len(self.touched)


MAX_TEXT = 8192
"""Longest text ``remember``/``revise`` accept (characters): a fact's text limit (SPEC §3)."""
MAX_QUERY = 2048
"""Longest targeting or recall query accepted (characters)."""
TOP_UP_ALL = 500
"""A recall that returns fewer than ``k`` hits is topped up from every current fact of a
tenant this small (each fact is analysed, ≈ 0.2 ms apiece); a larger tenant is topped up
from what targeting reads for the query (keyword and identifier matches, the facts of the
entities it names), so that cost never grows with the tenant."""
CANDIDATES = 64
"""How many facts the store's recall proposes per query string as targeting candidates."""

KEYWORD_CHANNEL = ("keyword",)
"""The recall channel targeting reads candidates from (words and identifiers)."""

Op = Callable[[TextWriter], Receipt]
"""One staged write of a text operation."""


def _check_size(name: str, text: str, limit: int) -> None:
    if not isinstance(text, str):
        raise InvalidInput(f"{name} must be a string")
    if len(text) > limit:
        raise InvalidInput(f"{name} is longer than {limit} characters")


@dataclass
class _Plan:
    """The writes a text operation will stage in one transaction, and which of their
    receipts it reports."""

    ops: list[tuple[Op, bool]] = field(default_factory=list)

    def add(self, op: Op, report: bool = True) -> None:
        self.ops.append((op, report))


@dataclass
class _Selection:
    matches: list[Match]
    tier: str
    whole: bool = False
    entities: dict[str, str] = field(default_factory=dict)
    candidates: list[Match] = field(default_factory=list)
    note: str = ""
    topics: frozenset[str] = frozenset()
    """Tier ``topic`` (revise): the topics the query named by name."""


def _kinds_unsaid(query: str, found: Sequence[Match]) -> set[str]:
    """The kinds of the query's last noun that the matched facts name and the query does
    not (``Ines's number``: her ``phone`` number and her ``locker`` number): with two or
    more, which one is meant is not said. Only for a noun written as the facts write it
    (``numbers`` asks for every one)."""
    words = re.findall(r"[^\W\d_]+(?:['’][^\W\d_]+)?", query)
    if not words:
        return set()
    head, said = words[-1].lower(), {w.lower() for w in words}
    kinds: set[str] = set()
    for m in found:
        text = re.findall(r"[^\W\d_]+(?:['’][^\W\d_]+)?", m.fact.text)
        kinds |= {text[i - 1].lower() for i in range(1, len(text))
                  if text[i].lower() == head and text[i - 1].islower()
                  and text[i - 1] not in lx.STOPWORDS and text[i - 1] not in said}
    return kinds


_POSSESSOR = re.compile(r"\b(?=([^\W\d_]+)['’]s?\s+([^\W\d_]+)(?:\s+([^\W\d_]+))?)")
"""A possessor and the one or two words after it; a lookahead, so that each of a chain
is found (``Eli Stone's son's GP``: Stone's son, and son's GP)."""


def _own_things(query: str, found: list[Match]) -> list[Match]:
    """Of the facts an owner's thing matched (``Zoe's dog``), those where the thing is not
    someone else's: ``walks her neighbour's dog`` names the neighbour's dog, not hers,
    whether or not a fact of her own dog (``has a dog called Biscuit``) also matches; and,
    when some fact holds the thing as hers, not one that speaks of its kind (``is afraid of
    dogs``). A possessor the query names is no one else (``my wife's phone`` is the fact of
    ``My wife's phone is a Pixel 7``). The thing is the head before a preposition's phrase
    (``Priyanka's night shifts at the call centre``: shifts, so ``at Taff Energy's call
    centre`` is where they are, no one else's shifts)."""
    words = re.findall(r"[^\W\d_]+", query)
    words = words[:next((i for i, w in enumerate(words)
                         if i > 0 and w.lower() in lx.PREPOSITIONS), len(words))]
    if not words:
        return found
    head = stem(words[-1].lower())
    named = {stem(slug(p.group(1))) for p in _POSSESSOR.finditer(query)}

    def others(m: Match) -> bool:
        own = (entity_terms(m.fact.entity) if m.fact.entity else frozenset()) | named
        return any(stem(slug(p.group(1))) not in own and head in {
            stem(w.lower()) for w in p.group(2, 3) if w} and not _descriptive(m.fact.text, p)
            and not _in_a_name(m.fact.text, p) for p in _POSSESSOR.finditer(m.fact.text))

    own = [m for m in found if not others(m)]
    held = [m for m in own if not _of_the_kind(words[-1], m.fact.text)]
    return held or own


def _beyond_a_time(query: str, sel: _Selection) -> list[Match]:
    """The facts ``sel`` matched that share more than a day or a time of day with the
    query (:func:`shared_content`: ``Declan's morning dips`` shares only that with ``swims
    most mornings`` and ``takes bisoprolol every morning``; ``Eilidh's spot in the
    Thursday night league`` more with ``plays lead in the Thursday evening league`` than
    with ``looks after the ice … on Thursday mornings``)."""
    asked = analyse_query(query)
    skip = query_terms_naming(sel.entities)
    return [m for m in sel.matches if shared_content(
        asked, view(m.fact), skip, within_entity=bool(sel.entities)) != "when"]


def _in_topic_named(query: str, found: Sequence[Match]) -> list[Match]:
    """Of several facts a query's words matched, those in a topic that a noun of the query
    names as a whole, by the core of their predicate (:func:`core_domains`): ``Tomasz's
    job at the hospital`` is ``works as a radiographer at St George's Hospital``, not
    ``has steroid injections at St George's Hospital``. Only when that leaves some and
    not all; else none."""
    topics = {d for w in re.findall(r"[^\W\d_]+", query.lower()) for d in lx.domains_of(w)
              if lx.names_topic(w, d)}
    kept = [m for m in found if core_domains(view(m.fact)) & topics] if topics else []
    return kept if len(kept) < len(found) else []


def _said_together(query: str, found: Sequence[Match], naming: Iterable[str]) -> list[Match]:
    """Of several facts a query's words matched, those that hold the most pairs of words
    the query says side by side, side by side and in its order (``Priya's Saturday
    cryptic``: ``sets the Saturday cryptic crossword``, not ``runs a cryptic clue-writing
    workshop … on Saturday afternoons``, where the two words are of two things; ``his
    shifts behind the fish counter at Harbour Fresh``: ``works the wet fish counter at
    Harbour Fresh``, not ``buys fish for Harbour Fresh``). Words that name the owner say
    nothing of the thing. Only when that leaves some and not all; else none."""
    named = {*naming, *(t for m in found if m.fact.entity for t in entity_terms(m.fact.entity))}
    asked = _side_by_side(query, named)
    held = [len(asked & _side_by_side(m.fact.text, named)) for m in found]
    kept = [m for m, n in zip(found, held, strict=True) if n == max(held) > 0]
    return kept if len(kept) < len(found) else []


def _side_by_side(text: str, named: set[str]) -> set[tuple[str, str]]:
    """The pairs of content words next to each other in ``text`` (stems, in their order)."""
    stems = [stem(w.lower()) for w in re.findall(r"[^\W\d_]+", re.sub(r"['’]s\b", "", text))]
    return {(a, b) for a, b in itertools.pairwise(stems)
            if not ({a, b} & named or {a, b} & lx.STOPWORDS)}


def _in_a_name(text: str, possessor: re.Match[str]) -> bool:
    """Is ``possessor`` a saint's in a place's name (``St George's Hospital``, ``St
    Mary's``: named for the saint, owned by no one the facts speak of)?"""
    return re.search(r"\b(?:St\.?|Saint)\s+$", text[:possessor.start()]) is not None


def _descriptive(text: str, possessor: re.Match[str]) -> bool:
    """Is the plural genitive ``possessor`` found in ``text`` a kind, after an article that
    agrees with the noun after it (``a residents' parking permit``, ``a farmers' market``,
    ``a children's story time``: a descriptive genitive, Quirk et al. 1985, 5.123), not
    who owns the thing? A plural is one in ``-s`` with the apostrophe alone, or one of
    people not made with ``-s`` (:data:`_PLURALS_OF_PEOPLE`) with ``'s``."""
    word, end = possessor.group(1), possessor.start() + len(possessor.group(1))
    plural = (text[end:end + 2] in ("' ", "’ ") if word.endswith("s")
              else word.islower() and word.endswith(_PLURALS_OF_PEOPLE))
    return plural and re.search(r"\ban?\s+$", text[:possessor.start()],
                                re.IGNORECASE) is not None


_PLURALS_OF_PEOPLE = ("children", "people", "men", "women")
"""The English plurals of people not made with ``-s`` (``craftsmen`` and ``sportswomen``
end so too)."""


def _of_the_kind(noun: str, text: str) -> bool:
    """Does ``noun`` stand in ``text`` bare after a copula's adjective and its
    preposition, perhaps after an adjective of its own (``is allergic to cats``, ``is
    afraid of big dogs``)? Then the fact speaks of the kind, not of anyone's things of
    it."""
    text = expand_contractions(text)
    return re.search(rf"\b(?:is|am|are|was|were)\s+(?:\w+\s+)?[a-z]+\s+(?:to|of|about|with)\s+"
                     r"(?:[a-z]+\s+)?"  # "afraid of big dogs"
                     rf"{re.escape(noun.rstrip('s'))}(?:e?s)?\b", text, re.IGNORECASE) is not None


def _head_unheld(query: str, found: Sequence[Match]) -> str | None:
    """The query's head noun, one thing (``Elin's coffee habit``), when none of the facts
    it matched holds it: they matched by a modifier they share (``drinks black coffee``,
    ``owns a coffee grinder``, ``works at a coffee roastery``), which cannot say which
    one thing is meant. The head stands before a prepositional phrase that qualifies it
    (``Tomasz's appointment at the hospital``). None for a plural head (``tennis
    commitments`` asks for each), a head some fact holds, or a word that is no content (a
    name, ``stuff``)."""
    words = re.findall(r"[^\W\d_]+", query)
    if not words:
        return None
    head: str = next((words[k - 1] for k in range(1, len(words))
                      if words[k].lower() in lx.PREPOSITIONS), words[-1])
    low = head.lower()
    if (head[:1].isupper() or low in lx.STOPWORDS or low in lx.INFO_NOUNS
            or low in lx.TOTALITY or (low.endswith("s") and not low.endswith("ss"))):
        return None
    term = stem(low)
    if any(term in (v := view(m.fact)).terms or term in v.parts for m in found):
        return None
    return low


_SINGULAR_OWNER = re.compile(r"\b([^\W\d_]+)['’]s\b|\b(?:my|his|her|its)\b", re.IGNORECASE)


def _one_owner(text: str) -> bool:
    """Does the query speak of one owner's thing (``Mia's gym membership``, ``her gym
    membership``, the user's ``my cat``), not of a kind of thing (``gym memberships``) or
    several owners' (``the Lunds' memberships``)? When no owner it names is known, the
    facts it matches may be anyone's: of several entities, which one is meant is not
    said."""
    return any(m.group(1) is None or m.group(1).lower() not in lx.STOPWORDS
               for m in _SINGULAR_OWNER.finditer(text))


_ROLE_STEMS = frozenset(stem(w) for w in lx.PERSON_NOUNS)
"""Nouns of a person in a role (``warden``, ``steward``, ``lifeguard``), as their stems."""


class TextInterface:
    """Text-level operations over a store (:class:`~memory_es.text.ports.TextStore`,
    e.g. ``MemoryStore``).

    Args:
        store: the store to read and write.
        interpreter: how text becomes operations. ``None`` uses the deterministic rules
            (:class:`~memory_es.text.interpreter.RuleInterpreter`); any callable that
            takes a text and returns an ``Interpretation``, ``Clause`` objects or
            mappings with their fields is used as a model hook (rules as fallback).
        thresholds: when targeting is confident enough to act.
    """

    def __init__(self, store: TextStore, interpreter: Interpreter | ProposeFn | None = None,
                 *, thresholds: Thresholds = DEFAULT_THRESHOLDS) -> None:
        self.store = store
        self.interpreter = as_interpreter(interpreter)
        self.thresholds = thresholds
        self._recent: dict[str, list[tuple[str, frozenset[str]]]] = {}

    # --- reading the tenant (through the store's indexes, never a scan) ------------------

    def _recall(self, tenant: str, query: str, k: int = CANDIDATES, *,
                keyword: bool = True) -> list[Fact]:
        """Up to ``k`` current facts the store's recall proposes for ``query``.

        Targeting takes the keyword channel alone (``keyword``): a fact recall proposes
        can only be a target through a word or an identifier it shares with the query
        (:func:`~memory_es.text.matching.specific`, identifier matches), and a named
        entity's facts come from the entity lookup, so neither embedding the query nor
        scanning the tenant's vectors is needed (``benchmarks/text_latency.py``)."""
        if not query.strip():
            return []
        channels = KEYWORD_CHANNEL if keyword else None
        try:
            return [h.fact for h in self.store.recall(tenant, query, k=k, channels=channels)]
        except (InvalidInput, NotFound):
            return []

    def _entity_facts(self, tenant: str, name: str) -> list[Fact]:
        """The current facts of the entity ``name`` is (a canonical id or an alias)."""
        try:
            return self.store.current(tenant, entity=name)
        except (InvalidInput, NotFound):
            return []

    def _held(self, tenant: str, entity: str, clause: Clause) -> list[Fact]:
        """The entity's own current facts that state something (its denials left out): what
        ``clause``, a change of state, can end. A fact of a person the entity has, kept
        under its id (``Mila's brother Jan is in Year 6``), is that person's, and a thing's
        act is the thing's: a change the clause does not say of them (``Mila moved up to
        Year 5``) leaves it."""
        asked = view_terms(clause.mention or "")
        return [f for f in self._entity_facts(tenant, entity)
                if f.entity == entity and not f.negated
                and not self._theirs(f, asked, view_terms(clause.text))]

    def _theirs(self, fact: Fact, asked: frozenset[str],
                said: frozenset[str] | None = None) -> bool:
        """Is ``fact``, kept under its owner's id, a fact of a person the owner has that
        ``asked`` (the terms of a query or a clause's subject) does not ask for
        (:func:`_someone_else`)? With ``said`` (the terms of a change of state), also an
        act of a thing of the owner's, other than being something, that the change does
        not name (``Nina Wolfe's fund holds 300 shares of Shell`` is the fund's holding:
        ``Nina Wolfe now holds 450 shares of Shell`` leaves it; ``now pays £45 a month
        for her gym`` names the gym of ``Priya's gym costs £40 a month``)."""
        return any(_someone_else(c, asked) or (
            said is not None and (_acts(c) or _does_too(c))
            and "predicate:possessive-noun" not in c.rules
            and not {stem(w) for w in _possessed(c)} & said)
            for c in self.interpreter(fact.text).clauses)

    def _kept_for(self, fact: Fact, asked: frozenset[str]) -> str | None:
        """The person of its owner's whose fact ``fact`` is, kept under the owner's id
        (``sister`` of ``Sue Park's sister's date of birth is …``) unless ``asked`` asks
        for them (:func:`_someone_else`); None for the owner's own fact."""
        for c in self.interpreter(fact.text).clauses:
            if _someone_else(c, asked):
                return (_possessed_people(c) + _named_possessed(c))[0]
        return None

    def _held_terms(self, tenant: str, text: str) -> list[Fact] | None:
        """For a text made only of identifiers: the facts that hold the terms of each
        lookup :meth:`_candidates` would recall (:meth:`TextStore.holding`, unranked).
        None for any other text, or when a lookup finds more than recall would propose
        (:data:`CANDIDATES`): then ranking chooses, as before."""
        q = analyse_query(text)
        if not q.identifiers or not identifiers_only(text):
            return None
        found: list[Fact] = []
        for query in _lookups(text, q):
            try:
                held = self.store.holding(tenant, query, most=CANDIDATES)
            except (InvalidInput, NotFound):
                return None
            if held is None:
                return None
            found += held
        return found

    def _candidates(self, tenant: str, text: str,
                    proposed: Iterable[Fact] | None = None) -> list[FactView]:
        """The facts a query can target: what the store's recall proposes for the query
        and for each identifier in it (or ``proposed``, found otherwise), the facts of
        every entity the query names (by id, alias or a transliteration key), and the
        other facts of the entities those candidates belong to when the query names
        them."""
        q = analyse_query(text)
        facts: dict[str, FactView] = {}  # one view per fact: its name analysis is kept

        def add(found: Iterable[Fact]) -> None:
            for f in found:
                if f.fact_id not in facts:
                    facts[f.fact_id] = view(f)

        if proposed is None:
            proposed = (f for query in _lookups(text, q) for f in self._recall(tenant, query))
        add(proposed)
        for surface, keys, capital in q.ngrams:
            if capital and len(surface.split()) <= 4:
                for key in (surface, *sorted(k for k in keys if k.startswith("~"))):
                    add(self._entity_facts(tenant, key))
        if _word_set(text) & lx.FIRST_PERSON:
            add(self._entity_facts(tenant, "user:self"))  # "everything about me"
        for run in re.findall(r"[\u3040-\u30ff\u3400-\u9fff]{2,}", text):
            for n in range(min(len(run), 6), 1, -1):
                for i in range(len(run) - n + 1):
                    add(self._entity_facts(tenant, run[i:i + n]))
            if len(run) <= 4 and (run[:1] in lx.CHINESE_SURNAMES or run[:2] in lx.CHINESE_SURNAMES):
                for kin in lx.CHINESE["persons"]:  # "赵磊的女朋友…" names him
                    add(self._entity_facts(tenant, f"{run}的{kin}"))
        for entity in named_entities(q, list(facts.values())):
            add(self._entity_facts(tenant, entity))
        return list(facts.values())

    def _purge_selection(self, tenant: str, text: str) -> _Selection:
        """What a purge of ``text`` selects. A text made only of identifiers acts on the
        facts carrying them (SPEC §15): those are among the few facts that hold their
        terms (:meth:`_held_terms`), so no recall ranks the tenant for them. Anything
        else, or no fact carrying them found so, takes the general candidates, whose
        nearest misses the result then lists."""
        held = self._held_terms(tenant, text)
        if held is not None:
            sel = self._select(tenant, text, self._candidates(tenant, text, held), "purge")
            if sel.tier == "identifier":
                return sel
        return self._select(tenant, text, self._candidates(tenant, text), "purge")

    def _known_person(self, tenant: str, entity: str | None, said: str | None = None
                      ) -> str | None:
        """The one known person a bare given name stands for (``Kwame moved to Kumasi``
        when the tenant knows Kwame Asante and no other Kwame, and holds nothing under
        the bare name itself); None when the name is no bare given name, or names no one
        or several people (then it stays a person of its own). ``said``: the name as
        written, which may be one hyphenated given name (``Jukka-Pekka``) or one in
        Chinese (``秀兰``, whose id spells its pinyin: :func:`_chinese_given_name`)."""
        if entity is None or not entity.startswith("person:"):
            return None
        surnamed = False  # a Chinese given name that opens as a surname would (桂兰)
        if entity[7:].isalpha():  # a given name is one word of letters
            word = entity[7:].capitalize()
        elif said is not None and " " not in said and entity_id("person", said) == entity and (
                "-" in said or _chinese_given_name(said)
                or (surnamed := _chinese_given_name(said, surnamed=True))):
            word = said
        else:
            return None
        views = self._candidates(tenant, word)
        named = named_entities(analyse_query(word), views, given_names=True)
        if entity in named:
            return None  # the name's own facts: a person of that name is known
        if surnamed:  # only people whose whole name is a surname and it (王桂兰)
            named = {e: k for e, k in named.items() if _surname_and(word, e)}
        people = [e for e in named if e.startswith("person:")]
        return people[0] if len(people) == 1 else None

    def _of_named_animal(self, tenant: str, clause: Clause) -> Clause | None:
        """``Miso died last week`` after ``I have a tabby cat called Miso``: an ending said
        of a lone name that is no one of its own (no fact under it, no known person's given
        name) but the name of exactly one animal of the tenant's (a pet slot that holds
        the name, or ``Tom Hale's dog is called Rex``) is its owner's animal's, read as
        ``My cat Miso died last week`` (that text: the caller writes the text as said), so
        what names the animal ends as it would then. None for any other clause."""
        entity, names = clause.entity, clause.subject_names
        if (not clause.ends_prior or entity is None or not entity.startswith("person:")
                or clause.refers_back is not None or len(names) != 1 or " " in names[0]
                or not clause.text.startswith(names[0] + " ")):
            return None
        if self._entity_facts(tenant, entity) or self._known_person(tenant, entity):
            return None
        key = slug(names[0])
        animals: dict[tuple[str, str], Fact] = {}
        for v in self._candidates(tenant, names[0]):
            f, parts = v.fact, v.fact.attribute.split(".")
            if f.negated or f.entity is None or parts[-1] != key:
                continue
            if parts[0] == "pet" and len(parts) >= 3:
                animals[(f.entity, parts[-2])] = f
            elif parts[0] == "prop" and parts[2:] == ["call", key]:
                animals[(f.entity, parts[1])] = f
        if len(animals) != 1:
            return None
        (owner, kind), fact = next(iter(animals.items()))
        said = next((c.mention for c in self.interpreter(fact.text).clauses
                     if c.attribute == fact.attribute), None)  # facts keep no mention
        whose = "My" if owner == "user:self" else _owner_name(said)
        if whose is None:
            return None
        read = self.interpreter(f"{whose} {kind} {clause.text}").clauses
        if len(read) != 1 or read[0].entity != owner or not read[0].ends_prior:
            return None
        return read[0]

    def _antecedent(self, tenant: str, role: str) -> str | None:
        """The entity a ``the same <role>`` subject points back to: the most recent entity
        of this tenant whose namespace, name or subject noun is the role; else the most
        recent one."""
        recent = self._recent.get(tenant) or [
            (f.entity, _role_words(f)) for f in sorted(
                self._recall(tenant, role or "the", 32, keyword=False),
                key=lambda f: f.recorded_at,
                reverse=True) if f.entity is not None]
        if not recent:
            return None
        if role:
            role_words = {stem(w) for w in word_parts(role.lower())}
            for entity, words in recent:
                if role_words & words:
                    return entity
        return recent[0][0]

    def _seen(self, tenant: str, entity: str, clause: Clause) -> None:
        words = {stem(w) for w in word_parts(entity.lower())} | {
            stem(w) for w in word_forms(clause.mention or "")}
        recent = [(e, w) for e, w in self._recent.get(tenant, []) if e != entity]
        self._recent[tenant] = [(entity, frozenset(words)), *recent][:64]

    # --- writing ---------------------------------------------------------------------------

    def _commit(self, plan: _Plan) -> list[Receipt]:
        """Stage every planned write in one transaction: all of them commit, or none
        (SPEC §14). A write the store refuses as a conflict or a miss (a decay of a fact
        that left present belief meanwhile) stages nothing and is skipped."""
        staged: list[tuple[Receipt, bool]] = []
        with self.store.transact() as tx:
            for op, report in plan.ops:
                try:
                    staged.append((op(tx), report))
                except (ConflictError, NotFound):
                    continue
        committed = iter(tx.receipts)
        out: list[Receipt] = []
        for receipt, report in staged:
            final = receipt if receipt.idempotent_replay else next(committed, receipt)
            if report:
                out.append(final)
        return out

    # --- remember -------------------------------------------------------------------------

    def interpret(self, text: str) -> Interpretation:
        """How the interpreter reads ``text`` (nothing is written)."""
        return self.interpreter(text)

    def remember(self, tenant: str, text: str, **kw: Unpack[WriteOptions]) -> list[Receipt]:
        """Interpret ``text`` and write one fact per clause, all in one commit.

        Clauses that report a change of state on a confidently-read slot (``User now
        works at X``) supersede that slot; everything else is asserted through the
        store's control plane (reinforce, outrank or conflict, never a silent
        overwrite). ``The same customer …`` attaches to the entity mentioned last.
        Every clause commits, or none does (an invalid clause raises and writes
        nothing); texts longer than :data:`MAX_TEXT` characters are ``InvalidInput``.
        """
        options = self._options(kw)
        _check_size("text", text, MAX_TEXT)
        reading = self.interpreter(text)
        plan = _Plan()
        now = self.store.now()
        seen: list[tuple[str, Clause]] = []
        full_names = _full_person_names(reading)
        spoken_of: str | None = None  # whom the text spoke of last: a pronoun's antecedent
        before: Clause | None = None
        for n, read in enumerate(reading.clauses):
            clause = self._said_of_kin(read, before)
            said_as = clause.text
            animal = self._of_named_animal(tenant, clause)
            clause = animal or clause
            explains = before is not None and _explains_an_ending(text, before, read)
            before = read
            entity, extra = self._resolve(tenant, clause, plan, pronoun_of=spoken_of)
            if (owner := _given_name_owner(entity, full_names)) is not None:
                entity, extra = owner, extra | {"given_name_of": owner}
            elif (known := self._known_person(tenant, entity, clause.mention)) is not None:
                entity, extra = known, extra | {"given_name_of": known}
            spoken_of = entity or _person_named(clause) or spoken_of
            supersede = clause.op == "supersede" and entity is not None
            if clause.ends_prior and entity is not None:
                ending = _without_later_adjuncts(clause)
                self._retire_prior(tenant, entity, ending, plan, explains=explains)
                self._retire_passive(tenant, entity, ending, plan)
                self._retire_agents_act(tenant, entity, ending, plan)
                self._retire_thing(tenant, entity, ending, plan)
            elif "change-of-state:replaces-frame" in clause.rules and entity is not None:
                # "moved to Sopot", "is now a tax resident of Portugal": a slot read without
                # certainty ("moved to" may name an employer) that the entity holds with
                # another value is the slot that changes (the same value again reinforces it)
                held = self._entity_facts(tenant, entity)
                supersede = any(f.attribute == clause.attribute and f.value != clause.value
                                and _place_like(f.value) == _place_like(clause.value)
                                for f in held)
                if not supersede and (slot := _slot_of_kind(held, clause)):
                    clause, supersede = replace(clause, attribute=slot), True
                if not supersede and clause.frame is not None:
                    self._replace_frame(tenant, entity, clause, plan)
            elif (clause.negated and entity is not None and _denies_a_value(clause)
                  and self._retract_contradicted(tenant, entity, clause, plan)):
                # "Mia does not live in Oslo" retracts home.city = Oslo and adds nothing;
                # a denial that contradicts nothing ("Liam does not eat meat") is kept as
                # what the user said, a negated fact of its slot: no statement is lost
                continue
            elif clause.negated and entity is not None and not clause.confident:
                # "Hugo Lam is not diabetic" ends "Hugo Lam is diabetic" (a slot named by
                # its words: the same words, denied); the denial is kept as said
                self._retract_contradicted(tenant, entity, clause, plan)
            # a change reads the entity's facts once, for every rule below that asks
            facts = (self._entity_facts(tenant, entity) if entity is not None
                     and not clause.negated and _marks_change(clause) else [])
            if (not supersede and not clause.confident and _says_now(clause)
                    and ADDS_RULE not in clause.rules
                    and any(f.entity == entity and f.attribute == clause.attribute
                            and not f.negated and f.value != clause.value for f in facts)):
                # "is now retrained daily" (slot "train", held as "retrained weekly"): the
                # slot a change names, held with another value, is the slot that changes
                supersede = True
            if entity is not None and self._end_denials(tenant, entity, clause, facts, plan) and (
                    supersede and _lead_verb(str(clause.value)) is not None):
                # "now eats pork" reverses "does not eat pork": an activity is one of several
                # a person may have, so it leaves "eats chicken" (the slot's two values go
                # to the conflict path); a state ("lives in Bergen now") still supersedes
                supersede = not any(f.entity == entity and f.attribute == clause.attribute
                                    and not f.negated and f.value != clause.value
                                    for f in facts)
            if clause.corrects and entity is not None:
                self._retract_corrected(tenant, entity, clause, plan)
            if (entity is not None and not clause.negated
                    and "predicate:quantity-change" in clause.rules):
                self._replace_amount(tenant, entity, clause, plan)
            if entity is not None and not clause.negated and not clause.unrealised:
                self._replace_thing_time(tenant, entity, clause, plan)
                self._retire_completed(tenant, entity, clause, plan)
            if entity is not None and not clause.negated and (supersede or _marks_change(clause)):
                self._replace_thing_state(tenant, entity, clause, plan)
                self._replace_verb_object(tenant, entity, clause, plan)
                self._replace_role(tenant, entity, clause, plan)
                self._replace_shared_addition(tenant, entity, clause, plan)
                self._replace_office(tenant, entity, clause, plan)
                self._replace_work_manner(tenant, entity, clause, plan)
                self._replace_count(tenant, entity, clause, plan)
                self._replace_label(tenant, entity, clause, plan)
                self._replace_named_kind(tenant, entity, clause, plan)
                self._replace_modified_kind(tenant, entity, clause, plan)
                if clause.attribute in _RESIDENCE:
                    self._leave_home(tenant, entity, clause, plan)
            if entity is not None and supersede and clause.frame is not None and not (
                    ADDS_RULE in clause.rules or any(f.attribute == clause.attribute
                                                     for f in facts)):
                # "now works in Camden" (work.unit.camden): a slot named by its value is new
                # at each change; the frame says what it replaces ("works in Holborn")
                self._replace_frame(tenant, entity, clause, plan)
            if entity is not None and not clause.negated and not clause.unrealised:
                if left := (_switched_from(clause) or _given_for(clause)) - entity_terms(
                        entity):
                    self._retire_switched(tenant, entity, clause, left, plan)
                elif (instead := _instead_of(clause)) and (
                        left := instead[1] - entity_terms(entity)):
                    self._retire_switched(tenant, entity, clause, left, plan, verb=instead[0])
                elif moved := _switched_thing(clause):
                    self._retire_provider(tenant, entity, clause, *moved, plan)
                if "predicate:prefers" in clause.rules:
                    self._retire_reversed(tenant, entity, clause, plan)
                    if _says_now(clause):
                        self._retire_preferred_alike(tenant, entity, clause, plan)
            if animal is not None:  # read as the owner's animal's, kept as said
                clause = replace(clause, text=said_as)
            self._write(plan, tenant, clause, entity, reading.source, extra,
                        _dated(_per_clause(options, n), clause, now), supersede=supersede)
            if entity is not None:
                seen.append((entity, clause))
        receipts = self._commit(plan)
        for entity, clause in seen:
            self._seen(tenant, entity, clause)
        return receipts

    def _retire_passive(self, tenant: str, entity: str, clause: Clause, plan: _Plan) -> None:
        """Release the fact a cessation ends that was told of its object in the passive,
        with the subject as agent: ``Kim Tran no longer leads the Orion project`` (or
        ``stopped leading``) ends ``The Orion project is led by Kim Tran``. The fact is
        the object's entity's, of the same verb with ``by`` and a name that is the
        subject's, nothing more (``is led by Kim Tran and Ana Ruiz`` stays: one of two
        leads left)."""
        words = str(clause.value).split()
        verb = clause.attribute.split(".", 1)[0]
        if len(words) < 2 or lx.lemma_of(words[0].strip(EDGE).lower()) != verb:
            return
        if verb in lx.CESSATION_VERBS and words[1].lower().endswith("ing") and (
                act := lx.lemma_of(words[1].lower())):
            verb, words = act, words[1:]  # "stopped leading the Orion project"
        obj = " ".join(words[1:]).strip(" .")
        thing = analyse_subject(obj, tokenize(obj), []).entity
        if thing is None or thing == entity:
            return
        agent = view_terms(clause.mention or "")
        for f in self._entity_facts(tenant, thing) if agent else []:
            said = str(f.value).split()
            if (not f.negated and len(said) > 2 and said[1].lower() == "by"
                    and lx.lemma_of(said[0].lower()) == verb
                    and view_terms(" ".join(said[2:])) == agent):
                plan.add(_decay(f.fact_id, tenant, f"ended: {clause.text}"))

    def _retire_agents_act(self, tenant: str, entity: str, clause: Clause,
                           plan: _Plan) -> None:
        """The converse of :meth:`_retire_passive`: an ending told in the passive with its
        agent (``Hollowbrook Blush is no longer made by Philippa Daintree``) ends the
        agent's fact of the same verb whose object holds the subject's words (``Philippa
        Daintree makes a cheese called Hollowbrook Blush``), nothing else of hers
        (``makes a hard cheese called Sedgecombe Tomme`` stays)."""
        words = [w.strip(EDGE) for w in str(clause.value).split()]
        if len(words) < 3 or words[1].lower() != "by" or not all(
                w[:1].isupper() for w in words[2:]):
            return
        agent = analyse_subject(" ".join(words[2:]), tokenize(" ".join(words[2:])), []).entity
        thing = view_terms(clause.mention or "")
        if agent is None or agent == entity or not thing:
            return
        for f in self._entity_facts(tenant, agent):
            said = str(f.value).split()
            if (f.entity == agent and not f.negated and said and _same_verb_form(said[0], words[0])
                    and thing <= view_terms(str(f.value)) and not self._theirs(f, frozenset())):
                plan.add(_decay(f.fact_id, tenant, f"ended: {clause.text}"))

    def _retire_thing(self, tenant: str, entity: str, clause: Clause, plan: _Plan) -> None:
        """Release every current fact of a thing whose ending is said of it alone, with no
        object: ``The product launch was cancelled`` ends ``The product launch is on 4
        June`` (the launch itself is no more, so nothing said of it holds). Only a thing
        named by a common noun phrase (a topic), never a person nor a named entity, and only
        when the verb, its particle aside, is all the clause says (``was cancelled``, ``has
        been called off``; not ``cancelled its booking``)."""
        if not entity.startswith("topic:") or clause.negated:
            return
        rest = without_times(str(clause.value)).split()[1:]
        if any(w.lower().strip(EDGE) not in lx.PARTICLES for w in rest):
            return
        for f in self._entity_facts(tenant, entity):
            if not f.negated:
                plan.add(_decay(f.fact_id, tenant, f"ended: {clause.text}"))

    def _retire_prior(self, tenant: str, entity: str, clause: Clause, plan: _Plan, *,
                      explains: bool = False) -> None:
        """Release the current facts of ``entity`` that a cessation clause ends: same topic
        (attribute, domain, or the same verb: in the text, or heading both slots, ``no
        longer rows`` / ``rows on the Humber``) and a distinctive word in common (``quit her
        job at X`` ends ``works at X``; ``is not vegan anymore`` ends ``is vegan``;
        ``doesn't have Disney+ any more`` ends ``has a Disney+ subscription``). In Chinese,
        each noun of a ``的`` phrase counts (``健身杂志的订阅`` ends ``订阅了健身杂志``). A
        denial (``no longer prefers phone calls``) ends only a fact whose value holds the
        shared word, never one that merely names it elsewhere (``Omar's phone is …``)."""
        verb = _slot_verb(clause.attribute)
        domains = set(clause.domains) | {verb}
        # "Mateo's Skoda was sold": the thing possessed names the fact it ends; "Kwame's
        # brother left Acme" ends only a fact that names the brother (no fact of the
        # owner's topic stands in for someone else's act, see _acts)
        owned = _possessed(clause)
        thing = {stem(w) for w in owned} or None
        # "Rosa's mother is retired": a person of the owner's who did not die is no thing
        # that ended; the word for her picks her facts out, as the subject's name does,
        # and is no content ("Rosa's mother lives in Seville" stays)
        kin = (view_terms(" ".join(owned)) if _possessed_people(clause)
               and not lx.tells_a_death(str(clause.value)) else frozenset())
        thing_domains = set() if _acts(clause) or kin else set(domains_in(owned))
        # "Tom's dog Rex died": a fact that names Rex is of the dog ("walks Rex every day")
        called = {stem(w) for w in _named_possessed(clause)[1:]}
        lemma = lx.inflected_verb(verb) or verb
        # the subject's name as written is no content either (``Krüger``: the entity id
        # holds it folded, ``kruger``)
        # another language's clause names what ended in its value alone: the rest of its
        # text is function words the English terms do not know (``hat Spotify gekündigt``:
        # ``hat`` is no word in common with ``hat eine Katze``)
        other_language = any(r.startswith("lang:") for r in clause.rules)
        ended_value = (_without_final_place(str(clause.value)) if "lang:de" in clause.rules
                       else str(clause.value))
        said = view_terms(ended_value if other_language else clause.text) - entity_terms(
            entity) - frozenset().union(*(view_terms(n) for n in clause.subject_names)) - kin
        # German names what ended by a noun of its verb (``hat mit dem Rauchen aufgehört``
        # ends ``raucht``): stems of verb forms count as words in common
        stems = (german_stems(ended_value) - german_stems(" ".join(clause.subject_names))
                 if "lang:de" in clause.rules else frozenset())
        # "die Ausgabe in der Kleiderkammer": the thing before the preposition of its place
        de_thing = _de_thing(ended_value) if "lang:de" in clause.rules else frozenset()
        # "sold his red Ford to …", "stopped seeing Dr Lind": the whole object it ended;
        # a denial ends only a fact with that very object ("no longer needs a parking
        # permit" ends "has a parking permit", never "Omar's phone is …" for phone calls)
        ended_object = _ended_object(clause.value, entity) if clause.ends_prior else None
        # "stopped cycling to work": a fact holds that whole only if it tells the cycling
        # too ("works at the university" holds only where it went)
        gerund = _ended_gerund(clause.value) if clause.ends_prior else None
        # with an object, the verb alone is no word in common ("no longer drinks coffee"
        # leaves "drinks green tea"), and a name in the object must be in the fact too
        # ("sold her Acme shares" leaves "holds 50 shares of Globex")
        verb_terms = view_terms(str(clause.value).split()[0]) if ended_object else frozenset()
        # the gerunds inside the object before a noun ("her running club", "his sweeping
        # rounds"; not the act itself, "stopped drinking coffee", "from teaching Sunday
        # school")
        after = [w.lower() for w in _after_verb(str(clause.value))]
        modifying = {stem(w) for before, w, nxt in zip(after, after[1:], after[2:], strict=False)
                     if gerund_of(w) and before not in PREPOSITIONS and nxt.isalpha()
                     and nxt not in PREPOSITIONS and nxt not in lx.STOPWORDS
                     } if ended_object else set()
        # the object of a verb of its own that names a thing, not a topic as a whole
        # ("dialysis", not "job": "quit her job at Acme" is told by where the job was), when
        # the subject is no thing ("Mateo's Skoda was sold": the Skoda is what ended); a
        # copula's complement is no such object ("is no longer a resident of Hatch House")
        specific = frozenset(t for t in ended_object or () if thing is None and lemma not in (
            "be", "have") and not (other_language or t in lx.STOPWORDS or t == NEGATION_TERM
                                   or lx.names_a_topic(t)))
        object_names = (ended_object or frozenset()) & frozenset().union(
            *(view_terms(n) for n in clause.names if n not in clause.subject_names))
        other_names = [n for n in clause.names if n not in clause.subject_names]
        name_terms = frozenset().union(*(view_terms(n) for n in other_names))
        held = [(f, view(f)) for f in self._held(tenant, entity, clause)]
        if thing and not any(thing <= v.terms for _f, v in held) and (
                timeless := thing - TIME_TERMS):
            # "my monthly direct debit", "weekend bar shifts": when no fact says the thing
            # at that time, the time is no word of it ("gives £20 a month by direct debit")
            thing = timeless
        lowered = _lowered(clause.text)
        said_in_names = _in_its_names(clause.text)
        # a fact that does not name the thing, only shares its topic, is meant only when no
        # fact names it and it is the one fact of the topic ("Dev's flight to Oslo was
        # cancelled" leaves "has a hotel booking in Oslo")
        by_topic = [f for f, v in held if thing_domains & v.domains]
        topic_stands_in = (thing is not None and len(by_topic) == 1
                           and not any(thing <= v.terms for _f, v in held))
        # "no longer subs on the night shift": when a thing was done is no word in common
        # ("teaches a Monday night class"), unless it is all the clause says ("no longer
        # works nights")
        untimed = TIME_TERMS if (ended_object or said) - TIME_TERMS - {NEGATION_TERM} - (
            verb_terms) else frozenset()
        ended: list[tuple[Fact, bool]] = []
        shares: dict[str, frozenset[str]] = {}
        of_the_verb: set[str] = set()
        verb_word = _german_verb(clause)
        for f, v in held:
            names_it = thing is not None and (
                thing <= v.terms or (bool(called) and called <= v.terms))
            if (thing and not (names_it or (topic_stands_in and f is by_topic[0]))) or (
                    object_names and not object_names & v.terms):
                continue
            head = f.attribute.split(".", 1)[0]
            same_verb = (verb in _verb_lemmas(f.text)
                         or lemma == (lx.inflected_verb(head) or head))
            if same_verb and lemma in lx.CESSATION_VERBS and any(
                    c.ends_prior for c in self.interpreter(f.text).clauses):
                continue  # the same ending told again ("is a retired teacher": is retired)
            same_object = ended_object is not None and (
                _ended_object(f.value, entity) == ended_object if clause.negated
                else all(t in v.terms or nominalises(t, v.terms) or names_an_activity(t, v.terms)
                         or stem(lx.lemma_of(t) or t) in v.terms  # "stopped using": uses
                         for t in ended_object)
                and (gerund is None or gerund in _verb_lemmas(f.text)
                     or stem(gerund) in v.terms))
            # "no longer marshals at the parkrun": the verb's word as the fact's noun ("a
            # course marshal") tells the same act
            same_topic = (f.attribute == clause.attribute or same_verb or other_language
                          or bool(v.domains & (domains | thing_domains) or verb_terms & v.terms)
                          or (names_it and not kin) or same_object)
            shared: set[str] | frozenset[str] = (v.terms - {NEGATION_TERM} - verb_terms
                                                 - untimed) & said
            if stems:
                shared = shared | (stems & german_stems(f.text)) | german_compound_parts(
                    stems, f.text)
                shared = shared - _de_town_of_another_name(
                    clause.text, v.terms | german_stems(f.text))
            # "gave up beekeeping" ends "keeps bees": the activity's name holds both
            shared = shared | {t for t in said if names_an_activity(t, v.terms)}
            if shared & name_terms:
                shared = shared - _inside_other_names(other_names, [
                    n for c in self.interpreter(f.text).clauses for n in c.names
                    if n not in c.subject_names])
            if clause.negated:
                shared = shared & view_terms(str(f.value))
            if stem(head) in modifying:
                # "called time on his sweeping rounds for Beacons Sweeps": the act a gerund
                # before the thing names is the fact's verb ("sweeps chimneys for Beacons
                # Sweeps") when they share another word too; not a verb in another sense
                # ("given up her running club" leaves "runs a bakery", "runs the book club")
                if verb_sense_apart(v) & domains:
                    continue
                same_topic = same_topic or bool(shared - modifying)
            whole = same_object
            if other_language and isinstance(clause.value, str) and re.search(
                    r"[\u3400-\u9fff]", clause.value):
                parts = [p for p in clause.value.split("的") if len(p) >= 2]
                said_of = f.text.replace("了", "")  # 订阅了报纸 names what 订阅报纸 does
                shared = {n for n in [clause.value, *parts] if n in f.text or n in said_of}
                # 杂志订阅 ends 订阅了一本杂志; 狗豆豆 (the dog 豆豆) ends 有一只狗叫豆豆, where the
                # dictionary cuts 狗叫 (a dog's bark): each word is found as written
                words = content_words(clause.value) - _ZH_GOING  # 去公园跑步: 在公园跑步
                if words and all(w in said_of for w in words):
                    shared |= words
                # 腾讯视频的订阅: the fact with every noun of the phrase is the one it ends
                whole = len(parts) > 1 and all(p in f.text or p in said_of for p in parts)
            # "given up archery" and "his Archery GB membership number is …": a word
            # the clause says as a common noun is inside a name of the fact's, or the
            # other way round ("plays for Canterbury Hockey Club" and "umpires hockey
            # matches")
            named_apart = (_in_its_names(f.text) & lowered) | (said_in_names & _lowered(f.text))
            if shared and shared <= named_apart:
                continue
            if specific - untimed and not (shared - named_apart) & specific and not same_object:
                # "no longer needs dialysis at home": a fact that shares only where the
                # ended thing was ("works from home") is another thing; so does one that
                # holds the object's word only inside a name ("stopped the blood runs for
                # North East Blood Bikes" and "takes calls on the Blood Bikes desk")
                continue
            # "given up her weekend warden rounds" ends "patrols the coast path as a
            # volunteer warden": the role said in both names the same activity
            same_topic = same_topic or bool((shared - named_apart) & specific & _ROLE_STEMS)
            if same_topic and shared:
                ended.append((f, whole))
                shares[f.fact_id] = frozenset(t for t in shared if "'" not in t)  # not "i've"
                if same_verb or (verb_word and verb_word in f.text.lower().split()):
                    of_the_verb.add(f.fact_id)
        # "geht nicht mehr zum Agility-Kurs bei Pfotenglück", "no longer goes to Warrington
        # College": a fact that shares only part of what another ended fact shares
        # (``Pfotenglück``, where the course was; the town) is another thing there; not so
        # for a thing that ended ("Tom's dog Rex died": "walks Rex" names it too)
        if thing is None:
            ended = [(f, full) for f, full in ended
                     if not any(shares[f.fact_id] < shares[g.fact_id] for g, _ in ended)]
        if de_thing and len(ended) > 1 and not any(shares[f.fact_id] & de_thing
                                                   for f, _ in ended):
            # "hat die Ausgabe in der Kleiderkammer aufgegeben": facts that share only where
            # the thing was, none of the thing itself, do not say which one ended
            ended = []
        # "quit the pottery course": when some state holds the whole object, one that
        # shares only part of it ("takes a Spanish course") is another thing (an earlier
        # ending, "quit her job", holds it as the thing that ended, not as a state)
        some_whole = any(full and not any(c.ends_prior for c in self.interpreter(f.text).clauses)
                         for f, full in ended)
        # "left Google": a fact where the name stands aside ("owns Google shares", "sells
        # books on Amazon") is another thing, when some fact holds the name itself
        named = [n for n in clause.names if n not in clause.subject_names]
        bare = [(f, full) for f, full in ended if not _name_aside(named, f.text)]
        if object_names and bare:
            ended = bare
        # "no longer plays the piano", "spielt kein Klavier mehr": of the facts holding
        # the object, those of its verb ("teaches piano" is another act), when some has it;
        # not for a verb of ending or of giving away, whose state has a verb of its own
        # ("sold the car" ends "owns a car", never only "sells cars"; "gave her piano to a
        # neighbour" ends "has an old piano", not "gives lifts to her neighbours")
        same = [(f, full) for f, full in ended if f.fact_id in of_the_verb]
        if same and (verb_word or lemma not in lx.CESSATION_VERBS | lx.GIVING_VERBS):
            ended = same
        for f, full in ended:
            if full or not some_whole:
                plan.add(_decay(f.fact_id, tenant, f"ended: {clause.text}"))
        if (topics := _ended_topics(clause)) and not (explains and not _object_words(clause)):
            # (an ending with no object that explains the one before it, after a semicolon
            # or a colon, is how that one ended: "isn't on the team any more; she resigned")
            self._end_topic(tenant, entity, clause, topics, plan)

    def _end_topic(self, tenant: str, entity: str, clause: Clause,
                   topics: frozenset[str], plan: _Plan) -> None:
        """A cessation of a domain as a whole: ``quit her job`` ends the entity's one
        fact of work (with several it is ambiguous and nothing ends); ``retired`` or
        ``resigned``, with no object, ends every fact of the domain its verb belongs to,
        but not one that tells an ending itself (``is a retired nurse``: still true).
        Said of a person of the owner's (``Oscar's father retired``), it ends that person's
        facts of the domain, and none of the owner's."""
        held = [f for f in self._held(tenant, entity, clause) if view(f).domains & topics
                and not any(c.ends_prior for c in self.interpreter(f.text).clauses)]
        if people := _possessed_people(clause):
            held = [f for f in held if self._kept_for(f, frozenset()) in people]
        elif (_possessed(clause) or _object_words(clause)) and len(held) != 1:
            return
        for f in held:
            plan.add(_decay(f.fact_id, tenant, f"ended: {clause.text}"))

    def _replace_frame(self, tenant: str, entity: str, clause: Clause, plan: _Plan) -> None:
        """Release the current facts of ``entity`` that a change of state replaces when no
        rule reads a slot for its predicate: those whose own text reads the same frame,
        verb, preposition and kind of object (``The garage is on Quarry Road now`` ends
        ``Garage is on Mill Lane``; not ``Garage opens on Sundays``, nor ``Mia is in a
        band now`` ``Mia is in Oslo``), and those that hold another amount of the same
        measure of the same thing, whatever the verb (``was upgraded to 128 GB of RAM``
        ends ``has 64 GB of RAM``), and, when a possessed thing moves to a day or a time,
        those that name the thing at another (``Yuki's dentist appointment was moved to
        Thursday`` ends ``has a dentist appointment on Tuesday``). The same value again is
        left to reinforce."""
        verb = _frame_head(clause.attribute)
        frames = _arrival_frames(clause)
        measure = _measure(clause.text)
        # "Yuki's dentist appointment was moved to Thursday", "The hearing in case 2024-017
        # was moved to 19 March": the thing's time changed; "The team offsite moved to 19
        # March": the entity is the thing (not "The bakery is now open on Sundays", a state
        # at a time, which leaves "opens at 7am")
        moved = clause.frame is not None and _frame_lemma(clause.frame) in _MOVES_A_THING
        thing = ({stem(w) for w in _possessed(clause) or _thing_named(clause, entity, whole=moved)}
                 if CALENDAR.search(clause.text) else set())
        held = self._held(tenant, entity, clause)
        for f in held:
            if f.attribute == clause.attribute:
                continue
            old = _measure(f.text) if measure is not None else None
            other_amount = (old is not None and measure is not None
                            and old[1:] == measure[1:] and old[0] != measure[0]
                            and not self._named_apart(f, clause))
            other_time = bool(thing) and thing <= view(f).terms and bool(
                CALENDAR.search(f.text)) and self._timed_alike(clause, f)
            if other_amount or other_time or (_frame_head(f.attribute) == verb and any(
                    c.frame in frames for c in self.interpreter(f.text).clauses)
                    and not self._named_apart(f, clause)):
                plan.add(_decay(f.fact_id, tenant, f"replaced: {clause.text}"))
        self._retime_act(tenant, held, clause, frames, plan)

    def _retime_act(self, tenant: str, held: list[Fact], clause: Clause,
                    frames: set[str | None], plan: _Plan) -> None:
        """An act told anew on a day of the week alone (``Irina Popa now plays chess on
        Fridays``: a frame whose object is a date) replaces the one fact of the same verb
        and object on another day, whatever else it says of it (``plays chess at the club
        on Thursdays``, whose frame is the club's); with several, none ends. A day leaves
        the hours (``The bakery is now open on Sundays`` leaves ``opens at 7am``)."""
        when = time_said(clause.text)
        if (clause.frame is None or not clause.frame.endswith(".date") or when is None
                or not WEEKDAY.search(when)):
            return
        act = clause.frame.split(".", 1)[0]
        moved = []
        for f in held:
            then = time_said(f.text)
            if (f.attribute != clause.attribute and then is not None and then != when
                    and WEEKDAY.search(then) and any(
                        c.frame is not None and c.frame not in frames
                        and c.frame.split(".", 1)[0] == act
                        for c in self.interpreter(f.text).clauses)):
                moved.append(f)
        _replace_the_one(moved, tenant, clause, plan)

    def _replace_work_manner(self, tenant: str, entity: str, clause: Clause,
                             plan: _Plan) -> None:
        """``now works full-time at the library`` replaces ``works part-time at the
        library``: the works predicate's slot ``work.<how>.<where>`` says how one works at
        a place, and one works at a place in one way at a time. A job at another place, or
        at the place with no word of how, stays; with two facts of the place, which one
        changed is not said and none ends."""
        parts = clause.attribute.split(".")
        if "predicate:works" not in clause.rules or len(parts) != 3 or parts[0] != "work":
            return
        _replace_the_one([f for f in self._held(tenant, entity, clause)
                          if (was := f.attribute.split("."))[::2] == parts[::2]
                          and len(was) == 3 and was[1] != parts[1]], tenant, clause, plan)

    def _leave_home(self, tenant: str, entity: str, clause: Clause, plan: _Plan) -> None:
        """Release the entity's own facts that say where it lives by the home it holds at
        another place (:func:`_housed`) when a change says where it lives now (a slot of
        :data:`_RESIDENCE`: ``moved to Oak Street``, ``now lives in a caravan``; a move read
        as another slot, ``moved to the University of Sydney``, is none): ``I rent a flat
        in Glasgow`` says where the user lives as ``lives in Glasgow`` does, and ``I've
        moved to Edinburgh`` ends it. A home held at a time (``every August``) is no home
        lived in."""
        new = view_terms(str(clause.value))
        for f in self._held(tenant, entity, clause):
            if time_said(f.text) is None and not new <= view(f).terms and any(
                    _housed(c) for c in self.interpreter(f.text).clauses):
                plan.add(_decay(f.fact_id, tenant, f"replaced: {clause.text}"))

    def _timed_alike(self, clause: Clause, fact: Fact) -> bool:
        """Whether a possessed thing's new time (``clause``) can be the time ``fact`` gives
        it: the clause moves the thing or says when it is (``was moved to Thursday``,
        ``is now on Thursday``), or the fact states it with a light verb or the clause's
        own verb (``has a dentist appointment on Tuesday``). ``The restaurant now opens at
        noon`` leaves ``closes on Mondays``: another act of the thing, at its own time."""
        if clause.frame is None or _frame_lemma(clause.frame) in _MOVES_A_THING:
            return True
        return any(c.frame is not None and _frame_lemma(c.frame) in {
            _frame_lemma(clause.frame), "have", "be"} for c in self.interpreter(fact.text).clauses)

    def _replace_thing_state(self, tenant: str, entity: str, clause: Clause, plan: _Plan
                             ) -> None:
        """A possessed thing's new state told as a change, of a verb whose object no frame
        reads (``Sam's laptop now runs Ubuntu``, ``Ana's boiler is now serviced every
        March``), replaces the one fact of the same thing and verb whose object is of the
        same kind, a name or a time, and another (``Sam's laptop runs Fedora``). A thing
        is no person (a relative's acts are theirs); with several such facts, which is
        meant is not said, and nothing ends."""
        owned = _possessed(clause)
        kind = _object_kind(clause)
        if (clause.frame is not None or kind is None or not owned
                or _possessed_people(clause) or _named_possessed(clause)):
            return
        verb = _main_verb(clause)
        held = [f for f in self._held(tenant, entity, clause) if f.attribute != clause.attribute
                and any(_possessed(c) == owned and _main_verb(c) == verb
                        and _object_kind(c) == kind for c in self.interpreter(f.text).clauses)]
        _replace_the_one(held, tenant, clause, plan)

    def _replace_verb_object(self, tenant: str, entity: str, clause: Clause, plan: _Plan
                             ) -> None:
        """What the entity itself does told anew with ``now``, of a verb whose object no
        slot reads (``The web server now runs Caddy``, ``Tess Moy now sees Dr Shah for her
        back``), replaces the entity's one fact of the same verb with another object of
        the same kind, a time or not (``runs Apache``, ``sees Dr Grant``): a name is one
        choice among others of its kind (:func:`_named_object`). With several facts of the
        verb, which is meant is not said, and nothing ends; ``also`` adds
        (:data:`ADDS_RULE`)."""
        if (clause.confident or clause.op != "assert" or not _says_now(clause)
                or ADDS_RULE in clause.rules or not _named_object(clause)):
            return
        verb = _main_verb(clause)
        if verb is None:
            return
        timed = _object_kind(clause) == "time"
        held = [f for f in self._held(tenant, entity, clause)
                if f.attribute != clause.attribute and f.value != clause.value
                and any(_named_object(c) and _main_verb(c) == verb and not c.confident
                        and (_object_kind(c) == "time") == timed
                        for c in self.interpreter(f.text).clauses)]
        _replace_the_one(held, tenant, clause, plan)

    def _replace_role(self, tenant: str, entity: str, clause: Clause, plan: _Plan) -> None:
        """A new role (``is now a senior analyst``, ``was promoted to inspector``) replaces
        the entity's one fact that gives its role in another slot: with where it is held
        (``is a junior analyst at KPMG``, an employer's fact) or as what the entity is
        (``is a sergeant in the Met``: a person noun after the copula), or in a slot of the
        role's own (``job title is Staff Nurse``: ``work.role.job``). The role's slot
        itself the supersession ends; with several such facts, none ends."""
        if clause.attribute != ROLE or clause.op != "supersede":
            return
        held = [f for f in self._held(tenant, entity, clause)
                if f.attribute != ROLE and (f.attribute.startswith(f"{ROLE}.") or any(
                    _states_a_role(c) for c in self.interpreter(f.text).clauses))]
        _replace_the_one(held, tenant, clause, plan)

    def _replace_shared_addition(self, tenant: str, entity: str, clause: Clause,
                                 plan: _Plan) -> None:
        """``Ben Cole lives in Cork too``, said of the city a person of his holds (``Ben
        Cole's uncle lives in Cork``; or a person's, of the owner's: ``Ron Page's son lives
        in Kendal too``), kept Cork in a slot of its own (:data:`ADDS_RULE`:
        an addition sits beside the value its slot holds). When the slot itself holds
        nothing, the addition said "as they do", not "besides": it is the slot's value,
        and a change of the slot (``moved to Dublin``, ``now works at the hospital``)
        replaces it. An addition no one else holds may be beside a value never told
        (``also works at a café on weekends``): it stays."""
        slot = clause.attribute
        if ADDS_RULE in clause.rules or not slot:
            return
        facts = self._entity_facts(tenant, entity)
        if any(f.attribute == slot and not f.negated for f in facts):
            return
        # the same slot of another person of the entity's, or of the owner for a
        # person's slot ("Ron Page's son lives in Kendal too": Ron does)
        tail = slot.split(".", 2)[2] if slot.startswith("prop.") and slot.count(".") > 1 else slot
        others = {_without_additive(str(f.value)) for f in facts
                  if (f.attribute == tail or f.attribute.endswith(f".{tail}"))
                  and f.attribute != slot and not f.attribute.startswith(f"{slot}.")
                  and not f.negated}
        added = [f for f in self._held(tenant, entity, clause)
                 if f.attribute.startswith(f"{slot}.")
                 and _without_additive(str(f.value)) in others
                 and any(ADDS_RULE in c.rules and c.attribute == f.attribute
                         for c in self.interpreter(f.text).clauses)]
        _replace_the_one(added, tenant, clause, plan)

    def _replace_office(self, tenant: str, entity: str, clause: Clause, plan: _Plan
                        ) -> None:
        """An office told with ``now`` (``is now chair of the tennis club``) replaces the
        entity's one fact giving another office of the same organisation (``is treasurer
        of the tennis club``); an office elsewhere (``is treasurer of the golf club``) and
        a place among many (``is a member of the tennis club``, :func:`_office_of`)
        stay. With two offices there, which one ends is not said, and none does."""
        office = _office_of(clause)
        if office is None or not _says_now(clause) or ADDS_RULE in clause.rules:
            return
        held = [f for f in self._held(tenant, entity, clause)
                if f.attribute != clause.attribute and any(
                    (other := _office_of(c)) is not None and other[1] == office[1]
                    and other[0] != office[0] for c in self.interpreter(f.text).clauses)]
        _replace_the_one(held, tenant, clause, plan)

    def _retire_completed(self, tenant: str, entity: str, clause: Clause, plan: _Plan
                          ) -> None:
        """An activity brought to its end (``finished Dune``, ``has completed her first aid
        course``, ``finished renovating his kitchen``) ends the entity's facts that tell it
        in progress (:func:`_in_progress`) and share a word with what was completed
        (``is reading Dune``). A habit told in the present (``swims every morning``) is no
        activity in progress: ``finished her swim`` leaves it. Every word of what was
        completed must be the fact's: ``finished the VITAL trial`` leaves ``is on the
        ZETA trial``, which shares only the head. With several such facts (``finished
        the trial`` beside two), which one ended is not said, and none ends."""
        done = _completed(clause)
        if not done:
            return
        done -= entity_terms(entity)
        held = [f for f in self._held(tenant, entity, clause)
                if (going := _in_progress(f.text)) is not None and going & done
                and done <= view(f).terms | view(f).parts]
        if len(held) == 1:
            plan.add(_decay(held[0].fact_id, tenant, f"completed: {clause.text}"))

    def _replace_count(self, tenant: str, entity: str, clause: Clause, plan: _Plan) -> None:
        """A change of a count (``now has three cats``) whose slot names the count
        (``pet.three.cats``) replaces the entity's fact of the same slot with another
        count (``pet.two.cats``): the count is the value, not which thing it is."""
        slot = _without_count(clause.attribute)
        if slot == clause.attribute:
            return
        for f in self._held(tenant, entity, clause):
            if f.attribute != clause.attribute and _without_count(f.attribute) == slot and (
                    not self._named_apart(f, clause)):
                plan.add(_decay(f.fact_id, tenant, f"replaced: {clause.text}"))

    def _named_apart(self, fact: Fact, clause: Clause) -> bool:
        """Does ``fact`` give other names than ``clause`` beside an object that is no name
        (:func:`_names_apart`): another thing of the same frame or count?"""
        return any(_names_apart(c, clause) for c in self.interpreter(fact.text).clauses)

    def _replace_label(self, tenant: str, entity: str, clause: Clause, plan: _Plan) -> None:
        """A change to a labelled thing (``has moved to room C4``) replaces the entity's one
        fact that holds the same kind of thing under another label (``classroom is room
        B12``): the label is the value, the noun before it the slot. With several such
        facts (a classroom and an office, both rooms), which is meant is not said: none ends."""
        said = _labelled(clause.value)
        if said is None:
            return
        held = [f for f in self._held(tenant, entity, clause) if f.attribute != clause.attribute
                and (old := _labelled(f.value)) is not None and old[0] == said[0]]
        if len(held) == 1 and _labelled(held[0].value) != said:
            plan.add(_decay(held[0].fact_id, tenant, f"replaced: {clause.text}"))

    def _replace_named_kind(self, tenant: str, entity: str, clause: Clause, plan: _Plan
                            ) -> None:
        """A change to a named kind of thing (``downgraded to the Pro plan``, ``transferred
        to the Gothenburg office``) replaces the entity's one fact that holds the same kind
        under another name (``is on the Enterprise plan``, ``works in the Stockholm
        office``): the name is the value, the noun after it the slot, as in
        :meth:`_replace_label`. With several such facts, none ends."""
        said = _NAMED_KIND_TO.search(clause.text)
        if said is None:
            return
        noun, name = said.group(2), said.group(1).split()
        held = [f for f in self._held(tenant, entity, clause) if f.attribute != clause.attribute
                and any(m.group(2) == noun and m.group(1).split() != name
                        for m in _NAMED_KIND.finditer(f.text))]
        _replace_the_one(held, tenant, clause, plan)

    def _replace_modified_kind(self, tenant: str, entity: str, clause: Clause, plan: _Plan
                               ) -> None:
        """A change to another kind of a thing named by a word before its noun (``switched
        to day shifts``, ``changed to decaf coffee``) replaces the entity's one fact that
        holds the same noun after another word (``works night shifts``): the word is the
        value, the noun the slot, as in :meth:`_replace_named_kind`. With several such
        facts, which is meant is not said: none ends."""
        said = _MODIFIED_KIND_TO.search(clause.text)
        if said is None or not lx.CHANGE_VERBS & _verb_lemmas(clause.text[:said.start()]):
            return
        kind, noun = said.group(1).lower(), said.group(2).lower()
        held = [f for f in self._held(tenant, entity, clause) if f.attribute != clause.attribute
                and any(m.group(2) == noun and m.group(1) != kind
                        and lx.inflected_verb(m.group(1)) in (None, m.group(1))  # "studies law"
                        for m in _MODIFIED_KIND.finditer(f.text))]
        _replace_the_one(held, tenant, clause, plan)

    def _replace_amount(self, tenant: str, entity: str, clause: Clause, plan: _Plan) -> None:
        """A possessed thing's new amount (``Dev's citalopram dose was raised to 20 mg``,
        with or without how often: ``to 1000 mg twice daily``) whose slot the entity does
        not hold yet replaces the one fact that holds another amount, in the same unit,
        of a thing the possessive names (``takes 10 mg of citalopram``, or as a
        prescription writes it, ``takes citalopram 10 mg``; never ``takes 5 mg of
        melatonin``), or, for a sum of money, another sum in the same currency in a fact
        that names the thing (``rent went up to £1,300`` ends ``pays £1,200 a month in
        rent``); with several, which one is meant is not said, and nothing ends."""
        value = str(clause.value).strip().casefold()
        amount = re.match(r"(\d[\d.,]*)\s*([^\W\d_]+)\b", value)
        money = _MONEY.match(value)
        facts = self._held(tenant, entity, clause)
        if (amount is None and money is None) or any(
                f.attribute == clause.attribute for f in facts):
            return
        things = {stem(w) for w in _possessed(clause)}
        held: list[Fact] = []
        if money is not None:  # "rent went up to £1,300": "pays £1,200 a month in rent"
            held = [f for f in facts if things <= view(f).terms and any(
                m.group(1) == money.group(1) and m.group(2) != money.group(2)
                for m in _MONEY.finditer(f.text.casefold()))]
        elif amount is not None:
            held = [f for f in facts if any(
                unit == amount.group(2) and thing in things and number != amount.group(1)
                for number, unit, thing in _amounts(f.text))]
        _replace_the_one(held, tenant, clause, plan)

    def _replace_thing_time(self, tenant: str, entity: str, clause: Clause,
                            plan: _Plan) -> None:
        """A possessed thing whose time a verb sets anew (``Eli Kahn's visa was extended to
        March 2028``, ``… lease was renewed until June``: :data:`lexicon.TIME_SHIFT_VERBS`)
        replaces the one fact of the entity's that names the thing and gives it another
        time, whatever its verb (``Eli Kahn's visa expires in March 2027``): the thing's
        time is what changed. A relative's thing is theirs; with several such facts,
        which is meant is not said, and none ends."""
        owned = _possessed(clause)
        if (not owned or not clause.mention or not clause.text.startswith(clause.mention)
                or _possessed_people(clause) or _named_possessed(clause)):
            return
        said = clause.text[len(clause.mention):].split()
        at = next((i for i, w in enumerate(said)
                   if lx.inflected_verb(w.strip(EDGE).lower()) in lx.TIME_SHIFT_VERBS), None)
        when = None if at is None else time_said(" ".join(said[at + 1:]))
        if when is None:
            return
        things = {stem(w) for w in owned}
        _replace_the_one([f for f in self._held(tenant, entity, clause)
                          if f.attribute != clause.attribute and things <= view(f).terms
                          and time_said(f.text) not in (None, when)], tenant, clause, plan)

    def _retract_contradicted(self, tenant: str, entity: str, clause: Clause,
                              plan: _Plan) -> bool:
        """Release the current facts a negated clause contradicts: the same slot, read
        confidently, with the same value (``Mia does not live in Oslo`` ends ``home.city
        = Oslo``, never ``home.city = Bergen``, nor any fact that only shares a word), or
        a slot that no rule reads, named by the same words (``Hugo is not diabetic`` ends
        ``Hugo is diabetic``). Returns whether anything was released."""
        said = str(clause.value).strip().casefold()
        retracted = False
        for f in self._entity_facts(tenant, entity):
            if f.entity == entity and f.attribute == clause.attribute and not f.negated \
                    and isinstance(f.value, str) and (
                        not clause.confident or f.value.strip().casefold() == said):
                plan.add(_decay(f.fact_id, tenant, f"contradicted: {clause.text}"))
                retracted = True
        return retracted

    def _retract_corrected(self, tenant: str, entity: str, clause: Clause,
                           plan: _Plan) -> None:
        """Release the current facts a correction names as wrong (``lives in Leeds, not
        York`` ends ``lives in York``): of the same slot, verb or possessed thing, with
        every word the correction denies in their value (never ``supports York City``, nor
        ``Omar's locker is 21`` for ``flat number is 12, not 21``)."""
        denied = view_terms(clause.corrects or "") - entity_terms(entity)
        head = _frame_head(clause.attribute)
        if not denied:
            return
        for f in self._held(tenant, entity, clause):
            related = f.attribute == clause.attribute or _frame_head(f.attribute) == head
            if related and denied <= view_terms(str(f.value)):
                plan.add(_decay(f.fact_id, tenant, f"corrected: {clause.text}"))

    def _retire_switched(self, tenant: str, entity: str, clause: Clause, left: frozenset[str],
                         plan: _Plan, *, verb: str | None = None) -> None:
        """Release the current facts whose object is exactly what a change went ``from``
        (``switched from law to medicine`` ends ``is studying law at Leeds`` and ``moved
        from Leeds to York`` ends ``lives in Leeds``; never ``supports Leeds United``,
        whose object is more than Leeds). A switch between alternatives, not a move
        between places, also ends a fact whose thing is of the kind it left: that name and
        one common noun after it (``switched from Android to an iPhone`` ends ``uses an
        Android phone``; nothing ends ``supports the Leeds rugby team``), and so does a fact
        whose act was done with it (``shoots weddings with a Canon R5``). Only a proper
        name marks a kind: a common noun before another makes a compound whose head may
        be anything (``switched from law to medicine`` leaves ``reads law reports``, as
        leaving coffee leaves a coffee machine). With ``verb`` (what an ``instead of`` or a
        ``rather than`` replaced), only a fact of that verb ends: ``takes apixaban instead
        of warfarin`` ends ``takes warfarin daily``, never ``is allergic to warfarin``. A
        thing given in exchange (``traded her Ford Focus for a Kia``) takes what is said of
        it along (``Beth's Ford Focus is red``)."""
        between_places = verb is None and bool(
            _verb_lemmas(clause.text[:clause.text.lower().find(" from ")]) & lx.MOTION_VERBS)
        given = bool(_given_for(clause))
        moved = _moved_thing(clause) - entity_terms(entity) if between_places else frozenset()
        for f in self._held(tenant, entity, clause):
            if f.attribute == clause.attribute or (verb is not None and verb not in {
                    _main_verb(c) for c in self.interpreter(f.text).clauses}):
                continue
            thing = _thing_words(f.value)
            means = [] if between_places else _instrument_words(f.value)
            named = [] if between_places else [thing, means]
            kind = any(len(w) >= 2 and w[-1].islower() and all(x[:1].isupper() for x in w[:-1])
                       and view_terms(" ".join(w[:-1])) - entity_terms(entity) == left
                       for w in named)
            # "traded her Ford Focus for a Kia": what is said of the Focus goes with it
            owned = given and any(view_terms(" ".join(_possessed(c))) - entity_terms(entity)
                                  == left for c in self.interpreter(f.text).clauses)
            short = any(_name_ends_in(w, left) for w in named)
            # "moved Tansy from Castle Vets to …": what Tansy was taken to
            carried = bool(moved) and moved | left <= view_terms(str(f.value))
            # "teaches … in a church hall rather than from her Morningside flat": the same
            # act, done elsewhere than a place of two words or more the fact names
            elsewhere = verb is not None and len(left) >= 2 and left <= view_terms(str(f.value))
            if kind or owned or short or carried or elsewhere or left in (
                    view_terms(str(f.value)), _object_terms(f.value, entity),
                    view_terms(" ".join(thing)) - entity_terms(entity),
                    _act_object(f.value, entity),
                    (view_terms(" ".join(means)) - entity_terms(entity)) or None):
                plan.add(_decay(f.fact_id, tenant, f"switched: {clause.text}"))

    def _retire_reversed(self, tenant: str, entity: str, clause: Clause, plan: _Plan) -> None:
        """Release the entity's preferences that put what ``clause`` prefers below another
        thing (``prefers e-mail over phone calls``, when ``prefers phone calls`` comes):
        both cannot hold. Only the very thing counts (``calls`` alone ends nothing)."""
        wanted = view_terms(str(clause.value)) - entity_terms(entity)
        for f in self._held(tenant, entity, clause) if wanted else []:
            for c in self.interpreter(f.text).clauses:
                said = str(c.value)
                at = c.text.lower().find(said.lower())
                below = _BELOW.match(c.text[at + len(said):]) if at >= 0 and said else None
                if ("predicate:prefers" in c.rules and below is not None
                        and view_terms(below.group(1)) - entity_terms(entity) == wanted):
                    plan.add(_decay(f.fact_id, tenant, f"reversed: {clause.text}"))

    def _retire_preferred_alike(self, tenant: str, entity: str, clause: Clause,
                                plan: _Plan) -> None:
        """Release the entity's preferences of another thing of the same kind when a new one
        is said to hold now (``prefers coffee now`` ends ``prefers tea``: both drinks); a
        preference of another kind stays (``prefers aisle seats``), and so does every one
        when the new thing's kind is not known (``now prefers Vim``)."""
        kinds = set(domains_in(keywords(str(clause.value).split(), 3)))
        if not kinds:
            return
        for f in self._held(tenant, entity, clause):
            if f.attribute == clause.attribute or not f.attribute.startswith("pref."):
                continue
            said = [c for c in self.interpreter(f.text).clauses
                    if "predicate:prefers" in c.rules and not c.negated]
            if said and all(set(domains_in(keywords(str(c.value).split(), 3))) & kinds
                            for c in said):
                plan.add(_decay(f.fact_id, tenant, f"preferred instead: {clause.text}"))

    def _retire_provider(self, tenant: str, entity: str, clause: Clause, modifier: str,
                         provider: str, plan: _Plan) -> None:
        """Release the one current fact naming the thing a switch moved to a new provider
        (``switched her bank account to Monzo`` ends ``banks with Barclays``): the fact's
        words hold the thing's distinctive word and a proper name other than the new one,
        after its verb or as a slot's whole value (``is headquartered in Austin`` for
        ``moved its headquarters to Denver``). With two such facts which one moved is not
        said, and nothing ends; nor when a fact of the thing names the new one already
        (``moved his trip to Rome to July``, beside ``has a trip to Rome``: that trip is
        the one spoken of); a fact of the thing whose object is no name (``goes to the
        gym at 7am``) is no provider's."""
        held = [f for f in self._held(tenant, entity, clause)
                if f.attribute != clause.attribute and modifier in view(f).terms]
        if any(provider in view(f).terms for f in held):
            return
        found = [f for f in held if _proper_words(str(f.value)) or _named_value(f)]
        if len(found) == 1:
            plan.add(_decay(found[0].fact_id, tenant, f"switched: {clause.text}"))

    def _end_denials(self, tenant: str, entity: str, clause: Clause, facts: list[Fact],
                     plan: _Plan) -> bool:
        """Release the current denials a positive clause reverses: ``bought a car last
        week`` ends ``does not own a car``, ``drinks coffee every morning now`` ends ``never
        drinks coffee``. The denial holds the same slot, or shares the clause's topic or
        verb, and every word it denies besides its verbs is in the clause. ``facts``: the
        entity's current facts, which the caller reads only for a clause that marks a
        change or a time (:func:`_marks_change`): the read makes a plain ``remember`` wait
        for the previous write's projection (1.0 -> 2.9 ms p50 at 100k facts when every
        clause read it). Returns whether a denial of the clause's own slot was reversed."""
        said = view_terms(clause.text) - entity_terms(entity)
        verb = clause.attribute.split(".", 1)[0]
        own_slot = False
        for f in facts:
            if f.entity != entity or not f.negated:
                continue
            v = view(f)
            head = f.attribute.split(".", 1)[0]
            denied = {t for t in view_terms(f.text) - entity_terms(entity) - {NEGATION_TERM}
                      if t not in _NEGATOR_TERMS and not t.endswith(lx.NEGATED_CONTRACTIONS)
                      and lx.inflected_verb(t) is None}  # "doesn't": a negator too
            related = (f.attribute == clause.attribute or head == verb
                       or bool(v.domains & set(clause.domains)))
            if related and denied and denied <= said:
                plan.add(_decay(f.fact_id, tenant, f"reversed: {clause.text}"))
                own_slot = own_slot or f.attribute == clause.attribute
        return own_slot

    @staticmethod
    def _options(kw: WriteOptions) -> WriteOptions:
        unknown = set(kw) - WRITE_OPTIONS
        if unknown:
            raise InvalidInput(f"unknown option(s): {', '.join(sorted(unknown))}")
        return kw

    def _said_of_kin(self, clause: Clause, before: Clause | None) -> Clause:
        """``clause`` read again of the person a pronoun points back to when the clause
        before it spoke of a person of someone's by a noun of the pronoun's gender (``Mark
        Hale's wife left BP. She now works at Equinor``: the wife now works there, and her
        fact is kept as hers, under his id). Any other clause as it is."""
        pronoun = (clause.mention or "").lower()
        if (clause.refers_back != "" or before is None or not before.mention
                or pronoun not in lx.KIN_BY_PRONOUN
                or not clause.text.lower().startswith(pronoun + " ")):
            return clause
        people = _possessed_people(before)
        if not people or people[-1] not in lx.KIN_BY_PRONOUN[pronoun]:
            return clause
        said = before.mention + clause.text[len(pronoun):]
        return next(iter(self.interpreter(said).clauses), clause)

    def _resolve(self, tenant: str, clause: Clause, plan: _Plan, fallback: str | None = None,
                 pronoun_of: str | None = None) -> tuple[str | None, Extra]:
        """The clause's entity: its own; for ``the same <role>`` or a pronoun, the one it
        points back to (``pronoun_of``, whom the same text spoke of last, before the
        tenant's most recent: ``Priya lives in York. She works at Acme``); else
        ``fallback``. Names it registers as aliases go in the plan."""
        entity = clause.entity
        extra: Extra = {}
        if clause.refers_back == "" and pronoun_of is not None:
            entity = pronoun_of
            extra["antecedent"] = pronoun_of
        elif clause.refers_back is not None:
            antecedent = self._antecedent(tenant, clause.refers_back)
            if antecedent is not None:
                entity = antecedent
                extra["antecedent"] = antecedent
        elif entity is None and fallback is not None:
            entity = fallback
            extra["subject_from_context"] = fallback
        elif entity is not None and (known := self._person_by_alias(tenant, clause, entity)):
            entity = known
            extra["alias_of"] = known
        if entity is not None:
            surfaces = list(clause.subject_names)
            if clause.refers_back is not None:
                surfaces += [i.surface for i in clause.identifiers]
            self._aliases(tenant, entity, surfaces, plan)
        return entity, extra

    def _person_by_alias(self, tenant: str, clause: Clause, entity: str) -> str | None:
        """The one known person another name of the clause's subject already names, when
        the clause's own id holds nothing: after ``Дмитрий Соколов (Dmitry Sokolov) works at
        Yandex``, ``Dmitry Sokolov plays chess`` is his fact, not a new person's (and so in
        the other order), so forgetting him by any of his names forgets both. None when
        the names reach no one or several people."""
        if not entity.startswith("person:") or self._entity_facts(tenant, entity):
            return None
        known = {f.entity for name in clause.subject_names
                 for key in (name, entity_id("person", name))
                 for f in self._entity_facts(tenant, key)
                 if f.entity is not None and f.entity != entity and f.entity.startswith("person:")}
        return known.pop() if len(known) == 1 else None

    def _aliases(self, tenant: str, entity: str, surfaces: Sequence[str], plan: _Plan) -> None:
        """Register surfaces that name ``entity`` but cannot be derived from its id, and
        the transliteration keys of names written in another script (so a Latin spelling
        finds the entity through the store's alias index)."""
        derived = entity_keys(entity)
        wanted: list[str] = []
        for surface in dict.fromkeys(s.strip() for s in surfaces):
            if not surface or len(surface) > 512 or ":" in surface:
                continue
            keys = name_keys(surface)
            wanted += sorted(k for k in keys if k.startswith("~") and len(k) <= 512)
            if keys <= derived:
                continue
            wanted.append(surface)
            # "Yamada Tarō" is looked up as written: its folded form names him too
            wanted += sorted(k for k in keys if k[:1].isalpha() and " " in k
                             and k != surface.casefold() and len(k) <= 512)
        for surface in dict.fromkeys(wanted):
            if self._entity_facts(tenant, surface) or _is_alias(self.store, tenant, surface):
                continue  # already names an entity (this one, or another: never re-pointed)
            plan.add(_alias(tenant, surface, entity), report=False)

    def _write(self, plan: _Plan, tenant: str, clause: Clause, entity: str | None,
               origin: str, extra: Mapping[str, object], options: WriteOptions, *,
               supersede: bool, text: str | None = None, attribute: str | None = None,
               reason: str | None = None) -> None:
        record = {**clause.interpretation(origin), **extra}
        attribute = attribute or clause.attribute
        if attribute != clause.attribute:
            record["slot_from_context"] = attribute
        body = text if text is not None else clause.text
        value, negated = clause.value, clause.negated
        if entity is None:
            mention = (clause.mention or body)[:512]
            plan.add(lambda w: w.assert_fact(tenant, None, attribute, value, text=body,
                                             mention=mention, interpretation=record,
                                             negated=negated, **options))
        elif supersede and not negated:
            plan.add(lambda w: w.supersede(tenant, entity, attribute, value, text=body,
                                           reason=reason, interpretation=record, **options))
        else:  # a denial never supersedes its slot: asserted, it ends its own value only
            plan.add(lambda w: w.assert_fact(tenant, entity, attribute, value, text=body,
                                             interpretation=record, negated=negated,
                                             **options))

    # --- targeting --------------------------------------------------------------------------

    def match(self, tenant: str, query: str, *, purpose: str = "release") -> list[Target]:
        """The facts an operation with this query would act on (a dry run)."""
        _check_size("query", query, MAX_QUERY)
        sel = (self._purge_selection(tenant, query) if purpose == "purge"
               else self._select(tenant, query, self._candidates(tenant, query), purpose))
        return [_target(m) for m in sel.matches]

    def _select(self, tenant: str, text: str, views: list[FactView], purpose: str
                ) -> _Selection:
        """:meth:`_select_by_tier`; then, unless a purge or a whole entity, a query that
        asks for a former thing (``my former employer``) keeps only the facts that state
        the past or hold the word themselves (``old radios``): the present one is exactly
        what it does not mean. The request around the ask is set aside first (``Could
        you forget …?``, ``no need to remember …``: :mod:`memory_es.text.requests`)."""
        text = without_request(text)
        if purpose != "purge" and (exception := _EXCEPTION.search(text)) is not None:
            return self._except(tenant, self._select(tenant, text[:exception.start()], views,
                                                     purpose), exception.group("kept"))
        sel = self._select_by_tier(tenant, text, views, purpose)
        if purpose == "purge" or sel.whole or not sel.matches:
            return sel
        if not sel.entities and (owner := _the_person_meant(text, sel.matches)):
            # "her weekday shifts at the laundrette": the one person of every match, whose
            # own facts they are (a relative's kept under her id is the relative's)
            sel = replace(sel, entities=owner,
                          matches=self._own_acts(sel.matches, analyse_query(text)))
            if not sel.matches:
                return replace(sel, tier="none", note="no match: every fact it matches is of "
                                                      "someone the person has")
        if sel.tier == "lexical" and (
                others := [m for m in sel.matches if self._another_object(text, m.fact)]):
            kept = [m for m in sel.matches if m not in others]
            if not kept:
                return replace(sel, matches=[], tier="none", candidates=others,
                               note="no match: the query states another object of the "
                                    "verb its facts share")
            sel = replace(sel, matches=kept)
        if len(sel.matches) > 1 and len(kinds := _kinds_unsaid(text, sel.matches)) > 1:
            return replace(sel, matches=[], tier="none", candidates=sel.matches,
                           note="no match: the query does not say which "
                                f"{' or '.join(sorted(kinds))} it means")
        if sel.matches and _one_owner(text):
            if not (own := _own_things(text, sel.matches)):
                return replace(sel, matches=[], tier="none", candidates=sel.matches,
                               note="no match: the thing named is someone else's in every "
                                    "fact that holds it")
            sel = replace(sel, matches=own)
        if len(sel.matches) > 1 and sel.tier == "lexical" and (
                in_topic := _in_topic_named(text, sel.matches)):
            sel = replace(sel, matches=in_topic)
        if len(sel.matches) > 1 and sel.tier == "lexical" and (
                together := _said_together(text, sel.matches,
                                           query_terms_naming(sel.entities))):
            sel = replace(sel, matches=together)
        if len(sel.matches) > 1 and sel.tier == "lexical":
            if not (beyond := _beyond_a_time(text, sel)):
                return replace(sel, matches=[], tier="none", candidates=sel.matches,
                               note="no match: the facts it matches share only a day or a "
                                    "time of day with it, which does not say which is meant")
            sel = replace(sel, matches=beyond)  # a fact that shares only that is another
        # (a revise's new text says which of them it replaces: about_the_new_text)
        if len(sel.matches) > 1 and sel.tier == "lexical" and purpose != "revise" and len(
                _THINGS.split(text)) == 1 and (head := _head_unheld(text, sel.matches)):
            return replace(sel, matches=[], tier="none", candidates=sel.matches,
                           note=f"no match: no fact holds the {head} the query names, and "
                                "the words they share with it do not say which is meant")
        return self._each_thing(tenant, text, views, purpose, _past_only(sel, text))

    def _another_object(self, text: str, fact: Fact) -> bool:
        """Does a query stated as a clause of a named subject (``Ines cycles to work``) say
        another verb than the fact's (``Ines drives to work``: another act, whatever else
        they share), or the fact's verb of another object than the fact's (``Kai plays
        the piano``, ``Kai plays chess online``; ``teaches pilates``, ``teaches yoga``:
        objects of one topic are two things of it)? Objects that share a word are left to
        the rules of kinds (``plays the violin``), as is a query's object that names the
        topic as a whole (``plays an instrument``). A query that is a noun phrase
        (``Hana's Toyota shares``) or a keyword list (``user pets cats``) reads as no
        clause of a named subject, so its first word is no verb here."""
        asked = self.interpreter(text.removeprefix("that ")).clauses
        said = self.interpreter(fact.text).clauses
        if len(asked) != 1 or len(said) != 1 or asked[0].negated or said[0].negated:
            return False
        q, f = asked[0], said[0]
        acts = {_main_verb(q), _main_verb(f)}
        if len(acts) == 2 and None not in acts and _a_named_subjects_clause(q, text):
            return True
        if "predicate:generic" not in q.rules:
            return False
        verb = q.attribute.split(".", 1)[0]
        if verb != f.attribute.split(".", 1)[0]:
            return False
        q_words, f_words = _verb_object(q), _verb_object(f)
        q_obj, f_obj = view_terms(" ".join(q_words)), view_terms(" ".join(f_words))
        shared = set(domains_in(q_words)) & set(domains_in(f_words))
        return bool(q_obj and f_obj) and not (q_obj & f_obj) and not any(
            lx.names_topic(w, d) for w in q_words for d in shared)

    def _own_acts(self, found: list[Match], query: Query) -> list[Match]:
        """Of a named entity's facts that match the rest of a query, those that are its
        own: a fact of a person the entity has that the query does not ask for (``Ana's
        husband works at Meta``, :meth:`_theirs`) is that person's, even when no fact of
        the entity's matches (``Farah's Tesco shares`` beside ``Farah's husband holds Tesco
        shares``); a fact where someone the entity has acts (``Omar's wife has a credit
        score of 780``, :func:`_acts`) stands aside when a fact of the entity's own also
        matches (``Omar's credit score is 720``), unless the query names that someone
        (``Mei Tan's husband``: what her husband does is what it asks for)."""
        asked = frozenset(query.terms)
        found = [m for m in found if not self._theirs(m.fact, asked)]
        if len(found) < 2:
            return found
        own = [m for m in found if not any(
            _acts(c) and "predicate:possessive-noun" not in c.rules  # "X's salary is …"
            and not {stem(w) for w in _possessed(c)} <= asked
            for c in self.interpreter(m.fact.text).clauses)]
        return own or found

    def _except(self, tenant: str, sel: _Selection, kept: str) -> _Selection:
        """``everything about Priya except her allergy``, ``… apart from the cello``: the
        selection without the facts the exception names (a word or a topic in common: an
        exception errs on keeping). A whole entity then ends fact by fact."""
        words = [w.lower() for w in re.findall(r"[^\W\d_]+", kept)]
        terms = view_terms(kept) - {t for e in sel.entities for t in entity_terms(e)}
        topics = set(domains_in(words))

        def excepted(f: Fact) -> bool:
            v = view(f)
            return bool(v.terms & terms or v.domains & topics)

        if sel.whole:
            own = [Match(f, "entity", 1.0, "")
                   for e in sel.entities for f in self._entity_facts(tenant, e)
                   if f.entity == e]
            rest = [m for m in sel.matches if m.by == "mention"]
            return replace(sel, matches=[m for m in own if not excepted(m.fact)] + rest,
                           whole=False, note=f"except {kept}")
        return replace(sel, matches=[m for m in sel.matches if not excepted(m.fact)])

    def _each_thing(self, tenant: str, text: str, views: list[FactView], purpose: str,
                    sel: _Selection) -> _Selection:
        """``Priya's cello and her latex allergy``: a query that names an entity and then
        several things, each a noun phrase, selects what each thing selects on its own
        (with the entity's name); unless every thing selects something, the query as a
        whole decides."""
        parts = [p for p in _THINGS.split(text) if p.strip()]
        if len(parts) < 2 or not sel.entities or any(
                any(agrees(t.word, False) for t in tokenize(p)) for p in parts[1:]):
            return sel
        lead = " ".join(sorted(set(sel.entities.values())))
        found: dict[str, Match] = {}
        for n, part in enumerate(parts):
            one = self._select_by_tier(tenant, part if n == 0 else f"{lead} {part}", views,
                                       purpose)
            if one.whole or not one.matches:
                return sel
            found.update((m.fact.fact_id, m) for m in one.matches)
        return replace(sel, matches=list(found.values()))

    def _select_by_tier(self, tenant: str, text: str, views: list[FactView], purpose: str
                        ) -> _Selection:
        """What a query specifically names, in order: facts carrying an identifier it
        names; entities it names as a whole; facts of a named entity that share real
        content with the rest of the query; facts that share real content with it.
        A name alone is never content, and there is no whole-entity fallback: a query
        naming a person and a thing the person has no fact about selects nothing."""
        th = self.thresholds
        query = analyse_query(text)
        ratio = th.purge_ratio if purpose == "purge" else th.ratio
        found = identifier_matches(query, views, by_form=purpose == "purge")
        if found and purpose != "purge":  # a purge erases every fact carrying the identifier
            found = within_identified(query, found, views, th, ratio=ratio)
            if not found:
                return _Selection([], "none", candidates=_nearest(query, views, views, th, ()),
                                  note="no match: no fact carrying the identifier matches "
                                       "the rest of the query")
        if found:
            return _Selection(found, "identifier")
        entities = named_entities(query, views, given_names=purpose != "purge")
        if entities:
            scope = [v for v in views if v.fact.entity in entities]
            skip = query_terms_naming(entities)
            labelled = [v for v in views if _labelled_with(v.fact.entity, entities)]
            # a revision replaces one fact, never a whole entity of several: it reads on
            # for the specific fact ("Kwame's account" is then the account he holds)
            if (purpose != "revise" or len(scope) == 1) and (
                    asks_for_whole_entity(query, entities) or names_only(query, entities)):
                return _Selection(mention_matches(entities, query, views), "entity",
                                  whole=True, entities=entities)
            names = ", ".join(sorted(set(entities.values())))
            if purpose == "revise" and only_names_a_topic(query, skip) and len(
                    in_topic := topic_facts(query, scope, skip, core=True)) > 1:
                # a topic name is a label, not content (slot names carry it): it cannot
                # say which of the entity's facts in the topic is meant (the new text may)
                return _Selection([], "none", entities=entities,
                                  candidates=[Match(v.fact, "semantic", 0.5, "in the topic named")
                                              for v in in_topic],
                                  topics=query_topics(query, skip),
                                  note=f"no match: the query names only a topic, and "
                                       f"{names} has several facts in it")
            found = self._own_acts(lexical_matches(query, scope, th, ratio=ratio, skip=skip,
                                                   all_views=views, within_entity=True), query)
            if not found and labelled and purpose != "purge":
                # "weekly sync with Rhys": a topic labelled with the person's name is his
                found = lexical_matches(query, labelled, th, ratio=ratio, skip=skip,
                                        all_views=views, within_entity=True)
            if found:
                return _Selection(found, "lexical", entities=entities)
            if query.totality and purpose in ("release", "forget") and only_names_a_topic(
                    query, skip):
                # "everything about Mia's job": every fact of hers in the topic, no other
                # (a relative's kept under her id is his: "Mia's sister works at Sky")
                asked = frozenset(query.terms)
                whole_topic = topic_facts(
                    query, [v for v in scope if not self._theirs(v.fact, asked)], skip, core=True)
                if whole_topic:
                    return _Selection([Match(v.fact, "semantic", 0.5, "in the topic named")
                                       for v in whole_topic], "topic", entities=entities,
                                      topics=query_topics(query, skip))
            if purpose == "revise":
                found = self._weak(query, scope, views, skip, within_entity=True)
                if found:
                    return _Selection(found, "semantic", entities=entities)
            if purpose != "purge":
                # "Priya's job": her one fact in the topic named (a fact of a relative of
                # hers kept under her id is his, not a second one of hers)
                asked = frozenset(query.terms)
                own = [v for v in scope if not self._theirs(v.fact, asked)]
                if (kind := vehicle_match(query, own, skip) or kind_match(query, own, skip)):
                    return _Selection([kind], "topic", entities=entities)
                only, topics = topic_match(query, own, skip)
                if only is not None:
                    return _Selection([only], "topic", entities=entities, topics=topics)
            return _Selection([], "none", entities=entities,
                              candidates=_nearest(query, scope, views, th, skip),
                              note=f"no match: no fact of {names} matches the rest of the query")
        if purpose == "purge":
            return _Selection([], "none", candidates=_nearest(query, views, views, th, ()),
                              note="no match: the query names no identifier and no entity")
        found = lexical_matches(query, views, th, ratio=ratio)
        if len({m.fact.entity for m in found}) > 1 and _one_owner(text):
            return _Selection([], "none", candidates=found,
                              note="no match: the query speaks of one owner's thing, and "
                                   "the facts it matches are of several entities")
        if found:
            return _Selection(found, "lexical")
        if purpose == "revise":
            found = self._weak(query, views, views, ())
            if found:
                return _Selection(found, "semantic")
        return _Selection([], "none", candidates=_nearest(query, views, views, th, ()),
                          note="no match: no fact clears the thresholds")

    def _weak(self, query: Query, scope: list[FactView], views: list[FactView],
              skip: Sequence[str] | set[str], *, within_entity: bool = False) -> list[Match]:
        """Tier 4, for revise: below ``min_coverage`` a fact that shares real content with
        the query (:func:`~memory_es.text.matching.specific`) is still the target when it
        is the clear best: coverage at least ``semantic_floor`` and no other candidate
        reaching half of it. A fact of a sibling kind of the thing the query describes
        (``guitar lesson`` for ``has a piano lesson``) is no candidate."""
        th = self.thresholds
        pool = [v for v in scope if specific(query, v, skip, within_entity=within_entity)
                and not sibling_kind(query, v, skip) and not names_another(query, v, skip)]
        if not pool:
            return []
        idf = idf_weights(views)
        scored = sorted(((coverage(query, v, idf, th, skip), v) for v in pool),
                        key=lambda p: -p[0])
        best, top = scored[0]
        runner = scored[1][0] if len(scored) > 1 else 0.0
        if best >= th.semantic_floor and runner < 0.5 * best:
            return [Match(top.fact, "semantic", round(best, 4), "clear best below min coverage")]
        return []

    # --- revise -----------------------------------------------------------------------------

    def revise(self, tenant: str, old_query: str, new_text: str,
               **kw: Unpack[WriteOptions]) -> TextResult:
        """Replace what ``old_query`` describes with what ``new_text`` says, in one commit.

        The new clause that continues the matched fact supersedes its slot (a drift-chain
        link; the slot comes from the new clause when it reads one confidently, else from
        the matched fact). Matched facts outside that slot are released (decay). A clause
        that only reports the end of the old state (``sold the piano``) and adjuncts that
        name only retired content (``after <old value> …``) become the supersession's
        reason instead of present belief. Without a specific match nothing is retired:
        the text is remembered with change-of-state semantics, and the result lists the
        nearest candidates.
        """
        options = self._options(kw)
        _check_size("query", old_query, MAX_QUERY)
        _check_size("text", new_text, MAX_TEXT)
        views = self._candidates(tenant, old_query)
        sel = self._select(tenant, old_query, views, "revise")
        reading = self.interpreter(new_text)
        if sel.tier == "topic" and not any(
                set(c.domains) & sel.topics or view_terms(c.text) & {stem(t) for t in sel.topics}
                for c in reading.clauses):
            # the new text is not about the topic the query named: the topic's fact is not
            # retired for it (a fact the new text names back still is, below)
            sel = _Selection([], "none", entities=sel.entities, candidates=sel.matches,
                             note="no match: the new text is not about the topic named")
        if sel.tier == "none" and sel.topics and (
                same := _same_verb(sel.candidates, reading)
                or _only_own(sel.candidates)) is not None:
            sel = _Selection([same], "topic", entities=sel.entities, topics=sel.topics)
        if sel.tier == "none" and sel.entities:
            back = _named_back(analyse_query(old_query), new_text, reading, sel.entities,
                               [v for v in views if v.fact.entity in sel.entities])
            if back is not None:
                sel = _Selection([back], "back-reference", entities=sel.entities)
        matches, why_not = about_the_new_text(sel.matches, reading)
        if why_not:
            sel = _Selection([], "none", entities=sel.entities, candidates=sel.matches,
                             note=why_not)
        now = self.store.now()
        plan = _Plan()
        if not matches:
            named = next(iter(sel.entities)) if len(sel.entities) == 1 else None
            for n, clause in enumerate(reading.clauses):
                entity, extra = self._resolve(tenant, clause, plan)
                text = None
                if entity is None and clause.elided and named is not None:
                    entity = named  # "Sold the Skoda, …" under "Mateo's car": Mateo's
                    text = _said_of(clause.text, _display_name(named, sel.entities, views))
                if entity is not None and not clause.negated:
                    self._replace_count(tenant, entity, clause, plan)  # earns 55k, was 50k
                self._write(plan, tenant, clause, entity, reading.source, extra,
                            _dated(_per_clause(options, n), clause, now),
                            supersede=clause.confident and entity is not None, text=text)
            written = self._commit(plan)
            return TextResult(op="revise", query=old_query, receipts=written,
                              targets=[_target(m, "candidate") for m in sel.candidates],
                              touched=[f for r in written for f in r.fact_ids],
                              note=(sel.note or "no match") + "; remembered as new")
        base = matches[0].fact
        retired = retired_words(matches, reading)
        clauses = list(reading.clauses)
        reasons = [c.text for c in clauses if c.op == "cease" and not c.has_purpose]
        content = [c for c in clauses if not (c.op == "cease" and not c.has_purpose)]
        closed: set[str] = set()
        written_ids: set[str] = set()
        primary = continuing_clause(content, matches) if content else None
        primary_slot: str | None = None
        for clause in content:
            entity, extra = self._resolve(tenant, clause, plan, fallback=base.entity)
            if clause.elided or (clause.entity is None and clause.refers_back is None):
                entity = base.entity if entity is None or clause.elided else entity
            text, dropped = without_back_references(clause, retired)
            if clause.elided and entity is not None:
                text = _said_of(text, _display_name(entity, sel.entities, views))
            reason = "; ".join([*reasons, *dropped]) or f"revise: {old_query}"
            n = content.index(clause)
            opts = _dated(_per_clause(options, n), clause, now)
            if clause is primary and entity is not None:
                slot = primary_slot = revised_slot(clause, matches, entity)
                self._write(plan, tenant, clause, entity, reading.source,
                            extra | {"revises": [m.fact.fact_id for m in matches]}, opts,
                            supersede=True, text=text, attribute=slot, reason=reason[:1024])
                # what the supersession itself ends; a matched denial of another value
                # stands beside it (slot_relation), so it is released below instead
                closed |= {m.fact.fact_id for m in matches
                           if not clause.negated and not m.fact.negated
                           and m.fact.entity == entity and m.fact.attribute == slot}
            else:
                supersede = (clause.op == "supersede" and clause.confident
                             and entity is not None)
                self._write(plan, tenant, clause, entity, reading.source, extra, opts,
                            supersede=supersede, text=text)
        why = ("revise: " + ("; ".join(reasons) or old_query))[:1024]
        # a denial of another value that the slot's new value leaves true stays ("used to
        # live in Dublin" beside "lives in Cork"), when the query also found what it held
        held = any(not m.fact.negated for m in matches)
        still_true = {m.fact.fact_id for m in matches
                      if held and primary is not None and not primary.negated
                      and m.fact.negated and m.fact.attribute == primary_slot
                      and m.fact.value != primary.value}
        for m in matches:
            if m.fact.fact_id not in closed | written_ids | still_true:
                plan.add(_decay(m.fact.fact_id, tenant, why))
        receipts = self._commit(plan)
        touched = [f for r in receipts for f in r.fact_ids] + sorted(closed)
        return TextResult(op="revise", query=old_query, targets=[_target(m) for m in matches],
                          receipts=receipts, touched=list(dict.fromkeys(touched)),
                          note=f"targeted by {sel.tier}")

    # --- release / forget -------------------------------------------------------------------

    def release(self, tenant: str, query: str, *, reason: str | None = None) -> TextResult:
        """Decay (release) what the query specifically describes; rows stay for audit.

        A query that names an entity as a whole (``everything about Mira``, ``Ilya's
        profile``) releases every current fact of that entity; a query naming an entity
        and a thing releases only that entity's facts about the thing. Nothing matches:
        nothing changes, and the result lists the nearest candidates.
        """
        _check_size("query", query, MAX_QUERY)
        sel = self._select(tenant, query, self._candidates(tenant, query), "release")
        matches = [m for m in sel.matches if m.by != "mention"]
        if not matches:
            return _no_match("release", query, sel)
        why = (reason or f"release: {query}")[:1024]
        plan = _Plan()
        asked = frozenset() if sel.whole else _content_terms(query, sel.entities)
        for m in matches:
            plan.add(_decay(m.fact.fact_id, tenant, why))
            self._keep_other_items(plan, tenant, m.fact, asked)
        if sel.whole:
            self._keep_other_people(plan, tenant, sel, lambda f: _decay(f, tenant, why))
        receipts = self._commit(plan)
        return TextResult(op="release", query=query, targets=[_target(m) for m in matches],
                          touched=[f for r in receipts for f in r.fact_ids],
                          receipts=receipts, note=f"targeted by {sel.tier}")

    def forget(self, tenant: str, query: str, *, reason: str | None = None) -> TextResult:
        """Amnesia (terminal): of the entity the query names as a whole
        (``forget_entity``), or of the named entity's facts the rest of the query
        specifically matches (``forget_fact``). Facts of other entities that mention it
        are listed, never forgotten. Nothing happens when nothing is named."""
        _check_size("query", query, MAX_QUERY)
        sel = self._select(tenant, query, self._candidates(tenant, query), "forget")
        if not sel.entities and sel.tier != "identifier":
            return TextResult(op="forget", query=query, note="the query names no entity",
                              targets=[_target(m, "candidate") for m in sel.candidates])
        if not sel.matches:
            return _no_match("forget", query, sel)
        why = (reason or f"forget: {query}")[:1024]
        plan = _Plan()
        direct = [m for m in sel.matches if m.by != "mention"]
        previews: list[Preview] = []
        if sel.whole:
            previews = self._previews("forget_entity", tenant, list(sel.entities))
            for entity in sel.entities:
                plan.add(_forget_entity(tenant, entity, why))
            self._keep_other_people(plan, tenant, sel, lambda f: _forget_fact(tenant, f, why))
        else:
            asked = _content_terms(query, sel.entities)
            for m in direct:
                plan.add(_forget_fact(tenant, m.fact.fact_id, why))
                self._keep_other_items(plan, tenant, m.fact, asked)
        receipts = self._commit(plan)
        mentions = [m for m in sel.matches if m.by == "mention"]
        return TextResult(op="forget", query=query,
                          targets=[_target(m) for m in direct]
                          + [_target(m, "candidate") for m in mentions],
                          touched=list(dict.fromkeys(f for r in receipts for f in r.fact_ids)),
                          receipts=receipts, previews=previews,
                          pending=[f"{len(mentions)} fact(s) of other entities mention "
                                   "the name: not forgotten"] if mentions else [],
                          note=f"targeted by {sel.tier}")

    def _keep_other_people(self, plan: _Plan, tenant: str, sel: _Selection,
                           end: Callable[[str], Op]) -> None:
        """A whole entity that ends also leaves the facts it shares with others as a
        compound subject (``Hannah and Ivan share …``: Ivan's copy): each is ended (with
        ``end``) and written back without it (``Ivan shares …``), in the same plan."""
        for m in sel.matches:
            rest = (without_subjects(m.fact.text, sel.entities)
                    if m.by == "mention" and m.fact.entity not in sel.entities else None)
            if rest is not None:
                plan.add(end(m.fact.fact_id))
                self._write_back(plan, tenant, m.fact, rest)

    def _write_back(self, plan: _Plan, tenant: str, fact: Fact, text: str) -> None:
        """Write what is left of an ended fact (same entity) in the plan that ends it. It
        is asserted as of now: backdated to the old fact's valid time it would contradict
        it over that time (a conflict, not a fact)."""
        reading = self.interpreter(text)
        for clause in reading.clauses:
            self._write(plan, tenant, clause, fact.entity, reading.source,
                        {"kept_from": fact.fact_id}, {}, supersede=False)

    def _keep_other_items(self, plan: _Plan, tenant: str, fact: Fact,
                          asked: frozenset[str]) -> None:
        """When the query names some items of a listed fact (``Hanna's German`` of ``…
        speaks French, German and Welsh``), write the other items back (same entity) in
        the plan that ends the fact (:meth:`_write_back`); query words the fact does not
        hold (``forget``) play no part."""
        rest = without_items(fact.text, asked & view_terms(fact.text))
        if rest is not None:
            self._write_back(plan, tenant, fact, rest)

    def _previews(self, op: str, tenant: str, entities: Sequence[str]) -> list[Preview]:
        out: list[Preview] = []
        for entity in entities:
            with contextlib.suppress(InvalidInput, NotFound):
                out.append(self.store.preview(op, tenant, entity))
        return out

    # --- purge ------------------------------------------------------------------------------

    def purge_matching(self, tenant: str, identifier: str, *, confirm: bool = False,
                       requested_by: str | None = None, compact: str = "now") -> TextResult:
        """Crypto-shred what an exact identifier or a named entity denotes (SPEC §15).

        Facts carrying an identifier the query names (canonical form: case, spacing,
        obfuscation, look-alike letters, phone formats) are shredded with their drift
        chain, or with their entity when the entity *is* the identifier; an entity the
        query names as a whole is shredded whole. Never by word or vector similarity:
        without such a match nothing is erased, and the result lists the candidates
        considered (``targets``) with ``pending`` saying why. A purge that spans several
        entities through one identifier only returns the previews and needs
        ``confirm=True``; so does a purge the store itself rates high risk (dependants
        outside it). Facts of other entities that mention a named one are listed in
        ``pending`` and erased only with ``confirm=True``; the named entity's own are
        erased. ``compact`` is passed to each
        :meth:`MemoryStore.purge`: ``"deferred"`` leaves the file rewrite to
        ``store.compact()``, and the receipts' reports say ``pending`` until then.
        """
        _check_size("query", identifier, MAX_QUERY)
        Compaction.of(compact)  # refused before anything is looked up
        sel = self._purge_selection(tenant, identifier)
        tier = "thing" if _names_a_thing_of(sel) else sel.tier
        if tier not in ("identifier", "entity", "thing") and (
                named := self._name_mentions(tenant, identifier)):
            sel, tier = _Selection(named, "entity"), "entity"
        if tier not in ("identifier", "entity", "thing"):
            note = sel.note or ("no match: the query names no identifier and no entity"
                                if sel.matches else "no match")
            return TextResult(op="purge", query=identifier,
                              targets=[_target(m, "candidate")
                                       for m in sel.candidates or sel.matches],
                              pending=[f"nothing erased: {note}; a purge acts on exact "
                                       "identifiers and named entities only"],
                              note=note)
        asked = analyse_query(identifier).identifiers
        own = set(sel.entities) | {i.entity for i in asked}
        one_number, split = self._phone_entities(tenant, sel.matches, asked)
        kept_for = ({m.fact.fact_id: person for m in sel.matches
                     if (person := self._kept_for(m.fact, view_terms(identifier))) is not None}
                    if tier == "identifier" and len(sel.matches) > 1 else {})
        plan = plan_purge(sel.matches, tier, own, one_number=one_number, split=split,
                          kept_for=kept_for)
        scopes = list(plan.scopes)
        if confirm:
            scopes += [(None, m.fact.fact_id) for m in plan.mentions]
        previews: list[Preview] = []
        for entity, fact_id in scopes:
            with contextlib.suppress(InvalidInput, NotFound):
                previews.append(self.store.preview("purge", tenant, entity, fact_id=fact_id))
        targets = [_target(m) if m.by != "mention" or confirm else _target(m, "candidate")
                   for m in sel.matches]
        blocking = [r for r in plan.risks if "mention" not in r]
        if blocking and not confirm:
            return TextResult(op="purge", query=identifier, targets=targets, previews=previews,
                              pending=[f"confirmation required: {r}; call again with "
                                       "confirm=True to erase what the previews list"
                                       for r in plan.risks],
                              note=f"targeted by {tier}; nothing erased")
        receipts: list[Receipt] = []
        pending = [f"not erased, needs confirm=True: {r}" for r in plan.risks
                   if r not in blocking and not confirm]
        touched: list[str] = []
        done: set[str] = set()
        for (entity, fact_id), p in zip(scopes, previews, strict=False):
            if fact_id is not None and fact_id in touched:
                continue
            try:
                r = self.store.purge(tenant, entity, fact_id=fact_id,
                                     confirm=p.token if confirm else None,
                                     requested_by=requested_by, compact=compact)
            except ConfirmationRequired:
                pending.append(f"purge {entity or fact_id}: confirmation required "
                               "(the store rates it high risk)")
                continue
            except NotFound:
                continue
            receipts.append(r)
            touched += r.fact_ids
            if entity is not None:
                done.add(entity)
        return TextResult(op="purge", query=identifier, targets=targets,
                          touched=list(dict.fromkeys(touched)), receipts=receipts,
                          previews=previews, pending=pending, note=f"targeted by {tier}")

    def _name_mentions(self, tenant: str, text: str) -> list[Match]:
        """For a query that is a name alone and names no entity of the tenant (any more):
        the facts of others that mention it. A purge of ``Raj Mehta`` erases his own
        facts and lists a colleague's fact naming him as needing ``confirm=True``; the
        call with it then finds no Raj Mehta of his own, and must still reach that
        fact."""
        q = analyse_query(text)
        words = text.split()
        if not q.ngrams or len(words) > 4 or not all(w[:1].isupper() or not w.isascii()
                                                     for w in words):
            return []
        keys = name_keys(q.ngrams[0][0])
        return [Match(v.fact, "mention", 0.9, ", ".join(sorted(shared)))
                for v in self._candidates(tenant, text) if (shared := v.mentions_among(keys))]

    def _phone_entities(self, tenant: str, matches: Sequence[Match],
                        asked: Sequence[Identifier]) -> tuple[frozenset[str], frozenset[str]]:
        """Of the phone entities a purge reached: those that are the number asked for (one
        entity however many spellings named it), and those of them that also hold facts
        about another number (never shredded whole: only the matched chains)."""
        phones = [i.canonical for i in asked if i.kind == "phone"]
        same = frozenset(e for m in matches if (e := m.fact.entity) is not None
                         and (n := entity_phone(e)) is not None
                         and any(phones_match(n, p) for p in phones))
        mixed = frozenset(e for e in same if any(
            i.kind == "phone" and not any(phones_match(i.canonical, p) for p in phones)
            for f in self._entity_facts(tenant, e) for i in view(f).identifiers))
        return same, mixed

    # --- recall -----------------------------------------------------------------------------

    def recall_texts(self, tenant: str, query: str, k: int = 5) -> list[str]:
        """The texts of up to ``k`` current facts for a query, best first.

        The store's ``recall`` ranks (currency, eligibility and tenant are enforced there,
        before top-k); facts that share something with the query — a word, a topic, an
        exact identifier, a name, or a person when the query asks about people — come
        first, topped up when recall returns fewer than ``k`` (:data:`TOP_UP_ALL`).
        When nothing is related, the ranking is returned as is, except for a query made
        only of identifiers (and the labels of their kind): it returns nothing rather
        than near-identical identifiers.
        """
        if k <= 0:
            return []
        _check_size("query", query, MAX_QUERY)
        q = analyse_query(query)
        ranked = [view(h.fact) for h in self.store.recall(tenant, query, k=max(4 * k, 20))]
        current: list[FactView] = []
        if len(ranked) < k:
            seen = {v.fact.fact_id for v in ranked}
            extra = ([view(f) for f in self.store.current(tenant)]
                     if self.store.count(tenant) <= TOP_UP_ALL
                     else self._candidates(tenant, query))
            current = [v for v in extra if v.fact.fact_id not in seen]
        idf = idf_weights(ranked + current)
        score = {v.fact.fact_id: relevance(q, v, idf, self.thresholds) for v in ranked + current}
        current.sort(key=lambda v: (-score[v.fact.fact_id], v.fact.recorded_at), reverse=False)
        pool = ranked + current
        relevant = [v for v in pool if score[v.fact.fact_id] > 0]
        if not relevant and only_identifiers(q):
            # an identifier that names nothing retrieves nothing (never a near-identical one)
            return []
        chosen = relevant or pool
        return [v.fact.text for v in chosen[:k]]


def _chinese_given_name(said: str, *, surnamed: bool = False) -> bool:
    """Is ``said`` a Chinese given name alone (``秀兰``), two or three characters that open
    with no surname? A full name opens with one (``王芳`` is no given name of ``王芳芳``).
    ``surnamed``: whether it is one that does open with a surname (``桂兰``, since 桂 is
    one too), a given name only where a known person's name is a surname and it
    (:func:`_surname_and`)."""
    opens = any(said.startswith(s) for s in lx.CHINESE_SURNAMES)
    return is_chinese_run(said) and len(said) <= 3 and opens == surnamed


def _surname_and(given: str, entity: str) -> bool:
    """Is ``entity`` the person whose name is a surname and then ``given`` (``王桂兰``
    for 桂兰; its id spells the name's pinyin)?"""
    return any(entity_id("person", s + given) == entity for s in lx.CHINESE_SURNAMES)


def _the_person_meant(query: str, found: Sequence[Match]) -> dict[str, str] | None:
    """The one person a query speaks of by a pronoun (``the puppet stories she takes into
    the primaries``), when every fact it matched is that person's: who else the pronoun
    stands for is not said, so a match of several entities, or of none, names no one."""
    said = [w for w in re.findall(r"[^\W\d_]+", query.lower()) if w in _PERSONAL_PRONOUNS]
    owners = {m.fact.entity for m in found}
    if not said or len(owners) != 1:
        return None
    owner = owners.pop()
    return {owner: said[0]} if owner is not None and owner.startswith("person:") else None


_PERSONAL_PRONOUNS = (lx.SUBJECT_PRONOUNS | lx.POSSESSIVE_PRONOUNS | {"him", "hers"}) - {
    "it", "its", "they", "their"}
"""The pronouns that stand for one person (not ``it``, nor ``they``, which may be several)."""


def _names_a_thing_of(sel: _Selection) -> bool:
    """Did a purge query name an entity and a thing of its own that the entity's facts
    specifically hold (``Marta Nowak's passport``)? Only that entity's facts were
    searched (:meth:`TextInterface._select_by_tier`), by their own words: the purge is
    of a part of the named entity, never of anything found by similarity."""
    return sel.tier == "lexical" and bool(sel.entities) and all(
        m.fact.entity in sel.entities for m in sel.matches)


def _full_person_names(reading: Interpretation) -> dict[str, set[str]]:
    """The people a text names with a given name and a surname (``Met Lena Okafor and Omar
    Haddad …``): their entity ids by the slug of the given name."""
    out: dict[str, set[str]] = {}
    for clause in reading.clauses:
        for name in (*clause.names, *clause.subject_names):
            words = name.split()
            if len(words) >= 2 and all(w[:1].isupper() for w in words):
                out.setdefault(slug(words[0]), set()).add(entity_id("person", name))
    return out


def _given_name_owner(entity: str | None, full_names: Mapping[str, set[str]]) -> str | None:
    """The person a bare given name stands for in the text that named them in full
    (``Lena prefers e-mail`` after ``Met Lena Okafor …``): one person per given name, or
    none when two of the text's people share it."""
    if entity is None or not entity.startswith("person:"):
        return None
    owners = full_names.get(entity.split(":", 1)[1], set())
    return next(iter(owners)) if len(owners) == 1 else None


def _word_set(text: str) -> set[str]:
    """The words of a text, lower case, edge punctuation stripped."""
    return {w.lower().strip(EDGE) for w in text.split()}


def _says_now(clause: Clause) -> bool:
    """Does a clause say its state holds now, as a change (``prefers coffee now``, ``now
    prefers coffee``), not at a time of its own (``preferred tea in 2019``)?"""
    return not clause.unrealised and not clause.negated and (
        clause.op == "supersede" or any(t.lower() in lx.CHANGE_ADVERBS for t in clause.temporal))


def _marks_change(clause: Clause) -> bool:
    """Does a clause mark a change of state or a time (``now``, ``last week``) that has
    happened (``might buy a car next week`` has not)?"""
    return not clause.unrealised and (
        bool(clause.temporal) or any(r.startswith("change-of-state") for r in clause.rules))


_MEASURE = re.compile(r"(?<![\w.])(\d[\d.,]*)\s*([^\W\d_]+)\s+of\s+([^\W\d_]+)")


_CARDINAL = re.compile(r"n\d+(?:_\d+)?[km]?|one|two|three|four|five|six|seven|eight|nine|ten|"
                       r"eleven|twelve|dozen")
"""A slot segment that is a cardinal number or an amount (``n3``, ``three``, ``n50k``)."""


def _without_count(attribute: str) -> str:
    """The slot with its cardinal numbers left out (``pet.three.cats``: ``pet.cats``)."""
    return ".".join(p for p in attribute.split(".") if not _CARDINAL.fullmatch(p))


_LABELLED = re.compile(r"(?:[^\W\d_]+\s+)?(?:(?:in|into|to|at|on|from)\s+)?(?:(?:the|a|an)\s+)?"
                       r"([^\W\d_]{2,})\s+([^\W\d_]{0,3}\d[\w-]*)")
"""A value that is a labelled thing, after at most a verb and a preposition: a common noun
and a code with a digit (``room B12``, ``parks in bay 14``; not ``teaches year 10
chemistry``, whose thing is the chemistry)."""


def _labelled(value: object) -> tuple[str, str] | None:
    """(noun, label) of a labelled value, casefolded (``room B12``; ``Year 4`` and ``Windows
    10`` too: a change to ``Year 5`` or ``Windows 11`` replaces them); None for any other
    value."""
    m = _LABELLED.fullmatch(without_time(str(value)).strip().rstrip("."))
    if m is None:
        return None
    return m.group(1).casefold(), m.group(2).casefold()


_KIND = r"(?:the|a|an)\s+((?:[A-Z][\w'-]*\s+){1,3})([a-z]{3,})\b"
_NAMED_KIND = re.compile(rf"\b{_KIND}")
"""A kind of thing a name sets apart, after its determiner (``the Enterprise plan``, ``the
Stockholm office``): the name, and the common noun after it."""
_NAMED_KIND_TO = re.compile(rf"\bto\s+{_KIND}")
"""The named kind a change goes to (``downgraded to the Pro plan``)."""
_MODIFIED_KIND = re.compile(r"\b(?=([a-z]{3,})\s+([a-z]{3,})\b)")
"""A lower-case word and the noun after it (``night shifts``, ``black coffee``)."""
_MODIFIED_KIND_TO = re.compile(r"\bto\s+(?:(?:a|an|the)\s+)?([a-z]{3,})\s+([a-z]{3,})\s*\.?$")
"""The kind a change goes to, a word before a noun that ends the clause (``switched to
day shifts``)."""


def _measure(text: str) -> tuple[str, str, str] | None:
    """An amount of a named thing (``64 GB of RAM``), or how often it is done (``takes
    ramipril once a day``: once per day): the number, the unit and the thing's stem; None
    when the text holds none."""
    low = text.casefold()
    m = _MEASURE.search(low)
    if m is not None:
        return m.group(1), m.group(2), stem(m.group(3))
    f = _DONE_OFTEN.search(low)
    return None if f is None else (" ".join(f.group("count").split()), f"per-{f.group('period')}",
                                   stem(f.group("thing")))


_DONE_OFTEN = re.compile(r"(?<![\w.])(?P<thing>[^\W\d_]{3,})\s+" + FREQUENCY.pattern)
"""A thing and how often it is done (``ramipril once a day``, ``tennis three times a week``)."""


_MONEY = re.compile(r"([£$€¥])\s?(\d[\d,]*(?:\.\d+)?)")
"""A sum of money, its currency sign first (``£1,300``): (sign, number)."""
_AMOUNT_AFTER = re.compile(r"(?<![\w.])([^\W\d_]{3,})\s+(\d[\d.,]*)\s*([^\W\d_]+)\b")
"""A thing and its amount after it, as a prescription or a price list writes it
(``metformin 500 mg``)."""


def _amounts(text: str) -> list[tuple[str, str, str]]:
    """Every amount of a named thing in the text, written either way (``64 GB of RAM``,
    ``metformin 500 mg``): (number, unit, the thing's stem)."""
    low = text.casefold()
    return [(m.group(1), m.group(2), stem(m.group(3))) for m in _MEASURE.finditer(low)] + [
        (m.group(2), m.group(3), stem(m.group(1))) for m in _AMOUNT_AFTER.finditer(low)
        if m.group(1) not in lx.STOPWORDS]


_MOVES_A_THING = frozenset({"be", "move"})
"""Frame verbs by which a thing's time itself changes (``was moved to``, ``is now on``)."""


def _names_apart(old: Clause, new: Clause) -> bool:
    """Do two clauses whose object is an amount name different things by the proper names
    they give beside it (``pays 9.99 a month for Spotify``, ``pays 15 a month for
    Netflix``: two payments)? Of any other object the names are part of it, the values
    that change (``works at Google``, ``is on the Pro plan``), not which thing."""
    if new.frame is None or not new.frame.rsplit(".", 1)[-1].startswith("n:"):
        return False
    names = [{n for n in c.names if not CALENDAR.search(n)} - set(c.subject_names)
             for c in (old, new)]  # a day is when, not which (``on Saturdays``)
    return all(names) and not names[0] & names[1]


def _arrival_frames(clause: Clause) -> set[str | None]:
    """The frames a clause's change replaces: its own, and for a possessed thing that
    moved to a place or time, where it is after the move (``Eva's studio moved to
    Peckham`` is where ``Eva's studio is in Hackney`` said it was)."""
    frames: set[str | None] = {clause.frame}
    if clause.frame is not None and clause.attribute.startswith("prop."):
        verb, _, rest = clause.frame.partition(".")
        preposition, _, kind = rest.partition(".")
        if verb == "move" and preposition == "to":
            frames |= {f"be.{p}.{kind}" for p in _LOCATIVE}
    return frames


_LOCATIVE = ("in", "at", "on")
"""Prepositions that say where a thing is, once it has moved there."""


_RESIDENCE = frozenset({"home.city", "home.address"})
"""The slots that say where an entity lives (the residence and move rules of
:mod:`memory_es.text.predicates` fill them)."""


def _housed(clause: Clause) -> bool:
    """Does a clause say where its subject lives by the home it holds at a named place
    (``rents a flat in Glasgow``, ``rents a house on Elm Road``): a verb of the home
    domain, its object a word of it (topics.txt [home]), then a locative preposition and
    a name? Not a home held as a thing (``owns a cottage in Cornwall``: ``own`` is no word
    of the home), nor another thing held there (``rents a car in Spain``)."""
    if clause.frame is None:
        return False
    head, _, rest = clause.frame.partition(".")
    verb, _, held = head.partition("+")
    preposition, _, kind = rest.partition(".")
    home = lx.DOMAINS["home"]
    return verb in home and held.lower() in home and preposition in _LOCATIVE and kind == "name"


def _frame_lemma(frame: str) -> str:
    """A frame's verb (``have+appointment.on.date``: ``have``)."""
    return frame.split(".", 1)[0].split("+", 1)[0]


def _frame_object(frame: str) -> str:
    """The object's head a frame's verb carries (``have+appointment.on.date``:
    ``appointment``; ``see+Shah.for.common:``: ``Shah``); empty when it carries none."""
    return frame.split(".", 1)[0].partition("+")[2]


def _frame_head(attribute: str) -> str:
    """What a fact's frame belongs to: its verb, or for a possessed thing the thing
    (``prop.passport.…``: the passport's dates are not the lease's)."""
    parts = attribute.split(".")
    return ".".join(parts[:2]) if parts[0] == "prop" else parts[0]


def _german_verb(clause: Clause) -> str:
    """The finite verb right after a German clause's subject (``spielt`` of ``Eva Braun
    spielt kein Klavier mehr``); empty for another clause, or an auxiliary (``hat``,
    ``ist``), which says nothing of the act."""
    if "lang:de" not in clause.rules or not clause.mention:
        return ""
    rest = clause.text[len(clause.mention):].split() if clause.text.startswith(
        clause.mention) else []
    word = rest[0].lower() if rest else ""
    return "" if word in lx.GERMAN_FUNCTION or not word.isalpha() else word


_FINAL_PLACE = re.compile(r"^(?P<thing>.*\S)\s+in\s+(?:[A-ZÄÖÜ][\w\-]*)(?:\s+[A-ZÄÖÜ][\w\-]*)*$")


_DE_FUNCTION = lx.GERMAN_FUNCTION | frozenset(lx.GERMAN["determiners"])


def _de_thing(value: str) -> frozenset[str]:
    """The words and stems of a German ending's object before the preposition that says
    where it was (``die Ausgabe`` of ``die Ausgabe in der Kleiderkammer``); empty when it
    has no such preposition after a noun."""
    words = value.split()
    at = next((i for i, w in enumerate(words)
               if i > 0 and w.lower() in lx.GERMAN_PREPOSITIONS), None)
    thing = " ".join(w for w in words[:at] if w.lower() not in _DE_FUNCTION) if at else ""
    if not any(w[:1].isupper() for w in thing.split()):
        return frozenset()
    return view_terms(thing) | german_stems(thing)


def _without_final_place(value: str) -> str:
    """A German ending's object without the town it ends with (``ihre Stelle in der Praxis
    in Nippes``: ``ihre Stelle in der Praxis``): where the thing was is no part of which
    thing it was, so another fact of the same town (``tanzt im Tanzcorps … Köln-Nippes``)
    shares no word with it. Kept whole when what is left names no thing (a noun)."""
    found = _FINAL_PLACE.match(value)
    if found is None:
        return value
    thing = found.group("thing")
    return thing if any(w[:1].isupper() and w.lower() not in lx.GERMAN_FUNCTION
                        for w in thing.split()) else value


def _lowered(text: str) -> frozenset[str]:
    """The terms of ``text``'s words after its first that are written in lower case."""
    return view_terms(" ".join(w for w in text.split()[1:] if w[:1].islower()))


def _in_its_names(text: str) -> frozenset[str]:
    """The terms of ``text`` found only in its capitalised words after its first (its
    names, as written in English: ``Archery`` of ``Femi's Archery GB membership number``;
    not ``rugby`` of ``referees rugby for the Welsh Rugby Union``)."""
    words = text.split()[1:]
    return view_terms(" ".join(w for w in words if w[:1].isupper())) - _lowered(text)


_DE_NAME_RUN = re.compile(r"(?:[A-ZÄÖÜ][\w-]*\s+)+[A-ZÄÖÜ][\w-]*")


def _de_town_of_another_name(text: str, terms: frozenset[str]) -> frozenset[str]:
    """The last word of a German name of two words or more in ``text`` whose other words
    a fact (``terms``) lacks: ``Kassel`` of ``am Landgericht Kassel`` in ``trainiert im
    Budo-Club Kassel``. A name that ends with its town (a court, a club, a clinic) shares
    the town with every other name of that town without naming the same thing."""
    out: set[str] = set()
    for run in _DE_NAME_RUN.findall(text):
        words = run.split()
        if not (view_terms(" ".join(words[:-1])) | german_stems(" ".join(words[:-1]))) & terms:
            out |= view_terms(words[-1]) | german_stems(words[-1])
    return frozenset(out)


def _inside_other_names(ours: Sequence[str], theirs: Sequence[str]) -> frozenset[str]:
    """The words of ``ours`` (a clause's names) that a fact holds inside a name of its own
    that is another one, neither name's words holding the other's: ``railway`` of ``the
    North Yorkshire Moors Railway`` in ``the Pickering Model Railway Circle``. Such a word
    is in both texts without naming one thing (``Acme`` and ``Acme Corp`` may). A name of
    the fact's that opens ours is another thing too (``Belfast`` of ``Belfast Metropolitan
    College``, a college a place names; a name is called by its last words, never by its
    first), unless ours only adds a legal form to it (``data/legal_forms.txt``)."""
    mine = [(view_terms(n), _opening_terms(n)) for n in ours]
    out: set[str] = set()
    for name in theirs:
        other = view_terms(name)
        for term in other:
            holders = [(m, opens) for m, opens in mine if term in m]
            if holders and not any(_one_thing(m, opens, other) for m, opens in holders):
                out.add(term)
    return frozenset(out)


def _one_thing(mine: frozenset[str], opens: list[frozenset[str]],
               other: frozenset[str]) -> bool:
    """May a name of ``other``'s terms name what one of ``mine`` does: one holds the
    other's words, and ``other`` does not open ``mine`` with more than a legal form after
    it (``opens``: the terms of ``mine``'s opening runs)?"""
    if mine <= other:
        return True
    return other <= mine and (other not in opens or mine - other <= _LEGAL_FORMS)


def _opening_terms(name: str) -> list[frozenset[str]]:
    """The terms of each shorter run of words that opens ``name`` (``Belfast``, ``Belfast
    Metropolitan`` of ``Belfast Metropolitan College``)."""
    words = name.split()
    return [view_terms(" ".join(words[:k])) for k in range(1, len(words))]


_LEGAL_FORMS = frozenset(stem(w) for w in lx.data_words("legal_forms.txt"))


def _name_aside(names: Sequence[str], text: str) -> bool:
    """Does one of ``names`` stand in ``text`` aside from what its verb is about: before a
    noun it modifies (``owns Google shares``), or after the verb's own object (``sells
    books on Amazon``), not as the thing itself (``works at Google``)?"""
    def content(word: str) -> bool:
        return not (word in lx.STOPWORDS or word in PREPOSITIONS or word in lx.ADVERBS
                    or word.endswith("ly"))

    for name in names:
        at = re.escape(name)
        if any(content(m.group(1)) for m in re.finditer(rf"\b{at}\s+([a-z]+)", text)):
            return True
        for m in re.finditer(rf"\b[a-z]+\s+((?:[a-z]+\s+){{1,3}}?)(?:{_PREPOSITION_ALT})\s+"
                             rf"(?:the\s+)?{at}\b", text):
            between = m.group(1).split()
            # "plays in goal for Canterbury HC": a phrase of a preposition is no object
            if between[0] not in PREPOSITIONS and any(content(w) for w in between):
                return True
    return False


_PREPOSITION_ALT = "|".join(sorted(PREPOSITIONS, key=len, reverse=True))


def _thing_named(clause: Clause, entity: str, *, whole: bool = False) -> list[str]:
    """The content words of a subject that is a thing, not a person (``The hearing in case
    2024-017``: hearing, case), less the words of its entity's name; with ``whole``, all
    of them when they all name it (``The team offsite``: the entity is the thing)."""
    if entity.split(":", 1)[0] in PERSON_NAMESPACES or not clause.mention:
        return []
    named = entity_terms(entity)
    said = [w for w in re.findall(r"[^\W\d_]+", clause.mention.casefold())
            if w not in lx.STOPWORDS]
    return [w for w in said if stem(w) not in named] or (said if whole else [])


def _possessed(clause: Clause) -> list[str]:
    """The words of the thing a possessive subject names (``Kwame's brother``, ``my
    car``); none for any other subject."""
    owned = _owned_text(clause)
    return [] if owned is None else [
        w for w in re.findall(r"[^\W\d_]+", owned.casefold()) if w not in lx.STOPWORDS]


def _owned_text(clause: Clause) -> str | None:
    """What follows the owner in a possessive subject (``brother`` of ``Kwame's brother``,
    ``son's dentist appointment`` of ``Nadia's son's dentist appointment``); None for any
    other subject."""
    if not clause.mention or not any(r.startswith("subject:") and r.endswith("possessive")
                                     for r in clause.rules):
        return None
    return _OWNER.split(clause.mention, maxsplit=1)[-1]


_OWNER = re.compile(r"['\u2019]s\b|^\s*(?:" + "|".join(sorted(lx.POSSESSIVE_DETERMINERS))
                    + r")\b", re.IGNORECASE)
"""What ends a possessive subject's owner: ``'s``, or a possessive determiner before the
thing (``my car``, ``My dog Rufus``)."""


def _possessed_people(clause: Clause) -> list[str]:
    """The person words a possessive subject names (``Ana's husband``, ``Nadia's son's
    dentist appointment``: son), up to the next possessive: a person word before another
    common noun says what kind of thing that is (``dentist appointment``: an appointment,
    hers), before a name or at the end it is the person (``son Leo``, ``husband``)."""
    owned = _owned_text(clause) if _possessed(clause) else None
    if owned is None:
        return []
    words = re.findall(r"[^\W\d_]+(?:-[^\W\d_]+)*", _OWNER.split(owned, maxsplit=1)[0])
    return [w.casefold() for i, w in enumerate(words) if lx.names_a_person(w.casefold()) and (
        i == len(words) - 1 or words[i + 1][:1].isupper())]


def _someone_else(clause: Clause, asked: frozenset[str]) -> bool:
    """Whether a possessive subject is a person of the owner's (``Ana's husband``, ``Omar's
    manager``: a relative, or a role; or any being named in apposition, ``Ines's neighbour
    Paul``, :func:`_named_possessed`) that the query's terms do not ask for: the fact is
    that person's, whatever its verb; with a possessive-noun predicate, when the thing is
    the person's own (``Eva's daughter's blood type is O-``) or the value describes the
    person rather than names them (``Mila's brother Jan is in Year 6``, ``Ana's husband
    is a doctor``; ``Ana's husband is Rui`` is Ana's fact)."""
    people = _possessed_people(clause) + _named_possessed(clause)
    if not people or {stem(w) for w in people} & asked:
        return False
    value = str(clause.value).split()
    return "predicate:possessive-noun" not in clause.rules or not (
        value and all(w[:1].isupper() for w in value)) or re.search(
        rf"\b{re.escape(people[0])}['\u2019]s\b", clause.mention or "", re.IGNORECASE) is not None


def _main_verb(clause: Clause) -> str | None:
    """The lemma of the verb a clause's predicate opens with, unless an auxiliary's
    (``cycles to work``: cycle; ``is vegetarian``, ``has a cat``: none)."""
    said = str(clause.value).split()
    return None if not said or said[0].lower() in lx.AUXILIARIES else lx.inflected_verb(said[0])


def _verb_object(clause: Clause) -> list[str]:
    """The lower-case words of what a clause's verb acts on: the words after it, or, when
    the verb is a passive participle with its agent after ``by`` (``The payments service
    is owned by Team Falcon``), the subject (the payments service; Team Falcon is who
    owns it)."""
    said = [w.lower() for w in str(clause.value).split()]
    if len(said) > 2 and said[1] == "by" and clause.mention:
        return [w.lower() for w in clause.mention.split()]
    return said[1:]


def _a_named_subjects_clause(clause: Clause, text: str) -> bool:
    """Is ``clause`` a person's name followed by its predicate, nothing said about all of
    something (``everything Mia said about knitting``)? A query that opens with the name
    and ``'s`` names a thing of theirs (``Tariq's leased company car``: a possessive, not
    ``Tariq has leased``), as a query mostly does."""
    owned = bool(clause.mention) and re.match(
        rf"\s*{re.escape(clause.mention or '')}['\u2019]s\s", text) is not None
    return ("subject:proper-name" in clause.rules and "subject:possessive" not in clause.rules
            and not owned and not analyse_query(text).totality)


def _object_kind(clause: Clause) -> str | None:
    """What follows a clause's verb, less adverbs and determiners: a ``time`` (``every
    March``), a ``name`` (every word with a capital: ``Ubuntu``, ``iOS``), or None
    (anything else)."""
    said = [w for w in str(clause.value).split()[1:]
            if w.lower() not in lx.ADVERBS and w.lower() not in lx.STOPWORDS]
    if not said:
        return None
    if CALENDAR.search(" ".join(said)):
        return "time"
    return "name" if all(any(c.isupper() for c in w) for w in said) else None


def _completed(clause: Clause) -> frozenset[str]:
    """The terms of what a clause says was completed: the words after its main verb, a
    past form of a verb of completion (``has finished``: the value holds no auxiliary);
    none for another clause, or the present (``finishes a scarf every week``: a habit)."""
    words = str(clause.value).split()
    if not words or not words[0].lower().endswith("ed") or (
            lx.inflected_verb(words[0]) not in lx.COMPLETION_VERBS):
        return frozenset()
    return frozenset(view_terms(" ".join(words[1:]))) - _TEMPORAL_TERMS


_PROGRESSIVE = re.compile(r"\b(?:is|am|are)\s+(?:\w+ly\s+|still\s+|now\s+)?"
                          r"(?:(?P<going>[a-z]+ing\b.*)|on\s+(?P<on>.+))$", re.IGNORECASE)
_WORKS_ON = re.compile(r"\bworks?\s+(?:\w+ly\s+|still\s+|now\s+)?on\s+(?P<on>.+)$",
                       re.IGNORECASE)
"""``works on the malaria project``: the present of ``work on`` tells work going on."""


def _in_progress(text: str) -> frozenset[str] | None:
    """The terms of what a fact tells as going on now, of which what is completed must
    share one: a verb in the progressive and its object (``is reading Dune``: any term),
    or ``on`` a course, a regime or a trial (``is on steroids``, ``is on a course of iron
    tablets``, ``is on the VITAL trial``), whose head or last word must be shared: ``on the
    board of the Fence Society`` is held by no fence painted; so is what one ``works on``
    (``works on the malaria project``). None for any other fact."""
    text = expand_contractions(text)  # a fact keeps "I'm training for …" as said
    m = _PROGRESSIVE.search(text) or _WORKS_ON.search(text)
    if m is None:
        return None
    if m.groupdict().get("going") is not None:
        return view_terms(m.group("going"))
    words = [w.strip(EDGE).lower() for w in m.group("on").split()]
    heads = {words[-1], *(words[i - 1] for i in range(1, len(words)) if words[i] == "of")}
    return frozenset(view_terms(" ".join(heads)))


ROLE = "work.role"
"""The slot of what one is by trade or rank (``is a nurse``, ``was promoted to inspector``)."""


def _states_a_role(clause: Clause) -> bool:
    """Does a clause say what its subject is at a named organisation: a role there, or the
    copula and a person noun before ``at``, ``in``, ``for`` or ``with`` and a name (``is a
    sergeant in the Met``; not ``is a mother of two``, ``is a customer of Barclays``)?"""
    if "predicate:role-at-organisation" in clause.rules:
        return True
    frame = clause.frame or ""
    return ("predicate:copula" in clause.rules and _frame_lemma(frame) == "be"
            and _frame_object(frame) in lx.PERSON_NOUNS
            and frame.partition(".")[2] in ("at.name", "in.name", "for.name", "with.name"))


def _office_of(clause: Clause) -> tuple[str, str] | None:
    """(office, body) of a clause the office rule read
    (:func:`~memory_es.text.predicates.office_and_body`); None for any other clause."""
    if "predicate:office" not in clause.rules:
        return None
    return office_and_body(str(clause.value).split()[1:])


def _named_object(clause: Clause) -> list[str]:
    """The object of a clause's verb up to a preposition (``Dr Shah`` of ``sees Dr Shah for
    her back``), less adverbs and function words, when it is a name or a code (a capital
    letter or a digit in every word: ``Caddy``, ``the under-14s``), the subject is no one's
    possession, and no frame reads it but its head's (``sees Dr Shah for his knee``:
    ``see+Shah``); none otherwise. A common noun names a topic (``plays the oboe``,
    ``teaches chemistry``), one of several a person may have."""
    if _owned_text(clause) is not None or (
            clause.frame is not None and not clause.frame.endswith(".obj")
            and not _frame_object(clause.frame)[:1].isupper()):
        return []
    said: list[str] = []
    for word in str(clause.value).split()[1:]:
        low = word.lower().strip(EDGE)
        if low in PREPOSITIONS:
            break
        if low and low not in lx.ADVERBS and low not in lx.STOPWORDS:
            said.append(word.strip(EDGE))
    named = all(any(c.isupper() or c.isdigit() for c in w) for w in said)
    return said if named else []


def _owner_name(mention: str | None) -> str | None:
    """The possessive of the owner a fact's subject names (``Tom Hale's`` of ``Tom Hale``
    or of ``Tom Hale's dog``); None when it names no one by name."""
    owner = _OWNER.split(mention or "", maxsplit=1)[0].strip()
    return f"{owner}'s" if owner and owner[:1].isupper() else None


def _named_possessed(clause: Clause) -> list[str]:
    """The noun and the name a possessive subject gives the one it names, the name in
    apposition after the noun (``neighbour Paul`` of ``Ines's neighbour Paul``, ``bandmate
    Jo Hale``): a being with a name of its own, whatever the noun."""
    owned = _OWNER.split(clause.mention or "", maxsplit=1)
    if len(owned) < 2 or not _possessed(clause):
        return []
    said = owned[1].split()
    if len(said) < 2 or not said[0][:1].islower() or not all(w[:1].isupper() for w in said[1:]):
        return []
    return [w.casefold() for w in said]


def _person_named(clause: Clause) -> str | None:
    """The person a clause without an entity of its own names last (``Spoke with Priya
    Raman today``): what a pronoun in the next clause may point back to."""
    for name in reversed(clause.names):
        subject = analyse_subject(name, tokenize(name), [])
        if subject.kind == "person" and subject.entity is not None:
            return subject.entity
    return None


def _lookups(text: str, q: Query) -> list[str]:
    """What recall is asked for a query's candidates: the query, then for each identifier
    in it its own surface (unless it is the whole query), a phone number's written forms
    (the index keeps a number as one digit string; a long digit run may be a phone number)
    or a long code's forms."""
    out = [text]
    for ident in q.identifiers:
        if ident.surface.strip() != text.strip():
            out.append(ident.surface)
        if may_be_phone(ident):
            out.append(", ".join(phone_forms(ident.canonical)))
        elif ident.kind == "code" and len(ident.canonical) >= 12:
            out.append(", ".join(_code_forms(ident.canonical)))
    return out


def _code_forms(canonical: str) -> tuple[str, str, str]:
    """The ways a long code is written, as the keyword index splits them: compact, in
    groups of four (the print form of IBANs, ISO 13616, and of card numbers), and as
    its letter and digit runs (``GB29 NWBK …`` asked compact)."""
    return (canonical, " ".join(canonical[i:i + 4] for i in range(0, len(canonical), 4)),
            " ".join(re.findall(r"[a-z]+|\d+", canonical)))


def _labelled_with(entity: str | None, named: Mapping[str, str]) -> bool:
    """Is ``entity`` a topic whose label holds a named entity's name (``topic:weekly-sync-
    with-rhys-pritchard`` for ``person:rhys-pritchard``)? A topic is no person, so no
    other person's fact is ever reached this way."""
    if entity is None or not entity.startswith("topic:"):
        return False
    label = f"-{entity.split(':', 1)[1]}-"
    return any(f"-{e.split(':', 1)[1]}-" in label for e in named if e.startswith("person:"))


_LOCATIVES = frozenset(("in", "at", "on", "near", "by", "with"))


def _slot_of_kind(facts: list[Fact], clause: Clause) -> str | None:
    """The one slot among a change's possible readings whose current value (in ``facts``,
    the entity's) is a thing of the same kind as the new one, named by a common noun both
    share (``moved to the University of Sydney`` and ``works at the University of
    Queensland``: the employer changes); None when no held value, or several, share one
    (``moved to Meta`` says nothing of which slot)."""
    if not clause.alternatives:
        return None
    new = _kind_nouns(clause.value)
    slots = {f.attribute for f in facts if f.attribute in clause.alternatives
             and not f.negated and f.value != clause.value and new & _kind_nouns(f.value)}
    return slots.pop() if len(slots) == 1 else None


def _kind_nouns(value: object) -> frozenset[str]:
    """The common nouns in a value that say what kind of thing it names (``University``
    of ``University of Sydney``)."""
    return frozenset(w for w in re.findall(r"[^\W\d_]+", str(value).lower())
                     if w in lx.COMMON_NOUNS and w not in lx.STOPWORDS)


def _place_like(value: object) -> bool:
    """Does a value say where something is (``in Leeds``, ``Manchester``, whose hands it
    is in: ``with Aviva``), not what it is (``a Volvo``)? A change of place replaces only
    a place: ``moved her car to Leeds`` leaves ``Priya's car is a Volvo``, ``moved his
    pension to Scottish Widows`` replaces ``his pension is with Aviva``."""
    words = str(value).split()
    return bool(words) and (words[0].lower() in _LOCATIVES
                            or all(w[:1].isupper() for w in words))


def _states_the_past(text: str) -> bool:
    """Does a fact speak of the past (``used to``, ``until``, ``formerly``, a past-tense
    verb)? ``old`` says nothing of time in a fact (``restores old radios``)."""
    words = _word_set(text)
    return ("used to" in text.lower() or bool(words & ({"until"} | lx.PAST_MARKERS - {"old"}))
            or any(w in lx.VERBS_PAST for w in words))


def _past_only(sel: _Selection, query: str) -> _Selection:
    asked = _word_set(query) & lx.PAST_MARKERS
    if not asked:
        return sel
    kept = [m for m in sel.matches if _states_the_past(m.fact.text)
            or asked & _word_set(m.fact.text)]
    if len(kept) == len(sel.matches):
        return sel
    if kept:
        return _Selection(kept, sel.tier, entities=sel.entities, topics=sel.topics)
    return _Selection([], "none", entities=sel.entities, candidates=sel.matches,
                      note="no match: the query asks for a former thing and the facts "
                           "it meets state the present")


def _display_name(entity: str, named: Mapping[str, str], views: Sequence[FactView]) -> str:
    """How the entity's facts write its name (``Ines Moreau``), else how the query did."""
    return next((v.fact.mention for v in views if v.fact.entity == entity and v.fact.mention),
                named.get(entity, ""))


def _said_of(text: str, name: str) -> str:
    """A clause written without its subject, written out with the name of the entity it
    is about (``Ines Moreau switched from …``), so the fact reads on its own in recall
    and in an audit; left as it is when it does not open on a verb."""
    first = text.split(maxsplit=1)[0] if text.strip() else ""
    if not name or not lx.lemma_of(first.strip(EDGE)):
        return text
    return f"{name} {text[0].lower()}{text[1:]}"


def _object_terms(predicate: object, entity: str) -> frozenset[str] | None:
    """The terms of a predicate's object: the words after its verb up to the first
    preposition (``sold his red Ford to …``: red, ford), the entity's names left out;
    None when there are none."""
    words = str(predicate).split()[1:]
    cut = next((i for i, w in enumerate(words) if w.lower() in PREPOSITIONS), len(words))
    found = view_terms(" ".join(words[:cut])) - entity_terms(entity)
    return found or None


_MEANS = frozenset({"with", "on"})
"""Prepositions of the means an act is done with, after its object (``shoots weddings
with a Canon R5``, ``cycles to work on a Trek hybrid``)."""


def _instrument_words(predicate: object) -> list[str]:
    """The words of what a predicate's act is done with or on, after its object (``shoots
    weddings with a Canon R5``: Canon, R5; ``cycles to work on a Trek hybrid``), up to the
    next preposition, as written; none without such a phrase (``flies with KLM``: right
    after the verb, the preposition names the verb's own thing, :func:`_thing_words`)."""
    words = [w.strip(EDGE) for w in str(predicate).split()[1:]]
    at = next((i for i, w in enumerate(words) if w.lower() in _MEANS), None)
    if not at:
        return []
    rest = words[at + 1:]
    cut = next((i for i, w in enumerate(rest) if w.lower() in PREPOSITIONS), len(rest))
    return [w for w in rest[:cut] if w and w.lower() not in lx.STOPWORDS]


def _act_object(predicate: object, entity: str) -> frozenset[str]:
    """The terms of a predicate's object less when or how often (``takes warfarin
    daily``, ``drinks coffee every morning``: the drug, the drink)."""
    return (_object_terms(predicate, entity) or frozenset()) - _TEMPORAL_TERMS - _ADVERB_TERMS


_GOAL = frozenset({"to", "into", "onto"})
"""Prepositions of a goal: what follows is where a change went, not what ended."""


_ZH_GOING = frozenset(lx.CHINESE["going"])


def _without_later_adjuncts(clause: Clause) -> Clause:
    """An ending without the reasons and circumstances told after its object (``has left
    the chorus because the Monday rehearsals were too tiring alongside her job``: the
    chorus ended, not the rehearsals nor the job), so that none of their words is taken
    for what ended. An adjunct that is all the verb has is its object (``stopped following
    the podcast``: ``following`` opens no reason there)."""
    value, text = str(clause.value), clause.text
    for _marker, piece in clause.adjuncts:
        at, in_text = value.find(piece), text.find(piece)
        if at > 0 and in_text > 0 and _after_verb(value[:at]):
            value, text = value[:at].rstrip(" ,;"), text[:in_text].rstrip(" ,;")
    if value == str(clause.value):
        return clause
    return replace(clause, value=value, text=text,
                   domains=domains_in([w.lower().strip(EDGE) for w in value.split()]))


def _ended_object(predicate: object, entity: str) -> frozenset[str] | None:
    """What an ending ends: the verb's object (:func:`_object_terms`) or, for a verb with
    none, the thing after its particle and preposition (``stepped down from the staff
    committee``, ``no longer volunteers at the library``: it leaves ``volunteers at the
    animal shelter``; ``no longer works on Project Orion``). A name after ``with`` is
    whom the state was with (``broke up with Tom Berg``): the verb's topic says which
    state ended, not the name. A day or date is when it ended (``died on Monday``). After
    a verb of ending and a gerund with no object of its own, it is what the gerund's
    preposition names (``stopped going to the pool``: the pool)."""
    predicate = without_ending_participle(without_times(str(predicate)))
    words = _after_verb(predicate)
    if (act := _act_of_a_name(words)) is not None:
        return _object_terms(" ".join(words[act + 2:]), entity)
    if _gerund(predicate):
        # "stopped going to the pool": where the act that ended went (its verb's forms
        # share no stem: goes, going)
        return _object_terms(" ".join(words[1:]), entity)
    if not words or words[0].lower() not in PREPOSITIONS or words[0].lower() in _GOAL:
        # "dropped to Silver": where it went; "gave away his trampoline", "gave his
        # trampoline away": the particle is the verb's, no word of what ended
        if words and words[-1].lower().strip(EDGE) in lx.PARTICLES:
            words = words[:-1]
        return _object_terms(" ".join([predicate.split()[0], *words]), entity)
    if words[0].lower() == "with" and all(
            w[:1].isupper() for w in words[1:] if w.lower() not in lx.STOPWORDS):
        return None
    return _object_terms(" ".join(words), entity)


def _act_of_a_name(words: Sequence[str]) -> int | None:
    """Where ``the running of the St Cuthbert Street bookshop`` names its act (the index
    of ``running``), when an act (a gerund, or a noun made from a verb: ``management``,
    or from its agent: ``leadership``) is done ``of`` a thing with a proper name: what
    ended is that thing, whatever verb told the act (``manages the bookshop on St
    Cuthbert Street``, ``leads the 3rd Hexham Scout Troop``). None otherwise."""
    at = 1 if words and words[0].lower() in ("the", "her", "his", "their", "my", "our") else 0
    if len(words) < at + 3 or words[at + 1].lower() != "of":
        return None
    act = words[at].lower()
    if not ((act.endswith("ing") and lx.lemma_of(act))
            or (act.endswith("ment") and lx.lemma_of(act[:-4]))
            or (act.endswith("ership") and lx.lemma_of(act[:-6]))):
        return None
    named = [w for w in words[at + 2:] if w[:1].isupper()]
    return at if named else None


def _after_verb(predicate: str) -> list[str]:
    """The words after a predicate's verb and the particle right after it (``gave up the
    allotment``: the allotment), or the word that makes a phrase of ending with it
    (``made redundant from the school``: the school), or a pronoun before a preposition,
    whom the act took from it (``retired him from trialling at Bala``: trialling)."""
    said = predicate.split()
    words = said[1:]
    return words[1:] if words and (words[0].lower() in lx.PARTICLES or " ".join(
        said[:2]).lower() in lx.CESSATION_PHRASES or (
            words[0].lower() in _OBJECT_PRONOUNS and words[1:2]
            and words[1].lower() in PREPOSITIONS)) else words


_OBJECT_PRONOUNS = frozenset({"him", "her", "them", "it", "me", "us"})


def _ended_gerund(predicate: object) -> str | None:
    """The lemma of the gerund a verb of ending takes before a preposition (``stopped
    cycling to work``: cycle): the act that ended, whose place or goal
    :func:`_ended_object` names. None for going or coming to a place or an event a name
    tells (``stopped going to Thursday practice at Holy Trinity``): there the act is only
    the attending, and the named place is what ended, whatever one did there; ``stopped
    going to work`` keeps its gerund (``work`` names no one place)."""
    lemma = _gerund(predicate)
    if lemma in _ATTENDING and any(w[:1].isupper() for w in _after_verb(
            without_ending_participle(without_times(str(predicate))))[2:]):
        return None
    return lemma


def _gerund(predicate: object) -> str | None:
    """The lemma of a gerund right after the verb and before a preposition (``stopped
    going to the pool``: go)."""
    words = _after_verb(without_ending_participle(without_times(str(predicate))))
    if len(words) > 2 and words[0].lower().endswith("ing") and words[1].lower() in PREPOSITIONS:
        return lx.inflected_verb(words[0].lower())
    return None


_ATTENDING = frozenset({"go", "come"})
"""Verbs of going whose gerund, before a named place, tells attending it."""


def _explains_an_ending(text: str, before: Clause, clause: Clause) -> bool:
    """Does ``clause`` follow ``before`` after a semicolon or a colon, the punctuation of
    a clause that explains the one before it, when ``before`` ends or denies a thing it
    names (``isn't on the rescue team any more; she resigned in April``)?"""
    at = text.find(clause.text)
    return (at > 0 and text[:at].rstrip().endswith((";", ":"))
            and (before.ends_prior or before.negated) and bool(_object_words(before)))


def _object_words(clause: Clause) -> list[str]:
    """The content words after a clause's verb, its times left out (``quit her job in
    March``: job)."""
    said = CALENDAR.sub(" ", without_time(str(clause.value)))
    words = re.findall(r"[^\W\d_]+", said.casefold())[1:]
    return [w for w in words if w not in lx.STOPWORDS and w not in PREPOSITIONS
            and w not in lx.POSSESSIVE_DETERMINERS and not SEASON_OR_MONTH.fullmatch(w)]


def _ended_topics(clause: Clause) -> frozenset[str]:
    """The life domains a cessation ends as a whole: those its object, or the thing its
    subject possesses, only names (``quit her job``, ``Lucia's job ended``: every word
    names work, as ``lexicon.names_topic`` reads it), or, with neither, those its verb is
    a word of (``retired``, ``resigned``: work; ``Carla's father retired`` too, whose
    facts alone :meth:`TextInterface._end_topic` ends); none for
    someone else's act (:func:`_acts`), nor for a value that is no verb (``no longer
    allergic to penicillin``: the allergen is of health, and ends only its own fact).
    A verb that is neither a verb of ending nor the domain's own name is one act of it:
    ``no longer cycles on Sundays`` ends the cycling, not ``takes bus 38 to work``, while
    ``no longer works`` ends work."""
    said = str(clause.value).split()
    if not said or _acts(clause):
        return frozenset()
    rest = _object_words(clause) or ([] if _possessed_people(clause) else _possessed(clause))
    if not rest:
        verb = said[0].strip(EDGE).lower()
        lemma = lx.lemma_of(verb)
        if lemma is None:
            return frozenset()
        domains = lx.domains_of(verb) | lx.domains_of(lemma)
        if lemma in lx.CESSATION_VERBS:
            return domains
        return frozenset(d for d in domains if lx.names_topic(lemma, d))
    named = [frozenset(d for d in lx.DOMAINS if lx.names_topic(w, d)) for w in rest]
    return frozenset.intersection(*named)


def _moved_thing(clause: Clause) -> frozenset[str]:
    """The terms of what a verb of change moved ``from`` one place to another, said
    between the verb and ``from`` (``moved Tansy from Castle Vets to …``: tansy); none
    when the subject moved itself (``moved from Leeds to York``)."""
    moved = _FROM_TO.search(clause.text)
    if moved is None:
        return frozenset()
    words = clause.text[:moved.start()].split()
    at = next((i for i, w in enumerate(words)
               if lx.lemma_of(w.strip(EDGE)) in lx.CHANGE_VERBS), None)
    return frozenset() if at is None else frozenset(view_terms(" ".join(words[at + 1:])))


def _name_ends_in(thing: Sequence[str], left: frozenset[str]) -> bool:
    """Is ``left`` the end of the proper name that ends a thing (``the Yaris`` of ``a red
    Toyota Yaris``, ``the Toyota Yaris`` too): a name is called by its last words, the
    model by its name without the make; never by its first (``Leeds`` is not ``Leeds
    United``). A model number after the name is no part of what it is called by (``the
    Defender`` of ``a Land Rover Defender 110``)."""
    thing = list(thing)
    while len(thing) > 2 and any(c.isdigit() for c in thing[-1]):
        thing.pop()
    run = 0
    while run < len(thing) and thing[len(thing) - 1 - run][:1].isupper():
        run += 1
    return run >= 2 and any(view_terms(" ".join(thing[len(thing) - k:])) == left
                            for k in range(1, run + 1))


def _thing_words(predicate: object) -> list[str]:
    """The words of a predicate's thing: after its verb and a preposition right after it,
    up to the next preposition (``banks with Barclays``: Barclays; ``uses an Android phone
    at work``: an Android phone), as written."""
    words = [w.strip(EDGE) for w in str(predicate).split()[1:]]
    if words and words[0].lower() in PREPOSITIONS:
        words = words[1:]
    cut = next((i for i, w in enumerate(words) if w.lower() in PREPOSITIONS), len(words))
    return [w for w in words[:cut] if w and w.lower() not in lx.STOPWORDS]


def _same_verb(in_topic: Sequence[Match], reading: Interpretation) -> Match | None:
    """Of an entity's several facts in the topic a revise names (``Yuki's language``:
    ``speaks Welsh``, ``is learning Spanish``), the one whose verb the new text uses
    (``Yuki speaks Irish``); None when no fact, or more than one, has it."""
    said = {v for c in reading.clauses if not c.negated and (v := _lead_verb(c.text))}
    hits = [m for m in in_topic if _lead_verb(m.fact.text) in said]
    return hits[0] if len(hits) == 1 else None


def _only_own(in_topic: Sequence[Match]) -> Match | None:
    """Of an entity's several facts in the topic a revise names (``Kwame's pet``: ``has a
    cat``, ``feeds the neighbour's dog``), the one left once the facts whose predicate
    names someone else's thing are set aside (the neighbour's dog is no pet of his);
    None when none is left, or more than one (``has a hamster``, ``keeps two goldfish``)."""
    own = [m for m in in_topic if not _ANOTHERS.search(_predicate(m.fact.text))]
    return own[0] if len(own) == 1 else None


def _predicate(text: str) -> str:
    """A text after the name that opens it (``Kwame's cat is called Tom``: ``cat is called
    Tom``, his cat)."""
    words = text.split()
    return " ".join(next((words[i:] for i, w in enumerate(words) if not w[:1].isupper()), []))


_ANOTHERS = re.compile(r"\b[^\W\d_A-Z]+['\u2019]s\s+[^\W\d_]")
"""A common noun's possessive before what it owns, in a predicate (``the neighbour's
dog``, ``her sister's cat``); a name's is often a place (``works at St Mary's``)."""


def _same_verb_form(one: str, other: str) -> bool:
    """Are two words forms of one verb: the same lemma (``makes``, ``made``), or, for a
    verb the lexicon does not know, the same stem (``brews``, ``brewed``)?"""
    lemma = lx.lemma_of(one.lower())
    if lemma is not None:
        return lemma == lx.lemma_of(other.lower())
    return bool(view_terms(one)) and view_terms(one) == view_terms(other)


def _lead_verb(text: str) -> str | None:
    """The lemma of a text's first verb, or None."""
    return next((lemma for w in text.split() if (lemma := lx.lemma_of(w.strip(EDGE)))), None)


def _verb_lemmas(text: str) -> set[str]:
    return {lemma for w in text.split() if (lemma := lx.lemma_of(w.strip(EDGE)))}


def _content_terms(query: str, entities: Mapping[str, str]) -> frozenset[str]:
    """The query's terms once the names of the entities it names are set aside."""
    return frozenset(content_terms(analyse_query(query), query_terms_naming(dict(entities))))


def _named_value(fact: Fact) -> bool:
    """Is the fact's value a proper name as a whole (a slot's value: ``Austin`` of ``is
    headquartered in Austin``)?"""
    words = str(fact.value).split()
    return bool(words) and all(w[:1].isupper() for w in words)


def _proper_words(text: str) -> set[str]:
    """Capitalised words of a text after its first word, case-folded."""
    return {w.strip(EDGE).casefold() for i, w in enumerate(text.split())
            if i > 0 and w[:1].isupper() and w.strip(EDGE)}


def _named_back(query: Query, new_text: str, reading: Interpretation,
                entities: dict[str, str],
                scope: Sequence[FactView]) -> Match | None:
    """Revise only, when nothing else matched and the query names an entity: a clause of
    the new text reports the end of exactly one of the entity's facts by its words
    (``Cancelled the vegetable box`` -> ``subscribes to a weekly vegetable box``). Or the
    query names a topic (:func:`~memory_es.text.matching.query_domains`), the new text is
    about that topic and names back exactly one of the entity's facts by a proper name
    both carry (``user pet`` + ``… a greyhound after Max passed away`` -> ``owns a
    retriever named Max``), although the vocabulary does not know that fact's topic; or
    the new text names back a fact of that topic whatever its own words (``Mateo's car``
    + ``Sold the Skoda, bought …`` -> ``drives a Skoda``). The entity's own names do not
    count."""
    own = {w for e in entities for k in entity_keys(e) for w in k.split()}
    ended = _ended_terms(reading) - {stem(w) for w in own}
    hits = [(v, shared) for v in scope if (shared := set(v.terms) & ended)]
    if len(hits) == 1:
        v, shared = hits[0]
        return Match(v.fact, "semantic", 0.5, "the new text ends it: " + ", ".join(sorted(shared)))
    topics = query_domains(query, query_terms_naming(entities))
    if not topics:
        return None
    about = any(set(c.domains) & topics for c in reading.clauses)
    said = _proper_words(new_text) - own
    hits = [(v, shared) for v in scope if (about or v.domains & topics)
            and (shared := _proper_words(v.fact.text) - own) & said]
    if len(hits) != 1:
        return None
    v, shared = hits[0]
    return Match(v.fact, "semantic", 0.5,
                 "the new text names it back: " + ", ".join(sorted(shared & said)))


def _ended_terms(reading: Interpretation) -> set[str]:
    """The content terms of what a clause says has ended, without the verb and the time:
    a clause that reports an end (``Cancelled the vegetable box in May``: vegetable, box),
    or the ``from`` phrase of a verb of change (``switched from Vodafone to Three``:
    vodafone)."""
    out: set[str] = set()
    for c in reading.clauses:
        if c.negated:
            continue
        if c.ends_prior:
            out |= set(view_terms(" ".join(c.text.split()[1:]))) - _TEMPORAL_TERMS
        out |= _switched_from(c)
    return out


def _switched_from(clause: Clause) -> frozenset[str]:
    """The terms of the ``from`` phrase of a verb of change (``switched from Vodafone to
    Three``: vodafone); none for any other clause."""
    moved = _FROM_TO.search(clause.text)
    if moved and lx.CHANGE_VERBS & _verb_lemmas(clause.text[:moved.start()]):
        return frozenset(view_terms(moved.group(1)) - _TEMPORAL_TERMS)
    return frozenset()


def _given_for(clause: Clause) -> frozenset[str]:
    """The terms of what a verb of exchange gives up, up to five words between it and the
    preposition of what it takes (``traded her Skoda for a Kia``, ``replaced his bike with
    a Brompton``: skoda, bike); none for any other clause, nor when a time follows ``for``
    (``traded shifts for the weekend``: for how long, not for what)."""
    words = [w.strip(EDGE).lower() for w in clause.text.split()]
    at, taking = next(((i, lx.EXCHANGE_VERBS[lemma]) for i, w in enumerate(words)
                       if (lemma := lx.lemma_of(w)) in lx.EXCHANGE_VERBS), (None, ""))
    by = None if at is None else next(
        (j for j in range(at + 2, min(at + 7, len(words))) if words[j] == taking), None)
    if at is None or by is None:
        return frozenset()
    taken = [w for w in words[by + 1:by + 4] if w not in lx.STOPWORDS]
    if taken and taken[0] in lx.TEMPORAL_WORDS:
        return frozenset()
    return frozenset(view_terms(" ".join(words[at + 1:by])) - _TEMPORAL_TERMS)


def _instead_of(clause: Clause) -> tuple[str, frozenset[str]] | None:
    """(the verb, the terms of what it no longer takes) of a clause whose object stands
    ``instead of`` another (``now takes apixaban instead of warfarin``: take, warfarin);
    None for any other clause, or one without a main verb of its own."""
    replaced = _INSTEAD.search(clause.text)
    verb = _main_verb(clause)
    if replaced is None or verb is None:
        return None
    return verb, frozenset(view_terms(replaced.group(1)) - _TEMPORAL_TERMS)


def _switched_thing(clause: Clause) -> tuple[str, str] | None:
    """(the distinctive word of the thing, the new provider) of a verb of change that
    moves a possessed thing to a proper name with no ``from`` (``switched her bank account
    to Monzo``: bank, monzo; ``moved her bank to Starling``: bank, starling), read from
    the clause's words whichever predicate rule read it; None for any other clause. Of a
    compound the first word tells the thing apart (a gym membership is not a library
    membership)."""
    words = [w.strip(EDGE) for w in clause.text.split()]
    at = next((i for i in range(1, len(words) - 1)
               if (words[i].lower() in lx.POSSESSIVE_DETERMINERS or _kind_in_plural(words, i))
               and lx.CHANGE_VERBS & _verb_lemmas(words[i - 1])), None)
    if at is None or "to" not in words[at + 1:]:
        return None
    to = words.index("to", at + 1)
    thing = [w for w in words[at + (0 if _kind_in_plural(words, at) else 1):to]
             if w.lower() not in lx.STOPWORDS]
    after = [w for w in words[to + 1:] if w.lower() not in lx.STOPWORDS][:1]  # "to The Gym …"
    if not thing or not after or not after[0][:1].isupper():
        return None
    modifier, provider = view_terms(thing[0]), view_terms(after[0])
    if len(modifier) != 1 or len(provider) != 1:
        return None
    return next(iter(modifier)), next(iter(provider))


def _kind_in_plural(words: list[str], i: int) -> bool:
    """``switched vets to …``, ``changed banks to …``: a plural noun alone between the
    verb and ``to`` names the kind of thing whose provider changed, as ``her vet`` would."""
    w = words[i].lower()
    return (words[i + 1:i + 2] == ["to"] and len(w) > 3 and w.endswith("s")
            and w.isalpha() and w not in lx.STOPWORDS)


def _slot_verb(attribute: str) -> str:
    """The word a slot is headed by; for a person or a thing of the owner's, the word
    after it (``prop.mother.play.bridge``: play; ``prop.dog_rex.die``: die;
    ``prop.mother``: none): ``prop`` heads every such slot, and is no verb two of them
    share."""
    parts = attribute.split(".")
    if parts[0] != "prop" or len(parts) < 2:
        return parts[0]
    rest = list(itertools.dropwhile(lx.names_a_person, parts[2:]))
    return rest[0] if rest else ""


def _does_too(clause: Clause) -> bool:
    """Whether a possessive subject does what another does, said with ``too`` or
    ``also`` (``Thandiwe's co-host records on a Samson Q2U too``): a thing has no act in
    common with its owner, so whatever its noun it is someone of the owner's."""
    return (ADDS_RULE in clause.rules and bool(_possessed(clause))
            and _main_verb(clause) is not None)


def _acts(clause: Clause) -> bool:
    """Whether a possessive subject does something to an object of its own (``Leila's
    manager left Deloitte``, ``Ana's boss sold the bakery``): then it is someone else, not
    a thing of the owner's that ended, and no fact of the owner's stands in for it by
    topic. A possessed thing with no object after its verb is what ended (``Lucia's job
    ended``, ``Dev's flight to Oslo was cancelled``)."""
    return bool(_possessed(clause)) and _object_terms(clause.value, clause.entity or "") is not None


_EXCEPTION = re.compile(r"\s+(?:except(?:\s+for)?|apart\s+from|but\s+not|other\s+than|"
                        r"save\s+for)\s+(?P<kept>.+)$", re.IGNORECASE)
"""The exceptive prepositions of English: what follows them is kept."""
_THINGS = re.compile(r"\s*,\s*(?:and\s+)?|\s+and\s+", re.IGNORECASE)

_TEMPORAL_TERMS = frozenset(stem(w) for w in lx.TEMPORAL_WORDS)
_NEGATOR_TERMS = frozenset(stem(w) for w in lx.NEGATORS)
_FROM_TO = re.compile(r"\bfrom\s+(.+?)\s+to\s+", re.IGNORECASE)
_ADVERB_TERMS = frozenset(stem(w) for w in lx.ADVERBS)
_BELOW = re.compile(r"\s+(?:" + "|".join(p.replace(" ", r"\s+") for p in lx.PREFERRED_OVER)
                    + r")\s+(.+?)[.!]?$", re.IGNORECASE)
"""What a preference puts below the thing preferred (``prefers tea to coffee``)."""
_INSTEAD = re.compile(r"\b(?:instead\s+of|rather\s+than)\s+(.+?)$", re.IGNORECASE)


def _role_words(f: Fact) -> frozenset[str]:
    words = {stem(w) for w in word_parts((f.entity or "").lower())}
    words |= {stem(w) for c in interpret(f.text).clauses for w in word_forms(c.mention or "")}
    return frozenset(words)


def _is_alias(store: TextStore, tenant: str, surface: str) -> bool:
    """Does ``surface`` already name an entity (it resolves, even with no current fact)?"""
    try:
        store.current(tenant, entity=surface)
    except (InvalidInput, NotFound):
        return False
    return True


def _alias(tenant: str, surface: str, entity: str) -> Op:
    def op(w: TextWriter) -> Receipt:
        try:
            return w.alias(tenant, surface, entity)
        except InvalidInput:
            raise NotFound("alias not registered") from None
    return op


def _forget_entity(tenant: str, entity: str, reason: str) -> Op:
    return lambda w: w.forget_entity(tenant, entity, reason=reason)


def _forget_fact(tenant: str, fact_id: str, reason: str) -> Op:
    return lambda w: w.forget_fact(fact_id, reason=reason, tenant=tenant)


def _denies_a_value(clause: Clause) -> bool:
    """A confident reading of "X is not / does not ... <value>" on a known slot."""
    return (clause.confident and clause.negated
            and isinstance(clause.value, str) and bool(clause.value.strip()))


_ADDITIVE_TAIL = re.compile(
    rf"\s+(?:{'|'.join(re.escape(m) for m in lx.ADDITIVE_MARKERS)})\W*$", re.IGNORECASE)


def _without_additive(value: str) -> str:
    """A value as said without the additive adverb after it (``Cork too``: cork)."""
    return _ADDITIVE_TAIL.sub("", value).casefold()


def _replace_the_one(held: list[Fact], tenant: str, clause: Clause, plan: _Plan) -> None:
    """Replace the one fact a change can mean; with several, which is meant is not said,
    and none ends."""
    if len(held) == 1:
        plan.add(_decay(held[0].fact_id, tenant, f"replaced: {clause.text}"))


def _decay(fact_id: str, tenant: str, reason: str) -> Op:
    return lambda w: w.decay(fact_id, reason=reason[:1024], tenant=tenant)


def _target(m: Match, by: str | None = None) -> Target:
    return Target(fact_id=m.fact.fact_id, entity=m.fact.entity, attribute=m.fact.attribute,
                  text=m.fact.text, by=by or m.by, score=m.score, detail=m.detail)


def _nearest(query: Query, scope: Sequence[FactView], views: Sequence[FactView],
             th: Thresholds, skip: Iterable[str], n: int = 3) -> list[Match]:
    """The candidates a query came closest to (never acted on): best coverage first."""
    if not scope:
        return []
    idf = idf_weights(views)
    skip = tuple(skip)
    scored = sorted(((coverage(query, v, idf, th, skip), v) for v in scope),
                    key=lambda p: -p[0])
    return [Match(v.fact, "candidate", round(c, 4)) for c, v in scored[:n] if c > 0] or [
        Match(v.fact, "candidate", 0.0) for _c, v in scored[:n]]


def _no_match(op: str, query: str, sel: _Selection) -> TextResult:
    return TextResult(op=op, query=query,
                      targets=[_target(m, "candidate") for m in sel.candidates],
                      note=sel.note or "no match: nothing changed")


def _dated(options: WriteOptions, clause: Clause, now: datetime) -> WriteOptions:
    """Options with ``valid_from`` from the clause's relative time phrase (``last month``,
    ``3 years ago``), unless the caller gave one."""
    if "valid_from" in options or not clause.temporal:
        return options
    start = valid_from_of(clause.temporal, now)
    if start is None:
        return options
    dated = options.copy()
    dated["valid_from"] = start
    return dated


def _per_clause(options: WriteOptions, n: int) -> WriteOptions:
    """One idempotency key per clause (``key#n``): a retried call replays every receipt."""
    key = options.get("idempotency_key")
    if key is None:
        return options
    per_clause = options.copy()
    per_clause["idempotency_key"] = f"{key}#{n}"
    return per_clause


__all__ = ["Target", "TextInterface", "TextResult"]
