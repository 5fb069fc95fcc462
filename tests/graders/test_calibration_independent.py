"""``reviewer calibrate --json`` against an independent computation of every figure.

The test set (tests/graders/data/calibration_set.jsonl, written by hand: open assistance,
calculations, single labels, a fixed JSON format, references without figures, a group the
human ties, a group without a ``group`` field, a group of one answer) is scored here
without the project's graders: ROUGE-L with rouge-score and a Unicode tokenizer written
below, exact/contains with plain string operations, the numbers grader from hand-worked
figures, pairwise accuracy by counting pairs and τ-b with scipy. Every per-group score,
pairwise accuracy, τ-b, average and count must agree to 1e-9.
"""

from __future__ import annotations

import json
import math
import statistics
import unicodedata
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
import regex
from rouge_score import rouge_scorer
from scipy.stats import kendalltau

from reviewer.cli.main import main

DATA = Path(__file__).parent / "data" / "calibration_set.jsonl"
TOL = 1e-9


class Words:
    """Lower-cased NFKC runs of letters, marks and digits (written for this test)."""

    def tokenize(self, text: str) -> list[str]:
        text = unicodedata.normalize("NFKC", text).lower()
        return list(regex.findall(r"[\p{L}\p{M}\p{N}]+", text))


ROUGE = rouge_scorer.RougeScorer(["rougeL"], tokenizer=Words())

# The numbers grader, worked by hand from the seed's rules (closest number, < 1 % full
# points, < 5 % half): see the comments for each answer. None: no figure in the reference.
NUMERIC: dict[str, list[float] | None] = {
    "partage": None,
    # 9 and 18 (hours): A both; B 9 and 17 (5.6 % from 18): half; C both; D none.
    "horaires": [1.0, 0.5, 1.0, 0.0],
    # The seed: A 0.875, B 0; C the reference itself; D 10 % (0.9 % and 3.3 %), 1,7 Md$.
    "wacc": [0.875, 0.0, 1.0, 0.625],
    # 1200, 1000, 20: A 1200 only; B all; C 1180 (1.7 %): half of one; D $1,200 and 20,0.
    "tva": [1 / 3, 1.0, 1 / 6, 2 / 3],
    "sentiment": None,
    "categorie": None,
    # The figure 2: A 2, B 3 (50 %), C 2, D 2 (fenced).
    "json": [1.0, 0.0, 1.0, 1.0],
    "odeur": None,
    "egalite": None,
    # 42: A 42, B 40 (4.8 %), C none.
    "line 36": [1.0, 0.5, 0.0],
    "seul": [1.0],
    "etiquette": None,
}


def load() -> dict[str, list[dict[str, Any]]]:
    groups: dict[str, list[dict[str, Any]]] = {}
    for n, line in enumerate(DATA.read_text("utf-8").splitlines(), 1):
        row = json.loads(line)
        key = row.get("group")
        if key is None:  # grouped by prompt: the label is the first row's line
            key = next((k for k, rs in groups.items() if rs[0]["prompt"] == row["prompt"]),
                       f"line {n}")
        groups.setdefault(key, []).append(row)
    return groups


def norm(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).split()).casefold()


def independent_scores(grader: str, rows: list[dict[str, Any]], label: str) -> list[float] | None:
    if grader == "numeric":
        return NUMERIC[label]
    if grader == "rouge_l":
        return [ROUGE.score(r["reference"], r["response"])["rougeL"].fmeasure for r in rows]
    if any("expected" not in r for r in rows):
        return None
    if grader == "exact":
        return [float(norm(r["response"]) == norm(r["expected"])) for r in rows]
    return [float(norm(r["expected"]) in norm(r["response"])) for r in rows]


def independent_pairwise(scores: list[float], human: list[float]) -> float | None:
    s = [round(x, 9) for x in scores]
    points = []
    for i, j in combinations(range(len(s)), 2):
        if human[i] == human[j]:
            continue
        agree = (s[i] - s[j]) * (human[i] - human[j])
        points.append(1.0 if agree > 0 else 0.5 if s[i] == s[j] else 0.0)
    return sum(points) / len(points) if points else None


def independent_tau(scores: list[float], human: list[float]) -> float | None:
    if len(scores) < 2:
        return None
    tau = kendalltau([round(x, 9) for x in scores], human).statistic
    return None if math.isnan(tau) else float(tau)


def close(a: float | None, b: float | None) -> bool:
    return (a is None and b is None) or (a is not None and b is not None and abs(a - b) <= TOL)


@pytest.fixture(scope="module")
def report() -> dict[str, Any]:
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["calibrate", str(DATA), "--json",
                     "--graders", "exact,contains,rouge_l,numeric"]) == 0
    data: dict[str, Any] = json.loads(out.getvalue())
    return data


@pytest.mark.parametrize("grader", ["exact", "contains", "rouge_l", "numeric"])
def test_every_figure_matches_the_independent_computation(
    report: dict[str, Any], grader: str
) -> None:
    groups = load()
    ours = report["graders"][grader]
    assert set(ours["per_group"]) == set(groups)
    pas, taus, skipped = [], [], 0
    for label, rows in groups.items():
        human = [float(r["human"]) for r in rows]
        scores = independent_scores(grader, rows, label)
        got = ours["per_group"][label]
        if scores is None:
            skipped += 1
            assert got["scores"] is None and got["pairwise_accuracy"] is None, label
            continue
        assert len(got["scores"]) == len(scores)
        assert all(close(a, b) for a, b in zip(got["scores"], scores, strict=True)), label
        pa, tau = independent_pairwise(scores, human), independent_tau(scores, human)
        assert close(got["pairwise_accuracy"], pa), (label, got["pairwise_accuracy"], pa)
        assert close(got["kendall_tau_b"], tau), (label, got["kendall_tau_b"], tau)
        pas += [pa] if pa is not None else []
        taus += [tau] if tau is not None else []
    assert ours["groups"] == len(groups) - skipped
    assert ours["skipped"] == skipped
    assert ours["defined"] == {"pairwise_accuracy": len(pas), "kendall_tau_b": len(taus)}
    assert close(ours["pairwise_accuracy"], statistics.fmean(pas))
    assert close(ours["kendall_tau_b"], statistics.fmean(taus))


def test_the_set_exercises_every_case(report: dict[str, Any]) -> None:
    numeric, exact = report["graders"]["numeric"], report["graders"]["exact"]
    assert numeric["skipped"] == 6  # references without any figure
    assert numeric["per_group"]["odeur"]["skipped"] == "reference without any figure"
    assert exact["per_group"]["wacc"]["skipped"] == "no 'expected' value"
    rouge = report["graders"]["rouge_l"]["per_group"]
    assert rouge["egalite"]["pairwise_accuracy"] is None  # the human ties every pair
    assert rouge["seul"]["kendall_tau_b"] is None  # one answer
    # exact gives 0 to every answer of "etiquette": pairwise accuracy 0.5 (all ties) but
    # no τ-b, so the two averages are over different groups.
    assert exact["per_group"]["etiquette"]["pairwise_accuracy"] == 0.5
    assert exact["per_group"]["etiquette"]["kendall_tau_b"] is None
    assert exact["defined"] == {"pairwise_accuracy": 4, "kendall_tau_b": 3}
    assert report["graders"]["rouge_l"]["defined"] == {"pairwise_accuracy": 10,
                                                      "kendall_tau_b": 10}
