"""The ``memory-es`` command line, run in-process through ``main([...])``.

One test runs the installed ``memory-es demo`` console script in a subprocess.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

from memory_es.cli import main
from memory_es.cli.commands import parse_value


class Cli:
    """Runs ``main`` against one store folder and captures what it printed."""

    def __init__(self, store: Path, capsys: pytest.CaptureFixture[str]) -> None:
        self.store = store
        self.capsys = capsys

    def run(self, *argv: str) -> tuple[int, str, str]:
        self.capsys.readouterr()
        code = main(["--store", str(self.store), *argv])
        captured = self.capsys.readouterr()
        return code, captured.out, captured.err

    def ok(self, *argv: str) -> str:
        code, out, err = self.run(*argv)
        assert code == 0, err
        return out

    def json(self, *argv: str) -> Any:
        return json.loads(self.ok("--json", *argv))

    def fails(self, *argv: str) -> str:
        code, out, err = self.run(*argv)
        assert code == 2, (out, err)
        assert "Traceback" not in err
        return err


@pytest.fixture
def cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Cli:
    return Cli(tmp_path / "mem", capsys)


def test_values_are_json_when_they_parse_else_strings() -> None:
    """A value argument is JSON when valid JSON, otherwise the literal string."""
    assert parse_value("42") == 42
    assert parse_value("4.5") == 4.5
    assert parse_value("true") is True
    assert parse_value("null") is None
    assert parse_value('"42"') == "42"
    assert parse_value('{"a": [1, 2]}') == {"a": [1, 2]}
    assert parse_value("Detroit") == "Detroit"
    assert parse_value("low turnover") == "low turnover"


def test_write_supersede_correct_and_read_back_as_json(cli: Cli) -> None:
    """Receipts and facts come back as the pydantic models dump them; the reads see the writes."""
    first = cli.json("assert", "acme", "user:alex", "home.city", "Detroit",
                     "--valid-from", "2024-01-01T00:00:00Z", "--source", "chat:1")
    assert first["op"] == "assert_fact"
    assert first["outcome"] == "applied"
    assert first["position"] >= 1
    assert first["recorded_at"].endswith("Z")

    second = cli.json("supersede", "acme", "user:alex", "home.city", "Chicago",
                      "--valid-from", "2025-06-01T00:00:00+00:00", "--reason", "moved")
    assert second["op"] == "supersede"
    assert second["position"] > first["position"]

    facts = cli.json("current", "acme", "--entity", "user:alex")
    assert [(f["attribute"], f["value"]) for f in facts] == [("home.city", "Chicago")]

    fixed = cli.json("correct", second["fact_id"], "Evanston", "--reason", "typo")
    assert fixed["op"] == "correct"
    facts = cli.json("current", "acme")
    assert [f["value"] for f in facts] == ["Evanston"]

    # Before the correction the store believed Chicago for 2025-07 ...
    before = cli.json("as-of", "acme", "--valid-at", "2025-07-01T00:00:00Z",
                      "--known-at", second["recorded_at"])
    assert [f["value"] for f in before] == ["Chicago"]
    # ... and it believed Detroit for 2024 at any time after the first write.
    early = cli.json("as-of", "acme", "--valid-at", "2024-06-01T00:00:00Z",
                     "--known-at", first["recorded_at"], "--attribute", "home.city")
    assert [f["value"] for f in early] == ["Detroit"]

    chain = cli.json("chain", "acme", second["fact_id"])
    assert [f["value"] for f in chain] == ["Detroit", "Evanston"]


def test_typed_values_keep_their_json_type(cli: Cli) -> None:
    """Numbers, booleans and objects given on the command line are stored as JSON values."""
    cli.ok("assert", "acme", "user:alex", "pref.score", "42")
    cli.ok("assert", "acme", "user:alex", "pref.flags", '{"dark": true}')
    cli.ok("assert", "acme", "user:alex", "pref.label", '"42"')
    values = {f["attribute"]: f["value"] for f in cli.json("current", "acme")}
    assert values == {"pref.score": 42, "pref.flags": {"dark": True}, "pref.label": "42"}


def test_a_denial_is_written_with_negated_and_shown_as_one(cli: Cli) -> None:
    """``assert --negated`` writes a denial; the table shows ``not <value>``, the JSON the
    flag, and a denial stands beside another value of its slot."""
    cli.ok("assert", "acme", "user:mia", "home.city", "Oslo", "--negated")
    cli.ok("assert", "acme", "user:mia", "home.city", "Bergen")
    facts = {(f["value"], f["negated"]) for f in cli.json("current", "acme")}
    assert facts == {("Oslo", True), ("Bergen", False)}
    table = cli.ok("current", "acme")
    assert "not Oslo" in table and "not Bergen" not in table


def test_readable_tables_for_people(cli: Cli) -> None:
    """Without --json, receipts are one line and facts an aligned table with a header."""
    out = cli.ok("assert", "acme", "user:alex", "home.city", "Detroit")
    assert out.startswith("assert_fact: applied")
    assert "position 1" in out
    table = cli.ok("current", "acme").splitlines()
    assert table[0].split() == ["fact_id", "entity", "attribute", "value", "valid_from",
                                "valid_until", "recorded_at", "state"]
    assert set(table[1]) <= {"-", " "}
    assert "Detroit" in table[2]
    assert table[2].index("Detroit") == table[0].index("value")
    assert cli.ok("current", "other").strip() == "(no facts)"


def test_global_options_may_follow_the_command(cli: Cli, capsys: pytest.CaptureFixture[str],
                                              tmp_path: Path) -> None:
    """--json and --store are accepted after the subcommand as well as before it."""
    other = tmp_path / "other"
    assert main(["assert", "acme", "user:alex", "home.city", "Oslo", "--store", str(other),
                 "--json"]) == 0
    receipt = json.loads(capsys.readouterr().out)
    assert receipt["op"] == "assert_fact"
    assert (other / "events.db").exists()


def test_store_defaults_to_the_environment_variable(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Without --store the folder comes from MEMORY_ES_STORE."""
    folder = tmp_path / "from-env"
    monkeypatch.setenv("MEMORY_ES_STORE", str(folder))
    assert main(["assert", "acme", "user:alex", "home.city", "Oslo"]) == 0
    assert (folder / "events.db").exists()
    capsys.readouterr()


def test_naive_and_malformed_times_are_rejected(cli: Cli) -> None:
    """A time without a timezone, or not ISO-8601, exits 2 and writes nothing."""
    err = cli.fails("assert", "acme", "user:alex", "home.city", "Oslo",
                    "--valid-from", "2024-01-01T00:00:00")
    assert "timezone" in err
    err = cli.fails("as-of", "acme", "--known-at", "yesterday")
    assert "ISO-8601" in err
    assert cli.json("current", "acme") == []


def test_user_errors_exit_2_with_a_message_and_no_traceback(cli: Cli) -> None:
    """MemoryESError becomes one line on stderr and exit status 2."""
    cli.ok("assert", "acme", "user:alex", "home.city", "Oslo")
    err = cli.fails("chain", "acme", "f-" + "0" * 32 + "-1")
    assert err.startswith("memory-es: error:")
    assert "not found" in err
    assert "entity" in cli.fails("assert", "acme", "User Alex!", "home.city", "Oslo")
    assert "attribute" in cli.fails("assert", "acme", "user:alex", "Home City", "Oslo")
    assert "mention" in cli.fails("assert", "acme", "-", "home.city", "Oslo")
    assert "SQL" in cli.fails("sql", "selec nothing")
    assert cli.fails("no-such-command")


def test_idempotency_key_returns_the_original_receipt(cli: Cli) -> None:
    """The same --idempotency-key again appends nothing and says it was replayed."""
    first = cli.json("assert", "acme", "user:alex", "home.city", "Oslo",
                     "--idempotency-key", "msg-1")
    again = cli.json("assert", "acme", "user:alex", "home.city", "Oslo",
                     "--idempotency-key", "msg-1")
    assert again["idempotent_replay"] is True
    assert again["event_id"] == first["event_id"]
    assert again["position"] == first["position"]
    assert "replayed" in cli.ok("assert", "acme", "user:alex", "home.city", "Oslo",
                                "--idempotency-key", "msg-1")


def test_decay_retract_forget_alias_and_define_attribute(cli: Cli) -> None:
    """The remaining write commands reach the store and change what current returns."""
    cli.ok("define-attribute", "acme", "tag", "--cardinality", "many")
    cli.ok("assert", "acme", "user:alex", "tag", "a")
    cli.ok("assert", "acme", "user:alex", "tag", "b")
    assert sorted(f["value"] for f in cli.json("current", "acme", "--attribute", "tag")) == [
        "a", "b"]

    alias = cli.json("alias", "acme", "Alex Smith", "user:alex")
    assert alias["op"] == "alias"
    assert len(cli.json("current", "acme", "--entity", "Alex Smith")) == 2

    otp = cli.json("assert", "acme", "user:alex", "session.otp", "123456")
    decayed = cli.json("decay", otp["fact_id"], "--reason", "used")
    assert decayed["op"] == "decay"
    assert not cli.json("current", "acme", "--attribute", "session.otp")

    cli.ok("assert", "acme", "user:bob", "home.city", "Oslo",
           "--valid-from", "2020-01-01T00:00:00Z")
    cli.ok("retract", "acme", "user:bob", "home.city")
    assert not cli.json("current", "acme", "--entity", "user:bob")

    cli.ok("assert", "acme", "user:alexandra", "home.city", "Rome")
    forgot = cli.json("forget-entity", "acme", "user:alex")
    assert forgot["op"] == "forget_entity"
    left = cli.json("current", "acme")
    assert [f["entity"] for f in left] == ["user:alexandra"]


def test_unresolved_mention_is_stored_without_entity(cli: Cli) -> None:
    """Entity '-' with --mention writes an unresolved fact."""
    receipt = cli.json("assert", "acme", "-", "home.city", "Paris", "--mention", "the neighbour")
    assert receipt["outcome"] == "applied"


def test_sql_export_and_rebuild(cli: Cli, tmp_path: Path) -> None:
    """sql returns rows, export writes Parquet, rebuild replays the log with a progress bar."""
    for i in range(5):
        cli.ok("assert", "acme", f"user:u{i}", "home.city", f"City {i}")
    cli.ok("assert", "other", "user:x", "home.city", "Elsewhere")

    rows = cli.json("sql", "select tenant, count(*) as n from facts_current "
                           "group by tenant order by tenant")
    assert rows == [{"tenant": "acme", "n": 5}, {"tenant": "other", "n": 1}]
    text = cli.ok("sql", "select count(*) as n from fact_versions")
    assert text.splitlines()[0].strip() == "n"
    assert "(1 row)" in text

    target = tmp_path / "out" / "acme.parquet"
    exported = cli.json("export", str(target), "--tenant", "acme")
    assert exported == {"path": str(target), "rows": 5}
    assert pq.read_table(target).num_rows == 5
    everything = cli.json("export", str(tmp_path / "all.parquet"))
    assert everything["rows"] == 6

    before = cli.json("sql", "select * from fact_versions order by version_id, fact_id")
    code, out, err = cli.run("--json", "rebuild")
    assert code == 0
    assert json.loads(out)["events"] == 6
    assert "6/6" in err  # the progress bar went to stderr
    after = cli.json("sql", "select * from fact_versions order by version_id, fact_id")
    assert after == before


def test_demo_runs_in_process(cli: Cli, tmp_path: Path) -> None:
    """The demo supersedes, corrects and shows as-of and the drift chain."""
    summary = cli.json("demo")
    assert summary["store"] is None  # the temporary store was removed
    assert [f["value"] for f in summary["chain"]] == ["Firefox", "Chrome", "Edge"]
    believed = {f["attribute"]: f["value"] for f in summary["as_of"]["facts"]}
    assert believed == {"browser.default": "Chrome", "home.city": "Detriot"}
    now = {f["attribute"]: f["value"] for f in summary["current"]
           if f["entity"] == "user:alex"}
    assert now == {"browser.default": "Edge", "home.city": "Detroit"}
    assert summary["seconds"] < 30

    kept = tmp_path / "kept"
    out = cli.ok("demo", str(kept))
    assert "Firefox" in out
    assert (kept / "events.db").exists()
    assert "not empty" in cli.fails("demo", str(kept))


@pytest.mark.slow
def test_installed_console_script_runs_the_demo() -> None:
    """`memory-es demo` as installed by pip runs to the end in a subprocess, in seconds."""
    script = Path(sys.executable).parent / "memory-es"
    assert script.exists(), "pip install -e . should have installed the memory-es script"
    done = subprocess.run([str(script), "demo"], capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert "Firefox" in done.stdout
    assert "Traceback" not in done.stderr
    assert "done in" in done.stdout


def test_reversible_layers_and_forget_fact(cli: Cli) -> None:
    """mask/unmask and archive/restore are reversible; forget-fact is terminal."""
    fact = cli.json("assert", "acme", "user:alex", "home.city", "Oslo")["fact_id"]
    assert cli.json("mask", fact)["op"] == "mask"
    assert "<masked>" in cli.ok("current", "acme")
    assert "Oslo" not in cli.ok("current", "acme")
    cli.ok("unmask", fact)
    assert [f["value"] for f in cli.json("current", "acme")] == ["Oslo"]
    cli.ok("archive", fact, "--reason", "clean-up")
    assert cli.json("current", "acme") == []
    cli.ok("restore", fact)
    assert [f["value"] for f in cli.json("current", "acme")] == ["Oslo"]
    cli.ok("forget-fact", fact)
    assert cli.json("current", "acme") == []
    assert cli.fails("restore", fact)


def test_preview_purge_and_audit(cli: Cli) -> None:
    """preview lists the facts and a token; purge shreds with a receipt; the audit holds."""
    kept = cli.json("assert", "acme", "user:alex", "home.city", "Oslo")["fact_id"]
    gone = [cli.json("assert", "acme", "user:dana", attr, "secret")["fact_id"]
            for attr in ("home.city", "pref.x")]
    preview = cli.json("preview", "purge", "acme", "user:dana")
    assert sorted(preview["facts"]) == sorted(gone)
    assert preview["token"]
    assert "token" in cli.ok("preview", "purge", "acme", "user:dana")

    receipt = cli.json("purge", "acme", "user:dana", "--requested-by", "dpo@acme",
                       "--confirm", preview["token"])
    assert receipt["effect"] == "purge"
    assert receipt["fact_count"] == 2
    assert receipt["report"]["complete"] is True
    assert [f["fact_id"] for f in cli.json("current", "acme")] == [kept]

    audit = cli.json("audit-verify")
    assert audit["ok"] is True
    assert audit["receipts_checked"] == 1
    assert "verified" in cli.ok("audit-verify")

    # verify-erasure takes the receipt's id or the receipt as a JSON file.
    code, out, err = cli.run("--json", "verify-erasure", receipt["receipt_id"])
    assert code in (0, 1), err
    report = json.loads(out)
    assert {s["name"] for s in report["stores"]} >= {"event_log", "key_store", "duckdb_views"}
    assert code == (0 if report["complete"] else 1)
    assert cli.fails("verify-erasure", "no-such-receipt")


def test_verify_erasure_is_complete_after_a_reopen(cli: Cli, tmp_path: Path) -> None:
    """A purge's receipt verifies as complete from a later process (the CLI opens anew)."""
    cli.ok("assert", "acme", "user:dana", "home.city", "Oslo")
    receipt = cli.json("purge", "acme", "user:dana")
    saved = tmp_path / "receipt.json"
    saved.write_text(json.dumps(receipt))
    report = cli.json("verify-erasure", str(saved))
    assert report["complete"] is True, report


def test_erase_routes_by_motive(cli: Cli) -> None:
    """erase --motive user_request masks; system_cleanup archives."""
    fact = cli.json("assert", "acme", "user:alex", "home.city", "Oslo")["fact_id"]
    masked = cli.json("erase", "acme", "user:alex", "--motive", "user_request")
    assert masked["effect"] == "mask"
    assert [f["masked"] for f in cli.json("current", "acme")] == [True]
    archived = cli.json("erase", "acme", "user:alex", "--motive", "system_cleanup")
    assert archived["effect"] == "archive"
    assert cli.json("current", "acme") == []
    assert fact in archived["fact_ids"]


def test_replay_and_history(cli: Cli, tmp_path: Path) -> None:
    """replay rebuilds belief at --known-at from the log; history lists a chain's events."""
    first = cli.json("assert", "acme", "user:alex", "home.city", "Detroit",
                     "--valid-from", "2024-01-01T00:00:00Z")
    cli.ok("supersede", "acme", "user:alex", "home.city", "Chicago")
    then = cli.json("replay", "--known-at", first["recorded_at"])
    assert [(r["value"], r["fact_id"]) for r in then] == [("Detroit", first["fact_id"])]
    out = tmp_path / "replay.parquet"
    written = cli.json("replay", "--known-at", "2100-01-01T00:00:00Z", "--out", str(out))
    assert written["rows"] == pq.read_table(out).num_rows >= 2
    history = cli.json("history", "acme", first["fact_id"])
    assert history[0]["op"] == "FactAsserted"
    assert history[0]["value"] == "Detroit"
    assert len(history) >= 2
    assert "recorded_at" in cli.ok("history", "acme", first["fact_id"]).splitlines()[0]


def test_anchor_rotate_and_audit_against_the_anchor(cli: Cli, tmp_path: Path) -> None:
    """`anchor` writes a signed head outside the store (refused inside it), `audit-verify
    --anchor` checks against it, and `rotate-master-key` moves the store to a new key file
    that later commands name with --key-file."""
    cli.json("assert", "acme", "user:alex", "home.city", "Detroit")
    assert "outside" in cli.fails("anchor", str(cli.store / "inside.json"))
    written = cli.json("anchor", str(tmp_path / "anchor.json"))
    assert written["position"] >= 1 and (tmp_path / "anchor.json").exists()
    assert cli.json("audit-verify", "--anchor", str(tmp_path / "anchor.json"))["anchor_checked"]
    new_key = tmp_path / "new.key"
    assert cli.json("rotate-master-key", str(new_key))["rewrapped"] >= 1
    assert not (cli.store / "master.key").exists()
    facts = cli.json("--key-file", str(new_key), "current", "acme")
    assert [f["value"] for f in facts] == ["Detroit"]
    report = cli.json("--key-file", str(new_key), "audit-verify", "--anchor",
                      str(tmp_path / "anchor.json"))
    assert report["ok"]
    code, _, err = cli.run("current", "acme")  # without the new key: refused, nothing made
    assert code == 2 and "key_file" in err
    assert not (cli.store / "master.key").exists()


def test_notes_gates_links_and_consolidation_on_the_command_line(cli: Cli) -> None:
    """A refused note exits 2 with every reason (as JSON with --json); written notes link
    and consolidate into a pattern that recall shows in their place."""
    err = cli.fails("note", "acme", "team:ops", "finding", "flaky")
    assert "quality gate" in err and "too short" in err and "depth marker" in err
    code, _, err = cli.run("--json", "note", "acme", "team:ops", "finding", "flaky")
    refused = json.loads(err)
    assert code == 2 and refused["error"] == "QualityRejected" and refused["score"] < 0.6
    assert len(refused["issues"]) == 3
    ids = [cli.json("note", "acme", f"team:{team}", "finding",
                    f"Found that the {team} export fails because the disk quota is hit at "
                    f"night, measured twice.")["fact_id"] for team in ("ops", "web", "data")]
    linked = cli.json("links", "acme", ids[0])
    assert {link["fact_id"] for link in linked} == set(ids[1:])
    patterns = cli.json("consolidate", "acme")
    assert len(patterns) == 1
    assert "no pattern written" in cli.ok("consolidate", "acme")
    members = {f["fact_id"]: f["consolidated_into"] for f in cli.json("current", "acme")
               if f["attribute"] == "note.finding"}
    assert members == dict.fromkeys(ids, patterns[0]["fact_id"])
    default = cli.json("recall", "acme", "why does the export fail", "-k", "4")
    widened = cli.json("recall", "acme", "why does the export fail", "-k", "4",
                       "--include-consolidated")
    assert {h["fact"]["attribute"] for h in default} == {"note.pattern"}
    assert {h["fact"]["fact_id"] for h in widened} >= set(ids)


def test_an_agents_private_value_on_the_command_line(cli: Cli) -> None:
    """--agent writes a private fact that only --agent reads see; --shared reaches all."""
    cli.ok("assert", "acme", "user:sam", "home.city", "Oslo")
    cli.ok("supersede", "acme", "user:sam", "home.city", "Bergen", "--agent", "planner")
    cli.ok("assert", "acme", "user:sam", "pet.name", "Rex", "--agent", "planner", "--shared")
    seen = {f["attribute"]: f["value"] for f in cli.json("current", "acme")}
    own = {f["attribute"]: f["value"] for f in cli.json("current", "acme", "--agent", "planner")}
    assert seen == {"home.city": "Oslo", "pet.name": "Rex"}
    assert own == {"home.city": "Bergen", "pet.name": "Rex"}
