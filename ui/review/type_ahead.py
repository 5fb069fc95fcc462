"""Every key typed while review keys wait joins them, whatever widget would take it.

The window's review keys go through ``KeyQueue`` (``key_queue.py``) when they are actions.
But some keys are not actions: the arrows, Home/End, Space and Esc belong to whichever
widget has the focus (the queue list, the verdict cursor), and the widget handles them at
once. Typed right after a key that waits (``V`` while the next attempt loads), ``Down``
used to move the queue list before ``V`` had even run: an attempt skipped, the flip that
followed lost or applied to the wrong attempt. So while any key waits, every key press
meant for the main window is held here and replayed, in order, when its turn comes, to
the widget that has the focus *then* — as slow typing would have sent it.

A mouse click in the window while keys wait drops them, named in the status bar ("Not
applied: R R (a click came before they could apply)"): they were typed for the attempt
shown then, and would otherwise run on the row the click chose (ninth hostile pass, K2:
R's held during a PostgreSQL outage were applied to the clicked row and the ones after).

Replay follows Qt's own order: the focus widget may claim the key (``ShortcutOverride``,
as the verdict cursor does for its arrows and Space); else an enabled action of the
window with that shortcut is triggered; else the focus widget gets the key press.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QEvent, QKeyCombination, QObject, Qt
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence
from PySide6.QtWidgets import QApplication, QMainWindow, QWidget

from ui.review.key_queue import KeyQueue


@dataclass(frozen=True, slots=True)
class TypedKey:
    """A key press as typed (a ``QKeyEvent`` does not outlive its delivery)."""

    key: int
    modifiers: Qt.KeyboardModifier
    text: str
    autorepeat: bool

    @classmethod
    def of(cls, e: QKeyEvent) -> TypedKey:
        return cls(e.key(), e.modifiers(), e.text(), e.isAutoRepeat())

    def event(self, kind: QEvent.Type) -> QKeyEvent:
        return QKeyEvent(kind, self.key, self.modifiers, self.text, self.autorepeat)

    @property
    def sequence(self) -> QKeySequence:
        return QKeySequence(QKeyCombination(self.modifiers, Qt.Key(self.key)))


class TypeAhead(QObject):
    """Holds the main window's key presses behind the review keys that wait (see module)."""

    def __init__(self, window: QMainWindow, keys: KeyQueue) -> None:
        super().__init__(window)
        self._window = window
        self._keys = keys
        self._replaying = False
        app = QApplication.instance()
        if app is not None:
            app.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """While keys wait, take the window's key presses (and their shortcut checks);
        a click drops them."""
        kind = event.type()
        if kind in (QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonDblClick) \
                and self._keys.waiting and isinstance(watched, QWidget) \
                and watched.window() is self._window:
            self._keys.refuse(self.tr("a click came before they could apply"))
            return False  # the click itself does what it does
        if kind not in (QEvent.Type.KeyPress, QEvent.Type.ShortcutOverride) \
                or self._replaying or not self._keys.waiting \
                or not isinstance(watched, QWidget) or watched.window() is not self._window \
                or not isinstance(event, QKeyEvent):
            return False
        if kind == QEvent.Type.ShortcutOverride:
            event.accept()  # no shortcut fires now: the key press comes here instead
            return True
        typed = TypedKey.of(event)
        if typed.key in (Qt.Key.Key_Shift, Qt.Key.Key_Control, Qt.Key.Key_Alt,
                         Qt.Key.Key_Meta, Qt.Key.Key_unknown):
            return True  # a modifier alone does nothing; its combination is the key
        name = typed.sequence.toString() or typed.text
        self._keys.submit(name, lambda: self._replay(typed), needs_view=False)
        return True

    def _replay(self, typed: TypedKey) -> None:
        target = QApplication.focusWidget() or self._window
        self._replaying = True
        try:
            with self._keys.in_turn():
                self._deliver(target, typed)
        finally:
            self._replaying = False

    def _deliver(self, target: QWidget, typed: TypedKey) -> None:
        override = typed.event(QEvent.Type.ShortcutOverride)
        override.ignore()
        QApplication.sendEvent(target, override)
        if not override.isAccepted():
            action = self._action_for(typed.sequence)
            if action is not None:
                action.trigger()
                return
        QApplication.sendEvent(target, typed.event(QEvent.Type.KeyPress))

    def _action_for(self, sequence: QKeySequence) -> QAction | None:
        for action in self._window.findChildren(QAction):
            if action.isEnabled() and any(
                    s.matches(sequence) == QKeySequence.SequenceMatch.ExactMatch
                    for s in action.shortcuts()):
                return action
        return None
