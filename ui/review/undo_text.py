"""What Undo and Redo will do, in the interface language: "Undo: reject recette-009/2/2".

``reviewer.review.undo.undo_steps`` names the next undo and redo as ``UndoStep`` fields
(kind, attempt key, target, value); the sentence is built here so that it is translated
(the step's own ``.label`` is English, for the CLI and logs). A bulk step names how many
attempts it changed with Qt's plural forms (``%n``): see ``UndoText``.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QObject

from reviewer.keys import AttemptKey
from reviewer.review.undo import MIXED, UndoStep

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


class UndoText(QObject):
    """The texts of a bulk step, counted: "accept 20 attempts", "accepter 20 essais".

    A class of this context's name only so that the strings are ``self.tr(text, "", n)``:
    pyside6-lupdate records those as plural forms, but not ``translate(ctx, text, None,
    n)`` with a variable count (it drops the forms already translated).
    """

    def bulk(self, step: UndoStep) -> str:
        """A bulk step's change (``step.bulk``)."""
        n = step.attempts
        if step.kind == "decision":
            if step.value == "accept":
                return self.tr("accept %n attempts", "", n)
            if step.value == "reject":
                return self.tr("reject %n attempts", "", n)
            return self.tr("clear the decision on %n attempts", "", n)
        if step.kind == "note":
            return self.tr("note on %n attempts", "", n)
        if step.kind == "criterion":
            text = {True: self.tr("%1 → met on %n attempts", "", n),
                    False: self.tr("%1 → unmet on %n attempts", "", n)}.get(
                step.value, self.tr("%1 → the judge's verdict on %n attempts", "", n))
            if step.value is MIXED:
                text = self.tr("flip %1 on %n attempts", "", n)
        elif step.value:
            text = self.tr("%1 → false positive on %n attempts", "", n)
        else:
            text = self.tr("%1 → check result on %n attempts", "", n)
        return text.replace("%1", step.target or "")


def step_text(step: UndoStep) -> str:
    """The change itself: "reject recette-009/2/2", "G-DEMANDE → met on …"."""
    if step.bulk:
        return UndoText().bulk(step)
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
