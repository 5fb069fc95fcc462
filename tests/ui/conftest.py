"""Every UI test runs under the leak guards: no widget, timer or busy thread left behind.

The fixtures of ``tests.support.qt`` are available to every test here; ``_leak_guard``
applies ``no_leaks`` to each test automatically, so no module has to remember it.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.qt import make_window, no_leaks, ui_settings

__all__ = ["make_window", "no_leaks", "ui_settings"]


@pytest.fixture(autouse=True)
def _leak_guard(no_leaks: None) -> Iterator[None]:
    """Apply the leak checks of ``tests.support.qt.no_leaks`` to every UI test."""
    yield
