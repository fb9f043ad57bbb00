"""Names with particles and four-character Chinese names (SPEC §15).

- ``Jürgen von Bülow`` and ``Maria de la Cruz`` are people (a lower-case particle inside
  a name), in English and German sentences; forgetting Jürgen von Bülow leaves Jürgen
  Bülow, and his move replaces his home only.
- A surname with an apostrophe (``O'Hanlon-Reyes``, ``D\u2019Souza``) is a person's: the
  given name alone then stands for her (``Aoife sold the Yaris``) as it does for a
  surname of letters.
- ``欧阳娜娜`` (a compound surname) is one person whatever her verb; a degree adverb after
  a name (``李明很喜欢``) is no part of it.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from memory_es.text.interpreter import interpret
from tests.unit.text_support import fresh_tenant


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from([("Jürgen", "von", "Bülow"), ("Ludwig", "van", "Beethoven"),
                        ("Maria", "de la", "Cruz"), ("Omar", "bin", "Rashid")]),
       st.sampled_from(["en", "de"]))
def test_a_name_with_a_particle_is_one_person(fresh_store: memory_es.MemoryStore,
                                              name: tuple[str, str, str], lang: str) -> None:
    given_name, particle, surname = name
    full, short = f"{given_name} {particle} {surname}", f"{given_name} {surname}"
    lives, plays, moved, forget = (
        ("lives in Köln", "plays chess", "lives in München now", "forget everything about")
        if lang == "en" else
        ("wohnt in Köln", "spielt Schach", "wohnt jetzt in München", "Vergiss alles über"))
    tenant = fresh_tenant()
    ti = TextInterface(fresh_store)
    for text in (f"{full} {lives}.", f"{full} {plays}.", f"{short} {lives}."):
        ti.remember(tenant, text)
    assert str(interpret(f"{full} {lives}.").clauses[0].entity).startswith("person:")
    ti.remember(tenant, f"{full} {moved}.")
    homes = {f.text for f in fresh_store.current(tenant) if f.attribute == "home.city"}
    assert homes == {f"{full} {moved}", f"{short} {lives}"}
    ti.forget(tenant, f"{forget} {full}")
    assert {f.text for f in fresh_store.current(tenant)} == {f"{short} {lives}"}


def test_a_four_character_chinese_name(fresh_store: memory_es.MemoryStore) -> None:
    ti = TextInterface(fresh_store)
    for text in ("欧阳娜娜住在上海。", "欧阳娜娜喜欢画画。", "欧阳娜住在上海。",
                 "李明很喜欢游泳。"):
        ti.remember("z", text)
    ti.forget("z", "忘记关于欧阳娜娜的一切")
    assert {f.text for f in fresh_store.current("z")} == {"欧阳娜住在上海", "李明很喜欢游泳"}
    assert interpret("李明很喜欢游泳。").clauses[0].entity == interpret(
        "李明住在北京。").clauses[0].entity


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["O'Hanlon-Reyes", "D\u2019Souza", "N'Diaye", "O'Brien"]),
       st.sampled_from(["Aoife", "Kerry", "Malik"]))
def test_a_surname_with_an_apostrophe_is_a_persons(fresh_store: memory_es.MemoryStore,
                                                     surname: str, given_name: str) -> None:
    full = f"{given_name} {surname}"
    assert str(interpret(f"{full} drives a Yaris.").clauses[0].entity).startswith("person:")
    tenant = fresh_tenant()
    ti = TextInterface(fresh_store)
    for text in (f"{full} drives a silver Yaris.", f"{full} works as a midwife.",
                 f"{full}'s brother Cian also drives a Yaris."):
        ti.remember(tenant, text)
    ti.remember(tenant, f"{given_name} sold the Yaris last month.")
    current = {f.text for f in fresh_store.current(tenant)}
    assert f"{full} drives a silver Yaris" not in current
    assert {f"{full} works as a midwife", f"{full}'s brother Cian also drives a Yaris"} <= current
