"""Life events that change a fact (SPEC §15): a possessed thing changed to another value,
a possession or a relative who died, a divorce or a wedding.

- ``Priya's email changed to X`` replaces her e-mail (a change verb with ``to`` after a
  possessive subject); a thing moved to a day or a time is left to the event rules.
- ``Hanna's cat Miso died`` (on Monday) and ``Mateo's grandmother passed away`` end the
  facts that name the cat or the grandmother, never the dog's.
- ``got divorced`` / ``got married to Anna`` replace the relationship status.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from tests.unit.text_support import current_texts, fresh_tenant, said, texts_after


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["changed", "switched", "moved"]),
       st.sampled_from([("email", "p.raman@old-mail.com", "p.raman@new-mail.com"),
                        ("home address", "12 Oak Road", "4 Mill Lane")]))
def test_a_possessed_thing_changed_to_another_value(
        fresh_store: memory_es.MemoryStore, verb: str, thing: tuple[str, str, str]) -> None:
    noun, old, new = thing
    tenant = fresh_tenant()
    ti = TextInterface(fresh_store)
    ti.remember(tenant, f"Priya Raman's {noun} is {old}.")
    ti.remember(tenant, f"Omar Haddad's {noun} is {old}.")
    ti.remember(tenant, f"Priya Raman's {noun} {verb} to {new}.")
    values = {(f.entity, f.value) for f in fresh_store.current(tenant)}
    assert values == {("person:priya-raman", new), ("person:omar-haddad", old)}


@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["died", "passed away"]),
       st.sampled_from(["", " on Monday", " on 3 May", " last week", " at 14:00 on Friday"]))
def test_a_death_ends_the_facts_that_name_who_died(fresh_store: memory_es.MemoryStore,
                                                   event: str, when: str) -> None:
    """A day or a date it happened on is no name the ended fact must hold."""
    event += when
    tenant = fresh_tenant()
    ti = TextInterface(fresh_store)
    for text in ("Hanna Lindqvist has a cat called Miso.",
                 "Hanna Lindqvist has a dog called Rex.",
                 "Hanna Lindqvist's grandmother lives in Porto.",
                 "Omar Haddad has a cat called Miso."):
        ti.remember(tenant, text)
    ti.remember(tenant, f"Hanna Lindqvist's cat Miso {event}.")
    ti.remember(tenant, f"Hanna Lindqvist's grandmother {event}.")
    current = current_texts(fresh_store, tenant)
    assert not {"Hanna Lindqvist has a cat called Miso",
                "Hanna Lindqvist's grandmother lives in Porto"} & current
    assert {"Hanna Lindqvist has a dog called Rex", "Omar Haddad has a cat called Miso"} <= current


@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["Wednesday", "Friday"]), st.sampled_from(["", " on Monday"]))
def test_a_day_that_sets_a_thing_apart_is_no_time_of_the_ending(
        fresh_store: memory_es.MemoryStore, day: str, when: str) -> None:
    """Guard: with every day taken for a time, ``dropped the Wednesday class`` ended the
    Monday class too."""
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    kept = {"Luca Bruno takes a Tuesday yoga class", "Luca Bruno lives in Turin"}
    for text in (f"Luca Bruno takes a {day} pottery class", *kept):
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"Luca Bruno dropped the {day} class{when}.")
    after = current_texts(fresh_store, tenant)
    assert kept <= after
    assert f"Luca Bruno takes a {day} pottery class" not in after


def test_a_divorce_or_a_wedding_replaces_the_status(fresh_store: memory_es.MemoryStore) -> None:
    ti = TextInterface(fresh_store)
    for text in ("Lena Okafor is married to Tom.", "Tomasz Wierzbicki is single.",
                 "Omar Haddad is married to Sara."):
        ti.remember("r", text)
    ti.remember("r", "Lena Okafor got divorced.")
    ti.remember("r", "Tomasz Wierzbicki got married to Anna.")
    status = {f.entity: f.value for f in fresh_store.current("r")}
    assert status == {"person:lena-okafor": "divorced", "person:tomasz-wierzbicki":
                      "married to Anna", "person:omar-haddad": "married to Sara"}


@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["married Lee Park", "married Lee Park in June", "divorced Lee Park"]))
def test_an_engagement_is_a_status_that_a_wedding_replaces(
        fresh_store: memory_es.MemoryStore, event: str) -> None:
    """``is engaged to Lee`` is the status (not another sense of engage: ``engaged a
    lawyer``, ``engaged in research`` stay facts of their own); ``married Lee`` (the event,
    with no auxiliary) replaces it, and Lee's own fact stays."""
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    kept = {"Lee Park is engaged to Sam Ortiz", "Sam Ortiz engaged a lawyer",
            "Sam Ortiz is engaged in research"}
    for text in ("Sam Ortiz is engaged to Lee Park", *kept):
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"Sam Ortiz {event}.")
    after = current_texts(fresh_store, tenant)
    assert kept <= after
    assert "Sam Ortiz is engaged to Lee Park" not in after
    assert f"Sam Ortiz {event}" in after


def test_an_ending_in_an_adjunct_is_the_adjuncts(fresh_store: memory_es.MemoryStore) -> None:
    """``adopted a rescue greyhound after Max passed away`` is an adoption: a revision to
    it writes it (the ending belongs to the ``after`` clause, not to the new fact)."""
    ti = TextInterface(fresh_store)
    ti.remember("a", "Sofia Bianchi owns a poodle named Max.")
    ti.revise("a", "Sofia's pet",
              "Sofia Bianchi adopted a rescue greyhound after Max passed away.")
    (current,) = current_texts(fresh_store, "a")
    assert current.startswith("Sofia Bianchi adopted a rescue greyhound")


def test_an_age_turns(fresh_store: memory_es.MemoryStore) -> None:
    """``turned 35`` replaces ``is 34 years old``; a relative's or a pet's age is theirs,
    no age of the owner (``Lena's son Leo is 7``, ``Lena's cat Miso is 12 years old``),
    and turns on its own (``Lena's son Leo turned 8``, ``… cat Miso turned 13``); a
    possessed thing's number is no age (``Lena's score is 12``)."""
    ti = TextInterface(fresh_store)
    for text in ("Hanna Lindqvist is 34 years old.", "Omar Haddad is 34 years old.",
                 "Lena Okafor's son Leo is 7.", "Lena Okafor is 41.", "Lena Okafor's score is 12.",
                 "Lena Okafor's cat Miso is 12 years old."):
        ti.remember("g", text)
    ti.remember("g", "Hanna Lindqvist turned 35.")
    ti.remember("g", "Lena Okafor's son Leo turned 8.")
    ti.remember("g", "Lena Okafor's cat Miso turned 13.")
    ages = {(f.entity, f.attribute, f.value) for f in fresh_store.current("g")}
    assert ages == {("person:hanna-lindqvist", "age", "35"), ("person:omar-haddad", "age", "34"),
                    ("person:lena-okafor", "prop.son_leo.age", "8"),
                    ("person:lena-okafor", "prop.cat_miso.age", "13"),
                    ("person:lena-okafor", "age", "41"), ("person:lena-okafor", "prop.score", "12")}


@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["none", "namesake", "own facts"]))
def test_a_bare_given_name_is_the_one_known_person(fresh_store: memory_es.MemoryStore,
                                                   other: str) -> None:
    """``Kwame moved to Kumasi`` is Kwame Asante's move when he is the only Kwame the
    tenant knows; with a second Kwame, or facts held under the bare name, the name is
    nobody's but its own."""
    tenant = fresh_tenant()
    ti = TextInterface(fresh_store)
    if other == "own facts":  # told before Kwame Asante was known: a Kwame of his own
        ti.remember(tenant, "Kwame plays the trumpet.")
    ti.remember(tenant, "Kwame Asante lives in Accra.")
    if other == "namesake":
        ti.remember(tenant, "Kwame Mensah lives in Accra.")
    ti.remember(tenant, "Kwame moved to Kumasi.")
    homes = {(f.entity, f.value) for f in fresh_store.current(tenant)
             if f.attribute == "home.city"}
    if other == "none":
        assert homes == {("person:kwame-asante", "Kumasi")}
    else:
        assert ("person:kwame-asante", "Accra") in homes
        assert ("person:kwame", "Kumasi") in homes


def test_it_after_a_possessed_thing_is_that_thing(fresh_store: memory_es.MemoryStore) -> None:
    """``Tomasz renewed his passport; it now expires in June 2036``: ``it`` is his passport,
    so the new date replaces the old one (a date is one frame whatever its month); his
    other dated facts stay."""
    ti = TextInterface(fresh_store)
    for text in ("Tomasz Wierzbicki's passport expires in May 2026.",
                 "Tomasz Wierzbicki's lease expires in May 2026.",
                 "Omar Haddad's passport expires in May 2026."):
        ti.remember("i", text)
    ti.remember("i", "Tomasz Wierzbicki renewed his passport; it now expires in June 2036.")
    current = current_texts(fresh_store, "i")
    assert "Tomasz Wierzbicki's passport expires in May 2026" not in current
    assert {"Tomasz Wierzbicki's lease expires in May 2026",
            "Omar Haddad's passport expires in May 2026",
            "Tomasz Wierzbicki's passport now expires in June 2036"} <= current


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["Durham", "Leeds University", "the LSE"]),
       st.sampled_from(["Ali Khan's son", "Ali Khan"]))
def test_a_graduation_ends_the_studies_there(fresh_store: memory_es.MemoryStore,
                                             where: str, who: str) -> None:
    """``graduated from Durham`` ends ``studies at Durham`` (a verb of ending, cessation.txt),
    never the sister's studies there nor a sport."""
    held = f"{who} studies at {where}."
    kept = [f"Ali Khan's daughter studies at {where}.", f"{who} plays rugby."]
    graduated = f"{who} graduated from {where}."
    after = texts_after(fresh_store, [held, *kept], "remember", graduated)
    assert after == said([*kept, graduated])


@settings(max_examples=4, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["died", "passed away"]), st.sampled_from(["dog", "horse"]))
def test_a_named_animals_death_ends_what_names_it(fresh_store: memory_es.MemoryStore,
                                                  event: str, kind: str) -> None:
    """``Tom's dog Rex died`` ends ``walks Rex every morning`` too, a fact that names the
    animal by its name alone; another animal's facts stay."""
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    ended = [f"Tom Hale's {kind} is called Rex", "Tom Hale walks Rex every morning"]
    kept = ["Tom Hale has a cat called Tib", "Tom Hale's daughter walks Bella every evening",
            "Tom Hale lives in Derby"]
    for text in (*ended, *kept):
        ti.remember(tenant, text + ".")
    ti.remember(tenant, f"Tom Hale's {kind} Rex {event}.")
    current = current_texts(fresh_store, tenant)
    assert not set(ended) & current
    assert set(kept) <= current


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from([("I have a {kind} called Rex", "I walk Rex every morning"),
                        ("Tom Hale has a {kind} called Rex", "Tom Hale walks Rex every morning"),
                        ("Tom Hale's {kind} is called Rex", "Tom Hale feeds Rex at noon")]),
       st.sampled_from(["died last week", "passed away"]), st.sampled_from(["dog", "cat"]))
def test_an_animals_name_alone_tells_its_death(fresh_store: memory_es.MemoryStore,
                                               owned: tuple[str, str], event: str,
                                               kind: str) -> None:
    """``Rex died`` after ``I have a dog called Rex``: a lone name that is no one of its own
    is the one animal of that name, so its death ends what names it, as ``My dog Rex
    died`` would; the text is kept as said, and other animals' facts stay."""
    ended = [owned[0].format(kind=kind), owned[1]]
    kept = ["I walk Bruno every evening", "Tom Hale's daughter has a cat called Tib",
            "Tom Hale lives in Derby"]
    after = texts_after(fresh_store, [t + "." for t in (*ended, *kept)], "remember",
                        f"Rex {event}.")
    assert after == {*kept, f"Rex {event}"}


@settings(max_examples=4, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["Rex Ortiz lives in Madrid.", "Rex lives in Paris.",
                        "Ana Ruiz has a cat called Rex."]))
def test_a_name_of_someone_else_or_of_two_animals_tells_no_animals_death(
        fresh_store: memory_es.MemoryStore, other: str) -> None:
    """When the lone name is a person's (a person called so, or a given name the tenant
    knows) or two animals', ``Rex died`` is said of no animal: nothing of the dog ends."""
    setup = ["Tom Hale has a dog called Rex.", "Tom Hale walks Rex every morning.", other]
    after = texts_after(fresh_store, setup, "remember", "Rex died.")
    assert said(setup) <= after


def test_the_users_named_animals_death_ends_what_names_it(
        fresh_store: memory_es.MemoryStore) -> None:
    """``My dog Rufus died``: the user's possessive names the animal as ``Tom's dog Rex``
    does, so ``I walk Rufus every morning`` ends; another dog's walk stays."""
    current = texts_after(fresh_store, ["I have a dog called Rufus.", "I walk Rufus every morning.",
                                        "I walk Bruno every evening."], "remember",
                          "My dog Rufus died.")
    assert not {"I have a dog called Rufus", "I walk Rufus every morning"} & current
    assert "I walk Bruno every evening" in current
