"""One person under several names, and addresses disguised in their local part (SPEC §15):

- after ``Дмитрий Соколов (Dmitry Sokolov) works at Yandex``, a fact written under the
  Latin name alone is his (in either order), so forgetting him by any form, another
  transliteration included, forgets both facts and never a person of a like name;
- ``lena [dot] park [at] mail [dot] com`` is ``lena.park@mail.com``, its local part's
  dot bracketed too."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from memory_es.text.identifiers import find_identifiers
from tests.unit.text_support import current_texts, fresh_tenant

_SLOW = settings(max_examples=8, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])
_PEOPLE = [
    ("Дмитрий Соколов (Dmitry Sokolov)", "Dmitry Sokolov", ["Dmitri Sokolov", "Дмитрий Соколов"],
     "Dmitry Sokolova"),
    ("山田太郎 (Yamada Tarō)", "Yamada Taro", ["Yamada Tarou", "山田太郎"], "Yamada Hanako"),
    ("Γιώργος Παπαδόπουλος, known as Giorgos Papadopoulos,", "Giorgos Papadopoulos",
     ["Γιώργος Παπαδόπουλος", "Giorgos Papadopoulos"], "Giorgos Papas"),
]


@_SLOW
@given(st.sampled_from(_PEOPLE), st.booleans(), st.integers(0, 1))
def test_a_person_under_two_names_is_forgotten_by_either(
        fresh_store: memory_es.MemoryStore, person: tuple[str, str, list[str], str],
        alias_first: bool, form: int) -> None:
    aliased, latin, asked, like = person
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    his = [f"{aliased} works at Yandex.", f"{latin} plays chess online."]
    kept = f"{like} teaches ballet"
    for text in (his if alias_first else his[::-1]):
        ti.remember(tenant, text)
    ti.remember(tenant, kept + ".")
    ti.forget(tenant, f"everything about {asked[form]}")
    after = current_texts(fresh_store, tenant)
    assert after == {kept}


def test_a_bracketed_dot_in_the_local_part() -> None:
    [found] = find_identifiers("Reach Lena Park at lena [dot] park [at] mail [dot] com.")
    assert found.canonical == "lena.park@mail.com"


@_SLOW
@given(st.sampled_from([("김민준 (Kim Min-jun)", "Kim Min-jun", "Kim Minjun", "Kim Min-ji"),
                        ("Jean-Luc Picard", "Jean-Luc Picard", "Jeanluc Picard", "Jean Picard")]))
def test_a_hyphenated_given_name_is_also_one_word(
        fresh_store: memory_es.MemoryStore, person: tuple[str, str, str, str]) -> None:
    first, again, asked, like = person
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    kept = f"{like} plays the violin"
    for text in (f"{first} works at Samsung.", f"{again} lives in Busan.", kept + "."):
        ti.remember(tenant, text)
    ti.forget(tenant, f"everything about {asked}")
    assert current_texts(fresh_store, tenant) == {kept}


@_SLOW
@given(st.sampled_from([("张伟\uff08Zhang Wei\uff09住在上海。", "Zhang Wei",
                         "Zhang Wei works at Huawei."),
                        ("张伟 (Zhang Wei) 住在上海。", "Zhang Wei", "Zhang Wei works at Huawei."),
                        ("Jürgen Weiß (Juergen Weiss) wohnt in Bonn.", "Juergen Weiss",
                         "Juergen Weiss plays chess.")]))
def test_an_alias_in_a_german_or_chinese_sentence_names_the_same_person(
        fresh_store: memory_es.MemoryStore, case: tuple[str, str, str]) -> None:
    """``张伟 (Zhang Wei) 住在上海`` (in full-width parentheses too) is 张伟's fact, as
    ``Иван (Ivan) pays …`` is Иван's: the alias in parentheses was read into the name (an
    entity ``zhang-wei-zhang-wei``), so a forget of Zhang Wei left it. Forgetting him by
    the alias forgets both facts, and a namesake's stays."""
    aliased, alias, latin = case
    kept = "Zhang Wen lives in Xi'an"
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for text in (aliased, latin, kept + "."):
        ti.remember(tenant, text)
    ti.forget(tenant, f"everything about {alias}")
    assert current_texts(fresh_store, tenant) == {kept}
