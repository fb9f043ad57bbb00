"""A Chinese sentence whose verb no rule knows (``孙丽弹钢琴``, Sun Li plays the piano) is
still the fact of the person it opens with, not a name made of the whole sentence: a
surname and a given name end the subject (SPEC §15). So forgetting or purging everything
about 孙丽 leaves none of her facts, and 孙强's stay."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text.interpreter import interpret
from memory_es.text.segment import leading_name
from tests.unit.text_support import texts_after

_SLOW = settings(max_examples=8, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])
# Written by hand: names of one and two given characters, a compound surname among them,
# and predicates whose verbs are not among the rules' own (data/zh.txt [verbs])
NAMES = ["孙丽", "张晓燕", "王小明", "欧阳娜娜", "刘洋", "陈思思", "周婷", "赵磊"]
PREDICATES = ["弹钢琴", "练瑜伽", "收藏邮票", "管理一家餐厅", "照顾她的母亲", "玩电子游戏",
              "擅长数学", "跑马拉松", "吹长笛", "修自行车"]


@settings(deadline=None)
@given(st.sampled_from(NAMES), st.sampled_from(PREDICATES))
def test_the_name_ends_the_subject_whatever_the_verb(name: str, predicate: str) -> None:
    (clause,) = interpret(f"{name}{predicate}。").clauses
    (known,) = interpret(f"{name}在北京工作。").clauses
    assert (clause.mention, clause.entity) == (name, known.entity)
    assert clause.value == predicate


@pytest.mark.parametrize("text", ["时间很紧", "她弹钢琴", "水很贵", "猫在睡觉"])
def test_a_sentence_that_opens_with_no_name_has_none(text: str) -> None:
    assert leading_name(text) is None


@_SLOW
@given(st.sampled_from(PREDICATES), st.sampled_from(["忘记关于孙丽的一切", "孙丽"]))
def test_everything_about_the_person_goes_and_a_namesake_stays(
        fresh_store: memory_es.MemoryStore, predicate: str, query: str) -> None:
    setup = ["孙丽在腾讯工作。", f"孙丽{predicate}。", "孙强在腾讯工作。", f"孙强{predicate}。"]
    if query == "孙丽":
        after = texts_after(fresh_store, setup, "purge_matching", query)
    else:
        after = texts_after(fresh_store, setup, "forget", query)
    assert after == {t.rstrip("。") for t in setup[2:]}


def test_a_name_before_de_owns_the_subject_and_is_not_it(
        fresh_store: memory_es.MemoryStore) -> None:
    setup = ["赵磊在银行工作。", "赵磊的女朋友弹钢琴。"]
    assert texts_after(fresh_store, setup, "forget", "忘记关于赵磊的一切") == {"赵磊的女朋友弹钢琴"}
