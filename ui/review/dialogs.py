"""Small dialogs: the keyboard help overlay, the settings (the note is edited in place:
``ui/review/inline.py``)."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGridLayout,
    QLabel,
    QLineEdit,
    QWidget,
)

from reviewer.errors import BadInputError
from ui.settings import AppSettings, check_values
from ui.widgets_util import named, plain


class HelpOverlay(QDialog):
    """The keys and what they do (``lines``, from the keyboard table); any key closes it."""

    def __init__(self, lines: list[tuple[str, str]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("help_overlay")
        self.setWindowTitle(self.tr("Keyboard shortcuts"))
        grid = QGridLayout(self)
        grid.setHorizontalSpacing(24)
        self.lines = list(lines)
        for row, (keys, text) in enumerate(self.lines):
            key_label = QLabel(keys)
            key_label.setTextFormat(Qt.TextFormat.PlainText)
            key_label.setStyleSheet("font-family: monospace; font-weight: bold;")
            text_label = QLabel(text)
            text_label.setTextFormat(Qt.TextFormat.PlainText)
            grid.addWidget(key_label, row, 0)
            grid.addWidget(text_label, row, 1)
        row = len(self.lines)
        hint = QLabel(self.tr("Press any key to close."))
        hint.setStyleSheet("color: #78909c;")
        grid.addWidget(hint, row, 0, 1, 2)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Close on any key."""
        self.accept()


class SettingsDialog(QDialog):
    """Reviewer name, Ollama host and model, database, language, auto-advance."""

    def __init__(self, settings: AppSettings, parent: QWidget | None = None, *,
                 known_reviewers: Sequence[str] = ()) -> None:
        super().__init__(parent)
        # The reviewers the store knows: a name that differs from one only by case is
        # refused here, naming it (ninth hostile pass, N2).
        self.known_reviewers = tuple(known_reviewers)
        self.setWindowTitle(self.tr("Settings"))
        self.setMinimumWidth(480)
        form = QFormLayout(self)
        self.reviewer = QLineEdit(settings.reviewer)
        self.host = QLineEdit(settings.ollama_host)
        self.model = QLineEdit(settings.ollama_model)
        self.database = QLineEdit(settings.database)
        self.database.setPlaceholderText(self.tr("default location"))
        self.language = QComboBox()
        for code, name in (("system", self.tr("System language")), ("en", "English"),
                           ("fr", "Français")):
            self.language.addItem(name, code)
        self.language.setCurrentIndex(max(self.language.findData(settings.language), 0))
        self.auto_advance = QCheckBox(self.tr("Go to the next attempt after accept or reject"))
        self.auto_advance.setChecked(settings.auto_advance)
        self.think = QCheckBox(self.tr("Let a reasoning judge think before a second opinion"))
        self.think.setChecked(settings.judge_think)
        form.addRow(self.tr("Reviewer name"), self.reviewer)
        form.addRow(self.tr("Ollama host"), self.host)
        form.addRow(self.tr("Judge model"), self.model)
        form.addRow("", self.think)
        form.addRow(self.tr("Database"), self.database)
        form.addRow(self.tr("Language"), self.language)
        form.addRow("", self.auto_advance)
        note = QLabel(self.tr("Language and database changes apply at the next start."))
        note.setStyleSheet("color: #78909c;")
        form.addRow(note)
        # Why OK did not close the dialog (a name with a hidden character, a NUL…).
        self.error = plain(named(QLabel(), "settings_error"))
        self.error.setStyleSheet("color: #b3261e;")
        self.error.setWordWrap(True)
        form.addRow(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def accept(self) -> None:
        """Close with OK only when every field can be stored (else say why, stay open)."""
        try:
            check_values(self._typed(), self.known_reviewers)
        except BadInputError as exc:
            self.error.setText(str(exc))
            return
        self.error.clear()
        super().accept()

    def values(self) -> AppSettings:
        """The settings as edited, as they will be stored (the name trimmed and NFC)."""
        return check_values(self._typed(), self.known_reviewers)

    def _typed(self) -> AppSettings:
        return AppSettings(
            reviewer=self.reviewer.text(),
            ollama_host=self.host.text(),
            ollama_model=self.model.text(),
            database=self.database.text(),
            language=str(self.language.currentData()),
            auto_advance=self.auto_advance.isChecked(),
            judge_think=self.think.isChecked(),
        )
