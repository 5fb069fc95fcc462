"""Small helpers shared by the feedback windows (editors, dashboard, export dialog)."""

from __future__ import annotations

from typing import TypeVar

from PySide6.QtCore import QObject

T = TypeVar("T", bound=QObject)


def named(obj: T, name: str) -> T:
    """``obj`` with its object name set (tests and style sheets find widgets by name)."""
    obj.setObjectName(name)
    return obj
