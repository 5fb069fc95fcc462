"""Checking that the filter rule, replayed on stored rows, reproduces every import.

Each imported record carries the filter's own ``accepted`` and ``reasons``; replaying
``reviewer.filter_rule`` on its stored checks and first-opinion verdicts must give them
back exactly. A mismatch means the rule, the import or the record is wrong, and every
feature built on the replay (second opinions, overrides, statistics) would be off.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select

from models import Attempt, Conversation, Run
from reviewer.keys import AttemptKey
from reviewer.rule.replay import imported_decision, load_attempts
from reviewer.store import Store

CHUNK = 500


@dataclass(frozen=True, slots=True)
class Mismatch:
    """One record whose replayed decision differs from the stored one."""

    key: str
    stored_accepted: bool
    replayed_accepted: bool
    stored_reasons: tuple[str, ...]
    replayed_reasons: tuple[str, ...]

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"attempt": self.key,
                "stored": {"accepted": self.stored_accepted, "reasons": self.stored_reasons},
                "replayed": {"accepted": self.replayed_accepted,
                             "reasons": self.replayed_reasons}}


@dataclass
class ReplayCheck:
    """How many records were replayed and which ones were not reproduced."""

    total: int = 0
    mismatches: list[Mismatch] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when every record was reproduced."""
        return not self.mismatches

    def summary(self) -> str:
        """``N records, all reproduced`` or ``M of N records not reproduced``."""
        if self.ok:
            return f"{self.total} records, all reproduced"
        return f"{len(self.mismatches)} of {self.total} records not reproduced"


def check_replay(store: Store, run: str | None = None) -> ReplayCheck:
    """Replay the filter rule on every stored attempt (or one run's) and compare."""
    stmt = (
        select(Attempt.id, Run.name, Conversation.name)
        .join(Conversation, Conversation.id == Attempt.conversation_id)
        .join(Run, Run.id == Conversation.run_id)
        .order_by(Run.name, Conversation.name, Attempt.turn, Attempt.attempt)
    )
    if run is not None:
        stmt = stmt.where(Run.name == run)
    result = ReplayCheck()
    with store.session() as session:
        rows = session.execute(stmt).all()
    names = {aid: (r, c) for aid, r, c in rows}
    ids = [aid for aid, _, _ in rows]
    for start in range(0, len(ids), CHUNK):
        with store.session() as session:
            for attempt in load_attempts(session, ids[start:start + CHUNK]):
                result.total += 1
                decision = imported_decision(attempt)
                stored = tuple(str(r) for r in attempt.reasons)
                if decision.accepted == attempt.accepted and decision.reasons == stored:
                    continue
                run_name, conversation = names[attempt.id]
                key = AttemptKey(run_name, conversation, attempt.turn, attempt.attempt)
                result.mismatches.append(Mismatch(str(key), attempt.accepted,
                                                  decision.accepted, stored, decision.reasons))
    result.mismatches.sort(key=lambda m: m.key)
    return result
