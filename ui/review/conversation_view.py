"""The conversation in the example pane: the question up top, the earlier turns below.

A reviewer reads the last user message beside the graded answer first (a ``Bubble`` in
the pane's top row); the earlier conversation comes after the verdicts
(``EarlierConversation``): the system prompt, the same on every attempt, collapsed to
one line until asked for (``P``), and only the last turns shown, with a control that
shows earlier ones in batches (``E``). Each message shows its first ``SHOWN_LIMIT``
characters at most, with a note saying how many it has (W opens the whole texts).

Conversations of 10,000 messages exist. The earlier turns are one read-only document
(``ConversationText``: a block per message, its background the role's colour), not a
widget per message: a widget per message made showing and leaving such a conversation
cost seconds (style sheets to polish, labels to lay out, widgets to delete one by one),
and even 50 of them cost a visible pause on a busy machine. The document costs what its
text costs, whatever the number of messages.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import (
    QColor,
    QPainter,
    QPaintEvent,
    QPalette,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
)
from PySide6.QtWidgets import QFrame, QHBoxLayout, QPushButton, QVBoxLayout, QWidget

from reviewer.review.example import Message
from reviewer.review.visible import SHOWN_LIMIT, shown
from ui.review.text_widgets import MARK_BG, MARK_FG, PlainTextView, cut_text, plain_label
from ui.widgets_util import named

# What the pane shows of the earlier conversation at first, then per "show earlier".
FIRST_SHOWN = 10
BATCH = 50
ROLE_COLOURS = {"user": QColor("#e3f2fd"), "assistant": QColor("#f1f3f4"),
                "system": QColor("#fff8e1")}
ROLE_TEXT = QColor("#607d8b")
INDENT = 90  # how far a message stands off the other side (the user's on the right)


def role_of(role: str) -> str:
    """The role a message is drawn as (an unknown one as the assistant's)."""
    return role if role in ROLE_COLOURS else "assistant"


class Bubble(QFrame):
    """One chat message (its text shown as stored, hidden characters made visible)."""

    def __init__(self, role: str, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.role = role_of(role)
        self.setObjectName(f"bubble_{self.role}")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 6, 10, 6)
        layout.setSpacing(2)
        who = named(plain_label(role, selectable=False), "bubble_role")
        palette = who.palette()
        palette.setColor(QPalette.ColorRole.WindowText, ROLE_TEXT)
        who.setPalette(palette)
        self.shown = shown(text, SHOWN_LIMIT)  # a megabyte question: its first part
        self.body = plain_label(self.shown.text)
        self.note = named(plain_label(cut_text(self.shown), selectable=False), "bubble_note")
        self.note.setStyleSheet("color: #b35c00;")
        layout.addWidget(who)
        layout.addWidget(self.note)  # read before the text it cuts
        layout.addWidget(self.body)
        self.note.setVisible(self.shown.cut is not None)

    def paintEvent(self, event: QPaintEvent) -> None:
        """The rounded background of the role's colour (no style sheet: see the module)."""
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(ROLE_COLOURS[self.role])
        painter.drawRoundedRect(self.rect(), 8, 8)
        painter.end()


def aligned(bubble: Bubble) -> QWidget:
    """The bubble in a row: the user's on the right, the others on the left."""
    holder = QWidget()
    row = QHBoxLayout(holder)
    row.setContentsMargins(0, 0, 0, 0)
    if bubble.role == "user":
        row.addStretch(1)
        row.addWidget(bubble, 4)
    else:
        row.addWidget(bubble, 4)
        row.addStretch(1)
    return holder


def split_question(context: Sequence[Message]) -> tuple[Message | None, tuple[Message, ...]]:
    """The last user message (the question the answer replies to) and the rest, in order."""
    for i in range(len(context) - 1, -1, -1):
        if context[i].role == "user":
            return context[i], (*context[:i], *context[i + 1:])
    return None, tuple(context)


class ConversationText(PlainTextView):
    """Messages as one document: per message a small role line and its text, on the
    role's colour, the user's set off to the right. Plain text only (cursor inserts, no
    HTML), hidden characters shown as markers in their own style."""

    _built: QTextDocument | None = None

    def show_messages(self, messages: Sequence[Message]) -> None:
        """Replace the document with ``messages``, in order (built apart, then shown: an
        attached document would be laid out again after every insertion)."""
        doc = QTextDocument(self)
        doc.setDefaultFont(self.font())
        self._fill(QTextCursor(doc), messages)
        old, self._built = self._built, doc
        self.setDocument(doc)
        doc.contentsChanged.connect(self._fit)
        if old is not None:
            old.deleteLater()
        self._fit()

    def _fill(self, cursor: QTextCursor, messages: Sequence[Message]) -> None:
        who, mark = QTextCharFormat(), QTextCharFormat()
        who.setForeground(ROLE_TEXT)
        font = self.font()
        who.setFontPointSize(max(font.pointSizeF() * 0.85, 6.0))
        mark.setForeground(MARK_FG)
        mark.setBackground(MARK_BG)
        body = QTextCharFormat()
        for i, m in enumerate(messages):
            block = QTextBlockFormat()
            role = role_of(m.role)
            block.setBackground(ROLE_COLOURS[role])
            block.setLeftMargin(INDENT if role == "user" else 0)
            block.setRightMargin(0 if role == "user" else INDENT)
            block.setTopMargin(6 if i else 0)
            if i:
                cursor.insertBlock(block, who)
            else:
                cursor.setBlockFormat(block)
            cursor.insertText(m.role, who)
            cursor.insertBlock(block, body)
            text = shown(m.content, SHOWN_LIMIT)  # each message laid out in part at most
            done = 0
            for start, end in text.marks:
                cursor.insertText(text.text[done:start], body)
                cursor.insertText(text.text[start:end], mark)
                done = end
            cursor.insertText(text.text[done:], body)
            if text.cut is not None:
                cursor.insertText("\n[" + cut_text(text) + "]", who)


class EarlierConversation(QWidget):
    """The messages before the question: system prompt collapsed, last turns first.

    Signals:
        grown(): more of the conversation is shown (the pane keeps its scroll place).
    """

    grown = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.messages: tuple[Message, ...] = ()
        self.system: tuple[Message, ...] = ()
        self.shown_count = 0
        col = QVBoxLayout(self)
        col.setContentsMargins(0, 0, 0, 0)
        col.setSpacing(4)
        self.title = named(plain_label(selectable=False), "earlier_title")
        self.system_button = named(QPushButton(), "system_prompt_button")
        self.system_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # P does it by keyboard
        self.system_button.clicked.connect(self.toggle_system)
        self.earlier_button = named(QPushButton(), "earlier_button")
        self.earlier_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # E does it by keyboard
        self.earlier_button.clicked.connect(self.show_earlier)
        col.addWidget(self.title)
        col.addWidget(self.system_button, 0, Qt.AlignmentFlag.AlignLeft)
        self.system_holder = QVBoxLayout()
        self.system_holder.setContentsMargins(0, 0, 0, 0)
        col.addLayout(self.system_holder)
        self.system_box = self._system_box(None)
        col.addWidget(self.earlier_button, 0, Qt.AlignmentFlag.AlignLeft)
        self.text = named(ConversationText(), "earlier_text")
        col.addWidget(self.text)
        self.show_messages(())

    # --- content ---------------------------------------------------------------------
    def show_messages(self, messages: Sequence[Message]) -> None:
        """Show a new attempt's earlier conversation (the last ``FIRST_SHOWN`` messages)."""
        self.system = tuple(m for m in messages if m.role == "system")
        self.messages = tuple(m for m in messages if m.role != "system")
        self.system_box = self._system_box(self.system_box)
        self.system_box.hide()
        self.shown_count = min(len(self.messages), FIRST_SHOWN)
        self._rebuild()

    def _system_box(self, old: QWidget | None) -> QWidget:
        """A new widget holding the system prompt's bubble, instead of ``old``."""
        if old is not None:
            old.hide()
            old.deleteLater()
        box = QWidget()
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 0, 0, 0)
        for m in self.system:
            layout.addWidget(aligned(Bubble(m.role, m.content)))
        self.system_holder.addWidget(box)
        return box

    @property
    def shown(self) -> tuple[Message, ...]:
        """The earlier messages shown now (the last ``shown_count``), in order."""
        return self.messages[len(self.messages) - self.shown_count:]

    def _rebuild(self) -> None:
        self.text.show_messages(self.shown)
        self.text.setVisible(bool(self.shown_count))
        self._texts()

    def _texts(self) -> None:
        total, hidden = len(self.messages), self.hidden_count
        self.title.setText(self.tr("Earlier conversation (%1 messages)").replace(
            "%1", str(total)) if total or self.system else "")
        self.title.setVisible(bool(total or self.system))
        more = min(hidden, BATCH)
        self.earlier_button.setText(
            self.tr("Show %1 earlier messages (E) — %2 not shown").replace(
                "%1", str(more)).replace("%2", str(hidden)))
        self.earlier_button.setVisible(hidden > 0)
        size = sum(len(m.content) for m in self.system)
        text = self.tr("Hide the system prompt (P)") if self.system_box.isVisible() \
            else self.tr("System prompt, %1 characters: show it (P)").replace("%1", str(size))
        self.system_button.setText(text)
        self.system_button.setVisible(bool(self.system))

    # --- on demand -------------------------------------------------------------------
    @property
    def hidden_count(self) -> int:
        """Earlier messages not shown yet."""
        return len(self.messages) - self.shown_count

    def show_earlier(self) -> bool:
        """Show up to ``BATCH`` more of the earlier messages; False when all are shown."""
        if not self.hidden_count:
            return False
        self.shown_count = min(len(self.messages), self.shown_count + BATCH)
        self._rebuild()
        self.grown.emit()
        return True

    def toggle_system(self) -> bool:
        """Show or collapse the system prompt; False when the attempt has none."""
        if not self.system:
            return False
        self.system_box.setVisible(not self.system_box.isVisible())
        self._texts()
        self.grown.emit()
        return True

    def bubbles(self) -> list[Bubble]:
        """The system prompt's bubble (shown or collapsed)."""
        return self.system_box.findChildren(Bubble)
