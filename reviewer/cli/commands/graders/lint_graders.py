"""``reviewer lint-graders IN.jsonl``: which grader to start with, and which would mislead.

Prints a profile of the dataset, the suggested grader (after the seed's table) and, for
the chosen ``--grader`` (or every grader when none is given), the common-mistake warnings.
Warnings are advice, not failures: the exit code is 0 either way.
"""

from __future__ import annotations

import argparse
from typing import Any

from reviewer.cli.arguments import input_file
from reviewer.cli.commands.graders.grade import add_judge_arguments
from reviewer.graders.batch import COMPONENTS, GRADERS, GradeOptions, weights_for
from reviewer.graders.combine import parse_weights
from reviewer.graders.lint import lint, profile, recommend
from reviewer.graders.rows import read_rows


def register(sub: Any) -> None:
    """Add the ``lint-graders`` subcommand."""
    p = sub.add_parser(
        "lint-graders",
        help="suggest a grader and warn about common mistakes on a dataset",
        description="Check a grader choice against IN.jsonl; see docs/graders.md.",
    )
    p.add_argument("input", type=input_file("a JSON lines file"), metavar="IN.jsonl")
    p.add_argument("--grader", choices=GRADERS, metavar="GRADER", help="only this grader")
    p.add_argument("--weights", metavar="NAME=W,…", help="weights of the mix grader")
    add_judge_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print profile, suggestion and warnings."""
    rows = read_rows(args.input)
    weights = parse_weights(args.weights, COMPONENTS) if args.weights else None
    options = GradeOptions(weights=weights)
    p = profile(rows)
    print(
        f"{p.rows} rows, {p.with_reference} with a reference, "
        f"{p.references_without_figures} without any figure in the reference, "
        f"median reference length {p.median_reference_words:g} words"
    )
    name, why = recommend(rows)
    print(f"suggested grader: {name} ({why})")
    graders = [args.grader] if args.grader else [g for g in GRADERS if g != "mix" or weights]
    count = 0
    for grader in graders:
        for w in lint(
            rows,
            weights_for(grader, options),
            judge_model=args.model,
            policy_model=args.policy_model,
        ):
            print(f"warning [{grader}] [{w.code}]: {w.message}")
            count += 1
    if not count:
        print("no warning")
    return 0
