"""The filter's acceptance rule, kept in one place so every feature replays it the same way.

An attempt is rejected iff
  * a deterministic check failed, or
  * a failure criterion (``E-…``) of severity ``major`` was judged "oui" (the answer commits it), or
  * a success criterion (``G-…``) was judged "non" (the answer does not do it).

Reasons are written the way the filter wrote them, in the order the outcomes come in
(checks first, then verdicts, each in record order), so a replay reproduces the imported
``reasons`` exactly:

  * ``"D-COMMERCE échoué : <check description>"``
  * ``"E-INVENTE relevé : <rationale>"``
  * ``"G-DEMANDE non tenu : <rationale>"``
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

Kind = Literal["success", "failure"]

CHECK_FAILED = "échoué"
FAILURE_FOUND = "relevé"
SUCCESS_UNMET = "non tenu"
MAJOR = "major"


@dataclass(frozen=True, slots=True)
class CheckOutcome:
    """One deterministic check's result on an attempt."""

    check_id: str
    passed: bool
    description: str = ""


@dataclass(frozen=True, slots=True)
class VerdictOutcome:
    """One judge verdict: ``met`` is True when the judge said "oui"."""

    criterion_id: str
    kind: Kind
    met: bool
    rationale: str = ""
    severity: str | None = None


class RuleVerdict(Protocol):
    """What the rule reads of a verdict (a ``VerdictOutcome``, an ``EffectiveVerdict``)."""

    @property
    def criterion_id(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def met(self) -> bool: ...
    @property
    def rationale(self) -> str: ...
    @property
    def severity(self) -> str | None: ...


@dataclass(frozen=True, slots=True)
class Decision:
    """What the filter decides for one attempt, with the reasons it would print."""

    accepted: bool
    reasons: tuple[str, ...]

    @property
    def only_unmet_successes(self) -> bool:
        """True when every refusal reason is an unmet success criterion.

        This is the seed's condition for asking a second opinion: if a check or a failure
        criterion already refuses the answer, re-judging a success criterion cannot save it.
        """
        return bool(self.reasons) and all(f" {SUCCESS_UNMET} : " in r for r in self.reasons)


def reason_for_check(check: CheckOutcome) -> str:
    """The reason line the filter writes for a failed check."""
    return f"{check.check_id} {CHECK_FAILED} : {check.description}"


def refuses(kind: str, met: bool, severity: str | None) -> bool:
    """Whether a verdict refuses the attempt: THE rule for one verdict.

    A success criterion refuses when judged "non"; a failure criterion when judged "oui"
    and of severity ``major`` (a minor fault is noted, never a refusal).
    """
    if kind == "success":
        return not met
    return met and severity == MAJOR


def refusing_met(kind: str, severity: str | None) -> bool | None:
    """The verdict (``met``) that refuses on this criterion, None when none does (minor
    failures): for queries that must find the refusing verdicts in SQL."""
    for met in (False, True):
        if refuses(kind, met, severity):
            return met
    return None


def can_refuse(kind: str, severity: str | None) -> bool:
    """Whether some verdict on this criterion would refuse (every success, major failures)."""
    return refusing_met(kind, severity) is not None


def goes_against(kind: str, met: bool) -> bool:
    """Whether a verdict speaks against the answer, minor faults included (success "non",
    failure "oui"): the polarity the agreement figures count, wider than :func:`refuses`."""
    return met != (kind == "success")


def reason_for_verdict(verdict: RuleVerdict) -> str | None:
    """The reason line for a verdict that refuses the attempt, or None if it does not."""
    if not refuses(verdict.kind, verdict.met, verdict.severity):
        return None
    said = SUCCESS_UNMET if verdict.kind == "success" else FAILURE_FOUND
    return f"{verdict.criterion_id} {said} : {verdict.rationale}"


def decide(checks: Iterable[CheckOutcome], verdicts: Iterable[RuleVerdict]) -> Decision:
    """Apply the filter rule to one attempt's outcomes."""
    reasons: list[str] = [reason_for_check(c) for c in checks if not c.passed]
    for verdict in verdicts:
        line = reason_for_verdict(verdict)
        if line is not None:
            reasons.append(line)
    return Decision(accepted=not reasons, reasons=tuple(reasons))


def reason_ids(reasons: Sequence[str]) -> list[str]:
    """The check or criterion id that starts each reason line."""
    return [r.split(" ", 1)[0] for r in reasons]
