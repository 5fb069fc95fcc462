"""Small helpers shared by every window (the review window and the Tools windows).

Background work goes through the app's one task manager (``ui/tasks.py``).
"""

from __future__ import annotations

import html
from typing import TypeVar

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QLabel, QWidget

T = TypeVar("T", bound=QObject)


def named(obj: T, name: str) -> T:
    """``obj`` with its object name set (tests and style sheets find widgets by name)."""
    obj.setObjectName(name)
    return obj


def fit_on_screen(window: QWidget) -> None:
    """Shrink and move ``window`` so that the whole of it, frame included, lies in the
    available area of the screen it opens on (the one under its centre).

    The main window's first size (1500 x 950) ran off a 1400 x 900 screen, its status bar
    and right column out of reach (sixth hostile pass, U12); Qt's own clamp of a
    restored geometry leaves the frame out. The frame's margins are known once the window
    has a platform window, so this runs as it is shown.
    """
    screen = QGuiApplication.screenAt(window.geometry().center()) or window.screen()
    area = screen.availableGeometry()
    frame, inner = window.frameGeometry(), window.geometry()
    extra_w, extra_h = frame.width() - inner.width(), frame.height() - inner.height()
    width = min(inner.width(), area.width() - extra_w)
    height = min(inner.height(), area.height() - extra_h)
    if (width, height) != (inner.width(), inner.height()):
        window.resize(width, height)
    x = max(area.left(), min(frame.x(), area.right() + 1 - (width + extra_w)))
    y = max(area.top(), min(frame.y(), area.bottom() + 1 - (height + extra_h)))
    if (x, y) != (frame.x(), frame.y()):
        window.move(x, y)  # a top-level window's position is its frame's


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
