"""A 10,000-message conversation keeps the window responsive (issue 18, item 6).

Leaving such a conversation froze the window for 157 s (2.9 s at 2,000 messages): every
bubble had its own style sheet and was deleted one by one. The pane now shows the last
turns with a "show earlier" control. The test does not time the code: it measures the
event loop itself, the longest gap between the ticks of a 10 ms timer while the long
conversation is shown, extended and left, and asserts the loop was never blocked for
more than a generous second (the measured figures are printed).

Blocked means busy: the gap is counted in the GUI thread's own CPU time between two ticks
(``time.thread_time``), which is what a freeze like the 157 s one consumes, and which a
machine shared with other jobs does not inflate (there the process may simply not be
scheduled for a while: the wall-clock gap is reported, and bounded only loosely).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from reviewer.ingest.importer import import_run
from reviewer.store import Store
from tests.support.qt import GapMeter, idle
from tests.support.run_files import record, write_catalog, write_jsonl
from tests.ui.test_ui_review import key
from ui.review.conversation_view import BATCH, FIRST_SHOWN
from ui.review.window import MainWindow

pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints")
MESSAGES = 10_000


@pytest.fixture
def long_store(store: Store, tmp_path: Path) -> Store:
    long = record("longue", 40, 1, demande="non")
    messages = [{"role": "system", "content": "Tu es l'assistant du Journal des Nuisances."}]
    for i in range(1, MESSAGES):
        role = "user" if i % 2 else "assistant"
        messages.append({"role": role, "content": f"Message {i} : le chien aboie encore."})
    assert messages[-1]["role"] == "user" and len(messages) == MESSAGES
    long["messages"] = messages
    rows = [long, record("courte", 1, 1, demande="non")]
    import_run(store, write_jsonl(tmp_path / "run.jsonl", rows),
               catalog_path=write_catalog(tmp_path / "catalog.json"))
    return store


def test_showing_and_leaving_10000_messages_never_blocks_the_loop(
        qtbot: Any, make_window: Callable[[Store], MainWindow], long_store: Store,
        record_property: Callable[[str, object], None]) -> None:
    w = make_window(long_store)
    pane = w.pane
    meter = GapMeter()
    meter.start()
    try:
        # The queue starts on "courte"; J shows the long one, K leaves it again.
        assert pane.title.text().endswith("/courte/1/1")
        with qtbot.waitSignal(w.example_shown, timeout=30000):
            key(w, Qt.Key.Key_J)
        idle(qtbot, w)
        assert pane.title.text().endswith("/longue/40/1")
        earlier = pane.earlier
        assert len(earlier.messages) == MESSAGES - 2  # the system prompt and the question aside

        def shown_numbers() -> list[int]:
            text = earlier.text.toPlainText()
            return [int(line.split()[1]) for line in text.splitlines()
                    if line.startswith("Message ")]

        last = MESSAGES - 2  # the message before the question
        assert shown_numbers() == list(range(last - FIRST_SHOWN + 1, last + 1))
        hidden = MESSAGES - 2 - FIRST_SHOWN
        assert earlier.earlier_button.text() == \
            f"Show {BATCH} earlier messages (E) — {hidden} not shown"
        key(w, Qt.Key.Key_E)
        assert shown_numbers() == list(range(last - FIRST_SHOWN - BATCH + 1, last + 1))
        assert pane.question is not None
        assert pane.question.body.text() == f"Message {MESSAGES - 1} : le chien aboie encore."
        with qtbot.waitSignal(w.example_shown, timeout=30000):
            key(w, Qt.Key.Key_K)
        idle(qtbot, w)
        assert pane.title.text().endswith("/courte/1/1")
        qtbot.wait(100)  # the deferred deletions run inside the measured window too
    finally:
        meter.stop()
    meter.check(record_property, f"showing and leaving {MESSAGES} messages")
