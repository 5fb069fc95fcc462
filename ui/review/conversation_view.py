"""The conversation in the example pane: the question up top, the earlier turns below.

A reviewer reads the last user message beside the graded answer first (``Bubble`` in the
pane's top row); the earlier conversation comes after the verdicts (``EarlierConversation``):
the system prompt, the same on every attempt, collapsed to one line until asked for
(``P``), and only the last turns shown, with a control that shows earlier ones in
batches (``E``). Conversations of 10,000 messages exist: the pane never holds more
bubbles than were asked for, the bubbles share one style sheet (one per bubble made Qt
parse and polish thousands), and leaving an attempt deletes one container widget, not
the bubbles one by one.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QPushButton, QVBoxLayout, QWidget

from reviewer.review.example import Message
from reviewer.review.visible import plain as visible
from ui.review.text_widgets import plain_label
from ui.widgets_util import named

# What the pane shows of the earlier conversation at first, then per "show earlier".
FIRST_SHOWN = 20
BATCH = 50
ROLE_COLOURS = {"user": "#e3f2fd", "assistant": "#f1f3f4", "system": "#fff8e1"}
# One style sheet for every bubble of the pane (set on the pane's top widget).
BUBBLE_STYLE = "".join(
    f"QFrame#bubble_{role} {{ background: {colour}; border-radius: 8px; }}"
    for role, colour in ROLE_COLOURS.items()
) + "QLabel#bubble_role { color: #607d8b; font-size: 11px; }"


class Bubble(QFrame):
    """One chat message (its text shown as stored, hidden characters made visible)."""

    def __init__(self, role: str, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.role = role if role in ROLE_COLOURS else "assistant"
        self.setObjectName(f"bubble_{self.role}")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 6, 10, 6)
        layout.setSpacing(2)
        who = named(plain_label(role, selectable=False), "bubble_role")
        self.body = plain_label(visible(text))
        layout.addWidget(who)
        layout.addWidget(self.body)


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
        for w in (self.title, self.system_button):
            col.addWidget(w)
        self.system_holder = QVBoxLayout()
        self.system_holder.setContentsMargins(0, 0, 0, 0)
        col.addLayout(self.system_holder)
        self.system_box = self._container(self.system_holder, None, ())
        col.addWidget(self.earlier_button, 0, Qt.AlignmentFlag.AlignLeft)
        self.holder = QVBoxLayout()
        self.holder.setContentsMargins(0, 0, 0, 0)
        col.addLayout(self.holder)
        self.box: QWidget | None = None
        self.show_messages(())

    # --- content ---------------------------------------------------------------------
    def show_messages(self, messages: Sequence[Message]) -> None:
        """Show a new attempt's earlier conversation (the last ``FIRST_SHOWN`` messages)."""
        self.system = tuple(m for m in messages if m.role == "system")
        self.messages = tuple(m for m in messages if m.role != "system")
        self.system_box = self._container(self.system_holder, self.system_box, self.system)
        self.system_box.hide()
        self.shown_count = min(len(self.messages), FIRST_SHOWN)
        self._rebuild()

    @staticmethod
    def _container(holder: QVBoxLayout, old: QWidget | None,
                   messages: Sequence[Message]) -> QWidget:
        """A new widget holding a bubble per message, in ``holder`` instead of ``old``:
        the old one goes with its bubbles in a single deletion."""
        if old is not None:
            old.hide()
            old.deleteLater()
        box = QWidget()
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        for m in messages:
            layout.addWidget(aligned(Bubble(m.role, m.content)))
        holder.addWidget(box)
        return box

    def _rebuild(self) -> None:
        start = len(self.messages) - self.shown_count
        self.box = self._container(self.holder, self.box, self.messages[start:])
        self._texts()

    def _texts(self) -> None:
        total, hidden = len(self.messages), len(self.messages) - self.shown_count
        self.title.setText(self.tr("Earlier conversation (%1 messages)").replace(
            "%1", str(total)) if total or self.system else "")
        self.title.setVisible(bool(total or self.system))
        more = min(hidden, BATCH)
        self.earlier_button.setText(
            self.tr("Show %1 earlier messages (E) — %2 not shown").replace(
                "%1", str(more)).replace("%2", str(hidden)))
        self.earlier_button.setVisible(hidden > 0)
        size = sum(len(m.content) for m in self.system)
        shown = self.system_box.isVisible()
        text = self.tr("Hide the system prompt (P)") if shown else self.tr(
            "System prompt, %1 characters: show it (P)").replace("%1", str(size))
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
        """The bubbles made for this attempt (the collapsed system prompt's included)."""
        boxes = [self.system_box] + ([self.box] if self.box is not None else [])
        return [b for box in boxes for b in box.findChildren(Bubble)]
