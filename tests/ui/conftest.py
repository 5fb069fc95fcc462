"""Every UI test runs under the leak guards: no window, running timer of a closed window,
task manager left running or busy thread left behind.

The fixtures of ``tests.support.qt`` are available to every test here; ``_leak_guard``
applies ``no_leaks`` to each test automatically, so no module has to remember it.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.qt import (
    closed_window_timers,
    make_window,
    no_leaks,
    task_manager,
    ui_settings,
)

__all__ = ["closed_window_timers", "make_window", "no_leaks", "task_manager", "ui_settings"]


@pytest.fixture(autouse=True)
def _leak_guard(no_leaks: None) -> Iterator[None]:
    """Apply the leak checks of ``tests.support.qt.no_leaks`` to every UI test."""
    yield
