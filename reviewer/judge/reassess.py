"""Put stored second opinions through the guard again (``reviewer rejudge --reassess``).

The guard's verdict is stored with each second opinion when it arrives. Second opinions
stored before the guard existed (migration 0008 keeps them applied), or under another
strictness, are reassessed here without asking the judge anything: the rationale, the
criterion's wording and the prompt that was sent (kept with the cached request) are all
in the store.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from models import JudgeRequest, Verdict
from reviewer.judge.guard import Strictness, unreliable_reason
from reviewer.store import Store

CHUNK = 500


@dataclass
class ReassessReport:
    """What a reassessment did."""

    checked: int = 0
    unreliable: int = 0
    changed: int = 0

    def summary(self) -> str:
        """The line the CLI prints."""
        return (f"{self.checked} second opinions reassessed: {self.unreliable} unreliable "
                f"(not applied), {self.changed} changed")


def _prompt(request: JudgeRequest | None) -> str:
    if request is None or not isinstance(request.request, dict):
        return ""
    messages = request.request.get("messages") or []
    return "\n".join(str(m.get("content", "")) for m in messages if isinstance(m, dict))


def reassess(store: Store, level: Strictness | None = None) -> ReassessReport:
    """Recompute ``applied``/``unreliable_reason`` of every second opinion."""
    report = ReassessReport()
    last = 0
    while True:
        with store.session() as session:
            rows = list(session.scalars(
                select(Verdict).where(Verdict.origin == "second_opinion", Verdict.id > last)
                .options(selectinload(Verdict.criterion_version))
                .order_by(Verdict.id).limit(CHUNK)))
            if not rows:
                return report
            requests = {r.id: r for r in session.scalars(select(JudgeRequest).where(
                JudgeRequest.id.in_({v.request_id for v in rows if v.request_id})))}
            for v in rows:
                cv = v.criterion_version
                reason = unreliable_reason(
                    v.rationale, v.met, criterion_id=cv.criterion_id, criterion_text=cv.text,
                    prompt=_prompt(requests.get(v.request_id or 0)), level=level)
                report.checked += 1
                report.unreliable += bool(reason)
                report.changed += v.applied != (not reason)
                v.applied, v.unreliable_reason = not reason, reason or None
            last = rows[-1].id
