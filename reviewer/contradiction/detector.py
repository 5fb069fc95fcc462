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

from dataclasses import dataclass

from reviewer.contradiction.criterion import profile
from reviewer.contradiction.normalize import normalize
from reviewer.contradiction.scan import Cue, scan

THRESHOLD = 0.5
"""A rationale is flagged as contradicting its verdict when ``score >= THRESHOLD``."""

PRIOR = 0.6
_EVIDENCE_CUES = 2
_ADJACENT = 1  # characters between two spans that still merge them (one space)

_YES = frozenset({"oui", "yes", "true", "o", "y", "1", "vrai"})
_NO = frozenset({"non", "no", "false", "n", "0", "faux"})
KINDS = ("success", "failure")


@dataclass(frozen=True, slots=True)
class Detection:
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
    result = scan(normalize(rationale), val)
    weights = result.segment_weights
    good = bad = 0.0
    for cue in result.cues:
        mass = cue.weight * weights[cue.segment]
        if cue.valence > 0:
            good += mass
        elif cue.valence < 0:
            bad += mass
    opposite, agreeing = (bad, good) if says_good else (good, bad)
    score = max(0.0, opposite - agreeing) / (opposite + agreeing + PRIOR + result.unknown)
    score = round(min(1.0, score), 4)
    dominant = 1 if good > bad else -1 if bad > good else 0
    spans = _evidence(result.cues, weights, dominant)
    evidence = " … ".join(rationale[s:e] for s, e in spans)
    return Detection(score >= THRESHOLD, score, evidence, spans)


def _evidence(
    cues: list[Cue], weights: list[float], dominant: int
) -> tuple[tuple[int, int], ...]:
    """Spans of the strongest cues on the winning side, in reading order, merged."""
    if not dominant:
        return ()
    ranked = sorted(
        (c for c in cues if c.valence == dominant),
        key=lambda c: -c.weight * weights[c.segment],
    )[:_EVIDENCE_CUES]
    spans = sorted((c.start, c.end) for c in ranked)
    merged: list[tuple[int, int]] = []
    for start, end in spans:
        # Adjacent words ("répond directement") read better as one highlight.
        if merged and start <= merged[-1][1] + _ADJACENT:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return tuple(merged)
