"""The keyboard table, in one place (Anki style): menus, toolbar, shortcuts, help overlay.

Each entry names an action of the main window, its keys, the text shown in menus and in
the help overlay, the menu it goes in, and (for the mouse) its short toolbar label and
place. ``ui/review/action_builder.py`` makes every QAction, menu, the toolbar and the
help overlay from this table alone: add a key here, nowhere else.

Order: within a menu, entries appear in table order (``separator`` puts a line above
one); menus appear in ``MENUS`` order. ``tool`` places an entry on the toolbar: entries
are sorted by it, and a separator goes between tens (11, 12 | 21, 22 | 31 …).

Texts are English source strings, translated in the "Shortcuts" context; menu titles
and toolbar labels keep the "MainWindow" context they had when the window spelled them
(see assets/translations/reviewer_fr.ts).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication


@dataclass(frozen=True, slots=True)
class Shortcut:
    """One action: ``name`` is the window's action id, ``keys`` its key sequences.

    ``menu`` is a key of ``MENUS`` ("review/criteria" is the Review menu's submenu);
    ``short`` the toolbar label (None: not on the toolbar), ``tool`` its place there.
    """

    name: str
    keys: tuple[str, ...]
    text: object  # a QT_TRANSLATE_NOOP marker: the English source string
    menu: str
    short: object | None = None  # QT_TRANSLATE_NOOP("MainWindow", …)
    tool: int | None = None
    separator: bool = False

    def label(self) -> str:
        """The translated text."""
        return QCoreApplication.translate("Shortcuts", str(self.text))

    def short_label(self) -> str:
        """The translated toolbar label."""
        return QCoreApplication.translate("MainWindow", str(self.short))


@dataclass(frozen=True, slots=True)
class Menu:
    """A menu of the menu bar (or, with a "/" in ``name``, a submenu of one)."""

    name: str
    title: object  # QT_TRANSLATE_NOOP("MainWindow", …)
    object_name: str = ""

    def label(self) -> str:
        """The translated title."""
        return QCoreApplication.translate("MainWindow", str(self.title))


MENUS: tuple[Menu, ...] = (
    Menu("file", QT_TRANSLATE_NOOP("MainWindow", "&File")),
    Menu("edit", QT_TRANSLATE_NOOP("MainWindow", "&Edit")),
    Menu("go", QT_TRANSLATE_NOOP("MainWindow", "&Go")),
    Menu("review", QT_TRANSLATE_NOOP("MainWindow", "&Review")),
    Menu("review/criteria", QT_TRANSLATE_NOOP("MainWindow", "Toggle criterion")),
    # Filled by ui/tools/menu.py (regex back-test, criteria, agreement, exports).
    Menu("tools", QT_TRANSLATE_NOOP("MainWindow", "&Tools"), "tools_menu"),
    Menu("help", QT_TRANSLATE_NOOP("MainWindow", "&Help")),
)

SHORTCUTS: tuple[Shortcut, ...] = (
    Shortcut("accept", ("A",), QT_TRANSLATE_NOOP("Shortcuts", "Accept the attempt"), "review",
             QT_TRANSLATE_NOOP("MainWindow", "Accept (A)"), 11),
    Shortcut("reject", ("R",), QT_TRANSLATE_NOOP("Shortcuts", "Reject the attempt"), "review",
             QT_TRANSLATE_NOOP("MainWindow", "Reject (R)"), 12),
    Shortcut("next", ("J", "Down"), QT_TRANSLATE_NOOP("Shortcuts", "Next attempt"), "go"),
    Shortcut("previous", ("K", "Up"), QT_TRANSLATE_NOOP("Shortcuts", "Previous attempt"), "go"),
    Shortcut("note", ("N",), QT_TRANSLATE_NOOP("Shortcuts", "Write a note"), "review",
             QT_TRANSLATE_NOOP("MainWindow", "Note (N)"), 13),
    Shortcut("false_positive", ("F",),
             QT_TRANSLATE_NOOP("Shortcuts", "Mark the failed check as a false positive"),
             "review", QT_TRANSLATE_NOOP("MainWindow", "False positive (F)"), 14),
    *(
        Shortcut(f"criterion{n}", (str(n),),
                 QT_TRANSLATE_NOOP("Shortcuts", "Toggle the n-th criterion of the table"),
                 "review/criteria")
        for n in range(1, 10)
    ),
    Shortcut("second_opinion", ("S",),
             QT_TRANSLATE_NOOP("Shortcuts", "Ask a second opinion"), "review",
             QT_TRANSLATE_NOOP("MainWindow", "Second opinion (S)"), 21, separator=True),
    Shortcut("second_opinion_all", ("Ctrl+Shift+S",),
             QT_TRANSLATE_NOOP("Shortcuts", "Second opinion for all flagged"), "review",
             QT_TRANSLATE_NOOP("MainWindow", "Second opinion: all flagged"), 22),
    Shortcut("search", ("/",), QT_TRANSLATE_NOOP("Shortcuts", "Search"), "go"),
    Shortcut("audit", ("Ctrl+Shift+A",),
             QT_TRANSLATE_NOOP("Shortcuts", "Audit accepted attempts"), "go"),
    Shortcut("undo", ("Ctrl+Z",), QT_TRANSLATE_NOOP("Shortcuts", "Undo"), "edit",
             QT_TRANSLATE_NOOP("MainWindow", "Undo"), 31),
    Shortcut("redo", ("Ctrl+Shift+Z", "Ctrl+Y"), QT_TRANSLATE_NOOP("Shortcuts", "Redo"),
             "edit", QT_TRANSLATE_NOOP("MainWindow", "Redo"), 32),
    Shortcut("settings", ("Ctrl+,",), QT_TRANSLATE_NOOP("Shortcuts", "Settings…"), "file"),
    Shortcut("quit", ("Ctrl+Q",), QT_TRANSLATE_NOOP("Shortcuts", "Quit"), "file"),
    Shortcut("help", ("?", "F1"), QT_TRANSLATE_NOOP("Shortcuts", "Keyboard shortcuts"), "help",
             QT_TRANSLATE_NOOP("MainWindow", "?"), 33),
)


def shortcut(name: str) -> Shortcut:
    """The entry for an action name."""
    for s in SHORTCUTS:
        if s.name == name:
            return s
    raise KeyError(name)


def criterion_label(n: int) -> str:
    """"Toggle criterion 3" in the current language."""
    return QCoreApplication.translate("Shortcuts", "Toggle criterion %1").replace("%1", str(n))
