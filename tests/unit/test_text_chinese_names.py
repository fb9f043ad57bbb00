"""A Chinese sentence whose verb no rule knows (``孙丽弹钢琴``, Sun Li plays the piano) is
still the fact of the person it opens with, not a name made of the whole sentence: a
surname and a given name end the subject (SPEC §15). So forgetting or purging everything
about 孙丽 leaves none of her facts, and 孙强's stay."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from memory_es.text.interpreter import interpret
from memory_es.text.segment import leading_name
from tests.unit.text_support import current_texts, fresh_tenant, texts_after

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


@_SLOW
@given(st.sampled_from(["女朋友", "妹妹", "丈夫", "同事"]),
       st.sampled_from(["养了一只猫", "喜欢看电影", "每天跑步", "弹钢琴", "练瑜伽"]))
def test_a_persons_relative_has_facts_of_her_own_that_name_him(
        fresh_store: memory_es.MemoryStore, kin: str, predicate: str) -> None:
    """``赵磊的女朋友弹钢琴`` is her fact, whatever the verb (one of the rules', a time word
    first, or none they know): forgetting everything about 赵磊 leaves it, a
    purge of 赵磊 lists it as pending and erases it once confirmed, and forgetting
    赵磊的女朋友 takes it alone."""
    theirs = f"赵磊的{kin}{predicate}"
    setup = ["赵磊在银行工作。", f"{theirs}。", "赵强在银行工作。"]
    assert texts_after(fresh_store, setup, "forget", "忘记关于赵磊的一切") == {
        theirs, "赵强在银行工作"}
    assert texts_after(fresh_store, setup, "forget", f"赵磊的{kin}") == {
        "赵磊在银行工作", "赵强在银行工作"}
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for text in setup:
        ti.remember(tenant, text)
    assert ti.purge_matching(tenant, "赵磊").pending
    ti.purge_matching(tenant, "赵磊", confirm=True)
    assert current_texts(fresh_store, tenant) == {"赵强在银行工作"}


def test_a_relatives_denial_and_habit_read_as_a_persons() -> None:
    (denied,) = interpret("赵磊的女朋友不喝咖啡。").clauses
    (habit,) = interpret("赵磊的女朋友每天跑步。").clauses
    assert (denied.entity, denied.negated, denied.value) == (
        "person:zhao-lei-de-nv-peng-you", True, "咖啡")
    assert (habit.entity, habit.value) == ("person:zhao-lei-de-nv-peng-you", "跑步")


@pytest.mark.parametrize(("text", "name"), [("王芳换了工作", "王芳"), ("周婷修了自行车", "周婷"),
                                            ("赵磊搬了家", "赵磊")])
def test_a_character_the_perfective_follows_is_a_verb_not_a_name(text: str, name: str) -> None:
    """了 after a character marks a verb's aspect (``换了``, changed): a name never takes
    it, so the given name ends before that character, whatever jieba tags it."""
    assert leading_name(text) == name
