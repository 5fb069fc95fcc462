"""A second-opinion batch as the app runs it: the batch, why it asked nothing, what changed.

``ask_second_opinions`` is ``reviewer.judge.batch.run_second_opinions`` plus the two things
the window needs afterwards, computed on the same worker thread: the reason the judge was
not asked when one attempt was asked about and skipped ("a check or a failure criterion
also refuses it"), and the ``Changes`` the batch made (every attempt that got a verdict or
a failure row), so each open screen refreshes what it shows.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass

from reviewer.changes import Changes
from reviewer.judge.batch import BatchReport, Progress, run_second_opinions
from reviewer.judge.client import JudgeClient
from reviewer.judge.second_opinion import SKIPPED, why_not_needed
from reviewer.rule.replay import load_attempts
from reviewer.store import Store


@dataclass(frozen=True, slots=True)
class SecondOpinionRun:
    """What a batch did, and ``why_skipped``: why the judge was not asked ("" unless the
    batch was about one attempt and skipped it)."""

    report: BatchReport
    why_skipped: str = ""

    @property
    def changes(self) -> Changes:
        """The attempts that got a second opinion or a failure: their verdicts changed."""
        touched = frozenset(o.attempt_id for o in self.report.outcomes if o.status != SKIPPED)
        return Changes(attempts=touched, verdicts=True) if touched else Changes()


def skip_reason(store: Store, attempt_ids: Sequence[int], report: BatchReport) -> str:
    """Why the judge was not asked, when one attempt was asked about and skipped."""
    if len(attempt_ids) != 1 or report.skipped != 1:
        return ""
    with store.session() as session:
        attempts = load_attempts(session, list(attempt_ids))
        return why_not_needed(attempts[0]) if attempts else ""


def ask_second_opinions(
    store: Store,
    client: JudgeClient,
    attempt_ids: Sequence[int],
    *,
    progress: Progress | None = None,
    cancel: threading.Event | None = None,
) -> SecondOpinionRun:
    """Run the batch (see ``run_second_opinions``) and explain a lone skip."""
    report = run_second_opinions(store, client, attempt_ids, progress=progress, cancel=cancel)
    return SecondOpinionRun(report, skip_reason(store, attempt_ids, report))
