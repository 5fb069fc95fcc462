"""The second opinion (the seed's ``revoirReussites``): a doubted success criterion alone.

Judged among a dozen criteria of both polarities, the judge sometimes writes the right
reason and ticks the wrong verdict. So each success criterion judged "non" is put to the
judge again in a case that holds only that criterion (no failure criterion, no other
success criterion), under the wording its first verdict was made under. The second
opinion replaces the first only when it says "oui".

The rule is asymmetric on purpose:

1. it only touches success criteria: a fault the judge found stays a refusal;
2. it is only asked when every refusal reason is an unmet success criterion: when a check
   or a failure criterion already refuses the answer, a second call could not save it.

Both opinions are stored (the first, ``origin='filter'``, is never overwritten); the
replay (``reviewer.rule.replay``) applies the "oui" ones that the guard
(``reviewer.judge.guard``) found reliable: one whose rationale gives no reason, copies
the question or contradicts its verdict is stored with ``applied=False`` and its
``unreliable_reason``, shown "unreliable — not applied". ``Attempt.accepted`` stays what
the filter decided. A failed call leaves a ``JudgeFailure`` row and nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from models import Attempt, Conversation, JudgeFailure, Run, Verdict
from reviewer.contradiction.flagging import refresh_decisions
from reviewer.errors import JudgeError
from reviewer.judge.client import JudgeClient
from reviewer.judge.guard import Strictness, unreliable_reason
from reviewer.judge.prompts import (
    SECOND_OPINION,
    Case,
    CaseCriterion,
    PromptText,
    current_template,
)
from reviewer.judge.schema import JudgedCriterion
from reviewer.judge.verdicts import judge_case
from reviewer.keys import AttemptKey
from reviewer.rule.replay import first_opinions, imported_decision, load_attempts, replay
from reviewer.rule.verdicts import rescuable
from reviewer.store import Store

PURPOSE = "second_opinion"

# Outcome statuses.
FLIPPED = "flipped"          # the second opinion turned a refusal into an acceptance
KEPT = "kept"                # asked, but the attempt is still refused
SKIPPED = "skipped"          # nothing to ask (not needed, or already asked)
FAILED = "failed"            # the judge gave no usable answer


@dataclass(frozen=True, slots=True)
class Doubt:
    """A success criterion judged "non" by the filter: a candidate for a second opinion."""

    criterion_id: str
    criterion_version_id: int
    text: str
    position: int
    first_rationale: str


@dataclass
class Outcome:
    """What a second opinion did for one attempt."""

    attempt_id: int
    key: str
    status: str
    asked: list[str] = field(default_factory=list)
    said_yes: list[str] = field(default_factory=list)
    unreliable: dict[str, str] = field(default_factory=dict)  # criterion -> why not applied
    accepted: bool = False
    message: str = ""
    fault: JudgeError | None = None


def doubted_criteria(attempt: Attempt) -> list[Doubt]:
    """Every success criterion the filter judged "non", in record order."""
    return [
        Doubt(v.criterion_version.criterion_id, v.criterion_version_id,
              v.criterion_version.text, v.position, v.rationale)
        for v in first_opinions(attempt.verdicts)
        if rescuable(v.criterion_version.kind, v.met)
    ]


def pending_doubts(attempt: Attempt, only: str | None = None) -> list[Doubt]:
    """Doubted criteria with no second opinion yet under that criterion version."""
    asked = {v.criterion_version_id for v in attempt.verdicts if v.origin == PURPOSE}
    return [
        d for d in doubted_criteria(attempt)
        if d.criterion_version_id not in asked and (only is None or d.criterion_id == only)
    ]


def needs_second_opinion(attempt: Attempt, only: str | None = None) -> bool:
    """The seed's trigger: every refusal reason is an unmet success, and one is not asked yet."""
    return imported_decision(attempt).only_unmet_successes and bool(pending_doubts(attempt, only))


def why_not_needed(attempt: Attempt, only: str | None = None) -> str:
    """A short explanation of why no second opinion is asked for ``attempt``."""
    decision = imported_decision(attempt)
    if decision.accepted:
        return "accepted by the filter"
    if not decision.only_unmet_successes:
        return "a check or a failure criterion also refuses it"
    if only is not None and not any(d.criterion_id == only for d in doubted_criteria(attempt)):
        return f"{only} was not judged \"non\""
    return "second opinion already given"


def attempt_key(session: Session, attempt: Attempt) -> str:
    """``RUN/CONVERSATION/TURN/ATTEMPT`` of a stored attempt."""
    run, conv = session.execute(
        select(Run.name, Conversation.name)
        .join(Conversation, Conversation.run_id == Run.id)
        .where(Conversation.id == attempt.conversation_id)
    ).one()
    return str(AttemptKey(run, conv, attempt.turn, attempt.attempt))


def case_for(attempt: Attempt, doubt: Doubt) -> Case:
    """The case the judge sees: the context, the answer, and the doubted criterion only."""
    return Case(list(attempt.messages), attempt.response,
                (CaseCriterion(doubt.criterion_id, "success", doubt.text),))


@dataclass(frozen=True)
class _Plan:
    attempt_id: int
    key: str
    cases: list[tuple[Doubt, Case]]
    template: PromptText | None
    skip_reason: str


def _plan(store: Store, attempt_id: int, only: str | None) -> _Plan | None:
    with store.session() as session:
        found = load_attempts(session, [attempt_id])
        if not found:
            return None
        attempt = found[0]
        key = attempt_key(session, attempt)
        if not needs_second_opinion(attempt, only):
            return _Plan(attempt_id, key, [], None, why_not_needed(attempt, only))
        cases = [(d, case_for(attempt, d)) for d in pending_doubts(attempt, only)]
        return _Plan(attempt_id, key, cases, current_template(session, SECOND_OPINION), "")


def second_opinion(
    store: Store, client: JudgeClient, attempt_id: int, *, only: str | None = None,
    guard: Strictness | None = None,
) -> Outcome:
    """Ask the judge again about each doubted success criterion of one attempt, alone.

    Each answer is committed as it arrives, with the guard's verdict on it (``guard``:
    the strictness, default ``$REVIEWER_GUARD`` or normal). The first fault stops this
    attempt: it is recorded as "second opinion failed: <message>" and nothing else is
    written for it.
    """
    plan = _plan(store, attempt_id, only)
    if plan is None:
        return Outcome(attempt_id, "", SKIPPED, message="no such attempt")
    if plan.template is None:
        return Outcome(attempt_id, plan.key, SKIPPED, message=plan.skip_reason)
    outcome = Outcome(attempt_id, plan.key, KEPT)
    for doubt, case in plan.cases:
        outcome.asked.append(doubt.criterion_id)
        try:
            answer = judge_case(client, case, plan.template, store=store)
        except JudgeError as exc:
            record_failure(store, attempt_id, doubt.criterion_version_id, str(exc))
            outcome.status, outcome.message, outcome.fault = FAILED, str(exc), exc
            break
        judged = answer.verdicts[doubt.criterion_id]
        reason = unreliable_reason(judged.rationale, judged.met,
                                   criterion_id=doubt.criterion_id, criterion_text=doubt.text,
                                   prompt=answer.prompt, level=guard)
        save_second_opinion(store, attempt_id, doubt, judged, client.model, answer.request_id,
                            reason)
        if judged.met:
            outcome.said_yes.append(doubt.criterion_id)
        if reason:
            outcome.unreliable[doubt.criterion_id] = reason
    outcome.accepted = _accepted_now(store, attempt_id)
    if outcome.status != FAILED and outcome.accepted:
        outcome.status = FLIPPED
    return outcome


def _accepted_now(store: Store, attempt_id: int) -> bool:
    with store.session() as session:
        return all(replay(a).accepted for a in load_attempts(session, [attempt_id]))


def save_second_opinion(
    store: Store, attempt_id: int, doubt: Doubt, judged: JudgedCriterion, model: str,
    request_id: int | None, unreliable: str = "",
) -> None:
    """Store the second opinion (never touching the first) and close earlier failures.

    ``unreliable`` is the guard's reason not to apply it ("" = applied).
    """
    try:
        with store.session() as session:
            session.add(Verdict(
                attempt_id=attempt_id, criterion_version_id=doubt.criterion_version_id,
                origin=PURPOSE, position=doubt.position, met=judged.met,
                rationale=judged.rationale, model=model, request_id=request_id,
                applied=not unreliable, unreliable_reason=unreliable or None,
            ))
            session.execute(
                update(JudgeFailure)
                .where(JudgeFailure.attempt_id == attempt_id,
                       JudgeFailure.criterion_version_id == doubt.criterion_version_id,
                       JudgeFailure.purpose == PURPOSE, JudgeFailure.resolved.is_(False))
                .values(resolved=True)
            )
            # The verdict the rule sees changed: so may the flags that change its decision.
            session.flush()
            refresh_decisions(session, [attempt_id])
    except IntegrityError:
        pass  # another process stored this second opinion first; one is enough


def record_failure(store: Store, attempt_id: int, criterion_version_id: int, message: str) -> None:
    """Mark the attempt "second opinion failed: <message>"."""
    with store.session() as session:
        session.add(JudgeFailure(attempt_id=attempt_id, criterion_version_id=criterion_version_id,
                                 purpose=PURPOSE, message=message))


def failures(session: Session, attempt_id: int) -> list[str]:
    """Unresolved "second opinion failed: …" lines of an attempt, oldest first."""
    rows: Any = session.scalars(
        select(JudgeFailure.message)
        .where(JudgeFailure.attempt_id == attempt_id, JudgeFailure.purpose == PURPOSE,
               JudgeFailure.resolved.is_(False))
        .order_by(JudgeFailure.id)
    )
    return [f"second opinion failed: {m}" for m in rows]
