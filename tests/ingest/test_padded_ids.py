"""Ids with a space before or after them (fifteenth blind hostile pass, P15-1).

The import refused an all-space run id but stored `` 2026-…`` (a leading space) as is: the
store then held two attempts whose keys differ only by that space. ``decide``, ``decide
--from-csv`` and ``gui --attempt`` stripped the key typed and recorded the decision (and
replaced the note) on the *other* run's attempt; in the app both rows read the same.

The import now refuses such ids (FILE:LINE, as ``/`` or a control character). A store an
earlier version filled keeps working: a key names the attempt spelt exactly as typed;
else the one attempt whose ids, spaces around them set aside, are the key's; and when
there are several of those, the key is refused naming them, nothing recorded.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select, text

from models import Attempt, Conversation, ReviewDecision, Run
from reviewer.errors import BAD_INPUT
from reviewer.store import Store
from tests.support.cli import one_line, run
from tests.support.run_files import padded_runs, record, write_catalog, write_jsonl

pytestmark = pytest.mark.both_backends

RUN = "2026-10-14-ministral-8b"
KEY = f"{RUN}/recette-033/2/1"


def stored_runs(store: Store) -> list[str]:
    with store.session() as s:
        return sorted(s.scalars(select(Run.name)))


@pytest.mark.parametrize(("field", "value"), [
    ("run", f" {RUN}"), ("run", f"{RUN} "), ("conversation", " recette-033"),
    ("conversation", "recette-033  "),
])
def test_an_id_with_a_space_around_it_is_refused_by_the_import(
        store: Store, db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        field: str, value: str) -> None:
    good = record("recette-033", 2, 1)
    bad = {**good, field: value}
    path = write_jsonl(tmp_path / "space.jsonl", [good, bad])
    line = one_line(capsys, run(["--db", db_url, "import", str(path), "--catalog",
                                 str(write_catalog(tmp_path / "c.json"))]), BAD_INPUT)
    assert line.startswith(f"reviewer: {path}:2: '{field}' "), line
    assert repr(value) in line and "space" in line, line
    assert stored_runs(store) == []  # all or nothing: the good line is not kept either


def decided(store: Store) -> list[tuple[str, str, str]]:
    with store.session() as s:
        return sorted((r, d, n) for r, d, n in s.execute(
            select(Run.name, ReviewDecision.decision, ReviewDecision.note)
            .join(Conversation, Conversation.run_id == Run.id)
            .join(Attempt, Attempt.conversation_id == Conversation.id)
            .join(ReviewDecision, ReviewDecision.attempt_id == Attempt.id)))


def test_a_key_typed_with_its_space_names_that_attempt_and_no_other(
        store: Store, db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    padded_runs(store, tmp_path, [f" {RUN}"])
    assert run(["--db", db_url, "--reviewer", "zoe", "decide", f" {KEY}", "--reject",
                "--note", "space"]) == 0
    # The line names the attempt decided, its space shown as `queue` prints it.
    assert capsys.readouterr().out == f" {KEY}: 2 field(s) set by zoe\n"
    assert decided(store) == [(f" {RUN}", "reject", "space")]
    assert run(["--db", db_url, "--reviewer", "zoe", "decide", KEY, "--accept",
                "--note", "plain"]) == 0
    assert decided(store) == [(f" {RUN}", "reject", "space"), (RUN, "accept", "plain")]
    # A CSV row for the space key: that attempt, never the other one.
    csv = tmp_path / "d.csv"
    csv.write_text(f'key,decision,criteria,checks,note,reviewer\n" {KEY}",accept,,,csv,\n',
                   encoding="utf-8")
    assert run(["--db", db_url, "--reviewer", "zoe", "decide", "--from-csv", str(csv)]) == 0
    assert decided(store) == [(f" {RUN}", "accept", "csv"), (RUN, "accept", "plain")]


@pytest.mark.parametrize("typed", [f"  {KEY}", f"{RUN} /recette-033/2/1",
                                   f"{RUN}/ recette-033/2/1"])
def test_a_key_that_names_two_attempts_but_for_spaces_is_refused(
        store: Store, db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        typed: str) -> None:
    padded_runs(store, tmp_path, [f" {RUN}"])
    capsys.readouterr()
    line = one_line(capsys, run(["--db", db_url, "--reviewer", "zoe", "decide", typed,
                                 "--reject"]), BAD_INPUT)
    assert repr(KEY) in line and repr(f" {KEY}") in line, line
    assert "spaces" in line, line
    csv = tmp_path / "d.csv"
    csv.write_text(f'key,decision,criteria,checks,note,reviewer\n{KEY},,,,first,\n'
                   f'"{typed}",accept,,,,\n', encoding="utf-8")
    line = one_line(capsys, run(["--db", db_url, "--reviewer", "zoe", "decide",
                                 "--from-csv", str(csv)]), BAD_INPUT)
    assert line.startswith(f"reviewer: {csv}:3: "), line
    assert repr(KEY) in line and repr(f" {KEY}") in line, line
    assert decided(store) == []


def test_a_key_without_its_space_names_the_one_attempt_stored(
        store: Store, db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Only the space run holds recette-034: the key as the app's pane title shows it
    # (no space) names it, and the line says which attempt that was.
    padded_runs(store, tmp_path, [f" {RUN}"])
    with store.session() as s:
        s.execute(text("UPDATE conversations SET name = 'recette-034' WHERE run_id = "
                       "(SELECT id FROM runs WHERE name = :p)"), {"p": f" {RUN}"})
    capsys.readouterr()
    assert run(["--db", db_url, "--reviewer", "zoe", "decide", f"{RUN}/recette-034/2/1",
                "--reject"]) == 0
    assert capsys.readouterr().out == f" {RUN}/recette-034/2/1: 1 field(s) set by zoe\n"
    assert decided(store) == [(f" {RUN}", "reject", "")]
