"""Things named by a noun phrase (SPEC §15).

- ``The search service's owner is Team Heron`` is a fact of the search service: the
  label ``search service's owner`` names that one fact's value, not the service, so
  ``forget the search service's owner`` ends it alone, while ``everything about the
  search service`` ends every fact of the service.
- A plural of a noun that is no verb (``payments``, ``policies``), or any word after a
  determiner (``The orders service``), opens a noun phrase
  (``The payments service runs on …``), never the predicate.

The reference model is the list of facts each case writes, each kept or ended as asked.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from memory_es.text.interpreter import interpret
from tests.unit.text_support import current_texts, fresh_tenant

_SERVICE = ["The {s} service runs on Kubernetes.", "The {s} service's owner is Team Heron.",
            "The {s} service's database is Postgres 14."]
_OTHER = ["The billing service's owner is Team Falcon.", "Ivan Petrov lives in Riga."]
_SERVICES = ["search", "payments", "orders", "policies"]
# (the query, the indexes of the service's facts it ends)
_ASKS = [("the {s} service's owner", [1]), ("the {s} service's database", [2]),
         ("everything about the {s} service", [0, 1, 2])]


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(_SERVICES), st.sampled_from(_ASKS))
def test_a_things_label_names_its_fact_and_the_thing_names_all(
        fresh_store: memory_es.MemoryStore, service: str, ask: tuple[str, list[int]]) -> None:
    query, ended = ask
    facts = [f.format(s=service) for f in _SERVICE]
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for text in [*facts, *_OTHER]:
        ti.remember(tenant, text)
    ti.forget(tenant, query.format(s=service))
    assert current_texts(fresh_store, tenant) == {
        t.rstrip(".") for k, t in enumerate([*facts, *_OTHER])
        if k not in ended}


def test_a_plural_noun_opens_the_subject() -> None:
    for text, subject in [("The payments service runs on Kubernetes.", "The payments service"),
                          ("The orders desk is closed.", "The orders desk"),
                          ("Acme payments team is based in Leeds.", "Acme payments team"),
                          ("Acme policies page is out of date.", "Acme policies page")]:
        (clause,) = interpret(text).clauses
        assert clause.mention == subject, clause


def test_a_capital_letter_after_a_name_is_no_article() -> None:
    """A guard: ``Book A is …`` names book A; ``A`` is an article only as written at the
    start of a sentence or in lower case."""
    (clause,) = interpret("Book A is categorized as Mystery and Thriller.").clauses
    assert clause.mention == "Book A"
