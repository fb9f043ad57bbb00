"""SPEC §15: identifiers by form, no collateral destruction, atomic and bounded text writes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import Clause, TextInterface
from memory_es.text.identifiers import find_identifiers, matches, query_identifiers
from memory_es.text.interface import MAX_TEXT
from memory_es.text.interpreter import interpret
from memory_es.text.normalize import deobfuscate, name_keys, query_name_keys
from memory_es.text.qualifiers import valid_from_of
from tests.unit.text_support import current_texts, fresh_tenant

T = "acme"


@pytest.fixture
def text(fresh_store: memory_es.MemoryStore) -> TextInterface:
    """The text interface over an empty store."""
    return TextInterface(fresh_store)


def current(ti: TextInterface) -> list[str]:
    return sorted(f.text for f in ti.store.current(T))


@pytest.mark.parametrize("word", ["CO2", "MP3", "4K", "B12", "A1C", "SPF50", "COVID-19",
                                  "H2O", "1080p", "24x7", "Omega-3"])
def test_letters_mixed_with_digits_are_words_not_identifiers(word: str) -> None:
    """A token is an identifier by its form, never because it mixes letters and digits."""
    assert find_identifiers(f"The reading shows {word} today") == ()


@pytest.mark.parametrize(("text", "kind"), [
    ("order ABC123 shipped", "code"), ("plate KX19 ABD expired", "code"),
    ("MRN 4471-2209 on file", "number"), ("invoice INV-300 paid", "code"),
    ("key sk_live_12345 rotated", "code"), ("token tiger987!forecast", "secret"),
])
def test_labelled_and_shaped_codes_are_identifiers(text: str, kind: str) -> None:
    """A label (``order``, ``plate``) or a record-code shape makes a token an identifier."""
    assert [i.kind for i in find_identifiers(text)] == [kind]


def test_a_single_token_query_names_that_token_exactly() -> None:
    """``CO2`` alone as a query is an explicit token; in prose it is a word."""
    (q,) = query_identifiers("CO2")
    assert q.canonical == "co2"
    assert query_identifiers("the CO2 sensor") == ()


digits = st.text("0123456789", min_size=8, max_size=10).filter(lambda d: d[0] != "0")


@given(digits, st.sampled_from(["44", "49", "33", "61", "1"]))
def test_phone_forms_of_one_number_always_match(nsn: str, cc: str) -> None:
    """International, ``00`` and national-with-trunk-zero forms of a number are one number."""
    spaced = f"{nsn[:3]} {nsn[3:6]} {nsn[6:]}"
    forms = [f"+{cc} {spaced}", f"00{cc} {spaced}", f"0{spaced}"]
    found = [find_identifiers(f"call {f} now") for f in forms]
    assert all(len(f) == 1 and f[0].kind == "phone" for f in found)
    for a in found:
        for b in found:
            assert matches(a[0], b[0])


@given(digits, st.integers(0, 9))
def test_a_phone_number_one_digit_away_never_matches(nsn: str, digit: int) -> None:
    """Changing the last digit makes another number, in every form."""
    other = nsn[:-1] + str(digit)
    if other == nsn:
        return
    a = find_identifiers(f"call +44 {nsn[:4]} {nsn[4:]} now")[0]
    b = find_identifiers(f"call 0{other[:4]} {other[4:]} now")[0]
    assert not matches(a, b) and not matches(b, a)


words = st.text("abcdefghijklmnopqrstuvwxyz", min_size=2, max_size=8)


@given(words, words, words)
def test_spoken_addresses_canonicalise_to_the_full_address(first: str, last: str,
                                                           host: str) -> None:
    """``name dot surname at host dot io`` is ``name.surname@host.io``."""
    spoken = f"write to {first} dot {last} at {host} dot io"
    assert f"{first}.{last}@{host}.io" in deobfuscate(spoken).lower()


def test_transliterations_of_one_name_share_a_key() -> None:
    """Cyrillic, Greek, Chinese (with and without tones), Japanese and Devanagari names meet
    their Latin spellings under several schemes; a Latin name never meets a near one."""
    pairs = [("Дмитрий Соколов", "Dmitry Sokolov"), ("Дмитрий Соколов", "Dmitriy Sokolov"),
             ("Ελένη Νικολάου", "Eleni Nikolaou"), ("王芳", "Wang Fang"), ("王芳", "Wáng Fāng"),
             ("王芳", "wang2 fang1"), ("佐藤花子", "Sato Hanako"), ("たなか ゆうき", "Tanaka Yuki"),
             ("प्रिया शर्मा", "Priya Sharma")]
    for native, latin in pairs:
        assert name_keys(native) & query_name_keys(latin), (native, latin)
    assert not name_keys("Jan Berg") & query_name_keys("Ian Berg")


def test_purging_a_record_number_spares_a_lookalike_code(text: TextInterface) -> None:
    """Purging one record number erases that record only: another person's measurement
    code and the person's other facts survive."""
    text.remember(T, "The MRN 4471-2209 belongs to Priya Raman.")
    text.remember(T, "Priya Raman plays the cello.")
    text.remember(T, "Omar's HbA1c result was 6.1 percent.")
    result = text.purge_matching(T, "MRN 4471-2209")
    assert result.touched
    assert current(text) == ["Omar's HbA1c result was 6.1 percent", "Priya Raman plays the cello"]


def test_a_purge_without_identifier_or_entity_erases_nothing(text: TextInterface) -> None:
    """No identifier and no entity name: nothing is erased, candidates and the reason are
    returned."""
    text.remember(T, "The bird club logo is a raven.")
    result = text.purge_matching(T, "raven logo stuff")
    assert result.touched == [] and result.pending
    assert all(t.by == "candidate" for t in result.targets)
    assert current(text) == ["The bird club logo is a raven"]


def test_a_purge_spanning_several_entities_needs_confirmation(text: TextInterface) -> None:
    """An identifier written in two people's facts is erased only with ``confirm=True``."""
    text.remember(T, "Priya's backup e-mail is ops@corp.io.")
    text.remember(T, "Omar's backup e-mail is ops@corp.io.")
    pending = text.purge_matching(T, "ops@corp.io")
    assert pending.touched == [] and pending.previews and pending.pending
    assert len(current(text)) == 2
    done = text.purge_matching(T, "ops@corp.io", confirm=True)
    assert len(done.touched) == 2 and current(text) == []


@settings(max_examples=10, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["sister", "twin", "husband", "son", "ex-wife", "co-author"]),
       st.sampled_from([("date of birth", "14/03/1985"), ("backup e-mail", "home@park.net"),
                        ("phone", "+44 7700 900123")]))
def test_an_identifier_a_relative_shares_is_erased_only_when_confirmed(
        fresh_store: memory_es.MemoryStore, relative: str, kind: tuple[str, str]) -> None:
    """``Sue Park's sister's date of birth`` is kept under Sue Park's id, but it is her
    sister's: a purge of an identifier written in both women's facts spans two people, so
    it erases nothing without ``confirm=True`` and both with it; the sister's identifier
    alone is erased without it."""
    label, ident = kind
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    kept = "Sue Park lives in Kent"
    for line in (f"Sue Park's {label} is {ident}",
                 f"Sue Park's {relative}'s {label} is {ident}", kept):
        ti.remember(tenant, line + ".")
    pending = ti.purge_matching(tenant, ident)
    assert pending.touched == [] and pending.pending
    assert len(current_texts(fresh_store, tenant)) == 3
    done = ti.purge_matching(tenant, ident, confirm=True)
    assert len(done.touched) == 2 and current_texts(fresh_store, tenant) == {kept}
    ti.remember(tenant, f"Sue Park's {relative}'s {label} is {ident}.")
    alone = ti.purge_matching(tenant, ident)
    assert len(alone.touched) == 1 and current_texts(fresh_store, tenant) == {kept}


@pytest.mark.parametrize("relative", ["co-author", "ex-husband", "step-daughter"])
def test_forgetting_a_hyphenated_relative_takes_their_fact_only(
        text: TextInterface, relative: str) -> None:
    """``Omar Diaz's co-author`` is a person (a hyphenated compound is its last part's
    kind): forgetting them takes their fact kept under Omar's id, and leaves his own fact
    of the same act."""
    mine = "Omar Diaz is giving a talk at NeurIPS in December"
    for line in (mine, f"Omar Diaz's {relative} is giving a talk at NeurIPS"):
        text.remember(T, line + ".")
    text.forget(T, f"Omar Diaz's {relative}")
    assert current(text) == [mine]


def test_purging_a_person_leaves_facts_that_only_mention_them(text: TextInterface) -> None:
    """The named entity is erased; another entity's fact naming it waits for confirmation."""
    text.remember(T, "Dana Whitfield keeps bees.")
    text.remember(T, "Omar hands the pager to Dana Whitfield.")
    result = text.purge_matching(T, "everything about Dana Whitfield")
    assert result.touched and result.pending
    assert current(text) == ["Omar hands the pager to Dana Whitfield"]


@pytest.mark.parametrize("op", ["release", "revise", "forget"])
def test_a_person_and_a_thing_they_lack_changes_nothing(text: TextInterface, op: str) -> None:
    """Only the person matches: nothing of theirs changes, the result says so and lists
    the nearest candidates."""
    text.remember(T, "Lena rows on the river every Sunday.")
    text.remember(T, "Lena collects enamel pins.")
    before = current(text)
    if op == "release":
        result = text.release(T, "Lena's gym membership")
    elif op == "forget":
        result = text.forget(T, "Lena's gym membership")
    else:
        result = text.revise(T, "Lena's gym membership", "The gym is closed.")
    assert "no match" in result.note
    assert [t for t in result.targets if t.by != "candidate"] == []
    assert set(before) <= set(current(text))


def test_clauses_with_their_own_subject_are_separate_facts(text: TextInterface) -> None:
    """Revising the car keeps the bike: ", and her bike is …" is its own fact."""
    text.remember(T, "Mia's car is a Volvo, and her bike is a Brompton.")
    text.revise(T, "Mia's car", "Mia's car is a Tesla now.")
    assert current(text) == ["Mia's bike is a Brompton", "Mia's car is a Tesla now"]


def test_remember_commits_every_clause_or_none(text: TextInterface) -> None:
    """A model proposing three clauses whose third is too long commits nothing."""
    def model(t: str) -> list[Clause]:
        return [Clause(text="a", entity="user:self", attribute="pref.a", value="a"),
                Clause(text="b", entity="user:self", attribute="pref.b", value="b"),
                Clause(text="c" * (MAX_TEXT + 1), entity="user:self", attribute="pref.c",
                       value="c")]

    store = text.store
    assert isinstance(store, memory_es.MemoryStore)
    ti = TextInterface(store, interpreter=model)
    head = store.log_position()
    with pytest.raises(memory_es.InvalidInput):
        ti.remember(T, "three things")
    assert store.log_position() == head
    assert current(text) == []


def test_text_operations_are_bounded(text: TextInterface) -> None:
    """Inputs above the documented sizes are InvalidInput and write nothing."""
    with pytest.raises(memory_es.InvalidInput):
        text.remember(T, "x " * MAX_TEXT)
    with pytest.raises(memory_es.InvalidInput):
        text.release(T, "q" * 5000)
    assert current(text) == []


def test_german_basic_operations(text: TextInterface) -> None:
    """German: "X wohnt jetzt in Y" supersedes, "X hat Y gekündigt" ends Y, "Vergiss alles
    über X" forgets X."""
    text.remember(T, "Anna wohnt in Köln.")
    text.remember(T, "Anna wohnt jetzt in Leipzig.")
    text.remember(T, "Jonas hat ein Abo für das Fitnessstudio.")
    text.remember(T, "Jonas hat das Fitnessstudio gekündigt.")
    assert "Anna wohnt in Köln" not in current(text)
    assert "Jonas hat ein Abo für das Fitnessstudio" not in current(text)
    text.forget(T, "Vergiss alles über Anna.")
    assert not [t for t in current(text) if t.startswith("Anna")]


def test_chinese_basic_operations(text: TextInterface) -> None:
    """Chinese: "X现在住在Y" supersedes, "X取消了Y" ends Y, "忘记关于X的一切" forgets X."""
    text.remember(T, "王芳住在上海。")
    text.remember(T, "王芳现在住在杭州。")
    assert current(text) == ["王芳现在住在杭州"]
    text.remember(T, "李娜订阅了健身房会员。")
    text.remember(T, "李娜取消了健身房会员。")
    assert "李娜订阅了健身房会员" not in current(text)
    text.forget(T, "忘记关于王芳的一切")
    assert not [t for t in current(text) if t.startswith("王芳")]


def test_relative_time_sets_valid_from(text: TextInterface) -> None:
    """"moved to Oslo last month" is valid from about a month before now."""
    (r,) = text.remember(T, "User moved to Oslo last month.")
    (f,) = text.store.current(T)
    age = text.store.now() - f.valid_from
    assert 25 <= age.days <= 35, age
    assert r.fact_id == f.fact_id


@pytest.mark.parametrize(("said", "days"), [("two weeks ago", 14), ("3 weeks ago", 21),
                                            ("a couple of months ago", 60),
                                            ("a few years ago", 3 * 365),
                                            ("several weeks ago", 28)])
def test_a_spelled_out_time_ago_sets_valid_from(said: str, days: int) -> None:
    """``moved to Oslo two weeks ago`` is where the user lives (not a place called ``Oslo
    two weeks ago``), valid from that many days before now."""
    (clause,) = interpret(f"User moved to Oslo {said}.").clauses
    assert (clause.attribute, clause.value) == ("home.city", "Oslo")
    now = datetime(2026, 12, 5, tzinfo=UTC)
    assert valid_from_of(clause.temporal, now) == now - timedelta(days=days)


@pytest.mark.parametrize(("month", "expected"), [("May", datetime(2026, 5, 1, tzinfo=UTC)),
                                                 ("December", datetime(2025, 12, 1, tzinfo=UTC))])
def test_last_and_a_month_is_its_latest_start_before_now(month: str, expected: datetime) -> None:
    (clause,) = interpret(f"Mia joined Arup last {month}.").clauses
    assert (clause.attribute, clause.value) == ("work.employer", "Arup")
    assert valid_from_of(clause.temporal, datetime(2026, 12, 5, tzinfo=UTC)) == expected


@pytest.mark.parametrize("text", ["API key sk-yqqcxzpqkf-secret", "token rk_live-pqzxwvbnmt"])
def test_a_generated_token_joined_to_a_prefix_is_a_key_without_digits(text: str) -> None:
    """Shape, not a prefix list: a group of 10+ characters that no word has the shape of."""
    assert [i.kind for i in find_identifiers(text)] == ["code"]


@pytest.mark.parametrize("text", ["a well-established pre-registration co-ordinator",
                                  "a lengthwise-cut catchphrase-driven plan",
                                  "self-determination and counter-revolutionary ideas"])
def test_hyphenated_long_words_are_not_keys(text: str) -> None:
    assert find_identifiers(text) == ()


def test_an_acronym_is_content_even_when_its_letters_spell_a_function_word(
        text: TextInterface) -> None:
    """``MIT`` is not the German ``mit``: revising by it finds the fact that names it."""
    text.remember(T, "Bob earned a PhD from MIT in 2020.")
    text.remember(T, "Bob's favourite colour is blue.")
    r = text.revise(T, "Bob education MIT", "Bob started a postdoc at Stanford in 2021.")
    assert [t.text for t in r.targets] == ["Bob earned a PhD from MIT in 2020"]


def test_a_proper_name_the_named_entity_holds_is_content(text: TextInterface) -> None:
    """Within the named entity's facts, another name is what the fact says (the value)."""
    text.remember(T, "Eve lived in Paris during 2017.")
    text.remember(T, "Eve is allergic to peanuts.")
    r = text.revise(T, "Eve residence Paris", "Eve moved to Barcelona in 2019.")
    assert [t.text for t in r.targets] == ["Eve lived in Paris during 2017"]
    assert "Eve lived in Paris during 2017" not in current(text)


def test_a_name_mentioned_by_another_entity_is_still_not_content(text: TextInterface) -> None:
    """No entity named: a person a fact mentions is not what the query is about."""
    text.remember(T, "Anna's brother is called Tom.")
    r = text.release(T, "Tom's allergy")
    assert r.count == 0 and current(text) == ["Anna's brother is called Tom"]


def test_a_query_naming_only_a_topic_revises_the_entity_s_one_fact_in_it(
        text: TextInterface) -> None:
    # "follows that strictly" leans on "gluten-free" ("that" is a pronoun): one fact
    text.remember(T, "Liam is gluten-free and follows that strictly.")
    r = text.revise(T, "Liam diet", "Liam now eats vegan food.")
    assert [t.text for t in r.targets] == ["Liam is gluten-free and follows that strictly"]


def test_a_topic_with_two_facts_or_an_unrelated_new_text_retires_nothing(
        text: TextInterface) -> None:
    text.remember(T, "Mara likes spicy chicken.")
    text.remember(T, "Mara avoids pork.")
    r = text.revise(T, "Mara diet", "Mara now eats vegan food.")
    assert r.note != "targeted by topic"
    assert {"Mara likes spicy chicken", "Mara avoids pork"} <= set(current(text))
    text.remember(T, "Noor loves oat milk lattes.")
    r = text.revise(T, "Noor drink", "Noor moved to Lisbon.")
    assert "Noor loves oat milk lattes" in current(text)


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from([("wife", "She"), ("sister", "She"), ("husband", "He"), ("son", "He"),
                        ("wife", "He"), ("husband", "She")]))
def test_a_pronoun_after_a_relative_of_its_gender_is_the_relative(
        fresh_store: memory_es.MemoryStore, pair: tuple[str, str]) -> None:
    """``Mark Hale's wife left BP. She now works at Equinor``: she is the wife (the subject
    before, of her gender), so her job changes and his stays. ``He now works at Equinor``
    after the wife is Mark Hale himself: his job changes."""
    relative, pronoun = pair
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    his, hers = "Mark Hale works at Shell", f"Mark Hale's {relative} works at BP"
    for text in (his, hers):
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"Mark Hale's {relative} left BP. {pronoun} now works at Equinor.")
    current = current_texts(fresh_store, tenant)
    agrees = relative in ({"wife", "sister"} if pronoun == "She" else {"husband", "son"})
    assert hers not in current
    assert (his in current) == agrees


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from([("works at Google", "also works at a café on weekends", "left Google"),
                        ("lives in Paris", "also lives in Nice in the summer",
                         "no longer lives in Paris"),
                        ("works at Aviva", "also works at the Red Lion on Fridays",
                         "left Aviva")]))
def test_a_second_value_said_with_also_stands_beside_the_first(
        fresh_store: memory_es.MemoryStore, said: tuple[str, str, str]) -> None:
    """``Lena Fox also works at a café on weekends`` beside ``Lena Fox works at Google``:
    a second value of a one-valued slot, said with ``also``, is kept in a slot of its own,
    so both stay current, and ending the first leaves the second."""
    first, also, ended = said
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    both = {f"Lena Fox {first}", f"Lena Fox {also}"}
    for text in sorted(both, key=len):
        ti.remember(tenant, text + ".")
    assert current_texts(fresh_store, tenant) == both
    ti.remember(tenant, f"Lena Fox {ended}.")
    assert current_texts(fresh_store, tenant) == {f"Lena Fox {also}", f"Lena Fox {ended}"}
