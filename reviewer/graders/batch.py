"""Grading a list of rows with one named grader (what ``reviewer grade`` runs).

Rule-based parts are computed for every row first, so a missing field is reported before
any judge call is paid for; then each group of answers goes to the judge in one call.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from reviewer.errors import BadInputError, JudgeError
from reviewer.graders.combine import JUDGE_NUMBERS, JUDGE_SIMILARITY, weighted
from reviewer.graders.exact import exact, json_valid, label, regex_match
from reviewer.graders.judge import GroupFault, Judge, JudgeNotes
from reviewer.graders.numbers import Locale, numeric
from reviewer.graders.rows import Row
from reviewer.graders.schema_patterns import SchemaPatternTimeout
from reviewer.graders.similarity import Tokenizer, rouge_l
from reviewer.judge.transport import FaultStreak

COMPONENTS = frozenset(
    {"exact", "contains", "regex", "json", "label", "rouge_l", "numeric", "judge"}
)
GRADERS = (*sorted(COMPONENTS - {"judge"}), "judge", "judge+similarity", "judge+numbers", "mix")


@dataclass(frozen=True)
class GradeOptions:
    """Parameters some graders need (see docs/graders.md for where each comes from)."""

    pattern: str | None = None
    flags: str = ""
    dialect: str = "python"  # of the regex grader's pattern: python or ecmascript
    labels: tuple[str, ...] = ()
    schema: Mapping[str, Any] | None = None
    case_sensitive: bool = False
    tokenizer: Tokenizer = "unicode"
    locale: Locale = "auto"
    weights: Mapping[str, float] | None = None


@dataclass
class GradedRow:
    """A row with its score (None when the grader ignores it) and the parts of it."""

    row: Row
    score: float | None
    components: dict[str, float | None] = field(default_factory=dict)
    judge: JudgeNotes | None = None
    judge_error: str = ""  # the judge gave no notes for this row's group

    def as_dict(self, grader: str) -> dict[str, Any]:
        """The output line: the input fields, then ``score`` and details."""
        out: dict[str, Any] = {**self.row.raw, "grader": grader, "score": self.score}
        if len(self.components) > 1:
            out["components"] = self.components
        if self.judge is not None:
            out["judge"] = self.judge.as_dict()
        if self.judge_error:
            out["judge_error"] = self.judge_error
        return out


def weights_for(grader: str, options: GradeOptions) -> dict[str, float]:
    """The weight of each component in ``grader``."""
    if grader == "judge+similarity":
        return dict(JUDGE_SIMILARITY)
    if grader == "judge+numbers":
        return dict(JUDGE_NUMBERS)
    if grader == "mix":
        if not options.weights:
            raise BadInputError("the mix grader needs --weights, e.g. judge=0.6,rouge_l=0.4")
        return {k: v for k, v in options.weights.items() if v > 0}
    if grader not in COMPONENTS:
        raise BadInputError(f"unknown grader {grader!r} (choose: {', '.join(GRADERS)})")
    return {grader: 1.0}


def _need_text(value: str | list[str] | None, what: str, grader: str, row: Row) -> str:
    if not isinstance(value, str):
        raise BadInputError(f"{row.where}: the {grader} grader needs a string {what!r}")
    return value


def _labels(row: Row, options: GradeOptions) -> list[str]:
    if options.labels:
        return list(options.labels)
    if isinstance(row.expected, list) and row.expected:
        return row.expected
    raise BadInputError(f"{row.where}: the label grader needs --labels or a list 'expected'")


def rule_score(name: str, row: Row, options: GradeOptions) -> float | None:
    """The score of one rule-based grader on one row."""
    if name in ("exact", "contains"):
        want = _need_text(row.expected, "expected", name, row)
        mode: Literal["equals", "contains"] = "equals" if name == "exact" else "contains"
        return exact(row.response, want, mode=mode, case_sensitive=options.case_sensitive)
    if name == "regex":
        pattern = options.pattern or _need_text(row.expected, "expected", "regex", row)
        try:
            return regex_match(row.response, pattern, options.flags, dialect=options.dialect)
        except BadInputError as exc:  # invalid, or too slow on this line's response
            raise BadInputError(f"{row.where}: {exc}") from None
    if name == "json":
        try:
            return json_valid(row.response, options.schema)
        except SchemaPatternTimeout as exc:  # too slow on this line's response
            raise BadInputError(f"{row.where}: {exc}") from None
    if name == "label":
        return label(row.response, _labels(row, options), case_sensitive=options.case_sensitive)
    if name == "rouge_l":
        reference = _need_text(row.reference, "reference", name, row)
        return rouge_l(row.response, reference, tokenizer=options.tokenizer)
    if name == "numeric":
        reference = _need_text(row.reference, "reference", name, row)
        return numeric(row.response, reference, locale=options.locale)
    raise BadInputError(f"unknown grader {name!r}")


def judge_groups(rows: Sequence[Row]) -> list[list[int]]:
    """Indexes of rows judged together (same group, else same prompt), in first-seen order;
    a group whose rows disagree on prompt or reference is refused."""
    groups: dict[str, list[int]] = {}
    for i, row in enumerate(rows):
        members = groups.setdefault(row.group_key(), [])
        if members:
            first = rows[members[0]]
            for what in ("prompt", "reference"):
                if getattr(row, what) != getattr(first, what):
                    raise BadInputError(
                        f"{row.where}: {what} differs from line {first.line} of the same group"
                    )
        members.append(i)
    return list(groups.values())


def iter_graded(
    rows: Sequence[Row],
    grader: str,
    options: GradeOptions | None = None,
    judge: Judge | None = None,
    progress: Callable[[int, int], None] | None = None,
    on_failure: Callable[[str, list[Row]], None] | None = None,
) -> Iterator[GradedRow]:
    """Graded rows in input order, each yielded as soon as it and all rows before it are
    done, so a long judge run can be written out as it goes (and survives a failure).

    ``progress(done, total)`` is called after each judge call. A group the judge gives
    no notes for is yielded with ``score`` None and ``judge_error`` (``on_failure(message,
    rows)`` is told), and the other groups are still graded; a fault every group would
    hit (no server, unknown model, the same HTTP 5xx three times in a row) raises
    JudgeError naming how many groups were not graded.
    """
    options = options or GradeOptions()
    weights = weights_for(grader, options)
    parts: list[dict[str, float | None]] = [
        {name: rule_score(name, row, options) for name in weights if name != "judge"}
        for row in rows
    ]
    notes: list[JudgeNotes | None] = [None] * len(rows)

    errors: dict[int, str] = {}

    def graded(i: int) -> GradedRow:
        if i in errors:
            return GradedRow(rows[i], None, parts[i], None, errors[i])
        return GradedRow(rows[i], weighted(parts[i], weights), parts[i], notes[i])

    if "judge" not in weights:
        yield from (graded(i) for i in range(len(rows)))
        return
    if judge is None:
        raise BadInputError(f"the {grader} grader needs a judge model (--model NAME)")
    groups = judge_groups(rows)
    ready = [False] * len(rows)
    next_out = 0
    streak = FaultStreak()
    for done, members in enumerate(groups, 1):
        first = rows[members[0]]
        try:
            found = judge.grade_group(
                first.prompt, first.reference, [rows[i].response for i in members]
            )
        except GroupFault as exc:
            stopped = exc.fatal or streak.observe(exc.kind, exc.status, exc.detail)
            if stopped:
                message = str(exc) if exc.fatal else streak.stop_message(str(exc))
                raise JudgeError(f"{message}; {len(groups) - done + 1} of {len(groups)} "
                                 "groups not graded") from None
            for i in members:
                errors[i] = str(exc)
                ready[i] = True
            if on_failure:
                on_failure(str(exc), [rows[i] for i in members])
        else:
            streak.observe(None)
            for i, note in zip(members, found, strict=True):
                notes[i] = note
                parts[i]["judge"] = note.score
                ready[i] = True
        if progress:
            progress(done, len(groups))
        while next_out < len(rows) and ready[next_out]:
            yield graded(next_out)
            next_out += 1


def grade_rows(
    rows: Sequence[Row],
    grader: str,
    options: GradeOptions | None = None,
    judge: Judge | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[GradedRow]:
    """Every row graded (see :func:`iter_graded`)."""
    return list(iter_graded(rows, grader, options, judge, progress))
