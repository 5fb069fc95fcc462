"""Score whether a judge's rationale asserts the opposite of its verdict.

The rationale's cues (see :mod:`reviewer.contradiction.scan`) add up to a mass that says
the answer behaves well (``good``) and a mass that says it behaves badly (``bad``). The
verdict says one of the two: "oui" on a success criterion or "non" on a failure
criterion means *good*; the other two cells mean *bad*. The contradiction score is

    score = max(0, opposite - agreeing) / (opposite + agreeing + PRIOR + unknown)

where ``opposite`` is the mass against the verdict. One clear cue against the verdict
and nothing for it scores 0.67; mixed cues score near 0, so unsure rationales are not
flagged. ``PRIOR`` keeps a single weak cue (a criterion keyword, 0.5) under the
threshold; ``unknown`` is the mass lost when the rationale is cut after "mais…".
"""

from __future__ import annotations

from typing import NamedTuple

from reviewer.contradiction.criterion import profile
from reviewer.contradiction.scan import ScanResult, scan

THRESHOLD = 0.5
"""A rationale is flagged as contradicting its verdict when ``score >= THRESHOLD``."""

PRIOR = 0.5
_EVIDENCE_CUES = 2
_ADJACENT = 1  # characters between two spans that still merge them (one space)

_YES = frozenset({"oui", "yes", "true", "o", "y", "1", "vrai"})
_NO = frozenset({"non", "no", "false", "n", "0", "faux"})
KINDS = ("success", "failure")
_VERDICT_WORDS = {w: True for w in ("oui", "yes", "true", "Oui", "Yes", "OUI", "YES", "True")} | {
    w: False for w in ("non", "no", "false", "Non", "No", "NON", "NO", "False")
}


class Detection(NamedTuple):
    """The verdict of the deterministic tier on one rationale.

    ``evidence`` is the rationale's wording that decided (cue words with their negator,
    joined by " … "); ``evidence_spans`` are the same as ``(start, end)`` character
    offsets into the rationale as given, for highlighting.
    """

    contradiction: bool
    score: float
    evidence: str
    evidence_spans: tuple[tuple[int, int], ...]


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
    ``criterion_id`` is accepted for symmetry with the LLM tier and not used.
    """
    if kind not in KINDS:
        raise ValueError(f"kind must be 'success' or 'failure', not {kind!r}")
    says_yes = parse_verdict(verdict)
    says_good = says_yes if kind == "success" else not says_yes
    val = profile(kind, criterion_text)
    result = scan(rationale, val)
    weights = result.segment_weights
    good = bad = 0.0
    for cue in result.cues:
        mass = cue[1] * weights[cue[2]]
        if cue[0] > 0:
            good += mass
        elif cue[0] < 0:
            bad += mass
    opposite, agreeing = (bad, good) if says_good else (good, bad)
    score = max(0.0, opposite - agreeing) / (opposite + agreeing + PRIOR + result.unknown)
    score = round(min(1.0, score), 4)
    dominant = 1 if good > bad else -1 if bad > good else 0
    spans = _evidence(result, dominant)
    evidence = " … ".join(rationale[s:e] for s, e in spans)
    return Detection(score >= THRESHOLD, score, evidence, spans)


def _evidence(result: ScanResult, dominant: int) -> tuple[tuple[int, int], ...]:
    """Spans of the (up to two) strongest cues on the winning side, in reading order."""
    if not dominant:
        return ()
    cues = [c for c in result.cues if c[0] == dominant]
    if not cues:
        return ()
    if len(cues) > _EVIDENCE_CUES:
        weights = result.segment_weights
        cues.sort(key=lambda c: -c[1] * weights[c[2]])
        del cues[_EVIDENCE_CUES:]
    at = result.starts([t for c in cues for t in (c[3], c[5])])
    spans = sorted((at[2 * k] + c[4], at[2 * k + 1] + c[6]) for k, c in enumerate(cues))
    if len(spans) == 2 and spans[1][0] <= spans[0][1] + _ADJACENT:
        # Adjacent or overlapping ("répond … directement") read better as one highlight.
        return ((spans[0][0], max(spans[0][1], spans[1][1])),)
    return tuple(spans)
