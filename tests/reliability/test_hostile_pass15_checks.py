"""Fifteenth hostile pass, the command line: a false positive on a check that passed."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select

from models import ReviewDecision
from reviewer.store import open_store
from tests.support.cli import one_line, run
from tests.support.run_files import imported_store

RUN = "2026-10-14-ministral-8b"
PASSED = f"{RUN}/recette-001/1/1"  # D-COMMERCE passed
FAILED = f"{RUN}/recette-001/2/2"  # D-COMMERCE failed


def stored_checks(db: str) -> list[tuple[str, str]]:
    store = open_store(db)
    try:
        with store.session() as s:
            return [(r.reviewer, str(r.checks)) for r in s.scalars(select(ReviewDecision))]
    finally:
        store.close()


def test_a_false_positive_on_a_check_that_passed_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # P15-10: `decide …/2/1 --accept --check D-LIEN=false-positive` on an attempt whose
    # D-LIEN passed was stored, "2 field(s) set", without a word.
    db = imported_store(tmp_path)
    capsys.readouterr()
    line = one_line(capsys, run(["--db", db, "--reviewer", "bob", "decide", PASSED,
                                 "--accept", "--check", "D-COMMERCE=false-positive"]), 2)
    assert f"D-COMMERCE passed on {PASSED}" in line, line
    assert stored_checks(db) == []
    # On the attempt where it failed it is what it says.
    assert run(["--db", db, "--reviewer", "bob", "decide", FAILED,
                "--check", "D-COMMERCE=false-positive"]) == 0
    assert len(stored_checks(db)) == 1


def test_the_same_in_a_csv_names_its_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = imported_store(tmp_path)
    csv = tmp_path / "d.csv"
    csv.write_text("key,decision,criteria,checks,note,reviewer\n"
                   f"{FAILED},,,D-COMMERCE=false-positive,,\n"
                   f"{PASSED},accept,,D-COMMERCE=false-positive,,\n", encoding="utf-8")
    capsys.readouterr()
    line = one_line(capsys, run(["--db", db, "--reviewer", "bob", "decide", "--from-csv",
                                 str(csv)]), 2)
    assert line.startswith(f"reviewer: {csv}:3: D-COMMERCE passed on {PASSED}"), line
    assert stored_checks(db) == []  # all or nothing
