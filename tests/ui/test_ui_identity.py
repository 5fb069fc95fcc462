"""Who decides in the app is who said so, and text typed in the app can be stored.

``reviewer gui --reviewer eve`` (and ``reviewer --reviewer eve gui``) decides as eve and
says so in the title bar; a bad name there, in the Settings dialog or in the stored
settings is refused with a clear line (the rule: reviewer/review/identity.py). A NUL
typed in the note editor, the search box or the Settings dialog is refused too.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from sqlalchemy import select

from models import ReviewDecision
from reviewer.store import Store, open_store
from tests.support.qt import accept_boxes, idle
from ui.cli import main as cli_main
from ui.review.dialogs import SettingsDialog
from ui.review.window import MainWindow
from ui.settings import AppSettings, Settings

pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints")
Maker = Callable[[Store], MainWindow]


def decisions_by(url: str) -> dict[str, list[str | None]]:
    store = open_store(url)
    try:
        with store.session() as s:
            found: dict[str, list[str | None]] = {}
            for row in s.scalars(select(ReviewDecision)):
                found.setdefault(row.reviewer, []).append(row.decision)
            return found
    finally:
        store.close()


def drive_window(steps: Callable[[MainWindow], None]) -> list[str]:
    """Once the app's window is ready, run ``steps`` on it, wait for its writes, close it.
    Returns the window titles seen."""
    titles: list[str] = []

    def poll() -> None:
        window = next((w for w in QApplication.topLevelWidgets()
                       if isinstance(w, MainWindow) and w.isVisible()), None)
        if window is None or not window.ready():
            QTimer.singleShot(20, poll)
            return
        titles.append(window.windowTitle())
        steps(window)
        finish(window)

    def finish(window: MainWindow) -> None:
        if window.tasks.pending:
            QTimer.singleShot(20, lambda: finish(window))
            return
        window.close()

    QTimer.singleShot(0, poll)
    return titles


@pytest.mark.parametrize("where", ["gui --reviewer", "global --reviewer"])
def test_gui_reviewer_option_decides_as_that_reviewer(
        qapp: QApplication, ui_settings: Settings, db_url: str, where: str) -> None:
    argv = ["--db", db_url, "gui", "--reviewer", "eve", "--lang", "en"] \
        if where == "gui --reviewer" else ["--db", db_url, "--reviewer", "eve", "gui"]
    open_store(db_url).close()  # the app makes no store where --db names none
    shown: list[str] = []

    def accept(window: MainWindow) -> None:
        window.decide("accept")
        shown.append(window.reviewer)

    titles = drive_window(accept)
    assert cli_main(argv) == 0
    assert shown == ["eve"]
    assert len(titles) == 1 and titles[0].endswith("— eve"), titles
    assert decisions_by(db_url) == {"eve": ["accept"]}


def test_gui_refuses_a_bad_reviewer_option(
        qapp: QApplication, ui_settings: Settings, db_url: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("alice\nbob: reject", "claire\u200b", ""):
        code = cli_main(["--db", db_url, "gui", "--reviewer", name, "--screenshot",
                         str(tmp_path / "x.png")])
        err = capsys.readouterr().err
        assert code == 2 and err.count("\n") == 1 and err.startswith("reviewer: reviewer name")
    seen = accept_boxes()
    assert cli_main(["--db", db_url, "--reviewer", "\u202eeve", "gui"]) == 2
    assert len(seen) == 1 and "U+202E" in seen[0]
    assert not (tmp_path / "x.png").exists()


def test_settings_dialog_refuses_bad_names_and_nul(qtbot: Any, qapp: QApplication) -> None:
    settings = AppSettings(reviewer="claire", ollama_host="http://127.0.0.1:11434",
                           ollama_model="qwen3:8b", database="", language="en",
                           auto_advance=True)
    dialog = SettingsDialog(settings)
    qtbot.addWidget(dialog)
    for field, text in (("reviewer", "claire\u200b"), ("reviewer", "a\nb"),
                        ("reviewer", "  "), ("host", "http://h\x00"),
                        ("host", "http://999.1.1.1:1"), ("host", "http:///"), ("model", "q\x00"),
                        ("database", "/tmp/x\x00.db")):
        dialog.reviewer.setText("claire")
        getattr(dialog, field).setText(text)
        dialog.accept()
        assert dialog.result() != SettingsDialog.DialogCode.Accepted, (field, text)
        assert dialog.error.text(), (field, text)
    # Seventh hostile pass T3: Settings took http://999.1.1.1:1, and S then showed httpx's
    # "Invalid IPv4 address"; the host is checked by the judge's own rule, as --host is.
    dialog.model.setText("qwen3:8b")
    dialog.database.setText("")
    dialog.host.setText("http://999.1.1.1:1")
    dialog.accept()
    assert dialog.error.text() == ("judge host 'http://999.1.1.1:1': '999.1.1.1' is not a "
                                   "valid IPv4 address (four numbers 0-255, without leading "
                                   "zeros)")
    dialog.reviewer.setText("  Zoe\u0301 ")
    dialog.host.setText("http://127.0.0.1:11434")
    dialog.model.setText("qwen3:8b")
    dialog.database.setText("")
    dialog.accept()
    assert dialog.result() == SettingsDialog.DialogCode.Accepted
    assert dialog.values().reviewer == "Zoé" and dialog.error.text() == ""


def test_a_stored_name_that_fails_the_rule_is_not_used(
        qtbot: Any, make_window: Maker, filled_store: Store, ui_settings: Settings,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REVIEWER_NAME", "ines")
    ui_settings.q.setValue("reviewer", "claire\u200b")  # written by an older version
    w = make_window(filled_store)
    assert w.reviewer == "ines"
    assert "U+200B" in w.error_label.text() and "ines" in w.error_label.text()
    w.decide("accept")
    idle(qtbot, w)
    with filled_store.session() as s:
        assert set(s.scalars(select(ReviewDecision.reviewer))) == {"ines"}
    assert w.windowTitle().endswith("— ines")


def test_nul_in_the_note_editor_is_refused(qtbot: Any, make_window: Maker,
                                           filled_store: Store) -> None:
    w = make_window(filled_store)
    QTest.keyClick(QApplication.focusWidget() or w, Qt.Key.Key_N)  # the note, in place
    editor = w.pane.note_editor
    assert editor.isVisible()
    editor.setText("vu\x00 ici")
    QTest.keyClick(editor, Qt.Key.Key_Return)
    idle(qtbot, w)
    assert "NUL" in w.error_label.text()
    with filled_store.session() as s:
        assert list(s.scalars(select(ReviewDecision.note))) == []


def test_nul_in_the_search_box_is_refused(qtbot: Any, make_window: Maker,
                                          filled_store: Store) -> None:
    w = make_window(filled_store)
    w.filters.search.setText("date\x00")
    w.filters.apply()
    idle(qtbot, w)
    assert "NUL" in w.error_label.text()


# -- ninth hostile pass, N2: a name the store knows under another case ---------------------

KNOWN = "alice"
TWIN_LINE = ("reviewer name 'ALICE': the store already knows this reviewer as 'alice'; use "
             "that name")


def known_store(db_url: str, tmp_path: Path) -> None:
    """A store where alice decided once."""
    from reviewer.cli.main import main
    from tests.support.stores import fill_store

    store = open_store(db_url)
    try:
        fill_store(store, tmp_path)
    finally:
        store.close()
    assert main(["--db", db_url, "--reviewer", KNOWN, "decide",
                 "2026-10-14-ministral-8b/recette-001/1/1", "--accept"]) == 0


def test_gui_refuses_a_case_twin_of_a_known_reviewer(
        qapp: QApplication, ui_settings: Settings, db_url: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    known_store(db_url, tmp_path)
    capsys.readouterr()
    shot = tmp_path / "x.png"
    assert cli_main(["--db", db_url, "gui", "--reviewer", "ALICE", "--screenshot",
                     str(shot)]) == 2
    assert capsys.readouterr().err.splitlines() == [f"reviewer: {TWIN_LINE}"]
    seen = accept_boxes()
    assert cli_main(["--db", db_url, "--reviewer", "ALICE", "gui"]) == 2
    assert seen == [TWIN_LINE]
    assert not shot.exists()
    assert set(decisions_by(db_url)) == {KNOWN}
    # Full width is alice herself: the app starts as alice.
    assert cli_main(["--db", db_url, "gui", "--reviewer", "ａｌｉｃｅ", "--screenshot",
                     str(shot)]) == 0
    assert shot.exists()


def test_a_case_twin_saved_in_settings_stops_the_start(
        qapp: QApplication, ui_settings: Settings, db_url: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The app's own settings file (under $XDG_CONFIG_HOME) names ALICE: with
    --screenshot, one line naming the setting and the known spelling, exit 2."""
    known_store(db_url, tmp_path)
    conf = Path(os.environ["XDG_CONFIG_HOME"]) / "reviewer" / "reviewer.conf"
    conf.parent.mkdir(parents=True, exist_ok=True)
    conf.write_text("[General]\nreviewer=ALICE\n", encoding="utf-8")
    capsys.readouterr()
    shot = tmp_path / "x.png"
    assert cli_main(["--db", db_url, "gui", "--screenshot", str(shot)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"reviewer: the reviewer name in Settings (saved in {conf}) is refused: {TWIN_LINE}; "
        "set a valid one in Settings, or start with --reviewer NAME"]
    assert not shot.exists()


def test_the_box_for_a_case_twin_in_settings_sets_the_known_name(
        qapp: QApplication, ui_settings: Settings) -> None:
    from ui.name_choice import NameRefused, checked_name

    ui_settings.q.setValue("reviewer", "ALICE")
    config = ui_settings.load()
    seen: dict[str, Any] = {}

    def answer() -> None:
        widget = QApplication.activeModalWidget()
        if isinstance(widget, NameRefused):
            seen["box"] = widget.text()
            widget.set_button.click()
        elif isinstance(widget, SettingsDialog):
            seen["error"] = widget.error.text()
            widget.accept()  # ALICE again: refused, the dialog stays open
            seen["again"] = widget.error.text()
            widget.reviewer.setText("ａｌｉｃｅ")
            widget.accept()
            return
        QTimer.singleShot(50, answer)

    QTimer.singleShot(0, answer)
    config = checked_name(ui_settings, config, [KNOWN, "bob"])
    assert TWIN_LINE in seen["box"] and ui_settings.q.fileName() in seen["box"]
    assert seen["error"] == seen["again"] == TWIN_LINE
    assert config.reviewer == KNOWN and ui_settings.q.value("reviewer") == KNOWN


def test_settings_dialog_refuses_a_case_twin_and_keeps_a_new_name_as_typed(
        qtbot: Any, qapp: QApplication) -> None:
    settings = AppSettings(reviewer="claire", ollama_host="http://127.0.0.1:11434",
                           ollama_model="qwen3:8b", database="", language="en",
                           auto_advance=True)
    dialog = SettingsDialog(settings, known_reviewers=[KNOWN, "ZOÉ"])
    qtbot.addWidget(dialog)
    for typed, refusal in (("ALICE", TWIN_LINE),
                           ("zoé", "reviewer name 'zoé': the store already knows this "
                                   "reviewer as 'ZOÉ'; use that name")):
        dialog.reviewer.setText(typed)
        dialog.accept()
        assert dialog.result() != SettingsDialog.DialogCode.Accepted
        assert dialog.error.text() == refusal
    for typed, stored in (("ﬁona", "fiona"), ("Bob", "Bob"), ("ZOÉ", "ZOÉ")):
        dialog.reviewer.setText(typed)
        dialog.accept()
        assert dialog.result() == SettingsDialog.DialogCode.Accepted, dialog.error.text()
        assert dialog.values().reviewer == stored


def test_the_window_settings_dialog_knows_the_store_reviewers(
        qtbot: Any, make_window: Maker, filled_store: Store) -> None:
    """Settings… in the window reads who the store knows before the dialog opens."""
    w = make_window(filled_store)
    w.decide("accept")  # claire (the fixture's settings) decides once
    idle(qtbot, w)
    seen: dict[str, Any] = {}

    def answer() -> None:
        widget = QApplication.activeModalWidget()
        if not isinstance(widget, SettingsDialog):
            QTimer.singleShot(20, answer)
            return
        widget.reviewer.setText("CLAIRE")
        widget.accept()
        seen["error"] = widget.error.text()
        widget.reject()

    QTimer.singleShot(0, answer)
    w.edit_settings()
    qtbot.waitUntil(lambda: "error" in seen, timeout=10000)
    assert seen["error"] == ("reviewer name 'CLAIRE': the store already knows this reviewer "
                             "as 'claire'; use that name")
    assert w.reviewer == "claire"
