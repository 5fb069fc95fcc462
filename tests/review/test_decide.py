"""``reviewer decide``: one attempt or a CSV batch, through the audit trail (undo sees it)."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import func, select

from models import AuditEvent
from reviewer.cli.main import main
from reviewer.review.decisions import get_decision, undo
from reviewer.store import Store
from tests.support.feedback_stores import attempt_id, key, load_backtest_store

# Storage-touching tests run on SQLite and on the throwaway PostgreSQL server.
pytestmark = pytest.mark.both_backends


@pytest.fixture
def loaded(tmp_path: Path, store: Store) -> Store:
    load_backtest_store(store, tmp_path)
    return store


def events(store: Store) -> int:
    with store.session() as s:
        return int(s.scalar(select(func.count()).select_from(AuditEvent)) or 0)


def decisions_csv(path: Path, *rows: str) -> Path:
    """A decisions CSV: its header, then ``rows`` (each ending in a newline)."""
    path.write_text("key,decision,criteria,checks,note,reviewer\n" + "".join(rows),
                    encoding="utf-8")
    return path


def test_decide_one_attempt_goes_through_the_audit_trail(
        loaded: Store, db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    before = events(loaded)
    code = main(["--db", db_url, "decide", key(6), "--accept", "--criterion", "G-DEMANDE=met",
                 "--check", "D-COMMERCE=false-positive", "--note", "« inscription » citée",
                 "--reviewer", "claire"])
    assert code == 0
    assert "4 field(s) set by claire" in capsys.readouterr().out
    aid = attempt_id(loaded, key(6))
    with loaded.session() as s:
        row = get_decision(s, aid, "claire")
        assert row is not None
        assert (row.decision, row.criteria, row.checks, row.note) == (
            "accept", {"G-DEMANDE": True}, {"D-COMMERCE": "false_positive"},
            "« inscription » citée")
    assert events(loaded) == before + 4
    # The app's undo sees the CLI's changes: the last one (the note) is undone first.
    with loaded.session() as s:
        assert undo(s, "claire") is not None
        row = get_decision(s, aid, "claire")
        assert row is not None and row.note == "" and row.decision == "accept"
    # Deciding the same again adds nothing.
    assert main(["--db", db_url, "decide", key(6), "--accept", "--reviewer", "claire"]) == 0
    assert "0 field(s)" in capsys.readouterr().out


@pytest.mark.parametrize("argv,message", [
    (["decide", "r/c/1/1", "--accept"], "no attempt r/c/1/1"),
    (["decide", "nokey", "--accept"], "an attempt key is"),
    (["decide", "KEY", "--criterion", "G-DEMANDE=maybe"], "expected ID=met|unmet"),
    (["decide", "KEY", "--criterion", "G-NOPE=met"], "unknown criterion"),
    (["decide", "KEY"], "nothing to record"),
])
def test_decide_bad_input_exits_2_and_writes_nothing(
        loaded: Store, db_url: str, capsys: pytest.CaptureFixture[str],
        argv: list[str], message: str) -> None:
    before = events(loaded)
    argv = [key(6) if a == "KEY" else a for a in argv]
    assert main(["--db", db_url, *argv]) == 2
    assert message in capsys.readouterr().err
    assert events(loaded) == before


def test_decide_from_csv_is_all_or_nothing(
        loaded: Store, db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = events(loaded)
    bad = decisions_csv(tmp_path / "bad.csv",
            f"{key(6)},accept,,,,bob\n"
            f"{key(3)},maybe,,,,bob\n")
    assert main(["--db", db_url, "decide", "--from-csv", str(bad)]) == 2
    assert f"{bad}:3: decision 'maybe'" in capsys.readouterr().err
    missing = decisions_csv(tmp_path / "missing.csv",
            f"{key(6)},accept,,,,bob\n"
            "2026-10-14-ministral-8b/bt/9/9,reject,,,,bob\n")
    assert main(["--db", db_url, "decide", "--from-csv", str(missing)]) == 2
    assert f"{missing}:3: no attempt" in capsys.readouterr().err
    assert events(loaded) == before  # the good first rows were rolled back too

    good = decisions_csv(tmp_path / "good.csv",
            f"{key(6)},reject,G-DEMANDE=met;E-INVENTE=unmet,,\"pousse, à l'inscription\",bob\n"
            # key(2): D-COMMERCE failed there; a false positive on a check that passed
            # is refused (fifteenth hostile pass, P15-10).
            f"{key(2)},,,D-COMMERCE=false-positive,,\n")
    assert main(["--db", db_url, "decide", "--from-csv", str(good), "--reviewer", "dan"]) == 0
    assert "2 row(s), 5 field(s) set" in capsys.readouterr().out
    with loaded.session() as s:
        bob = get_decision(s, attempt_id(loaded, key(6)), "bob")
        dan = get_decision(s, attempt_id(loaded, key(2)), "dan")
        assert bob is not None and dan is not None
        assert bob.decision == "reject"
        assert bob.criteria == {"G-DEMANDE": True, "E-INVENTE": False}
        assert bob.note == "pousse, à l'inscription"
        assert dan.checks == {"D-COMMERCE": "false_positive"} and dan.decision is None


def test_decide_takes_the_global_reviewer_option(loaded: Store, db_url: str) -> None:
    assert main(["--db", db_url, "--reviewer", "eve", "decide", key(6), "--reject"]) == 0
    with loaded.session() as s:
        row = get_decision(s, attempt_id(loaded, key(6)), "eve")
        assert row is not None and row.decision == "reject"


def test_a_field_set_twice_differently_in_one_csv_is_refused(
        loaded: Store, db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Eleventh hostile pass, V8(4): reject then accept for one key answered "2 row(s),
    # 3 field(s) set": the last row won without a word.
    before = events(loaded)
    twice = decisions_csv(tmp_path / "twice.csv",
            f"{key(6)},reject,,,,bob\n"
            f"{key(3)},accept,,,,bob\n"
            f"{key(6)},accept,,,,bob\n")
    assert main(["--db", db_url, "decide", "--from-csv", str(twice)]) == 2
    err = capsys.readouterr().err
    assert f"{twice}:4: the decision of {key(6)} was already set to another value at line 2" \
        in err, err
    assert events(loaded) == before
    # The same value twice, another field on another row, or another reviewer: fine.
    fine = decisions_csv(tmp_path / "fine.csv",
            f"{key(6)},reject,,,,bob\n"
            f"{key(6)},reject,,,a note,bob\n"
            f"{key(6)},accept,,,,carol\n")
    assert main(["--db", db_url, "decide", "--from-csv", str(fine)]) == 0, \
        capsys.readouterr().err
