"""Markup in the data is shown verbatim, as plain text, in every widget that shows data.

Model output can contain anything: HTML, Qt rich text (a text that merely *starts* like
``<html>`` or ``<qt>`` is taken for rich text by a QLabel in its default AutoText mode,
and by every tooltip), links, images, 20,000-character lines. Each widget's displayed
text is grabbed and compared with the data: ``QLabel.text()`` with a plain-text format,
``QTextDocument.toPlainText()``, the models' display and tooltip roles. A tooltip is
"rendered" as Qt renders it (``Qt.mightBeRichText`` → HTML) before the comparison.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6 import QtGui
from PySide6.QtCore import QCoreApplication, Qt, QTimer
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QApplication, QLabel, QMessageBox, QStyleOptionViewItem

from reviewer.ingest.importer import import_run
from reviewer.keys import AttemptKey
from reviewer.review import actions as review_actions
from reviewer.review.queue import attempt_id_for
from reviewer.store import Store
from tests.support.qt import idle
from tests.support.run_files import CATALOG, record, write_catalog, write_jsonl
from tests.support.stores import act
from ui.cli import main as cli_main
from ui.review.example_models import HighlightDelegate
from ui.review.example_view import Bubble
from ui.review.queue_model import Role
from ui.review.window import MainWindow
from ui.settings import Settings
from ui.tasks import TaskManager
from ui.tools.backtest_editor import BacktestEditor
from ui.tools.criteria_editor import CriteriaEditor
from ui.tools.dashboard import AgreementDashboard
from ui.tools.export_dialog import ExportDialog

pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints")

RUN = "2026-10-14-ministral-8b"
HTML = '<img src=x> <b>bold</b> <a href="https://example.org/x">lien</a> &amp; &lt;'
PAGE = "<html><body><h1>Titre</h1><script>alert(1)</script></body></html>"
QT = "<qt>rich <i>text</i>  with   spaces</qt>"
LONG = "<b>" + "x" * 20_000 + "</b>"
CONVERSATION = "<img src=x onerror=alert(1)>"
RESPONSE = f"{HTML}\n{LONG}\n  indented   and   spaced <b>bold</b>"
RATIONALE = f"{PAGE} L'assistant répond directement à la demande."
NOTE = f"{QT} {HTML}"
CRITERION_TEXT = f"<b>Répond</b> à la demande {HTML}"
CHECK_DESCRIPTION = QT
CHECK_PATTERN = "<b>bold</b>"
KEY = f"{RUN}/{CONVERSATION}/1/1"


def rendered(text: str | None) -> str:
    """What Qt shows for a tooltip (or an AutoText label): HTML if it looks like markup."""
    text = text or ""
    if not QtGui.Qt.mightBeRichText(text):  # the test Qt applies to tooltips
        return text
    doc = QTextDocument()
    doc.setHtml(text)
    return doc.toPlainText()


def nasty_catalog() -> dict[str, Any]:
    catalog = json.loads(json.dumps(CATALOG))
    catalog["criteria"][0]["text"] = CRITERION_TEXT
    catalog["checks"][0].update(description=CHECK_DESCRIPTION, pattern=CHECK_PATTERN, flags="")
    return catalog


@pytest.fixture
def nasty_store(store: Store, tmp_path: Path) -> Store:
    """One refused attempt whose every text field carries markup and a 20,000-char line."""
    row = record(CONVERSATION, 1, 1, response=RESPONSE, demande="non", rationale=RATIONALE,
                 commerce_passed=False)
    row["messages"] = [{"role": "system", "content": PAGE},
                       {"role": "user", "content": f"{QT}\n{LONG}"}]
    row["reasons"] = [f"D-COMMERCE échoué : {CHECK_DESCRIPTION}",
                      f"G-DEMANDE non tenu : {RATIONALE}"]
    row["judge"]["verdicts"][1]["rationale"] = HTML
    import_run(store, write_jsonl(tmp_path / "run.jsonl", [row, record("autre", 1, 1)]),
               catalog_path=write_catalog(tmp_path / "catalog.json", nasty_catalog()))
    with store.session() as s:
        aid = attempt_id_for(s, AttemptKey.parse(KEY))
    assert aid is not None
    act(store, review_actions.set_note, "claire", aid, NOTE)
    return store


def open_on_key(qtbot: Any, make_window: Callable[[Store], MainWindow],
                store: Store) -> MainWindow:
    window = make_window(store)
    window.select_key(AttemptKey.parse(KEY))
    qtbot.waitUntil(lambda: window.pane.view is not None
                    and str(window.pane.view.key) == KEY, timeout=10000)
    idle(qtbot, window)
    return window


def test_every_label_of_the_window_is_plain_text(
    qtbot: Any, make_window: Callable[[Store], MainWindow], nasty_store: Store
) -> None:
    window = open_on_key(qtbot, make_window, nasty_store)
    pane = window.pane
    data_labels = [label for label in window.findChildren(QLabel) if label.text()]
    assert pane.title in data_labels and pane.note_line in data_labels
    for label in data_labels:
        assert label.textFormat() == Qt.TextFormat.PlainText, label.text()[:80]
    assert pane.title.text() == KEY
    assert pane.note_line.text() == f"Note: {NOTE}"
    assert f"G-DEMANDE non tenu : {RATIONALE}" in pane.filter_line.text()
    # Chat bubbles: the messages, verbatim (a 20,000-character line included).
    bubbles = sorted((b for b in pane.findChildren(Bubble)), key=lambda b: b.role != "system")
    bubbles = [b.body for b in bubbles]
    assert [b.text() for b in bubbles] == [PAGE, f"{QT}\n{LONG}"]
    assert all(b.textFormat() == Qt.TextFormat.PlainText for b in bubbles)
    # The status line too.
    window.show_error(HTML)
    assert window.error_label.text() == HTML
    assert window.error_label.textFormat() == Qt.TextFormat.PlainText


def test_response_and_its_check_highlights_are_plain_text(
    qtbot: Any, make_window: Callable[[Store], MainWindow], nasty_store: Store
) -> None:
    pane = open_on_key(qtbot, make_window, nasty_store).pane
    assert pane.response.toPlainText() == RESPONSE
    html = pane.response.document().toHtml()
    assert "&lt;img src=x&gt;" in html and "<img" not in html and "<a href" not in html
    highlights = pane.response.extraSelections()
    assert [s.cursor.selectedText() for s in highlights] == ["<b>bold</b>"] * 2
    assert {rendered(s.format.toolTip()) for s in highlights} == {"D-COMMERCE"}


def test_queue_row_and_its_tooltip_are_plain_text(
    qtbot: Any, make_window: Callable[[Store], MainWindow], nasty_store: Store
) -> None:
    window = open_on_key(qtbot, make_window, nasty_store)
    m = window.model
    [row] = [r for r in range(m.rowCount()) if m.index(r, 0).data(Role.Key) == KEY]
    assert m.index(row, 1).data() == f"{CONVERSATION} · 1/1"
    reasons = m.index(row, 0).data(Role.Reasons)
    assert m.index(row, 3).data() == reasons[0]
    assert rendered(m.index(row, 3).data(Qt.ItemDataRole.ToolTipRole)) == "\n".join(reasons)
    assert f"G-DEMANDE non tenu : {RATIONALE}" in reasons


def test_verdict_and_check_tables_are_plain_text(
    qtbot: Any, make_window: Callable[[Store], MainWindow], nasty_store: Store
) -> None:
    pane = open_on_key(qtbot, make_window, nasty_store).pane
    verdicts, checks = pane.verdict_model, pane.check_model
    assert [verdicts.index(r, 5).data() for r in range(verdicts.rowCount())] == [RATIONALE, HTML]
    assert rendered(verdicts.index(0, 1).data(Qt.ItemDataRole.ToolTipRole)) == CRITERION_TEXT
    # The rationale cell is painted by a delegate from a QTextDocument: plain text as well.
    delegate = pane.verdicts.itemDelegateForColumn(5)
    assert isinstance(delegate, HighlightDelegate)
    option = QStyleOptionViewItem()
    for r, text in ((0, RATIONALE), (1, HTML)):
        doc = delegate._document(option, verdicts.index(r, 5), 400)
        assert doc.toPlainText() == text
        assert "<img" not in doc.toHtml() and "<script" not in doc.toHtml()
    row = next(r for r in range(checks.rowCount()) if checks.index(r, 0).data() == "D-COMMERCE")
    assert checks.index(row, 3).data() == "« <b>bold</b> », « <b>bold</b> »"
    assert checks.index(row, 4).data() == CHECK_DESCRIPTION
    assert rendered(checks.index(row, 0).data(Qt.ItemDataRole.ToolTipRole)) == CHECK_PATTERN


def test_regex_editor_shows_patterns_descriptions_and_previews_verbatim(
    qtbot: Any, nasty_store: Store, no_leaks: None, task_manager: TaskManager
) -> None:
    editor = BacktestEditor(task_manager, "claire", check_id="D-COMMERCE")
    qtbot.addWidget(editor)
    editor.show()
    try:
        qtbot.waitUntil(lambda: editor.result is not None, timeout=10000)
        assert editor.current.text() == f"v1: /{CHECK_PATTERN}/ (forbid)"
        assert rendered(editor.current.toolTip()) == CHECK_DESCRIPTION
        for label in editor.findChildren(QLabel):
            if label.objectName():  # the named labels show data; the others are titles
                assert label.textFormat() == Qt.TextFormat.PlainText, label.objectName()
        with qtbot.waitSignal(editor.preview_shown, timeout=10000):
            editor.show_attempt(KEY)
        assert editor.preview.toPlainText() == RESPONSE
        assert "<img" not in editor.preview.toHtml()
        editor.show_error(HTML)
        assert editor.error.text() == HTML
    finally:
        editor.close()


def test_export_dialog_status_shows_a_path_with_markup_verbatim(
    qtbot: Any, nasty_store: Store, tmp_path: Path, no_leaks: None, task_manager: TaskManager
) -> None:
    dialog = ExportDialog(task_manager, folder=tmp_path)
    qtbot.addWidget(dialog)
    out = tmp_path / "<img src=x>.jsonl"
    dialog.path.setText(str(out))
    with qtbot.waitSignal(dialog.exported, timeout=10000):
        dialog.start()
    assert out.exists()
    assert str(out) in dialog.status.text()
    assert dialog.status.textFormat() == Qt.TextFormat.PlainText
    dialog.close()


def test_cannot_open_box_shows_the_path_verbatim(
    qapp: QApplication, ui_settings: Settings, no_leaks: None, tmp_path: Path
) -> None:
    bogus = tmp_path / "<b>notes"
    bogus.mkdir()
    db = bogus / "<img src=x>.sqlite3"
    db.write_text("not a database", encoding="utf-8")
    seen: list[tuple[str, Qt.TextFormat]] = []

    def close_box() -> None:
        box = QApplication.activeModalWidget()
        if isinstance(box, QMessageBox):
            seen.append((box.text(), box.textFormat()))
            box.accept()
        else:
            QTimer.singleShot(20, close_box)

    QTimer.singleShot(0, close_box)
    assert cli_main(["--db", str(db), "gui"]) == 1
    QCoreApplication.processEvents()
    [(text, fmt)] = seen
    assert str(db) in text and fmt == Qt.TextFormat.PlainText


def test_feedback_windows_show_their_messages_as_plain_text(
    qtbot: Any, nasty_store: Store, no_leaks: None, task_manager: TaskManager
) -> None:
    # Their status and error lines quote judge replies, paths and data; every named label
    # (the ones showing data or messages) is plain text.
    windows = [CriteriaEditor(task_manager, "claire"), AgreementDashboard(task_manager)]
    for window in windows:
        qtbot.addWidget(window)
    board = windows[1]
    assert isinstance(board, AgreementDashboard)
    qtbot.waitUntil(lambda: board.stats is not None, timeout=10000)
    for window in windows:
        named = [label for label in window.findChildren(QLabel) if label.objectName()]
        assert named
        for label in named:
            assert label.textFormat() == Qt.TextFormat.PlainText, label.objectName()
        window.close()
