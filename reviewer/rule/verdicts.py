"""The verdict the rule uses for one criterion of one attempt, layer by layer.

Three layers, each optional after the first:

1. the judge's first opinion (the imported verdict);
2. the second opinion: a success criterion re-judged alone replaces a first "non" only
   when it says "oui" (the seed's ``revoirReussites``: it can save an answer, never
   condemn one; a failure criterion is never re-judged this way);
3. the reviewer's override, which replaces whatever the judge said.

``effective_verdict`` is the only place these layers are combined; replay, the example
pane, the toggles, the exports and the agreement figures all read its result, so "judge
said X, second opinion Y, you Z" and the decision the filter would take now cannot
disagree. Whether the resulting verdict refuses the attempt is
:func:`reviewer.rule.filter.refuses`.
"""

from __future__ import annotations

from dataclasses import dataclass

from reviewer.rule.filter import Kind, VerdictOutcome, refuses


@dataclass(frozen=True, slots=True)
class Opinion:
    """What one judge call said about one criterion."""

    met: bool  # "oui"
    rationale: str = ""
    model: str | None = None


@dataclass(frozen=True, slots=True)
class EffectiveVerdict:
    """One criterion's verdict with what each layer said (build it with ``effective_verdict``).

    ``judged`` is the judge's reading after the second opinion, ``met`` the verdict the
    rule uses (the override when there is one), ``rationale`` the reasoning of the judge
    call that decided ``judged``. It has the attributes :func:`reviewer.rule.filter.decide`
    reads, so it goes to the rule as it is.
    """

    criterion_id: str
    kind: Kind
    severity: str | None
    first: Opinion
    second: Opinion | None
    override: bool | None
    judged: bool
    met: bool
    rationale: str

    @property
    def rescued(self) -> bool:
        """True when the second opinion turned the first "non" into "oui"."""
        return self.judged != self.first.met

    @property
    def refuses(self) -> bool:
        """Whether this verdict, as it stands now, refuses the attempt."""
        return refuses(self.kind, self.met, self.severity)

    @property
    def outcome(self) -> VerdictOutcome:
        """The plain rule input (what the filter itself would have been given)."""
        return VerdictOutcome(self.criterion_id, self.kind, self.met, self.rationale,
                              self.severity)


def rescuable(kind: str, first_met: bool) -> bool:
    """Whether a second opinion could save this first verdict (a success judged "non"):
    the criteria the seed re-judges alone."""
    return kind == "success" and not first_met


def effective_verdict(criterion_id: str, kind: Kind, severity: str | None, first: Opinion,
                      second: Opinion | None = None,
                      override: bool | None = None) -> EffectiveVerdict:
    """Combine the layers (see the module docstring) for one criterion."""
    rescued = rescuable(kind, first.met) and second is not None and second.met
    judged = True if rescued else first.met
    rationale = second.rationale if rescued and second is not None else first.rationale
    met = judged if override is None else override
    return EffectiveVerdict(criterion_id, kind, severity, first, second, override, judged,
                            met, rationale)
