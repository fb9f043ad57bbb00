"""Labels, inverted names and records (SPEC §15): what each names, and nothing more.

* a label of common nouns is about its owner (``Warehouse manager: Ola Berg`` is the
  warehouse's), so a query naming the owner and a thing it has no line for changes
  nothing;
* ``Surname, Given`` after a role noun (``Student Okafor, Chidi``) is that person, apart
  from a namesake of the same surname;
* an information noun after a word of a topic (``medical history``) names the person's
  facts of that topic; a bare one (``Yuki Arai's history``) the whole person;
* a preference named with a word of another topic (``literary preference``) is the one
  preference of that topic."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from memory_es.text.matching import analyse_query
from tests.unit.text_support import current_texts, fresh_tenant

_SLOW = settings(max_examples=10, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])


def test_a_label_owner_without_the_thing_changes_nothing(
        fresh_store: memory_es.MemoryStore) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    lines = {"Warehouse manager: Ola Berg", "Warehouse address: 4 Dock Road"}
    for text in lines:
        ti.remember(tenant, text + ".")
    result = ti.release(tenant, "warehouse phone")
    assert result.touched == [] and current_texts(fresh_store, tenant) == lines
    ti.release(tenant, "warehouse manager")
    assert current_texts(fresh_store, tenant) == {"Warehouse address: 4 Dock Road"}


def test_a_label_is_found_by_its_last_words(fresh_store: memory_es.MemoryStore) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for text in ("Current project codename: TigerEye.", "Current project budget: 40k."):
        ti.remember(tenant, text)
    ti.release(tenant, "project codename")
    assert current_texts(fresh_store, tenant) == {"Current project budget: 40k"}


def test_an_inverted_name_after_a_role_is_its_person(fresh_store: memory_es.MemoryStore) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for text in ("Student Okafor, Chidi enrolled in the evening course.",
                 "Same student as Okafor, Chidi paid the fee in cash.",
                 "Student Okafor, Ngozi tutors on Mondays."):
        ti.remember(tenant, text)
    ti.purge_matching(tenant, "student Okafor, Chidi")
    assert current_texts(fresh_store, tenant) == {"Student Okafor, Ngozi tutors on Mondays"}


# (fact, its topic); the reference model: a topic's history is the facts of that topic
FACTS = [("is allergic to latex", "health"), ("takes insulin twice a day", "health"),
         ("has a savings account at Monzo", "money"), ("studied engineering at Leeds", "education"),
         ("plays the cello in a community orchestra", "music")]
QUALIFIERS = {"health": "medical", "money": "financial", "education": "education"}


@_SLOW
@given(st.sets(st.sampled_from(range(len(FACTS))), min_size=2),
       st.sampled_from(sorted(QUALIFIERS)), st.sampled_from(["history", "details", "records"]))
def test_a_topics_record_is_the_facts_of_that_topic(
        fresh_store: memory_es.MemoryStore, held: set[int], topic: str, noun: str) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    said = {f"Priya Raman {FACTS[i][0]}": FACTS[i][1] for i in held}
    for text in said:
        ti.remember(tenant, text + ".")
    ti.forget(tenant, f"Priya Raman's {QUALIFIERS[topic]} {noun}")
    assert current_texts(fresh_store, tenant) == {t for t, d in said.items() if d != topic}


def test_a_bare_record_is_the_whole_person(fresh_store: memory_es.MemoryStore) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for text in ("Yuki Arai swims before work.", "Yuki Arai keeps a bonsai juniper.",
                 "Kai Berg swims at dawn."):
        ti.remember(tenant, text)
    ti.forget(tenant, "Yuki Arai's history")
    assert current_texts(fresh_store, tenant) == {"Kai Berg swims at dawn"}


def test_a_preference_named_by_a_word_of_its_topic(fresh_store: memory_es.MemoryStore) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    ti.remember(tenant, "Yuki Arai's favourite novel is Kokoro.")
    ti.remember(tenant, "Yuki Arai's favourite food is ramen.")
    ti.revise(tenant, "Yuki Arai's literary preference", "Yuki Arai mostly reads poetry now.")
    assert current_texts(fresh_store, tenant) == {"Yuki Arai's favourite food is ramen",
                                                  "Yuki Arai mostly reads poetry now"}


def test_a_record_named_by_a_role_is_the_whole_person(fresh_store: memory_es.MemoryStore) -> None:
    """``employee record``: a role noun is no topic, the record is the person's."""
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for text in ("Ola Berg was hired in 2023.", "Ola Berg lives in Oslo.",
                 "Employee Ana Lima runs the canteen."):
        ti.remember(tenant, text)
    ti.forget(tenant, "Ola Berg's employee record")
    assert current_texts(fresh_store, tenant) == {"Employee Ana Lima runs the canteen"}


def test_only_a_topic_word_narrows_a_record() -> None:
    assert analyse_query("Ola Berg's employee record").totality
    assert analyse_query("Ola Berg's record").totality
    assert not analyse_query("Ola Berg's medical record").totality
    assert not analyse_query("Ola Berg's educational background").totality
