"""``reviewer prompt {list,show,set}``: the judge's prompt templates, versioned in the store.

``show NAME [--version N]`` prints a template (the built-in default while none is
stored); ``set NAME FILE`` stores FILE's text as the next version (``-`` reads stdin).
Requests record the template version they were rendered from.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from sqlalchemy import select

from models import PromptTemplate
from reviewer.cli.common import read_stdin, store_from
from reviewer.errors import BadInputError
from reviewer.input_bytes import read_text
from reviewer.judge.prompts import DEFAULTS, current_template, save_template, validate_text
from reviewer.text_rules import storable


def register(sub: Any) -> None:
    """Add the ``prompt`` command."""
    p = sub.add_parser("prompt", help="show or edit the judge's prompt templates")
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    actions.add_parser("list", help="templates and their current version").set_defaults(func=_list)
    show = actions.add_parser("show", help="print a template")
    show.add_argument("name", choices=sorted(DEFAULTS))
    show.add_argument("--version", type=int, help="an older stored version")
    show.set_defaults(func=_show)
    put = actions.add_parser("set", help="store a new version from a file ('-' = stdin)")
    put.add_argument("name", choices=sorted(DEFAULTS))
    put.add_argument("file", metavar="FILE")
    put.set_defaults(func=_set)


def _list(args: argparse.Namespace) -> int:
    store = store_from(args)
    try:
        with store.session() as session:
            for name in sorted(DEFAULTS):
                current = current_template(session, name)
                origin = "built-in default" if current.version == 0 else "edited"
                print(f"{name}  v{current.version}  ({origin})")
    finally:
        store.close()
    return 0


def _show(args: argparse.Namespace) -> int:
    store = store_from(args)
    try:
        with store.session() as session:
            if args.version is None:
                text = current_template(session, args.name).text
            else:
                found = session.scalar(select(PromptTemplate.text).where(
                    PromptTemplate.name == args.name, PromptTemplate.version == args.version))
                if found is None:
                    raise BadInputError(f"{args.name} has no stored version {args.version}")
                text = found
    finally:
        store.close()
    print(text)
    return 0


MAX_TEMPLATE = 1 << 20
"""The longest prompt template read: a megabyte is far beyond a judge's context window.
Fourth hostile pass, MEM: ``prompt set juge /dev/zero`` read until memory ran out."""


def _read(path: str) -> str:
    if path == "-":
        return storable(read_stdin("the template", MAX_TEMPLATE),
                        "the template on standard input")
    return storable(read_text(Path(path), MAX_TEMPLATE, "a prompt template"), path)


def _set(args: argparse.Namespace) -> int:
    text = _read(args.file).rstrip("\n")
    try:
        validate_text(text)
    except BadInputError as exc:
        raise BadInputError(f"{args.file}: {exc}") from None
    store = store_from(args)
    try:
        with store.session() as session:
            before = current_template(session, args.name).version
            saved = save_template(session, args.name, text)
    finally:
        store.close()
    if saved.version == before:
        print(f"{saved.label}: unchanged")
    else:
        print(f"{saved.label}: stored")
    return 0
