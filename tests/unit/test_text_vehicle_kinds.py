"""A kind of vehicle names the one fact whose verb is that kind's, and a kind of animal or
dance the one fact that names a member of it (SPEC §15).

``forget Siobhan's car`` when she ``drives a green Škoda Octavia estate``: no word of the
query is in the fact, and ``car`` names no topic as a whole, so the forget found nothing
and said so. One drives a car and rides a bike (``data/vehicle_kinds.txt``): the one fact
of the person that drives something is her car; a fact that names a vehicle of another
kind (``drives buses for Stagecoach``) or says only how she goes (``drives to work``) is
not, and a kind whose verb no fact uses selects nothing; a make and model one drives is
a car (``Siobhan's van`` is not her Škoda). Likewise ``Annelies's reptiles`` are her
tortoises (``data/kinds.txt``).
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from tests.unit.text_support import texts_after

_SLOW = settings(max_examples=8, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])
PEOPLE = st.sampled_from(["Siobhan O'Malley", "Jean-Luc Fontaine", "Mei Tanaka"])
KEPT = ["{p} drives to work on Mondays", "{p} works as a radiographer at Wexford General Hospital"]


@_SLOW
@given(PEOPLE, st.sampled_from([
    ("{p} drives a green Škoda Octavia estate", "car"),
    ("{p} rides a 1974 Moto Guzzi motorcycle", "motorbike"),
    ("{p} rides a Brompton", "bicycle"),
    ("{p} drives a white Ford Transit van", "van")]), st.sampled_from(["forget", "release"]))
def test_a_kind_of_vehicle_names_the_fact_of_its_verb(
        fresh_store: memory_es.MemoryStore, person: str, case: tuple[str, str],
        op: str) -> None:
    held, kind = case
    fact, kept = held.format(p=person), {k.format(p=person) for k in KEPT}
    after = texts_after(fresh_store, [f"{t}." for t in (fact, *kept)], op, f"{person}'s {kind}")
    assert fact not in after
    assert kept <= after


@_SLOW
@given(PEOPLE, st.sampled_from(["bike", "horse", "van", "tractor"]))
def test_a_kind_no_fact_uses_selects_nothing(
        fresh_store: memory_es.MemoryStore, person: str, kind: str) -> None:
    facts = {f"{person} drives a green Škoda Octavia estate", *(k.format(p=person) for k in KEPT)}
    after = texts_after(fresh_store, [f"{t}." for t in facts], "forget", f"{person}'s {kind}")
    assert after == facts


@_SLOW
@given(PEOPLE)
def test_a_fact_naming_another_kind_is_not_the_vehicle_asked_for(
        fresh_store: memory_es.MemoryStore, person: str) -> None:
    facts = {f"{person} drives buses for Stagecoach", f"{person} rides a Brompton"}
    after = texts_after(fresh_store, [f"{t}." for t in facts], "forget", f"{person}'s car")
    assert after == facts
    after = texts_after(fresh_store, [f"{t}." for t in facts], "forget", f"{person}'s bike")
    assert after == {f"{person} drives buses for Stagecoach"}


@_SLOW
@given(PEOPLE, st.sampled_from([
    ("{p} keeps two tortoises in a run in the garden", "reptiles"),
    ("{p} keeps koi carp in a pond in the back garden", "fish"),
    ("{p} keeps racing pigeons in a loft behind the house", "birds"),
    ("{p} takes salsa classes on Wednesday evenings", "dancing")]), st.sampled_from(["forget",
                                                                                  "release"]))
def test_a_kind_names_the_one_fact_of_a_member(
        fresh_store: memory_es.MemoryStore, person: str, case: tuple[str, str],
        op: str) -> None:
    """``Annelies's reptiles`` for ``keeps two tortoises`` (``data/kinds.txt``); her dog and
    her job stay."""
    held, kind = case
    fact = held.format(p=person)
    kept = {f"{person} has a dog called Rufus", f"{person} works at the library"}
    after = texts_after(fresh_store, [f"{t}." for t in (fact, *kept)], op, f"{person}'s {kind}")
    assert after == kept


@_SLOW
@given(PEOPLE, st.sampled_from(["reptiles", "birds"]))
def test_a_kind_with_no_member_among_the_facts_selects_nothing(
        fresh_store: memory_es.MemoryStore, person: str, kind: str) -> None:
    facts = {f"{person} keeps koi carp in a pond", f"{person} has a dog called Rufus"}
    after = texts_after(fresh_store, [f"{t}." for t in facts], "forget", f"{person}'s {kind}")
    assert after == facts
