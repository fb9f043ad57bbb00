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


@_SLOW
@given(st.sampled_from(["Jörg Müller", "Ida Weiß", "Jürgen von Bülow"]),
       st.sampled_from([", um die Ersatzschlüssel kümmert er sich aber weiterhin",
                        ", die Gehwege streut er aber weiterhin"]))
def test_a_german_kein_mehr_ending_stops_at_its_comma(
        fresh_store: memory_es.MemoryStore, name: str, rest: str) -> None:
    """``räumt keinen Schnee mehr, um die Ersatzschlüssel kümmert er sich aber
    weiterhin``: a clause of its own after the comma leaves the ending an ending."""
    kept = f"{name} verwaltet die Ersatzschlüssel der Wohnanlage Am Lindenhof"
    snow = f"{name} räumt im Winter den Schnee in der Wohnanlage Am Lindenhof"
    after = texts_after(fresh_store, [f"{kept}.", f"{snow}."], "remember",
                        f"{name} räumt am Lindenhof keinen Schnee mehr{rest}.")
    assert kept in after and snow not in after


@_SLOW
@given(st.sampled_from(["Henrike Brandt", "Jürgen von Bülow"]),
       st.sampled_from(["Seit die Glashütte die Produktion zurückgefahren hat, hat {p}",
                        "Weil die Glashütte schließt, hat {p}", "{p} hat"]),
       st.sampled_from(["", ", die Vorführungen für Touristen macht sie aber weiter"]))
def test_a_german_participle_ending_after_a_clause_put_first_ends_that_job(
        fresh_store: memory_es.MemoryStore, name: str, opening: str, rest: str) -> None:
    """``Seit die Glashütte … zurückgefahren hat, hat Henrike … aufgehört, …``: a clause
    whose verb is last before the comma is put first, as ``Weil …`` is; the ending's
    participle closes its clause at the next comma."""
    kept = f"{name} zeigt samstags Touristen das Glasblasen im Museum"
    job = f"{name} arbeitet als Glasbläserin in der Glashütte Waldhof"
    after = texts_after(fresh_store, [f"{job}.", f"{kept}."], "remember",
                        f"{opening.format(p=name)} als Glasbläserin aufgehört{rest}.")
    assert kept in after and job not in after


@given(st.sampled_from(["Jörg Müller", "Ida Weiß", "Jürgen von Bülow"]),
       st.sampled_from([("Im Herbst", "hat", "sein Auto verkauft"),
                        ("Donnerstags", "spielt", "Tischtennis beim TTC Longerich"),
                        ("Im letzten Jahr", "hat", "ihr Abo gekündigt"),
                        ("Seit 2019", "wohnt", "in Kiel")]))
def test_a_german_clause_after_a_time_phrase_is_its_subjects(
        name: str, clause: tuple[str, str, str]) -> None:
    """German puts the verb second whatever comes first: ``Im Herbst hat Henrike Brandt
    …`` is Henrike Brandt's, not a person named ``Im Herbst``; the phrase is no part of
    what ended, and ``seit`` still says a state started (a change)."""
    phrase, verb, rest = clause
    [read] = interpret(f"{phrase} {verb} {name} {rest}.").clauses
    assert read.entity == "person:" + name.lower().replace(" ", "-").replace(
        "ö", "o").replace("ü", "u").replace("ß", "ss")
    assert phrase.split()[-1].lower() not in str(read.value).lower()
    assert read.text == f"{phrase} {verb} {name} {rest}"
    if phrase.startswith("Seit"):
        assert read.op == "supersede"


@_SLOW
@given(st.sampled_from(["Hildegard Schmitz-Kürten", "Ida Weiß"]))
def test_a_german_second_predicate_after_a_comma_is_its_own_clause(
        fresh_store: memory_es.MemoryStore, name: str) -> None:
    """``X hat ihre Stelle in der Praxis in Nippes gekündigt, tanzt aber weiter im
    Tanzcorps``: a verb after the comma is a second predicate of the subject, so the
    ending ends the job; the town where the job was is no word it shares with the dancing
    (``… Köln-Nippes``), which stays, and the dancing told again ends nothing."""
    job = f"{name} arbeitet als Zahnmedizinische Fachangestellte in einer Praxis in Nippes"
    dance = f"{name} tanzt seit 2015 im Tanzcorps der KG Rheinblüte Köln-Nippes"
    after = texts_after(fresh_store, [f"{job}.", f"{dance}."], "remember",
                        f"{name} hat ihre Stelle in der Praxis in Nippes gekündigt, tanzt "
                        "aber weiter im Tanzcorps.")
    assert job not in after and dance in after
    [kept] = interpret(f"{name} besitzt einen VW T3, mit dem sie nach Südtirol fährt.").clauses
    assert kept.op == "assert"


@_SLOW
@given(st.sampled_from(["从上个月起", "上个月", "去年"]))
def test_a_chinese_ending_after_a_time_phrase_ends_that_habit_only(
        fresh_store: memory_es.MemoryStore, since: str) -> None:
    """``从上个月起邓嘉欣不再学粤剧了, 不过她还在龙舟队划船``: the time phrase before the
    name is no part of the subject, and the comma closes what ended, so the dragon-boat
    fact, named after it, stays."""
    opera, boat = "邓嘉欣每个周六下午去少年宫学粤剧", "邓嘉欣是叠滘龙舟队的划手"
    after = texts_after(fresh_store, [f"{opera}。", f"{boat}。"], "remember",
                        f"{since}邓嘉欣不再学粤剧了\uff0c不过她还在叠滘龙舟队划船。")
    assert opera not in after and boat in after
    [moved] = interpret(f"{since}王芳搬到了上海。").clauses
    assert moved.entity == "person:wang-fang"


def test_chinese_predicates_of_one_subject_are_read_to_each_comma() -> None:
    """``李明住在北京, 在百度工作, 喜欢爬山``: each part without a subject of its own is a
    fact of the first part's subject, read up to its own comma; a part that opens with a
    contrast (``不过书法课她还…``) has a subject of its own and stays in the text of the
    part before it, so an ending's object stops at its comma (``不跳广场舞了``)."""
    clauses = interpret("李明住在北京\uff0c在百度工作\uff0c喜欢爬山。").clauses
    assert [c.text for c in clauses] == ["李明住在北京", "李明在百度工作", "李明喜欢爬山"]
    said = "郑慧敏膝盖不好\uff0c已经不跳广场舞了\uff0c不过书法课她还照常去上。"
    *_, ended = interpret(said).clauses
    assert ended.op == "cease" and ended.value == "跳广场舞"
    assert ended.text.endswith("不过书法课她还照常去上")


def test_resigning_a_post_in_chinese_is_an_ending() -> None:
    """``辞去了…的工作`` (resigned from the job) ends it, as ``离开了`` (left) does."""
    [read] = interpret("廖静姝辞去了银行柜员的工作。").clauses
    assert read.op == "cease" and read.entity == "person:liao-jingshu"


def test_a_german_clause_put_first_leaves_the_main_clause_its_subject() -> None:
    """``Weil ihr der Rücken zu schaffen macht, geht Annegret Schwarzenbeck … zur
    Wassergymnastik``: a subordinate clause before the comma is the main clause's first
    part, after which its verb and then its subject come; and after ``seit`` a ``nicht
    mehr`` ends the one place, ``sondern`` opening no second predicate of its own."""
    [goes] = interpret("Weil ihr der Rücken zu schaffen macht, geht Annegret Schwarzenbeck "
                       "zweimal pro Woche zur Wassergymnastik.").clauses
    assert goes.entity == "person:annegret-schwarzenbeck"
    clauses = interpret("Seit Januar arbeitet Annegret Schwarzenbeck nicht mehr im Klinikum "
                        "St. Georg, sondern als freiberufliche Hebamme in Markkleeberg.").clauses
    assert [(c.entity, c.op) for c in clauses] == [("person:annegret-schwarzenbeck", "cease")]


@_SLOW
@given(st.sampled_from(["因为膝盖不好\uff0c", "虽然很喜欢\uff0c", ""]))
def test_a_chinese_clause_of_reason_before_the_name_leaves_the_name_the_subject(
        fresh_store: memory_es.MemoryStore, reason: str) -> None:
    """``因为膝盖不好, 欧阳秀兰已经退出…门球队了, 不过她老伴还在队里打``: the clause of
    reason before the comma is no part of the subject, 退出 (withdrew from) ends the
    membership, and the contrast after the next comma has a subject of its own (her
    husband's fact stays)."""
    team = "欧阳秀兰是杭州朝晖社区老年门球队的队员"
    husband = "欧阳秀兰的老伴也在朝晖社区老年门球队打门球"
    after = texts_after(fresh_store, [f"{team}。", f"{husband}。"], "remember",
                        f"{reason}欧阳秀兰已经退出朝晖社区老年门球队了\uff0c不过她老伴还在队里打。")
    assert team not in after and husband in after
    [run] = interpret("每周日早上\uff0c贺思远都在西湖边跑步。").clauses
    assert run.entity == "person:he-siyuan"


@_SLOW
@given(st.sampled_from(["\u3002", "\uff1b", "\uff01"]), st.sampled_from(["", "今年春天起"]))
def test_chinese_sentences_end_at_their_own_stops(
        fresh_store: memory_es.MemoryStore, stop: str, since: str) -> None:
    """``林秀英不在裁缝铺工作了。秀芳还在铺子里。``: Chinese writes no space after a full stop
    or a semicolon, so each sentence is its own clause (read as one, the ending was lost
    inside it); a time word with 起 (from then on) before the verb is read past as a time
    word is."""
    shop = "林秀英在四季青服装市场旁边的一家裁缝铺工作"
    dance = "林秀英每天傍晚在小区广场跳广场舞"
    said = f"林秀英{since}不在裁缝铺工作了{stop}秀芳还在铺子里。"
    assert [c.text for c in interpret(said).clauses] == [f"林秀英{since}不在裁缝铺工作了",
                                                         "秀芳还在铺子里"]
    after = texts_after(fresh_store, [f"{shop}。", f"{dance}。"], "remember", said)
    assert shop not in after and dance in after


@_SLOW
@given(st.sampled_from(["附近", "对面", "旁边"]))
def test_a_chinese_place_near_another_is_not_the_other(
        fresh_store: memory_es.MemoryStore, where: str) -> None:
    """``调到浙江电视台纪录片部当编导`` moves her within the station: it replaces her post at
    the station, not a class she teaches at a school near it (在电视台附近的培训班)."""
    anchor = "周晓梅在浙江电视台当新闻主播"
    school = f"周晓梅周末在浙江电视台{where}的一家少儿口才培训班教小朋友朗诵"
    after = texts_after(fresh_store, [f"{anchor}。", f"{school}。"], "remember",
                        "今年三月起\uff0c周晓梅调到浙江电视台纪录片部当编导。")
    assert school in after and anchor not in after


@_SLOW
@given(st.sampled_from(["Friederike von Aschenbach", "Jürgen von Bülow", "Karin zu Solms",
                        "Anke van der Meer"]),
       st.sampled_from(["", "Seit dem Frühjahr "]))
def test_a_german_ending_keeps_a_surname_particle_in_the_name(
        fresh_store: memory_es.MemoryStore, name: str, lead: str) -> None:
    """``Friederike von Aschenbach arbeitet nicht mehr bei …``: the lower-case ``von`` is
    her name's, not the verb; read as the verb, the rest of the name and the verb were the
    ended thing, and every fact of hers that named her ended with it."""
    kept = {f"{name} hat ein Jahresabo für die Rheinfähre",
            f"{name} fährt ein Lastenrad von Urban Arrow",
            f"{name} besucht donnerstags einen Weinkurs an der Volkshochschule Bonn"}
    job = f"{name} arbeitet als Orgelbauerin bei Orgelbau Wendeler in Bonn"
    said = (f"{lead}arbeitet {name} nicht mehr bei Orgelbau Wendeler." if lead
            else f"{name} arbeitet nicht mehr bei Orgelbau Wendeler.")
    after = texts_after(fresh_store, [f"{t}." for t in (job, *kept)], "remember", said)
    assert kept <= after
    assert job not in after


@given(st.sampled_from(["Friederike von Aschenbach", "Anke van der Meer"]))
def test_a_german_statement_keeps_a_surname_particle_in_its_subject(name: str) -> None:
    [clause] = interpret(f"{name} besucht donnerstags einen Weinkurs an der "
                         f"Volkshochschule Bonn.").clauses
    assert clause.mention == name


@given(st.sampled_from(["Lena Brückner", "Anke van der Meer"]),
       st.sampled_from(["Nach einem Streit mit dem Meister ist",
                        "Nach einem langen Streit mit dem Meister ist",
                        "Wegen der Fahrzeit nach Freiburg ist",
                        "Im letzten Jahr ist"]))
def test_a_german_vorfeld_of_two_phrases_ends_at_its_auxiliary(name: str, lead: str) -> None:
    """``Nach einem Streit mit dem Meister ist Lena Brückner … gewechselt``: six words
    before the auxiliary, the subject after it; a lower-case word after an article is the
    noun's adjective (``einem langen Streit``), not the verb."""
    [clause] = interpret(f"{lead} {name} zur Schreinerei Vogt gewechselt.").clauses
    assert clause.mention == name


# (what ended, what is said of it, what stays)
GERMAN_ENDINGS = [
    ("{p} ist Notenwart beim Sinfonieorchester Wuppertal",
     "Nach der letzten Spielzeit hat {p} den Job als Notenwart an den Nagel gehängt",
     "{p} fährt mit der Schwebebahn zur Arbeit"),
    ("{p} spendet alle drei Monate Blut beim DRK in Barmen",
     "Weil er jetzt Blutverdünner nimmt, darf {p} kein Blut mehr spenden",
     "{p} lässt seine Steuererklärung von einem Steuerberater machen"),
    ("{p} arbeitet als Straßenbahnfahrer bei den Verkehrsbetrieben in Hannover",
     "Seit März fährt {p} keine Straßenbahn mehr",
     "{p} ist Mitglied im Imkerverein Lüneburg"),
    ("{p} hält sechs Hühner in seinem Garten",
     "{p} hat die Hühnerhaltung aufgegeben",
     "{p} fährt einen roten VW Caddy"),
    ("{p} arbeitet als Gerichtsdolmetscherin am Landgericht Bielefeld",
     "Seit sie im Herbst in Rente gegangen ist, dolmetscht {p} nicht mehr am Landgericht "
     "Bielefeld",
     "{p} fliegt Segelflugzeuge in Vennebeck"),
    ("{p} arbeitet als Dolmetscherin für Polnisch am Landgericht Kassel",
     "Weil sie eine feste Stelle angenommen hat, dolmetscht {p} seit dem Sommer nicht mehr "
     "am Landgericht Kassel",
     "{p} trainiert Karate im Budo-Club Kassel"),
]


@_SLOW
@given(st.sampled_from(["Jörg Wendelmann", "Anke van der Meer", "Emre Öztürk"]),
       st.sampled_from(GERMAN_ENDINGS))
def test_a_german_ending_in_other_words_ends_that_thing_only(
        fresh_store: memory_es.MemoryStore, name: str, case: tuple[str, str, str]) -> None:
    """A time phrase of four words before the verb, a modal's infinitive after ``mehr``,
    the idiom ``an den Nagel hängen`` (give up), and a thing named alone that a compound
    named before (``Straßenbahn`` / ``Straßenbahnfahrer``, ``Hühnerhaltung`` /
    ``Hühner``): each ends the one fact, and another fact of the person stays, also one
    whose name ends with the same town (``Landgericht Kassel``, ``Budo-Club Kassel``)."""
    ended, said, kept = (t.format(p=name) for t in case)
    after = texts_after(fresh_store, [f"{ended}.", f"{kept}."], "remember", f"{said}.")
    assert ended not in after
    assert kept in after


@given(st.sampled_from(["去年底", "今年初", "上半年"]))
def test_a_chinese_time_phrase_before_the_name_is_no_part_of_it(when: str) -> None:
    [clause] = interpret(f"{when}龚晓梅搬到了上海。").clauses
    assert clause.entity == "person:gong-xiaomei"


def test_a_welsh_patronymic_particle_is_part_of_the_name() -> None:
    """``Bronwen ap Rhys``: ``ap`` (son or daughter of) is a name's particle, as ``van`` is."""
    said = "At the vestry meeting Bronwen ap Rhys stepped down as churchwarden."
    [clause] = interpret(said).clauses
    assert clause.entity == "person:bronwen-ap-rhys"


@_SLOW
@given(st.sampled_from(["宋建国", "司马建国"]),
       st.sampled_from(["从上个月起\uff0c", "去年秋天", ""]))
def test_a_chinese_given_name_the_dictionary_knows_as_a_place_is_a_name(
        fresh_store: memory_es.MemoryStore, name: str, when: str) -> None:
    """``宋建国``: jieba tags 建国 a place word, which made no given name, so a time phrase
    before the name stayed part of the subject and nothing ended."""
    kept = f"{name}每天早上在人民公园打太极拳"
    job = f"{name}在天府新区的一个工地上开塔吊"
    after = texts_after(fresh_store, [f"{t}。" for t in (job, kept)], "remember",
                        f"{when}{name}已经不开塔吊了。")
    assert job not in after
    assert kept in after


@given(st.sampled_from(["从这个月起", "从三月开始", "从上个月起"]))
def test_a_chinese_time_from_which_on_after_the_name_is_no_part_of_it(when: str) -> None:
    """``陈国华从这个月起不再…``: a 从…起 phrase between the name and the verb says when, as
    it does before the name."""
    [clause] = interpret(f"陈国华{when}不再喝咖啡了。").clauses
    assert clause.entity == "person:chen-guohua"


@_SLOW
@given(st.sampled_from(["", "从这个月起"]))
def test_a_chinese_place_gone_to_for_an_act_ends_that_act_there_only(
        fresh_store: memory_es.MemoryStore, when: str) -> None:
    """``不再去公园跑步``: the going (去) is no word of ``在公园跑步``; the running in the park
    ends, the tai chi in the same park and the library job stay, as they do when going to
    the library to read ends."""
    run, taichi, job = "王芳每天早上在公园跑步", "王芳每周六在公园打太极拳", "王芳在图书馆工作"
    setup = [f"{t}。" for t in (run, taichi, job)]
    after = texts_after(fresh_store, setup, "remember", f"王芳{when}不再去公园跑步了。")
    assert run not in after
    assert {taichi, job} <= after
    after = texts_after(fresh_store, setup, "remember", "王芳不再去图书馆看书了。")
    assert {run, taichi, job} <= after


@given(st.sampled_from(["seiner Schulterverletzung", "ihrer schweren Knieverletzung",
                        "unseres Umzugs"]))
def test_a_german_vorfeld_with_a_possessive_ends_at_its_verb(reason: str) -> None:
    """``Wegen seiner Schulterverletzung hat Jörg Brückner …``: a possessive determiner is
    no verb, so the finite verb after the Vorfeld is ``hat`` and the subject is Jörg."""
    [clause] = interpret(f"Wegen {reason} hat Jörg Brückner in der zweiten "
                         "Herrenmannschaft aufgehört.").clauses
    assert clause.entity == "person:jorg-bruckner"
    assert clause.ends_prior


@_SLOW
@given(st.sampled_from(["Dragana Petrović-Kühn", "Ute Kühn", "Emre Öztürk"]),
       st.sampled_from(["die Ausgabe", "den Nähkurs"]))
def test_a_german_ending_that_shares_only_its_place_with_several_facts_ends_none(
        fresh_store: memory_es.MemoryStore, name: str, thing: str) -> None:
    """``hat die Ausgabe in der Kleiderkammer aufgegeben``: two facts hold the
    Kleiderkammer and neither the thing itself, so which one ended is not said; the first
    version ended both, the sorting among them."""
    setup = [f"{name} sortiert dienstags gespendete Kleidung in der Kleiderkammer der "
             "Diakonie.",
             f"{name} gibt freitags in der Kleiderkammer der Diakonie Kleidung an "
             "Bedürftige aus.",
             f"{name} dolmetscht für die Diakonie Hannover."]
    given_name = name.split(maxsplit=1)[0]
    after = texts_after(fresh_store, setup, "remember",
                        f"{given_name} hat {thing} in der Kleiderkammer aufgegeben.")
    assert {s.rstrip(".") for s in setup} <= after
