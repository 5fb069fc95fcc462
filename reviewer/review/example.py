"""Everything the example pane shows about one attempt, as plain dataclasses (no Qt).

``load_example`` reads one attempt with its verdicts, second opinions, contradiction flags,
check results and this reviewer's decision, and computes what the pane highlights: the
spans each check's pattern matches in the response, the contradiction evidence inside each
rationale, the decision the filter would take now with the reviewer's overrides (the same
replay rule as everywhere), the grader scores when a reference exists, and how many turns
the conversation lost when this refusal ended it.

Each contradiction says whether it would change the filter's decision (the badge shows
those), whether the reviewer's override or an applied second opinion resolved it, and
why it is flagged in one line (``reviewer.contradiction.explain``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import regex
from sqlalchemy import case, func, select
from sqlalchemy.orm import Session, selectinload

from models import (
    Attempt,
    CheckResult,
    ContradictionFlag,
    Conversation,
    JudgeFailure,
    JudgeRequest,
    Run,
    Verdict,
)
from reviewer.contradiction import explain
from reviewer.contradiction.decisive import decision_changing
from reviewer.errors import BadInputError
from reviewer.keys import AttemptKey
from reviewer.review.rows import get_decision, snapshot
from reviewer.review.team import OtherDecision, other_decisions
from reviewer.rule.checks import (
    CheckPattern,
    PatternError,
    PatternTimeout,
    compile_check,
    find_matches,
)
from reviewer.rule.filter import Decision
from reviewer.rule.replay import (
    FALSE_POSITIVE,
    Overrides,
    check_outcomes,
    current_results,
    effective_rows,
    effective_verdicts,
    imported_results,
    replay,
)

Span = tuple[int, int]
# A pathological pattern must not freeze the pane: the regex package can time out.
MATCH_TIMEOUT_S = 0.2
ATTEMPTS_PER_TURN = 3


@dataclass(frozen=True, slots=True)
class Message:
    """One message of the conversation so far."""

    role: str
    content: str


@dataclass(frozen=True, slots=True)
class SecondOpinion:
    """The criterion re-judged alone. ``applied`` is False when the guard marked it
    "unreliable — not applied" (``unreliable_reason`` says why); ``reasoning`` is what a
    reasoning judge thought before answering (shown on demand), None when it did not."""

    met: bool
    rationale: str
    model: str | None
    applied: bool = True
    unreliable_reason: str | None = None
    reasoning: str | None = None


@dataclass(frozen=True, slots=True)
class VerdictRow:
    """One criterion's verdict as the pane shows it."""

    criterion_id: str
    kind: str  # success | failure
    severity: str | None
    text: str
    met: bool  # the judge's first opinion ("oui" = True)
    rationale: str
    override: bool | None  # the reviewer's verdict, None when not overridden
    effective: bool  # what the rule uses now (second opinion and override applied)
    refuses: bool  # this verdict, as it stands now, refuses the attempt
    contradiction: bool  # the detector reads the rationale against the verdict
    score: float
    evidence: str
    evidence_spans: tuple[Span, ...]
    second_opinion: SecondOpinion | None
    # Reading the verdict the way its rationale reads would change the filter's decision
    # (reviewer.contradiction.decisive): the badge's contradictions, the others are quiet.
    decision_changing: bool = False
    # The reviewer's override or an applied second opinion replaced the flagged verdict:
    # the flag is no longer open (the reviewer's reading wins).
    resolved: bool = False
    # Why it is flagged, in one line ("" when not flagged); see reviewer.contradiction.explain.
    explanation: str = ""

    @property
    def polarity(self) -> str:
        """``+`` for a success criterion (oui is good), ``−`` for a failure criterion."""
        return "+" if self.kind == "success" else "−"

    @property
    def open_flag(self) -> bool:
        """A contradiction the reviewer has not resolved yet."""
        return self.contradiction and not self.resolved

    @property
    def meaning(self) -> tuple[str, str]:
        """What the judge's verdict means for this criterion's kind and the criterion's
        gist (``("no fault", "Invente un fait…")``), for a translated explanation."""
        return explain.parts(self.kind, self.met, self.text)


@dataclass(frozen=True, slots=True)
class CheckRow:
    """One deterministic check's result and where its pattern matches."""

    check_id: str
    description: str
    mode: str
    pattern: str
    passed: bool
    false_positive: bool
    spans: tuple[Span, ...]
    error: str = ""
    # The result of a newer version evaluated on this response since it was saved
    # (reviewer.revise.recheck): "old version refused, current version passes".
    current_version: int | None = None
    current_passed: bool | None = None

    @property
    def rechecked(self) -> bool:
        """True when a newer version than the imported one was evaluated here."""
        return self.current_version is not None


@dataclass(frozen=True, slots=True)
class Cut:
    """Where the conversation stopped because every attempt of a turn was refused."""

    turn: int
    planned: int | None
    lost: int | None


@dataclass(frozen=True, slots=True)
class Review:
    """This reviewer's current decision on the attempt."""

    decision: str | None
    note: str
    criteria: dict[str, bool]
    checks: dict[str, str]
    version: int


@dataclass(frozen=True, slots=True)
class ExampleView:
    """The example pane's content."""

    attempt_id: int
    key: AttemptKey
    context: tuple[Message, ...]
    response: str
    reference: str | None
    judge_model: str | None
    accepted: bool
    reasons: tuple[str, ...]
    verdicts: tuple[VerdictRow, ...]
    checks: tuple[CheckRow, ...]
    live: Decision
    review: Review
    grader_scores: dict[str, float | None] = field(default_factory=dict)
    cut: Cut | None = None
    judge_failures: tuple[str, ...] = ()
    # Team mode: the other reviewers' decisions as the pane was loaded; their versions are
    # what a decision compares against to tell "someone decided meanwhile".
    others: tuple[OtherDecision, ...] = ()
    # The filter with each check's newest evaluated version (and the overrides); None
    # when no check was evaluated again since the import.
    live_current: Decision | None = None
    # "The judge contradicts itself": an open decision-changing contradiction (the queue's
    # badge for this reviewer, the same test).
    badge: bool = False
    # What a rescue flips: the open decision-changing contradictions of a refused attempt
    # (reading them as their rationales read makes the filter accept); empty otherwise.
    rescue_flips: tuple[str, ...] = ()

    @property
    def seen_others(self) -> dict[str, int]:
        """Each other reviewer's decision version when this view was read."""
        return {o.reviewer: o.version for o in self.others}

    @property
    def match_spans(self) -> list[tuple[int, int, str]]:
        """Every check match in the response: ``(start, end, check_id)``."""
        return [(s, e, c.check_id) for c in self.checks for s, e in c.spans]

    @property
    def flagged(self) -> bool:
        """True when a verdict contradicts its own rationale and the reviewer has not
        resolved it (decision-changing or not; :attr:`badge` is the decision-changing
        ones)."""
        return any(v.open_flag for v in self.verdicts)

    @property
    def decision_changed(self) -> bool:
        """True when the replayed decision differs from the imported one."""
        return self.live.accepted != self.accepted


def pattern_spans(text: str, pattern: str, flags: str = "",
                  dialect: str = "python") -> tuple[tuple[Span, ...], str]:
    """Where ``pattern`` matches ``text`` (code point offsets, in the pattern's dialect); an
    invalid or too slow pattern gives an error."""
    try:
        check = compile_check(CheckPattern(pattern, flags, dialect=dialect),
                              timeout=MATCH_TIMEOUT_S)
        spans = tuple(s for s in find_matches(check, text) if s[1] > s[0])
    except PatternTimeout:
        return (), "pattern too slow on this answer"
    except PatternError as exc:
        return (), str(exc)
    return spans, ""


def evidence_spans(rationale: str, evidence: str) -> tuple[Span, ...]:
    """Where the evidence quote sits in the rationale (case-insensitive; each fragment).

    The detector joins the fragments of its evidence with " … "."""
    spans: list[Span] = []
    low = rationale.lower()
    for fragment in (p.strip() for p in regex.split(r" … |\|", evidence)):
        if not fragment:
            continue
        start = low.find(fragment.lower())
        if start >= 0:
            spans.append((start, start + len(fragment)))
    return tuple(sorted(spans))


def _detector() -> Callable[..., Any] | None:
    """The contradiction detector, when that module is installed."""
    try:
        module = importlib.import_module("reviewer.contradiction")
    except ImportError:
        return None
    detect = getattr(module, "detect", None)
    return detect if callable(detect) else None


def _contradiction(v: Verdict, flags: dict[int, ContradictionFlag]) -> tuple[bool, float, str,
                                                                               tuple[Span, ...]]:
    flag = flags.get(v.id)
    if flag is not None:
        spans = evidence_spans(v.rationale, flag.evidence) if flag.flagged else ()
        return flag.flagged, flag.score, flag.evidence, spans
    detect = _detector()
    if detect is None:
        return False, 0.0, "", ()
    cv = v.criterion_version
    try:
        found = detect(cv.kind, v.met, v.rationale, criterion_text=cv.text,
                       criterion_id=cv.criterion_id, at_base_rate=True)
    except Exception:  # a detector fault must not hide the example itself
        return False, 0.0, "", ()
    if not found.contradiction:
        # Cues of a verdict that is not flagged are noise: highlight nothing.
        return False, float(found.score), "", ()
    spans = tuple((int(s), int(e)) for s, e in getattr(found, "evidence_spans", ()) or ())
    if not spans:
        spans = evidence_spans(v.rationale, found.evidence)
    return True, float(found.score), str(found.evidence), spans


def _latest_second_opinions(verdicts: list[Verdict]) -> dict[str, Verdict]:
    """The latest second opinion per criterion, applied or not (the pane shows both)."""
    return {v.criterion_version.criterion_id: v for v in sorted(
        (v for v in verdicts if v.origin == "second_opinion"), key=lambda v: v.id)}


def _second_opinion(v: Verdict | None, reasoning: dict[int, str | None]) -> SecondOpinion | None:
    if v is None:
        return None
    return SecondOpinion(v.met, v.rationale, v.model, v.applied, v.unreliable_reason,
                         reasoning.get(v.request_id) if v.request_id else None)


def _verdict_rows(attempt: Attempt, overrides: Overrides,
                  flags: dict[int, ContradictionFlag],
                  reasoning: dict[int, str | None]) -> tuple[VerdictRow, ...]:
    # The rule reads only applied second opinions (effective_rows); the pane shows the
    # latest one, applied or marked unreliable.
    shown = _latest_second_opinions(list(attempt.verdicts))
    rows = []
    readings = []
    for v, e in effective_rows(attempt.verdicts, overrides=overrides):
        flagged, score, evidence, spans = _contradiction(v, flags)
        readings.append((v, e, flagged, score, evidence, spans))
    # Which flags change the filter's decision: on the verdicts as the filter sees them
    # (second opinions applied, nobody's overrides), as the flagging pass stored them.
    filter_view = effective_verdicts(attempt.verdicts)
    changing = decision_changing(
        check_outcomes(attempt.check_results), filter_view,
        {e.criterion_id for _v, e, flagged, *_ in readings if flagged and not e.rescued})
    for v, e, flagged, score, evidence, spans in readings:
        cv = v.criterion_version
        rows.append(VerdictRow(
            criterion_id=e.criterion_id, kind=e.kind, severity=e.severity,
            text=cv.text, met=e.first.met, rationale=e.first.rationale,
            override=e.override, effective=e.met, refuses=e.refuses, contradiction=flagged,
            score=score, evidence=evidence, evidence_spans=spans,
            second_opinion=_second_opinion(shown.get(e.criterion_id), reasoning),
            decision_changing=e.criterion_id in changing,
            resolved=flagged and (e.override is not None or e.rescued),
            explanation=explain.explanation(e.criterion_id, e.kind, e.first.met, cv.text,
                                            evidence) if flagged else "",
        ))
    return tuple(rows)


def _badge(attempt: Attempt, rows: tuple[VerdictRow, ...]) -> tuple[bool, tuple[str, ...]]:
    """The badge and the rescue's flips (see :class:`ExampleView`)."""
    open_changing = tuple(r.criterion_id for r in rows
                          if r.decision_changing and not r.resolved)
    refused = not replay(attempt).accepted  # the filter's decision, second opinions applied
    return bool(open_changing), open_changing if refused else ()


def _check_rows(attempt: Attempt, overrides: Overrides) -> tuple[CheckRow, ...]:
    rows = []
    newest = {r.check_version.check_id: r for r in current_results(attempt.check_results)}
    for r in imported_results(attempt.check_results):
        cv = r.check_version
        later = newest[cv.check_id] if newest[cv.check_id] is not r else None
        spans, error = pattern_spans(attempt.response, cv.pattern, cv.flags, cv.dialect)
        rows.append(CheckRow(
            check_id=cv.check_id, description=cv.description, mode=cv.mode,
            pattern=cv.pattern, passed=r.passed,
            false_positive=overrides.checks.get(cv.check_id) == FALSE_POSITIVE,
            spans=spans, error=error,
            current_version=None if later is None else later.check_version.version,
            current_passed=None if later is None else later.passed,
        ))
    return tuple(rows)


def _rechecked(attempt: Attempt) -> bool:
    """Whether a newer version of some check was evaluated on this attempt."""
    return current_results(attempt.check_results) != imported_results(attempt.check_results)


def grader_scores(response: str, reference: str | None) -> dict[str, float | None]:
    """ROUGE-L and numeric agreement with the reference (empty without one)."""
    if not reference:
        return {}
    try:
        graders = importlib.import_module("reviewer.graders")
    except ImportError:
        return {}
    scores: dict[str, float | None] = {}
    for name in ("rouge_l", "numeric"):
        grader = getattr(graders, name, None)
        if callable(grader):
            scores[name] = grader(response, reference)
    return scores


def conversation_cut(session: Session, attempt: Attempt, planned: int | None) -> Cut | None:
    """The cut this refusal caused, if it was the last refused attempt of the last turn."""
    if attempt.accepted:
        return None
    on_turn = session.execute(
        select(func.count(Attempt.id), func.max(Attempt.attempt),
               func.sum(case((Attempt.accepted.is_(True), 1), else_=0)))
        .where(Attempt.conversation_id == attempt.conversation_id, Attempt.turn == attempt.turn)
    ).one()
    count, last, accepted = on_turn
    last_turn = session.scalar(
        select(func.max(Attempt.turn)).where(Attempt.conversation_id == attempt.conversation_id)
    )
    if (accepted or 0) > 0 or last != attempt.attempt or count < ATTEMPTS_PER_TURN:
        return None
    if last_turn != attempt.turn:
        return None
    lost = None if planned is None else max(planned - attempt.turn, 0)
    return Cut(attempt.turn, planned, lost)


def load_example(session: Session, attempt_id: int, reviewer: str) -> ExampleView:
    """Read one attempt and compute everything the example pane shows."""
    attempt = session.scalar(
        select(Attempt).where(Attempt.id == attempt_id).options(
            selectinload(Attempt.verdicts).selectinload(Verdict.criterion_version),
            selectinload(Attempt.check_results).selectinload(CheckResult.check_version),
        )
    )
    if attempt is None:
        raise BadInputError(f"no attempt with id {attempt_id}")
    conv = session.get_one(Conversation, attempt.conversation_id)
    run = session.get_one(Run, attempt.run_id)
    decision_row = get_decision(session, attempt_id, reviewer)
    overrides = Overrides.of(decision_row)
    snap = snapshot(decision_row)
    flags = {
        f.verdict_id: f for f in session.scalars(
            select(ContradictionFlag).join(Verdict, ContradictionFlag.verdict_id == Verdict.id)
            .where(Verdict.attempt_id == attempt_id, ContradictionFlag.tier == "rules")
        )
    }
    request_ids = [v.request_id for v in attempt.verdicts
                   if v.origin == "second_opinion" and v.request_id]
    reasoning: dict[int, str | None] = {
        rid: thinking for rid, thinking in session.execute(
            select(JudgeRequest.id, JudgeRequest.thinking)
            .where(JudgeRequest.id.in_(request_ids)))
    } if request_ids else {}
    failures = tuple(session.scalars(
        select(JudgeFailure.message).where(JudgeFailure.attempt_id == attempt_id,
                                           JudgeFailure.resolved.is_(False))
        .order_by(JudgeFailure.id)
    ))
    verdict_rows = _verdict_rows(attempt, overrides, flags, reasoning)
    badge, rescue_flips = _badge(attempt, verdict_rows)
    return ExampleView(
        attempt_id=attempt.id,
        key=AttemptKey(run.name, conv.name, attempt.turn, attempt.attempt),
        context=tuple(Message(str(m.get("role", "")), str(m.get("content", "")))
                      for m in attempt.messages or [] if isinstance(m, dict)),
        response=attempt.response,
        reference=attempt.reference,
        judge_model=attempt.judge_model,
        accepted=attempt.accepted,
        reasons=tuple(str(r) for r in attempt.reasons or []),
        verdicts=verdict_rows,
        checks=_check_rows(attempt, overrides),
        live=replay(attempt, overrides=overrides),
        live_current=replay(attempt, overrides=overrides, current_checks=True)
        if _rechecked(attempt) else None,
        review=Review(snap["decision"], snap["note"], snap["criteria"], snap["checks"],
                      snap["version"]),
        grader_scores=grader_scores(attempt.response, attempt.reference),
        cut=conversation_cut(session, attempt, conv.turns_planned),
        judge_failures=failures,
        others=tuple(other_decisions(session, attempt_id, reviewer)),
        badge=badge,
        rescue_flips=rescue_flips,
    )
