"""The audit trail as JSONL, oldest first (streamed).

``{"id", "at", "reviewer", "key", "action", "field", "old", "new", "reverts_id"}``:
``action`` is ``set``, ``undo`` or ``redo``; ``field`` is ``decision``, ``note``,
``criterion:<ID>`` or ``check:<ID>``; ``reverts_id`` is the event an undo or redo reverts.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from models import Attempt, AuditEvent, Conversation, Run
from reviewer.atomic import write_jsonl_atomic
from reviewer.keys import AttemptKey
from reviewer.outputs import Output


def decision_records(session: Session, chunk: int = 2000) -> Iterator[dict[str, Any]]:
    """Every audit event with its attempt key, in order."""
    stmt = (
        select(AuditEvent.id, AuditEvent.at, AuditEvent.reviewer, Run.name, Conversation.name,
               Attempt.turn, Attempt.attempt, AuditEvent.action, AuditEvent.field,
               AuditEvent.old, AuditEvent.new, AuditEvent.reverts_id)
        .join(Attempt, AuditEvent.attempt_id == Attempt.id)
        .join(Conversation, Attempt.conversation_id == Conversation.id)
        .join(Run, Attempt.run_id == Run.id)
        .order_by(AuditEvent.id)
        .execution_options(yield_per=chunk)
    )
    for eid, at, who, run, conv, turn, att, action, fld, old, new, reverts in \
            session.execute(stmt):
        yield {"id": eid, "at": at.isoformat() if at else None, "reviewer": who,
               "key": str(AttemptKey(run, conv, turn, att)), "action": action, "field": fld,
               "old": old, "new": new, "reverts_id": reverts}


def export_decisions(session: Session, out: Path | Output) -> int:
    """Write the audit trail atomically; return how many events."""
    return write_jsonl_atomic(out, decision_records(session))
