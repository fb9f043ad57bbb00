"""Particle verbs of stopping and being let go end what they name (SPEC §15, data
``cessation.txt``): ``has come off the night shifts``, ``handed her round back to Age
Concern``, ``was discharged from occupational therapy``; a patient named with a role and
a surname's particles (``Patient Cornelis van der Berg``) is the person the name alone
names, whom a later ``he`` stands for."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import memory_es
from memory_es.text.interpreter import RuleInterpreter
from tests.unit.text_support import said, store_examples, texts_after

_SLOW = store_examples()
PEOPLE = st.sampled_from(["Priyanka Raghunathan", "Cornelis van der Berg", "Tomás Ortega"])


@_SLOW
@given(PEOPLE, st.sampled_from([
    ("{p} works night shifts on the billing helpline at the Taff Energy call centre.",
     "Because the nights were wrecking her sleep, {p} has come off the night shifts on the "
     "Taff Energy billing helpline."),
    ("{p} has occupational therapy for her right hand at Hexham General Hospital.",
     "{p} was discharged from occupational therapy at Hexham General Hospital last week."),
    ("{p} drives a delivery round for Age Concern Kendal on Tuesdays.",
     "{p} has handed back the delivery round to Age Concern Kendal.")]))
def test_a_particle_verb_of_stopping_ends_its_object_only(
        fresh_store: memory_es.MemoryStore, person: str, case: tuple[str, str]) -> None:
    ended, told = (t.format(p=person) for t in case)
    kept = [f"{person} sings in the Hexham Abbey choir.",
            f"{person} volunteers at the Taff Energy call centre's food bank."]
    after = texts_after(fresh_store, [ended, *kept], "remember", told)
    assert said(kept) <= after
    assert said([ended]).isdisjoint(after)


@given(st.sampled_from(["discharged his duties", "discharges the battery"]))
def test_an_active_discharge_ends_nothing(act: str) -> None:
    [clause] = RuleInterpreter()(f"Tom Baker {act} every week.").clauses
    assert not clause.ends_prior


def test_a_patient_named_with_particles_is_the_person(
        fresh_store: memory_es.MemoryStore) -> None:
    ulcer = ("Patient Cornelis van der Berg has the ulcer on his left leg dressed in the "
             "treatment room at Millbrook Surgery.")
    kept = "Cornelis van der Berg wears compression stockings from the Millbrook dispensary."
    after = texts_after(fresh_store, [ulcer, kept], "remember",
                        "The ulcer on Cornelis van der Berg's left leg has healed, so he has "
                        "been discharged from the treatment room at Millbrook Surgery.")
    assert said([kept]) <= after
    assert said([ulcer]).isdisjoint(after)
