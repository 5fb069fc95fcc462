"""Choosing a mypyc-compiled copy of a module, only while it matches its source.

Two hot paths ship a compiled copy, built on request by ``scripts/build_compiled.py``
(mypyc comes with mypy, a development dependency, and needs a C compiler): the
contradiction scanner (``reviewer.contradiction.engine``) and the corpus exports
(``reviewer.exports.compiled``). A copy is stamped with the SHA-256 of the sources it was
built from (``SOURCE_DIGEST``) and used only while that stamp matches the sources as they
are now: an edited module silently falls back to its pure-Python self instead of running
stale code. An environment variable forces the pure modules (the tests compare both).
"""

from __future__ import annotations

import hashlib
import importlib
import os
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType


def sources_digest(paths: Iterable[Path]) -> str:
    """SHA-256 of the files' bytes, in the order given."""
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.read_bytes())
    return digest.hexdigest()


def compiled_copy(name: str, digest: str, pure_env: str) -> ModuleType | None:
    """The compiled module ``name`` when it exists, ``pure_env`` is not set and its stamp
    is ``digest``; else None (the caller runs its pure module)."""
    if os.environ.get(pure_env):
        return None
    try:
        fast = importlib.import_module(name)
    except ImportError:
        return None
    return fast if getattr(fast, "SOURCE_DIGEST", None) == digest else None
