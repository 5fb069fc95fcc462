"""Replaying the filter rule reproduces every imported record (demo run included)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewer.assets import demo_run
from reviewer.cli.main import main
from reviewer.ingest.demo import load_demo
from reviewer.ingest.importer import import_run
from reviewer.rule.replay_check import check_replay
from reviewer.store import Store
from tests.support.run_files import record, sample_rows, write_catalog, write_jsonl


def test_demo_run_is_reproduced(store: Store) -> None:
    load_demo(store)
    lines = [ln for ln in demo_run().read_text(encoding="utf-8").splitlines() if ln.strip()]
    records = [json.loads(ln) for ln in lines]

    result = check_replay(store)

    assert result.total == len(records) > 50
    assert result.mismatches == []
    assert result.summary() == f"{len(records)} records, all reproduced"
    # the demo exercises every kind of reason, so the check is not vacuous
    reasons = " ".join(r for rec in records for r in rec["reasons"])
    assert " échoué : " in reasons and " relevé : " in reasons and " non tenu : " in reasons
    assert any(rec["accepted"] for rec in records)


def test_a_record_the_rule_does_not_reproduce_is_listed(
    tmp_path: Path, store: Store, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    wrong_order = record("c", 1, 1, demande="non", invente="oui")
    # the rule lists verdict reasons in record order (G-DEMANDE first here)
    wrong_order["reasons"] = ["E-INVENTE relevé : Cite une loi qui n'existe pas.",
                              "G-DEMANDE non tenu : L'assistant répond directement à la demande."]
    lenient = record("c", 1, 2, demande="non")
    lenient["accepted"], lenient["reasons"] = True, []
    rows = [*sample_rows(1), wrong_order, lenient]

    import_run(store, write_jsonl(tmp_path / "r.jsonl", rows),
               catalog_path=write_catalog(tmp_path / "c.json"))

    result = check_replay(store)

    assert result.total == 6
    assert [m.key for m in result.mismatches] == ["2026-10-14-ministral-8b/c/1/1",
                                                   "2026-10-14-ministral-8b/c/1/2"]
    lenient_m = result.mismatches[1]
    assert lenient_m.stored_accepted and not lenient_m.replayed_accepted

    assert main(["--db", db_url, "replay"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "2 of 6 records not reproduced"
    assert out[2].startswith("2026-10-14-ministral-8b/c/1/2: stored accepted [], replayed refused")
    # A run the store does not hold is a typo, not "0 records, all reproduced" (ninth
    # hostile pass, X4).
    assert main(["--db", db_url, "replay", "--run", "nope", "--json"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "reviewer: --run nope: no such run (stored: 2026-10-14-ministral-8b)"]
    assert main(["--db", db_url, "replay", "--run", "2026-10-14-ministral-8b", "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["records"] == 6
