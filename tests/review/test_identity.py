"""Who decides is who said so: one rule for reviewer names, at every place a name enters.

A name is trimmed and NFC-normalised, 1 to 100 characters, printable: no control
character (newline, tab…), no bidi control, no zero-width or other invisible character.
Otherwise a clear one-line error (exit 2) and nothing is written. The GUI's entry points
(the Settings dialog, ``reviewer gui --reviewer``) are tested in tests/ui/test_ui_identity.py.
"""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest
from sqlalchemy import func, select

from models import AuditEvent, CheckVersion, CriterionVersion, ReviewDecision
from reviewer.cli.main import main
from reviewer.errors import BadInputError
from reviewer.review import actions
from reviewer.review.identity import MAX_NAME, reviewer_name
from reviewer.store import Store
from tests.support.feedback_stores import attempt_id, key, load_backtest_store
from tests.support.stores import act

# The storage-touching tests run on SQLite and on the throwaway PostgreSQL server.
pytestmark = pytest.mark.both_backends

FORGED = "alice\nbob: reject"
BAD_NAMES = {
    "newline (a forged line under Other reviewers)": FORGED,
    "tab": "alice\tbob",
    "carriage return": "alice\rbob",
    "zero-width space (a second claire)": "claire\u200b",
    "zero-width joiner": "cla\u200dire",
    "right-to-left override": "\u202eenilorac",
    "bidi isolate": "eve\u2067x\u2069",
    "left-to-right mark": "\u200ezoe",
    "byte order mark": "\ufeffzoe",
    "soft hyphen": "clai\u00adre",
    "Hangul filler (blank letter)": "zoe\u3164",
    "variation selector": "zoe\ufe0f",
    "NUL": "bo\x00b",
    "escape sequence": "bob\x1b[31m",
    "line separator": "alice\u2028bob",
    "no-break space": "claire\u00a0dupont",
    "not UTF-8 (a lone surrogate from the command line)": "bob\udcff",
    "empty": "",
    "only spaces": "   ",
    "too long": "x" * (MAX_NAME + 1),
}


def test_good_names_are_trimmed_and_normalised() -> None:
    assert reviewer_name("  claire ") == "claire"
    assert reviewer_name("Zoe\u0301") == "Zoé" == unicodedata.normalize("NFC", "Zoe\u0301")
    for name in ("Jean-François", "李雷", "Ørjan Østby", "o'brien", "x" * MAX_NAME, "a b"):
        assert reviewer_name(name) == name


@pytest.mark.parametrize("name", BAD_NAMES.values(), ids=BAD_NAMES.keys())
def test_bad_names_are_refused_with_a_clear_line(name: str) -> None:
    with pytest.raises(BadInputError) as caught:
        reviewer_name(name)
    message = str(caught.value)
    assert message.startswith("reviewer name")
    assert "\n" not in message and "\r" not in message
    # The message shows the name with its hidden characters spelt out, never obeyed.
    assert all(ch.isprintable() for ch in message), message


def test_the_message_names_the_hidden_character() -> None:
    with pytest.raises(BadInputError, match=r"U\+200B"):
        reviewer_name("claire\u200b")
    with pytest.raises(BadInputError, match="at most 100 characters"):
        reviewer_name("x" * 101)
    with pytest.raises(BadInputError, match="empty"):
        reviewer_name("  ")


# -- every entry point of the command line ------------------------------------------------


@pytest.fixture
def loaded(tmp_path: Path, store: Store) -> Store:
    load_backtest_store(store, tmp_path)
    return store


def counts(store: Store) -> tuple[int, int, int, int]:
    """Rows a decision or a new catalog version would add."""
    with store.session() as s:
        return tuple(int(s.scalar(select(func.count()).select_from(t)) or 0)  # type: ignore[return-value]
                     for t in (ReviewDecision, AuditEvent, CheckVersion, CriterionVersion))


def refused(capsys: pytest.CaptureFixture[str], code: int) -> str:
    err = capsys.readouterr().err
    assert code == 2, err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("reviewer: "), err
    assert "Traceback" not in err
    return lines[0]


def entry_points(db_url: str, name: str) -> dict[str, list[str]]:
    """Each command that takes the name of who acts, with the name given its own way."""
    return {
        "decide --reviewer": ["--db", db_url, "decide", key(6), "--reject", "--reviewer", name],
        "global --reviewer, decide": ["--db", db_url, "--reviewer", name, "decide", key(6),
                                      "--accept"],
        "queue --reviewer": ["--db", db_url, "queue", "--reviewer", name],
        "global --reviewer, queue": ["--db", db_url, "--reviewer", name, "queue"],
        "global --reviewer, check": ["--db", db_url, "--reviewer", name, "check",
                                     "D-COMMERCE", "--pattern", "inscri", "--reason", "why"],
        "global --reviewer, criterion": ["--db", db_url, "--reviewer", name, "criterion",
                                         "G-DEMANDE", "--text", "Répond.", "--reason", "why"],
    }


@pytest.mark.parametrize("what", ["decide --reviewer", "global --reviewer, decide",
                                  "queue --reviewer", "global --reviewer, queue",
                                  "global --reviewer, check", "global --reviewer, criterion"])
def test_every_command_refuses_a_forged_name_and_writes_nothing(
        loaded: Store, db_url: str, capsys: pytest.CaptureFixture[str], what: str) -> None:
    before = counts(loaded)
    for name in (FORGED, "claire\u200b", "\u202eeve"):
        line = refused(capsys, main(entry_points(db_url, name)[what]))
        assert "reviewer name" in line
    assert counts(loaded) == before


@pytest.mark.parametrize("what", ["decide --reviewer", "global --reviewer, decide",
                                  "queue --reviewer"])
def test_an_empty_reviewer_option_is_an_error_not_the_login_name(
        loaded: Store, db_url: str, capsys: pytest.CaptureFixture[str], what: str) -> None:
    before = counts(loaded)
    line = refused(capsys, main(entry_points(db_url, "")[what]))
    assert "empty" in line
    assert counts(loaded) == before


def test_a_good_name_is_stored_trimmed_and_normalised(loaded: Store, db_url: str) -> None:
    assert main(["--db", db_url, "decide", key(6), "--reject", "--reviewer", " Zoe\u0301 "]) == 0
    with loaded.session() as s:
        names = set(s.scalars(select(ReviewDecision.reviewer)))
    assert "Zoé" in names and not any(n != n.strip() or "\u0301" in n for n in names)


def test_reviewer_name_variable_is_checked(
        loaded: Store, db_url: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    before = counts(loaded)
    monkeypatch.setenv("REVIEWER_NAME", FORGED)
    line = refused(capsys, main(["--db", db_url, "decide", key(6), "--reject"]))
    assert "$REVIEWER_NAME" in line
    assert counts(loaded) == before
    monkeypatch.setenv("REVIEWER_NAME", " ines ")
    assert main(["--db", db_url, "decide", key(6), "--reject"]) == 0
    with loaded.session() as s:
        assert s.scalar(select(ReviewDecision).where(ReviewDecision.reviewer == "ines"))


def test_csv_reviewer_column_is_checked_with_file_and_line(
        loaded: Store, db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = counts(loaded)
    csv = tmp_path / "batch.csv"
    # The csv module keeps a quoted newline inside the cell: the forged name reaches the row.
    csv.write_text(f'key,decision,reviewer\n{key(3)},accept,claire\n'
                   f'{key(6)},reject,"{FORGED}"\n', encoding="utf-8")
    line = refused(capsys, main(["--db", db_url, "decide", "--from-csv", str(csv)]))
    assert line.startswith(f"reviewer: {csv}:3: reviewer name")  # where the row starts
    csv.write_text(f"key,decision,reviewer\n{key(3)},accept,claire\u200b\n", encoding="utf-8")
    line = refused(capsys, main(["--db", db_url, "decide", "--from-csv", str(csv)]))
    assert line.startswith(f"reviewer: {csv}:2: reviewer name") and "U+200B" in line
    assert counts(loaded) == before


def test_a_zero_width_twin_never_becomes_a_second_reviewer(
        loaded: Store, db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--db", db_url, "decide", key(6), "--reject", "--reviewer", "claire"]) == 0
    assert main(["--db", db_url, "decide", key(6), "--accept",
                 "--reviewer", "claire\u200b"]) == 2
    capsys.readouterr()
    assert main(["--db", db_url, "stats", "--json"]) == 0
    reviewers = json.loads(capsys.readouterr().out)["reviewers"]
    with loaded.session() as s:
        names = set(s.scalars(select(ReviewDecision.reviewer)))
    assert "claire\u200b" not in names and "claire\u200b" not in json.dumps(reviewers,
                                                                            ensure_ascii=False)


def test_the_domain_refuses_a_bad_name_whoever_calls_it(loaded: Store) -> None:
    aid = attempt_id(loaded, key(6))
    before = counts(loaded)
    for call in (lambda s: actions.decide(s, FORGED, aid, "reject"),
                 lambda s: actions.set_note(s, "claire\u200b", aid, "hello"),
                 lambda s: actions.toggle_criterion(s, "\u202eeve", aid, "G-DEMANDE")):
        with pytest.raises(BadInputError, match="reviewer name"):
            act(loaded, call)
    assert counts(loaded) == before


# -- ninth hostile pass, N2: one person, one reviewer, whatever the case or width ---------


def names_stored(store: Store) -> set[str]:
    """The reviewers who decided, besides the loaded store's own (``associe``)."""
    with store.session() as s:
        return set(s.scalars(select(ReviewDecision.reviewer))) - {"associe"}


def test_compatibility_spellings_are_the_plain_name() -> None:
    """A full-width or ligature spelling is never another person: NFKC folds it."""
    assert reviewer_name("ａｌｉｃｅ") == "alice"
    assert reviewer_name("ﬁona") == "fiona"
    assert reviewer_name("Ｂｏｂ") == "Bob"  # the case is kept
    # What NFKC would turn into a plain space or nothing is still refused as typed.
    for name in ("claire\u00a0dupont", "claire\u3000dupont"):
        with pytest.raises(BadInputError, match="a space other than the plain space"):
            reviewer_name(name)


def test_a_name_that_differs_only_by_case_is_refused_naming_the_stored_one(
        loaded: Store, db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--db", db_url, "--reviewer", "alice", "decide", key(6), "--accept"]) == 0
    before = counts(loaded)
    capsys.readouterr()
    for argv in (["--reviewer", "ALICE", "decide", key(6), "--reject"],
                 ["decide", key(3), "--reject", "--reviewer", "Alice"],
                 ["--reviewer", "ALICE", "queue"]):
        line = refused(capsys, main(["--db", db_url, *argv]))
        typed = argv[argv.index("--reviewer") + 1]
        assert line == (f"reviewer: reviewer name {typed!r}: the store already knows this "
                        "reviewer as 'alice'; use that name")
    assert counts(loaded) == before
    # Full width is alice herself, not a second reviewer.
    assert main(["--db", db_url, "--reviewer", "ａｌｉｃｅ", "decide", key(3), "--reject"]) == 0
    assert names_stored(loaded) == {"alice"}
    # A name the store does not know keeps its case.
    assert main(["--db", db_url, "--reviewer", "Bob", "decide", key(6), "--reject"]) == 0
    assert main(["--db", db_url, "--reviewer", "ﬁona", "decide", key(6), "--reject"]) == 0
    assert names_stored(loaded) == {"alice", "Bob", "fiona"}
    line = refused(capsys, main(["--db", db_url, "--reviewer", "FIONA", "decide", key(3),
                                 "--reject"]))
    assert line.endswith("the store already knows this reviewer as 'fiona'; use that name")


def test_the_csv_reviewer_column_is_checked_against_the_store(
        loaded: Store, db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--db", db_url, "--reviewer", "alice", "decide", key(6), "--accept"]) == 0
    before = counts(loaded)
    csv = tmp_path / "batch.csv"
    csv.write_text(f"key,decision,reviewer\n{key(3)},accept,ａｌｉｃｅ\n{key(6)},reject,ALICE\n",
                   encoding="utf-8")
    capsys.readouterr()
    line = refused(capsys, main(["--db", db_url, "decide", "--from-csv", str(csv)]))
    assert line == (f"reviewer: {csv}:3: reviewer name 'ALICE': the store already knows "
                    "this reviewer as 'alice'; use that name")
    assert counts(loaded) == before
    # Two new spellings of one new name in one file: the first one is the name.
    csv.write_text(f"key,decision,reviewer\n{key(3)},accept,Zoé\n{key(6)},reject,ZOÉ\n",
                   encoding="utf-8")
    line = refused(capsys, main(["--db", db_url, "decide", "--from-csv", str(csv)]))
    assert line.startswith(f"reviewer: {csv}:3: reviewer name 'ZOÉ': the store already "
                           "knows this reviewer as 'Zoé'")
    assert counts(loaded) == before


def test_the_domain_refuses_a_case_twin_whoever_calls_it(loaded: Store) -> None:
    aid = attempt_id(loaded, key(6))
    act(loaded, lambda s: actions.decide(s, "alice", aid, "accept"))
    before = counts(loaded)
    for call in (lambda s: actions.decide(s, "ALICE", aid, "reject"),
                 lambda s: actions.set_note(s, "Alice", aid, "hello"),
                 lambda s: actions.toggle_criterion(s, "aLiCe", aid, "G-DEMANDE")):
        with pytest.raises(BadInputError, match="already knows this reviewer as 'alice'"):
            act(loaded, call)
    assert counts(loaded) == before


def test_a_store_that_already_holds_case_twins_still_works(
        loaded: Store, db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Names stored by an earlier version (``ALICE`` beside ``alice``, a full-width
    ``ｂｏｂ``) are kept as they are: shown, counted, exported; each spelling that is a
    valid name today decides under itself; a third spelling is refused naming both."""
    with loaded.session() as s:
        for reviewer, k in (("alice", key(3)), ("ALICE", key(6)), ("ｂｏｂ", key(3))):
            s.add(ReviewDecision(attempt_id=attempt_id(loaded, k), reviewer=reviewer,
                                 decision="accept"))
    capsys.readouterr()
    assert main(["--db", db_url, "stats", "--json"]) == 0
    shown = json.dumps(json.loads(capsys.readouterr().out)["reviewers"], ensure_ascii=False)
    assert all(f'"{name}"' in shown for name in ("alice", "ALICE", "ｂｏｂ")), shown
    assert main(["--db", db_url, "export", "golden", str(tmp_path / "g.jsonl"),
                 "--reviewer", "ALICE"]) == 0
    assert main(["--db", db_url, "--reviewer", "ALICE", "decide", key(6), "--reject"]) == 0
    assert main(["--db", db_url, "--reviewer", "alice", "decide", key(6), "--reject"]) == 0
    capsys.readouterr()
    line = refused(capsys, main(["--db", db_url, "--reviewer", "Alice", "decide", key(6),
                                 "--reject"]))
    assert line.endswith("the store already knows this reviewer as 'ALICE' or 'alice'; use "
                         "one of those names")
    # The full-width bob types ｂｏｂ as before: that is bob now, never refused.
    assert main(["--db", db_url, "--reviewer", "ｂｏｂ", "decide", key(6), "--reject"]) == 0
    assert names_stored(loaded) == {"alice", "ALICE", "ｂｏｂ", "bob"}


def test_marks_stacked_past_any_written_name_are_refused() -> None:
    # Fifteenth hostile pass, P15-9: "a" + 99 and "a" + 100 x U+0301 both showed as "á",
    # two reviewers no one could tell apart.
    for stack in (99, 100, 4):
        with pytest.raises(BadInputError, match=r"stacks \d+ combining marks on one letter"):
            reviewer_name("a" + "\u0301" * stack)
    # Names as written keep their marks: Vietnamese stacks two, decomposed or not.
    for name in ("Nguyễn Thị Ệ", unicodedata.normalize("NFD", "Nguyễn Thị Ệ"),
                 "a\u0301\u0302\u0303"):
        assert reviewer_name(name) == unicodedata.normalize("NFC", name)
