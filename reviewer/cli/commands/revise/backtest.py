"""``reviewer backtest CHECK_ID PATTERN [--flags i] [--mode M] [--when W]
[--dialect ecmascript|python] [--json]``.

Prints the hits a new pattern removes and adds over every stored attempt, with their
attempt keys, how the old and new patterns agree with the reviewer's decisions, and the
holes of the new pattern that stored responses fall into (``reviewer.revise.pattern_lint``).
Each pattern runs in its dialect: the current one in its version's, the new one in
``--dialect`` (default: the check's).
"""

from __future__ import annotations

import argparse
from typing import Any

from reviewer.agreement.confusion import Confusion
from reviewer.cli.arguments import match_seconds, reviewer_option, seconds
from reviewer.cli.common import print_json, store_from
from reviewer.revise.backtest import DEFAULT_BUDGET, BacktestResult, backtest, current_pattern
from reviewer.revise.pattern_lint import LintFinding, lint_pattern
from reviewer.rule.checks import DEFAULT_TIMEOUT, DIALECTS, CheckPattern
from reviewer.store.names import REVIEWERS, existing_one


def register(sub: Any) -> None:
    """Add the ``backtest`` command."""
    p = sub.add_parser("backtest", help="what a new pattern for a check would change")
    p.add_argument("check_id", metavar="CHECK_ID")
    p.add_argument("pattern", metavar="PATTERN")
    p.add_argument("--flags", default=None,
                   help="flag letters: python i m s x, ecmascript d g i m s u v y "
                        "(default: the check's)")
    p.add_argument("--mode", choices=["forbid", "require"], default=None,
                   help="default: the check's current mode")
    p.add_argument("--when", default=None, help="require mode: pattern on the last user message")
    p.add_argument("--dialect", choices=DIALECTS, default=None,
                   help="regex dialect of the new pattern: ecmascript (JavaScript's RegExp, "
                        "as the TypeScript filter runs it) or python (default: the check's)")
    p.add_argument("--reviewer", type=reviewer_option, dest="filter_reviewer", default=None,
                   metavar="NAME",
                   help="only this reviewer's decisions (default: the latest of any reviewer)")
    p.add_argument("--timeout", type=match_seconds, default=DEFAULT_TIMEOUT,
                   help="seconds allowed per text (default %(default)s)")
    p.add_argument("--budget", type=seconds, default=DEFAULT_BUDGET,
                   help="seconds allowed for the whole back-test (default %(default)s)")
    p.add_argument("--json", action="store_true", help="print a JSON object")
    p.set_defaults(func=run)


def _figures(label: str, c: Confusion) -> str:
    def pct(x: float | None) -> str:
        return "n/a" if x is None else f"{x:.0%}"

    kappa = "n/a" if c.kappa is None else f"{c.kappa:.2f}"
    return (f"{label}: {c.fp} hits on accepted, {c.fn} misses on refused, {c.tp} confirmed hits,"
            f" {c.tn} agreed passes; false-failure rate {pct(c.false_failure_rate)},"
            f" coverage {pct(c.coverage)}, precision {pct(c.precision)}, kappa {kappa}")


def print_text(result: BacktestResult, lint: list[LintFinding] | None = None) -> None:
    """The human-readable report."""
    dialects = result.old.dialect if result.old.dialect == result.new.dialect \
        else f"{result.old.dialect} → {result.new.dialect}"
    print(f"{result.check_id} v{result.old_version} → new pattern ({dialects}), "
          f"{result.attempts} attempts: {result.old_failures} → {result.new_failures} failing")
    for title, keys in (("removed", result.removed), ("added", result.added)):
        print(f"{title} ({len(keys)}):")
        for key in keys:
            print(f"  {key}")
    who = result.reviewer or "all reviewers (latest decision)"
    print(f"agreement with {who}, {result.new_agreement.n} labelled attempts:")
    print("  " + _figures("old", result.old_agreement))
    print("  " + _figures("new", result.new_agreement))
    if lint:
        print(f"lint of the new pattern ({len(lint)}):")
        for finding in lint:
            print(f"  {finding.line()}")


def run(args: argparse.Namespace) -> int:
    """Run the back-test and print it."""
    store = store_from(args)
    try:
        with store.session() as session:
            old, _ = current_pattern(session, args.check_id)
            # A reviewer the store does not know is a typo (X4), not "no labels".
            args.filter_reviewer = existing_one(session, REVIEWERS, args.filter_reviewer,
                                                "--reviewer")
            new = CheckPattern(
                args.pattern,
                old.flags if args.flags is None else args.flags,
                args.mode or old.mode,
                args.when if args.when is not None else old.when,
                args.dialect or old.dialect,
            )
            result = backtest(session, args.check_id, new, reviewer=args.filter_reviewer,
                              timeout=args.timeout, budget=args.budget)
            lint = lint_pattern(session, new, timeout=args.timeout)
    finally:
        store.close()
    if args.json:
        print_json({**result.as_dict(), "lint": [f.as_dict() for f in lint]})
    else:
        print_text(result, lint)
    return 0
