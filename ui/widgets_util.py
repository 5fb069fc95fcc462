"""Small helpers shared by every window (the review window and the Tools windows).

Background work goes through the app's one task manager (``ui/tasks.py``).
"""

from __future__ import annotations

import html
from typing import TypeVar

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QLabel

T = TypeVar("T", bound=QObject)


def named(obj: T, name: str) -> T:
    """``obj`` with its object name set (tests and style sheets find widgets by name)."""
    obj.setObjectName(name)
    return obj


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
