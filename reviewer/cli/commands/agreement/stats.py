"""``reviewer stats [--json]``: what the store holds and how the reviews went."""

from __future__ import annotations

import argparse
from typing import Any

from reviewer.agreement.counts import basic_counts
from reviewer.agreement.feedback import feedback_stats, summary_lines
from reviewer.agreement.reviewers import reviewer_agreement
from reviewer.agreement.reviewers import summary_lines as team_lines
from reviewer.cli.common import print_json, store_from


def register(sub: Any) -> None:
    """Add the ``stats`` command."""
    p = sub.add_parser("stats", help="counts of runs, attempts, decisions")
    p.add_argument("--json", action="store_true", help="print a JSON object")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the counts."""
    store = store_from(args)
    try:
        with store.session() as session:
            data = basic_counts(session)
            feedback = feedback_stats(session)
            team = reviewer_agreement(session)
    finally:
        store.close()
    if args.json:
        print_json({**data, **feedback, "reviewers": team.as_json()})
    else:
        width = max(len(k) for k in data)
        for key, value in data.items():
            print(f"{key:<{width}}  {value}")
        for line in summary_lines(feedback):
            print(line)
        for line in team_lines(team):
            print(line)
    return 0
