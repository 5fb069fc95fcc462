"""``reviewer grade GRADER IN.jsonl``: score every answer of a JSONL file.

Writes one JSON line per input line (the input fields, ``grader``, ``score`` — null when
the grader ignores the row — and, with a judge, its notes and justification) to stdout or
``--output``. Lint warnings about the grader choice go to stderr before grading.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

from reviewer.atomic import FileSet
from reviewer.cli.arguments import host_url, input_file, model_option, retries, seconds
from reviewer.cli.outputs import checked_output
from reviewer.errors import BadInputError, InterruptedByUser, JudgeError, ReviewerError
from reviewer.graders.batch import (
    COMPONENTS,
    GRADERS,
    GradedRow,
    GradeOptions,
    iter_graded,
    weights_for,
)
from reviewer.graders.combine import parse_weights
from reviewer.graders.judge import DEFAULT_HOST, Judge, JudgeConfig
from reviewer.graders.lint import lint
from reviewer.graders.rows import Row, read_rows
from reviewer.input_bytes import read_text
from reviewer.json_input import load_json
from reviewer.judge.context import DEFAULT_MAX_CTX
from reviewer.judge.host import default_host
from reviewer.outputs import Output


def add_judge_arguments(parser: argparse.ArgumentParser) -> None:
    """Options shared with ``lint-graders``: which judge, which policy."""
    parser.add_argument(
        "--host",
        type=host_url, metavar="URL",
        help=f"Ollama URL (default: $OLLAMA_HOST, else {DEFAULT_HOST})",
    )
    parser.add_argument("--model", metavar="NAME", type=model_option,
                        help="judge model, e.g. qwen3:14b")
    parser.add_argument(
        "--policy-model",
        metavar="NAME",
        help="model being trained (to warn when it is also the judge)",
    )


def judge_host(host: str | None) -> str:
    """``--host``, else ``$OLLAMA_HOST`` (as the ollama tools do), else the local default."""
    return host or default_host()


def add_grading_arguments(p: argparse.ArgumentParser) -> None:
    """The judge and grader parameters of ``grade`` (``calibrate`` takes them too)."""
    add_judge_arguments(p)
    p.add_argument("--timeout", type=seconds, default=120.0,
                   help="seconds one judge call may take in all, body included (120)")
    p.add_argument("--think", action="store_true",
                   help="let a reasoning judge think (its reasoning goes with the notes)")
    p.add_argument("--max-ctx", type=int, default=DEFAULT_MAX_CTX, metavar="TOKENS",
                   help=f"largest judge context a group may ask for ({DEFAULT_MAX_CTX})")
    p.add_argument("--seed", type=int, default=42, help="judge sampling seed (default 42)")
    p.add_argument("--retries", type=retries, default=2, help="retries on transient judge faults")
    p.add_argument(
        "--num-ctx",
        type=int,
        metavar="TOKENS",
        help="fixed judge context size (default: sized to each group, see --max-ctx)",
    )
    p.add_argument("--pattern", help="regex grader: pattern (else each line's 'expected')")
    p.add_argument("--flags", default="",
                   help="regex flags: python imsx, ecmascript dgimsuvy")
    p.add_argument("--dialect", choices=("python", "ecmascript"), default="python",
                   help="regex grader: python (regex package) or ecmascript (JavaScript's "
                        "RegExp, as the TypeScript filter runs it)")
    p.add_argument("--labels", help="label grader: comma-separated labels")
    p.add_argument("--schema", type=input_file("a JSON schema"), metavar="FILE",
                   help="json grader: JSON schema file")
    p.add_argument("--case-sensitive", action="store_true", help="exact/contains/label")
    p.add_argument(
        "--tokenizer",
        choices=("unicode", "rouge"),
        default="unicode",
        help="rouge_l words: unicode (default, keeps accents) or rouge-score's own",
    )
    p.add_argument(
        "--locale",
        choices=("auto", "fr", "en"),
        default="auto",
        help="numeric: number notation (default: detected per text)",
    )
    p.add_argument(
        "--weights",
        metavar="NAME=W,…",
        help=f"mix grader weights over {', '.join(sorted(COMPONENTS))}",
    )


def register(sub: Any) -> None:
    """Add the ``grade`` subcommand."""
    p = sub.add_parser(
        "grade",
        help="score answers with a grader (exact, rouge_l, numeric, judge, …)",
        description="Score each line of IN.jsonl; see docs/graders.md.",
    )
    p.add_argument("grader", choices=GRADERS, metavar="GRADER", help=", ".join(GRADERS))
    p.add_argument("input", type=input_file("a JSON lines file"), metavar="IN.jsonl")
    p.add_argument("-o", "--output", metavar="OUT.jsonl", help="write here instead of stdout")
    add_grading_arguments(p)
    p.set_defaults(func=run)


MAX_SCHEMA = 16 << 20
"""The largest ``--schema`` file read."""


def _schema(path: str | None) -> dict[str, Any] | None:
    if path is None:
        return None
    # Bounded, devices refused (fourth hostile pass, MEM: whole-file reads of /dev/zero).
    value = load_json(read_text(Path(path), MAX_SCHEMA, "a JSON schema"), path)
    if not isinstance(value, dict):
        raise BadInputError(f"{path}: a JSON schema must be an object")
    return value


def options_from(args: argparse.Namespace) -> GradeOptions:
    """Grader parameters from the command line."""
    labels = tuple(x.strip() for x in (args.labels or "").split(",") if x.strip())
    weights = parse_weights(args.weights, COMPONENTS) if args.weights else None
    return GradeOptions(
        pattern=args.pattern,
        flags=args.flags,
        dialect=args.dialect,
        labels=labels,
        schema=_schema(args.schema),
        case_sensitive=args.case_sensitive,
        tokenizer=args.tokenizer,
        locale=args.locale,
        weights=weights,
    )


def judge_from(args: argparse.Namespace, grader: str) -> Judge:
    """The judge the command line asks for (``grader`` names who needs it in errors)."""
    if not args.model:
        raise BadInputError(f"the {grader} grader needs a judge model (--model NAME)")
    if args.timeout <= 0:
        raise BadInputError("--timeout must be a positive number of seconds")
    return Judge(
        JudgeConfig(
            model=args.model,
            host=judge_host(args.host),
            timeout=args.timeout,
            seed=args.seed,
            retries=max(0, args.retries),
            num_ctx=args.num_ctx,
            max_ctx=args.max_ctx,
            think=args.think,
        )
    )


def _progress(done: int, total: int) -> None:
    """Judge progress on an interactive terminal only (never in logs or pipes)."""
    if sys.stderr.isatty():
        end = "\n" if done == total else ""
        print(f"\rjudged {done}/{total} groups", end=end, file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    """Grade the file; BadInputError/JudgeError become one-line messages in main.

    On stdout lines are written as soon as they are graded (in input order); ``-o OUT``
    appears whole or not at all, except that a judge fault or a signal (Ctrl-C, SIGTERM,
    SIGHUP) stopping the batch keeps the lines already done (see :func:`_write_graded`).
    A group the judge gives no notes for is written with ``score`` null and
    ``judge_error``, named on stderr, and the others are still graded (exit 1).
    """
    out = checked_output(args, args.output, inputs=[
        Path(args.input), *([Path(args.schema)] if args.schema else [])]) \
        if args.output else None  # never the input, the schema or the database
    options = options_from(args)
    weights = weights_for(args.grader, options)
    rows = read_rows(args.input)
    judge = judge_from(args, args.grader) if "judge" in weights else None
    for warning in lint(rows, weights, judge_model=args.model, policy_model=args.policy_model):
        print(f"warning [{warning.code}]: {warning.message}", file=sys.stderr)
    failed: list[str] = []

    def on_failure(message: str, group: list[Row]) -> None:
        lines = ", ".join(str(r.line) for r in group)
        failed.append(message)
        print(f"reviewer: {message}; line{'s' if len(group) > 1 else ''} {lines} not graded",
              file=sys.stderr)

    graded = iter_graded(rows, args.grader, options, judge, _progress, on_failure)
    if out is None:
        for g in graded:  # to stdout as each line is graded
            sys.stdout.write(json.dumps(g.as_dict(args.grader), ensure_ascii=False) + "\n")
            sys.stdout.flush()
        return 1 if failed else 0
    stopped = _write_graded(out, graded, args.grader, len(rows))
    if stopped is not None:
        raise stopped
    return 1 if failed else 0


# What a signal that ends the grading is called in its line, and its exit code (128 + its
# number, as a shell says, and as the app ends on it: ui/interrupt.py).
ENDINGS = {signal.SIGINT: ("interrupted", 130), signal.SIGTERM: ("terminated", 143),
           signal.SIGHUP: ("hung up", 129)}


class _Ended(KeyboardInterrupt):
    """SIGINT, SIGTERM or SIGHUP while ``-o OUT`` was being graded. A KeyboardInterrupt,
    so that whatever runs meanwhile treats it as Ctrl-C: asyncio (the judge's HTTP
    client) lets only that and SystemExit out of its loop, and logged any other
    exception as a "fatal write error", the request then failing as a judge fault."""

    def __init__(self, number: int) -> None:
        super().__init__(number)
        self.number = number


class _Signals:
    """Which signal came, and whether a line is being added to the output right now: a
    signal then ends the grading right after that line (:meth:`added`), never halfway
    through the sink's write, so the count said is the count written."""

    def __init__(self) -> None:
        self.received: int | None = None
        self.adding = False

    def handle(self, number: int, _frame: FrameType | None) -> None:
        if self.received is None:
            self.received = number
        if not self.adding:
            raise _Ended(self.received)

    def added(self) -> None:
        """The line is added: a signal that came meanwhile ends the grading now."""
        self.adding = False
        if self.received is not None:
            raise _Ended(self.received)


@contextmanager
def _ending_on_signals() -> Iterator[_Signals]:
    """While inside, SIGINT, SIGTERM and SIGHUP end the grading with :class:`_Ended` (at
    once, a judge call in flight abandoned). SIGTERM and SIGHUP killed the command the
    default way (``reviewer.unfinished`` removing the temporary file), Ctrl-C threw the
    lines judged away. A signal ignored at the start (SIGHUP under ``nohup``) stays
    ignored; off the main thread (an in-process caller) nothing is changed."""
    state = _Signals()
    previous: dict[signal.Signals, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for sig in ENDINGS:
            if signal.getsignal(sig) != signal.SIG_IGN:
                previous[sig] = signal.signal(sig, state.handle)
    try:
        yield state
    finally:
        for kept, handler in previous.items():
            signal.signal(kept, handler)


def _ended(number: int, message: str) -> ReviewerError:
    """The one line of a grading ended by signal ``number``, with its exit code."""
    said, code = ENDINGS[signal.Signals(number)]
    if number == signal.SIGINT:
        return InterruptedByUser(f"{said}; {message}")
    error = ReviewerError(f"{said}; {message}")
    error.exit_code = code
    return error


def _write_graded(out: Output, graded: Iterator[GradedRow], grader: str, total: int
                  ) -> ReviewerError | None:
    """Write ``-o OUT`` atomically (``reviewer.atomic``): a full disk or a read-only folder
    leaves the previous OUT as it was and no temporary file (the file was opened in place
    and truncated first: Ctrl-C left 0 of 4000 lines). What stops the batch halfway — a
    judge fault, Ctrl-C, SIGTERM, SIGHUP — keeps the lines graded before it: they are
    judge calls worth keeping (``grade`` has no cache), so they are put in place and the
    fault, or the signal's one line saying how many were written, is returned to be
    reported. A signal before any line was graded leaves OUT as it was."""
    stopped: ReviewerError | None = None
    written = 0
    with FileSet(checksum=False) as files:
        sink = files.open(out)  # first: its temporary file is tracked (reviewer.unfinished)
        ended: int | None = None
        with _ending_on_signals() as signals:
            try:
                for g in graded:
                    line = (json.dumps(g.as_dict(grader), ensure_ascii=False) + "\n"
                            ).encode("utf-8")
                    signals.adding = True
                    sink.write(line)
                    written += 1
                    signals.added()
            except JudgeError as exc:
                stopped = exc
            except KeyboardInterrupt as exc:  # _Ended, or Ctrl-C before the handler
                ended = exc.number if isinstance(exc, _Ended) else signal.SIGINT
        if ended is not None:
            if not written:  # nothing worth replacing the previous OUT with
                raise _ended(ended, f"no line was graded yet: {out} is left as it was")
            stopped = _ended(ended, f"{written} of {total} lines graded and written to "
                                    f"{out}, the other {total - written} not graded")
    return stopped
