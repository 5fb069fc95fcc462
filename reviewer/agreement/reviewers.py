"""How much the reviewers agree with each other (team mode).

Two readings, each on the attempts at least two reviewers decided:

* the decision (accept / reject) of each reviewer;
* per criterion, each reviewer's *effective verdict*: their override when they set one,
  else the judge's verdict after second opinions (deciding an attempt without touching a
  criterion means accepting the judge's reading of it).

Figures: Cohen's kappa for every pair of reviewers (on the attempts both decided) and
Krippendorff's alpha (nominal) over everyone, from the ``krippendorff`` package. A figure
is None when it is undefined: nothing in common, or a single category used throughout
(chance agreement is then 1 and the ratio 0/0).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from models import ReviewDecision
from reviewer.rule.replay import Overrides, effective_verdicts, load_attempts

# ratings[unit][reviewer] = category
Ratings = Mapping[Any, Mapping[str, Hashable]]


def cohen_kappa(first: Sequence[Hashable], second: Sequence[Hashable]) -> float | None:
    """Cohen's kappa of two raters on the same units: (p_o - p_e) / (1 - p_e)."""
    n = len(first)
    if n == 0 or n != len(second):
        return None
    observed = sum(a == b for a, b in zip(first, second, strict=True)) / n
    count_a, count_b = Counter(first), Counter(second)
    expected = sum(count_a[c] * count_b[c] for c in count_a.keys() | count_b.keys()) / (n * n)
    if math.isclose(expected, 1.0):
        return None
    return (observed - expected) / (1.0 - expected)


def krippendorff_alpha(ratings: Ratings) -> float | None:
    """Krippendorff's alpha (nominal); units rated by fewer than two reviewers do not count."""
    units = [u for u, by in ratings.items() if len(by) >= 2]
    categories = sorted({c for u in units for c in ratings[u].values()}, key=repr)
    if len(categories) < 2:
        return None
    # Imported here: numpy and krippendorff were an eighth of the app's start-up.
    import krippendorff
    import numpy as np

    code = {c: float(i) for i, c in enumerate(categories)}
    raters = sorted({r for u in units for r in ratings[u]})
    data = np.full((len(raters), len(units)), np.nan)
    for j, unit in enumerate(units):
        for i, rater in enumerate(raters):
            if rater in ratings[unit]:
                data[i, j] = code[ratings[unit][rater]]
    value = float(krippendorff.alpha(reliability_data=data, level_of_measurement="nominal"))
    return None if math.isnan(value) else value


@dataclass(frozen=True, slots=True)
class PairAgreement:
    """Two reviewers on the units both rated."""

    first: str
    second: str
    units: int
    observed: float | None
    kappa: float | None


@dataclass(frozen=True, slots=True)
class Agreement:
    """Agreement figures for one reading (the decision, or one criterion)."""

    units: int
    alpha: float | None
    pairs: tuple[PairAgreement, ...]

    def as_json(self) -> dict[str, Any]:
        """Rounded figures for ``stats --json``."""
        return {
            "units": self.units,
            "alpha": _round(self.alpha),
            "pairs": [
                {"a": p.first, "b": p.second, "units": p.units,
                 "observed": _round(p.observed), "kappa": _round(p.kappa)}
                for p in self.pairs
            ],
        }


@dataclass(frozen=True, slots=True)
class ReviewerAgreement:
    """Everything the agreement dashboard shows."""

    decided: dict[str, int]
    decision: Agreement
    criteria: dict[str, Agreement] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        """The ``"reviewers"`` entry of ``reviewer stats --json``."""
        return {
            "decided": dict(self.decided),
            "decision": self.decision.as_json(),
            "criteria": {k: v.as_json() for k, v in self.criteria.items()},
        }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def agreement(ratings: Ratings) -> Agreement:
    """Pairwise kappas and the overall alpha of one set of ratings."""
    raters = sorted({r for by in ratings.values() for r in by})
    pairs = []
    for a, b in combinations(raters, 2):
        shared = [u for u, by in ratings.items() if a in by and b in by]
        first = [ratings[u][a] for u in shared]
        second = [ratings[u][b] for u in shared]
        observed = (sum(x == y for x, y in zip(first, second, strict=True)) / len(shared)
                    if shared else None)
        pairs.append(PairAgreement(a, b, len(shared), observed, cohen_kappa(first, second)))
    units = sum(1 for by in ratings.values() if len(by) >= 2)
    return Agreement(units, krippendorff_alpha(ratings), tuple(pairs))


def reviewer_agreement(session: Session) -> ReviewerAgreement:
    """Agreement between reviewers on decisions and, per criterion, on effective verdicts."""
    rows = list(session.scalars(
        select(ReviewDecision).where(ReviewDecision.decision.is_not(None))
    ))
    decided = Counter(r.reviewer for r in rows)
    decisions: dict[int, dict[str, Hashable]] = defaultdict(dict)
    for r in rows:
        decisions[r.attempt_id][r.reviewer] = r.decision
    shared = {aid for aid, by in decisions.items() if len(by) >= 2}
    per_criterion: dict[str, dict[int, dict[str, Hashable]]] = defaultdict(
        lambda: defaultdict(dict))
    by_attempt = {a.id: a for a in load_attempts(session, sorted(shared))}
    for r in rows:
        if r.attempt_id not in shared:
            continue
        outcomes = effective_verdicts(by_attempt[r.attempt_id].verdicts,
                                      overrides=Overrides(criteria=dict(r.criteria or {})))
        for outcome in outcomes:
            per_criterion[outcome.criterion_id][r.attempt_id][r.reviewer] = outcome.met
    return ReviewerAgreement(
        decided=dict(sorted(decided.items())),
        decision=agreement(decisions),
        criteria={c: agreement(per_criterion[c]) for c in sorted(per_criterion)},
    )


def summary_lines(figures: ReviewerAgreement) -> list[str]:
    """Human-readable lines for ``reviewer stats`` (nothing with fewer than two reviewers)."""
    if len(figures.decided) < 2:
        return []

    def fmt(x: float | None) -> str:
        return "n/a" if x is None else f"{x:.2f}"

    d = figures.decision
    lines = [f"reviewers: {', '.join(f'{k} ({v})' for k, v in figures.decided.items())}",
             f"reviewer agreement on decisions: alpha {fmt(d.alpha)} over {d.units} attempts"]
    lines += [f"  {p.first} / {p.second}: kappa {fmt(p.kappa)} on {p.units}" for p in d.pairs]
    lines += [f"  criterion {c}: alpha {fmt(a.alpha)} over {a.units}"
              for c, a in figures.criteria.items()]
    return lines
