"""What Undo and Redo would do next, for the menus ("Undo: reject recette-009/2/2").

``undo_steps(session, reviewer)`` names the change the next undo would revert and the one
the next redo would re-apply, each as an ``UndoStep`` the UI turns into a translated label.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy.orm import Session

from models import Attempt, AuditEvent, Conversation, Run
from reviewer.keys import AttemptKey
from reviewer.review.decisions import history

StepKind = Literal["decision", "note", "criterion", "check"]
_KINDS: dict[str, StepKind] = {"decision": "decision", "note": "note",
                               "criterion": "criterion", "check": "check"}


@dataclass(frozen=True, slots=True)
class UndoStep:
    """One reviewer change as Undo/Redo would apply it.

    ``value`` is what the change set (for a redo: sets again; for an undo: the value being
    undone), ``target`` the criterion or check id for overrides.
    """

    kind: StepKind
    key: AttemptKey
    target: str | None
    value: Any

    @property
    def label(self) -> str:
        """An English description: "reject recette-009/2/2", "G-DEMANDE → met …"."""
        where = str(self.key)
        if self.kind == "decision":
            return f"{self.value or 'clear decision'} {where}"
        if self.kind == "note":
            return f"note on {where}"
        if self.kind == "criterion":
            state = {True: "met", False: "unmet", None: "judge's verdict"}[self.value]
            return f"{self.target} → {state} on {where}"
        state = "false positive" if self.value else "check result"
        return f"{self.target} → {state} on {where}"


@dataclass(frozen=True, slots=True)
class UndoSteps:
    """The next undo and redo (None when there is nothing to undo or redo)."""

    undo: UndoStep | None
    redo: UndoStep | None


def _step(session: Session, event_id: int, *, redo: bool) -> UndoStep:
    event = session.get_one(AuditEvent, event_id)
    attempt = session.get_one(Attempt, event.attempt_id)
    conv = session.get_one(Conversation, attempt.conversation_id)
    run = session.get_one(Run, attempt.run_id)
    kind, _, target = event.field.partition(":")
    # A redo re-applies what its undo reverted: the undo event's old value.
    value = event.old if redo else event.new
    return UndoStep(_KINDS[kind], AttemptKey(run.name, conv.name, attempt.turn, attempt.attempt),
                    target or None, value)


def undo_steps(session: Session, reviewer: str) -> UndoSteps:
    """What the reviewer's next undo and redo would do."""
    stacks = history(session, reviewer)
    return UndoSteps(
        _step(session, stacks.undo[-1], redo=False) if stacks.undo else None,
        _step(session, stacks.redo[-1], redo=True) if stacks.redo else None,
    )
