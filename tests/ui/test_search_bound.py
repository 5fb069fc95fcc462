"""The search box with a query over the bound: one line saying so, no traceback, no freeze."""

from __future__ import annotations

from typing import Any

import pytest

from reviewer.store import Store
from tests.support.qt import decisions, idle
from ui.review.window import MainWindow

pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints")


def test_a_pasted_wall_of_words_is_refused_in_one_line(
        qtbot: Any, make_window: Any, filled_store: Store) -> None:
    w: MainWindow = make_window(filled_store)
    idle(qtbot, w)
    assert decisions(w)
    w.filters.search.setText(" ".join(f"mot{n}" for n in range(1000)))
    w.filters.apply()
    idle(qtbot, w)
    message = w.error_label.text()
    assert message.startswith("search too long: 1,000 words (at most ")
    assert "\n" not in message and "Traceback" not in message
    assert decisions(w) == {}
    # A search within the bound works again.
    w.filters.search.setText("evenement")
    w.filters.apply()
    idle(qtbot, w)
    assert list(decisions(w)) == ["2026-10-14-ministral-8b/recette-999/1/1"]


@pytest.mark.parametrize("query", ["%", "_", "*", " ... "])
def test_a_search_with_no_word_says_so_instead_of_matching_everything(
        qtbot: Any, make_window: Any, filled_store: Store, query: str) -> None:
    # P15-13 (5): `%`, `_` or `a*`-like punctuation matched every refusal, as an empty
    # search, without a word.
    w: MainWindow = make_window(filled_store)
    idle(qtbot, w)
    w.filters.search.setText(query)
    w.filters.apply()
    idle(qtbot, w)
    assert w.error_label.text() == (
        f"the search {query!r} holds no word: it matches whole words and their beginnings "
        "(letters and digits); punctuation and '*' are not searched")
    assert decisions(w) == {}
