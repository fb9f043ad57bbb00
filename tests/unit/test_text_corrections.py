"""Corrections and headed notes (SPEC §15).

- ``<statement>, not <Y>`` corrects: the statement is written and the entity's fact that
  holds Y on the same slot, verb or topic ends; nothing else does.
- A heading before a colon (``Note:``, ``Update:``, ``Correction:``, ``I was wrong
  earlier:``) is no part of the subject when a clause of its own follows; a ``label:
  value`` line stays one line.
- An interjection set off by a comma (``Sorry, …``) is no name.
- ``is not allergic to …`` reads the same slot as ``is allergic to …``, so the denial
  retracts it.
- Two phones of one person told apart by a modifier (``work phone``, ``home phone``) are two
  slots: the second is not a conflicting value of the first.

The reference model is the list of facts each case writes, each kept or ended as the rule
says.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from memory_es.text.interpreter import interpret
from tests.unit.text_support import current_texts, fresh_tenant

# (the wrong fact, the statement that corrects it, a same-person fact that holds the
# denied word on another topic: it must survive)
CORRECTED = [
    ("Omar Haddad lives in York.", "Omar Haddad lives in Leeds", "York",
     "Omar Haddad supports York City."),
    ("Omar Haddad's flat number is 21.", "Omar Haddad's flat number is 12", "21",
     "Omar Haddad's locker is 21."),
    ("Omar Haddad works at Globex.", "Omar Haddad works at Initech", "Globex",
     "Omar Haddad owns Globex shares."),
    ("Omar Haddad drives a Saab.", "Omar Haddad drives a Volvo", "a Saab",
     "Omar Haddad collects Saab brochures."),
]
OPENINGS = ["", "Correction: ", "Actually, ", "Sorry, ", "Update: ", "I was wrong earlier: "]



@settings(max_examples=24, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(CORRECTED), st.sampled_from(OPENINGS))
def test_a_correction_ends_the_fact_it_names_and_nothing_else(
        fresh_store: memory_es.MemoryStore, case: tuple[str, str, str, str],
        opening: str) -> None:
    wrong, right, denied, elsewhere = case
    tenant = fresh_tenant()
    ti = TextInterface(fresh_store)
    for text in (wrong, elsewhere, "Omar Haddad builds model ships."):
        ti.remember(tenant, text)
    ti.remember(tenant, f"{opening}{right}, not {denied}.")
    current = current_texts(fresh_store, tenant)
    assert wrong.rstrip(".") not in current
    assert {elsewhere.rstrip("."), "Omar Haddad builds model ships"} <= current
    assert any(right in t for t in current)


def test_a_heading_is_no_part_of_the_subject() -> None:
    for text in ("Note: Lena Okafor prefers e-mail.", "Update: Lena Okafor moved to Leeds.",
                 "Correction: Lena Okafor's flat number is 12."):
        assert interpret(text).clauses[0].entity == "person:lena-okafor", text
    for line in ("Office mascot: a tortoise called Dash.", "Lena's shift: nights until June.",
                 "Backup router IP: 172.16.0.9"):
        assert "sentence:key-value" in interpret(line).clauses[0].rules, line
    # a heading that refers back says who the clause is about
    assert interpret("The same customer in pinyin: Zhang Wei subscribed to Plan A."
                     ).clauses[0].refers_back == "customer"


@settings(max_examples=16, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["Correction: ", "Update: ", "Corrected: ", "Updated: "]),
       st.sampled_from([("Noor Shah's birthday is on 4 May.", "Noor Shah's birthday is on 14 May."),
                        ("Noor Shah lives in Slough.", "Noor Shah lives in Reading."),
                        ("Noor Shah's locker is 21.", "Noor Shah's locker is 12.")]))
def test_a_heading_that_corrects_replaces_the_slot(
        fresh_store: memory_es.MemoryStore, heading: str, case: tuple[str, str]) -> None:
    """``Correction: …`` says the line replaces what was said: the slot's old value ends
    as after ``Actually, …``; her other facts stay, and a ``Note:`` replaces nothing (two
    values of one slot with no sign of a change go to the conflict path)."""
    old, new = case
    kept = ["Noor Shah works at Deloitte.", "Noor Shah's brother works at Deloitte."]
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for text in (old, *kept):
        ti.remember(tenant, text)
    ti.remember(tenant, f"Note: {new}")
    assert old.rstrip(".") in current_texts(fresh_store, tenant)
    ti.remember(tenant, heading + new)
    after = current_texts(fresh_store, tenant)
    assert old.rstrip(".") not in after
    assert {k.rstrip(".") for k in kept} <= after
    assert any(t.endswith(new.rstrip(".")) for t in after)


def test_an_interjection_is_no_name() -> None:
    assert interpret("Sorry, Lena Okafor lives in Leeds.").clauses[0].entity == (
        "person:lena-okafor")


def test_a_negated_copula_reads_the_slot_it_denies(fresh_store: memory_es.MemoryStore) -> None:
    ti = TextInterface(fresh_store)
    ti.remember("n", "Kwame Asante is allergic to penicillin.")
    ti.remember("n", "Kwame Asante is allergic to latex.")
    ti.remember("n", "Kwame Asante is not allergic to penicillin after all.")
    current = current_texts(fresh_store, "n")
    assert "Kwame Asante is allergic to penicillin" not in current
    assert "Kwame Asante is allergic to latex" in current


@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["work", "home", "mobile", "office", "landline", "second"]))
def test_a_modified_phone_is_its_own_slot(fresh_store: memory_es.MemoryStore,
                                          kind: str) -> None:
    tenant = fresh_tenant()
    ti = TextInterface(fresh_store)
    ti.remember(tenant, "Omar Haddad's phone is 020 7946 0321.")
    ti.remember(tenant, f"Omar Haddad's {kind} phone is 020 7946 0999.")
    assert current_texts(fresh_store, tenant) == {"Omar Haddad's phone is 020 7946 0321",
                                             f"Omar Haddad's {kind} phone is 020 7946 0999"}


@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["not far from York", "not yet full time", "not least for the view",
                        "not to mention the garden"]))
def test_a_trailing_not_phrase_negates_nothing(fresh_store: memory_es.MemoryStore,
                                               tail: str) -> None:
    """``Omar lives in Leeds, not far from York`` says where, and never retracts ``Omar
    lives in Leeds`` (it did, and wrote nothing)."""
    tenant = fresh_tenant()
    ti = TextInterface(fresh_store)
    ti.remember(tenant, "Omar Haddad lives in Leeds.")
    ti.remember(tenant, f"Omar Haddad lives in Leeds, {tail}.")
    assert {f.value for f in fresh_store.current(tenant)} == {"Leeds"}


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["but not in the centre", "and not in York",
                        ", which is not far from York", ", not far from York"]))
def test_a_negator_after_the_object_negates_only_what_follows(
        fresh_store: memory_es.MemoryStore, rest: str) -> None:
    """``Omar lives in Leeds but not in the centre`` keeps ``Omar lives in Leeds`` (it was
    read as a denial that retracted it); ``does not live``, ``no longer lives``, ``eats no
    pork`` still deny."""
    tenant = fresh_tenant()
    ti = TextInterface(fresh_store)
    ti.remember(tenant, "Omar Haddad lives in Leeds.")
    ti.remember(tenant, f"Omar Haddad lives in Leeds{'' if rest[0] == ',' else ' '}{rest}.")
    assert {f.value for f in fresh_store.current(tenant)} == {"Leeds"}
    for denial in ("Omar Haddad does not live in Leeds.", "Omar Haddad eats no pork."):
        assert interpret(denial).clauses[0].negated, denial
