"""The database set in Settings cannot be opened: a way out, not a locked door.

A mistyped Database in Settings (or in the settings file) stopped every start with
"no database at PATH (import a run first, or check the path)": ``reviewer import``
writes to the default store, so the advice did not help, and Settings, the one place
to fix the path, is inside the app that would not open (sixth hostile pass, U3).
The box names the setting and its file, and offers the default store (the setting
cleared), another database (chosen, then saved in Settings) or Quit. ``--db`` and
``$REVIEWER_DB`` are not Settings and keep their own refusal (``ui/app.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QMessageBox

from reviewer.errors import ReviewerError
from reviewer.store import Store
from ui.file_dialogs import existing_file
from ui.settings import Settings

Opener = Callable[..., Store]  # ui.app.open_with_demo(url, named_by=…)


class Declined(Exception):
    """The reviewer chose Quit; ``exit_code`` is the refusal's."""

    def __init__(self, exit_code: int) -> None:
        super().__init__(exit_code)
        self.exit_code = exit_code


class StoreRefused(QMessageBox):
    """Why the database set in Settings cannot be opened, and the three ways on."""

    def __init__(self, problem: str) -> None:
        super().__init__(QMessageBox.Icon.Critical,
                         self.tr("Cannot open the database set in Settings"), problem)
        self.setTextFormat(Qt.TextFormat.PlainText)  # a path may contain "<…>"
        self.setInformativeText(self.tr(
            "Use the default store (the setting is cleared), choose another database (it "
            "is saved in Settings), or quit."))
        role = QMessageBox.ButtonRole
        self.default_button = self.addButton(self.tr("Use the default store"), role.AcceptRole)
        self.choose_button = self.addButton(self.tr("Choose a database…"), role.ActionRole)
        self.quit_button = self.addButton(self.tr("Quit"), role.RejectRole)
        self.setDefaultButton(self.default_button)
        self.setEscapeButton(self.quit_button)


def choose_file(near: str) -> str:
    """A database file picked by the reviewer ("" when cancelled)."""
    folder = Path(near).expanduser().parent
    # A dialog that opens no listed file: Qt's own read every store of the folder, which
    # drops the locks another window of this process holds on it (P15-2).
    return existing_file(
        None, QCoreApplication.translate("StoreRefused", "Choose a database"),
        str(folder) if folder.is_dir() else str(Path.home()),
        QCoreApplication.translate("StoreRefused",
                                   "SQLite databases (*.sqlite3 *.sqlite *.db);;All files (*)"))


def settings_source(settings: Settings) -> str:
    """Where the database was read, as the refusal says it."""
    return f"the Database set in Settings (saved in {settings.file_name()})"


def open_from_settings(settings: Settings, database: str, opener: Opener) -> Store:
    """The store Settings names, else the one the reviewer takes instead; ``Declined``
    on Quit. A refusal of the default store itself is raised as it is (the usual box)."""
    try:
        return opener(database, named_by=settings_source(settings))
    except ReviewerError as exc:
        problem = exc
    while True:
        box = StoreRefused(str(problem))
        box.exec()
        clicked = box.clickedButton()
        if clicked is box.default_button:
            store = opener(None)
            settings.set_database("")
            return store
        if clicked is not box.choose_button:
            raise Declined(problem.exit_code)
        chosen = choose_file(database)
        if not chosen:
            continue
        try:
            store = opener(chosen, named_by="the file chosen")
        except ReviewerError as exc:
            problem = exc
            continue
        settings.set_database(chosen)
        return store

