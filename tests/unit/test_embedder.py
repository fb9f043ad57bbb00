"""The download-free hashing embedder: deterministic, unit-length, good on ids and paraphrase."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from projections.embedder import (
    Embedder,
    HashingEmbedder,
    MissingExtra,
    SentenceEmbedder,
    default_embedder,
)
from projections.tokens import analyse, keyword_terms, stem

DOCS = [
    "user:alex home city: Detroit",
    "user:alex employer: Acme Corp",
    "user:alex pref browser: Firefox",
    "user:alex email: alex@acme.io",
    "user:bob email: bob@acme.io",
    "user:alex favourite food: sushi",
    "user:alex account id: acct-7731",
]


@pytest.fixture(scope="module")
def embedder() -> HashingEmbedder:
    """One hashing embedder at the default dimension."""
    return HashingEmbedder()


def best(embedder: HashingEmbedder, query: str, docs: list[str] = DOCS) -> str:
    sims = embedder.embed(docs) @ embedder.embed([query])[0]
    return docs[int(np.argmax(sims))]


def test_rows_are_float32_unit_vectors(embedder: HashingEmbedder) -> None:
    """Every non-empty text becomes a float32 row of norm 1; an empty text a zero row."""
    out = embedder.embed([*DOCS, ""])
    assert out.dtype == np.float32
    assert out.shape == (len(DOCS) + 1, embedder.dim)
    np.testing.assert_allclose(np.linalg.norm(out[:-1], axis=1), 1.0, rtol=1e-5)
    assert not out[-1].any()


def test_default_embedder_satisfies_the_protocol() -> None:
    """The default needs no download and names its vector space (version and dimension)."""
    e = default_embedder()
    assert isinstance(e, Embedder)
    assert e.name == f"hashing-v{HashingEmbedder.version}-{e.dim}"
    assert HashingEmbedder(128).name != HashingEmbedder(256).name


def test_same_text_same_vector_in_another_process(embedder: HashingEmbedder) -> None:
    """Vectors do not depend on Python's salted hash: another process agrees bit for bit."""
    code = textwrap.dedent(f"""
        import sys, numpy as np
        from projections.embedder import HashingEmbedder
        sys.stdout.write(HashingEmbedder().embed({DOCS!r}).tobytes().hex())
    """)
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, check=True).stdout
    assert bytes.fromhex(out) == embedder.embed(DOCS).tobytes()


def test_batch_and_single_agree(embedder: HashingEmbedder) -> None:
    """A text's vector does not depend on the batch it is embedded in."""
    batch = embedder.embed(DOCS)
    for i, doc in enumerate(DOCS):
        np.testing.assert_array_equal(embedder.embed([doc])[0], batch[i])


@pytest.mark.parametrize(("query", "expected"), [
    ("alex@acme.io", "user:alex email: alex@acme.io"),
    ("bob@acme.io", "user:bob email: bob@acme.io"),
    ("acct-7731", "user:alex account id: acct-7731"),
    ("ACCT-7731", "user:alex account id: acct-7731"),
])
def test_identifiers_find_their_fact(embedder: HashingEmbedder, query: str,
                                     expected: str) -> None:
    """An exact identifier (any case) is nearest to the fact that holds it."""
    assert best(embedder, query) == expected


@pytest.mark.parametrize(("query", "expected"), [
    ("where does alex live", "user:alex home city: Detroit"),
    ("alex resides in", "user:alex home city: Detroit"),
    ("who is alex's employer", "user:alex employer: Acme Corp"),
    ("what job does alex have", "user:alex employer: Acme Corp"),
    ("which browser does alex prefer", "user:alex pref browser: Firefox"),
    ("what does alex like to eat", "user:alex favourite food: sushi"),
])
def test_paraphrases_of_common_words_meet(embedder: HashingEmbedder, query: str,
                                          expected: str) -> None:
    """Common paraphrases (live/reside/home, job/employer, like/prefer/favourite) match."""
    assert best(embedder, query) == expected


def test_inflections_share_a_stem() -> None:
    """lives/living/lived meet; moved/moving meet; identifiers are never stemmed."""
    assert stem("lives") == stem("living") == stem("lived") == stem("live")
    assert stem("moved") == stem("moving") == stem("move")
    assert stem("cities") == "city"
    assert stem("acct7731") == "acct7731"


def test_identifiers_are_kept_whole_and_in_parts() -> None:
    """E-mails, canonical ids, phone numbers and mixed tokens are whole terms plus parts."""
    terms = keyword_terms("Mail alice@acme.io or call +1 (555) 123-4567 about acct-7731")
    assert "alice@acme.io" in terms and "alic" in terms
    assert "15551234567" in terms
    assert "acct-7731" in terms and "7731" in terms
    kinds = {t.term: t.kind for t in analyse("user:alex home city")}
    assert kinds["user:alex"] == "id" and kinds["alex"] == "part"


def test_full_width_forms_normalise() -> None:
    """Compatibility forms (full-width letters) analyse like their plain spelling."""
    full_width = "".join(chr(ord(c) + 0xFEE0) for c in "user:ALEX")
    assert keyword_terms(full_width) == keyword_terms("user:alex")


def test_a_part_repeated_across_identifiers_counts_once() -> None:
    """``alex`` of user:alex and of alex@acme.io is one keyword occurrence, not two."""
    assert keyword_terms("user:alex email: alex@acme.io").count("alex") == 1


def test_sentence_embedder_is_lazy() -> None:
    """Constructing the optional embedder imports nothing; using it without the extra
    raises a typed error naming the extra."""
    e = SentenceEmbedder()
    assert (e.name, e.dim) == ("all-minilm-l6-v2", 384)
    try:
        import sentence_transformers  # noqa: F401
    except ImportError:
        with pytest.raises(MissingExtra, match="semantic"):
            e.embed(["hello"])
    else:  # pragma: no cover - only where the extra is installed
        out = e.embed(["where does alex live", "user:alex home city: Detroit"])
        assert out.shape == (2, 384)
