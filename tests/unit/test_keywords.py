"""The BM25 keyword channel: incremental, filtered before ranking, purgeable."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from projections.recall.keywords import KeywordIndex, bm25

DOCS = {
    0: "user:alex home city: Detroit",
    1: "user:alex employer: Acme Corp",
    2: "user:bob home city: Oslo",
    3: "user:alex email: alex@acme.io",
    4: "user:carol account id: acct-7731",
}


def built(docs: dict[int, str] = DOCS) -> KeywordIndex:
    index = KeywordIndex()
    index.add(list(docs), list(docs.values()))
    return index


def everyone(size: int = 64) -> np.ndarray:
    return np.ones(size, dtype=bool)


def ranked(index: KeywordIndex, query: str, mask: np.ndarray | None = None) -> list[int]:
    labels, scores = index.scores(query, everyone() if mask is None else mask)
    return [int(labels[i]) for i in np.lexsort((labels, -scores))]


def test_rare_terms_outweigh_common_ones() -> None:
    """BM25: the document with the rare query term ranks first."""
    assert ranked(built(), "alex Detroit")[0] == 0
    assert ranked(built(), "Oslo") == [2]


def test_identifiers_match_whole_not_by_prefix() -> None:
    """``acct-7732`` is not ``acct-7731``: only the shared part ``acct`` matches."""
    index = built()
    labels, scores = index.scores("acct-7731", everyone())
    exact = float(scores[list(labels).index(4)])
    labels2, scores2 = index.scores("acct-7732", everyone())
    assert list(labels2) == [4]
    assert float(scores2[0]) < exact


def test_only_candidates_are_scored() -> None:
    """A document outside the candidate mask is never returned, however well it matches."""
    mask = everyone()
    mask[2] = False
    assert 2 not in ranked(built(), "Oslo home city", mask)


def test_statistics_come_from_the_candidates_only() -> None:
    """Scores over a candidate set do not move when other documents (another tenant's)
    are added: no cross-tenant influence through document frequencies."""
    small = built({0: DOCS[0], 1: DOCS[1]})
    big = built({0: DOCS[0], 1: DOCS[1],
                 **{10 + i: f"user:z{i} home city: Detroit" for i in range(30)}})
    mask = np.zeros(64, dtype=bool)
    mask[[0, 1]] = True
    a_labels, a_scores = small.scores("Detroit home", mask)
    b_labels, b_scores = big.scores("Detroit home", mask)
    np.testing.assert_array_equal(a_labels, b_labels)
    np.testing.assert_allclose(a_scores, b_scores, rtol=1e-6)


def test_removed_documents_never_score() -> None:
    """A tombstoned document is gone from results at once."""
    index = built()
    assert index.remove([2]) == 1
    assert ranked(index, "Oslo") == []
    assert index.remove([2]) == 0
    assert len(index) == len(DOCS) - 1


def test_compact_forgets_terms_of_removed_documents() -> None:
    """After compaction (and so in any saved copy), a purged document's unique terms are
    gone from the vocabulary; shared terms stay."""
    index = built()
    index.remove([3])
    index.compact()
    assert "alex@acme.io" not in index.terms()
    assert "alex" in index.terms()
    blob = b"".join(a.tobytes() for a in index.to_arrays().values())
    assert b"alex@acme.io" not in blob


def test_saved_arrays_round_trip() -> None:
    """from_arrays(to_arrays()) scores every query exactly like the original, before and
    after new documents are added to both."""
    index = built()
    index.remove([1])
    copy = KeywordIndex.from_arrays(index.to_arrays())
    for step in ("loaded", "added to"):
        if step == "added to":
            for target in (index, copy):
                target.add([40], ["user:erin home city: Detroit"])
        for query in ("alex Detroit", "Oslo", "acct-7731", "home city", "nothing here"):
            a, b = index.scores(query, everyone()), copy.scores(query, everyone())
            np.testing.assert_array_equal(a[0], b[0], err_msg=step)
            np.testing.assert_allclose(a[1], b[1], err_msg=step)


def test_label_is_never_indexed_twice() -> None:
    """Labels are not reused: adding one that is live is a programming error."""
    index = built()
    with pytest.raises(ValueError, match="already indexed"):
        index.add([0], ["Detroit again"])


WORDS = ["alex", "bob", "home", "city", "detroit", "oslo", "acme", "acct-1", "acct-2",
         "bob@acme.io", "lives", "living", "employer"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.lists(st.sampled_from(WORDS), min_size=1, max_size=6),
                          st.booleans()), min_size=1, max_size=25),
       st.lists(st.sampled_from(WORDS), min_size=1, max_size=3))
def test_incremental_equals_fresh(docs: list[tuple[list[str], bool]], query: list[str]) -> None:
    """Adding everything then removing some scores like an index of the survivors only."""
    texts = [" ".join(words) for words, _ in docs]
    incremental = KeywordIndex()
    incremental.add(list(range(len(texts))), texts)
    incremental.remove([i for i, (_, removed) in enumerate(docs) if removed])
    survivors = {i: t for i, (t, (_, removed)) in enumerate(zip(texts, docs, strict=True))
                 if not removed}
    fresh = KeywordIndex()
    fresh.add(list(survivors), list(survivors.values()))
    q = " ".join(query)
    a, b = incremental.scores(q, everyone()), fresh.scores(q, everyone())
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_allclose(a[1], b[1], rtol=1e-6)


def test_bm25_over_two_indexes_equals_one_index() -> None:
    """Scoring documents split across two indexes (as-of recall: today's index plus one
    built for the query) gives the scores one index over all of them would."""
    texts = [*DOCS.values(), "user:dan home city: Detroit", "Detroit Detroit city"]
    whole = KeywordIndex()
    whole.add(list(range(len(texts))), texts)
    first, second = KeywordIndex(), KeywordIndex()
    first.add([0, 1, 2], texts[:3])
    second.add(list(range(len(texts) - 3)), texts[3:])
    for query in ("Detroit home", "alex@acme.io", "city", "nothing"):
        (a_l, a_s), (b_l, b_s) = bm25(query, [(first, everyone()), (second, everyone())])
        merged = dict(zip(a_l.tolist(), a_s.tolist(), strict=True))
        merged.update({int(x) + 3: float(v) for x, v in zip(b_l, b_s, strict=True)})
        w_l, w_s = whole.scores(query, everyone())
        assert merged == pytest.approx(dict(zip(w_l.tolist(), w_s.tolist(), strict=True)))


CJK = st.text(alphabet=st.sampled_from("陈国华周日公园退休老人拉二胡茶叶店东京の駅서울역"),
              min_size=1, max_size=12)


@given(CJK, st.integers(0, 10), st.integers(2, 4))
def test_a_piece_of_an_unspaced_run_finds_the_run(run: str, start: int, size: int) -> None:
    """Chinese, Japanese and Korean write no spaces between words: any two or more letters
    of a run, asked alone, find the document holding the run (reference: a substring)."""
    piece = run[start:start + size]
    if len(piece) < 2:
        return
    index = built({0: f"note {run}", 1: "note 其他 other"})
    assert 0 in ranked(index, piece)


def test_unspaced_runs_rank_by_the_words_they_share() -> None:
    index = built({0: "陈国华每周日上午在人民公园教几位退休老人拉二胡",
                   1: "陈国华每天早上在人民公园打太极拳",
                   2: "陈国华在成都一所中学当物理老师"})
    assert ranked(index, "国华周日在公园教退休老人拉二胡的事")[0] == 0
    assert ranked(index, "太极拳") == [1]
    assert sorted(ranked(index, "陈国华")) == [0, 1, 2]
