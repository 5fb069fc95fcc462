"""Replaying the filter rule on stored attempts, with second opinions and overrides.

The rule itself lives in ``reviewer.rule.filter`` (``decide``, ``refuses``) and how a
verdict's layers combine in ``reviewer.rule.verdicts.effective_verdict``; this module only
turns stored rows into their inputs:

1. the imported (first-opinion) verdicts and check results;
2. second opinions (``origin='second_opinion'``, the latest per criterion);
3. a reviewer's overrides: a criterion set to met/unmet, a check hit marked false positive.

Check results: an attempt holds its imported result per check and, once a new version
of a check was saved, that version's result too (evaluated again on every stored
response). The rule reads one per check: the imported one, or the newest version's when
the reviewer asks how the filter decides with the current checks.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from models import Attempt, CheckResult, ReviewDecision, Verdict
from reviewer.rule.filter import CheckOutcome, Decision, VerdictOutcome, decide
from reviewer.rule.verdicts import EffectiveVerdict, Opinion, effective_verdict

FALSE_POSITIVE = "false_positive"


@dataclass(frozen=True, slots=True)
class Overrides:
    """A reviewer's changes to what the grader said (empty = replay the grader as is)."""

    criteria: Mapping[str, bool] = field(default_factory=dict)
    checks: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, decision: ReviewDecision | None) -> Overrides:
        """The overrides stored in a review decision (none when there is no decision)."""
        if decision is None:
            return cls()
        return cls(dict(decision.criteria or {}), dict(decision.checks or {}))


def first_opinions(verdicts: Iterable[Verdict]) -> list[Verdict]:
    """The imported verdicts, in record order."""
    return sorted((v for v in verdicts if v.origin == "filter"), key=lambda v: v.position)


def second_opinions(verdicts: Iterable[Verdict]) -> dict[str, Verdict]:
    """The latest applied second opinion per criterion id (the guard's "unreliable — not
    applied" ones are stored and shown, never used)."""
    out: dict[str, Verdict] = {}
    for v in sorted((v for v in verdicts if v.origin == "second_opinion" and v.applied),
                    key=lambda v: v.id):
        out[v.criterion_version.criterion_id] = v
    return out


def opinion(verdict: Verdict) -> Opinion:
    """What a stored verdict said."""
    return Opinion(verdict.met, verdict.rationale, verdict.model)


def effective_rows(
    verdicts: Iterable[Verdict], *, use_second_opinions: bool = True,
    overrides: Overrides | None = None,
) -> list[tuple[Verdict, EffectiveVerdict]]:
    """Each first-opinion verdict row, in record order, with its effective verdict."""
    verdicts = list(verdicts)
    seconds = second_opinions(verdicts) if use_second_opinions else {}
    chosen = overrides.criteria if overrides else {}
    out = []
    for v in first_opinions(verdicts):
        cv = v.criterion_version
        cid = cv.criterion_id
        second = seconds.get(cid)
        override = chosen.get(cid)
        out.append((v, effective_verdict(
            cid, "success" if cv.kind == "success" else "failure", cv.severity, opinion(v),
            None if second is None else opinion(second),
            None if override is None else bool(override))))
    return out


def effective_verdicts(
    verdicts: Iterable[Verdict], *, use_second_opinions: bool = True,
    overrides: Overrides | None = None,
) -> list[EffectiveVerdict]:
    """Each first-opinion verdict, in record order, with its second opinion and override."""
    return [e for _, e in effective_rows(verdicts, use_second_opinions=use_second_opinions,
                                         overrides=overrides)]


def verdict_outcomes(
    verdicts: Iterable[Verdict], *, use_second_opinions: bool = True,
    overrides: Overrides | None = None,
) -> list[VerdictOutcome]:
    """The verdicts the rule sees, after second opinions and overrides, as plain inputs."""
    return [e.outcome for e in effective_verdicts(
        verdicts, use_second_opinions=use_second_opinions, overrides=overrides)]


def _per_check(results: Iterable[CheckResult], newest: bool) -> list[CheckResult]:
    """One result per check, in record order: its lowest or its highest version's."""
    chosen: dict[str, CheckResult] = {}
    for r in results:
        cid, seen = r.check_version.check_id, chosen.get(r.check_version.check_id)
        if seen is None or (r.check_version.version > seen.check_version.version) == newest:
            chosen[cid] = r
    return sorted(chosen.values(), key=lambda r: r.position)


def imported_results(results: Iterable[CheckResult]) -> list[CheckResult]:
    """Each check's result under the version the filter ran: the lowest version stored
    for the attempt (a saved version is evaluated again on every stored response,
    ``reviewer.revise.recheck``, and only ever adds newer versions' results)."""
    return _per_check(results, newest=False)


def current_results(results: Iterable[CheckResult]) -> list[CheckResult]:
    """Each check's result under the newest version evaluated on the attempt (the
    imported one when no later version was evaluated)."""
    return _per_check(results, newest=True)


def check_outcomes(
    results: Iterable[CheckResult], *, overrides: Overrides | None = None,
    current: bool = False,
) -> list[CheckOutcome]:
    """The check results the rule sees, one per check: the imported ones, or with
    ``current`` the newest versions' (see ``current_results``); a hit marked false
    positive counts as passed."""
    marked = overrides.checks if overrides else {}
    return [
        CheckOutcome(
            r.check_version.check_id,
            r.passed or marked.get(r.check_version.check_id) == FALSE_POSITIVE,
            r.check_version.description,
        )
        for r in (current_results(results) if current else imported_results(results))
    ]


def replay(
    attempt: Attempt, *, use_second_opinions: bool = True, overrides: Overrides | None = None,
    current_checks: bool = False,
) -> Decision:
    """The filter's decision on a stored attempt under the chosen layers; with
    ``current_checks``, each check as its newest evaluated version says."""
    return decide(
        check_outcomes(attempt.check_results, overrides=overrides, current=current_checks),
        effective_verdicts(attempt.verdicts, use_second_opinions=use_second_opinions,
                           overrides=overrides),
    )


def imported_decision(attempt: Attempt) -> Decision:
    """The rule replayed on exactly what was imported (no second opinion, no override)."""
    return replay(attempt, use_second_opinions=False)


def load_attempts(session: Session, ids: Iterable[int]) -> list[Attempt]:
    """Attempts with everything a replay needs, in one round of queries."""
    stmt: Any = (
        select(Attempt)
        .where(Attempt.id.in_(list(ids)))
        .options(
            selectinload(Attempt.verdicts).selectinload(Verdict.criterion_version),
            selectinload(Attempt.check_results).selectinload(CheckResult.check_version),
        )
        .order_by(Attempt.id)
    )
    return list(session.scalars(stmt))
