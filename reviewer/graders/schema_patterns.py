"""A JSON schema's regular expressions, searched with the time bound every pattern has.

``jsonschema`` searches a schema's ``pattern`` and its ``patternProperties`` keys (also
for ``additionalProperties`` and ``unevaluatedProperties``, which ask which keys those
match) with Python's ``re`` and no bound: ``(a+)+$`` on an answer of 40 letters and a
"!" ran for hours (ninth hostile pass, H5). The library has no hook for its regex
engine, and those keywords call ``re.search`` from several of its modules, so
:func:`bounded` gives these modules a stand-in for ``re``: inside ``with bounded(s):``
(the json grader's validation) its ``search`` is the ``regex`` package's, with
``timeout=s``, and a search that runs longer raises :class:`SchemaPatternTimeout`
naming the pattern; everywhere else, and for every other function of ``re``, it is
``re`` itself.

The patterns keep the reading they had: Python's (``regex`` in its ``re``-compatible
mode: ``\\d`` any decimal digit, ``$`` also before a final line feed), which is what
jsonschema gives and what its schema check accepts, not ECMA-262's that the JSON Schema
specification recommends. Reading them as JavaScript (V8, as ``grade regex --dialect
ecmascript`` does) would change which answers pass under a schema already in use.
"""

from __future__ import annotations

import contextlib
import contextvars
import re
import sys
import threading
from collections.abc import Iterator
from typing import Any

import regex

from reviewer.errors import BadInputError

_BOUND: contextvars.ContextVar[float | None] = contextvars.ContextVar(
    "schema_pattern_bound", default=None)
_installed = False
_install_lock = threading.Lock()


class SchemaPatternTimeout(BadInputError):
    """A schema pattern searched one text longer than the bound."""

    def __init__(self, pattern: str, seconds: float) -> None:
        super().__init__(f"the schema's pattern {pattern!r} stopped after {seconds:g} s: "
                         "catastrophic backtracking?")
        self.pattern = pattern
        self.seconds = seconds


class _ReStandIn:
    """What jsonschema's modules see as ``re``: ``re`` itself, but for ``search``."""

    def __getattr__(self, name: str) -> Any:
        return getattr(re, name)

    @staticmethod
    def search(pattern: Any, string: Any, flags: int = 0) -> Any:
        seconds = _BOUND.get()
        if seconds is None or not isinstance(pattern, str) or not isinstance(string, str):
            return re.search(pattern, string, flags)
        try:
            return regex.search(pattern, string, flags, timeout=seconds)
        except TimeoutError:
            raise SchemaPatternTimeout(pattern, seconds) from None
        except regex.error as exc:  # valid for re (the schema check), not for regex
            raise BadInputError(f"the schema's pattern {pattern!r} cannot be "
                                f"read: {exc}") from None


_STAND_IN = _ReStandIn()


def _install() -> None:
    """Put the stand-in wherever jsonschema's code calls ``re`` (once per process)."""
    global _installed
    with _install_lock:
        if _installed:
            return
        import jsonschema.validators  # noqa: F401  (imports every keyword module)

        for name, module in list(sys.modules.items()):
            if name.startswith("jsonschema.") and getattr(module, "re", None) is re:
                module.re = _STAND_IN  # type: ignore[attr-defined]
        _installed = True


@contextlib.contextmanager
def bounded(seconds: float) -> Iterator[None]:
    """Within the block, each schema pattern search (in this thread or task) stops after
    ``seconds`` with :class:`SchemaPatternTimeout`."""
    _install()
    token = _BOUND.set(seconds)
    try:
        yield
    finally:
        _BOUND.reset(token)
