"""Grading files stored for calibration: open one, list them, load one with a reviewer's
scores.

A grading file is stored whole (each line's JSON as read), so the app can score its
answers and ``reviewer export calibration`` can write it back with the scores. Opening
the same lines again (same SHA-256 digest, whatever the file's name) finds the stored set
and its scores instead of making a second one.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from models import CalibrationRow, CalibrationScore, CalibrationSet
from reviewer.errors import BadInputError
from reviewer.graders.calibrate import Group, groups_of
from reviewer.graders.rows import Row, parse_row, read_rows
from reviewer.input_bytes import refuse_special
from reviewer.outputs import database_role


@dataclass(frozen=True)
class SetInfo:
    """A stored grading file: how many answers and groups, how many the reviewer scored."""

    id: int
    name: str
    source: str | None
    rows: int
    groups: int
    scored: int
    imported_by: str
    imported_at: datetime


@dataclass(frozen=True)
class LoadedSet:
    """A stored grading file ready to calibrate: its rows (as ``reviewer grade`` reads
    them), their store ids, the groups, and one reviewer's scores (None: not scored)."""

    info: SetInfo
    rows: tuple[Row, ...]
    row_ids: tuple[int, ...]
    groups: tuple[Group, ...]
    human: tuple[float | None, ...]
    modes: tuple[str | None, ...]

    def index_of(self, row_id: int) -> int:
        """The position of a stored row in :attr:`rows`."""
        return self.row_ids.index(row_id)


def digest_of(rows: Sequence[Row]) -> str:
    """SHA-256 of the rows' JSON (keys sorted): the identity of a grading file's content."""
    h = hashlib.sha256()
    for row in rows:
        h.update(json.dumps(row.raw, ensure_ascii=False, sort_keys=True).encode("utf-8"))
        h.update(b"\n")
    return h.hexdigest()


def check_grading_file(path: Path, database: Path | None) -> None:
    """Refuse, before anything opens it, what cannot be a grading file: a pipe, a device or
    a folder (the CLI's own check: a FIFO's read never ended, fifteenth hostile pass,
    P15-4), or one of the open SQLite ``database``'s files: opening and closing it would
    drop this process's locks on the store (P15-2)."""
    refuse_special(path, "a JSON lines file")
    role = database_role(path, database) if database is not None else None
    if role is not None:
        raise BadInputError(f"{path}: {role}; give a JSON lines file")


def open_grading_file(session: Session, path: str | Path, reviewer: str) -> SetInfo:
    """Store the grading file ``path`` (or find it stored already) and return it.

    Rows are grouped as the judge groups them (same ``group``, else same prompt); a file
    without rows or with a malformed line is a ``BadInputError`` naming ``FILE:LINE``.
    """
    rows = read_rows(path)
    digest = digest_of(rows)
    found = session.scalar(select(CalibrationSet).where(CalibrationSet.digest == digest))
    if found is None:
        found = CalibrationSet(name=Path(path).name[:200], source=str(path), digest=digest,
                               imported_by=reviewer)
        session.add(found)
        session.flush()
        for index, group in enumerate(groups_of(rows, judged=False)):
            for position, i in enumerate(group.members):
                session.add(CalibrationRow(set_id=found.id, line=rows[i].line,
                                           group_index=index, group_label=group.label[:500],
                                           position=position, data=rows[i].raw))
        session.flush()
    return set_info(session, found.id, reviewer)


def _scored(session: Session, set_id: int, reviewer: str) -> int:
    return int(session.scalar(
        select(func.count()).select_from(CalibrationScore)
        .join(CalibrationRow, CalibrationScore.row_id == CalibrationRow.id)
        .where(CalibrationRow.set_id == set_id, CalibrationScore.reviewer == reviewer)
    ) or 0)


def set_info(session: Session, set_id: int, reviewer: str) -> SetInfo:
    """One stored set, with how many of its answers ``reviewer`` scored."""
    stored = session.get(CalibrationSet, set_id)
    if stored is None:
        raise BadInputError(f"no calibration set {set_id}")
    rows, groups = session.execute(
        select(func.count(), func.count(func.distinct(CalibrationRow.group_index)))
        .where(CalibrationRow.set_id == set_id)
    ).one()
    return SetInfo(stored.id, stored.name, stored.source, int(rows), int(groups),
                   _scored(session, set_id, reviewer), stored.imported_by, stored.imported_at)


def list_sets(session: Session, reviewer: str) -> list[SetInfo]:
    """Every stored grading file, most recently opened first."""
    ids = session.scalars(select(CalibrationSet.id).order_by(CalibrationSet.id.desc()))
    return [set_info(session, set_id, reviewer) for set_id in ids]


def human_of(session: Session, set_id: int, reviewer: str
             ) -> dict[int, tuple[float, str]]:
    """``reviewer``'s stored scores of the set's answers: row id → (score, mode)."""
    return {
        row_id: (score, mode) for row_id, score, mode in session.execute(
            select(CalibrationScore.row_id, CalibrationScore.score, CalibrationScore.mode)
            .join(CalibrationRow, CalibrationScore.row_id == CalibrationRow.id)
            .where(CalibrationRow.set_id == set_id, CalibrationScore.reviewer == reviewer)
        )
    }


def load_set(session: Session, set_id: int, reviewer: str) -> LoadedSet:
    """The set's rows in group order, with ``reviewer``'s scores."""
    info = set_info(session, set_id, reviewer)
    stored = session.execute(
        select(CalibrationRow.id, CalibrationRow.line, CalibrationRow.group_index,
               CalibrationRow.group_label, CalibrationRow.data)
        .where(CalibrationRow.set_id == set_id)
        .order_by(CalibrationRow.group_index, CalibrationRow.position)
    ).all()
    scores = human_of(session, set_id, reviewer)
    rows = tuple(parse_row(json.dumps(data, ensure_ascii=False), info.name, line)
                 for _, line, _, _, data in stored)
    groups: dict[int, tuple[str, list[int]]] = {}
    for k, (_, _, index, label, _) in enumerate(stored):
        groups.setdefault(index, (label, []))[1].append(k)
    return LoadedSet(
        info=info,
        rows=rows,
        row_ids=tuple(r[0] for r in stored),
        groups=tuple(Group(label, tuple(m)) for label, m in groups.values()),
        human=tuple(scores.get(r[0], (None, None))[0] for r in stored),
        modes=tuple(scores.get(r[0], (None, None))[1] for r in stored),
    )
