"""The grading files opened for calibration, with the human scores given in the app.

``reviewer export calibration OUT`` writes every stored grading file's lines (or those of
the files named with ``--run NAME``), in file order, each as it was read plus:

* ``"human"``: the score given in the app (higher is better; ``null`` while not scored),
  so OUT is an input of ``reviewer calibrate`` as it stands;
* ``"human_reviewer"``: whose score it is (``--reviewer NAME``: only that reviewer's;
  default: the latest score of any reviewer);
* ``"calibration_set"``: the grading file's name (``reviewer calibrate`` keeps the groups
  of different files apart).

The calibration audit trail of those files goes beside it, to ``OUT.audit.jsonl``
(``{"id", "at", "reviewer", "calibration_set", "line", "group", "action", "old", "new",
"step"}``, oldest first), written with OUT as one set: all or nothing, and never one
file (a link from one to the other is refused).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from models import CalibrationRow, CalibrationScore, CalibrationSet
from reviewer.atomic import write_jsonl_files
from reviewer.calibration.scores import score_events
from reviewer.store.names import CALIBRATION_FILES, existing


def audit_path(out: Path) -> Path:
    """Where the audit trail of an export to ``out`` goes."""
    return out.with_name(out.name + ".audit.jsonl")


def _set_ids(session: Session, names: Sequence[str] | None) -> list[int]:
    stmt = select(CalibrationSet.id, CalibrationSet.name).order_by(CalibrationSet.id)
    found = list(session.execute(stmt))
    if names is None:
        return [i for i, _ in found]
    chosen = set(existing(session, CALIBRATION_FILES, names, "--run"))  # the shared check
    return [i for i, n in found if n in chosen]


def calibration_records(session: Session, set_ids: Sequence[int],
                        reviewer: str | None = None) -> Iterator[dict[str, Any]]:
    """Each stored line with its human score, file by file, in line order."""
    latest: dict[int, tuple[float | None, str | None]] = {}
    scores = (select(CalibrationScore.row_id, CalibrationScore.score, CalibrationScore.reviewer)
              .join(CalibrationRow, CalibrationScore.row_id == CalibrationRow.id)
              .where(CalibrationRow.set_id.in_(set_ids))
              .order_by(CalibrationScore.updated_at, CalibrationScore.id))
    if reviewer is not None:
        scores = scores.where(CalibrationScore.reviewer == reviewer)
    for row_id, value, by in session.execute(scores):
        latest[row_id] = (value, by)  # later rows win: the latest score of any reviewer
    rows = (select(CalibrationRow.id, CalibrationRow.data, CalibrationSet.name)
            .join(CalibrationSet, CalibrationRow.set_id == CalibrationSet.id)
            .where(CalibrationRow.set_id.in_(set_ids))
            .order_by(CalibrationRow.set_id, CalibrationRow.line))
    for row_id, data, name in session.execute(rows):
        score, who = latest.get(row_id, (None, None))
        yield {**data, "human": score, "human_reviewer": who, "calibration_set": name}


def export_calibration(session: Session, out: Path, *, reviewer: str | None = None,
                       sets: Sequence[str] | None = None) -> tuple[int, int]:
    """Write the scored grading files and their audit trail atomically; return how many
    lines and how many audit events."""
    set_ids = _set_ids(session, sets)
    lines, events = write_jsonl_files([
        (out, calibration_records(session, set_ids, reviewer)),
        (audit_path(out), score_events(session, set_ids))])
    return lines, events
