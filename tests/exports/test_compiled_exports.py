"""The compiled exports write exactly what the pure-Python ones write.

``make`` compiles the dataset and preference exports with mypyc
(``scripts/build_compiled.py``, ``reviewer.exports.compiled``); the command line and the
app then run the compiled copies. Every export option is run both ways on a store holding
the export fixture, the demo and a realistic run with a reviewer's decisions (rescues,
overrides, rejects of false accepts), and the files and manifests must be the same bytes.
``make test`` sets ``REVIEWER_COMPILED=required``: there a missing or stale compiled copy
fails these tests instead of skipping them.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from reviewer.compiled import compiled_copy
from reviewer.exports import compiled
from reviewer.exports import dataset as pure_dataset
from reviewer.exports import preference as pure_preference
from reviewer.exports.options import DatasetOptions, PreferenceOptions
from reviewer.exports.split import Split
from reviewer.ingest.demo import load_demo
from reviewer.store import Store
from tests.exports.realistic import import_and_decide
from tests.support.feedback_stores import load_export_store

pytestmark = pytest.mark.both_backends
REQUIRED = os.environ.get("REVIEWER_COMPILED") == "required"
# The pure exports, beside ``reviewer.exports.compiled`` (the copies in use).
PURE = SimpleNamespace(export_dataset=pure_dataset.export_dataset,
                       export_preference=pure_preference.export_preference)


def _need_compiled() -> None:
    if compiled.COMPILED:
        return
    if REQUIRED:
        pytest.fail("REVIEWER_COMPILED=required but the compiled exports are missing or "
                    "stale: run scripts/build_compiled.py exports")
    pytest.skip("no compiled exports built from the current sources")


@pytest.fixture
def full_store(store: Store, db_url: str, tmp_path: Path) -> Store:
    """The export fixture, the demo, and a realistic run with the reviewer's decisions."""
    load_export_store(store, tmp_path)
    load_demo(store)
    truth = import_and_decide(db_url, tmp_path)
    assert truth.rescue and truth.reject  # or the comparison misses the corrected paths
    return store


def _files(folder: Path) -> dict[str, bytes]:
    """Every file written: the export and its manifest, or the split folder's files."""
    out = folder / "out"
    where = out if out.is_dir() else folder
    return {p.name: p.read_bytes() for p in sorted(where.iterdir())}


def _compare(store: Store, tmp_path: Path, options: list[Any],
             export: Callable[[Any, Any, Path, Any, Split | None], Any]) -> None:
    """Each of ``options``, to one file and split, written by the compiled and the pure
    module (``export(module, session, out, options, split)``): the same bytes."""
    _need_compiled()
    cases = [(o, s) for o in options for s in (None, Split.parse("valid=0.25"))]
    for number, (option, split) in enumerate(cases):
        found = []
        for side, module in (("compiled", compiled), ("pure", PURE)):
            folder = tmp_path / str(number) / side
            folder.mkdir(parents=True)
            with store.session() as s:
                export(module, s, folder / "out", option, split)
            found.append(_files(folder))
        assert found[0] == found[1], (option, split)
        assert sum(len(b) for b in found[1].values()) > 500  # lines, not an empty file


DATASETS = [
    DatasetOptions(),
    DatasetOptions(per="conversation"),
    DatasetOptions(fmt="sharegpt"),
    DatasetOptions(fmt="sharegpt", per="conversation"),
    DatasetOptions(fmt="prompt-completion"),
    DatasetOptions(weight_context=0),
    DatasetOptions(pick="first", keep_tainted=True),
    DatasetOptions(pick="last", reviewer="associe"),
]


def test_the_compiled_dataset_export_writes_the_pure_bytes(full_store: Store,
                                                         tmp_path: Path) -> None:
    _compare(full_store, tmp_path, DATASETS,
             lambda module, session, out, options, split: module.export_dataset(
                 session, out, options=options, split=split))


PREFERENCES = [
    PreferenceOptions(),
    PreferenceOptions(include_filter_refusals=True),
    PreferenceOptions(fmt="openai-dpo", include_filter_refusals=True),
    PreferenceOptions(fmt="kto", include_filter_refusals=True),
    PreferenceOptions(fmt="kto", reviewer="associe"),
    PreferenceOptions(include_filter_refusals=True, causes=frozenset({"G-DEMANDE"}),
                      keep_tainted=True),
]


def test_the_compiled_preference_export_writes_the_pure_bytes(full_store: Store,
                                                            tmp_path: Path) -> None:
    _compare(full_store, tmp_path, PREFERENCES,
             lambda module, session, out, options, split: module.export_preference(
                 session, out, options, split))


def test_the_command_line_runs_the_compiled_export_and_a_stale_copy_is_not_used(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The copy is taken only with the stamp of the current sources, and never when the
    pure modules are asked for."""
    _need_compiled()
    name = f"{compiled.FAST_PACKAGE}.preference"
    assert compiled_copy(name, compiled.source_digest(), "REVIEWER_TEST_UNSET") is not None
    assert compiled_copy(name, "0" * 64, "REVIEWER_TEST_UNSET") is None  # an edited source
    monkeypatch.setenv("REVIEWER_TEST_PURE", "1")
    assert compiled_copy(name, compiled.source_digest(), "REVIEWER_TEST_PURE") is None
    # What the command line and the Export dialog call (``run_export``) is the compiled one.
    from reviewer.exports import run

    assert vars(run)["export_preference"] is compiled.export_preference
    assert compiled.export_preference is not pure_preference.export_preference
