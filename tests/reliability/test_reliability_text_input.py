"""NUL refused everywhere text enters, and a read-only PostgreSQL database said as such,
on SQLite and PostgreSQL alike: one ``reviewer:`` line, exit 2 (or 3), nothing written.

Run and catalog files refuse NUL already (tests/reliability/test_reliability_import_cli.py);
the GUI's note dialog, search box and Settings are tested in tests/ui/test_ui_identity.py.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from sqlalchemy import func, select

from models import AuditEvent, PromptTemplate, ReviewDecision
from reviewer.cli.main import main
from reviewer.errors import BAD_INPUT, READ_ONLY
from reviewer.judge.prompts import JUDGE
from reviewer.store import open_store
from tests.reliability.faults import KEY, ROOT, make_files, readers, writers
from tests.support.cli import one_line
from tests.support.pg_server import PgServer

BOTH = pytest.mark.both_backends


@pytest.fixture
def url(db_url: str, tmp_path: Path) -> str:
    make_files(tmp_path / "files", db_url)
    return db_url


def rows(url: str) -> tuple[int, int, int]:
    store = open_store(url)
    try:
        with store.session() as s:
            return tuple(int(s.scalar(select(func.count()).select_from(t)) or 0)  # type: ignore[return-value]
                         for t in (ReviewDecision, AuditEvent, PromptTemplate))
    finally:
        store.close()


@BOTH
@pytest.mark.parametrize("column", ["note", "reviewer", "key", "criteria"])
def test_nul_in_any_csv_cell_is_refused_at_its_line(
        url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], column: str) -> None:
    before = rows(url)
    cells = {"key": KEY, "decision": "reject", "note": "vu", "reviewer": "ines",
             "criteria": "G-DEMANDE=met"}
    cells[column] = cells[column][:2] + "\x00" + cells[column][2:]
    csv = tmp_path / "nul.csv"
    csv.write_text(f"{','.join(cells)}\n{KEY},accept,ok,ines,\n{','.join(cells.values())}\n",
                   encoding="utf-8")
    line = one_line(capsys, main(["--db", url, "decide", "--from-csv", str(csv)]), BAD_INPUT)
    assert line.startswith(f"reviewer: {csv}:3: the {column} cell contains a NUL character")
    assert rows(url) == before


@BOTH
def test_nul_in_the_note_option_is_refused(url: str, capsys: pytest.CaptureFixture[str]) -> None:
    before = rows(url)
    line = one_line(capsys, main(["--db", url, "decide", KEY, "--note", "a\x00b"]), BAD_INPUT)
    assert "--note contains a NUL character" in line
    assert rows(url) == before


@BOTH
def test_a_note_that_is_not_utf8_on_the_command_line_is_refused(url: str) -> None:
    before = rows(url)
    # A Latin-1 terminal sends "é" as the byte 0xE9: Python makes it a lone surrogate.
    proc = subprocess.run([os.fsencode(sys.executable), b"-m", b"ui.cli", b"--db",
                           url.encode(), b"decide", KEY.encode(), b"--note", b"caf\xe9"],
                          cwd=ROOT, capture_output=True, timeout=300)
    err = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == BAD_INPUT, err
    assert err.startswith("reviewer: --note is not valid UTF-8 text") and err.count("\n") == 1
    assert rows(url) == before


@BOTH
@pytest.mark.parametrize("option", ["--search", "--run", "--criterion"])
def test_nul_in_a_queue_filter_is_refused(
        url: str, capsys: pytest.CaptureFixture[str], option: str) -> None:
    line = one_line(capsys, main(["--db", url, "queue", option, "da\x00te"]), BAD_INPUT)
    assert f"{option} contains a NUL character" in line


@BOTH
def test_nul_in_a_prompt_file_is_refused_naming_the_file(
        url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from reviewer.judge.prompts import DEFAULT_JUDGE

    before = rows(url)
    path = tmp_path / "prompt.txt"
    path.write_text(DEFAULT_JUDGE.replace("brève", "br\x00ève"), encoding="utf-8")
    line = one_line(capsys, main(["--db", url, "prompt", "set", JUDGE, str(path)]), BAD_INPUT)
    assert line.startswith(f"reviewer: {path} contains a NUL character")
    assert rows(url) == before


@pytest.mark.postgres
def test_read_only_postgresql_transaction_is_said_as_such(
        pg_server: PgServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A standby, or ``default_transaction_read_only``: every writer says the database is
    read-only (exit 3), every reader works."""
    name = pg_server.database()
    try:
        _read_only_postgres(pg_server.url(name), name, tmp_path, capsys)
    finally:
        pg_server.drop(name)


def _read_only_postgres(url: str, name: str, tmp_path: Path,
                        capsys: pytest.CaptureFixture[str]) -> None:
    files = make_files(tmp_path / "files", url)
    dsn = url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f'ALTER DATABASE "{name}" SET default_transaction_read_only = on')
    before = rows(url)
    for what, argv in writers(files, url).items():
        line = one_line(capsys, main(argv), READ_ONLY)
        assert "the transaction is read-only" in line, what
        assert "INSERT" not in line and "UPDATE" not in line, what  # no SQL, no parameters
    for what, argv in readers(files, url).items():
        assert main(argv) == 0, (what, capsys.readouterr().err)
        capsys.readouterr()
    assert rows(url) == before
