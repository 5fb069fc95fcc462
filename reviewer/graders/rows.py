"""Reading the ``grade`` input: one JSON object per line.

``{"prompt"?, "response", "reference"?, "expected"?, "group"?}``: ``prompt`` is a string
or a list of ``{"role", "content"}`` messages (``messages`` is accepted as a synonym, as in
run files), ``expected`` a string or, for the label grader, a list of labels. Every error
names the file and line: ``FILE:LINE: what is wrong``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reviewer.errors import BadInputError, os_failure
from reviewer.input_bytes import decoded_lines
from reviewer.json_input import load_json


@dataclass(frozen=True)
class Row:
    """One answer to grade, with where it came from."""

    source: str
    line: int
    response: str
    prompt: str | list[dict[str, Any]] | None = None
    reference: str | None = None
    expected: str | list[str] | None = None
    group: str | None = None
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def where(self) -> str:
        """``FILE:LINE`` for error messages."""
        return f"{self.source}:{self.line}"

    def group_key(self) -> str:
        """Answers sharing a group (else a prompt) are judged together."""
        if self.group is not None:
            return "group:" + self.group
        if self.prompt:
            return "prompt:" + json.dumps(self.prompt, ensure_ascii=False, sort_keys=True)
        return f"line:{self.line}"


def _optional_text(obj: dict[str, Any], key: str, where: str) -> str | None:
    value = obj.get(key)
    if value is None or isinstance(value, str):
        return value
    raise BadInputError(f"{where}: {key!r} must be a string or null")


def _prompt(obj: dict[str, Any], where: str) -> str | list[dict[str, Any]] | None:
    value = obj.get("prompt", obj.get("messages"))
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, list) and all(
        isinstance(m, dict) and isinstance(m.get("content"), str) for m in value
    ):
        return value
    raise BadInputError(f"{where}: 'prompt' must be a string or a list of {{role, content}}")


def _expected(obj: dict[str, Any], where: str) -> str | list[str] | None:
    value = obj.get("expected")
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return value
    raise BadInputError(f"{where}: 'expected' must be a string or a list of strings")


def parse_row(text: str, source: str, line: int) -> Row:
    """One input line as a Row; BadInputError names ``source:line``."""
    where = f"{source}:{line}"
    obj = load_json(text, where)
    if not isinstance(obj, dict):
        raise BadInputError(f"{where}: expected a JSON object")
    response = obj.get("response")
    if not isinstance(response, str):
        raise BadInputError(f"{where}: 'response' is required and must be a string")
    group = obj.get("group")
    if group is not None and not isinstance(group, str | int):
        raise BadInputError(f"{where}: 'group' must be a string or an integer")
    return Row(
        source=source,
        line=line,
        response=response,
        prompt=_prompt(obj, where),
        reference=_optional_text(obj, "reference", where),
        expected=_expected(obj, where),
        group=None if group is None else str(group),
        raw=obj,
    )


def parse_lines(lines: Iterable[str], source: str) -> Iterator[Row]:
    """Rows of a JSONL text; blank lines are skipped but still counted."""
    for number, text in enumerate(lines, 1):
        if text.strip():
            yield parse_row(text, source, number)


def read_rows(path: str | Path) -> list[Row]:
    """Every row of a JSONL file (``-`` is not supported: graders need the whole file)."""
    p = Path(path)
    try:
        with p.open("rb") as handle:
            # Bounded memory, a line that is not UTF-8 named (reviewer.input_bytes).
            lines = (text for _, text in decoded_lines(handle, str(path)))
            rows = list(parse_lines(lines, str(path)))
    except FileNotFoundError:
        raise BadInputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise BadInputError(f"{path}: is a directory") from None
    except OSError as exc:  # unreadable, a FIFO without a writer, an I/O error
        raise os_failure(exc, path, "read") from None
    if not rows:
        raise BadInputError(f"{path}: no rows to grade")
    return rows
