"""Tables of grader calibration: grading files opened in the app and the human scores of
their answers (migration 0010).

A grading file (the input of ``reviewer grade`` / ``reviewer calibrate``) is stored whole,
one row per line, so its answers can be scored in the app and exported back with the
scores. A reviewer's score of an answer is one row per (answer, reviewer); every change of
it is appended to ``calibration_events``, the calibration's audit trail.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    CheckConstraint,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from models.base import Base, utcnow


class CalibrationSet(Base):
    """One grading file opened for calibration. ``digest`` (SHA-256 of its lines) makes
    opening the same file again find this set and its scores."""

    __tablename__ = "calibration_sets"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    source: Mapped[str | None] = mapped_column(Text)
    digest: Mapped[str] = mapped_column(String(64), unique=True)
    imported_by: Mapped[str] = mapped_column(String(200))
    imported_at: Mapped[datetime] = mapped_column(default=utcnow)

    rows: Mapped[list[CalibrationRow]] = relationship(
        back_populates="set", order_by="CalibrationRow.line"
    )


class CalibrationRow(Base):
    """One line of a grading file: an answer, with its group label and position in it."""

    __tablename__ = "calibration_rows"
    __table_args__ = (
        UniqueConstraint("set_id", "line"),
        Index("ix_calibration_rows_set_group", "set_id", "group_index", "position"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    set_id: Mapped[int] = mapped_column(ForeignKey("calibration_sets.id", ondelete="CASCADE"))
    line: Mapped[int] = mapped_column(Integer)
    group_index: Mapped[int] = mapped_column(Integer)  # the group's rank in the file
    group_label: Mapped[str] = mapped_column(String(500))
    position: Mapped[int] = mapped_column(Integer)  # the answer's rank in its group
    data: Mapped[dict[str, Any]] = mapped_column(JSON)  # the input line, as read

    set: Mapped[CalibrationSet] = relationship(back_populates="rows")


class CalibrationScore(Base):
    """One reviewer's current score of one answer (higher is better).

    ``mode`` says how it was given: ``score`` (a 1–5 key) or ``rank`` (the answer's place
    in the reviewer's ranking of the group, stored as N − place so higher is better).
    ``version`` is an optimistic lock, as on review decisions.
    """

    __tablename__ = "calibration_scores"
    __table_args__ = (
        UniqueConstraint("row_id", "reviewer"),
        CheckConstraint("mode in ('score', 'rank')", name="mode_valid"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    row_id: Mapped[int] = mapped_column(ForeignKey("calibration_rows.id", ondelete="CASCADE"))
    reviewer: Mapped[str] = mapped_column(String(200))
    score: Mapped[float] = mapped_column(Float)
    mode: Mapped[str] = mapped_column(String(10), default="score")
    version: Mapped[int] = mapped_column(Integer, default=1)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)

    __mapper_args__ = {"version_id_col": version}  # noqa: RUF012 - SQLAlchemy reads it


class CalibrationEvent(Base):
    """Append-only record of one change of a human score (the calibration audit trail).

    ``action`` is ``set`` or ``clear``; ``old`` / ``new`` are ``{"score", "mode"}`` or
    null. Events written by one gesture (a ranking moves several answers) share
    ``step``, the id of the gesture's first event.
    """

    __tablename__ = "calibration_events"
    __table_args__ = (
        Index("ix_calibration_events_reviewer", "reviewer", "id"),
        Index("ix_calibration_events_row", "row_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    row_id: Mapped[int] = mapped_column(ForeignKey("calibration_rows.id", ondelete="CASCADE"))
    reviewer: Mapped[str] = mapped_column(String(200))
    at: Mapped[datetime] = mapped_column(default=utcnow)
    action: Mapped[str] = mapped_column(String(10))
    old: Mapped[Any] = mapped_column(JSON, nullable=True)
    new: Mapped[Any] = mapped_column(JSON, nullable=True)
    step: Mapped[int | None] = mapped_column(Integer)
