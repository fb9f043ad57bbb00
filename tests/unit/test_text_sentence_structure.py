"""What a sentence is about (SPEC §15), which decides what a mutation of its subject
reaches and what it leaves:

* a verb made of a prefix and an irregular verb (``overslept``, ``rewrote``) is a verb, so
  its sentence is a fact of its subject; a common noun of that shape stays a noun;
* a thing that belongs to a person is that person's: everything about the person
  includes it, another owner's thing stays;
* where a firm or a place is (``is located / situated / headquartered in``) is its
  location, which a relocation replaces;
* adverbs between a subject and its verb (``The client now mostly pays ...``) are no
  part of the subject."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from memory_es.text import lexicon as lx
from tests.unit.text_support import current_texts, fresh_tenant

_SLOW = settings(max_examples=10, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])

# Written from the grammar books' tables, independently of the lexicon's own lists:
# (prefix, irregular past, the prefixed lemma; a verb of doing again, such as ``rewrote``, is
# its base's form instead: test_text_done_again)
PREFIXED_PASTS = [("over", "slept", "oversleep"), ("out", "grew", "outgrow"),
                  ("re", "paid", "repay"), ("for", "gave", "forgive"),
                  ("out", "ran", "outrun"), ("with", "held", "withhold"),
                  ("under", "took", "undertake"), ("mis", "led", "mislead"),
                  ("fore", "saw", "foresee"), ("over", "heard", "overhear")]


@pytest.mark.parametrize(("prefix", "past", "lemma"), PREFIXED_PASTS)
def test_a_prefixed_irregular_past_is_its_prefixed_verb(prefix: str, past: str,
                                                        lemma: str) -> None:
    assert lx.lemma_of(prefix + past) == lemma
    assert prefix + past in lx.VERBS_PAST


@pytest.mark.parametrize("noun", ["output", "outputs", "forecast", "outset", "outgoing"])
def test_a_noun_of_that_shape_is_no_verb(noun: str) -> None:
    assert lx.lemma_of(noun) is None


@_SLOW
@given(st.sampled_from(PREFIXED_PASTS), st.sampled_from(["Noor Khan", "Mia Chen"]))
def test_the_sentence_is_its_subjects_fact_and_leaves_with_it(
        fresh_store: memory_es.MemoryStore, verb: tuple[str, str, str], name: str) -> None:
    prefix, past, _ = verb
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    other = "Kai Berg lives in Hull"
    said = f"{name} {prefix}{past} the plan twice"
    for text in (said, f"{name} lives in Hull", other):
        ti.remember(tenant, text + ".")
    assert {f.entity for f in fresh_store.current(tenant) if f.text == said} == {
        "person:" + name.lower().replace(" ", "-")}
    ti.forget(tenant, f"everything about {name}")
    assert current_texts(fresh_store, tenant) == {other}


OWNERS = ["Astrid Holm", "Pavel Dvorak", "Lisa Brandt", "Ana Lima"]
THINGS = ["The grey Volvo", "This laptop", "The red kayak", "The allotment shed"]


@_SLOW
@given(st.permutations(OWNERS), st.permutations(THINGS))
def test_what_belongs_to_a_person_leaves_with_that_person_only(
        fresh_store: memory_es.MemoryStore, owners: list[str], things: list[str]) -> None:
    """A reference model: the set of (thing, owner) sentences; forgetting an owner
    removes exactly the sentences that name that owner after ``belongs to``."""
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    said = {f"{thing} belongs to {owner}": owner
            for thing, owner in zip(things, owners, strict=True)}
    for text in said:
        ti.remember(tenant, text + ".")
    gone = owners[0]
    ti.forget(tenant, f"everything about {gone}")
    assert current_texts(fresh_store, tenant) == {t for t, o in said.items() if o != gone}


def test_a_thing_that_belongs_to_someone_can_still_be_released_by_itself(
        fresh_store: memory_es.MemoryStore) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for text in ("The red kayak belongs to Lisa Brandt.", "The red canoe belongs to Mark Ode.",
                 "Lisa Brandt swims in the lake."):
        ti.remember(tenant, text)
    ti.release(tenant, "the red kayak")
    assert current_texts(fresh_store, tenant) == {"The red canoe belongs to Mark Ode",
                                                  "Lisa Brandt swims in the lake"}


def test_a_relatives_thing_stays_a_thing_of_its_own(fresh_store: memory_es.MemoryStore) -> None:
    """``belonged to Ana Lima's grandfather`` is his: forgetting Ana leaves it."""
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    ti.remember(tenant, "The cabin belonged to Ana Lima's grandfather.")
    ti.remember(tenant, "Ana Lima lives in Porto.")
    ti.forget(tenant, "everything about Ana Lima")
    assert current_texts(fresh_store, tenant) == {"The cabin belonged to Ana Lima's grandfather"}


PLACINGS = st.sampled_from(["is located in", "is situated in", "is headquartered in",
                            "is based in"])
PLACES = st.sampled_from(["The warehouse", "The dental clinic", "Brightline Ltd"])


@_SLOW
@given(PLACES, PLACINGS)
def test_a_relocation_replaces_where_a_place_is(fresh_store: memory_es.MemoryStore,
                                                 place: str, placing: str) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    kept = f"{place} employs forty people"
    for text in (f"{place} {placing} Rotterdam", kept):
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"{place} relocated to Antwerp.")
    assert current_texts(fresh_store, tenant) == {kept, f"{place} relocated to Antwerp"}


def test_a_place_near_something_is_no_location_to_replace(
        fresh_store: memory_es.MemoryStore) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    ti.remember(tenant, "The bakery is located in Ghent.")
    ti.remember(tenant, "The bakery is located near the station.")
    assert current_texts(fresh_store, tenant) == {"The bakery is located in Ghent",
                                                  "The bakery is located near the station"}


@pytest.mark.parametrize("adverbs", ["now", "now mostly", "now almost never", "still usually"])
@pytest.mark.parametrize("subject", ["The client", "Customer", "User"])
def test_adverbs_before_the_verb_are_no_part_of_the_subject(
        fresh_store: memory_es.MemoryStore, subject: str, adverbs: str) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    ti.remember(tenant, f"{subject} {adverbs} pays by card.")
    ti.remember(tenant, f"{subject} lives in Bremen.")
    assert len({f.entity for f in fresh_store.current(tenant)}) == 1


@pytest.mark.parametrize("abbreviated", ["ext. 214", "vol. 3", "approx. 40 minutes away",
                                         "tel. 0161 496 0000"])
def test_a_lower_case_word_before_a_number_is_no_sentence_end(abbreviated: str) -> None:
    """``+44 20 7946 0958 ext. 214``: a sentence opens with a capital, so a full stop
    after a word in lower case, with a number next, abbreviates; the extension stays with
    its phone (it was a fact of its own, ``214``, beside a phone without it)."""
    from memory_es.text.sentences import split_sentences

    text = f"Tom Price's office is {abbreviated}. Tom Price lives in London."
    assert [s for _, s in split_sentences(text)] == [
        f"Tom Price's office is {abbreviated}.", "Tom Price lives in London."]


def test_an_extension_stays_with_its_phone_through_a_purge_of_another_number(
        fresh_store: memory_es.MemoryStore) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    office = "Tom Price's office phone is +44 20 7946 0958 ext. 214"
    for text in (office, "Tom Price's mobile is +44 7700 900123"):
        ti.remember(tenant, text + ".")
    ti.purge_matching(tenant, "07700 900123")
    assert current_texts(fresh_store, tenant) == {office}
