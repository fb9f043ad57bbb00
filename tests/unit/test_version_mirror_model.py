"""The recall index's row mirror against a plain model: after any sequence of placements,
drops, purges of dropped rows, merges and compactions, every label reads its own rows,
and after a purge of dropped rows no held table keeps a row of a dropped version (the
plaintext a purge must take out of memory)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pyarrow as pa
from hypothesis import example, given, settings
from hypothesis import strategies as st

from projections.recall import mirror as mirror_module
from projections.recall.mirror import VersionMirror

Op = tuple[str, list[int]]


@contextmanager
def small_chunks() -> Iterator[None]:
    """Chunks of 8 rows (a table of one live row is small) and merges past 2 small
    tables, so short runs reach every path."""
    saved = mirror_module.CHUNK_ROWS, mirror_module.MERGE_TABLES
    mirror_module.CHUNK_ROWS, mirror_module.MERGE_TABLES = 8, 2
    try:
        yield
    finally:
        mirror_module.CHUNK_ROWS, mirror_module.MERGE_TABLES = saved


LABELS = st.integers(0, 30)
ops = st.lists(st.one_of(
    st.tuples(st.just("place"), st.lists(LABELS, min_size=1, max_size=10, unique=True)),
    st.tuples(st.just("place"), st.lists(LABELS, min_size=1, max_size=1)),
    st.tuples(st.just("drop"), st.lists(LABELS, min_size=1, max_size=3)),
    st.tuples(st.just("purge"), st.just([])),
    st.tuples(st.just("merge"), st.just([])),
    st.tuples(st.just("compact"), st.just([])),
), max_size=50)


def held_values(mirror: VersionMirror) -> list[str]:
    return [v for t in mirror.tables.values() for v in t.column("x").to_pylist()]


@settings(max_examples=200, deadline=None)
@given(ops)
@example([("place", [1]), ("place", [2]), ("place", [3]), ("merge", []), ("drop", [2]),
          ("purge", [])])  # small tables merged, then a purge inside the merged one
@example([("place", [1, 2, 3]), ("drop", [1]), ("compact", []), ("drop", [2]),
          ("purge", [])])  # a purge inside a compacted table
def test_mirror_reads_like_a_dict_of_labels(steps: list[Op]) -> None:
    model: dict[int, str] = {}
    mirror = VersionMirror()
    fresh = iter(range(10**6))
    with small_chunks():
        for kind, labels in steps:
            if kind == "place":
                values = [f"v{next(fresh)}" for _ in labels]
                tid = mirror.add_table(pa.table({"x": values}))
                mirror.set_many(labels, [[(0, 10, i)] for i in range(len(labels))], tid)
                mirror.release_unused(tid)
                model.update(zip(labels, values, strict=True))
            elif kind == "drop":
                mirror.drop_many(labels)
                for label in labels:
                    model.pop(label, None)
            elif kind == "purge":
                mirror.purge_rows()
                assert mirror.held_dead == 0
                assert sorted(held_values(mirror)) == sorted(model.values())
            elif kind == "merge":
                mirror.merge_small()
            else:
                mirror.compact()
                assert sorted(held_values(mirror)) == sorted(model.values())
            labels_now, slots = mirror.current(5)
            rows = mirror.rows(slots.tolist()).column("x").to_pylist() if slots.size else []
            assert dict(zip(labels_now.tolist(), rows, strict=True)) == model
        mirror.purge_rows()
        assert sorted(held_values(mirror)) == sorted(model.values())
