"""Does a grader order a group's answers as the person would? Pair statistics and GRPO
advantages over one group (no Qt, no store).

GRPO only uses the differences between the answers to one prompt, so agreement is
measured inside each group, on pairs of answers:

* **pairwise accuracy**: over the pairs whose human scores differ, the share the grader
  orders the same way, a grader tie counting 0.5; undefined (None) when the human ties
  every pair;
* **Kendall τ-b** between grader and human scores, ties corrected on both sides (the
  variant ``scipy.stats.kendalltau`` computes by default); undefined when either side is
  constant (or the group has one answer).

Grader scores are rounded to :data:`DECIMALS` decimals first, so float noise
(``0.1 + 0.2``) never orders two scores that are equal as written. Human scores are taken
as given: any number, higher is better, ties allowed.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterator, Sequence
from itertools import combinations

DECIMALS = 9
MAX_SCORE = 1e15
"""The largest magnitude of a human score (a grading file's ``"human"``, a score given in
the app). Any real scale fits far below; the advantages square the scores, and 1.7e308,
a float, overflowed there (ninth hostile pass T6). Whole numbers up to it are exact."""


def rounded(scores: Sequence[float]) -> list[float]:
    """Grader scores as compared: rounded to :data:`DECIMALS` decimals."""
    return [round(float(s), DECIMALS) for s in scores]


def _sign(x: float) -> int:
    return (x > 0) - (x < 0)


def human_pairs(human: Sequence[float]) -> Iterator[tuple[int, int]]:
    """Pairs ``(better, worse)`` of answer indexes whose human scores differ."""
    for i, j in combinations(range(len(human)), 2):
        if human[i] > human[j]:
            yield i, j
        elif human[j] > human[i]:
            yield j, i


def pairwise_accuracy(grader: Sequence[float], human: Sequence[float]) -> float | None:
    """Share of the human-ordered pairs the grader orders alike (a grader tie is 0.5)."""
    _check(grader, human)
    g = rounded(grader)
    points = [1.0 if g[a] > g[b] else 0.5 if g[a] == g[b] else 0.0 for a, b in human_pairs(human)]
    return sum(points) / len(points) if points else None


def inverted_pairs(grader: Sequence[float], human: Sequence[float]) -> list[tuple[int, int]]:
    """Pairs ``(better, worse)`` by the human that the grader puts the other way round."""
    _check(grader, human)
    g = rounded(grader)
    return [(a, b) for a, b in human_pairs(human) if g[a] < g[b]]


def tied_pairs(grader: Sequence[float], human: Sequence[float]) -> list[tuple[int, int]]:
    """Pairs ``(better, worse)`` by the human that the grader scores equal: no signal."""
    _check(grader, human)
    g = rounded(grader)
    return [(a, b) for a, b in human_pairs(human) if g[a] == g[b]]


def kendall_tau_b(grader: Sequence[float], human: Sequence[float]) -> float | None:
    """Kendall's τ-b of the two score lists; None when either is constant.

    τ-b = (C − D) / √((n₀ − n₁)(n₀ − n₂)) with C, D the concordant and discordant pairs,
    n₀ all pairs, n₁ and n₂ the pairs tied on each side. Counts are integers, so the only
    rounding is the final square root and division.
    """
    _check(grader, human)
    g = rounded(grader)
    concordant = discordant = tied_g = tied_h = 0
    pairs = 0
    for i, j in combinations(range(len(g)), 2):
        pairs += 1
        sg, sh = _sign(g[i] - g[j]), _sign(human[i] - human[j])
        tied_g += sg == 0
        tied_h += sh == 0
        if sg * sh > 0:
            concordant += 1
        elif sg * sh < 0:
            discordant += 1
    denominator = (pairs - tied_g) * (pairs - tied_h)
    if denominator == 0:
        return None
    return (concordant - discordant) / math.sqrt(denominator)


def advantages(scores: Sequence[float]) -> list[float]:
    """The group-relative advantages GRPO computes: (score − mean) ÷ standard deviation.

    The standard deviation is the sample one (N − 1), as TRL's ``GRPOTrainer`` computes it
    with ``torch.std``; the population one would only scale every advantage of the group
    by the same factor. When it is 0 (every score equal, or a single answer) every
    advantage is 0: the group teaches nothing (TRL divides by std + 1e-4, which gives 0
    too). Scores are rounded as for the pair statistics first, so float noise between
    equal scores is not blown up into ±0.7 advantages.
    """
    values = rounded(scores)
    if len(values) < 2:
        return [0.0] * len(values)
    std = statistics.stdev(values)
    if std == 0:
        return [0.0] * len(values)
    mean = statistics.fmean(values)
    return [(v - mean) / std for v in values]


def _check(grader: Sequence[float], human: Sequence[float]) -> None:
    if len(grader) != len(human):
        raise ValueError(f"{len(grader)} grader scores for {len(human)} human scores")
