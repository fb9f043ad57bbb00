"""Closed word lists the rule interpreter reads: general English, no benchmark strings.

Grammar (function words, auxiliaries, negators, temporal words, honorifics) is written
here; vocabulary is data beside the code, in ``memory_es/text/data/``, each file with a
note saying where its words come from and the rule that admits them: common verbs and
their irregular forms (``verbs.txt``, ``irregular_verbs.txt``), cessation and change
markers (``cessation.txt``, ``change_markers.txt``, ``continuation_markers.txt``), the
topic thesaurus (``topics.txt``: *car*, *drive*, *commute* are transport) and the nouns
that name each topic as a whole (``topic_names.txt``: *vehicle* names it), identifier
labels (``identifier_labels.txt``) and the German and Chinese phrases of the basic
operations (``de.txt``, ``zh.txt``). No entity name, phrase or answer of any test suite
appears in them.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from importlib import resources

from projections.tokens import stem


def words(text: str) -> frozenset[str]:
    """A closed word list written as whitespace-separated text."""
    return frozenset(text.split())


def data_lines(name: str) -> list[str]:
    """The entries of a vocabulary file in ``memory_es/text/data/`` (one per line;
    ``#`` starts a comment, which is where each file says where its words come from)."""
    raw = resources.files("memory_es.text").joinpath("data", name).read_text("utf-8")
    return [e for e in (line.split("#", 1)[0].strip() for line in raw.splitlines()) if e]


def data_sections(name: str) -> dict[str, tuple[str, ...]]:
    """A sectioned vocabulary file (``[section]`` headers, then its words)."""
    out: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in data_lines(name):
        if line.startswith("[") and line.endswith("]"):
            current = out.setdefault(line[1:-1], [])
        elif current is not None:
            current.extend(line.split())
    return {k: tuple(v) for k, v in out.items()}


def data_words(name: str) -> frozenset[str]:
    """The words of a vocabulary file (whitespace-separated entries)."""
    return frozenset(w for line in data_lines(name) for w in line.split())


STOPWORDS: frozenset[str] = words("""
a an the is are was were be been being am do does did doing of in on at to for with by
from and or but nor what which who whom whose where when how why that this these those it
its i me my mine you your yours he him his she her hers they them their theirs we us our
ours has have had having about as into than then there here so such can could would should
will shall may might must just also any some tell know please let lets get got s t very
really too up out over under again show give list me each every on file any
""")
"""Function words: never content, never names."""

SUBJECT_PRONOUNS: frozenset[str] = words("he she they it")
"""Third-person subject pronouns: they stand for someone named before."""
POSSESSIVE_PRONOUNS: frozenset[str] = words("his her their its")
"""Third-person possessive determiners: ``her rent`` is the rent of someone named before."""
POSSESSIVE_DETERMINERS: frozenset[str] = POSSESSIVE_PRONOUNS | words("my our your")

NAME_PARTICLES: frozenset[str] = words("""
von van der den de da di du del della des la le ten ter zu bin ibn al dos das do ap ab
""")
"""Lower-case particles inside a surname (``Jürgen von Bülow``, ``Ludwig van Beethoven``,
``Maria de la Cruz``, ``Bronwen ap Rhys``): the closed class of European nobiliary and
Arabic and Welsh patronymic particles."""

REPORTING_VERBS: frozenset[str] = words("""
say confirm mention report explain note state add write announce reply admit
""")
"""Verbs that report what someone said in a that-clause (the "say" verbs of Levin 1993,
English Verb Classes and Alternations, section 37.7): ``Priya confirmed her new address
is …`` says the clause of Priya."""

INTERJECTIONS: frozenset[str] = words("""
sorry oops whoops oh ah hmm ok okay yeah yep nope alright well yes no right
""")
"""Words said before a statement, set off by a comma (``Sorry, …``, ``Oops, …``): never
a name (a closed class of English grammar)."""

NEGATORS: frozenset[str] = words("not no never none nobody nothing neither nor cannot without")
NEGATED_CONTRACTIONS = ("n't", "n’t")
NEGATING_VERBS: frozenset[str] = words("""
refuse refuses refused refusing decline declines declined avoid avoids avoided lack lacks
lacked
""")
"""Verbs whose complement is stated as not holding (``refuses to use X``)."""

AUXILIARIES: frozenset[str] = words("""
is are was were be been being am do does did has have had having will would shall should
can could may might must isn't aren't wasn't weren't doesn't don't didn't hasn't haven't
hadn't won't wouldn't can't couldn't shouldn't mustn't
""")

ADVERBS: frozenset[str] = words("""
now currently still also recently actually really just only no longer already often
usually sometimes always never strictly exclusively mostly frequently mainly primarily
temporarily permanently firmly finally eventually officially regularly occasionally
originally previously formerly again back newly then soon later today hourly daily
nightly weekly fortnightly monthly quarterly yearly annually happily fully partly largely
generally typically openly quickly almost nearly
""")
"""Adverbs that may stand between a subject and its verb."""

# Common verbs (data/verbs.txt) and their irregular forms (data/irregular_verbs.txt);
# regular forms (-s, -es, -ed, -ing) are derived.
_VERBS = " ".join(data_lines("verbs.txt"))
_IRREGULAR: dict[str, tuple[str, ...]] = {
    line.split()[0]: tuple(line.split()[1:]) for line in data_lines("irregular_verbs.txt")}
MODALS: frozenset[str] = words("""
will would shall should can could may might must
""")


def _regular_forms(lemma: str) -> set[str]:
    forms = {lemma}
    if lemma.endswith("y") and lemma[-2:-1] not in "aeiou":
        forms |= {lemma[:-1] + "ies", lemma[:-1] + "ied"}
    elif lemma.endswith(("s", "sh", "ch", "x", "z", "o")):
        forms |= {lemma + "es", lemma + "ed"}
    else:
        forms.add(lemma + "s")
        forms.add(lemma + "d" if lemma.endswith("e") else lemma + "ed")
    if lemma.endswith("e") and not lemma.endswith("ee"):
        forms.add(lemma[:-1] + "ing")
    else:
        forms.add(lemma + "ing")
    # doubled final consonant (stop -> stopped, plan -> planned)
    if (len(lemma) >= 3 and lemma[-1] in "bdgklmnprt" and lemma[-2] in "aeiou"
            and lemma[-3] not in "aeiou" and lemma[-1] != "w"):
        forms |= {lemma + lemma[-1] + "ed", lemma + lemma[-1] + "ing"}
    return forms


def _build_verbs() -> tuple[dict[str, str], frozenset[str], frozenset[str], frozenset[str]]:
    form_to_lemma: dict[str, str] = {}
    third: set[str] = set()
    past: set[str] = set()
    bare: set[str] = set()
    lemmas = set(_VERBS.split()) | set(_IRREGULAR)
    for lemma in lemmas:
        for form in _regular_forms(lemma):
            form_to_lemma.setdefault(form, lemma)
            if form.endswith("ing"):
                continue
            if form == lemma:
                bare.add(form)
            elif form.endswith("s") and not form.endswith("ss"):
                third.add(form)
            else:
                past.add(form)
        for form in _IRREGULAR.get(lemma, ()):
            form_to_lemma[form] = lemma
            if form.endswith("ing"):
                continue
            if form in ("is", "has", "does", "goes", "flies"):
                third.add(form)
            elif form in ("are", "am"):
                bare.add(form)
            else:
                past.add(form)
    _add_prefixed(form_to_lemma, third, past)
    _add_again(form_to_lemma, third, past, bare)
    return form_to_lemma, frozenset(third), frozenset(past), frozenset(bare)


VERB_PREFIXES: tuple[str, ...] = ("out", "over", "under", "re", "mis", "fore", "for", "with")
"""The English verb-forming prefixes that keep the verb's own inflection: ``overslept``
is ``sleep``'s past under ``over``, ``outgrew`` ``grow``'s, ``forgave`` ``give``'s."""


def _add_prefixed(form_to_lemma: dict[str, str], third: set[str], past: set[str]) -> None:
    """The finite forms of a prefixed irregular verb: the prefix, then a form of the verb
    (``rewrote``, ``oversleeps``). Irregular verbs are the ones whose forms can't be
    derived, and a prefixed one inflects as its base does, so a word of that shape is
    a verb unless it is a common noun or its plural (``outputs``, ``forecast``); ``-ing``
    forms are left out, as they are as often adjectives (``outgoing``)."""
    for lemma, forms in _IRREGULAR.items():
        if lemma in ("be", "have"):
            continue
        base = {f for f in _regular_forms(lemma) | set(forms) if not f.endswith("ing")}
        for prefix in VERB_PREFIXES:
            for form in base - {lemma}:
                word = prefix + form
                if word in form_to_lemma or word in _NOUNS or word.removesuffix("s") in _NOUNS:
                    continue
                form_to_lemma[word] = prefix + lemma
                (third if form in _THIRD_FORMS else past).add(word)


def _again_forms() -> dict[str, str]:
    """Each finite form of a verb of doing again (``data/again_verbs.txt``) -> the form of
    its base it is made of (``reassigned`` -> ``assigned``); a word that is a common noun
    or its plural (``reprints``, ``rewrites``) is left out, as for :func:`_add_prefixed`."""
    out: dict[str, str] = {}
    for verb in data_words("again_verbs.txt"):
        base = verb.removeprefix("re")
        for form in _regular_forms(base) | set(_IRREGULAR.get(base, ())):
            word = "re" + form
            if not form.endswith("ing") and word not in _NOUNS \
                    and word.removesuffix("s") not in _NOUNS:
                out[word] = form
    return out


def _add_again(form_to_lemma: dict[str, str], third: set[str], past: set[str],
               bare: set[str]) -> None:
    """A verb of doing again is a form of its base verb (``was reassigned to Judge Mills``
    fills the slot of ``is assigned to Judge Reed``); that it is done again is read by
    :data:`AGAIN_PAST`."""
    for word, form in _AGAIN.items():
        form_to_lemma[word] = form_to_lemma[form]
        for forms in (third, past, bare):
            if form in forms:
                forms.add(word)


_THIRD_FORMS = frozenset(f for lemma in _IRREGULAR for f in _regular_forms(lemma)
                         if f.endswith("s") and not f.endswith("ss")) | {"does", "goes"}
_NOUNS: frozenset[str] = data_words("common_nouns.txt")
_AGAIN = _again_forms()


VERB_LEMMA, VERBS_3SG, VERBS_PAST, VERBS_BARE = _build_verbs()
"""Form -> lemma; finite forms that agree with a third-person singular subject; past
forms (agree with any subject); bare forms (agree with I/we/you/they)."""


AGAIN_PAST: frozenset[str] = frozenset(w for w, form in _AGAIN.items() if form in VERBS_PAST)
"""Past forms of the verbs of doing again (``reassigned``, ``rescheduled``, ``reopened``):
the act was done anew, so what its slot held before it no longer holds (a change of
state, as ``now`` marks one). The present (``reviews``) is a habit and says no such thing."""


IRREGULAR_PAST: frozenset[str] = frozenset(
    f for lemma, forms in _IRREGULAR.items() if lemma not in ("be", "do")
    for f in forms if not f.endswith("ing") and f not in ("has", "does", "goes", "flies")
) | {"been", "done", "gotten"}
"""Irregular past forms and participles (``left``, ``sold``, ``been``), the auxiliaries'
finite forms (``was``, ``did``) left out."""


def lemma_of(word: str) -> str | None:
    """The verb lemma of ``word`` (lower case) if it is a known verb form."""
    return VERB_LEMMA.get(word.lower())


_CESSATION = data_lines("cessation.txt")
CESSATION_VERBS: frozenset[str] = frozenset(e for e in _CESSATION if " " not in e)
"""Lemmas that report that a prior state ended (``sold the piano``, ``quit the job``)."""
CESSATION_PHRASES: tuple[str, ...] = tuple(e for e in _CESSATION if " " in e)

_DYING = data_lines("dying_verbs.txt")


def tells_a_death(value: str) -> bool:
    """Does a predicate (``passed away``, ``died last year``) say its subject died?"""
    said = value.lower().split()
    lemma = (lemma_of(said[0]) or said[0]) if said else ""
    return lemma in _DYING or " ".join([lemma, *said[1:2]]) in _DYING


CHANGE_MARKERS: tuple[str, ...] = tuple(data_lines("change_markers.txt"))
"""Words that mark a statement as a change of state (write-time intent: replace)."""

CHANGE_HEADINGS: tuple[str, ...] = tuple(data_lines("change_headings.txt"))
"""Headings before a colon that mark the text after it as a change (``Correction:``)."""

CHANGE_VERBS: frozenset[str] = frozenset(
    lemma for m in CHANGE_MARKERS if m.endswith(" to") and (lemma := lemma_of(m.split()[0])))
"""The verbs of the change markers that take ``to`` (switch, move, upgrade, go, ...): with
``from X to Y`` between them they mark a change as well (``moved from Leeds to York``)."""
EXCHANGE_VERBS: dict[str, str] = {
    verb: preposition for preposition, verbs in data_sections("exchange_verbs.txt").items()
    for verb in verbs}
"""Verbs whose object is given up, each with the preposition of what is taken instead
(``traded her Skoda for a Kia``, ``replaced his bike with a Brompton``;
``data/exchange_verbs.txt``)."""
GIVING_VERBS: frozenset[str] = data_words("giving_verbs.txt")
"""Verbs of giving a thing away to someone (``gave her Labrador to her sister``;
``data/giving_verbs.txt``)."""
HIRING_VERBS: frozenset[str] = data_words("hiring_verbs.txt")
"""Verbs whose passive with ``by`` and a name starts work there (``was hired by Tesco``;
``data/hiring_verbs.txt``)."""
ROLE_CHANGE_FORMS: frozenset[str] = frozenset(
    form for lemma in data_words("role_change_verbs.txt") for form in _regular_forms(lemma))
"""Forms of the verbs whose passive with ``to`` and a role says the role held now (``was
promoted to senior analyst``, ``was demoted to sergeant``; ``data/role_change_verbs.txt``)."""
COMPLETION_VERBS: frozenset[str] = data_words("completion_verbs.txt")
"""Verbs that end an activity in progress (``finished Dune`` ends ``is reading Dune``;
``data/completion_verbs.txt``)."""
TIME_SHIFT_VERBS: frozenset[str] = data_words("time_shift_verbs.txt")
"""Verbs that set a thing's own time anew (``extend``, ``postpone``, ``renew``:
``data/time_shift_verbs.txt``)."""
MOTION_VERBS: frozenset[str] = words("move go come return")
"""The change verbs whose ``from`` and ``to`` are places, not alternatives of a kind."""
TRAVEL_VERBS: frozenset[str] = data_words("travel_verbs.txt")
"""Verbs of travelling by a means (``drive``, ``cycle``, ``walk``): with ``to`` and a
destination, how the subject gets there (``data/travel_verbs.txt``)."""

CONTINUATION_MARKERS: tuple[str, ...] = tuple(data_lines("continuation_markers.txt"))
ADDITIVE_MARKERS: tuple[str, ...] = tuple(data_lines("additive_markers.txt"))
"""``too``, ``also``, ``as well``: what the statement says adds to what holds."""


TOTALITY: frozenset[str] = words("""
everything all anything entire whole every
altogether completely entirely totally wholly
""")
"""Words that ask for a thing as a whole: the quantifiers, and the maximizers among the
degree adverbs (Quirk et al. 1985, §8.105) that say "all of it" (``forget Lukas
entirely``); not ``fully`` or ``quite``, which grade a state (``fully vaccinated``)."""
INFO_NOUNS: frozenset[str] = words("""
information info details detail data profile profiles record records history file files
background backgrounds
account accounts facts fact memories memory stuff things thing
""")
"""Generic nouns that ask for an entity as a whole (``Sam's profile information``)."""

KNOWING_VERBS: frozenset[str] = words("""
know knows knew known hold holds held keep keeps kept store stores stored save saves saved
say says said tell tells told mention mentions mentioned remember remembers remembered
""")
"""Verbs of knowing and telling that a totality word's relative clause uses: in
``everything you hold on Mia`` they say whose knowledge, not which thing of Mia's."""

INFO_QUALIFIERS: frozenset[str] = words("""
personal private basic general sensitive identifying other own stored saved known
""")
"""Adjectives that describe information as a whole, not one topic of it: ``personal
data`` (the GDPR's own term) of a person is all of that person; ``contact details`` are not."""

HELD_INFO_NOUNS: frozenset[str] = words("account accounts")
"""Information nouns that also name a thing a person holds: with a modifier before them
they are that thing (``Netflix account``, ``salary account``), not the whole entity."""

FIRST_PERSON: frozenset[str] = words("i me my mine myself")

INSTRUCTION_VERBS: frozenset[str] = words("""
please forget delete erase remove drop purge release wipe clear discard
forgetting deleting erasing removing dropping purging releasing wiping clearing discarding
""")
"""The interface's own operations as imperatives, and the word that softens them:
``Forget Zoe Kim``, ``Please delete Zoe's dog``; and as gerunds, the form they take
after ``would you mind`` (``Would you mind dropping Zoe's dog?``). At the head of a
query they say what to do, not what the query names (German and Chinese hold theirs in
``de.txt`` and ``zh.txt``)."""

PAST_MARKERS: frozenset[str] = words("former formerly previous previously old earlier")
"""Words of a query that ask for a thing of the past (``my former employer``): not
content to match, but a filter on what matches."""

HONORIFICS: frozenset[str] = words("""
mr mrs ms miss mx dr prof professor sir dame lady lord rev fr sr jr herr frau
""")
"""Titles before a personal name; stripped from the canonical id."""
TITLE_NOUNS: dict[str, str] = {"dr": "doctor", "prof": "professor", "professor": "professor",
                               "rev": "reverend"}
"""Titles that are a calling, and the noun they abbreviate (or are): ``sees Dr Obi`` is
about a doctor."""

THING_KINDS: frozenset[str] = words("""
team company department branch office project ticket order case invoice product device
server host record restaurant hotel school building book flight course museum store shop
band group club account
""")
"""Kinds of things and organisations that introduce a name in apposition (``Hotel
Grand``, ``Project Orion``): a person has them, they never describe the person."""
ROLE_NOUNS: frozenset[str] = THING_KINDS | words("""
user customer client patient employee staff contractor vendor supplier subscriber member
student teacher professor engineer developer manager director applicant candidate reviewer
author artist athlete actor actress resident tenant guest visitor colleague friend
partner person people doctor nurse coach officer agent admin administrator intern owner
buyer seller driver rider passenger player
""")
"""Common nouns that introduce a name or an identifier in apposition (``Customer X``)."""

PERIODS: frozenset[str] = words("""
morning afternoon evening night day weekday weekend monday tuesday wednesday thursday
friday saturday sunday
""")
"""The parts of the day and the days of the week: ``works nights``, ``sleeps in the
morning`` say when (:mod:`memory_es.text.predicates`)."""
TEMPORAL_WORDS: frozenset[str] = words("""
january february march april may june july august september october november december jan
feb mar apr jun jul aug sep sept oct nov dec today yesterday tomorrow tonight week weeks
month months year years quarter spring summer autumn fall winter weekends decade century
semester term season easter christmas halloween ramadan
""") | (PERIODS - {"day", "weekday"})
"""Months, seasons, spans of time and the holidays that mark a time of year (``After
Easter Siobhan …``: the holiday says when, it starts no name)."""
TEMPORAL_PREPOSITIONS: frozenset[str] = words("""
since until till from to between through throughout during before after as of in starting
beginning ending
""")

ADJUNCT_MARKERS: tuple[str, ...] = (
    "after", "because", "due to", "following", "citing", "thanks to", "as a result of",
    "owing to", "when", "once", "since",
)
"""Subordinators that open a reason or circumstance adjunct (``since his partner moved to
Bristol``; ``since 2019`` is a time: :func:`~memory_es.text.qualifiers.adjuncts`)."""

# --- topic thesaurus (data/topics.txt) ------------------------------------------------


def _read_domains(name: str = "topics.txt") -> dict[str, frozenset[str]]:
    table: dict[str, set[str]] = {}
    current: set[str] | None = None
    for line in data_lines(name):
        if line.startswith("[") and line.endswith("]"):
            current = table.setdefault(line[1:-1], set())
        elif current is not None:
            current.update(line.split())
    return {d: frozenset(ws) for d, ws in table.items()}


TOPIC_NAMES: dict[str, frozenset[str]] = _read_domains("topic_names.txt")
"""Domain -> the nouns that name the domain as a whole (``work``: job, occupation,
profession; ``data/topic_names.txt``); they are words of the domain too."""

_CLOSED_CLASSES: dict[str, frozenset[str]] = {
    **_read_domains("diets.txt"), **_read_domains("breeds.txt")}
"""Domain -> a closed class of words listed whole, whatever their frequency (the names of
eating patterns, ``data/diets.txt``; of dog and cat breeds, ``data/breeds.txt``)."""

DOMAINS: dict[str, frozenset[str]] = {
    d: ws | TOPIC_NAMES.get(d, frozenset()) | _CLOSED_CLASSES.get(d, frozenset())
    for d, ws in _read_domains().items()}
"""Domain -> the everyday words of that life domain (``transport``: car, drive, commute)."""


def names_topic(word: str, domain: str) -> bool:
    """Does ``word`` (a surface form or a recall stem) name ``domain`` as a whole: one of
    its topic names (``occupation`` names ``work``), or a word built on the domain's own
    name (``dietary``, ``hometown``)?"""
    w = word.lower()
    if len(domain) >= 3 and w.startswith(stem(domain)):
        return True
    return any(w in (n, stem(n)) for n in TOPIC_NAMES.get(domain, frozenset()))


def names_a_topic(word: str) -> bool:
    """Does ``word`` name one of its own topics as a whole (``job``: work)?"""
    return any(names_topic(word, d) for d in domains_of(word))


def _build_domains() -> dict[str, frozenset[str]]:
    table: dict[str, set[str]] = {}
    for domain, words in DOMAINS.items():
        for word in words:
            for key in (word, stem(word)):
                table.setdefault(key, set()).add(domain)
    return {k: frozenset(v) for k, v in table.items()}


WORD_DOMAINS: dict[str, frozenset[str]] = _build_domains()


def domains_of(word: str) -> frozenset[str]:
    """The topic domains of a word (by surface form or its recall stem,
    :func:`projections.tokens.stem`); empty when unknown. A hyphenated compound unknown as
    a whole has its last part's (``sub-editor``: an editor's), as :func:`names_a_person`
    reads it: English compounds are headed on the right."""
    w = word.lower()
    found = WORD_DOMAINS.get(w) or WORD_DOMAINS.get(stem(w))
    if found:
        return found
    head = w.strip("-").rsplit("-", 1)
    return domains_of(head[1]) if len(head) == 2 and head[1] else frozenset()


def names_a_person(word: str) -> bool:
    """Does ``word`` name a person one has or deals with (``husband``, ``sister``,
    ``manager``), not a thing (``team``, ``office``): a role noun, or a word of the family
    or relationship topics? A hyphenated compound is its last part's kind (``co-author``,
    ``ex-wife``): English compounds are headed on the right, but for one whose parts after
    the first start with a preposition, headed by its first (``mother-in-law``)."""
    if "-" in word.strip("-"):
        parts = word.strip("-").split("-")
        if len(parts) > 2 and parts[1] in PREPOSITIONS:
            return names_a_person(parts[0])
        return names_a_person(parts[-1])
    return word in ROLE_NOUNS - THING_KINDS or bool(
        domains_of(word) & {"family", "relationship"}) or any(
        n in PERSON_NOUNS for n in _singulars(word))


def german_genitive(word: str) -> str | None:
    """The proper name a German word is the genitive of (``Richters``: Richter): German
    gives a proper name ``-s`` without an apostrophe before what it owns (Duden, *Genitiv
    bei Eigennamen*); a short word or one in ``-ss`` is none. None for any other word."""
    if word[:1].isupper() and len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return None


def german_person_base(word: str) -> str | None:
    """The person noun of ``de.txt`` a German word inflects (``Nachbarn``: Nachbar,
    ``Kollegen``: Kollege, ``Kolleginnen``: Kollegin): a weak masculine noun takes
    ``-(e)n`` outside the nominative singular, a feminine one ``-nen`` in the plural
    (Duden, *schwache Deklination*). None for a base form or any other word."""
    low = word.lower()
    persons = GERMAN["persons"]
    if low in persons:
        return None
    for ending in ("nen", "en", "n"):
        if low.endswith(ending) and low[:-len(ending)] in persons:
            return word[:-len(ending)]
    return None


PREFERRED_OVER: tuple[str, ...] = ("over", "to", "rather than", "instead of", "more than")
"""What puts a thing below the one a preference names first (``prefers tea to coffee``,
``trains rather than flights``): English comparison after *prefer* (Cambridge Grammar of
English, *prefer … to / rather than*)."""


PERSON_NOUNS: frozenset[str] = data_words("person_nouns.txt")
"""Common nouns that name a person first and never a thing (``roommate``, ``landlord``;
``data/person_nouns.txt``, derived from WordNet 3.1's lexicographer files)."""
ROLE_SENSE_NOUNS: frozenset[str] = data_words("role_nouns.txt")
"""Common nouns with any sense that names a person (``chair``, ``coach``, ``secretary``;
``data/role_nouns.txt``, derived from WordNet 3.1's lexicographer files)."""


_UNREALISED = {k: frozenset(v) for k, v in data_sections("unrealised.txt").items()}
UNREALISED_MODALS: frozenset[str] = _UNREALISED["modal"]
"""Auxiliaries that put the verb after them out of the present (``might move``)."""
UNREALISED_SUBORDINATORS: frozenset[str] = _UNREALISED["subordinator"]
"""``if``, ``unless``, ``whether``: what follows is a condition or a question."""
UNREALISED_VERBS: frozenset[str] = _UNREALISED["verb"]
"""Lemmas of desire, intention and deliberation (``plans to quit``, ``is thinking
about selling``): their complement has not happened."""


COMMON_NOUNS: frozenset[str] = _NOUNS
"""Common English nouns that are not personal names (``data/common_nouns.txt``, derived
from the SPECIALIST Lexicon, wordfreq and the US Census name lists)."""

CONCRETE_NOUNS: frozenset[str] = data_words("concrete_nouns.txt")
"""Common nouns that name a physical thing first and nothing abstract in any sense
(``grinder``, ``violin``, ``jug``; ``data/concrete_nouns.txt``, derived from WordNet
3.1's lexicographer files)."""


def _singulars(noun: str) -> tuple[str, ...]:
    return (noun, noun.removesuffix("s"), noun.removesuffix("es"),
            noun[:-3] + "y" if noun.endswith("ies") else noun)


def is_concrete(noun: str) -> bool:
    """Does ``noun`` (or its singular) name a physical thing (:data:`CONCRETE_NOUNS`)?"""
    return any(n in CONCRETE_NOUNS for n in _singulars(noun))


COMPOUND_THINGS: frozenset[tuple[str, str]] = frozenset(
    (first, head) for first, head in (line.split() for line in data_lines("compound_things.txt")))
"""Two-word compounds that name a physical thing or a person (``coffee grinder``, ``bread
maker``; ``data/compound_things.txt``, derived from WordNet 3.1's collocations)."""


def is_compound_thing(first: str, head: str) -> bool:
    """Do ``first`` and ``head`` (or its singular) make a compound that names a physical
    thing or a person?"""
    return any((first, h) in COMPOUND_THINGS for h in _singulars(head))


def is_agent_noun(noun: str) -> bool:
    """Is ``noun`` (or its singular) a rare noun of the agentive suffix ``-er``, in no list
    of the lexicon (``frother``, ``dehumidifier``)? English forms such nouns from verbs for
    whoever or whatever does the act (Marchand 1969, The Categories and Types of
    Present-Day English Word-Formation, on -er): a person or a device, never the act
    itself, and too rare for a list to say which."""
    return any(n.endswith("er") and n.isalpha() and len(n) > 4 and not (
        n in COMMON_NOUNS or n in ENGLISH_VERBS or n in ROLE_NOUNS or n in INFO_NOUNS
        or n in STOPWORDS or n in TEMPORAL_WORDS or domains_of(n))
        for n in _singulars(noun)[:2])


LINKING_ADVERBS: frozenset[str] = data_words("linking_adverbs.txt")
"""Adverbs that open a sentence before its subject, set off by a comma (``However, …``)."""

ENGLISH_VERBS: frozenset[str] = data_words("english_verbs.txt")
"""A broad list of English verb lemmas (``data/english_verbs.txt``, derived from the
SPECIALIST Lexicon and wordfreq): only to confirm that a word parallel to a clause's
verb can be a verb (``quilts and breeds rabbits``), never to find a verb on its own."""


def inflected_verb(word: str) -> str | None:
    """The lemma of a regular ``-s``/``-es``/``-ed`` form of a verb of the broad list
    (:data:`ENGLISH_VERBS`), or of any form :func:`lemma_of` knows; None otherwise."""
    w = word.lower()
    known = lemma_of(w)
    if known:
        return known
    for suffix, back in (("ies", "y"), ("ied", "y"), ("es", ""), ("ed", "e"), ("ed", ""),
                         ("s", "")):
        if w.endswith(suffix) and (base := w[:-len(suffix)] + back) in ENGLISH_VERBS:
            return base
    return None


PINYIN_SYLLABLES: frozenset[str] = data_words("pinyin_syllables.txt")
"""Hanyu Pinyin syllables without tones (``data/pinyin_syllables.txt``)."""

PREPOSITIONAL_ADVERBS = words("around round along past")
"""Prepositions that are also adverbs (Quirk et al. 1985, §9.7 and §16.3): after a verb
a particle (``showed her around``), after a noun or before a name a preposition (``tours
round the cathedral``, ``visitors round South Stack``)."""

PARTICLES = words("away back down off out up apart aside along around ahead")
"""The adverbial particles of phrasal verbs that are no prepositions (Quirk et al. 1985,
§16.3): part of the verb (``stepped down from the committee``, ``dropped out of the
course``), never its object."""

PREPOSITIONS = words("""
in at to for from with on by of as into onto via about near over under behind beside
between among across through outside inside beyond towards toward within without against
during throughout upon beneath underneath
""")
"""The prepositions that end an object noun phrase or link two nouns (the closed class of
English prepositions, Quirk et al. 1985, §9.7, less those that are also adverbial
particles of phrasal verbs, ``up``, ``down``, ``off``, ``out``, ``around``, ``along``, and
those that open a clause, ``after``, ``before``, ``since``, ``until``)."""

KIN_BY_PRONOUN: dict[str, frozenset[str]] = {
    pronoun: frozenset(data_sections("gendered_kin.txt")[gender])
    for pronoun, gender in (("she", "female"), ("he", "male"))}
"""The kin and partner nouns a following ``she`` or ``he`` can point back to
(``data/gendered_kin.txt``)."""
GERMAN = data_sections("de.txt")
"""German words of the basic operations (``data/de.txt``)."""
CHINESE = data_sections("zh.txt")
"""Chinese words of the basic operations (``data/zh.txt``)."""
CHINESE_SURNAMES: frozenset[str] = data_words("zh_surnames.txt")
"""The surnames a Chinese personal name opens with (``data/zh_surnames.txt``)."""
TOTALITY = TOTALITY | frozenset(GERMAN["totality"])
_GERMAN_FUNCTION = frozenset(GERMAN["function"]) | frozenset(
    unicodedata.normalize("NFKD", w.replace("ß", "ss")).encode("ascii", "ignore").decode()
    for w in GERMAN["function"])  # as queries are folded: "weißt" is read as "weisst"
GERMAN_PREPOSITIONS: frozenset[str] = frozenset(GERMAN["prepositions"]) | frozenset(
    GERMAN["shared_prepositions"])
"""German prepositions, those that are English words too (``in``, ``an``, ``um``) among them."""
GERMAN_FUNCTION: frozenset[str] = frozenset(GERMAN["function"]) | frozenset(
    w for key in ("negators", "prepositions", "change", "started") for w in GERMAN[key])
"""German words that carry no content of a fact: articles, pronouns, auxiliaries,
prepositions, negators and change markers."""
GERMAN_HOMOGRAPHS = _GERMAN_FUNCTION & COMMON_NOUNS
"""German function words that are English nouns (``hat``, ``die``): function words in a
German text only (:func:`reads_german`); in an English one they are content (``Mia's
red hat``)."""
_GERMAN_MARKERS = _GERMAN_FUNCTION - STOPWORDS - GERMAN_HOMOGRAPHS - frozenset(VERB_LEMMA)
ENGLISH_STOPWORDS = STOPWORDS
"""The English function words alone (a German rule reads a sentence that has one as
English: ``The hat is on the shelf``)."""
STOPWORDS = STOPWORDS | (_GERMAN_FUNCTION - GERMAN_HOMOGRAPHS)


def reads_german(forms: Iterable[str]) -> bool:
    """Does a text of these lower-case word forms use a German function word that is no
    English word (``von``, ``der``, ``ist``)?"""
    return any(f in _GERMAN_MARKERS for f in forms)


GERMAN_CHANGE = frozenset(GERMAN["change"]) - COMMON_NOUNS - ENGLISH_STOPWORDS
"""German change markers that are no English word (``jetzt``, ``inzwischen``; not ``nun``,
a noun). A German sentence whose preposition is also English (``arbeitet jetzt in
Bremen``) is read by the English rules, where they are what ``now`` is: an adverb, no
part of the verb's object, and a change that replaces the verb's frame."""
CHANGE_MARKERS = (*CHANGE_MARKERS, *sorted(GERMAN_CHANGE))
CHANGE_ADVERBS: frozenset[str] = frozenset(
    m for m in CHANGE_MARKERS if " " not in m and lemma_of(m) is None)
"""The change markers that are adverbs (``now``, ``actually``, ``jetzt``), not verbs of
switching or moving: said in the first of two predicates of one subject (``X now lives
in Y and works at Z``), they hold for the second as well."""
ADVERBS = ADVERBS | GERMAN_CHANGE
INFO_NOUNS = INFO_NOUNS | frozenset(GERMAN["info"])
