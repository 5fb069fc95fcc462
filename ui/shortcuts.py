"""The keyboard table, in one place (Anki style): menus, shortcuts and the help overlay.

Each entry names an action of the main window, its keys, and the text shown in menus and
in the help overlay. Texts are English source strings translated in the "Shortcuts"
context (see assets/translations/reviewer_fr.ts).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication


@dataclass(frozen=True, slots=True)
class Shortcut:
    """One action: ``name`` is the window's action id, ``keys`` its key sequences."""

    name: str
    keys: tuple[str, ...]
    text: object  # a QT_TRANSLATE_NOOP marker: the English source string
    menu: str

    def label(self) -> str:
        """The translated text."""
        return QCoreApplication.translate("Shortcuts", str(self.text))


SHORTCUTS: tuple[Shortcut, ...] = (
    Shortcut("accept", ("A",), QT_TRANSLATE_NOOP("Shortcuts", "Accept the attempt"), "review"),
    Shortcut("reject", ("R",), QT_TRANSLATE_NOOP("Shortcuts", "Reject the attempt"), "review"),
    Shortcut("next", ("J", "Down"), QT_TRANSLATE_NOOP("Shortcuts", "Next attempt"), "go"),
    Shortcut("previous", ("K", "Up"), QT_TRANSLATE_NOOP("Shortcuts", "Previous attempt"), "go"),
    *(
        Shortcut(f"criterion{n}", (str(n),),
                 QT_TRANSLATE_NOOP("Shortcuts", "Toggle the n-th criterion of the table"),
                 "criteria")
        for n in range(1, 10)
    ),
    Shortcut("false_positive", ("F",),
             QT_TRANSLATE_NOOP("Shortcuts", "Mark the failed check as a false positive"),
             "review"),
    Shortcut("note", ("N",), QT_TRANSLATE_NOOP("Shortcuts", "Write a note"), "review"),
    Shortcut("second_opinion", ("S",),
             QT_TRANSLATE_NOOP("Shortcuts", "Ask a second opinion"), "review"),
    Shortcut("second_opinion_all", ("Ctrl+Shift+S",),
             QT_TRANSLATE_NOOP("Shortcuts", "Second opinion for all flagged"), "review"),
    Shortcut("search", ("/",), QT_TRANSLATE_NOOP("Shortcuts", "Search"), "go"),
    Shortcut("audit", ("Ctrl+Shift+A",),
             QT_TRANSLATE_NOOP("Shortcuts", "Audit accepted attempts"), "go"),
    Shortcut("undo", ("Ctrl+Z",), QT_TRANSLATE_NOOP("Shortcuts", "Undo"), "edit"),
    Shortcut("redo", ("Ctrl+Shift+Z", "Ctrl+Y"), QT_TRANSLATE_NOOP("Shortcuts", "Redo"),
             "edit"),
    Shortcut("settings", ("Ctrl+,",), QT_TRANSLATE_NOOP("Shortcuts", "Settings…"), "file"),
    Shortcut("quit", ("Ctrl+Q",), QT_TRANSLATE_NOOP("Shortcuts", "Quit"), "file"),
    Shortcut("help", ("?", "F1"), QT_TRANSLATE_NOOP("Shortcuts", "Keyboard shortcuts"), "help"),
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
