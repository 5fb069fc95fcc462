"""``reviewer grade GRADER IN.jsonl``: score every answer of a JSONL file.

Writes one JSON line per input line (the input fields, ``grader``, ``score`` — null when
the grader ignores the row — and, with a judge, its notes and justification) to stdout or
``--output``. Lint warnings about the grader choice go to stderr before grading.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from reviewer.atomic import FileSet
from reviewer.cli.arguments import host_url, input_file, model_option, retries, seconds
from reviewer.cli.outputs import checked_output
from reviewer.errors import BadInputError, JudgeError
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
    appears whole or not at all, except that a judge fault stopping the batch keeps the
    lines already done (see :func:`_write_graded`). A group the judge gives no notes for is
    written with ``score`` null and ``judge_error``, named on stderr, and the others are
    still graded (exit 1).
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
    stopped = _write_graded(out, graded, args.grader)
    if stopped is not None:
        raise stopped
    return 1 if failed else 0


def _write_graded(out: Output, graded: Iterator[GradedRow], grader: str) -> JudgeError | None:
    """Write ``-o OUT`` atomically (``reviewer.atomic``): a full disk, a read-only folder
    or Ctrl-C leaves the previous OUT as it was and no temporary file (the file was
    opened in place and truncated first: Ctrl-C left 0 of 4000 lines). A judge fault
    that stops the batch is the exception: the lines graded before it are judge calls
    worth keeping, so they are put in place and the fault is returned to be reported."""
    stopped: JudgeError | None = None
    with FileSet(checksum=False) as files:
        sink = files.open(out)
        try:
            for g in graded:
                sink.write((json.dumps(g.as_dict(grader), ensure_ascii=False) + "\n")
                           .encode("utf-8"))
        except JudgeError as exc:
            stopped = exc
    return stopped
