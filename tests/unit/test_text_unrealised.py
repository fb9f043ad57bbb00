"""Statements that change nothing, and changes told of a thing rather than its owner
(SPEC §15: an operation destroys only what it was asked to).

- A plan, a maybe, a condition, a question or a wish (``might move to Lyon``, ``plans to
  quit smoking``, ``would leave Nordbank if …``) ends, replaces and reverses nothing.
- ``Kwame's brother left Acme`` is the brother's ending: Kwame's job at Acme stays.
- ``was upgraded to 128 GB of RAM`` replaces ``has 64 GB of RAM``: the same measure of the
  same thing, whatever the verb.
- ``moved its headquarters to Manchester`` replaces where the headquarters are; ``moved her
  car to Leeds`` leaves what the car is.

The reference model is the case itself: the facts written before the statement, each
either kept or ended as the rule says.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from memory_es.text import lexicon as lx
from memory_es.text.interpreter import interpret
from tests.unit.text_support import current_texts, fresh_tenant

FACTS = [("lives in Leeds", "move to Lyon"), ("drives a Skoda", "sell the Skoda"),
         ("works at Nordbank", "leave Nordbank"), ("smokes a pipe", "quit smoking"),
         ("pays for Spotify", "cancel Spotify"), ("does not own a car", "buy a car next week")]
FRAMES = [*(f"{m} {{v}}" for m in sorted(lx.UNREALISED_MODALS)),
          "plans to {v}", "wants to {v}", "is thinking about whether to {v}",
          "hopes to {v}", "is going to {v}", "won't {v}", "says she will {v} if it rains"]



@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(FACTS), st.sampled_from(FRAMES))
def test_an_unrealised_statement_ends_no_fact(fresh_store: memory_es.MemoryStore,
                                              fact: tuple[str, str], frame: str) -> None:
    held, verb_phrase = fact
    tenant = fresh_tenant()
    ti = TextInterface(fresh_store)
    before = [f"Lena Okafor {held}.", "Lena Okafor rows on the river every Sunday."]
    for text in before:
        ti.remember(tenant, text)
    ti.remember(tenant, f"Lena Okafor {frame.format(v=verb_phrase)}.")
    assert {t.rstrip(".") for t in before} <= current_texts(fresh_store, tenant)


def test_the_same_statements_told_as_done_do_end_the_fact(
        fresh_store: memory_es.MemoryStore) -> None:
    """The control for the property above: without the modal the change happens."""
    ti = TextInterface(fresh_store)
    for text, done in [("Lena Okafor lives in Leeds.", "Lena Okafor moved to Lyon."),
                       ("Lena Okafor works at Nordbank.", "Lena Okafor left Nordbank."),
                       ("Lena Okafor smokes a pipe.", "Lena Okafor quit smoking.")]:
        tenant = fresh_tenant()
        ti.remember(tenant, text)
        ti.remember(tenant, done)
        assert text.rstrip(".") not in current_texts(fresh_store, tenant), done


def test_a_question_is_unrealised() -> None:
    (clause,) = interpret("Does Yuki Arai still play the cello?").clauses
    assert clause.unrealised and not clause.ends_prior and clause.op == "assert"


def test_german_and_chinese_maybes_move_no_one(fresh_store: memory_es.MemoryStore) -> None:
    ti = TextInterface(fresh_store)
    for held, maybe in [("Priya Raman wohnt in Graz.", "Priya Raman überlegt, nach Wien zu "
                                                      "ziehen."),
                        ("李明住在上海。", "李明可能明年搬到北京。"),
                        ("李明住在上海。", "李明打算搬到广州。")]:
        tenant = fresh_tenant()
        ti.remember(tenant, held)
        ti.remember(tenant, maybe)
        assert held.rstrip(".。") in current_texts(fresh_store, tenant), maybe
        (clause,) = interpret(maybe).clauses  # about the person, not a made-up name
        assert clause.unrealised and clause.entity == interpret(held).clauses[0].entity
    assert interpret("李明搬到了北京。").clauses[0].op == "supersede"


KIN = ["brother", "sister", "wife", "husband", "son", "daughter", "mother", "partner"]


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(KIN))
def test_a_possessed_persons_ending_is_theirs(fresh_store: memory_es.MemoryStore,
                                              kin: str) -> None:
    tenant = fresh_tenant()
    ti = TextInterface(fresh_store)
    ti.remember(tenant, "Kwame Asante works at Acme.")
    ti.remember(tenant, f"Kwame Asante's {kin} works at Acme.")
    ti.remember(tenant, f"Kwame Asante's {kin} left Acme last year.")
    current = current_texts(fresh_store, tenant)
    assert "Kwame Asante works at Acme" in current
    assert f"Kwame Asante's {kin} works at Acme" not in current


def test_a_new_amount_of_the_same_measure_replaces_the_old(
        fresh_store: memory_es.MemoryStore) -> None:
    ti = TextInterface(fresh_store)
    for text in ("Host db-03 has 64 GB of RAM.", "Host db-03 has 2 TB of disk.",
                 "Host db-04 has 64 GB of RAM."):
        ti.remember("m", text)
    ti.remember("m", "Host db-03 was upgraded to 128 GB of RAM.")
    current = current_texts(fresh_store, "m")
    assert "Host db-03 has 64 GB of RAM" not in current
    assert {"Host db-03 has 2 TB of disk", "Host db-04 has 64 GB of RAM"} <= current


def test_a_moved_possession_replaces_a_place_not_what_the_thing_is(
        fresh_store: memory_es.MemoryStore) -> None:
    ti = TextInterface(fresh_store)
    ti.remember("o", "Acme Corp's headquarters are in Leeds.")
    ti.remember("o", "Acme Corp moved its headquarters to Manchester.")
    ti.remember("p", "Priya's car is a Volvo.")
    ti.remember("p", "Priya moved her car to Leeds.")
    assert "Acme Corp's headquarters are in Leeds" not in current_texts(fresh_store, "o")
    assert "Priya's car is a Volvo" in current_texts(fresh_store, "p")
