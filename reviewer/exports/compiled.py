"""The dataset and preference exports in use: compiled copies when built from the current
sources, else the pure-Python modules (``reviewer.compiled``).

``python scripts/build_compiled.py exports`` compiles ``json_string``, ``walk``,
``dataset`` and ``preference`` together with mypyc into ``reviewer/exports/_fast/``: the
walk's and the pairs' Python per attempt and per turn was most of what the preference
export spent beyond reading and writing (about a fifth less CPU compiled, see
``docs/performance.md``). Both write the same bytes
(``tests/exports/test_compiled_exports.py``). Everything the callers build and pass in
(``reviewer.exports.options``, ``reviewer.exports.split``, ``reviewer.outputs``) stays
pure, so that both copies accept it; the reports they return are read by attribute.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from reviewer.compiled import compiled_copy, sources_digest
from reviewer.exports import dataset as _pure_dataset
from reviewer.exports import preference as _pure_preference

FAST_PACKAGE = "reviewer.exports._fast"
# Compiled together, in this order; each copy imports the others' compiled copies.
MODULES = ("json_string", "walk", "dataset", "preference")
# The pure modules whose constants mypyc may have copied into the compiled code.
ALSO_STAMPED = ("options.py",)
PURE_ENV = "REVIEWER_EXPORTS_PURE"  # set (to anything) to ignore the compiled copies


def source_digest() -> str:
    """SHA-256 of the compiled modules' sources and of ``options.py``, as they are now."""
    here = Path(_pure_dataset.__file__).parent
    names = [f"{m}.py" for m in MODULES] + list(ALSO_STAMPED)
    return sources_digest(here / name for name in names)


def _load() -> tuple[ModuleType, ModuleType]:
    fast = compiled_copy(f"{FAST_PACKAGE}.preference", source_digest(), PURE_ENV)
    if fast is None:
        return _pure_dataset, _pure_preference
    return importlib.import_module(f"{FAST_PACKAGE}.dataset"), fast


_DATASET, _PREFERENCE = _load()
COMPILED = _PREFERENCE is not _pure_preference

if TYPE_CHECKING:  # the compiled copies have the same signatures
    from reviewer.exports.dataset import export_dataset
    from reviewer.exports.preference import export_preference
else:
    export_dataset = _DATASET.export_dataset
    export_preference = _PREFERENCE.export_preference

__all__ = ["COMPILED", "PURE_ENV", "export_dataset", "export_preference", "source_digest"]
