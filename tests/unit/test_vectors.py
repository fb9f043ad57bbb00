"""The vector channel turns into an IVF past its threshold and stays correct (SPEC §13):
removals are real, a mask is never crossed, and recall@10 stays ≥ 0.99 of the exact scan."""

from __future__ import annotations

import numpy as np
import pytest

from projections.recall.vectors import VectorIndex

DIM = 32


CENTRES = np.random.default_rng(0).normal(size=(80, DIM))


def unit_vectors(rng: np.random.Generator, n: int) -> np.ndarray:
    """Unit vectors around 80 topics, as text embeddings cluster (uniform noise in 32
    dimensions has no neighbourhoods for any approximate index to find)."""
    x = CENTRES[rng.integers(0, len(CENTRES), n)] + 1.5 * rng.normal(size=(n, DIM))
    out: np.ndarray = (x / np.linalg.norm(x, axis=1, keepdims=True)).astype(np.float32)
    return out


@pytest.fixture
def grown() -> tuple[VectorIndex, np.ndarray, np.ndarray]:
    """An index that crossed a lowered IVF threshold: 6,000 labelled vectors."""
    rng = np.random.default_rng(7)
    index = VectorIndex(DIM)
    index.ivf_from = 2_000
    labels = np.arange(6_000, dtype=np.int64) * 2 + 1
    vectors = unit_vectors(rng, labels.size)
    for part in np.array_split(np.arange(labels.size), 6):
        index.add(labels[part], vectors[part])
    return index, labels, vectors


def exact_top(vectors: np.ndarray, labels: np.ndarray, q: np.ndarray, allowed: np.ndarray,
              k: int) -> set[int]:
    keep = allowed[labels]
    sims = vectors[keep] @ q
    return set(labels[keep][np.argsort(-sims)[:k]].tolist())


def test_index_becomes_an_ivf_and_keeps_every_vector(
        grown: tuple[VectorIndex, np.ndarray, np.ndarray]) -> None:
    """Past the threshold the index is an IVF holding exactly the labels added, and their
    stored vectors are the ones given."""
    index, labels, vectors = grown
    assert index.is_ivf
    assert sorted(index.ids().tolist()) == labels.tolist()
    assert np.allclose(index.reconstruct(labels[:50]), vectors[:50], atol=1e-6)


def test_removed_vectors_are_gone_and_never_returned(
        grown: tuple[VectorIndex, np.ndarray, np.ndarray]) -> None:
    """remove() takes the vectors out of the IVF: not listed, not found by any query."""
    index, labels, vectors = grown
    gone = labels[:300]
    assert index.remove(gone) == 300
    assert not set(index.ids().tolist()) & set(gone.tolist())
    allowed = np.ones(labels.max() + 1, dtype=bool)
    for q in vectors[:30]:
        found, _ = index.search(q, 10, allowed)
        assert not set(found.tolist()) & set(gone.tolist())


@pytest.mark.parametrize("share", [1.0, 0.3, 0.05])
def test_recall_at_10_matches_the_exact_scan(
        grown: tuple[VectorIndex, np.ndarray, np.ndarray], share: float) -> None:
    """With every label, a third or a twentieth allowed (a tenant's eligible facts), the
    IVF's top 10 is within the mask and overlaps the exact top 10 by ≥ 99 % on average."""
    index, labels, vectors = grown
    rng = np.random.default_rng(11)
    allowed = np.zeros(labels.max() + 1, dtype=bool)
    allowed[labels[rng.random(labels.size) < share]] = True
    overlap = []
    for q in unit_vectors(rng, 60):
        found, _ = index.search(q, 10, allowed)
        assert allowed[found].all()
        truth = exact_top(vectors, labels, q, allowed, 10)
        overlap.append(len(set(found.tolist()) & truth) / len(truth))
    assert float(np.mean(overlap)) >= 0.99


def test_serialised_ivf_round_trips(grown: tuple[VectorIndex, np.ndarray, np.ndarray]) -> None:
    """The bytes the owner writes load back as the same IVF with the same answers."""
    index, labels, vectors = grown
    again = VectorIndex.from_bytes(index.to_bytes(), DIM)
    assert again.is_ivf and again.ntotal == index.ntotal
    allowed = np.ones(labels.max() + 1, dtype=bool)
    assert index.search(vectors[3], 5, allowed)[0].tolist() == \
        again.search(vectors[3], 5, allowed)[0].tolist()


def test_ivf_retrains_as_it_grows(grown: tuple[VectorIndex, np.ndarray, np.ndarray]) -> None:
    """After growing fourfold the IVF is retrained for its new size (more lists)."""
    index, labels, _ = grown
    lists_before, trained = index.index.nlist, index.trained_for
    rng = np.random.default_rng(3)
    extra = np.arange(labels.max() + 1, labels.max() + 1 + 4 * trained, dtype=np.int64)
    index.add(extra, unit_vectors(rng, extra.size))
    assert index.trained_for >= 4 * trained
    assert index.index.nlist >= lists_before
    assert index.ntotal == labels.size + extra.size
