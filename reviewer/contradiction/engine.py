"""The scanner in use: a compiled copy of :mod:`reviewer.contradiction.scan` when one
was built from the current source, else the module itself.

``python scripts/build_compiled.py contradiction`` compiles ``scan.py`` with mypyc (shipped
with mypy, a development dependency; it needs a C compiler) into
``reviewer/contradiction/_scan_fast*.so``, stamped with the SHA-256 of the sources it was
built from (``scan.py``, and ``lexicon.py`` and ``normalize.py`` whose constants it may
have copied). The copy is used only while that stamp matches: an edited scanner or
lexicon silently falls back to the pure-Python module instead of running stale code.
Both give the same detections (``tests/contradiction/test_contradiction.py`` compares
them when the compiled copy is there); the compiled one is about three times faster
(``benchmarks/bench_contradiction.py``).

:func:`scan`, :func:`read` and the other functions below, :class:`Valences` and
:func:`keyword_key` must come from the same module: the compiled scanner only accepts
its own classes (``Valences``, and the ``ScanResult``, ``Cue`` and ``Part`` it made).
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from reviewer.compiled import compiled_copy, sources_digest
from reviewer.contradiction import scan as _pure

FAST_MODULE = "reviewer.contradiction._scan_fast"
PURE_ENV = "REVIEWER_CONTRADICTION_PURE"  # set (to anything) to ignore the compiled copy


def source_digest() -> str:
    """SHA-256 of ``scan.py`` and of the modules whose ``Final`` constants mypyc may
    have copied into the compiled code (``lexicon.py``, ``normalize.py``), as they are
    now."""
    here = Path(_pure.__file__).parent
    return sources_digest(here / name for name in ("scan.py", "lexicon.py", "normalize.py"))


def _load() -> ModuleType:
    return compiled_copy(FAST_MODULE, source_digest(), PURE_ENV) or _pure


ENGINE: ModuleType = _load()
COMPILED = ENGINE is not _pure

if TYPE_CHECKING:  # the compiled copy has the same signatures
    from reviewer.contradiction.scan import (
        Valences,
        cue_spans,
        keyword_key,
        lean,
        masses,
        read,
        scan,
        strongest,
        token_span,
        two_spans,
    )
else:
    scan = ENGINE.scan
    Valences = ENGINE.Valences
    keyword_key = ENGINE.keyword_key
    lean = ENGINE.lean
    read = ENGINE.read
    cue_spans = ENGINE.cue_spans
    masses = ENGINE.masses
    strongest = ENGINE.strongest
    token_span = ENGINE.token_span
    two_spans = ENGINE.two_spans

__all__ = [
    "COMPILED",
    "ENGINE",
    "PURE_ENV",
    "Valences",
    "cue_spans",
    "keyword_key",
    "lean",
    "masses",
    "read",
    "scan",
    "source_digest",
    "strongest",
    "token_span",
    "two_spans",
]
