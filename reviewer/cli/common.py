"""Helpers shared by the subcommands."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from reviewer.atomic import outermost_missing
from reviewer.errors import BadInputError, os_failure
from reviewer.input_bytes import size_text
from reviewer.review.identity import chosen_reviewer
from reviewer.store import Store, open_store
from reviewer.store.database import database_url, sqlite_path

MAKE_A_STORE = frozenset({"import", "demo", "contradictions"})
"""The commands that make a new SQLite store where none is: ``import`` and ``demo`` put a
run into it, ``contradictions --llm`` keeps only its judge cache there (it reads a file,
never the store's runs: README's "without a database"). Every other command reads or
changes a store that must exist already; given a path where there is none it says so in
one line, exit 2, and makes nothing (fifth hostile pass, P40: a mistyped ``--db`` made an
empty store, and ``export dataset`` then replaced a good dataset with 0 examples). A
command left out of this set can never make a store by mistake."""


def store_from(args: argparse.Namespace) -> Store:
    """Open the store the global ``--db`` option (or $REVIEWER_DB) names; only the
    commands of ``MAKE_A_STORE`` may make it."""
    return open_store(getattr(args, "db", None),
                      create=getattr(args, "command", None) in MAKE_A_STORE)


def new_store_folder(args: argparse.Namespace) -> Path | None:
    """The outermost folder a new SQLite store at ``--db`` would make (None when the store
    or its folder exists): ``demo`` and ``import`` name it, as an export does (V6), so a
    typo in a folder's name, or a dangling link's target, is not made silently
    (thirteenth and fourteenth hostile passes, P13-5, P14-5)."""
    path = sqlite_path(database_url(getattr(args, "db", None), "--db"))
    if path is None or path.exists():
        return None
    return outermost_missing(path.parent)


def reviewer_from(args: argparse.Namespace) -> str:
    """``--reviewer`` (global, or the command's own), else ``$REVIEWER_NAME``, else the OS
    login name; checked by ``reviewer.review.identity.reviewer_name`` (an empty option is
    an error, not the login name)."""
    return chosen_reviewer(getattr(args, "reviewer", None))


def read_stdin(what: str, limit: int) -> str:
    """All of standard input as text, for an option given as ``-``; ``what`` names it in
    errors. Closed (``<&-``: Python then has no ``sys.stdin``) or unreadable standard
    input is one bad-input line, not an internal error; so is more than ``limit``
    characters (fourth hostile pass, MEM: ``< /dev/zero`` was read until memory ran out)."""
    if sys.stdin is None:
        raise BadInputError(f"{what}: standard input is closed; pipe the text in or give a "
                            "file")
    try:
        text = sys.stdin.read(limit + 1)
    except OSError as exc:
        raise os_failure(exc, "standard input", "read") from None
    except UnicodeDecodeError as exc:
        raise BadInputError(f"{what}: standard input is not UTF-8 text (byte "
                            f"0x{exc.object[exc.start]:02X} at offset {exc.start})") from None
    if len(text) > limit:
        raise BadInputError(f"{what}: standard input is longer than {size_text(limit)}, "
                            "the most it may be")
    return text.removeprefix("\ufeff")  # a byte-order mark, as a file's (I1)


def print_json(data: Any) -> None:
    """Machine-readable output on stdout (UTF-8, not escaped)."""
    json.dump(data, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")
