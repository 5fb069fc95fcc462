"""A 2×2 confusion of grader vs reviewer, with Cohen's kappa and EvalGen-style rates.

"Positive" means *fail*: the grader refuses (a check fails, a criterion goes against the
answer) and the reviewer says the answer is bad on that point.

* ``tp`` caught: grader fails, reviewer says bad;
* ``fp`` false failure: grader fails, reviewer says good;
* ``fn`` miss: grader passes, reviewer says bad;
* ``tn`` grader passes, reviewer says good.

``false_failure_rate = fp / (fp + tn)`` (share of the reviewer's good answers the grader
refused), ``coverage = tp / (tp + fn)`` (share of the bad answers it caught), and
Cohen's kappa ``(po - pe) / (1 - pe)`` with ``po = (tp + tn) / n`` and
``pe = ((tp + fp)(tp + fn) + (fn + tn)(fp + tn)) / n²``. A rate whose denominator is zero
is None ("cannot be known"), never 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


def ratio(num: int, den: int) -> float | None:
    """``num / den``, or None when there is nothing to divide by."""
    return num / den if den else None


@dataclass(slots=True)
class Confusion:
    """Counts of grader (fail/pass) against reviewer (bad/good)."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0

    def add(self, grader_fails: bool, reviewer_bad: bool) -> None:
        """Count one labelled case."""
        if grader_fails and reviewer_bad:
            self.tp += 1
        elif grader_fails:
            self.fp += 1
        elif reviewer_bad:
            self.fn += 1
        else:
            self.tn += 1

    @property
    def n(self) -> int:
        """How many labelled cases."""
        return self.tp + self.fp + self.fn + self.tn

    @property
    def false_failure_rate(self) -> float | None:
        """Share of the reviewer's good answers that the grader refused."""
        return ratio(self.fp, self.fp + self.tn)

    @property
    def coverage(self) -> float | None:
        """Share of the reviewer's bad answers that the grader caught (recall)."""
        return ratio(self.tp, self.tp + self.fn)

    @property
    def precision(self) -> float | None:
        """Share of the grader's refusals the reviewer agreed with."""
        return ratio(self.tp, self.tp + self.fp)

    @property
    def agreement(self) -> float | None:
        """Observed agreement ``po``."""
        return ratio(self.tp + self.tn, self.n)

    @property
    def kappa(self) -> float | None:
        """Cohen's kappa; None when chance agreement is total (both raters constant)."""
        n = self.n
        if not n:
            return None
        po = (self.tp + self.tn) / n
        pe = ((self.tp + self.fp) * (self.tp + self.fn)
              + (self.fn + self.tn) * (self.fp + self.tn)) / (n * n)
        if pe >= 1.0:
            return None
        return (po - pe) / (1.0 - pe)

    def as_dict(self, *, coverage_known: bool = True) -> dict[str, Any]:
        """The counts and figures, for JSON (coverage None when it cannot be known)."""
        return {
            "caught": self.tp,
            "false_failures": self.fp,
            "misses": self.fn,
            "agreed_passes": self.tn,
            "labelled": self.n,
            "kappa": self.kappa,
            "false_failure_rate": self.false_failure_rate,
            "coverage": self.coverage if coverage_known else None,
            "precision": self.precision,
            "agreement": self.agreement,
        }
