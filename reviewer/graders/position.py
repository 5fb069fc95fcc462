"""Position bias of the group judge: judge one group in several orders and compare.

The group judge reads the N answers of a prompt at once, and LLM judges favour positions
(MT-Bench: GPT-4 consistent on swapped order only 65 % of the time). Here a group is
judged in K orders, the notes are mapped back to the answers, and two figures say how
much the order mattered:

* per answer, the **spread** of its score across the orders (max − min);
* per group, the **position consistency**: the share of answer pairs whose order
  (better, worse or tied, on scores rounded to 9 decimals) is the same in every order.
  1 means the order never changed the ranking. Undefined for a single answer.

Orders: the first is always the file's order (what ``reviewer grade`` judges). ``rotate``
then shifts the list by ``k·N/K`` places (rounded down), so with K = N every answer is
shown once at every position; ``shuffle`` draws seeded random permutations (a group's
orders depend only on the seed and the group's label). A group of N answers has at most
N distinct rotations and N! permutations; orders are never repeated, so a small group
may get fewer than K calls (:func:`orders_for` says how many).

``debias="mean"`` uses the mean over the orders as the judge's score of each answer;
otherwise the first order's score is used.

This module calls :meth:`Judge.grade_group` with permuted answers: the judge itself is
unchanged.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Literal

from reviewer.errors import BadInputError
from reviewer.graders.judge import Judge, JudgeNotes
from reviewer.graders.ranking import rounded

OrderMode = Literal["rotate", "shuffle"]
Debias = Literal["none", "mean"]
ORDER_MODES: tuple[OrderMode, ...] = ("rotate", "shuffle")
DEBIAS: tuple[Debias, ...] = ("none", "mean")

Order = tuple[int, ...]  # answer indexes in the order they are shown to the judge
MAX_ORDERS = 16
"""The most orders a group is judged in (``--orders``): every rotation of a GRPO group
of 16 answers, one judge call per group each. Unbounded, ``--orders 10^400`` announced
that many calls (ninth hostile pass Q4), and ``shuffle`` on a group of more than 12
answers drew permutations until it had that many."""


def orders_for(n: int, k: int, mode: OrderMode = "rotate", *, seed: int = 0,
               label: str = "") -> list[Order]:
    """The (at most ``k``) distinct orders in which a group of ``n`` answers is judged."""
    if not 1 <= k <= MAX_ORDERS:
        raise BadInputError(f"--orders must be a whole number from 1 to {MAX_ORDERS}")
    if mode not in ORDER_MODES:
        raise BadInputError(f"unknown order mode {mode!r} (choose: {', '.join(ORDER_MODES)})")
    identity = tuple(range(n))
    if n < 2:
        return [identity]
    if mode == "rotate":
        shifts = range(n) if k >= n else [(i * n) // k for i in range(k)]
        return [identity[s:] + identity[:s] for s in shifts]
    wanted = min(k, math.factorial(n)) if n <= 12 else k
    found: list[Order] = [identity]
    rng = random.Random(f"{seed}:{label}")
    while len(found) < wanted:
        order = list(identity)
        rng.shuffle(order)
        if tuple(order) not in found:
            found.append(tuple(order))
    return found


def calls_needed(sizes: Sequence[int], k: int, mode: OrderMode = "rotate") -> int:
    """How many judge calls judging groups of these sizes in ``k`` orders costs."""
    return sum(len(orders_for(n, k, mode)) if n else 0 for n in sizes)


@dataclass(frozen=True)
class PositionRun:
    """One group judged in several orders; ``notes[o][a]`` is answer ``a``'s notes in
    order ``o`` (mapped back to the file's order)."""

    orders: tuple[Order, ...]
    notes: tuple[tuple[JudgeNotes, ...], ...]

    @property
    def scores(self) -> list[list[float]]:
        """``scores[o][a]``: answer ``a``'s judge score when shown in order ``o``."""
        return [[n.score for n in by_answer] for by_answer in self.notes]

    def answer_scores(self, answer: int) -> list[float]:
        """Answer ``answer``'s score in each order."""
        return [row[answer] for row in self.scores]

    def spread(self) -> list[float]:
        """Per answer, max − min of its score over the orders."""
        columns = zip(*(rounded(row) for row in self.scores), strict=True)
        return [round(max(c) - min(c), 9) for c in columns]

    def consistency(self) -> float | None:
        """Share of answer pairs ordered alike in every order; None for one answer."""
        table = [rounded(row) for row in self.scores]
        n = len(table[0]) if table else 0
        pairs = list(combinations(range(n), 2))
        if not pairs:
            return None
        same = sum(len({_relation(row[i], row[j]) for row in table}) == 1 for i, j in pairs)
        return same / len(pairs)

    def mean_scores(self) -> list[float]:
        """Per answer, the mean of its scores over the orders (``--debias mean``)."""
        return [statistics.fmean(c) for c in zip(*self.scores, strict=True)]

    def judge_scores(self, debias: Debias) -> list[float]:
        """The judge's score per answer: the first order's, or the mean over orders."""
        return self.mean_scores() if debias == "mean" else list(self.scores[0])

    def first_notes(self) -> list[JudgeNotes]:
        """The notes of the file's order (the order ``reviewer grade`` uses)."""
        return list(self.notes[0])

    def as_dict(self) -> dict[str, Any]:
        """JSON view: orders, scores per order (in answer order), spread, consistency."""
        return {
            "orders": [list(o) for o in self.orders],
            "scores": self.scores,
            "spread": self.spread(),
            "consistency": self.consistency(),
        }


def _relation(a: float, b: float) -> int:
    return (a > b) - (a < b)


def judge_in_orders(
    judge: Judge,
    prompt: str | Sequence[dict[str, Any]] | None,
    reference: str | None,
    responses: Sequence[str],
    orders: Sequence[Order],
) -> PositionRun:
    """Judge ``responses`` once per order and map every note back to its answer."""
    runs: list[tuple[JudgeNotes, ...]] = []
    for order in orders:
        shown = judge.grade_group(prompt, reference, [responses[a] for a in order])
        by_answer: list[JudgeNotes | None] = [None] * len(responses)
        for position, answer in enumerate(order):
            by_answer[answer] = shown[position]
        runs.append(tuple(n for n in by_answer if n is not None))
    return PositionRun(tuple(orders), tuple(runs))
