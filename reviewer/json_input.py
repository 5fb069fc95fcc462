"""Rules every reader of JSON input applies: what a database can store, no duplicate keys,
the words a verdict may be written with.

Shared by the run-file reader, the catalog reader and the judge's reply parser, so a value
refused in one is refused in all.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

from reviewer.errors import BadInputError

TRUE_WORDS = {"oui", "yes", "true"}
FALSE_WORDS = {"non", "no", "false"}
MAX_DEPTH = 64
SURROGATE = re.compile("[\ud800-\udfff]")


def load_json(text: str, where: str) -> Any:
    """``json.loads`` whose every refusal is one BadInputError naming ``where``: bad
    syntax, nesting too deep for Python's parser, an integer past Python's digit limit
    (a RecursionError or a bare ValueError used to leave as an internal error, exit 70)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadInputError(f"{where}: not valid JSON ({exc.msg})") from None
    except RecursionError:
        raise BadInputError(f"{where}: JSON nested too deeply") from None
    except ValueError:  # an integer of more than 4,300 digits (Python's own limit)
        raise BadInputError(f"{where}: {too_many_digits()}") from None


def too_many_digits() -> str:
    """What a number past Python's digit limit is called (not Python's advice,
    ``sys.set_int_max_str_digits``, which a reviewer cannot act on)."""
    return f"a number with more than {sys.get_int_max_str_digits():,} digits"


MID_FILE_BOM = ("a byte-order mark (U+FEFF) in the middle of the file (two files joined "
                "together?)")
"""A line that starts with a BOM after the first (Python's advice was "decode using
utf-8-sig"); the first line's is dropped (``input_bytes.bounded_lines``)."""


class DuplicateKey(ValueError):
    """A JSON object that names one key twice."""


def parse_verdict(value: Any) -> bool | None:
    """oui/non, yes/no, true/false (any case) or a JSON boolean; None if unreadable."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        word = value.strip().lower()
        if word in TRUE_WORDS:
            return True
        if word in FALSE_WORDS:
            return False
    return None


def check_storable(value: Any, level: int = 0) -> None:
    """Refuse what JSON allows but a database cannot store faithfully (ValueError)."""
    if level > MAX_DEPTH:
        raise ValueError("JSON nested too deeply")
    if isinstance(value, str):
        if "\x00" in value:
            raise ValueError("contains a NUL character")
        if SURROGATE.search(value):
            raise ValueError("contains an unpaired UTF-16 surrogate (\\ud800-\\udfff)")
    elif isinstance(value, dict):
        for key, item in value.items():
            check_storable(key, level + 1)
            check_storable(item, level + 1)
    elif isinstance(value, list):
        for item in value:
            check_storable(item, level + 1)


def no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``json.loads`` hook: a key given twice is ambiguous, so it is an error, not last-wins."""
    data = dict(pairs)
    if len(data) != len(pairs):  # cheaper than a set of keys on every object
        keys = [k for k, _ in pairs]
        dupe = next(k for k in keys if keys.count(k) > 1)
        raise DuplicateKey(f"duplicate key {dupe!r}")
    return data


def may_be_unstorable(text: str) -> bool:
    """Whether ``check_storable`` could refuse the JSON ``text`` (already NUL-free).

    Strict UTF-8 decoding refuses encoded surrogates, so a NUL or a lone surrogate can only
    come from a ``\\u`` escape, and nesting deeper than MAX_DEPTH needs more brackets than
    that. Most lines have neither, and walking every value was a tenth of the import time.
    """
    return "\\u" in text or text.count("{") + text.count("[") > MAX_DEPTH
