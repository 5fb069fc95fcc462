"""Weighted mixes of grader scores.

A component that returns None (the numbers grader on a reference without figures) is left
out and the other weights are rescaled, so judge + numbers falls back to the judge alone.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from reviewer.errors import BadInputError
from reviewer.text_rules import comma_items

JUDGE_SIMILARITY: dict[str, float] = {"judge": 0.7, "rouge_l": 0.3}
JUDGE_NUMBERS: dict[str, float] = {"judge": 0.5, "numeric": 0.5}


def weighted(scores: Mapping[str, float | None], weights: Mapping[str, float]) -> float | None:
    """Weighted mean of the scores that are not None; None when none is left."""
    present = {name: w for name, w in weights.items() if w and scores.get(name) is not None}
    total = sum(present.values())
    if not present or total <= 0:
        return None
    return sum(w * float(scores[name] or 0.0) for name, w in present.items()) / total


def judge_plus_similarity(judge: float, similarity: float) -> float:
    """70 % judge, 30 % ROUGE-L similarity."""
    return 0.7 * judge + 0.3 * similarity


def judge_plus_numbers(judge: float, numbers: float | None) -> float:
    """50 % judge, 50 % numbers; the judge alone when the reference has no figure."""
    return judge if numbers is None else 0.5 * judge + 0.5 * numbers


def parse_weights(text: str, known: set[str] | frozenset[str]) -> dict[str, float]:
    """``"judge=0.6,rouge_l=0.4"`` → ``{"judge": 0.6, "rouge_l": 0.4}``, checked: the
    one parser of ``grade --weights`` and ``lint-graders --weights``. An empty item or a
    name given twice is refused (``exact=1,,`` was accepted, ``exact=1,exact=2`` summed)."""
    weights: dict[str, float] = {}
    for item in comma_items(text, "--weights"):
        name, sep, value = item.partition("=")
        name = name.strip()
        if not sep or name not in known:
            raise BadInputError(
                f"bad weight {item!r}: use NAME=WEIGHT with NAME among {', '.join(sorted(known))}"
            )
        try:
            weight = float(value)
        except ValueError:
            raise BadInputError(f"bad weight {item!r}: {value.strip()!r} is not a number") from None
        if not math.isfinite(weight) or weight < 0:
            raise BadInputError(f"bad weight {item!r}: weights are finite and ≥ 0")
        if name in weights:
            raise BadInputError(f"bad weight {item!r}: {name} is given twice")
        weights[name] = weight
    if sum(weights.values()) <= 0:
        raise BadInputError("--weights needs at least one positive weight")
    return weights
