"""What an operation changed, so each screen refreshes only what it shows (Anki's OpChanges).

Every write operation of the domain (a review action, a second opinion batch, a saved check
version, an import) reports a ``Changes``; the app's task manager hands it to every open
screen, which decides from it what to reload. Operations never call back into the screens.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Changes:
    """The kinds of stored state an operation changed, and on which attempts.

    ``attempts`` lists the attempts whose shown state changed (decision, override, note,
    verdicts, flags); an empty set with a flag set means "possibly any attempt".
    """

    attempts: frozenset[int] = field(default_factory=frozenset)
    decisions: bool = False  # review decisions, overrides or notes (queue states, progress)
    verdicts: bool = False  # new verdicts: second opinions, re-judged criteria
    flags: bool = False  # contradiction flags or scores (queue order)
    catalog: bool = False  # check or criterion versions
    attempts_added: bool = False  # an import added attempts (queue, filter choices)
    calibration: bool = False  # human scores of calibration answers (reviewer.calibration)

    def __or__(self, other: Changes) -> Changes:
        return Changes(
            self.attempts | other.attempts,
            self.decisions or other.decisions,
            self.verdicts or other.verdicts,
            self.flags or other.flags,
            self.catalog or other.catalog,
            self.attempts_added or other.attempts_added,
            self.calibration or other.calibration,
        )

    @property
    def empty(self) -> bool:
        """True when nothing stored changed."""
        return not (self.attempts or self.decisions or self.verdicts or self.flags
                    or self.catalog or self.attempts_added or self.calibration)

    def touches(self, attempt_id: int | None) -> bool:
        """Whether a screen showing ``attempt_id`` must reload it."""
        if attempt_id is None or self.empty:
            return False
        if attempt_id in self.attempts:
            return True
        # A change of every attempt's state (e.g. a new check version) names no attempt.
        return not self.attempts and (self.verdicts or self.flags or self.catalog)


NOTHING = Changes()


def decision_of(attempt_id: int) -> Changes:
    """A reviewer decision, override or note changed on one attempt."""
    return Changes(attempts=frozenset({attempt_id}), decisions=True)
