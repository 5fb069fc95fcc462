"""The json grader's schema patterns have the time bound every other pattern has.

Ninth hostile pass, H5: ``grade json --schema S`` ran the schema's ``pattern`` and
``patternProperties`` regexes with Python's ``re`` and no bound: ``(a+)+$`` on a response
of 40 letters and a "!" would run for hours. Now they run on the ``regex`` package, as
the regex grader's and the checks' patterns do: that reproduction ends at once with the
right scores, and a search that still runs longer than 0.5 s (5,000 letters) stops the
command as ``grade regex`` does on its own pattern: exit 2, one line naming FILE:LINE
and the pattern. Nothing here measures time: the subprocesses' ``timeout=`` only keeps a
regression from hanging the suite.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from reviewer.cli.main import main as cli
from reviewer.errors import BadInputError
from reviewer.graders.exact import json_valid

ROOT = Path(__file__).resolve().parents[2]
EVIL = "(a+)+$"
FORTY = "a" * 40 + "!"
LONG = "a" * 5000 + "!"  # long enough for the regex package to backtrack too
STOPPED = f"the schema's pattern '{EVIL}' stopped after 0.5 s: catastrophic backtracking?"
PATTERN = {"type": "string", "pattern": EVIL}


def pattern_properties(key: str) -> tuple[dict[str, Any], Any]:
    return {"type": "object", "patternProperties": {EVIL: {"type": "string"}}}, {key: 1}


def write_case(folder: Path, schema: dict[str, Any], first: Any, second: Any
               ) -> tuple[Path, Path]:
    """A schema file and an input of two lines answering ``first`` and ``second`` (JSON)."""
    schema_file = folder / "s.json"
    schema_file.write_text(json.dumps(schema), encoding="utf-8")
    src = folder / "in.jsonl"
    src.write_text("".join(json.dumps({"prompt": "q", "response": json.dumps(answer)}) + "\n"
                           for answer in (first, second)), encoding="utf-8")
    return schema_file, src


def grade_json(src: Path, schema_file: Path) -> subprocess.CompletedProcess[str]:
    """``reviewer grade json SRC --schema SCHEMA`` as the console script runs it."""
    return subprocess.run(
        [sys.executable, "-m", "ui.cli", "grade", "json", str(src), "--schema",
         str(schema_file)],
        capture_output=True, text=True, cwd=ROOT, timeout=60)


@pytest.mark.slow
def test_the_reproductions_end_with_the_right_scores(tmp_path: Path) -> None:
    """The pass's two commands, 40 letters: "aaa" matches the pattern, "a…a!" does not
    (a string); a key "a…a!" is not one the patternProperties constrain, so the key
    "aaa" holding a number breaks the schema and "a…a!" holding one does not."""
    schema_file, src = write_case(tmp_path, PATTERN, "aaa", FORTY)
    proc = grade_json(src, schema_file)
    assert (proc.returncode, proc.stderr) == (0, "")
    assert [json.loads(line)["score"] for line in proc.stdout.splitlines()] == [1.0, 0.0]

    schema, answer = pattern_properties(FORTY)
    schema_file, src = write_case(tmp_path, schema, {"aaa": 1}, answer)
    proc = grade_json(src, schema_file)
    assert (proc.returncode, proc.stderr) == (0, "")
    assert [json.loads(line)["score"] for line in proc.stdout.splitlines()] == [0.0, 1.0]


@pytest.mark.slow
@pytest.mark.parametrize(("schema", "answer"), [
    (PATTERN, LONG), pattern_properties(LONG),
], ids=["pattern", "patternProperties"])
def test_a_search_still_too_slow_stops_naming_the_line_and_the_pattern(
    tmp_path: Path, schema: dict[str, Any], answer: Any
) -> None:
    schema_file, src = write_case(tmp_path, schema, "aaa", answer)
    proc = grade_json(src, schema_file)
    assert proc.returncode == 2
    assert proc.stderr == f"reviewer: {src}:2: {STOPPED}\n"
    assert proc.stdout == ""


@pytest.mark.parametrize(("schema", "response"), [
    # additionalProperties and unevaluatedProperties run the patternProperties too
    ({"type": "object", "additionalProperties": False, "patternProperties": {EVIL: {}}},
     {LONG: 1}),
    ({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
      "unevaluatedProperties": False, "patternProperties": {EVIL: {}}}, {LONG: 1}),
    ({"$schema": "https://json-schema.org/draft/2019-09/schema", "type": "object",
      "unevaluatedProperties": False, "patternProperties": {EVIL: {}}}, {LONG: 1}),
    # a pattern reached through $ref, propertyNames, items
    ({"$defs": {"s": {"pattern": EVIL}}, "items": {"$ref": "#/$defs/s"}}, [LONG]),
    ({"propertyNames": {"pattern": EVIL}}, {LONG: 1}),
    ({"$schema": "http://json-schema.org/draft-04/schema#",
      "properties": {"x": {"pattern": EVIL}}}, {"x": LONG}),
], ids=["additionalProperties", "unevaluated-2020", "unevaluated-2019", "ref", "propertyNames",
        "draft4"])
def test_every_keyword_that_runs_a_schema_pattern_is_bounded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], schema: dict[str, Any], response: Any
) -> None:
    schema_file, src = write_case(tmp_path, schema, "aaa", response)
    assert cli(["grade", "json", str(src), "--schema", str(schema_file)]) == 2
    captured = capsys.readouterr()
    assert captured.err == f"reviewer: {src}:2: {STOPPED}\n"
    assert captured.out == ""


def test_the_mix_grader_stops_the_same_way(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    schema_file, src = write_case(tmp_path, {"pattern": EVIL}, "aaa", LONG)
    assert cli(["grade", "mix", str(src), "--schema", str(schema_file),
                "--weights", "json=1"]) == 2
    assert capsys.readouterr().err == f"reviewer: {src}:2: {STOPPED}\n"


def test_schema_patterns_still_decide_as_before() -> None:
    """The bound changes no answer: a pattern is found anywhere (``search``), ``$`` also
    before a final line feed, ``\\d`` takes any decimal digit, as Python's ``re`` does."""
    assert json_valid('"abc"', {"pattern": "b"}) == 1.0
    assert json_valid('"abc"', {"pattern": "^b"}) == 0.0
    assert json_valid('"abc\\n"', {"pattern": "^abc$"}) == 1.0
    assert json_valid('"١٢"', {"pattern": r"^\d+$"}) == 1.0
    schema = {"type": "object", "patternProperties": {"^x-": {"type": "integer"}},
              "additionalProperties": False}
    assert json_valid('{"x-a": 1}', schema) == 1.0
    assert json_valid('{"x-a": "1"}', schema) == 0.0
    assert json_valid('{"y": 1}', schema) == 0.0
    with pytest.raises(BadInputError, match=r"^the schema's pattern '\(a\+\)\+\$' stopped"):
        json_valid(json.dumps(LONG), {"pattern": EVIL})


def test_other_jsonschema_users_keep_plain_re() -> None:
    """The bound applies inside the json grader only: jsonschema used elsewhere in the
    process (after a grade) still searches with Python's ``re``, which refuses ``\\p{L}``
    (the ``regex`` package would take it)."""
    import re

    import jsonschema

    json_valid('"abc"', {"pattern": "b"})
    validator = jsonschema.Draft202012Validator({"pattern": "^a"})
    assert validator.is_valid("abc") and not validator.is_valid("bac")
    with pytest.raises(re.error):
        jsonschema.Draft202012Validator({"pattern": r"\p{L}"}).is_valid("a")
