"""Fourteenth hostile pass, the command line: a first import whose every line is bad, a
store under a file or with a blank name, the folders a first store or a screenshot makes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.cli import one_line, run
from tests.support.run_files import imported_store, sample_rows, write_catalog, write_jsonl

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("content", [b'{"x":1}\n{"y":2}\n', b"\xef\xbb\xbfnot json\n"])
def test_a_first_import_whose_every_line_is_bad_makes_no_store(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes) -> None:
    # P14-4: `import allbad.jsonl --skip-bad rej.jsonl` into a new s1/s2/n.db made the
    # folders and an empty store, "0 new, 0 already present, 2 rejected", rc 0.
    run_file = tmp_path / "allbad.jsonl"
    run_file.write_bytes(content)
    rejects = tmp_path / "rej.jsonl"
    line = one_line(capsys, run(["--db", str(tmp_path / "s1" / "s2" / "n.db"), "import",
                                 str(run_file), "--skip-bad", str(rejects)]), 2)
    bad = content.count(b"\n")
    assert "no line could be imported" in line and "no store was made" in line, line
    assert f"{bad} bad line" in line and str(rejects) in line, line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["allbad.jsonl", "rej.jsonl"]
    # The reasons are kept: the reviewer reads why each line was refused.
    assert len(rejects.read_bytes().splitlines()) == bad


def test_every_line_bad_into_an_existing_store_is_still_reported(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = imported_store(tmp_path)
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b'{"x":1}\n')
    capsys.readouterr()
    assert run(["--db", db, "import", str(bad), "--skip-bad",
                str(tmp_path / "rej.jsonl")]) == 0
    assert capsys.readouterr().out.startswith("0 new, 0 already present, 1 rejected")


@pytest.mark.parametrize("under", ["file", "device"])
def test_a_store_under_a_file_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], under: str) -> None:
    # P14-5 (1): `--db t.txt/n.db`, t.txt a file, said "cannot use …/t.txt: File exists",
    # exit 1; a link to /dev/null/x.db said the same of /dev/null.
    if under == "file":
        (tmp_path / "t.txt").write_text("x", encoding="utf-8")
        db, blocked = tmp_path / "t.txt" / "deep" / "n.db", tmp_path / "t.txt"
    else:
        db, blocked = tmp_path / "dn.db", Path("/dev/null")
        db.symlink_to("/dev/null/x.db")
    line = one_line(capsys, run(["--db", str(db), "demo"]), 2)
    assert f"{blocked} is not a folder" in line, line


def test_a_blank_store_name_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # P14-5 (3): `--db 'u9.db/ '` made a folder u9.db and a store named " " in it.
    line = one_line(capsys, run(["--db", f"{tmp_path}/u9.db/ ", "demo"]), 2)
    assert "the file name is blank" in line, line
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", ["demo", "import"])
def test_a_first_store_names_the_folder_it_made(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    # P13-5, P14-5 (2): `demo` (and `import`) through a dangling link `dangle.db ->
    # nowhere/x.db` silently made nowhere/ and a store in it; an export names its folder.
    (tmp_path / "dangle.db").symlink_to("nowhere/deeper/x.db")
    args = ["--db", str(tmp_path / "dangle.db"), command]
    if command == "import":
        args += ["--catalog", str(write_catalog(tmp_path / "c.json")),
                 str(write_jsonl(tmp_path / "run.jsonl", sample_rows()))]
    capsys.readouterr()
    assert run(args) == 0
    out = capsys.readouterr().out
    assert out.rstrip().endswith(f"(made the folder {tmp_path / 'nowhere'})"), out
    assert (tmp_path / "nowhere" / "deeper" / "x.db").is_file()
    capsys.readouterr()
    assert run(args) == 0  # the second time, nothing is made
    assert "made the folder" not in capsys.readouterr().out


def test_a_screenshot_names_the_folder_it_made(tmp_path: Path) -> None:
    # P13-5: `gui --screenshot new/deep/s.png` made new/deep/ without a word.
    env = {**os.environ, "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "c"),
           "XDG_DATA_HOME": str(tmp_path / "d"), "QT_QPA_PLATFORM": "offscreen"}
    env.pop("REVIEWER_DB", None)
    db = tmp_path / "r.db"
    assert run(["--db", str(db), "demo"]) == 0
    shot = tmp_path / "new" / "deep" / "s.png"
    done = subprocess.run([sys.executable, "-m", "ui.cli", "--db", str(db), "gui",
                           "--screenshot", str(shot)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [f"{shot} (made the folder {tmp_path / 'new'})"]
    assert shot.read_bytes().startswith(b"\x89PNG")
