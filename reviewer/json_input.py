"""Rules every reader of JSON input applies: what a database can store, no duplicate keys,
the words a verdict may be written with.

Shared by the run-file reader, the catalog reader and the judge's reply parser, so a value
refused in one is refused in all.
"""

from __future__ import annotations

import json
import math
import re
import sys
from itertools import accumulate
from typing import Any

from reviewer.errors import BadInputError

TRUE_WORDS = {"oui", "yes", "true"}
FALSE_WORDS = {"non", "no", "false"}
MAX_DEPTH = 64
"""The deepest a stored value may sit (``check_storable``)."""
MAX_NESTING = 100
"""The most containers one inside another that any JSON input may open before it reaches
Python's decoder (``nested_too_deeply``). The C decoder recurses once per level on the C
stack and stops only at the recursion limit (1,000): under ``ulimit -s 128`` it crashed
the process at about 990 (SIGSEGV, nothing said; sixth hostile pass). 100 is a tenth
of that, above ``MAX_DEPTH`` (so a reader with the store's rule refuses what it did,
with the same words) and far above any real input (JSON schemas and model answers nest
a few dozen levels at most)."""
SURROGATE = re.compile("[\ud800-\udfff]")
_STRING = re.compile(r'"[^"\\]*+(?:\\.[^"\\]*+)*+(?:"|\Z)', re.DOTALL)
"""A JSON string, or an unterminated one running to the end (possessive: linear time)."""
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


class NestedTooDeeply(ValueError):
    """JSON that opens more than ``MAX_NESTING`` containers one inside another."""

    def __init__(self) -> None:
        super().__init__("JSON nested too deeply")


def brackets(text: str) -> int:
    """How many containers ``text`` opens at most: its ``[`` and ``{``, in strings or not
    (two counts in C, shared by ``nested_too_deeply`` and ``may_be_unstorable``)."""
    return text.count("[") + text.count("{")


def nested_too_deeply(text: str, limit: int = MAX_NESTING, opened: int | None = None) -> bool:
    """Whether the JSON ``text`` opens more than ``limit`` containers one inside another,
    brackets inside strings aside.

    Two counts bound the depth for almost every input (an ordinary run line has a few
    dozen brackets; ``opened``: ``brackets(text)`` already counted); only beyond them
    are the strings removed and the depth measured, in a few calls running in C. Where
    ``text`` is not JSON the measure may be wrong, but only after the point where the
    decoder stops: up to there both read the same strings and brackets, so the decoder
    never goes deeper than measured.
    """
    if (brackets(text) if opened is None else opened) <= limit:
        return False
    return nesting(text) > limit


def nesting(text: str) -> int:
    """How many containers the JSON ``text`` opens one inside another at most, brackets
    inside strings aside (linear time; ``nested_too_deeply`` counts first)."""
    structure = _NOT_BRACKET.sub("", _STRING.sub("", text))
    return max(accumulate(map(_STEP.__getitem__, structure)), default=0)


def loads(text: str, **kwargs: Any) -> Any:
    """``json.loads`` of ``text`` unless it nests deeper than ``MAX_NESTING``
    (NestedTooDeeply, a ValueError, before the decoder runs). Every reader of JSON it
    did not write itself goes through here."""
    if nested_too_deeply(text):
        raise NestedTooDeeply
    return json.loads(text, **kwargs)


class KeyTwice(ValueError):
    """A JSON object names one key twice (its name): ``once_each`` refuses it."""


def once_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An ``object_pairs_hook`` for a JSON object whose every key comes once: a judge's
    ``{"verdict": "non", "verdict": "oui"}`` says both, and ``json.loads`` kept the last
    one silently (tenth hostile pass, Z2: the reply rescued the attempt, or not, by the
    order of its keys)."""
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise KeyTwice(key)
        found[key] = value
    return found


def load_json(text: str, where: str) -> Any:
    """``json.loads`` whose every refusal is one BadInputError naming ``where``: bad
    syntax, nesting too deep for Python's parser, an integer past Python's digit limit
    (a RecursionError or a bare ValueError used to leave as an internal error, exit 70)."""
    try:
        return loads(text)
    except json.JSONDecodeError as exc:
        raise BadInputError(f"{where}: not valid JSON ({exc.msg})") from None
    except (NestedTooDeeply, RecursionError):
        raise BadInputError(f"{where}: JSON nested too deeply") from None
    except ValueError:  # an integer of more than 4,300 digits (Python's own limit)
        raise BadInputError(f"{where}: {too_many_digits()}") from None


def beyond_digit_limit(exc: BaseException) -> bool:
    """Whether ``exc`` is Python's refusal of an integer past its digit limit (a
    ValueError "Exceeds the limit (4300 digits) for integer string conversion…"), raised
    by ``json.loads`` on a long number; the words for it are :func:`too_many_digits`."""
    return isinstance(exc, ValueError) and "integer string conversion" in str(exc)


def too_many_digits() -> str:
    """What a number past Python's digit limit is called (not Python's advice,
    ``sys.set_int_max_str_digits``, which a reviewer cannot act on)."""
    return f"a number with more than {sys.get_int_max_str_digits():,} digits"


MAX_FLOAT = sys.float_info.max
"""The largest magnitude a float holds (1.8e308): a JSON number beyond it is refused."""


def json_kind(value: Any) -> str:
    """What a JSON value is, in words, for messages: ``a string``, ``null``, ``true``…"""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def number_shown(value: float) -> str:
    """A number as a message shows it: JSON's words for NaN and the infinities, an
    integer too long to print by its digit count."""
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return f"{value:g}"
    try:
        text = str(value)
    except ValueError:  # past Python's digit limit (only from code: JSON refuses it)
        return too_many_digits()
    digits = len(text.lstrip("-"))
    return text if digits <= 20 else f"an integer of {digits:,} digits"


def number_problem(value: Any, limit: float = MAX_FLOAT) -> str | None:
    """Why the JSON value ``value`` is not a number within ±``limit`` (None: it is), as
    the end of a message naming the field: ``must be a number (found a string)``.

    ``true``/``false`` are no numbers (Python counts them as integers). JSON holds exact
    integers of any length: one of 400 digits is finite, but ``float()`` and
    ``math.isfinite()`` raise OverflowError on it (ninth hostile pass T6, exit 70), so
    integers are compared with the limit exactly, never converted first.
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        return f"must be a number (found {json_kind(value)})"
    if abs(value) <= limit:  # NaN compares false: refused below
        return None
    bound = f"{limit:.2g}".replace("e+", "e")
    return f"must be a finite number within ±{bound} (found {number_shown(value)})"


def finite_number(value: Any, what: str, limit: float = MAX_FLOAT) -> float:
    """``value``, a number read from JSON, as a float; BadInputError ``WHAT must be …``
    when it is no number, NaN, infinite or beyond ±``limit`` (:func:`number_problem`).
    The one check of every number a grading or calibration input gives."""
    problem = number_problem(value, limit)
    if problem is not None:
        raise BadInputError(f"{what} {problem}")
    return float(value)


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


def may_be_unstorable(text: str, opened: int | None = None) -> bool:
    """Whether ``check_storable`` could refuse the JSON ``text`` (already NUL-free).

    Strict UTF-8 decoding refuses encoded surrogates, so a NUL or a lone surrogate can only
    come from a ``\\u`` escape, and nesting deeper than MAX_DEPTH needs more brackets than
    that. Most lines have neither, and walking every value was a tenth of the import time.
    ``opened``: ``brackets(text)``, when already counted.
    """
    return "\\u" in text or (brackets(text) if opened is None else opened) > MAX_DEPTH
