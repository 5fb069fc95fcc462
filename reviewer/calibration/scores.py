"""A reviewer's scores of calibration answers, each change in the audit trail.

Two gestures: :func:`score_answer` gives one answer a score (the app's keys 1–5; from
code, any number a grading file's ``"human"`` may hold: within ±1e15), :func:`rank_group`
stores a ranking of a whole group (best first) as scores N, N − 1, …, 1 so that higher is
better, as in a grading file's ``"human"``. Both write the score rows and one
``calibration_events`` row per changed answer (``set`` or ``clear``, old and new values,
the reviewer), and report what changed.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from models import CalibrationEvent, CalibrationRow, CalibrationScore, CalibrationSet, utcnow
from reviewer.changes import NOTHING, Changes
from reviewer.errors import BadInputError
from reviewer.graders.ranking import MAX_SCORE
from reviewer.json_input import finite_number

MODES = ("score", "rank")


@dataclass(frozen=True)
class ScoreOutcome:
    """What a gesture changed: the new score of each answer it touched (None: cleared)."""

    scores: dict[int, float | None]
    modes: dict[int, str | None]

    @property
    def changed(self) -> bool:
        """Whether anything was written."""
        return bool(self.scores)

    @property
    def changes(self) -> Changes:
        """What the screens must refresh: calibration scores, when any was written."""
        return Changes(calibration=True) if self.scores else NOTHING


def _value(score: float | None, mode: str) -> dict[str, Any] | None:
    return None if score is None else {"score": float(score), "mode": mode}


def _locked(session: Session, row_id: int, reviewer: str) -> CalibrationScore | None:
    stmt: Any = (
        select(CalibrationScore)
        .where(CalibrationScore.row_id == row_id, CalibrationScore.reviewer == reviewer)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    found: CalibrationScore | None = session.scalar(stmt)
    return found


def _insert(session: Session, reviewer: str, row_id: int, score: float,
            mode: str) -> bool:
    """Insert the score row unless another session just did; True when this one did."""
    dialect: Any = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
    result = session.execute(
        dialect.insert(CalibrationScore.__table__)
        .values(row_id=row_id, reviewer=reviewer, score=score, mode=mode, version=1,
                updated_at=utcnow())
        .on_conflict_do_nothing()
    )
    return bool(getattr(result, "rowcount", 0))


def _write(session: Session, reviewer: str, row_id: int, score: float | None, mode: str,
           step: list[int]) -> bool:
    """Store one score (None clears it) with its audit event; False when unchanged."""
    row = _locked(session, row_id, reviewer)
    if row is None and score is not None and not _insert(session, reviewer, row_id, score,
                                                         mode):
        row = _locked(session, row_id, reviewer)  # a first score from two windows at once
    old = None if row is None else _value(row.score, row.mode)
    new = _value(score, mode)
    if row is not None and old == new:
        return False
    if row is None and score is None:
        return False
    if row is not None and score is None:
        session.delete(row)
    elif row is not None:
        row.score, row.mode = float(score or 0.0), mode
    event = CalibrationEvent(row_id=row_id, reviewer=reviewer,
                             action="clear" if score is None else "set", old=old, new=new,
                             step=step[0] if step else None)
    session.add(event)
    session.flush()
    if not step:
        step.append(event.id)
        event.step = event.id  # the gesture's first event names the gesture
    return True


def _check_row(session: Session, row_id: int) -> CalibrationRow:
    row = session.get(CalibrationRow, row_id)
    if row is None:
        raise BadInputError(f"no calibration answer {row_id}")
    return row


def score_answer(session: Session, reviewer: str, row_id: int,
                 score: float | None) -> ScoreOutcome:
    """Give one answer ``score`` (higher is better; None clears it)."""
    value = None if score is None else finite_number(score, "a score", MAX_SCORE)
    _check_row(session, row_id)
    step: list[int] = []
    if _write(session, reviewer, row_id, value, "score", step):
        return ScoreOutcome({row_id: value}, {row_id: None if value is None else "score"})
    return ScoreOutcome({}, {})


def rank_group(session: Session, reviewer: str, ranked: Sequence[int]) -> ScoreOutcome:
    """Store a ranking of one whole group, best first: scores N, N − 1, …, 1.

    ``ranked`` must hold every answer of one group exactly once.
    """
    rows = [_check_row(session, row_id) for row_id in ranked]
    if len(set(ranked)) != len(ranked) or not rows:
        raise BadInputError("a ranking lists each answer of the group once")
    first = rows[0]
    members = set(session.scalars(
        select(CalibrationRow.id).where(CalibrationRow.set_id == first.set_id,
                                        CalibrationRow.group_index == first.group_index)
    ))
    if members != set(ranked):
        raise BadInputError("a ranking lists every answer of one group")
    step: list[int] = []
    scores: dict[int, float | None] = {}
    modes: dict[int, str | None] = {}
    for place, row_id in enumerate(ranked):
        score = float(len(ranked) - place)
        if _write(session, reviewer, row_id, score, "rank", step):
            scores[row_id], modes[row_id] = score, "rank"
    return ScoreOutcome(scores, modes)


def score_events(session: Session, set_ids: Sequence[int] | None = None) -> Iterator[
        dict[str, Any]]:
    """The calibration audit trail, oldest first: ``{"id", "at", "reviewer",
    "calibration_set", "line", "group", "action", "old", "new", "step"}``."""
    stmt = (
        select(CalibrationEvent, CalibrationRow.line, CalibrationRow.group_label,
               CalibrationSet.name)
        .join(CalibrationRow, CalibrationEvent.row_id == CalibrationRow.id)
        .join(CalibrationSet, CalibrationRow.set_id == CalibrationSet.id)
        .order_by(CalibrationEvent.id)
    )
    if set_ids is not None:
        stmt = stmt.where(CalibrationSet.id.in_(set_ids))
    for event, line, group, name in session.execute(stmt):
        yield {"id": event.id, "at": event.at.isoformat(), "reviewer": event.reviewer,
               "calibration_set": name, "line": line, "group": group,
               "action": event.action, "old": event.old, "new": event.new,
               "step": event.step}
