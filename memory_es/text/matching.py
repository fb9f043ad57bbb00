"""Which current facts a text query names: exact identifier, then names, then words.

Pure functions over :class:`~memory_es.models.Fact` values (no store access), so the
targeting rules are testable on their own. The tiers, in order:

1. **Identifier** — the query carries an identifier (e-mail, phone, key, account id,
   URL…) and some facts carry the same canonical identifier (``identifiers.matches``).
   Only those facts are targets; nothing lexical is consulted.
2. **Entity name** — a word sequence of the query names an entity exactly (its
   canonical local part, a registered surface, a name the fact's subject carries:
   ``Mira``, ``patient Wang Fang``, ``The Blue Lantern Inn``). Width control: a name
   matches whole names only (``Ann Lee`` never ``Ann Leeds``). The words left in the
   query then pick among that entity's facts (tier 3); when the query asks for the
   entity as a whole (``everything``, ``all``, ``profile``, ``information``…) or nothing
   more specific matches, release/forget/purge act on the whole entity: its facts and
   the facts that name it.
3. **Words** — the query's content words are compared with each candidate fact's
   words, identifier parts and topic domains, weighted by rarity in the tenant (IDF).
   Words are read the way recall reads them: the pieces and light stems of
   :mod:`projections.tokens` (:func:`~projections.tokens.word_forms`,
   :func:`~projections.tokens.stem`). A fact is a target when its coverage clears
   ``min_coverage`` and ``ratio`` of the best fact's coverage (see :class:`Thresholds`).
4. **Semantic** (revise only) — when nothing clears tier 3, a fact is still the target
   if it is the *clear best*: coverage (words or topic domains) at least
   ``semantic_floor`` and no other candidate reaching half of it; otherwise the store's
   ``recall`` ranking (when the store has one) picks among the contenders. A query that
   names an entity holding a single current fact targets that fact. A query that names
   an entity and then only a topic, by a noun that names the topic (``Liam diet``,
   ``Lena's occupation``), targets that entity's one fact in the topic
   (:func:`topic_match`), when the new text is about it.

Release, forget and purge never use tier 4: below the thresholds they do nothing.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

from memory_es.models import Fact
from memory_es.text import lexicon as lx
from memory_es.text.identifiers import (
    Identifier,
    code_tokens,
    find_identifiers,
    is_label,
    matches,
    query_identifiers,
)
from memory_es.text.interpreter import interpret
from memory_es.text.lexicon import words
from memory_es.text.normalize import (
    ascii_fold,
    clean,
    is_latin_text,
    name_forms,
    name_keys,
    nfkc,
    query_name_keys,
    script_of,
    strip_symbols,
)
from memory_es.text.qualifiers import TEMPORAL
from memory_es.text.requests import without_request
from memory_es.text.segment import (
    OPERATION_WORDS,
    content_words,
    indexed_words,
    is_chinese_run,
)
from memory_es.text.words import EDGE
from projections.tokens import stem, word_forms, word_parts

IDENTIFIER_NAMESPACES = frozenset({"email", "phone", "url", "domain", "path", "ip", "mac",
                                   "token", "date", "time", "handle", "code", "id", "card",
                                   "secret"})
"""Entity namespaces that stand for one identifier: erasing it erases the entity."""

PERSON_WORDS = words("""
people person persons who whom whose someone somebody anyone anybody everyone individuals
employees employee staff colleagues members member customers clients patients users team
teammates coworkers friends humans names
""")


PERSON_NAMESPACES = frozenset({"person", "user"} | lx.ROLE_NOUNS)

_GENERIC_TERMS = frozenset(stem(w) for w in lx.ROLE_NOUNS | lx.INFO_NOUNS)
"""Role and information nouns as query terms: generic, never what a query is about."""
_KNOWING = frozenset(stem(w) for w in lx.KNOWING_VERBS | lx.INFO_QUALIFIERS)


@dataclass(frozen=True)
class Thresholds:
    """The documented thresholds below which the text interface does not act.

    Attributes:
        min_coverage: share of the query's (IDF-weighted) content words a fact must
            cover to be a lexical target (0..1).
        ratio: a lexical target must reach this share of the best fact's coverage, so
            only the facts the query describes best are touched.
        purge_ratio: the same ratio for purges (irreversible, so stricter).
        semantic_floor: tier 4 (revise only) accepts a fact below ``min_coverage`` only
            if it covers at least this share of the query's words or topics.
        domain_credit: credit for a query word that only meets a fact through its topic
            domain (``vehicle`` ~ ``drives``), relative to an exact word (1.0).
        part_credit: credit for a query word found only as part of a compound token.
    """

    min_coverage: float = 0.30
    ratio: float = 0.75
    purge_ratio: float = 0.85
    semantic_floor: float = 0.15
    domain_credit: float = 0.5
    part_credit: float = 0.7


DEFAULT_THRESHOLDS = Thresholds()


# --- analysis of facts and queries ----------------------------------------------------------

_COMPOUND = re.compile(r"[\-_./:@+#]")
NEGATION_TERM = "¬"
"""The term every negated text carries (``not``, ``never``, ``isn't``, ``no longer``)."""


def _is_compound(form: str) -> bool:
    """An identifier or a joined word (``acct-7731``, ``nora@corp.io``, ``half-sister``)."""
    return bool(_COMPOUND.search(form.strip("-")))


def _term(form: str) -> str:
    """How a word form is compared: a compound whole, a word by its stem."""
    return form.strip("-#") if _is_compound(form) else stem(form)


def _cleaned(text: str) -> str:
    """The text as targeting reads it: symbols dropped, homoglyphs folded, obfuscated
    addresses restored (its words are then the recall tokenizer's word forms)."""
    return clean(strip_symbols(text))


def _negates(form: str) -> bool:
    return form.endswith(lx.NEGATED_CONTRACTIONS) or form in lx.NEGATORS or (
        form in lx.NEGATING_VERBS)


def acronyms(text: str) -> frozenset[str]:
    """Words written as acronyms (2-5 capitals: ``MIT``, ``IT``, ``US``), lower-cased:
    content even where the lower-case word is a function word (``mit``, ``it``, ``us``).
    None when the text is written mostly in capitals (there case says nothing)."""
    caps = re.findall(r"(?<![\w'’])[A-Z]{2,5}(?![\w'’])", text)
    if not caps or _mostly_capitals(text):
        return frozenset()
    return frozenset(c.lower() for c in caps)


def _mostly_capitals(text: str) -> bool:
    words: list[str] = re.findall(r"[^\W\d_]{2,}", text)
    return 2 * sum(w.isupper() for w in words) > len(words)


def acronym_plurals(text: str) -> dict[str, str]:
    """Plurals written as an acronym and a lower-case ``s`` (``GPUs``, ``VMs``, ``SSDs``),
    lower-cased, to the acronym they count: the light stem keeps ``gpus`` (a word in
    ``-us`` is no plural), and the acronym's case says it is one."""
    found = re.findall(r"(?<![\w'’])[A-Z]{2,5}s(?![\w'’])", text)
    if not found or _mostly_capitals(text):  # in capitals, case says nothing
        return {}
    return {m.lower(): m[:-1].lower() for m in found}


_POSSESSED = re.compile(r"([^\W\d_]+)['’]s\s+([^\W\d_]+)")
_AFTER_IS = lx.PREPOSITIONS | words("""
a an the and or but nor not no now still also just very really too so here there again
up out than then such any some all each every this that these those my your his her its
our their what which who whom whose where when how why is are was were be been being am
""")
"""Words that follow an ``'s`` that is ``is`` (``Mia's in Oslo``, ``Mia's not here``),
or a possessive that is no determiner (``Mia's and Tom's``): never what is possessed."""


def possessed_nouns(text: str) -> frozenset[str]:
    """Words of the stopword list that name what a possessive possesses (``Mia's will``,
    ``Tom's list``, ``Ana's hat``): content here. Dropped, ``release Mia's will`` named
    Mia alone, and so asked for all of her."""
    return frozenset(w for owner, w in ((m.group(1).lower(), m.group(2).lower())
                                        for m in _POSSESSED.finditer(text))
                     if owner not in lx.STOPWORDS and w in lx.STOPWORDS and w not in _AFTER_IS)


_TITLED = re.compile(r"\b([^\W\d_]+)\.?\s+(?=[A-Z])")


def titles(text: str) -> frozenset[str]:
    """Titles written before a name (``Dr Vogt``, ``Prof. Caro``): they say who is meant,
    never what of them, so they are no content (``Dr Vogt's cat`` shared ``dr`` with
    ``Dr Lena Vogt works at the Charité`` and took it too)."""
    return frozenset(w for w in (m.group(1).lower() for m in _TITLED.finditer(text))
                     if w in lx.HONORIFICS)


def titled_callings(text: str) -> frozenset[str]:
    """``sees Dr Obi``: a title that is a calling, before a name other than the text's
    first, says the person named is a doctor, so the fact is about one (``Alma's
    doctor`` finds it). The subject's own title (``Dr Lena Vogt works at the Charité``)
    says nothing of what the fact is about, nor does one after ``is``: the fact names
    what the person is to the subject already (``Pat's dentist is Dr Moran`` is no fact
    about Pat's doctor)."""
    return frozenset(
        lx.TITLE_NOUNS[w] for m in _TITLED.finditer(text)
        if m.start() > 0 and (w := m.group(1).lower()) in lx.TITLE_NOUNS
        and lx.lemma_of((text[:m.start()].rsplit(maxsplit=1) or [""])[-1].lower()) != "be")


def text_terms(text: str) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """(whole terms, compound parts, topic domains) of a text."""
    whole: set[str] = set()
    parts: set[str] = set()
    domains: set[str] = set()
    cleaned = _cleaned(text)
    kept = acronyms(text) | possessed_nouns(cleaned)  # content though in the stopword list
    plurals = acronym_plurals(text)
    forms = word_forms(cleaned)
    german = lx.reads_german(forms)
    titled = titles(cleaned)
    for form in forms:
        if form in titled:
            continue
        if _negates(form):
            whole.add(NEGATION_TERM)
        if _is_compound(form):
            whole.add(_term(form))
            for p in word_parts(form):
                if p in lx.STOPWORDS:
                    continue
                parts.add(stem(p))
                domains |= lx.domains_of(p)
            continue
        if (form in lx.STOPWORDS and form not in kept) or (
                german and form in lx.GERMAN_HOMOGRAPHS):
            continue
        if is_chinese_run(form):
            parts |= indexed_words(form)
        if german:
            parts |= german_heads(form)
        whole.add(plurals.get(form) or _term(form))
        domains |= lx.domains_of(form)
    if "no longer" in cleaned.lower():
        whole.add(NEGATION_TERM)
    for calling in titled_callings(cleaned):
        whole.add(_term(calling))
        domains |= lx.domains_of(calling)
    return frozenset(whole), frozenset(parts), frozenset(domains)


@dataclass(frozen=True)
class FactView:
    """A current fact analysed for targeting.

    The word analysis is computed at once; the name analysis (``subject_names``,
    ``mentions``, ``name_terms``) needs the interpreter, the costly part, and is computed
    only when asked for. :meth:`subject_among` and :meth:`mentions_among` answer "which
    of these keys does the fact name" without it when the fact's words show that its
    text cannot name any of them (:func:`name_words`), so targeting interprets only the
    candidates that could matter, not every fact the store proposes.
    """

    fact: Fact
    terms: frozenset[str]
    parts: frozenset[str]
    domains: frozenset[str]
    identifiers: tuple[Identifier, ...]
    proper: frozenset[str]
    """Capitalised words and identifiers as written (for back-references)."""
    codes: frozenset[str] = frozenset()
    """Canonical forms of every code-like token (what an explicit query token meets)."""

    @cached_property
    def subject_names(self) -> frozenset[str]:
        """Name keys that denote this fact's entity."""
        return _names(self.fact.text, self.fact.entity)[0]

    @cached_property
    def mentions(self) -> frozenset[str]:
        """Name keys of every proper name in the text."""
        return _names(self.fact.text, self.fact.entity)[1]

    @cached_property
    def name_terms(self) -> frozenset[str]:
        """Terms that only name the fact's entity or a person it mentions: never content."""
        return _name_terms(self.mentions)

    def _may_name(self, keys: frozenset[str]) -> bool:
        return _could_name(self.fact.text, keys)

    def _own_keys(self) -> frozenset[str]:
        return subject_keys_of(self.fact.entity) if self.fact.entity is not None else (
            frozenset())

    def subject_keys(self, asked: frozenset[str]) -> frozenset[str]:
        """The subject keys a lookup of ``asked`` keys can meet: all of them when the
        text could name an asked key, else only those of the entity id (no interpretation).
        Keys outside ``asked`` are kept in the first case (unspaced scripts need them)."""
        return self.subject_names if self._may_name(asked) else self._own_keys()

    def mentions_among(self, keys: frozenset[str]) -> frozenset[str]:
        """``keys & mentions``, interpreting the text only if it could name one."""
        return keys & (self.mentions if self._may_name(keys) else self._own_keys())


@lru_cache(maxsize=65_536)
def name_words(text: str) -> frozenset[str] | None:
    """Every word a name key of ``text`` can be made of (:func:`name_keys` forms of its
    words, with and without pinyin tone digits, and the stems label keys use); ``None``
    when the text has letters of another script (transliterated keys: no shortcut).

    A key (other than the loose ``~`` keys, which only foreign names carry) that has a
    word outside this set cannot be a key of any name in the text: that is what lets
    targeting skip interpreting a fact (``test_text_lazy_names`` checks it)."""
    cleaned = _cleaned(text)
    if not text.isascii() and (not is_latin_text(text) or not is_latin_text(cleaned)):
        return None  # (an ASCII text, and its cleaned form, are Latin by definition)
    out: set[str] = set()
    # a German genitive names its base (``Ida Weißs Schwester``: Ida Weiß)
    genitives = [g for w in re.split(r"[^\w]+", nfkc(text)) if (g := lx.german_genitive(w))]
    for source in (nfkc(text), cleaned, *genitives):
        for form in name_forms(source):
            for w in re.split(r"[^\w]+", form):
                if w:
                    out.add(w)
                    out.add(re.sub(r"(?<=[a-z])[1-5]$", "", w))
    for form in word_forms(cleaned):
        out.add(form)
        out.add(stem(form))
        out.add(stem(_closed(form)))  # label keys close hyphenated words
    return frozenset(out)


@lru_cache(maxsize=65_536)
def _could_name(text: str, keys: frozenset[str]) -> bool:
    """Could ``text`` name one of ``keys``? (Cached: one targeting call asks it of the
    same candidates with the same keys several times.)"""
    words = name_words(text)
    if words is None:
        return True
    firsts, spelled = _spelled(keys)
    return not words.isdisjoint(firsts) and any(
        all(w in words for w in parts) for parts in spelled)


@lru_cache(maxsize=1024)
def _spelled(keys: frozenset[str]) -> tuple[frozenset[str], tuple[tuple[str, ...], ...]]:
    """(the first word of each key, each key's words) of the keys that have words: a text
    holding none of those first words names none of them, which one set operation says
    (a targeting call asks it of every candidate with the same keys)."""
    spelled = tuple(parts for k in keys if (parts := _key_words(k)))
    return frozenset(parts[0] for parts in spelled), spelled


@lru_cache(maxsize=65_536)
def _key_words(key: str) -> tuple[str, ...]:
    """The words a name key is made of; none for a loose ``~`` key (never a shortcut)."""
    return () if key.startswith("~") else tuple(key.removeprefix("#").split())


def _closed(form: str) -> str:
    """A hyphenated word written closed (``wi-fi`` -> ``wifi``, ``e-mail`` -> ``email``):
    one word however it is spelt."""
    return form.replace("-", "") if re.fullmatch(r"[^\W\d_]+(?:-[^\W\d_]+)+", form) else form


def label_key(phrase: str) -> str:
    """How a label or a noun-phrase name is compared: its content words, stemmed and
    sorted, hyphenated words closed (``Wi-Fi password for guests`` = ``guest WiFi
    password``); ``""`` for none."""
    forms = [stem(_closed(w)) for w in word_forms(_cleaned(phrase)) if w not in lx.STOPWORDS]
    return "#" + " ".join(sorted(set(forms))) if len(forms) >= 2 else ""


@lru_cache(maxsize=65_536)
def _analyse(text: str, attribute: str
             ) -> tuple[frozenset[str], frozenset[str], frozenset[str], tuple[Identifier, ...],
                        frozenset[str]]:
    """(terms, parts, domains, identifiers, proper words) of a fact: no interpretation."""
    terms, parts, domains = text_terms(text)
    attr_words = [w for w in re.split(r"[._]", attribute) if w and w not in ("not", "n")]
    a_terms = {stem(w) for w in attr_words if w.isalpha() and w not in lx.STOPWORDS}
    a_domains: set[str] = set()
    for w in attr_words:
        a_domains |= lx.domains_of(w)
    proper = frozenset(
        w.strip(EDGE) for i, w in enumerate(text.split()) if i > 0 and w[:1].isupper())
    return (terms | frozenset(a_terms), parts, domains | frozenset(a_domains),
            find_identifiers(text), proper)


@lru_cache(maxsize=65_536)
def _names(text: str, entity: str | None) -> tuple[frozenset[str], frozenset[str]]:
    """(subject name keys, every name key) of a fact, from its interpretation."""
    subject: set[str] = set()
    mentions: set[str] = set()
    reading = interpret(text)
    for clause in reading.clauses:
        # "Priya and Tomasz live in York" is one fact of each: Priya's names only her
        other_person = "subject:compound" in clause.rules and clause.entity != entity
        for name in clause.subject_names:
            (mentions if other_person else subject).update(name_keys(name))
        for name in clause.names:
            mentions |= name_keys(name)
        if clause.entity is not None and clause.entity == entity and clause.mention and (
                clause.rules and ("sentence:key-value" in clause.rules
                                  or "subject:noun-phrase" in clause.rules)
                and "subject:possessive" not in clause.rules):
            # a label names the value it labels; "the search service's owner" names the
            # owner of an entity keyed by its own name, and no entity as a whole
            key = label_key(clause.mention)
            if key:
                subject.add(key)
    if entity is not None:
        subject |= subject_keys_of(entity)
    return frozenset(subject), frozenset(mentions | subject)


def subject_keys_of(entity: str) -> frozenset[str]:
    """An entity's keys as a fact's subject. A ``topic:`` entity is a thing named by a
    phrase of common nouns (``Current sprint goal: …``), not a name: it is keyed as a
    label, so its words stay content (``sprint goal`` still finds the line)."""
    keys = entity_keys(entity)
    if entity.startswith("topic:"):
        labels = frozenset(k for key in keys if (k := label_key(key)))
        return labels or keys
    return keys


def view_terms(text: str) -> frozenset[str]:
    """The whole terms of a text (light stems, identifiers), as facts are indexed."""
    return text_terms(text)[0]


def entity_terms(entity: str) -> frozenset[str]:
    """Terms that only name an entity (``user``, a person's name): not content."""
    out: set[str] = set()
    for key in entity_keys(entity):
        out |= {stem(w.lower()) for w in key.split()}
    return frozenset(out | {"user"})


def view(fact: Fact) -> FactView:
    """Analyse one fact (cached by its text, attribute and entity). A denial carries the
    negation term even when its text does not say ``not``: targeting respects polarity."""
    terms, parts, domains, ids, proper = _analyse(fact.text, fact.attribute)
    if fact.negated:
        terms = terms | {NEGATION_TERM}
    return FactView(fact, terms, parts, domains, ids, proper, code_tokens(fact.text))


@lru_cache(maxsize=65_536)
def _name_terms(keys: frozenset[str]) -> frozenset[str]:
    return frozenset(stem(w) for k in keys if not k.startswith(("~", "#"))
                     for w in k.split())


@lru_cache(maxsize=65_536)
def entity_keys(entity: str) -> frozenset[str]:
    """Name keys under which an entity id can be named: ``client:oleg-orlov`` ->
    {``oleg orlov``, ``client oleg orlov``}; ``user:self`` -> {``user``}."""
    namespace, _, local = entity.partition(":")
    if entity == "user:self":
        return frozenset({"user", "the user", "me", "i"})
    if local == "self":
        return frozenset({namespace.replace("-", " ").replace("_", " ")})
    if namespace in IDENTIFIER_NAMESPACES or re.match(r"^u[0-9a-f]{16}$", local) or (
            re.match(r"^h[0-9a-f]{20}$", local)):
        return frozenset()
    words = " ".join(w for w in re.split(r"[-_.]+", local) if w)
    ns_words = namespace.replace("-", " ").replace("_", " ")
    keys = {words}
    if namespace not in ("person", "name", "topic"):
        keys.add(f"{ns_words} {words}")
    return frozenset(k for k in keys if k)


@dataclass(frozen=True)
class Query:
    """A targeting query, analysed."""

    text: str
    identifiers: tuple[Identifier, ...]
    ngrams: tuple[tuple[str, frozenset[str], bool], ...]
    """(surface, name keys, capitalised-or-foreign) for each word sequence (1-4 words)."""
    terms: tuple[str, ...]
    parts: dict[str, frozenset[str]]
    domains: dict[str, frozenset[str]]
    totality: bool
    """``everything``/``all``/``alles``/``一切``: the entity as a whole."""
    person_intent: bool
    negated: bool
    id_terms: frozenset[str] = frozenset()
    """Terms that are (parts of) identifiers: in recall they count only when exact."""
    explicit_token: bool = False
    """The query is one code-like token (``ABC123``) that it names exactly."""
    record_topics: frozenset[str] = frozenset()
    """Words qualifying an information noun (``medical`` in ``medical record``): they
    narrow a named entity's facts by topic, not by word."""

    @cached_property
    def identifiers_alone(self) -> bool:
        """:func:`only_identifiers`, worked out once: recall scores every fact it ranks
        against the same query."""
        naming = self.id_terms | self.label_words.keys()
        return bool(self.identifiers) and all(t in naming for t in self.terms)

    @cached_property
    def label_words(self) -> dict[str, bool]:
        """:func:`_label_words`, worked out once."""
        return _label_words(self)

    @cached_property
    def label_qualifiers(self) -> frozenset[str]:
        """The words of its labels that qualify a label word (``fishing`` of ``fishing
        licence number``, ``FIDE`` of ``FIDE ID``): they say which identifier, never
        which fact (:func:`relevance`)."""
        return frozenset(t for t, label in self.label_words.items() if not label)


_ABOUT = frozenset({"about", "on", "of", "regarding", "concerning"})
"""Prepositions that make what follows the complement of an information noun."""


def topics_of_word(word: str) -> frozenset[str]:
    """The topics a word is of (``medical``: health) or names by a word built on the
    topic's own name (``educational``: education; ``personal`` is no ``personality``)."""
    if not word.isalpha():
        return frozenset()
    return lx.domains_of(word) or frozenset(
        d for d in lx.DOMAINS if len(word) > len(d) and lx.names_topic(word, d))


def _modifies(word: str, after: str) -> bool:
    """Is an information noun the modifier of a compound whose head follows it
    (``account number``, ``data plan``, ``record collection``)? Then it says which
    thing, as any noun before a head does, and stands for no record."""
    return (word in lx.INFO_NOUNS and after in lx.COMMON_NOUNS and after not in lx.INFO_NOUNS
            and after not in lx.STOPWORDS)


def _whole_record(cleaned: str) -> bool:
    """Does an information noun (``record``, ``information``, ``profile``) stand for the
    whole entity? It does (``information about Jordan``, ``Ilya's profile``), except
    after a word of a topic (``medical history``, ``financial details``: the entity's
    facts of that topic, :func:`topics_of_word`) and a noun that also names a held
    thing with a modifier before it:
    ``Ines's Netflix account`` and ``salary account`` are one account each, while
    ``Ines's account`` and ``the account of Ines`` are her record. Before ``that`` it
    introduces one statement (``the fact that Lena collects pins``), not the record, and
    before the head of a compound it says which thing (:func:`_modifies`)."""
    tokens = [t.lower() for t in re.findall(r"[^\W_][\w'’\-]*", cleaned)]
    for i, tok in enumerate(tokens):
        if tok not in lx.INFO_NOUNS:
            continue
        after = tokens[i + 1] if i + 1 < len(tokens) else ""
        if after == "that" or _modifies(tok, after):
            continue  # "the fact that Lena collects pins", "her account number": one fact
        before = tokens[i - 1] if i else ""
        if before not in lx.ROLE_NOUNS and topics_of_word(before):
            continue  # "medical history": the facts of that topic ("employee record": all)
        if tok not in lx.HELD_INFO_NOUNS:
            return True
        if after in _ABOUT or not before or before.endswith(("'s", "’s", "s'", "s’")) or (
                before in lx.ROLE_NOUNS or before in lx.STOPWORDS or before in lx.TOTALITY
                or before in lx.INFO_NOUNS):
            return True
    return False


_GOVERNING = re.compile(
    rf"(?i:\b({'|'.join(sorted(lx.PREPOSITIONAL_ADVERBS))})\s+)(?=(?i:"
    rf"{'|'.join(sorted(lx.POSSESSIVE_DETERMINERS | {'the', 'a', 'an'}))})\b|[^\W\d_a-z])")


@lru_cache(maxsize=16_384)
def _governing(text: str) -> frozenset[str]:
    """The prepositional adverbs a query uses as prepositions, before a determiner or a
    name (``tours round the cathedral``, ``walks along the Thames``): function words
    there, as ``in`` and ``at`` are, and no word a fact must hold (it says ``tours of
    Durham Cathedral``)."""
    return frozenset(m.group(1).lower() for m in _GOVERNING.finditer(text))


@lru_cache(maxsize=16_384)
def analyse_query(text: str) -> Query:
    """Analyse a targeting or recall query: identifiers, name n-grams, terms, intents (the
    request around it set aside: :func:`~memory_es.text.requests.without_request`)."""
    text = without_request(text)
    cleaned = _cleaned(text)
    ids = query_identifiers(text)
    explicit = bool(ids) and not find_identifiers(text)
    words = [w for w in re.split(r"[\s/|]+", cleaned) if w]
    german = lx.reads_german(word_forms(cleaned))
    ngrams: list[tuple[str, frozenset[str], bool]] = []
    for n in range(min(4, len(words)), 0, -1):
        for i in range(len(words) - n + 1):
            chunk = words[i:i + n]
            stripped = [c.strip(EDGE) for c in chunk]
            if any(not s for s in stripped):
                continue
            if (stripped[0].lower() in lx.STOPWORDS and not stripped[0][:1].isupper()) or (
                    stripped[-1].lower() in lx.STOPWORDS and not stripped[-1][:1].isupper()):
                continue
            surface = " ".join(stripped)
            surface = re.sub(r"['’]s$", "", surface)
            capital = any(s[:1].isupper() or not s.isascii() or s.startswith("@")
                          for s in stripped)
            keys = query_name_keys(surface)
            if _genitive(stripped, words[i + n:i + n + 1]):
                keys |= query_name_keys(surface[:-1])
            if german and (base := lx.german_person_base(stripped[-1])) is not None:
                keys |= query_name_keys(" ".join([*stripped[:-1], base]))  # "Roths Nachbarn"
            label = label_key(surface)
            ngrams.append((surface, keys | {label} if label else keys, capital))
    terms: list[str] = []
    parts: dict[str, frozenset[str]] = {}
    domains: dict[str, frozenset[str]] = {}
    low_words = word_forms(cleaned)
    kept = acronyms(text) | possessed_nouns(cleaned)  # content though in the stopword list
    kept |= {a for a, b in itertools.pairwise(low_words) if _modifies(a, b)}
    titled = titles(cleaned) | _governing(cleaned)
    low_words = [w for w in low_words if w not in titled]
    lead = next((i for i, w in enumerate(low_words) if w not in lx.INSTRUCTION_VERBS),
                len(low_words))
    for low in low_words[lead:]:
        if _negates(low) and low not in kept:
            terms.append(NEGATION_TERM)
            continue
        if (low in lx.STOPWORDS and low not in kept) or (
                german and low in lx.GERMAN_HOMOGRAPHS) or low in lx.TOTALITY or (
                low in lx.INFO_NOUNS and low not in kept) or low in lx.PAST_MARKERS:
            continue
        term = _term(low)
        if _is_compound(low):
            pieces = word_parts(low)
            parts[term] = frozenset(stem(x) for x in pieces if x not in lx.STOPWORDS)
            dom: set[str] = set()
            for x in pieces:
                dom |= lx.domains_of(x)
            domains[term] = frozenset(dom)
        else:
            if is_chinese_run(low):
                parts[term] = content_words(low)
            domains[term] = lx.domains_of(low)
        if term not in terms:
            terms.append(term)
    if "no longer" in cleaned.lower() and NEGATION_TERM not in terms:
        terms.append(NEGATION_TERM)
    totality = any(w in lx.TOTALITY for w in low_words) or _whole_record(cleaned) or any(
        w in cleaned for w in lx.CHINESE["totality"])
    person_intent = any(w in PERSON_WORDS for w in low_words)
    id_terms = frozenset(_term(form) for ident in ids
                         for form in word_forms(_cleaned(ident.surface)))
    record_topics = frozenset(_term(a) for a, b in itertools.pairwise(low_words)
                              if b in lx.INFO_NOUNS and a not in lx.STOPWORDS)
    for a, b in itertools.pairwise(low_words):
        if b in lx.INFO_NOUNS and _term(a) in domains and not domains[_term(a)]:
            domains[_term(a)] = topics_of_word(a)  # "educational": names education
    return Query(text, ids, tuple(ngrams), tuple(dict.fromkeys(terms)), parts, domains,
                 totality, person_intent, NEGATION_TERM in terms, id_terms, explicit,
                 record_topics)


def _genitive(name: list[str], after: list[str]) -> bool:
    """Is a capitalised word sequence, followed by a capitalised noun, a German name in the
    genitive (``Paul Richters Hund``: Paul Richter's dog,
    :func:`~memory_es.text.lexicon.german_genitive`)? The name itself is then looked up
    without the ``-s`` too. A query of a noun phrase alone (``Jonas Webers Hund``) has no
    German function word to tell its language by; the reading only adds a name to look
    up, which names no one unless someone is called so."""
    return bool(after) and after[0][:1].isupper() and lx.german_genitive(name[-1]) is not None


# --- tiers -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Match:
    """A fact a query targets, with the tier and score that selected it."""

    fact: Fact
    by: str
    """``identifier``, ``entity``, ``mention``, ``lexical`` or ``semantic``."""
    score: float
    detail: str = ""


def identifier_matches(query: Query, views: Sequence[FactView], *,
                       by_form: bool = False) -> list[Match]:
    """Tier 1: facts carrying an identifier the query names (exact canonical form).

    A query token of no identifier form (``KX-2231``) also meets the same token in a
    fact. Where some fact's own words say the token is an identifier (``lock code is
    KX-2231``), a fact that only mentions it (``rides a KX-2231 frame``) is a mention:
    listed, acted on only when confirmed. ``by_form`` (a hard delete) asks for an
    identifier its form or label shows: where no fact's words say the token is one
    (``salary band is B3``), every fact holding it is a mention (SPEC §15: mixing
    letters and digits is not enough)."""
    if not query.identifiers:
        return []
    real: list[Match] = []
    tokens: list[Match] = []
    for v in views:
        hits = [f"{q.kind}:{q.canonical}" for q in query.identifiers for f in v.identifiers
                if matches(q, f)]
        if hits:
            real.append(Match(v.fact, "identifier", 1.0, ", ".join(sorted(set(hits)))))
        elif query.explicit_token and (found := [f"token:{q.canonical}" for q in
                                                  query.identifiers if q.canonical in v.codes]):
            tokens.append(Match(v.fact, "identifier", 1.0, ", ".join(sorted(set(found)))))
    if real or by_form:
        return real + [Match(m.fact, "mention", 0.9, m.detail) for m in tokens]
    return tokens


def within_identified(query: Query, found: list[Match], views: Sequence[FactView],
                      th: Thresholds, *, ratio: float) -> list[Match]:
    """Facts carry the identifier a query names and the query says more (``EXP-204
    learning rate``): the identifier names the record, as a name names a person, and the
    rest of the query says which of its facts. Those the rest matches; none when it
    matches none of them (no whole-record fallback); a fact that alone carries it, when
    the rest shares content with it (``the hearing in case 2024-118`` is not its judge,
    ``OTP login session code 780948`` is ``Session OTP for Diana``); all when it says
    nothing beyond the identifier (``EXP-204``, ``everything about EXP-204``)."""
    direct = {m.fact.fact_id for m in found if m.by == "identifier"}
    naming = query.id_terms | query.label_words.keys()
    rest = [t for t in content_terms(query, naming) if t not in _GENERIC_TERMS]
    if not direct or not rest:
        return found
    scope = [view(m.fact) for m in found if m.fact.fact_id in direct]
    if len(scope) == 1:  # nothing to tell apart: the rest need only be about it
        one = scope[0]
        return found if any(t in one.terms or t in one.parts or _derived(t, one.terms)
                            for t in rest) else []
    chosen = {m.fact.fact_id for m in lexical_matches(
        query, scope, th, ratio=ratio, skip=naming, all_views=views,
        within_entity=True)}
    if not chosen:  # below the coverage floor, a word only some of them hold still says
        common = frozenset.intersection(*(v.terms for v in scope))
        telling = [t for t in rest if t not in common]
        chosen = {v.fact.fact_id for v in scope if any(
            t in v.terms or t in v.parts or _derived(t, v.terms) for t in telling)}
    return [m for m in found if m.fact.fact_id in chosen]


def only_identifiers(query: Query) -> bool:
    """Is the query nothing but identifiers and the labels that say their kind
    (``IE 6388047V``, ``passport number K 881 2934``)?"""
    return query.identifiers_alone


def _label_words(query: Query) -> dict[str, bool]:
    """The terms of the label right before each identifier of the query (``case`` of
    ``case 2024-118``, ``account number``, ``VAT number``, ``frequent flyer number``), each
    with whether it is a label word itself: a label says what kind of identifier it is,
    as a name's words say who, never which of its facts. A label ends in a label word;
    up to two words before it qualify it, label words too (``student`` of ``student ID``,
    ``account`` of ``account number``: the last word says the kind)."""
    out: dict[str, bool] = {}
    for ident in query.identifiers:
        before = query.text[:ident.start].split()[-3:]
        for k, word in enumerate(reversed(before)):
            form = word.strip(EDGE).lower()
            label = is_label(form)
            if not label and (k == 0 or not form.isalpha() or form in lx.STOPWORDS):
                break
            out[_term(form)] = out.get(_term(form), False) or (label and k == 0)
    return out


def named_entities(query: Query, views: Sequence[FactView], *,
                   given_names: bool = False) -> dict[str, str]:
    """Tier 2: entities the query names (entity id -> the words that named it; several
    names of one entity are joined by `` / ``).

    Longest word sequences first; a sequence that names an entity consumes its words.
    Single lower-case words only name the user (``user``, or a first-person word: ``my
    padel``) or a role entity (``the patient``); proper names must be written with a
    capital or a non-Latin script.
    With ``given_names``, a capitalised word left over that is the first word of exactly
    one candidate person's name names that person (``Dev's bike`` -> Dev Malhotra); two
    people it could be, and it names no one. Purges never take this reading: a hard
    delete needs the canonical name.
    """
    naming = [(surface, keys, capital) for surface, keys, capital in query.ngrams
              if _names_something(surface.lower().split(), capital)]
    said = {w.lower().strip(EDGE) for w in query.text.split()}
    first_person = bool(said & lx.FIRST_PERSON)
    text = nfkc(query.text)
    unspaced = not text.isascii()  # (a known name's key found inside it is not ASCII)
    given = given_names and any(
        capital and len(words := surface.lower().split()) == 1 and words[0] not in lx.STOPWORDS
        for surface, _keys, capital in query.ngrams)
    if not naming and not first_person and not unspaced and not given:
        return {}  # (an e-mail address or a number alone: no candidate is indexed)
    # Only the word sequences that may name are looked up; the index needs their keys
    # alone unless a later step reads all of it (given names, first person, unspaced).
    whole = first_person or unspaced or given
    asked = frozenset(k for _surface, keys, _capital in (query.ngrams if whole else naming)
                      for k in keys)
    index: dict[str, set[str]] = {}
    for v in views:
        if v.fact.entity is None:
            continue
        # a fact whose words cannot form an asked key is indexed by its entity id only
        # (names in another script always take the full analysis: see ``name_words``)
        for key in v.subject_keys(asked):
            if whole or key in asked:
                index.setdefault(key, set()).add(v.fact.entity)
    found: dict[str, str] = {}
    # each occurrence of a word names once (``Robert Smith / Bob Smith``: two names)
    left = Counter(surface.lower() for surface, _k, _c in query.ngrams if " " not in surface)
    for surface, keys, _capital in naming:
        words = surface.lower().split()
        if any(left[w] <= 0 for w in words if w in left):
            continue
        hit: set[str] = set()
        for key in keys:
            hit |= index.get(key, set())
        if hit:
            for entity in hit:  # every name the query gives an entity: `` / ``-joined
                found[entity] = f"{found[entity]} / {surface}" if entity in found else surface
            left.subtract(w for w in words if w in left)
    if given:
        found |= _given_names(query, index, left, found)
    if first_person and "user:self" in index.get("user", set()):
        found.setdefault("user:self", "me")  # "my padel", "everything about me": the user
    if not unspaced:
        return found
    # scripts written without spaces (Chinese, Japanese): a whole known name inside the text
    for key, ents in index.items():
        if len(key) >= 2 and not key.isascii() and key in text and all(
                script_of(c) in _UNSPACED for c in key if c.isalpha()):
            if any(key != other and key in other and other in text for other in index):
                continue  # a longer known name holds it (width control)
            for entity in ents:
                found.setdefault(entity, key)
    if given_names:
        found |= _chinese_given_name(text, index, found)
    return found


def _chinese_given_name(text: str, index: dict[str, set[str]],
                        found: dict[str, str]) -> dict[str, str]:
    """The person a query opens with by the given name alone (``晓燕在青少年宫教的古筝课``:
    林晓燕), when the name is a surname and two characters or more, its given part is exactly
    one candidate person's, and the query gives no whole name of that person."""
    people: dict[str, set[str]] = {}
    for key, ents in index.items():
        surname = next((s for s in (key[:2], key[:1]) if s in lx.CHINESE_SURNAMES), None)
        if (surname is None or len(key) - len(surname) < 2
                or not all(script_of(c) == "CJK" for c in key)):
            continue
        if text.startswith(given := key[len(surname):]):
            people.setdefault(given, set()).update(
                e for e in ents if e.split(":", 1)[0] in PERSON_NAMESPACES and e not in found)
    return {ents.pop(): given for given, ents in people.items() if len(ents) == 1}


_UNSPACED = frozenset({"CJK", "HIRAGANA", "KATAKANA"})


def _names_something(words: list[str], capital: bool) -> bool:
    """Whether a word sequence of a query may name an entity at all: single lower-case
    words only name the user or a role entity (``the patient``), and role or record
    nouns alone name nothing unless capitalised."""
    role = len(words) == 1 and words[0] in lx.ROLE_NOUNS  # "the patient": patient:self
    if len(words) == 1 and not capital and words[0] not in ("user", "users", "me", "i") and (
            not role):
        return False
    return not (all(w in lx.ROLE_NOUNS or w in lx.INFO_NOUNS for w in words) and not capital
                and words != ["user"] and not role)


def _given_names(query: Query, index: dict[str, set[str]], left: Counter[str],
                 found: dict[str, str]) -> dict[str, str]:
    """Persons named by the first word of their name alone, when that word is unique and
    the query gives it alone: followed by a surname (``Alexey Morozov``), it is part of a
    full name that named nobody, and never stands for another person with that first
    name (``Alexey Morgunov``). So do the first words of a longer name (``Fatima Zahra``
    of ``Fatima Zahra Benali``) and a German genitive of the first (``Annegrets``)."""
    people = {e for ents in index.values() for e in ents
              if e.split(":", 1)[0] in PERSON_NAMESPACES and e not in found}
    full = {surface.split()[0].lower() for surface, _keys, _capital in query.ngrams
            if len(surface.split()) == 2 and all(_name_cased(w) for w in surface.split())}
    out: dict[str, str] = {}
    for surface, _keys, _capital in query.ngrams:
        # "Fatima Zahra's homework club": the given names that open exactly one person's
        # longer name are that person (``Fatima Zahra Benali``)
        words = surface.split()
        if len(words) < 2 or not all(_name_cased(w) for w in words) or any(
                left[w.lower()] <= 0 for w in words):
            continue
        said = [ascii_fold(_POSSESSIVE_END.sub("", w.lower())) for w in words]
        hit = {e for e in _opened_by(people, said) if e not in out}
        if len(hit) == 1:
            out[hit.pop()] = _POSSESSIVE_END.sub("", surface)
            for w in words:
                left[w.lower()] -= 1
    for surface, _keys, capital in query.ngrams:
        words = surface.lower().split()
        if len(words) != 1 or not capital or left[words[0]] <= 0 or words[0] in lx.STOPWORDS:
            continue
        hit = set() if words[0] in full else _first_named(people, ascii_fold(words[0]))
        base = lx.german_genitive(surface)
        if not hit and base is not None:
            # before a noun, which German capitalises too: "Annegrets Welpengruppe"
            hit = _first_named(people, ascii_fold(base.lower()))
        if not hit and "-" in words[0]:
            # a hyphenated given name opens the name as its words ("Jan-Hendrik's",
            # "Jan-Hendriks": Jan-Hendrik van der Velde, whose key says "jan hendrik …")
            for form in (None if words[0] in full else surface, base):
                if not hit and form:
                    hit = _opened_by(people, ascii_fold(
                        _POSSESSIVE_END.sub("", form.lower())).split("-"))
        if len(hit) == 1:
            out[hit.pop()] = surface
            left[words[0]] -= 1
    return out


def _opened_by(people: Iterable[str], said: Sequence[str]) -> set[str]:
    """The persons whose name opens with the words ``said`` and goes on with a surname;
    not a person of someone's named in the German genitive (``Dragana Petrovićs
    Schwager``: his first word is hers)."""
    return {e for e in people if any(
        (words := k.split())[:len(said)] == list(said) and _a_surname(words[len(said):])
        and not (len(words) >= 3 and words[-2].endswith("s") and words[-1] in _DE_PERSONS)
        for k in entity_keys(e))}


def _first_named(people: Iterable[str], word: str) -> set[str]:
    """The persons whose name of two words or more opens with ``word``."""
    return _opened_by(people, [word])


_DE_PERSONS = frozenset(ascii_fold(w.lower()) for w in lx.GERMAN["persons"])


def _a_surname(words: Sequence[str]) -> bool:
    """Is what follows the given names a surname, not only a suffix (``Tom Berg Jr``: the
    query's ``Tom Berg`` is a full name, his father's)?"""
    return bool(words) and not all(w in lx.HONORIFICS or _ROMAN.fullmatch(w) for w in words)


_ROMAN = re.compile(r"[ivx]+")


_POSSESSIVE_END = re.compile(r"['\u2019]s?$")


def _name_cased(word: str) -> bool:
    """Written like a word of a name: capitalised, or in a script without case."""
    return word[:1].isupper() or (word[:1].isalpha() and not word[:1].islower())


def mention_matches(entities: dict[str, str], query: Query,
                    views: Sequence[FactView]) -> list[Match]:
    """Facts of the named entities, and facts that mention one of them by name."""
    out: list[Match] = []
    named_keys: set[str] = set()
    for surfaces in entities.values():
        for surface in surfaces.split(" / "):
            named_keys |= name_keys(surface)
    for v in views:
        if v.fact.entity in entities:
            out.append(Match(v.fact, "entity", 1.0, entities[v.fact.entity]))
        elif shared := v.mentions_among(frozenset(named_keys)):
            out.append(Match(v.fact, "mention", 0.9, ", ".join(sorted(shared))))
    return out


def idf_weights(views: Sequence[FactView]) -> dict[str, float]:
    """Inverse document frequency of every term and part over ``views`` (rare words
    weigh more); the key ``""`` holds the number of facts."""
    df: Counter[str] = Counter()
    for v in views:
        for t in v.terms | v.parts:
            df[t] += 1
    n = len(views)
    return {t: 1.0 + math.log((n + 1) / (c + 1)) for t, c in df.items()} | {"": n}


def coverage(query: Query, v: FactView, idf: dict[str, float], th: Thresholds,
             skip: Iterable[str] = (), exact_ids: bool = False, literal: bool = False
             ) -> float:
    """Share of the query's IDF-weighted content words that the fact covers.

    With ``exact_ids`` an identifier of the query counts only when the fact carries the
    same identifier (``2024-1001`` earns nothing from ``2024-10012``). With ``literal``
    only the query's words themselves count, not a word derived from one or a topic."""
    skip_set = set(skip)
    n = idf.get("", 1.0)
    total = 0.0
    got = 0.0
    for term in query.terms:
        if term in skip_set:
            continue
        weight = idf.get(term, 1.0 + math.log(n + 1))
        total += weight
        if exact_ids and term in query.id_terms:
            if any(matches(q, f) for q in query.identifiers for f in v.identifiers):
                got += weight
            continue
        if term in v.terms:
            got += weight
            continue
        qparts = _parts_asked(query, term, skip_set)
        if qparts:
            found = len(_parts_held(qparts, v.parts | v.terms)) / max(len(qparts), 1)
            if found:
                got += weight * th.part_credit * found
                continue
        if term in v.parts:
            got += weight * th.part_credit
            continue
        if literal:
            continue
        if _derived(term, v.terms):  # "payments" of "pays", "poetic" of "poetry"
            got += weight * th.part_credit
            continue
        doms = query.domains.get(term, frozenset())
        if doms and doms & v.domains:
            got += weight * th.domain_credit
    return got / total if total else 0.0


def _head_left_open(run: str, asked: frozenset[str], held: frozenset[str]) -> bool:
    """Does a fact hold every word of a Chinese query but the head that ends it, a word of
    no person (``中药房的工作``, the job at the herbal pharmacy: ``在中药房当收银员`` holds the
    pharmacy)? A compound is right-headed: the words before the head say which one, and
    a fact holding them all and a word of two characters or more tells it, as an English
    query's missing head leaves the kind open (:func:`another_kind`). Or every word of two
    characters or more but one, when it holds two of them; or every one of them, with the
    head, when only words of one character are missing."""
    if not is_chinese_run(run):
        return False
    missing = asked - held
    long_held = sum(len(w) >= 2 for w in held)
    if len(missing) == 1 and run.endswith(next(iter(missing))):
        return not missing & _ZH_PEOPLE and long_held >= 1
    # a word of one character says little (做, 大: ``过年展览做的那些大作品``, the big
    # pieces made for the New Year show); of the words of two or more, one may be said
    # otherwise (过年 / 春节) when the fact holds two others
    unsaid = [w for w in missing if len(w) >= 2]
    if not unsaid:  # only such words (练 of 桂兰早上在公园练的太极), when it holds the head
        return long_held >= 2 and any(run.endswith(w) for w in held if len(w) >= 2)
    return len(unsaid) == 1 and unsaid[0] not in _ZH_PEOPLE and long_held >= 2


_ZH_PEOPLE = frozenset(lx.CHINESE["persons"] + lx.CHINESE["occupations"])


def _parts_held(parts: frozenset[str], words: frozenset[str]) -> frozenset[str]:
    """The query's words a fact holds: as words of its own, or a Chinese word spelled out
    by words of the fact (``养狗``, keeping a dog, of ``养了一只狗``; ``喝咖啡`` of
    ``喝了很多咖啡``), whatever stands between them; never a character of a longer word
    (``车`` is not in ``火车``)."""
    return frozenset(p for p in parts if p in words or (
        len(p) > 1 and is_chinese_run(p) and _spelled_by(p, words)))


def _spelled_by(word: str, words: frozenset[str]) -> bool:
    """Can ``word`` be cut into a sequence of ``words``?"""
    reach = {0}
    for i in range(len(word)):
        if i in reach:
            reach.update(j for j in range(i + 1, len(word) + 1) if word[i:j] in words)
    return len(word) in reach


def _parts_asked(query: Query, term: str, skip: set[str]) -> frozenset[str]:
    """The parts of a query word that say what it asks about: of a run of Chinese, its
    words that are no name the query gives, nor part of one (``李娜的猫``: 猫)."""
    qparts = query.parts.get(term, frozenset())
    if not qparts or not is_chinese_run(term):
        return qparts
    rest = term
    for name in sorted((n for n in skip if is_chinese_run(n)), key=len, reverse=True):
        rest = rest.replace(name, " ")
    if rest != term:  # cut without the name: 陈美的狗 is cut 陈 / 美的 / 狗 with it
        return frozenset().union(*(content_words(piece) for piece in rest.split()))
    return frozenset(p for p in qparts if not any(p in name for name in skip))


def specific(query: Query, v: FactView, skip: Iterable[str] = (), *,
             within_entity: bool = False) -> bool:
    """Does the fact share real content with the query: a query word (not a name of any
    person or entity, not a skipped term) found as a word, a compound part or in the
    attribute, or a record topic (``medical`` record) in the fact's domains? Topic
    closeness alone, or a name alone, never is (:func:`shared_content`).

    ``within_entity``: the query named the fact's entity (its names are in ``skip``), so
    another proper name it shares with the fact is what the fact says about that entity
    (``Bob education Harvard`` ~ ``Bob studied at Harvard``), not a second subject."""
    return bool(shared_content(query, v, skip, within_entity=within_entity))


def shared_content(query: Query, v: FactView, skip: Iterable[str] = (), *,
                   within_entity: bool = False) -> str:
    """What real content the fact shares with the query (:func:`specific`): ``what`` (a
    word of what it is about, or an identifier), ``when`` (only a day or a part of the
    day it happens: ``Hamish's Tuesday kickabout`` is ``plays walking football on Tuesday
    nights``), or nothing (empty). How often a thing recurs (``weekly``, ``every
    week``) is shared by many of a person's facts: it is content only in a query of
    nothing else (``Tomasz's weekly kickabout`` is not ``studies one day a week``)."""
    skip_set = set(skip)

    def content(term: str) -> bool:  # the names are read only for a term that meets the fact
        return within_entity or term not in v.name_terms

    met_when = met_often = False
    for term in query.terms:
        if term in skip_set or term == NEGATION_TERM:
            continue
        if term in query.record_topics:
            if (query.domains.get(term, frozenset()) & v.domains or term in v.terms) and (
                    content(term)):
                return "what"
            continue
        met = (term in v.terms or term in v.parts or _derived(term, v.terms)) and content(term)
        if not met:
            qparts = _parts_asked(query, term, skip_set)
            held = _parts_held(qparts, v.parts | v.terms)
            met = bool(qparts) and (held == qparts or _head_left_open(term, qparts, held)) and (
                content(term))
        if met and term in _HOW_OFTEN:
            met_often = True
        elif met and term in _WHEN:
            met_when = True
        elif met:
            return "what"
    if any(q.canonical in v.codes for q in query.identifiers) or any(
            matches(q, f) for q in query.identifiers for f in v.identifiers):
        return "what"
    if met_when or (met_often and all(
            t in _HOW_OFTEN or t in _WHEN or t in skip_set or t == NEGATION_TERM
            for t in query.terms)):
        return "when"
    return ""


_WHEN = frozenset(stem(w) for w in lx.PERIODS)
"""The days and the parts of the day: when a thing happens."""
_HOW_OFTEN = frozenset(stem(w) for w in words("""
week weeks month months year years fortnight hourly daily weekly fortnightly monthly
quarterly yearly annually"""))
"""Words of how often a thing recurs."""
TIME_TERMS = _WHEN | _HOW_OFTEN
"""The terms of when and how often a thing happens."""


def query_topics(query: Query, skip: Iterable[str] = ()) -> frozenset[str]:
    """The topics a query asks about as a whole, once the entity's names (``skip``) are
    set aside: some word names the topic (:func:`~memory_es.text.lexicon.names_topic`)
    and every other word is of that topic or of none (``second language``). Empty when
    the query says more than a topic, or names none."""
    content = content_terms(query, skip)
    topical = _topical(query, content)
    if not any(topical):
        return frozenset()
    shared = frozenset.intersection(*(d for d in topical if d))
    return frozenset(d for d in shared if any(lx.names_topic(t, d) for t in content))


def query_domains(query: Query, skip: Iterable[str] = ()) -> frozenset[str]:
    """The topics every content word of a query belongs to once the entity's names
    (``skip``) are set aside (``Mateo's car``: transport); empty when some word belongs
    to none. Broader than :func:`query_topics`, which also needs a word that names the
    topic as a whole."""
    topical = _topical(query, content_terms(query, skip))
    if not topical or not all(topical):
        return frozenset()
    return frozenset.intersection(*topical)


def content_terms(query: Query, skip: Iterable[str] = ()) -> list[str]:
    """The query's terms once the names it gives (``skip``) are set aside."""
    skip_set = set(skip)
    return [t for t in query.terms if t not in skip_set and t != NEGATION_TERM]


def _topical(query: Query, content: list[str]) -> list[frozenset[str]]:
    """The topics of each content term; none for a query of identifiers."""
    if not content or query.identifiers:
        return []
    return [query.domains.get(t, frozenset()) for t in content]


def only_names_a_topic(query: Query, skip: Iterable[str] = ()) -> bool:
    """Once the entity's names (``skip``) are set aside, is every content word of the
    query a noun that names a topic as a whole (``Omar's language``, ``Dev's vehicle``,
    ``the user's pets``)?

    Such a query names a topic and nothing in it: the interpreter writes these nouns
    into slot names (``transport.vehicle``, ``language.welsh``) and some facts happen to
    use them (``eats a vegan diet``), so meeting one says which topic, never which fact.
    Any other word (``city`` in ``residence city``, ``Google``, ``ownership``) is content
    and makes this false."""
    if not query_topics(query, skip):
        return False
    return all(any(lx.names_topic(t, d) for d in query.domains.get(t, frozenset()))
               for t in content_terms(query, skip))


def core_domains(v: FactView) -> frozenset[str]:
    """The topics a fact is about by the core of its predicate: its verb, its direct
    object and an ``as`` role complement (names left out, prepositional phrases
    skipped), and its slot's first part. A topic carried only by an adjunct is a
    circumstance, not what the fact is about: ``listens to audiobooks during the
    commute`` is no transport fact, ``commutes by bike to the office`` no work fact;
    ``cycles to the station`` is a transport fact, ``keeps two goldfish`` a pet fact and
    ``tutors at a college as a freelance instructor`` a work fact."""
    names = entity_terms(v.fact.entity) if v.fact.entity else frozenset()
    out: set[str] = set()
    in_phrase = False
    for form in word_forms(_cleaned(v.fact.text)):
        if form == "as":  # a role complement (``works as a nurse``) is core again
            in_phrase = False
        elif form in _PREPOSITIONS:
            in_phrase = True
        elif not in_phrase and stem(form) not in names and form not in lx.STOPWORDS:
            for part in (word_parts(form) if _is_compound(form) else [form]):
                out |= lx.domains_of(part)
    return frozenset(out | lx.domains_of(v.fact.attribute.split(".", 1)[0]))


_PREPOSITIONS = lx.PREPOSITIONS | words("after before since until")
"""Words that end a noun phrase: the prepositions, and those that also open a clause."""


def topic_facts(query: Query, scope: Sequence[FactView], skip: Iterable[str] = (), *,
                core: bool = False) -> list[FactView]:
    """The facts of ``scope`` in the topics the query names (:func:`query_topics`); with
    ``core``, only those in a topic by the core of their predicate (:func:`core_domains`)."""
    named = query_topics(query, skip)
    if not named:
        return []
    return [v for v in scope if (core_domains(v) if core else v.domains) & named]


def topic_match(query: Query, scope: Sequence[FactView], skip: Iterable[str] = ()
                ) -> tuple[Match | None, frozenset[str]]:
    """Revise, release, forget: a query that names an entity and then only a topic, by a noun that
    names the topic as a whole (``Liam diet``, ``Lena's occupation``, ``the user's pets``:
    :func:`~memory_es.text.lexicon.names_topic`), targets that entity's one current fact
    in the topic, and returns the topic. Other query words may only qualify it: words of
    the same topic, or words of no topic at all (``second language``, ``eating habits``).
    When each word names a topic of its own (``music preference``), the fact must be in
    all of them (:func:`crossed_topics`). Nothing when a query word belongs to another
    topic only (the query says more than a topic), when no word names the topic (a member
    such as ``dentist`` is a thing, not the topic), or when the entity has no fact or
    several facts in it."""
    named = query_topics(query, skip)
    if named:
        hits = topic_facts(query, scope, skip)
    else:
        crossed = crossed_topics(query, skip)
        named = frozenset().union(*crossed)
        hits = [v for v in scope if crossed and all(v.domains & c for c in crossed)]
    if len(hits) != 1 or _act_unsaid(query, hits[0], skip):
        return None, frozenset()
    topics = ", ".join(sorted(hits[0].domains & named))
    return Match(hits[0].fact, "semantic", 0.5, f"the entity's only fact in {topics}"), named


def _act_unsaid(query: Query, v: FactView, skip: Iterable[str]) -> bool:
    """Does a word of no topic qualifying the topic name an act (a noun made from a verb:
    ``conservation work``, ``translation work``) that the fact does not tell? Then the
    query asks for that work, and the one fact in the topic may be another (``climbs as a
    tree surgeon``); a word of no act (``second language``, ``weekend job``) only says
    which one."""
    return any(not query.domains.get(t) and t.endswith(_ACT_NOUNS) and not (
        t in v.terms or t in v.parts or _derived(t, v.terms))
        for t in content_terms(query, skip))


_ACT_NOUNS = ("tion", "sion", "ment")
"""Endings of the nouns English makes from verbs (``conserve``: conservation)."""


def _vehicle_kinds() -> dict[str, tuple[str, frozenset[str], bool]]:
    """``data/vehicle_kinds.txt``: the stem of each vehicle noun -> (the verb used with
    it, the stems of its kind, whether it is the verb's first kind)."""
    out: dict[str, tuple[str, frozenset[str], bool]] = {}
    verb = ""
    for line in lx.data_lines("vehicle_kinds.txt"):
        if line.startswith("["):
            verb, first = line.strip("[]"), True
            continue
        kind = frozenset(stem(w) for w in line.split())
        out.update((k, (verb, kind, first)) for k in kind)
        first = False
    return out


_VEHICLE_KINDS = _vehicle_kinds()
_OBJECT_LEADS = lx.POSSESSIVE_DETERMINERS | {"a", "an", "the"}


def vehicle_match(query: Query, scope: Sequence[FactView], skip: Iterable[str] = ()
                  ) -> Match | None:
    """Revise, release, forget: ``Siobhan's car`` for ``Siobhan drives a green Škoda
    Octavia estate``, ``Jean-Luc's motorbike`` for ``rides a 1974 Moto Guzzi
    motorcycle``: a query naming one kind of vehicle (``data/vehicle_kinds.txt``) and
    words the fact holds targets the entity's one fact whose verb is that kind's, with its
    object right after it (``drives to work`` says how she goes, not what). The fact
    names that kind, or no vehicle at all and then the kind is the verb's first (a make
    and model one drives is a car: ``Siobhan's van`` is not her Škoda, and ``drives buses
    for Stagecoach`` is not her car). None otherwise."""
    content = content_terms(query, skip)
    named = [t for t in content if t in _VEHICLE_KINDS]
    if len(named) != 1:
        return None
    verb, kind, first = _VEHICLE_KINDS[named[0]]
    rest = [t for t in content if t != named[0]]
    vehicles = frozenset(_VEHICLE_KINDS)
    hits = [v for v in scope if _drives(v.fact.text, verb)
            and (v.terms & kind if v.terms & vehicles else first)
            and all(t in v.terms for t in rest)]
    if len(hits) != 1:
        return None
    return Match(hits[0].fact, "semantic", 0.5, f"the entity's only {named[0]} by its verb")


def _kinds() -> dict[str, frozenset[str]]:
    """``data/kinds.txt``: the stem of each kind noun -> the stems of its members."""
    out: dict[str, frozenset[str]] = {}
    names: list[str] = []
    for line in lx.data_lines("kinds.txt"):
        if line.startswith("["):
            names = [stem(w) for w in line.strip("[]").split()]
            continue
        members = frozenset(stem(w) for w in line.split())
        out.update((n, out.get(n, frozenset()) | members) for n in names)
    return out


_KINDS = _kinds()


def kind_match(query: Query, scope: Sequence[FactView], skip: Iterable[str] = ()
               ) -> Match | None:
    """Revise, release, forget: ``Annelies's reptiles`` for ``keeps two tortoises``,
    ``Tariq's fish`` for ``keeps koi carp in a pond``: a query naming one kind
    (``data/kinds.txt``) and words the fact holds targets the entity's one fact that
    names a member of it. None otherwise (no such fact, or several)."""
    content = content_terms(query, skip)
    named = [t for t in content if t in _KINDS]
    if len(named) != 1:
        return None
    members = _KINDS[named[0]]
    rest = [t for t in content if t != named[0]]
    hits = [v for v in scope if v.terms & members and all(t in v.terms for t in rest)]
    if len(hits) != 1:
        return None
    return Match(hits[0].fact, "semantic", 0.5, f"the entity's only {named[0]} by its kind")


def _drives(text: str, verb: str) -> bool:
    """Does ``text`` use ``verb`` with an object (``drives a …``, ``rides his …``)?"""
    words = [w.strip(EDGE) for w in text.split()]
    return any(lx.lemma_of(w.lower()) == verb and (
        nxt.lower() in _OBJECT_LEADS or nxt[:1].isupper() or nxt[:1].isdigit())
        for w, nxt in itertools.pairwise(words))


def crossed_topics(query: Query, skip: Iterable[str] = ()) -> list[frozenset[str]]:
    """A query of two or more words of different topics, one of which names its topic
    (``music preference``, ``literary preference``): the topics of each word (those it
    names, else those it belongs to). A fact in all of them is what the query describes
    (``favourite band``, ``favourite novel``), one in some only is not (``favourite
    drink``). Empty when a word is of no topic or none names one."""
    content = content_terms(query, skip)
    named = [frozenset(d for d in query.domains.get(t, frozenset()) if lx.names_topic(t, d))
             for t in content]
    if len(named) < 2 or not any(named) or any(not n and not query.domains.get(t)
                                               for t, n in zip(content, named, strict=True)):
        return []
    crossed = [n or query.domains[t] for t, n in zip(content, named, strict=True)]
    return crossed if len(frozenset().union(*crossed)) >= 2 else []


def _derived(term: str, terms: frozenset[str]) -> bool:
    """A derivation of one of the words (``preference`` / ``prefers``): one stem starts
    with the other, which has at least five letters; both are made from one noun by
    another suffix (:func:`_root`: ``poetic`` / ``poetry``); a noun made from one of
    the words that is a verb (:func:`nominalises`: ``payment`` / ``pays``); or one who
    practises the field the other names (:func:`_practises`: ``podiatrist`` /
    ``podiatry``)."""
    if len(term) < 5 or not term.isalpha():
        return False
    if nominalises(term, terms) or _how_often(term, terms) or _practises(term, terms):
        return True
    root, latin = _root(term), _participle(term)
    return any(len(t) >= 5 and t.isalpha() and (term.startswith(t) or t.startswith(term)
                                                 or (root is not None and _root(t) == root)
                                                 or (latin is not None
                                                     and _participle(t) == latin))
               for t in terms)


def _participle(term: str) -> str | None:
    """The Latin participle stem that an action noun in ``-ion`` and an agent noun in
    ``-or`` are both made of (``conservation`` / ``conservator``: ``conservat``;
    ``translation`` / ``translator``, ``inspection`` / ``inspector``), keeping six
    letters; None for any other word. Both words of a pair must be one of the two."""
    for suffix in ("ion", "or"):
        if term.endswith(suffix) and len(term) - len(suffix) >= 6 and (
                term[:-len(suffix)].endswith("t")):
            return term[:-len(suffix)]
    return None


def _how_often(term: str, terms: frozenset[str]) -> bool:
    """An adjective of how often made of a time noun by ``-ly`` (``daily``, ``weekly``,
    ``nightly``: every day, week, night) beside that noun among ``terms`` (``takes a
    tablet every day`` is the daily one)."""
    if not term.endswith("ly"):
        return False
    base = term[:-2][:-1] + "y" if term[:-2].endswith("i") else term[:-2]
    return base in _TIME_NOUNS and stem(base) in terms


_TIME_NOUNS = lx.PERIODS | lx.TEMPORAL_WORDS


_DERIVING = ("istic", "ism", "ist", "ic", "ry")
"""Suffixes that make nouns and adjectives of a noun (``poet``: poetic, poetry; ``tour``:
touristic, tourism, tourist)."""


def _practises(term: str, terms: frozenset[str]) -> bool:
    """Is ``term`` the one who practises a field among ``terms``, or the field of one
    among them: ``-ist`` and ``-y`` of one stem of four letters or more (``podiatrist`` /
    ``podiatry``, ``therapist`` / ``therapy``, ``pharmacist`` / ``pharmacy``)?"""
    if term.endswith("ist") and len(term) >= 7:
        return term[:-3] + "y" in terms
    return term.endswith("y") and len(term) >= 5 and term[:-1] + "ist" in terms


def _root(term: str) -> str | None:
    """The noun a derived word is made from (``poetry`` -> ``poet``), or None. Both words
    of a pair must be derived, so ``country`` and ``count`` (``pantry`` and ``pant``)
    share nothing, and the root must keep four letters."""
    for suffix in _DERIVING:
        if term.endswith(suffix) and len(term) - len(suffix) >= 4:
            return term[:-len(suffix)]
    return None


def nominalises(term: str, terms: frozenset[str]) -> bool:
    """Is ``term`` a noun made from a verb among ``terms``: in ``-ment`` of the verb
    itself (``payment`` / ``pay``), or in ``-ion`` of the verb's stem with at most its
    last letter changed, as Latin verbs change it (``subscription`` / ``subscribes``,
    ``extension`` / ``extends``, ``cancellation`` / ``cancel``), sharing five letters or
    more (``vision`` is no noun of ``visit``)? Unlike a shared prefix, this is no
    substring trap (``Java`` / ``JavaScript``), so it also earns coverage. A noun of the
    state of being one in ``-ship`` counts too (``membership`` / ``member``,
    ``ownership`` / ``owner``)."""
    if term.endswith("ship") and len(term) >= 8:
        return term[:-4] in terms
    if term.endswith("ment"):
        base = term[:-4]
        return base in terms and (base in lx.ENGLISH_VERBS or lx.lemma_of(base) == base)
    if not term.endswith("ion"):
        return False
    return any(len(t) >= 6 and t.isalpha() and term.startswith(t[:-1])
               and _is_verb_stem(t) for t in terms)


_DE_ENDINGS = ("en", "et", "st", "t", "n", "e")
"""The regular endings of a German verb form (infinitive, 3rd and 2nd person, stem-e) and
of a noun made from its infinitive (``das Rauchen``), longest first."""


_DE_LOAN_ENDINGS = ("ation", "ium", "ier")
"""What a German loan verb's stem (``studier``) and its Latin noun (``Studium``,
``Operation``) add to their shared root."""


def german_compound_parts(stems: frozenset[str], text: str) -> frozenset[str]:
    """The ``stems`` that open or close a longer word of ``text``, or that a word of
    ``text`` opens or closes (six letters or more each): German writes a compound as one
    word, so a thing named alone is a part of the compound that names it elsewhere
    (``keine Straßenbahn mehr`` / ``Straßenbahnfahrerin``, ``die Hühnerhaltung`` / ``hält
    Hühner``)."""
    words = set(re.findall(r"[^\W\d_]{6,}", text.casefold()))

    def part(a: str, b: str) -> bool:
        return len(a) >= 6 and len(b) > len(a) and (b.startswith(a) or b.endswith(a))

    return frozenset(s for s in stems if any(part(s, w) or part(w, s) for w in words))


def german_heads(word: str) -> frozenset[str]:
    """The terms of the ends of a German word that could be the head of a compound: every
    ending of five letters or more after three or more (``Versandlager``: ``lager``,
    ``dlager``, …). German writes a compound as one word, and its last part says what the
    thing is (Duden, *Grammatik*: Determinativkompositum), so ``das Lager`` names the
    ``Versandlager`` and ``die Nummer`` the ``Personalnummer``. Endings that are no word
    cost nothing: a query never says them."""
    if not word.isalpha() or len(word) < 8:
        return frozenset()
    return frozenset(_term(word[i:]) for i in range(3, len(word) - 4))


def german_stems(text: str) -> frozenset[str]:
    """The stems of a German text's content words: a regular verb ending taken off, so
    that a verb's forms and the noun made from its infinitive are one (``raucht`` and
    ``mit dem Rauchen``: ``rauch``; ``malt`` and ``Malen``: ``mal``), and each part of a
    hyphenated compound its own word (``Netflix-Abo``: ``netflix``). A stem keeps three
    letters; function words (``einem``, ``keine``) have none."""
    out = set()
    for word in re.findall(r"[^\W\d_]{4,}", text.casefold()):
        if word in lx.GERMAN_FUNCTION:
            continue
        ending = next((e for e in _DE_ENDINGS
                       if word.endswith(e) and len(word) - len(e) >= 3), "")
        stem_ = word[:len(word) - len(ending)]
        out.add(stem_)
        # a loan verb in -ieren and its Latin noun share the root (``studiert`` and
        # ``Studium``, ``operiert`` and ``Operation``: ``stud``, ``oper``; Duden, *Verben
        # auf -ieren*)
        root = next((form[:-len(e)] for form in (word, stem_) for e in _DE_LOAN_ENDINGS
                     if form.endswith(e)), "")
        if len(root) >= 4:
            out.add(root)
    return frozenset(out)


def names_an_activity(term: str, terms: frozenset[str]) -> bool:
    """Is ``term`` a compound of an object and a verb's ``-ing`` among ``terms``, the name
    of doing that to it (``beekeeping`` / ``keeps bees``, ``birdwatching`` / ``watches
    birds``)? ``term`` is a recall stem (``beekeep``); each part keeps three letters."""
    return len(term) >= 7 and term.isalpha() and any(
        stem(term[:i]) in terms and term[i:] in terms and term[i:] != stem(term[:i])
        for i in range(3, len(term) - 2))


def _is_verb_stem(t: str) -> bool:
    return t in lx.ENGLISH_VERBS or t + "e" in lx.ENGLISH_VERBS


def another_kind(query: Query, v: FactView, skip: Iterable[str] = ()) -> bool:
    """Does the fact hold another kind of the thing the query describes: the query's
    last word (the head of an English noun phrase: ``carton collection`` is a
    collection) meets the fact, the word just before it (what kind) does not, or meets
    it only as a sibling (:func:`sibling_kind`)? Then the fact is that kind's sibling
    (``collects enamel pins`` is no carton collection; ``drives a blue Volvo`` no red
    car), whatever else they share. A query whose head is missing from the fact says
    what kind and leaves the rest open (``poetic activity`` ~ ``writes poetry``), unless
    the head of a query of one thing names a physical thing
    (:data:`~memory_es.text.lexicon.CONCRETE_NOUNS`): ``drinks black coffee`` is no
    coffee grinder."""
    phrase, after = _phrase(query, skip)
    if phrase and _another_of_its_topic(query, phrase[-1], v):
        return True
    if after is not None and _met_only_beside(query, phrase, after, v, skip):
        return True
    # "Monday night drumming": a word of when says no kind
    phrase = [t for t in phrase[:-1] if t not in TIME_TERMS] + phrase[-1:]
    if len(phrase) < 2:
        return False
    if not _meets(query, phrase[-1], v):
        return ((_a_physical_thing(query, phrase[-1]) or _an_act(query, phrase[-1]))
                and _meets(query, phrase[-2], v) and not _LIST.search(query.text))
    return not _meets_as_kind(query, phrase[-2], v) or _sibling(query, phrase[-1], phrase[-2], v)


def _met_only_beside(query: Query, phrase: list[str], after: str, v: FactView,
                     skip: Iterable[str]) -> bool:
    """Does the fact meet the query only in what follows its noun phrase: a relative
    clause (``the pottery class I go to``: none of the phrase's words as written), or a
    place after a preposition (``union role at the call centre``: none of a phrase of two
    words or more, as written or by topic)? Either says where or whose, not what kind. A
    proper name the query gives that the fact holds still tells the thing (``the errands
    Bernadette runs for her housebound neighbour Harold``)."""
    if after == "clause":
        unmet = not any(_meets_as_written(query, t, v) for t in phrase)
    else:
        unmet = len(phrase) > 1 and not any(_meets(query, t, v) for t in phrase)
    return unmet and not _names_shared(query, v, skip)


def _meets_as_kind(query: Query, term: str, v: FactView) -> bool:
    """A word that says what kind, found in the fact as written, or naming a topic of the
    fact's as a whole (``music`` preference: ``prefers jazz``); a word that is only a
    member of the fact's topic says another kind (``hospital`` interpreting is not
    ``interpreter at the Crown Court``, though both words are of work)."""
    if _meets_as_written(query, term, v):
        return True
    shared = query.domains.get(term, frozenset()) & v.domains
    return bool(shared) and any(lx.names_topic(term, d)
                                for d in shared - verb_sense_apart(v))


def verb_sense_apart(v: FactView) -> frozenset[str]:
    """The topics a fact has only through its verb, when the verb's object is of other
    topics: the verb is meant in another sense (``runs a beginners' photography class``:
    manages it, no sport; ``runs a marathon`` is one). Read from the fact's slot, whose
    first part is its verb and the rest its object's words; empty for a slot of no verb,
    an object of no topic or of the verb's, and a topic another word of the fact has."""
    head, *rest = v.fact.attribute.split(".")
    verb = lx.domains_of(head)
    obj = frozenset().union(*(lx.domains_of(w) for w in rest))
    if not verb or not obj or obj & verb:
        return frozenset()
    others = frozenset().union(*(lx.domains_of(f) for f in word_forms(v.fact.text)
                                 if stem(f) != stem(head) and lx.lemma_of(f) != head))
    return verb - others


def _an_act(query: Query, term: str) -> bool:
    """Is the query's word of ``term`` the gerund of a verb (``apple pressing``)? A fact
    that does not tell that act is another one of the same thing (``prunes the apple
    trees``), as a fact without a physical thing the query names is another thing."""
    return any(_term(f) == term and gerund_of(f) for f in word_forms(query.text))


def gerund_of(word: str) -> bool:
    """Is ``word`` the ``-ing`` form of a verb of the broad list (``pressing``, ``pruning``,
    ``swimming``), and no time word (``evening``, ``morning``)?"""
    if not word.endswith("ing") or len(word) < 6 or word in lx.PERIODS:
        return False
    base = word[:-3]
    doubled = base[:-1] if len(base) > 2 and base[-1] == base[-2] else ""
    return any(b in lx.ENGLISH_VERBS for b in (base, base + "e", doubled) if b)


_LIST = re.compile(r",|\b(?:and|or|nor)\b", re.IGNORECASE)
"""What joins the things of a list (``latex allergy, cello and her rowing``): a query of
several things has no one head."""


def _a_physical_thing(query: Query, term: str) -> bool:
    """Is the query's word of ``term`` a noun that names a physical thing, a rare agent
    noun (a device or a person, never an act), or the head of a compound that names a
    thing or a person (``bread maker``)?"""
    forms = word_forms(query.text)
    return any(_term(f) == term and (lx.is_concrete(f) or lx.is_agent_noun(f) or (
        i > 0 and lx.is_compound_thing(forms[i - 1], f))) for i, f in enumerate(forms))


def _another_of_its_topic(query: Query, head: str, v: FactView) -> bool:
    """Does the query's head, a thing, meet the fact only by its topic, while the fact
    names a thing of that topic of its own that the query does not (``plays the violin``
    and ``plays the flute``: two instruments)? A head that names the topic as a whole
    (``plays an instrument``) takes in every thing of it, and an adjective names no
    thing (``financial details``)."""
    shared = _by_topic_only(query, head, v)
    if not shared or not any(_term(f) == head and f in lx.COMMON_NOUNS
                             for f in word_forms(query.text)):
        return False
    return any(_a_kind_of(f, head, shared) and _term(f) not in query.terms
               for f in word_forms(v.fact.text) if f not in lx.STOPWORDS)


def _by_topic_only(query: Query, word: str, v: FactView) -> frozenset[str]:
    """The topics by which a query word meets the fact when it meets it by topic alone and
    names none of them as a whole (else none): where another thing of the topic can
    stand in the fact."""
    shared = query.domains.get(word, frozenset()) & v.domains
    if not shared or _meets_as_written(query, word, v) or any(
            lx.names_topic(word, d) for d in shared):
        return frozenset()
    return shared


def sibling_kind(query: Query, v: FactView, skip: Iterable[str] = ()) -> bool:
    """Does the query's kind word meet the fact only by its topic, while the fact has a
    word of that topic of its own just before the same head (``guitar lessons`` and
    ``has piano lessons``: two instruments, so two kinds of lesson)? A word that names
    the topic as a whole (``music lessons``) takes in every kind of it, and a word of the
    topic elsewhere in the fact is no sibling (``user phone iPhone`` and ``has an iPhone
    as their primary device``)."""
    phrase = _noun_phrase(query, skip)
    return len(phrase) >= 2 and _sibling(query, phrase[-1], phrase[-2], v)


def _sibling(query: Query, head: str, kind: str, v: FactView) -> bool:
    """:func:`sibling_kind` for the query's head and kind words."""
    shared = _by_topic_only(query, kind, v)
    if not shared:
        return False
    said = [f for f in word_forms(v.fact.text) if f not in lx.STOPWORDS]
    return any(_term(f) == head and i > 0 and _a_kind_of(said[i - 1], kind, shared)
               for i, f in enumerate(said))


def _a_kind_of(word: str, kind: str, topics: frozenset[str]) -> bool:
    """Is ``word`` another thing of ``topics`` than ``kind``: a common noun of one of them
    (``piano`` beside ``guitar``), not a person, a verb or an adjective (``CEO of Acme``,
    ``afraid of heights``, ``preferred green`` say what, not which kind) nor a word that
    names the topic as a whole?"""
    return (_term(word) != kind and word in lx.COMMON_NOUNS and word not in lx.ROLE_NOUNS
            and bool(lx.domains_of(word) & topics)
            and not any(lx.names_topic(word, d) for d in topics))


def _meets_as_written(query: Query, term: str, v: FactView) -> bool:
    """A query word found in the fact as a word, a part or a derivation (not by topic)."""
    return (term in v.terms or term in v.parts or _derived(term, v.terms)
            or nominalises(term, v.terms) or bool(_DAYS_OF.get(term, frozenset()) & v.terms)
            or bool(query.parts.get(term, frozenset()) & (v.parts | v.terms)))


_DAYS_OF = {stem("weekend"): frozenset(stem(d) for d in ("saturday", "sunday")),
            stem("weekday"): frozenset(stem(d) for d in (
                "monday", "tuesday", "wednesday", "thursday", "friday"))}
"""The days a span of the week is made of: the weekend is Saturday and Sunday."""


_CLAUSE_OPENERS = words("i you he she we they")
"""Subject pronouns, which after a noun open a relative clause of their own (``the
knitting group I go to``, ``the class that she takes``): the noun phrase ends before
them. Not ``that`` itself, which after an information noun opens what it holds (``the
note that Nadia speaks Polish``)."""


def _noun_phrase(query: Query, skip: Iterable[str]) -> list[str]:
    """The query's content terms up to a preposition or a relative clause after one of
    them: the noun phrase before its complement (``on-call duty`` of ``on-call duty for
    billing``, ``knitting group`` of ``the knitting group I go to``). A role or
    information noun is no content alone, but after a content word it is the head of the
    compound (``water supplier``, ``phone number``), and an information noun before one
    its modifier (``account number``)."""
    return _phrase(query, skip)[0]


def _phrase(query: Query, skip: Iterable[str]) -> tuple[list[str], str | None]:
    """:func:`_noun_phrase`, and what follows it: ``clause`` (a relative clause),
    ``complement`` (a preposition's phrase) or None."""
    terms = [t for t in content_terms(query, skip) if t not in query.id_terms]
    content = {t for t in terms if t not in _GENERIC_TERMS}
    heads = {t for t in terms if t in _GENERIC_TERMS}  # "water supplier": a supplier
    out: list[str] = []
    forms = word_forms(query.text)
    governing = _PREPOSITIONS | _governing(query.text)
    for form, after in itertools.zip_longest(forms, forms[1:], fillvalue=""):
        if out and form in _CLAUSE_OPENERS:
            return out, "clause"
        if out and (form in governing or (gerund_of(form) and lx.names_a_topic(out[-1]))):
            # "the job fixing shoes at the kiosk": after a noun of a whole topic a gerund
            # says what the job is, as a preposition's phrase would, no kind of shoe
            return out, "complement"
        term = _term(form)
        if (term in content or (term in heads and (out or _modifies(form, after)))) and (
                term not in out):
            out.append(term)
    return out, None


def _meets(query: Query, term: str, v: FactView) -> bool:
    """A query word found in the fact: as a word, a part, a derivation, or by topic."""
    return _meets_as_written(query, term, v) or bool(
        query.domains.get(term, frozenset()) & v.domains)


def names_another(query: Query, v: FactView, skip: Iterable[str] = ()) -> bool:
    """Does the query give a proper name the fact lacks, while the fact gives one of its
    own the query lacks (``Eva's train to Naples`` is not her ``train to Florence``, nor
    ``Tom's meeting with Anna`` his ``meets Rhys weekly``)? A name is the most specific
    word a query can say: two different ones are two different things, whatever else the
    texts share. A fact that names nothing else may still be the thing, under another
    word than the query's name (``Tom's iPhone``, ``Tom's phone is cracked``). Names are
    capitalised words after the first (sentence case), not the named entity's, not
    titles. A list query (``his cat and his Golf``) names each thing apart: not read."""
    if _LIST.search(query.text):
        return False
    unnamed = set(skip) | titles(query.text)
    asked = _proper_terms(query.text.split()[1:], unnamed)
    if all(t in v.terms or t in v.parts or _derived(t, v.terms) for t in asked):
        return False
    own = entity_terms(v.fact.entity) if v.fact.entity else frozenset()
    return bool(_proper_terms(v.proper, unnamed) - set(query.terms) - asked - own)


def _names_shared(query: Query, v: FactView, skip: Iterable[str]) -> bool:
    """Does the fact hold a proper name the query gives, other than the entity's own?"""
    asked = _proper_terms(query.text.split()[1:], set(skip) | titles(query.text))
    return bool(asked & (v.terms | v.parts))


def _proper_terms(words: Iterable[str], unnamed: set[str]) -> frozenset[str]:
    """The terms of the capitalised words among ``words`` (none of ``unnamed``), but a day
    or a part of the day (``Monday``), which English capitalises but names nothing."""
    return frozenset(t for w in words if w[:1].isupper() for f in word_forms(w)
                     if f not in lx.STOPWORDS and (t := _term(f)) not in unnamed
                     and f not in unnamed and t not in _WHEN)


def lexical_matches(query: Query, views: Sequence[FactView], th: Thresholds, *,
                    ratio: float, skip: Iterable[str] = (),
                    all_views: Sequence[FactView] | None = None,
                    within_entity: bool = False) -> list[Match]:
    """Tier 3: facts whose coverage clears ``min_coverage`` and ``ratio`` x the best, and
    that share real content with the query (:func:`specific`). When some fact covers
    every word of the query, one that misses a word is about something else (``sprint
    budget plan`` is not the ``sprint budget goal``) and is left alone."""
    skip = tuple(skip)
    views = [v for v in views if specific(query, v, skip, within_entity=within_entity)
             and not another_kind(query, v, skip) and not names_another(query, v, skip)]
    if not views:
        return []
    idf = idf_weights(all_views or views)
    scored = [(coverage(query, v, idf, th, skip), v) for v in views]
    best = max((s for s, _ in scored), default=0.0)
    if best < th.min_coverage:
        return []
    floor = max(th.min_coverage, ratio * best, best if best >= _WHOLE else 0.0)
    return sorted((Match(v.fact, "lexical", round(s, 4)) for s, v in scored if s >= floor),
                  key=lambda m: -m.score)


_WHOLE = 1.0 - 1e-9
"""Coverage of a fact that has every word of the query."""


def query_terms_naming(entities: dict[str, str]) -> set[str]:
    """Query terms that were used to name an entity (not content)."""
    return {_term(form) for surface in entities.values() for form in word_forms(surface)}


def relevance(query: Query, v: FactView, idf: dict[str, float], th: Thresholds) -> float:
    """How much a fact has to do with a recall query (0 = nothing in common). The labels
    of a query of identifiers alone say which kind of identifier it asks for
    (:func:`_label_words`), never which topic or who: a fact earns nothing by a label's
    topic (``passport number …`` has nothing to do with ``flies to Delhi``) or a word
    derived from it (``employee`` / ``employer``), nor a person's fact by a label that is
    a person noun (``member number …``), nor any fact by a word qualifying the label
    (``FIDE ID …`` has nothing to do with ``has a FIDE rating of 1850``)."""
    labels_only = only_identifiers(query)
    carried = any(matches(q, f) for q in query.identifiers for f in v.identifiers)
    score = coverage(query, v, idf, th, exact_ids=True, literal=labels_only,
                     skip=query.label_qualifiers if labels_only else ())
    if query.person_intent and not labels_only and v.fact.entity and v.fact.entity.split(
            ":", 1)[0] in PERSON_NAMESPACES:
        score = max(score, 0.2)
    if carried:
        score = max(score, 1.0)
    for surface, keys, _cap in query.ngrams:
        if v.mentions_among(keys) and not _within_identifiers(query, surface, labels_only):
            score = max(score, 0.5)
    return score


def _within_identifiers(query: Query, surface: str, labels: bool = False) -> bool:
    """Is a word sequence of the query part of an identifier it names (``IE`` of ``IE
    6388047V``), or with ``labels`` of one's label too (``FIDE`` of ``FIDE ID …``)? Then
    it names no one: a lookalike sharing the group, or a fact naming the label's kind
    (``has a FIDE rating``), is no mention."""
    naming = query.id_terms | (query.label_qualifiers if labels else frozenset())
    return bool(naming) and all(_term(w) in naming for w in word_forms(_cleaned(surface)))


def asks_for_whole_entity(query: Query, entities: dict[str, str]) -> bool:
    """The query asks for the named entities as a whole: nothing but their names, with
    ``everything``/``profile`` words or generic nouns at most. A totality word quantifies
    what follows it: ``everything about Mia`` is Mia, ``all of Mia's allergies`` every
    allergy of hers and nothing else."""
    skip = query_terms_naming(entities)
    generic = (generic_terms(query) | _KNOWING | _described(query.text, entities)
               if query.totality else frozenset())
    return all(t in skip or t in generic or not _cjk_rest(t, entities.values())
               for t in query.terms)


def _described(text: str, entities: dict[str, str]) -> frozenset[str]:
    """The terms that say which entity the query means, not what of it: an apposition
    after a name (``Alice the data scientist``), time phrases (``this term``) and the
    other names of a slash-separated list of names (``Robert Smith / Bob Smith``)."""
    out: set[str] = set()
    segments = text.split(" / ")
    for k, segment in enumerate(segments if len(segments) > 1 else []):
        said = segment.split()
        run = said if k == 0 else list(itertools.takewhile(lambda w: w[:1].isupper(), said))
        if k == 0:  # the name before the slash ends the first segment
            run = list(itertools.takewhile(lambda w: w[:1].isupper(), reversed(said)))
        out |= {_term(f) for w in run for f in word_forms(w)}
    for match in TEMPORAL.finditer(text):
        out |= {_term(f) for f in word_forms(match.group())}
    names = [n.lower() for surface in entities.values() for n in surface.split(" / ")]
    low = text.lower()
    for name in names:
        at = low.find(name + " the ")
        if at >= 0:
            rest = re.split(r"[,;:.!?]", low[at + len(name) + 5:], maxsplit=1)[0]
            out |= {_term(f) for f in word_forms(rest)}
    return frozenset(out)


def names_only(query: Query, entities: dict[str, str]) -> bool:
    """The query says nothing beyond the entities' names and generic role or
    information nouns (``the patient Wang Fang's record``)."""
    skip = query_terms_naming(entities)
    generic = generic_terms(query)
    return all(t in skip or t in generic or not _cjk_rest(t, entities.values())
               for t in query.terms)


def generic_terms(query: Query) -> frozenset[str]:
    """The query's terms written as a role or information noun (``patient``, ``records``):
    by the word as written, not its stem, for a stem can be a role's and the word another
    (``shopping``, ``shop``: the shopping list is a thing). A role noun that a possessive
    possesses is a thing of the owner's, not the owner's role (``Kai's hotel``, ``her
    flight``, ``Mia's doctor``): content, or ``release Kai's hotel`` named Kai alone."""
    owned = _owned_words(query.text)

    def generic(w: str) -> bool:
        one = w[:-1] if w.endswith("s") and w not in lx.INFO_NOUNS else w
        return one in lx.INFO_NOUNS or (one in lx.ROLE_NOUNS and w not in owned)

    return frozenset(_term(w) for w in word_forms(_cleaned(query.text)) if generic(w))


_OWNER = re.compile(r"(?:\b[^\W\d_]+['’]s?|\b(?:my|your|his|her|its|our|their))\s+"
                    r"([^\W\d_]+)(?:\s+([^\W\d_]+))?", re.IGNORECASE)


def _owned_words(text: str) -> frozenset[str]:
    """The one or two words after each possessive (``Kai's hotel``, ``her old flight``,
    ``Mia's flight details``); not a person's role before an information noun, which
    then says who the record is of (``Wang Fang's patient record`` is her record)."""
    out: set[str] = set()
    for m in _OWNER.finditer(text):
        first, second = (w.lower() if w else "" for w in m.groups())
        about_her = first not in lx.THING_KINDS and (
            second in lx.INFO_NOUNS or second.rstrip("s") in lx.INFO_NOUNS)
        if not about_her:
            out.update(w for w in (first, second) if w)
    return frozenset(out)


_CJK_FUNCTION = sorted(OPERATION_WORDS, key=len, reverse=True)


def _cjk_rest(term: str, names: Iterable[str]) -> str:
    """What a run of Chinese says besides the names and the function words of the basic
    operations (``忘掉赵磊``: nothing, so it names 赵磊 and nothing else); the term
    itself when it is not Chinese."""
    if not any(script_of(c) == "CJK" for c in term):
        return term
    for word in [*sorted((n for s in names for n in s.split(" / ")), key=len, reverse=True),
                 *_CJK_FUNCTION]:
        term = term.replace(word, "")
    return term
