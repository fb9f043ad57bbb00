"""Chinese names and heads (SPEC §15): a day or a part of the day after the name is no
part of the subject; a query that opens with a person's given name alone names that
person; and a fact that holds every word of a query but its final head (``工作``,
``课``) is the thing the query names, unless the head is a person."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import memory_es
from tests.unit.text_support import store_examples, texts_after

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
    assert {s.rstrip("。") for s in setup[1:]} <= after
    assert setup[0].rstrip("。") not in after


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
    assert {s.rstrip("。") for s in setup[1:]} <= after
    assert setup[0].rstrip("。") not in after


@_SLOW
@given(st.sampled_from(["林晓燕", "王淑芬"]), st.sampled_from(["forget", "release"]))
def test_a_person_head_is_never_left_open(fresh_store: memory_es.MemoryStore,
                                          person: str, op: str) -> None:
    setup = [f"{person}每周六上午在青少年宫弹钢琴。", f"{person}每天早上在公园跑步。"]
    after = texts_after(fresh_store, setup, op, f"{person}在青少年宫的钢琴老师")
    assert {s.rstrip("。") for s in setup} <= after
