"""The export files are byte for byte what ``json.dumps(record, ensure_ascii=False)`` writes.

The exports encode each message of a conversation once and reuse it for the following
turns and pairs; these tests hold them to the bytes a plain ``json.dumps`` per record would
write, in every format and both ways of cutting examples, on the export fixture and the
demo.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewer.exports.dataset import DatasetOptions, export_dataset
from reviewer.exports.preference import PreferenceOptions, export_preference
from reviewer.ingest.demo import load_demo
from reviewer.store import Store
from tests.support.feedback_stores import load_export_store

pytestmark = pytest.mark.both_backends


def plain_dumps(path: Path) -> str:
    """The file as one ``json.dumps`` per parsed line would have written it."""
    return "".join(json.dumps(json.loads(line), ensure_ascii=False) + "\n"
                   for line in path.read_text(encoding="utf-8").splitlines())


@pytest.mark.parametrize(("fmt", "per", "weight"), [
    ("chat", "turn", None), ("chat", "conversation", None), ("sharegpt", "turn", None),
    ("sharegpt", "conversation", None), ("prompt-completion", "turn", None),
    ("chat", "turn", 0)])
def test_dataset_bytes_are_plain_json_dumps(store: Store, tmp_path: Path, fmt: str,
                                            per: str, weight: int | None) -> None:
    load_export_store(store, tmp_path)
    load_demo(store)
    out = tmp_path / f"{fmt}-{per}.jsonl"
    with store.session() as s:
        report = export_dataset(s, out, options=DatasetOptions(
            per=per, fmt=fmt, reviewer="associe", weight_context=weight))

    text = out.read_text(encoding="utf-8")
    assert report.examples == len(text.splitlines()) > 5
    assert text == plain_dumps(out)
    assert "é" in text  # written as UTF-8, not \\u escapes


@pytest.mark.parametrize("fmt", ["dpo", "openai-dpo", "kto"])
def test_preference_bytes_are_plain_json_dumps(store: Store, tmp_path: Path, fmt: str
                                               ) -> None:
    load_export_store(store, tmp_path)
    load_demo(store)
    out = tmp_path / f"{fmt}.jsonl"
    with store.session() as s:
        report = export_preference(s, out, PreferenceOptions(
            fmt=fmt, include_filter_refusals=True))

    text = out.read_text(encoding="utf-8")
    assert report.lines == len(text.splitlines()) > 5
    assert text == plain_dumps(out)
