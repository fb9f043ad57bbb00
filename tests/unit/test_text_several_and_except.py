"""Queries that name several things or all but one, pronouns within one text, and changes
told ``from X to Y`` (SPEC §15: an operation reaches exactly what it names).

- ``forget Priya's cello and her latex allergy`` ends both; ``everything about Priya
  except her allergy`` (``apart from``, ``other than``, ``but not``) keeps the one excepted.
- A pronoun points back to whom the same text spoke of last (``Priya lives in York. She
  works at Acme`` is Priya's job, never the tenant's previous person's), and a change
  told of it replaces the slot (``Her rent is now 1200``).
- ``switched from law to medicine`` ends the fact whose object is exactly ``law``; ``moved
  from Leeds to York`` is a move.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from tests.unit.text_support import current_texts, fresh_tenant

FACTS = ["Priya Raman keeps a sourdough starter called Bubbles.",
         "Priya Raman plays the cello in a community orchestra.",
         "Priya Raman is allergic to latex.",
         "Priya Raman rows on the river every Sunday."]
THINGS = ["sourdough starter", "cello", "latex allergy", "rowing"]
OTHER = "Lena Okafor plays the cello in a community orchestra."



def _setup(store: memory_es.MemoryStore) -> tuple[TextInterface, str]:
    tenant = fresh_tenant()
    ti = TextInterface(store)
    for text in (*FACTS, OTHER):
        ti.remember(tenant, text)
    return ti, tenant


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(range(len(FACTS))), min_size=2, max_size=3, unique=True),
       st.sampled_from(["forget", "release"]))
def test_a_query_of_several_things_ends_each(fresh_store: memory_es.MemoryStore,
                                             picked: list[int], op: str) -> None:
    ti, tenant = _setup(fresh_store)
    things = [THINGS[i] for i in picked]
    query = "Priya's " + ", ".join(things[:-1]) + " and her " + things[-1]
    getattr(ti, op)(tenant, f"{op} {query}" if op == "forget" else query)
    expected = {f.rstrip(".") for i, f in enumerate(FACTS) if i not in picked}
    assert current_texts(fresh_store, tenant) == expected | {OTHER.rstrip(".")}


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(range(len(FACTS))),
       st.sampled_from(["except", "except for", "apart from", "other than", "but not"]),
       st.sampled_from(["forget", "release"]))
def test_everything_but_the_exception_ends(fresh_store: memory_es.MemoryStore, kept: int,
                                           marker: str, op: str) -> None:
    ti, tenant = _setup(fresh_store)
    getattr(ti, op)(tenant, f"{op} everything about Priya Raman {marker} her {THINGS[kept]}")
    assert current_texts(fresh_store, tenant) == {FACTS[kept].rstrip("."), OTHER.rstrip(".")}


def test_a_pronoun_points_back_within_the_text(fresh_store: memory_es.MemoryStore) -> None:
    ti = TextInterface(fresh_store)
    ti.remember("p", "Omar Haddad works at Globex.")
    ti.remember("p", "Priya Raman's rent is 1100 euros a month.")
    ti.remember("p", "Priya Raman lives in York. She works at Acme.")
    ti.remember("p", "Omar Haddad builds model ships.")
    ti.remember("p", "Spoke with Priya Raman today: her rent is now 1200 euros a month.")
    by_entity = {(f.entity, f.text) for f in fresh_store.current("p")}
    assert ("person:priya-raman", "She works at Acme") in by_entity
    assert ("person:omar-haddad", "Omar Haddad works at Globex") in by_entity
    assert ("person:priya-raman", "her rent is now 1200 euros a month") in by_entity
    assert not any("1100" in text for _e, text in by_entity)
    assert not any(f.attribute.startswith("language") for f in fresh_store.current("p"))


def test_a_change_from_x_to_y_ends_exactly_x(fresh_store: memory_es.MemoryStore) -> None:
    ti = TextInterface(fresh_store)
    for text in ("Mateo Ferreira is studying law at Leeds.", "Mateo Ferreira lives in Leeds.",
                 "Mateo Ferreira supports Leeds United.", "Mateo Ferreira reads law reports."):
        ti.remember("m", text)
    ti.remember("m", "Mateo Ferreira switched from law to medicine.")
    ti.remember("m", "Mateo Ferreira moved from Leeds to York.")
    assert current_texts(fresh_store, "m") == {
        "Mateo Ferreira supports Leeds United", "Mateo Ferreira reads law reports",
        "Mateo Ferreira switched from law to medicine", "Mateo Ferreira moved from Leeds to York"}


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["confirmed", "said", "mentioned", "reported", "noted that"]))
def test_a_self_report_is_the_persons_own_statement(
        fresh_store: memory_es.MemoryStore, verb: str) -> None:
    """``Priya confirmed her new address is 4 Mill Lane`` replaces her address; Omar's
    alike address stays."""
    tenant = fresh_tenant()
    ti = TextInterface(fresh_store)
    for text in ("Priya Raman lives at 12 Oak Road.", "Omar Haddad lives at 12 Oak Road."):
        ti.remember(tenant, text)
    ti.remember(tenant, f"Priya Raman {verb} her new address is 4 Mill Lane.")
    current = {(f.entity, f.value) for f in fresh_store.current(tenant)}
    assert current == {("person:priya-raman", "4 Mill Lane"),
                       ("person:omar-haddad", "12 Oak Road")}


def test_an_ended_object_ends_the_fact_that_holds_it(
        fresh_store: memory_es.MemoryStore) -> None:
    """A cessation (``gave up her parking permit``) and a denial with a change (``no
    longer needs a parking permit``) end the fact with that very object, never one that
    only shares a word with it; ``Met Lena and Omar`` has no subject."""
    ti = TextInterface(fresh_store)
    for text in ("Lena Okafor has a parking permit.", "Omar Haddad has a parking permit.",
                 "Lena Okafor has a parking space at work.", "Priya Raman has a parking permit."):
        ti.remember("o", text)
    ti.remember("o", "Met Lena Okafor and Omar Haddad. Lena gave up her parking permit; Omar "
                     "kept his.")
    ti.remember("o", "Priya Raman no longer needs a parking permit.")
    current = current_texts(fresh_store, "o")
    assert {"Omar Haddad has a parking permit",
            "Lena Okafor has a parking space at work"} <= current
    assert not {"Lena Okafor has a parking permit",
                "Priya Raman has a parking permit"} & current
    met = [f for f in fresh_store.current("o") if f.text == "Met Lena Okafor and Omar Haddad"]
    assert [f.entity for f in met] == [None]  # no subject: a note, not a person "Met Lena"
