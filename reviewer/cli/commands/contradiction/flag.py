"""``reviewer flag [--llm [--host URL] [--model NAME]]``: flag verdicts contradicting their reason.

Scores every filter verdict with the deterministic (rules) tier, stores the flags and
each attempt's highest score (the queue sorts on it), and prints the counts. ``--llm``
also asks the judge model to read the rationale of every verdict that refused an attempt
(one call each, cached, resumable) and stores those readings as ``llm`` flags.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from tqdm import tqdm  # type: ignore[import-untyped]

from reviewer.cli.arguments import host_url, model_option, seconds, workers
from reviewer.cli.common import store_from
from reviewer.contradiction.flagging import flag_all
from reviewer.errors import JudgeError
from reviewer.judge.client import JudgeClient
from reviewer.judge.llm_tier import flag_verdicts, refusing_verdicts


def register(sub: Any) -> None:
    """Add the ``flag`` command."""
    p = sub.add_parser("flag", help="flag judge verdicts whose rationale says the opposite")
    p.add_argument("--llm", action="store_true",
                   help="also ask the judge model to read each refusing verdict (slow)")
    p.add_argument("--host", type=host_url, metavar="URL", help="with --llm: Ollama server")
    p.add_argument("--model", metavar="NAME", type=model_option, help="with --llm: judge model")
    p.add_argument("--timeout", type=seconds, default=120.0, metavar="S",
                   help="with --llm: seconds to wait for one reply")
    p.add_argument("--workers", type=workers, default=None, metavar="N",
                   help="processes scoring the rules tier (default: one per core, at most 2); "
                        "the flags are the same whatever N")
    p.set_defaults(func=run)


def _bar(desc: str) -> Any:
    return tqdm(total=0, file=sys.stderr, unit=" items", desc=desc, disable=None)


def run(args: argparse.Namespace) -> int:
    """Flag with the rules tier (and the LLM tier with --llm); print the counts."""
    client = JudgeClient(args.host, args.model, timeout=args.timeout) if args.llm else None
    store = store_from(args)
    try:
        bar = _bar("rules tier")
        counts = flag_all(store, progress=lambda d, t: _advance(bar, d, t),
                          workers=args.workers)
        bar.close()
        print(counts.summary())
        if client is None:
            return 0
        bar = _bar("llm tier")
        report = flag_verdicts(store, client, refusing_verdicts(store),
                               progress=lambda d, t: _advance(bar, d, t))
        bar.close()
    finally:
        store.close()
    print(f"llm tier: {report.read} read, {report.flagged} flagged, "
          f"{report.skipped} already read, {len(report.failed)} failed"
          + (f", {report.not_run} not run" if report.not_run else ""))
    for message in report.failed[:-1] if report.stopped else report.failed:
        print(f"reviewer: {message}", file=sys.stderr)
    if report.stopped:
        raise JudgeError(f"{report.stopped}; {report.not_run} not read, rerun to resume")
    return 1 if report.failed else 0


def _advance(bar: Any, done: int, total: int) -> None:
    bar.total = total
    bar.n = done
    bar.refresh()
