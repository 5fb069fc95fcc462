"""The Qt binding itself: a refcount bug in it kills long review sessions at random.

PySide6 6.12.0 drops one reference to ``True`` on every ``SignalInstance.emit()`` made
from Python; after a few hundred emits (a reviewer's session, or the keyboard test of 20
examples) the interpreter aborts with "Fatal Python error: bool_dealloc". pyproject.toml
excludes that version; this test fails if an upgrade brings the bug back.
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QObject, Signal


class _Emitter(QObject):
    value = Signal(object)
    flag = Signal(bool)


def test_emitting_signals_keeps_true_and_false_alive(qapp: object) -> None:
    emitter = _Emitter()
    received: list[object] = []
    emitter.value.connect(received.append)
    emitter.flag.connect(received.append)
    before = (sys.getrefcount(True), sys.getrefcount(False))
    for _ in range(20):
        emitter.value.emit(None)
        emitter.flag.emit(False)
    received.clear()
    assert (sys.getrefcount(True), sys.getrefcount(False)) == before
