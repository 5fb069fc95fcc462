"""``reviewer rejudge [--flagged | --attempt KEY | --criterion ID] [--host] [--model] …``.

Asks the judge a second opinion (a doubted success criterion judged alone) for every
selected attempt that qualifies under the seed's rule, ``--parallel`` at a time, with a
progress bar on stderr. Answers are committed as they arrive: after an interruption the
same command resumes where it stopped. Each second opinion goes through the guard
(``--guard``): an unreliable one is stored and reported, not applied. ``--reassess``
puts the stored ones through the guard again without asking the judge. Exit 0 when
every request succeeded, 1 otherwise.
"""

from __future__ import annotations

import argparse
import sys
import threading
from typing import Any

from tqdm import tqdm  # type: ignore[import-untyped]

from reviewer.cli.arguments import host_url, model_option, retries, seconds
from reviewer.cli.common import print_json, store_from
from reviewer.errors import BadInputError, InterruptedByUser, JudgeError
from reviewer.judge.batch import DEFAULT_PARALLEL, BatchReport, run_second_opinions
from reviewer.judge.client import JudgeClient
from reviewer.judge.context import DEFAULT_MAX_CTX
from reviewer.judge.guard import LEVELS, strictness
from reviewer.judge.reassess import reassess
from reviewer.judge.second_opinion import (
    FAILED,
    FLIPPED,
    SKIPPED,
    Outcome,
    attempt_key,
    why_not_needed,
)
from reviewer.judge.selection import (
    all_candidates,
    attempt_id_for,
    criterion_candidates,
    flagged_candidates,
)
from reviewer.judge.transport import STREAK
from reviewer.keys import AttemptKey
from reviewer.rule.replay import load_attempts
from reviewer.store import Store
from reviewer.store.names import CRITERIA, existing

MAX_PARALLEL = 16


def register(sub: Any) -> None:
    """Add the ``rejudge`` command."""
    p = sub.add_parser(
        "rejudge",
        help="second opinion: re-judge alone each success criterion the judge said 'non'",
    )
    which = p.add_mutually_exclusive_group()
    which.add_argument("--flagged", action="store_true",
                       help="only attempts whose verdict the contradiction detector flagged")
    which.add_argument("--attempt", metavar="RUN/CONVERSATION/TURN/ATTEMPT",
                       help="only this attempt")
    which.add_argument("--criterion", metavar="ID", help="only this success criterion")
    which.add_argument("--reassess", action="store_true",
                       help="put the stored second opinions through the guard again "
                            "(no request sent)")
    p.add_argument("--host", type=host_url, metavar="URL",
                   help="Ollama server (default: $OLLAMA_HOST or http://127.0.0.1:11434)")
    p.add_argument("--model", metavar="NAME", type=model_option,
                   help="judge model (default: $REVIEWER_JUDGE_MODEL or qwen3.6:35b-a3b)")
    p.add_argument("--parallel", type=int, default=DEFAULT_PARALLEL, metavar="N",
                   help=f"requests in flight at once (default {DEFAULT_PARALLEL})")
    p.add_argument("--timeout", type=seconds, default=120.0, metavar="S",
                   help="seconds one request may take in all, body included (default 120)")
    p.add_argument("--think", action="store_true",
                   help="let a reasoning model think (its reasoning is stored, never parsed)")
    p.add_argument("--guard", choices=tuple(LEVELS), default=None,
                   help="how demanding the second-opinion guard is (default: "
                        "$REVIEWER_GUARD or normal)")
    p.add_argument("--max-ctx", type=int, default=DEFAULT_MAX_CTX, metavar="TOKENS",
                   help=f"largest context a request may ask for (default {DEFAULT_MAX_CTX})")
    p.add_argument("--stop-after", type=int, default=STREAK, metavar="K",
                   help=f"stop after the same server error K times in a row (default {STREAK})")
    p.add_argument("--retries", type=retries, default=2, metavar="N",
                   help="extra tries on transient faults, with backoff (default 2)")
    p.add_argument("--backoff", type=float, default=1.0, help=argparse.SUPPRESS)
    p.add_argument("--json", action="store_true", help="print a JSON report")
    p.set_defaults(func=run)


def _select(store: Store, args: argparse.Namespace) -> list[int]:
    with store.session() as session:
        if args.attempt:
            return [attempt_id_for(session, AttemptKey.parse(args.attempt))]
        if args.criterion:  # as the store spells it (the shared check, X4)
            args.criterion = existing(session, CRITERIA, [args.criterion], "--criterion")[0]
            return criterion_candidates(session, args.criterion)
        if args.flagged:
            return flagged_candidates(session)
        return all_candidates(session)


def _client(args: argparse.Namespace) -> JudgeClient:
    if not 1 <= args.parallel <= MAX_PARALLEL:
        raise BadInputError(f"--parallel must be between 1 and {MAX_PARALLEL}")
    if args.retries < 0:
        raise BadInputError("--retries must be 0 or more")
    if args.stop_after < 1:
        raise BadInputError("--stop-after must be 1 or more")
    # ``abandon``: set by the batch on Ctrl-C, so the requests in flight end at once.
    return JudgeClient(args.host, args.model, timeout=args.timeout, retries=args.retries,
                       backoff=args.backoff, think=args.think, max_ctx=args.max_ctx,
                       abandon=threading.Event())


def run(args: argparse.Namespace) -> int:
    """Run the second opinions and print what they did."""
    level = strictness(args.guard)
    if args.reassess:
        store = store_from(args)
        try:
            print(reassess(store, level).summary())
        finally:
            store.close()
        return 0
    client = _client(args)
    store = store_from(args)
    try:
        ids = _select(store, args)
        report = _run_with_bar(store, client, ids, args)
        if args.attempt and not report.outcomes:
            report.outcomes.append(_why_skipped(store, ids[0], args.criterion))
    finally:
        store.close()
    if args.json:
        print_json(_as_json(report, client))
    else:
        _print_text(report, single=bool(args.attempt))
    if report.stopped and report.not_run:
        raise JudgeError(f"{report.stopped}; {report.not_run} not asked, rerun to resume")
    return 1 if report.failed else 0


def _run_with_bar(store: Store, client: JudgeClient, ids: list[int],
                  args: argparse.Namespace) -> BatchReport:
    cancel = threading.Event()
    bar = tqdm(total=0, file=sys.stderr, unit=" attempts", desc="second opinions",
               disable=None)

    def progress(done: int, total: int) -> None:
        bar.total = total
        bar.n = done
        bar.refresh()

    try:
        return run_second_opinions(store, client, ids, parallel=args.parallel,
                                   only=args.criterion, progress=progress, cancel=cancel,
                                   guard=strictness(args.guard), stop_after=args.stop_after)
    except KeyboardInterrupt:
        bar.close()
        # One line, said by main: the kept answers are the news, not a second line.
        raise InterruptedByUser("interrupted; the answers received so far are kept: rerun "
                                "the same command to ask only the rest") from None
    finally:
        bar.close()


def _why_skipped(store: Store, attempt_id: int, only: str | None) -> Outcome:
    with store.session() as session:
        attempt = load_attempts(session, [attempt_id])[0]
        return Outcome(attempt_id, attempt_key(session, attempt), SKIPPED,
                       message=why_not_needed(attempt, only))


def _outcome_line(o: Outcome) -> str:
    if o.status == SKIPPED:
        return f"{o.key}: no second opinion ({o.message})"
    if o.status == FAILED:
        return f"{o.key}: second opinion failed: {o.message}"
    said = ", ".join(_said(o, c) for c in o.asked)
    verdict = "now accepted" if o.status == FLIPPED else "still refused"
    return f"{o.key}: re-judged alone: {said}; {verdict}"


def _said(o: Outcome, criterion: str) -> str:
    text = f"{criterion} {'oui' if criterion in o.said_yes else 'non'}"
    if criterion in o.unreliable:
        text += f" (unreliable — not applied: {o.unreliable[criterion]})"
    return text


# A judge that fails every request alike (it answers about another criterion, say)
# printed one line per attempt: 64 lines saying one thing. The first few name attempts
# to look at; then one line counts the rest.
SAME_FAILURE_LINES = 3


def _print_text(report: BatchReport, *, single: bool) -> None:
    failed: dict[str, list[Outcome]] = {}
    for outcome in report.outcomes:
        if outcome.status == FAILED:
            failed.setdefault(outcome.message or "", []).append(outcome)
        elif single or outcome.status == FLIPPED or outcome.unreliable:
            print(_outcome_line(outcome))
    for message, alike in failed.items():
        for outcome in alike[:SAME_FAILURE_LINES]:
            print(_outcome_line(outcome), file=sys.stderr)
        if len(alike) > SAME_FAILURE_LINES:
            print(f"… and {len(alike) - SAME_FAILURE_LINES} more attempts whose second "
                  f"opinion failed the same way: {message}", file=sys.stderr)
    print(report.summary())


def _as_json(report: BatchReport, client: JudgeClient) -> dict[str, Any]:
    return {
        "judge": {"host": client.host, "model": client.model},
        "selected": report.selected,
        "asked": report.done,
        "now_accepted": report.saved,
        "skipped": report.skipped,
        "unreliable": report.unreliable,
        "not_run": report.not_run,
        "failed": [{"attempt": key, "message": msg} for key, msg in report.failed],
        "stopped": report.stopped or None,
        "outcomes": [
            {"attempt": o.key, "status": o.status, "asked": o.asked, "said_oui": o.said_yes,
             "unreliable": o.unreliable, "accepted": o.accepted,
             "message": o.message or None}
            for o in report.outcomes
        ],
    }
