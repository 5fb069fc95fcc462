"""Walking each conversation turn by turn with the reviewer's corrections applied.

The *final* status of an attempt: a reviewer ``accept`` wins; a reviewer ``reject``
overturns a filter-accepted one; otherwise the filter rule is replayed with second
opinions and the reviewer's overrides (``reviewer.replay.replay``). Per turn the chosen
answer is the accepted attempt with the lowest number (the filter kept the first one).
Only attempts with a second opinion or with overrides but no decision need the replay;
every other one keeps the filter's stored decision (the replay reproduces it), so the
walk reads plain rows and loads verdicts for those few only.

A conversation is usable up to the first turn that has no accepted answer, or whose
stored context was generated after a different answer than the one chosen for the turn
before (``context diverged``: the chain must be the one the model really saw). The walk
streams the attempts with a plain Core select (``yield_per``) and handles conversations
in chunks, so the whole store never sits in memory. It reads the stored JSON text of the
contexts and decodes only the chosen attempts' ones; a context that continues the chosen
chain is stored as the previous context's text plus the chosen answer and the new user
message, so only that new part is decoded (any other stored form is decoded whole).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import groupby
from json.encoder import encode_basestring_ascii
from operator import attrgetter
from typing import Any, NamedTuple

from sqlalchemy import Text, case, cast, select
from sqlalchemy.orm import Session

from models import Attempt, Conversation, Run, Verdict
from reviewer.keys import AttemptKey
from reviewer.review.labels import ReviewView, review_views
from reviewer.rule.replay import FALSE_POSITIVE, load_attempts, replay

CHUNK = 2000
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


class Row(NamedTuple):
    """What the walk reads of one attempt (a tuple: a hundred thousand are made per export)."""

    id: int
    turn: int
    attempt: int
    accepted: bool
    messages: Any  # the stored JSON text (decoded list on backends that decode JSON), or None
    response: str | None  # None when the filter refused it (read again only if restored)


@dataclass(frozen=True, slots=True)
class _Conv:
    run: str
    name: str
    turns_planned: int | None
    rows: list[Row]


class _Status:
    """Final status and restoration causes of the attempts of one chunk."""

    def __init__(self, views: dict[int, ReviewView], replayed: dict[int, Attempt],
                 refused: dict[int, tuple[Any, str]]) -> None:
        self.views = views
        self.replayed = replayed
        self.refused = refused  # context and answer of refused attempts that may be chosen

    def content(self, row: Row) -> tuple[Any, str]:
        """The stored context and the answer of a chosen attempt."""
        if row.response is not None:
            return row.messages, row.response
        return self.refused[row.id]

    def accepted(self, row: Row) -> bool:
        """The attempt's final status (see the module docstring)."""
        view = self.views.get(row.id)
        if view is not None and view.decision in ("accept", "reject"):
            return view.decision == "accept"
        attempt = self.replayed.get(row.id)
        if attempt is None:
            return row.accepted
        return replay(attempt, overrides=view.overrides if view else None).accepted

    def restored_by(self, row: Row) -> tuple[str, ...]:
        """Why a filter-refused attempt now counts as accepted (empty if it was not refused)."""
        if row.accepted:
            return ()
        view = self.views.get(row.id)
        if view is not None and view.decision == "accept":
            return (f"accepted by {view.reviewer}",)
        out: list[str] = []
        if view is not None:
            out += [f"{cid}={'met' if met else 'unmet'} by {view.reviewer}"
                    for cid, met in sorted(view.criteria.items())]
            out += [f"{cid} false positive by {view.reviewer}"
                    for cid, mark in sorted(view.checks.items()) if mark == FALSE_POSITIVE]
        attempt = self.replayed.get(row.id)
        if attempt is not None and replay(attempt).accepted:
            out.append("second opinion")
        return tuple(out)


_TURN = attrgetter("turn")


def _walk_one(conv: _Conv, status: _Status) -> Walk:
    walk = Walk(conv.run, conv.name, conv.turns_planned, conv.rows[-1].turn)  # turn order
    expected = 1
    # The stored text of the history so far, without its closing "]" (when that text is
    # exactly the history), and the history itself.
    chain: tuple[str, str] | None = None
    history: list[dict[str, str]] = []
    for turn, group in groupby(conv.rows, key=_TURN):
        rows = list(group)
        walk.last_turn_filter_refused = not any(r.accepted for r in rows)
        if walk.stop is not None:
            continue
        chosen = next((r for r in rows if status.accepted(r)), None)
        raw, response = status.content(chosen) if chosen else (None, "")
        context, canonical, continues = _context(raw, chain, history) if chosen \
            else (None, False, False)
        # A context that is the history plus one user message is well formed and follows
        # the chain: only the turn number is left to check.
        reason = (MISSING if turn != expected else None) if continues \
            else _stop_reason(turn, expected, chosen, context, walk)
        if reason is not None:
            walk.stop, walk.stop_turn = reason, turn
            continue
        assert chosen is not None and context is not None
        walk.choices.append(Choice(AttemptKey(conv.run, conv.name, turn, chosen.attempt),
                                   context, response, status.restored_by(chosen)))
        history = [*context, {"role": "assistant", "content": response}]
        # The answer's JSON text is built only if the next context starts like this one
        # (see _context): a conversation's last turn never needs it.
        chain = (raw.rstrip()[:-1], response) if canonical and raw else None
        expected = turn + 1
    return walk


def _answer_text(response: str) -> str:
    """How the stored history spells the chosen answer after the previous context."""
    return f', {{"role": "assistant", "content": {encode_basestring_ascii(response)}}}, '


def _context(raw: Any, chain: tuple[str, str] | None, history: list[dict[str, str]]
             ) -> tuple[list[dict[str, str]] | None, bool, bool]:
    """The chosen attempt's cleaned context; whether its stored text can start the next
    turn's (a JSON list of exactly its cleaned messages); whether it is ``history`` plus
    one user message.

    When the stored text is the history's own stored text (``chain``: the previous
    context's text without its "]", and the answer chosen then, spelled as by
    :func:`_answer_text`) followed by more
    messages, the history is reused and only those are decoded: JSON values delimit
    themselves, so that prefix decodes to the history whatever follows.
    """
    if not isinstance(raw, str):  # a backend that hands JSON over decoded
        return clean_messages(raw), False, False
    answer = _answer_text(chain[1]) if chain is not None and raw.startswith(chain[0]) \
        else None
    if chain is not None and answer is not None and raw.startswith(answer, len(chain[0])):
        try:
            tail = json.loads("[" + raw[len(chain[0]) + len(answer):])
        except ValueError:
            tail = None
        if isinstance(tail, list):
            cleaned = clean_messages(tail)
            if cleaned is not None:
                one_question = len(cleaned) == 1 and cleaned[0]["role"] == "user"
                return history + cleaned, cleaned == tail, one_question
    data = json.loads(raw)  # a damaged row stops the export (nothing is replaced)
    cleaned = clean_messages(data) if isinstance(data, list) else None
    canonical = cleaned is not None and cleaned == data and raw.rstrip().endswith("]")
    return cleaned, canonical, False


def _stop_reason(turn: int, expected: int, chosen: Row | None,
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


def _conversations(session: Session, runs: list[str] | None, chunk: int) -> Iterator[_Conv]:
    """Conversations (by run, then name) with their attempts, streamed."""
    # The stored JSON text, not the ORM's decoded value: only chosen contexts are decoded.
    # A refused attempt's context and answer are read only if it is restored.
    raw = cast(Attempt.messages, Text)
    stmt: Any = (
        select(Run.name, Conversation.name, Conversation.turns_planned, Attempt.id,
               Attempt.turn, Attempt.attempt, Attempt.accepted,
               case((Attempt.accepted, raw), else_=None),
               case((Attempt.accepted, Attempt.response), else_=None))
        # From the runs down: SQLite then reads each index in the order asked, instead of
        # sorting every attempt with its context in a temporary B-tree.
        .select_from(Run)
        .join(Conversation, Conversation.run_id == Run.id)
        .join(Attempt, Attempt.conversation_id == Conversation.id)
        .order_by(Run.name, Conversation.name, Attempt.turn, Attempt.attempt)
        .execution_options(yield_per=chunk)
    )
    if runs:
        stmt = stmt.where(Run.name.in_(runs))
    current: _Conv | None = None
    # Core on the session's connection: plain rows, no ORM loading step.
    for run, name, planned, aid, turn, att, accepted, messages, response in \
            session.connection().execute(stmt):
        if current is None or (current.run, current.name) != (run, name):
            if current is not None:
                yield current
            current = _Conv(run, name, planned, [])
        current.rows.append(Row(aid, turn, att, bool(accepted), messages, response))
    if current is not None:
        yield current


def walk_conversations(
    session: Session, *, reviewer: str | None = None, runs: list[str] | None = None,
    chunk: int = CHUNK,
) -> Iterator[Walk]:
    """Every conversation (ordered by run, then name) walked with the corrections."""
    views = review_views(session, reviewer)
    seconds = set(session.scalars(
        select(Verdict.attempt_id).where(Verdict.origin == "second_opinion").distinct()))
    needs = seconds | {aid for aid, v in views.items() if v.decision is None}
    batch: list[_Conv] = []
    size = 0
    for conv in _conversations(session, runs, chunk):
        batch.append(conv)
        size += len(conv.rows)
        if size >= chunk:
            yield from _walk_batch(session, batch, views, needs)
            batch, size = [], 0
    yield from _walk_batch(session, batch, views, needs)


def _walk_batch(session: Session, batch: list[_Conv], views: dict[int, ReviewView],
                needs: set[int]) -> Iterator[Walk]:
    ids = [r.id for c in batch for r in c.rows if r.id in needs]
    replayed = {a.id: a for a in load_attempts(session, ids)} if ids else {}
    status = _Status(views, replayed, {})
    # Refused attempts a decision or a replay may accept: their context and answer.
    restorable = [r.id for c in batch for r in c.rows if r.response is None and (
        r.id in replayed or (r.id in views and views[r.id].decision == "accept"))]
    for start in range(0, len(restorable), 500):
        part = restorable[start:start + 500]
        status.refused.update(
            (aid, (messages, response)) for aid, messages, response in session.execute(
                select(Attempt.id, cast(Attempt.messages, Text), Attempt.response)
                .where(Attempt.id.in_(part))))
    for conv in batch:
        yield _walk_one(conv, status)
    for attempt in replayed.values():
        session.expunge(attempt)  # keep the session small: the walk streams
