"""Fifteenth hostile pass, option values taken without a word (P15-13 (2), (4))."""

from __future__ import annotations

import pytest

from reviewer.store import Store
from tests.support.cli import one_line, run


@pytest.mark.parametrize("value", ["0", "-1", "100000", "two"])
def test_flag_refuses_a_number_of_workers_it_cannot_mean(
        filled_store: Store, capsys: pytest.CaptureFixture[str], value: str) -> None:
    # P15-13 (4): `flag --workers 0`, `-1` ran with one process, `100000` was accepted.
    line = one_line(capsys, run(["--db", filled_store.url, "flag", "--workers", value]), 2)
    assert f"--workers must be a whole number from 1 to 32 (processes), not '{value}'" \
        in line, line


def test_backtest_refuses_a_timeout_no_pattern_can_meet(
        filled_store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    # P15-13 (2): `backtest D-LIEN a --timeout 1e-300` blamed the stored pattern for
    # "catastrophic backtracking?".
    line = one_line(capsys, run(["--db", filled_store.url, "backtest", "D-LIEN", "a",
                                 "--timeout", "1e-300"]), 2)
    assert "--timeout must be at least 0.01 s" in line, line


@pytest.mark.parametrize("query", ["%", "_"])
def test_queue_search_with_no_word_is_one_line(
        filled_store: Store, capsys: pytest.CaptureFixture[str], query: str) -> None:
    # P15-13 (5): `queue --search '%'` listed all 63 refusals.
    line = one_line(capsys, run(["--db", filled_store.url, "queue", "--search", query]), 2)
    assert f"the search {query!r} holds no word" in line, line
