"""Importing run files: counts, idempotence, all-or-nothing, FILE:LINE messages."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import func, select

from models import Attempt, CheckResult, CriterionVersion, Verdict
from reviewer.cli.main import main as cli
from reviewer.errors import BadInputError
from reviewer.ingest.importer import import_run
from reviewer.store import Store
from reviewer.store.search import search_ids
from tests.support.run_files import CATALOG, record, sample_rows, write_catalog, write_jsonl

# Every test that uses a store runs on SQLite and on the throwaway PostgreSQL server.
pytestmark = pytest.mark.both_backends


def stats(db_url: str, capsys: pytest.CaptureFixture[str]) -> dict[str, int]:
    assert cli(["--db", db_url, "stats", "--json"]) == 0
    out: dict[str, int] = json.loads(capsys.readouterr().out)
    return out


def table_counts(store: Store) -> dict[str, int]:
    with store.session() as s:
        return {
            "attempts": s.scalar(select(func.count()).select_from(Attempt)) or 0,
            "verdicts": s.scalar(select(func.count()).select_from(Verdict)) or 0,
            "checks": s.scalar(select(func.count()).select_from(CheckResult)) or 0,
            "versions": s.scalar(select(func.count()).select_from(CriterionVersion)) or 0,
        }


def test_import_counts_match_file_and_reimport_adds_nothing(
    tmp_path: Path, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = sample_rows(5)
    run = write_jsonl(tmp_path / "run.jsonl", rows)
    catalog = write_catalog(tmp_path / "catalog.json")

    assert cli(["--db", db_url, "import", str(run), "--catalog", str(catalog)]) == 0
    assert capsys.readouterr().out.strip() == "20 new, 0 already present"
    counts = stats(db_url, capsys)
    assert counts["runs"] == 1
    assert counts["conversations"] == 5
    assert counts["attempts"] == 20
    assert counts["accepted"] == sum(r["accepted"] for r in rows) == 5
    assert counts["rejected"] == 15
    assert counts["criteria"] == 3 and counts["checks"] == 2
    assert counts["reviewed"] == 0

    assert cli(["--db", db_url, "import", str(run), "--catalog", str(catalog)]) == 0
    assert capsys.readouterr().out.strip() == "0 new, 20 already present"
    assert stats(db_url, capsys)["attempts"] == 20


def test_stored_attempt_keeps_everything_the_file_said(tmp_path: Path, store: Store) -> None:
    row = record("recette-042", 3, 2, demande="non", rationale="Répond à côté…")
    import_run(
        store,
        write_jsonl(tmp_path / "r.jsonl", [row]),
        catalog_path=write_catalog(tmp_path / "c.json"),
    )
    with store.session() as s:
        attempt = s.scalars(select(Attempt)).one()
        assert (attempt.conversation.name, attempt.turn, attempt.attempt) == ("recette-042", 3, 2)
        assert attempt.messages == row["messages"]
        assert attempt.response == row["response"]
        assert attempt.accepted is False
        assert attempt.reasons == ["G-DEMANDE non tenu : Répond à côté…"]
        assert [(v.criterion_version.criterion_id, v.met, v.origin) for v in attempt.verdicts] == [
            ("G-DEMANDE", False, "filter"),
            ("E-INVENTE", False, "filter"),
        ]
        assert [(c.check_version.check_id, c.passed) for c in attempt.check_results] == [
            ("D-COMMERCE", True),
            ("D-3114", True),
        ]


@pytest.mark.parametrize("position", [0, 7, 19])
@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("{not json", "not valid JSON"),
        (json.dumps(record() | {"turn": 0}), "'turn' must be a positive integer"),
        (json.dumps(record() | {"attempt": "2"}), "'attempt' must be a positive integer"),
        (json.dumps(record() | {"turn": True}), "'turn' must be a positive integer"),
        (
            json.dumps(record() | {"checks": [{"id": "D-INCONNU", "passed": True}]}),
            "unknown check id 'D-INCONNU'",
        ),
        (
            json.dumps(
                record()
                | {
                    "judge": {
                        "model": "m",
                        "verdicts": [{"criterion": "G-NOUVEAU", "verdict": "oui", "rationale": ""}],
                    }
                }
            ),
            "unknown criterion id 'G-NOUVEAU'",
        ),
        (
            json.dumps(
                record()
                | {
                    "judge": {
                        "model": "m",
                        "verdicts": [
                            {"criterion": "G-DEMANDE", "verdict": "peut-être", "rationale": ""}
                        ],
                    }
                }
            ),
            "is not oui/non, yes/no or true/false",
        ),
    ],
)
def test_one_bad_line_leaves_database_untouched(
    tmp_path: Path,
    db_url: str,
    store: Store,
    position: int,
    bad: str,
    message: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    catalog = write_catalog(tmp_path / "c.json")
    first = write_jsonl(tmp_path / "first.jsonl", [record("ancienne", 1, 1)])
    import_run(store, first, catalog_path=catalog)
    before = table_counts(store)

    rows: list[object] = list(sample_rows(5))
    rows[position] = bad
    run = write_jsonl(tmp_path / "run.jsonl", rows)
    assert cli(["--db", db_url, "import", str(run), "--catalog", str(catalog)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"reviewer: {run}:{position + 1}: ")
    assert message in err
    assert table_counts(store) == before


def test_skip_bad_imports_good_lines_and_writes_rejects(tmp_path: Path, store: Store) -> None:
    rows: list[object] = list(sample_rows(2))
    rows[3] = "{oops"
    rows[5] = json.dumps(record() | {"turn": -1})
    run = write_jsonl(tmp_path / "run.jsonl", rows)
    rejects = tmp_path / "rejects.jsonl"
    report = import_run(
        store, run, catalog_path=write_catalog(tmp_path / "c.json"), rejects_path=rejects
    )
    assert (report.new, report.rejected) == (6, 2)
    bad = [json.loads(line) for line in rejects.read_text(encoding="utf-8").splitlines()]
    assert [b["line"] for b in bad] == [4, 6]
    assert "not valid JSON" in bad[0]["reason"] and bad[0]["text"] == "{oops"


def test_same_key_with_other_content_is_refused(tmp_path: Path, store: Store) -> None:
    catalog = write_catalog(tmp_path / "c.json")
    import_run(store, write_jsonl(tmp_path / "a.jsonl", [record()]), catalog_path=catalog)
    changed = write_jsonl(tmp_path / "b.jsonl", [record(response="Autre réponse.")])
    with pytest.raises(BadInputError, match=r"b\.jsonl:1: .*already stored with different"):
        import_run(store, changed)


def test_changed_catalog_text_creates_version_and_old_verdicts_keep_theirs(
    tmp_path: Path, store: Store
) -> None:
    import_run(
        store,
        write_jsonl(tmp_path / "a.jsonl", [record("c1")]),
        catalog_path=write_catalog(tmp_path / "c.json"),
    )
    catalog2 = json.loads(json.dumps(CATALOG))
    catalog2["criteria"][0]["text"] = "Répond à la demande ; une réponse factuelle suffit."
    import_run(
        store,
        write_jsonl(tmp_path / "b.jsonl", [record("c2")]),
        catalog_path=write_catalog(tmp_path / "c2.json", catalog2),
    )
    with store.session() as s:
        rows = s.execute(
            select(Attempt.id, CriterionVersion.version, CriterionVersion.text)
            .join(Verdict, Verdict.attempt_id == Attempt.id)
            .join(CriterionVersion)
            .where(CriterionVersion.criterion_id == "G-DEMANDE")
            .order_by(Attempt.id)
        ).all()
    assert [(v, t) for _, v, t in rows] == [
        (1, CATALOG["criteria"][0]["text"]),
        (2, catalog2["criteria"][0]["text"]),
    ]


def test_search_ignores_accents(tmp_path: Path, store: Store) -> None:
    rows = [record("c1", response="Notez chaque événement sonore."), record("c2")]
    import_run(
        store,
        write_jsonl(tmp_path / "a.jsonl", rows),
        catalog_path=write_catalog(tmp_path / "c.json"),
    )
    with store.session() as s:
        assert len(search_ids(s, "evenement")) == 1
        assert len(search_ids(s, "ÉVÉNEMENT sonore")) == 1
        assert search_ids(s, "introuvable") == []


def test_console_script_reports_bad_file_without_traceback(tmp_path: Path, db_url: str) -> None:
    run = write_jsonl(tmp_path / "run.jsonl", [record(), "[1, 2"])
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "ui.cli",
            "--db",
            db_url,
            "import",
            str(run),
            "--catalog",
            str(write_catalog(tmp_path / "c.json")),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stderr.strip().startswith(f"reviewer: {run}:2: not valid JSON")
    assert "Traceback" not in proc.stderr


def test_catalog_defaults_follow_the_judge_naming(tmp_path: Path, store: Store) -> None:
    catalog = {
        "criteria": [
            {"id": "G-DEMANDE", "text": "Répond."},
            {"id": "E-INVENTE", "text": "Invente.", "severity": "major"},
        ],
        "checks": [{"id": "D-COMMERCE", "pattern": "inscri(vez|re|ption)", "flags": "i"}],
    }
    rows = [record(commerce_passed=False) | {"checks": [{"id": "D-COMMERCE", "passed": False}]}]
    import_run(
        store,
        write_jsonl(tmp_path / "r.jsonl", rows),
        catalog_path=write_catalog(tmp_path / "c.json", catalog),
    )
    with store.session() as s:
        kinds = dict(s.execute(select(CriterionVersion.criterion_id, CriterionVersion.kind)).all())
    assert kinds == {"G-DEMANDE": "success", "E-INVENTE": "failure"}


@pytest.mark.parametrize(
    ("check", "message"),
    [
        ({"pattern": "3114", "flags": "iq"}, "check D-X: unknown regex flag 'q'"),
        ({"pattern": ""}, "check D-X: pattern is empty"),
        ({"pattern": "3114", "mode": "require", "when": "(en finir"}, "check D-X: invalid when"),
        ({"pattern": "3114", "mode": "sometimes"}, "check D-X: mode must be forbid or require"),
    ],
)
def test_invalid_catalog_checks_name_the_file_and_check(
    tmp_path: Path, store: Store, check: dict[str, str], message: str
) -> None:
    catalog = {"criteria": [], "checks": [{"id": "D-X", **check}]}
    path = write_catalog(tmp_path / "c.json", catalog)
    with pytest.raises(BadInputError) as info:
        import_run(store, write_jsonl(tmp_path / "r.jsonl", []), catalog_path=path)
    assert str(info.value).startswith(f"{path}: checks[0]: {message}")


def test_invalid_catalog_pattern_is_refused(tmp_path: Path, store: Store) -> None:
    catalog = {"criteria": [], "checks": [{"id": "D-X", "pattern": "(unclosed", "mode": "forbid"}]}
    with pytest.raises(BadInputError, match=r"c\.json: checks\[0\]: check D-X: invalid pattern"):
        import_run(
            store,
            write_jsonl(tmp_path / "r.jsonl", []),
            catalog_path=write_catalog(tmp_path / "c.json", catalog),
        )


def test_large_file_shows_a_progress_bar(
    tmp_path: Path, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    filler = "Notez la date, l'heure et la durée de chaque épisode. " * 40
    rows = [record(f"c{i:04d}", response=filler) for i in range(2200)]
    run = write_jsonl(tmp_path / "big.jsonl", rows)
    assert run.stat().st_size > 4 << 20
    assert (
        cli(
            [
                "--db",
                db_url,
                "import",
                str(run),
                "--catalog",
                str(write_catalog(tmp_path / "c.json")),
            ]
        )
        == 0
    )
    captured = capsys.readouterr()
    assert captured.out.strip() == "2200 new, 0 already present"
    assert "big.jsonl" in captured.err and "2200/2200" in captured.err


def test_imported_contradictions_are_flagged_at_once(
    tmp_path: Path, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [
        record("c1", demande="non", rationale="L'assistant répond directement à la demande."),
        record("c2", demande="non", rationale="La réponse parle d'autre chose que la question."),
    ]
    run = write_jsonl(tmp_path / "run.jsonl", rows)
    assert cli(["--db", db_url, "import", str(run), "--catalog",
                str(write_catalog(tmp_path / "c.json"))]) == 0
    capsys.readouterr()
    assert cli(["--db", db_url, "queue", "--json"]) == 0
    queue = json.loads(capsys.readouterr().out)
    assert [q["key"].split("/")[1] for q in queue] == ["c1", "c2"]
    assert queue[0]["score"] > queue[1]["score"]
