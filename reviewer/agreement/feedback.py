"""Agreement of the grader with the reviewer, EvalGen-style (see docs/agreement.md).

Labels (one reviewer decision per attempt, ``reviewer.labels.review_views``):

* attempt: the reviewer says *bad* when they rejected it, *good* when they accepted it;
  with overrides but no decision, the filter rule replayed with those overrides decides.
* criterion ``c``: the reviewer's override when there is one (met/unmet, read through the
  criterion's polarity); else, on an attempt they accepted, *good* for a success or a
  major failure criterion (an accepted answer does what it should and commits no major
  fault); else the grader's verdict stands (the reviewer saw it and left it).
* check ``d``: *good* when the hit is marked false positive or the attempt accepted; else
  the stored result stands.

The grader is the filter as the tool replays it: imported verdicts plus second opinions,
no reviewer override. A criterion *fails* an attempt when its verdict goes against the
answer (a success judged "non", a failure judged "oui", minor ones included).

Coverage needs bad answers the grader let through; when no grader-accepted attempt was
audited it cannot be known, and every coverage is None with a warning.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from models import Attempt, Conversation
from reviewer.agreement.confusion import Confusion
from reviewer.review.labels import (
    ReviewView,
    check_label,
    criterion_bad,
    grader_fails,
    review_views,
    reviewer_good,
)
from reviewer.rule.filter import reason_ids
from reviewer.rule.replay import check_outcomes, effective_verdicts, load_attempts, replay

CHUNK = 500
COVERAGE_WARNING = (
    "coverage unknown: no attempt the grader accepted has been audited, so the bad answers "
    "it let through are not counted; audit a sample of accepted attempts"
)


@dataclass
class Agreement:
    """The agreement figures over the audited attempts."""

    reviewer: str | None
    audited: int = 0
    audited_grader_accepted: int = 0
    overall: Confusion = field(default_factory=Confusion)
    criteria: dict[str, Confusion] = field(default_factory=lambda: defaultdict(Confusion))
    checks: dict[str, Confusion] = field(default_factory=lambda: defaultdict(Confusion))
    good: dict[int, bool] = field(default_factory=dict)

    @property
    def coverage_known(self) -> bool:
        """Coverage can be known only if some grader-accepted attempt was audited."""
        return self.audited_grader_accepted > 0

    def as_dict(self) -> dict[str, Any]:
        """JSON form (keys sorted by id)."""
        known = self.coverage_known
        return {
            "reviewer": self.reviewer,
            "audited": self.audited,
            "audited_grader_accepted": self.audited_grader_accepted,
            "coverage_known": known,
            "warning": None if known else COVERAGE_WARNING,
            "overall": self.overall.as_dict(coverage_known=known),
            "criteria": {k: c.as_dict(coverage_known=known)
                         for k, c in sorted(self.criteria.items())},
            "checks": {k: c.as_dict(coverage_known=known)
                       for k, c in sorted(self.checks.items())},
        }


def _chunks(ids: list[int], size: int) -> Iterator[list[int]]:
    for i in range(0, len(ids), size):
        yield ids[i:i + size]


def agreement(session: Session, reviewer: str | None = None) -> Agreement:
    """Confusions of grader vs reviewer: overall, per criterion, per check."""
    views = review_views(session, reviewer)
    out = Agreement(reviewer)
    for ids in _chunks(sorted(views), CHUNK):
        for attempt in load_attempts(session, ids):
            _count(out, attempt, views[attempt.id])
    return out


def _count(out: Agreement, attempt: Attempt, view: ReviewView) -> None:
    good = reviewer_good(attempt, view)
    grader = replay(attempt)
    out.good[attempt.id] = good
    out.audited += 1
    out.audited_grader_accepted += grader.accepted
    out.overall.add(not grader.accepted, not good)
    for v in effective_verdicts(attempt.verdicts, overrides=view.overrides):
        out.criteria[v.criterion_id].add(grader_fails(v), criterion_bad(v, view))
    for c in check_outcomes(attempt.check_results):
        label = check_label(view, c.check_id, c.passed)
        out.checks[c.check_id].add(not c.passed, (not c.passed) if label is None else label)


@dataclass
class CauseCount:
    """Refusals citing one check or criterion, how many were reviewed and overturned."""

    refusals: int = 0
    reviewed: int = 0
    overturned: int = 0


def refusals_by_cause(
    session: Session, good: dict[int, bool], chunk: int = 2000
) -> dict[str, CauseCount]:
    """Per cause (reason id) of the filter's refusals, with the reviewer's overturns.

    ``good`` maps audited attempt ids to the reviewer's label (``Agreement.good``).
    """
    out: dict[str, CauseCount] = defaultdict(CauseCount)
    stmt = (select(Attempt.id, Attempt.reasons).where(Attempt.accepted.is_(False))
            .order_by(Attempt.id).execution_options(yield_per=chunk))
    for aid, reasons in session.execute(stmt):
        for cause in dict.fromkeys(reason_ids(reasons or [])):
            count = out[cause]
            count.refusals += 1
            if aid in good:
                count.reviewed += 1
                count.overturned += good[aid]
    return dict(sorted(out.items()))


@dataclass
class CutCount:
    """Conversations the filter cut short, and those cut by a refusal the reviewer undid."""

    conversations: int = 0
    turns_lost: int = 0
    unjust_conversations: int = 0
    unjust_turns_lost: int = 0


def _last_turns(session: Session, chunk: int) -> Iterator[tuple[int | None, int, list[Any]]]:
    """Per conversation: turns planned, last turn present, (id, accepted) of its attempts."""
    stmt = (
        select(Attempt.conversation_id, Conversation.turns_planned, Attempt.turn, Attempt.id,
               Attempt.accepted)
        .join(Conversation, Attempt.conversation_id == Conversation.id)
        .order_by(Attempt.conversation_id, Attempt.turn, Attempt.attempt)
        .execution_options(yield_per=chunk)
    )
    current: int | None = None
    planned: int | None = None
    turn = 0
    rows: list[Any] = []
    for conv, tp, t, aid, accepted in session.execute(stmt):
        if conv != current:
            if current is not None:
                yield planned, turn, rows
            current, planned, turn, rows = conv, tp, t, []
        if t != turn:
            turn, rows = t, []
        rows.append((aid, accepted))
    if current is not None:
        yield planned, turn, rows


def cut_conversations(session: Session, good: dict[int, bool], chunk: int = 2000) -> CutCount:
    """Conversations whose last present turn was refused on every attempt before the plan ended.

    Turns lost = ``turns_planned - blocking turn``. A cut is *unjust* when the reviewer
    judged good at least one of the refused attempts of the blocking turn.
    """
    out = CutCount()
    for planned, turn, rows in _last_turns(session, chunk):
        if planned is None or turn >= planned or any(acc for _, acc in rows):
            continue
        lost = planned - turn
        out.conversations += 1
        out.turns_lost += lost
        if any(good.get(aid) for aid, _ in rows):
            out.unjust_conversations += 1
            out.unjust_turns_lost += lost
    return out


def feedback_stats(session: Session, reviewer: str | None = None) -> dict[str, Any]:
    """The figures ``reviewer stats --json`` adds: agreement, refusals per cause, cuts."""
    agreed = agreement(session, reviewer)
    causes = refusals_by_cause(session, agreed.good)
    cut = cut_conversations(session, agreed.good)
    return {
        "agreement": agreed.as_dict(),
        "refusals_by_cause": {k: vars(v) for k, v in causes.items()},
        "cut": vars(cut),
    }


def summary_lines(stats: dict[str, Any]) -> Iterable[str]:
    """A few human-readable lines of the feedback figures."""
    agreed = stats["agreement"]
    overall = agreed["overall"]

    def fmt(x: float | None, pct: bool = True) -> str:
        if x is None:
            return "n/a"
        return f"{x:.0%}" if pct else f"{x:.2f}"

    yield (f"agreement: {agreed['audited']} audited, kappa {fmt(overall['kappa'], False)}, "
           f"false-failure rate {fmt(overall['false_failure_rate'])}, "
           f"coverage {fmt(overall['coverage'])}")
    if agreed["warning"]:
        yield f"warning: {agreed['warning']}"
    for cause, c in stats["refusals_by_cause"].items():
        yield f"refusals {cause}: {c['refusals']} ({c['reviewed']} reviewed, " \
              f"{c['overturned']} overturned)"
    cut = stats["cut"]
    yield (f"cut conversations: {cut['conversations']} ({cut['turns_lost']} turns lost), "
           f"by unjust refusals: {cut['unjust_conversations']} "
           f"({cut['unjust_turns_lost']} turns lost)")
