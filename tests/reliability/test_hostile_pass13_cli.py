"""Thirteenth hostile pass, the command line: database driver names, a path that names a
folder through a URL or ``/.``, a first import that fails deep in new folders or holds no
record."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.cli import one_line, run
from tests.support.run_files import imported_store


@pytest.mark.parametrize("url", ["sqlite+aiosqlite:///r.db", "sqlite+nope:///r.db",
                                 "sqlite+pysqlcipher:///r.db",
                                 "postgresql+psycopg+x://u@127.0.0.1:1/d",
                                 "postgresql+psycopg_async://u@127.0.0.1:1/d"])
def test_an_unknown_driver_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        url: str) -> None:
    # P13-3: "internal error …", exit 70, for every command; `gui` opened no window.
    monkeypatch.chdir(tmp_path)
    line = one_line(capsys, run(["--db", url, "stats"]), 2)
    assert "is not a driver reviewer uses" in line, line
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("value", ["sqlite:///{d}/u1.db/", "{d}/u2.db/.", "{d}/u3.db/./"])
def test_a_database_path_naming_a_folder_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str) -> None:
    # P13-6: `sqlite:///u1.db/` and `./u2.db/.` were accepted, and `demo` made u1.db, u2.db.
    line = one_line(capsys, run(["--db", value.format(d=tmp_path), "demo"]), 2)
    assert "which names a folder" in line, line
    assert list(tmp_path.iterdir()) == []


def test_a_failed_first_import_leaves_no_folder_behind(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # P13-5: the store was not made, but the folders nn/deep/ made for it stayed.
    run_file = tmp_path / "run.jsonl"
    run_file.write_text("[]\n", encoding="utf-8")
    one_line(capsys, run(["--db", str(tmp_path / "nn" / "deep" / "n.db"), "import",
                          str(run_file)]), 2)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.jsonl"]


@pytest.mark.parametrize("content", [b"", b"\xef\xbb\xbf", b"\n\n"])
def test_a_run_file_with_no_record_makes_no_store(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes) -> None:
    # P13-5 (V5's last case): an empty or BOM-only run made an empty store, rc 0.
    run_file = tmp_path / "run.jsonl"
    run_file.write_bytes(content)
    line = one_line(capsys, run(["--db", str(tmp_path / "n.db"), "import", str(run_file)]), 2)
    assert "holds no record" in line, line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.jsonl"]


def test_an_empty_run_into_an_existing_store_is_still_zero_new(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = imported_store(tmp_path)
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    capsys.readouterr()
    assert run(["--db", db, "import", str(empty)]) == 0
    assert capsys.readouterr().out.startswith("0 new, 0 already present")
