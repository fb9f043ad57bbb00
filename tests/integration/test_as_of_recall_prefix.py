"""As-of recall against an independent reference: the same writes replayed into a second
store that stops at the as-of point.

Recall at ``(t, t)`` over the whole history must rank what present recall ranks in a
store that was written only up to ``t`` (same clock, same operations). The second store
shares nothing with the as-of path but the public API; fact ids differ between the two,
so hits are compared by what they say and by score, and hits tied at the cut-off score
are compared as a set."""

from __future__ import annotations

import datetime as dt
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.models import Hit
from tests.fakes import FakeClock

T = "t"
PEOPLE = ["ada", "bo", "cy"]
ATTRIBUTES = ["home.city", "employer", "pet.name"]
WORDS = ["Oslo", "Lima", "Acme", "Globex", "Rex", "Tom", "Kyiv", "Initech"]
QUERIES = ["where does ada live", "Acme", "bo pet", "employer of cy", "Oslo Lima"]

write = st.tuples(st.sampled_from(["assert", "supersede", "correct", "retract"]),
                  st.sampled_from(PEOPLE), st.sampled_from(ATTRIBUTES),
                  st.sampled_from(WORDS), st.booleans())
scripts = st.lists(write, min_size=2, max_size=12)


def apply(store: memory_es.MemoryStore, op: tuple[str, str, str, str, bool]) -> None:
    kind, who, attribute, word, _checkpoint = op
    entity = f"person:{who}"
    text = f"{who} {attribute.replace('.', ' ')} {word}"
    facts = store.current(T, entity, attribute)
    if kind == "supersede" or (kind == "assert" and facts):
        store.supersede(T, entity, attribute, word, text=text)
    elif kind == "assert":
        store.assert_fact(T, entity, attribute, word, text=text)
    elif kind == "correct" and facts:
        store.correct(facts[0].fact_id, word, text=text, tenant=T)
    elif kind == "retract" and facts:
        store.retract(T, entity, attribute)


Said = tuple[list[tuple[object, ...]], set[tuple[object, ...]]]


def said(hits: list[Hit]) -> Said:
    """(hits above the last score, in order), {hits at the last score}."""
    if not hits:
        return [], set()
    last = round(hits[-1].score, 4)
    above: list[tuple[object, ...]] = [
        (h.fact.entity, h.fact.attribute, h.fact.value, round(h.score, 4))
        for h in hits if round(h.score, 4) > last]
    at: set[tuple[object, ...]] = {(h.fact.entity, h.fact.attribute, h.fact.value)
                                   for h in hits if round(h.score, 4) == last}
    return above, at


@settings(max_examples=20, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(scripts)
@example([("correct", "ada", "home.city", "Oslo", True),  # a checkpoint before any fact
          ("assert", "ada", "home.city", "Oslo", False)])
def test_as_of_recall_ranks_what_a_store_stopped_then_ranks(
        script: list[tuple[str, str, str, str, bool]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        clock_a, clock_b = FakeClock(), FakeClock()
        whole = memory_es.open(Path(tmp) / "whole", clock=clock_a)
        prefix = memory_es.open(Path(tmp) / "prefix", clock=clock_b)
        try:
            expected: list[tuple[dt.datetime, str, Said]] = []
            for op in script:
                clock_a.advance(minutes=5)
                clock_b.advance(minutes=5)
                apply(whole, op)
                apply(prefix, op)
                if op[4]:  # a checkpoint: what the stopped store ranks now
                    clock_a.advance(minutes=1)
                    at = clock_b.advance(minutes=1)
                    for query in QUERIES:
                        expected.append((at, query, said(prefix.recall(T, query, 4))))
            clock_a.advance(days=1)
            for at, query, want in expected:
                got = said(whole.recall(T, query, 4, valid_at=at, known_at=at))
                assert got == want, (at, query)
        finally:
            whole.close()
            prefix.close()
