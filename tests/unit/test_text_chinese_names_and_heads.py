"""Chinese names and heads (SPEC §15): a day or a part of the day after the name is no
part of the subject; a query that opens with a person's given name alone names that
person; and a fact that holds every word of a query but its final head (``工作``,
``课``) is the thing the query names, unless the head is a person."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import memory_es
from tests.unit.text_support import assert_first_ended_only, said, store_examples, texts_after

_SLOW = store_examples(6)
TEAHOUSE = "{p}每周三晚上在西湖边的一家茶馆演奏古筝。"
KEPT = ["{p}每周五下午到西湖区的一家养老院为老人们弹古筝。",
        "{p}是杭州市青少年宫民乐团的指导老师。"]


@_SLOW
@given(st.sampled_from(["林晓燕", "王淑芬"]),
       st.sampled_from(["每周三晚上", "周三晚上", "星期三晚上", "每周三"]))
def test_a_time_after_the_name_is_no_part_of_the_subject(
        fresh_store: memory_es.MemoryStore, person: str, when: str) -> None:
    setup = [t.format(p=person) for t in (TEAHOUSE, *KEPT)]
    after = texts_after(fresh_store, setup, "remember",
                        f"{person}{when}不再去茶馆演奏古筝了。")
    assert_first_ended_only(setup, after)


@_SLOW
@given(st.sampled_from([("林晓燕", "晓燕"), ("王淑芬", "淑芬"), ("欧阳秀兰", "秀兰")]),
       st.sampled_from(["forget", "release"]))
def test_a_query_opening_with_the_given_name_names_the_person(
        fresh_store: memory_es.MemoryStore, person: tuple[str, str], op: str) -> None:
    full, given_name = person
    setup = [f"{full}在成都宽窄巷子附近的一家中药房当收银员。",
             f"{full}每天早上在成都人民公园练八段锦。",
             "张伟在成都的一家中药房当药剂师。"]
    after = texts_after(fresh_store, setup, op, f"{given_name}在中药房的工作")
    assert_first_ended_only(setup, after)


@_SLOW
@given(st.sampled_from(["林晓燕", "王淑芬"]), st.sampled_from(["forget", "release"]))
def test_a_person_head_is_never_left_open(fresh_store: memory_es.MemoryStore,
                                          person: str, op: str) -> None:
    setup = [f"{person}每周六上午在青少年宫弹钢琴。", f"{person}每天早上在公园跑步。"]
    after = texts_after(fresh_store, setup, op, f"{person}在青少年宫的钢琴老师")
    assert said(setup) <= after


@_SLOW
@given(st.sampled_from([("林晓燕", "晓燕"), ("欧阳秀兰", "秀兰")]),
       st.sampled_from(["forget", "release"]))
def test_one_word_said_otherwise_among_several_held_is_the_same_thing(
        fresh_store: memory_es.MemoryStore, person: tuple[str, str], op: str) -> None:
    """``过年展览`` for ``春节展览``: the fact holds the query's other words of two
    characters or more (文化馆, 展览, 作品); its words of one character (做, 大) say
    little."""
    full, given_name = person
    setup = [f"{full}为碑林区文化馆的春节展览设计大幅剪纸作品。",
             f"{full}每周六上午在碑林区文化馆教剪纸课。",
             f"{full}每周三下午去碑林区的一所养老院陪老人剪纸。"]
    after = texts_after(fresh_store, setup, op, f"{given_name}给文化馆过年展览做的那些大作品")
    assert_first_ended_only(setup, after)


@_SLOW
@given(st.sampled_from([("林晓燕", "晓燕"), ("欧阳秀兰", "秀兰")]),
       st.sampled_from(["练", "学"]), st.sampled_from(["forget", "release"]))
def test_a_one_character_verb_of_the_de_clause_may_be_said_otherwise(
        fresh_store: memory_es.MemoryStore, person: tuple[str, str], verb: str,
        op: str) -> None:
    """``晓燕早上在公园练的太极``: the fact holds every word of two characters or more and
    the head (太极 of 太极拳), and says the act with another verb of one character (打)."""
    full, given_name = person
    setup = [f"{full}每天早上在紫荆山公园打太极拳。",
             f"{full}每天晚上在紫荆山公园南门广场跳广场舞。",
             f"{full}每周五晚上在文化馆教退休职工跳交谊舞。"]
    after = texts_after(fresh_store, setup, op, f"{given_name}早上在公园{verb}的太极")
    assert_first_ended_only(setup, after)


@_SLOW
@given(st.sampled_from([("欧阳秀兰", "秀兰", "妹妹欧阳秀梅"), ("林晓燕", "晓燕", "表妹林芳"),
                        ("王桂兰", "桂兰", "妯娌李秀英"), ("张文英", "文英", "姐姐张文华")]),
       st.sampled_from(["", "因为文化馆换了新老师\uff0c"]))
def test_an_ending_said_of_the_given_name_is_the_known_persons(
        fresh_store: memory_es.MemoryStore, person: tuple[str, str, str], reason: str) -> None:
    """``秀兰已经不去文化馆教剪纸课了``, with a reason put first or not: 秀兰 is 欧阳秀兰, the
    one person of the tenant that given name opens; her sister's near-twin stays. So is
    a given name that opens as a surname would (桂 and 文 are surnames too): 桂兰 is
    王桂兰, whose name is a surname and it."""
    full, given_name, kin = person
    setup = [f"{full}每周六上午在碑林区文化馆教剪纸课。",
             f"{full}的{kin}也每周六上午在碑林区文化馆教剪纸课。",
             f"{full}每周三下午去碑林区的一所养老院陪老人剪纸。"]
    after = texts_after(fresh_store, setup, "remember",
                        f"{reason}{given_name}已经不去文化馆教剪纸课了。")
    assert_first_ended_only(setup, after)


@_SLOW
@given(st.sampled_from([("王芳", "王芳芳"), ("王磊", "王磊磊")]),
       st.sampled_from(["上个月搬到了苏州。", "不再订阅报纸了。"]))
def test_a_name_that_holds_a_known_one_is_another_person(
        fresh_store: memory_es.MemoryStore, names: tuple[str, str], told: str) -> None:
    """``王芳芳`` opens with a surname: a full name of her own, never a given name that
    stands for ``王芳``, known before her; what is said of 王芳 leaves her facts."""
    short, longer = names
    setup = [f"{short}住在上海。", f"{short}订阅了报纸。", f"{longer}住在北京。",
             f"{longer}订阅了报纸。"]
    after = texts_after(fresh_store, setup, "remember", f"{short}{told}")
    assert said(setup[2:]) <= after
