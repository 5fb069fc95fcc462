"""Pathological patterns: a catastrophic-backtracking regex (``(a+)+$`` on a long run of
"a") is stopped after a bounded time per text and reported, wherever a pattern runs —
``reviewer backtest``, ``reviewer grade regex``, the regex editor, the example pane's
match highlighting — and the window keeps turning its event loop meanwhile.

The bound comes from the ``regex`` package's ``timeout=`` (it releases the GIL while it
matches, so the GUI thread runs while a worker thread searches). Nothing here measures
time: the subprocesses' ``timeout=`` only keeps a regression from hanging the suite.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QTimer

from reviewer.cli.main import main as cli
from reviewer.ingest.importer import import_run
from reviewer.keys import AttemptKey
from reviewer.store import Store
from tests.support.qt import idle
from tests.support.run_files import CATALOG, record, write_catalog, write_jsonl
from ui.review.window import MainWindow
from ui.tasks import TaskManager
from ui.tools.backtest_editor import BacktestEditor

ROOT = Path(__file__).resolve().parents[2]
RUN = "2026-10-14-ministral-8b"
EVIL = "(a+)+$"
LONG_A = "a" * 5000 + "!"
pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints")


def load_long_runs(store: Store, folder: Path, catalog: dict[str, Any] | None = None) -> None:
    rows = [record("long", 1, 1, response=LONG_A), record("long", 1, 2, response=LONG_A),
            record("court", 1, 1)]
    import_run(store, write_jsonl(folder / "run.jsonl", rows),
               catalog_path=write_catalog(folder / "catalog.json", catalog))


@pytest.mark.slow
def test_backtest_console_script_stops_the_pattern_and_says_where(
    store: Store, db_url: str, tmp_path: Path
) -> None:
    load_long_runs(store, tmp_path)
    proc = subprocess.run(
        [sys.executable, "-m", "ui.cli", "--db", db_url, "backtest", "D-COMMERCE", EVIL],
        capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr == (f"reviewer: pattern stopped after 0.5 s on {RUN}/long/1/1: "
                           "catastrophic backtracking?\n")
    assert proc.stdout == ""


def test_grade_regex_stops_the_pattern_and_names_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "answers.jsonl"
    src.write_text(json.dumps({"response": "bonjour"}) + "\n"
                   + json.dumps({"response": LONG_A}) + "\n", encoding="utf-8")
    assert cli(["grade", "regex", str(src), "--pattern", EVIL]) == 2
    err = capsys.readouterr().err
    assert err.endswith(f"reviewer: {src}:2: regular expression '{EVIL}' stopped after "
                        "0.5 s: catastrophic backtracking?\n")


def test_regex_editor_event_loop_keeps_turning_while_the_pattern_runs(
    qtbot: Any, store: Store, tmp_path: Path, no_leaks: None, task_manager: TaskManager
) -> None:
    load_long_runs(store, tmp_path)
    editor = BacktestEditor(task_manager, "claire", check_id="D-COMMERCE")
    qtbot.addWidget(editor)
    editor.show()
    qtbot.waitUntil(lambda: editor.result is not None, timeout=10000)
    ticks_while_running: list[bool] = []
    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(lambda: ticks_while_running.append(editor.running))
    timer.start()
    try:
        editor.pattern.setText(EVIL)
        editor.run_now()
        qtbot.waitUntil(lambda: "stopped after 0.5 s" in editor.error.text(), timeout=30000)
    finally:
        timer.stop()
        editor.close()
    # The timer fired again and again while the search ran on the worker thread: the
    # window repainted and took input the whole time.
    assert ticks_while_running.count(True) >= 10
    assert editor.error.text() == (f"pattern stopped after 0.5 s on {RUN}/long/1/1: "
                                   "catastrophic backtracking?")
    assert not editor.save_button.isEnabled()


def test_example_pane_highlighting_is_bounded(
    qtbot: Any, make_window: Callable[[Store], MainWindow], store: Store, tmp_path: Path
) -> None:
    catalog = json.loads(json.dumps(CATALOG))
    catalog["checks"][0]["pattern"] = EVIL  # a check whose pattern is catastrophic
    load_long_runs(store, tmp_path, catalog)
    window = make_window(store)
    window.select_key(AttemptKey.parse(f"{RUN}/long/1/2"))
    qtbot.waitUntil(lambda: window.pane.view is not None
                    and str(window.pane.view.key) == f"{RUN}/long/1/2", timeout=30000)
    idle(qtbot, window)
    checks = window.pane.check_model
    row = next(r for r in range(checks.rowCount()) if checks.index(r, 0).data() == "D-COMMERCE")
    assert checks.index(row, 3).data() == "pattern too slow on this answer"
    assert window.pane.response.toPlainText() == LONG_A
