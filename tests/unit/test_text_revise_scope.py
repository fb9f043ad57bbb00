"""A revision replaces one fact, never a whole person (SPEC §15, no whole-person
fallbacks), and finds the fact it replaces by what the new text says ended:

* ``X's account`` / ``X's details`` in a revise is a thing, not the person as a whole;
* ``switched from A to B`` names A back (the verbs of the change markers that take ``to``);
* a revision written without a subject is stored with the person's name written out;
* a noun in ``-ment`` meets its verb (``payments`` / ``pays``).
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from memory_es.text.matching import _derived
from tests.unit.text_support import current_texts, fresh_tenant

T = "acme"
BACKGROUND = ["Kwame Asante referees youth football.", "Kwame Asante bakes rye bread."]
INFO_WORDS = ("account", "details", "profile", "information", "record")
_tenants = iter(range(1_000_000))


@settings(max_examples=10, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(INFO_WORDS))
def test_a_revise_never_retires_the_whole_person(fresh_store: memory_es.MemoryStore,
                                                 word: str) -> None:
    tenant = f"{T}-{next(_tenants)}"
    ti = TextInterface(fresh_store)
    for text in ["Kwame Asante holds a basic account with Barclays.", *BACKGROUND]:
        ti.remember(tenant, text)
    ti.revise(tenant, f"Kwame's {word}", "Kwame Asante moved to Leeds.")
    texts = {f.text for f in fresh_store.current(tenant)}
    assert {t.rstrip(".") for t in BACKGROUND} <= texts


SWITCHES = [("switched", "Vodafone", "Three"), ("changed", "sertraline", "citalopram"),
            ("moved", "night shifts", "day shifts"), ("went", "kibble", "raw food"),
            ("upgraded", "the basic plan", "the premium plan")]


@settings(max_examples=10, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(SWITCHES))
def test_from_names_the_old_value_back(fresh_store: memory_es.MemoryStore,
                                       switch: tuple[str, str, str]) -> None:
    verb, old, new = switch
    tenant = f"{T}-{next(_tenants)}"
    ti = TextInterface(fresh_store)
    for text in [f"Kwame Asante relies on {old} these days.", *BACKGROUND]:
        ti.remember(tenant, text)
    ti.revise(tenant, "Kwame's arrangement", f"Kwame Asante {verb} from {old} to {new}.")
    texts = {f.text for f in fresh_store.current(tenant)}
    assert f"Kwame Asante relies on {old} these days" not in texts
    assert {t.rstrip(".") for t in BACKGROUND} <= texts


def test_a_subjectless_revision_is_written_with_the_name(
        fresh_store: memory_es.MemoryStore) -> None:
    ti = TextInterface(fresh_store)
    ti.remember(T, "Ines Moreau takes simvastatin every evening.")
    ti.revise(T, "Ines's medication", "Stopped simvastatin in April, started on atorvastatin.")
    texts = {f.text for f in fresh_store.current(T)}
    assert any(t.endswith("started on atorvastatin") and t.startswith("Ines") for t in texts)
    assert "Ines Moreau takes simvastatin every evening" not in texts


def test_a_ment_noun_meets_its_verb() -> None:
    assert _derived("payment", frozenset({"pay"}))
    assert _derived("treatment", frozenset({"treat"}))
    assert not _derived("comment", frozenset({"com"}))


PLACES = ("Sopot", "Tromsø", "Leeds", "Graz")


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(PLACES), st.sampled_from(PLACES),
       st.sampled_from(("", " last month", " in May")))
def test_moving_changes_the_home_the_person_has(fresh_store: memory_es.MemoryStore,
                                                old: str, new: str, when: str) -> None:
    """``moved to X`` is read without certainty (``moved to Acme`` is an employer); when
    the person already has that slot, the move changes it instead of conflicting."""
    tenant = f"{T}-{next(_tenants)}"
    ti = TextInterface(fresh_store)
    ti.remember(tenant, f"Nadia Petrova lives in {old}.")
    ti.remember(tenant, "Nadia Petrova works at Acme.")
    ti.remember(tenant, f"Nadia Petrova moved to {new}{when}.")
    current = {(f.attribute, f.value) for f in fresh_store.current(tenant)}
    assert current == {("home.city", new), ("work.employer", "Acme")}


FIRST_PERSON_OPS = [("release", "my padel"), ("forget", "forget my padel"),
                    ("revise", "my padel")]


@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(FIRST_PERSON_OPS))
def test_my_names_the_user_and_nobody_else(fresh_store: memory_es.MemoryStore,
                                           op: tuple[str, str]) -> None:
    """``my padel`` is the user's padel: another person who plays padel keeps hers."""
    tenant = f"{T}-{next(_tenants)}"
    ti = TextInterface(fresh_store)
    for text in ("I play padel on Tuesdays.", "Lena Okafor plays padel on Fridays.",
                 "I live in Oslo."):
        ti.remember(tenant, text)
    kind, query = op
    if kind == "revise":
        ti.revise(tenant, query, "I play squash now.")
    else:
        getattr(ti, kind)(tenant, query)
    texts = {f.text for f in fresh_store.current(tenant)}
    assert "I play padel on Tuesdays" not in texts
    assert {"Lena Okafor plays padel on Fridays", "I live in Oslo"} <= texts


def test_everything_about_me_is_the_user(fresh_store: memory_es.MemoryStore) -> None:
    ti = TextInterface(fresh_store)
    for text in ("I live in Oslo.", "My dentist is Dr Lind.", "Lena Okafor lives in Oslo."):
        ti.remember(T, text)
    ti.forget(T, "forget everything about me")
    assert [f.text for f in fresh_store.current(T)] == ["Lena Okafor lives in Oslo"]


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(("my former employer", "my previous job", "my old employer")),
       st.sampled_from(("release", "forget")))
def test_a_former_thing_is_never_the_current_one(fresh_store: memory_es.MemoryStore,
                                                 query: str, op: str) -> None:
    """``my former employer`` means the job the user used to have: it may end that, or
    nothing, never the current job."""
    tenant = f"{T}-{next(_tenants)}"
    ti = TextInterface(fresh_store)
    for text in ("I work at Acme.", "I used to work at Nordbank.", "I restore old radios."):
        ti.remember(tenant, text)
    getattr(ti, op)(tenant, query)
    texts = {f.text for f in fresh_store.current(tenant)}
    assert {"I work at Acme", "I restore old radios"} <= texts


def test_old_as_a_word_of_the_fact_still_matches(fresh_store: memory_es.MemoryStore) -> None:
    ti = TextInterface(fresh_store)
    for text in ("Mateo Ferreira restores old radios.", "Mateo Ferreira rows on Sundays."):
        ti.remember(T, text)
    ti.release(T, "Mateo's old radios")
    assert [f.text for f in fresh_store.current(T)] == ["Mateo Ferreira rows on Sundays"]


@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["used to live in Dublin", "no longer lives in Dublin",
                        "does not live in Dublin"]),
       st.sampled_from(["Cork", "Sligo"]))
def test_a_revision_leaves_a_denial_its_new_value_keeps_true(
        fresh_store: memory_es.MemoryStore, denial: str, new: str) -> None:
    """``revise where Pat lives`` to Cork ends ``lives in Galway``; ``used to live in
    Dublin`` stays true and stays, while a denial of the new value itself ends."""
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for text in (f"Pat Byrne {denial}", "Pat Byrne lives in Galway", "Pat Byrne works as a vet",
                 "Pat Byrne does not live in Sligo"):
        ti.remember(tenant, text + ".")
    ti.revise(tenant, "where Pat Byrne lives", f"Pat Byrne lives in {new}.")
    after = current_texts(fresh_store, tenant)
    assert {f"Pat Byrne {denial}", "Pat Byrne works as a vet",
            f"Pat Byrne lives in {new}"} <= after
    assert "Pat Byrne lives in Galway" not in after
    assert ("Pat Byrne does not live in Sligo" in after) == (new != "Sligo")
