"""``reviewer calibrate IN.jsonl``: compare graders with your own scores of the answers.

Input lines are those of ``reviewer grade`` plus ``"human"``: your score of the answer
(any number within ±1e15, higher is better; ties allowed). For each grader: per group its
scores, pairwise accuracy and Kendall τ-b against yours, averaged over the groups where
they are defined; the GRPO advantages it would produce beside yours; which grader agrees
best and which pairs the others invert; the seed's table and common mistakes applied to
the file. With a judge, ``--orders K`` (at most 16) judges each group in K orders to
measure its position bias.
See docs/graders.md, "Calibration".
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from reviewer.cli.arguments import input_file, orders
from reviewer.cli.commands.graders.grade import add_grading_arguments, judge_from, options_from
from reviewer.cli.common import print_json
from reviewer.errors import BadInputError
from reviewer.graders.batch import GRADERS, GradeOptions, weights_for
from reviewer.graders.calibrate import (
    DEFAULT_GRADERS,
    JUDGE_GRADERS,
    Calibration,
    answer_name,
    calibrate,
    human_scores,
    judge_calls,
    judge_sheet,
    score_sheet,
    uses_judge,
)
from reviewer.graders.position import DEBIAS, MAX_ORDERS, ORDER_MODES
from reviewer.graders.ranking import advantages
from reviewer.graders.rows import read_rows
from reviewer.text_rules import comma_items


def register(sub: Any) -> None:
    """Add the ``calibrate`` subcommand."""
    p = sub.add_parser(
        "calibrate",
        help="compare graders with your own scores of the answers (per group)",
        description="Compare graders with the 'human' scores of IN.jsonl; see docs/graders.md.",
    )
    p.add_argument("input", type=input_file("a JSON lines file"), metavar="IN.jsonl")
    p.add_argument(
        "--graders",
        metavar="G1,G2,…",
        help=f"graders to compare, among {', '.join(GRADERS)} (default: "
        f"{','.join(DEFAULT_GRADERS)}, plus {','.join(JUDGE_GRADERS)} with --model)",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument(
        "--orders",
        type=orders,
        default=1,
        metavar="K",
        help=f"judge each group in K orders to measure position bias (K calls per group; "
        f"at most {MAX_ORDERS})",
    )
    p.add_argument(
        "--order-mode",
        choices=ORDER_MODES,
        default="rotate",
        help="how the K orders are made: rotations (default) or a seeded shuffle",
    )
    p.add_argument("--order-seed", type=int, default=0, help="seed of --order-mode shuffle")
    p.add_argument(
        "--debias",
        choices=DEBIAS,
        default="none",
        help="mean: the judge's score is the mean over the K orders (default: first order)",
    )
    add_grading_arguments(p)
    p.set_defaults(func=run)


def graders_from(args: argparse.Namespace) -> list[str]:
    """The ``--graders`` list, checked; the default depends on ``--model``."""
    if not args.graders:
        return [*DEFAULT_GRADERS, *(JUDGE_GRADERS if args.model else ())]
    names = comma_items(args.graders, "--graders")
    unknown = [n for n in names if n not in GRADERS]
    if unknown:
        raise BadInputError(
            f"unknown grader {', '.join(unknown)} (choose among {', '.join(GRADERS)})"
        )
    return list(dict.fromkeys(names))


def _progress(done: int, total: int) -> None:
    if sys.stderr.isatty():
        end = "\n" if done == total else ""
        print(f"\rjudged {done}/{total} groups", end=end, file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    """Score, judge if asked, compare, print."""
    graders = graders_from(args)
    options: GradeOptions = options_from(args)
    for name in graders:
        weights_for(name, options)  # a mix without --weights fails before any work
    rows = read_rows(args.input)
    human = human_scores(rows)
    sheet = score_sheet(rows, graders, options)
    if uses_judge(graders, options):
        judge = judge_from(args, next(g for g in graders if "judge" in weights_for(g, options)))
        calls = judge_calls(sheet, args.orders, args.order_mode)
        # The cost before any call: a judge run is paid in time (and tokens).
        print(
            f"judge {args.model}: {len(sheet.groups)} groups × up to {args.orders} order(s) "
            f"= {calls} call(s)",
            file=sys.stderr,
        )
        judge_sheet(sheet, judge, args.orders, args.order_mode, seed=args.order_seed,
                    progress=_progress)
    elif args.orders != 1 or args.debias != "none":
        raise BadInputError("--orders and --debias measure the judge: add a judge grader")
    result = calibrate(sheet, human, graders, debias=args.debias,
                       judge_model=args.model, policy_model=args.policy_model)
    if args.json:
        print_json(result.as_json())
    else:
        print(report(result))
    return 0


def _fmt(x: float | None, digits: int = 3) -> str:
    return "—" if x is None else f"{x:.{digits}f}"


def _signed(x: float) -> str:
    return f"{x:+.2f}"


def report(c: Calibration) -> str:
    """The human-readable report: agreement table, verdict, advantages, position, advice."""
    lines = [
        f"{len(c.groups)} group(s) compared on the pairs of answers you scored differently"
        + (f" ({c.total_groups - len(c.groups)} not fully scored)"
           if c.total_groups != len(c.groups) else ""),
        "",
        f"{'grader':<18}{'pairwise':>9}{'τ-b':>8}{'groups':>8}{'skipped':>8}"
        f"{'inverted':>9}{'tied':>6}",
    ]
    for g in c.graders:
        lines.append(
            f"{g.name:<18}{_fmt(g.pairwise_accuracy):>9}{_fmt(g.kendall_tau_b):>8}"
            f"{len(g.scored):>8}{g.skipped:>8}{len(g.inverted):>9}{g.tied:>6}"
        )
    lines += ["", *c.verdict(), ""]
    lines += _advantages(c)
    lines += _position(c)
    lines.append(f"Seed's table: start with {c.suggested[0]} ({c.suggested[1]}).")
    lines += [f"warning [{a.grader}] [{a.code}]: {a.message}" for a in c.advice]
    return "\n".join(lines)


def _advantages(c: Calibration) -> list[str]:
    """Per group: your score and advantage, then each grader's score and advantage."""
    lines = ["GRPO advantages per group: (score − group mean) ÷ group standard deviation "
             "(sample, N − 1); 0 when every score of the group is equal."]
    for grp in c.groups:
        human = c.human[grp.label]
        header = f"  {'':<4}{'you':>7}{'adv':>7}" + "".join(
            f"{g.name[:16]:>18}{'adv':>7}" for g in c.graders)
        lines += [f"{grp.label}", header]
        h_adv = advantages(human)
        results = [next(r for r in g.groups if r.group == grp) for g in c.graders]
        for k in range(len(grp.members)):
            row = f"  {answer_name(k):<4}{human[k]:>7g}{_signed(h_adv[k]):>7}"
            for r in results:
                if r.scores is None:
                    row += f"{'skipped':>18}{'':>7}"
                else:
                    row += f"{r.scores[k]:>18.3f}{_signed(r.advantages[k]):>7}"
            lines.append(row)
    return [*lines, ""]


def _position(c: Calibration) -> list[str]:
    runs = {g.label: c.judged[g.label] for g in c.groups
            if g.label in c.judged and len(c.judged[g.label].orders) > 1}
    if not runs:
        return []
    lines = [f"Judge position bias: mean position consistency {_fmt(c.position_consistency())} "
             f"(share of answer pairs ordered alike in every order; judge score used: "
             f"{'mean over orders' if c.debias == 'mean' else 'first order'})"]
    for label, run in runs.items():
        spread = ", ".join(f"{answer_name(k)} {s:.2f}" for k, s in enumerate(run.spread()))
        lines.append(f"  {label}: {len(run.orders)} orders, consistency "
                     f"{_fmt(run.consistency())}; score spread {spread}")
    return [*lines, ""]
