"""Human scores of calibration answers in the store (SQLite and PostgreSQL): grading files
opened once, scores and rankings with their audit trail, the export back to a grading
file that ``reviewer calibrate`` reads."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from reviewer.calibration.scores import rank_group, score_answer, score_events
from reviewer.calibration.sets import list_sets, load_set, open_grading_file
from reviewer.cli.main import main
from reviewer.errors import BadInputError
from reviewer.exports.calibration import audit_path, export_calibration
from reviewer.store import Store, open_store

pytestmark = pytest.mark.both_backends

DATA = Path(__file__).parent / "data" / "calibration_set.jsonl"


def opened(store: Store, path: Path = DATA, who: str = "associe") -> int:
    with store.session() as s:
        return open_grading_file(s, path, who).id


def test_a_grading_file_is_stored_whole_and_found_again(store: Store, tmp_path: Path) -> None:
    set_id = opened(store)
    with store.session() as s:
        loaded = load_set(s, set_id, "associe")
    assert loaded.info.rows == 42 and loaded.info.groups == 12
    assert [g.label for g in loaded.groups][:3] == ["partage", "horaires", "wacc"]
    assert loaded.rows[0].response.startswith("Cliquez sur Partager")
    assert loaded.rows[0].raw["human"] == 5  # the file's own field is kept as read
    assert loaded.human == (None,) * 42  # but nobody scored anything in the app yet
    # The same lines under another name are the same set: scores are not split.
    copy = tmp_path / "copie.jsonl"
    shutil.copyfile(DATA, copy)
    assert opened(store, copy) == set_id
    with store.session() as s:
        assert [i.id for i in list_sets(s, "associe")] == [set_id]


def test_scores_and_rankings_are_stored_per_reviewer_with_an_audit_trail(
    store: Store,
) -> None:
    set_id = opened(store)
    with store.session() as s:
        loaded = load_set(s, set_id, "associe")
    a, b, c, d = (loaded.row_ids[i] for i in loaded.groups[0].members)
    with store.session() as s:
        assert score_answer(s, "associe", a, 4).scores == {a: 4}
        assert not score_answer(s, "associe", a, 4).changed  # same value: no event
        score_answer(s, "associe", a, 5)
        score_answer(s, "benedicte", a, 2)
        rank_group(s, "associe", [b, a, d, c])
    with store.session() as s:
        mine = load_set(s, set_id, "associe")
        theirs = load_set(s, set_id, "benedicte")
        events = list(score_events(s))
    assert mine.human[:4] == (3.0, 4.0, 1.0, 2.0)  # ranking B, A, D, C: 4, 3, 2, 1
    assert mine.modes[:4] == ("rank",) * 4
    assert theirs.human[:4] == (2.0, None, None, None)
    assert mine.info.scored == 4 and theirs.info.scored == 1
    assert [(e["reviewer"], e["action"], e["old"], e["new"]) for e in events[:3]] == [
        ("associe", "set", None, {"score": 4.0, "mode": "score"}),
        ("associe", "set", {"score": 4.0, "mode": "score"}, {"score": 5.0, "mode": "score"}),
        ("benedicte", "set", None, {"score": 2.0, "mode": "score"}),
    ]
    ranking = events[3:]
    assert len(ranking) == 4 and {e["step"] for e in ranking} == {ranking[0]["id"]}
    assert ranking[0]["group"] == "partage" and ranking[0]["calibration_set"] == DATA.name


def test_clearing_a_score_is_audited_and_bad_scores_are_refused(store: Store) -> None:
    set_id = opened(store)
    with store.session() as s:
        row = load_set(s, set_id, "associe").row_ids[0]
        score_answer(s, "associe", row, 3)
        score_answer(s, "associe", row, None)
        assert not score_answer(s, "associe", row, None).changed
        with pytest.raises(BadInputError, match="finite"):
            score_answer(s, "associe", row, float("nan"))
        with pytest.raises(BadInputError, match="no calibration answer"):
            score_answer(s, "associe", 10**9, 3)
    with store.session() as s:
        assert load_set(s, set_id, "associe").human[0] is None
        assert [e["action"] for e in score_events(s)] == ["set", "clear"]


def test_a_ranking_must_cover_one_whole_group(store: Store) -> None:
    set_id = opened(store)
    with store.session() as s:
        loaded = load_set(s, set_id, "associe")
    first, second = loaded.groups[0], loaded.groups[1]
    ids = [loaded.row_ids[i] for i in first.members]
    with store.session() as s, pytest.raises(BadInputError, match="every answer of one group"):
        rank_group(s, "associe", ids[:-1])
    with store.session() as s, pytest.raises(BadInputError, match="once"):
        rank_group(s, "associe", [*ids, ids[0]])
    mixed = [*ids[:-1], loaded.row_ids[second.members[0]]]
    with store.session() as s, pytest.raises(BadInputError, match="every answer of one group"):
        rank_group(s, "associe", mixed)


def test_scores_survive_reopening_the_store(db_url: str) -> None:
    first = open_store(db_url)
    try:
        set_id = opened(first)
        with first.session() as s:
            row = load_set(s, set_id, "associe").row_ids[5]
            score_answer(s, "associe", row, 2)
    finally:
        first.close()
    again = open_store(db_url)
    try:
        with again.session() as s:
            assert load_set(s, set_id, "associe").human[5] == 2.0
    finally:
        again.close()


def score_like_the_file(store: Store, set_id: int, who: str = "associe") -> None:
    """Give every answer in the app the score the file's own "human" says."""
    with store.session() as s:
        loaded = load_set(s, set_id, who)
        for row_id, row in zip(loaded.row_ids, loaded.rows, strict=True):
            score_answer(s, who, row_id, row.raw["human"])


def test_the_export_is_the_grading_file_with_the_apps_scores(
    store: Store, tmp_path: Path, capsys: Any
) -> None:
    set_id = opened(store)
    score_like_the_file(store, set_id)
    with store.session() as s:
        loaded = load_set(s, set_id, "associe")
        score_answer(s, "associe", loaded.row_ids[0], 1)  # A of "partage": now worst
    out = tmp_path / "calibration.jsonl"
    with store.session() as s:
        lines, events = export_calibration(s, out)
    assert lines == 42 and events == 43
    exported = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
    original = [json.loads(line) for line in DATA.read_text("utf-8").splitlines()]
    assert [{k: v for k, v in e.items() if k not in ("human", "human_reviewer",
                                                     "calibration_set")} for e in exported] \
        == [{k: v for k, v in o.items() if k != "human"} for o in original]
    assert exported[0]["human"] == 1 and exported[0]["human_reviewer"] == "associe"
    assert [e["human"] for e in exported[1:]] == [o["human"] for o in original[1:]]
    assert len(audit_path(out).read_text("utf-8").splitlines()) == 43

    # The export is an input of `reviewer calibrate` as it stands.
    assert main(["calibrate", str(out), "--json", "--graders", "rouge_l"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["human"]["partage"]["scores"] == [1.0, 5.0, 1.0, 2.0]


def test_the_export_filters_by_reviewer_and_file(store: Store, tmp_path: Path) -> None:
    set_id = opened(store)
    with store.session() as s:
        row = load_set(s, set_id, "associe").row_ids[0]
        score_answer(s, "associe", row, 4)
        score_answer(s, "benedicte", row, 2)
    out = tmp_path / "out.jsonl"
    with store.session() as s:
        export_calibration(s, out, reviewer="associe")
        first = json.loads(out.read_text("utf-8").splitlines()[0])
        assert (first["human"], first["human_reviewer"]) == (4, "associe")
        export_calibration(s, out)  # latest score of any reviewer
        first = json.loads(out.read_text("utf-8").splitlines()[0])
        assert (first["human"], first["human_reviewer"]) == (2, "benedicte")
        second = json.loads(out.read_text("utf-8").splitlines()[1])
        assert second["human"] is None  # not scored in the app: null, the line is kept
        with pytest.raises(BadInputError, match="--run other: no such calibration file"):
            export_calibration(s, out, sets=["other"])


def test_export_from_the_command_line(db_url: str, tmp_path: Path, capsys: Any) -> None:
    store = open_store(db_url)
    try:
        score_like_the_file(store, opened(store))
    finally:
        store.close()
    out = tmp_path / "cal.jsonl"
    assert main(["--db", db_url, "export", "calibration", str(out),
                 "--run", DATA.name]) == 0
    assert f"42 scored answers → {out}" in capsys.readouterr().out
    # Unscored groups (none here) would be left out; the file calibrates like the source.
    assert main(["calibrate", str(out), "--json"]) == 0
    ours = json.loads(capsys.readouterr().out)
    assert main(["calibrate", str(DATA), "--json"]) == 0
    source = json.loads(capsys.readouterr().out)
    assert ours["graders"] == source["graders"]


@pytest.mark.parametrize("linked", ["trail to the file", "file to the trail"])
def test_an_export_whose_two_files_are_one_is_refused(
        db_url: str, tmp_path: Path, capsys: Any, linked: str) -> None:
    # Fifteenth hostile pass, P15-8: OUT.audit.jsonl a link to OUT (or the reverse) said
    # "6 scored answers → q, 5 audit events → q.audit.jsonl", rc 0, and the events were
    # nowhere: the trail was written, then the scored file renamed over it.
    store = open_store(db_url)
    try:
        score_like_the_file(store, opened(store))
    finally:
        store.close()
    out, trail = tmp_path / "q", tmp_path / "q.audit.jsonl"
    if linked == "trail to the file":
        out.write_text("old\n", encoding="utf-8")
        trail.symlink_to("q")
    else:
        trail.write_text("old\n", encoding="utf-8")
        out.symlink_to("q.audit.jsonl")
    capsys.readouterr()
    assert main(["--db", db_url, "export", "calibration", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert "(a link?), and both are outputs of this export; nothing was written" in err, err
    assert (tmp_path / ("q" if linked == "trail to the file" else "q.audit.jsonl")
            ).read_text(encoding="utf-8") == "old\n"
