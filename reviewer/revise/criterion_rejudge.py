"""Re-judging the attempts a criterion touched, under a new wording of that criterion.

After a criterion gets a new version (``reviewer.catalog.add_criterion_version``), every
attempt the filter judged on that criterion is put to the judge again with the new text,
the criterion alone (a success criterion with the ``second_avis`` template, a failure
criterion with the ``juge`` template holding only it). Each answer is stored at once as
a verdict with ``origin='rejudge'`` under the new version, so an interrupted run keeps
what arrived and a rerun asks only what is missing.

The report lists the *flips*: attempts whose verdict on this criterion changed, and
whether the filter's decision would change with the new verdict in place of the old one
(the old one being the first opinion after any second opinion, as the replay reads it).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial

from sqlalchemy import distinct, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from models import CriterionVersion, Verdict
from reviewer.catalog.versions import current_criterion_versions
from reviewer.errors import BadInputError, JudgeError
from reviewer.judge.client import JudgeClient, JudgeFault
from reviewer.judge.prompts import JUDGE, SECOND_OPINION, Case, CaseCriterion, current_template
from reviewer.judge.prompts import render as render_prompt
from reviewer.judge.schema import read_verdicts, verdicts_schema
from reviewer.judge.second_opinion import attempt_key
from reviewer.rule.filter import Kind, decide
from reviewer.rule.replay import check_outcomes, load_attempts, replay, verdict_outcomes
from reviewer.store import Store

ORIGIN = "rejudge"
Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class Flip:
    """One attempt whose verdict on the criterion changed under the new wording."""

    key: str
    old_met: bool
    new_met: bool
    old_accepted: bool
    new_accepted: bool
    rationale: str


@dataclass
class RejudgeReport:
    """What a re-judging run did."""

    criterion_id: str
    version: int
    total: int = 0
    asked: int = 0
    reused: int = 0
    same: int = 0
    flips: list[Flip] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)
    stopped: str = ""
    cancelled: bool = False

    def summary(self) -> str:
        """One line for the CLI or the status bar."""
        decisions = sum(f.old_accepted != f.new_accepted for f in self.flips)
        text = (f"{self.criterion_id} v{self.version}: {self.total} attempts, "
                f"{len(self.flips)} verdicts flipped ({decisions} decisions), "
                f"{self.same} unchanged, {len(self.failed)} failed")
        if self.cancelled:
            text += ", cancelled"
        if self.stopped:
            text += f", stopped: {self.stopped}"
        return text


def touched_attempt_ids(session: Session, criterion_id: str) -> list[int]:
    """Attempts the filter judged on any version of this criterion, in id order."""
    return list(session.scalars(
        select(Verdict.attempt_id)
        .join(CriterionVersion, Verdict.criterion_version_id == CriterionVersion.id)
        .where(CriterionVersion.criterion_id == criterion_id, Verdict.origin == "filter")
        .distinct().order_by(Verdict.attempt_id)
    ))


def touched_counts(session: Session) -> dict[str, int]:
    """How many attempts the filter judged on each criterion (one grouped query)."""
    rows = session.execute(
        select(CriterionVersion.criterion_id, func.count(distinct(Verdict.attempt_id)))
        .join(CriterionVersion, Verdict.criterion_version_id == CriterionVersion.id)
        .where(Verdict.origin == "filter")
        .group_by(CriterionVersion.criterion_id)
    )
    return {cid: int(n) for cid, n in rows}


@dataclass(frozen=True)
class _Plan:
    key: str
    old_met: bool
    old_accepted: bool
    new_accepted: Callable[[bool], bool]
    existing: Verdict | None
    messages: list[dict[str, str]]
    position: int
    label: str


def _plan(session: Session, attempt_id: int, cv: CriterionVersion) -> _Plan | None:
    found = load_attempts(session, [attempt_id])
    if not found:
        return None
    attempt = found[0]
    outcomes = verdict_outcomes(attempt.verdicts)
    old = next((v for v in outcomes if v.criterion_id == cv.criterion_id), None)
    if old is None:
        return None
    checks = check_outcomes(attempt.check_results)
    kind: Kind = "success" if cv.kind == "success" else "failure"

    def new_accepted(met: bool) -> bool:
        changed = [replace(v, met=met, kind=kind, severity=cv.severity)
                   if v.criterion_id == cv.criterion_id else v for v in outcomes]
        return decide(checks, changed).accepted

    existing = session.scalar(select(Verdict).where(
        Verdict.attempt_id == attempt_id, Verdict.criterion_version_id == cv.id,
        Verdict.origin == ORIGIN))
    template = current_template(session, SECOND_OPINION if cv.kind == "success" else JUDGE)
    case = Case(list(attempt.messages), attempt.response,
                (CaseCriterion(cv.criterion_id, cv.kind, cv.text),))
    position = next((v.position for v in attempt.verdicts
                     if v.criterion_version.criterion_id == cv.criterion_id), 0)
    return _Plan(attempt_key(session, attempt), old.met, replay(attempt).accepted,
                 new_accepted, existing, render_prompt(template, case), position,
                 template.label)


def rejudge_criterion(
    store: Store,
    client: JudgeClient,
    criterion_id: str,
    *,
    attempt_ids: list[int] | None = None,
    progress: Progress | None = None,
    cancel: threading.Event | None = None,
) -> RejudgeReport:
    """Judge the touched attempts again under the criterion's current version."""
    with store.session() as session:
        cv = current_criterion_versions(session).get(criterion_id)
        if cv is None:
            raise BadInputError(f"unknown criterion {criterion_id!r}")
        ids = attempt_ids if attempt_ids is not None else touched_attempt_ids(session,
                                                                             criterion_id)
        session.expunge(cv)
    report = RejudgeReport(criterion_id, cv.version, total=len(ids))
    for n, attempt_id in enumerate(ids, start=1):
        if cancel is not None and cancel.is_set():
            report.cancelled = True
            break
        if not _one(store, client, cv, attempt_id, report):
            break
        if progress is not None:
            progress(n, len(ids))
    return report


def _one(store: Store, client: JudgeClient, cv: CriterionVersion, attempt_id: int,
         report: RejudgeReport) -> bool:
    """Judge one attempt; False when the batch must stop (a fault every call would hit)."""
    with store.session() as session:
        plan = _plan(session, attempt_id, cv)
        if plan is None:
            return True
        existing = (plan.existing.met, plan.existing.rationale) if plan.existing else None
    if existing is not None:
        met, rationale = existing
        report.reused += 1
    else:
        ids = [cv.criterion_id]
        try:
            data, request_id = client.chat_json(
                plan.messages, verdicts_schema(ids), store=store,
                validate=partial(read_verdicts, criterion_ids=ids), label=plan.label)
        except JudgeError as exc:
            report.failed.append((plan.key, str(exc)))
            if isinstance(exc, JudgeFault) and exc.fatal:
                report.stopped = str(exc)
                return False
            return True
        judged = read_verdicts(data, ids)[cv.criterion_id]
        met, rationale = judged.met, judged.rationale
        report.asked += 1
        _save(store, attempt_id, cv, plan.position, met, rationale, client.model, request_id)
    if met == plan.old_met:
        report.same += 1
    else:
        report.flips.append(Flip(plan.key, plan.old_met, met, plan.old_accepted,
                                 plan.new_accepted(met), rationale))
    return True


def _save(store: Store, attempt_id: int, cv: CriterionVersion, position: int, met: bool,
          rationale: str, model: str, request_id: int | None) -> None:
    try:
        with store.session() as session:
            session.add(Verdict(attempt_id=attempt_id, criterion_version_id=cv.id,
                                origin=ORIGIN, position=position, met=met,
                                rationale=rationale, model=model, request_id=request_id))
    except IntegrityError:
        pass  # another run stored this verdict first; one is enough
