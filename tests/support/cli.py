"""The command line as a test drives it in process: its exit code, and its one line."""

from __future__ import annotations

import pytest

from reviewer.cli.main import main


def run(argv: list[str]) -> int:
    """``reviewer ARGV``'s exit code, whether the command or argparse ended it."""
    try:
        return main(argv)
    except SystemExit as stop:
        return int(stop.code or 0)


def one_line(capsys: pytest.CaptureFixture[str], code: int, expected: int) -> str:
    """The one ``reviewer:`` line on stderr, once the exit code is the expected one: never
    a traceback nor an internal error."""
    err = capsys.readouterr().err
    assert code == expected, err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("reviewer: "), err
    assert "Traceback" not in err and "internal error" not in err, err
    return lines[0]
