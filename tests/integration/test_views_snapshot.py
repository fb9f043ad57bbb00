"""The views' sharded snapshot (issue 14, item 1), against a model that knows only which
values were written and which entities were purged.

After any sequence of writes, purges, compactions, rebuilds, clean closes and crashes (the
process ends without closing), a reopened store shows exactly the model's live values, and
once a compaction or a rebuild has run after the last purge, no file of the snapshot holds
a purged value.
"""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import memory_es
from projections.snapshot import DIRECTORY, MANIFEST
from tests.fakes import FakeClock

T = "acme"
ENTITIES = [f"user:e{i}" for i in range(6)]
UNCOMPRESSED = {"force_compression": "uncompressed"}

steps = st.lists(st.one_of(
    st.tuples(st.just("write"), st.sampled_from(ENTITIES), st.integers(0, 2)),
    st.tuples(st.just("purge"), st.sampled_from(ENTITIES), st.sampled_from(["now", "deferred"])),
    st.tuples(st.just("read"), st.just(""), st.just(0)),
    st.tuples(st.just("reopen"), st.sampled_from(["close", "crash"]), st.just(0)),
    st.tuples(st.just("rebuild"), st.just(""), st.just(0)),
), min_size=1, max_size=14)


def snapshot_bytes(folder: Path) -> list[bytes]:
    views = folder / DIRECTORY
    return [p.read_bytes() for p in views.iterdir() if p.name != MANIFEST] if views.exists() else []


@settings(max_examples=12, deadline=None)
@given(plan=steps)
@example(plan=[("write", "user:e0", 0), ("write", "user:e1", 0), ("read", "", 0),
               ("reopen", "close", 0), ("purge", "user:e0", "now")])
@example(plan=[("write", "user:e0", 0), ("read", "", 0), ("reopen", "close", 0),
               ("write", "user:e0", 1), ("reopen", "crash", 0), ("purge", "user:e0", "deferred"),
               ("read", "", 0), ("reopen", "close", 0)])
@example(plan=[*(("write", e, 0) for e in ENTITIES), ("read", "", 0), ("reopen", "close", 0),
               *(("purge", e, "deferred") for e in ENTITIES[:5])])  # five shards pruned at once
@example(plan=[("write", "user:e0", 0), ("write", "user:e1", 0), ("reopen", "close", 0),
               ("purge", "user:e0", "deferred"), ("rebuild", "", 0), ("write", "user:e1", 1),
               ("reopen", "crash", 0), ("rebuild", "", 0)])  # a rebuild after a deferred purge
def test_snapshot_matches_the_model_and_drops_purged_values(
        tmp_path_factory: pytest.TempPathFactory, plan: list[tuple[str, str, object]]) -> None:
    folder = tmp_path_factory.mktemp("snap") / "store"
    clock = FakeClock()
    live: dict[tuple[str, str], str] = {}  # (entity, attribute) -> value
    purged: set[str] = set()
    compacted = True
    store = memory_es.open(folder, clock=clock, views_settings=UNCOMPRESSED)
    try:
        for op, arg, n in plan:
            clock.advance(minutes=1)
            if op == "write":
                value = f"zqv-{uuid.uuid4().hex[:12]}"
                store.supersede(T, arg, f"a.n{n}", value)
                live[(arg, f"a.n{n}")] = value
            elif op == "purge":
                if not any(e == arg for e, _ in live):
                    continue
                store.purge(T, arg, compact=str(n))
                purged |= {v for (e, _), v in live.items() if e == arg}
                live = {k: v for k, v in live.items() if k[0] != arg}
                compacted = str(n) == "now"
            elif op == "read":
                store.current(T)
            elif op == "rebuild":  # its files count as compacted: they must be
                store.rebuild()
                compacted = True
            elif arg == "close":
                store.close()
                store = memory_es.open(folder, clock=clock, views_settings=UNCOMPRESSED)
            else:  # a crash: the views' progress since their last snapshot is lost
                with pytest.MonkeyPatch.context() as patch:
                    patch.setattr(store.runtime.views, "persist", lambda **_: None)
                    store.close()
                store = memory_es.open(folder, clock=clock, views_settings=UNCOMPRESSED)
        seen = {(f.entity, f.attribute): f.value for f in store.current(T)}
        assert seen == live
        if not compacted:
            store.compact()
        files = snapshot_bytes(folder)
        assert not [v for v in purged if any(v.encode() in data for data in files)]
    finally:
        store.close()
    with memory_es.open(folder, clock=clock, views_settings=UNCOMPRESSED) as reopened:
        assert {(f.entity, f.attribute): f.value for f in reopened.current(T)} == live


def test_a_rebuild_that_changes_nothing_writes_no_snapshot(tmp_path: Path) -> None:
    """The old snapshot and the log after its position replay to the rebuilt views, so a
    rebuild that finds them equal leaves its files alone; the rows waiting to be written
    are written on the usual schedule (here the close), and a crash before it loses none."""
    folder = tmp_path / "store"
    manifest = folder / DIRECTORY / MANIFEST
    with memory_es.open(folder) as store:
        store.assert_fact(T, "user:e0", "a.n0", "before")
        store.catch_up()
    store = memory_es.open(folder)
    try:
        store.assert_fact(T, "user:e1", "a.n0", "waiting")
        store.catch_up()
        before = manifest.read_text()
        store.rebuild()
        assert manifest.read_text() == before
        with pytest.MonkeyPatch.context() as patch:  # a crash: nothing more is persisted
            patch.setattr(store.runtime.views, "persist", lambda **_: None)
            store.close()
        store = memory_es.open(folder)
        assert {f.value for f in store.current(T)} == {"before", "waiting"}
        store.rebuild()
    finally:
        store.close()
    assert manifest.read_text() != before  # the close wrote the waiting rows
    with memory_es.open(folder) as reopened:
        assert {f.value for f in reopened.current(T)} == {"before", "waiting"}
