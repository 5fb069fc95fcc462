"""The reviewer name saved in Settings fails the name rule: the app does not start under
another name.

Seventh hostile pass, R1: ``reviewer=claire`` + U+200B (a name pasted with a zero-width
space) was replaced by the login name, said once in the status bar and gone at the first
decision; decisions were stored as ``root``, and in a team the agreement figures mixed
people. ``--reviewer`` with such a name refuses to start; a name from Settings now does
too, with a way out: a box names the setting, its file and the rule it breaks, with "Set a
name…" (the Settings dialog, the name field selected and the reason under it) and "Quit".
With ``--screenshot`` there is no box: one line, exit 2.

Ninth hostile pass, N2: once the store is open, a saved name that differs only by case
from a reviewer the store knows (``ALICE`` where ``alice`` decided) is refused the same
way, the box naming the known spelling.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from reviewer.errors import BadInputError
from reviewer.review.identity import case_twin_refusal, reviewer_name
from ui.review.dialogs import SettingsDialog
from ui.settings import AppSettings, Settings
from ui.store_choice import Declined


def _problem(settings: Settings, known: Sequence[str]) -> str | None:
    """Why the name saved in Settings cannot be used: it fails the name rule, or differs
    only by case from a reviewer the store knows (``known``; ninth hostile pass, N2)."""
    if settings.stored_name_refused is not None:
        return settings.stored_name_refused
    stored = str(settings.q.value("reviewer", "") or "")
    if not stored.strip():
        return None
    twin = case_twin_refusal(reviewer_name(stored), known)
    return None if twin is None else str(twin)


def refusal(settings: Settings, known: Sequence[str] = ()) -> BadInputError | None:
    """Why the name saved in Settings cannot be used (after ``load``), or None; ``known``:
    the reviewers of the store, once it is open."""
    problem = _problem(settings, known)
    if problem is None:
        return None
    return BadInputError(f"the reviewer name in Settings (saved in {settings.file_name()}) is "
                         f"refused: {problem}; set a valid one in Settings, or start with "
                         "--reviewer NAME")


class NameRefused(QMessageBox):
    """The saved reviewer name is refused, and the two ways on."""

    def __init__(self, problem: str) -> None:
        super().__init__(QMessageBox.Icon.Critical,
                         self.tr("The reviewer name in Settings is refused"), problem)
        self.setTextFormat(Qt.TextFormat.PlainText)  # a path may contain "<…>"
        self.setInformativeText(self.tr(
            "Decisions are stored under your name, never under another one: set a valid "
            "name (it is saved in Settings), or quit."))
        role = QMessageBox.ButtonRole
        self.set_button = self.addButton(self.tr("Set a name…"), role.AcceptRole)
        self.quit_button = self.addButton(self.tr("Quit"), role.RejectRole)
        self.setDefaultButton(self.set_button)
        self.setEscapeButton(self.quit_button)


def checked_name(settings: Settings, config: AppSettings,
                 known: Sequence[str] = ()) -> AppSettings:
    """``config`` when its name is the one saved, else the settings once the reviewer set
    a valid name in the dialog; ``Declined`` (exit 2) on Quit. ``known``: the reviewers
    of the store (a name they know under another case is refused too)."""
    problem = refusal(settings, known)
    while problem is not None:
        box = NameRefused(str(problem))
        box.exec()
        if box.clickedButton() is not box.set_button:
            raise Declined(problem.exit_code)
        stored = str(settings.q.value("reviewer", "") or "")
        dialog = SettingsDialog(replace(config, reviewer=stored), known_reviewers=known)
        dialog.reviewer.selectAll()
        dialog.reviewer.setFocus()
        dialog.error.setText(_problem(settings, known) or "")
        try:
            if dialog.exec() != SettingsDialog.DialogCode.Accepted:
                continue
            settings.save(dialog.values())
        finally:
            dialog.deleteLater()
        config = settings.load()
        problem = refusal(settings, known)
    return config

