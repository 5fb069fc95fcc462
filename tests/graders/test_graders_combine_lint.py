"""Weighted mixes, and the lint that warns about the seed's common mistakes."""

from __future__ import annotations

import pytest

from reviewer.errors import BadInputError
from reviewer.graders import (
    LintWarning,
    judge_plus_numbers,
    judge_plus_similarity,
    lint,
    recommend,
    weighted,
)
from reviewer.graders.batch import COMPONENTS, GradeOptions, grade_rows, weights_for
from reviewer.graders.combine import parse_weights
from reviewer.graders.lint import model_billions, same_model
from reviewer.graders.rows import Row

FREE_TEXT = "Ouvrez le rapport, cliquez sur Partager puis choisissez le client dans la liste."


def row(line: int, response: str = "r", reference: str | None = None, **kw: object) -> Row:
    return Row("in.jsonl", line, response, reference=reference, **kw)  # type: ignore[arg-type]


def codes(warnings: list[LintWarning]) -> list[str]:
    return [w.code for w in warnings]


def test_fixed_combinations() -> None:
    assert judge_plus_similarity(1.0, 0.0) == pytest.approx(0.7)
    assert judge_plus_similarity(0.0, 1.0) == pytest.approx(0.3)
    assert judge_plus_numbers(0.5, 1.0) == 0.75
    assert judge_plus_numbers(0.5, None) == 0.5


def test_weighted_drops_ignored_parts_and_rescales() -> None:
    assert weighted({"judge": 1.0, "rouge_l": 0.5}, {"judge": 3, "rouge_l": 1}) == 0.875
    assert weighted({"judge": 0.2, "numeric": None}, {"judge": 1, "numeric": 4}) == 0.2
    assert weighted({"numeric": None}, {"numeric": 1}) is None


def test_parse_weights() -> None:
    assert parse_weights("judge=0.6, rouge_l=0.4", COMPONENTS) == {"judge": 0.6, "rouge_l": 0.4}
    for bad in ("judge", "bleu=1", "judge=x", "judge=-1", "judge=0", "judge=nan"):
        with pytest.raises(BadInputError):
            parse_weights(bad, COMPONENTS)


def test_user_defined_mix_on_rows() -> None:
    rows = [row(1, "Le taux est de 4 %", "Le taux est de 4 %", expected="4 %")]
    options = GradeOptions(weights={"contains": 1.0, "numeric": 1.0, "rouge_l": 2.0})
    graded = grade_rows(rows, "mix", options)
    assert graded[0].score == 1.0
    rows = [row(1, "Le taux est de 8 %", "Le taux est de 4 %", expected="4 %")]
    graded = grade_rows(rows, "mix", options)
    # contains 0, numeric 0, rouge_l: 4 of 5 words → 0.8; (0 + 0 + 2 * 0.8) / 4
    assert graded[0].score == pytest.approx(0.4)
    with pytest.raises(BadInputError, match="--weights"):
        weights_for("mix", GradeOptions())


def test_numbers_lint_counts_the_rows_that_would_be_ignored() -> None:
    rows = [row(i, reference="Le taux est de 4,5 %.") for i in range(1, 7)]
    rows += [row(i, reference="Cliquez sur Partager.") for i in range(7, 11)]
    found = lint(rows, {"numeric": 1.0})
    assert codes(found) == ["numbers-without-figures"]
    assert "4 of 10 rows (40 %)" in found[0].message
    assert "learn from 6 rows only" in found[0].message
    combined = lint(rows, {"judge": 0.5, "numeric": 0.5})
    assert "scored by judge alone" in combined[0].message
    assert lint(rows, {"rouge_l": 1.0}) == []


def test_numbers_lint_is_quiet_when_few_rows_lack_figures() -> None:
    rows = [row(i, reference="Le taux est de 4,5 %.") for i in range(1, 10)]
    rows.append(row(10, reference="Cliquez sur Partager."))
    assert lint(rows, {"numeric": 1.0}) == []


def test_similarity_alone_on_free_text_is_flagged_but_not_with_a_judge() -> None:
    rows = [row(i, reference=FREE_TEXT) for i in range(1, 4)]
    assert codes(lint(rows, {"rouge_l": 1.0})) == ["similarity-on-free-text"]
    assert lint(rows, {"judge": 0.7, "rouge_l": 0.3}) == []
    short = [row(i, reference="Oui") for i in range(1, 4)]
    assert lint(short, {"rouge_l": 1.0}) == []


def test_same_model_as_policy_and_judge() -> None:
    rows = [row(1, reference=FREE_TEXT)]
    found = lint(rows, {"judge": 1.0}, judge_model="Qwen3:14B", policy_model="qwen3:14b")
    assert codes(found) == ["same-model"]
    assert lint(rows, {"judge": 1.0}, judge_model="qwen3:32b", policy_model="qwen3:14b") == []
    no_judge = lint(rows, {"rouge_l": 1.0}, judge_model="a", policy_model="a")
    assert "same-model" not in codes(no_judge)
    assert same_model("llama3", "llama3:latest")


def test_small_judge_and_exact_on_free_text() -> None:
    rows = [row(1, reference=FREE_TEXT, expected=FREE_TEXT)]
    assert codes(lint(rows, {"judge": 1.0}, judge_model="qwen3:4b")) == ["small-judge"]
    assert codes(lint(rows, {"exact": 1.0})) == ["all-or-nothing-on-free-text"]
    assert model_billions("qwen3.6:35b-a3b") == 35.0
    assert model_billions("mistral-small3.2:24b") == 24.0
    assert model_billions("llama3") is None


def test_recommend_follows_the_seed_table() -> None:
    assert recommend([row(1, reference=FREE_TEXT)])[0] == "judge"
    assert recommend([row(1, reference="WACC ≈ 9,91 % et EV 1 705 M$")])[0] == "judge+numbers"
    assert recommend([row(1, reference="positif")])[0] == "exact"
    assert recommend([row(1, reference='{"type": "bruit"}')])[0] == "json"
    assert recommend([row(1, expected="bruit")])[0] == "exact"
