"""The dataset file is byte for byte what ``json.dumps(example, ensure_ascii=False)`` writes.

The export encodes each message of a conversation once and reuses it for the following
turns; these tests hold it to the bytes a plain ``json.dumps`` per example would write,
in both formats and both ways of cutting examples, on the export fixture and the demo.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewer.exports.dataset import export_dataset
from reviewer.ingest.demo import load_demo
from reviewer.store import Store
from tests.support.feedback_stores import load_export_store

pytestmark = pytest.mark.both_backends


def plain_dumps(path: Path) -> str:
    """The file as one ``json.dumps`` per parsed line would have written it."""
    return "".join(json.dumps(json.loads(line), ensure_ascii=False) + "\n"
                   for line in path.read_text(encoding="utf-8").splitlines())


@pytest.mark.parametrize("fmt", ["chat", "sharegpt"])
@pytest.mark.parametrize("per", ["turn", "conversation"])
def test_dataset_bytes_are_plain_json_dumps(store: Store, tmp_path: Path, fmt: str,
                                            per: str) -> None:
    load_export_store(store, tmp_path)
    load_demo(store)
    out = tmp_path / f"{fmt}-{per}.jsonl"
    with store.session() as s:
        report = export_dataset(s, out, per=per, fmt=fmt, reviewer="associe")

    text = out.read_text(encoding="utf-8")
    assert report.examples == len(text.splitlines()) > 5
    assert text == plain_dumps(out)
    assert "é" in text  # written as UTF-8, not \u escapes
