"""What stays with a fact besides its attribute and value.

Negation, temporal phrases (``since 2022``, ``from 2012 to 2016``), cessation
(``sold the piano``) and its purpose (``left X to start Y``), reason adjuncts
(``after …``, ``due to …``), the proper names a clause mentions, and the cues that
a sentence refers back to an entity already mentioned (``Same client as …``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from memory_es.text import lexicon as lx
from memory_es.text.normalize import strip_symbols
from memory_es.text.words import (
    DETERMINERS,
    EDGE,
    NOT_NAMES,
    Tok,
    is_capitalised,
    is_foreign_word,
)

_MONTH_NAMES = ("january", "february", "march", "april", "may", "june", "july", "august",
                "september", "october", "november", "december")
_COUNT = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
          "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
          "a couple of": 2, "a few": 3, "several": 4}
"""How many units a spelled-out count says (``two weeks ago``; ``a few``: about three,
``several``, more than a few: about four)."""
_MONTH_ALT = "|".join(_MONTH_NAMES)
_COUNT_ALT = "|".join(k.replace(" ", r"\s+") for k in sorted(_COUNT, key=len, reverse=True))

TEMPORAL = re.compile(
    r"\b(?:since|until|till|from|between|throughout|during|before|after|starting|beginning|"
    r"as of|in|on|by|through)\s+(?:early\s+|late\s+|mid-?)?"
    r"(?:(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|spring|summer|autumn|"
    r"fall|winter)\s+)?(?:\d{4}-\d{2}-\d{2}|\d{4})"
    r"(?:\s*(?:to|-|–|and|until)\s*(?:\d{4}|present|now|today))?"
    r"|\b(?:last|next|this|earlier this|later this)\s+"
    r"(?:week|month|year|quarter|spring|summer|autumn|fall|winter|semester|term|season|"
    r"cycle|election|weekend|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b"
    rf"|\b(?:since|until|till|as of)\s+(?:early\s+|late\s+|mid-?)?(?:{_MONTH_ALT}|spring|"
    r"summer|autumn|winter)\b"
    rf"|\b(?:\d+|{_COUNT_ALT})\s+(?:days?|weeks?|months?|years?)\s+ago\b"
    rf"|\b(?:last|next|this)\s+(?:{_MONTH_ALT})\b|\bever since\b"
    r"|\b(?:19|20)\d{2}\s*-\s*(?:19|20)\d{2}\b|\bin\s+(?:19|20)\d{2}\b"
    r"|\b(?:yesterday|today|tomorrow|tonight|recently|currently|now|nowadays|formerly|"
    r"previously|years ago)\b", re.IGNORECASE)
"""Temporal phrases kept with the fact (``since 2022``, ``last month``, ``3 years ago``)."""

_MONTHS = (r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
           r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?")
_MONTH = re.compile(rf"(?:{_MONTHS})\.?", re.IGNORECASE)


def names_a_month(word: str) -> bool:
    """Is ``word`` a month written with its capital (``May``, ``March``)? ``May`` is then
    the month, not the modal verb, so it stays content (``scheduled for May``)."""
    return word[:1].isupper() and _MONTH.fullmatch(word) is not None


SEASON_OR_MONTH = re.compile(rf"(?:{_MONTHS}|spring|summer|autumn|fall|winter)", re.IGNORECASE)
"""A month or a season named alone (``in March``): a time, never what a clause is about."""

WEEKDAY = re.compile(r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b", re.IGNORECASE)
"""A day of the week (``Thursday``, ``on Fridays``)."""
CALENDAR = re.compile(
    rf"{WEEKDAY.pattern}|\b\d{{1,2}}[:.]\d{{2}}\b|\b(?:noon|midday|midnight)\b"
    r"|\b\d{1,2}\s*(?:am|pm)\b"
    rf"|\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:{_MONTHS})\b|\b(?:{_MONTHS})\s+\d{{1,2}}(?:st|nd|rd|th)?\b",
    re.IGNORECASE)
"""A day, a date or a clock time (``Tuesday``, ``3 March``, ``14:00``, ``noon``): when
something happens, never where."""

_WHEN = re.compile(rf"\b{SEASON_OR_MONTH.pattern}\b(?:\s+(?:19|20)\d{{2}}\b)?|\b(?:19|20)\d{{2}}\b",
                   re.IGNORECASE)


def time_said(text: str) -> str | None:
    """The first time ``text`` gives a thing, case folded: a day, a date or a clock time
    (:data:`CALENDAR`), a month and its year, a year or a season (``expires in March
    2027``: ``march 2027``). The modal ``may`` is no month."""
    found = [m for m in (CALENDAR.search(text), *_WHEN.finditer(text))
             if m is not None and m.group() != "may"]
    first = min(found, key=lambda m: m.start(), default=None)
    return None if first is None else first.group().casefold()


TIME_ADVERBIALS: tuple[str, ...] = tuple(lx.data_lines("time_adverbials.txt"))
"""Adverbials of present or recent time (``these days``, ``at the moment``)."""

_TRAILING_TIME = re.compile(
    rf"[\s,]+(?:{TEMPORAL.pattern}|\b(?:"
    + "|".join(re.escape(a) for a in sorted(TIME_ADVERBIALS, key=len, reverse=True))
    + r")\b)[\s.,;!?]*$", re.IGNORECASE)


_DATED = re.compile(rf"\b(?:on|at|by|from|until|till)\s+(?:(?:{CALENDAR.pattern})\s*)+",
                    re.IGNORECASE)


def without_times(text: str) -> str:
    """``text`` without the days, dates, clock times and temporal phrases its prepositions
    say it happened at (``died on Monday`` -> ``died``): what a clause is about, not when.
    A day that sets a thing apart stays (``dropped the Wednesday class``)."""
    return " ".join(_DATED.sub(" ", TEMPORAL.sub(" ", text)).split())


def without_time(value: str) -> str:
    """``value`` without the temporal qualifiers at its end (``Bergen now`` -> ``Bergen``,
    ``Oslo last month`` -> ``Oslo``, ``vegan these days`` -> ``vegan``): a time phrase
    says when the statement holds, not what it states; the clause keeps it (``temporal``)
    and the text keeps it. A phrase written with a capital (``The Now``, a name) and a
    value that is nothing but a time phrase are left alone."""
    while (m := _TRAILING_TIME.search(value)) is not None and m.start() > 0:
        if value[m.start():].lstrip(" ,")[:1].isupper():
            break
        value = value[:m.start()].rstrip(" ,")
    return value


_UNITS = {"day": 1, "week": 7, "month": 30, "year": 365}
_MONTH_NUMBERS = {name: n for n, name in enumerate(_MONTH_NAMES, start=1)}


FREQUENCY = re.compile(r"(?P<count>once|twice|thrice|(?:\d+|[^\W\d_]+)\s+times)\s+"
                       r"(?:a|an|per|every)\s+(?P<period>day|week|month|year)\b", re.IGNORECASE)
"""How often a thing is done (``once a day``, ``three times a week``): a count per period."""

SPAN = re.compile(r"(?:(?:from|between)\s+)?(?:19|20)\d{2}\s*(?:to|-|–|and|until)\s*(?:19|20)\d{2}",
                  re.IGNORECASE)
"""A closed span of years (``from 2015 to 2019``, ``between 2015 and 2019``, ``2015-2019``):
a state held over those years, not the value its slot holds now."""


def valid_from_of(temporal: Sequence[str], now: datetime) -> datetime | None:
    """When a clause's relative time phrase says the fact started: ``last week`` /
    ``last month`` / ``last year`` (about 7, 30, 365 days before ``now``), ``N days /
    weeks / months / years ago`` (``two weeks ago``, ``a few years ago`` too), ``last
    May`` (the first of the latest May before this month), ``yesterday``, ``since
    <year>``; None otherwise."""
    for phrase in temporal:
        low = phrase.lower().strip()
        m = re.fullmatch(r"last\s+(week|month|year)", low)
        if m:
            return now - timedelta(days=_UNITS[m.group(1)])
        m = re.fullmatch(r"(\w+(?:\s+(?:few|couple\s+of))?)\s+(day|week|month|year)s?\s+ago", low)
        if m and (count := _COUNT.get(" ".join(m.group(1).split())) or (
                int(m.group(1)) if m.group(1).isdigit() else None)):
            return now - timedelta(days=count * _UNITS[m.group(2)])
        m = re.fullmatch(r"last\s+(\w+)", low)
        if m and m.group(1) in _MONTH_NUMBERS:  # "last May": its most recent start
            month = _MONTH_NUMBERS[m.group(1)]
            return datetime(now.year - (month >= now.month), month, 1, tzinfo=UTC)
        if low == "yesterday":
            return now - timedelta(days=1)
        m = re.fullmatch(r"since\s+((?:19|20)\d{2})", low)
        if m and int(m.group(1)) <= now.year:
            return datetime(int(m.group(1)), 1, 1, tzinfo=UTC)
    return None


_FOCUSING = frozenset({"only", "just", "merely", "simply", "solely", "purely", "exclusively"})
"""Restrictive focusing subjuncts (Quirk et al. 1985, §8.116): a negator before one denies
the restriction, not the fact (``doesn't only play the cello``, ``not just tea``)."""


def negated(words: Sequence[str]) -> bool:
    """Does the clause (lower-case words) state that something does not hold?"""
    for i, w in enumerate(words):
        focus = i + 1 < len(words) and words[i + 1] in _FOCUSING
        if w in lx.NEGATORS and not (w == "no" and i + 1 < len(words)
                                     and words[i + 1] in ("longer",)):
            if (w == "no" and i + 1 < len(words) and words[i + 1] in ("matter",)) or focus:
                continue
            return True
        if w.endswith(lx.NEGATED_CONTRACTIONS) and not focus:
            return True
        if w == "no" and i + 1 < len(words) and words[i + 1] == "longer":
            return True
        if w in lx.NEGATING_VERBS:
            return True
    return False


_ADJUNCT_START = re.compile(
    rf"(?:^|[\s,])(?:{'|'.join(re.escape(m) for m in lx.ADJUNCT_MARKERS)})\s")


_OBJECT_WORD = rf"(?!(?:{'|'.join(sorted(lx.PREPOSITIONS - {'of'}))})\s)[a-z0-9'-]+\s+"
_SEPARATED = re.compile(r"\b(?:" + "|".join(
    rf"{re.escape(verb)}\s+(?:(?:{_OBJECT_WORD}){{1,8}}?{re.escape(particle)}\b"
    rf"|(?:[a-z0-9'-]+\s+){{1,8}}?{re.escape(particle)}\s+to\b)"
    for verb, particle in (p.split() for p in lx.CESSATION_PHRASES if p.count(" ") == 1)
    if lx.lemma_of(verb)) + r")")
"""A phrasal verb of ending with its object between verb and particle (``gave the club
up``, ``called the wedding off``, ``handed the running of the St Cuthbert Street bookshop
over to her assistant``): up to eight words of one noun phrase, none of them punctuation
or a preposition but ``of`` (``handed the forms to her boss over lunch`` ends nothing),
unless ``to`` and whom it went to follow the particle, which is then the verb's (``handed
my mornings at Larkspur over to another narrator``)."""


def cessation(words: Sequence[str], text_low: str) -> bool:
    """Does the clause report that a prior state ended (``quit``, ``gave up``)? Only its
    main part counts: ``adopted a greyhound after Max passed away`` ends nothing (an
    adjunct's ending is the adjunct's); a verb of ending in the present simple tells a
    habit (``sells cars``, ``leaves the pub at 11pm``), not that something ended; and a
    word of ending after the clause's own verb is no verb of it (``plays left back``)."""
    adjunct = _ADJUNCT_START.search(text_low)
    if adjunct is not None:
        text_low = text_low[:adjunct.start()]
    if any(p in text_low for p in lx.CESSATION_PHRASES) or _SEPARATED.search(text_low):
        return True
    if _ending_participle(words) is not None:  # "had her heat pump removed"
        return True
    if _over(words):  # "her appeal is over"
        return True
    for i, w in enumerate(words[:4]):
        if undoes_a_verb(w) and not any(lx.lemma_of(v) == "be" for v in words[:i]):
            return True  # "unsubscribed from", not "is unmarried" (a state, as an adjective)
        lemma = lx.lemma_of(w)
        if lemma in lx.GIVING_VERBS and _gave_away(w, words[i + 1:]):
            return True
        if lemma in lx.CESSATION_VERBS:
            if _present_simple(w) and words[max(i - 2, 0):i] != ["had", "to"]:
                continue  # "sells cars", "leaves the pub at 11pm": a habit ("had to stop": ended)
            # "left a note", "dropped a hint": an indefinite object is something given or
            # put down, not a state that ended ("left the band", "left Acme")
            return not (lemma in ("leave", "drop") and words[i + 1:i + 2] in (["a"], ["an"]))
        if lemma is not None and w not in lx.AUXILIARIES and lemma != "get":
            break  # "plays left back": the clause's verb is another ("got cancelled": a passive)
    return bool(re.search(r"\blet\b.*\b(?:expire|lapse|go)\b", text_low))


def _over(words: Sequence[str]) -> bool:
    """Does the clause end with a form of *be* and ``over``, perhaps with an adverb
    between or after (``her appeal is over``, ``the Monday evenings are now over``)?
    Predicative ``over`` with nothing after it is the adjective *finished* (OED, over
    adj.); with an object it is a preposition (``is over the garage``), and after ``not``
    the state goes on."""
    low = [w.lower().strip(EDGE) for w in words]
    while low and low[-1] in lx.ADVERBS:
        low.pop()
    if len(low) < 2 or low[-1] != "over":
        return False
    be = len(low) - 2
    while be > 0 and low[be] in lx.ADVERBS:
        be -= 1
    return lx.lemma_of(low[be]) == "be" and not negated(low)


def _gave_away(verb: str, rest: Sequence[str]) -> bool:
    """Does a verb of giving (``data/giving_verbs.txt``) in the past give a thing of the
    subject's to someone (``gave her Labrador to her sister``: a possessive determiner,
    its noun phrase, then ``to``)? Not ``gave her sister a lift to work`` (two objects:
    the first is who got the second), ``gave her a lift`` (``her`` is who), nor ``gives
    his time to the club`` (a habit), nor ``is giving her bike to …`` (not yet done)."""
    low = [w.lower().strip(EDGE) for w in rest]
    if (verb.lower() not in lx.VERBS_PAST or "to" not in low[2:]
            or low[0] not in lx.POSSESSIVE_DETERMINERS or low[1] in lx.STOPWORDS):
        return False
    return not DETERMINERS & set(low[1:low.index("to", 2)])


def undoes_a_verb(word: str) -> bool:
    """A past form with the reversative prefix *un-* on a verb (``unsubscribed``,
    ``uninstalled``, ``unfollowed``): the state the verb began has ended (Quirk et al.
    1985, App. I.21: reversative prefixes). The word must be no verb of its own."""
    w = word.lower()
    return (w.startswith("un") and w.endswith("ed") and lx.lemma_of(w) is None
            and lx.inflected_verb(w[2:]) is not None)


def _ending_participle(words: Sequence[str]) -> int | None:
    """Where a causative of ending has its participle (``had her heat pump removed``,
    ``got his licence cancelled``: a past of *have* or *get*, its object, then the
    participle of a verb of ending: the subject had the thing ended, as ``removed her
    heat pump`` says); None for any other clause."""
    if not words or words[0].lower() not in ("had", "got"):
        return None
    return next((i for i in range(2, min(len(words), 7))
                 if words[i].lower().endswith("ed")
                 and lx.lemma_of(words[i].lower()) in lx.CESSATION_VERBS), None)


def without_ending_participle(predicate: str) -> str:
    """A causative of ending without its participle, so that what follows the verb is
    the thing ended (``got her heat pump removed``: ``got her heat pump``)."""
    words = predicate.split()
    at = _ending_participle([w.strip(EDGE) for w in words])
    return predicate if at is None else " ".join(words[:at] + words[at + 1:])


def _present_simple(word: str) -> bool:
    """A verb form in the present simple (``sells``, ``sell``; not ``sold``, ``selling``,
    nor ``quit``, whose past is the same word): a habit or a state, not an event."""
    w = word.lower()
    return not (w.endswith(("ed", "ing")) or w in lx.IRREGULAR_PAST)


def has_purpose(text_low: str) -> bool:
    """``to <verb>``: a cessation that goes on to a new state."""
    m = re.search(r"\bto\s+([a-z]+)", text_low)
    return m is not None and lx.lemma_of(m.group(1)) == m.group(1)


def adjuncts(text: str) -> tuple[tuple[str, str], ...]:
    """Reason and circumstance adjuncts as ``(marker, text)``, in reading order."""
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


_CAMEL = re.compile(r"[a-z][A-Z][a-z][A-Za-z]*")
"""A brand written with a lower-case first letter (``iCloud``, ``eBay``, ``iPhone``); not
a unit (``kWh``) nor an abbreviation (``mRNA``)."""


def names_in(toks: Sequence[Tok], skip_first: bool) -> tuple[str, ...]:
    """Proper names: runs of capitalised (or non-Latin) words not at sentence start, and
    brands in camel case (:data:`_CAMEL`). A day of the week is a name of its own, never
    the end of another's."""
    names: list[str] = []
    run: list[str] = []
    for i, t in enumerate(toks):
        w = strip_symbols(t.word).strip(EDGE)
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
            ((is_capitalised(w) and w.lower() not in lx.STOPWORDS and w.lower() not in NOT_NAMES
             and not w.isupper()) or (w.isupper() and len(w) <= 5 and w.isalpha()))
            or is_foreign_word(w) or _CAMEL.fullmatch(w) is not None)
        if is_name and not any(c.isdigit() for c in w):
            if run and WEEKDAY.fullmatch(w):  # "Ingrid's Saturday": no "Ingrid Saturday"
                names.append(" ".join(run))
                run = []
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


def same_cue(low_text: str) -> str | None:
    """``The same customer …``, ``X is the same person as Y``: the role noun the
    sentence refers back with (``""`` for none), else None. Definite anaphora, the only
    back-reference cue the rules read."""
    m = re.match(r"^(?:the\s+)?same\s+([a-z][a-z\-]*)", low_text)
    if m:
        return m.group(1)
    if re.search(r"\b(?:is|are|was)\s+the\s+same\s+[a-z]+\s+as\b", low_text):
        return ""
    return None


_NAME_RUN = r"((?:[^\s,;:()]+)(?:\s+[^\s,;:()]+){0,3})"
_ALIAS_FORMS = re.compile(
    r"\b(?:also\s+written|also\s+spelled|spelled|written|also\s+known\s+as|known\s+as|"
    r"aka|a\.k\.a\.?|also\s+called|called|same\s+[a-z\-]+\s+as)\s+" + _NAME_RUN
    + r"|,\s+or\s+" + _NAME_RUN + r"\s*,"
    + r"|\(\s*" + _NAME_RUN + r"\s*(?:\)|,)", re.IGNORECASE)
"""The common ways a text gives another form of a name: ``also written X``, ``known as
X``, ``aka X``, ``the same customer as X``, an apposition ``, or X,`` and a parenthesis
``(X)`` or ``(X, …)``."""


def coreference_names(sentence: str) -> tuple[str, ...]:
    """The other forms of a name a sentence gives (see :data:`_ALIAS_FORMS`): the
    leading run of capitalised or other-script words after the alias marker."""
    names: list[str] = []
    for m in _ALIAS_FORMS.finditer(sentence):
        cand = next(g for g in m.groups() if g)
        found: list[str] = []
        for w in cand.split():
            core = strip_symbols(w).strip(EDGE)
            if core and (is_capitalised(core) or is_foreign_word(core)
                         or core.startswith("@")):
                found.append(core)
                continue
            break
        if found:
            names.append(" ".join(found))
    return tuple(dict.fromkeys(n for n in names if n and n.lower() not in NOT_NAMES))


_APPOSITION = re.compile(
    r"^(?P<lead>(?:[^\s,;:()]+\s+){0,4}?[^\s,;:()]+)"
    r"(?P<alias>\s*\((?P<paren>[^)]{1,80})\)|,\s*(?:also\s+written|also\s+spelled|"
    r"also\s+known\s+as|known\s+as|aka|a\.k\.a\.?|or)\s+(?P<appo>[^,;:()]{1,80}),)",
    re.IGNORECASE)


def subject_aliases(body: str) -> tuple[str, list[str]]:
    """Another form of the subject's name given right after it — in parentheses
    (``Иван Петров (Ivan Petrov) pays …``) or in apposition (``Ελένη, also written Eleni,
    …``, ``…, known as …,``, ``…, or …,``) — as (the body with that span blanked, so the
    predicate is read without it and offsets stay, the alias names)."""
    m = _APPOSITION.match(body)
    if m is None:
        return body, []
    lead_words = [strip_symbols(w).strip(EDGE) for w in m.group("lead").split()]
    if not lead_words or not all(is_capitalised(w) or is_foreign_word(w)
                                 or w.lower() in lx.ROLE_NOUNS or w.lower() in lx.HONORIFICS
                                 for w in lead_words if w):
        return body, []
    names = coreference_names(m.group("alias") if m.group("paren") is None
                              else f"({m.group('paren')})")
    if m.group("appo") is not None and not names:
        return body, []
    if not names:
        return body, []
    a, b = m.span("alias")
    return body[:a] + " " * (b - a) + body[b:], list(names)
