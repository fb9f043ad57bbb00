"""A long account number is one identifier however it is grouped (SPEC §15): written
compact or in groups of four (the print form of IBANs), a purge asked in either form
erases the fact that holds it, and another person's number stays."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from memory_es.text.identifiers import (
    IDENTIFIER_LABELS,
    NUMBER_WORDS,
    find_identifiers,
    is_label,
)
from tests.unit.text_support import current_texts, fresh_tenant

_ALNUM = "ABCDEFGHJKLMNPQRSTUVWXYZ0123456789"
CODES = st.tuples(st.text(alphabet="ABCDEFGHIJKLMNOPRSTUVZ", min_size=2, max_size=2),
                  st.integers(10, 99),
                  st.text(alphabet=_ALNUM, min_size=12, max_size=26)).map(
    lambda t: f"{t[0]}{t[1]}{t[2]}")


def grouped(code: str) -> str:
    return " ".join(code[i:i + 4] for i in range(0, len(code), 4))


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(CODES, CODES, st.booleans())
def test_either_grouping_purges_the_other(fresh_store: memory_es.MemoryStore, code: str,
                                          other_code: str, stored_grouped: bool) -> None:
    if code == other_code:
        return
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    mine = f"Hana Sato's IBAN is {grouped(code) if stored_grouped else code}."
    kept = ["Hana Sato lives in Kyoto.", f"Ken Ito's IBAN is {grouped(other_code)}."]
    for text in (mine, *kept):
        ti.remember(tenant, text)
    result = ti.purge_matching(tenant, code if stored_grouped else grouped(code))
    assert result.receipts, result.pending
    assert current_texts(fresh_store, tenant) == {k.rstrip(".") for k in kept}


GROUPS = st.lists(st.text(alphabet="0123456789", min_size=3, max_size=4), min_size=2,
                  max_size=3)


@settings(max_examples=10, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(alphabet="ABCDEFGHKLMNPRSTUVWZ", min_size=2, max_size=2), GROUPS)
def test_a_labelled_code_in_groups_is_one_code(fresh_store: memory_es.MemoryStore,
                                               prefix: str, groups: list[str]) -> None:
    """A label's code written in groups (``BA 4471 2209``) is read whole in the fact and
    in a query of the groups alone, so its purge erases that fact and no other."""
    code = " ".join([prefix, *groups])
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    mine = f"Priya Nair's frequent flyer number is {code}"
    kept = {"Priya Nair lives in Leicester", "Marco Conti's frequent flyer number is "
            f"{prefix} {groups[0]} 9999"}
    for text in (mine, *kept):
        ti.remember(tenant, text + ".")
    ti.purge_matching(tenant, code)
    assert current_texts(fresh_store, tenant) == kept


def test_words_in_capitals_are_no_code() -> None:
    from memory_es.text.identifiers import query_identifiers

    assert query_identifiers("NATO UN") == ()
    assert query_identifiers("BA 4471 2209")[0].canonical == "ba44712209"


@settings(max_examples=10, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(alphabet="ABCDEFGHKLMNPRSTVWXYZ", min_size=2, max_size=2),
       st.text(alphabet="0123456789", min_size=2, max_size=2),
       st.permutations("XYZ"))
def test_a_code_with_its_digits_in_the_first_group_is_one_code(
        fresh_store: memory_es.MemoryStore, letters: str, digits: str, tail: list[str]) -> None:
    """A registration written ``LB21 XYZ`` (the digits in its first group only) is one code
    in a query too: its purge erases the fact that holds it, and not a relative's plate
    that differs in its last letters."""
    code = f"{letters}{digits} {''.join(tail)}"
    other = f"{letters}{digits} {''.join(reversed(tail))}"
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    mine = f"Leo Brandt's car registration is {code}"
    kept = {"Leo Brandt drives a blue Golf", f"Emma Brandt's car registration is {other}"}
    for text in (mine, *kept):
        ti.remember(tenant, text + ".")
    ti.purge_matching(tenant, code)
    assert current_texts(fresh_store, tenant) == kept


LETTERS_FIRST = st.tuples(
    st.text(alphabet="ABCDEFGHKLMNPRSTVWXYZ", min_size=1, max_size=3).filter(
        lambda s: s.lower() not in IDENTIFIER_LABELS | set(NUMBER_WORDS)),  # "TX 123": a label
    st.lists(st.text(alphabet="0123456789", min_size=3, max_size=8), min_size=1, max_size=3),
    st.sampled_from(["", "V", "C"]))


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(LETTERS_FIRST, st.sampled_from(["passport number", "VAT number", "licence plate",
                                       "NHS number"]), st.booleans())
@example(("A", ["1234", "5678", "91011"], ""), "passport number", False)  # digits of a card
def test_a_code_opening_with_letters_is_one_code_whatever_its_digits_look_like(
        fresh_store: memory_es.MemoryStore, parts: tuple[str, list[str], str], label: str,
        labelled_query: bool) -> None:
    """``K 881 2934`` and ``IE 6388047V``: capitals, then groups of digits (which alone
    may have the form of a phone number or of no identifier at all). The label in the
    fact and the letters in the query make it one code: its purge erases that fact, a
    relative's number one digit apart stays, and recalling it afterwards finds no text
    that holds it (and nothing at all when asked without its label, which the
    relative's fact shares)."""
    letters, groups, suffix = parts
    groups = [*groups[:-1], groups[-1] + suffix]
    code = " ".join([letters, *groups])
    last = groups[-1]
    flipped = last[:-2] + str((int(last[-2]) + 1) % 10) + last[-1:]
    other = " ".join([letters, *groups[:-1], flipped])
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    mine = f"Nils Berg's {label} is {code}"
    kept = {"Nils Berg lives in Tromsø", f"Ida Berg's {label} is {other}"}
    for text in (mine, *kept):
        ti.remember(tenant, text + ".")
    query = f"{label} {code}" if labelled_query else code
    result = ti.purge_matching(tenant, query)
    assert result.receipts, result.pending
    assert current_texts(fresh_store, tenant) == kept
    recalled = ti.recall_texts(tenant, query)
    assert not any(code in t for t in recalled)
    if not labelled_query:
        assert recalled == []


def test_a_label_of_two_words_is_no_part_of_the_code() -> None:
    from memory_es.text.identifiers import find_identifiers

    found = find_identifiers("Omar's licence plate KX19 ABD was renewed.")
    assert [(i.kind, i.canonical) for i in found] == [("code", "kx19abd")]


def test_a_purged_code_asked_with_its_label_recalls_nothing(
        fresh_store: memory_es.MemoryStore) -> None:
    """The label says what kind of identifier is asked for, so a query of a label and a
    code that nothing carries any longer is a query of identifiers alone: it recalls
    nothing, not the person's other facts."""
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for text in ("Nils Berg's passport number is K 881 2934.", "Nils Berg lives in Tromsø.",
                 "Nils Berg's phone is +47 881 29 340."):
        ti.remember(tenant, text)
    assert ti.purge_matching(tenant, "passport number K 881 2934").receipts
    assert ti.recall_texts(tenant, "passport number K 881 2934") == []


@pytest.mark.parametrize(("label", "code", "topical"), [
    ("passport number", "X4410283", "Ravi Menon flies to Delhi every spring."),
    ("policy", "HX-220931", "Ravi Menon insures his house with Aviva."),
    ("member number", "00418871", "Ravi Menon swims at the leisure centre."),
    ("employee number", "EN-40871", "Ravi Menon works at Accenture as an auditor."),
])
def test_a_label_is_no_topic_of_a_query_of_identifiers(
        fresh_store: memory_es.MemoryStore, label: str, code: str, topical: str) -> None:
    """The label of a purged code says which kind of identifier is asked for, not which
    topic: the person's fact of the label's topic (travel for a passport, insurance for a
    policy) or of a word derived from it (an employer for an employee), which shares no
    word with it, has nothing to do with the code. The query recalls nothing."""
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for text in (f"Ravi Menon's {label} is {code}.", topical):
        ti.remember(tenant, text)
    assert ti.purge_matching(tenant, f"{label} {code}").receipts
    assert ti.recall_texts(tenant, f"{label} {code}") == []
    assert topical.rstrip(".") in current_texts(fresh_store, tenant)


@pytest.mark.parametrize(("facts", "query"), [
    (["Jonas Weber spielt Tennis im TC Blau-Weiß.", "Jonas Weber wohnt in Freiburg.",
      "Jonas Webers Mitgliedsnummer ist TC-5520."], "Mitgliedsnummer TC-5520"),
    (["Jonas Weber wohnt in Freiburg.", "Jonas Webers Steuer-ID ist 12 345 678 901."],
     "Steuer-ID 12 345 678 901"),
    (["Jonas Weber wohnt in Freiburg.", "Jonas Webers Kundennummer ist 44 812 907."],
     "Kundennummer 44 812 907"),
    (["王芳住在海淀区。", "王芳养了一只猫。", "王芳的学号是2023108845。"], "学号2023108845"),
    (["李明住在广州。", "李明的手机号码是13812345678。"], "手机号码13812345678"),
])
def test_a_german_or_chinese_label_is_no_content_of_a_query_of_identifiers(
        fresh_store: memory_es.MemoryStore, facts: list[str], query: str) -> None:
    """German and Chinese compounds name their kind by their last part (``Mitglieds-
    nummer``, ``Steuer-ID``, ``学号``: student number): such a label before a code says
    what kind of identifier it is, as ``member number`` does, so once the code is purged
    the query recalls nothing, not the person's other facts."""
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for text in facts:
        ti.remember(tenant, text)
    assert ti.purge_matching(tenant, query).receipts
    assert ti.recall_texts(tenant, query) == []
    assert len(current_texts(fresh_store, tenant)) == len(facts) - 1


@pytest.mark.parametrize(("word", "label"), [
    ("mitgliedsnummer", True), ("kfz-kennzeichen", True), ("mitglieds-nr", True),
    ("steuer-id", True), ("学号", True), ("手机号码", True),
    ("nummern", False), ("hummer", False), ("rapid", False), ("summer", False), ("nr", False),
    ("王芳的学号", False), ("王芳学号", False), ("学校", False),
])
def test_a_compound_is_a_label_by_its_last_part(word: str, label: bool) -> None:
    """Only the compound's head makes it a label: a word that merely ends in a short
    head's letters, or a Chinese run that names whose label it is, is none."""
    assert is_label(word) is label


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["SW1A 1AA", "EH1 2NG", "M1 1AE", "94105"]),
       st.sampled_from(["postcode", "zip"]))
def test_a_postcode_is_labelled_and_purged_alone(
        fresh_store: memory_es.MemoryStore, code: str, label: str) -> None:
    """A postcode or zip is an address's identifier when its label says so: its purge
    erases the fact that holds it and not a neighbour's code one character apart."""
    other = code[:-1] + ("B" if code[-1] != "B" and code[-1].isalpha() else "7")
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    kept = {"Tom Price lives in London", f"Ann Price's {label} is {other}"}
    for text in (f"Tom Price's {label} is {code}", *kept):
        ti.remember(tenant, text + ".")
    assert ti.purge_matching(tenant, code).receipts
    assert current_texts(fresh_store, tenant) == kept


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["KX19 ABD", "SW1A 1AA", "LB21 XYZ", "AB 12 34 56 C"]))
def test_an_unlabelled_code_in_groups_is_erased_only_when_confirmed(
        fresh_store: memory_es.MemoryStore, code: str) -> None:
    """``Tom Price's car is KX19 ABD``: no label calls the code an identifier, so its
    purge erases nothing and lists the fact; confirmed, it erases that fact, as a single
    unlabelled token is (``purge B3``), and not a relative's code one character apart."""
    other = code[:-1] + ("Z" if code[-1] != "Z" else "Y")
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    mine = f"Tom Price's car is {code}"
    kept = {"Tom Price lives in London", f"Ann Price's car is {other}"}
    for text in (mine, *kept):
        ti.remember(tenant, text + ".")
    first = ti.purge_matching(tenant, code)
    assert not first.receipts
    assert mine in {t.text for t in first.targets}
    assert ti.purge_matching(tenant, code, confirm=True).receipts
    assert current_texts(fresh_store, tenant) == kept


@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["QQ 12 34 56 C", "AB 98 76 54 D"]), st.booleans())
def test_a_single_letter_that_ends_a_labelled_code_is_part_of_it(
        fresh_store: memory_es.MemoryStore, code: str, labelled_query: bool) -> None:
    """``national insurance number is QQ 12 34 56 C``: the last letter is the code's (a
    UK national insurance number ends with one), so a purge of the whole code erases
    that fact; a brother's code one digit apart stays."""
    from memory_es.text.identifiers import find_identifiers
    other = code[:-3] + str((int(code[-3]) + 1) % 10) + code[-2:]
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    mine = f"Eric Sol's national insurance number is {code}"
    kept = {"Eric Sol lives in Leeds", f"Eric Sol's brother's national insurance number is {other}"}
    for text in (mine, *kept):
        ti.remember(tenant, text + ".")
    result = ti.purge_matching(tenant, f"NI number {code}" if labelled_query else code)
    assert result.receipts, result.pending
    assert current_texts(fresh_store, tenant) == kept
    (found,) = find_identifiers(mine + ", and he lives in Leeds.")
    assert found.surface == code



@pytest.mark.parametrize(("kind", "code", "other"), [
    ("library", "LIB 554 201", "LIB 554 202"), ("loyalty", "LC 7731 22", "LC 7731 23"),
    ("gym", "GYM-40091", "GYM-40092")])
def test_a_card_labels_its_code(fresh_store: memory_es.MemoryStore, kind: str, code: str,
                                other: str) -> None:
    """``Jo Park's library card is LIB 554 201``: a card says that the code after it is an
    identifier, as a badge or a licence does; its purge erases that fact, and a manager's
    card one digit apart stays."""
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    kept = {"Jo Park works at Ofgem", f"Jo Park's manager's {kind} card is {other}"}
    for text in (f"Jo Park's {kind} card is {code}", *sorted(kept)):
        ti.remember(tenant, text + ".")
    assert ti.purge_matching(tenant, code).receipts
    assert current_texts(fresh_store, tenant) == kept


@given(st.sampled_from(["server", "host", "account", "order"]),
       st.sampled_from(["has", "holds", "needs"]), st.integers(2, 512))
def test_a_word_after_a_label_is_no_first_group_of_a_code(label: str, verb: str,
                                                          n: int) -> None:
    """``The web server has 16 GB of RAM``: a label, then a verb and a number, holds no
    identifier (a grouped code opens with capitals or digits, ``KX19 ABD``), so the
    fact stays the server's."""
    assert not find_identifiers(f"The {label} {verb} {n} GB of storage.")
