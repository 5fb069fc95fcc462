"""Fifteenth hostile pass, outputs: a stream whose reader goes away (P15-13 (3))."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from reviewer.store import Store

ROOT = Path(__file__).resolve().parents[2]


def test_a_stream_whose_reader_left_does_not_say_nothing_was_written(
        filled_store: Store, tmp_path: Path) -> None:
    # `export dataset - | head -c 100` said "cannot write -: Broken pipe; nothing was
    # written" although the reader had read bytes: a stream cannot be taken back.
    env = {**os.environ, "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "c"),
           "XDG_DATA_HOME": str(tmp_path / "d")}
    env.pop("REVIEWER_DB", None)
    proc = subprocess.Popen([sys.executable, "-m", "ui.cli", "--db", filled_store.url,
                             "export", "dataset", "-"], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # the reader is gone before the first byte
    err = proc.stderr.read().decode("utf-8")
    assert proc.wait(timeout=120) != 0
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "nothing was written" not in lines[0], lines[0]
    assert lines[0].endswith("its reader may have received part of it (a stream cannot "
                             "be taken back)"), lines[0]
