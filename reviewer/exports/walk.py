"""Walking each conversation turn by turn with the reviewer's corrections applied.

The *final* status of an attempt: a reviewer ``accept`` wins; a reviewer ``reject``
overturns a filter-accepted one; otherwise the filter rule is replayed with second
opinions and the reviewer's overrides (``reviewer.replay.replay``). Per turn the chosen
answer is the accepted attempt with the lowest number (the filter kept the first one).

A conversation is usable up to the first turn that has no accepted answer, or whose
stored context was generated after a different answer than the one chosen for the turn
before (``context diverged``: the chain must be the one the model really saw). The walk
streams conversations in chunks (attempts with what replay needs, then the session is
cleared), so the whole store never sits in memory.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import groupby
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from models import Attempt, CheckResult, Conversation, Run, Verdict
from reviewer.keys import AttemptKey
from reviewer.labels import ReviewView, review_views
from reviewer.replay import FALSE_POSITIVE, replay

CHUNK = 200
NO_ANSWER = "no accepted answer"
DIVERGED = "context diverged"
MALFORMED = "malformed context"
MISSING = "missing turn"


@dataclass(frozen=True, slots=True)
class Choice:
    """The answer chosen for one turn, and why it is accepted when the filter refused it."""

    key: AttemptKey
    messages: list[dict[str, str]]
    response: str
    restored_by: tuple[str, ...] = ()


@dataclass
class Walk:
    """One conversation walked from its first turn."""

    run: str
    conversation: str
    turns_planned: int | None
    last_turn: int
    choices: list[Choice] = field(default_factory=list)
    stop: str | None = None
    stop_turn: int | None = None
    last_turn_filter_refused: bool = False

    @property
    def history(self) -> list[dict[str, str]]:
        """The messages up to the last chosen answer (empty when no turn is usable)."""
        if not self.choices:
            return []
        last = self.choices[-1]
        return [*last.messages, {"role": "assistant", "content": last.response}]


def clean_messages(messages: Any) -> list[dict[str, str]] | None:
    """Only ``role``/``content``; None if a message is not a chat message."""
    out: list[dict[str, str]] = []
    for m in messages or []:
        if not isinstance(m, dict) or not isinstance(m.get("content"), str) \
                or m.get("role") not in ("system", "user", "assistant"):
            return None
        out.append({"role": m["role"], "content": m["content"]})
    return out


def alternates(messages: list[dict[str, str]]) -> bool:
    """Optional system message first, then user/assistant alternating, user first."""
    body = messages[1:] if messages and messages[0]["role"] == "system" else messages
    return bool(body) and all(
        m["role"] == ("user" if i % 2 == 0 else "assistant") for i, m in enumerate(body)
    )


def restored_by(attempt: Attempt, view: ReviewView | None) -> tuple[str, ...]:
    """Why a filter-refused attempt now counts as accepted (empty if it was not refused)."""
    if attempt.accepted:
        return ()
    if view is not None and view.decision == "accept":
        return (f"accepted by {view.reviewer}",)
    out: list[str] = []
    if view is not None:
        out += [f"{cid}={'met' if met else 'unmet'} by {view.reviewer}"
                for cid, met in sorted(view.criteria.items())]
        out += [f"{cid} false positive by {view.reviewer}"
                for cid, mark in sorted(view.checks.items()) if mark == FALSE_POSITIVE]
    if replay(attempt).accepted:
        out.append("second opinion")
    return tuple(out)


def final_accepted(attempt: Attempt, view: ReviewView | None) -> bool:
    """The attempt's final status (see the module docstring)."""
    if view is not None and view.decision in ("accept", "reject"):
        return view.decision == "accept"
    return replay(attempt, overrides=view.overrides if view else None).accepted


def _walk_one(conv: Any, attempts: list[Attempt], views: dict[int, ReviewView]) -> Walk:
    walk = Walk(conv.run, conv.name, conv.turns_planned, max(a.turn for a in attempts))
    expected = 1
    for turn, group in groupby(attempts, key=lambda a: a.turn):
        rows = list(group)
        walk.last_turn_filter_refused = not any(a.accepted for a in rows)
        if walk.stop is not None:
            continue
        chosen = next((a for a in rows if final_accepted(a, views.get(a.id))), None)
        context = clean_messages(chosen.messages) if chosen else None
        reason = _stop_reason(turn, expected, chosen, context, walk)
        if reason is not None:
            walk.stop, walk.stop_turn = reason, turn
            continue
        assert chosen is not None and context is not None
        walk.choices.append(Choice(
            AttemptKey(conv.run, conv.name, turn, chosen.attempt), context, chosen.response,
            restored_by(chosen, views.get(chosen.id))))
        expected = turn + 1
    return walk


def _stop_reason(turn: int, expected: int, chosen: Attempt | None,
                 context: list[dict[str, str]] | None, walk: Walk) -> str | None:
    if turn != expected:
        return MISSING
    if chosen is None:
        return NO_ANSWER
    if context is None or not context or context[-1]["role"] != "user" or not alternates(
            [*context, {"role": "assistant", "content": ""}]):
        return MALFORMED
    if walk.choices and context[:-1] != walk.history:
        return DIVERGED
    return None


@dataclass(frozen=True, slots=True)
class _Conv:
    id: int
    run: str
    name: str
    turns_planned: int | None


def walk_conversations(
    session: Session, *, reviewer: str | None = None, runs: list[str] | None = None,
    chunk: int = CHUNK,
) -> Iterator[Walk]:
    """Every conversation (ordered by run, then name) walked with the corrections."""
    views = review_views(session, reviewer)
    stmt = (select(Conversation.id, Run.name, Conversation.name, Conversation.turns_planned)
            .join(Run, Conversation.run_id == Run.id).order_by(Run.name, Conversation.name))
    if runs:
        stmt = stmt.where(Run.name.in_(runs))
    convs = [_Conv(*row) for row in session.execute(stmt)]
    for i in range(0, len(convs), chunk):
        part = convs[i:i + chunk]
        by_conv = _attempts_of(session, [c.id for c in part])
        for conv in part:
            attempts = by_conv.get(conv.id)
            if attempts:
                yield _walk_one(conv, attempts, views)
        session.expunge_all()  # free the chunk: the walk must not grow with the store


def _attempts_of(session: Session, conv_ids: list[int]) -> dict[int, list[Attempt]]:
    stmt: Any = (
        select(Attempt)
        .where(Attempt.conversation_id.in_(conv_ids))
        .options(
            selectinload(Attempt.verdicts).selectinload(Verdict.criterion_version),
            selectinload(Attempt.check_results).selectinload(CheckResult.check_version),
        )
        .order_by(Attempt.conversation_id, Attempt.turn, Attempt.attempt)
    )
    out: dict[int, list[Attempt]] = {}
    for attempt in session.scalars(stmt):
        out.setdefault(attempt.conversation_id, []).append(attempt)
    return out
