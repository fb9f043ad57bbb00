"""Words the vocabulary does not list still read as what their place says (SPEC §15): a
word after an opening subject pronoun is its verb (``I narrate audiobooks``), as is an
unknown ``-s`` word after an apposition closed by a comma (``My sister, Imogen Lowe,
also narrates``); a role both the ending and the fact name is the same activity
(``given up her warden rounds`` and ``… as a volunteer warden``); a day of the week
after a given name's ``'s`` is no part of the name (``Ingrid's Saturday lifeguarding``);
and driving for someone is a job, not the one vehicle a person drives."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from memory_es.text.interpreter import interpret
from tests.unit.text_support import (
    assert_first_ended_only,
    fresh_tenant,
    store_examples,
    texts_after,
)

_SLOW = store_examples(6)


@given(st.sampled_from(["narrate audiobooks", "proof-listen recordings",
                        "upholster chairs"]))
def test_a_word_after_an_opening_subject_pronoun_is_its_verb(said: str) -> None:
    (clause,) = interpret(f"I {said} for Larkspur Audio from home.").clauses
    assert clause.attribute != "note"
    assert clause.attribute.startswith(said.split(maxsplit=1)[0].replace("-", "_"))


def test_first_person_facts_of_unknown_verbs_stand_side_by_side(
        fresh_store: memory_es.MemoryStore) -> None:
    setup = ["I narrate audiobooks for Larkspur Audio at their studio on Tuesday mornings.",
             "My sister, Imogen Lowe, also narrates audiobooks for Larkspur Audio at their "
             "studio on Tuesday mornings.",
             "I proof-listen other narrators' recordings for Larkspur Audio from home."]
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    outcomes = [r.outcome for text in setup for r in ti.remember(tenant, text)]
    assert "conflicted" not in outcomes
    assert len(fresh_store.current(tenant)) == len(setup)


ROLE = ["{p} patrols the coast path between Newgale and Solva as a volunteer warden on "
        "Saturday and Sunday mornings.",
        "{p}'s husband, Owain Bevan, also patrols the coast path between Newgale and Solva "
        "as a volunteer warden on Saturday and Sunday mornings.",
        "{p} counts nesting choughs on the cliffs between Newgale and Solva each spring.",
        "{p} serves in the café at Newgale beach on Saturday and Sunday afternoons."]


@_SLOW
@given(st.sampled_from([("Anneliese de Groot", "Anneliese"), ("Mei Tanaka", "Mei")]),
       st.sampled_from(["{g} has given up her weekend warden rounds on the coast path.",
                        "{g} has given up her warden rounds since her hip started playing up.",
                        "{g} has stopped her warden duties on the coast path, though she "
                        "still counts the choughs."]))
def test_a_role_named_in_the_ending_and_the_fact_is_the_same_activity(
        fresh_store: memory_es.MemoryStore, person: tuple[str, str], told: str) -> None:
    full, given_name = person
    setup = [t.format(p=full) for t in ROLE]
    after = texts_after(fresh_store, setup, "remember", told.format(g=given_name))
    assert_first_ended_only(setup, after)


@_SLOW
@given(st.sampled_from(["Saturday", "Sunday"]), st.sampled_from(["is over", "has ended"]))
def test_a_weekday_after_a_given_names_possessive_is_no_part_of_the_name(
        fresh_store: memory_es.MemoryStore, day: str, over: str) -> None:
    setup = [f"Ingrid Solberg works as a lifeguard at Portobello Swim Centre on {day} "
             "afternoons.",
             f"Ingrid Solberg's daughter, Astrid Solberg, also works as a lifeguard at "
             f"Portobello Swim Centre on {day} afternoons.",
             "Ingrid Solberg leads dawn swims off Portobello beach for the Selkie Dippers.",
             "Ingrid Solberg manages the bookings for the sauna on Portobello beach."]
    after = texts_after(fresh_store, setup, "remember",
                        f"Ingrid's {day} afternoon lifeguarding {over}.")
    assert_first_ended_only(setup, after)


def test_driving_for_someone_is_a_job_beside_others(
        fresh_store: memory_es.MemoryStore) -> None:
    """``drives the number 48 bus for Soar Valley Buses`` is a job: a second one
    (``drives the minibus for the day centre``) stands beside it, never in conflict, as
    the one vehicle a person drives would be."""
    setup = ["Gurpreet Sandhu drives the number 48 bus for Soar Valley Buses on weekday "
             "early shifts.",
             "Gurpreet Sandhu drives the community minibus for the Belgrave day centre on "
             "weekday afternoons."]
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    outcomes = [r.outcome for text in setup for r in ti.remember(tenant, text)]
    assert "conflicted" not in outcomes
    assert len(fresh_store.current(tenant)) == len(setup)


def test_the_vehicle_one_drives_is_still_one_slot(fresh_store: memory_es.MemoryStore) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    ti.remember(tenant, "Omar Said drives a Toyota Prius.")
    ti.remember(tenant, "Omar Said now drives a Tesla.")
    texts = {f.text for f in fresh_store.current(tenant)}
    assert not any("Prius" in t for t in texts)
    assert any("Tesla" in t for t in texts)
