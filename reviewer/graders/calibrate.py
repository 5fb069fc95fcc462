"""Grader calibration: grade five or ten answers yourself and compare (seed 000).

« Quel que soit votre choix, notez vous-même cinq ou dix réponses et comparez-les avec
l'évaluateur avant une exécution longue. » GRPO learns from the differences inside each
group of answers to one prompt, so a grader is compared with the person group by group
(:mod:`reviewer.graders.ranking`): pairwise accuracy, Kendall τ-b, the pairs it inverts,
and the advantages it would feed GRPO beside the person's.

Two steps, so the desktop app can score once and compare as the person goes:

1. :func:`score_sheet` computes every rule-based component of every row (and, with a
   judge, :func:`judge_sheet` judges each group in one or more orders,
   :mod:`reviewer.graders.position`);
2. :func:`calibrate` compares each grader with the human scores of the groups the person
   has finished (every answer scored), and says which grader agrees best and why the
   others lose.

A grader **skips** a group it cannot score: the numbers grader on a reference without any
figure (the seed: « les réponses sans chiffres sont ignorées »), or any grader whose input
is missing on a row of the group (``expected`` for exact/contains…). Skipped groups count
in ``skipped`` and in no average.
"""

from __future__ import annotations

import dataclasses
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from reviewer.errors import BadInputError
from reviewer.graders.batch import GradeOptions, rule_score, weights_for
from reviewer.graders.combine import weighted
from reviewer.graders.judge import Judge
from reviewer.graders.lint import lint, recommend
from reviewer.graders.position import (
    Debias,
    OrderMode,
    PositionRun,
    judge_in_orders,
    orders_for,
)
from reviewer.graders.ranking import (
    MAX_SCORE,
    advantages,
    inverted_pairs,
    kendall_tau_b,
    pairwise_accuracy,
    tied_pairs,
)
from reviewer.graders.rows import Row
from reviewer.json_input import finite_number

DEFAULT_GRADERS = ("exact", "contains", "rouge_l", "numeric")
JUDGE_GRADERS = ("judge", "judge+similarity", "judge+numbers")
# Below this pairwise accuracy even the best grader disagrees with the person too often
# for a long run (one pair in five).
LOW_AGREEMENT = 0.8
# A grader that ties this share of the pairs the person separates gives GRPO no signal
# on them.
MANY_TIES = 0.5
# Below this position consistency the judge's ranking depends on the order of the answers
# (MT-Bench: GPT-4 was consistent on swapped order 65 % of the time).
POSITION_CONSISTENT = 0.9
NO_FIGURE = "reference without any figure"


@dataclass(frozen=True)
class Group:
    """The answers to one prompt: ``label`` is the row's ``group``, else ``line N`` (the
    first row of the prompt's answers); ``members`` are row indexes, in file order."""

    label: str
    members: tuple[int, ...]


def answer_name(i: int) -> str:
    """Answers of a group are named A, B, C… in file order (then #27, #28…)."""
    return chr(ord("A") + i) if i < 26 else f"#{i + 1}"


def groups_of(rows: Sequence[Row], *, judged: bool = True) -> list[Group]:
    """The groups of ``rows`` as the judge sees them (same ``group``, else same prompt).

    With ``judged``, rows of one group must share prompt and reference (the judge reads
    them once per group); rule-based graders score each row against its own reference,
    so without a judge they need not. Rows exported from several grading files (``reviewer
    export calibration``) carry ``calibration_set``: groups are then kept apart per file
    and labelled ``FILE/GROUP``.
    """
    sets = {row.raw.get("calibration_set") for row in rows}
    by_key: dict[tuple[str, str], list[int]] = {}
    for i, row in enumerate(rows):
        key = (str(row.raw.get("calibration_set", "")), row.group_key())
        members = by_key.setdefault(key, [])
        if judged and members:
            first = rows[members[0]]
            for what in ("prompt", "reference"):
                if getattr(row, what) != getattr(first, what):
                    raise BadInputError(
                        f"{row.where}: {what} differs from line {first.line} of the same group"
                    )
        members.append(i)
    out: list[Group] = []
    for (set_name, _), members in by_key.items():
        first = rows[members[0]]
        label = first.group if first.group is not None else f"line {first.line}"
        out.append(Group(f"{set_name}/{label}" if len(sets) > 1 else label, tuple(members)))
    return out


def human_scores(rows: Sequence[Row]) -> list[float | None]:
    """The per-row ``"human"`` score (any number within ±``MAX_SCORE``, higher is better;
    ``null``: not scored yet, so its group is left out of the comparison); FILE:LINE
    errors, which say whether the score is missing or is no number."""
    found: list[float | None] = []
    for row in rows:
        if "human" in row.raw and row.raw["human"] is None:
            found.append(None)
            continue
        if "human" not in row.raw:
            raise BadInputError(
                f"{row.where}: 'human' is required: your score of the answer "
                "(a number, higher is better; null while not scored)"
            )
        found.append(finite_number(row.raw["human"], f"{row.where}: 'human'", MAX_SCORE))
    return found


def _missing(name: str, row: Row, options: GradeOptions) -> str | None:
    """Why component ``name`` cannot score ``row`` (its input is absent), else None."""
    if name in ("exact", "contains") and not isinstance(row.expected, str):
        return "no 'expected' value"
    if name == "regex" and not options.pattern and not isinstance(row.expected, str):
        return "no pattern (--pattern or 'expected')"
    if name == "label" and not options.labels and not (
        isinstance(row.expected, list) and row.expected
    ):
        return "no labels (--labels or a list 'expected')"
    if name in ("rouge_l", "numeric") and not isinstance(row.reference, str):
        return "no 'reference'"
    return None


@dataclass
class ScoreSheet:
    """Every component score of every row, computed once for all graders.

    ``parts[i]`` maps a rule component to row ``i``'s score (None: the numbers grader on a
    reference without figure); ``missing[i]`` maps a component to why it cannot score row
    ``i``. ``judged`` maps a group label to its judge run, once :func:`judge_sheet` ran.
    """

    rows: Sequence[Row]
    groups: list[Group]
    options: GradeOptions
    parts: list[dict[str, float | None]]
    missing: list[dict[str, str]]
    judged: dict[str, PositionRun] = field(default_factory=dict)

    def grader_scores(self, grader: str, group: Group,
                      debias: Debias = "none") -> tuple[list[float] | None, str | None]:
        """The grader's scores of the group's answers, or None and why it skips them."""
        weights = weights_for(grader, self.options)
        judge_scores: list[float] | None = None
        if "judge" in weights:
            run = self.judged.get(group.label)
            if run is None:
                return None, "not judged"
            judge_scores = run.judge_scores(debias)
        scores: list[float] = []
        for k, i in enumerate(group.members):
            for name in weights:
                if name in self.missing[i]:
                    return None, self.missing[i][name]
            parts = dict(self.parts[i])
            if judge_scores is not None:
                parts["judge"] = judge_scores[k]
            score = weighted(parts, weights)
            if score is None:
                return None, NO_FIGURE
            scores.append(score)
        return scores, None


def score_sheet(rows: Sequence[Row], graders: Sequence[str],
                options: GradeOptions | None = None, *,
                check_groups: bool | None = None) -> ScoreSheet:
    """The rule-based components the ``graders`` need, for every row (no judge call).

    ``check_groups``: refuse groups whose rows differ in prompt or reference (default:
    when a grader needs the judge; the app checks when it runs the judge instead).
    """
    options = options or GradeOptions()
    needed: dict[str, None] = {}
    for grader in graders:
        needed.update(dict.fromkeys(weights_for(grader, options)))
    needed.pop("judge", None)
    parts: list[dict[str, float | None]] = []
    missing: list[dict[str, str]] = []
    for row in rows:
        absent = {n: why for n in needed if (why := _missing(n, row, options))}
        missing.append(absent)
        parts.append({n: rule_score(n, row, options) for n in needed if n not in absent})
    if check_groups is None:
        check_groups = "judge" in {n for g in graders for n in weights_for(g, options)}
    return ScoreSheet(rows, groups_of(rows, judged=check_groups), options, parts, missing)


def uses_judge(graders: Sequence[str], options: GradeOptions) -> bool:
    """Whether any of the graders needs the judge."""
    return any("judge" in weights_for(g, options) for g in graders)


def judge_calls(sheet: ScoreSheet, orders: int, mode: OrderMode = "rotate") -> int:
    """The judge calls :func:`judge_sheet` would make: one per group and order."""
    return sum(len(orders_for(len(g.members), orders, mode)) for g in sheet.groups)


def judge_sheet(
    sheet: ScoreSheet,
    judge: Judge,
    orders: int = 1,
    mode: OrderMode = "rotate",
    *,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> dict[str, PositionRun]:
    """Judge every group in ``orders`` orders (stored in ``sheet.judged`` as it goes, so
    the groups judged before a failure are kept); ``progress(done, total)`` after each
    group; ``cancelled()`` true stops before the next group."""
    for done, group in enumerate(sheet.groups, 1):
        if cancelled is not None and cancelled():
            break
        first = sheet.rows[group.members[0]]
        responses = [sheet.rows[i].response for i in group.members]
        order_list = orders_for(len(responses), orders, mode, seed=seed, label=group.label)
        sheet.judged[group.label] = judge_in_orders(
            judge, first.prompt, first.reference, responses, order_list
        )
        if progress:
            progress(done, len(sheet.groups))
    return sheet.judged


@dataclass(frozen=True)
class GroupResult:
    """One grader on one group the person finished."""

    group: Group
    human: tuple[float, ...]
    scores: tuple[float, ...] | None  # None: the grader skips the group
    skipped: str | None = None
    pairwise_accuracy: float | None = None
    kendall_tau_b: float | None = None
    advantages: tuple[float, ...] = ()
    inverted: tuple[tuple[int, int], ...] = ()  # (better, worse) by the person, in-group
    tied: tuple[tuple[int, int], ...] = ()  # pairs the person separates, the grader ties

    @property
    def human_pairs(self) -> int:
        """Pairs of answers the person scored differently."""
        h = self.human
        return sum(1 for i in range(len(h)) for j in range(i + 1, len(h)) if h[i] != h[j])


def _mean(values: Sequence[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return statistics.fmean(present) if present else None


@dataclass(frozen=True)
class GraderResult:
    """One grader over the finished groups."""

    name: str
    groups: tuple[GroupResult, ...]

    @property
    def scored(self) -> tuple[GroupResult, ...]:
        """Groups the grader scored (not skipped)."""
        return tuple(g for g in self.groups if g.scores is not None)

    @property
    def skipped(self) -> int:
        """Groups the grader skips (numbers: a reference without figure; missing input)."""
        return len(self.groups) - len(self.scored)

    @property
    def pairwise_accuracy(self) -> float | None:
        """Mean pairwise accuracy over the groups where it is defined."""
        return _mean([g.pairwise_accuracy for g in self.groups])

    @property
    def kendall_tau_b(self) -> float | None:
        """Mean τ-b over the groups where it is defined."""
        return _mean([g.kendall_tau_b for g in self.groups])

    def defined(self, metric: str) -> int:
        """Groups where ``metric`` (``pairwise_accuracy`` or ``kendall_tau_b``) is defined."""
        return sum(1 for g in self.groups if getattr(g, metric) is not None)

    @property
    def inverted(self) -> list[tuple[Group, int, int]]:
        """Every pair the grader inverts: (group, better, worse) by the person."""
        return [(g.group, a, b) for g in self.groups for a, b in g.inverted]

    @property
    def tied(self) -> int:
        """Pairs the person separates and the grader scores equal."""
        return sum(len(g.tied) for g in self.groups)

    @property
    def human_pairs(self) -> int:
        """Pairs the person separates, in the groups the grader scored."""
        return sum(g.human_pairs for g in self.scored)


def compare_group(name: str, group: Group, human: Sequence[float],
                  scores: Sequence[float] | None, skipped: str | None) -> GroupResult:
    """One grader against the person on one group."""
    if scores is None:
        return GroupResult(group, tuple(human), None, skipped)
    return GroupResult(
        group,
        tuple(human),
        tuple(scores),
        None,
        pairwise_accuracy(scores, human),
        kendall_tau_b(scores, human),
        tuple(advantages(scores)),
        tuple(inverted_pairs(scores, human)),
        tuple(tied_pairs(scores, human)),
    )


@dataclass(frozen=True)
class Advice:
    """A warning about a grader choice on this data (the seed's table and mistakes)."""

    code: str
    message: str
    grader: str | None = None


@dataclass(frozen=True)
class Calibration:
    """Every grader against the person, over the groups the person finished."""

    groups: tuple[Group, ...]
    human: Mapping[str, tuple[float, ...]]
    graders: tuple[GraderResult, ...]
    judged: Mapping[str, PositionRun]
    debias: Debias
    advice: tuple[Advice, ...]
    suggested: tuple[str, str]
    total_groups: int

    def grader(self, name: str) -> GraderResult:
        """The result of grader ``name``."""
        for g in self.graders:
            if g.name == name:
                return g
        raise KeyError(name)

    def best(self) -> GraderResult | None:
        """The grader agreeing best: highest mean pairwise accuracy, then τ-b; None when
        no grader has a defined pairwise accuracy."""
        ranked = [g for g in self.graders if g.pairwise_accuracy is not None]
        if not ranked:
            return None
        return max(ranked, key=_key)

    def position_consistency(self) -> float | None:
        """Mean position consistency of the judge over the finished groups judged in
        more than one order."""
        return _mean([run.consistency() for label, run in self.judged.items()
                      if label in self.human and len(run.orders) > 1])

    def verdict(self) -> list[str]:
        """Which grader agrees best, and why each other one loses (its inverted pairs)."""
        best = self.best()
        if best is None:
            return ["No grader can be compared yet: score answers of a group differently "
                    "(a group where every answer has the same score orders no pair)."]
        lines = [f"Best agreement: {best.name} ({_figures(best)})."]
        for g in self.graders:
            if g is best:
                continue
            verb = "ties with " + best.name if _key(g) == _key(best) else "loses"
            lines.append(f"{g.name} {verb}: {_figures(g)}; {_why(g)}")
        if best.inverted:
            lines.append(f"Even {best.name} inverts: {_pairs_text(best.inverted)}.")
        return lines

    def as_json(self) -> dict[str, Any]:
        """The ``--json`` document (see docs/graders.md, "Calibration")."""
        best = self.best()
        return {
            "groups": len(self.groups),
            "groups_in_file": self.total_groups,
            "graders": {g.name: _grader_json(g) for g in self.graders},
            "human": {
                grp.label: {"scores": list(self.human[grp.label]),
                            "advantages": advantages(self.human[grp.label])}
                for grp in self.groups
            },
            "best": best.name if best else None,
            "verdict": self.verdict(),
            "position": self._position_json(),
            "suggested": {"grader": self.suggested[0], "why": self.suggested[1]},
            "advice": [{"code": a.code, "grader": a.grader, "message": a.message}
                       for a in self.advice],
        }

    def _position_json(self) -> dict[str, Any] | None:
        runs = {g.label: self.judged[g.label] for g in self.groups if g.label in self.judged}
        if not runs:
            return None
        return {
            "orders": max(len(r.orders) for r in runs.values()),
            "debias": self.debias,
            "calls": sum(len(r.orders) for r in runs.values()),
            "consistency": self.position_consistency(),
            "per_group": {label: run.as_dict() for label, run in runs.items()},
        }


def _key(g: GraderResult) -> tuple[float, float]:
    """How graders are ranked: mean pairwise accuracy, then mean τ-b (undefined last)."""
    return (-1.0 if g.pairwise_accuracy is None else g.pairwise_accuracy,
            -2.0 if g.kendall_tau_b is None else g.kendall_tau_b)


def _figures(g: GraderResult) -> str:
    pa, tau = g.pairwise_accuracy, g.kendall_tau_b
    text = f"pairwise accuracy {_num(pa)}, τ-b {_num(tau)}"
    if g.skipped:
        text += f", on {len(g.scored)} of {len(g.groups)} groups"
    return text


def _num(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.3f}"


def _why(g: GraderResult) -> str:
    parts = []
    if g.inverted:
        parts.append(f"inverts {len(g.inverted)} pair(s): {_pairs_text(g.inverted)}")
    if g.tied:
        parts.append(f"scores equal {g.tied} of the {g.human_pairs} pair(s) you separate")
    if g.skipped:
        reasons = sorted({r.skipped for r in g.groups if r.skipped})
        parts.append(f"skips {g.skipped} group(s) ({'; '.join(reasons)})")
    return "; ".join(parts) or "agrees on fewer groups"


def _pairs_text(pairs: Sequence[tuple[Group, int, int]], limit: int = 5) -> str:
    shown = [f"{grp.label}: {answer_name(b)} above {answer_name(a)} "
             f"(you: {answer_name(a)} above {answer_name(b)})" for grp, a, b in pairs[:limit]]
    more = f", and {len(pairs) - limit} more" if len(pairs) > limit else ""
    return ", ".join(shown) + more


def _grader_json(g: GraderResult) -> dict[str, Any]:
    return {
        "pairwise_accuracy": g.pairwise_accuracy,
        "kendall_tau_b": g.kendall_tau_b,
        "groups": len(g.scored),
        "skipped": g.skipped,
        "defined": {"pairwise_accuracy": g.defined("pairwise_accuracy"),
                    "kendall_tau_b": g.defined("kendall_tau_b")},
        "inverted_pairs": len(g.inverted),
        "tied_pairs": g.tied,
        "per_group": {
            r.group.label: {
                "scores": None if r.scores is None else list(r.scores),
                "pairwise_accuracy": r.pairwise_accuracy,
                "kendall_tau_b": r.kendall_tau_b,
                "advantages": None if r.scores is None else list(r.advantages),
                "inverted": [[a, b] for a, b in r.inverted],
                "skipped": r.skipped,
            }
            for r in g.groups
        },
    }


def _advice(sheet: ScoreSheet, graders: Sequence[GraderResult], judge_model: str | None,
            policy_model: str | None, consistency: float | None,
            debias: Debias) -> list[Advice]:
    """The seed's common mistakes (:func:`lint`) for each grader, then what the human
    scores show: a best grader that still disagrees often, graders tying many pairs, a
    judge whose ranking follows the order of the answers."""
    found: list[Advice] = []
    if consistency is not None and consistency < POSITION_CONSISTENT:
        found.append(Advice(
            "position-bias",
            f"the judge orders only {100 * consistency:.0f} % of the answer pairs the same "
            "way whatever the order they are shown in: its scores partly reward positions"
            + ("" if debias == "mean" else "; --debias mean averages the orders"),
            "judge",
        ))
    for g in graders:
        weights = weights_for(g.name, sheet.options)
        for w in lint(sheet.rows, weights, judge_model=judge_model, policy_model=policy_model):
            found.append(Advice(w.code, w.message, g.name))
        if g.human_pairs and g.tied / g.human_pairs >= MANY_TIES:
            found.append(Advice(
                "ties-hide-differences",
                f"{g.name} scores equal {g.tied} of the {g.human_pairs} pairs you separate: "
                "GRPO gets no signal between those answers (all-or-nothing scores only "
                "work when there is a single verifiable answer)",
                g.name,
            ))
    ranked = [g for g in graders if g.pairwise_accuracy is not None]
    if ranked:
        best = max(ranked, key=lambda g: g.pairwise_accuracy or 0.0)
        if (best.pairwise_accuracy or 0.0) < LOW_AGREEMENT:
            found.append(Advice(
                "low-agreement",
                f"the best grader here, {best.name}, orders only "
                f"{100 * (best.pairwise_accuracy or 0.0):.0f} % of your pairs as you do: "
                "the model would learn the grader's opinion, not yours",
                best.name,
            ))
    return found


def calibrate(
    sheet: ScoreSheet,
    human: Sequence[float | None],
    graders: Sequence[str],
    *,
    debias: Debias = "none",
    judge_model: str | None = None,
    policy_model: str | None = None,
) -> Calibration:
    """Compare each grader with the person on the groups where every answer has a human
    score (``human[i]`` None: not scored yet)."""
    if len(human) != len(sheet.rows):
        raise ValueError(f"{len(human)} human scores for {len(sheet.rows)} rows")
    done = [g for g in sheet.groups if all(human[i] is not None for i in g.members)]
    human_by = {g.label: tuple(float(human[i] or 0.0) for i in g.members) for g in done}
    results = []
    for name in graders:
        per_group = []
        for grp in done:
            scores, why = sheet.grader_scores(name, grp, debias)
            per_group.append(compare_group(name, grp, human_by[grp.label], scores, why))
        results.append(GraderResult(name, tuple(per_group)))
    found = Calibration(
        groups=tuple(done),
        human=human_by,
        graders=tuple(results),
        judged=dict(sheet.judged),
        debias=debias,
        advice=(),
        suggested=recommend(sheet.rows),
        total_groups=len(sheet.groups),
    )
    advice = _advice(sheet, results, judge_model, policy_model,
                     found.position_consistency(), debias)
    return dataclasses.replace(found, advice=tuple(advice))
