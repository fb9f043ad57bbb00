"""The segmented recall index answers like one flat index, and its files survive a crash
at any step of a write (SPEC §8, §13; issue 14 item 1).

The reference model is written here, independently of the code: vectors are ranked by a
plain numpy dot product, keywords by a BM25 over term lists in a dict.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from projections.embedder import HashingEmbedder
from projections.recall import persist, vectors
from projections.recall.keywords import K1, B, KeywordSegments
from projections.recall.vectors import SegmentedVectors
from projections.tokens import keyword_terms

DIM = 16
SIZE = 3  # labels per segment: small, so a few documents span several segments
EMBEDDER = HashingEmbedder(DIM)  # only its name and dimension are written
WORDS = ["alpha", "bravo", "carol", "delta", "echo", "oslo", "lima", "zed"]


class Reference:
    """What a flat index holds: label -> (vector, terms)."""

    def __init__(self) -> None:
        self.docs: dict[int, tuple[np.ndarray, list[str]]] = {}

    def top(self, query: np.ndarray, allowed: set[int], k: int) -> list[float]:
        sims = sorted((float(v @ query) for lab, (v, _) in self.docs.items() if lab in allowed),
                      reverse=True)
        return sims[:k]

    def bm25(self, query: str, allowed: set[int]) -> dict[int, float]:
        live = {lab: terms for lab, (_, terms) in self.docs.items()
                if lab in allowed and terms}
        if not live:
            return {}
        n = len(live)
        avgdl = sum(len(t) for t in live.values()) / n
        scores: dict[int, float] = {}
        for term in dict.fromkeys(keyword_terms(query)):
            having = [lab for lab, terms in live.items() if term in terms]
            if not having:
                continue
            idf = math.log(1.0 + (n - len(having) + 0.5) / (len(having) + 0.5))
            if idf < 1e-3:
                continue
            for lab in having:
                tf = Counter(live[lab])[term]
                norm = K1 * (1.0 - B + B * len(live[lab]) / avgdl)
                scores[lab] = scores.get(lab, 0.0) + idf * tf * (K1 + 1.0) / (tf + norm)
        return scores


class Segmented:
    """The code under test: segmented vectors and postings, saved and loaded with
    :mod:`projections.recall.persist`, dirty segments tracked as the recall index does."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.vectors = SegmentedVectors(DIM, SIZE)
        self.keywords = KeywordSegments(SIZE)
        self.fact_of: dict[int, str] = {}
        self.digests = np.zeros(1024, np.int64)
        self.manifest: persist.Manifest | None = None
        self.dirty: set[int] = set()
        self.next_label = 0

    def add(self, vecs: np.ndarray, texts: list[str]) -> list[int]:
        labels = np.arange(self.next_label, self.next_label + len(texts), dtype=np.int64)
        self.next_label += len(texts)
        self.vectors.add(labels, vecs)
        self.keywords.add(labels.tolist(), texts)
        for label in labels.tolist():
            self.fact_of[label] = f"f{label}"
            self.digests[label] = label * 7 + 1
        self.dirty |= set((labels // SIZE).tolist())
        return labels.tolist()

    def remove(self, labels: list[int]) -> None:
        assert self.vectors.remove(np.asarray(labels, np.int64)) == len(labels)
        self.keywords.remove(labels)
        for label in labels:
            del self.fact_of[label]
            self.digests[label] = 0
        self.dirty |= {label // SIZE for label in labels}

    def save(self, reuse: bool = True) -> None:
        entries = persist.Entries(self.vectors, self.keywords, self.fact_of, self.digests)
        self.manifest = persist.write(self.folder, entries, self.dirty, self.manifest,
                                      position=self.next_label, next_label=self.next_label,
                                      embedder=EMBEDDER, reuse=reuse)
        self.dirty.clear()

    def load(self) -> None:
        manifest, entries = persist.read(self.folder, EMBEDDER)
        self.manifest = manifest
        self.vectors, self.keywords = entries.vectors, entries.keywords
        self.fact_of = entries.fact_of
        self.digests = np.zeros(1024, np.int64)
        self.digests[:entries.digests.size] = entries.digests
        self.next_label = manifest.next_label


@contextmanager
def small_segments() -> Iterator[None]:
    with mock.patch.object(persist, "SEGMENT_LABELS", SIZE):
        yield


ops = st.lists(st.one_of(
    st.tuples(st.just("add"), st.lists(st.lists(st.sampled_from(WORDS), max_size=4),
                                       min_size=1, max_size=5)),
    st.tuples(st.just("remove"), st.integers(0, 10_000)),
    st.tuples(st.just("save"), st.none()),
    st.tuples(st.just("load"), st.none()),
), min_size=1, max_size=25)


def vectors_for(rng: np.random.Generator, n: int, sparse: bool) -> np.ndarray:
    """Dense normal vectors, or sparse ones whose coordinates are whole multiples of
    1/127: the column copy's 8-bit codes then hold them exactly, so its candidates are
    the exact ones and its answers can be held to the reference's."""
    if not sparse:
        return rng.normal(size=(n, DIM)).astype(np.float32)
    codes = rng.integers(-127, 128, size=(n, DIM)) * (rng.random((n, DIM)) < 0.3)
    return (codes / 127.0).astype(np.float32)


EVERY = np.ones(4096, dtype=bool)
EVERY.flags.writeable = False
"""One read-only candidate mask kept across every step: the keyword statistics kept for
it must follow each add and removal."""


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=ops, seed=st.integers(0, 2**16), small=st.sampled_from([0, 2048]),
       sparse=st.booleans())
def test_segmented_index_answers_like_a_flat_one(tmp_path_factory: pytest.TempPathFactory,
                                                 ops: list[tuple[str, object]], seed: int,
                                                 small: int, sparse: bool) -> None:
    """Over random adds, removals, saves and loads, every vector search and BM25 score of
    the segmented index equals the flat reference's (all search paths: FAISS, the small
    path, and the column copy for sparse queries with a pool as small as the answer),
    and after a save every segment file holds exactly the live labels of its range."""
    rng = np.random.default_rng(seed)
    folder = tmp_path_factory.mktemp("seg")
    ref, impl = Reference(), Segmented(folder)
    saved: dict[int, tuple[np.ndarray, list[str]]] | None = None
    with small_segments(), mock.patch.object(vectors, "SMALL", small), \
            mock.patch.object(vectors, "RESCORE", 1), mock.patch.object(vectors, "RESCORE_MIN", 1):
        for op, arg in ops:
            if op == "add":
                assert isinstance(arg, list)
                texts = [" ".join(words) for words in arg]
                vecs = vectors_for(rng, len(texts), sparse)
                for label, v, text in zip(impl.add(vecs, texts), vecs, texts, strict=True):
                    ref.docs[label] = (v, keyword_terms(text))
            elif op == "remove" and ref.docs:
                assert isinstance(arg, int)
                live = sorted(ref.docs)
                gone = live[arg % len(live)::3]
                impl.remove(gone)
                for label in gone:
                    del ref.docs[label]
            elif op == "save":
                impl.save()
                saved = dict(ref.docs)
                on_disk = {f.name for f in folder.iterdir()}
                assert on_disk == {persist.MANIFEST, *impl.manifest.names()}  # type: ignore[union-attr]
                assert set(impl.manifest.files) == {lab // SIZE for lab in ref.docs}  # type: ignore[union-attr]
            elif op == "load" and saved is not None:
                impl.load()
                ref.docs = dict(saved)
            check_answers(ref, impl, rng, sparse)


def sparse_query(rng: np.random.Generator) -> np.ndarray:
    """A query with a quarter of its dimensions set (the column copy's share)."""
    q = np.zeros(DIM, np.float32)
    q[rng.choice(DIM, DIM // 4, replace=False)] = rng.normal(size=DIM // 4)
    return q


def check_answers(ref: Reference, impl: Segmented, rng: np.random.Generator,
                  sparse: bool = False) -> None:
    assert sorted(impl.vectors.ids().tolist()) == sorted(ref.docs)
    assert impl.fact_of == {label: f"f{label}" for label in ref.docs}
    size = impl.next_label + 1
    live = np.zeros(size, dtype=bool)
    live[list(ref.docs)] = True
    for _ in range(3):
        allowed = (rng.random(size) < 0.7) & live  # the caller's candidates are indexed
        chosen = {int(x) for x in np.flatnonzero(allowed)}
        q = sparse_query(rng) if sparse else rng.normal(size=DIM).astype(np.float32)
        labels, sims = impl.vectors.search(q, 4, allowed)
        assert set(labels.tolist()) <= chosen
        assert np.allclose(sims, ref.top(q, chosen, 4), atol=1e-4)
        for label, sim in zip(labels.tolist(), sims.tolist(), strict=True):
            assert abs(float(ref.docs[label][0] @ q) - sim) < 1e-4
        query = " ".join(rng.choice(WORDS, size=2).tolist())
        got_labels, got_scores = impl.keywords.scores(query, allowed)
        want = ref.bm25(query, chosen)
        assert set(got_labels.tolist()) == set(want)
        for label, score in zip(got_labels.tolist(), got_scores.tolist(), strict=True):
            assert abs(want[label] - score) < 1e-4
    query = " ".join(rng.choice(WORDS, size=2).tolist())
    got = dict(zip(*(a.tolist() for a in impl.keywords.scores(query, EVERY)), strict=True))
    want = ref.bm25(query, set(ref.docs))
    assert got.keys() == want.keys()
    assert all(abs(want[label] - score) < 1e-4 for label, score in got.items())
    for segment, cols in impl.vectors.columns.items():  # removed vectors leave the copy
        gone = [lab for lab in range(segment * SIZE, (segment + 1) * SIZE)
                if lab not in ref.docs]
        assert not cols.codes[:, [lab - cols.base for lab in gone]].any()


# crash safety --------------------------------------------------------------------------------


class Crash(Exception):
    """A simulated kill at one step of a write."""


def states(folder: Path) -> tuple[Segmented, set[int], set[int]]:
    """A saved index over labels 0..8 (three segments), then in memory: labels of segment
    0 removed and three more added (segment 3): ``(index, labels before, labels after)``."""
    rng = np.random.default_rng(1)
    impl = Segmented(folder)
    impl.add(rng.normal(size=(9, DIM)).astype(np.float32), [f"alpha w{i}" for i in range(9)])
    impl.save()
    before = set(impl.fact_of)
    impl.remove([0, 1, 2])
    impl.add(rng.normal(size=(3, DIM)).astype(np.float32), ["zed secret"] * 3)
    return impl, before, set(impl.fact_of)


def steps(folder: Path) -> list[str]:
    """The steps a write of the second state goes through, in order."""
    seen: list[str] = []
    with small_segments(), mock.patch.object(persist, "before_step", seen.append):
        impl, _, _ = states(folder)
        seen.clear()
        impl.save()
    return seen


def test_a_write_has_the_expected_steps(tmp_path: Path) -> None:
    """Writing one emptied segment and one new one: the new segment's vector file and
    small file, the folder sync, the manifest's temp file, its replace, and the deletion
    of superseded files."""
    assert steps(tmp_path) == ["write vec-000003-00000002.f32", "write seg-000003-00000002.arr",
                               "sync folder", "write manifest", "replace manifest",
                               "delete superseded"]


@pytest.mark.parametrize("at", range(6))
def test_a_crash_at_any_step_leaves_the_old_or_the_new_state(tmp_path: Path, at: int) -> None:
    """Killed at any step of a write, the folder reads back as exactly the old state or
    exactly the new one; the crash's side files are leftovers until the next open
    removes them, and then the folder holds only the manifest and the files it names."""
    names = steps(tmp_path / "probe")
    folder = tmp_path / "index"

    def crash(step: str) -> None:
        if step == names[at]:
            raise Crash(step)

    with small_segments():
        impl, before, after = states(folder)
        with mock.patch.object(persist, "before_step", crash), pytest.raises(Crash):
            impl.save()
        manifest, entries = persist.read(folder, EMBEDDER)
        held = set(entries.fact_of)
        assert held == (after if names[at] == "delete superseded" else before)
        assert sorted(entries.vectors.ids().tolist()) == sorted(held)
        found = persist.leftovers(folder, manifest)
        named = {persist.MANIFEST, *manifest.names()}
        assert {p.name for p in found} == {f.name for f in folder.iterdir()} - named
        if names[at] in ("replace manifest", "delete superseded"):
            assert found  # the new segment file, or the superseded one
        persist.remove_leftovers(folder, manifest)
        assert {f.name for f in folder.iterdir()} == named
        assert persist.leftovers(folder, manifest) == []


def test_a_segment_that_disagrees_with_the_manifest_is_not_trusted(tmp_path: Path) -> None:
    """A segment file of another size, missing, or from another embedder, or a vector
    file shorter than its row count, makes the whole index unusable (rebuilt from
    DuckDB), never partly loaded."""
    with small_segments():
        impl, _, _ = states(tmp_path)
        impl.save()
        manifest, _ = persist.read(tmp_path, EMBEDDER)
        with pytest.raises(persist.UnusableFile, match="embedder changed"):
            persist.read(tmp_path, HashingEmbedder(32))
        victim = tmp_path / sorted(manifest.files.values())[0]
        victim.write_bytes(victim.read_bytes()[:-7])
        with pytest.raises(persist.UnusableFile, match="another size"):
            persist.read(tmp_path, EMBEDDER)
        victim.unlink()
        with pytest.raises(persist.UnusableFile, match="missing"):
            persist.read(tmp_path, EMBEDDER)
        impl.manifest = None
        impl.dirty |= {lab // SIZE for lab in impl.fact_of}
        impl.save()
        whole, _ = persist.read(tmp_path, EMBEDDER)
        rows = tmp_path / whole.vectors[1]
        rows.write_bytes(rows.read_bytes()[:-DIM * 4])  # one row short of its row count
        with pytest.raises(persist.UnusableFile, match="another size"):
            persist.read(tmp_path, EMBEDDER)
    with pytest.raises(persist.UnusableFile, match="segment size"):
        persist.read(tmp_path, EMBEDDER)  # written with 3 labels per segment, read with more


def test_small_files_of_an_earlier_release_are_read_then_replaced(tmp_path: Path) -> None:
    """An index whose small files are ``.npz`` (the container before this one) opens as
    it was saved, without a rebuild; a segment's next write replaces its file with the
    current container and deletes the old one, and untouched segments keep theirs."""
    with small_segments():
        impl, _, _ = states(tmp_path)
        impl.save()
        saved, entries = persist.read(tmp_path, EMBEDDER)
        meta = json.loads((tmp_path / persist.MANIFEST).read_text())
        for segment, name in saved.files.items():
            old = tmp_path / name.replace(".arr", ".npz")
            with old.open("wb") as fh:
                np.savez(fh, **persist.load_small(tmp_path / name))  # type: ignore[arg-type]  # numpy's stub types **kwds as its flags
            (tmp_path / name).unlink()
            meta["segments"][str(segment)] |= {"file": old.name, "bytes": old.stat().st_size}
        (tmp_path / persist.MANIFEST).write_text(json.dumps(meta))
        impl.load()
        assert impl.fact_of == entries.fact_of
        assert impl.keywords.postings("zed") is not None
        impl.remove([9])
        impl.save()
        assert impl.manifest is not None
        kinds = {s: Path(n).suffix for s, n in impl.manifest.files.items()}
        assert kinds == {1: ".npz", 2: ".npz", 3: ".arr"}
        assert sorted(p.suffix for p in tmp_path.glob("seg-*")) == [".arr", ".npz", ".npz"]
        impl.load()
        assert sorted(impl.fact_of) == [3, 4, 5, 6, 7, 8, 10, 11]


def test_a_small_file_holding_anything_but_plain_arrays_is_not_trusted(tmp_path: Path) -> None:
    """A small file of the right size whose container is damaged, or which declares an
    array of objects (which only unpickling could read), makes the index unusable."""
    with small_segments():
        impl, _, _ = states(tmp_path)
        impl.save()
        assert impl.manifest is not None
        victim = tmp_path / impl.manifest.files[1]
        good = victim.read_bytes()
        assert b'"<i8"' in good
        victim.write_bytes(good.replace(b'"<i8"', b'"|O8"', 1))
        with pytest.raises(persist.UnusableFile, match="unreadable"):
            persist.read(tmp_path, EMBEDDER)
        victim.write_bytes(b"x" * len(good))
        with pytest.raises(persist.UnusableFile, match="unreadable"):
            persist.read(tmp_path, EMBEDDER)
        victim.write_bytes(good)
        persist.read(tmp_path, EMBEDDER)


def test_removed_postings_leave_the_rewritten_segment(tmp_path: Path) -> None:
    """The rewritten segment's file holds no term of a removed document (its postings
    are compacted before the write), and untouched segments keep their files."""
    with small_segments():
        impl = Segmented(tmp_path)
        vecs = np.random.default_rng(2).normal(size=(6, DIM)).astype(np.float32)
        impl.add(vecs, ["keep one", "qqsecretterm two", "keep three", "keep four",
                        "keep five", "keep six"])
        impl.save()
        assert impl.manifest is not None
        untouched = impl.manifest.files[1]
        assert b"qqsecretterm" in (tmp_path / impl.manifest.files[0]).read_bytes()
        impl.remove([1])
        impl.save()
        assert impl.manifest.files[1] == untouched
        raw = b"".join(p.read_bytes() for p in tmp_path.iterdir())
        assert b"qqsecretterm" not in raw


# the row mirror ------------------------------------------------------------------------------


def test_purge_rows_rewrites_only_the_chunks_holding_dropped_rows() -> None:
    """After a drop, purge_rows lets go of the dropped rows (no held table contains
    them) and replaces only the chunk that held them; every live slot still reads its
    own row."""
    import pyarrow as pa

    from projections.recall.mirror import CHUNK_ROWS, VersionMirror

    n = 2 * CHUNK_ROWS + 10
    mirror = VersionMirror()
    tid = mirror.add_table(pa.table({"x": [f"row{i}" for i in range(n)]}))
    mirror.set_many(list(range(n)), [[(0, 10, i)] for i in range(n)], tid)
    mirror.release_unused(tid)
    untouched = {t: mirror.tables[t] for t in mirror.tables}
    mirror.drop(CHUNK_ROWS + 5)  # a label whose row is in the second chunk
    assert mirror.held_dead == 1
    assert mirror.purge_rows() == 1
    assert mirror.held_dead == 0
    assert [t for t in mirror.tables if mirror.tables[t] is not untouched[t]] == [tid + 1]
    held = [v for t in mirror.tables.values() for v in t.column("x").to_pylist()]
    assert f"row{CHUNK_ROWS + 5}" not in held and len(held) == n - 1
    labels, slots = mirror.current(5)
    rows = mirror.rows(slots.tolist()).column("x").to_pylist()
    assert rows == [f"row{lab}" for lab in labels.tolist()]


def test_compaction_in_the_middle_of_a_placement_keeps_the_table_being_placed() -> None:
    """A table whose rows are placed in two calls survives a compaction between them,
    even when the first call placed some of its rows already."""
    import pyarrow as pa

    from projections.recall.mirror import VersionMirror

    mirror = VersionMirror()
    old = mirror.add_table(pa.table({"x": [f"old{i}" for i in range(1000)]}))
    mirror.set_many(list(range(1000)), [[(0, 10, i)] for i in range(1000)], old)
    mirror.release_unused(old)
    for label in range(900):
        mirror.drop(label)
    batch = mirror.add_table(pa.table({"x": [f"new{i}" for i in range(300)]}))
    mirror.set_many([5000], [[(0, 10, 0)]], batch)  # kept facts placed first
    mirror.compact()  # what _room may do before the next placement
    mirror.set_many(list(range(6000, 6299)), [[(0, 10, i)] for i in range(1, 300)], batch)
    mirror.release_unused(batch)
    labels, slots = mirror.current(5)
    got = dict(zip(labels.tolist(), mirror.rows(slots.tolist()).column("x").to_pylist(),
                   strict=True))
    assert got[5000] == "new0" and got[6000] == "new1" and got[6298] == "new299"
    assert all(got[lab] == f"old{lab}" for lab in range(900, 1000))


# vectors in place --------------------------------------------------------------------------


def folder_bytes(folder: Path) -> bytes:
    """Every byte of every file in the folder, named by the manifest or not."""
    return b"".join(p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file())


def in_place_states(folder: Path) -> tuple[Segmented, dict[int, np.ndarray], dict[int, np.ndarray]]:
    """A saved index over labels 0..7 (segments 0..2, the last one open), then in memory:
    label 4 removed (segment 1 keeps 3 and 5) and label 8 added (segment 2):
    ``(index, vectors before, vectors after)`` by label."""
    rng = np.random.default_rng(3)
    impl = Segmented(folder)
    vecs = rng.normal(size=(9, DIM)).astype(np.float32)
    impl.add(vecs[:8], [f"alpha w{i}" for i in range(8)])
    impl.save()
    before = {lab: vecs[lab] for lab in range(8)}
    impl.remove([4])
    impl.add(vecs[8:], ["zed late"])
    after = {lab: vecs[lab] for lab in range(9) if lab != 4}
    return impl, before, after


def in_place_steps(folder: Path) -> list[str]:
    seen: list[str] = []
    with small_segments(), mock.patch.object(persist, "before_step", seen.append):
        impl, _, _ = in_place_states(folder)
        seen.clear()
        impl.save()
    return seen


def test_a_purge_overwrites_its_rows_in_place() -> None:
    """Removing one label of a sealed segment and adding one to the open segment writes
    the new row into the open segment's vector file, rewrites both small files, commits,
    and only then zeroes the removed row in place: no vector file is rewritten."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        assert in_place_steps(Path(tmp)) == [
            "write seg-000001-00000002.arr", "write rows vec-000002-00000001.f32",
            "write seg-000002-00000002.arr", "sync folder", "write manifest",
            "replace manifest", "scrub vec-000001-00000001.f32", "delete superseded"]


def test_no_byte_of_a_removed_vector_stays_in_the_folder(tmp_path: Path) -> None:
    """After a write, the float32 bytes of a removed vector are nowhere in the index's
    folder (the row is zeroed in place), while the kept vectors' bytes are."""
    with small_segments():
        impl, before, after = in_place_states(tmp_path)
        assert before[4].tobytes() in folder_bytes(tmp_path)
        impl.save()
        raw = folder_bytes(tmp_path)
        assert before[4].tobytes() not in raw
        assert all(v.tobytes() in raw for v in after.values())
        vector_file = tmp_path / impl.manifest.vectors[1]  # type: ignore[union-attr]
        assert vector_file.stat().st_size == 3 * DIM * 4  # changed in place, same size
        manifest, entries = persist.read(tmp_path, EMBEDDER)
        assert persist.stray_rows(manifest) == {}
        assert sorted(entries.fact_of) == sorted(after)


@pytest.mark.parametrize("at", range(8))
def test_a_crash_at_any_in_place_step_reopens_consistently(tmp_path: Path, at: int) -> None:
    """Killed at any step of an in-place write, the folder reads back as exactly the old
    state or the new one, every held label with its own vector; rows the manifest does
    not hold that a crash left with bytes are reported (stray rows) until the next open
    zeroes them, and then no removed or uncommitted vector's bytes are in the folder."""
    names = in_place_steps(tmp_path / "probe")
    folder = tmp_path / "index"

    def crash(step: str) -> None:
        if step == names[at]:
            raise Crash(step)

    with small_segments():
        impl, before, after = in_place_states(folder)
        old_manifest = impl.manifest
        with mock.patch.object(persist, "before_step", crash), pytest.raises(Crash):
            impl.save()
        in_process = persist.recover(folder, EMBEDDER, old_manifest)
        manifest, entries = persist.read(folder, EMBEDDER)
        committed = at > names.index("replace manifest")
        want = after if committed else before
        assert sorted(entries.fact_of) == sorted(want)
        for label, vector in want.items():
            np.testing.assert_array_equal(entries.vectors.reconstruct(np.array([label]))[0],
                                          vector)
        assert persist.stray_rows(in_process) == persist.stray_rows(manifest)
        if committed and names[at].startswith("scrub"):
            assert persist.stray_rows(manifest) == {manifest.vectors[1]: 1}  # label 4's row
        persist.remove_leftovers(folder, manifest)
        assert persist.stray_rows(manifest) == {}
        assert {f.name for f in folder.iterdir()} == {persist.MANIFEST, *manifest.names()}
        raw = folder_bytes(folder)
        gone = {**before, **after}.keys() - want.keys()
        assert all({**before, **after}[lab].tobytes() not in raw for lab in gone)
        assert all(v.tobytes() in raw for v in want.values())
        again, _ = persist.read(folder, EMBEDDER)
        assert persist.stray_rows(again) == {}


def test_a_rebuilt_index_writes_its_vectors_to_new_files(tmp_path: Path) -> None:
    """After a rebuild hands labels out again from 0, a write with ``reuse=False`` puts
    every segment's vectors in a new file and deletes the old ones: each label reads
    back its new vector, and no byte of the old vectors stays in the folder."""
    rng = np.random.default_rng(4)
    with small_segments():
        first = Segmented(tmp_path)
        old = rng.normal(size=(6, DIM)).astype(np.float32)
        first.add(old, [f"alpha w{i}" for i in range(6)])
        first.save()
        assert first.manifest is not None
        rebuilt = Segmented(tmp_path)
        rebuilt.manifest = first.manifest
        new = rng.normal(size=(5, DIM)).astype(np.float32)
        rebuilt.add(new, [f"bravo w{i}" for i in range(5)])
        rebuilt.dirty |= set(first.manifest.files)  # what a rebuilt index rewrites
        rebuilt.save(reuse=False)
        _, entries = persist.read(tmp_path, EMBEDDER)
        np.testing.assert_array_equal(entries.vectors.reconstruct(np.arange(5)), new)
        raw = folder_bytes(tmp_path)
        assert not any(v.tobytes() in raw for v in old)
        assert not set(first.manifest.vectors.values()) & {f.name for f in tmp_path.iterdir()}
