"""Shape rules checked at the edge, and the UTC time conversions."""

from __future__ import annotations

import datetime as dt
import gc
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memory_es.clock import TransactionClock, from_micros, to_micros
from memory_es.domain import validation
from memory_es.domain.validation import (
    VALUE_LIMIT,
    check_attribute,
    check_confidence,
    check_entity,
    check_tenant,
    check_text,
    check_value,
    is_canonical_entity,
)
from memory_es.errors import InvalidInput, MemoryESError

MARKER = "zq-secret-payload-7731"


@pytest.mark.parametrize("entity", [
    "user:alex", "user:alexandra", "project:atlas-migration", "prop:7797",
    "email:alice@acme.io", "doc:reports/2025#3",
])
def test_canonical_entity_ids_are_accepted(entity: str) -> None:
    """``namespace:local`` ids with a lower-case namespace are canonical."""
    assert is_canonical_entity(entity)
    assert check_entity(entity) == entity


@pytest.mark.parametrize("entity", [
    "alex", "User:alex", "user:", ":alex", "user alex", "user:alex smith", "", " user:alex",
    "user:alex\n", "user::alex",
])
def test_malformed_entity_ids_are_rejected(entity: str) -> None:
    """Anything that is not exactly a canonical id is invalid input."""
    assert not is_canonical_entity(entity)
    with pytest.raises(InvalidInput):
        check_entity(entity)


@pytest.mark.parametrize("entity", [None, 7, b"user:alex", ["user:alex"]])
def test_non_string_entity_ids_are_rejected(entity: Any) -> None:
    """Entity ids must be strings."""
    assert not is_canonical_entity(entity)
    with pytest.raises(InvalidInput):
        check_entity(entity)


def test_prefix_neighbours_are_distinct_ids() -> None:
    """`user:alex` and `user:alexandra` are both canonical and never equal."""
    assert is_canonical_entity("user:alex") and is_canonical_entity("user:alexandra")
    assert check_entity("user:alex") != check_entity("user:alexandra")


@pytest.mark.parametrize("attribute", ["home.city", "pref.turnover", "address.zip", "a", "a_b.c1"])
def test_dotted_lower_case_attributes_are_accepted(attribute: str) -> None:
    """Attributes are lower-case dotted paths."""
    assert check_attribute(attribute) == attribute


@pytest.mark.parametrize("attribute", [
    "home.city\n", "Home.city", "home..city", ".home", "home.", "home city", "1home", "",
    "home.City", "x" * 129, None, 3,
])
def test_malformed_attributes_are_rejected(attribute: Any) -> None:
    """Upper case, empty segments, spaces, non-strings and very long paths are invalid."""
    with pytest.raises(InvalidInput):
        check_attribute(attribute)


@pytest.mark.parametrize("tenant", ["acme\n", "", " acme", "acme corp", "a/b", None, 5, "x" * 129])
def test_malformed_tenants_are_rejected(tenant: Any) -> None:
    """Tenants are short ids of letters, digits, dot, dash and underscore."""
    with pytest.raises(InvalidInput):
        check_tenant(tenant)


@pytest.mark.parametrize("value", [
    None, True, 0, -3, 2.5, "Detroit", "", [], [1, "a", None], {"city": "Oslo", "n": [1, 2]},
])
def test_json_values_are_accepted(value: Any) -> None:
    """Any JSON value (str, number, bool, null, list, object) is a fact value."""
    assert check_value(value) == value


@pytest.mark.parametrize("value", [
    float("nan"), float("inf"), {1: "a"}, "\ud800" + MARKER, {"\udcff": MARKER},
    {"a": {2: MARKER}}, {MARKER}, (MARKER,), b"bytes", dt.datetime(2025, 1, 1, tzinfo=dt.UTC),
    object(),
])
def test_non_json_values_are_rejected_without_echoing_them(value: Any) -> None:
    """Non-JSON values raise InvalidInput whose message never contains the value."""
    with pytest.raises(InvalidInput) as info:
        check_value(value)
    assert MARKER not in str(info.value)
    assert "bytes" not in str(info.value) or value == b"bytes"


def test_checking_a_value_leaves_no_cyclic_garbage() -> None:
    """Checking a value creates no reference cycle: every fact written checks one, and
    cyclic garbage waits for the collector instead of being freed at once."""
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(10):
            check_value({"city": ["Oslo", 1, None, {"n": 2.5}]})
        assert gc.collect() == 0
    finally:
        if enabled:
            gc.enable()


@pytest.mark.parametrize(("value", "fits"), [
    ("a" * (VALUE_LIMIT - 2), True),
    ("a" * (VALUE_LIMIT - 1), False),
    ("\x01" * ((VALUE_LIMIT - 2) // 6), True),
    ("\x01" * ((VALUE_LIMIT - 2) // 6 + 1), False),
    ("é" * (VALUE_LIMIT // 2 - 1), True),
    ("é" * (VALUE_LIMIT // 2), False),
])
def test_string_values_are_limited_by_the_bytes_of_their_json(value: str, fits: bool) -> None:
    """A string value fits when its JSON (quotes, escapes, UTF-8) is at most the limit."""
    if fits:
        assert check_value(value) == value
    else:
        with pytest.raises(InvalidInput, match="bytes of JSON"):
            check_value(value)


def test_value_nesting_is_bounded() -> None:
    """A value nested deeper than the limit is refused."""
    deep: Any = MARKER
    for _ in range(40):
        deep = [deep]
    with pytest.raises(InvalidInput) as info:
        check_value(deep)
    assert MARKER not in str(info.value)


@pytest.mark.parametrize("confidence", [-0.1, 1.5, True, "high", None, float("nan")])
def test_confidence_outside_zero_to_one_is_rejected(confidence: Any) -> None:
    """Confidence is a number in [0, 1]."""
    with pytest.raises(InvalidInput):
        check_confidence(confidence)


def test_text_fields_are_bounded_strings() -> None:
    """Free-text fields must be strings within their length limit; messages omit them."""
    assert check_text("source", None) is None
    with pytest.raises(InvalidInput):
        check_text("source", 12)  # type: ignore[arg-type]  # a non-string on purpose
    with pytest.raises(InvalidInput):
        check_text("source", MARKER + "\udc80")
    with pytest.raises(InvalidInput) as info:
        check_text("source", MARKER * 1000, 512)
    assert MARKER not in str(info.value)


def test_naive_datetimes_are_rejected() -> None:
    """A timestamp without a time zone is ambiguous and refused."""
    with pytest.raises(InvalidInput):
        to_micros(dt.datetime(2025, 1, 1))
    with pytest.raises(InvalidInput):
        to_micros("2025-01-01T00:00:00Z")  # type: ignore[arg-type]


@given(st.datetimes(
    min_value=dt.datetime(1971, 1, 1), max_value=dt.datetime(2200, 1, 1),
    timezones=st.sampled_from([dt.UTC, ZoneInfo("Europe/Oslo"), ZoneInfo("America/Detroit"),
                               dt.timezone(dt.timedelta(hours=5, minutes=30))])))
def test_aware_datetimes_round_trip_as_utc(when: dt.datetime) -> None:
    """Any aware datetime converts to µs and back to the same instant, in UTC."""
    back = from_micros(to_micros(when))
    assert back == when.astimezone(dt.UTC)  # (a gap or fold time never equals another zone's)
    assert back.utcoffset() == dt.timedelta(0)


def test_transaction_time_strictly_increases_with_a_standing_or_backward_clock() -> None:
    """recorded_at = max(clock(), previous + 1 µs), whatever the clock does."""
    now = [dt.datetime(2025, 1, 1, tzinfo=dt.UTC)]
    clock = TransactionClock(lambda: now[0])
    first = clock.tick()
    second = clock.tick()
    now[0] -= dt.timedelta(hours=1)
    third = clock.tick()
    now[0] += dt.timedelta(days=1)
    fourth = clock.tick()
    assert (second, third) == (first + 1, first + 2)
    assert fourth == to_micros(now[0])


def test_every_error_class_derives_from_the_base() -> None:
    """The public error classes form one tree under MemoryESError."""
    import memory_es

    for name in ("InvalidInput", "NotFound", "ConflictError", "ConcurrentWriteError",
                 "ErasedContent", "ConfirmationRequired", "IntegrityViolation", "StoreClosed"):
        cls = getattr(memory_es, name)
        assert issubclass(cls, MemoryESError), name
    assert issubclass(memory_es.InvalidInput, ValueError)
    assert issubclass(memory_es.NotFound, LookupError)


class _Tenant(str):
    """A string whose equality is rigged: equal to every string, with a valid one's hash."""

    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return hash("acme")


def test_remembered_passes_never_let_an_invalid_tenant_or_attribute_through() -> None:
    """Tenants and attributes that passed are remembered (a batch repeats them); one that
    fails is checked again, and fails again, however often the valid ones were seen; the
    memory is bounded, and still answers after it is emptied."""
    for _ in range(3):
        assert check_tenant("acme") == "acme"
        assert check_attribute("home.city") == "home.city"
        for bad in ("", "bad tenant", "acme\n", "-acme"):
            with pytest.raises(InvalidInput, match="tenant must be"):
                check_tenant(bad)
        for bad_attr in ("Home.city", "home.city\n", "home..city", "a" * 129):
            with pytest.raises(InvalidInput, match="attribute must be"):
                check_attribute(bad_attr)
    with pytest.raises(InvalidInput, match="tenant must be"):
        check_tenant(_Tenant("not a tenant"))
    for i in range(validation.PASSED_LIMIT + 10):
        check_attribute(f"a{i}.b")
    assert len(validation._PASSED_ATTRIBUTES) <= validation.PASSED_LIMIT  # noqa: SLF001
    assert check_attribute("home.city") == "home.city"
    with pytest.raises(InvalidInput):
        check_attribute("home city")
