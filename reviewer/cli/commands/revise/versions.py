"""``reviewer check ID …`` and ``reviewer criterion ID …``: new versions with a reason.

* ``reviewer check CHECK_ID --pattern P [--flags i] [--mode M] [--when W]
  [--dialect ecmascript|python] --reason R`` stores the next version of a check (after
  ``reviewer backtest`` showed what it changes), compiled in its dialect first.
* ``reviewer criterion CRITERION_ID [--text T --reason R] [--rejudge --host … --model …]``
  stores the next wording of a criterion and/or re-judges the attempts it touched under
  its current wording, printing the verdicts that flip. Exit 1 when a judge call failed.
"""

from __future__ import annotations

import argparse
from typing import Any

from reviewer.catalog.spec import CheckSpec, CriterionSpec
from reviewer.catalog.versions import (
    add_check_version,
    add_criterion_version,
    current_check_versions,
    current_criterion_versions,
)
from reviewer.cli.arguments import host_url, model_option, retries, seconds
from reviewer.cli.common import print_json, reviewer_from, store_from
from reviewer.errors import BadInputError, JudgeError
from reviewer.judge.client import JudgeClient
from reviewer.revise.backtest import current_pattern
from reviewer.revise.criterion_rejudge import RejudgeReport, rejudge_criterion
from reviewer.rule.checks import DIALECTS, CheckPattern, compile_check


def register(sub: Any) -> None:
    """Add the ``check`` and ``criterion`` commands."""
    c = sub.add_parser("check", help="store a new version of a check (pattern, flags, mode)")
    c.add_argument("check_id", metavar="CHECK_ID")
    c.add_argument("--pattern", required=True)
    c.add_argument("--flags", default=None, help="default: the check's current flags")
    c.add_argument("--mode", choices=["forbid", "require"], default=None)
    c.add_argument("--when", default=None)
    c.add_argument("--dialect", choices=DIALECTS, default=None,
                   help="ecmascript (JavaScript's RegExp) or python (default: the check's)")
    c.add_argument("--reason", required=True, help="why (one line)")
    c.set_defaults(func=run_check)

    p = sub.add_parser("criterion", help="new wording of a criterion; re-judge what it touched")
    p.add_argument("criterion_id", metavar="CRITERION_ID")
    p.add_argument("--text", default=None, help="the new wording")
    p.add_argument("--reason", default=None, help="why (one line; required with --text)")
    p.add_argument("--rejudge", action="store_true",
                   help="re-judge the touched attempts under the current wording")
    p.add_argument("--host", type=host_url, metavar="URL",
                   help="Ollama server (default: $OLLAMA_HOST)")
    p.add_argument("--model", metavar="NAME", type=model_option, help="judge model")
    p.add_argument("--timeout", type=seconds, default=120.0, metavar="S")
    p.add_argument("--retries", type=retries, default=2, metavar="N")
    p.add_argument("--json", action="store_true", help="print the re-judging report as JSON")
    p.set_defaults(func=run_criterion)


def _one_line(reason: str | None) -> str:
    text = (reason or "").strip()
    if not text or "\n" in text:
        raise BadInputError("--reason must be one non-empty line")
    return text


def run_check(args: argparse.Namespace) -> int:
    """Store the check's next version."""
    reason = _one_line(args.reason)
    store = store_from(args)
    try:
        with store.session() as session:
            old, _ = current_pattern(session, args.check_id)
            new = CheckPattern(args.pattern, old.flags if args.flags is None else args.flags,
                               args.mode or old.mode,
                               args.when if args.when is not None else old.when,
                               args.dialect or old.dialect)
            compile_check(new)
            if new == old:
                raise BadInputError(f"{args.check_id}: nothing changed")
            description = current_check_versions(session)[args.check_id].description
            version = add_check_version(
                session, CheckSpec(args.check_id, description, new.pattern, new.flags,
                                   new.mode, new.when, new.dialect),
                reason=reason, author=reviewer_from(args)).version
    finally:
        store.close()
    print(f"{args.check_id} v{version} saved ({new.dialect})")
    return 0


def _save_criterion(args: argparse.Namespace, store: Any) -> None:
    reason = _one_line(args.reason)
    with store.session() as session:
        current = current_criterion_versions(session).get(args.criterion_id)
        if current is None:
            raise BadInputError(f"unknown criterion {args.criterion_id!r}")
        text = args.text.strip()
        if not text or text == current.text:
            raise BadInputError(f"{args.criterion_id}: the new text is empty or unchanged")
        version = add_criterion_version(
            session, CriterionSpec(args.criterion_id, current.kind, current.severity, text),
            reason=reason, author=reviewer_from(args)).version
    print(f"{args.criterion_id} v{version} saved")


def _report_json(report: RejudgeReport) -> dict[str, Any]:
    return {"criterion": report.criterion_id, "version": report.version,
            "attempts": report.total, "asked": report.asked, "reused": report.reused,
            "unchanged": report.same, "cancelled": report.cancelled,
            "stopped": report.stopped or None,
            "failed": [{"key": k, "message": m} for k, m in report.failed],
            "flips": [{"key": f.key, "old": "oui" if f.old_met else "non",
                       "new": "oui" if f.new_met else "non",
                       "old_accepted": f.old_accepted, "new_accepted": f.new_accepted,
                       "rationale": f.rationale} for f in report.flips]}


def run_criterion(args: argparse.Namespace) -> int:
    """Save the wording and/or re-judge; print the flips."""
    if args.text is None and not args.rejudge:
        raise BadInputError("criterion: give --text and --reason, or --rejudge, or both")
    client = JudgeClient(args.host, args.model, timeout=args.timeout,
                         retries=args.retries) if args.rejudge else None
    store = store_from(args)
    try:
        if args.text is not None:
            _save_criterion(args, store)
        if client is None:
            return 0
        report = rejudge_criterion(store, client, args.criterion_id)
    finally:
        store.close()
    if args.json:
        print_json(_report_json(report))
    else:
        print(report.summary())
        for f in report.flips:
            old, new = ("oui" if f.old_met else "non"), ("oui" if f.new_met else "non")
            change = ("accepted" if f.new_accepted else "refused") \
                if f.old_accepted != f.new_accepted else "unchanged"
            print(f"  {f.key}: {old} → {new} (decision {change})")
        for key, message in report.failed:
            print(f"  {key}: failed: {message}")
    if report.stopped:
        raise JudgeError(f"{report.stopped}; rerun to resume")
    return 1 if report.failed else 0
