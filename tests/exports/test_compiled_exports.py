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
from typing import Any

import pytest

from reviewer.cli.main import main
from reviewer.compiled import compiled_copy
from reviewer.exports import compiled
from reviewer.exports import dataset as pure_dataset
from reviewer.exports import preference as pure_preference
from reviewer.exports.options import DatasetOptions, PreferenceOptions
from reviewer.exports.split import Split
from reviewer.ingest.demo import load_demo
from reviewer.store import Store
from tests.exports.realistic import make_run
from tests.support.feedback_stores import load_export_store
from tests.support.run_files import write_catalog, write_jsonl

pytestmark = pytest.mark.both_backends
REQUIRED = os.environ.get("REVIEWER_COMPILED") == "required"


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
    rows, truth = make_run(7)
    run = write_jsonl(tmp_path / "run.jsonl", rows)
    catalog = write_catalog(tmp_path / "catalog.json")
    assert main(["--db", db_url, "import", str(run), "--catalog", str(catalog)]) == 0
    assert main(["--db", db_url, "--reviewer", "associe", "decide", "--from-csv",
                 str(truth.write_csv(tmp_path / "decisions.csv"))]) == 0
    assert truth.rescue and truth.reject  # or the comparison misses the corrected paths
    return store


def _files(folder: Path) -> dict[str, bytes]:
    """Every file written: the export and its manifest, or the split folder's files."""
    out = folder / "out"
    where = out if out.is_dir() else folder
    return {p.name: p.read_bytes() for p in sorted(where.iterdir())}


def _both(store: Store, tmp_path: Path,
          export: Callable[[Any, Any, Path], Any]) -> tuple[dict[str, bytes], dict[str, bytes]]:
    """Run ``export(module, session, out)`` with the compiled and the pure module."""
    found = []
    for side, module in (("compiled", compiled), ("pure", None)):
        folder = tmp_path / side
        folder.mkdir(parents=True)
        with store.session() as s:
            export(module, s, folder / "out")
        found.append(_files(folder))
    return found[0], found[1]


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
    _need_compiled()
    for number, (options, split) in enumerate(
            (o, s) for o in DATASETS for s in (None, Split.parse("valid=0.25"))):

        def export(module: Any, session: Any, out: Path,
                   options: DatasetOptions = options, split: Split | None = split) -> Any:
            fn = module.export_dataset if module is not None else pure_dataset.export_dataset
            return fn(session, out, options=options, split=split)

        fast, pure = _both(full_store, tmp_path / str(number), export)
        assert fast == pure, (options, split)
        assert sum(len(b) for b in pure.values()) > 1000  # examples, not an empty file


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
    _need_compiled()
    for number, (options, split) in enumerate(
            (o, s) for o in PREFERENCES for s in (None, Split.parse("valid=0.25"))):

        def export(module: Any, session: Any, out: Path,
                   options: PreferenceOptions = options, split: Split | None = split) -> Any:
            fn = module.export_preference if module is not None \
                else pure_preference.export_preference
            return fn(session, out, options, split)

        fast, pure = _both(full_store, tmp_path / str(number), export)
        assert fast == pure, (options, split)
        assert sum(len(b) for b in pure.values()) > 500


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
    from reviewer.exports import run

    assert run.export_preference is not pure_preference.export_preference
