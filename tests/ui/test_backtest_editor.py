"""The live back-test editor: typing updates the lists, errors inline, timeouts, saving."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtTest import QAbstractItemModelTester
from PySide6.QtWidgets import QApplication

from reviewer.catalog.versions import current_check_versions
from reviewer.ingest.importer import import_run
from reviewer.store import Store
from tests.rule.test_dialects import load_filter_run
from tests.support.feedback_stores import SEED_NEW_PATTERN, key, load_backtest_store
from tests.support.run_files import record, write_catalog, write_jsonl
from ui.tasks import TaskManager
from ui.tools.backtest_editor import BacktestEditor, highlighted

# The offscreen platform warns about size hints when a top-level widget is shown.
pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints")


@pytest.fixture
def open_editor(qtbot: Any, no_leaks: None, task_manager: TaskManager
                ) -> Iterator[Callable[[Store], BacktestEditor]]:
    opened: list[BacktestEditor] = []
    testers: list[QAbstractItemModelTester] = []  # Qt's model checks on the two lists

    def make(store: Store) -> BacktestEditor:
        assert store is task_manager.store
        editor = BacktestEditor(task_manager, "associe", check_id="D-COMMERCE")
        mode = QAbstractItemModelTester.FailureReportingMode.Warning
        testers.extend(QAbstractItemModelTester(w.model(), mode)
                       for w in (editor.removed, editor.added))
        qtbot.addWidget(editor)
        editor.show()
        qtbot.waitUntil(lambda: editor.result is not None, timeout=10000)
        opened.append(editor)
        return editor

    yield make
    for editor in opened:
        editor.close()
    testers.clear()  # before the lists are deleted: a tester outliving its model crashes


def items(widget: Any) -> list[str]:
    return [widget.item(i).text() for i in range(widget.count())]


def test_typing_a_pattern_updates_the_lists_and_figures(
        qtbot: Any, tmp_path: Path, store: Store,
        open_editor: Callable[[Store], BacktestEditor]) -> None:
    load_backtest_store(store, tmp_path)
    editor = open_editor(store)
    assert items(editor.removed) == [] and items(editor.added) == []  # same as current
    editor.pattern.setText(SEED_NEW_PATTERN)  # non-ASCII safe: no keyClicks
    qtbot.waitUntil(lambda: items(editor.removed) == [key(1), key(4)], timeout=10000)
    assert items(editor.added) == [key(5)]
    assert "2 hits on accepted" in editor.figures.text()  # current pattern
    assert "new: 0 hits on accepted" in editor.figures.text()


def test_invalid_pattern_shows_an_inline_error(
        qtbot: Any, tmp_path: Path, store: Store,
        open_editor: Callable[[Store], BacktestEditor]) -> None:
    load_backtest_store(store, tmp_path)
    editor = open_editor(store)
    editor.pattern.setText("inscri(")
    qtbot.waitUntil(lambda: "invalid pattern" in editor.error.text(), timeout=5000)
    assert not editor.save_button.isEnabled()
    editor.pattern.setText("inscri(re|vez)")
    qtbot.waitUntil(lambda: editor.error.text() == "" and editor.result is not None
                    and editor.result.new.pattern == "inscri(re|vez)", timeout=10000)


def test_catastrophic_pattern_is_stopped_while_the_ui_responds(
        qtbot: Any, tmp_path: Path, store: Store,
        open_editor: Callable[[Store], BacktestEditor]) -> None:
    rows = [record("long", 1, 1, response="a" * 5000 + "!")]
    import_run(store, write_jsonl(tmp_path / "r.jsonl", rows),
               catalog_path=write_catalog(tmp_path / "c.json"))
    editor = open_editor(store)
    seen_running: list[bool] = []
    editor.pattern.setText("(a+)+$")
    editor.run_now()
    # The event loop keeps turning while the back-test works on its thread.
    QTimer.singleShot(0, lambda: seen_running.append(editor.running))
    qtbot.waitUntil(lambda: "stopped after 0.5 s" in editor.error.text(), timeout=15000)
    assert seen_running == [True]
    assert "2026-10-14-ministral-8b/long/1/1" in editor.error.text()
    QApplication.processEvents()


def test_save_creates_a_version_with_the_reason(
        qtbot: Any, tmp_path: Path, store: Store,
        open_editor: Callable[[Store], BacktestEditor]) -> None:
    load_backtest_store(store, tmp_path)
    editor = open_editor(store)
    editor.pattern.setText(SEED_NEW_PATTERN)
    assert not editor.save_button.isEnabled()  # no reason yet
    editor.reason.setText("exiger le pronom : « inscrire la date » est permis")
    qtbot.waitUntil(editor.save_button.isEnabled, timeout=5000)
    with qtbot.waitSignal(editor.saved, timeout=10000) as signal:
        editor.save_button.click()
    assert signal.args == ["D-COMMERCE", 2]
    with store.session() as s:
        cv = current_check_versions(s)["D-COMMERCE"]
        assert (cv.version, cv.pattern, cv.flags) == (2, SEED_NEW_PATTERN, "i")
        assert cv.reason == "exiger le pronom : « inscrire la date » est permis"
        assert cv.author == "associe"
    qtbot.waitUntil(lambda: editor.current.text().startswith("v2:"), timeout=5000)


def test_choosing_a_key_previews_old_and_new_matches(
        qtbot: Any, tmp_path: Path, store: Store,
        open_editor: Callable[[Store], BacktestEditor]) -> None:
    load_backtest_store(store, tmp_path)
    editor = open_editor(store)
    editor.pattern.setText(SEED_NEW_PATTERN)
    qtbot.waitUntil(lambda: editor.removed.count() == 2, timeout=10000)
    with qtbot.waitSignal(editor.preview_shown, timeout=10000):
        editor.removed.setCurrentRow(0)  # bt/1: "Vous pouvez inscrire la date…"
    text = "Vous pouvez inscrire la date dans votre journal."
    assert editor.preview.toPlainText() == text
    old, new = editor.highlights
    assert [text[a:b] for a, b in old] == ["inscrire"] and new == []
    with qtbot.waitSignal(editor.preview_shown, timeout=10000):
        editor.added.setCurrentRow(0)  # bt/5: "Ouvrez un compte…"
    assert [editor.preview.toPlainText()[a:b] for a, b in editor.highlights[1]] == [
        "Ouvrez un compte"]
    assert "line-through" not in editor.preview.toHtml()


def test_preview_html_escapes_the_response() -> None:
    text = "<b>x</b> inscrire"
    out = highlighted(text, [(9, 17)], [(9, 12)])
    assert out.startswith("&lt;b&gt;x&lt;/b&gt; ")
    assert 'text-decoration:underline">ins</span>' in out  # both patterns match here
    assert 'line-through">crire</span>' in out             # only the old one


def test_the_dialect_selector_reads_patterns_as_the_filter_does(
        qtbot: Any, tmp_path: Path, store: Store,
        open_editor: Callable[[Store], BacktestEditor]) -> None:
    # The TypeScript filter failed « préinscription », « réinscription », « Réinscrivez-vous »
    # (JavaScript's ASCII \b) and one real push to sign up.
    load_filter_run(store, tmp_path, "ecmascript")
    editor = open_editor(store)
    assert editor.dialect.currentData() == "ecmascript"
    assert "(forbid, ecmascript)" in editor.current.text()
    assert editor.flags.placeholderText() == "d g i m s u v y"
    assert editor.result is not None and editor.result.old_failures == 4
    # The lint names the hole: \b next to « é », three stored responses concerned.
    qtbot.waitUntil(lambda: "\\b next to a non-ASCII letter" in editor.lint.text(),
                    timeout=10000)
    assert ": 3 responses, e.g. 2026-10-14-ministral-8b/fr/1/1 « " in editor.lint.text()
    # Read as Python, the same pattern no longer fails the three answers at « é ».
    editor.dialect.setCurrentIndex(editor.dialect.findData("python"))
    assert editor.flags.placeholderText() == "i m s x"
    three = [f"2026-10-14-ministral-8b/fr/{t}/1" for t in (1, 2, 3)]
    qtbot.waitUntil(lambda: items(editor.removed) == three, timeout=10000)
    assert editor.result is not None and editor.result.new.dialect == "python"
    # Python syntax JavaScript refuses: JavaScript's own message, inline.
    editor.dialect.setCurrentIndex(editor.dialect.findData("ecmascript"))
    editor.pattern.setText("(?i)inscri")
    qtbot.waitUntil(lambda: "Invalid group" in editor.error.text(), timeout=10000)
    assert "(ECMAScript)" in editor.error.text() and not editor.save_button.isEnabled()


def test_save_stores_the_dialect(qtbot: Any, tmp_path: Path, store: Store,
                                 open_editor: Callable[[Store], BacktestEditor]) -> None:
    load_filter_run(store, tmp_path, None)  # declared python, though the filter is not
    editor = open_editor(store)
    assert editor.dialect.currentData() == "python"
    editor.dialect.setCurrentIndex(editor.dialect.findData("ecmascript"))
    editor.reason.setText("le filtre est en TypeScript")
    qtbot.waitUntil(editor.save_button.isEnabled, timeout=5000)  # only the dialect changed
    with qtbot.waitSignal(editor.saved, timeout=10000):
        editor.save_button.click()
    with store.session() as s:
        cv = current_check_versions(s)["D-COMMERCE"]
        assert (cv.version, cv.dialect, cv.pattern) == (2, "ecmascript", SEED_NEW_PATTERN)
    qtbot.waitUntil(lambda: "(forbid, ecmascript)" in editor.current.text(), timeout=5000)
