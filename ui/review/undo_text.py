"""What Undo and Redo will do, in the interface language: "Undo: reject recette-009/2/2".

``reviewer.review.undo.undo_steps`` names the next undo and redo as ``UndoStep`` fields
(kind, attempt key, target, value); the sentence is built here so that it is translated
(the step's own ``.label`` is English, for the CLI and logs).
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from reviewer.keys import AttemptKey
from reviewer.review.undo import UndoStep

CONTEXT = "UndoText"


# The English source strings (the markers let lupdate find them under CONTEXT).
ACCEPT = QT_TRANSLATE_NOOP("UndoText", "accept %1")
REJECT = QT_TRANSLATE_NOOP("UndoText", "reject %1")
CLEAR = QT_TRANSLATE_NOOP("UndoText", "clear the decision on %1")
NOTE = QT_TRANSLATE_NOOP("UndoText", "note on %1")
MET = QT_TRANSLATE_NOOP("UndoText", "%1 → met on %2")
UNMET = QT_TRANSLATE_NOOP("UndoText", "%1 → unmet on %2")
JUDGED = QT_TRANSLATE_NOOP("UndoText", "%1 → the judge's verdict on %2")
FALSE_POSITIVE = QT_TRANSLATE_NOOP("UndoText", "%1 → false positive on %2")
CHECK_RESULT = QT_TRANSLATE_NOOP("UndoText", "%1 → check result on %2")
GROUP_ONE = QT_TRANSLATE_NOOP("UndoText", "%1 changes on %2")
GROUP_MANY = QT_TRANSLATE_NOOP("UndoText", "%1 changes on %2 attempts")
UNDO = QT_TRANSLATE_NOOP("UndoText", "Undo: %1")
REDO = QT_TRANSLATE_NOOP("UndoText", "Redo: %1")


def _tr(marker: object) -> str:
    return QCoreApplication.translate(CONTEXT, str(marker))


def where(key: AttemptKey) -> str:
    """The attempt as the menus name it: conversation/turn/attempt (the run is long)."""
    return f"{key.conversation}/{key.turn}/{key.attempt}"


def step_text(step: UndoStep) -> str:
    """The change itself: "reject recette-009/2/2", "G-DEMANDE → met on …"."""
    at = where(step.key)
    if step.kind == "group":  # several changes taken back as one step (rescue, bulk)
        if step.attempts == 1:
            return _tr(GROUP_ONE).replace("%1", str(step.count)).replace("%2", at)
        return _tr(GROUP_MANY).replace("%1", str(step.count)).replace(
            "%2", str(step.attempts))
    if step.kind == "decision":
        text = {"accept": _tr(ACCEPT), "reject": _tr(REJECT)}.get(
            str(step.value), _tr(CLEAR))
        return text.replace("%1", at)
    if step.kind == "note":
        return _tr(NOTE).replace("%1", at)
    if step.kind == "criterion":
        text = {True: _tr(MET), False: _tr(UNMET)}.get(
            step.value, _tr(JUDGED))
    else:
        text = _tr(FALSE_POSITIVE) if step.value \
            else _tr(CHECK_RESULT)
    return text.replace("%1", step.target or "").replace("%2", at)


def undo_text(step: UndoStep | None) -> str:
    """The Undo entry of the Edit menu."""
    if step is None:  # the plain entry of the keyboard table
        return QCoreApplication.translate("Shortcuts", "Undo")
    return _tr(UNDO).replace("%1", step_text(step))


def redo_text(step: UndoStep | None) -> str:
    """The Redo entry of the Edit menu."""
    if step is None:
        return QCoreApplication.translate("Shortcuts", "Redo")
    return _tr(REDO).replace("%1", step_text(step))
