"""Text -> structured operations, by rule: deterministic, pure, no model call.

The default interpreter reads an agent's sentence the way a careful clerk would:

1. **Identifiers** are found and normalised first (:mod:`~memory_es.text.identifiers`),
   including obfuscated and mixed-script forms, so ``NORA@CORP.IO``,
   ``nora [at] corp [dot] io`` and ``nоra@corp.io`` (Cyrillic ``о``) are one address.
2. **Sentences and clauses** (:mod:`~memory_es.text.sentences`): a sentence is split
   where two verb phrases are coordinated, the elided subject restored in each clause.
3. **Subject -> entity** (:mod:`~memory_es.text.subjects`). ``Same client as Wang
   Fang …`` refers back: the interface resolves it to the entity mentioned last.
4. **Predicate -> attribute** (:mod:`~memory_es.text.predicates`): a table of rules
   tried in order. A negated clause keeps the positive attribute and is flagged
   ``negated``: the store writes it as a denial of that value (``home.city`` not
   ``Oslo``), never as an attribute of its own.
5. **Qualifiers** stay with the fact (:mod:`~memory_es.text.qualifiers`): negation,
   temporal phrases, change markers (``now``, ``switched to``), cessation (``sold the
   piano``) and reason adjuncts (``after …``, ``due to …``).

Every decision is recorded under ``rules`` in the clause's interpretation, which
the store keeps with the event: the store can say why it remembers a fact.

A model can propose the clauses instead (:class:`ModelInterpreter`), with the rules
as its fallback.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import lru_cache
from typing import Any

from memory_es.text import lexicon as lx
from memory_es.text.clauses import VERSION, Clause, Interpretation, Interpreter
from memory_es.text.contractions import Expansion
from memory_es.text.identifiers import Identifier, find_identifiers
from memory_es.text.normalize import ascii_fold, nfkc, script_of
from memory_es.text.paths import attribute_path, domains_in, entity_id, keywords
from memory_es.text.predicates import (
    CHANGE_RULES,
    PREPOSITIONS,
    Predicate,
    analyse_predicate,
    verb_reach,
)
from memory_es.text.qualifiers import (
    CALENDAR,
    SEASON_OR_MONTH,
    SPAN,
    TEMPORAL,
    adjuncts,
    cessation,
    coreference_names,
    has_purpose,
    names_in,
    negated,
    same_cue,
    subject_aliases,
)
from memory_es.text.requests import without_directive
from memory_es.text.segment import leading_name, words_of
from memory_es.text.sentences import (
    Conjunct,
    fronted_phrase,
    leading_adverbial,
    leading_temporal,
    merge_dependent,
    split_conjuncts,
    split_sentences,
    subject_split,
    uninverted,
)
from memory_es.text.subjects import Subject, analyse_subject
from memory_es.text.words import Tok, agrees, is_capitalised, tokenize

__all__ = [
    "VERSION",
    "Clause",
    "Interpretation",
    "Interpreter",
    "ModelInterpreter",
    "Proposal",
    "ProposeFn",
    "RuleInterpreter",
    "as_interpreter",
    "clause_from_mapping",
    "interpret",
]


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
    for _offset, said in split_sentences(source):
        expanded = Expansion.of(said)
        thing = _owned_thing(clauses[-1]) if clauses else None
        if thing is not None:
            clauses.extend(_interpret_sentence(_IT.sub(f"{thing} ", expanded.written, count=1)))
            continue
        # a clause's text is what the user said ("I'm a nurse"), read as written out
        clauses.extend(replace(c, text=expanded.as_said(c.text))
                       for c in _interpret_sentence(expanded.written))
    if not clauses and source:
        clauses.append(Clause(text=source, entity=None, attribute="note", value=source,
                              mention=source, rules=("fallback:unparsed",)))
    return Interpretation(source=source, clauses=tuple(clauses))


def _anchored_identifiers(body: str) -> list[Identifier]:
    """Identifiers are found on a cleaned copy; re-anchor them on ``body`` by surface."""
    anchored: list[Identifier] = []
    for ident in find_identifiers(body):
        pos = body.find(ident.surface)
        anchored.append(replace(ident, start=pos if pos >= 0 else 0,
                                end=(pos if pos >= 0 else 0) + len(ident.surface)))
    return anchored


def _alternation(words: Iterable[str]) -> str:
    """A regex alternation of ``words``, longest first; ``_`` in a data file's phrase is a
    space (``an_den_Nagel_gehängt``)."""
    return "|".join(sorted((re.escape(w).replace("_", r"\s+") for w in words), key=len,
                           reverse=True))


_DE, _ZH = lx.GERMAN, lx.CHINESE
_DE_STARTED = rf"(?:{_alternation(_DE['started'])})\s+\S+(?:\s+\S+)?\s+"
"""``seit Mai``, ``seit März 2025``, ``ab heute``: the time a state started from (a change,
as ``jetzt`` says), before the preposition of what it is."""
_DE_RESIDENCE = re.compile(
    rf"^(?P<subj>.+?)\s+(?:{_alternation(_DE['residence'])})\s+"
    rf"(?P<now>(?:{_alternation(_DE['change'])})\s+|{_DE_STARTED}(?=in\s))?in\s+(?P<place>.+)$",
    re.IGNORECASE)
_DE_CEASE = re.compile(
    rf"^(?P<subj>.+?)\s+(?:(?:hat|haben|habe|ist|sind|bin)\s+(?P<obj>.+?)\s+"
    rf"(?:{_alternation(_DE['cessation'])})(?:,\s.*)?"
    rf"|(?:{_alternation(_DE['cessation_finite'])})\s+(?P<ended>.+))$", re.IGNORECASE)
"""``X hat Y gekündigt``, ``X kündigte Y``: X ended Y. A comma closes the participle's
clause (``hat dort aufgehört, die Vorführungen macht sie aber weiter``)."""
_ZH_RESIDENCE = re.compile(
    rf"^(?P<subj>.+?)(?P<now>{_alternation(_ZH['change'])})?"
    rf"(?:{_alternation(_ZH['residence'])})(?P<place>.+)$")
_DE_MOVE = re.compile(
    rf"^(?P<subj>.+?)\s+(?:(?:ist|sind|bin)\s+(?:[^,]{{1,40}}?\s+)?nach\s+(?P<place>.+?)\s+"
    rf"(?P<now>{_alternation(_DE['move'])})"
    rf"|(?P<moved>{_alternation(_DE['move_finite'])})\s+(?:[^,]{{1,40}}?\s+)?nach\s+(?P<to>.+))$",
    re.IGNORECASE)
_ZH_FROM_ON = r"从[\u3400-\u9fff\d]{1,6}?(?:起|开始)"
"""A time from which on (``从这个月起``, from this month on; ``从三月开始``)."""
_ZH_DAY_TIME = rf"每?(?:{_alternation(_ZH['day_times'])})"
"""A day of the week or a part of the day, perhaps after 每 (``每周三晚上``: every Wednesday
evening)."""
_ZH_ADVERBS = re.compile(
    rf"(?:{_ZH_FROM_ON}|{_ZH_DAY_TIME}|{_alternation(_ZH['adverbs'] + _ZH['time'])})+$")
"""Adverbs and times between the subject and the verb (``王芳上个月搬到…``,
``陈国华从这个月起不再去…``): not part of the subject."""
_ZH_LEADING_TIME = re.compile(
    rf"^(?:{_ZH_FROM_ON}|{_ZH_DAY_TIME}|(?:{_alternation(_ZH['time'])}))+")
"""A time phrase before the subject (``从上个月起邓嘉欣不再…``, from last month on;
``去年王芳…``): when the subject starts, not part of it."""
_ZH_FINAL = re.compile(r"了$")
"""A sentence-final 了 (a change has happened): not part of the place or object."""
_ZH_MOVE = re.compile(rf"^(?P<subj>.+?)(?P<now>{_alternation(_ZH['move'])})(?P<place>.+)$")
_ZH_CEASE = re.compile(rf"^(?P<agent>.+?)把(?P<ended>.+?)(?:(?:{_alternation(_ZH['cessation'])})了?"
                       rf"|(?:{_alternation(_ZH['disposal'])})\S{{0,6}}?了)$"
                       rf"|^(?P<subj>.+?)(?:{_alternation(_ZH['cessation'])})(?P<obj>.+)$"
                       rf"|^(?P<left>.+?)从(?P<place>.+?)(?:{_alternation(_ZH['cessation_from'])})了?$")
"""``X取消了Y`` (X cancelled Y), ``X把Y卖掉了`` or ``X把Y卖了`` (X sold Y: 把 puts the object
before the verb), and ``X从Y辞职了`` (X resigned from Y: the place before the verb)."""
_ZH_QUIT = re.compile(_alternation(_ZH["quit"]))
"""``戒烟`` (quit smoking): a verb-object word of giving up a habit, read as ``戒掉`` and its
object (``X戒烟了`` says what ``X戒掉了烟`` says)."""
_DE_DIED = re.compile(rf"^(?P<agent>.+?\s+(?P<ended>\S+))\s+(?:ist|sind)\s+"
                      rf"(?:{_alternation(_DE['death'])})$", re.IGNORECASE)
"""``X's Y ist gestorben`` (a genitive subject: :func:`_genitive_thing`): X's fact of
having Y ends, as ``X's dog died`` says."""
_ZH_DIED = re.compile(rf"^(?P<agent>.+?)的(?P<ended>[^的]+?)(?:{_alternation(_ZH['death'])})了$")
"""``X的Y死了`` (X's Y died): X's fact of having Y ends, as ``X's dog died`` says."""
_DE_OWN = [v for v in _DE["possession"] if v not in _DE["first_person_only"]]
_DE_HAS = re.compile(rf"^(?P<subj>.+?)\s+(?P<verb>{_alternation(_DE_OWN)}|(?<=^ich\s)"
                     rf"(?:{_alternation(_DE['first_person_only'])}))\s+"
                     rf"(?:(?P<now>{_alternation(_DE['change'])})\s+)?(?P<obj>.+)$", re.IGNORECASE)
_DE_UNREALISED = re.compile(
    rf"^(?P<subj>.+?)\s+(?:{_alternation(_DE['unrealised'])})\b[\s,]*(?P<obj>.+)$", re.IGNORECASE)
_ZH_UNREALISED = re.compile(
    rf"^(?P<subj>.+?)(?:{_alternation(_ZH['unrealised'])})(?P<obj>.+)$")
_ZH_BESIDE = rf"(?:{_alternation(_ZH['time'])})起?|{_alternation(_ZH['adverbs'])}"
"""An adverb or a time word beside the verb, the time perhaps with 起 (from then on:
``林秀英今年春天起不在裁缝铺干了``)."""
_ZH_I = "我(?!们)"
"""The first person (not 我们, we): the user, as English ``I``."""
_ZH_OWNED = re.compile(rf"^(?P<subj>{_ZH_I}(?=的(?!{_alternation(_ZH['persons'])}))"
                       rf"|[\u3400-\u9fff]{{2,4}}?(?=的(?!(?:{_alternation(_ZH['persons'])})(?!的))))的"
                       r"(?P<thing>[\u3400-\u9fff]{1,8}?)"
                       rf"(?:{_ZH_BESIDE})*(?P<now>{_alternation(_ZH['change'])})?"
                       rf"(?:{_ZH_BESIDE})*(?:(?P<changed>{_alternation(_ZH['change_copula'])})"
                       rf"|{_alternation(_ZH['copula'])})(?P<obj>.+)$")
"""``X的Y是Z``: X's Y is Z (``王芳的电话是…``, ``我的猫叫咪咪``: mine; not ``我的妻子的…`` nor
``赵磊的妻子是医生``, a person of the user's or of X's with facts of her own; ``徐亮的妻子的
身份证号是…`` is read as his), or is called Z
(``李娜的猫叫咪咪``); with a change marker before the copula (``孙伟的车现在是…``) or a verb
of changing to (``赵雷的手机号换成了…``), the thing's value changed."""
_ZH_KIN = rf"(?:{_ZH_I}|[\u3400-\u9fff]{{2,4}}?)的(?:{_alternation(_ZH['persons'])})"
"""A person of someone's (``赵磊的女朋友``: Zhao Lei's girlfriend), a subject of her own."""
_ZH_KIN_SUBJECT = re.compile(rf"^(?P<owner>[\u3400-\u9fff]{{2,4}}?)的"
                             rf"(?:{_alternation(_ZH['persons'])})$")
_ZH_HAS = re.compile(rf"^(?P<subj>{_ZH_KIN}|{_ZH_I}|[\u3400-\u9fff]{{2,4}}?)(?:{_ZH_BESIDE})*"
                     rf"(?P<now>{_alternation(_ZH['change'])})?(?:{_ZH_BESIDE})*"
                     rf"(?P<neg>{_alternation(_ZH['negators'])})?"
                     rf"(?P<verb>{_alternation(_ZH['verbs'] + _ZH['transfer'])})(?P<obj>.+)$")
"""``X(现在)有Y``: an adverb, a time word or a change marker may stand before the verb
(``李明现在在腾讯工作``: the subject is 李明, not 李明现), and a negator right before it
denies it (``王磊已经不在腾讯工作了``: the fact of 在腾讯工作, denied)."""
_ZH_NEGATOR = rf"(?P<neg>{_alternation(_ZH['negators'])})?"
"""A negator before a verb the rules do not know denies what follows, as it does before
one they know (``王磊已经不跑步了``: the fact of 跑步, denied)."""
_ZH_TIMED = re.compile(rf"^(?P<subj>{_ZH_KIN}|{_ZH_I}|[\u3400-\u9fff]{{2,4}}?)"
                       rf"(?:(?:{_ZH_BESIDE})*(?P<now>{_alternation(_ZH['change'])})"
                       rf"(?:{_ZH_BESIDE})*|(?:{_ZH_BESIDE})+)"
                       rf"{_ZH_NEGATOR}(?P<verb>)"
                       rf"(?P<obj>[\u3400-\u9fff].*)$")
"""``X每天跑步``, ``X现在用苹果手机``: a time word, an adverb or a change marker after the
name ends the subject, whatever verb follows (one the rules do not know is still the
person's fact, not part of a name)."""
_ZH_MARKERS = tuple(_ZH["change"] + _ZH["adverbs"] + _ZH["time"])


def _zh_cut_word(body: str, at: int) -> bool:
    """Does a subject ending at ``at`` cut a change marker, an adverb or a time word in two
    (``唐雨现`` and ``在用苹果手机``: 现在 is one word, and 在 no verb there)?"""
    return any(body.startswith(w, k) for w in _ZH_MARKERS
               for k in range(max(0, at - len(w) + 1), at))


def _zh_has(body: str) -> re.Match[str] | None:
    """:data:`_ZH_HAS`, unless its subject ends inside a word (:func:`_zh_cut_word`)."""
    found = _ZH_HAS.match(body)
    return None if found is None or _zh_cut_word(body, found.end("subj")) else found


def _zh_named(body: str) -> re.Match[str] | None:
    """``孙丽弹钢琴``: a personal name that no verb of the rules follows still ends the
    subject (:func:`~memory_es.text.segment.leading_name`); the rest is the person's
    fact, read as ``X每天跑步`` is. A name before 的 owns the subject and is not it: a
    person of his is (``吴昊的妹妹吹长笛``), anything else is no subject read here."""
    name = leading_name(body)
    if name is None:
        return None
    kin = re.match(rf"{re.escape(name)}的(?:{_alternation(_ZH['persons'])})", body)
    subj = kin.group() if kin else name  # "吴昊的妹妹吹长笛": his sister's fact
    return re.match(rf"^(?P<subj>{re.escape(subj)}){_ZH_NEGATOR}(?P<verb>)"
                    rf"(?P<obj>(?!的)[\u3400-\u9fff].*)$", body)
_ZH_LOCALIZERS = frozenset(_ZH["localizers"])
_ZH_TRANSFER = re.compile(rf"^(?:{_alternation(_ZH['transfer'])})了?(?P<place>[\u3400-\u9fff].*)$")
"""``转到了育才小学``: transferred to another place of the same kind, named after it."""
_DE_VERB = rf"(?!(?:{_alternation(lx.NAME_PARTICLES)})\s)[a-zäöüß]+"
"""A lower-case word after a German subject that may be its finite verb: no particle of
a surname (``Friederike von Aschenbach arbeitet …``: ``von`` is the name's)."""
_DE_NO_LONGER = re.compile(
    rf"^(?P<subj>.+?)\s+(?P<verb>{_DE_VERB})\s+(?:(?P<before>.+?)\s+)?"
    rf"(?:nicht\s+mehr(?:\s+(?P<after>.+))?"
    rf"|(?:{_alternation(w for w in _DE['negators'] if w != 'nicht')})\s+(?P<obj>.+?)\s+mehr"
    rf"(?:\s+(?:{_alternation(_DE['separable_particles'])}|[a-zäöüß]+en))?(?:,\s.*)?)$")
"""``X spielt kein Tennis mehr``, ``X arbeitet nicht mehr bei Bosch``, ``X raucht nicht
mehr``, ``X baut keine Tomaten mehr an`` (a separable verb's particle comes last), ``X darf
kein Blut mehr spenden`` (a modal's infinitive comes last): X no longer does it (a
lower-case finite verb after the subject). A comma closes it (``X räumt keinen Schnee
mehr, um die Schlüssel kümmert er sich aber weiterhin``: a clause of its own follows)."""
_DE_PREPOSITION = (
    rf"(?:{_alternation(_DE['prepositions'])}|(?:{_alternation(_DE['shared_prepositions'])})"
    rf"(?=\s+(?:{_alternation(_DE['determiners'])})\s))")
"""A German preposition, or one English shares before a German article (``an der``)."""
_DE_GENERIC = re.compile(
    rf"^(?P<subj>.+?)\s+(?P<verb>{_DE_VERB})\s+(?:(?:{_alternation(_DE['adverbs'])})\s+)*"
    rf"(?P<now>(?:{_alternation(_DE['change'])})\s+"
    rf"|{_DE_STARTED}(?={_DE_PREPOSITION}\s))?(?P<prep>{_DE_PREPOSITION})\s+(?P<obj>.+)$")
"""``X arbeitet (jetzt) bei Y``: a verb (and adverbs: ``tanzt aber weiter im …``) and a
German preposition, or one English shares before a German article (``studiert an der Uni
Kiel``); with a change marker, or a time the state started (``arbeitet seit Mai bei SAP``),
the clause replaces the verb's frame (``arbeitet bei Bosch``)."""


def _reads_english(subject: list[str], found: re.Match[str]) -> bool:
    """A sentence the German patterns match that is English: its subject has an English
    article or possessive (``The hat …``, ``Mia's hat …``), or the German word it turns
    on is also English and an English function word follows (``Tom Hat is …``)."""
    if subject[0].lower() in lx.ENGLISH_STOPWORDS or any(
            w.endswith(("'s", "’s")) for w in subject):
        return True
    verb = (found.groupdict().get("verb") or "").lower()
    rest = (found.groupdict().get("obj") or "").split()
    return verb in lx.GERMAN_HOMOGRAPHS and bool(rest) and (
        rest[0].lower() in lx.ENGLISH_STOPWORDS)


def _other_language(body: str) -> Clause | None:
    """German and Chinese for the basic operations (:func:`_read_other_language`). A German
    subject that names a person's thing in the genitive (``Jonas Richters Katze schläft im
    Garten``) gives the owner's fact about the thing, as ``Jonas Richter's cat sleeps in
    the garden`` does, so a forget or purge of Jonas Richter reaches it; a German verb no
    pattern knows still does (:func:`_de_owned_act`)."""
    clause = _read_other_language(body)
    if clause is None:
        return None
    if "lang:zh" in clause.rules and (kin := _ZH_KIN_SUBJECT.match(clause.mention or "")):
        # "赵磊的女朋友…": her fact, which names him, as a German genitive's (below)
        return replace(clause, names=(*clause.names, kin.group("owner")))
    words = _apposed(clause.mention.split()) if "lang:de" in clause.rules and clause.mention else []
    thing = _genitive_thing(words)
    if thing is None and _genitive_person(words):  # "Lukas Brandts Schwester wohnt in Kiel"
        # her fact, which names him: a purge of Lukas Brandt lists it, as it lists a
        # colleague's fact that names him
        return replace(clause, names=(*clause.names, _genitive_owner(words)))
    if thing is None or "subject:possessive" in clause.rules:
        return clause
    return replace(clause, attribute=attribute_path("prop", thing.lower(),
                                                    *clause.attribute.split(".")),
                   rules=(*clause.rules, "subject:possessive"))


def _read_other_language(body: str) -> Clause | None:
    """German and Chinese for the basic operations (``X wohnt jetzt in Y``, ``X ist nach Y
    gezogen``, ``X hat Y gekündigt``; ``X现在住在Y``, ``X搬到了Y``, ``X取消了Y``): a clause,
    or None for anything else. A move is a change of residence."""
    chinese = any(script_of(c) == "CJK" for c in body)
    unreal = (_ZH_UNREALISED if chinese else _DE_UNREALISED).match(body)
    residence = None if unreal else ((_ZH_RESIDENCE if chinese else _DE_RESIDENCE).match(body)
                                     or (_ZH_MOVE if chinese else _DE_MOVE).match(body))
    cease = None if unreal or residence else (
        _ZH_CEASE.match(_ZH_QUIT.sub(lambda m: "戒掉" + m.group()[1:], body))
        or _ZH_DIED.match(body) if chinese
        else _DE_CEASE.match(body) or _DE_NO_LONGER.match(body) or _de_died(body))
    owned = None if unreal or residence or cease or not chinese else _ZH_OWNED.match(body)
    has = None if unreal or residence or cease or owned else (
        (_zh_has(body) or _ZH_TIMED.match(body) or _zh_named(body)) if chinese
        else _DE_HAS.match(body))
    generic = None if chinese or unreal or residence or cease or has else _DE_GENERIC.match(body)
    if not (chinese or unreal or residence or cease or has or generic):
        has = _de_owned_act(body)  # "Jonas Richters Hund bellt laut"
    found = unreal or residence or cease or owned or has or generic
    if found is None:
        return None
    groups = found.groupdict()
    subj = groups.get("subj") or groups.get("agent") or groups["left"]
    words = subj.split()
    if chinese:
        subj = _ZH_ADVERBS.sub("", subj)  # 王芳上个月搬到…: the subject is 王芳
        subj = _ZH_LEADING_TIME.sub("", subj) or subj  # 上个月王芳搬到…: 王芳 too
        subject = (Subject("user:self", subj, "user", rules=("subject:user",)) if subj == "我"
                   else Subject(entity_id("person", subj), subj, "person", names=(subj,)))
    else:
        words = _apposed(words)
        if not words or not is_capitalised(words[-1]) or not all(
                is_capitalised(w) or (i > 0 and w in lx.NAME_PARTICLES)
                for i, w in enumerate(words)) or _reads_english(words, found):
            return None
        copula = has is not None and has.group("verb").lower() in _DE["copula"]
        thing = _genitive_thing(words) if copula else None
        if has is not None and thing is not None:  # "Jonas Richters Auto ist ein Golf"
            owner = _genitive_owner(words)
            subject = analyse_subject(owner, tokenize(owner), [])
            return Clause(text=body, entity=subject.entity, attribute=attribute_path(
                "prop", thing.lower()), value=has.group("obj").strip(), mention=subj,
                names=subject.names, subject_names=subject.names,
                op="supersede" if has.group("now") else "assert", confident=True,
                rules=("lang:de", "subject:possessive", "predicate:possessive-noun",
                       *(["change-of-state:replaces-slot"] if has.group("now") else [])))
        owner = _genitive_owner(words) if _genitive_thing(words) else subj
        # the owner's entity, the whole subject as said (its thing: _other_language); "Ich"
        # is the user, as English "I"
        subject = (Subject("user:self", subj, "user", rules=("subject:user",))
                   if subj.lower() == "ich" else
                   replace(analyse_subject(owner, tokenize(owner), []), surface=subj))
    lang = "zh" if chinese else "de"
    if unreal:  # "X可能明年搬到Y", "X überlegt, nach Y zu ziehen": a maybe, no move
        obj = unreal.group("obj").strip()
        return Clause(text=body, entity=subject.entity, attribute=attribute_path(
            "unrealised", *keywords(obj.split(), 3)) if not chinese else
            attribute_path("zh", "u" + str(sum(map(ord, obj)))), value=obj,
            mention=subject.surface, names=subject.names, subject_names=subject.names,
            unrealised=True, rules=(f"lang:{lang}", "modality:unrealised"))
    if residence:
        groups = residence.groupdict()
        now = groups.get("now") is not None or groups.get("moved") is not None
        place = _ZH_FINAL.sub("", (groups.get("place") or groups.get("to") or "").strip())
        return Clause(text=body, entity=subject.entity, attribute="home.city",
                      value=place, mention=subject.surface,
                      op="supersede" if now else "assert", confident=True,
                      names=subject.names, subject_names=subject.names, domains=("home",),
                      rules=(f"lang:{lang}", "predicate:residence",
                             *(["change-of-state:replaces-slot"] if now else [])))
    if cease is not None and "after" in groups:  # no longer: its object, or else its verb
        after = groups["after"]  # "ruft seine Mutter nicht mehr an": the particle is the verb's
        after = None if after and after.lower() in _DE["separable_particles"] else after
        obj = " ".join(w for w in " ".join(filter(None, (
            groups["before"], groups["obj"], after))).split()
            if w.lower() not in _DE["change"]) or groups["verb"]
    else:
        obj = _ZH_FINAL.sub("", (groups.get("obj") or groups.get("ended")
                                 or groups.get("place") or groups.get("verb") or "").strip())
    changes = groups.get("now") is not None or groups.get("changed") is not None
    if generic is not None and generic.group("verb").lower() in _DE["work"] and (
            generic.group("prep").lower() == "bei"):
        # "arbeitet bei Bosch": the employer's slot, as "works at Bosch" (either language
        # then changes it)
        employer = obj.split(maxsplit=1)
        if len(employer) == 2 and employer[0].lower() in _DE["determiners"]:
            obj = employer[1]  # "bei der Allianz": Allianz
        return Clause(text=body, entity=subject.entity, attribute="work.employer", value=obj,
                      mention=subject.surface, names=subject.names,
                      subject_names=subject.names, op="supersede" if changes else "assert",
                      confident=True, domains=("work",),
                      rules=("lang:de", "predicate:works-at",
                             *(["change-of-state:replaces-slot"] if changes else [])))
    if generic is not None:
        verb = generic.group("verb")
        return Clause(text=body, entity=subject.entity, attribute=attribute_path(
            verb, *keywords(obj.split(), 3)), value=f"{verb} {generic.group('prep')} {obj}",
            mention=subject.surface, names=subject.names, subject_names=subject.names,
            frame=f"{verb}.{generic.group('prep')}.de",
            rules=("lang:de", "predicate:generic",
                   *(["change-of-state:replaces-frame"] if changes else [])))
    if owned is not None:  # 王芳的电话是…: her phone's value, as "X's phone is …"
        return Clause(text=body, entity=subject.entity, attribute=attribute_path(
            "prop", "u" + str(sum(map(ord, owned.group("thing"))))), value=obj,
            mention=subject.surface, names=subject.names, subject_names=subject.names,
            op="supersede" if changes else "assert", confident=changes,
            rules=(f"lang:{lang}", "predicate:possessive-noun",
                   *(["change-of-state:replaces-slot"] if changes else [])))
    words = (obj if chinese else obj.lower()).split()
    lexicon = _ZH if chinese else _DE
    wedding = has is not None and bool(words) and words[-1] in lexicon["marital_events"] and (
        chinese or has.group("verb").lower() in _DE["possession"])
    if has is not None and words and (wedding or (
            has.group("verb").lower() in lexicon["copula"] and words[-1] in lexicon["marital"])):
        # "ist mit Jan Seidel verheiratet", "ist jetzt geschieden", "李娜是单身": one slot, as
        # English's; "hat geheiratet", "李娜结婚了": an event that changes it ("got married")
        changed = changes or wedding
        return Clause(text=body, entity=subject.entity, attribute="relationship.status",
                      value=obj, mention=subject.surface, names=subject.names,
                      subject_names=subject.names, negated=bool(groups.get("neg")),
                      op="supersede" if changed else "assert", confident=True,
                      rules=(f"lang:{lang}", "predicate:married",
                             *(["change-of-state:replaces-slot"] if changed else [])))
    if has is not None and _names_occupation(has.group("verb"), obj, chinese):
        return Clause(text=body, entity=subject.entity, attribute="work.role", value=obj,
                      mention=subject.surface, names=subject.names,
                      subject_names=subject.names, negated=bool(groups.get("neg")),
                      op="supersede" if changes else "assert", confident=True,
                      domains=("work",),
                      rules=(f"lang:{lang}", "predicate:occupation",
                             *(["change-of-state:replaces-slot"] if changes else [])))
    if has is not None and _drives(has.group("verb"), obj, chinese):
        return Clause(text=body, entity=subject.entity, attribute="transport.vehicle",
                      value=obj, mention=subject.surface, names=subject.names,
                      subject_names=subject.names, negated=bool(groups.get("neg")),
                      op="supersede" if changes else "assert", confident=True,
                      rules=(f"lang:{lang}", "predicate:vehicle",
                             *(["change-of-state:replaces-slot"] if changes else [])))
    if has is not None and chinese and groups.get("neg") and _ZH_FINAL.search(body):
        # 李明不打篮球了: a denied act with the sentence-final 了 of a new situation is one
        # that has ended ("no longer plays basketball"; Li & Thompson 1981, 了 of a
        # currently relevant state), as 不再 says it: the act ends, whatever held it
        # (李明喜欢打篮球 as well as 李明打篮球)
        return _ended(body, subject, has.group("verb") + obj, lang)
    if has is not None:
        verb = has.group("verb").lower()
        if chinese and (moved := _ZH_TRANSFER.match(verb + obj)) is not None:
            # 女儿转到了育才小学: where she now is, as 现在在育才小学上学 says
            verb, obj, changes = "在", moved.group("place"), True
        # 在华为工作 and 在腾讯工作: one frame, the verb and the object's last word; after the
        # coverb 在 the place comes first and the predicate's verb next (在医院当护士 and
        # 在学校当老师: one frame, 在..当; Li & Thompson 1981, coverb phrases)
        if chinese:
            cut = [w for w in words_of(obj) if w.strip()]
            head = cut[1] if verb == "在" and len(cut) > 1 else cut[-1] if cut else ""
            head = _ZH["work"][0] if head in _ZH["work"] else head  # 在X上班 is 在X工作
            # a verb no rule lists is the run's first word (用华为手机: 用..手机); a place
            # near another (在电视台附近的培训班) is no frame of the other's
            near = verb == "在" and any(a in _ZH_LOCALIZERS and b == "的"
                                        for a, b in itertools.pairwise(cut))
            frame = f"zh:{verb or cut[0]}..{head}" if len(cut) > 1 and not near else None
        else:
            frame = _german_frame(verb, obj)
        return Clause(text=body, entity=subject.entity, attribute=attribute_path(
            verb, *keywords(obj.split(), 3)) if not chinese else
            attribute_path("zh", "u" + str(sum(map(ord, verb + obj)))),
            value=obj, mention=subject.surface, names=subject.names,
            subject_names=subject.names, negated=bool(groups.get("neg")), frame=frame,
            rules=(f"lang:{lang}", "predicate:generic",
                   *(["change-of-state:replaces-frame"] if changes and frame else [])))
    return _ended(body, subject, obj, lang)


def _ended(body: str, subject: Subject, obj: str, lang: str) -> Clause:
    """The clause of a German or Chinese cessation: ``obj``, what ended, ends the prior
    state that holds it. A comma closes it: what follows is a clause of its own (``ist
    nicht mehr Vorsitzender des Schachvereins, spielt dort aber weiterhin``; ``不再学粤剧了，
    不过她还在…划船``, a full-width comma read as ``,``)."""
    obj = obj.split(",", 1)[0].strip()
    return Clause(text=body, entity=subject.entity, attribute=attribute_path(
        "ended", *keywords(obj.split(), 2)) if lang != "zh" else "ended", value=obj,
                  mention=subject.surface, op="cease", ends_prior=True, names=subject.names,
                  subject_names=subject.names,
                  rules=(f"lang:{lang}", "cessation:ends-a-prior-state"))


_DE_CAPITAL = r"[A-ZÄÖÜ][\w-]*"
_DE_PARTICLES = rf"(?:\s+(?:{_alternation(lx.NAME_PARTICLES)}))*"
_DE_OWNED_ACT = re.compile(
    rf"^(?P<subj>{_DE_CAPITAL}{_DE_PARTICLES}(?:\s+{_DE_CAPITAL}{_DE_PARTICLES})+"
    rf"\s+{_DE_CAPITAL})\s+(?P<verb>[a-zäöüß]+(?:t|en))\b(?P<obj>.*)$")
"""A subject of capitalised words, with the particles of a surname between them
(``Jan-Hendrik van der Veldes Handy``), and a German finite verb after it (``bellt``,
``schlafen``): the third person's ``-t`` or the plural's ``-en``."""


def _de_owned_act(body: str) -> re.Match[str] | None:
    """``Jonas Richters Hund bellt laut``: what a named person's thing does, whatever the
    verb, read as ``X hat Y`` is (the owner's fact about the thing: :func:`_other_language`).
    Only where the subject names a person's thing in the genitive and the verb is no
    English word form, so ``Ana Reyes Lopez works …`` stays a name of three words."""
    found = _DE_OWNED_ACT.match(body)
    if found is None or lx.lemma_of(found.group("verb")) is not None or (
            _genitive_thing(_apposed(found.group("subj").split())) is None):
        return None
    return found


def _de_died(body: str) -> re.Match[str] | None:
    """``Paul Beckers Katze ist gestorben``: a thing of a named owner died (not ``Paul
    Becker ist gestorben``, the person himself, which ends no fact of his here)."""
    found = _DE_DIED.match(body)
    return found if found and _genitive_thing(_apposed(found.group("agent").split())) else None


def _apposed(words: list[str]) -> list[str]:
    """A German genitive subject without the name its thing is given after it (``Anna
    Kochs Katze Mimi``: ``Anna Kochs Katze``, whose cat is Mimi); any other as it is."""
    if len(words) >= 4 and _genitive_thing(words) is None and (
            _genitive_thing(words[:-1]) is not None):
        return words[:-1]
    return words


def _genitive_owner(words: list[str]) -> str:
    """The owner's name of a subject :func:`_genitive_thing` reads (``Jonas Richter``)."""
    return " ".join([*words[:-2], lx.german_genitive(words[-2]) or words[-2]])


def _genitive_person(words: list[str]) -> bool:
    """Does a German subject name a person of someone's in the genitive (``Lukas Brandts
    Schwester``: a name of two words or more, then a word of de.txt [persons])?"""
    return len(words) >= 3 and lx.german_genitive(words[-2]) is not None and (
        words[-1].lower() in _DE["persons"])


def _genitive_thing(words: list[str]) -> str | None:
    """The thing of a German subject that names it after its owner in the genitive
    (``Jonas Richters Auto``: Auto, :func:`~memory_es.text.lexicon.german_genitive`), when
    a name of two words or more owns it and it is no person of theirs (``Jonas Richters
    Schwester`` has facts of her own); None for any other subject."""
    if len(words) < 3:
        return None  # "Thomas Müller" is a name, not Thoma's Müller
    owner, thing = words[-2], words[-1]
    if lx.german_genitive(owner) is not None and thing.lower() not in _DE["persons"]:
        return thing
    return None


def _german_frame(verb: str, obj: str) -> str | None:
    """``hat zwei Kinder`` and ``hat jetzt drei Kinder``: one frame, the verb and the head
    noun of its object (the object's last word before a preposition: ``hat ein Abo bei
    Spotify`` is an Abo), as English ``has two children`` is ``have+children``. Only an
    object of a determiner or numeral and its noun has one (``spielt Tennis``: a topic,
    one of several), and no copula's (``ist ein Fan von …``: what one is, not has)."""
    if verb in _DE["copula"]:
        return None
    phrase: list[str] = []
    for word in obj.split():
        if word.lower() in _DE_PREPOSITIONS:
            break
        phrase.append(word)
    return f"de:{verb}..{_german_noun_key(phrase[-1])}" if len(phrase) > 1 else None


_DE_UMLAUTS = str.maketrans("äöü", "aou")
_DE_PLURAL_ENDINGS = ("nen", "er", "en", "e", "n", "s")


def _german_noun_key(noun: str) -> str:
    """One key for a German noun's singular and plural (``Tochter`` and ``Töchter``,
    ``Sohn`` and ``Söhne``, ``Kind`` and ``Kinder``, ``Katze`` and ``Katzen``): the plural
    adds ``-e``, ``-er``, ``-(e)n``, ``-s`` or nothing, often with an umlaut (Duden's
    plural classes), so the umlaut is undone and one such ending taken off both; ``-n``
    alone follows only ``-e``, ``-el``, ``-er`` and ``-ar`` (``Sohn`` keeps its n)."""
    key = noun.lower().translate(_DE_UMLAUTS)
    for ending in _DE_PLURAL_ENDINGS:
        stem = key[:-len(ending)]
        if key.endswith(ending) and len(stem) >= 3 and (ending != "n" or stem[-1] in "elr"):
            return stem
    return key


_DE_PREPOSITIONS = lx.GERMAN_PREPOSITIONS


def _names_occupation(verb: str, obj: str, chinese: bool) -> bool:
    """Does a German or Chinese copula clause say its subject's occupation (``ist jetzt
    Lehrerin``, ``ist Koch im Hotel Adlon``, ``是外科医生``), the one slot ``is a teacher``
    fills? German says it with a bare noun first (an article is allowed), Chinese with a
    noun that ends the clause (no 的: 是我的老师 says whose teacher, not a job); either
    noun is a word of [occupations] or a compound ending in one (its head, which comes
    last in both languages)."""
    copula = _ZH["copula"] if chinese else _DE["copula"]
    if verb.lower() not in copula:
        return False
    if chinese:
        return "的" not in obj and any(obj.endswith(o) for o in _ZH["occupations"])
    words = obj.split()
    if len(words) > 1 and words[0].lower() in _DE["articles"]:
        words = words[1:]
    if not words or not words[0][:1].isupper():
        return False
    head = words[0].lower().rstrip(",")
    return head in _DE_OCCUPATIONS or any(
        head.endswith(o) and len(head) - len(o) >= COMPOUND_PART for o in _DE_OCCUPATIONS
        if len(o) >= COMPOUND_PART)


_DE_OCCUPATIONS = frozenset(_DE["occupations"])
COMPOUND_PART = 3
"""The fewest letters a German compound's parts have for one ending a word to be read as
its head (``Schulleiter`` is a Leiter; ``Ei`` ends too many words to be one)."""


def _drives(verb: str, obj: str, chinese: bool) -> bool:
    """Does a German or Chinese clause state the vehicle its subject drives (``fährt
    einen Tesla``, ``开一辆特斯拉``), the one slot ``drives a Tesla`` fills?"""
    if chinese:
        return verb in _ZH["vehicle"] and len(obj) > 2 and obj[1] in _ZH["vehicle_classifier"]
    words = obj.lower().split()
    return verb.lower() in _DE["vehicle"] and len(words) > 1 and words[0] in _DE["articles"]


_CONTRAST = re.compile(r",\s+(?:and\s+)?not\s+(?P<denied>[^,;:]+)$", re.IGNORECASE)
"""A trailing ``, not Y``: a correction that names the value it replaces."""
_NOT_IDIOMS = lx.ADVERBS | {"far", "yet", "least", "even", "quite", "much", "exactly",
                            "necessarily", "entirely", "fully", "to"}
"""``not far from``, ``not yet``, ``not least``, ``not to mention``: no correction."""
_HEADING = re.compile(r"^(?P<head>[^:]{1,60}?):\s+(?P<rest>\S.*)$")


def _after_heading(body: str) -> tuple[str | None, str] | None:
    """``(heading to read too, or None; the text after it)`` when the text after a colon
    is a clause of its own. A heading (``Note:``, ``Update:``, ``Correction:``, ``I was
    wrong earlier:``) is dropped before a capitalised subject that names someone (not
    ``a tortoise called Dash``, the value of ``Office mascot:``). Before a pronoun the
    heading is kept as a sentence of its own when it is a clause itself, since it names
    the pronoun's antecedent (``Spoke with Priya today: her rent is now …``). None for a
    ``label: value`` line (``Lena's shift: nights until June``: no verb after the colon;
    ``Lena's shift: she works nights``: no clause before it; ``Badge: BX-7741 belongs to
    …``: a code for its subject that the label explains)."""
    m = _HEADING.match(body)
    if m is None or same_cue(ascii_fold(m.group("head"))) is not None:
        return None  # "The same customer in pinyin: Zhang Wei …" says who it is about
    head, rest = m.group("head"), m.group("rest")
    toks = tokenize(rest)
    pred, colon, _plural = subject_split(toks, _anchored_identifiers(rest))
    if colon is not None or not 0 < pred < len(toks) or any(
            ch.isdigit() for t in toks[:pred] for ch in t.word):
        return None
    if toks[0].low in lx.SUBJECT_PRONOUNS | lx.POSSESSIVE_PRONOUNS:
        head_toks = tokenize(head)
        return (head, rest) if subject_split(head_toks, [])[0] < len(head_toks) else None
    if toks[0].low in ("a", "an", "the") or not is_capitalised(toks[0].word):
        return None
    return None, rest


_REPORT = re.compile(r"^(?P<who>[A-Z][^,;:]*?)\s+(?P<verb>[a-z]+)\s+(?:that\s+)?"
                     rf"(?P<pronoun>{_alternation(lx.SUBJECT_PRONOUNS | lx.POSSESSIVE_PRONOUNS)})"
                     r"\s+(?P<rest>.+)$")


def _self_report(body: str) -> str | None:
    """What a named person reports of themselves, with the pronoun written out: ``Priya
    confirmed her new address is 4 Mill Lane`` is ``Priya's new address is 4 Mill Lane``
    (a reporting verb, :data:`~memory_es.text.lexicon.REPORTING_VERBS`, then a clause
    whose subject is a pronoun). None for any other sentence."""
    m = _REPORT.match(body)
    if m is None or lx.lemma_of(m.group("verb")) not in lx.REPORTING_VERBS:
        return None
    who = m.group("who")
    if not all(is_capitalised(w) for w in who.split()):
        return None
    said = f"{_written_out(m.group('pronoun'), who)} {m.group('rest')}"
    toks = tokenize(said)
    return said if subject_split(toks, [])[0] < len(toks) else None


_IT = re.compile(r"^(?:it|It)\s+")
_OWNED_OBJECT = re.compile(
    rf"^\S+\s+(?:{_alternation(lx.POSSESSIVE_DETERMINERS)})\s+([^\W\d_]+)\b")


def _owned_thing(clause: Clause) -> str | None:
    """The possessed thing a clause's verb acts on, written out with its owner (``Tomasz
    renewed his passport``: ``Tomasz's passport``): what an ``it`` opening the next
    sentence stands for (``it now expires in June 2036``). None when there is none."""
    if not clause.mention or clause.entity is None or clause.refers_back is not None:
        return None
    m = _OWNED_OBJECT.match(str(clause.value))
    return f"{clause.mention}'s {m.group(1)}" if m else None


_DE_NO_VERB = lx.GERMAN_FUNCTION | frozenset(_DE["subordinators"]) | frozenset(
    _DE["shared_prepositions"])
"""What opens a German phrase after a comma that is no second predicate of the subject."""


def _conjoined_other_language(body: str) -> list[Clause] | None:
    """Two German or Chinese predicates of one subject (``X wohnt jetzt in Köln und
    arbeitet jetzt bei Siemens``, ``X hat die Stelle gekündigt, tanzt aber weiter``,
    ``X搬到了上海，也从华为辞职了``): each its own clause, the
    second read with the first's subject. Only where the second part opens with no subject
    of its own (a German verb in lower case; in Chinese no name) and so reads as a fact of
    the same entity (``唐磊她在华为工作`` does not). A Chinese second part is read up to its own
    comma (what follows may have a subject of its own: ``…，不过书法课她还照常去上``) and
    keeps the rest in its text."""
    chinese = any(script_of(c) == "CJK" for c in body)
    # a full-width comma reads as "," (NFKC)
    first, found, rest = body.partition("," if chinese else " und ")
    if not chinese and not found:  # "X hat Y gekündigt, tanzt aber weiter": a verb after ","
        first, found, rest = body.partition(", ")
        if found and rest.split(" ", 1)[0].lower() in _DE_NO_VERB:
            return None  # "…, mit dem sie …", "…, weil …": no second predicate
    rest, _, further = rest.strip().partition(",") if chinese else (rest.strip(), "", "")
    if chinese and rest.startswith(tuple(_ZH["contrast"])):
        # "…了，不过晚餐会她还…": a contrast, with a subject of its own, kept as said
        alone = _other_language(first.strip())
        return None if alone is None else [replace(alone, text=body)]
    if not found or not rest or (not chinese and not rest[:1].islower()) or (
            chinese and leading_name(rest) is not None):
        return None
    head = _other_language(first.strip())
    if head is None or not head.mention or head.refers_back is not None:
        return None
    written = f"{head.mention}{'' if chinese else ' '}{rest}"
    tail = _other_language(written)
    if tail is None or tail.entity != head.entity:
        return None
    # "X wohnt jetzt in Köln und arbeitet bei Bosch": the first one's jetzt holds for both
    adverbs = _ZH["change"] if chinese else _DE["change"]
    said = [w for w in adverbs if w in (first if chinese else first.lower().split())]
    if said and tail.op == "assert" and not any(r.startswith("change-of-state")
                                                 for r in tail.rules):
        verb, _, after = rest.partition(" ")
        changed = _other_language(f"{head.mention}{said[0]}{rest}" if chinese
                                  else f"{head.mention} {verb} {said[0]} {after}")
        if changed is not None and changed.entity == head.entity:
            tail = replace(changed, text=written)
    if further:  # "…，在百度工作，喜欢爬山": a third part of the same subject is read alike
        more = _conjoined_other_language(f"{tail.text},{further}")
        if more is not None and more[0].entity == head.entity:
            return [head, *more]
        # "…，已经不跳广场舞了，不过书法课她还…": one of its own, kept as said
        tail = replace(tail, text=f"{tail.text},{further}")
    return [head, tail]


def _aliased_other_language(body: str) -> Clause | None:
    """A German or Chinese sentence whose subject gives its name in another script too
    (``张伟（Zhang Wei）住在上海``): read without the alias, whose names join the clause's,
    as an English sentence's do (:func:`subject_aliases`)."""
    bare, aliases = subject_aliases(nfkc(body))
    if not aliases:
        return None
    bare = re.sub(r"(?<=[\u3400-\u9fff])\s+(?=[\u3400-\u9fff])", "", " ".join(bare.split()))
    clause = _other_language(bare)
    if clause is None:
        return None
    return replace(clause, text=body, names=(*clause.names, *aliases),
                   subject_names=(*clause.subject_names, *aliases),
                   rules=(*clause.rules, "alias:apposition"))


_DE_FRONTED = frozenset(_DE["fronted"])


def _german_subject_first(body: str) -> str | None:
    """A German main clause that opens with a time phrase, written with its subject first
    (``Im Herbst hat Henrike Brandt ihren Bus verkauft`` -> ``Henrike Brandt hat im Herbst
    ihren Bus verkauft``; ``Donnerstags spielt Jonas Richter Tischtennis`` -> ``Jonas
    Richter spielt donnerstags Tischtennis``), else None. German puts the finite verb
    second whatever comes first (the Vorfeld), so after a time phrase the subject follows
    the verb; read as written, the phrase was taken for the subject. The phrase is read
    after the verb when it says since when a state holds (``seit``, ``ab``: a change, as
    after the verb), else left out of the reading (the clause keeps the text as written),
    so that it is no part of what a verb of ending ends. The verb is the first
    lower-case word of the first five that a name follows and that is no article, negator
    or word of a time phrase, nor an adjective right after an article (``Im letzten Jahr
    hat Jonas …``; ``Nach der letzten Spielzeit hat Jörg …``; ``darf Jörg … kein Blut``),
    or an auxiliary up to the ninth (``Nach einem Streit mit dem Meister ist Lena …``); the
    name is its capitalised words, two at most besides particles, since a capitalised
    noun may follow it (``Tischtennis``). A subordinate clause put first (``Weil …, geht
    Anna Weber …``) is read the same way, as a time phrase would be, up to its comma."""
    words = body.split()
    vorfeld = body.split(", ", 1)[0].split()
    if words and ", " in body and (words[0].lower() in _DE["subordinators"] or (
            words[0].lower() in _DE_FRONTED and words[1:2] and words[1] in _DE_PRONOUNS) or (
            # "Seit die Hütte die Produktion zurückgefahren hat, …": a clause, its verb last
            words[0].lower() in _DE_FRONTED and len(vorfeld) > 2
            and vorfeld[-1] in _DE_AUXILIARIES)):
        # "Weil ihr der Rücken zu schaffen macht, geht Anna Weber zur Wassergymnastik": a
        # clause put first is the Vorfeld, and the main clause starts at its comma
        words = ["dann", *body.split(", ", 1)[1].split()]
    if len(words) < 4 or words[0].lower() not in _DE_FRONTED:
        return None
    verb = None
    for v in range(1, min(_LONGEST_VORFELD + 1, len(words))):
        if words[v - 1].endswith(","):
            break
        if (words[v].isalpha() and words[v].islower() and words[v] not in _NOT_A_VERB
                and words[v - 1].lower() not in _DE_ARTICLES  # "einem langen Streit"
                and (v < 5 or words[v] in _DE_AUXILIARIES) and _name_run(words, v + 1)):
            verb = v
            break
    if verb is None:
        return None
    end = verb + 1 + _name_run(words, verb + 1)
    started = words[0].lower() in _DE["started"]
    phrase = [words[0].lower(), *words[1:verb]] if started else []
    return " ".join([*words[verb + 1:end], words[verb], *phrase, *words[end:]])


_NOT_A_VERB = (lx.NAME_PARTICLES | _DE_FRONTED | frozenset(_DE["determiners"])
               | frozenset(_DE["possessives"])
               | frozenset(_DE["negators"]) | frozenset(_DE["prepositions"])
               | frozenset(_DE["shared_prepositions"]))
"""Lower-case words before a capitalised one that are no finite verb: a name's particle,
a time phrase's own word (``letzten Jahr``), an article, a negator (``kein Blut``) or a
preposition (``in Rente``)."""
_DE_AUXILIARIES = frozenset(_DE["auxiliaries"])
_DE_ARTICLES = frozenset(_DE["determiners"]) | frozenset(_DE["possessives"])
"""After one of these, a lower-case word is an adjective of the noun phrase, no verb."""
_LONGEST_VORFELD = 8
"""Words before the verb at most: a Vorfeld of two phrases (``Nach einem Streit mit dem
Meister``), up to an auxiliary beyond the fourth word (``de.txt`` [auxiliaries])."""
_DE_PRONOUNS = frozenset({"ich", "du", "er", "sie", "es", "wir", "ihr"})
"""Subject pronouns: after ``Seit`` or ``Nach`` they open a clause of their own (``Seit
sie in Rente gegangen ist, …``), as a subordinator does, not a time phrase."""


def _name_run(words: list[str], start: int) -> int:
    """How many words from ``start`` are a name after a German verb: two capitalised words
    at most, and the particles between them (``Jürgen von Bülow``); 0 when none opens
    there or nothing follows it."""
    k, names = start, 0
    while k < len(words) and names < 2 and (
            is_capitalised(words[k]) or (names and words[k] in lx.NAME_PARTICLES)):
        names += is_capitalised(words[k])
        k += 1
    return k - start if names and k < len(words) else 0


def _chinese_main_clause(body: str) -> str | None:
    """The main clause of a Chinese sentence that opens with a clause of reason or
    concession (``因为膝盖不好，欧阳秀兰已经退出…``: because her knees are bad, …) or a time
    phrase, set off by a comma or not (``每周日早上，贺思远都在西湖边跑步``,
    ``去年秋天宋建国已经…``): what follows it, whose subject the sentence's facts are about;
    None otherwise."""
    lead = _ZH_LEADING_TIME.match(body)
    rest = body[lead.end():] if lead is not None else ""
    if rest and not rest.startswith(",") and leading_name(rest) is not None:
        return rest  # "去年秋天宋建国已经…": a time phrase with no comma, then the name
    if "," not in body or not (body.startswith(tuple(_ZH["subordinators"])) or lead):
        return None
    main = body.split(",", 1)[1].strip()
    return main if leading_name(main) is not None or _opens_with_a_given_name(main) else None


def _opens_with_a_given_name(main: str) -> bool:
    """Does a Chinese clause open with a person's given name alone, its subject
    (``秀兰已经不去那儿教课了``: the Chinese patterns read it; a name of two or three
    characters, as :func:`~memory_es.text.segment.leading_name` reads one with its
    surname)?"""
    clause = _read_other_language(main)
    if clause is None or not clause.mention or not (clause.entity or "").startswith("person:"):
        return False
    return main.startswith(clause.mention) and 2 <= len(clause.mention) <= 3


def _interpret_sentence(sentence: str, heading: str = "") -> list[Clause]:
    """The clauses of one sentence; ``heading``: a heading dropped before it, read as
    what the sentence says before its subject (``Correction:`` marks a change)."""
    sentence = without_directive(sentence.strip())  # "Please note that …"
    body = sentence.rstrip(".!?;。！？；").rstrip()
    if sentence.endswith("?") and (statement := uninverted(body)) is not None:
        clauses = _interpret_sentence(statement + sentence[len(body):], heading)
        return [replace(c, text=body if len(clauses) == 1 else c.text,
                        rules=(*c.rules, "sentence:question-order")) for c in clauses]
    if (upright := _german_subject_first(body)) is not None:
        clauses = _interpret_sentence(upright + sentence[len(body):], heading)
        if clauses and all(upright.startswith(c.mention or "\0") for c in clauses):
            return [replace(c, text=body if len(clauses) == 1 else c.text,
                            rules=(*c.rules, "lang:de-subject-after-verb")) for c in clauses]
    if (main := _chinese_main_clause(body)) is not None:
        clauses = _interpret_sentence(main + sentence[len(body):], heading)
        return [replace(c, text=body) if len(clauses) == 1 else c for c in clauses]
    conjoined = _conjoined_other_language(body)
    if conjoined is not None:
        return conjoined
    other = _aliased_other_language(body) or _other_language(body)
    if other is not None:
        return [other]
    body = sentence.rstrip(".!?;。！？；").rstrip()
    if (headed := _after_heading(body)) is not None:
        head, rest = headed
        dropped = "" if head else body[:len(body) - len(rest)]
        return [*(_interpret_sentence(head) if head else []),
                *_interpret_sentence(rest + sentence[len(body):], dropped)]
    if (said := _self_report(body)) is not None:
        return _interpret_sentence(said + sentence[len(body):])
    if (contrast := _CONTRAST.search(body)) is not None and contrast.start() > 0:
        # a trailing ", not …" never negates the statement: "Lena lives in Leeds, not
        # York" corrects York; "lives in Leeds, not far from York" only says where. The
        # statement is read without it (kept in the last clause's text)
        denied = contrast.group("denied").strip()
        corrects = None if denied.split()[0].lower() in _NOT_IDIOMS else denied
        clauses = _interpret_sentence(body[:contrast.start()] + sentence[len(body):])
        return [replace(c, corrects=corrects,
                        rules=(*c.rules, *(["correction:contrast"] if corrects else [])),
                        text=c.text + body[contrast.start():] if k == len(clauses) - 1
                        else c.text)
                for k, c in enumerate(clauses)]
    parse, aliases = subject_aliases(body)  # "Иван (Ivan) pays …": read without "(Ivan)"
    anchored = _anchored_identifiers(body)
    toks = tokenize(parse)
    if not toks:
        return []
    question = sentence.endswith(("?", "\uff1f"))
    cue = same_cue(ascii_fold(body))
    pred_index, colon, _plural = subject_split(toks, anchored)
    rules: list[str] = []
    before_subject = heading  # what the sentence says before it: "Actually, …", "Now …"
    if colon is not None:
        # key-value lines: "Backup router IP: 172.16.0.9"
        key_toks = toks[:colon + 1]
        after_start = key_toks[-1].end
        after = body[after_start:].strip()
        after_toks = tokenize(after, after_start + (len(body[after_start:])
                                                    - len(body[after_start:].lstrip())))
        after_ids = [i for i in anchored if i.start >= after_start]
        key_ids = [i for i in anchored if i.end <= after_start]
        vp_in_value = next((j for j, t in enumerate(after_toks) if j > 0
                            and agrees(t.word, False)), None)
        if not (after_ids and vp_in_value is not None
                and after_ids[0].start < after_toks[vp_in_value].start):
            return [_key_value(body, toks, key_toks, after, after_ids, key_ids, anchored, cue)]
        # "Badge: BX-7741 belongs to Ines Caro": the identifier is the subject
        subject = analyse_subject(body[:after_toks[vp_in_value].start],
                                  after_toks[:vp_in_value], after_ids)
        subject.surface = body[:after_toks[vp_in_value].start].strip()
        pred_start = after_toks[vp_in_value].start
        rules.append("sentence:label+identifier-subject")
    else:
        subject_toks = toks[:pred_index]
        while subject_toks and subject_toks[0].low in lx.ADVERBS and len(subject_toks) > 1:
            subject_toks = subject_toks[1:]  # "Now Ada prefers …": the adverb is no name
        fronted = fronted_phrase(toks[pred_index - len(subject_toks):])  # reads the verb
        lead = max(leading_temporal(subject_toks), leading_adverbial(subject_toks),
                   fronted if fronted < len(subject_toks) else 0)
        if lead:
            # "Throughout 2021 the user was …"; "In 2025 returned to …" has no subject
            subject_toks = subject_toks[lead:]
            rules.append("temporal:leading-phrase")
        region = body[subject_toks[0].start:subject_toks[-1].end] if subject_toks else ""
        written = subject_toks
        subject_toks, region, opening = _opening_phrase(subject_toks, region)
        if opening:
            rules.append(opening)
        before_subject += body[:written[0].start] if written else ""
        if opening == "sentence:opening-phrase":
            before_subject += " " + body[written[0].start:subject_toks[0].start]
        subject = analyse_subject(region, subject_toks,
                                  [i for i in anchored if subject_toks
                                   and i.start < subject_toks[-1].end])
        if opening == "subject:surname-first":  # "Okafor, Chidi" names them as written too
            subject.names = (*subject.names, " ".join(
                t.word.rstrip(",") for t in written if t.low not in lx.ROLE_NOUNS))
        pred_start = toks[pred_index].start if pred_index < len(toks) else len(body)
    elided = subject.kind == "none"
    if elided:
        rules.append("subject:elided")
    if cue is not None:
        rules.append("coreference:same-as-before")
    protected = [(i.start, i.end) for i in anchored]
    if aliases:
        subject.names = tuple(dict.fromkeys((*subject.names, *aliases)))
        rules.append("alias:apposition")
    conjuncts = split_conjuncts(parse, pred_start, subject.plural, protected,
                                subjectless=elided)
    if not conjuncts:
        conjuncts = [Conjunct(pred_start, parse[pred_start:],
                              tokenize(parse[pred_start:], pred_start), 0)]
    conjuncts = merge_dependent(conjuncts, subject)
    out: list[Clause] = []
    subject_text = body[:pred_start].strip()
    carried = ""  # "X now lives in Y and works at Z": the first one's "now" holds for both
    for k, conj in enumerate(conjuncts):
        clause_subject = subject
        pred_toks = conj.toks
        if len(conjuncts) == 1:
            text = body
        elif k == 0:
            text = body[:conj.start + len(conj.text)].strip()
        elif conj.subject:
            clause_subject, text = _own_subject(conj, subject, body[:conj.start])
            pred_toks = conj.toks[conj.subject:]
        else:
            text = f"{subject_text} {conj.resolved or conj.text}".strip()
        words = [t.low for t in pred_toks]
        is_negated = bool(words) and negated(_negation_scope(
            words, 0 if conj.subject else min(max(conj.verb, 0), len(words) - 1)))
        pred = analyse_predicate(pred_toks, 0 if conj.subject else conj.verb, clause_subject,
                                 question)
        clause_rules = [*rules, *clause_subject.rules, *pred.rules]
        if len(conjuncts) > 1:
            clause_rules.append(f"clause:{k + 1}/{len(conjuncts)}")
        if k == 0:
            carried = " ".join(w for w in ascii_fold(conj.text).split()
                               if w in lx.CHANGE_ADVERBS)
        said_before = (before_subject if k == 0 or conj.subject
                       else f"{before_subject} {carried}")
        clause = _finish(sentence=body, text=text, subject=clause_subject, pred=pred,
                         toks=pred_toks, identifiers=anchored, cue=cue, negated=is_negated,
                         rules=clause_rules, conj_text=conj.text, lead=said_before,
                         elided=elided)
        out.append(_owned(clause, clause_subject, pred_toks[0 if conj.subject else conj.verb:]))
    if "subject:compound" in subject.rules:
        out = [c for clause in out for c in _each_person(clause, subject)]
    return out


_OWNERS = ("person", "name", "role", "user")


def _owned(clause: Clause, subject: Subject, verb_on: list[Tok]) -> Clause:
    """``The red car belongs to Lisa`` says what Lisa owns, as ``Lisa owns the red car``
    does: the fact is the owner's (everything about Lisa includes it, and another
    owner's red truck is not hers), the thing its attribute. Only a thing described by a
    common noun phrase changes hands so; a named or identified subject keeps its facts
    (``Badge BX-7741 belongs to Ines Caro``)."""
    low = [t.low for t in verb_on]
    if (subject.kind != "topic" or len(low) < 3 or lx.lemma_of(low[0]) != "belong"
            or low[1] != "to" or clause.negated):
        return clause
    said = verb_on[2:]
    owner = analyse_subject(" ".join(t.word for t in said if t.word), said, [])
    if owner.kind not in _OWNERS or owner.entity is None or "subject:possessive" in owner.rules:
        return clause  # "belonged to Ana Lima's grandfather" is his, not hers
    thing = keywords(subject.surface.split(), 3)
    return replace(clause, entity=owner.entity, attribute=attribute_path("own", *thing),
                   value=subject.surface, mention=owner.surface,
                   subject_names=tuple(owner.names), confident=False,
                   rules=(*clause.rules, "predicate:belongs-to-owner"))


def _each_person(clause: Clause, compound: Subject) -> list[Clause]:
    """``Priya and Tomasz live in York``: one fact for each person the compound subject
    names, so that one of them moving, or being forgotten, leaves the other's, and neither
    name becomes an alias of the other. A clause with a subject of its own is left as
    it is, and so is a compound whose parts are not each a named subject."""
    if clause.mention != compound.surface:
        return [clause]
    parts = [p.strip() for p in re.split(r"\s+and\s+", compound.surface) if p.strip()]
    subjects = [analyse_subject(p, tokenize(p), []) for p in parts]
    if len(subjects) < 2 or any(s.entity is None for s in subjects):
        return [clause]
    return [replace(clause, entity=s.entity, mention=part, subject_names=tuple(s.names))
            for part, s in zip(parts, subjects, strict=True)]


_NEGATIVE_OBJECTS = frozenset(("no", "nothing", "none", "nobody", "neither"))


def _negation_scope(words: list[str], verb: int) -> list[str]:
    """The words whose negator negates the clause: up to the verb or its complement, and a
    negative object right after it (``eats no pork``); a negator further on negates only
    what follows it (``lives in Leeds but not in the centre``)."""
    reach = verb_reach(words, verb)
    return words[:reach + (2 if words[reach + 1:reach + 2] and words[reach + 1]
                           in _NEGATIVE_OBJECTS else 1)]


def _written_out(pronoun: str, owner: str) -> str:
    """A pronoun replaced by whom it stands for (``her`` -> ``Priya's``, ``she`` ->
    ``Priya``)."""
    return f"{owner}'s" if pronoun.lower() in lx.POSSESSIVE_PRONOUNS else owner


_PERSONAL_PRONOUNS = frozenset(("he", "she", "him", "his", "her"))
"""Pronouns that stand for a person: never for a body, a thing or a place."""


_NAME_RUN = re.compile(
    r"(?P<name>[^\W\d_a-z][\w\-]*(?:['\u2019](?![sS]\b)\w+)*"
    rf"(?:\s+(?:(?:{_alternation(sorted(lx.NAME_PARTICLES))})\s+)*[^\W\d_a-z][\w\-]*"
    r"(?:['\u2019](?![sS]\b)\w+)*)*)(?P<owns>['\u2019]s\b)?")
"""A run of capitalised words, with a name's particles between them (``Cornelis van der
Berg``), and the possessive ``'s`` after it if one follows."""


_PLACE_AFTER = lx.PREPOSITIONS | lx.PREPOSITIONAL_ADVERBS | {"the", "a", "an"}
"""Words after which a capitalised name is a place or a thing, not a person a pronoun
could stand for: a preposition or a prepositional adverb governs it (``on Western Road``,
``round South Stack``), or an article opens it (``upstairs at the Star``: no article
comes before a person's name)."""


def _person_before(before: str) -> Subject | None:
    """The last person named in ``before`` who is no object of a preposition (``the fine
    Adaeze Okonkwo-Bright got on Western Road``: Adaeze; a road, a town or a firm after
    ``on``, ``in`` or ``at`` is where; :data:`_PLACE_AFTER`), unless the name owns what
    follows it (``The ulcer on Cornelis van der Berg's left leg``: his). A day or a month
    is no person either."""
    found: Subject | None = None
    for m in _NAME_RUN.finditer(before):
        words = m.group("name").split()
        while words and words[0].lower() in lx.STOPWORDS:  # "The Glasgow School"
            words.pop(0)
        name, owns = " ".join(words), bool(m.group("owns"))
        prior = before[:m.start()].split()[-1:]
        if not name or (prior and prior[0].lower() in _PLACE_AFTER and not owns) or (
                CALENDAR.fullmatch(name) or SEASON_OR_MONTH.fullmatch(name)):
            continue  # a place, or a day or month ("the crew's Thursday night practices")
        subject = analyse_subject(name, tokenize(name), [])
        if subject.kind == "person" and subject.entity is not None:
            found = subject
    return found


def _own_subject(conj: Conjunct, main: Subject, before: str) -> tuple[Subject, str]:
    """The subject of a coordinated clause with its own subject, and the clause's text:
    a pronoun (``her bike``) stands for the sentence's subject, written out in the text;
    a pronoun of a person after a subject that is none (``The council has cancelled the
    fine Adaeze got, so her appeal is over``) for the person named before it."""
    toks = conj.toks[:conj.subject]
    own = analyse_subject(" ".join(t.raw for t in toks), toks, [])
    text = conj.text
    if (own.kind == "pronoun" and main.kind != "person" and toks[0].low in _PERSONAL_PRONOUNS
            and (person := _person_before(before)) is not None):
        main = person
    if own.kind == "pronoun" and main.entity is not None:
        owner = main.names[0] if main.names else main.surface
        written = _written_out(toks[0].low, owner)
        text = written + conj.text[len(toks[0].raw):]
        # "her appeal": the subject is the owner's thing, as "Adaeze's appeal" would be
        surface = (" ".join((written, *(t.raw for t in toks[1:]))) if written != owner
                   else main.surface)
        own = Subject(main.entity, surface, main.kind, names=main.names, role=main.role,
                      attribute_hint=own.attribute_hint,
                      rules=(*own.rules, "subject:pronoun-of-sentence-subject"))
    return own, text.strip()


def _key_value(body: str, toks: list[Tok], key_toks: list[Tok], after: str,
               after_ids: list[Identifier], key_ids: list[Identifier],
               anchored: list[Identifier], cue: str | None) -> Clause:
    """A ``label: value`` line: the label is the attribute, an identifier the subject."""
    anchor = (after_ids or key_ids)
    anchor = [i for i in anchor if i.kind not in ("date", "time")] or anchor
    key = body[:key_toks[-1].end].rstrip(":").strip()
    key_low = [t.bare for t in key_toks]
    attribute = attribute_path("label", *(keywords([t.word for t in key_toks], 4) or ["value"]))
    if anchor:
        ident = anchor[0]
        subject = Subject(ident.entity, key, "identifier",
                          rules=(f"subject:identifier:{ident.kind}",))
    else:
        subject = _label_owner(key_toks) or analyse_subject(key, key_toks, key_ids)
    if cue is not None:
        subject.kind = "refers_back"
    pred = Predicate(attribute, after.rstrip(". ") or key, True,
                     domains=domains_in([*key_low, *after.lower().split()]),
                     rules=("predicate:key-value",))
    return _finish(sentence=body, text=body, subject=subject, pred=pred, toks=toks,
                   identifiers=anchored, cue=cue, negated=False,
                   rules=["sentence:key-value"], conj_text=after, elided=False)


def _label_owner(key_toks: list[Tok]) -> Subject | None:
    """The thing a label of common nouns is about: ``Warehouse manager`` is the
    warehouse's manager, ``Current project codename`` the current project's codename,
    as ``Kai's phone`` is Kai's. The label's last noun (before a preposition) is what it
    names, the nouns before it its owner; None when no common noun stands just before
    that last one, or when the label has a name in it (capitalised after its first
    word), which the subject rules read."""
    words = [t.word.rstrip(":") for t in key_toks if t.word]
    if any(is_capitalised(w) for w in words[1:]) or any("'" in w or "’" in w for w in words):
        return None
    head = next((i - 1 for i, w in enumerate(words) if i and w.lower() in PREPOSITIONS),
                len(words) - 1)
    if head < 1 or words[head - 1].lower() not in lx.COMMON_NOUNS:
        return None
    owner = " ".join(words[:head])
    return Subject(entity_id("topic", owner.lower()), owner, "topic",
                   role=words[head - 1].lower(), rules=("subject:label-owner",))


def _opening_phrase(toks: list[Tok], region: str) -> tuple[list[Tok], str, str]:
    """The subject's tokens and text once a phrase set off by a comma before it is read:
    an opening adjunct (``In Berlin, Dana works …``) or a single opening word that is not
    a name (``However``, ``Yes``, ``Mom``, ``OK``) is dropped, and ``Surname, Given``
    becomes the name it inverts (``Okafor, Lena is …``: two words written like names),
    after a role noun too (``Student Okafor, Chidi enrolled``).
    An apposition (``Dana, my sister, …``) is left to the subject. Returns the rule
    applied ("" when none)."""
    comma = next((k for k, t in enumerate(toks[:-1]) if t.raw.endswith(",")), None)
    if comma is None or any(t.raw.endswith(",") for t in toks[comma + 1:]):
        return toks, region, ""
    head, rest = toks[:comma + 1], toks[comma + 1:]
    first = head[0].low
    dropped = rest, region[rest[0].start - toks[0].start:], "sentence:opening-phrase"
    if first in PREPOSITIONS or first in lx.TEMPORAL_PREPOSITIONS:
        return dropped
    roles = [t.word for t in head[:-1]]
    if roles and not all(t.low in lx.ROLE_NOUNS for t in head[:-1]):
        return toks, region, ""
    if not _name_word(head[-1]):
        return (toks, region, "") if roles else dropped
    if len(rest) == 1 and _name_word(rest[0]) and not rest[0].raw.endswith("."):
        # "Okafor, Lena", and after a role noun "Student Okafor, Chidi"
        inverted = " ".join([*roles, rest[0].word, head[-1].word.rstrip(",")])
        return tokenize(inverted), inverted, "subject:surname-first"
    return toks, region, ""


def _name_word(tok: Tok) -> bool:
    """Written like a name (capitalised, not all capitals, three letters or more, a vowel)
    and not an English word of the lexicon's lists."""
    word = tok.word
    w = word.lower()
    return (word.isalpha() and len(word) >= 3 and is_capitalised(word) and word != word.upper()
            and any(c in "aeiouy" for c in w) and w not in lx.STOPWORDS
            and w not in lx.COMMON_NOUNS and w not in lx.ENGLISH_VERBS
            and w not in lx.LINKING_ADVERBS and w not in lx.ADVERBS
            and w not in lx.INTERJECTIONS)


def _new_possession(subject: Subject) -> bool:
    """``Priya's new address is …``: a possessed thing called new replaces the old one."""
    return bool(subject.attribute_hint) and "new" in subject.surface.lower().split()


def _changed_from(words: Sequence[str]) -> bool:
    """A verb of change, then ``from … to`` (``moved from Leeds to York``)."""
    verb = next((i for i, w in enumerate(words) if lx.lemma_of(w) in lx.CHANGE_VERBS), None)
    return verb is not None and "from" in words[verb + 1:verb + 2] and "to" in words[verb + 2:]


ADDS_RULE = "additive:adds-to-what-holds"
"""The rule a clause carries when it says it adds to what holds (``too``, ``also``): it
supersedes nothing and replaces no frame."""


def _mentions(markers: tuple[str, ...], text_low: str) -> bool:
    return bool(markers) and _marker_pattern(markers).search(text_low) is not None


@lru_cache(maxsize=64)
def _marker_pattern(markers: tuple[str, ...]) -> re.Pattern[str]:
    """One whole-word alternation for a marker list (compiled once, not per clause)."""
    return re.compile(rf"\b(?:{'|'.join(re.escape(m) for m in markers)})\b")


_STARTED = re.compile(r"(?:since|as of)\s", re.IGNORECASE)
"""A time a state started (``since March``, ``as of 2024``): the statement is a change of
its slot from then on, as ``now`` makes it one."""


def _not_since(words: Sequence[str], text_low: str) -> bool:
    """``hasn't flown with the club since the spring``: the present perfect, negated, with
    the time since when, says a habit that held stopped then (the perfect of a state up
    to now, Quirk et al. 1985, 4.22), as ``no longer flies`` does."""
    perfect = words[:1] in (["hasn't"], ["haven't"]) or (
        words[:1] in (["has"], ["have"]) and words[1:2] in (["not"], ["never"]))
    return perfect and re.search(r"\bsince\b", text_low) is not None


def _finish(*, sentence: str, text: str, subject: Subject, pred: Predicate, toks: list[Tok],
            identifiers: Sequence[Identifier], cue: str | None, negated: bool,
            rules: list[str], conj_text: str, elided: bool, lead: str = "") -> Clause:
    """The clause: qualifiers, the operation it asks for, names and identifiers. ``lead``
    is what the sentence says before its subject (``Actually,``, ``Now``, ``In fact,``):
    a sentence adverb there marks a change, continuation or addition as it would after
    the subject."""
    text_low = ascii_fold(conj_text)
    marked_low = ascii_fold(f"{lead} {conj_text}") if lead.strip() else text_low
    words = [t.low for t in toks]
    temporal = tuple(dict.fromkeys(m.group().strip() for m in TEMPORAL.finditer(text)))
    attribute = pred.attribute
    if attribute and any(SPAN.fullmatch(t) for t in temporal):
        # "lived in Oslo from 2015 to 2019": held over those years, beside the slot's value
        # now ("lives in Bergen"), which it neither holds nor conflicts with
        attribute = f"{attribute}.span"
        rules.append("temporal:closed-span")
    if negated:
        rules.append("negation:kept-with-fact")
    unreal = "modality:unrealised" in pred.rules
    ceased = not unreal and cessation(words, text_low)
    purpose = ceased and has_purpose(text_low)
    change = not unreal and (_mentions(lx.CHANGE_MARKERS, marked_low)
                             or _mentions(lx.CHANGE_HEADINGS, ascii_fold(lead).rstrip(": "))
                             or not CHANGE_RULES.isdisjoint(pred.rules)
                             or _changed_from(words) or _new_possession(subject)
                             or any(_STARTED.match(t) for t in temporal))
    continuation = _mentions(lx.CONTINUATION_MARKERS, marked_low)
    adds = (_mentions(lx.ADDITIVE_MARKERS, marked_low)  # "also owns a green car now"
            or "predicate:one-of-a-body" in pred.rules)  # "is now a member of the PTA"
    if adds:
        rules.append(ADDS_RULE)
        said = keywords(str(pred.value).split(), 3)
        if pred.confident and attribute and said and not set(said) & set(attribute.split(".")):
            # "also works at a café on weekends": a second value beside the one the slot
            # holds, in a slot of its own (as a closed span is; a slot its value names
            # already is one): it neither conflicts with the first nor ends it
            attribute = ".".join((attribute, *said))
    dated = any(re.search(r"\d|\b(?:last|next|this|ago)\b", t, re.IGNORECASE)
                for t in temporal)
    op = "assert"
    ends_prior = ceased or (negated and (change or _not_since(words, marked_low)))
    if ends_prior:
        rules.append("ends-a-prior-state")
    if ceased and not purpose and not negated and not dated:
        # an undated cessation only says the prior state ended (the supersession records
        # that); a dated one ("sold the piano in May 2024") is an event to remember
        op = "cease"
        rules.append("cessation:ends-a-prior-state")
    elif ceased:
        rules.append("cessation:dated-event")
    elif (change and pred.confident and not continuation and not negated and not adds
          and (subject.entity is not None or subject.kind == "pronoun")):
        op = "supersede"
        rules.append("change-of-state:replaces-slot")
    elif (change and (pred.frame or "predicate:copula" in pred.rules) and not continuation
          and not negated and not adds and "predicate:office" not in pred.rules):
        rules.append("change-of-state:replaces-frame")
    if temporal:
        rules.append("temporal:kept-with-fact")
    # identifiers restored from an obfuscated form are not in the text verbatim: they
    # belong to the clause that holds the start of the sentence
    clause_ids = tuple(i for i in identifiers if i.surface in text or (
        i.surface not in sentence and text.startswith(sentence[:8])))
    names = names_in(tokenize(text), skip_first=subject.kind not in ("person", "role", "name"))
    subject_names = tuple(subject.names)
    refers = None
    if cue is not None:
        refers = cue
        subject_names = tuple(dict.fromkeys((*subject_names, *coreference_names(sentence))))
    entity = subject.entity
    if subject.kind == "pronoun":
        refers = ""
        entity = None
    return Clause(
        text=text.strip(), entity=entity, attribute=attribute,
        value=text.strip() if "predicate:empty" in pred.rules else pred.value,  # keeps its words
        mention=subject.surface or None, op=op, negated=negated, confident=pred.confident,
        alternatives=pred.alternatives, temporal=temporal, identifiers=clause_ids,
        names=names, subject_names=subject_names, refers_back=refers, elided=elided,
        adjuncts=adjuncts(text), has_purpose=purpose, ends_prior=ends_prior,
        continuation=continuation, unrealised=unreal,
        domains=pred.domains, rules=tuple(dict.fromkeys(rules)), frame=pred.frame)


# --- model hook -----------------------------------------------------------------------------

Proposal = Interpretation | Iterable[Clause | Mapping[str, Any]] | None
"""What a model hook returns: an interpretation, clauses, or mappings of clause fields
(a model's JSON, not yet validated)."""
ProposeFn = Callable[[str], Proposal]

_CLAUSE_FIELDS = frozenset(f.name for f in fields(Clause))


def clause_from_mapping(data: Mapping[str, Any], source: str) -> Clause:
    """Build a clause from a model's proposal (a mapping with the clause's field names)."""
    unknown = set(data) - _CLAUSE_FIELDS
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
