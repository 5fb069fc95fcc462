"""Conversations to regenerate: cut short, but their blocking turn is now accepted.

One JSONL record per conversation whose walk (``reviewer.exports.walk``) ends on an
accepted turn before ``turns_planned``, with no later turn usable as stored:

* ``restored``: the filter refused every attempt of the last stored turn and the
  reviewer's corrections accept one: the filter cut the conversation there;
* ``rejected``: the next turn was generated after an answer of the chain now refused;
* ``diverged``: the next turn's stored contexts follow no accepted answer of the chain.

``{"run", "conversation", "turns_planned", "regenerate_from", "reason", "restored",
"messages"}``: regenerate turn ``regenerate_from`` after ``messages`` (the context up to
the last accepted answer); ``restored`` lists the keys accepted thanks to a correction.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from reviewer.atomic import write_jsonl_atomic
from reviewer.exports.walk import DIVERGED, REFUSED_ON_CHAIN, Walk, walk_conversations
from reviewer.outputs import Output


def resume_reason(walk: Walk) -> str | None:
    """``restored``, ``rejected``, ``diverged`` or None (nothing to regenerate from a
    corrected turn)."""
    if not walk.choices or walk.turns_planned is None:
        return None
    last = walk.choices[-1].key.turn
    if last >= walk.turns_planned:
        return None
    if walk.stop == DIVERGED:
        return "diverged"
    if walk.stop == REFUSED_ON_CHAIN:
        return "rejected"
    if walk.stop is None and last == walk.last_turn and walk.last_turn_filter_refused:
        return "restored"
    return None


def resume_records(walks: Iterator[Walk]) -> Iterator[dict[str, Any]]:
    """The records of the conversations to resume."""
    for walk in walks:
        reason = resume_reason(walk)
        if reason is None:
            continue
        yield {
            "run": walk.run,
            "conversation": walk.conversation,
            "turns_planned": walk.turns_planned,
            "regenerate_from": walk.choices[-1].key.turn + 1,
            "reason": reason,
            "restored": [str(c.key) for c in walk.choices if c.restored_by],
            "messages": walk.history,
        }


def export_resume(session: Session, out: Path | Output, *, reviewer: str | None = None) -> int:
    """Write the resume list atomically; return how many conversations."""
    return write_jsonl_atomic(out, resume_records(walk_conversations(session,
                                                                     reviewer=reviewer)))
