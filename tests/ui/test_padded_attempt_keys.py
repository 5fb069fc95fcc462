"""``gui --attempt`` on a store holding ids with a space around them (fifteenth blind
hostile pass, P15-1): the key typed with its space selected the *other* run's attempt,
whose row reads the same, and a reviewer then decided it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from models import Attempt, Run
from reviewer.keys import AttemptKey
from reviewer.store import Store
from tests.support.qt import idle
from tests.support.run_files import padded_runs
from ui.review.window import MainWindow

pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints")
RUN = "2026-10-14-ministral-8b"
KEY = f"{RUN}/recette-033/2/1"


def attempt_of(store: Store, run: str) -> int:
    with store.session() as s:
        return s.scalars(select(Attempt.id).join(Run, Run.id == Attempt.run_id)
                         .where(Run.name == run)).one()


def test_the_key_with_its_space_selects_that_attempt(
        qtbot: Any, make_window: Callable[[Store], MainWindow], store: Store,
        tmp_path: Path) -> None:
    padded_runs(store, tmp_path, [f" {RUN}"])
    window = make_window(store)
    idle(qtbot, window)
    for typed, run in ((f" {KEY}", f" {RUN}"), (KEY, RUN), (f" {KEY}", f" {RUN}")):
        with qtbot.waitSignal(window.example_shown, timeout=10000):
            window.select_key(AttemptKey.parse(typed))
        idle(qtbot, window)
        assert window.current_id == attempt_of(store, run), typed


def test_a_key_naming_two_attempts_but_for_spaces_selects_neither(
        qtbot: Any, make_window: Callable[[Store], MainWindow], store: Store,
        tmp_path: Path) -> None:
    padded_runs(store, tmp_path, [f" {RUN}"])
    window = make_window(store)
    idle(qtbot, window)
    shown = window.current_id
    window.select_key(AttemptKey.parse(f"{RUN} /recette-033/2/1"))
    idle(qtbot, window)
    assert window.current_id == shown
    line = window.error_label.text()
    assert repr(KEY) in line and repr(f" {KEY}") in line, line
