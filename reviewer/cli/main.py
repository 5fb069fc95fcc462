"""Entry point of the ``reviewer`` console script.

Usage: ``reviewer [--db URL] COMMAND …``. Exit codes: 0 success, 1 runtime failure
(with a one-line message), 2 bad input or usage.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
from collections.abc import Callable, Sequence
from typing import Any

from reviewer import __version__
from reviewer.cli import commands
from reviewer.errors import ReviewerError

Registrar = Callable[[Any], None]


def build_parser(
    extra: Sequence[Registrar] = (), discover: bool = True
) -> argparse.ArgumentParser:
    """The top-level parser with every discovered subcommand, plus ``extra`` registrars.

    ``extra`` lets the ``ui`` package add the ``gui`` command without ``reviewer``
    importing Qt (imports point one way: ui -> reviewer -> models). ``discover=False``
    leaves the domain commands out (their modules import most of the package).
    """
    parser = argparse.ArgumentParser(
        prog="reviewer", description="Review the refusals of a dataset filter."
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
        metavar="NAME",
        default=None,
        help="who decides: decisions are stored under this name "
        "(default: $REVIEWER_NAME, else the OS login name)",
    )
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
    for _name, register_command in sorted(registrars, key=lambda r: r[0]):
        register_command(sub)
    for register in extra:
        register(sub)
    return parser


def command_word(argv: Sequence[str] | None) -> str | None:
    """The command named on the command line (None when there is none)."""
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--db")
    pre.add_argument("--reviewer")
    pre.add_argument("command", nargs="?")
    known, _ = pre.parse_known_args(list(sys.argv[1:] if argv is None else argv))
    return known.command if isinstance(known.command, str) else None


def main(
    argv: Sequence[str] | None = None,
    extra: Sequence[Registrar] = (),
    extra_commands: frozenset[str] = frozenset(),
) -> int:
    """Parse arguments, run the command, and turn known errors into one-line messages.

    When the command is one of ``extra_commands`` (the ``gui``), the domain commands are
    not imported: that took 0.9 s of a GUI start that must paint in under a second.
    """
    parser = build_parser(extra, discover=command_word(argv) not in extra_commands)
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    try:
        code: int = args.func(args)
    except ReviewerError as exc:
        print(f"reviewer: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("reviewer: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`reviewer queue | head`): not an error worth a traceback.
        # Point stdout at devnull so the interpreter's final flush does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
