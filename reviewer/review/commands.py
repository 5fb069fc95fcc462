"""The reviewer's changes as typed commands, each stored as one audit event.

A command sets one field of one reviewer's decision on one attempt:

* ``SetDecision``: ``"accept"``, ``"reject"`` or None (cleared);
* ``SetNote``: free text;
* ``OverrideCriterion``: the reviewer's verdict, True (met, "oui"), False or None (the
  judge's verdict stands);
* ``MarkFalsePositive``: a check's hit marked as a false positive, or the mark removed.

Applying a command writes the decision row and its ``AuditEvent`` (field, old, new) and
pushes the step on the reviewer's undo stack (``reviewer.review.stacks``). A
``CommandGroup`` applies several commands as *one* step: one Undo takes them all back.
``accept_with_overrides`` is the group a rescue and "flip the refusing verdicts and
accept" store: the overrides, then the decision, one step. The stored field strings
(``decision``, ``note``, ``criterion:<ID>``, ``check:<ID>``) are built by
``ReviewCommand.field`` and read back by ``command_for`` / ``from_event``, here only.
``Change`` is the untyped (field string) form the CLI and older callers pass.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, Protocol

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from sqlalchemy.orm.exc import StaleDataError

from models import Attempt, AuditEvent, Conversation, ReviewDecision, Run, utcnow
from reviewer.errors import BadInputError
from reviewer.keys import AttemptKey
from reviewer.review import stacks
from reviewer.review.identity import known_reviewer, stored_name
from reviewer.review.rows import DECISIONS, ConflictError, get_decision, snapshot
from reviewer.rule.replay import FALSE_POSITIVE

StepKind = Literal["decision", "note", "criterion", "check"]
_CHUNK = 500  # attempt ids per IN list (SQLite's bound parameters are limited)


class DecisionFields(Protocol):
    """What a command reads of a decision (a stored row, another reviewer's copy)."""

    @property
    def decision(self) -> str | None: ...
    @property
    def note(self) -> str: ...
    @property
    def criteria(self) -> Mapping[str, Any] | None: ...
    @property
    def checks(self) -> Mapping[str, Any] | None: ...


class ReviewCommand(ABC):
    """Set one field of a reviewer's decision on one attempt (see the module docstring)."""

    __slots__ = ()
    kind: ClassVar[StepKind]
    attempt_id: int

    @property
    @abstractmethod
    def field(self) -> str:
        """The audit event's field string."""

    @property
    @abstractmethod
    def value(self) -> Any:
        """The value stored in the decision (and the event's ``new``)."""

    @property
    def target(self) -> str | None:
        """The criterion or check id an override is about (None for decision and note)."""
        return None

    @abstractmethod
    def with_value(self, value: Any) -> ReviewCommand:
        """The same field set to another stored value (refused when it cannot be one)."""

    @abstractmethod
    def read(self, state: DecisionFields | None) -> Any:
        """This field's current stored value in a decision (the unset value without one)."""

    @abstractmethod
    def write(self, row: ReviewDecision) -> None:
        """Store the value in the decision row."""

    @property
    @abstractmethod
    def label(self) -> str:
        """An English description without the attempt: "reject", "G-DEMANDE → met"."""

    def label_at(self, where: str) -> str:
        """The description on an attempt: "reject recette-009/2/2", "note on …"."""
        return f"{self.label} on {where}"

    def inverse(self, previous: Any) -> ReviewCommand:
        """The command that puts back ``previous`` (the value before this one applied)."""
        return self.with_value(previous)

    def apply(self, session: Session, reviewer: str, *,
              expected_version: int | None = None) -> AuditEvent:
        """Apply as one undoable step; flushes, the caller's unit of work commits.

        ``expected_version`` is the decision version the caller last saw (0 = none
        existed); if the stored one differs, ConflictError tells what is stored now.
        """
        event = perform(session, reviewer, self, expected_version=expected_version)
        push_new_step(session, reviewer, [event])
        return event

    @staticmethod
    def from_event(event: AuditEvent) -> ReviewCommand:
        """The command a stored audit event applied."""
        return command_for(event.attempt_id, event.field, event.new)


@dataclass(frozen=True, slots=True)
class SetDecision(ReviewCommand):
    """Accept or reject the attempt, or clear the decision (None)."""

    attempt_id: int
    decision: str | None
    kind: ClassVar[StepKind] = "decision"

    def __post_init__(self) -> None:
        if self.decision not in (*DECISIONS, None):
            raise BadInputError(f"decision must be accept, reject or none, not {self.decision!r}")

    @property
    def field(self) -> str:
        return "decision"

    @property
    def value(self) -> str | None:
        return self.decision

    def with_value(self, value: Any) -> SetDecision:
        return SetDecision(self.attempt_id, value)

    def read(self, state: DecisionFields | None) -> str | None:
        return None if state is None else state.decision

    def write(self, row: ReviewDecision) -> None:
        row.decision = self.decision

    @property
    def label(self) -> str:
        return self.decision or "clear decision"

    def label_at(self, where: str) -> str:
        return f"{self.label} {where}"


@dataclass(frozen=True, slots=True)
class SetNote(ReviewCommand):
    """Replace the reviewer's note on the attempt."""

    attempt_id: int
    note: str
    kind: ClassVar[StepKind] = "note"

    def __post_init__(self) -> None:
        if not isinstance(self.note, str):
            raise BadInputError("a note is text")

    @property
    def field(self) -> str:
        return "note"

    @property
    def value(self) -> str:
        return self.note

    def with_value(self, value: Any) -> SetNote:
        return SetNote(self.attempt_id, value)

    def read(self, state: DecisionFields | None) -> str:
        return "" if state is None else state.note

    def write(self, row: ReviewDecision) -> None:
        row.note = self.note

    @property
    def label(self) -> str:
        return "note"


def _read_mapping(mapping: Mapping[str, Any] | None, key: str) -> Any:
    return (mapping or {}).get(key)


def _set_in(mapping: Mapping[str, Any] | None, key: str, value: Any) -> dict[str, Any]:
    # A new dict: JSON columns do not track in-place mutation.
    out = dict(mapping or {})
    if value is None:
        out.pop(key, None)
    else:
        out[key] = value
    return out


@dataclass(frozen=True, slots=True)
class OverrideCriterion(ReviewCommand):
    """The reviewer's verdict on a criterion: met, unmet, or None (the judge's stands)."""

    attempt_id: int
    criterion_id: str
    met: bool | None
    kind: ClassVar[StepKind] = "criterion"

    def __post_init__(self) -> None:
        if self.met is not None and not isinstance(self.met, bool):
            raise BadInputError(f"criterion:{self.criterion_id}: an override is met, unmet "
                                "or none")

    @property
    def field(self) -> str:
        return f"criterion:{self.criterion_id}"

    @property
    def value(self) -> bool | None:
        return self.met

    @property
    def target(self) -> str:
        return self.criterion_id

    def with_value(self, value: Any) -> OverrideCriterion:
        return OverrideCriterion(self.attempt_id, self.criterion_id, value)

    def read(self, state: DecisionFields | None) -> Any:
        return None if state is None else _read_mapping(state.criteria, self.criterion_id)

    def write(self, row: ReviewDecision) -> None:
        row.criteria = _set_in(row.criteria, self.criterion_id, self.met)

    @property
    def label(self) -> str:
        state = {True: "met", False: "unmet", None: "judge's verdict"}[self.met]
        return f"{self.criterion_id} → {state}"


@dataclass(frozen=True, slots=True)
class MarkFalsePositive(ReviewCommand):
    """Mark a check's hit as a false positive (``marked``), or remove the mark."""

    attempt_id: int
    check_id: str
    marked: bool
    kind: ClassVar[StepKind] = "check"

    @property
    def field(self) -> str:
        return f"check:{self.check_id}"

    @property
    def value(self) -> str | None:
        return FALSE_POSITIVE if self.marked else None

    @property
    def target(self) -> str:
        return self.check_id

    def with_value(self, value: Any) -> MarkFalsePositive:
        if value not in (FALSE_POSITIVE, None):
            raise BadInputError(f"check:{self.check_id}: a check override is false_positive "
                                "or none")
        return MarkFalsePositive(self.attempt_id, self.check_id, value == FALSE_POSITIVE)

    def read(self, state: DecisionFields | None) -> Any:
        return None if state is None else _read_mapping(state.checks, self.check_id)

    def write(self, row: ReviewDecision) -> None:
        row.checks = _set_in(row.checks, self.check_id, self.value)

    @property
    def label(self) -> str:
        return f"{self.check_id} → {'false positive' if self.marked else 'check result'}"


def command_for(attempt_id: int, field: str, value: Any) -> ReviewCommand:
    """The command that stores ``value`` in ``field`` (the stored string form)."""
    kind, sep, ident = field.partition(":")
    if field == "decision":
        return SetDecision(attempt_id, value)
    if field == "note":
        return SetNote(attempt_id, value)
    if sep and ident and kind == "criterion":
        return OverrideCriterion(attempt_id, ident, value)
    if sep and ident and kind == "check":
        return MarkFalsePositive(attempt_id, ident, False).with_value(value)
    raise BadInputError(f"unknown review field {field!r}")


def command_of_kind(kind: str, target: str | None, value: Any,
                    attempt_id: int = 0) -> ReviewCommand:
    """The command of a kind (``decision``, ``note``, ``criterion``, ``check``) and target."""
    return command_for(attempt_id, kind if target is None else f"{kind}:{target}", value)


@dataclass(frozen=True, slots=True)
class Change:
    """One field to set on one attempt for one reviewer, in the stored string form."""

    attempt_id: int
    field: str
    new: Any

    def command(self) -> ReviewCommand:
        """The typed command (BadInputError for a field or value the store cannot mean)."""
        return command_for(self.attempt_id, self.field, self.new)


@dataclass(frozen=True, slots=True)
class CommandGroup:
    """Several commands applied as one undoable step (in order; undone in reverse)."""

    commands: tuple[ReviewCommand, ...]

    def __post_init__(self) -> None:
        if not self.commands:
            raise BadInputError("a group of changes needs at least one change")

    @property
    def label(self) -> str:
        """An English description: "3 changes"."""
        n = len(self.commands)
        return f"{n} change{'s' if n > 1 else ''}"

    def apply(self, session: Session, reviewer: str) -> list[AuditEvent]:
        """Apply every command, then push them as one step; flushes, the caller commits."""
        events = perform_all(session, reviewer, [(c, None) for c in self.commands])
        push_new_step(session, reviewer, events)
        return events


def accept_with_overrides(attempt_id: int, criteria: Mapping[str, bool | None],
                          checks: Sequence[str] = ()) -> CommandGroup:
    """Set each criterion's override (None: back to the judge's verdict), mark each check's
    hit a false positive, then accept: one undoable step (a rescue, or "flip the refusing
    verdicts and accept"). With nothing to override it is the decision alone."""
    return CommandGroup((
        *(OverrideCriterion(attempt_id, c, met) for c, met in criteria.items()),
        *(MarkFalsePositive(attempt_id, c, True) for c in checks),
        SetDecision(attempt_id, "accept"),
    ))


def perform(session: Session, reviewer: str, command: ReviewCommand, *,
            expected_version: int | None = None, action: str = "set",
            reverts_id: int | None = None, group_id: int | None = None) -> AuditEvent:
    """Write one command into the decision row and append its event (no stack change)."""
    known_reviewer(session, stored_name(reviewer))
    if session.get(Attempt, command.attempt_id) is None:
        raise BadInputError(f"no attempt with id {command.attempt_id}")
    row = get_decision(session, command.attempt_id, reviewer)
    stored_version = row.version if row is not None else 0
    if expected_version is not None and expected_version != stored_version:
        raise ConflictError(
            f"the decision of {reviewer} on {key_of(session, command.attempt_id)} changed "
            f"meanwhile (version {stored_version}, you had {expected_version})",
            snapshot(row),
        )
    event = _written(session, reviewer, {command.attempt_id: row}, command, action,
                     reverts_id, group_id)
    _flush(session, reviewer, command.attempt_id, single=True)
    return event


def perform_all(session: Session, reviewer: str,
                commands: Sequence[tuple[ReviewCommand, int | None]], *,
                action: str = "set") -> list[AuditEvent]:
    """Write ``(command, reverts_id)`` pairs as the events of one step: a single event, or
    events sharing the first one's id as their ``group_id``.

    Several commands are written in two flushes whatever their number (the first event,
    whose id names the group, then the rest): a bulk action or its undo over a thousand
    attempts costs a few statements, not three per attempt. Commands on the same attempt
    read the state the previous ones left, in order, as one at a time would.
    """
    if len(commands) == 1:
        command, reverts_id = commands[0]
        return [perform(session, reviewer, command, action=action, reverts_id=reverts_id)]
    known_reviewer(session, stored_name(reviewer))
    rows = _decision_rows(session, reviewer, [c.attempt_id for c, _ in commands])
    events: list[AuditEvent] = []
    for command, reverts_id in commands:
        event = _written(session, reviewer, rows, command, action, reverts_id,
                         events[0].id if events else None)
        events.append(event)
        if len(events) == 1:
            _flush(session, reviewer, command.attempt_id)  # the group's id
            event.group_id = event.id
    _flush(session, reviewer, commands[-1][0].attempt_id)
    return events


def _decision_rows(session: Session, reviewer: str,
                   attempt_ids: Sequence[int]) -> dict[int, ReviewDecision | None]:
    """The reviewer's decision rows on these attempts (None: none yet), read by chunks;
    an attempt that is not stored is refused as ``perform`` refuses it."""
    ids = list(dict.fromkeys(attempt_ids))
    rows: dict[int, ReviewDecision | None] = {}
    for start in range(0, len(ids), _CHUNK):
        part = ids[start:start + _CHUNK]
        found = set(session.scalars(select(Attempt.id).where(Attempt.id.in_(part))))
        missing = next((i for i in part if i not in found), None)
        if missing is not None:
            raise BadInputError(f"no attempt with id {missing}")
        rows.update(dict.fromkeys(part))
        rows.update((r.attempt_id, r) for r in session.scalars(
            select(ReviewDecision).where(ReviewDecision.reviewer == reviewer,
                                         ReviewDecision.attempt_id.in_(part))))
    return rows


def _written(session: Session, reviewer: str, rows: dict[int, ReviewDecision | None],
             command: ReviewCommand, action: str, reverts_id: int | None,
             group_id: int | None) -> AuditEvent:
    """Apply one command to its row in memory and add its event (flushed by the caller)."""
    row = rows[command.attempt_id]
    old = command.read(row)
    if row is None:
        row = ReviewDecision(attempt_id=command.attempt_id, reviewer=reviewer, criteria={},
                             checks={}, note="")
        session.add(row)
        rows[command.attempt_id] = row
    command.write(row)
    row.updated_at = utcnow()
    event = AuditEvent(attempt_id=command.attempt_id, reviewer=reviewer, action=action,
                       field=command.field, old=old, new=command.value, reverts_id=reverts_id,
                       group_id=group_id)
    session.add(event)
    return event


def _flush(session: Session, reviewer: str, attempt_id: int, *, single: bool = False) -> None:
    """Flush the pending writes; a row another session wrote meanwhile is a
    ``ConflictError`` naming the attempt (``single``: the one attempt written; else one of
    a step's), with what is stored now."""
    try:
        session.flush()
    except (StaleDataError, IntegrityError) as exc:
        # Another session inserted or updated one of these rows since we read them.
        session.rollback()
        # Ninth hostile pass, P3: "the decision of bob on this attempt" named none; two
        # batches of one reviewer at once need the key to know which row they met on.
        which = f"the decision of {reviewer} on {key_of(session, attempt_id)}" if single \
            else f"a decision of {reviewer} (on {key_of(session, attempt_id)} or another " \
                 "attempt of this step)"
        raise ConflictError(
            f"{which} was written by another session meanwhile; nothing was changed",
            snapshot(get_decision(session, attempt_id, reviewer)),
        ) from exc


def key_of(session: Session, attempt_id: int) -> str:
    """``RUN/CONVERSATION/TURN/ATTEMPT`` of a stored attempt, for a message (its id when
    it is no longer stored)."""
    row = session.execute(
        select(Run.name, Conversation.name, Attempt.turn, Attempt.attempt)
        .join(Conversation, Conversation.id == Attempt.conversation_id)
        .join(Run, Run.id == Conversation.run_id)
        .where(Attempt.id == attempt_id)).first()
    return f"attempt {attempt_id}" if row is None else str(AttemptKey(*row))


def push_new_step(session: Session, reviewer: str, events: Sequence[AuditEvent]) -> None:
    """A new step: on top of the undo stack, and nothing left to redo."""
    cursor = stacks.lock(session, reviewer)
    stacks.push(cursor, "undo", events)
    stacks.clear_redo(cursor)
