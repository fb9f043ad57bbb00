"""A pronoun's contractions are read as the words they stand for (SPEC §15).

``I'm``, ``I've``, ``you're``, ``she's``, ``I'd`` say what their written-out forms say:
the same subject, slot, value and polarity. A name's ``'s`` stays the possessive.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from memory_es.text.contractions import expand
from memory_es.text.interpreter import interpret
from tests.unit.text_support import current_texts, fresh_tenant, texts_after


def _reading(text: str) -> list[tuple[object, ...]]:
    return [(c.entity, c.attribute, c.value, c.negated, c.op) for c in interpret(text).clauses]


# (contracted, written out)
PAIRS = [
    ("I'm vegetarian now.", "I am vegetarian now."),
    ("I'm not allergic to peanuts after all.", "I am not allergic to peanuts after all."),
    ("I\u2019m a nurse at {place}.", "I am a nurse at {place}."),
    ("I've moved to {place}.", "I have moved to {place}."),
    ("She's moved to {place}.", "She has moved to {place}."),
    ("He's joined {place}.", "He has joined {place}."),
    ("She's married to Tom.", "She is married to Tom."),
    ("He's based in {place}.", "He is based in {place}."),
    ("It's been sold.", "It has been sold."),
    ("I'd like to live in {place}.", "I would like to live in {place}."),
    ("We're moving to {place} next year.", "We are moving to {place} next year."),
    ("They've sold the flat in {place}.", "They have sold the flat in {place}."),
]


@given(st.sampled_from(PAIRS), st.sampled_from(["Oslo", "Leeds", "Acme", "Porto"]),
       st.sampled_from(["'", "\u2019"]))
def test_a_contraction_reads_as_its_words(pair: tuple[str, str], place: str,
                                          apostrophe: str) -> None:
    short, full = (p.format(place=place) for p in pair)
    short = short.replace("'", apostrophe).replace("\u2019", apostrophe)
    assert expand(short) == full
    assert _reading(short) == _reading(full)


@given(st.sampled_from(["Omar's car is a Volvo.", "Priya's moved-in date is May.",
                        "The user's flat is in Leeds.", "Omar isn't vegan.",
                        "I don't live in Oslo.", "Rock 'n' roll is her thing."]))
def test_other_apostrophes_are_left_as_written(text: str) -> None:
    assert expand(text) == text


@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from([("I'm not allergic to peanuts after all.", "I am allergic to peanuts"),
                        ("I've quit my job at Acme.", "I work at Acme"),
                        ("I\u2019m living in Oslo now.", "I live in Leeds")]))
def test_the_users_contracted_change_ends_the_old_fact(
        fresh_store: memory_es.MemoryStore, change: tuple[str, str]) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    setup = ["I live in Leeds.", "I work at Acme.", "I am allergic to peanuts.",
             "Sam Ortiz lives in Leeds."]
    for text in setup:
        ti.remember(tenant, text)
    text, ended = change
    ti.remember(tenant, text)
    current = current_texts(fresh_store, tenant)
    assert ended not in current
    assert {s.rstrip(".") for s in setup} - {ended} <= current
    assert not any(f.entity and f.entity.startswith("topic:")
                   for f in fresh_store.current(tenant))


@given(st.sampled_from(["My", "Her", "Our"]), st.sampled_from(["mum", "brother", "flatmate"]),
       st.sampled_from([("'s moved to York.", " has moved to York."),
                        ("'s got a dog called Rex.", " has got a dog called Rex."),
                        ("'s been to Oslo twice.", " has been to Oslo twice."),
                        ("'s car is red.", "'s car is red."),
                        ("'s left hand hurts.", "'s left hand hurts.")]))
def test_a_kin_nouns_contracted_has_reads_as_a_names(owner: str, kin: str,
                                                     tail: tuple[str, str]) -> None:
    """``My mum's got a dog called Rex`` is ``My mum has got …``, as after a name: a
    participle follows (``got`` and ``been`` never modify a noun, so a later ``called`` is
    no verb of theirs); ``My mum's car is red`` keeps the possessive."""
    said, written = tail
    assert expand(f"{owner} {kin}{said}") == f"{owner} {kin}{written}"


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from([("Tom Wu's moved to York.", "Tom Wu lives in Leeds"),
                        ("Tom Wu's left Acme.", "Tom Wu works at Acme"),
                        ("Tom Wu\u2019s sold his car and bought a bike.", "Tom Wu owns a car")]))
def test_a_names_contracted_has_before_a_participle_is_a_change(
        fresh_store: memory_es.MemoryStore, change: tuple[str, str]) -> None:
    """``Tom Wu's moved to York`` is ``Tom Wu has moved``: a participle follows and no verb
    after it; ``Tom's left hand hurts`` and ``Tom's hired help arrived`` keep the
    possessive (a verb follows, so the words before it were its subject)."""
    text, ended = change
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    setup = ["Tom Wu lives in Leeds", "Tom Wu works at Acme", "Tom Wu owns a car",
             "Tom Wu's brother works at Acme"]
    for fact in setup:
        ti.remember(tenant, fact + ".")
    ti.remember(tenant, text)
    current = current_texts(fresh_store, tenant)
    assert ended not in current
    assert set(setup) - {ended} <= current
    for kept in ("Tom's left hand hurts.", "Tom's hired help arrived."):
        assert expand(kept) == kept



@given(st.sampled_from([("Mia Chen's not vegetarian anymore.",
                         "Mia Chen is not vegetarian anymore."),
                        ("Ade's now a registrar.", "Ade is now a registrar."),
                        ("Tom's no longer at {place}.", "Tom is no longer at {place}."),
                        ("Mia's now moved to {place}.", "Mia has now moved to {place}."),
                        ("Mia's never been to {place}.", "Mia has never been to {place}.")]),
       st.sampled_from(["Oslo", "Leeds", "Acme"]))
def test_a_names_s_before_a_word_no_noun_starts_with_is_a_verb(
        pair: tuple[str, str], place: str) -> None:
    """After a name, ``'s`` and ``not``, ``now`` or ``no longer`` is no possessive (no
    possessed noun phrase starts with them): ``is``, or ``has`` when a participle
    follows the adverbs."""
    short, full = (p.format(place=place) for p in pair)
    assert expand(short) == full
    assert _reading(short) == _reading(full)


def test_a_names_contracted_denial_ends_the_fact(fresh_store: memory_es.MemoryStore) -> None:
    after = texts_after(fresh_store, ["Mia Chen is vegetarian.", "Mia Chen lives in York."],
                        "remember", "Mia Chen's not vegetarian anymore.")
    assert "Mia Chen is vegetarian" not in after
    assert "Mia Chen lives in York" in after


@given(st.sampled_from(["I'm a nurse at {place}.", "She's moved to {place}, and Tom's left Acme.",
                        "I am a nurse and I\u2019m moving to {place}.",
                        "Mia Chen's not vegetarian anymore."]),
       st.sampled_from(["Oslo", "Leeds", "Porto"]))
def test_a_clause_keeps_the_words_the_user_wrote(text: str, place: str) -> None:
    """The rules read the words written out; the fact keeps what was said (``I'm a nurse
    at Oslo``, not ``I am …``): each clause's text is a part of the text as written."""
    said = text.format(place=place)
    clauses = interpret(said).clauses
    assert clauses
    assert all(c.text in said for c in clauses)
    assert [(c.entity, c.attribute, c.value) for c in clauses] == [
        (c.entity, c.attribute, c.value) for c in interpret(expand(said)).clauses]


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from([("Jade Wu used to play the drums.", "Jade Wu plays the drums"),
                        ("Jade Wu used to live in Leeds.", "Jade Wu lives in Leeds"),
                        ("Jade Wu used to smoke.", "Jade Wu smokes")]))
def test_used_to_before_a_verb_ends_what_it_names(
        fresh_store: memory_es.MemoryStore, case: tuple[str, str]) -> None:
    """``used to play the drums`` says she no longer does: it ends ``plays the drums`` and
    is kept as said; ``is used to working nights``, ``got used to work`` (accustomed) and
    ``was used to cut bread`` (a passive) end nothing."""
    said, ended = case
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    kept = ["Jade Wu works nights", "Jade Wu plays tennis", "Jade Wu uses a Mac",
            "The bread knife cuts bread"]
    for text in (ended, *kept):
        ti.remember(tenant, text + ".")
    for text in ("Jade Wu is used to working nights.", "The bread knife was used to cut bread.",
                 "Jade Wu got used to work."):
        ti.remember(tenant, text)
    ti.remember(tenant, said)
    after = current_texts(fresh_store, tenant)
    assert ended not in after
    assert set(kept) | {said.rstrip(".")} <= after


@given(st.sampled_from(["I'm used to work nights.", "I\u2019m used to work nights.",
                        "I'm getting used to work nights.", "I am used to work nights."]))
def test_used_to_after_a_contracted_be_is_no_past_habit(said: str) -> None:
    """``I'm used to work nights`` (accustomed) is no ``no longer``: a contraction of *be*
    before ``used to`` counts as *be* does."""
    assert "no longer" not in expand(said)
