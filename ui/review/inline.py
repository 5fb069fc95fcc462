"""What the pane asks in place, without a dialog: the accept question and the note editor.

Neither covers anything: the question is a line above the answer, the note editor takes
the note's place in the decisions box beside it. Both are answered from the keyboard.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QFrame, QLineEdit, QVBoxLayout, QWidget

from reviewer.review.visible import plain as visible
from ui.review.text_widgets import plain_label
from ui.widgets_util import named


class AcceptQuestion(QFrame):
    """"The filter would still refuse this attempt": accept anyway, or flip and accept?

    It asks once per ``A``, about one attempt (``attempt_id``); the window answers it with
    its own keys (``A`` again: accept anyway, ``F``: flip the refusing verdicts and accept,
    Esc: neither) and closes it when the reviewer does anything else. Nothing is
    remembered: the next refusal asks again.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("accept_question")
        self.setStyleSheet("#accept_question { background: #fff3e0; border: 1px solid "
                           "#ffb74d; border-radius: 6px; }")
        self.attempt_id: int | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 6, 10, 6)
        self.text = named(plain_label(), "accept_question_text")
        self.keys = named(plain_label(selectable=False), "accept_question_keys")
        self.keys.setStyleSheet("font-weight: bold;")
        layout.addWidget(self.text)
        layout.addWidget(self.keys)
        self.hide()

    def ask(self, attempt_id: int, reasons: tuple[str, ...]) -> None:
        """Ask about ``attempt_id``, whose verdicts and checks still refuse it for ``reasons``."""
        self.attempt_id = attempt_id
        lines = "\n".join(f"  • {visible(r)}" for r in reasons)
        self.text.setText(self.tr(
            "The filter would still refuse this attempt, so your accept would contradict "
            "the verdicts and checks that back-tests and agreement figures read:")
            + "\n" + lines)
        self.keys.setText(self.tr(
            "A: accept anyway   ·   F: flip the refusing verdicts (and mark the failed "
            "checks false positives), then accept   ·   Esc: do neither"))
        self.show()

    def asking(self, attempt_id: int | None) -> bool:
        """Whether the question is open about ``attempt_id``."""
        return self.isVisible() and attempt_id is not None and self.attempt_id == attempt_id

    def close_question(self) -> None:
        """Close without an answer."""
        self.attempt_id = None
        self.hide()


# QLineEdit's default maxLength (32,767) cut a longer pasted note without a word, and
# "Note saved" stored the cut text (fourth hostile pass, G7). The store and the CLI
# (``decide --note``) have no limit, so the editor has none either: Qt's largest.
NOTE_MAX_LENGTH = 2**31 - 1
# A stored note longer than this is not opened in the one-line editor: a 50 MB note (a
# CSV can set one) kept the app at 100 % CPU for minutes and Esc was answered 5–7 s
# late (fifteenth hostile pass, P15-6). Far above any note typed by hand.
NOTE_EDIT_LIMIT = 100_000


class NoteEditor(QLineEdit):
    """The note, edited in place: Enter saves, Esc typed in it drops it.

    It takes a note of any length, as the CLI does (``NOTE_MAX_LENGTH``). Esc typed in the
    editor is its own, never the window's "Back to the queue": that action, chosen from
    the Go menu while a note was typed (the focus stays in the editor), dropped the note
    as Esc does (twelfth hostile pass, P12-2); the action now keeps it.

    Signals:
        saved(int, str): Enter on the note of this attempt, its text.
        dropped(): Esc typed in the editor closed it without saving.
    """

    saved = Signal(int, str)
    dropped = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("note_edit")
        self.setMaxLength(NOTE_MAX_LENGTH)
        self.setPlaceholderText(self.tr("Why you decided so (Enter saves, Esc cancels)"))
        self.attempt_id: int | None = None
        self._started_from = ""  # the note as it was when the editor opened
        self.returnPressed.connect(self._save)
        self.hide()

    def start(self, attempt_id: int, note: str) -> None:
        """Edit the note of ``attempt_id``, starting from ``note``."""
        self.attempt_id = attempt_id
        self._started_from = note
        self.setText(note)
        self.show()
        self.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.selectAll()

    @property
    def editing(self) -> bool:
        """True while the editor is open."""
        return self.isVisible()

    def unsaved(self) -> tuple[int, str] | None:
        """The attempt and the note typed, while the editor is open on a note that differs
        from the one it opened on; None otherwise."""
        if not self.editing or self.attempt_id is None or self.text() == self._started_from:
            return None
        return self.attempt_id, self.text()

    def hold(self) -> None:
        """The note is being stored as the window closes: shown, neither editable nor
        dropped, until ``release`` (thirteenth hostile pass, P13-4: the editor hid, and
        keys typed meanwhile went to the search box, then Esc there dropped the note)."""
        self.setReadOnly(True)

    def release(self) -> None:
        """Editable again (the note could not be stored)."""
        self.setReadOnly(False)

    def keep(self) -> None:
        """Close, saving the note typed when it differs from the one the editor opened on,
        as Enter would. Leaving the attempt (a click on another row, another queue) keeps
        what was typed (tenth hostile pass, Z1: it was thrown away without a word, while
        quitting saved it, Q1); Esc is how a note is dropped. Held, it stays."""
        if self.isReadOnly():
            return
        unsaved = self.unsaved()
        self.cancel()
        if unsaved is not None:
            self.saved.emit(*unsaved)

    def cancel(self) -> None:
        """Close without saving."""
        self.attempt_id = None
        self.hide()

    def _save(self) -> None:
        if self.isReadOnly():
            return  # held: being stored already
        aid, text = self.attempt_id, self.text()
        self.cancel()
        if aid is not None:
            self.saved.emit(aid, text)

    def event(self, e: QEvent) -> bool:
        """Esc typed here is the editor's (see the class docstring), not a shortcut."""
        if e.type() == QEvent.Type.ShortcutOverride and isinstance(e, QKeyEvent) \
                and e.key() == Qt.Key.Key_Escape:
            e.accept()
            return True
        return super().event(e)

    def keyPressEvent(self, e: QKeyEvent) -> None:
        """Esc drops the note."""
        if e.key() == Qt.Key.Key_Escape:
            if not self.isReadOnly():  # held: being stored, not dropped
                self.cancel()
                self.dropped.emit()
            return
        super().keyPressEvent(e)
