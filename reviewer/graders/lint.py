"""Choosing a grader and warning about the seed's common mistakes on a given dataset.

Warnings (each with a stable ``code``):

* ``numbers-without-figures``: the numbers grader where many references have no figure;
  those rows are ignored (numbers alone) or judged alone (judge + numbers).
* ``similarity-on-free-text``: ROUGE-L alone (or dominant, without a judge) on free-text
  references: correct paraphrases are penalised, wrong answers reusing the words rewarded.
* ``same-model``: the policy model is also the judge: its blind spots count twice.
* ``small-judge``: a judge under 7B parameters (read from the model name) for scoring.
* ``all-or-nothing-on-free-text``: exact/contains on long expected values: all-or-nothing
  only works with a single verifiable answer.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from reviewer.graders.numbers import figures
from reviewer.graders.rows import Row
from reviewer.graders.tokenize import unicode_words
from reviewer.json_input import loads

FREE_TEXT_WORDS = 8  # median reference length from which answers are "free text"
SMALL_JUDGE_BILLIONS = 7.0


@dataclass(frozen=True)
class LintWarning:
    """One warning about a grader choice on a dataset."""

    code: str
    message: str


@dataclass(frozen=True)
class Profile:
    """What the lint needs to know about a dataset."""

    rows: int
    with_reference: int
    references_without_figures: int  # rows without a reference count here too
    median_reference_words: float
    median_expected_words: float
    json_references: int


def _median_words(texts: Sequence[str]) -> float:
    return float(statistics.median(len(unicode_words(t)) for t in texts)) if texts else 0.0


def _is_json(text: str) -> bool:
    try:
        return isinstance(loads(text), dict | list)
    except ValueError:
        return False


def profile(rows: Sequence[Row]) -> Profile:
    """Counts and lengths of a dataset's references and expected values."""
    references = [r.reference for r in rows if r.reference]
    expected = [r.expected for r in rows if isinstance(r.expected, str) and r.expected]
    return Profile(
        rows=len(rows),
        with_reference=len(references),
        references_without_figures=len(rows) - sum(1 for t in references if figures(t)),
        median_reference_words=_median_words(references),
        median_expected_words=_median_words(expected),
        json_references=sum(1 for t in references if _is_json(t)),
    )


def same_model(a: str, b: str) -> bool:
    """``qwen3:8b`` and ``Qwen3:8B`` are one model; so are ``llama3`` and ``llama3:latest``."""

    def norm(name: str) -> str:
        name = name.strip().lower()
        return name.removesuffix(":latest")

    return norm(a) == norm(b)


def model_billions(name: str) -> float | None:
    """Parameter count read from a model tag (``qwen3:8b`` → 8.0, ``…:35b-a3b`` → 35.0)."""
    match = re.search(r"(?<![\w.])(\d+(?:\.\d+)?)b(?![a-z])", name.lower().replace(":", " "))
    return float(match[1]) if match else None


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f} %" if whole else "0 %"


def lint(
    rows: Sequence[Row],
    weights: Mapping[str, float],
    *,
    judge_model: str | None = None,
    policy_model: str | None = None,
    threshold: float = 0.2,
) -> list[LintWarning]:
    """Warnings for grading ``rows`` with the components ``weights`` (see module doc).

    ``threshold`` is the share of rows without figures from which the numbers warning is
    given.
    """
    p = profile(rows)
    found: list[LintWarning] = []
    uses = {name for name, w in weights.items() if w > 0}
    without = p.references_without_figures
    if "numeric" in uses and p.rows and without / p.rows >= threshold:
        fate = (
            f"would be ignored: the run would learn from {p.rows - without} rows only"
            if uses == {"numeric"}
            else f"would be scored by {' + '.join(sorted(uses - {'numeric'}))} alone"
        )
        found.append(
            LintWarning(
                "numbers-without-figures",
                f"numbers grader: {without} of {p.rows} rows ({_pct(without, p.rows)}) "
                f"have no figure in their reference and {fate}",
            )
        )
    rouge_share = weights.get("rouge_l", 0.0) / (sum(weights.values()) or 1.0)
    if "judge" not in uses and rouge_share >= 0.5 and (p.median_reference_words >= FREE_TEXT_WORDS):
        found.append(
            LintWarning(
                "similarity-on-free-text",
                "similarity without a judge on free-text references (median "
                f"{p.median_reference_words:g} words): correct paraphrases score low and "
                "wrong answers that reuse your words score high; combine it with a judge",
            )
        )
    if "judge" in uses and judge_model and policy_model and same_model(judge_model, policy_model):
        found.append(
            LintWarning(
                "same-model",
                f"{judge_model} is both the policy and the judge: its blind spots will look "
                "like improvements; pick another judge",
            )
        )
    size = model_billions(judge_model) if judge_model and "judge" in uses else None
    if size is not None and size < SMALL_JUDGE_BILLIONS:
        found.append(
            LintWarning(
                "small-judge",
                f"judge {judge_model} (~{size:g}B) is small: noisy scores become noisy "
                "advantages that GRPO amplifies over a long run",
            )
        )
    if uses & {"exact", "contains"} and p.median_expected_words >= FREE_TEXT_WORDS:
        found.append(
            LintWarning(
                "all-or-nothing-on-free-text",
                "exact match on long expected values (median "
                f"{p.median_expected_words:g} words): all-or-nothing only works when there is "
                "a single verifiable answer",
            )
        )
    return found


def recommend(rows: Sequence[Row]) -> tuple[str, str]:
    """A starting grader for the dataset, after the seed's table, and why."""
    p = profile(rows)
    if p.with_reference == 0:
        if any(r.expected for r in rows):
            return "exact", "rows have an expected value and no reference: a single right answer"
        return "judge", "no reference: only a judge can tell whether free text is right"
    if p.json_references == p.with_reference:
        return "json", "every reference is JSON: a fixed output format (add a judge for content)"
    if p.median_reference_words <= 3:
        return "exact", "short references (a label or a value): all-or-nothing is clearest"
    with_figures = p.rows - p.references_without_figures
    if with_figures / p.rows >= 1 - 0.2:
        return "judge+numbers", "most references hold figures: check them, judge the reasoning"
    return "judge", "free-text answers: only a model can judge whether they are right and useful"
