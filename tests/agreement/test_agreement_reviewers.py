"""Agreement between reviewers, checked against figures computed by hand (both backends)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import select

from models import Attempt
from reviewer.agreement.reviewers import cohen_kappa, reviewer_agreement
from reviewer.cli.main import main as cli
from reviewer.ingest.importer import import_run
from reviewer.review.decisions import Change, apply_change
from reviewer.store import Store
from tests.support.run_files import sample_rows, write_catalog, write_jsonl

pytestmark = pytest.mark.both_backends

A, R = "accept", "reject"
# Decisions on attempts 1..6 (attempt n = n-th id; "-" = not decided by that reviewer):
#   attempt  alice  bob  carol
#      1       A     A     A
#      2       A     A     R
#      3       R     R     R
#      4       R     A     -
#      5       A     -     A
#      6       R     R     A
# plus alice alone on attempt 7 (one rating: never counted) and bob with an override but
# no decision on attempt 8 (not a decision: never counted).
DECISIONS = {
    1: {"alice": A, "bob": A, "carol": A},
    2: {"alice": A, "bob": A, "carol": R},
    3: {"alice": R, "bob": R, "carol": R},
    4: {"alice": R, "bob": A},
    5: {"alice": A, "carol": A},
    6: {"alice": R, "bob": R, "carol": A},
    7: {"alice": A},
}


@pytest.fixture
def reviewed(tmp_path: Path, store: Store) -> Store:
    import_run(store, write_jsonl(tmp_path / "run.jsonl", sample_rows(2)),
               catalog_path=write_catalog(tmp_path / "c.json"))
    with store.session() as s:
        ids = list(s.scalars(select(Attempt.id).order_by(Attempt.id)))
        for n, by in DECISIONS.items():
            for name, decision in by.items():
                apply_change(s, name, Change(ids[n - 1], "decision", decision))
        # G-DEMANDE overrides (the judge says, by attempt: T F T T T F T T).
        apply_change(s, "alice", Change(ids[1], "criterion:G-DEMANDE", True))
        apply_change(s, "carol", Change(ids[0], "criterion:G-DEMANDE", False))
        apply_change(s, "bob", Change(ids[7], "criterion:G-DEMANDE", False))
    return store


def test_decision_kappas_and_alpha_match_the_hand_computation(reviewed: Store) -> None:
    with reviewed.session() as s:
        figures = reviewer_agreement(s)
    assert figures.decided == {"alice": 7, "bob": 5, "carol": 5}
    d = figures.decision
    # Units with two ratings or more: attempts 1-6.
    assert d.units == 6
    pairs = {(p.first, p.second): p for p in d.pairs}
    # alice/bob on 1,2,3,4,6: alice AARRR, bob AARAR; agree 4/5 = 0.8.
    # p_e = P(A)P(A) + P(R)P(R) = (2/5)(3/5) + (3/5)(2/5) = 12/25; kappa = (0.8-0.48)/0.52 = 8/13.
    ab = pairs[("alice", "bob")]
    assert (ab.units, ab.observed) == (5, pytest.approx(0.8))
    assert ab.kappa == pytest.approx(8 / 13)
    # alice/carol on 1,2,3,5,6: alice AARAR, carol ARRAA; agree 3/5.
    # p_e = (3/5)(3/5) + (2/5)(2/5) = 13/25; kappa = (0.6-0.52)/0.48 = 1/6.
    ac = pairs[("alice", "carol")]
    assert (ac.units, ac.kappa) == (5, pytest.approx(1 / 6))
    # bob/carol on 1,2,3,6: bob AARR, carol ARRA; agree 2/4, p_e = 1/2, kappa = 0.
    bc = pairs[("bob", "carol")]
    assert (bc.units, bc.observed, bc.kappa) == (4, pytest.approx(0.5), pytest.approx(0.0))
    # Krippendorff (nominal), coincidences summed over units (each ordered pair / (m_u - 1)):
    #   o_AA = 3 (u1) + 1 (u2) + 2 (u5) = 6; o_RR = 3 (u3) + 1 (u6) = 4;
    #   o_AR = o_RA = 1 (u2) + 1 (u4) + 1 (u6) = 3; n = 16, n_A = 9, n_R = 7.
    #   D_o = 6/16, D_e = 2*9*7 / (16*15) = 0.525; alpha = 1 - 0.375/0.525 = 2/7.
    assert d.alpha == pytest.approx(2 / 7)


def test_criterion_agreement_uses_overrides_else_the_judge(reviewed: Store) -> None:
    with reviewed.session() as s:
        figures = reviewer_agreement(s)
    g = figures.criteria["G-DEMANDE"]
    # Effective G-DEMANDE (T = met) on the decided attempts, judge T F T T T F:
    #   alice 1-6: T T(override) T T T F; bob 1,2,3,4,6: T F T T F;
    #   carol 1,2,3,5,6: F(override) F T T F.
    pairs = {(p.first, p.second): p.kappa for p in g.pairs}
    # alice/bob: agree 4/5; p_e = (4*3 + 1*2)/25 = 0.56; kappa = 0.24/0.44 = 6/11.
    assert pairs[("alice", "bob")] == pytest.approx(6 / 11)
    # alice/carol: agree 3/5; p_e = (4*2 + 1*3)/25 = 0.44; kappa = 0.16/0.56 = 2/7.
    assert pairs[("alice", "carol")] == pytest.approx(2 / 7)
    # bob/carol on 1,2,3,6: TFTF vs FFTF, agree 3/4; p_e = (2*1 + 2*3)/16 = 0.5; kappa 0.5.
    assert pairs[("bob", "carol")] == pytest.approx(0.5)
    # o_TT = 1+3+2+2 = 8, o_FF = 1+3 = 4, o_TF = o_FT = 2; n = 16, n_T = 10, n_F = 6;
    # D_o = 4/16, D_e = 2*10*6/(16*15) = 0.5; alpha = 1 - 0.25/0.5 = 0.5.
    assert g.alpha == pytest.approx(0.5)
    # E-INVENTE: nobody overrode it, everyone follows the judge (met on attempt 4 only).
    e = figures.criteria["E-INVENTE"]
    kappas = {(p.first, p.second): p.kappa for p in e.pairs}
    assert kappas[("alice", "bob")] == pytest.approx(1.0)
    # alice/carol and bob/carol only ever said "unmet": chance agreement 1, kappa undefined.
    assert kappas[("alice", "carol")] is None and kappas[("bob", "carol")] is None
    assert e.alpha == pytest.approx(1.0)


def test_stats_json_reports_the_reviewers(
    reviewed: Store, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli(["--db", db_url, "stats", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)["reviewers"]
    assert out["decided"] == {"alice": 7, "bob": 5, "carol": 5}
    assert out["decision"]["alpha"] == round(2 / 7, 4)
    assert out["decision"]["pairs"][0] == {"a": "alice", "b": "bob", "units": 5,
                                           "observed": 0.8, "kappa": round(8 / 13, 4)}
    assert out["criteria"]["G-DEMANDE"]["alpha"] == 0.5
    assert cli(["--db", db_url, "stats"]) == 0
    text = capsys.readouterr().out
    assert "reviewer agreement on decisions: alpha 0.29 over 6 attempts" in text
    assert "alice / bob: kappa 0.62 on 5" in text


def test_one_reviewer_gives_no_figures(tmp_path: Path, store: Store) -> None:
    import_run(store, write_jsonl(tmp_path / "run.jsonl", sample_rows(1)),
               catalog_path=write_catalog(tmp_path / "c.json"))
    with store.session() as s:
        aid = s.scalars(select(Attempt.id)).first()
        assert aid is not None
        apply_change(s, "alice", Change(aid, "decision", "accept"))
        figures = reviewer_agreement(s)
    assert figures.decision.units == 0 and figures.decision.alpha is None
    assert figures.decision.pairs == () and figures.criteria == {}


def test_kappa_edge_cases() -> None:
    assert cohen_kappa([], []) is None
    # Perfect disagreement on two balanced categories: p_o = 0, p_e = 1/2, kappa = -1.
    assert cohen_kappa(["a", "b"], ["b", "a"]) == pytest.approx(-1.0)
