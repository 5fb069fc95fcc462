"""Menus, toolbar and help overlay come from the one keyboard table; the Edit menu says what
Undo and Redo will do, in English and in French."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QMenu, QToolBar

from reviewer.store import Store
from tests.support.qt import idle
from tests.ui.test_ui_review import show
from ui import i18n
from ui.review.action_builder import help_lines
from ui.review.window import MainWindow
from ui.shortcuts import MENUS, SHORTCUTS, TOOL_SHORTCUTS

pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints")
Maker = Callable[[Store], MainWindow]


def entries(menu: QMenu) -> list[str]:
    """Action names of a menu, "-" for a separator, "[title]" for a submenu."""
    out = []
    for a in menu.actions():
        if a.isSeparator():
            out.append("-")
        elif a.menu() is not None:
            out.append(f"[{a.text()}]")
        else:
            out.append(a.objectName().removeprefix("action_"))
    return out


def test_menus_toolbar_and_help_are_the_keyboard_table(qtbot: Any, make_window: Maker,
                                                       filled_store: Store) -> None:
    w = make_window(filled_store)
    menus = w.review_actions.menus
    assert [a.text() for a in w.menuBar().actions()] == [
        m.label() for m in MENUS if "/" not in m.name]
    # Every entry of the table is in the menu its ``menu`` names, in table order.
    for m in MENUS:
        listed = [e for e in entries(menus[m.name])
                  if e != "-" and not e.startswith(("[", "tool_"))]  # tool_: ui/tools/menu.py
        assert listed == [s.name for s in SHORTCUTS if s.menu == m.name], m.name
    assert entries(menus["review"]) == ["accept", "rescue", "reject", "note",
                                        "false_positive", "[Toggle criterion]",
                                        "verdict_cursor", "-", "second_opinion",
                                        "second_opinion_all", "-", "bulk",
                                        "current_checks"]
    bar = w.findChild(QToolBar, "review_toolbar")
    assert bar is not None
    assert [a.iconText() if not a.isSeparator() else "-" for a in bar.actions()] == [
        "Accept (A)", "Rescue (Shift+A)", "Reject (R)", "Note (N)", "False positive (F)", "-",
        "Second opinion (S)", "Second opinion: all flagged", "-", "Undo", "Redo", "?"]
    for s in SHORTCUTS:
        action = w.findChild(QAction, f"action_{s.name}")
        assert action is not None and [k.toString() for k in action.shortcuts()] == list(s.keys)
    # The help overlay lists the table: every key once, the ten criteria as one line.
    assert len(help_lines()) == len(SHORTCUTS) - 9 + len(TOOL_SHORTCUTS)
    assert ("1 – 9, 0", "Toggle the n-th criterion of the table") in help_lines()


def test_edit_menu_says_what_undo_and_redo_will_do(qtbot: Any, make_window: Maker,
                                                   filled_store: Store) -> None:
    w = make_window(filled_store)
    undo, redo = w.actions_by_name["undo"], w.actions_by_name["redo"]
    assert (undo.text(), undo.isEnabled(), redo.text(), redo.isEnabled()) == (
        "Undo", False, "Redo", False)
    w.config.auto_advance = False
    show(qtbot, w, "recette-005/2/1")
    w.commands.toggle_criterion(1)  # G-DEMANDE, judged "non": now met
    idle(qtbot, w)
    assert undo.text() == "Undo: G-DEMANDE → met on recette-005/2/1"
    w.decide("reject")
    idle(qtbot, w)
    assert undo.text() == "Undo: reject recette-005/2/1"
    assert undo.iconText() == "Undo"  # the toolbar keeps its short label
    w.commands.undo()
    idle(qtbot, w)
    assert undo.text() == "Undo: G-DEMANDE → met on recette-005/2/1"
    assert (redo.text(), redo.isEnabled()) == ("Redo: reject recette-005/2/1", True)
    show(qtbot, w, "recette-005/2/2")
    w.commands.toggle_false_positive()
    idle(qtbot, w)
    assert undo.text() == "Undo: D-COMMERCE → false positive on recette-005/2/2"
    assert (redo.text(), redo.isEnabled()) == ("Redo", False)  # a new change ends redo


def test_undo_labels_in_french(qtbot: Any, make_window: Maker, filled_store: Store,
                               qapp: QApplication) -> None:
    translators = i18n.install(qapp, "fr")
    try:
        w = make_window(filled_store)
        w.config.auto_advance = False
        show(qtbot, w, "recette-007/2/2")
        w.decide("reject")
        idle(qtbot, w)
        assert w.actions_by_name["undo"].text() == "Annuler : rejeter recette-007/2/2"
        w.commands.undo()
        idle(qtbot, w)
        assert w.actions_by_name["redo"].text() == "Rétablir : rejeter recette-007/2/2"
        assert w.actions_by_name["undo"].text() == "Annuler"
        w.close()
    finally:
        i18n.remove(qapp, translators)
    assert QApplication.translate("UndoText", "Undo: %1") == "Undo: %1"


def test_a_grouped_step_names_how_many_changes(qapp: QApplication) -> None:
    """A rescue or a bulk action is one undo step; the menu says how much it takes back."""
    from reviewer.keys import AttemptKey
    from reviewer.review.undo import UndoStep
    from ui.review.undo_text import redo_text, undo_text

    key = AttemptKey("run", "recette-009", 2, 2)
    one = UndoStep("group", key, None, None, 3, 1)
    many = UndoStep("group", key, None, None, 20, 20)
    assert undo_text(one) == "Undo: 3 changes on recette-009/2/2"
    assert redo_text(many) == "Redo: 20 changes on 20 attempts"
    translators = i18n.install(qapp, "fr")
    try:
        assert undo_text(one) == "Annuler : 3 modifications sur recette-009/2/2"
    finally:
        i18n.remove(qapp, translators)
