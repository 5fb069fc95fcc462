"""A filter that names a thing must name a thing the store holds (ninth hostile pass, X4).

``export dataset good.jsonl --run 2026-10-14-ministral-8B`` (one letter in the wrong case)
wrote "0 examples → good.jsonl", exit 0, over a good dataset of 113 lines; ``export
preference --cause G-DEMANDEE``, ``queue --run nope``, ``queue --criterion G-NOPE`` and
``replay --run nope`` printed an empty result, exit 0. Now every option that names a run,
a criterion, a check, a cause or a reviewer to filter by is looked up in the store by one
check (``reviewer.store.names``): a name it does not hold is one line, exit 2, with the
close ones ("did you mean …?"), and nothing is written. A valid filter that selects
nothing still writes its empty export, and the line says it replaced a non-empty one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewer.cli.main import main
from reviewer.errors import BAD_INPUT
from reviewer.exports.manifest import manifest_path
from reviewer.ingest.importer import import_run
from reviewer.store import Store
from tests.support.run_files import record, write_catalog, write_jsonl
from tests.support.stores import fill_store

pytestmark = pytest.mark.both_backends

RUN = "2026-10-14-ministral-8b"
DECIDED = f"{RUN}/recette-001/2/1"


@pytest.fixture
def loaded(store: Store, tmp_path: Path, db_url: str) -> Store:
    """The small run, with one refused attempt accepted by alice (a preference pair)."""
    fill_store(store, tmp_path)
    assert main(["--db", db_url, "--reviewer", "alice", "decide", DECIDED, "--accept"]) == 0
    return store


def refused(capsys: pytest.CaptureFixture[str], code: int) -> str:
    captured = capsys.readouterr()
    assert code == BAD_INPUT, captured
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("reviewer: "), captured.err
    assert captured.out == ""
    return lines[0].removeprefix("reviewer: ")


def snapshot(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(out.parent.iterdir())}


@pytest.mark.parametrize(("kind", "extra", "typo", "line"), [
    ("dataset", [], ["--run", f"{RUN[:-1]}B"],
     f"--run {RUN[:-1]}B: no such run (did you mean {RUN}?)"),
    ("dataset", [], ["--run", "nope"], f"--run nope: no such run (stored: {RUN})"),
    ("dataset", [], ["--run", RUN, "--run", "nope"],
     f"--run nope: no such run (stored: {RUN})"),
    ("dataset", [], ["--reviewer", "alcie"],
     "--reviewer alcie: no such reviewer (did you mean alice?)"),
    ("preference", ["--include-filter-refusals"], ["--cause", "G-DEMANDEE"],
     "--cause G-DEMANDEE: no such criterion or check (did you mean G-DEMANDE?)"),
    ("preference", ["--include-filter-refusals"], ["--cause", "G-DEMANDE,d-commerce"],
     "--cause d-commerce: no such criterion or check (did you mean D-COMMERCE?)"),
    ("preference", ["--include-filter-refusals"], ["--run", RUN.upper()],
     f"--run {RUN.upper()}: no such run (did you mean {RUN}?)"),
])
def test_a_mistyped_filter_leaves_the_good_export_untouched(
        loaded: Store, db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        kind: str, extra: list[str], typo: list[str], line: str) -> None:
    out = tmp_path / "exports" / "good.jsonl"
    out.parent.mkdir()
    assert main(["--db", db_url, "export", kind, str(out), *extra]) == 0
    assert out.read_bytes().count(b"\n") > 0 and manifest_path(out).exists()
    before = snapshot(out)
    capsys.readouterr()
    assert refused(capsys, main(["--db", db_url, "export", kind, str(out), *extra, *typo])) \
        == line
    assert snapshot(out) == before  # the export and its manifest, byte for byte


@pytest.mark.parametrize(("argv", "line"), [
    (["queue", "--run", "nope"], f"--run nope: no such run (stored: {RUN})"),
    (["queue", "--run", RUN.upper()], f"--run {RUN.upper()}: no such run (did you mean {RUN}?)"),
    (["queue", "--criterion", "G-DEMANDEE"],
     "--criterion G-DEMANDEE: no such criterion (did you mean G-DEMANDE?)"),
    (["queue", "--check", "D-COMERCE"],
     "--check D-COMERCE: no such check (did you mean D-COMMERCE?)"),
    (["replay", "--run", "nope"], f"--run nope: no such run (stored: {RUN})"),
    (["replay", "--run", "nope", "--recheck"], f"--run nope: no such run (stored: {RUN})"),
    (["export", "calibration", "cal.jsonl", "--run", "nope"],
     "--run nope: no such calibration file (the store holds no calibration files)"),
    (["export", "golden", "g.jsonl", "--reviewer", "ALICE"],
     "--reviewer ALICE: no such reviewer (did you mean alice?)"),
    (["export", "resume", "r.jsonl", "--reviewer", "bob"],
     "--reviewer bob: no such reviewer (stored: alice)"),
    (["backtest", "D-COMMERCE", "inscri", "--reviewer", "alicee"],
     "--reviewer alicee: no such reviewer (did you mean alice?)"),
    (["rejudge", "--criterion", "G-DEMANDEE", "--host", "http://127.0.0.1:9"],
     "--criterion G-DEMANDEE: no such criterion (did you mean G-DEMANDE?)"),
])
def test_every_named_filter_refuses_what_the_store_does_not_hold(
        loaded: Store, db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch, argv: list[str], line: str) -> None:
    monkeypatch.chdir(tmp_path)
    before = sorted(p.name for p in tmp_path.iterdir())
    capsys.readouterr()
    assert refused(capsys, main(["--db", db_url, *argv])) == line
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_the_right_filters_still_work(loaded: Store, db_url: str, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["--db", db_url, "queue", "--run", RUN, "--criterion", "G-DEMANDE",
                 "--check", "D-COMMERCE"]) == 0
    assert main(["--db", db_url, "replay", "--run", RUN]) == 0
    out = tmp_path / "d.jsonl"
    assert main(["--db", db_url, "export", "dataset", str(out), "--run", RUN,
                 "--reviewer", "alice"]) == 0
    assert out.read_bytes().count(b"\n") > 0
    assert main(["--db", db_url, "export", "preference", str(tmp_path / "p.jsonl"),
                 "--include-filter-refusals", "--cause", "reviewer,G-DEMANDE,D-COMMERCE"]) == 0


def test_a_filter_an_export_does_not_use_is_refused(
        loaded: Store, db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A filter the export would ignore is no filter: ``export golden --run R`` wrote
    every run's attempts."""
    for argv, line in (
        (["golden", "g.jsonl", "--run", RUN],
         "--run is for the dataset, preference and calibration exports, not golden"),
        (["dataset", "d.jsonl", "--cause", "G-DEMANDE"],
         "--cause is for the preference export, not dataset"),
        (["decisions", "e.jsonl", "--reviewer", "alice"],
         "--reviewer is for the dataset, preference, golden, resume and calibration "
         "exports, not decisions"),
    ):
        assert refused(capsys, main(["--db", db_url, "export", *argv])) == line
        assert not (tmp_path / argv[1]).exists()


def test_an_empty_export_over_a_full_one_says_so(
        loaded: Store, db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Valid filters that select nothing are an answer, not a mistake: the empty export is
    written, and the line says it replaced a non-empty file."""
    out = tmp_path / "p.jsonl"
    assert main(["--db", db_url, "export", "preference", str(out),
                 "--include-filter-refusals"]) == 0
    size = out.stat().st_size
    assert size > 0
    capsys.readouterr()
    assert main(["--db", db_url, "export", "preference", str(out), "--include-filter-refusals",
                 "--cause", "G-DEMANDE"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"0 pairs → {out}, manifest {out}.manifest.json; the previous {out} "
        f"({size:,} bytes) was replaced by this empty export"]
    assert out.read_bytes() == b""
    # Empty over empty: nothing to warn about.
    assert main(["--db", db_url, "export", "preference", str(out), "--include-filter-refusals",
                 "--cause", "G-DEMANDE"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"0 pairs → {out}, manifest {out}.manifest.json"]


def test_a_run_typed_in_another_normal_form_is_the_stored_run(
        store: Store, db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``café`` typed with a combining accent names the run stored in NFC (as keys do)."""
    from reviewer.store.names import RUNS, existing

    refused_once = record("c-1", 1, 1, run="café", demande="non")
    import_run(store, write_jsonl(tmp_path / "r.jsonl", [refused_once]),
               catalog_path=write_catalog(tmp_path / "catalog.json"))
    decomposed = "cafe\u0301"
    with store.session() as s:
        assert existing(s, RUNS, [decomposed], "--run") == ["café"]
    capsys.readouterr()
    assert main(["--db", db_url, "queue", "--run", decomposed]) == 0
    assert capsys.readouterr().out.splitlines() == ["café/c-1/1/1"]


def test_the_check_reads_every_kind(loaded: Store) -> None:
    """The shared check itself: the stored spelling back, or one line."""
    from reviewer.errors import BadInputError
    from reviewer.store.names import CAUSES, CHECKS, CRITERIA, REVIEWERS, RUNS, existing

    with loaded.session() as s:
        assert existing(s, CRITERIA, ["G-DEMANDE"], "--criterion") == ["G-DEMANDE"]
        assert existing(s, CHECKS, ["D-COMMERCE"], "--check") == ["D-COMMERCE"]
        assert existing(s, CAUSES, ["reviewer", "D-COMMERCE"], "--cause",
                        also=("reviewer",)) == ["reviewer", "D-COMMERCE"]
        assert existing(s, REVIEWERS, ["alice"], "--reviewer") == ["alice"]
        with pytest.raises(BadInputError, match=r"^--x \?\?\?: no such run "):
            existing(s, RUNS, ["???"], "--x")
        long = "x" * 500
        with pytest.raises(BadInputError) as caught:
            existing(s, RUNS, [long], "--run")
        assert len(str(caught.value)) < 200
