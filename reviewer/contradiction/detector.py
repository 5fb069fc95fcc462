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
from reviewer.contradiction.engine import scan
from reviewer.contradiction.scan import Cue, ScanResult

THRESHOLD = 0.5
"""A rationale is flagged as contradicting its verdict when ``score >= THRESHOLD``."""

PRIOR = 0.5
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
    weights = result.segment_weights
    # One pass: both masses, and the two strongest cues of each side for the evidence
    # (on ties the first in reading order wins).
    good = bad = 0.0
    g1 = g2 = b1 = b2 = None
    gm1 = gm2 = bm1 = bm2 = 0.0
    for cue in result.cues:
        valence = cue[0]
        if not valence:
            continue
        mass = cue[1] * weights[cue[2]]
        if valence > 0:
            good += mass
            if g1 is None or mass > gm1:
                g2, gm2, g1, gm1 = g1, gm1, cue, mass
            elif g2 is None or mass > gm2:
                g2, gm2 = cue, mass
        else:
            bad += mass
            if b1 is None or mass > bm1:
                b2, bm2, b1, bm1 = b1, bm1, cue, mass
            elif b2 is None or mass > bm2:
                b2, bm2 = cue, mass
    opposite, agreeing = (bad, good) if says_yes == success else (good, bad)
    score = (opposite - agreeing) / (opposite + agreeing + PRIOR + result.unknown)
    score = round(score, 4) if score > 0.0 else 0.0
    if score > 1.0:
        score = 1.0
    if good > bad:
        spans = _evidence(result, g1, g2)
    elif bad > good:
        spans = _evidence(result, b1, b2)
    else:
        spans = ()
    if not spans:
        return Detection(score >= THRESHOLD, score, "", spans)
    if len(spans) == 1:
        evidence = rationale[spans[0][0] : spans[0][1]]
    else:
        (a, b), (c, d) = spans
        evidence = f"{rationale[a:b]} … {rationale[c:d]}"
    return Detection(score >= THRESHOLD, score, evidence, spans)


def _evidence(
    result: ScanResult, first: Cue | None, second: Cue | None
) -> tuple[tuple[int, int], ...]:
    """Spans of the (up to two) strongest cues on the winning side, in reading order."""
    if first is None:
        return ()
    if second is None:
        at = result.starts([first[3], first[5]])
        return ((at[0] + first[4], at[1] + first[6]),)
    at = result.starts([first[3], first[5], second[3], second[5]])
    one = (at[0] + first[4], at[1] + first[6])
    two = (at[2] + second[4], at[3] + second[6])
    if two < one:
        one, two = two, one
    if two[0] <= one[1] + _ADJACENT:
        # Adjacent or overlapping ("répond … directement") read better as one highlight.
        return ((one[0], max(one[1], two[1])),)
    return (one, two)
