"""SQLAlchemy models of the reviewer store (no Qt, no domain logic)."""

from models.base import Base, utcnow
from models.calibration import (
    CalibrationEvent,
    CalibrationRow,
    CalibrationScore,
    CalibrationSet,
)
from models.tables import (
    Attempt,
    AuditEvent,
    Check,
    CheckResult,
    CheckVersion,
    ContradictionFlag,
    Conversation,
    Criterion,
    CriterionVersion,
    JudgeFailure,
    JudgeRequest,
    PromptTemplate,
    ReviewDecision,
    Run,
    UndoCursor,
    Verdict,
)

__all__ = [
    "Attempt",
    "AuditEvent",
    "Base",
    "CalibrationEvent",
    "CalibrationRow",
    "CalibrationScore",
    "CalibrationSet",
    "Check",
    "CheckResult",
    "CheckVersion",
    "ContradictionFlag",
    "Conversation",
    "Criterion",
    "CriterionVersion",
    "JudgeFailure",
    "JudgeRequest",
    "PromptTemplate",
    "ReviewDecision",
    "Run",
    "UndoCursor",
    "Verdict",
    "utcnow",
]
