"""The Calibration window's keyboard table: its keys, their help texts, in one place.

The window makes one ``QShortcut`` per key from this table and shows the table as its
help line; the main window's table (``ui/shortcuts.py``) is for the review window's
menus and is not touched. Texts are translated in the "CalibrationKeys" context.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication


@dataclass(frozen=True, slots=True)
class Key:
    """One gesture of the Calibration window: ``name`` is the window's slot suffix."""

    name: str
    keys: tuple[str, ...]
    text: object  # a QT_TRANSLATE_NOOP marker

    def label(self) -> str:
        """The translated help text."""
        return QCoreApplication.translate("CalibrationKeys", str(self.text))


KEYS: tuple[Key, ...] = (
    *(Key(f"score{n}", (str(n),), QT_TRANSLATE_NOOP("CalibrationKeys", "Score the answer 1–5"))
      for n in range(1, 6)),
    Key("clear", ("Delete", "Backspace"), QT_TRANSLATE_NOOP("CalibrationKeys", "Clear its score")),
    Key("next_answer", ("J", "Down"), QT_TRANSLATE_NOOP("CalibrationKeys", "Next answer")),
    Key("previous_answer", ("K", "Up"), QT_TRANSLATE_NOOP("CalibrationKeys", "Previous answer")),
    Key("move_up", ("Alt+Up", "Ctrl+Up"),
        QT_TRANSLATE_NOOP("CalibrationKeys", "Move the answer up in your ranking")),
    Key("move_down", ("Alt+Down", "Ctrl+Down"),
        QT_TRANSLATE_NOOP("CalibrationKeys", "Move the answer down in your ranking")),
    Key("store_ranking", ("Return", "Enter"),
        QT_TRANSLATE_NOOP("CalibrationKeys", "Store the ranking (best first)")),
    Key("next_group", ("N", "PgDown"), QT_TRANSLATE_NOOP("CalibrationKeys", "Next group")),
    Key("previous_group", ("P", "PgUp"), QT_TRANSLATE_NOOP("CalibrationKeys", "Previous group")),
    Key("next_unscored", ("U",), QT_TRANSLATE_NOOP("CalibrationKeys", "Next unscored group")),
    Key("open_file", ("Ctrl+O",), QT_TRANSLATE_NOOP("CalibrationKeys", "Open a grading file")),
    Key("run_judge", ("Ctrl+J",), QT_TRANSLATE_NOOP("CalibrationKeys", "Run the judge")),
    Key("close", ("Esc",), QT_TRANSLATE_NOOP("CalibrationKeys", "Close the window")),
)


def help_text() -> str:
    """The gestures on one wrapped line: keys, then what they do (1–5 once)."""
    parts: list[str] = []
    for key in KEYS:
        if key.name.startswith("score"):
            if key.name == "score1":
                parts.append(f"1–5: {key.label()}")
            continue
        parts.append(f"{' / '.join(key.keys)}: {key.label()}")
    return " · ".join(parts)
