"""A purge rewrites only the recall segments that held the purged facts, and their bytes
leave the disk: now, after a deferred compaction, and after a crash mid-write (SPEC §8,
§13; issue 14 item 1). Segments are 4 labels here, so a few facts span several."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import memory_es
from memory_es.models import StoreCheck
from projections.recall import persist
from tests.conftest import StoreFactory
from tests.fakes import FakeClock

T = "acme"
MARK = "qz{}marker"


@pytest.fixture(autouse=True)
def small_segments(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Four labels per segment for every index these tests open."""
    monkeypatch.setattr(persist, "SEGMENT_LABELS", 4)
    yield


def fill(store: memory_es.MemoryStore, clock: FakeClock) -> None:
    """Six entities with two marked facts each, indexed in one batch: each entity's two
    facts get consecutive labels from an even one, so each lives in one segment beside
    one other entity, and segments 0..2 hold facts."""
    for i in range(6):
        store.assert_fact(T, f"user:e{i}", "home.city", f"{MARK.format(i)} city")
        store.assert_fact(T, f"user:e{i}", "contact.email", f"{MARK.format(i)}@mail.example")
    store.catch_up()
    store.runtime.recall.flush()
    clock.advance(minutes=1)


def recall_bytes(store: memory_es.MemoryStore) -> bytes:
    """Every byte of every file in the recall index's folder (all of them, named or not)."""
    folder = store.runtime.recall.path
    return b"".join(p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file())


def recall_check(report: memory_es.ErasureReport | None) -> StoreCheck:
    assert report is not None
    return next(c for c in report.stores if c.name == "recall_index")


def named_files(store: memory_es.MemoryStore) -> dict[int, str]:
    manifest = persist.read_manifest(store.runtime.recall.path, store.runtime.recall.embedder)
    return manifest.files


def all_named(store: memory_es.MemoryStore) -> set[str]:
    """The manifest and every file it names (small files and vector files)."""
    index = store.runtime.recall
    return {persist.MANIFEST, *persist.read_manifest(index.path, index.embedder).names()}


def segment_of(store: memory_es.MemoryStore, i: int) -> int:
    """The one segment whose file holds entity ``i``'s marker."""
    files = named_files(store)
    holding = [s for s, name in files.items()
               if MARK.format(i).encode() in (store.runtime.recall.path / name).read_bytes()]
    assert len(holding) == 1, holding
    return holding[0]


def test_purge_rewrites_only_the_segments_that_held_the_entity(
        store_factory: StoreFactory, clock: FakeClock) -> None:
    """After a purge no recall file holds the entity's marker, the other entities' stay,
    only the file of the segment that held it was replaced, and the report is clean."""
    store = store_factory()
    fill(store, clock)
    before = named_files(store)
    assert set(before) == {0, 1, 2}
    held = segment_of(store, 2)
    receipt = store.purge(T, "user:e2")
    assert recall_check(receipt.report).result == "clean"
    after = named_files(store)
    assert after[held] != before[held]
    assert {s: f for s, f in after.items() if s != held} == {
        s: f for s, f in before.items() if s != held}
    raw = recall_bytes(store)
    assert MARK.format(2).encode() not in raw
    assert all(MARK.format(i).encode() in raw for i in (0, 1, 3, 4, 5))
    assert {p.name for p in store.runtime.recall.path.iterdir()} == all_named(store)


def test_deferred_purge_is_pending_for_exactly_the_segment_that_holds_it(
        store_factory: StoreFactory, clock: FakeClock) -> None:
    """A deferred purge reports the recall index pending, naming the file of the segment
    that holds the entity, whose bytes still hold the marker; store.compact() rewrites it
    and the check turns clean."""
    store = store_factory()
    fill(store, clock)
    segment = segment_of(store, 2)
    held = named_files(store)[segment]
    receipt = store.purge(T, "user:e2", compact="deferred")
    check = recall_check(receipt.report)
    assert check.result == "pending"
    assert any(held in p for p in check.pending), check.pending
    assert not any(name in p for s, name in named_files(store).items() if s != segment
                   for p in check.pending)
    assert MARK.format(2).encode() in recall_bytes(store)
    store.compact()
    assert recall_check(store.verify_erasure(receipt)).result == "clean"
    assert MARK.format(2).encode() not in recall_bytes(store)
    assert not (store.runtime.recall.path / held).exists()


def entity_vectors(store: memory_es.MemoryStore, i: int) -> list[bytes]:
    """The float32 bytes of entity ``i``'s indexed vectors, as the vector files hold them."""
    index = store.runtime.recall
    facts = [f.fact_id for f in store.current(T, f"user:e{i}")]
    labels = np.array([lab for f in facts if (lab := index.label(f)) is not None], np.int64)
    assert labels.size == 2
    return [row.astype("<f4").tobytes() for row in index.vectors.reconstruct(labels)]


@pytest.mark.parametrize("compact", ["now", "deferred"])
def test_no_byte_of_a_purged_vector_stays_in_the_recall_folder(
        store_factory: StoreFactory, clock: FakeClock, compact: str) -> None:
    """The purged entity's vectors (their exact float32 bytes) are in the recall folder
    before the purge and nowhere in it once the purge is compacted (at once, or by
    store.compact() after a deferred purge); the other entities' vectors stay."""
    store = store_factory()
    fill(store, clock)
    purged, kept = entity_vectors(store, 2), entity_vectors(store, 3)
    assert all(v in recall_bytes(store) for v in purged + kept)
    receipt = store.purge(T, "user:e2", compact=compact)
    if compact == "deferred":
        assert all(v in recall_bytes(store) for v in purged)  # pending, and reported so
        assert recall_check(receipt.report).result == "pending"
        store.compact()
    raw = recall_bytes(store)
    assert not any(v in raw for v in purged)
    assert all(v in raw for v in kept)
    assert recall_check(store.verify_erasure(receipt)).result == "clean"


class Crash(Exception):
    """A simulated kill at one step of the index's write."""


STEPS = ("write seg-", "sync folder", "write manifest", "replace manifest", "scrub vec-",
         "delete superseded")


@pytest.mark.parametrize("step", STEPS)
def test_a_crash_mid_write_is_reported_and_cleaned_up_on_reopen(
        store_factory: StoreFactory, store_path: Path, clock: FakeClock,
        monkeypatch: pytest.MonkeyPatch, step: str) -> None:
    """Killed at any step of the compaction's write, the index's residue check is not
    clean (the purged bytes are pending or in a leftover file) and lists every file it
    leaves; reopening removes the side files and finishes the compaction: the folder
    holds the manifest and the files it names, none with the marker."""
    store = store_factory()
    fill(store, clock)
    purged = entity_vectors(store, 2)
    receipt = store.purge(T, "user:e2", compact="deferred")

    def crash(name: str) -> None:
        if name.startswith(step):
            raise Crash(name)

    monkeypatch.setattr(persist, "before_step", crash)
    with pytest.raises(Crash):
        store.compact()
    monkeypatch.undo()
    monkeypatch.setattr(persist, "SEGMENT_LABELS", 4)
    index = store.runtime.recall
    check = index.residue(list(receipt.fact_ids))
    assert check.result != "clean", check
    on_disk = {p.name for p in index.path.iterdir()}
    assert {Path(c).name for c in check.checked if c.startswith(str(index.path))} == on_disk
    if step in ("replace manifest", "scrub vec-", "delete superseded"):
        assert any(r.startswith("leftover seg-") for r in check.residues), check
    store.close()
    again = store_factory(store_path)
    assert {p.name for p in again.runtime.recall.path.iterdir()} == all_named(again)
    assert MARK.format(2).encode() not in recall_bytes(again)
    assert MARK.format(3).encode() in recall_bytes(again)
    assert not any(v in recall_bytes(again) for v in purged)
    assert recall_check(again.verify_erasure(receipt)).result == "clean"


def test_the_previous_single_file_is_replaced_by_segments(
        store_factory: StoreFactory, store_path: Path, clock: FakeClock) -> None:
    """A ``recall.npz`` left by the previous format is not trusted: the index is rebuilt
    from DuckDB into segments and the old file is deleted (a leftover until then)."""
    store = store_factory()
    fill(store, clock)
    store.close()
    legacy = store_path / persist.LEGACY_FILE
    legacy.write_bytes(b"old format " + MARK.format(9).encode())
    for p in (store_path / persist.FOLDER).iterdir():
        p.unlink()
    again = store_factory(store_path)
    assert again.runtime.recall.rebuilt is not None
    assert "previous index format" in again.runtime.recall.rebuilt
    assert not legacy.exists()
    assert [h.fact.value for h in again.recall(T, MARK.format(3), k=1)]
    assert set(named_files(again)) == {0, 1, 2}


def test_purge_bench_measures_a_bounded_recall_rewrite(tmp_path: Path) -> None:
    """The purge benchmark runs end to end on a small store: complete reports, and each
    purge's recall compaction writes a small part of the index's files, not all of them."""
    from benchmarks import purge_bench

    out = purge_bench.run_size(400, 2, 3, tmp_path)
    assert out["purge_p50_ms"] > 0 and out["deferred"]["total_s"] > 0
    assert 0 < out["recall_written_p50_bytes"] < out["recall_files_bytes"] / 10
