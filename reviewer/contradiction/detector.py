"""Score whether a judge's rationale asserts the opposite of its verdict.

Two readings are stacked. The scanner's cues (see :mod:`reviewer.contradiction.scan`)
add up to a mass that says the answer behaves well (``good``) and a mass that says it
behaves badly (``bad``); a logistic regression (:mod:`reviewer.contradiction.learned`)
takes those masses and the rationale's words and word pairs, and gives the log-odds
that the rationale says the answer behaves well on the criterion. The verdict says one
of the two: "oui" on a success criterion or "non" on a failure criterion means *good*;
the other two cells mean *bad*. ``z``, the log-odds of the side the verdict did not
pick, is calibrated into the probability that the verdict contradicts its rationale
(see :func:`probability`), at one of two base rates:

* ``at_base_rate=True`` — on a real filter run, where about one verdict in a hundred
  contradicts its rationale, almost all of them verdicts that refuse: what the app
  stores, shows, badges and sorts the queue by (``reviewer.contradiction.flagging``);
* by default — at even odds, as on a labelled set where half the verdicts contradict:
  whether the rationale reads against its verdict at all (file mode, the guard of
  second opinions, the labelled sets' figures).

Both come from one calibration and differ only by the prior, and ``score >= THRESHOLD``
(0.5) is the detection in both. The evidence is the scanner's two strongest cues when
they lean the same way as the model, else the two words that pushed the model most.
"""

from __future__ import annotations

from math import exp, log
from typing import NamedTuple

from reviewer.contradiction.criterion import profile
from reviewer.contradiction.engine import cue_spans, masses, scan, token_span, two_spans
from reviewer.contradiction.learned import Model, model
from reviewer.contradiction.scan import ScanResult

THRESHOLD = 0.5
"""A rationale is flagged as contradicting its verdict when ``score >= THRESHOLD``: the
calibrated probability of a contradiction is at least one half."""

# On a run: P(contradiction) = sigmoid(SLOPE * z + OFFSET), per side of the verdict,
# fitted by ``scripts/train_contradiction.py --baserate`` on the base-rate development
# runs, each read by a model that never saw it. A verdict saying *good* (success "oui",
# failure "non") almost never contradicts its rationale (the judge mostly grades good
# answers, and those verdicts are most of a run), while one saying *bad* does often
# enough: a refusal is where a judge that ticked the wrong box shows. So the same
# reading weighs much less against a "good" verdict than against a "bad" one.
SLOPE_BAD, OFFSET_BAD = 0.952, -1.720
SLOPE_GOOD, OFFSET_GOOD = 0.993, -5.606
# The share of contradictions among those runs' verdicts, per side (printed by
# ``--baserate``): the prior inside the offsets above, replaced by even odds for a
# reading without a run's base rate.
PRIOR_BAD, PRIOR_GOOD = 0.2591, 0.0022
SCORE_FLOOR = 0.001
"""Below this probability the score is 0: the rationale does not lean against the verdict
enough to be worth storing or showing (most verdicts of a run)."""


def _logit(p: float) -> float:
    return log(p / (1.0 - p))


_EVEN_BAD = OFFSET_BAD - _logit(PRIOR_BAD)
_EVEN_GOOD = OFFSET_GOOD - _logit(PRIOR_GOOD)


def probability(z: float, verdict_good: bool, at_base_rate: bool = True) -> float:
    """The calibrated probability that a verdict contradicts its rationale, from ``z``,
    the model's log-odds that the rationale says the side the verdict did not pick: on
    a real run (``at_base_rate``), or at even odds."""
    if verdict_good:
        x = SLOPE_GOOD * z + (OFFSET_GOOD if at_base_rate else _EVEN_GOOD)
    else:
        x = SLOPE_BAD * z + (OFFSET_BAD if at_base_rate else _EVEN_BAD)
    if x < -700.0:
        return 0.0
    return 1.0 / (1.0 + exp(-x))


def calibrated(z: float, verdict_good: bool, at_base_rate: bool = True) -> bool:
    """Whether a reading ``z`` of a verdict on that side is detected."""
    return probability(z, verdict_good, at_base_rate) >= THRESHOLD


_YES = frozenset({"oui", "yes", "true", "o", "y", "1", "vrai"})
_NO = frozenset({"non", "no", "false", "n", "0", "faux"})
KINDS = ("success", "failure")
_VERDICT_WORDS = {w: True for w in ("oui", "yes", "true", "Oui", "Yes", "OUI", "YES", "True")} | {
    w: False for w in ("non", "no", "false", "Non", "No", "NON", "NO", "False")
}


class Detection(NamedTuple):
    """The verdict of the deterministic tier on one rationale.

    ``score`` is the calibrated probability that the verdict contradicts its rationale
    (at the base rate :func:`detect` was asked for), ``contradiction`` is ``score >=
    THRESHOLD``. ``evidence`` is the rationale's wording that decided (the scanner's cue words with
    their negator, or the words that weighed most in the learned reading, joined by
    " … "); ``evidence_spans`` are the same as ``(start, end)`` character offsets into the
    rationale as given, for highlighting.
    """

    contradiction: bool
    score: float
    evidence: str
    evidence_spans: tuple[tuple[int, int], ...]


_NOTHING = Detection(False, 0.0, "", ())


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
    at_base_rate: bool = False,
) -> Detection:
    """Does ``rationale`` assert the opposite of ``verdict`` on a ``kind`` criterion?

    ``kind`` is "success" or "failure"; ``verdict`` as in :func:`parse_verdict`.
    ``criterion_id`` lets the model weigh the scanner as it learned to for that
    criterion (an unknown or empty id uses the weights of all criteria).
    ``at_base_rate``: score the verdict as one of a real filter run (what the app flags)
    instead of at even odds (see the module docstring).
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
    verdict_good = says_yes == success
    score = round(probability(-z if verdict_good else z, verdict_good, at_base_rate), 4)
    if score < SCORE_FLOOR:
        return _NOTHING
    side = 1 if z >= 0.0 else -1
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
