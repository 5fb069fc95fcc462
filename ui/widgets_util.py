"""Small helpers shared by the feedback windows (editors, dashboard, export dialog).

Background work goes through ``ui.ops.Ops``, like the main window's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QLabel

T = TypeVar("T", bound=QObject)
Done = Callable[[Any], None]
Failed = Callable[[BaseException], None]


def named(obj: T, name: str) -> T:
    """``obj`` with its object name set (tests and style sheets find widgets by name)."""
    obj.setObjectName(name)
    return obj


def plain(label: QLabel) -> QLabel:
    """``label`` showing its text verbatim: a QLabel takes text that looks like markup
    (an answer, a pattern, an error quoting either) for rich text unless told otherwise."""
    label.setTextFormat(Qt.TextFormat.PlainText)
    return label


