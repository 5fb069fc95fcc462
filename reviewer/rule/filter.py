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
from typing import Literal

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


def reason_for_verdict(verdict: VerdictOutcome) -> str | None:
    """The reason line for a verdict that refuses the attempt, or None if it does not."""
    if verdict.kind == "success" and not verdict.met:
        return f"{verdict.criterion_id} {SUCCESS_UNMET} : {verdict.rationale}"
    if verdict.kind == "failure" and verdict.met and verdict.severity == MAJOR:
        return f"{verdict.criterion_id} {FAILURE_FOUND} : {verdict.rationale}"
    return None


def decide(checks: Iterable[CheckOutcome], verdicts: Iterable[VerdictOutcome]) -> Decision:
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
