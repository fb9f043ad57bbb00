"""The benchmark suite's smallest pieces run, and its case sets obey their own rules.

No timing is asserted anywhere: figures vary with the machine. What is checked is that
the suite runs end to end on a tiny size, writes its JSON and Markdown, reports missing
capabilities as text rather than numbers, and that the hand-written ablation cases and
the life-script sampler are sound (a negative control shows the currency metric can fail).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import memory_es
from benchmarks import ablation, lifescript
from benchmarks.ablation_cases import BACKGROUND, CASES, CATEGORIES
from benchmarks.common import Progress
from memory_es.cli.bench import main

STOP = {"a", "an", "the", "is", "in", "at", "on", "of", "to", "for", "and", "or", "what",
        "which", "who", "how", "does", "do", "can", "be", "should", "when", "where", "her",
        "his", "him", "he", "she", "it", "its", "are", "with", "by", "user", "s"}


def _words(text: str) -> set[str]:
    out = set()
    for word in re.findall(r"[a-z0-9]+", text.casefold()):
        if word in STOP:
            continue
        stem = word
        for suffix in ("ing", "ed", "es", "s"):
            if word.endswith(suffix) and len(word) - len(suffix) >= 3:
                stem = word[: -len(suffix)]
                break
        out.add(stem)
    return out


def test_case_set_has_65_cases_across_five_categories() -> None:
    """At least 60 cases, 13 per category, unique ids, cross-wording cases present."""
    assert len(CASES) >= 60
    assert len({c.id for c in CASES}) == len(CASES)
    for cat in CATEGORIES:
        assert sum(c.category == cat for c in CASES) == 13
    assert sum(c.cross for c in CASES) >= 10
    assert all(c.expect or c.forbid for c in CASES)


def test_cross_wording_queries_share_no_content_word_with_their_answer() -> None:
    """A cross-wording query cannot be answered by word overlap with its memory."""
    for case in CASES:
        if not case.cross or not case.answer:
            continue
        for text in case.answer:
            shared = _words(case.query) & _words(text)
            assert not shared, (case.id, shared)


def test_background_neither_answers_nor_leaks_and_keeps_its_own_slots() -> None:
    """No expected or forbidden string sits in the background; cases write other slots."""
    blob = " ".join(f"{op.text} {json.dumps(op.value)}" for op in BACKGROUND).casefold()
    slots = {(op.entity, op.attribute) for op in BACKGROUND}
    for case in CASES:
        for s in (*case.expect, *case.forbid):
            assert s.casefold() not in blob, (case.id, s)
        for op in case.ops:
            if op.attribute is not None:
                assert (op.entity, op.attribute) not in slots, (case.id, op.attribute)


def test_ablation_runs_a_few_cases_and_reports_missing_recall_as_text() -> None:
    """The no-governance baseline scores cases; a config without recall says so in text."""
    out = ablation.run(Progress(False), configs=("full", "no governance"), cases=CASES[26:29])
    ng = out["configs"]["no governance"]
    assert ng["total"] == 3 and not ng["setup_errors"]
    full = out["configs"]["full"]
    if not hasattr(memory_es.MemoryStore, "recall"):
        assert full["unavailable"].startswith("not available yet")
    else:
        assert full["total"] == 3


def test_life_script_is_seeded_and_gold_follows_the_drawn_timeline() -> None:
    """Same seed, same script; the gold value at a change's time is that change's value."""
    a, b = lifescript.sample(3, 2, seed=5), lifescript.sample(3, 2, seed=5)
    assert [(c.person, c.slot.attribute, c.at, c.value) for c in a.changes] == \
        [(c.person, c.slot.attribute, c.at, c.value) for c in b.changes]
    for c in a.changes:
        if not c.wrong_first and c.told == c.at:
            assert a.gold(c.person, c.slot.attribute, c.at) == c.value


def test_currency_metric_fails_a_store_without_supersede(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Negative control: if supersede degrades to a plain assert, currency drops below 1."""
    script = lifescript.sample(3, 1, seed=3)
    good = lifescript.replay(script, tmp_path / "good", Progress(False))
    assert good["currency_accuracy"] == 1.0
    assert good["contradiction_rate"] == 0 and good["orphaned_inferences_max"] == 0

    def plain_assert(self: memory_es.MemoryStore, tenant: str, entity: str, attribute: str,
                     value: object, **kw: object) -> memory_es.Receipt:
        kw.pop("reason", None)
        return self.assert_fact(tenant, entity, attribute, value, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(memory_es.MemoryStore, "supersede", plain_assert)
    bad = lifescript.replay(script, tmp_path / "bad", Progress(False))
    assert bad["currency_accuracy"] < 1.0


def test_bench_command_runs_the_smallest_speed_piece(tmp_path: Path) -> None:
    """``memory-es bench`` on 300 facts, embedded only, writes JSON and Markdown."""
    code = main(["--quick", "--only", "speed", "--sizes", "300", "--no-pg", "--no-peer",
                 "--no-core-bench", "--no-plots", "--no-progress", "--out", str(tmp_path)])
    assert code == 0
    data = json.loads((tmp_path / "bench_quick.json").read_text())
    size = data["speed"]["sizes"][0]
    assert size["facts"] == 300
    emb = size["embedded"]
    assert emb["batched_facts_per_s"] > 0 and emb["rebuild_events"] >= 300
    assert isinstance(emb["recall"], dict | str)
    assert size["hand_written"]["self_check"] == {"current_is_latest": True,
                                                  "as_of_before_update": True}
    assert data["machine"]["cores"] >= 1
    md = (tmp_path / "BENCH_quick.md").read_text()
    assert "Speed at 300 facts" in md and "floor SQLite" in md


def test_notes_bench_measures_gates_against_a_plain_write() -> None:
    from benchmarks import notes_bench

    cost = notes_bench.write_cost(20, 3, Progress(False))
    assert cost["note_gated"]["n"] == 3 and cost["assert_fact"]["n"] == 3
    assert cost["ratio_p50"] > 0
    done = notes_bench.consolidation(30, Progress(False))
    assert done["patterns"] >= 1 and done["rerun_wrote"] == 0
