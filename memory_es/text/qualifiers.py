"""What stays with a fact besides its attribute and value.

Negation, temporal phrases (``since 2022``, ``from 2012 to 2016``), cessation
(``sold the piano``) and its purpose (``left X to start Y``), reason adjuncts
(``after …``, ``due to …``), the proper names a clause mentions, and the cues that
a sentence refers back to an entity already mentioned (``Same client as …``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory_es.text import lexicon as lx
from memory_es.text.lexicon import words
from memory_es.text.normalize import strip_symbols
from memory_es.text.words import EDGE, NOT_NAMES, Tok, is_capitalised, is_foreign_word

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
    r"|\b\d+\s+(?:days?|weeks?|months?|years?)\s+ago\b|\bever since\b"
    r"|\b(?:19|20)\d{2}\s*-\s*(?:19|20)\d{2}\b|\bin\s+(?:19|20)\d{2}\b"
    r"|\b(?:yesterday|today|tomorrow|tonight|recently|currently|now|nowadays|formerly|"
    r"previously|years ago|in childhood|as a child)\b", re.IGNORECASE)
"""Temporal phrases kept with the fact (``since 2022``, ``last month``, ``3 years ago``)."""

_MESSAGE_NOUNS = words("""
feedback comment comments note notes message messages review reviews tip tips voicemail
rating reply replies mark trace
""")


def negated(words: Sequence[str]) -> bool:
    """Does the clause (lower-case words) state that something does not hold?"""
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


def cessation(words: Sequence[str], text_low: str) -> bool:
    """Does the clause report that a prior state ended (``quit``, ``gave up``)?"""
    if any(p in text_low for p in lx.CESSATION_PHRASES):
        return True
    for i, w in enumerate(words[:4]):
        lemma = lx.lemma_of(w)
        if lemma in lx.CESSATION_VERBS:
            following = [x for x in words[i + 1:i + 4] if x not in lx.STOPWORDS]
            # "left feedback", "left a note": giving something, not ending a state
            return not (lemma == "leave" and following and following[0] in _MESSAGE_NOUNS)
    return bool(re.search(r"\blet\b.*\b(?:expire|lapse|go)\b", text_low))


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


def names_in(toks: Sequence[Tok], skip_first: bool) -> tuple[str, ...]:
    """Proper names: runs of capitalised (or non-Latin) words not at sentence start."""
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
            or is_foreign_word(w))
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


def same_cue(low_text: str) -> str | None:
    """``Same customer (…)``, ``The same user …``, ``… alternate format: …``, ``aka``:
    the role noun the sentence refers back with (``""`` for none), else None."""
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


def coreference_names(sentence: str) -> tuple[str, ...]:
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
            core = strip_symbols(w).strip(EDGE + ",")
            if not core:
                continue
            if is_capitalised(core) or is_foreign_word(core) or core.startswith("@"):
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
    return tuple(dict.fromkeys(n for n in names if n and n.lower() not in NOT_NAMES))
