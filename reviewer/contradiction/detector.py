"""Score whether a judge's rationale asserts the opposite of its verdict.

Two readings are stacked. The scanner's cues (see :mod:`reviewer.contradiction.scan`)
add up to a mass that says the answer behaves well (``good``) and a mass that says it
behaves badly (``bad``); a logistic regression (:mod:`reviewer.contradiction.learned`)
takes those masses and the rationale's words and word pairs, and gives
``p_good``, the probability that the rationale says the answer behaves well on the
criterion. The verdict says one of the two: "oui" on a success criterion or "non" on a
failure criterion means *good*; the other two cells mean *bad*. ``p_opposite``, the
probability of the side the verdict did not pick, is mapped onto the score (see
``_score``): 0 up to ``P_FLOOR``, so verdicts the rationale plainly agrees with store
nothing, and ``score >= THRESHOLD`` (0.5) exactly when ``p_opposite >= P_THRESHOLD``.
The evidence is the scanner's two strongest cues when they lean the same way as the
model, else the two words that pushed the model most.
"""

from __future__ import annotations

from math import exp
from typing import NamedTuple

from reviewer.contradiction.criterion import profile
from reviewer.contradiction.engine import cue_spans, masses, scan, token_span, two_spans
from reviewer.contradiction.learned import Model, model
from reviewer.contradiction.scan import ScanResult

THRESHOLD = 0.5
"""A rationale is flagged as contradicting its verdict when ``score >= THRESHOLD``."""

P_THRESHOLD = 0.6
"""The model's probability that the rationale says the opposite, at which it is flagged:
chosen with ``scripts/train_contradiction.py --cv`` (precision on files left out)."""
P_FLOOR = 0.5
"""At or below this probability the score is 0: the rationale does not lean against the
verdict, nothing is worth storing or showing."""



_YES = frozenset({"oui", "yes", "true", "o", "y", "1", "vrai"})
_NO = frozenset({"non", "no", "false", "n", "0", "faux"})
KINDS = ("success", "failure")
_VERDICT_WORDS = {w: True for w in ("oui", "yes", "true", "Oui", "Yes", "OUI", "YES", "True")} | {
    w: False for w in ("non", "no", "false", "Non", "No", "NON", "NO", "False")
}


class Detection(NamedTuple):
    """The verdict of the deterministic tier on one rationale.

    ``evidence`` is the rationale's wording that decided (the scanner's cue words with
    their negator, or the words that weighed most in the learned reading, joined by
    " … "); ``evidence_spans`` are the same as ``(start, end)`` character offsets into the
    rationale as given, for highlighting.
    """

    contradiction: bool
    score: float
    evidence: str
    evidence_spans: tuple[tuple[int, int], ...]


_NOTHING = Detection(False, 0.0, "", ())


def _score(p_opposite: float) -> float:
    """Map the probability to the score: P_FLOOR → 0, P_THRESHOLD → THRESHOLD, 1 → 1,
    linear in between (so the order of the flags is the order of the probabilities)."""
    if p_opposite < P_THRESHOLD:
        return THRESHOLD * (p_opposite - P_FLOOR) / (P_THRESHOLD - P_FLOOR)
    return THRESHOLD + (1 - THRESHOLD) * (p_opposite - P_THRESHOLD) / (1 - P_THRESHOLD)
_reader: Model | None = None


def _load_reader() -> Model:
    global _reader  # loaded on first use: the flagging workers import this module early
    _reader = model()
    return _reader


def parse_verdict(verdict: object) -> bool:
    """``True`` for oui/yes/true (any case, or a JSON boolean), ``False`` for non/no/false.

    Raises ``ValueError`` for anything else.
    """
    known = _VERDICT_WORDS.get(verdict) if isinstance(verdict, str) else None
    if known is not None:
        return known
    if isinstance(verdict, bool):
        return verdict
    if isinstance(verdict, str):
        word = verdict.strip().lower()
        if word in _YES:
            return True
        if word in _NO:
            return False
    raise ValueError(f"verdict must be oui/non, yes/no or true/false, not {verdict!r}")


def detect(
    kind: str,
    verdict: object,
    rationale: str,
    criterion_text: str = "",
    criterion_id: str = "",
) -> Detection:
    """Does ``rationale`` assert the opposite of ``verdict`` on a ``kind`` criterion?

    ``kind`` is "success" or "failure"; ``verdict`` as in :func:`parse_verdict`.
    ``criterion_id`` lets the model weigh the scanner as it learned to for that
    criterion (an unknown or empty id uses the weights of all criteria).
    """
    if kind == "success":
        success = True
    elif kind == "failure":
        success = False
    else:
        raise ValueError(f"kind must be 'success' or 'failure', not {kind!r}")
    says_yes = _VERDICT_WORDS.get(verdict) if type(verdict) is str else None
    if says_yes is None:
        says_yes = parse_verdict(verdict)
    result = scan(rationale, profile(kind, criterion_text))
    reader = model()  # loaded on first use, then cached
    z, rule_side, first, second = reader.read(kind, result, criterion_id)
    p_good = 1.0 / (1.0 + exp(-z)) if z > -700.0 else 0.0  # sigmoid, inlined: hot path
    p_opposite = 1.0 - p_good if says_yes == success else p_good
    if p_opposite <= P_FLOOR:
        return _NOTHING
    score = round(_score(p_opposite), 4)
    side = 1 if p_good >= 0.5 else -1
    if side == rule_side:
        spans = cue_spans(result, first, second)
    else:
        spans = _learned_evidence(result, reader, kind, side)
    flagged = score >= THRESHOLD
    if not spans:
        return Detection(flagged, score, "", spans)
    if len(spans) == 1:
        evidence = rationale[spans[0][0] : spans[0][1]]
    else:
        (a, b), (c, d) = spans
        evidence = f"{rationale[a:b]} … {rationale[c:d]}"
    return Detection(flagged, score, evidence, spans)


def reading(
    kind: str, rationale: str, criterion_text: str = ""
) -> tuple[ScanResult, float, float]:
    """What the learned model is given (see :func:`learned.features`): the scanner's
    result, its good mass and its bad mass."""
    result = scan(rationale, profile(kind, criterion_text))
    good, bad, _side, _first, _second = masses(result)
    return result, good, bad


def _learned_evidence(
    result: ScanResult, reader: Model, kind: str, side: int
) -> tuple[tuple[int, int], ...]:
    """Spans of the (up to two) words or pairs that pushed the model most towards
    ``side``, when the scanner's cues lean the other way or not at all (a described
    fact: « glisse un lien premium »)."""
    spans = [token_span(result, first, last)
             for _w, first, last in reader.pushing(kind, result, side)]
    return two_spans(spans[0], spans[1]) if len(spans) == 2 else tuple(spans)
