"""One error tree; bad input raises before anything is appended; no payload in messages."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest

import memory_es
from tests.fakes import day

MARKER = "kq3-payload-marker-5150"
NAIVE = dt.datetime(2025, 1, 1)  # naive on purpose
UNKNOWN_FACT = "f-0190c1d23e4f70008000000000000000-1"

Call = Callable[[memory_es.MemoryStore, str], Any]

# Entries marked type: ignore[arg-type] pass a wrong type on purpose: the store must refuse it.
BAD_WRITES: dict[str, tuple[type[memory_es.MemoryESError], Call]] = {
    "naive valid_from": (memory_es.InvalidInput, lambda s, f: s.assert_fact(
        "acme", "user:alex", "home.city", MARKER, valid_from=NAIVE)),
    "naive valid_until": (memory_es.InvalidInput, lambda s, f: s.supersede(
        "acme", "user:alex", "home.city", MARKER, valid_until=NAIVE)),
    "string time": (memory_es.InvalidInput, lambda s, f: s.assert_fact(
        "acme", "user:alex", "home.city", MARKER, valid_from="2025-01-01")),  # type: ignore[arg-type]
    "empty period": (memory_es.InvalidInput, lambda s, f: s.assert_fact(
        "acme", "user:alex", "home.city", MARKER, valid_from=day(5), valid_until=day(5))),
    "bad tenant": (memory_es.InvalidInput, lambda s, f: s.assert_fact(
        "bad tenant!", "user:alex", "home.city", MARKER)),
    "unknown alias": (memory_es.InvalidInput, lambda s, f: s.assert_fact(
        "acme", f"{MARKER} Smith", "home.city", MARKER)),
    "non-string entity": (memory_es.InvalidInput, lambda s, f: s.assert_fact(
        "acme", 42, "home.city", MARKER)),  # type: ignore[arg-type]
    "no entity and no mention": (memory_es.InvalidInput, lambda s, f: s.assert_fact(
        "acme", None, "home.city", MARKER)),
    "entity with trailing newline": (memory_es.InvalidInput, lambda s, f: s.assert_fact(
        "acme", "user:alex\n", "home.city", MARKER)),
    "bad attribute": (memory_es.InvalidInput, lambda s, f: s.assert_fact(
        "acme", "user:alex", "Home City", MARKER)),
    "NaN value": (memory_es.InvalidInput, lambda s, f: s.assert_fact(
        "acme", "user:alex", "home.city", [MARKER, float("nan")])),
    "set value": (memory_es.InvalidInput, lambda s, f: s.assert_fact(
        "acme", "user:alex", "home.city", {MARKER})),
    "lone surrogate in value": (memory_es.InvalidInput, lambda s, f: s.assert_fact(
        "acme", "user:alex", "home.city", MARKER + "\ud800")),
    "lone surrogate in text": (memory_es.InvalidInput, lambda s, f: s.assert_fact(
        "acme", "user:alex", "home.city", "x", text=MARKER + "\udfff")),
    "bad asserted_by": (memory_es.InvalidInput, lambda s, f: s.assert_fact(
        "acme", "user:alex", "home.city", MARKER, asserted_by="robot")),
    "bad confidence": (memory_es.InvalidInput, lambda s, f: s.assert_fact(
        "acme", "user:alex", "home.city", MARKER, confidence=2)),
    "bad premise id": (memory_es.InvalidInput, lambda s, f: s.assert_fact(
        "acme", "user:alex", "home.city", MARKER, derived_from=["not-a-fact"])),
    "unknown premise": (memory_es.NotFound, lambda s, f: s.assert_fact(
        "acme", "user:alex", "home.city", MARKER, derived_from=[UNKNOWN_FACT])),
    "long source": (memory_es.InvalidInput, lambda s, f: s.assert_fact(
        "acme", "user:alex", "home.city", "x", source=MARKER * 100)),
    "supersede without entity": (memory_es.InvalidInput, lambda s, f: s.supersede(
        "acme", None, "home.city", MARKER)),  # type: ignore[arg-type]
    "correct a malformed id": (memory_es.InvalidInput, lambda s, f: s.correct(
        "not-a-fact", MARKER)),
    "correct an unknown fact": (memory_es.NotFound, lambda s, f: s.correct(
        UNKNOWN_FACT, MARKER)),
    "correct to a non-JSON value": (memory_es.InvalidInput, lambda s, f: s.correct(
        f, {1: MARKER})),
    "decay an unknown fact": (memory_es.NotFound, lambda s, f: s.decay(UNKNOWN_FACT)),
    "decay at a naive time": (memory_es.InvalidInput, lambda s, f: s.decay(
        f, valid_until=NAIVE)),
    "retract an empty period": (memory_es.InvalidInput, lambda s, f: s.retract(
        "acme", "user:alex", "home.city", valid_from=day(3), valid_until=day(2))),
    "retract a non-string entity": (memory_es.InvalidInput, lambda s, f: s.retract(
        "acme", None, "home.city")),  # type: ignore[arg-type]
    "forget an unknown alias": (memory_es.InvalidInput, lambda s, f: s.forget_entity(
        "acme", f"{MARKER} Smith")),
    "forget a non-string entity": (memory_es.InvalidInput, lambda s, f: s.forget_entity(
        "acme", ["user:alex"])),  # type: ignore[arg-type]
    "bad cardinality": (memory_es.InvalidInput, lambda s, f: s.define_attribute(
        "acme", "home.city", cardinality="some")),
    "unknown conflict": (memory_es.NotFound, lambda s, f: s.resolve_conflict(
        "no-such-conflict", f)),
    "canonical id as alias": (memory_es.InvalidInput, lambda s, f: s.alias(
        "acme", "user:alexandra", "user:alex")),
    "restore a fact that is not archived": (memory_es.InvalidInput, lambda s, f: s.restore(f)),
    "illegal transition": (memory_es.ConflictError, lambda s, f: s.forget_fact(f)),
}

# As in BAD_WRITES, type: ignore[arg-type] marks a wrong type passed on purpose.
BAD_READS: dict[str, tuple[type[memory_es.MemoryESError], Call]] = {
    "naive valid_at": (memory_es.InvalidInput, lambda s, f: s.as_of("acme", valid_at=NAIVE)),
    "naive known_at": (memory_es.InvalidInput, lambda s, f: s.as_of("acme", known_at=NAIVE)),
    "bad tenant": (memory_es.InvalidInput, lambda s, f: s.current("acme corp")),
    "bad attribute": (memory_es.InvalidInput, lambda s, f: s.current("acme", attribute="A")),
    "non-string entity": (memory_es.InvalidInput, lambda s, f: s.current("acme", entity=7)),  # type: ignore[arg-type]
    "unknown alias": (memory_es.InvalidInput, lambda s, f: s.current("acme", entity=MARKER)),
    "unknown chain": (memory_es.NotFound, lambda s, f: s.chain("acme", UNKNOWN_FACT)),
    "chain from another tenant": (memory_es.NotFound, lambda s, f: s.chain("globex", f)),
    "unknown table": (memory_es.InvalidInput, lambda s, f: s.table("secrets")),
    "broken SQL": (memory_es.InvalidInput, lambda s, f: s.sql("SELEC value FROM nowhere")),
    "SQL that fails on a stored value": (memory_es.InvalidInput, lambda s, f: s.sql(
        "SELECT CAST(json_extract_string(value, '$') AS INTEGER) FROM fact_versions")),
}


def messages(error: BaseException) -> list[str]:
    """The error's message and those of every exception chained to it."""
    out: list[str] = []
    seen: BaseException | None = error
    while seen is not None:
        out += [str(seen), repr(seen)]
        seen = seen.__cause__ or seen.__context__
    return out


@pytest.fixture
def seeded(fresh_store: memory_es.MemoryStore) -> str:
    """A store holding one forgotten fact (returned) whose value is the marker."""
    r = fresh_store.assert_fact("acme", "user:alex", "home.city", MARKER, valid_from=day(0))
    fresh_store.forget_entity("acme", "user:alex")
    fresh_store.current("acme")
    return str(r.fact_id)


@pytest.mark.parametrize("case", sorted(BAD_WRITES))
def test_bad_write_raises_a_typed_error_and_appends_nothing(
    fresh_store: memory_es.MemoryStore, seeded: str, case: str,
) -> None:
    """Each malformed write raises its MemoryESError subclass before any event is appended,
    and no message in the chain repeats the payload."""
    expected, call = BAD_WRITES[case]
    position = fresh_store.log_position()
    with pytest.raises(memory_es.MemoryESError) as info:
        call(fresh_store, seeded)
    assert isinstance(info.value, expected), repr(info.value)
    assert fresh_store.log_position() == position
    assert not [m for m in messages(info.value) if MARKER in m]


@pytest.mark.parametrize("case", sorted(BAD_READS))
def test_bad_read_raises_a_typed_error(
    fresh_store: memory_es.MemoryStore, seeded: str, case: str,
) -> None:
    """Malformed reads raise MemoryESError subclasses whose messages hold no payload."""
    fresh_store.assert_fact("acme", "user:bo", "home.city", MARKER)
    expected, call = BAD_READS[case]
    with pytest.raises(memory_es.MemoryESError) as info:
        call(fresh_store, seeded)
    assert isinstance(info.value, expected), repr(info.value)
    assert MARKER not in str(info.value)


@pytest.mark.parametrize("operation", ["correct", "decay", "archive"])
def test_changes_to_forgotten_facts_are_conflicts(
    fresh_store: memory_es.MemoryStore, seeded: str, operation: str,
) -> None:
    """Forgotten is terminal: changing the fact raises ConflictError and appends nothing."""
    position = fresh_store.log_position()
    with pytest.raises(memory_es.ConflictError) as info:
        if operation == "correct":
            fresh_store.correct(seeded, "Chicago")
        elif operation == "decay":
            fresh_store.decay(seeded)
        else:
            fresh_store.archive(seeded)
    assert fresh_store.log_position() == position
    assert MARKER not in str(info.value)


def test_every_operation_on_a_closed_store_raises_store_closed(
    fresh_store: memory_es.MemoryStore,
) -> None:
    """After close(), writes and reads raise StoreClosed (a MemoryESError)."""
    fresh_store.close()
    for call in (lambda: fresh_store.assert_fact("acme", "user:alex", "home.city", "x"),
                 lambda: fresh_store.current("acme"),
                 lambda: fresh_store.transact().__enter__()):
        with pytest.raises(memory_es.StoreClosed):
            call()


def test_open_rejects_bad_arguments(tmp_path: Any) -> None:
    """open() needs a folder or a dsn, not neither and not both."""
    with pytest.raises(memory_es.InvalidInput):
        memory_es.open()
    with pytest.raises(memory_es.InvalidInput):
        memory_es.open(tmp_path, dsn="postgresql://localhost/x")
