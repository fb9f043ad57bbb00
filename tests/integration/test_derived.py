"""Derived facts are invalidated, transitively, when a premise changes or leaves (§5)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

import memory_es
from tests.fakes import FakeClock, day
from tests.receipts import fact_id_of


@dataclass
class Inference:
    premise: memory_es.Receipt
    derived: memory_es.Receipt    # derived from the premise
    derived2: memory_es.Receipt   # derived from the derived fact
    bystander: memory_es.Receipt  # an unrelated fact of the same entities


def present_states(store: memory_es.MemoryStore) -> dict[str, str]:
    return {row["fact_id"]: row["present_state"]
            for row in store.table("fact_versions").to_pylist()}


@pytest.fixture
def inference(fresh_store: memory_es.MemoryStore, clock: FakeClock) -> Inference:
    """alex lives in Detroit (inference) -> bo's region is the Midwest -> bo's team."""
    premise = fresh_store.assert_fact("acme", "user:alex", "home.city", "Detroit",
                                      valid_from=day(0), asserted_by="inference")
    derived = fresh_store.assert_fact("acme", "user:bo", "home.region", "Midwest",
                                      valid_from=day(0), asserted_by="inference",
                                      derived_from=[fact_id_of(premise)])
    derived2 = fresh_store.assert_fact("acme", "user:bo", "pref.team", "Pistons",
                                       valid_from=day(0), asserted_by="inference",
                                       derived_from=[fact_id_of(derived)])
    bystander = fresh_store.assert_fact("acme", "user:bo", "pref.browser", "Firefox",
                                        valid_from=day(0))
    clock.advance(hours=1)
    return Inference(premise, derived, derived2, bystander)


Change = Callable[[memory_es.MemoryStore, Inference], object]

CHANGES: dict[str, Change] = {
    "supersede": lambda s, i: s.supersede("acme", "user:alex", "home.city", "Chicago",
                                          valid_from=day(0)),
    "partial supersede": lambda s, i: s.supersede("acme", "user:alex", "home.city", "Chicago",
                                                  valid_from=day(5), valid_until=day(6)),
    "correct": lambda s, i: s.correct(fact_id_of(i.premise), "Detroit, MI"),
    "retract": lambda s, i: s.retract("acme", "user:alex", "home.city"),
    "partial retract": lambda s, i: s.retract("acme", "user:alex", "home.city",
                                              valid_from=day(3), valid_until=day(4)),
    "decay": lambda s, i: s.decay(fact_id_of(i.premise)),
    "outranking assert": lambda s, i: s.assert_fact("acme", "user:alex", "home.city",
                                                    "Chicago", valid_from=day(9)),
    "forget entity": lambda s, i: s.forget_entity("acme", "user:alex"),
    "forget fact": lambda s, i: s.forget_fact(fact_id_of(i.premise)),
}


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_premise_change_deprecates_derived_facts_transitively(
    fresh_store: memory_es.MemoryStore, inference: Inference, clock: FakeClock, change: str,
) -> None:
    """Whatever moves the premise out of present belief, every inference on it is deprecated."""
    before = clock()
    clock.advance(hours=1)
    CHANGES[change](fresh_store, inference)
    states = present_states(fresh_store)
    assert states[fact_id_of(inference.derived)] == "deprecated"
    assert states[fact_id_of(inference.derived2)] == "deprecated"
    assert states[fact_id_of(inference.bystander)] == "active"
    current = {f.fact_id for f in fresh_store.current("acme")}
    assert inference.derived.fact_id not in current
    assert inference.derived2.fact_id not in current
    assert inference.bystander.fact_id in current
    believed = {f.fact_id for f in fresh_store.as_of("acme", valid_at=day(1), known_at=before)}
    assert {inference.derived.fact_id, inference.derived2.fact_id} <= believed


def test_reinforcing_the_premise_keeps_derived_facts(
    fresh_store: memory_es.MemoryStore, inference: Inference,
) -> None:
    """The same value again changes nothing an inference rests on."""
    fresh_store.assert_fact("acme", "user:alex", "home.city", "Detroit", asserted_by="inference")
    states = present_states(fresh_store)
    assert states[fact_id_of(inference.derived)] == "active"
    assert states[fact_id_of(inference.derived2)] == "active"


def test_unrelated_change_keeps_derived_facts(
    fresh_store: memory_es.MemoryStore, inference: Inference,
) -> None:
    """A change to another attribute of the premise's entity leaves inferences alone."""
    fresh_store.supersede("acme", "user:alex", "pref.browser", "Edge")
    fresh_store.retract("acme", "user:alex", "home.city", valid_from=day(-30),
                        valid_until=day(-1))
    states = present_states(fresh_store)
    assert states[fact_id_of(inference.derived)] == "active"


def test_deprecating_a_derived_fact_leaves_its_premise(
    fresh_store: memory_es.MemoryStore, inference: Inference,
) -> None:
    """Cascades run from premise to conclusion, never back."""
    fresh_store.correct(fact_id_of(inference.derived), "Great Lakes")
    states = present_states(fresh_store)
    assert states[fact_id_of(inference.premise)] == "active"
    assert states[fact_id_of(inference.derived)] == "active"
    assert states[fact_id_of(inference.derived2)] == "deprecated"


@pytest.mark.parametrize("premise", ["f-0190c1d23e4f70008000000000000000-1", "unknown-tenant"])
def test_unknown_premise_is_refused_before_anything_is_written(
    fresh_store: memory_es.MemoryStore, inference: Inference, premise: str,
) -> None:
    """derived_from must name facts of the same tenant; otherwise NotFound, nothing appended."""
    if premise == "unknown-tenant":
        premise = fact_id_of(fresh_store.assert_fact("globex", "user:zed", "home.city", "Oslo"))
    position = fresh_store.log_position()
    with pytest.raises(memory_es.NotFound):
        fresh_store.assert_fact("acme", "user:bo", "home.state", "MI", derived_from=[premise])
    assert fresh_store.log_position() == position


def test_forgotten_premise_cannot_support_a_new_fact(
    fresh_store: memory_es.MemoryStore, inference: Inference,
) -> None:
    """A fact cannot be derived from a forgotten one."""
    fresh_store.forget_entity("acme", "user:alex")
    position = fresh_store.log_position()
    with pytest.raises(memory_es.MemoryESError):
        fresh_store.assert_fact("acme", "user:bo", "home.state", "MI",
                                derived_from=[fact_id_of(inference.premise)])
    assert fresh_store.log_position() == position
