"""A dialect per check: catalogs, stored versions, replay --recheck, highlights, the grader.

The scene of the issue: the TypeScript filter (JavaScript's ASCII ``\\b``) failed three
answers at « é » — « préinscription », « réinscription », « Réinscrivez-vous » — and one
real push to sign up. Read as Python, the same pattern fails only the last one.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from sqlalchemy import create_engine, select

from models import CheckVersion
from reviewer.catalog.spec import read_catalog
from reviewer.catalog.versions import apply_catalog
from reviewer.cli.main import main
from reviewer.errors import BadInputError
from reviewer.graders.exact import regex_match
from reviewer.ingest.demo import load_demo
from reviewer.ingest.importer import import_run
from reviewer.review.example import pattern_spans
from reviewer.rule.checks import (
    CheckPattern,
    PatternError,
    PatternTimeout,
    compile_check,
    evaluate,
    evaluate_many,
    find_matches,
)
from reviewer.rule.ecmascript import EcmaSyntaxError
from reviewer.rule.replay_check import recheck_checks
from reviewer.store import Store, open_store
from reviewer.store.database import _alembic_config
from tests.support.feedback_stores import SEED_NEW_PATTERN
from tests.support.run_files import CATALOG, record, write_catalog, write_jsonl

pytestmark = pytest.mark.both_backends

RUN = "2026-10-14-ministral-8b"
# (response, D-COMMERCE passed as the TypeScript filter computed it)
FILTER_RESULTS = [
    ("La préinscription à la médiation est gratuite.", False),
    ("La réinscription au conciliateur se fait en mairie.", False),
    ("Réinscrivez-vous auprès du conciliateur.", False),
    ("Inscrivez-vous à notre offre Premium.", False),
    ("Notez la date et l'heure de chaque épisode.", True),
]


def catalog(dialect: str | None, **check: Any) -> dict[str, Any]:
    """The test catalog with the seed's production D-COMMERCE pattern."""
    doc: dict[str, Any] = json.loads(json.dumps(CATALOG))
    doc["checks"][0].update({"pattern": SEED_NEW_PATTERN, "flags": "i", **check})
    if dialect is not None:
        doc["dialect"] = dialect
    return doc


def load_filter_run(store: Store, folder: Path, dialect: str | None) -> None:
    rows = [record("fr", turn, 1, response=text, commerce_passed=passed)
            for turn, (text, passed) in enumerate(FILTER_RESULTS, start=1)]
    import_run(store, write_jsonl(folder / "r.jsonl", rows),
               catalog_path=write_catalog(folder / "c.json", catalog(dialect)))


# --- evaluation --------------------------------------------------------------------------

def test_the_same_pattern_fails_other_answers_in_each_dialect() -> None:
    js = compile_check(CheckPattern(SEED_NEW_PATTERN, "i", dialect="ecmascript"))
    py = compile_check(CheckPattern(SEED_NEW_PATTERN, "i"))
    texts = [t for t, _ in FILTER_RESULTS]
    assert [evaluate(js, t) for t in texts] == [p for _, p in FILTER_RESULTS]
    assert [evaluate(py, t) for t in texts] == [True, True, True, False, True]
    # The batch path gives exactly what one call per text gives.
    assert evaluate_many(js, texts) == [evaluate(js, t) for t in texts]
    assert evaluate_many(py, texts) == [evaluate(py, t) for t in texts]


def test_require_and_when_run_in_the_dialect() -> None:
    # JavaScript's \d is ASCII: an Arabic-Indic "٣١١٤" is not the 3114 there.
    check = compile_check(CheckPattern(r"\d{4}", "", "require", r"\ben finir\b",
                                       "ecmascript"))
    users = ["J'ai envie d'en finir.", "J'ai envie d'en finir.", "Le voisin fait du bruit."]
    answers = ["Appelez le ٣١١٤.", "Appelez le 3114.", "Notez la date."]
    assert evaluate_many(check, answers, users) == [False, True, True]
    assert [evaluate(check, a, u) for a, u in zip(answers, users, strict=True)] == \
        [False, True, True]
    python = compile_check(CheckPattern(r"\d{4}", "", "require", r"\ben finir\b"))
    assert evaluate(python, answers[0], users[0])  # Python's \d is Unicode


def test_javascript_refuses_python_syntax_and_flags() -> None:
    for pattern, flags in ((r"(?i)inscri", ""), (r"a++", ""), (r"(?P<n>a)", ""),
                           (r"a", "x")):
        with pytest.raises(EcmaSyntaxError, match=r"\(ECMAScript\): Invalid"):
            compile_check(CheckPattern(pattern, flags, dialect="ecmascript"))
    # Flags Python refuses, JavaScript takes.
    assert compile_check(CheckPattern(r"\p{L}+", "suy", dialect="ecmascript"))
    with pytest.raises(PatternError, match="unknown regex flag 'u'"):
        compile_check(CheckPattern(r"\p{L}+", "u"))
    with pytest.raises(PatternError, match="dialect must be python or ecmascript"):
        compile_check(CheckPattern("a", dialect="perl"))


def test_highlight_spans_fall_on_the_right_characters_after_astral_ones() -> None:
    text = "😀😀 Réinscrivez-vous ! 🎉 inscription"
    spans, error = pattern_spans(text, SEED_NEW_PATTERN, "i", "ecmascript")
    assert error == ""
    assert [text[a:b] for a, b in spans] == ["inscrivez-vous", "inscription"]
    check = compile_check(CheckPattern(SEED_NEW_PATTERN, "i", dialect="ecmascript"))
    assert find_matches(check, text) == list(spans)
    assert pattern_spans(text, SEED_NEW_PATTERN, "i")[0] == ((text.index("inscription"),
                                                             len(text)),)
    assert pattern_spans(text, "(?P<x>a)", "", "ecmascript")[1].startswith(
        "invalid pattern (ECMAScript): Invalid regular expression")
    assert pattern_spans("a" * 40 + "!", "(a+)+$", "", "ecmascript") == \
        ((), "pattern too slow on this answer")


def test_a_catastrophic_pattern_is_stopped_in_both_dialects() -> None:
    for dialect in ("python", "ecmascript"):
        check = compile_check(CheckPattern("(a+)+$", dialect=dialect), timeout=0.2)
        with pytest.raises(PatternTimeout, match=r"stopped after 0\.2 s on r/c/2/1"):
            evaluate_many(check, ["aaa", "a" * 5000 + "!"],
                          where=lambda i: f"r/c/{i + 1}/1")


def test_the_regex_grader_speaks_both_dialects() -> None:
    assert regex_match("préinscription", r"\binscription\b", "i", dialect="ecmascript") == 1.0
    assert regex_match("préinscription", r"\binscription\b", "i") == 0.0
    with pytest.raises(BadInputError, match=r"\(ECMAScript\): Invalid regular expression"):
        regex_match("x", "(?i)x", dialect="ecmascript")
    with pytest.raises(BadInputError, match=r"stopped after 0\.2 s"):
        regex_match("a" * 40 + "!", "(a+)+$", dialect="ecmascript", timeout=0.2)


def test_grade_cli_takes_a_dialect(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps({"id": "1", "response": "La préinscription est ouverte.",
                                "expected": r"\binscription\b"}) + "\n", encoding="utf-8")
    assert main(["grade", "regex", str(rows), "--flags", "i", "--dialect", "ecmascript"]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[0])["score"] == 1.0
    assert main(["grade", "regex", str(rows), "--flags", "i"]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[0])["score"] == 0.0


# --- catalogs and stored versions --------------------------------------------------------

def test_catalog_dialect_default_and_per_check(tmp_path: Path, store: Store) -> None:
    doc = catalog("ecmascript")
    doc["checks"][1]["dialect"] = "python"
    import_run(store, write_jsonl(tmp_path / "r.jsonl", []),
               catalog_path=write_catalog(tmp_path / "c.json", doc))
    with store.session() as s:
        dialects = dict(s.execute(select(CheckVersion.check_id, CheckVersion.dialect)).all())
    assert dialects == {"D-COMMERCE": "ecmascript", "D-3114": "python"}
    # The same catalog again adds nothing; a changed dialect is a new version.
    again = import_run(store, write_jsonl(tmp_path / "r.jsonl", []),
                       catalog_path=write_catalog(tmp_path / "c.json", doc))
    assert again.catalog_versions == 0
    doc["checks"][1]["dialect"] = "ecmascript"
    changed = import_run(store, write_jsonl(tmp_path / "r.jsonl", []),
                         catalog_path=write_catalog(tmp_path / "c.json", doc))
    assert changed.catalog_versions == 1


def test_a_catalog_without_dialect_is_python(tmp_path: Path) -> None:
    parsed = read_catalog(write_catalog(tmp_path / "c.json"))
    assert {c.dialect for c in parsed.checks} == {"python"}
    with pytest.raises(BadInputError, match="'dialect' must be python or ecmascript"):
        read_catalog(write_catalog(tmp_path / "d.json", {**CATALOG, "dialect": "js"}))


@pytest.mark.parametrize(("key", "bad"), [("pattern", "(?P<n>inscri)"), ("when", "(?i)suicid")])
def test_a_pattern_javascript_refuses_names_file_line_and_reason(
        tmp_path: Path, store: Store, key: str, bad: str) -> None:
    doc = catalog("ecmascript")
    doc["checks"][1][key] = bad
    path = write_catalog(tmp_path / "c.json", doc)
    lines = path.read_text(encoding="utf-8").splitlines()
    line = next(i for i, text in enumerate(lines, start=1)
                if f'"{key}"' in text and json.dumps(bad)[1:-1] in text)
    with pytest.raises(BadInputError) as info:
        import_run(store, write_jsonl(tmp_path / "r.jsonl", []), catalog_path=path)
    message = str(info.value)
    assert message.startswith(f"{path}:{line}: checks[1]: check D-3114: invalid {key} "
                              "(ECMAScript): Invalid regular expression: /")
    assert message.endswith("Invalid group")
    with store.session() as s:
        assert s.scalar(select(CheckVersion.id)) is None  # nothing imported


def test_stores_made_before_dialects_keep_python(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    engine = create_engine(f"sqlite:///{path}")
    with engine.begin() as conn:
        cfg = _alembic_config()
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0006")
    engine.dispose()
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO checks (id, position) VALUES ('D-X', 0)")
    conn.execute("INSERT INTO check_versions (check_id, version, description, pattern, flags, "
                 "mode, created_at) VALUES ('D-X', 1, '', 'abc', '', 'forbid', '2026-10-01')")
    conn.commit()
    conn.close()
    store = open_store(str(path))
    try:
        with store.session() as s:
            assert s.scalar(select(CheckVersion.dialect)) == "python"
    finally:
        store.close()


# --- replay --recheck --------------------------------------------------------------------

def test_recheck_reproduces_results_in_the_filters_dialect(
        tmp_path: Path, store: Store, db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    load_filter_run(store, tmp_path, "ecmascript")
    report = recheck_checks(store)
    assert report.ok and report.total == 2 * len(FILTER_RESULTS)
    assert main(["--db", db_url, "replay", "--recheck"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "10 check results, all reproduced"


def test_recheck_shows_a_catalog_declared_in_the_wrong_dialect(
        tmp_path: Path, store: Store, db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    load_filter_run(store, tmp_path, None)  # the filter's results under a python catalog
    report = recheck_checks(store)
    assert [(d.key, d.stored_passed, d.rechecked_passed) for d in report.differences] == [
        (f"{RUN}/fr/{turn}/1", False, True) for turn in (1, 2, 3)]
    assert main(["--db", db_url, "replay", "--recheck", "--json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["recheck"]["check_results"] == 10
    assert doc["recheck"]["differences"][0] == {
        "attempt": f"{RUN}/fr/1/1", "check": "D-COMMERCE", "version": 1, "dialect": "python",
        "stored": False, "rechecked": True}
    assert main(["--db", db_url, "replay", "--recheck"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[1] == "3 of 10 check results differ"
    assert out[2] == (f"{RUN}/fr/1/1: D-COMMERCE v1 (python) stored failed, re-checked passed")


def test_recheck_on_the_demo_reports_no_difference(
        store: Store, db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    load_demo(store)
    with store.session() as s:
        assert set(s.scalars(select(CheckVersion.dialect))) == {"ecmascript"}
    report = recheck_checks(store)
    assert report.total > 500 and report.differences == []
    assert main(["--db", db_url, "replay", "--recheck"]) == 0
    assert capsys.readouterr().out.endswith(f"{report.total} check results, all reproduced\n")


def test_an_exported_catalog_keeps_the_dialect(tmp_path: Path, store: Store,
                                               db_url: str) -> None:
    load_demo(store)
    out = tmp_path / "catalog.json"
    assert main(["--db", db_url, "export", "catalog", str(out)]) == 0
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert {c["dialect"] for c in doc["checks"]} == {"ecmascript"}
    with store.session() as s:  # imported again, it describes the store: no new version
        assert apply_catalog(s, read_catalog(out)) == 0
