"""The store's tables (SQLAlchemy 2 typed ORM).

Identity: an attempt is ``run/conversation/turn/attempt``. Criteria and checks are
versioned: a verdict or a check result points at the version it was made under, so a
rewritten criterion never re-labels old verdicts.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    CheckConstraint,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
    text,
    true,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from models.base import Base, utcnow


class Run(Base):
    """One filter run (a generation of a dataset graded by the filter)."""

    __tablename__ = "runs"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    imported_at: Mapped[datetime] = mapped_column(default=utcnow)
    source: Mapped[str | None] = mapped_column(Text)

    conversations: Mapped[list[Conversation]] = relationship(back_populates="run")


class Conversation(Base):
    """A scripted conversation of a run; its turns are graded one attempt at a time."""

    __tablename__ = "conversations"
    __table_args__ = (UniqueConstraint("run_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(200))
    turns_planned: Mapped[int | None] = mapped_column(Integer)

    run: Mapped[Run] = relationship(back_populates="conversations")
    attempts: Mapped[list[Attempt]] = relationship(back_populates="conversation")


class Attempt(Base):
    """One graded answer, with what the filter decided and why."""

    __tablename__ = "attempts"
    __table_args__ = (
        UniqueConstraint("conversation_id", "turn", "attempt"),
        CheckConstraint("turn >= 1", name="turn_positive"),
        CheckConstraint("attempt >= 1", name="attempt_positive"),
        Index("ix_attempts_run_accepted", "run_id", "accepted"),
        # The review queue: refused first, most contradictory first, then in run order. It
        # holds every column a page's walk sorts, joins, filters ("flagged only") or shows
        # (the flag) on, so the walk reads no row.
        Index("ix_attempts_queue", "accepted", "contradiction_score", "conversation_id", "turn",
              "attempt", "run_id", "flagged"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"))
    conversation_id: Mapped[int] = mapped_column(
        ForeignKey("conversations.id", ondelete="CASCADE")
    )
    turn: Mapped[int] = mapped_column(Integer)
    attempt: Mapped[int] = mapped_column(Integer)
    messages: Mapped[list[Any]] = mapped_column(JSON)
    response: Mapped[str] = mapped_column(Text)
    reference: Mapped[str | None] = mapped_column(Text)
    accepted: Mapped[bool] = mapped_column(Boolean)
    reasons: Mapped[list[Any]] = mapped_column(JSON)
    judge_model: Mapped[str | None] = mapped_column(String(200))
    # Hash of the imported record: re-importing it is a no-op, a changed one is an error.
    fingerprint: Mapped[str] = mapped_column(String(64), default="")
    # Highest contradiction score among this attempt's verdicts, a reading that would not
    # change the filter's decision counting half (reviewer.contradiction.flagging); the
    # queue sorts on it.
    contradiction_score: Mapped[float] = mapped_column(Float, default=0.0)
    # Some flagged reading of one of its verdicts is decision-changing (the badge, before
    # any reviewer's overrides). Kept by database triggers on ``contradiction_flags``
    # (migrations 0005 and 0011), whoever writes the readings.
    flagged: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())

    conversation: Mapped[Conversation] = relationship(back_populates="attempts")
    verdicts: Mapped[list[Verdict]] = relationship(
        back_populates="attempt", order_by="Verdict.position"
    )
    check_results: Mapped[list[CheckResult]] = relationship(
        back_populates="attempt", order_by="CheckResult.position"
    )


class Criterion(Base):
    """A judge criterion (``G-…`` success or ``E-…`` failure); its text lives in versions."""

    __tablename__ = "criteria"

    id: Mapped[str] = mapped_column(String(100), primary_key=True)
    position: Mapped[int] = mapped_column(Integer, default=0)

    versions: Mapped[list[CriterionVersion]] = relationship(
        back_populates="criterion", order_by="CriterionVersion.version"
    )


class CriterionVersion(Base):
    """One wording of a criterion. Verdicts point here, never at the criterion."""

    __tablename__ = "criterion_versions"
    __table_args__ = (
        UniqueConstraint("criterion_id", "version"),
        CheckConstraint("kind in ('success', 'failure')", name="kind_valid"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    criterion_id: Mapped[str] = mapped_column(ForeignKey("criteria.id", ondelete="CASCADE"))
    version: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(10))
    severity: Mapped[str | None] = mapped_column(String(10))
    text: Mapped[str] = mapped_column(Text)
    reason: Mapped[str | None] = mapped_column(Text)
    author: Mapped[str | None] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    criterion: Mapped[Criterion] = relationship(back_populates="versions")


class Check(Base):
    """A deterministic check (``D-…`` regex); its pattern lives in versions."""

    __tablename__ = "checks"

    id: Mapped[str] = mapped_column(String(100), primary_key=True)
    position: Mapped[int] = mapped_column(Integer, default=0)

    versions: Mapped[list[CheckVersion]] = relationship(
        back_populates="check", order_by="CheckVersion.version"
    )


class CheckVersion(Base):
    """One pattern of a check. ``forbid`` fails on a match; ``require`` fails without one."""

    __tablename__ = "check_versions"
    __table_args__ = (
        UniqueConstraint("check_id", "version"),
        CheckConstraint("mode in ('forbid', 'require')", name="mode_valid"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    check_id: Mapped[str] = mapped_column(ForeignKey("checks.id", ondelete="CASCADE"))
    version: Mapped[int] = mapped_column(Integer)
    description: Mapped[str] = mapped_column(Text, default="")
    pattern: Mapped[str] = mapped_column(Text)
    flags: Mapped[str] = mapped_column(String(10), default="")
    mode: Mapped[str] = mapped_column(String(10))
    when: Mapped[str | None] = mapped_column(Text)
    # The regex dialect of pattern and when: python (the regex package) or ecmascript
    # (JavaScript's RegExp, as the team's TypeScript filter runs it).
    dialect: Mapped[str] = mapped_column(String(12), default="python",
                                         server_default="python")
    reason: Mapped[str | None] = mapped_column(Text)
    author: Mapped[str | None] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    check: Mapped[Check] = relationship(back_populates="versions")


class JudgeRequest(Base):
    """A request sent to the judge and its raw reply: the cache of byte-identical requests."""

    __tablename__ = "judge_requests"

    id: Mapped[int] = mapped_column(primary_key=True)
    digest: Mapped[str] = mapped_column(String(64), unique=True)
    host: Mapped[str | None] = mapped_column(String(500))
    model: Mapped[str] = mapped_column(String(200))
    request: Mapped[dict[str, Any]] = mapped_column(JSON)
    reply: Mapped[str] = mapped_column(Text)
    # A reasoning model's thoughts (``message.thinking``), kept apart from the answer.
    thinking: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Verdict(Base):
    """A judge verdict on one attempt for one criterion version.

    ``origin`` says where it came from: ``filter`` (imported, the first opinion, never
    overwritten), ``second_opinion`` (the criterion re-judged alone) or ``rejudge`` (judged
    again under a new criterion version).
    """

    __tablename__ = "verdicts"
    __table_args__ = (
        UniqueConstraint("attempt_id", "criterion_version_id", "origin"),
        CheckConstraint(
            "origin in ('filter', 'second_opinion', 'rejudge')", name="origin_valid"
        ),
        Index("ix_verdicts_criterion_version", "criterion_version_id", "met"),
        # The queue's criterion probe per attempt, answered from the index (with ``met``).
        Index("ix_verdicts_attempt_met", "attempt_id", "criterion_version_id", "origin", "met"),
        # The attempts with a second opinion, which every export walk lists first (partial on
        # both backends, as migration 0013 creates it and says why ``origin`` is in it;
        # ``postgresql_where`` is left out for the reason given at ``ix_audit_events_group``).
        Index("ix_verdicts_second_opinion", "attempt_id", "origin",
              sqlite_where=text("origin = 'second_opinion'")),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    attempt_id: Mapped[int] = mapped_column(ForeignKey("attempts.id", ondelete="CASCADE"))
    criterion_version_id: Mapped[int] = mapped_column(ForeignKey("criterion_versions.id"))
    origin: Mapped[str] = mapped_column(String(20), default="filter")
    position: Mapped[int] = mapped_column(Integer, default=0)
    met: Mapped[bool] = mapped_column(Boolean)
    rationale: Mapped[str] = mapped_column(Text, default="")
    model: Mapped[str | None] = mapped_column(String(200))
    request_id: Mapped[int | None] = mapped_column(ForeignKey("judge_requests.id"))
    # The second-opinion guard (reviewer.judge.guard): False when this second opinion is
    # stored and shown but "unreliable — not applied" (``unreliable_reason`` says why).
    applied: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    unreliable_reason: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    attempt: Mapped[Attempt] = relationship(back_populates="verdicts")
    criterion_version: Mapped[CriterionVersion] = relationship()


class ContradictionFlag(Base):
    """The contradiction detector's reading of one verdict (one row per tier)."""

    __tablename__ = "contradiction_flags"
    __table_args__ = (
        UniqueConstraint("verdict_id", "tier"),
        CheckConstraint("tier in ('rules', 'llm')", name="tier_valid"),
        # The queue's "flagged only" filter starts from the flagged readings.
        Index("ix_contradiction_flags_flagged", "flagged", "verdict_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    verdict_id: Mapped[int] = mapped_column(ForeignKey("verdicts.id", ondelete="CASCADE"))
    tier: Mapped[str] = mapped_column(String(10), default="rules")
    score: Mapped[float] = mapped_column(Float)
    flagged: Mapped[bool] = mapped_column(Boolean)
    evidence: Mapped[str] = mapped_column(Text, default="")
    detector: Mapped[str] = mapped_column(String(50), default="")
    # Reading the verdict the way its rationale reads would change the filter's decision
    # (reviewer.contradiction.decisive); flagged and decisive is what the badge shows
    # (migration 0011).
    decisive: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class JudgeFailure(Base):
    """A judge call that failed for an attempt: shown as "second opinion failed: reason"."""

    __tablename__ = "judge_failures"

    id: Mapped[int] = mapped_column(primary_key=True)
    attempt_id: Mapped[int] = mapped_column(ForeignKey("attempts.id", ondelete="CASCADE"))
    criterion_version_id: Mapped[int | None] = mapped_column(
        ForeignKey("criterion_versions.id")
    )
    purpose: Mapped[str] = mapped_column(String(20), default="second_opinion")
    message: Mapped[str] = mapped_column(Text)
    resolved: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class CheckResult(Base):
    """A deterministic check's result on one attempt, under one check version."""

    __tablename__ = "check_results"
    __table_args__ = (
        UniqueConstraint("attempt_id", "check_version_id"),
        # The "failed check" filter reads the failed results of a check (attempt_id too:
        # a PostgreSQL page hashes them from the index alone, migration 0014).
        Index("ix_check_results_check_version", "check_version_id", "passed", "attempt_id"),
        # The queue's failed-check probe per attempt, answered from the index.
        Index("ix_check_results_attempt_passed", "attempt_id", "check_version_id", "passed"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    attempt_id: Mapped[int] = mapped_column(ForeignKey("attempts.id", ondelete="CASCADE"))
    check_version_id: Mapped[int] = mapped_column(ForeignKey("check_versions.id"))
    position: Mapped[int] = mapped_column(Integer, default=0)
    passed: Mapped[bool] = mapped_column(Boolean)

    attempt: Mapped[Attempt] = relationship(back_populates="check_results")
    check_version: Mapped[CheckVersion] = relationship()


class ReviewDecision(Base):
    """One reviewer's current decision on one attempt.

    ``decision`` is ``accept``, ``reject`` or None (overrides only). ``criteria`` maps a
    criterion id to the reviewer's verdict (True = met / "oui"); ``checks`` maps a check id
    to ``"false_positive"``. ``version`` is an optimistic lock: a write that read an older
    version is refused, so two reviewers never silently overwrite each other.
    """

    __tablename__ = "review_decisions"
    __table_args__ = (
        UniqueConstraint("attempt_id", "reviewer"),
        Index("ix_review_decisions_reviewer", "reviewer", "attempt_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    attempt_id: Mapped[int] = mapped_column(ForeignKey("attempts.id", ondelete="CASCADE"))
    reviewer: Mapped[str] = mapped_column(String(200))
    decision: Mapped[str | None] = mapped_column(String(10))
    criteria: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    checks: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    note: Mapped[str] = mapped_column(Text, default="")
    version: Mapped[int] = mapped_column(Integer, default=1)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)

    __mapper_args__ = {"version_id_col": version}  # noqa: RUF012 - SQLAlchemy reads it


class AuditEvent(Base):
    """An append-only record of one change a reviewer made (the audit trail).

    ``field`` is ``decision``, ``note``, ``criterion:<ID>`` or ``check:<ID>``; ``old`` and
    ``new`` hold the values before and after (JSON). ``reverts_id`` marks an undo (or a
    redo, which reverts the undo), so undo history survives restarts.

    Undo steps: the events written as one step share ``group_id`` (the id of the step's
    first event; None for a step of a single event, as every event before migration 0006).
    A step on a reviewer's undo or redo stack has ``below_id`` on its first event: the step
    under it on that stack (the stack tops are in ``UndoCursor``). Plain links, no foreign
    key: the trail is append-only, and a link may outlive a cascaded attempt.
    """

    __tablename__ = "audit_events"
    __table_args__ = (
        Index("ix_audit_events_reviewer", "reviewer", "id"),
        Index("ix_audit_events_attempt", "attempt_id"),
        # The events of a grouped step (few: most steps are one event). Partial on both
        # backends, as migration 0006 creates it; PostgreSQL's ``postgresql_where`` is not
        # repeated here: SQLAlchemy checks it by importing its PostgreSQL dialect with
        # every driver's module, at each start of a SQLite app (and Alembic's comparison
        # of the models with a store does not read the condition).
        Index("ix_audit_events_group", "group_id", sqlite_where=text("group_id IS NOT NULL")),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    attempt_id: Mapped[int] = mapped_column(ForeignKey("attempts.id", ondelete="CASCADE"))
    reviewer: Mapped[str] = mapped_column(String(200))
    at: Mapped[datetime] = mapped_column(default=utcnow)
    action: Mapped[str] = mapped_column(String(30))
    field: Mapped[str] = mapped_column(String(120))
    old: Mapped[Any] = mapped_column(JSON, nullable=True)
    new: Mapped[Any] = mapped_column(JSON, nullable=True)
    reverts_id: Mapped[int | None] = mapped_column(ForeignKey("audit_events.id"))
    group_id: Mapped[int | None] = mapped_column(Integer)
    below_id: Mapped[int | None] = mapped_column(Integer)


class UndoCursor(Base):
    """Where a reviewer's undo and redo stacks stand: their top steps and their depths.

    Each stack is a chain of steps (``AuditEvent.below_id``); a top is the first event of
    the step Undo (or Redo) would take next, a depth how many steps that stack holds. One
    row per reviewer, so the menus read both stacks with one primary-key lookup, and every
    change of a reviewer locks this row (after its decision row), which serialises that
    reviewer's windows and processes.
    """

    __tablename__ = "undo_cursors"

    reviewer: Mapped[str] = mapped_column(String(200), primary_key=True)
    undo_top: Mapped[int | None] = mapped_column(
        ForeignKey("audit_events.id", ondelete="SET NULL"))
    undo_depth: Mapped[int] = mapped_column(Integer, default=0)
    redo_top: Mapped[int | None] = mapped_column(
        ForeignKey("audit_events.id", ondelete="SET NULL"))
    redo_depth: Mapped[int] = mapped_column(Integer, default=0)


class PromptTemplate(Base):
    """A judge prompt template the user can edit; every edit is a new version."""

    __tablename__ = "prompt_templates"
    __table_args__ = (UniqueConstraint("name", "version"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    version: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
