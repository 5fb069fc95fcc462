"""Starting the GUI: what it imports and in which order (checked in a fresh interpreter,
as ``reviewer gui`` imports ``ui.cli``, the ``gui`` command, ``ui.app`` and the window),
what the window reads first, and what it writes (docs/performance.md, GUI start-up).
"""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication

from reviewer.store import Store, open_store
from tests.support.qt import wait_ready
from ui.cli import main as cli_main
from ui.commands import gui
from ui.review.window import MainWindow
from ui.settings import Settings
from ui.tasks import TaskManager

# The offscreen platform cannot resize native windows; that notice is not our bug.
pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints")
ROOT = Path(__file__).resolve().parents[2]
# Used by a tool, a batch or one kind of check, never by the first paint of the queue.
NOT_AT_START = ("py_mini_racer", "ollama", "httpx", "rouge_score", "nltk", "numpy",
                "sklearn", "scipy", "jsonschema", "pydantic", "alembic", "mako", "tqdm",
                "krippendorff", "llama_cpp", "datasets")

START = """
import json, sys
from ui import cli
from ui.commands import gui
import ui.app
order = list(sys.modules)
print(json.dumps({"modules": order,
                  "commands": [m for m in order if m.startswith("reviewer.cli.commands.")]}))
"""


def started() -> dict[str, Any]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    out = subprocess.run([sys.executable, "-c", START], cwd=ROOT, env=env, check=True,
                         capture_output=True, text=True, timeout=120).stdout
    result: dict[str, Any] = json.loads(out)
    return result


def test_starting_the_gui_imports_no_engine_judge_or_grader_library() -> None:
    result = started()
    loaded = {m.split(".")[0] for m in result["modules"]}
    assert sorted(loaded.intersection(NOT_AT_START)) == []
    # Nor SQLAlchemy's PostgreSQL dialect (every driver's module): the models, the search
    # and the undo stacks load it when a PostgreSQL store is used, not at import.
    assert [m for m in result["modules"] if m.startswith("sqlalchemy.dialects.postgresql")] == []
    # The gui command's parser is built without the domain commands' modules.
    assert result["commands"] == []


def test_the_domain_is_imported_before_qt() -> None:
    # PySide6's import hook reads the source of every module imported after it; the
    # domain (SQLAlchemy, the models) comes first so that it does not pay that.
    order = started()["modules"]
    assert order.index("sqlalchemy") < order.index("PySide6")
    assert order.index("models") < order.index("PySide6")
    assert order.index("sqlalchemy.dialects.sqlite") < order.index("PySide6")


def test_the_window_asks_for_the_first_page_alone_then_the_rest(
        qtbot: Any, ui_settings: Settings, filled_store: Store) -> None:
    tasks = TaskManager(filled_store)
    window = MainWindow(tasks, ui_settings)
    qtbot.addWidget(window)
    try:
        # The progress, the filter choices, the undo labels and the example wait for the
        # first page (and its paint): asked with it, they slowed the first paint down.
        assert tasks.pending == 1
        window.show()
        wait_ready(qtbot, window)
        assert window.pane.view is not None
        assert window.pane.view.attempt_id == window.current_id
        assert window.progress_label.text() and window.overall_label.text()
        assert window.filters.run_box.count() > 1  # the store's runs were read
    finally:
        window.close()
        tasks.shutdown()


def test_a_hidden_window_still_reads_everything(qtbot: Any, ui_settings: Settings,
                                                filled_store: Store) -> None:
    # No paint to wait for: the held reads are asked once the first page is in.
    tasks = TaskManager(filled_store)
    window = MainWindow(tasks, ui_settings)
    qtbot.addWidget(window)
    try:
        assert not window.isVisible()
        wait_ready(qtbot, window)
        assert window.pane.view is not None and window.overall_label.text()
    finally:
        window.close()
        tasks.shutdown()


def test_the_filter_is_written_only_when_it_changes(
        qtbot: Any, make_window: Callable[[Store], MainWindow], ui_settings: Settings,
        filled_store: Store) -> None:
    # Each write syncs the settings file to disk on the GUI thread: opening the window on
    # the filter it remembers (here none: the defaults) writes nothing.
    window = make_window(filled_store)
    assert ui_settings.review_filter() == {}
    box = window.filters.state_box
    box.setCurrentIndex(box.findData("to_review"))
    wait_ready(qtbot, window)
    assert ui_settings.review_filter()["state"] == "to_review"
    again = make_window(filled_store)
    assert again.filters.state()["state"] == "to_review"


def test_the_collector_is_off_while_the_app_starts_and_on_after() -> None:
    assert gc.isenabled()
    with gui.starting():
        assert not gc.isenabled()
        with gui.starting():  # the probe's imports, then the command's own start
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_screenshot_run_leaves_the_collector_on(qapp: QApplication, ui_settings: Settings,
                                                  no_leaks: None, db_url: str,
                                                  tmp_path: Path) -> None:
    open_store(db_url).close()  # the app makes no store where --db names none
    assert cli_main(["--db", db_url, "gui", "--screenshot", str(tmp_path / "shot.png"),
                     "--lang", "en"]) == 0
    assert gc.isenabled()
