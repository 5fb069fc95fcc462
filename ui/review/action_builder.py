"""The main window's actions, menus, toolbar and help overlay, all from ``ui/shortcuts.py``.

``ReviewActions(window, handlers)`` makes one QAction per entry of the keyboard table
(object name ``action_<name>``, its keys as window shortcuts), the menus in ``MENUS``
order with the entries in table order, and the toolbar from the entries' ``tool`` places
with their short labels. ``help_lines()`` is what the help overlay lists. Nothing here
knows which action does what: the window hands in ``handlers`` by action name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu

from reviewer.review.undo import UndoSteps
from ui.review.undo_text import redo_text, undo_text
from ui.shortcuts import (
    CRITERION_KEYS,
    MENUS,
    SHORTCUTS,
    TOOL_SHORTCUTS,
    Shortcut,
    criterion_label,
)

CRITERION_KEYS_TEXT = f"{CRITERION_KEYS[0]} – {CRITERION_KEYS[8]}, {CRITERION_KEYS[9]}"


def key_text(s: Shortcut) -> str:
    """The keys of a shortcut as the platform shows them."""
    return "  /  ".join(QKeySequence(k).toString(QKeySequence.SequenceFormat.NativeText)
                        for k in s.keys)


def help_lines() -> list[tuple[str, str]]:
    """(keys, text) of every entry, the ten criterion keys as one line "1 – 9, 0"."""
    lines: list[tuple[str, str]] = []
    for s in SHORTCUTS:
        if s.name.startswith("criterion"):
            if s.name == "criterion1":
                lines.append((CRITERION_KEYS_TEXT, s.label()))
            continue
        lines.append((key_text(s), s.label()))
    lines += [(key_text(s), s.plain_label()) for s in TOOL_SHORTCUTS]  # the Tools windows
    return lines


def _text(s: Shortcut) -> str:
    if s.name.startswith("criterion"):
        return criterion_label(int(s.name.removeprefix("criterion")))
    return s.label()


class ReviewActions:
    """The window's QActions by name, its menus by ``MENUS`` name, and its toolbar."""

    def __init__(self, window: QMainWindow, handlers: Mapping[str, Callable[[], None]]) -> None:
        self.window = window
        self.by_name: dict[str, QAction] = {}
        for s in SHORTCUTS:
            action = QAction(_text(s), window)
            action.setObjectName(f"action_{s.name}")
            action.setShortcuts([QKeySequence(k) for k in s.keys])
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            action.setCheckable(s.checkable)
            action.triggered.connect(handlers[s.name])
            window.addAction(action)
            self.by_name[s.name] = action
        self.menus = self._menus()
        self._toolbar()

    def _menus(self) -> dict[str, QMenu]:
        menus: dict[str, QMenu] = {}
        for m in MENUS:
            parent, _, _sub = m.name.rpartition("/")
            menu = QMenu(m.label(), self.window)
            if m.object_name:
                menu.setObjectName(m.object_name)
            menus[m.name] = menu
            if not parent:
                self.window.menuBar().addMenu(menu)
        placed: set[str] = set()
        for s in SHORTCUTS:
            parent, _, _sub = s.menu.rpartition("/")
            if parent and s.menu not in placed:  # a submenu goes where its first entry is
                menus[parent].addMenu(menus[s.menu])
                placed.add(s.menu)
            if s.separator:
                menus[s.menu].addSeparator()
            menus[s.menu].addAction(self.by_name[s.name])
        return menus

    def _toolbar(self) -> None:
        # Buttons for the mouse: the same actions as the keys.
        bar = self.window.addToolBar(QCoreApplication.translate("MainWindow", "Review"))
        bar.setObjectName("review_toolbar")
        bar.setMovable(False)
        bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        placed = sorted((s for s in SHORTCUTS if s.tool is not None),
                        key=lambda s: s.tool or 0)
        group = None
        for s in placed:
            assert s.tool is not None
            if group is not None and s.tool // 10 != group:
                bar.addSeparator()
            group = s.tool // 10
            action = self.by_name[s.name]
            action.setIconText(s.short_label())
            bar.addAction(action)

    def show_undo(self, steps: UndoSteps) -> None:
        """Name in the Edit menu what Undo and Redo will do; enable them accordingly."""
        undo, redo = self.by_name["undo"], self.by_name["redo"]
        undo.setText(undo_text(steps.undo))
        undo.setEnabled(steps.undo is not None)
        redo.setText(redo_text(steps.redo))
        redo.setEnabled(steps.redo is not None)
