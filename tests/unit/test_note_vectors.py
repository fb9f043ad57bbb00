"""The notes' vector index searches a half-precision copy: its floor must still bound the
exact similarity of every note a search left out, and the scores it hands back for the
decisions must be the embedder's float32 vectors, bit for bit."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from memory_es.services.note_vectors import NoteVectors

DIM = 32


def unit_rows(seed: int, n: int) -> np.ndarray:
    rows = np.random.default_rng(seed).standard_normal((n, DIM)).astype(np.float32)
    out: np.ndarray = rows / np.linalg.norm(rows, axis=1, keepdims=True)
    return out


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 40), k=st.integers(1, 39))
def test_the_floor_bounds_every_left_out_note(seed: int, n: int, k: int) -> None:
    """Twins (the same vector under two notes) make the k-th and the first left out
    score the same exactly, so a floor read off the half-precision scores alone fails."""
    base = unit_rows(seed, n)
    rows = np.concatenate([base, base])  # every vector twice
    k = 1 + k % (len(rows) - 1)  # fewer than all: something is left out
    vecs = NoteVectors(DIM)
    for i, row in enumerate(rows):
        vecs.put(f"n{i}", "e", "finding", f"text {i}", row)
    for q in unit_rows(seed + 1, 5):
        found, floor = vecs.search(q, k)
        assert floor is not None and len(found) == k
        exact = {f"n{i}": float(row @ q) for i, row in enumerate(rows)}
        left_out = [sim for fid, sim in exact.items() if fid not in found]
        assert max(left_out) <= floor


def test_scores_come_from_the_float32_vectors() -> None:
    rows = unit_rows(7, 10)
    vecs = NoteVectors(DIM)
    for i, row in enumerate(rows):
        vecs.put(f"n{i}", "e", "finding", f"text {i}", row)
    for i, row in enumerate(rows):
        assert np.array_equal(vecs.vector(f"n{i}"), row)
    vecs.drop("n3")
    found, _ = vecs.search(rows[3], 20)
    assert "n3" not in found


def test_a_group_search_sees_only_its_members() -> None:
    rows = unit_rows(11, 12)
    vecs = NoteVectors(DIM)
    for i, row in enumerate(rows):
        vecs.put(f"n{i}", f"e{i % 3}", "finding", f"text {i}", row)
    members = vecs.group("e1", "finding")
    found, floor = vecs.search(rows[0], 2, among=members)
    assert set(found) <= set(members) and len(found) == 2 and floor is not None
    found, floor = vecs.search(rows[0], 10, among=members)
    assert sorted(found) == sorted(members) and floor is None
