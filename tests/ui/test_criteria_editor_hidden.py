"""The criteria editor shows the characters that hide or reorder text (fifteenth hostile
pass, P15-7).

A criterion text "Ton ⟨U+202E⟩emlac⟨U+202C⟩ et respectueux" (from `criterion --text` or a
catalog) was shown as "Ton calme et respectueux" in "Current" and in "New text", while
the judge reads "emlac": the one view that obeyed bidi controls instead of showing them.
"""

from __future__ import annotations

from typing import Any

import pytest

from reviewer.catalog.spec import CriterionSpec
from reviewer.catalog.versions import current_criterion_versions
from reviewer.revise.editors import save_criterion_version
from reviewer.store import Store
from tests.support.feedback_stores import load_export_store
from ui.tasks import TaskManager
from ui.tools.criteria_editor import CriteriaEditor

pytestmark = [pytest.mark.qt_log_ignore("does not support propagateSizeHints"),
              pytest.mark.usefixtures("no_leaks")]
HIDDEN = "Ton \u202eemlac\u202c et respectueux"


def editing_hidden(qtbot: Any, store: Store, tmp_path: Any,
                   task_manager: TaskManager) -> CriteriaEditor:
    """The editor open on G-DEMANDE, whose current text is HIDDEN."""
    load_export_store(store, tmp_path)
    with store.session() as s:
        spec = current_criterion_versions(s)["G-DEMANDE"]
        save_criterion_version(s, CriterionSpec("G-DEMANDE", spec.kind, spec.severity,
                                                HIDDEN), reason="bidi", author="x")
    editor = CriteriaEditor(task_manager, "associe", criterion_id="G-DEMANDE")
    qtbot.addWidget(editor)
    editor.show()
    return editor


def test_hidden_characters_are_shown_as_markers_and_kept_when_unchanged(
        qtbot: Any, store: Store, tmp_path: Any, task_manager: TaskManager) -> None:
    editor = editing_hidden(qtbot, store, tmp_path, task_manager)
    qtbot.waitUntil(lambda: "⟨U+202E⟩" in editor.current.toPlainText(), timeout=10000)
    assert editor.current.toPlainText().endswith("Ton ⟨U+202E⟩emlac⟨U+202C⟩ et respectueux")
    assert editor.text.toPlainText() == "Ton ⟨U+202E⟩emlac⟨U+202C⟩ et respectueux"
    editor.reason.setText("nothing changed")
    assert not editor.save_button.isEnabled()  # the markers stand for the same text
    # Deleting the markers removes the characters: what is saved is what was shown.
    editor.text.setPlainText("Ton emlac et respectueux")
    assert editor.save_button.isEnabled()
    with qtbot.waitSignal(editor.saved, timeout=10000):
        editor.save_button.click()
    with store.session() as s:
        assert current_criterion_versions(s)["G-DEMANDE"].text == "Ton emlac et respectueux"
    editor.close()


def test_markers_left_in_the_new_text_are_saved_as_the_characters(
        qtbot: Any, store: Store, tmp_path: Any, task_manager: TaskManager) -> None:
    editor = editing_hidden(qtbot, store, tmp_path, task_manager)
    qtbot.waitUntil(lambda: "⟨U+202E⟩" in editor.text.toPlainText(), timeout=10000)
    editor.text.setPlainText(editor.text.toPlainText() + " !")
    editor.reason.setText("a word added")
    with qtbot.waitSignal(editor.saved, timeout=10000):
        editor.save_button.click()
    with store.session() as s:
        assert current_criterion_versions(s)["G-DEMANDE"].text == HIDDEN + " !"
    editor.close()
