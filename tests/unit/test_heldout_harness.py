"""The held-out harness counts as destroyed what a case's operations made not current, and
not a setup fact the control plane held in conflict (SPEC §5: kept, awaiting a decision);
such a case still fails."""

from __future__ import annotations

from typing import Any

import memory_es
from benchmarks.heldout import run_case
from memory_es.text import TextInterface
from tests.unit.text_support import fresh_tenant

JOB = "Aminata Diallo works as an exam invigilator at Hillside Academy in Luton."
SECOND_JOB = "Aminata Diallo works as a teaching assistant at a primary school in Dunstable."
HOBBY = "Aminata Diallo sings in a gospel choir."


def _case(setup: list[str], mutation: list[str], survivors: list[str]) -> dict[str, Any]:
    return {"id": "c", "family": "f", "setup": setup, "mutations": [mutation],
            "query": mutation[-1], "must_contain": [], "must_not_contain": [],
            "survivors": survivors}


def test_a_setup_fact_held_in_conflict_fails_the_case_but_is_not_destroyed(
        fresh_store: memory_es.MemoryStore) -> None:
    out = run_case(TextInterface(fresh_store), fresh_tenant(), _case(
        [JOB, SECOND_JOB, HOBBY], ["forget", "Aminata Diallo's choir"], [JOB, SECOND_JOB]))
    assert not out.passed
    assert out.destroyed == []
    assert out.state == [f"held in conflict since it was remembered: {SECOND_JOB}"]


def test_a_survivor_an_operation_ends_is_destroyed(fresh_store: memory_es.MemoryStore) -> None:
    out = run_case(TextInterface(fresh_store), fresh_tenant(), _case(
        [JOB, HOBBY], ["forget", "everything about Aminata Diallo"], [JOB]))
    assert out.destroyed == [JOB]


def test_a_sample_runs_that_many_cases_drawn_by_seed(tmp_path: Any) -> None:
    import json

    from benchmarks import heldout

    cases = [{**_case([HOBBY], ["forget", "Aminata Diallo's choir"], []), "id": f"c{n}",
              "family": f"f{n}"} for n in range(6)]
    data = tmp_path / "cases.json"
    data.write_text(json.dumps(cases))
    chosen = []
    for seed in (1, 1, 2):
        out = tmp_path / f"out{seed}.json"
        heldout.main(["--data", str(data), "--out", str(out), "--sample", "3",
                      "--seed", str(seed)])
        report = json.loads(out.read_text())
        assert report["total"] == 3
        assert report["sample"] == {"size": 3, "seed": seed}
        chosen.append(sorted(report["by_family"]))
    assert chosen[0] == chosen[1]
    assert chosen[0] != chosen[2]
