"""Pair statistics of one group: pairwise accuracy, Kendall τ-b (against scipy), the
pairs a grader inverts, and GRPO advantages."""

from __future__ import annotations

import math
import statistics
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import kendalltau

from reviewer.graders.ranking import (
    advantages,
    inverted_pairs,
    kendall_tau_b,
    pairwise_accuracy,
    rounded,
    tied_pairs,
)


def test_pairwise_accuracy_counts_grader_ties_as_half() -> None:
    human = [3, 2, 1]
    assert pairwise_accuracy([0.9, 0.5, 0.1], human) == 1.0
    assert pairwise_accuracy([0.1, 0.5, 0.9], human) == 0.0
    # Pairs (A>B) tied by the grader: 0.5; (A>C) right: 1; (B>C) right: 1.
    assert pairwise_accuracy([0.9, 0.9, 0.1], human) == pytest.approx(2.5 / 3)


def test_pairs_the_human_ties_are_left_out() -> None:
    # Only A>C and B>C count; A and B are tied by the human, whatever the grader says.
    assert pairwise_accuracy([0.1, 0.9, 0.0], [5, 5, 1]) == 1.0
    assert pairwise_accuracy([0.1, 0.9, 0.5], [5, 5, 1]) == 0.5


def test_undefined_when_the_human_ties_every_pair_or_one_answer() -> None:
    assert pairwise_accuracy([0.1, 0.9], [4, 4]) is None
    assert pairwise_accuracy([0.3], [4]) is None
    assert kendall_tau_b([0.3], [4]) is None


def test_tau_b_is_undefined_when_either_side_is_constant() -> None:
    assert kendall_tau_b([0.5, 0.5, 0.5], [1, 2, 3]) is None
    assert kendall_tau_b([0.1, 0.5, 0.9], [2, 2, 2]) is None
    # Pairwise accuracy is still defined for a constant grader: every pair is a tie.
    assert pairwise_accuracy([0.5, 0.5, 0.5], [1, 2, 3]) == 0.5


def test_float_noise_never_orders_equal_scores() -> None:
    noisy = 0.1 + 0.2  # 0.30000000000000004
    assert noisy != 0.3
    assert pairwise_accuracy([noisy, 0.3], [2, 1]) == 0.5  # a tie, not a win
    assert inverted_pairs([0.3, noisy], [2, 1]) == []
    assert kendall_tau_b([noisy, 0.3, 0.3], [3, 2, 1]) is None  # constant once rounded
    assert advantages([noisy, 0.3, 0.3]) == [0.0, 0.0, 0.0]


def test_inverted_and_tied_pairs_name_better_then_worse() -> None:
    # Human: A > B > C. Grader: C highest, A and B equal.
    assert inverted_pairs([0.2, 0.2, 0.9], [3, 2, 1]) == [(0, 2), (1, 2)]
    assert tied_pairs([0.2, 0.2, 0.9], [3, 2, 1]) == [(0, 1)]


def test_lengths_must_match() -> None:
    with pytest.raises(ValueError, match="2 grader scores for 3"):
        pairwise_accuracy([1, 2], [1, 2, 3])


def test_advantages_are_group_normalised_with_the_sample_deviation() -> None:
    scores = [1.0, 0.5, 0.0]
    # mean 0.5, sample std 0.5: +1, 0, -1 (population std would give ±1.2247).
    assert advantages(scores) == [1.0, 0.0, -1.0]
    assert advantages([0.7, 0.7]) == [0.0, 0.0]  # no spread: no signal
    assert advantages([0.7]) == [0.0]
    assert advantages([]) == []


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0, 1 / 3, 0.1 + 0.2, 0.3]),
                          st.integers(1, 5)), min_size=2, max_size=10))
def test_tau_b_equals_scipy(pairs: list[tuple[float, int]]) -> None:
    grader, human = [g for g, _ in pairs], [h for _, h in pairs]
    ours = kendall_tau_b(grader, human)
    theirs = kendalltau(rounded(grader), human).statistic
    if math.isnan(theirs):
        assert ours is None
    else:
        assert ours == pytest.approx(theirs, abs=1e-12)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 1), st.floats(-10, 10, allow_nan=False)),
                min_size=2, max_size=8))
def test_pairwise_accuracy_equals_a_plain_count(pairs: list[tuple[float, float]]) -> None:
    grader, human = rounded([g for g, _ in pairs]), [h for _, h in pairs]
    points = []
    for i, j in combinations(range(len(pairs)), 2):
        if human[i] == human[j]:
            continue
        hi, lo = (i, j) if human[i] > human[j] else (j, i)
        points.append(1.0 if grader[hi] > grader[lo] else 0.5 if grader[hi] == grader[lo] else 0)
    expected = sum(points) / len(points) if points else None
    assert pairwise_accuracy(grader, human) == expected


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(0, 1), min_size=2, max_size=10))
def test_advantages_have_zero_mean_and_unit_sample_deviation(scores: list[float]) -> None:
    adv = advantages(scores)
    if statistics.stdev(rounded(scores)) == 0:
        assert adv == [0.0] * len(scores)
    else:
        assert statistics.fmean(adv) == pytest.approx(0.0, abs=1e-9)
        assert statistics.stdev(adv) == pytest.approx(1.0, abs=1e-9)
