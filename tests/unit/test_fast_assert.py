"""The write path's fast lanes (issue 16 item 2): a new fact that nothing in its slot
overlaps, and a supersede that ends no premise, are written without an event model, folded
without their JSON parsed back, and receipted without pydantic's validation. Each shortcut
must give exactly what the general path gives: the same event bytes, the same folded
state, the same receipt."""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import functools
import inspect
import itertools
from datetime import UTC, datetime
from typing import Any

import pytest
from pydantic_core import to_json

import memory_es
from memory_es.choices import Outcome
from memory_es.domain import commands as c
from memory_es.domain import control
from memory_es.domain.control import AttributeDef, NewFact
from memory_es.domain.entity import EntityState, FactState
from memory_es.domain.events import FactAsserted, FactChange, FactContent, FactSuperseded
from memory_es.errors import InvalidInput
from memory_es.ids import fact_id as make_fact_id
from memory_es.ids import stream_of
from memory_es.models import Receipt, staged_receipt

STREAM = "0190c1d2-3e4f-7000-8000-00000000a1e5"
D = 86_400_000_000

CASES: list[dict[str, Any]] = [
    {"value": "Oslo"},
    {"value": 42, "text": "forty-two ünïcödé ✓ \"quoted\" \\ back"},
    {"value": 2.5, "confidence": 0.75, "importance": 0.9, "asserted_by": "inference"},
    {"value": True, "negated": True, "volatility": "volatile", "classification": "restricted"},
    {"value": None, "agent": "planner", "shared": True, "source": "chat 7"},
    {"value": {"b": [1, 2.0, "x"], "a": {"nested": None}}, "interpretation": {"rule": "r1"}},
    {"value": ["list", 1], "agent": "planner", "mention": "my home town"},
    {"value": "x", "valid_until": 9 * D},
]


def _new(case: dict[str, Any]) -> NewFact:
    fields: dict[str, Any] = {"tenant": "acme", "entity": "user:mia",
                              "attribute": "home.city", "valid_from": 5 * D,
                              "valid_until": None}
    fields.update(case)
    return NewFact(**fields)


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("attr", [AttributeDef(), AttributeDef(
    volatility="periodic", classification="confidential")])
def test_new_fact_body_is_the_events_json(case: dict[str, Any], attr: AttributeDef) -> None:
    nf = _new(case)
    fid = make_fact_id(STREAM, 1)
    events = control.decide_assert(EntityState(STREAM), nf, attr, now=D, fact_id=fid,
                                   new_chain=lambda: "chain-1", new_conflict=lambda: "c-1")
    body = control.new_fact_alone(EntityState(STREAM), nf, attr, fid, lambda: "chain-1")
    assert body is not None
    assert len(events) == 1 and isinstance(events[0], FactAsserted)
    assert to_json(body) == events[0].__pydantic_serializer__.to_json(events[0])


def test_the_fast_lane_declines_what_the_control_plane_must_decide() -> None:
    st = EntityState(STREAM)
    fid = make_fact_id(STREAM, 1)
    first = control.decide_assert(st, _new({"value": "Oslo"}), AttributeDef(), now=D,
                                  fact_id=fid, new_chain=lambda: "chain-1",
                                  new_conflict=lambda: "c-1")
    st.apply(first[0].TOPIC, first[0].model_dump(mode="json"))
    fid2 = make_fact_id(STREAM, 2)
    chains = itertools.count()

    def alone(**case: Any) -> dict[str, Any] | None:
        return control.new_fact_alone(st, _new(case), AttributeDef(), fid2,
                                      lambda: f"new-{next(chains)}")

    assert alone(value="Bergen") is None  # overlaps the fact in its slot
    assert alone(value="Oslo", valid_from=1 * D, valid_until=2 * D) is not None  # before it
    assert alone(value="Oslo", valid_from=1 * D, valid_until=2 * D)["changes"][0][  # type: ignore[index]
        "content"]["chain_id"] == "chain-1"  # the slot's chain, not a new one
    assert alone(value="x", derived_from=(fid,), attribute="other.attr") is None
    assert alone(value="x", entity=None, mention="someone") is None
    assert alone(value="x", attribute="other.attr") is not None


def test_a_supersede_body_is_the_events_json() -> None:
    """The body against an event built field by field: Oslo from day 1 is split around
    the new period [3, 6), the denial of Bergen stands apart (another value), and the
    agent's private Oslo is in its own slot, not the tenant's."""
    st = EntityState(STREAM)
    cases: list[dict[str, Any]] = [{"value": "Oslo", "valid_from": D},
                                   {"value": "Bergen", "negated": True},
                                   {"value": "Oslo", "agent": "a1"}]
    for seq, case in enumerate(cases, start=1):
        decided = control.decide_assert(st, _new(case), AttributeDef(), now=D,
                                        fact_id=make_fact_id(STREAM, seq),
                                        new_chain=functools.partial(str, f"chain-{seq}"),
                                        new_conflict=lambda: "c-1")
        st.apply(decided[0].TOPIC, decided[0].model_dump(mode="json"))
    old, fid = make_fact_id(STREAM, 1), make_fact_id(STREAM, 4)
    nf = _new({"value": 7, "valid_from": 3 * D, "valid_until": 6 * D, "text": "seven",
               "interpretation": {"rule": "r"}, "confidence": 0.5})
    body = control.supersede_body(st, nf, AttributeDef(volatility="periodic"), fact_id=fid,
                                  new_chain=lambda: "unused", reason="moved")
    expected = FactSuperseded(
        tenant="acme", reason="moved", period=(3 * D, 6 * D), interpretation={"rule": "r"},
        changes=(FactChange(fact_id=old, portions=((D, 3 * D), (6 * D, None)),
                            state="active", superseded_by=fid),
                 FactChange(fact_id=fid, portions=((3 * D, 6 * D),), state="active",
                            content=FactContent(
                                tenant="acme", entity="user:mia", attribute="home.city",
                                chain_id="chain-1", value=7, text="seven", confidence=0.5,
                                volatility="periodic", supersedes=(old,)))))
    assert to_json(body) == expected.__pydantic_serializer__.to_json(expected)
    assert control.decide_supersede(st, nf, AttributeDef(volatility="periodic"),
                                    fact_id=fid, new_chain=lambda: "unused",
                                    reason="moved") == [expected]
    assert not control.ends_premises(st, body)


def test_a_supersede_folds_what_a_cold_load_folds(tmp_path: Any) -> None:
    """Single supersedes and supersedes in a batch, each shape the fast lane folds as it
    is (a split, nothing overlapping, an integer) or declines (a JSON object as value, a
    premise ended, a premise given), hold the same state as the log read back."""
    store = memory_es.open(tmp_path / "store")
    try:
        at = datetime(2024, 1, 1, tzinfo=UTC)
        later = datetime(2024, 3, 1, tzinfo=UTC)
        first = store.assert_fact("acme", "user:mia", "home.city", "Oslo", valid_from=at)
        premise = store.assert_fact("acme", "user:mia", "job", "nurse")
        store.assert_fact("acme", "user:mia", "job.place", "ward 3",
                          derived_from=[str(premise.fact_id)])
        split = store.supersede("acme", "user:mia", "home.city", "Rome", valid_from=at,
                                valid_until=later)
        assert split.fact_ids == [split.fact_id, first.fact_id]
        with store.transact() as tx:
            tx.supersede("acme", "user:mia", "age", 41)
            tx.supersede("acme", "user:mia", "age", 42)
            tx.supersede("acme", "user:mia", "likes", {"tea": ["green"]})
            tx.supersede("acme", "user:mia", "likes", {"tea": []})
        ended = store.supersede("acme", "user:mia", "job", "doctor")
        derived = store.supersede("acme", "user:mia", "job.title", "lead",
                                  derived_from=[str(ended.fact_id)])
        assert [r.outcome for r in (split, ended, derived)] == ["applied"] * 3
        _folds_as_read_back(store, stream_of(str(first.fact_id)))
        now = {f.attribute: f.value for f in store.current("acme", "user:mia")}
        assert now["age"] == 42 and now["likes"] == {"tea": []} and now["job"] == "doctor"
        assert "job.place" not in now  # its premise was ended: deprecated by the cascade
    finally:
        store.close()


def test_a_staged_receipt_is_the_validated_one() -> None:
    at = datetime(2025, 6, 1, 12, tzinfo=UTC)
    for outcome, conflict, fact_ids in [("applied", None, ["f-1"]),
                                        (Outcome.REINFORCED, None, ["f-1", "f-2"]),
                                        (Outcome.CONFLICTED, "c-1", ["f-3"]),
                                        (Outcome.NOOP, None, [])]:
        fast = staged_receipt("assert_fact", "acme", "s:3", list(fact_ids), at, outcome,
                              conflict)
        slow = Receipt(op="assert_fact", tenant="acme", event_id="s:3", event_ids=["s:3"],
                       fact_id=fact_ids[0] if fact_ids else None, fact_ids=list(fact_ids),
                       position=0, recorded_at=at, outcome=outcome, conflict_id=conflict)
        assert fast == slow
        assert fast.model_fields_set == slow.model_fields_set
        assert fast.model_dump_json() == slow.model_dump_json()
        assert type(fast.outcome) is str
        moved = fast.model_copy(update={"position": 7})
        assert moved.position == 7 and fast.position == 0
        with pytest.raises(ValueError, match="frozen"):
            fast.position = 3  # type: ignore[misc]


def _facts(st: EntityState) -> dict[str, tuple[Any, ...]]:
    def row(f: FactState) -> tuple[Any, ...]:
        return (f.content, f.portions, f.state, f.superseded_by, f.verified_at, f.dependents,
                f.prior_state, f.masked, f.revisions)
    return {fid: row(f) for fid, f in st.facts.items()}


def _folds_as_read_back(store: memory_es.MemoryStore, sid: str) -> None:
    """The stream's state as the writes folded it equals its state read back cold."""
    side = store.runtime.side
    written = side.load(sid)
    side.forget_cached([sid])
    cold = side.load(sid)
    assert written is not cold
    assert _facts(written) == _facts(cold)
    assert (written.version, written.last_hash, written.tenant, written.entity,
            written.slots, written.by_slot, written.next_seq) == (
        cold.version, cold.last_hash, cold.tenant, cold.entity, cold.slots,
        cold.by_slot, cold.next_seq)


def test_a_batch_folds_what_a_cold_load_folds(tmp_path: Any) -> None:
    store = memory_es.open(tmp_path / "store")
    try:
        at = datetime(2024, 1, 1, tzinfo=UTC)
        with store.transact() as tx:
            receipts = [
                tx.assert_fact("acme", "user:mia", "home.city", "Oslo", valid_from=at),
                tx.assert_fact("acme", "user:mia", "age", 41, confidence=0.5),
                tx.assert_fact("acme", "user:mia", "likes", {"tea": ["green", 1.5]}),
                tx.assert_fact("acme", "user:mia", "home.city", "Oslo", valid_from=at),
                tx.assert_fact("acme", "user:mia", "diet", "vegan", agent="a1", negated=True),
                tx.assert_fact("acme", "user:mia", "home.city", "Rome", valid_from=at),
            ]
        assert [r.outcome for r in receipts] == ["applied"] * 3 + [
            "reinforced", "applied", "conflicted"]
        _folds_as_read_back(store, stream_of(str(receipts[0].fact_id)))
        assert [f.value for f in store.current("acme", "user:mia")
                if f.attribute == "likes"] == [{"tea": ["green", 1.5]}]
    finally:
        store.close()


@pytest.mark.parametrize("kind", [c.AssertFact, c.Supersede])
def test_the_facades_command_builder_is_the_dataclass(kind: type[c.AssertFact]) -> None:
    names = {f.name for f in dataclasses.fields(kind)}
    assert set(inspect.signature(kind.of).parameters) == names  # every field, no other
    given: dict[str, Any] = {
        "tenant": "acme", "entity": "user:mia", "attribute": "home.city",
        "value": {"a": 1}, "valid_from": 1, "valid_until": 2, "text": "t", "source": "s",
        "asserted_by": "inference", "confidence": 1, "volatility": "volatile",
        "classification": "restricted", "derived_from": (), "mention": None,
        "interpretation": {"k": "v"}, "reason": "r", "idempotency_key": "key-1",
        "importance": 1, "agent": "a1", "shared": True, "negated": True}
    built = kind.of(**given)
    assert built == kind(**given) and type(built) is kind
    assert type(built.confidence) is float and type(built.importance) is float
    assert built.fingerprint == kind(**given).fingerprint
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.tenant = "other"  # type: ignore[misc]
    for bad in ({"attribute": "Not An Attribute"}, {"confidence": 2.0}, {"tenant": ""},
                {"valid_from": 5, "valid_until": 5}, {"value": float("nan")}):
        with pytest.raises(InvalidInput) as slow:
            kind(**{**given, **bad})
        with pytest.raises(InvalidInput) as fast:
            kind.of(**{**given, **bad})
        assert str(fast.value) == str(slow.value)
    with pytest.raises(InvalidInput, match="supersede needs an entity") if (
            kind is c.Supersede) else contextlib.nullcontext():
        kind.of(**{**given, "entity": None, "mention": "someone"})


def test_a_scalar_subclass_is_folded_as_its_json_reads_back(tmp_path: Any) -> None:
    class Colour(enum.StrEnum):
        RED = "red"

    class Size(enum.IntEnum):
        BIG = 3

    store = memory_es.open(tmp_path / "store")
    try:
        with store.transact() as tx:
            first = tx.assert_fact("acme", "user:mia", "colour", Colour.RED)
            tx.assert_fact("acme", "user:mia", "size", Size.BIG)
        st = store.runtime.side.load(stream_of(str(first.fact_id)))
        values = {f.attribute: f.content["value"] for f in st.facts.values()}
        assert values == {"colour": "red", "size": 3}
        assert {type(v) for v in values.values()} == {str, int}  # not the enum classes
    finally:
        store.close()


@pytest.mark.parametrize("start", [None, 7])
def test_the_new_fact_takes_each_field_from_the_command(start: int | None) -> None:
    """``AssertFact.new_fact`` (built positionally) fills every ``NewFact`` field from the
    command's field of the same name; the open start is the commit time, the entity the
    canonical one when given."""
    values: dict[str, Any] = {name: f"<{name}>" for name in NewFact._fields}
    values.update(valid_from=start, valid_until=None)
    cmd = object.__new__(c.AssertFact)
    cmd.__dict__.update(values)
    built = cmd.new_fact(5)
    assert built._asdict() == {**values, "valid_from": 5 if start is None else start}
    assert cmd.new_fact(5, "user:canonical").entity == "user:canonical"
