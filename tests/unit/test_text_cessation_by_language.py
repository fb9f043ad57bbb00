"""A cancellation in German or Chinese ends the one thing cancelled (SPEC §15):

- the subject's name as written (``Krüger``) is no word the ended fact must share; the
  entity id holds it folded (``kruger``), and as content it matched every fact of hers;
- a Chinese object is compared by its words (``杂志订阅`` ends ``订阅了一本杂志``)."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from memory_es.text.interpreter import interpret
from tests.unit.text_support import current_texts, fresh_tenant, texts_after

_SLOW = settings(max_examples=8, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])


@_SLOW
@given(st.sampled_from(["Anna Krüger", "Jörg Müller", "Lena Jäger", "Emre Öztürk", "Ida Weiß"]),
       st.sampled_from(["Zeitungsabo", "Netflix-Abo", "Fitnessstudio-Abo"]))
def test_a_german_cancellation_ends_that_subscription_only(
        fresh_store: memory_es.MemoryStore, name: str, abo: str) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    kept = {f"{name} wohnt in Bremen", f"{name} spielt Bratsche"}
    for text in (*kept, f"{name} hat ein {abo}"):
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"{name} hat ihr {abo} gekündigt.")
    after = current_texts(fresh_store, tenant)
    assert kept <= after
    assert f"{name} hat ein {abo}" not in after


def test_a_chinese_cancellation_is_compared_by_its_words(
        fresh_store: memory_es.MemoryStore) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    kept = {"王芳住在杭州", "王芳喜欢爬山"}
    for text in (*kept, "王芳订阅了一本杂志"):
        ti.remember(tenant, text + "。")
    ti.remember(tenant, "王芳取消了杂志订阅。")
    after = current_texts(fresh_store, tenant)
    assert kept <= after
    assert "王芳订阅了一本杂志" not in after


@_SLOW
@given(st.sampled_from(["郑伟", "王芳", "李强"]),
       st.sampled_from([("一辆自行车", "自行车"), ("一台钢琴", "钢琴"), ("一辆摩托车", "摩托车")]),
       st.booleans())
def test_a_chinese_sale_ends_that_thing_only(
        fresh_store: memory_es.MemoryStore, name: str, thing: tuple[str, str],
        with_ba: bool) -> None:
    """``郑伟卖掉了自行车`` and ``郑伟把自行车卖掉了`` (把 puts the object before the verb):
    sold, the thing ends; his other thing and his wife's same thing stay."""
    held, noun = thing
    kept = {f"{name}有一台电脑", f"{name}的妻子有{held}"}
    after = texts_after(fresh_store, [f"{t}。" for t in (f"{name}有{held}", *kept)], "remember",
                        f"{name}把{noun}卖掉了。" if with_ba else f"{name}卖掉了{noun}。")
    assert kept <= after
    assert f"{name}有{held}" not in after


@_SLOW
@given(st.sampled_from(["林涛", "王芳", "李强"]), st.sampled_from(["百度", "腾讯", "华为"]),
       st.sampled_from(["离开了", "已经离开了"]))
def test_a_chinese_leaving_ends_the_job_there_only(
        fresh_store: memory_es.MemoryStore, name: str, employer: str, left: str) -> None:
    """``林涛离开了百度`` (left Baidu), as ``left Acme`` does: his job there ends; his
    daughter's job there and his other facts stay."""
    kept = {f"{name}住在南京", f"{name}喜欢游泳", f"{name}的女儿在{employer}工作"}
    after = texts_after(fresh_store, [f"{t}。" for t in (f"{name}在{employer}工作", *kept)],
                        "remember", f"{name}{left}{employer}。")
    assert kept <= after
    assert f"{name}在{employer}工作" not in after


@_SLOW
@given(st.sampled_from([
    ("Sven Krause fährt einen Opel.", "Sven Krause hat seinen Opel verkauft."),
    ("Sven Krause hat ein Klavier.", "Sven Krause hat sein Klavier verschenkt."),
    ("Sven Krause studiert Informatik.", "Sven Krause hat sein Studium abgebrochen."),
    ("高明开一辆奥迪。", "高明把奥迪卖了。"),
    ("高明有一辆自行车。", "高明把自行车送人了。")]))
@example(case=("Sven Krause studiert Informatik.", "Sven Krause hat sein Studium abgebrochen."))
def test_a_thing_sold_or_given_away_ends_that_fact_only(
        fresh_store: memory_es.MemoryStore, case: tuple[str, str]) -> None:
    """German ``hat … verkauft`` (sold) and a Chinese 把 sentence of selling or giving away
    with 了 (Wang Li's disposal construction) end the thing's fact; his other facts, and
    his son's car, stay. The present tense is a trade, not a sale: ``verkauft Autos``,
    ``卖水果``."""
    held, sold = case
    chinese = held.endswith("\u3002")
    kept = (["高明住在深圳。", "高明的儿子开一辆奥迪。"] if chinese
            else ["Sven Krause wohnt in Leipzig.", "Sven Krauses Sohn fährt einen Opel."])
    after = texts_after(fresh_store, [held, *kept], "remember", sold)
    assert held.rstrip(".\u3002") not in after
    assert {k.rstrip(".\u3002") for k in kept} <= after


def test_selling_in_the_present_is_no_ending() -> None:
    for text in ("Sven Krause verkauft Autos.", "高明卖水果。"):
        assert interpret(text).clauses[0].op != "cease", text


@_SLOW
@given(st.sampled_from(["王芳", "李强", "孙丽"]),
       st.sampled_from([("抽烟", "戒烟"), ("喝酒", "戒酒"), ("抽烟", "戒掉了烟")]))
def test_a_chinese_habit_given_up_ends_that_habit_only(
        fresh_store: memory_es.MemoryStore, name: str, habit: tuple[str, str]) -> None:
    """``戒烟`` (quit smoking) is ``戒掉`` and its object: it ends ``抽烟`` of that person, not
    a husband's same habit nor her other facts."""
    done, quit_ = habit
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    kept = {f"{name}住在杭州", f"{name}的丈夫{done}"}
    for text in (*kept, f"{name}{done}"):
        ti.remember(tenant, text + "。")
    ti.remember(tenant, f"{name}{quit_}了。")
    after = current_texts(fresh_store, tenant)
    assert kept <= after
    assert f"{name}{done}" not in after


def test_working_at_a_place_is_one_frame_whichever_verb_says_it(
        fresh_store: memory_es.MemoryStore) -> None:
    """在X工作 and 在X上班 both say where one works: a new place said with either ends the
    old one said with the other, and a husband's stays."""
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    kept = {"王芳的丈夫在百度工作", "王芳住在杭州"}
    for text in (*kept, "王芳在百度工作"):
        ti.remember(tenant, text + "。")
    ti.remember(tenant, "王芳现在在阿里巴巴上班。")
    after = current_texts(fresh_store, tenant)
    assert kept <= after
    assert "王芳在百度工作" not in after


@_SLOW
@given(st.sampled_from([("Paul", "Becker"), ("Anke", "Vogel")]),
       st.sampled_from([("Katze", "ist gestorben"), ("Hund", "ist tot")]))
def test_a_german_pet_that_died_ends_having_it(
        fresh_store: memory_es.MemoryStore, name: tuple[str, str],
        death: tuple[str, str]) -> None:
    """``Paul Beckers Katze ist gestorben``: his fact of having the cat ends, not his
    brother's nor his others."""
    (given_name, family), (pet, died) = name, death
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    kept = {f"{given_name} {family} wohnt in Kiel", f"{given_name} {family}s Bruder hat eine {pet}"}
    for text in (*kept, f"{given_name} {family} hat eine {pet}"):
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"{given_name} {family}s {pet} {died}.")
    after = current_texts(fresh_store, tenant)
    assert kept <= after
    assert f"{given_name} {family} hat eine {pet}" not in after


@_SLOW
@given(st.sampled_from(["Jörg Müller", "Ida Weiß", "Emre Öztürk"]),
       st.sampled_from([", spielt dort aber weiterhin", ", bleibt aber Mitglied"]))
def test_a_german_ending_stops_at_its_comma(fresh_store: memory_es.MemoryStore, name: str,
                                            rest: str) -> None:
    """``ist nicht mehr Vorsitzender des Schachvereins Kulmbach, spielt dort aber
    weiterhin``: what ended is the chairmanship; the clause after the comma is no part of
    it (its ``spielt`` ended the correspondence chess, the job in Kulmbach went too)."""
    kept = {f"{name} spielt seit zwölf Jahren Fernschach",
            f"{name} arbeitet beim Landratsamt Kulmbach"}
    chair = f"{name} ist Vorsitzender des Schachvereins Springer Kulmbach"
    after = texts_after(fresh_store, [f"{t}." for t in (*kept, chair)], "remember",
                        f"{name} ist nicht mehr Vorsitzender des Schachvereins Springer "
                        f"Kulmbach{rest}.")
    assert kept <= after and chair not in after
