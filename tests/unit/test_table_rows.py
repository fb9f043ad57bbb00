"""``table_rows`` reads an Arrow table into Python as ``to_pylist`` does, column by
column: every type a version row has, with and without nulls, in one chunk or many."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from projections.rows import table_rows

_SCHEMA = pa.schema([
    ("fact_id", pa.string()), ("valid_from", pa.timestamp("us", tz="UTC")),
    ("valid_until", pa.timestamp("us", tz="UTC")), ("confidence", pa.float64()),
    ("rev", pa.int64()), ("negated", pa.bool_()), ("supersedes", pa.list_(pa.string())),
    ("local", pa.timestamp("us")), ("elsewhere", pa.timestamp("us", tz="Europe/Oslo"))])

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_moments = st.integers(-2**40, 2**48).map(lambda us: _EPOCH + timedelta(microseconds=us))


def _maybe(values: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(st.none(), values)


_row = st.fixed_dictionaries({
    "fact_id": _maybe(st.text(max_size=8)), "valid_from": _moments,
    "valid_until": _maybe(_moments), "confidence": _maybe(st.floats(allow_nan=False)),
    "rev": _maybe(st.integers(-2**62, 2**62)), "negated": _maybe(st.booleans()),
    "supersedes": _maybe(st.lists(st.text(max_size=4), max_size=3)),
    "local": _maybe(_moments.map(lambda d: d.replace(tzinfo=None))),
    "elsewhere": _maybe(_moments)})


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(_row, max_size=5), min_size=1, max_size=4))
def test_table_rows_is_to_pylist(chunks: list[list[dict[str, Any]]]) -> None:
    table = pa.concat_tables([pa.Table.from_pylist(rows, _SCHEMA) for rows in chunks])
    got = table_rows(table)
    assert got == table.to_pylist()
    for mine, theirs in zip(got, table.to_pylist(), strict=True):
        for name in ("valid_from", "valid_until", "elsewhere"):
            if theirs[name] is not None:
                assert mine[name].utcoffset() == theirs[name].utcoffset()
