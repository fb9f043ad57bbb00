"""Recall's eligibility masks, kept between recalls and updated label by label after
writes (:mod:`projections.recall.eligible`), against a reference model of SPEC §9's
candidate set: a tenant's facts in a retrievable state, not masked, valid at the time
asked, within the classification ceiling."""

from __future__ import annotations

import datetime as dt
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.domain.validation import CLASSIFICATION_RANK, CLASSIFICATIONS
from tests.fakes import FakeClock, day, opened_store
from tests.receipts import fact_id_of

TENANTS = ("acme", "beta")
ENTITIES = ("user:ana", "user:bo", "user:cy")
EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)


def us(when: dt.datetime) -> int:
    return (when - EPOCH) // dt.timedelta(microseconds=1)


@dataclass
class Modelled:
    """One fact as the model holds it."""

    tenant: str
    entity: str
    attribute: str
    rank: int
    valid_from: int
    valid_until: int | None
    state: str = "active"
    masked: bool = False


@dataclass
class Model:
    """Facts by id; eligibility derived from nothing but the operations applied."""

    facts: dict[str, Modelled] = field(default_factory=dict)

    def eligible(self, tenant: str, at: int, max_rank: int) -> set[str]:
        return {fid for fid, f in self.facts.items()
                if f.tenant == tenant and f.state == "active" and not f.masked
                and f.rank <= max_rank and f.valid_from <= at
                and (f.valid_until is None or at < f.valid_until)}


@dataclass(frozen=True)
class Step:
    """An operation (its kind and its picks, resolved against the model when run), then
    the times the masks are checked at: hours from the clock's present, in order (the
    clock then moves past the last, so reads go forward in time, reusing a kept mask
    until a version starts or ends), and, with ``back``, a day and a half before it."""

    kind: str
    tenant: int
    entity: int
    pick: int
    classification: str
    starts: int
    ends: int | None
    advance: int
    checks: tuple[int, ...]
    back: bool


steps = st.builds(
    Step,
    kind=st.sampled_from(("assert", "assert", "assert", "supersede", "forget", "archive",
                          "restore", "mask", "unmask", "purge")),
    tenant=st.integers(0, len(TENANTS) - 1), entity=st.integers(0, len(ENTITIES) - 1),
    pick=st.integers(0, 40), classification=st.sampled_from(CLASSIFICATIONS),
    starts=st.integers(-3, 3), ends=st.none() | st.integers(1, 4),
    advance=st.sampled_from((0, 0, 1, 24, 48)),
    checks=st.lists(st.integers(0, 72), min_size=1, max_size=4).map(
        lambda hours: tuple(sorted(hours))),
    back=st.booleans())


def _pick(model: Model, step: Step, wanted: str) -> str | None:
    """A fact of the model fit for the step (by ``pick``), or None."""
    fit = sorted(fid for fid, f in model.facts.items() if
                 (wanted == "open" and f.state == "active" and f.valid_until is None)
                 or (wanted == "active" and f.state == "active")
                 or (wanted == "archived" and f.state == "archived")
                 or (wanted == "masked" and f.masked and f.state == "active")
                 or (wanted == "unmasked" and not f.masked and f.state == "active"))
    return fit[step.pick % len(fit)] if fit else None


def _run(store: memory_es.MemoryStore, clock: FakeClock, model: Model, step: Step,
         serial: int) -> None:
    now = clock.now
    tenant, entity = TENANTS[step.tenant], ENTITIES[step.entity]
    if step.kind == "assert":
        attribute = f"note.n{serial}"  # a slot of its own: nothing else is superseded
        start = now + dt.timedelta(days=step.starts)
        end = None if step.ends is None else start + dt.timedelta(days=step.ends)
        fid = fact_id_of(store.assert_fact(tenant, entity, attribute, f"v{serial}",
                                           valid_from=start, valid_until=end,
                                           classification=step.classification))
        model.facts[fid] = Modelled(tenant, entity, attribute,
                                    CLASSIFICATION_RANK[step.classification], us(start),
                                    None if end is None else us(end))
    elif step.kind == "supersede":
        old = _pick(model, step, "open")
        if old is None or model.facts[old].valid_from >= us(now) or model.facts[old].masked:
            return
        f = model.facts[old]
        fid = fact_id_of(store.supersede(f.tenant, f.entity, f.attribute, f"w{serial}",
                                         valid_from=now, classification=step.classification))
        f.valid_until = us(now)
        model.facts[fid] = Modelled(f.tenant, f.entity, f.attribute,
                                    CLASSIFICATION_RANK[step.classification], us(now), None)
    elif step.kind in ("forget", "archive"):
        picked = _pick(model, step, "active")
        if picked is None:
            return
        fid = picked
        (store.forget_fact if step.kind == "forget" else store.archive)(fid)
        model.facts[fid].state = "forgotten" if step.kind == "forget" else "archived"
    elif step.kind == "restore":
        picked = _pick(model, step, "archived")
        if picked is None:
            return
        fid = picked
        store.restore(fid)
        model.facts[fid].state = "active"
    elif step.kind in ("mask", "unmask"):
        picked = _pick(model, step, "unmasked" if step.kind == "mask" else "masked")
        if picked is None:
            return
        fid = picked
        (store.mask if step.kind == "mask" else store.unmask)(fid)
        model.facts[fid].masked = step.kind == "mask"
    else:  # purge an entity of a tenant: its facts are gone
        if not any(f.tenant == tenant and f.entity == entity for f in model.facts.values()):
            return
        store.purge(tenant, entity, requested_by="dpo", compact="deferred")
        model.facts = {fid: f for fid, f in model.facts.items()
                       if not (f.tenant == tenant and f.entity == entity)}


def _check(store: memory_es.MemoryStore, model: Model, at: int) -> None:
    index = store.runtime.recall
    for tenant in TENANTS:
        for max_rank in sorted(set(CLASSIFICATION_RANK.values())):
            mask, slot_of = index.candidate_slots(tenant, at, max_rank)
            labels = np.flatnonzero(mask).tolist()
            assert {index.fact_of(lab) for lab in labels} == model.eligible(tenant, at,
                                                                            max_rank)
            for lab in labels:
                assert slot_of[lab] == index.versions.slot_at(lab, at)


def _opens(starts: int, ends: int | None) -> list[Step]:
    """A fact of its own first (so the tenant is known), then one valid over
    ``[now + starts days, + ends days)``, read now and a day and a quarter later."""
    return [Step("assert", 0, 0, 0, "public", 0, None, 0, (0,), back=False),
            Step("assert", 0, 1, 0, "public", starts, ends, 0, (0, 30), back=False)]


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(history=st.lists(steps, min_size=1, max_size=14))
@example(history=_opens(0, 1))  # it ends between the two reads
@example(history=_opens(1, None))  # it starts between them
def test_kept_masks_after_writes_forgets_and_purges_match_the_model(
        history: list[Step]) -> None:
    """After every write, forget, archive, mask and purge, and at times before and after
    the present, each tenant's mask at each ceiling holds exactly the model's facts, each
    with the slot of its version current then."""
    clock = FakeClock(day(10))
    model = Model()
    with tempfile.TemporaryDirectory() as folder, \
            opened_store(Path(folder) / "s", clock) as store:
        for serial, step in enumerate(history):
            _run(store, clock, model, step, serial)
            store.catch_up()
            for offset in step.checks:
                _check(store, model, us(clock.now + dt.timedelta(hours=offset)))
            if step.back:
                _check(store, model, us(clock.now - dt.timedelta(hours=36)))
            clock.advance(hours=max(step.advance, step.checks[-1]))


def test_a_write_updates_the_kept_mask_without_reading_every_slot(
        fresh_store: memory_es.MemoryStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """After one write, the next recall's mask is the kept one updated by the labels the
    write changed: the mirror's slots are not all read again (≈ 1.5 ms at 100k facts)."""
    store = fresh_store
    for i in range(20):
        store.assert_fact("acme", f"user:u{i}", "home.city", f"City {i}")
    store.catch_up()
    index = store.runtime.recall
    now = us(store.now())
    before, _ = index.candidate_slots("acme", now, 3)
    reads: list[int] = []
    whole = index.versions.current_until

    def counted(at: int) -> tuple[np.ndarray, np.ndarray, int]:
        reads.append(at)
        return whole(at)

    monkeypatch.setattr(index.versions, "current_until", counted)
    fid = fact_id_of(store.assert_fact("acme", "user:new", "home.city", "Oslo"))
    store.forget_fact(fact_id_of(store.assert_fact("acme", "user:old", "home.city", "Rome")))
    store.catch_up()
    after, _ = index.candidate_slots("acme", us(store.now()), 3)
    assert not reads
    assert after.sum() == before.sum() + 1 and after[index.label(fid)]
