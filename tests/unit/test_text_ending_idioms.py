"""An idiom of stopping ends what it stops, and only that (SPEC §15).

``called it a day at the depot``, ``handed in her notice at the hospital``, ``hung up his
sabre``, ``packed in the course``, ``called time on marking``, ``didn't renew her
permit``: read word by word none of these says that anything ended, so the job, the
club or the permit stayed current beside the sentence that ended it. They are read as
the plain words of ending they mean (``data/ending_idioms.txt``); the fact keeps the
words as said.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text.contractions import Expansion
from memory_es.text.interpreter import interpret
from tests.unit.text_support import texts_after

_SLOW = settings(max_examples=6, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])
PEOPLE = st.sampled_from(["Tomás de la Fuente", "Ana Luisa dos Santos", "Kofi Mensah-Bonsu",
                          "Mei Tanaka"])

# (the fact that ends, what is said of it, a fact of the same person that stays)
ENDINGS = [
    ("{p} drives buses for Stagecoach out of the Hastings depot",
     "{p} called it a day at the Stagecoach depot in Hastings",
     "{p} plays chess at the Hastings club"),
    ("{p} works as a radiographer at Wexford General Hospital",
     "{p} handed in her notice at Wexford General Hospital",
     "{p} keeps four hives at the Wexford apiary"),
    ("{p} fences sabre at the Kirkstall Sabre Club in Leeds",
     "{p} hung up his sabre at the Kirkstall club for good",
     "{p} is learning sign language at Leeds City College"),
    ("{p} is learning taxidermy at weekend workshops in Hexham",
     "{p}'s packed in the taxidermy workshops in Hexham",
     "{p} volunteers on the lifeboat at Hexham"),
    ("{p} holds a season fishing permit for the Tamar Lakes",
     "{p} didn't renew the Tamar Lakes fishing permit this year",
     "{p} flies survey drones for a firm in Plymouth"),
    ("{p} marks exam papers for the AQA board every summer",
     "{p} has called time on marking for the AQA board",
     "{p} sings tenor in the Exeter Cathedral choir"),
]

# the phrasal verbs of withdrawing from a role beside "step down" (data/cessation.txt)
STEPPED_BACK = [
    ("{p} drives a removals lorry for Carrington Removals on weekdays",
     "{p} has stepped back from driving the weekday lorry runs for Carrington",
     "{p} trains new packers at the Carrington depot on Saturdays"),
    ("{p} plays in the Thursday pétanque league for Abbey Park",
     "{p} stepped away from the Thursday pétanque league this spring",
     "{p} is the treasurer of the Abbey Park pétanque club"),
]


def _ends_that_thing_only(store: memory_es.MemoryStore, person: str,
                          case: tuple[str, str, str]) -> None:
    ended, said, kept = (t.format(p=person) for t in case)
    after = texts_after(store, [f"{ended}.", f"{kept}."], "remember", f"{said}.")
    assert ended not in after
    assert kept in after


@_SLOW
@given(PEOPLE, st.sampled_from(ENDINGS))
def test_an_idiom_of_stopping_ends_that_thing_only(
        fresh_store: memory_es.MemoryStore, person: str, case: tuple[str, str, str]) -> None:
    _ends_that_thing_only(fresh_store, person, case)


@_SLOW
@given(PEOPLE, st.sampled_from(STEPPED_BACK))
def test_stepping_back_from_a_thing_ends_it_only(
        fresh_store: memory_es.MemoryStore, person: str, case: tuple[str, str, str]) -> None:
    _ends_that_thing_only(fresh_store, person, case)


@given(st.sampled_from(["The books are packed in boxes.", "Tom got packed in like a sardine.",
                        "The tins were packed in straw."]))
def test_the_idiom_words_after_be_or_get_are_literal(text: str) -> None:
    assert Expansion.of(text).written == text


@given(st.sampled_from([("Tom has hung up his whistle.", "Tom has given up his whistle."),
                        ("She hung up her apron.", "She gave up her apron."),
                        ("I've jacked in the tax job.", "I have given up the tax job."),
                        ("Eli called time on the quiz night.", "Eli gave up the quiz night."),
                        ("Ana didn\u2019t renew her permit.", "Ana cancelled her permit.")]))
def test_an_idiom_is_read_in_its_tense(case: tuple[str, str]) -> None:
    said, read = case
    assert Expansion.of(said).written == read


def test_the_fact_keeps_the_idiom_as_said() -> None:
    [clause] = interpret("Mei Tanaka called it a day at the bakery.").clauses
    assert clause.text == "Mei Tanaka called it a day at the bakery"
    assert clause.ends_prior


@given(st.sampled_from(["Easter", "Christmas", "Halloween"]))
def test_a_holiday_before_the_subject_says_when(holiday: str) -> None:
    """``After Easter Siobhan O'Rourke left …``: the holiday is a time, not a name's
    first word."""
    [clause] = interpret(f"After {holiday} Mei Tanaka left the choir.").clauses
    assert clause.entity == "person:mei-tanaka"


def test_a_name_with_a_particle_in_s_keeps_it() -> None:
    """``dos``, ``das``, ``des`` end in ``s`` like a verb: inside a name they are its."""
    [clause] = interpret("Ana Luisa dos Santos flies drones for a firm in Plymouth.").clauses
    assert clause.entity == "person:ana-luisa-dos-santos"


@given(st.sampled_from(["though", "but"]), st.sampled_from(["rings", "crews", "referees"]))
def test_a_concession_with_its_own_subject_is_its_own_clause(joiner: str, verb: str) -> None:
    """``…, though Cathal still rings there``: a name, an adverb and a verb of the broad
    list open a clause of its own, so Cathal's words are no part of what ended."""
    clauses = interpret(f"Mei Tanaka left the band, {joiner} Cathal still {verb} there.").clauses
    assert [c.entity for c in clauses] == ["person:mei-tanaka", "person:cathal"]


@given(st.sampled_from(["though", "but"]), st.sampled_from(["go", "train", "meet"]))
def test_we_opens_a_clause_of_the_users_own(joiner: str, verb: str) -> None:
    """``…, though we still go to the Wednesday practice``: ``we`` is the user with
    others, a subject of its own, so the practice is no part of what ended."""
    clauses = interpret(f"I've retired him from trialling at Bala, {joiner} we still {verb} "
                        "at the Wednesday practice.").clauses
    assert [c.text for c in clauses] == ["I've retired him from trialling at Bala",
                                         f"we still {verb} at the Wednesday practice"]


def test_a_name_s_before_still_is_is() -> None:
    assert Expansion.of("Callum's still on the pager.").written == "Callum is still on the pager."


@_SLOW
@given(PEOPLE, st.sampled_from([
    ("{p} flies gliders with the Cotswold Gliding Club",
     "Since the spring {p} hasn't flown with the Cotswold Gliding Club"),
    ("{p} plays five-a-side football at the leisure centre",
     "{p} hasn't played five-a-side since she tore a knee ligament in January")]))
def test_a_negated_perfect_since_a_time_ends_the_habit(
        fresh_store: memory_es.MemoryStore, person: str, case: tuple[str, str]) -> None:
    """``hasn't flown with the club since the spring``: the habit stopped then."""
    held, said = (t.format(p=person) for t in case)
    kept = f"{person} works as a radiographer in Leeds"
    after = texts_after(fresh_store, [f"{held}.", f"{kept}."], "remember", f"{said}.")
    assert held not in after
    assert kept in after


@given(st.sampled_from(["Because of his shoulder,", "Due to his knee,", "Despite the rain,",
                        "Although he moved,"]))
def test_a_phrase_of_cause_or_concession_before_the_subject_is_no_part_of_it(lead: str) -> None:
    [clause] = interpret(f"{lead} Femi Adeyemi-Clarke has given up archery.").clauses
    assert clause.entity == "person:femi-adeyemi-clarke"


@_SLOW
@given(PEOPLE, st.sampled_from([
    ("{p} shoots recurve with the Bowmen of Ashby archery club",
     "{p}'s Archery GB membership number is AGB-2231478", "{p} has given up archery"),
    ("{p} sings bass in the church choir",
     "{p} reads the Choir Monthly magazine", "{p} has stopped singing in the choir"),
    ("{p} referees rugby for the Welsh Rugby Union in the North Wales leagues",
     "{p} farms ewes near Llanrwst",
     "{p} no longer referees rugby, though he still farms his ewes near Llanrwst")]))
def test_a_common_word_inside_another_facts_name_is_not_what_ended(
        fresh_store: memory_es.MemoryStore, person: str, case: tuple[str, str, str]) -> None:
    """``has given up archery`` ends the archery, not ``his Archery GB membership number``:
    the word said as a common noun is only inside a name of that fact. A fact that also
    says it as a common noun holds it (``referees rugby for the Welsh Rugby Union``); a
    pronoun, an adverb and a verb after ``though`` open a clause of its own."""
    ended, kept, said = (t.format(p=person) for t in case)
    after = texts_after(fresh_store, [f"{ended}.", f"{kept}."], "remember", f"{said}.")
    assert ended not in after
    assert kept in after
