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
    checkable: bool = False  # an on/off view setting rather than an action

    def label(self) -> str:
        """The translated text."""
        return QCoreApplication.translate("Shortcuts", str(self.text))

    def plain_label(self) -> str:
        """The translated text without its mnemonic mark (for the help overlay)."""
        return self.label().replace("&&", "\0").replace("&", "").replace("\0", "&")

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

# The number keys flip verdict rows 1–10: "1"…"9", then "0" for the tenth.
CRITERION_KEYS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "0")

SHORTCUTS: tuple[Shortcut, ...] = (
    Shortcut("accept", ("A",), QT_TRANSLATE_NOOP("Shortcuts", "Accept the attempt"), "review",
             QT_TRANSLATE_NOOP("MainWindow", "Accept (A)"), 11),
    Shortcut("rescue", ("Shift+A",),
             QT_TRANSLATE_NOOP("Shortcuts", "Rescue: flip the contradictions that would "
                               "change the decision, then accept"), "review",
             QT_TRANSLATE_NOOP("MainWindow", "Rescue (Shift+A)"), 12),
    Shortcut("reject", ("R",), QT_TRANSLATE_NOOP("Shortcuts", "Reject the attempt"), "review",
             QT_TRANSLATE_NOOP("MainWindow", "Reject (R)"), 13),
    Shortcut("next", ("J", "Down"), QT_TRANSLATE_NOOP("Shortcuts", "Next attempt"), "go"),
    Shortcut("previous", ("K", "Up"), QT_TRANSLATE_NOOP("Shortcuts", "Previous attempt"), "go"),
    Shortcut("next_unreviewed", ("U",),
             QT_TRANSLATE_NOOP("Shortcuts", "Next attempt you have not reviewed"), "go"),
    Shortcut("note", ("N",), QT_TRANSLATE_NOOP("Shortcuts", "Write a note"), "review",
             QT_TRANSLATE_NOOP("MainWindow", "Note (N)"), 14),
    Shortcut("false_positive", ("F",),
             QT_TRANSLATE_NOOP("Shortcuts", "Mark the failed check as a false positive"),
             "review", QT_TRANSLATE_NOOP("MainWindow", "False positive (F)"), 15),
    *(
        Shortcut(f"criterion{n}", (key,),
                 QT_TRANSLATE_NOOP("Shortcuts", "Toggle the n-th criterion of the table"),
                 "review/criteria")
        for n, key in enumerate(CRITERION_KEYS, start=1)
    ),
    Shortcut("verdict_cursor", ("V",),
             QT_TRANSLATE_NOOP("Shortcuts", "Choose any verdict or check: arrows move, "
                               "Space flips, Esc goes back"), "review"),
    Shortcut("second_opinion", ("S",),
             QT_TRANSLATE_NOOP("Shortcuts", "Ask a second opinion"), "review",
             QT_TRANSLATE_NOOP("MainWindow", "Second opinion (S)"), 21, separator=True),
    Shortcut("second_opinion_all", ("Ctrl+Shift+S",),
             QT_TRANSLATE_NOOP("Shortcuts", "Second opinion for all flagged"), "review",
             QT_TRANSLATE_NOOP("MainWindow", "Second opinion: all flagged"), 22),
    Shortcut("bulk", ("Ctrl+B",),
             QT_TRANSLATE_NOOP("Shortcuts", "Bulk action on the filter or the selected rows…"),
             "review", separator=True),
    Shortcut("current_checks", ("Ctrl+Shift+C",),
             QT_TRANSLATE_NOOP("Shortcuts", "Replay the filter with the current check versions"),
             "review", checkable=True),
    Shortcut("scroll_down", ("Space",),
             QT_TRANSLATE_NOOP("Shortcuts", "Scroll the example down"), "go", separator=True),
    Shortcut("scroll_up", ("Shift+Space",),
             QT_TRANSLATE_NOOP("Shortcuts", "Scroll the example up"), "go"),
    Shortcut("earlier", ("E",),
             QT_TRANSLATE_NOOP("Shortcuts", "Show earlier messages of the conversation"), "go"),
    Shortcut("system_prompt", ("P",),
             QT_TRANSLATE_NOOP("Shortcuts", "Show or hide the system prompt"), "go"),
    Shortcut("whole_text", ("W",),
             QT_TRANSLATE_NOOP("Shortcuts", "Show the whole texts of the attempt (answer, "
                               "question, rationales)"), "go"),
    Shortcut("search", ("/",), QT_TRANSLATE_NOOP("Shortcuts", "Search"), "go",
             separator=True),
    Shortcut("filters", ("Ctrl+L",),
             QT_TRANSLATE_NOOP("Shortcuts", "Go to the filters (Tab moves, Esc goes back)"),
             "go"),
    Shortcut("back", ("Esc",),
             QT_TRANSLATE_NOOP("Shortcuts", "Back to the queue (clears the search, closes a "
                               "question)"), "go"),
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


# The Tools windows (``ui/tools/menu.py`` makes their actions; the help overlay lists
# them after the review keys). ``name`` is the tool's name; the "&" marks the mnemonic
# of the Tools menu entry (Alt+T, then the letter).
TOOL_SHORTCUTS: tuple[Shortcut, ...] = (
    Shortcut("backtest", ("Ctrl+T",), QT_TRANSLATE_NOOP("Shortcuts", "Regex &back-test…"),
             "tools"),
    Shortcut("criteria", ("Ctrl+G",),
             QT_TRANSLATE_NOOP("Shortcuts", "&Criteria editor…"), "tools"),
    Shortcut("dashboard", ("Ctrl+D",),
             QT_TRANSLATE_NOOP("Shortcuts", "Agreement &dashboard…"), "tools"),
    Shortcut("export", ("Ctrl+E",), QT_TRANSLATE_NOOP("Shortcuts", "&Export…"), "tools"),
    Shortcut("calibration", ("Ctrl+Shift+L",),
             QT_TRANSLATE_NOOP("Shortcuts", "Ca&libration…"), "tools"),
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
