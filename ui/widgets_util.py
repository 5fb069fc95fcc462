"""Small helpers shared by every window (the review window and the Tools windows).

Background work goes through the app's one task manager (``ui/tasks.py``).
"""

from __future__ import annotations

import html
from typing import TypeVar

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QLabel, QWidget

T = TypeVar("T", bound=QObject)


def named(obj: T, name: str) -> T:
    """``obj`` with its object name set (tests and style sheets find widgets by name)."""
    obj.setObjectName(name)
    return obj


def _margins(window: QWidget) -> tuple[int, int]:
    """The width and height the window manager's frame adds (0, 0 until it is known)."""
    frame, inner = window.frameGeometry(), window.geometry()
    return frame.width() - inner.width(), frame.height() - inner.height()


def fit_on_screen(window: QWidget) -> None:
    """Shrink and move ``window`` so that the whole of it, frame included, lies in the
    available area of the screen it opens on (the one under its centre).

    The main window's first size (1500 x 950) ran off a 1400 x 900 screen, its status bar
    and right column out of reach (sixth hostile pass, U12); Qt's own clamp of a
    restored geometry leaves the frame out. The frame's margins are known only once the
    window manager has framed the shown window (``ScreenFit`` fits it again then).
    """
    screen = QGuiApplication.screenAt(window.geometry().center()) or window.screen()
    area = screen.availableGeometry()
    frame, inner = window.frameGeometry(), window.geometry()
    extra_w, extra_h = _margins(window)
    width = min(inner.width(), area.width() - extra_w)
    height = min(inner.height(), area.height() - extra_h)
    if (width, height) != (inner.width(), inner.height()):
        window.resize(width, height)
    x = max(area.left(), min(frame.x(), area.right() + 1 - (width + extra_w)))
    y = max(area.top(), min(frame.y(), area.bottom() + 1 - (height + extra_h)))
    if (x, y) != (frame.x(), frame.y()):
        window.move(x, y)  # a top-level window's position is its frame's


class ScreenFit(QObject):
    """Fits ``window`` on its screen when it is first shown, and again when the window
    manager's frame arrives.

    On X11 the window manager adds its title bar after the window is mapped: when the
    window is shown its frame is not known yet, so the first fit leaves room for no title
    bar and the status bar ran under the screen's edge again (a 1400 x 900 screen, seen
    under Xvfb and openbox). Each move or resize that comes with other frame margins in
    the first seconds fits it again; after that the filter goes, and the window is the
    user's to place.
    """

    SETTLE_MS = 3000

    def __init__(self, window: QWidget) -> None:
        """Fit ``window`` now (call it as the window is shown), and watch its frame."""
        super().__init__(window)
        self.window = window
        self.fitted = (0, 0)  # the frame margins of the last fit
        self._fit()
        window.installEventFilter(self)
        QTimer.singleShot(self.SETTLE_MS, self, self._done)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.Move, QEvent.Type.Resize) \
                and _margins(self.window) != self.fitted:
            self._fit()
        return False

    def _fit(self) -> None:
        self.fitted = _margins(self.window)
        fit_on_screen(self.window)

    def _done(self) -> None:
        self.window.removeEventFilter(self)
        self.deleteLater()


def plain(label: QLabel) -> QLabel:
    """``label`` showing its text verbatim: a QLabel takes text that looks like markup
    (an answer, a pattern, an error quoting either) for rich text unless told otherwise."""
    label.setTextFormat(Qt.TextFormat.PlainText)
    return label


def rich_tooltip(text: str) -> str:
    """A tooltip showing ``text`` literally: Qt takes any tooltip that looks like markup
    for rich text, so the text is escaped, and ``pre-wrap`` keeps its spaces and line
    breaks while long lines still wrap."""
    return f'<qt><div style="white-space:pre-wrap">{html.escape(text)}</div></qt>'
