"""The Export dialog: what the review changed, shown before exporting; every kind and
option of ``reviewer export``; a destination the guard refuses is one line, nothing
written."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QFileDialog, QLineEdit

from reviewer.review.actions import decide
from reviewer.store import Store
from tests.support.feedback_stores import attempt_id, key, load_export_store
from ui.cli import main as gui_main
from ui.file_dialogs import TypesByName
from ui.settings import Settings
from ui.tasks import TaskManager
from ui.tools.export_dialog import ExportDialog

pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints")


def test_the_dialog_shows_what_the_review_changed_and_follows_decisions(
        qtbot: Any, tmp_path: Path, store: Store, task_manager: TaskManager) -> None:
    load_export_store(store, tmp_path)
    dialog = ExportDialog(task_manager, folder=tmp_path)
    qtbot.addWidget(dialog)
    dialog.show()
    # The filter's own selection holds 7 examples; the review rescued 2 (criterion 1.1 by
    # an override, restored 2.1 by a decision) and rejected 1 (overturned 2.1).
    qtbot.waitUntil(lambda: "gained" in dialog.changes.text(), timeout=10000)
    assert dialog.changes.text().splitlines()[0] == (
        "8 examples per turn, 7 with the filter's own decisions: 2 gained, 1 lost, "
        "1 turns regained")
    # A decision made meanwhile (here through the task manager, as the main window
    # does) is counted again: rejecting ok/1/1 loses it and taints ok/2/1.
    ok = attempt_id(store, key(1, "ok"))
    task_manager.write(lambda s: decide(s, "associe", ok, "reject"))
    qtbot.waitUntil(lambda: "3 lost" in dialog.changes.text(), timeout=10000)
    assert "context holds a refused answer 1" in dialog.changes.text()
    dialog.close()


def test_preference_pairs_and_a_split_from_the_dialog(
        qtbot: Any, tmp_path: Path, store: Store, task_manager: TaskManager) -> None:
    load_export_store(store, tmp_path)
    dialog = ExportDialog(task_manager, folder=tmp_path)
    qtbot.addWidget(dialog)
    dialog.kind.setCurrentIndex(dialog.kind.findData("preference"))
    assert dialog.pref_fmt.isEnabled() and not dialog.per.isEnabled()
    dialog.pref_fmt.setCurrentIndex(dialog.pref_fmt.findData("kto"))
    dialog.filter_refusals.setChecked(True)
    assert dialog.path.text() == str(tmp_path / "preference.jsonl")
    with qtbot.waitSignal(dialog.exported, timeout=10000):
        dialog.export_button.click()
    labels = [json.loads(x)["label"] for x in
              (tmp_path / "preference.jsonl").read_text(encoding="utf-8").splitlines()]
    assert labels.count(True) == 8 and False in labels  # every exported answer is "true"
    assert "labelled attempts" in dialog.status.text()

    dialog.kind.setCurrentIndex(dialog.kind.findData("dataset"))
    dialog.split.setValue(0.25)
    assert dialog.path.text() == str(tmp_path / "dataset")  # a folder
    with qtbot.waitSignal(dialog.exported, timeout=10000):
        dialog.export_button.click()
    assert sorted(p.name for p in (tmp_path / "dataset").iterdir()) == [
        "manifest.json", "train.jsonl", "valid.jsonl"]
    dialog.close()


def test_the_database_is_refused_as_a_destination(
        qtbot: Any, tmp_path: Path, store: Store, db_url: str,
        task_manager: TaskManager) -> None:
    load_export_store(store, tmp_path)
    db = Path(db_url.removeprefix("sqlite:///"))
    before = db.read_bytes()
    dialog = ExportDialog(task_manager, folder=tmp_path)
    qtbot.addWidget(dialog)
    dialog.kind.setCurrentIndex(dialog.kind.findData("golden"))
    dialog.path.setText(str(db))
    dialog.start()
    assert dialog.status.text() == (f"cannot write {db}: it is the open database ({db}); "
                                    "nothing was written")
    assert dialog.export_button.isEnabled()
    assert db.read_bytes() == before
    dialog.close()


def test_a_path_ending_with_a_slash_names_a_folder_not_the_file(
        qtbot: Any, tmp_path: Path, store: Store, task_manager: TaskManager) -> None:
    # Fourth hostile pass, C2: "golden.jsonl/" replaced the existing file golden.jsonl.
    load_export_store(store, tmp_path)
    out = tmp_path / "golden.jsonl"
    out.write_text("precious\n", encoding="utf-8")
    dialog = ExportDialog(task_manager, folder=tmp_path)
    qtbot.addWidget(dialog)
    dialog.kind.setCurrentIndex(dialog.kind.findData("golden"))
    dialog.path.setText(f"{out}/")
    dialog.start()
    assert dialog.status.text() == (f"cannot write {out}/: it ends with '/', which names "
                                    "a folder; nothing was written")
    assert dialog.export_button.isEnabled()
    assert out.read_text(encoding="utf-8") == "precious\n"
    dialog.close()


def test_a_screenshot_over_the_database_is_refused(
        qapp: Any, ui_settings: Any, no_leaks: None, store: Store, db_url: str,
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    load_export_store(store, tmp_path)
    db = Path(db_url.removeprefix("sqlite:///"))
    before = db.read_bytes()

    assert gui_main(["--db", db_url, "gui", "--screenshot", str(db)]) == 2

    assert capsys.readouterr().err == (f"reviewer: cannot write {db}: it is the open "
                                       f"database ({db}); nothing was written\n")
    assert db.read_bytes() == before


def test_enter_exports_and_the_dialog_reopens_on_the_last_choices(
        qtbot: Any, tmp_path: Path, store: Store, task_manager: TaskManager,
        ui_settings: Settings) -> None:
    load_export_store(store, tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    dialog = ExportDialog(task_manager, memory=ui_settings)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.kind.setCurrentIndex(dialog.kind.findData("preference"))
    dialog.pref_fmt.setCurrentIndex(dialog.pref_fmt.findData("kto"))
    dialog.filter_refusals.setChecked(True)
    dialog.path.setText(str(out / "pairs.jsonl"))
    dialog.path.setFocus()
    # Enter in the path field exports: the file is written, no file chooser opens.
    with qtbot.waitSignal(dialog.exported, timeout=10000):
        QTest.keyClick(dialog.path, Qt.Key.Key_Return)
    assert (out / "pairs.jsonl").is_file()
    assert QApplication.activeModalWidget() is None
    dialog.close()
    again = ExportDialog(task_manager, memory=ui_settings)
    qtbot.addWidget(again)
    assert again.kind.currentData() == "preference"
    assert again.pref_fmt.currentData() == "kto" and again.filter_refusals.isChecked()
    assert again.path.text() == str(out / "pairs.jsonl")
    # Another kind goes to the same folder.
    again.kind.setCurrentIndex(again.kind.findData("catalog"))
    assert again.path.text() == str(out / "catalog.json")
    again.close()


def test_a_cause_the_store_does_not_hold_leaves_the_export_untouched(
        qtbot: Any, tmp_path: Path, store: Store, task_manager: TaskManager) -> None:
    """Ninth hostile pass, X4: a typo in the causes wrote "0 pairs" over a good export."""
    load_export_store(store, tmp_path)
    dialog = ExportDialog(task_manager, folder=tmp_path)
    qtbot.addWidget(dialog)
    dialog.kind.setCurrentIndex(dialog.kind.findData("preference"))
    dialog.pref_fmt.setCurrentIndex(dialog.pref_fmt.findData("kto"))
    dialog.filter_refusals.setChecked(True)
    out = tmp_path / "preference.jsonl"
    with qtbot.waitSignal(dialog.exported, timeout=10000):
        dialog.export_button.click()
    before = out.read_bytes()
    assert before
    dialog.causes.setText("G-DEMANDEE")
    dialog.export_button.click()
    qtbot.waitUntil(lambda: dialog.export_button.isEnabled(), timeout=10000)
    assert dialog.status.text() == ("Export failed: Refusal causes G-DEMANDEE: no such "
                                    "criterion or check (did you mean G-DEMANDE?)")
    assert out.read_bytes() == before
    dialog.causes.setText("G-DEMANDE")  # a cause the store holds: exported
    with qtbot.waitSignal(dialog.exported, timeout=10000):
        dialog.export_button.click()
    dialog.close()


def test_browse_takes_the_file_chosen_in_a_dialog_that_opens_no_listed_file(
        qtbot: Any, store: Store, tmp_path: Path, task_manager: TaskManager) -> None:
    # P15-2: Browse used Qt's static dialog, which reads every listed file (the store's
    # among them) and so dropped the store's SQLite locks; it is now ui/file_dialogs'.
    dialog = ExportDialog(task_manager, folder=tmp_path)
    qtbot.addWidget(dialog)
    target = tmp_path / "chosen.jsonl"
    seen: list[bool] = []

    def answer() -> None:
        # The name is typed in the dialog's own field and accepted in the same turn of
        # the event loop: selectFile() could be undone by the folder's listing arriving
        # later (two test workers), and the first name came back.
        modal = QApplication.activeModalWidget()
        if not isinstance(modal, QFileDialog):
            return
        poll.stop()
        seen.append(isinstance(modal.iconProvider(), TypesByName))
        name = modal.findChild(QLineEdit, "fileNameEdit")
        if name is None:  # no field to type in: close it, the asserts below say so
            modal.reject()
            return
        name.setText(str(target))
        modal.accept()

    poll = QTimer()
    poll.timeout.connect(answer)
    poll.start(20)
    dialog._browse()
    assert seen == [True]
    assert dialog.path.text() == str(target)


def release_writer(fifo: Path) -> None:
    """Open ``fifo`` for reading and close it: a writer blocked on it goes on (and fails)."""
    fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    os.close(fd)


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_the_export_dialog_refuses_a_pipe_or_a_device_at_once(
        qtbot: Any, task_manager: TaskManager, tmp_path: Path, kind: str) -> None:
    # Fifteenth hostile pass, P15-3: an export to a FIFO no one read said "Exporting…"
    # for ever, and the quit then waited for it. The app cannot stream; the command line
    # does (`reviewer export dataset FIFO`), and the line says so.
    if kind == "fifo":
        out = tmp_path / "exfifo"
        os.mkfifo(out)
    else:
        out = Path("/dev/null")
    dialog = ExportDialog(task_manager, folder=tmp_path)
    qtbot.addWidget(dialog)
    try:
        dialog.path.setText(str(out))
        dialog.start()
        assert dialog.status.text() == (
            f"Cannot write {out}: it is a pipe or a device, and the app writes files only; "
            f"nothing was written (reviewer export dataset {out} streams to it)")
        assert dialog.export_button.isEnabled()
        qtbot.waitUntil(lambda: task_manager.pending == 0, timeout=30000)
    finally:
        if kind == "fifo":
            release_writer(out)  # the unfixed dialog's export waits on it
        qtbot.waitUntil(lambda: task_manager.pending == 0, timeout=30000)
