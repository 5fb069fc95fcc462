"""Eleventh hostile pass: a folder given as ``--db`` while standard error is a file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


def reviewer(args: list[str], stderr: Path, home: Path) -> tuple[int, str]:
    """``reviewer ARGS`` with standard error on the regular file ``stderr``."""
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / "config"),
           "XDG_DATA_HOME": str(home / "data")}
    env.pop("REVIEWER_DB", None)
    with stderr.open("w") as err:
        done = subprocess.run([sys.executable, "-m", "ui.cli", *args], stdout=subprocess.DEVNULL,
                              stderr=err, env=env, timeout=120, check=False)
    return done.returncode, stderr.read_text()


@pytest.mark.parametrize("where", ["the root folder", "the folder holding stderr"])
def test_a_folder_as_db_is_one_line_whatever_stderr_is(tmp_path: Path, where: str) -> None:
    # V3: `--db /` was "internal error (ValueError: PosixPath('/') has an empty name)",
    # exit 70. V4: `--db /tmp` with standard error on a file under /tmp exited 2 with no
    # line at all: the folder was taken for the store, and stderr for one of its files.
    folder = Path("/") if where == "the root folder" else tmp_path
    code, err = reviewer(["--db", str(folder), "stats"], tmp_path / "err.txt", tmp_path)
    assert code == 2, err
    assert err.splitlines() == [f"reviewer: {folder}: is a folder, not a database file; give "
                                "a database file (reviewer import makes a new one where there "
                                "is none)"]
