"""The LLM tier of the contradiction detector: the judge reads one rationale alone.

The deterministic tier reads a rationale with a lexicon; this tier asks a model, for one
verdict at a time and *without showing it the verdict*, whether the rationale says the
criterion's statement holds for the answer. Its structured reply is
``{"rationale_says": "met" | "not_met" | "unclear", "confidence": 0..1}``; a reading
opposite to the verdict is a contradiction scored by that confidence.

"met" follows the run format's convention: the statement of the criterion holds, so for
a failure criterion "met" means the answer commits the fault (verdict "oui").

It costs one model call per verdict, so it never runs unless asked (``reviewer flag
--llm``, ``reviewer contradictions IN.jsonl --llm``). Readings are stored as
``ContradictionFlag`` rows of tier ``llm`` and requests go through the judge cache, so a
rerun after an interruption asks only what is missing. A fault on one verdict is reported
and the loop goes on; one that would repeat for every verdict (no server, unknown model,
the same HTTP 5xx three times in a row) stops it with a resumable message.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from models import ContradictionFlag, CriterionVersion, Verdict
from reviewer.contradiction.detector import THRESHOLD, parse_verdict
from reviewer.errors import JudgeError
from reviewer.json_input import number_problem
from reviewer.judge.client import JudgeClient, JudgeFault
from reviewer.judge.schema import ReplyError
from reviewer.judge.transport import STREAK, FaultStreak
from reviewer.store import Store

TIER = "llm"
DETECTOR = "llm-reading-v1"
READINGS = ("met", "not_met", "unclear")
REPLY_TOKENS = 64
"""``num_predict`` of a reading: its JSON is about 20 tokens."""

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "rationale_says": {"type": "string", "enum": list(READINGS)},
        "confidence": {"type": "number", "minimum": 0, "maximum": 1},
    },
    "required": ["rationale_says", "confidence"],
}

PROMPT = string.Template("""\
Un juge a évalué la réponse d'un assistant selon le critère ci-dessous et a écrit une \
raison. Lis uniquement cette raison et dis ce qu'elle affirme.

Critère $criterion_id ($polarity) : $criterion_text

Raison du juge : « $rationale »

Réponds avec :
- "rationale_says" : "met" si la raison affirme que l'énoncé du critère est vrai pour la \
réponse ($met_means), "not_met" si elle affirme qu'il est faux, "unclear" si elle ne \
permet pas de le dire ;
- "confidence" : ta confiance dans cette lecture, entre 0 et 1.
Réponds uniquement avec le JSON demandé.""")

_POLARITY = {
    "success": ("critère de réussite", "la réponse fait ce que dit le critère"),
    "failure": ("critère d'échec", "la réponse commet cette faute"),
}


@dataclass(frozen=True, slots=True)
class LlmReading:
    """What the model read in one rationale, and whether it contradicts the verdict."""

    rationale_says: str
    confidence: float
    contradiction: bool
    score: float
    request_id: int | None = None

    @property
    def evidence(self) -> str:
        """A short text stored with the flag."""
        return f"rationale says {self.rationale_says} (confidence {self.confidence:.2f})"


def messages_for(kind: str, rationale: str, criterion_text: str,
                 criterion_id: str) -> list[dict[str, str]]:
    """The one user message asking for the reading (the verdict is not shown)."""
    polarity, met_means = _POLARITY[kind]
    return [{"role": "user", "content": PROMPT.substitute(
        criterion_id=criterion_id or "?", polarity=polarity,
        criterion_text=criterion_text or "(texte du critère non fourni)",
        rationale=rationale, met_means=met_means)}]


def _validate(data: dict[str, Any]) -> None:
    if data.get("rationale_says") not in READINGS:
        raise ReplyError("reply has no valid rationale_says")
    if "confidence" not in data:
        raise ReplyError("reply has no numeric confidence")
    # Any number a float holds (clamped to 0..1 below); an integer of 400 digits is one
    # JSON allows and float() cannot take (ninth hostile pass T6, exit 70).
    problem = number_problem(data["confidence"])
    if problem is not None:
        raise ReplyError(f"reply's confidence {problem}")


def read_rationale(
    client: JudgeClient, kind: str, verdict: object, rationale: str,
    criterion_text: str = "", criterion_id: str = "", *, store: Store | None = None,
) -> LlmReading:
    """Ask the model what ``rationale`` says; raises JudgeError on a fault."""
    if kind not in _POLARITY:
        raise ValueError(f"kind must be 'success' or 'failure', not {kind!r}")
    met = parse_verdict(verdict)
    data, request_id = client.chat_json(
        messages_for(kind, rationale, criterion_text, criterion_id), SCHEMA,
        store=store, validate=_validate, label=DETECTOR, reply_tokens=REPLY_TOKENS,
    )
    says = str(data["rationale_says"])
    confidence = min(1.0, max(0.0, float(data["confidence"])))
    opposite = (says == "not_met" and met) or (says == "met" and not met)
    score = round(confidence, 4) if opposite else 0.0
    return LlmReading(says, confidence, opposite and score >= THRESHOLD, score, request_id)


@dataclass
class LlmFlagReport:
    """What ``flag_verdicts`` did."""

    read: int = 0
    flagged: int = 0
    skipped: int = 0
    failed: list[str] = field(default_factory=list)
    stopped: str = ""
    not_run: int = 0


def refusing_verdicts(store: Store) -> list[int]:
    """Filter verdicts that refuse their attempt (unmet success, major failure found)."""
    stmt = (
        select(Verdict.id)
        .join(CriterionVersion, CriterionVersion.id == Verdict.criterion_version_id)
        .where(Verdict.origin == "filter")
        .where(((CriterionVersion.kind == "success") & Verdict.met.is_(False))
               | ((CriterionVersion.kind == "failure") & Verdict.met.is_(True)
                  & (CriterionVersion.severity == "major")))
        .order_by(Verdict.id)
    )
    with store.session() as session:
        return list(session.scalars(stmt))


class Stop:
    """Decides when a loop of readings must stop: a fault every request would hit."""

    def __init__(self, limit: int = STREAK) -> None:
        self.streak = FaultStreak(limit)

    def after(self, exc: JudgeError | None) -> str:
        """The stop message after this outcome (None = success), "" to go on."""
        fault = exc if isinstance(exc, JudgeFault) else None
        if fault is not None and fault.fatal:
            return str(fault)
        if self.streak.observe(fault.kind if fault else None, fault.status if fault else None,
                               fault.detail if fault else ""):
            return self.streak.stop_message(str(fault))
        return ""


def flag_verdicts(
    store: Store, client: JudgeClient, verdict_ids: Iterable[int], *,
    progress: Callable[[int, int], None] | None = None, stop_after: int = STREAK,
) -> LlmFlagReport:
    """Read each verdict's rationale with the model and store a tier-``llm`` flag.

    Verdicts that already have an ``llm`` flag are skipped (a rerun resumes). Each
    reading is committed as it arrives; a fault is reported and leaves no row. A fault
    that would repeat for every verdict (no server, unknown model, the same HTTP 5xx
    ``stop_after`` times in a row) stops the loop (``report.stopped``, ``not_run``).
    """
    ids = list(verdict_ids)
    report = LlmFlagReport()
    stop = Stop(stop_after)
    for n, verdict_id in enumerate(ids, 1):
        with store.session() as session:
            verdict = session.scalars(
                select(Verdict).where(Verdict.id == verdict_id)
                .options(selectinload(Verdict.criterion_version))
            ).one()
            done = session.scalar(select(ContradictionFlag.id).where(
                ContradictionFlag.verdict_id == verdict_id, ContradictionFlag.tier == TIER))
            cv = verdict.criterion_version
            args = (cv.kind, verdict.met, verdict.rationale, cv.text, cv.criterion_id)
        if done is not None:
            report.skipped += 1
        else:
            try:
                reading = read_rationale(client, *args, store=store)
            except JudgeError as exc:
                report.failed.append(str(exc))
                report.stopped = stop.after(exc)
                if report.stopped:
                    report.not_run = len(ids) - n
                    break
            else:
                stop.after(None)
                _store_flag(store, verdict_id, reading)
                report.read += 1
                report.flagged += reading.contradiction
        if progress:
            progress(n, len(ids))
    return report


def _store_flag(store: Store, verdict_id: int, reading: LlmReading) -> None:
    with store.session() as session:
        row = session.scalar(select(ContradictionFlag).where(
            ContradictionFlag.verdict_id == verdict_id, ContradictionFlag.tier == TIER))
        if row is None:
            row = ContradictionFlag(verdict_id=verdict_id, tier=TIER)
            session.add(row)
        row.score, row.flagged = reading.score, reading.contradiction
        row.evidence, row.detector = reading.evidence, DETECTOR
