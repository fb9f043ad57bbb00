"""Audit replays (issue 6), on the embedded default and on PostgreSQL.

``replay`` rebuilds the belief at a transaction time from the log alone; filtered by the
eligibility rule every normal read applies (state in ``RETRIEVABLE_STATES``, present
state not in ``INELIGIBLE_NOW``) it must equal ``as_of`` served by the live projections,
at any point. Because it is independent of the projections, a tampered projection row
makes them disagree, and a tampered log record makes replay (and ``audit_verify``)
fail. The consumption log proves what was served, holds no plaintext, and a removed
entry is detected. The embedded store's failure-after-commit tests are in
``tests/integration/test_audit.py``; their PostgreSQL variant is here.
"""

from __future__ import annotations

import datetime as dt
import json
import random
import uuid
from typing import Any

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import memory_es
from memory_es import INELIGIBLE_NOW, RETRIEVABLE_STATES, IntegrityViolation, MemoryESError
from memory_es.services.audit import query_digest
from projections.rows import rows_to_facts
from projections.schema import PUBLIC_COLUMNS
from tests.contracts.conftest import PG_DSN, Backend
from tests.failures import WHEN, check_forget_survived, forget_then_die
from tests.fakes import FakeClock, day
from tests.receipts import fact_id_of

T = "acme"
TENANTS = ("acme", "globex")
CONSUMPTION_TOPIC = "memory_es.ConsumptionRecorded.v1"
Row = dict[str, Any]


def stream(receipt: Any) -> tuple[str, int]:
    sid, version = str(receipt.event_id).rsplit(":", 1)
    return sid, int(version)


def row_of(backend: Backend, stream_id: str, version: int) -> bytes:
    return next(state for _, sid, v, _, state in backend.events()
                if sid == stream_id and v == version)


def set_state(backend: Backend, stream_id: str, version: int, state: bytes) -> None:
    assert backend.tamper("UPDATE EVENTS SET state = ? WHERE originator_id = ? AND "
                          "originator_version = ?", (state, stream_id, version)) == 1


def flip(state: bytes, at: int) -> bytes:
    return state[:at] + bytes([state[at] ^ 0x01]) + state[at + 1:]


# -- replay vs as_of --------------------------------------------------------------------------


def keyed(facts: list[memory_es.Fact]) -> dict[tuple[str, str], Row]:
    return {(f.fact_id, f.version_id): f.model_dump(include=set(PUBLIC_COLUMNS)) for f in facts}


def replayed(store: memory_es.MemoryStore, known_at: dt.datetime,
             valid_at: dt.datetime) -> tuple[dict[tuple[str, str], Row], int]:
    """Replay at the point, kept by the eligibility rule; also how many rows it dropped."""
    rows = store.replay(known_at=known_at, valid_at=valid_at)
    kept = [r for r in rows.to_pylist() if r["state"] in RETRIEVABLE_STATES
            and r["present_state"] not in INELIGIBLE_NOW]
    table = pa.Table.from_pylist(kept, schema=rows.schema).select(PUBLIC_COLUMNS)
    return keyed(rows_to_facts(table)), rows.num_rows - len(kept)


def served_live(store: memory_es.MemoryStore, known_at: dt.datetime,
                valid_at: dt.datetime) -> dict[tuple[str, str], Row]:
    return keyed([f for t in TENANTS
                  for f in store.as_of(t, valid_at=valid_at, known_at=known_at)])


def build_history(store: memory_es.MemoryStore, clock: FakeClock,
                  seed: int = 7) -> list[dt.datetime]:
    """A seeded mixed history (every kind of change, purges included) over two tenants;
    returns the transaction times of its commits."""
    rng = random.Random(seed)
    entities = ("user:a", "user:b", "user:c", "user:d")
    attributes = ("home.city", "pref.color", "pet.name")
    facts: list[tuple[str, str]] = []
    times: list[dt.datetime] = []
    undo: dict[str, list[str]] = {"restore": [], "unmask": []}

    def period() -> tuple[dt.datetime | None, dt.datetime | None]:
        start = rng.choice([None, day(rng.randint(0, 200))])
        if rng.random() < 0.6:
            return start, None
        base = 160 if start is None else (start - day(0)).days
        return start, day(base + rng.randint(1, 60))

    def write(kind: str) -> Any:
        tenant = rng.choice(TENANTS)
        entity, attribute = rng.choice(entities), rng.choice(attributes)
        start, end = period()
        if kind == "assert":
            return store.assert_fact(
                tenant, entity, attribute, f"{rng.choice('XYZ')}{rng.randint(0, 3)}",
                valid_from=start, valid_until=end,
                asserted_by=rng.choice(["user", "user", "third_party", "inference"]))
        if kind == "supersede":
            return store.supersede(tenant, entity, attribute, f"S{rng.randint(0, 9)}",
                                   valid_from=start, valid_until=end)
        if kind == "retract":
            lo = day(rng.randint(0, 200))
            return store.retract(tenant, entity, attribute, valid_from=lo,
                                 valid_until=lo + dt.timedelta(days=rng.randint(1, 30)))
        if not facts:
            return None
        fact_tenant, fid = rng.choice(facts)
        if kind == "derived":
            return store.assert_fact(fact_tenant, entity, "home.region", "R",
                                     derived_from=[fid])
        if kind == "correct":
            return store.correct(fid, f"C{rng.randint(0, 9)}")
        if kind == "decay":
            return store.decay(fid, valid_until=day(rng.randint(100, 220)))
        if undo.get(kind):  # restore what was archived, unmask what was masked
            fid = undo[kind].pop()
        if kind == "purge_chain":
            preview = store.preview("purge", fact_tenant, fact_id=fid)
            return store.purge(fact_tenant, fact_id=fid, confirm=preview.token)
        return getattr(store, kind)(fid)

    kinds = (["assert"] * 6 + ["supersede"] * 4 + ["correct"] * 2
             + ["decay", "retract", "archive", "restore", "mask", "unmask", "forget_fact",
                "derived", "purge_chain"])
    done: dict[str, int] = {}
    for step in range(90):
        clock.advance(minutes=rng.choice([0, 1, 5, 60, 600]))
        kind = "purge_entity" if step == 50 else rng.choice(kinds)
        try:
            if kind == "purge_entity":  # one whole entity goes, with its token
                preview = store.preview("purge", T, "user:d")
                receipt = store.purge(T, "user:d", confirm=preview.token)
            else:
                receipt = write(kind)
        except MemoryESError:
            continue
        if receipt is None:
            continue
        done[kind] = done.get(kind, 0) + 1
        if kind in ("archive", "mask"):
            undo["restore" if kind == "archive" else "unmask"].append(str(receipt.fact_id))
        times.append(receipt.recorded_at)
        if kind.startswith("purge"):
            facts = [f for f in facts if f[1] not in receipt.fact_ids]
        else:
            facts += [(receipt.tenant or "", f) for f in receipt.fact_ids]
    assert set(done) == {*kinds, "purge_entity"}, done  # every kind of change happened
    assert len(times) > 40
    return times


def test_replay_equals_as_of_at_random_points(backend: Backend) -> None:
    """At random bitemporal points, replay from the log alone, filtered by the eligibility
    rule, equals as_of served by the live projections, row for row."""
    clock = FakeClock()
    store = backend.open(clock)
    times = build_history(store, clock)
    end = clock.advance(minutes=1)
    # Not vacuous: the final belief is non-empty and the eligibility rule drops rows.
    live, dropped = replayed(store, end, end)
    assert live and dropped
    assert live == served_live(store, end, end)
    # Witnesses: points where a row retrievable then belongs to a fact revoked since, so
    # only the present-state half of the rule keeps it out; each must agree too.
    versions = store.table("fact_versions").to_pylist()
    witnesses = sorted({(r["recorded_at"], r["valid_from"]) for r in versions
                        if r["state"] in RETRIEVABLE_STATES
                        and r["present_state"] in INELIGIBLE_NOW})
    assert len(witnesses) >= 3
    for known_at, valid_at in witnesses[:: max(1, len(witnesses) // 6)]:
        from_log, dropped = replayed(store, known_at, valid_at)
        assert dropped
        assert from_log == served_live(store, known_at, valid_at)

    micro = dt.timedelta(microseconds=1)
    boundaries = sorted({t + d for t in times for d in (-micro, dt.timedelta(0), micro)})
    valid_edges = sorted({r["valid_from"] + d for r in versions
                          for d in (-micro, dt.timedelta(0))})
    known_points = st.sampled_from(boundaries) | st.integers(
        min_value=0, max_value=int((end - times[0]).total_seconds()) + 3600).map(
        lambda s: times[0] - dt.timedelta(hours=1) + dt.timedelta(seconds=s))
    valid_points = (st.integers(min_value=-5, max_value=230).map(day)
                    | st.sampled_from(valid_edges)
                    | st.integers(min_value=0, max_value=230 * 24).map(
                        lambda h: day(0) + dt.timedelta(hours=h)))
    seen = {"rows": 0}

    @settings(max_examples=30, deadline=None, database=None)
    @given(known_at=known_points, valid_at=valid_points)
    def agree(known_at: dt.datetime, valid_at: dt.datetime) -> None:
        from_log, _ = replayed(store, known_at, valid_at)
        assert from_log == served_live(store, known_at, valid_at)
        seen["rows"] += len(from_log)

    agree()
    assert seen["rows"] > 0


# -- tampering --------------------------------------------------------------------------------


@pytest.mark.parametrize("where", ["ciphertext", "header", "shredded payload"])
def test_tampered_log_record_is_detected(backend: Backend, where: str) -> None:
    """One byte changed in a stored event (its ciphertext, its clear header, or the payload
    of an event whose key was shredded) makes replay raise and audit_verify report it."""
    clock = FakeClock()
    store = backend.open(clock)
    a = store.assert_fact(T, "user:alex", "home.city", "Detroit")
    clock.advance(minutes=1)
    store.supersede(T, "user:alex", "home.city", "Chicago")
    gone = store.assert_fact(T, "user:carol", "home.city", "Lima")
    store.assert_fact(T, "user:carol", "pet.name", "Rex")
    store.purge(T, "user:carol")
    now = clock.advance(minutes=1)
    assert store.audit_verify().ok
    before = store.replay(known_at=now)  # control: the untouched log replays
    assert before.num_rows == 2
    sid, version = stream(gone if where == "shredded payload" else a)
    state = row_of(backend, sid, version)
    at = {"ciphertext": len(state) - 1, "header": 5,
          "shredded payload": len(state) - 20}[where]
    set_state(backend, sid, version, flip(state, at))

    with pytest.raises(IntegrityViolation):
        store.replay(known_at=now)
    report = store.audit_verify()
    assert not report.ok
    if where == "shredded payload":  # unreadable, but the next event's hash covers it
        assert f"{sid}:{version + 1}: hash chain broken" in report.problems
        assert report.shredded == 2  # carol's two payloads: unreadable, still chained
    else:
        assert f"{sid}:{version}: ciphertext altered" in report.problems


@pytest.mark.parametrize("how", ["edit value", "delete row"])
def test_tampered_projection_row_is_caught_by_replay(backend: Backend, how: str) -> None:
    """A projection row changed behind the store's back shows in as_of but not in replay,
    which reads the log alone; the two disagree on exactly that row."""
    clock = FakeClock()
    store = backend.open(clock)
    for who in ("user:alex", "user:bob", "user:carol"):
        store.assert_fact(T, who, "home.city", f"{who} first")
        clock.advance(minutes=1)
        store.supersede(T, who, "home.city", f"{who} second")
    target = store.current(T, entity="user:bob")[0]
    now = clock.advance(minutes=1)
    assert replayed(store, now, now)[0] == served_live(store, now, now)  # control
    key = (target.fact_id, target.version_id)
    views = store.runtime.views.con
    if how == "edit value":
        views.execute("UPDATE fact_versions SET value = ? WHERE fact_id = ? AND "
                      "version_id = ?", [json.dumps("Forged"), *key])
    else:
        views.execute("DELETE FROM fact_versions WHERE fact_id = ? AND version_id = ?",
                      list(key))

    live = served_live(store, now, now)
    from_log, _ = replayed(store, now, now)
    differing = {k for k in live.keys() | from_log.keys() if live.get(k) != from_log.get(k)}
    assert differing == {key}
    assert from_log[key]["value"] == "user:bob second"
    if how == "edit value":
        assert live[key]["value"] == "Forged"
    else:
        assert key not in live
    store.rebuild()  # the log is the source of truth: a rebuild repairs the view
    assert served_live(store, now, now) == from_log


# -- consumption log --------------------------------------------------------------------------


def test_consumption_log_proves_serving_and_a_removed_entry_is_detected(
        backend: Backend) -> None:
    """recall(receipt=True) records who was served which facts, before and not after a
    forget (and still after a purge); the chain verifies, and deleting an entry is caught."""
    clock = FakeClock()
    store = backend.open(clock)
    a = store.assert_fact(T, "user:alex", "home.city", "Lisbon harbour")
    store.assert_fact(T, "user:bob", "home.city", "Boston")
    query = "where is the Lisbon harbour"
    for caller in ("agent-1", "agent-2"):
        clock.advance(minutes=1)
        assert [h.fact.fact_id for h in store.recall(T, query, receipt=True, caller=caller)] \
            == [a.fact_id]
    clock.advance(minutes=1)
    forget = store.forget_fact(fact_id_of(a))
    clock.advance(minutes=1)
    assert store.recall(T, query, receipt=True, caller="agent-3") == []

    records = store.served(T)
    assert [r.caller for r in records] == ["agent-1", "agent-2", "agent-3"]
    assert [r.fact_ids for r in records] == [[a.fact_id], [a.fact_id], []]
    digest = query_digest(store.runtime, T, query)
    assert {r.query_digest for r in records} == {digest}
    assert digest != query_digest(store.runtime, T, query + "?")
    given_a = store.served(T, fact_id=a.fact_id)
    assert [r.caller for r in given_a] == ["agent-1", "agent-2"]
    assert all(r.served_at < forget.recorded_at for r in given_a)
    assert [r.caller for r in store.served(T, since=forget.recorded_at)] == ["agent-3"]
    assert store.served("globex") == []
    store.purge(T, "user:alex")  # the proof of serving outlives the content
    assert [r.caller for r in store.served(T, fact_id=a.fact_id)] == ["agent-1", "agent-2"]
    assert store.audit_verify().ok

    sid, version = records[1].event_id.rsplit(":", 1)
    assert backend.tamper("DELETE FROM EVENTS WHERE originator_id = ? AND "
                          "originator_version = ?", (sid, int(version))) == 1
    with pytest.raises(IntegrityViolation):
        store.served(T)
    report = store.audit_verify()
    assert not report.ok
    assert f"{sid}:3: hash chain broken" in report.problems
    assert f"{sid}: version 2 missing (found 3)" in report.problems


def test_consumption_log_holds_no_plaintext(backend: Backend) -> None:
    """After recall(receipt=True), neither the query's text nor the served value appears in
    any byte of the log or key store; the record holds ids and a keyed digest."""
    store = backend.open(FakeClock())
    q, v = f"qm{uuid.uuid4().hex}", f"vm{uuid.uuid4().hex}"
    fact = store.assert_fact(T, "user:alex", "note.secret", f"{v} vault code",
                             text=f"alex's vault code is {v}")
    hits = store.recall(T, f"{v} {q}", k=3, receipt=True, caller="agent")
    assert [h.fact.fact_id for h in hits] == [fact.fact_id]
    records = [state for _, _, _, topic, state in backend.events()
               if topic == CONSUMPTION_TOPIC]
    assert len(records) == 1
    digest = query_digest(store.runtime, T, f"{v} {q}")
    # The scan can see the record: its ids and digest are there, in clear.
    assert fact_id_of(fact).encode() in records[0] and digest.encode() in records[0]
    raw = backend.raw_bytes()
    assert digest.encode() in raw
    for marker in (q, v):
        assert marker.encode() not in raw
        assert marker.encode() not in records[0]


# -- failure after commit, on PostgreSQL ------------------------------------------------------


@pytest.mark.parametrize("when", WHEN)
def test_forget_survives_sigkill_on_postgres(pg_backend: Backend, when: str) -> None:
    """On PostgreSQL too, a writer killed right after its forget committed leaves a durable
    forget, and a retry with the same key returns its receipt and appends nothing."""
    store = pg_backend.open()
    gone = store.assert_fact(T, "user:alex", "home.city", "Detroit")
    kept = store.assert_fact(T, "user:bob", "home.city", "Boston")
    head = store.log_position()
    pg_backend.close_all()  # one process at a time owns the views file
    kwargs = {"dsn": PG_DSN, "views": str(pg_backend.folder), "schema": pg_backend.schema,
              "key_file": str(pg_backend.key_file)}
    first = forget_then_die(kwargs, fact_id_of(gone), "forget-alex", when)
    reopened = pg_backend.open()
    assert reopened.log_position() == head + 2
    retried = check_forget_survived(reopened, T, fact_id_of(gone), "forget-alex", first,
                                    fact_id_of(kept))
    assert retried.position == head + 1
