"""What an ending ends is its object, not the reason or circumstance told after it
(SPEC §15): ``has left the chorus because the Monday rehearsals were too tiring
alongside her job`` ends the chorus; the rehearsals and the job are why, and another
fact that names them stays."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import memory_es
from tests.unit.text_support import assert_first_ended_only, said, store_examples, texts_after

_SLOW = store_examples(8)
PEOPLE = st.sampled_from(["Anneke van der Berg", "Rhiannon Price", "Tomás Ortega"])
CHORUS = "{p} sings alto in the Norwich Philharmonic Chorus, which rehearses on Monday evenings."
KEPT = ["{p} works as a librarian at the University of East Anglia.",
        "{p} has singing lessons with a voice teacher in Norwich every other Thursday."]


@_SLOW
@given(PEOPLE, st.sampled_from([
    "{p} has left the Norwich Philharmonic Chorus because the Monday rehearsals were too "
    "tiring alongside her job.",
    "{p} has left the Norwich Philharmonic Chorus because of her job at the University of "
    "East Anglia.",
    "{p} quit the Norwich Philharmonic Chorus after her singing lessons with a voice "
    "teacher got more demanding.",
    "{p} has left the Norwich Philharmonic Chorus due to her librarian work."]))
def test_an_ending_ends_its_object_not_its_reason(fresh_store: memory_es.MemoryStore,
                                                  person: str, told: str) -> None:
    setup = [t.format(p=person) for t in (CHORUS, *KEPT)]
    after = texts_after(fresh_store, setup, "remember", told.format(p=person))
    assert_first_ended_only(setup, after)


def test_an_adjunct_that_is_all_the_verb_has_is_its_object(
        fresh_store: memory_es.MemoryStore) -> None:
    setup = ["Rhiannon Price listens to the Rest Is History podcast.",
             "Rhiannon Price follows the Arsenal podcast on her commute."]
    after = texts_after(fresh_store, setup, "remember",
                        "Rhiannon Price stopped following the Arsenal podcast.")
    assert said(setup[:1]) <= after
    assert said(setup[1:]).isdisjoint(after)


@_SLOW
@given(st.sampled_from(["Tomás Ferreira da Silva", "Rhiannon Price"]),
       st.sampled_from([", since his partner moved to Bristol", " since his partner moved away",
                        ", since the Yellowave courts in Brighton put their fees up"]))
def test_a_reason_said_after_since_is_no_part_of_what_ended(
        fresh_store: memory_es.MemoryStore, person: str, reason: str) -> None:
    setup = [f"{person} plays in the Sunday doubles league at the Yellowave courts in "
             "Brighton.",
             f"{person} referees the junior tournaments of Brighton Beach Volleyball Club.",
             f"{person} works as a physiotherapist at a sports clinic in Brighton."]
    given_name = person.split(maxsplit=1)[0]
    after = texts_after(fresh_store, setup, "remember",
                        f"{given_name} has dropped out of the Sunday doubles league{reason}.")
    assert_first_ended_only(setup, after)
