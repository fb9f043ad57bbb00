"""German and Chinese basic operations as people write them (SPEC §15, the languages the
README claims). Each sentence is built from its parts, so what it must do is known:

* German simple past (``zog nach``, ``kündigte``) as well as the perfect;
* Chinese adverbs before the verb (``已经``) and a sentence-final ``了`` are read past;
* ``不再`` (no longer) ends a state; the ended fact may be written with ``了``;
* a Chinese forget that gives only the name and function words (``忘掉X``,
  ``请删除X的所有信息``) names the person as a whole; German ``alle Informationen``
  asks for the whole person too.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from memory_es.text.interpreter import interpret

T = "acme"
_tenants = iter(range(1_000_000))


@given(st.sampled_from(("Greta", "Paul", "Frau Weber")),
       st.sampled_from(("Erfurt", "Ulm", "Kiel")),
       st.sampled_from(("{s} zog nach {p}.", "{s} zieht nach {p}.", "{s} ist nach {p} gezogen.",
                        "{s} ist nach {p} umgezogen.", "{s} zog letztes Jahr nach {p}.",
                        "{s} zog im März nach {p}.")))
def test_a_german_move_in_any_tense_is_a_change_of_residence(subject: str, place: str,
                                                             form: str) -> None:
    (clause,) = interpret(form.format(s=subject, p=place)).clauses
    assert (clause.attribute, clause.value, clause.op) == ("home.city", place, "supersede")


@given(st.sampled_from(("Greta Lind", "Paul Weber")), st.sampled_from(("Erfurt", "Ulm")),
       st.sampled_from(("seit 2023", "seit Mai", "ab heute", "jetzt")))
def test_a_german_home_dated_from_its_start_is_a_change_of_residence(
        subject: str, place: str, since: str) -> None:
    """``wohnt seit 2023 in Leipzig`` says where the person lives now, as ``jetzt`` does."""
    (clause,) = interpret(f"{subject} wohnt {since} in {place}.").clauses
    assert (clause.attribute, clause.value, clause.op) == ("home.city", place, "supersede")


@given(st.sampled_from(("李明", "王芳", "赵磊")), st.sampled_from(("广州", "成都", "西安")),
       st.sampled_from(("{s}搬到了{p}。", "{s}已经搬到{p}了。", "{s}也搬到{p}了。",
                        "{s}搬去了{p}。")))
def test_a_chinese_move_reads_past_adverbs_and_final_le(subject: str, place: str,
                                                         form: str) -> None:
    (clause,) = interpret(form.format(s=subject, p=place)).clauses
    assert clause.value == place and clause.op == "supersede"
    assert clause.mention == subject


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(("忘掉{s}。", "忘记{s}", "请删除{s}的所有信息。", "忘记关于{s}的一切")))
def test_a_chinese_forget_of_a_name_forgets_the_person(fresh_store: memory_es.MemoryStore,
                                                       form: str) -> None:
    tenant = f"{T}-{next(_tenants)}"
    ti = TextInterface(fresh_store)
    for text in ("赵磊住在厦门。", "赵磊会打篮球。", "钱红住在厦门。"):
        ti.remember(tenant, text)
    ti.forget(tenant, form.format(s="赵磊"))
    assert [f.text for f in fresh_store.current(tenant)] == ["钱红住在厦门"]


def test_german_simple_past_and_no_longer_end_the_state(
        fresh_store: memory_es.MemoryStore) -> None:
    ti = TextInterface(fresh_store)
    for text in ("Hanna hat ein Netflix-Abo.", "Hanna läuft Marathon.", "周婷订阅了报纸。",
                 "周婷喜欢画画。"):
        ti.remember(T, text)
    ti.remember(T, "Hanna kündigte ihr Netflix-Abo.")
    ti.remember(T, "周婷不再订阅报纸了。")
    texts = {f.text for f in fresh_store.current(T)}
    assert "Hanna hat ein Netflix-Abo" not in texts and "周婷订阅了报纸" not in texts
    assert {"Hanna läuft Marathon", "周婷喜欢画画"} <= texts


def test_german_all_information_is_the_whole_person(
        fresh_store: memory_es.MemoryStore) -> None:
    ti = TextInterface(fresh_store)
    for text in ("Emil wohnt in Trier.", "Emil spielt Cello.", "Ida wohnt in Trier."):
        ti.remember(T, text)
    ti.forget(T, "Lösche alle Informationen über Emil.")
    assert [f.text for f in fresh_store.current(T)] == ["Ida wohnt in Trier"]


def test_the_language_files_hold_only_words_of_their_language() -> None:
    """Guard: a section's note written on a line of its own without ``#`` was read as
    words of the section before it (``[unrealised] holds what says a thing is`` became
    German negators)."""
    from memory_es.text import lexicon as lx

    # a phrase joins its words with "_" (an_den_Nagel_gehängt), where a noun keeps its capital
    german = [w for ws in lx.GERMAN.values() for w in ws
              if not all(p.isalpha() for p in w.split("_")) or ("_" not in w and not w.islower())]
    chinese = [w for ws in lx.CHINESE.values() for w in ws
               if not all("\u3400" <= ch <= "\u9fff" for ch in w)]
    assert german == []
    assert chinese == []
