"""The one place command-line arguments are checked, before any command runs.

* ``OneLineParser``: argparse's usage errors (an unknown option, an unknown command or
  export kind, a bad value) are one ``reviewer: …`` line and exit 2, like every other
  failure (argparse prints the usage and a list of choices over several lines).
* ``check_argv``: an argument that is not UTF-8 (Python hands such bytes over as lone
  surrogates) is refused with exit 2 naming the option, whatever the command does with
  it: stored, compiled as a pattern, looked up, written to a file.
* Value parsers for options, each one rule for every command that has the option:
  ``seconds`` (a timeout or budget: finite, positive, at most a day), ``retries``,
  ``limit`` and ``orders`` (whole numbers within their bounds), ``host_url`` (a
  judge URL whose host and port make sense), ``reviewer_option`` (the name rule of
  ``reviewer.review.identity``, for the filters ``--reviewer`` of export and backtest too),
  ``input_file``/``input_path`` (a file the command reads: ``-``, a pipe, a device, a
  socket or a folder is refused in one line), ``export_path`` (``verify-export``).
"""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn

from reviewer.errors import BadInputError
from reviewer.input_bytes import refuse_special

MAX_SECONDS = 86_400.0
"""A day: beyond it a bound bounds nothing a reviewer would wait for (``inf`` included)."""


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors are one line (subcommand parsers inherit it).

    The error goes out as BadInputError, so ``main`` prints and returns it as every other
    failure (exit 2) instead of argparse's usage block and ``SystemExit``.
    """

    def error(self, message: str) -> NoReturn:
        text = " ".join(message.split())
        # argparse says "argument --timeout: must be …": read as "--timeout must be …".
        text = re.sub(r"^argument (\S+): must ", r"\1 must ", text)
        text = re.sub(r"^argument (\S+): - \(standard input\)", r"\1: - (standard input)",
                      text)
        raise BadInputError(f"{text}; see '{self.prog} --help'")


def check_argv(argv: Sequence[str]) -> None:
    """BadInputError for the first argument holding bytes that are not UTF-8, naming the
    option it belongs to (a NUL cannot reach argv; ``storable`` refuses it in values)."""
    for index, arg in enumerate(argv):
        at = next((i for i, ch in enumerate(arg) if 0xD800 <= ord(ch) <= 0xDFFF), None)
        if at is None:
            continue
        if _utf8_bytes(arg):
            # The bytes are UTF-8; the locale read them as ASCII (PYTHONUTF8=0 under
            # LC_ALL=POSIX): "not valid UTF-8" blamed the text (twelfth pass, P12-9).
            raise BadInputError(
                f"{_option_of(argv, index)} holds UTF-8 text that this locale "
                f"({sys.getfilesystemencoding()}) cannot read; run with a UTF-8 locale, "
                "e.g. LC_ALL=C.UTF-8")
        code = ord(arg[at])
        byte = f"byte 0x{code - 0xDC00:02X}" if 0xDC80 <= code <= 0xDCFF else f"U+{code:04X}"
        raise BadInputError(f"{_option_of(argv, index)} is not valid UTF-8 text ({byte} at "
                            f"character {at + 1}); check the terminal's or the script's "
                            "encoding")


def _utf8_bytes(arg: str) -> bool:
    """Whether ``arg``'s bytes, as the command line gave them, are UTF-8 text."""
    try:
        os.fsencode(arg).decode("utf-8")
    except (UnicodeError, ValueError):
        return False
    return True


def _option_of(argv: Sequence[str], index: int) -> str:
    """``--reason`` for an option or its value, else ``argument N``."""
    arg = argv[index]
    if arg.startswith("--") and "=" in arg:
        return arg.partition("=")[0].encode("utf-8", "backslashreplace").decode()
    previous = argv[index - 1] if index else ""
    if previous.startswith("-") and "=" not in previous and not arg.startswith("-"):
        return previous
    shown = arg.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return f"argument {index + 1} '{shown[:60]}'"


def seconds(text: str) -> float:
    """A duration option: a finite number of seconds above 0, at most a day."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value <= 0 or value > MAX_SECONDS:
        raise argparse.ArgumentTypeError(
            f"must be a positive number of seconds, at most {MAX_SECONDS:g} (a day), "
            f"not {text!r}")
    return value


MIN_MATCH_SECONDS = 0.01  # a pattern's bound per text: below, even a plain one stops


def match_seconds(text: str) -> float:
    """``backtest --timeout``: :func:`seconds`, at least ``MIN_MATCH_SECONDS``. With
    ``1e-300`` every pattern ran out of time and the stored one was blamed for
    "catastrophic backtracking?" (fifteenth hostile pass, P15-13 (2))."""
    value = seconds(text)
    if value < MIN_MATCH_SECONDS:
        raise argparse.ArgumentTypeError(
            f"must be at least {MIN_MATCH_SECONDS:g} s (below it even a plain pattern runs "
            f"out of time), not {_shown(text)}")
    return value


def _shown(text: str, limit: int = 60) -> str:
    """An option's value as a message quotes it: at most ``limit`` characters."""
    return repr(text if len(text) <= limit else text[:limit - 3] + "…")


def whole_number(text: str, low: int, high: int | None = None) -> int | None:
    """``text`` as a whole number from ``low`` to ``high`` (no bound: None), else None."""
    try:
        value = int(text)
    except ValueError:  # not a number, or one past Python's digit limit
        return None
    return value if low <= value and (high is None or value <= high) else None


def limit(text: str) -> int:
    """``--limit N``: a whole number of at least 1 (``queue --limit -1`` printed nothing,
    exit 0: ninth hostile pass Q4)."""
    value = whole_number(text, 1)
    if value is None:
        raise argparse.ArgumentTypeError(f"must be a whole number of at least 1, not "
                                         f"{_shown(text)}")
    return value


def orders(text: str) -> int:
    """``--orders K``: a whole number from 1 to ``MAX_ORDERS`` (unbounded, ``--orders
    10^400`` announced that many judge calls; ninth hostile pass Q4)."""
    from reviewer.graders.position import MAX_ORDERS  # the position module's own bound

    value = whole_number(text, 1, MAX_ORDERS)
    if value is None:
        raise argparse.ArgumentTypeError(
            f"must be a whole number from 1 to {MAX_ORDERS} (one judge call per group "
            f"each), not {_shown(text)}")
    return value


def retries(text: str) -> int:
    """``--retries``: a whole number from 0 to ``MAX_RETRIES`` (seventh hostile pass H2:
    unbounded, with waits doubling, ``--retries 30`` meant years)."""
    from reviewer.judge.transport import MAX_RETRIES, MAX_WAIT_S  # the judge's own bounds

    value = whole_number(text, 0, MAX_RETRIES)
    if value is None:
        raise argparse.ArgumentTypeError(
            f"must be a whole number from 0 to {MAX_RETRIES} (each retry waits twice the "
            f"one before, at most {MAX_WAIT_S:g} s), not {_shown(text)}")
    return value


MAX_WORKERS = 32  # processes of one `flag` pass; past the cores, each only adds memory


def workers(text: str) -> int:
    """``flag --workers N``: a whole number from 1 to ``MAX_WORKERS`` (0 and -1 were taken
    as 1, and 100000 as that many processes, without a word: fifteenth hostile pass,
    P15-13 (4))."""
    value = whole_number(text, 1, MAX_WORKERS)
    if value is None:
        raise argparse.ArgumentTypeError(
            f"must be a whole number from 1 to {MAX_WORKERS} (processes), not {_shown(text)}")
    return value


def host_url(text: str) -> str:
    """A judge host (``host:port`` or an http(s) URL), normalised; one line when it
    cannot be a server address."""
    from reviewer.judge.host import normalize_host  # the judge's own rule

    try:
        return normalize_host(text)
    except BadInputError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def model_option(text: str) -> str:
    """A ``--model`` value: printable text (it is quoted in every judge message)."""
    from reviewer.judge.client import model_name  # the judge's own rule

    try:
        return model_name(text)
    except BadInputError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def reviewer_option(text: str) -> str:
    """A ``--reviewer`` value under the one name rule (the filters' too). Its error is
    the rule's own line (``reviewer name (from --reviewer) …``), as from the GUI."""
    from reviewer.review.identity import reviewer_name

    return reviewer_name(text, "--reviewer")


STDIN_REFUSED = "- (standard input) is not accepted here; give a file"
"""What every input file argument says of ``-`` (fifth hostile pass, P10: six wordings)."""


def input_file(what: str) -> Callable[[str], str]:
    """The type of an argument naming a file the command reads (``what``: "a run file"),
    kept as typed.

    ``-`` is standard input for ``prompt set`` and standard output for every export, so a
    reader may expect it here; it is refused in one line, the same for every command:
    each reader names FILE:LINE in its errors and some read their file more than once
    (``import`` counts the lines of a large file first, and reads it again after another
    import of the same run got there first). A file named ``-`` is ``./-``.

    A pipe, a device, a socket or a folder is refused for the same reasons, before the
    store is opened (``reviewer.input_bytes.refuse_special``, as ``--db`` and every file
    read whole): a FIFO with no writer waited for ever (eighth hostile pass, H4),
    ``/dev/stdin`` on a pipe was ``-`` by another name, ``/dev/null`` an empty run.
    ``/dev/stdin`` redirected from a file is that file.
    """
    def checked(text: str) -> str:
        if text == "-":
            raise argparse.ArgumentTypeError(STDIN_REFUSED)
        refuse_special(Path(text), what)
        return text

    return checked


def input_path(what: str) -> Callable[[str], Path]:
    """:func:`input_file` as a ``Path``."""
    checked = input_file(what)

    def as_path(text: str) -> Path:
        return Path(checked(text))

    return as_path


def export_path(text: str) -> Path:
    """An export to verify: its file, its manifest or a split export's folder; ``-`` is
    refused as by :func:`input_file` (a stream has no manifest to verify)."""
    if text == "-":
        raise argparse.ArgumentTypeError(STDIN_REFUSED)
    return Path(text)
