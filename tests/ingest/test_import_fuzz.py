"""Property-based import tests: random and mutated files either import or are refused
with ``FILE:LINE:`` (exit 2), never a traceback, never a partial import."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from models import Attempt, AuditEvent, CheckResult, Conversation, Run, Verdict
from reviewer.cli.main import main as cli
from reviewer.errors import BadInputError
from reviewer.ingest.importer import import_run
from reviewer.store import Store, open_store
from tests.support.run_files import CATALOG, record, write_catalog

FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=10,
)


def counts(store: Store) -> tuple[int, ...]:
    with store.session() as s:
        return tuple(
            s.scalar(select(func.count()).select_from(t)) or 0
            for t in (Run, Conversation, Attempt, Verdict, CheckResult, AuditEvent)
        )


@st.composite
def mutated_line(draw: st.DrawFn) -> bytes:
    """A record line broken in one of the ways real files break."""
    base = record(f"c-{draw(st.integers(0, 10**6))}")
    kind = draw(
        st.sampled_from(
            ["truncate", "field", "bytes", "nul", "nested", "duplicate", "drop", "huge"]
        )
    )
    if kind == "field":
        key = draw(st.sampled_from(sorted(base)))
        base[key] = draw(json_values)
        return json.dumps(base).encode()
    if kind == "drop":
        base.pop(draw(st.sampled_from(sorted(base))))
        return json.dumps(base).encode()
    if kind == "huge":
        base["response"] = "é" * draw(st.integers(100_000, 400_000))
        return json.dumps(base, ensure_ascii=False).encode()
    raw = json.dumps(base, ensure_ascii=False).encode()
    if kind == "truncate":
        return raw[: draw(st.integers(0, len(raw) - 1))]
    if kind == "bytes":
        at = draw(st.integers(0, len(raw)))
        # A newline would make two lines of the file: that is another shape of file.
        noise = draw(st.binary(min_size=1, max_size=8).filter(lambda b: b"\n" not in b))
        return raw[:at] + noise + raw[at:]
    if kind == "nul":
        return raw.replace(b"Notez", b"No\\u0000tez") if draw(st.booleans()) else raw + b"\x00"
    if kind == "nested":
        depth = draw(st.integers(50, 5000))
        return b'{"run": ' + b"[" * depth + b"]" * depth + b"}"
    return raw[:-1] + b', "run": "autre"}'


@pytest.fixture
def fuzz_store(tmp_path: Path) -> Any:
    store = open_store(str(tmp_path / "fuzz.sqlite3"))
    catalog = write_catalog(tmp_path / "catalog.json")
    import_run(
        store,
        _write(tmp_path / "seed.jsonl", [json.dumps(record("seed")).encode()]),
        catalog_path=catalog,
    )
    yield store
    store.close()


def _write(path: Path, lines: list[bytes]) -> Path:
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


@FUZZ
@given(line=mutated_line(), before=st.integers(0, 3), after=st.integers(0, 3))
def test_mutated_run_files_import_fully_or_not_at_all(
    fuzz_store: Store, tmp_path: Path, line: bytes, before: int, after: int
) -> None:
    good = [json.dumps(record(f"ok-{before}-{after}-{i}")).encode() for i in range(before + after)]
    lines = [*good[:before], line, *good[before:]]
    path = _write(tmp_path / "fuzzed.jsonl", lines)
    start = counts(fuzz_store)
    try:
        report = import_run(fuzz_store, path)
    except BadInputError as exc:
        assert str(exc).startswith(f"{path}:{before + 1}: "), str(exc)
        assert counts(fuzz_store) == start
    else:
        # Blank lines are not records.
        assert report.new + report.present == sum(1 for x in lines if x.strip())
        assert counts(fuzz_store)[2] == start[2] + report.new


@FUZZ
@given(data=json_values)
def test_random_json_lines_never_crash(fuzz_store: Store, tmp_path: Path, data: Any) -> None:
    path = _write(tmp_path / "random.jsonl", [json.dumps(data).encode()])
    start = counts(fuzz_store)
    with pytest.raises(BadInputError, match=rf"^{path}:1: "):
        import_run(fuzz_store, path)
    assert counts(fuzz_store) == start


@FUZZ
@given(
    key=st.sampled_from(["criteria", "checks"]),
    index=st.integers(0, 1),
    field=st.sampled_from(["id", "kind", "severity", "text", "pattern", "flags", "mode", "when"]),
    value=json_values,
)
def test_mutated_catalogs_are_applied_or_refused_cleanly(
    fuzz_store: Store, tmp_path: Path, key: str, index: int, field: str, value: Any
) -> None:
    catalog = json.loads(json.dumps(CATALOG))
    catalog[key][index][field] = value
    path = write_catalog(tmp_path / "mutated-catalog.json", catalog)
    run = _write(tmp_path / "empty.jsonl", [])
    start = counts(fuzz_store)
    try:
        import_run(fuzz_store, run, catalog_path=path)
    except BadInputError as exc:
        assert str(exc).startswith(f"{path}: "), str(exc)
        assert counts(fuzz_store) == start


@pytest.mark.parametrize(
    "content",
    [b"\xff\xfe not utf-8", b"[" * 100_000, b'{"criteria": [], "criteria": []}', b"", b"\x00"],
)
def test_broken_catalog_files_are_refused(
    tmp_path: Path, db_url: str, content: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "catalog.json"
    path.write_bytes(content)
    run = _write(tmp_path / "empty.jsonl", [])
    assert cli(["--db", db_url, "import", str(run), "--catalog", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"reviewer: {path}:") and "Traceback" not in err


def test_ten_megabyte_lines(tmp_path: Path, fuzz_store: Store) -> None:
    big = record("huge") | {"response": "Notez l'heure. " * 700_000}
    line = json.dumps(big).encode()
    assert len(line) > 10_000_000
    report = import_run(fuzz_store, _write(tmp_path / "big.jsonl", [line]))
    assert report.new == 1
    garbage = _write(tmp_path / "garbage.jsonl", [line, b"x" * 10_000_000])
    start = counts(fuzz_store)
    with pytest.raises(BadInputError, match=r"garbage\.jsonl:2: not valid JSON"):
        import_run(fuzz_store, garbage)
    assert counts(fuzz_store) == start


def _depth(value: Any) -> int:
    """How many containers sit one inside another in ``value``."""
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    return 0


BRACKETY_TEXT = st.text(alphabet='[]{}"\\ab\n', max_size=12)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | BRACKETY_TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(BRACKETY_TEXT, inner,
                                                                max_size=3),
    max_leaves=40)


@settings(max_examples=200, deadline=None)
@given(value=JSON_VALUES, limit=st.integers(0, 8), ascii_only=st.booleans())
def test_the_depth_guard_measures_what_the_decoder_would_nest(
        value: Any, limit: int, ascii_only: bool) -> None:
    # The guard before the decoder (sixth hostile pass U11): brackets and quotes inside
    # strings (escaped or not) never count; the measure is exact on JSON.
    from reviewer.json_input import nested_too_deeply

    text = json.dumps(value, ensure_ascii=ascii_only)
    assert nested_too_deeply(text, limit) == (_depth(value) > limit)


@pytest.mark.parametrize("text", [
    '"' + "[" * 200,                      # an unterminated string holding brackets
    '"\\' + "[" * 200,                    # ... ending in an escape
    '["' + "[" * 200 + '\\"]',            # an escaped quote does not end the string
])
def test_brackets_in_an_unterminated_string_are_not_depth(text: str) -> None:
    from reviewer.json_input import nested_too_deeply

    assert not nested_too_deeply(text, 10)
