"""Targeting tiers over plain facts: identifier, entity name, words (pure, no store)."""

from __future__ import annotations

import datetime as dt
import itertools

from hypothesis import given
from hypothesis import strategies as st

from memory_es.models import Fact
from memory_es.text.interpreter import interpret
from memory_es.text.matching import (
    DEFAULT_THRESHOLDS,
    Match,
    analyse_query,
    identifier_matches,
    idf_weights,
    lexical_matches,
    mention_matches,
    named_entities,
    relevance,
    view,
)

T0 = dt.datetime(2025, 6, 1, tzinfo=dt.UTC)
_ids = itertools.count(1)


def fact(text: str) -> Fact:
    """A current fact as the text interface would write it (entity and slot by rule)."""
    c = interpret(text).clauses[0]
    n = next(_ids)
    return Fact(fact_id=f"f-{n}", version_id=f"v-{n}", tenant="t", entity=c.entity,
                mention=c.mention if c.entity is None else None, attribute=c.attribute,
                value=c.value, text=c.text, valid_from=T0, valid_until=None,
                recorded_at=T0 + dt.timedelta(seconds=n), recorded_until=None,
                asserted_by="user", volatility="stable", confidence=1.0, state="active",
                classification="internal", chain_id=f"c-{n}")


def texts(matches: list[Match]) -> list[str]:
    return [m.fact.text for m in matches]


def test_the_identifier_tier_is_exact() -> None:
    """A query naming ``OPS-41`` targets ``OPS-41`` only, never ``OPS-412``."""
    views = [view(fact("Ticket OPS-41 was escalated")),
             view(fact("Ticket OPS-412 was closed"))]
    found = identifier_matches(analyse_query("close out ticket OPS-41"), views)
    assert texts(found) == ["Ticket OPS-41 was escalated"]


def test_entity_names_match_whole_names_only() -> None:
    """``Ann Lee`` names ``person:ann-lee``, not ``person:ann-leeds``."""
    views = [view(fact("Ann Lee plays the oboe")), view(fact("Ann Leeds plays the harp"))]
    assert set(named_entities(analyse_query("everything about Ann Lee"), views)) \
        == {"person:ann-lee"}


def test_lower_case_words_do_not_name_people() -> None:
    """A name must be written like a name: ``frank talk`` names nobody."""
    views = [view(fact("Frank lives in Cork"))]
    assert named_entities(analyse_query("frank talk about layoffs"), views) == {}


def test_facts_that_mention_an_entity_are_found_with_it() -> None:
    """Amnesia reaches facts that name the entity, not only the ones it is subject of."""
    views = [view(fact("Lina owns a red kayak")), view(fact("The blue canoe belongs to Lina")),
             view(fact("The blue canoe belongs to Omar"))]
    q = analyse_query("everything about Lina")
    found = mention_matches(named_entities(q, views), q, views)
    assert sorted(texts(found)) == ["Lina owns a red kayak", "The blue canoe belongs to Lina"]


def test_lexical_tier_needs_coverage_and_closeness_to_the_best() -> None:
    """Only the facts the query describes best clear the thresholds."""
    views = [view(fact("The user takes the ferry to work")),
             view(fact("The user collects old maps"))]
    found = lexical_matches(analyse_query("user ferry commute"), views, DEFAULT_THRESHOLDS,
                            ratio=DEFAULT_THRESHOLDS.ratio)
    assert texts(found) == ["The user takes the ferry to work"]


def test_nothing_is_targeted_below_the_coverage_floor() -> None:
    """A query sharing almost nothing with any fact targets nothing."""
    views = [view(fact("The user collects old maps"))]
    assert lexical_matches(analyse_query("quarterly revenue forecast"), views,
                           DEFAULT_THRESHOLDS, ratio=DEFAULT_THRESHOLDS.ratio) == []


def test_topic_domains_bridge_paraphrases() -> None:
    """``vehicle`` meets ``drives a hatchback`` through the transport domain."""
    views = [view(fact("The user drives a hatchback")), view(fact("The user knits scarves"))]
    found = lexical_matches(analyse_query("user vehicle"), views, DEFAULT_THRESHOLDS,
                            ratio=DEFAULT_THRESHOLDS.ratio)
    assert texts(found) == ["The user drives a hatchback"]


def test_recall_relevance_ignores_near_identical_identifiers() -> None:
    """In recall an identifier query earns nothing from an identifier it is a prefix of."""
    v = view(fact("Order ORD-77 shipped"))
    views = [v]
    assert relevance(analyse_query("ORD-7"), v, idf_weights(views), DEFAULT_THRESHOLDS) == 0
    assert relevance(analyse_query("ORD-77"), v, idf_weights(views), DEFAULT_THRESHOLDS) > 0


def test_people_questions_find_facts_about_people() -> None:
    """``who``/``people`` questions find person facts even without shared words."""
    v = view(fact("Pia organises the book club"))
    assert relevance(analyse_query("Which people do we know?"), v, idf_weights([v]),
                     DEFAULT_THRESHOLDS) > 0


LABEL_WORDS = ("sprint", "budget", "quarterly", "billing", "release", "design", "parking")
HEADS = ("goal", "deadline", "mascot", "contact", "plan")


@given(st.lists(st.sampled_from(LABEL_WORDS), min_size=1, max_size=3, unique=True),
       st.sampled_from(HEADS), st.sampled_from(HEADS))
def test_a_label_is_found_by_its_head_phrases(modifiers: list[str], head: str,
                                              other_head: str) -> None:
    """A ``label: value`` line with no identifier is about a thing its common nouns name,
    not a name: every phrase that ends at its head noun (``budget owner`` of ``Quarterly
    budget owner``) finds it by its words, and a label with another head is not found."""
    label = " ".join([*modifiers, head]).capitalize()
    views = [view(fact(f"{label}: the events team."))]
    if other_head != head:
        views.append(view(fact(f"{label.rsplit(' ', 1)[0]} {other_head}: Dana Berg.")))
    for i in range(len(modifiers)):
        phrase = " ".join([*modifiers[i:], head])
        found = lexical_matches(analyse_query(phrase), views, DEFAULT_THRESHOLDS,
                                ratio=DEFAULT_THRESHOLDS.ratio)
        assert [m.fact.text for m in found] == [views[0].fact.text], phrase
