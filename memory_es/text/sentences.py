"""Sentences, subjects and coordinated clauses: where one fact ends and the next begins.

A text is split into sentences (abbreviations and identifiers do not end one); a
sentence into its subject and predicate; the predicate where two verb phrases are
coordinated (``rents a flat in Ghent and teaches yoga``), so that one clause can later
be superseded while the other survives. A conjunct is *not* split off when it leans
on the first one: an anaphor (``there``, ``it``, ``them``, ``one``), an elided verb
phrase (``does not intend to``), an elaboration of a negation in the same topic
(``does not own a bike and commutes on foot``), or the same confidently-read slot.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from memory_es.text import lexicon as lx
from memory_es.text.identifiers import Identifier
from memory_es.text.lexicon import words
from memory_es.text.paths import domains_in
from memory_es.text.predicates import PREPOSITIONS, analyse_predicate
from memory_es.text.qualifiers import TIME_ADVERBIALS, negated
from memory_es.text.subjects import Subject
from memory_es.text.words import Tok, agrees, is_capitalised, starts_verb_phrase, tokenize

_ABBREV = words("""
mr mrs ms dr prof st sr jr vs etc e.g i.e inc ltd co no approx dept fig jan feb mar apr
jun jul aug sep sept oct nov dec u.s a.m p.m
""")
"""Abbreviations whose full stop does not end a sentence."""

_ANAPHOR = re.compile(r"\b(?:there|it|them|other|others|else|the same|either)\b"
                      r"|\b(?:one|ones|so|such)\W*$"
                      r"|\b(?:this|that)\b(?=\s*(?:$|[.,;!?]|often|again|too|as well"
                      r"|[a-z]{3,}ly\s*(?:$|[.,;!?])))", re.IGNORECASE)
"""Words that lean on the previous conjunct (pronouns, ``other``, ``else``).

``this``/``that`` is a pronoun, not a determiner, when no noun follows it: the conjunct
ends there, or only an adverb follows (a closing ``-ly`` manner adverb, ``often``,
``again``, ``too``, ``as well``: "has said that clearly")."""
_ELLIPSIS_END = re.compile(r"\b(?:to|not|too|either|so|does|do|did|has|have|will|can|"
                           r"would|should)\W*$", re.IGNORECASE)


def split_sentences(text: str) -> list[tuple[int, str]]:
    """Split into sentences, keeping offsets; abbreviations and identifiers do not end one.
    Chinese ends a sentence or a clause of its own with no space after it (``。``, and
    ``！``, ``？``, ``；`` as NFKC writes them)."""
    out: list[tuple[int, str]] = []
    start = 0
    for m in re.finditer(r"[.!?]+(?=\s+[\"'“(]?[A-Z0-9\u0370-\uffff])|;(?=\s)"
                         r"|[\u3002!?;](?=[\u3400-\u9fff])", text):
        end = m.end()
        before = text[start:m.start()].split()
        last = before[-1].lower().rstrip(".") if before else ""
        if last in _ABBREV or (len(last) == 1 and last.isalpha()):
            continue
        if m.group() == "." and before and before[-1].isalpha() and before[-1].islower() and (
                text[m.end():].lstrip()[:1].isdigit()):
            continue  # "ext. 214", "vol. 3": a word in lower case before a number abbreviates
        chunk = text[start:end].strip()
        if chunk:
            out.append((start + text[start:end].find(chunk), chunk))
        start = end
    chunk = text[start:].strip()
    if chunk:
        out.append((start + text[start:].find(chunk), chunk))
    return out


def _adverbs_start(toks: Sequence[Tok], i: int) -> int:
    """Where the run of adverbs that ends at ``i`` starts (never at the first word)."""
    while i > 1 and toks[i - 1].low in lx.ADVERBS:
        i -= 1
    return i


_NO_VERB_AFTER = lx.PREPOSITIONS - {"to"}
"""Prepositions that a finite verb never follows (``to`` may: ``to move``)."""
_DETERMINERS = frozenset({"a", "an", "the", "this", "these", "those"}) | (
    lx.POSSESSIVE_DETERMINERS - {"her"})
"""Determiners that a finite verb never follows (``her`` may be an object: ``saw her
leave``): the word after one is its noun phrase's (``The orders service runs …``)."""


def _determiner(tok: Tok, first: bool) -> bool:
    """A determiner as written: lower case, or capitalised at the start of the sentence
    (``Book A is …`` names a book A)."""
    return tok.low in _DETERMINERS and (first or tok.word.islower())


def _noun_plural(word: str) -> bool:
    """Is ``word`` the plural of a noun that is no verb (``payments``, ``boxes``,
    ``policies``)? Then it is no unknown verb in ``-s`` (``The payments service …``)."""
    singulars = [word[:-1]]
    if word.endswith("es"):
        singulars.append(word[:-2])
    if word.endswith("ies"):
        singulars.append(word[:-3] + "y")
    return any(n in lx.COMMON_NOUNS and n not in lx.ENGLISH_VERBS for n in singulars)


def _after_a_named_verb(toks: list[Tok], at: int) -> bool:
    """Does a lower-case word stand between a proper name and position ``at``
    (``Katja Meier arbeitet nachts``)? Right after a name that word is the verb, so an
    unknown ``-s`` word after it is no verb (``nachts``, at night). After a possessive the
    word is the thing possessed (``Ruth Kay's podcast airs …``), so the ``-s`` word is."""
    return at >= 2 and toks[at - 1].word.islower() and is_capitalised(toks[at - 2].word) \
        and toks[at - 2].low not in lx.STOPWORDS \
        and not toks[at - 2].low.endswith(("'s", "\u2019s"))


_PLURAL_PRONOUNS = frozenset(("i", "we", "they", "you"))
"""Subject pronouns a verb agrees with in its plural form (``I prefer``, ``they prefer``)."""


def subject_split(toks: list[Tok], identifiers: Sequence[Identifier]
                  ) -> tuple[int, int | None, bool]:
    """(index of the first predicate token, index of a key-value colon token, plural)."""
    if opens_without_subject(toks):
        return 0, None, False
    if skip := leading_adverbial(toks) or fronted_phrase(toks):  # "These days I prefer …"
        at, colon, plural = subject_split(toks[skip:], identifiers)
        return at + skip, None if colon is None else colon + skip, plural
    spans = [(i.start, i.end) for i in identifiers]

    def inside_identifier(t: Tok) -> bool:
        return any(s <= t.start < e for s, e in spans)

    plural = False
    for i, t in enumerate(toks):
        if inside_identifier(t):
            continue
        w = t.low
        if i == 0 or (w in _PLURAL_PRONOUNS and all(u.low in lx.ADVERBS for u in toks[:i])):
            if w in _PLURAL_PRONOUNS:  # "Now I prefer …": the subject after the adverb
                plural = True
            continue
        if t.raw.endswith(":") and i <= 8:
            return i + 1, i, plural
        if w == "and" and i <= 3 and is_capitalised(toks[i - 1].word):
            plural = True
            continue
        if is_capitalised(toks[i - 1].word) and _particle_at(toks, i):
            continue  # "Ana Luisa dos Santos": a surname's particle, not a verb in -s
        prev_cap = is_capitalised(toks[i - 1].word)
        if toks[i - 1].low.endswith("'s"):
            continue  # right after a possessive: an adjective of the noun phrase
        if toks[i - 1].low in _NO_VERB_AFTER or _determiner(toks[i - 1], i == 1):
            continue  # a preposition's object (``the list of guests``), a determiner's noun
        if (w in lx.AUXILIARIES and is_capitalised(t.word) and prev_cap and i + 1 < len(toks)
                and is_capitalised(toks[i + 1].word)):
            continue  # "Patient Will Hart takes ...": a given name between capitalised words
        if agrees(t.word, plural) or (w in lx.ADVERBS and i + 1 < len(toks)
                                      and agrees(toks[i + 1].word, plural)):
            if w in lx.ADVERBS:  # the subject ends before a run of adverbs ("now mostly")
                return _adverbs_start(toks, i), None, plural
            if (is_capitalised(t.word) and prev_cap and lx.lemma_of(w)
                    and w not in lx.AUXILIARIES):
                # a capitalised word inside a name ("Will", "Mark") is not the verb; nor
                # is one that adverbs and a verb follow ("Omar Said now takes ...")
                nxt = next((u for u in toks[i + 1:] if u.low not in lx.ADVERBS), None)
                if nxt is not None and agrees(nxt.word, plural):
                    continue
            return i, None, plural
        if w in ("no",) and i + 1 < len(toks) and toks[i + 1].low == "longer":
            return i, None, plural
        if w in lx.NEGATING_VERBS:
            return i, None, plural
        if (not plural and ((start := _adverbs_start(toks, i)) <= 3
                            or toks[start - 1].raw.endswith(",")) and w.isalpha()
                and w.endswith("s") and not w.endswith("ss")
                and t.word.islower() and w not in lx.STOPWORDS and w not in lx.ADVERBS
                and not _noun_plural(w) and not _after_a_named_verb(toks, start)
                and (i + 1 >= len(toks) or not agrees(toks[i + 1].word, True))):
            # an unknown -s word after the subject (and its adverbs: "now supervises"),
            # or after an apposition closed by a comma ("X's sister, Imogen Lowe, also
            # narrates"), not followed by a verb: the verb
            return start, None, plural
    # no finite verb: a key-value line without a colon, or a fragment
    first = toks[0].low if toks else ""
    if (lx.lemma_of(first) and not is_capitalised(toks[0].word)) or (
            toks and lx.lemma_of(first) and len(toks) > 1 and not is_capitalised(toks[1].word)
            and toks[1].low not in lx.AUXILIARIES and lx.lemma_of(first) != first
            and first.endswith("ed")):
        return 0, None, plural
    return _after_opening_name(toks), None, plural


def _after_opening_name(toks: Sequence[Tok]) -> int:
    """Where the predicate starts in a sentence with no verb the rules know: after an
    opening name of two or more capitalised words, at the first lower-case word
    (``Jonas Weber arbeitet bei Siemens``, ``Mia Lund beat her record``). A name is
    followed by its verb in any language that writes verbs in lower case, so the
    sentence stays its named person's; with no such name it is one noun phrase. A
    surname's particle between capitalised words is the name's (``Friederike von
    Aschenbach besucht …``). After an opening subject pronoun, at the word after it
    (``I narrate audiobooks``, ``I proof-listen recordings``): a pronoun is followed by
    its verb."""
    verb = toks[1].word if len(toks) > 1 else ""
    if toks and toks[0].low in _PLURAL_PRONOUNS and verb.replace("-", "").isalpha() \
            and verb.islower() and verb not in lx.STOPWORDS:
        return 1
    k = 0
    while k < len(toks) and (is_capitalised(toks[k].word) or (k and _particle_at(toks, k))) \
            and not toks[k].raw.endswith((",", ":", "'s", "’s")):
        k += 1
    if k >= 2 and k < len(toks) and toks[k].word.isalpha() and toks[k].word.islower() \
            and toks[k].low not in lx.STOPWORDS:
        return k
    return len(toks)


def _particle_at(toks: Sequence[Tok], k: int) -> bool:
    """Do surname particles start at ``k`` and a capitalised word follow them (``van der
    Meer``)?"""
    j = k
    while j < len(toks) and toks[j].low in lx.NAME_PARTICLES:
        j += 1
    return k < j < len(toks) and is_capitalised(toks[j].word)


def opens_without_subject(toks: Sequence[Tok]) -> bool:
    """Does the sentence open on its verb (``Left Nordbank in March and joined …``,
    ``Moved out of Leeds``, ``Left Whitby, bought a house``)? Notes and revisions often
    drop the subject. A past-tense verb form opens the sentence, and it cannot be a
    name: a name, with the capitalised words after it, is followed by its verb
    (``Said lives …``, ``Drew Carey hosts …``), by a possessive (``Drew Barrymore's
    film``), by an apposition (``Said Hamdan, a baker, …``) or by another name
    (``Drew and Sam live …``). An opening verb's capitalised object is instead followed
    by a preposition or determiner, by a comma or a conjunction that opens a second verb
    phrase or another name no verb follows (``Met Lena and Omar``), or by nothing
    (``Joined Acme``)."""
    if len(toks) < 2 or not is_capitalised(toks[0].word):
        return False
    first = toks[0].low
    if first not in lx.VERBS_PAST or first in lx.AUXILIARIES or first in lx.MODALS:
        return False
    k = 1
    while k < len(toks) and is_capitalised(toks[k].word):
        if toks[k].low.endswith(("'s", "’s")):
            return False
        if toks[k].raw.endswith(","):
            return starts_verb_phrase(toks[k + 1:], False) is not None
        k += 1
    if k == len(toks):
        return True
    nxt = toks[k]
    if nxt.low in _COORDINATORS:
        if starts_verb_phrase(toks[k + 1:], False) is not None:
            return True
        # "Met Lena Okafor and Omar Haddad": a list of names no verb follows is the object
        j = k + 1
        while j < len(toks) and is_capitalised(toks[j].word):
            j += 1
        return j > k + 1 and (j == len(toks) or not agrees(toks[j].word, True))
    return not (agrees(nxt.word, False) or nxt.raw.endswith(",")
                or starts_verb_phrase(toks[k:], False) is not None)


_COORDINATORS = frozenset(("and", "or", "&", "nor"))


_ADVERBIALS = tuple(a.split() for a in TIME_ADVERBIALS)


def leading_adverbial(toks: Sequence[Tok]) -> int:
    """Length of an adverbial of present time before the subject (``These days I prefer
    …``, ``At the moment, Mia lives …``): it says when the statement holds, as after the
    verb, and is no part of the subject."""
    for words_ in _ADVERBIALS:
        n = len(words_)
        if len(toks) > n and [t.low.rstrip(",") for t in toks[:n]] == words_:
            return n
    return 0


def leading_temporal(toks: Sequence[Tok]) -> int:
    """Length of a leading temporal phrase (``Throughout 2021``, ``In May 2019,``, ``On
    Saturday nights``, ``Every Sunday``), with or without its comma."""
    if not toks or toks[0].low not in lx.TEMPORAL_PREPOSITIONS | _TIME_LEADS:
        return 0
    i = 1
    while i < len(toks) and i <= 4:
        w = toks[i].low
        if re.match(r"^\d{1,4}(?:s)?$", w) or _temporal(w) or w in ("of", "early", "late",
                                                                    "the"):
            i += 1
            if toks[i - 1].raw.endswith(","):
                break
            continue
        break
    has_time = any(re.match(r"^\d", t.low) or _temporal(t.low) for t in toks[1:i])
    return i if has_time else 0


def fronted_phrase(toks: Sequence[Tok]) -> int:
    """Length of a phrase that opens the sentence before its subject, with or without its
    comma: ``After my late shifts I take …``, ``When he retired he moved …``, ``At the AGM
    Alasdair McCorquodale stood down …``, ``Every other Thursday Ingvild Nygård plays …``.
    It opens with a preposition, a subordinator of time, cause or concession (``Because
    of his shoulder, Femi …``, ``Although she moved, Mei …``) or a word that leads a time
    phrase, and ends before one of two subjects:

    - a pronoun that can only be a subject (``I``, ``we``, ``he``, ``she``, ``they``):
      none can be the object of the phrase's own words; one right after the opening word
      is the phrase's own subject (``After she left I …``);
    - a name (capitalised words, with their particles) that a finite verb follows, where
      the phrase is complete before it: the word before the name is no determiner or
      preposition that still wants its noun (``At the Red Lion Tom plays …`` is left
      alone), and a capital that is a month, a day or an acronym is the phrase's own
      (``In January Eilidh …``, ``At the AGM Alasdair …``).

    A comma with no such subject after it ends the phrase without one (``After work, Tom
    swims``: the opening phrase's rule reads it), and then nothing is read here."""
    if len(toks) < 3 or toks[0].low not in _FRONTING:
        return 0
    for k in range(2, min(len(toks), 9)):
        if toks[k].word in _NOMINATIVE or _subject_name_at(toks, k):
            return k
        if toks[k - 1].raw.endswith((",", ";", ":")):
            return 0
    return 0


def _subject_name_at(toks: Sequence[Tok], k: int) -> bool:
    """Does a name that a finite verb follows start at ``k``, after a complete phrase?"""
    before = toks[k - 1]
    if not _name_start(toks[k]) or before.low in _WANTS_A_NOUN or _name_start(before):
        return False
    end = k + 1
    while end < len(toks) and (_name_start(toks[end]) or toks[end].low in lx.NAME_PARTICLES):
        if toks[end - 1].raw.endswith((",", ";", ":")):
            return False
        end += 1
    while end < len(toks) and toks[end].low in lx.ADVERBS:
        end += 1
    return end < len(toks) and toks[end].word.islower() and agrees(toks[end].word, False)


def _name_start(tok: Tok) -> bool:
    """Capitalised, not all capitals (an acronym), and no month or day (a time word)."""
    word = tok.word.rstrip(",;:")
    return (is_capitalised(word) and word != word.upper() and tok.low.rstrip(",;:")
            not in lx.TEMPORAL_WORDS and not _temporal(tok.low.rstrip(",;:")))


_NOMINATIVE = frozenset({"I", "we", "We", "he", "He", "she", "She", "they", "They"})
"""Pronouns that are only ever subjects (``I`` as written: a lone capital is a pronoun)."""

_WANTS_A_NOUN = lx.POSSESSIVE_DETERMINERS | PREPOSITIONS | lx.TEMPORAL_PREPOSITIONS | {
    "the", "a", "an", "this", "that", "these", "those", "every", "each", "by", "other"}


_TIME_LEADS = frozenset({"last", "this", "next", "on", "at", "every", "each"})
"""Words that open a time phrase before a day or a part of the day (``on Sundays``, ``at
night``, ``every morning``), besides the temporal prepositions."""
_FRONTING = (PREPOSITIONS | lx.TEMPORAL_PREPOSITIONS | _TIME_LEADS
             | {"when", "once", "while", "whenever", "by", "most"}
             | {"because", "despite", "due", "thanks", "although", "though"})


def _temporal(word: str) -> bool:
    """A time word, or the plural of one (``Sundays``, ``nights``, ``weekends``)."""
    return word in lx.TEMPORAL_WORDS or (word.endswith("s") and word[:-1] in lx.TEMPORAL_WORDS)


@dataclass
class Conjunct:
    """One coordinated verb phrase of a predicate."""

    start: int  # offset of the conjunct in the sentence (after the conjunction)
    text: str
    toks: list[Tok]
    verb: int
    subject: int = 0
    """How many leading tokens are the conjunct's own subject (0: it shares the
    sentence's): ``…, and her bike is a Brompton``."""
    resolved: str | None = None
    """The text with an object pronoun replaced by the thing it points back to
    (``moors it in Oxford`` -> ``moors the narrowboat in Oxford``), when it has one."""


_OWN_SUBJECT_LEAD = frozenset({"his", "her", "their", "its", "my", "our", "the", "he", "she",
                               "they", "it", "we"})
_PRONOUN_SUBJECTS = lx.SUBJECT_PRONOUNS | {"we"}
"""Pronouns that are a clause's whole subject: the third person's, and ``we`` (the user
with others: ``…, though we still go to the Wednesday practice``)."""


def own_subject(toks: Sequence[Tok], plural: bool, longest: int = 4) -> int:
    """Length of a subject noun phrase that opens ``toks`` and is followed by a finite
    verb (``her bike is``, ``the van was``, ``Ana lives``, ``Ben Roy left``), else 0: the
    coordinated clause then has its own subject. ``longest``: the most words it may have
    (more after a conjunction that opens a clause: ``…, so Pieter's Friday green woodwork
    course has been dropped``)."""
    if not toks:
        return 0
    first = toks[0]
    if first.low not in _OWN_SUBJECT_LEAD and not is_capitalised(first.word):
        return 0
    for n in range(1, min(longest, len(toks) - 1) + 1):
        if toks[n - 1].raw.endswith((",", ";")):
            return 0
        if n > 1 and toks[n - 1].low in lx.ADVERBS:
            continue  # a subject never ends in an adverb
        # adverbs before the verb are not the subject's ("Omar still lives in Leeds", "she
        # no longer goes")
        at = n
        while toks[at].low in lx.ADVERBS and at + 1 < len(toks):
            at += 1
        verb = toks[at]
        # "…, though Cathal still rings there", "…, though he still farms": after an
        # adverb, a verb of the broad list
        adverbed = at > n and verb.word.islower() and lx.inflected_verb(verb.low) is not None
        if n == 1 and first.low in _PRONOUN_SUBJECTS and (
                agrees(verb.word, plural or first.low == "we") or adverbed):
            return 1
        finite = verb.low in _FINITE or adverbed or (  # "…, and Ben Roy left DNB": a name's past
            is_capitalised(first.word) and verb.low in lx.VERBS_PAST and verb.word.islower())
        if n >= (1 if is_capitalised(first.word) else 2) and finite and (
                first.low in _OWN_SUBJECT_LEAD or not any(lx.lemma_of(t.low)
                                                          for t in toks[1:n])):
            return n
    return 0


_FINITE = lx.AUXILIARIES | {"lives", "works", "drives", "owns", "has"} | lx.VERBS_3SG
_JOINED_SUBJECT = 8
"""The most words of a subject after ``so`` or ``though`` (a noun phrase and a relative
clause of its own: ``the Friday course Pieter taught there``)."""
_CLAUSE_JOINERS = frozenset(("so", "yet", "though", "although"))
"""Conjunctions that are also adverbs (``so happy``, ``not yet``, ``did, though``) or open
a concession: after a comma and before a subject of its own they join a clause of its
own (``…, so she no longer goes``, ``…, though he still volunteers there``)."""


def split_conjuncts(sentence: str, pred_start: int, plural: bool,
                    protected: Sequence[tuple[int, int]], *,
                    subjectless: bool = False) -> list[Conjunct]:
    """Split the predicate where a new finite verb phrase is coordinated. Verb phrases
    listed with commas are split only before a final ``and`` or, in a sentence with no
    subject of its own, without one (``Left Whitby, bought a house``: notes drop the
    conjunction with the subject); a clause with its own subject is split after a comma
    too (``moved to Bristol, Omar still lives in Leeds``)."""
    pred = sentence[pred_start:]
    toks = tokenize(pred, pred_start)
    cuts: list[tuple[int, int]] = []  # (token index of conjunction, index of next token)
    long_subjects: set[int] = set()  # where a clause after "so" or "though" starts
    for i, t in enumerate(toks):
        w = t.low
        joiner = w in ("and", "but") or (w in ("while", "whereas") and i > 0)
        nxt = toks[i + 1:]
        if not joiner and w in _CLAUSE_JOINERS and i > 0 and toks[i - 1].raw.endswith(","):
            joiner = bool(own_subject(nxt, False, _JOINED_SUBJECT))  # ", so she no longer goes …"
            if joiner:
                long_subjects.add(i + 1)
        if not joiner:
            continue
        if any(s <= t.start < e for s, e in protected):
            continue
        vp = starts_verb_phrase(nxt, plural)
        if vp is not None and _names_after_and(nxt[vp]):
            vp = None  # "works at Slaughter and May": the firm's name, not "may"
        if vp is not None or i + 1 in long_subjects or own_subject(nxt, False) or (
                _parallel_verb(toks, nxt, plural)):
            cuts.append((i, i + 1))
    # a clause with its own subject after a comma or semicolon, no conjunction: "Priya moved
    # to Bristol, Omar still lives in Leeds" (notes splice clauses)
    for i, t in enumerate(toks[:-1]):
        if (t.raw.endswith((",", ";")) and toks[i + 1].low not in ("and", "but")
                and not any(s <= t.start < e for s, e in protected)
                and own_subject(toks[i + 1:], False)):
            cuts.append((i + 1, i + 1))
    cuts.sort()
    # comma lists of verb phrases ending in ", and <VP>": "is X, based in Y, speaks Z, and ..."
    if cuts or subjectless:
        for i, t in enumerate(toks[:-1]):
            if not t.raw.endswith(",") or toks[i + 1].low in ("and", "but"):
                continue
            nxt = toks[i + 1:]
            verb_phrase = starts_verb_phrase(nxt, plural) is not None or (
                nxt[0].low.endswith("ed") and lx.lemma_of(nxt[0].low) is not None)
            if verb_phrase and all(c[0] != i + 1 for c in cuts):
                cuts.append((i + 1, i + 1))
        cuts.sort()
    pieces: list[Conjunct] = []
    begin = 0
    for conj, resume in [*cuts, (len(toks), len(toks))]:
        seg = toks[begin:conj]
        if seg:
            start = seg[0].start
            end = seg[-1].end
            text = sentence[start:end].rstrip(" ,;")
            vi = starts_verb_phrase(seg, plural)
            if pieces and vi is not None and _names_after_and(seg[vi]):
                vi = None  # "… and Will Cole works at Bosch": a name opens the clause
            own = own_subject(seg, False, _JOINED_SUBJECT if begin in long_subjects else 4) \
                if pieces and vi is None else 0
            pieces.append(Conjunct(start, text, seg, own if own else (vi if vi is not None
                                                                      else 0), own))
        begin = resume
    return pieces


def _names_after_and(tok: Tok) -> bool:
    """Is a modal or auxiliary after ``and`` written with a capital, inside a sentence, so
    a name (the firm ``Slaughter and May``, a ``Will``) rather than a verb?"""
    w = tok.low
    return (w in lx.MODALS or w in lx.AUXILIARIES) and tok.word[:1].isupper()


_OBJECT_LEAD = frozenset({"a", "an", "the", "his", "her", "their", "its", "my", "our",
                          "your", "it", "them", "him", "two", "three", "several", "some"})


def _verb_form(word: str) -> tuple[str, tuple[str, ...]] | None:
    """(form, candidate lemmas) of a word written like a regular third-person (``-s``)
    or past (``-ed``) verb form."""
    if not word.isalpha() or not word.islower() or len(word) < 4:
        return None
    if word.endswith("ed"):
        return "past", (word[:-2], word[:-1], word[:-3] if word[-3:-2] == word[-4:-3] else "")
    if word.endswith("s") and not word.endswith("ss"):
        return "3sg", (word[:-1], word[:-2], word[:-3] + "y" if word.endswith("ies") else "")
    return None


def _parallel_verb(pred: Sequence[Tok], nxt: Sequence[Tok], plural: bool) -> bool:
    """Does ``nxt`` (what follows ``and``) open a verb phrase parallel to the predicate's
    own verb (``quilts and breeds rabbits``, ``drives a tractor and herds sheep``)?

    Coordinated verb phrases share their subject and so their form: the word after the
    conjunction is written in the same regular form as the predicate's first word
    (``-s`` after a singular subject, or ``-ed``), is a verb lemma of the broad list
    (:data:`~memory_es.text.lexicon.ENGLISH_VERBS`), and is followed by what starts an
    object (a determiner, a pronoun, a bare noun), not by a preposition or the end of
    the sentence: ``owns cats and dogs`` and ``dogs in Leeds`` stay one noun phrase."""
    if len(nxt) < 2 or not pred:
        return False
    head = pred[starts_verb_phrase(pred, plural) or 0].low
    first, cand = _verb_form(head), _verb_form(nxt[0].low)
    if first is None or cand is None or first[0] != cand[0] or (plural and cand[0] == "3sg"):
        return False
    if not any(lemma in lx.ENGLISH_VERBS for lemma in cand[1] if lemma):
        return False
    obj = nxt[1].low
    if obj in _OBJECT_LEAD:
        return True
    return (obj.isalpha() and obj not in lx.STOPWORDS and obj not in lx.TEMPORAL_PREPOSITIONS
            and not obj.endswith("ed"))


def merge_dependent(conjuncts: list[Conjunct], subject: Subject) -> list[Conjunct]:
    """Keep a conjunct with the previous one when it cannot stand alone."""
    merged: list[Conjunct] = []
    for conj in conjuncts:
        if merged and not conj.subject:
            prev = merged[-1]
            prev_words = [t.low for t in prev.toks]
            words = [t.low for t in conj.toks]
            anaphoric = bool(_ANAPHOR.search(conj.text)) or bool(_ELLIPSIS_END.search(conj.text))
            neg_elaboration = negated(prev_words) and bool(
                set(domains_in(prev_words)) & set(domains_in(words)))
            same_slot = False
            if not neg_elaboration:
                a = analyse_predicate(prev.toks, prev.verb, subject)
                b = analyse_predicate(conj.toks, conj.verb, subject)
                same_slot = a.confident and b.confident and a.attribute == b.attribute
            resolved = (_object_pronoun_resolved(prev, conj)
                        if anaphoric and not neg_elaboration and not same_slot else None)
            if resolved is not None:
                merged.append(Conjunct(conj.start, conj.text, conj.toks, conj.verb,
                                       resolved=resolved))
                continue
            if anaphoric or neg_elaboration or same_slot:
                merged[-1] = Conjunct(prev.start, prev.text + _between(prev, conj) + conj.text,
                                      prev.toks + conj.toks, prev.verb)
                continue
        merged.append(conj)
    return merged


_DEFINITE = frozenset({"a", "an", "the", "his", "her", "their", "its", "my", "our",
                       "your"})
_NP_STOPS = PREPOSITIONS | {"and", "but", "since", "until", "after", "because", "due"}


def _object_pronoun_resolved(prev: Conjunct, conj: Conjunct) -> str | None:
    """``owns a narrowboat and moors it in Oxford``: the second verb's object pronoun
    (``it``, ``them``, right after the verb, the conjunct's only back-reference) points
    to the first verb's direct object, a plain noun phrase (determiner, then words with
    no preposition, comma or pronoun). Then the conjunct is a fact of its own, written
    with that noun phrase made definite: ``moors the narrowboat in Oxford``. Anything
    less plain, or a verb that ends what the first one began (``sold it``), stays
    merged with the previous conjunct."""
    pronoun = conj.verb + 1
    if pronoun >= len(conj.toks) or conj.toks[pronoun].low not in ("it", "them"):
        return None
    if lx.lemma_of(conj.toks[conj.verb].low) in lx.CESSATION_VERBS:
        return None  # "bought a piano and sold it": one story, the end of what it began
    rest = [t.low for i, t in enumerate(conj.toks) if i != pronoun]
    if _ANAPHOR.search(" ".join(rest)) or _ELLIPSIS_END.search(conj.text):
        return None
    obj = prev.toks[prev.verb + 1:]
    if len(obj) < 2 or obj[0].low not in _DEFINITE or any(
            t.low in _NP_STOPS or t.low in _DEFINITE or t.raw.endswith((",", ";"))
            or not t.word for t in obj[1:-1]) or not obj[-1].word:
        return None
    if any(t.low in _NP_STOPS for t in obj[1:]):
        return None
    noun = " ".join(t.raw.strip(".,;!?") for t in obj[1:])
    head = conj.toks[pronoun]
    offset = head.start - conj.start
    return conj.text[:offset] + "the " + noun + conj.text[offset + len(head.raw):]


def _between(prev: Conjunct, conj: Conjunct) -> str:
    gap = conj.start - (prev.start + len(prev.text))
    if gap <= 1:
        return " "
    return " and " if gap <= 6 else ", and "


_INVERTED_SUBJECTS = frozenset({"i", "he", "she", "it", "we", "they", "there"})
"""Pronouns that follow an auxiliary in a question (``you`` asks the assistant: left as
it is)."""


def uninverted(body: str) -> str | None:
    """A yes/no question in statement order: ``Is Tom Baker still at Acme`` ->
    ``Tom Baker is still at Acme``, ``Does the boiler need a service`` -> ``the boiler
    does need a service``, ``Was Tom's car stolen`` -> ``Tom's car was stolen``. English
    puts the auxiliary before the subject in a question; read as written, the auxiliary
    became part of the subject's name (``person:is-tom-baker``). The subject is a subject
    pronoun, a name (capitalised words and their particles) or a noun phrase opened by a
    determiner; an owner's ``'s`` continues it into the owned thing's noun phrase, which
    ends before an adverb, a preposition or a verb form (a noun phrase that runs to the
    end leaves its last word as the predicate: ``Is the boiler old``). None when the
    question has no such shape."""
    toks = tokenize(body)
    if len(toks) < 3 or toks[0].low not in lx.AUXILIARIES or "'" in toks[0].low:
        return None
    bare_verb = toks[0].low in ("do", "does", "did")
    if toks[1].low in _INVERTED_SUBJECTS:
        end = 2
    else:
        if toks[1].low in _DETERMINERS or toks[1].low == "that":
            end = _noun_phrase_end(toks, 2, bare_verb)
        elif _name_start(toks[1]):
            end = 2
            while end < len(toks) and (_name_start(toks[end])
                                       or toks[end].low in lx.NAME_PARTICLES):
                end += 1
        else:
            return None
        if toks[end - 1].low.endswith(("'s", "’s")):
            end = _noun_phrase_end(toks, end, bare_verb)
    if end >= len(toks):
        return None
    cut, aux = toks[end - 1].end, toks[0].word.lower()
    return f"{body[toks[1].start:cut]} {aux} {body[cut:].lstrip()}"


def _noun_phrase_end(toks: Sequence[Tok], start: int, bare_verb: bool) -> int:
    """End of the noun phrase whose words start at ``start`` (see :func:`uninverted`)."""
    end = start
    while end < len(toks):
        w = toks[end].low
        if (w in lx.ADVERBS or w in PREPOSITIONS or w in lx.AUXILIARIES
                or (bare_verb and w in lx.VERBS_BARE)
                or (w.endswith(("ing", "ed")) and lx.lemma_of(w) is not None)
                or (w in lx.VERBS_PAST and lx.lemma_of(w) != w)):
            break
        end += 1
    return end - 1 if end == len(toks) and end - 1 > start else end
