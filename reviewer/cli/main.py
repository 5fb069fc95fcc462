"""Entry point of the ``reviewer`` console script.

Usage: ``reviewer [--db URL] [--reviewer NAME] [--debug] COMMAND …``. Every failure is one
``reviewer: …`` line on stderr naming its cause, and an exit code by kind: 0 done, 1 could
not finish, 2 bad input or usage, 3 read-only, 4 disk full, 70 internal error, 130
interrupted (the table: ``reviewer.errors``). ``--debug`` adds the traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import pkgutil
import sys
import traceback
from collections.abc import Callable, Sequence
from typing import Any

from reviewer import __version__
from reviewer.cli import commands
from reviewer.cli.arguments import OneLineParser, check_argv, reviewer_option
from reviewer.cli.failures import explain, one_line
from reviewer.cli.streams import (
    guard_standard_streams,
    parse_db_quietly,
    quiet_library_logs,
    whole_writes_on_stdout,
)
from reviewer.errors import BAD_INPUT
from reviewer.outputs import closed_by_the_shell

Registrar = Callable[[Any], None]
EXIT_CODES = """exit codes: 0 done, 1 could not finish (judge, busy or damaged database, disk
I/O error), 2 bad input or usage, 3 read-only (database or output cannot be written),
4 disk full (or file size limit), 70 internal error (rerun with --debug), 130 interrupted"""


def build_parser(
    extra: Sequence[Registrar] = (), discover: bool = True, command: str | None = None
) -> argparse.ArgumentParser:
    """The top-level parser with every discovered subcommand, plus ``extra`` registrars.

    ``extra`` lets the ``ui`` package add the ``gui`` command without ``reviewer``
    importing Qt (imports point one way: ui -> reviewer -> models). ``discover=False``
    leaves the domain commands out (their modules import most of the package).
    ``command``: only that subcommand gets its parser (see :func:`_OneCommand`); when no
    module registers it, every one does, so that argparse lists them all in its error.
    """
    if command is not None:
        parser, found = _parser(extra, discover, command)
        if found:
            return parser
    return _parser(extra, discover, None)[0]


def _parser(extra: Sequence[Registrar], discover: bool, command: str | None
            ) -> tuple[argparse.ArgumentParser, bool]:
    """The parser (with only ``command``'s subparser when given) and whether some
    registrar added that command."""
    parser = OneLineParser(
        prog="reviewer", description="Review the refusals of a dataset filter.",
        epilog=EXIT_CODES, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"reviewer {__version__}")
    parser.add_argument(
        "--db",
        metavar="URL",
        default=None,
        help="database URL or SQLite path (default: $REVIEWER_DB, else the user data folder)",
    )
    parser.add_argument(
        "--reviewer",
        # Subcommands that also take --reviewer use default=SUPPRESS so they never reset it.
        dest="reviewer",
        # The name rule, here for every domain command; the app's own commands (``gui``:
        # ``discover`` is off) check it themselves and say so where the user looks, in a
        # message box when there is a window.
        type=reviewer_option if discover else str,
        metavar="NAME",
        default=None,
        help="who decides: decisions are stored under this name "
        "(default: $REVIEWER_NAME, else the OS login name)",
    )
    parser.add_argument("--debug", action="store_true",
                        help="on a failure, also print the traceback (for a bug report)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    # Commands live in one sub-package per capability (cli/commands/<capability>/<name>.py);
    # every module with a ``register`` is a command, listed in name order.
    prefix = f"{commands.__name__}."
    modules = pkgutil.walk_packages(commands.__path__, prefix) if discover else []
    registrars = []
    for info in modules:
        if info.ispkg:
            continue
        module = importlib.import_module(info.name)
        if hasattr(module, "register"):
            registrars.append((info.name.rpartition(".")[2], module.register))
    target: Any = sub if command is None else _OneCommand(sub, command)
    for _name, register_command in sorted(registrars, key=lambda r: r[0]):
        register_command(target)
    for register in extra:
        register(target)
    return parser, command is None or target.found


class _OneCommand:
    """The subparsers action as the registrars see it when one command is run: only that
    command's parser is built, the others' calls go to :data:`_IGNORED`. Building all
    of them (a parser, its help formatter and gettext's catalogue search per option) was
    6 ms of every command, 3 % of a preference export. The parse, the usage lines and
    ``COMMAND --help`` are the same: the one parser is built as before."""

    def __init__(self, sub: Any, command: str) -> None:
        self._sub = sub
        self._command = command
        self.found = False

    def add_parser(self, name: str, **kwargs: Any) -> Any:
        """The real subparser for the command run; the stand-in for any other."""
        if name != self._command:
            return _IGNORED
        self.found = True
        return self._sub.add_parser(name, **kwargs)


class _Ignored:
    """A parser nobody will use: every method call is accepted and returns it again
    (``add_argument``, ``set_defaults``, ``add_mutually_exclusive_group``, …)."""

    def __getattr__(self, _name: str) -> Callable[..., _Ignored]:
        return self._ignore

    def _ignore(self, *_args: Any, **_kwargs: Any) -> _Ignored:
        return self


_IGNORED = _Ignored()


def command_word(argv: Sequence[str] | None) -> str | None:
    """The command named on the command line (None when there is none)."""
    command = _pre_parse(argv).command
    return command if isinstance(command, str) else None


def _pre_parse(argv: Sequence[str] | None) -> argparse.Namespace:
    """The global options and the command word, read before the full parser exists."""
    return parse_db_quietly(_args_of(argv))


def _args_of(argv: Sequence[str] | None) -> Sequence[str]:
    """The arguments: ``argv``, or the process's own."""
    return sys.argv[1:] if argv is None else argv


def _alone(argv: Sequence[str], command: str | None) -> str | None:
    """``command`` when its parser alone reads ``argv`` as the whole parser would: only
    global options, spelled in full, come before it. Anything else there (``-h``, which
    lists every command, ``--version``, an abbreviation) gets the whole parser."""
    if command is None:
        return None
    tokens = iter(argv)
    for token in tokens:
        if token == command:
            return command
        if token in ("--db", "--reviewer"):
            next(tokens, None)  # its value
        elif token != "--debug" and not token.startswith(("--db=", "--reviewer=")):
            return None
    return None


def main(
    argv: Sequence[str] | None = None,
    extra: Sequence[Registrar] = (),
    extra_commands: frozenset[str] = frozenset(),
) -> int:
    """Parse arguments, run the command, and turn every failure into one line.

    When the command is one of ``extra_commands`` (the ``gui``), the domain commands are
    not imported: that took 0.9 s of a GUI start that must paint in under a second.
    Every failure is one ``reviewer: …`` line on stderr and the exit code of its kind
    (``reviewer.errors``); ``--debug`` also prints the traceback.
    """
    _closed_streams_to_devnull()
    pre = argparse.Namespace(db=None, reviewer=None, debug=False, command=None)
    try:
        pre = _pre_parse(argv)
        quiet_library_logs(pre.debug)
        # Before anything is written: a standard stream open on the store is never
        # written (fourth hostile pass, A9); stdout writes whole or fails (F3).
        refused = guard_standard_streams(_args_of(argv), pre.db)
        if refused is not None:
            return refused
        whole_writes_on_stdout()
        check_argv(_args_of(argv))
        parser = build_parser(extra, discover=pre.command not in extra_commands,
                              command=_alone(_args_of(argv), pre.command))
        args = parser.parse_args(argv)
        if not getattr(args, "func", None):
            parser.print_help(sys.stderr)
            return BAD_INPUT
        code: int = args.func(args)
        sys.stdout.flush()  # here, not at exit: a full disk is then our line (exit 4)
    except BrokenPipeError:
        # The reader went away (`reviewer queue | head`): not an error worth a traceback.
        # Point stdout at devnull so the interpreter's final flush does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except SystemExit:
        raise  # argparse's usage errors, --help and --version have printed already
    except BaseException as exc:
        failure = explain(exc, pre.db)
        if pre.debug:
            traceback.print_exception(exc, file=sys.stderr)
        print(f"reviewer: {one_line(str(failure))}", file=sys.stderr, flush=True)
        _drop_unwritable_stdout()
        return failure.exit_code
    return code


def _closed_streams_to_devnull() -> None:
    """A standard stream the shell closed (``reviewer … >&-``) is None in Python: the
    first print, or the flush after the command, ended in a 30-line traceback, and a
    decision stored meanwhile was reported as an internal error (the third hostile
    pass). What goes there goes nowhere, as the shell was asked; an output asked for
    there (``export … -``) is refused (``reviewer.outputs.closed_by_the_shell``)."""
    closed_by_the_shell(fd for fd, stream in enumerate((sys.stdin, sys.stdout, sys.stderr))
                        if stream is None)
    if sys.stdout is None:
        sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - the process's
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115


def _drop_unwritable_stdout() -> None:
    """After a failure, what is still buffered for stdout is flushed now; when it cannot
    be (``> /dev/full``), stdout is pointed at devnull so the interpreter's own flush at
    exit does not add "Exception ignored" and exit 120 to our one line."""
    try:
        sys.stdout.flush()
    except Exception:  # OSError, or its one line from reviewer.cli.streams (a ReviewerError)
        with contextlib.suppress(OSError, ValueError):  # a stdout without a descriptor
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
