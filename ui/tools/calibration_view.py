"""What the Calibration window shows, computed without widgets (no Qt here).

``CalibrationState`` holds a loaded grading file, its grader scores (one ``ScoreSheet``)
and the reviewer's scores as they are stored, and answers the window's questions: which
group, in which order, is it finished, how does each grader compare on it and over the
finished groups. The window only turns these answers into widgets.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from reviewer.calibration.sets import LoadedSet
from reviewer.graders.calibrate import (
    DEFAULT_GRADERS,
    JUDGE_GRADERS,
    Calibration,
    Group,
    GroupResult,
    ScoreSheet,
    calibrate,
    score_sheet,
)
from reviewer.graders.position import Debias, PositionRun

# Every grader the window can show; the judge ones once the judge has run.
ALL_GRADERS = (*DEFAULT_GRADERS, *JUDGE_GRADERS)


def prepare(loaded: LoadedSet) -> tuple[LoadedSet, ScoreSheet]:
    """The set with every rule-based component scored (run in the background)."""
    return loaded, score_sheet(loaded.rows, ALL_GRADERS, check_groups=False)


@dataclass
class CalibrationState:
    """A grading file being scored by one reviewer."""

    loaded: LoadedSet
    sheet: ScoreSheet
    human: list[float | None] = field(default_factory=list)
    modes: list[str | None] = field(default_factory=list)
    debias: Debias = "none"
    group: int = 0
    order: list[int] = field(default_factory=list)  # row indexes as displayed
    ranking_changed: bool = False

    def __post_init__(self) -> None:
        if not self.human:
            self.human = list(self.loaded.human)
            self.modes = list(self.loaded.modes)
        self.go(self.first_unfinished())

    # --- groups ----------------------------------------------------------------------
    @property
    def groups(self) -> tuple[Group, ...]:
        """The file's groups, in file order (as the comparison labels them)."""
        return tuple(self.sheet.groups)

    @property
    def current(self) -> Group:
        """The group on screen."""
        return self.groups[self.group]

    def finished(self, group: Group) -> bool:
        """Every answer of ``group`` has a stored score."""
        return all(self.human[i] is not None for i in group.members)

    @property
    def finished_count(self) -> int:
        """How many groups are finished."""
        return sum(1 for g in self.groups if self.finished(g))

    def first_unfinished(self, start: int = 0) -> int:
        """The first unfinished group from ``start`` (wrapping), else ``start``."""
        n = len(self.groups)
        for k in range(n):
            index = (start + k) % n
            if not self.finished(self.groups[index]):
                return index
        return start if n else 0

    def go(self, index: int) -> None:
        """Show group ``index`` (clamped), in its stored ranking if it was ranked."""
        self.group = max(0, min(index, len(self.groups) - 1))
        members = list(self.current.members)
        if all(self.modes[i] == "rank" for i in members):
            members.sort(key=lambda i: -(self.human[i] or 0.0))
        self.order = members
        self.ranking_changed = False

    def move(self, position: int, step: int) -> int:
        """Move the answer at ``position`` by ``step`` places; its new position."""
        target = position + step
        if not 0 <= position < len(self.order) or not 0 <= target < len(self.order):
            return position
        self.order[position], self.order[target] = self.order[target], self.order[position]
        self.ranking_changed = True
        return target

    def row_ids(self, indexes: list[int]) -> list[int]:
        """Store ids of rows."""
        return [self.loaded.row_ids[i] for i in indexes]

    def stored(self, scores: dict[int, float | None], modes: dict[int, str | None]) -> None:
        """Scores the store reports written (by row id)."""
        for row_id, score in scores.items():
            i = self.loaded.index_of(row_id)
            self.human[i] = score
            self.modes[i] = modes.get(row_id)
        if scores and all(m == "rank" for m in modes.values()):
            self.ranking_changed = False

    def reload(self, scores: dict[int, tuple[float, str]]) -> bool:
        """Every stored score of the reviewer (row id → score, mode); True when one
        differs from what the screen shows."""
        human = [scores.get(row_id, (None, None))[0] for row_id in self.loaded.row_ids]
        modes = [scores.get(row_id, (None, None))[1] for row_id in self.loaded.row_ids]
        if human == self.human and modes == self.modes:
            return False
        self.human, self.modes = human, modes
        if not self.ranking_changed:
            self.go(self.group)
        return True

    # --- judge -----------------------------------------------------------------------
    @property
    def judged(self) -> dict[str, PositionRun]:
        """Judge runs per group label (the sheet keeps them)."""
        return self.sheet.judged

    def graders(self) -> tuple[str, ...]:
        """The graders compared: the rule-based ones, the judge ones once it has run."""
        return ALL_GRADERS if self.judged else DEFAULT_GRADERS

    # --- comparison ------------------------------------------------------------------
    def calibration(self) -> Calibration:
        """Every grader against the reviewer over the finished groups."""
        return calibrate(self.sheet, self.human, self.graders(), debias=self.debias)

    def results(self, result: Calibration) -> dict[str, GroupResult]:
        """Each grader's result on the group on screen (finished groups only)."""
        found: dict[str, GroupResult] = {}
        for g in result.graders:
            for r in g.groups:
                if r.group.label == self.current.label:
                    found[g.name] = r
        return found
