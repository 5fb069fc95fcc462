"""A command line builds only the parser of the command it runs, and reads the same.

``reviewer.cli.main.build_parser(command=…)`` hands the registrars a stand-in for every
other command's parser (building them all was 6 ms of every command). Whatever the line,
the one-command parser must say and return what the whole parser does; a line it could
read otherwise (``-h`` before the command lists every command, an unknown word is listed
against them all) gets the whole parser.
"""

from __future__ import annotations

import argparse
import contextlib
import io
from typing import Any

import pytest

from reviewer.cli.main import _alone, build_parser


def _commands() -> list[str]:
    sub = build_parser()._subparsers
    assert sub is not None
    action = sub._group_actions[0]
    assert isinstance(action, argparse._SubParsersAction)
    return sorted(action.choices)


def _read(parser: argparse.ArgumentParser, argv: list[str]) -> tuple[Any, ...]:
    """What parsing ``argv`` prints and returns (the command's function by name)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            args = vars(parser.parse_args(argv))
        except SystemExit as exc:  # --help, usage errors
            return ("exit", exc.code, out.getvalue(), err.getvalue())
        except Exception as exc:  # the package's one-line usage error
            return ("error", type(exc).__name__, str(exc))
    func = args.pop("func", None)
    return ("parsed", args, getattr(func, "__qualname__", None))


@pytest.mark.parametrize("command", _commands())
def test_one_command_parser_reads_as_the_whole_one(command: str) -> None:
    whole = build_parser()
    for argv in ([command, "--help"], [command], [command, "--bogus"], [command, "a", "b"],
                 [command, "show", "--help"], [command, "list"]):
        one = build_parser(command=command)
        assert _read(one, argv) == _read(whole, argv), argv


def test_only_the_command_run_gets_a_parser() -> None:
    sub = build_parser(command="export")._subparsers
    assert sub is not None
    action = sub._group_actions[0]
    assert isinstance(action, argparse._SubParsersAction)
    assert list(action.choices) == ["export"]


def test_an_unknown_command_is_listed_against_them_all() -> None:
    assert _read(build_parser(command="exprot"), ["exprot"]) == \
        _read(build_parser(), ["exprot"])


@pytest.mark.parametrize(("argv", "word", "alone"), [
    (["export", "out.jsonl"], "export", "export"),
    (["--db", "export", "stats"], "stats", "stats"),  # --db's value is no command
    (["--db=x.sqlite3", "--reviewer", "ana", "--debug", "export"], "export", "export"),
    (["-h", "export"], "export", None),  # the top-level help lists every command
    (["--version", "export"], "export", None),
    (["--deb", "export"], "export", None),  # an abbreviation: the whole parser decides
    ([], None, None),
])
def test_only_global_options_before_the_command_keep_it_alone(
        argv: list[str], word: str | None, alone: str | None) -> None:
    assert _alone(argv, word) == alone
