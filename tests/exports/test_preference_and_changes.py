"""Preference pairs by cause and by who labelled them; what the review changed; and the
output guard on ``grade --output`` (the other command that writes a file)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from reviewer.cli.main import main
from reviewer.store import Store
from tests.exports.realistic import make_run
from tests.support.run_files import write_catalog, write_jsonl

pytestmark = pytest.mark.both_backends


@pytest.fixture
def reviewed(store: Store, db_url: str, tmp_path: Path) -> tuple[str, Any]:
    rows, truth = make_run(9)
    run = write_jsonl(tmp_path / "run.jsonl", rows)
    assert main(["--db", db_url, "import", str(run), "--catalog",
                 str(write_catalog(tmp_path / "catalog.json"))]) == 0
    assert main(["--db", db_url, "--reviewer", "associe", "decide", "--from-csv",
                 str(truth.write_csv(tmp_path / "decisions.csv"))]) == 0
    return db_url, truth


def manifest(out: Path) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((out.parent / f"{out.name}.manifest.json").read_text())
    return doc


def without_line(pair: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in pair.items() if k != "line"}


def test_pairs_by_cause_and_label_source(reviewed: tuple[str, Any], tmp_path: Path) -> None:
    db_url, truth = reviewed
    every = tmp_path / "every.jsonl"
    assert main(["--db", db_url, "export", "preference", str(every),
                 "--include-filter-refusals"]) == 0
    doc = manifest(every)
    pairs = doc["pairs"]
    assert doc["lines"] == len(pairs) == len(every.read_text().splitlines()) > 0
    assert sum(doc["by_label_source"]["rejected"].values()) == len(pairs)
    assert doc["by_label_source"]["rejected"].keys() <= {"reviewer", "filter", "overrides",
                                                         "second opinion"}
    # Rescued attempts are accepted: never a rejected side, often a chosen one.
    assert not {p["rejected"] for p in pairs} & set(truth.rescue)
    assert {p["chosen"] for p in pairs} & set(truth.rescue)
    for cause, count in doc["by_cause"].items():
        assert count == sum(cause in p["causes"] for p in pairs)

    only = tmp_path / "invente.jsonl"
    assert main(["--db", db_url, "export", "preference", str(only),
                 "--include-filter-refusals", "--cause", "E-INVENTE"]) == 0
    kept = [without_line(p) for p in manifest(only)["pairs"]]
    assert kept == [without_line(p) for p in pairs if "E-INVENTE" in p["causes"]]
    assert 0 < len(kept) < len(pairs)  # the run has pairs refused by D-COMMERCE too
    assert manifest(only)["causes"] == ["E-INVENTE"]

    confirmed = tmp_path / "confirmed.jsonl"
    assert main(["--db", db_url, "export", "preference", str(confirmed)]) == 0
    reviewed_pairs = manifest(confirmed)["pairs"]
    assert all(p["rejected"] in truth.reject for p in reviewed_pairs)
    assert [without_line(p) for p in reviewed_pairs] == [
        without_line(p) for p in pairs if p["rejected"] in truth.reject] != []


def test_dry_run_says_what_the_review_changed_and_writes_nothing(
        reviewed: tuple[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db_url, truth = reviewed
    out = tmp_path / "train.jsonl"
    assert main(["--db", db_url, "export", "dataset", str(out), "--dry-run", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert not out.exists() and not (tmp_path / "train.jsonl.manifest.json").exists()

    assert main(["--db", db_url, "export", "dataset", str(out)]) == 0
    capsys.readouterr()
    assert figures["examples"] == len(out.read_text().splitlines())
    assert figures["examples"] == figures["filter_examples"] + figures["gained"] \
        - figures["lost"]
    assert set(figures["gained_keys"]) <= set(truth.rescue)
    assert sum(figures["gained_by_cause"].values()) >= figures["gained"] > 0
    assert figures["gained_by_cause"].keys() <= {"G-DEMANDE", "D-COMMERCE"}
    assert figures["lost_by"]["rejected by a reviewer"] == len(
        {k for k in truth.reject} & set(figures["lost_keys"]))
    assert figures["pairs"]["with_filter_refusals"] >= figures["pairs"]["reviewed"]

    assert main(["--db", db_url, "export", "dataset", str(out), "--dry-run"]) == 0
    text = capsys.readouterr().out
    assert text.startswith(f"{figures['examples']} examples per turn, "
                           f"{figures['filter_examples']} with the filter's own decisions: "
                           f"{figures['gained']} gained, {figures['lost']} lost")
    assert "gained, by refusal cause: " in text


def test_grade_output_onto_its_input_is_refused(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "in.jsonl"
    src.write_text('{"response": "a", "reference": "a"}\n', encoding="utf-8")
    before = src.read_bytes()

    assert main(["grade", "exact", str(src), "--output", str(src)]) == 2

    assert capsys.readouterr().err == (f"reviewer: cannot write {src}: it is an input of "
                                       f"this command ({src}); nothing was written\n")
    assert src.read_bytes() == before
