"""Sixteenth hostile pass, the command line: a criterion text no judge prompt should hold
(P16-1: a 50 MB one kept the app deaf for 21 s at start)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewer.catalog.spec import MAX_CRITERION_TEXT
from tests.support.cli import one_line, run
from tests.support.run_files import imported_store, sample_rows, write_catalog, write_jsonl


def test_a_catalog_with_an_overlong_criterion_text_is_refused_and_makes_no_store(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    catalog = json.loads(write_catalog(tmp_path / "c.json").read_text(encoding="utf-8"))
    catalog["criteria"][0]["text"] = "Ton calme " * (MAX_CRITERION_TEXT // 10 + 1)
    big = tmp_path / "big.json"
    big.write_text(json.dumps(catalog, ensure_ascii=False), encoding="utf-8")
    line = one_line(capsys, run(["--db", str(tmp_path / "n.db"), "import", "--catalog",
                                 str(big), str(write_jsonl(tmp_path / "run.jsonl",
                                                           sample_rows()))]), 2)
    assert f"the text is {MAX_CRITERION_TEXT + 10:,} characters, at most " \
        f"{MAX_CRITERION_TEXT:,}" in line, line
    assert not (tmp_path / "n.db").exists()


def test_criterion_text_beyond_the_bound_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = imported_store(tmp_path)
    criterion = json.loads((tmp_path / "c.json").read_text(encoding="utf-8"))["criteria"][0]
    capsys.readouterr()
    line = one_line(capsys, run(["--db", db, "criterion", criterion["id"], "--text",
                                 "x" * (MAX_CRITERION_TEXT + 1), "--reason", "long"]), 2)
    assert f"at most {MAX_CRITERION_TEXT:,}" in line, line


@pytest.mark.parametrize("spelling", ["?password=S3CRETq", "?sslmode=disable&PASSWORD=S3CRETq"])
def test_a_password_given_as_a_url_parameter_is_never_printed(
        capsys: pytest.CaptureFixture[str], spelling: str) -> None:
    # P16-7: `postgresql+psycopg://u@127.0.0.1:1/db?password=S3CRETq` printed the password
    # in the error line; one in the user part (`u:pw@`) was masked.
    line = one_line(capsys, run(["--db", f"postgresql+psycopg://u@127.0.0.1:1/db{spelling}",
                                 "stats"]), 1)
    assert "S3CRETq" not in line, line
    assert "=***" in line, line
