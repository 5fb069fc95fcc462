"""Twelfth hostile pass, the command line: URL-like ``--db`` values, a screenshot over a
file that is not one, an output name holding a line break."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from reviewer.store import Store
from tests.support.cli import one_line, run

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("url", ["sqlite://localhost/r.db", "sqlite+pysqlite://h/r.db",
                                 "sqlite://user@/r.db"])
@pytest.mark.parametrize("command", ["stats", "demo"])
def test_a_sqlite_url_with_a_host_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        url: str, command: str) -> None:
    # P12-4: "internal error (ArgumentError: Invalid SQLite URL…)", exit 70.
    monkeypatch.chdir(tmp_path)
    line = one_line(capsys, run(["--db", url, command]), 2)
    assert "a SQLite URL names no host" in line, line
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("value", ["sqlite:/r.db", "sqlite:r.db", "SQLite:r.db"])
def test_a_sqlite_url_missing_its_slashes_is_refused_not_a_folder(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        value: str) -> None:
    # P12-7: read as the relative path ./sqlite:/r.db, and `demo` made a folder "sqlite:".
    monkeypatch.chdir(tmp_path)
    line = one_line(capsys, run(["--db", value, "demo"]), 2)
    assert "sqlite:///PATH" in line, line
    assert list(tmp_path.iterdir()) == []


def test_a_db_path_ending_in_a_slash_names_a_folder(
        filled_store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    # P12-7: `--db r.db/` opened r.db, while `export x.jsonl/` was refused as a folder.
    path = filled_store.url.removeprefix("sqlite:///")
    line = one_line(capsys, run(["--db", path + "/", "stats"]), 2)
    assert "ends with '/', which names a folder" in line, line


def test_a_screenshot_replaces_only_a_png(tmp_path: Path) -> None:
    # P12-8 (and Z8(2) of the tenth pass): `gui --screenshot run.jsonl` wrote PNG bytes
    # over the run file. A screenshot may make a new file of any name, or replace a PNG.
    run_file = tmp_path / "run.jsonl"
    run_file.write_text('{"run": "r"}\n', encoding="utf-8")
    env = {**os.environ, "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "c"),
           "XDG_DATA_HOME": str(tmp_path / "d"), "QT_QPA_PLATFORM": "offscreen"}
    env.pop("REVIEWER_DB", None)
    db = tmp_path / "r.db"
    assert run(["--db", str(db), "demo"]) == 0
    done = subprocess.run([sys.executable, "-m", "ui.cli", "--db", str(db), "gui",
                           "--screenshot", str(run_file)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines()[-1] == (
        f"reviewer: cannot write {run_file}: it is not a PNG image, and a screenshot "
        "replaces only a PNG; nothing was written")
    assert run_file.read_text(encoding="utf-8") == '{"run": "r"}\n'


def test_an_output_name_with_a_line_break_is_said_on_one_line(
        filled_store: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # P12-9 (1): "2 audit events → nl⏎name.jsonl", on two lines.
    out = tmp_path / "nl\nname.jsonl"
    assert run(["--db", filled_store.url, "export", "decisions", str(out)]) == 0
    said = capsys.readouterr().out
    assert said.count("\n") == 1 and "nl⟨U+000A⟩name.jsonl" in said, said
    assert out.is_file()


@pytest.mark.parametrize(("arg", "says"), [
    ("nope-é.db", "--db holds UTF-8 text that this locale (ascii) cannot read; run with a "
                  "UTF-8 locale, e.g. LC_ALL=C.UTF-8"),
    (b"nope-\xff.db", "--db is not valid UTF-8 text (byte 0xFF at character 6)"),
])
def test_utf8_text_under_an_ascii_locale_blames_the_locale(
        tmp_path: Path, arg: str | bytes, says: str) -> None:
    # P12-9 (2): `PYTHONUTF8=0 LC_ALL=POSIX`, `--db nope-é.db`: "not valid UTF-8 (byte
    # 0xC3)", though the bytes were UTF-8 and the locale could not read them.
    env = {**os.environ, "HOME": str(tmp_path), "PYTHONUTF8": "0", "LC_ALL": "POSIX",
           "PYTHONCOERCECLOCALE": "0"}
    env.pop("REVIEWER_DB", None)
    value = arg if isinstance(arg, bytes) else arg.encode("utf-8")
    done = subprocess.run([sys.executable.encode(), b"-m", b"ui.cli", b"--db", value,
                           b"stats"], cwd=ROOT, env=env, capture_output=True, timeout=120,
                          check=False)
    assert done.returncode == 2
    assert says in done.stderr.decode("utf-8", "replace"), done.stderr
