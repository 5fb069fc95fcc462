"""Which contradicted verdicts would change the filter's decision: what the badge shows.

A verdict whose rationale reads against it is worth a reviewer's time first when reading
it the way its rationale reads would change what the filter decided:

* on a refused attempt, the contradicted verdicts that refuse it, all read the other way
  (the others as they are), make the filter accept: those are the ones a "rescue" flips;
  when something else still refuses the attempt (a failed check, a fault the rationale
  confirms), none of them changes the decision;
* on an accepted attempt, a contradicted verdict whose reading alone makes the filter
  refuse is a likely false accept (the audit view).

The decision is the filter's own, computed by :func:`reviewer.rule.filter.decide` on the
verdicts as they stand after second opinions (``reviewer.rule.verdicts``); a reviewer's
overrides do not enter it, they *resolve* flags (see ``reviewer.review.example`` and the
queue): the badge, the queue's flag column and "contradictions only" all read this one
function's answer, stored with each reading by ``flagging``.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from reviewer.rule.filter import CheckOutcome, RuleVerdict, VerdictOutcome, decide, refuses


def read_otherwise(verdict: RuleVerdict) -> VerdictOutcome:
    """The verdict as its rationale reads: the other way."""
    return VerdictOutcome(verdict.criterion_id, "success" if verdict.kind == "success"
                          else "failure", not verdict.met, verdict.rationale,
                          verdict.severity)


def decision_changing(checks: Sequence[CheckOutcome], verdicts: Sequence[RuleVerdict],
                      contradicted: Collection[str]) -> frozenset[str]:
    """The criterion ids among ``contradicted`` whose reading the other way changes the
    filter's decision on this attempt (see the module docstring); empty when none does.

    ``verdicts`` are the attempt's verdicts as the rule sees them (second opinions
    applied); ``contradicted`` the ids of those the detector reads against their verdict.
    """
    if not contradicted:
        return frozenset()
    if not decide(checks, verdicts).accepted:
        flips = {v.criterion_id for v in verdicts if v.criterion_id in contradicted
                 and refuses(v.kind, v.met, v.severity)}
        if not flips:
            return frozenset()
        read = [read_otherwise(v) if v.criterion_id in flips else v for v in verdicts]
        return frozenset(flips) if decide(checks, read).accepted else frozenset()
    changing = set()
    for verdict in verdicts:
        if verdict.criterion_id not in contradicted:
            continue
        read = [read_otherwise(v) if v is verdict else v for v in verdicts]
        if not decide(checks, read).accepted:
            changing.add(verdict.criterion_id)
    return frozenset(changing)
