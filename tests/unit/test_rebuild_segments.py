"""A rebuild's batches of plain changes skip the projector's per-event dispatch.

:func:`projections.bulk.plain_segment` takes a batch as one segment of columns only when
the dispatch would have made it one (no shredded event, no record, tier move or
rewrite); a projector no one follows (a rebuild's) writes the same rows without the
sets of touched facts and hands no batch over whole.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from memory_es.crypto.mapper import Unsealed
from memory_es.domain.events import FactAsserted, FactMasked, RecallJudged, TierChanged
from projections.bulk import BulkVersionProjector, plain_segment
from projections.connection import connect
from projections.schema import DDL


def _body(n: int) -> dict[str, Any]:
    return {"tenant": "t", "changes": [{
        "fact_id": f"f{n}", "portions": [[1_000 + n, None]], "state": "active",
        "content": {"tenant": "t", "entity": f"user:{n % 3}", "mention": None,
                    "attribute": "pet", "chain_id": f"c{n}", "value": f"v{n}",
                    "text": f"pet {n}", "rev": 0},
        "superseded_by": None, "verified_at": None}]}


def _event(n: int, topic: str = FactAsserted.TOPIC, *, raw: bool = True) -> Unsealed:
    body = _body(n)
    if not raw:  # made from a parsed body: no JSON as stored
        return Unsealed(f"s{n}", 1, topic, 5_000 + n, bytes(32), "k", body)
    return Unsealed(f"s{n}", 1, topic, 5_000 + n, bytes(32), "k",
                    plaintext=json.dumps(body).encode())


def test_a_batch_of_plain_changes_becomes_one_segment_of_columns() -> None:
    batch = [(10 + n, _event(n)) for n in range(4)]
    segment = plain_segment(batch)
    assert segment is not None
    assert segment.positions.tolist() == [10, 11, 12, 13]
    assert segment.times.tolist() == [5_000, 5_001, 5_002, 5_003]
    assert segment.streams.to_pylist() == ["s0", "s1", "s2", "s3"]
    assert segment.raws == [ev.plaintext for _, ev in batch]


@pytest.mark.parametrize("odd", [
    Unsealed("s9", 1, FactAsserted.TOPIC, 1, bytes(32), "k", plaintext=None),  # shredded
    _event(9, FactMasked.TOPIC), _event(9, TierChanged.TOPIC), _event(9, RecallJudged.TOPIC),
    _event(9, raw=False),
])
def test_a_batch_the_dispatch_splits_is_left_to_it(odd: Unsealed) -> None:
    assert plain_segment([(1, _event(1)), (2, odd)]) is None


def _rows(followed: bool) -> tuple[list[tuple[Any, ...]], set[str], bool]:
    con = connect(":memory:")
    for ddl in DDL:
        con.execute(ddl)
    projector = BulkVersionProjector(con, followed=followed)
    touched = projector.apply([(1 + n, _event(n)) for n in range(6)], 6)
    assert projector.applied is not None
    rows = con.execute("SELECT * FROM fact_versions ORDER BY version_id").fetchall()
    con.close()
    return rows, touched, projector.applied.complete


def test_a_projector_no_one_follows_writes_the_same_rows_without_the_touched_sets() -> None:
    rows, touched, complete = _rows(followed=True)
    assert touched == {f"f{n}" for n in range(6)} and complete
    assert len(rows) == 6
    unfollowed_rows, unfollowed_touched, unfollowed_complete = _rows(followed=False)
    assert unfollowed_rows == rows
    assert not unfollowed_touched and not unfollowed_complete


def test_a_rebuild_leaves_the_views_checkpointing_as_before(tmp_path: Any) -> None:
    """The replay runs without DuckDB's checkpoints (one follows it); the views it swaps
    in must checkpoint again as any other views do."""
    import memory_es

    store = memory_es.open(tmp_path / "s")
    try:
        store.assert_fact("t", "user:a", "pet", "cat")
        store.rebuild()
        setting = "SELECT current_setting('checkpoint_threshold')"
        fresh = connect(":memory:")
        assert (store.runtime.views.con.execute(setting).fetchall()
                == fresh.execute(setting).fetchall())
        fresh.close()
    finally:
        store.close()
