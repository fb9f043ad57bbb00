"""The content words of a run of Chinese, for comparing a query with a fact.

Chinese is written without spaces, so ``李娜的猫`` and ``李娜有一只猫`` share no word
until each run is cut into words. jieba-rs (through ``rjieba``, a maintained Rust port
of jieba with its dictionary and HMM; no download, microseconds a run) cuts a run and
tags each word with its part of speech (the ICTCLAS tag set). A word is content unless
its tag is one of grammar's closed classes, or it is a word of the basic operations
themselves (``忘记``, ``所有``, ``信息``: ``data/zh.txt``). Cutting by word, not by
character, keeps ``车`` (a car) apart from ``坐火车`` (takes the train).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from memory_es.text import lexicon as lx

_GRAMMAR_TAGS = frozenset({
    "u", "uj", "ul", "uz", "ug", "uv", "ud",  # particles (的, 了, 着, 过, 地, 得)
    "p", "c", "r", "rr", "rz", "rg",  # prepositions, conjunctions, pronouns
    "m", "mq", "mg", "q",  # numerals and classifiers (一只, 那辆)
    "d", "dg", "y", "e", "x",  # adverbs, modal particles, interjections, symbols
})
"""Parts of speech that carry grammar, not a thing a query can be about."""

OPERATION_WORDS = frozenset(lx.CHINESE["function"]) | frozenset(
    lx.CHINESE["totality"]) | frozenset(lx.CHINESE["info"])
"""Words that say what to do with a memory (forget, all of, the information of)."""


def is_han(ch: str) -> bool:
    """A CJK unified ideograph (the basic block or extension A)."""
    return "\u4e00" <= ch <= "\u9fff" or "\u3400" <= ch <= "\u4dbf"


def is_chinese_run(form: str) -> bool:
    """A word form of Han characters and no kana (Japanese is not cut as Chinese)."""
    return any(is_han(c) for c in form) and not any("\u3040" <= c <= "\u30ff" for c in form)


@lru_cache(maxsize=1)
def _jieba() -> Any:
    import rjieba  # noqa: PLC0415  (lazy: it loads its dictionary, ~0.1 s, once Chinese is met)

    return rjieba


@lru_cache(maxsize=16_384)
def content_words(run: str) -> frozenset[str]:
    """What a query's ``run`` asks about: its words that are not grammar or an
    operation's own words (cut once, the longest words: ``钢琴`` stays ``钢琴``)."""
    return frozenset(word for word, tag in _jieba().tag(run)
                     if tag not in _GRAMMAR_TAGS and word not in OPERATION_WORDS
                     and any(is_han(c) or c.isalnum() for c in word))


_OWNED_THING = re.compile(
    "的([\u3400-\u9fff]{1,8}?)(?:" + "|".join(map(re.escape, lx.CHINESE["copula"])) + ")")
"""The thing of ``X的Y是Z`` / ``X的Y叫Z`` (X's Y is, or is called, Z)."""


@lru_cache(maxsize=65_536)
def indexed_words(run: str) -> frozenset[str]:
    """Every word a fact's ``run`` holds, the dictionary words inside longer ones too
    (jieba's search mode: ``弹钢琴`` also holds ``钢琴``, ``坐火车`` holds ``火车`` but
    no ``车``), so a query's word meets the fact however the fact's run was cut. The
    thing a possessive names before its copula is cut on its own as well: the copula
    may join it into another word (``李娜的猫叫咪咪``: 猫叫 is a cat's mew; the thing is
    猫). So is what follows a personal name the run opens with (:func:`leading_name`):
    the dictionary may join the name to the verb after it (``赵敏养了一只狗``: 赵敏养)."""
    words = set(_jieba().cut_for_search(run))
    for thing in _OWNED_THING.findall(run):
        words.update(_jieba().cut_for_search(thing))
    if (name := leading_name(run)) is not None:
        words.add(name)
        words.update(_jieba().cut_for_search(run[len(name):]))
    elif surname := next((x for x in (run[:2], run[:1]) if x in lx.CHINESE_SURNAMES), ""):
        # the given name may be joined to the word after it (杨洋教英语: 洋教), so what
        # follows a given name of one or two characters is cut on its own as well
        for given in (1, 2):
            words.update(_jieba().cut_for_search(run[len(surname) + given:]))
    return frozenset(words)


@lru_cache(maxsize=16_384)
def leading_name(run: str) -> str | None:
    """The personal name a run opens with, for a sentence whose verb no rule knows
    (``孙丽弹钢琴``: 孙丽 plays the piano; without it the whole sentence would be read as
    one name, and a forget or purge of 孙丽 would miss the fact).

    A Chinese name is a surname (``data/zh_surnames.txt``) and one or two characters.
    jieba's dictionary alone (no HMM) keeps a name it knows as one word tagged nr
    (``李建国``) and cuts an unknown one into its characters while keeping the
    predicate's dictionary words whole (``弹钢琴``). So the name is that word (a longer
    word of another kind opens no name: ``时间很紧``), or the given name after the
    surname: a word tagged nr (``欧阳娜娜``) or ns (``宋建国``: 建国 is also a place
    word), or at most two single characters (one the dictionary lacks, tagged x, among
    them: ``周婷``), ended early by a verb
    (``张伟拉小提琴``: 拉), a character the perfective 了 follows (a verb's aspect, never a
    name's: ``王芳换了工作``, 换) or a word of grammar (an adverb, a particle). None when the run
    opens with no surname or nothing follows the name."""
    surname = next((s for s in (run[:2], run[:1]) if s in lx.CHINESE_SURNAMES), None)
    if surname is None:
        return None
    first, tag = _jieba().tag(run, False)[0]
    if len(first) > len(surname) and not tag.startswith("nr"):
        return None  # a word of the dictionary: 时间, 安静, 家里
    if len(first) > len(surname):
        name = first
    else:
        name = surname
        tagged = _jieba().tag(run[len(surname):], False)
        for k, (word, tag) in enumerate(tagged):
            given = len(name) - len(surname)
            if not given and len(word) == 2 and tag.startswith(("nr", "ns")):
                # 欧阳 / 娜娜; 宋 / 建国, a given name the dictionary knows as a place word
                name += word
                break
            if len(word) != 1 or not is_han(word) or given == 2 or (
                    tag in _GRAMMAR_TAGS and tag != "x") or (given and (
                    tag.startswith("v") or tagged[k + 1:k + 2] == [("了", "ul")])):
                break
            name += word
    return name if len(name) > len(surname) and len(run) > len(name) else None


@lru_cache(maxsize=16_384)
def words_of(run: str) -> tuple[str, ...]:
    """A run cut into its words in order, the longest words (``在腾讯工作``: 在 / 腾讯 /
    工作), for the rules that read a clause's last word."""
    return tuple(_jieba().cut(run))
