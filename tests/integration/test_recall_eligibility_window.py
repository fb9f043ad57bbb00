"""Recall's kept eligibility mask follows valid time without a write (issue 14 item 2).

The recall index keeps one eligibility mask per (tenant, ceiling) until the mirror
changes or ``now`` reaches the next moment a held version starts or ends. The reference
is the store's ``current`` read (the point-row store, not the recall mirror): at every
moment the facts recall may rank are exactly the current ones, also when the clock
alone crossed a version's start or end since the mask was built.
"""

from __future__ import annotations

import datetime as dt
import tempfile
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.clock import to_micros
from projections.recall import class_ceiling
from tests.fakes import FakeClock

T = "t"
PEOPLE = ["ada", "bo"]
ATTRIBUTES = ["home.city", "employer"]
VALUES = ["Oslo", "Lima", "Acme"]

write = st.tuples(st.sampled_from(["assert", "supersede"]), st.sampled_from(PEOPLE),
                  st.sampled_from(ATTRIBUTES), st.sampled_from(VALUES),
                  st.integers(-4, 4))
"""(kind, person, attribute, value, hours from now its valid time starts)."""


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(script=st.lists(write, min_size=1, max_size=8),
       steps=st.lists(st.integers(1, 150), min_size=1, max_size=6))
@example(script=[("assert", "ada", "home.city", "Oslo", 0),
                 ("supersede", "ada", "home.city", "Lima", 2)], steps=[30, 120])
def test_the_kept_mask_is_the_current_facts_at_every_moment(
        script: list[tuple[str, str, str, str, int]], steps: list[int]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        clock = FakeClock()
        store = memory_es.open(Path(tmp) / "s", clock=clock)
        try:
            start = clock.now
            for kind, who, attribute, value, hours in script:
                clock.advance(seconds=1)
                valid_from = start + dt.timedelta(hours=hours)
                if kind == "supersede":
                    store.supersede(T, f"person:{who}", attribute, value,
                                    valid_from=valid_from)
                else:
                    store.assert_fact(T, f"person:{who}", attribute, value,
                                      valid_from=valid_from)
            store.catch_up()
            index = store.runtime.recall
            for minutes in steps:
                clock.advance(minutes=minutes)
                mask = index.candidates(T, to_micros(clock.now), class_ceiling(None))
                got = {index.fact_of(int(label)) for label in np.flatnonzero(mask)}
                assert got == {f.fact_id for f in store.current(T)}, clock.now - start
        finally:
            store.close()
