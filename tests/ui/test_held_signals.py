"""Signals held while the app starts (``ui/held_signals.py``), in this very process: where
each one is acted on, and what is said (the whole start in a real process, sent at each
Qt library it loads: tests/reliability/test_start_signals.py)."""

from __future__ import annotations

import signal

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QWidget

from reviewer.errors import InterruptedByUser, ReviewerError
from ui.held_signals import held, released
from ui.interrupt import closing_on_signals

NOT_SAVED = "the step in progress was not saved (what was saved before is kept)"


def test_a_signal_held_while_the_window_is_built_closes_it_once_its_loop_runs(
        qapp: QApplication, capfd: pytest.CaptureFixture[str]) -> None:
    usual = signal.getsignal(signal.SIGTERM)
    window = QWidget()
    try:
        with held():
            signal.raise_signal(signal.SIGTERM)  # held: the process goes on
            with closing_on_signals(window) as ended_by:
                window.show()
                QTimer.singleShot(20000, qapp.quit)  # never wait for ever on a failure
                qapp.exec()
            code = ended_by()
    finally:
        window.deleteLater()

    assert code == 143
    assert capfd.readouterr().err == (
        "reviewer: terminated; the window was closed as by its close button\n")
    assert signal.getsignal(signal.SIGTERM) == usual


def test_a_signal_held_ends_the_start_where_it_may_wait() -> None:
    with pytest.raises(InterruptedByUser) as ended, held():
        signal.raise_signal(signal.SIGINT)  # held, not a KeyboardInterrupt here
        with released():
            pytest.fail("the start went on after the signal")

    assert str(ended.value) == f"interrupted; {NOT_SAVED}"
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_signal_held_until_a_start_without_window_ends_is_said_at_its_end() -> None:
    usual = signal.getsignal(signal.SIGHUP)
    with pytest.raises(ReviewerError) as ended, held():
        signal.raise_signal(signal.SIGHUP)

    assert (str(ended.value), ended.value.exit_code) == (f"hung up; {NOT_SAVED}", 129)
    assert signal.getsignal(signal.SIGHUP) == usual
