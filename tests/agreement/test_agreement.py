"""Agreement figures (kappa, false-failure rate, coverage) against hand-computed values."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewer.agreement.feedback import agreement, feedback_stats
from reviewer.cli.main import main
from reviewer.ingest.importer import import_run
from reviewer.review.decisions import Change, apply_change
from reviewer.store import Store
from tests.support.feedback_stores import attempt_id, key
from tests.support.run_files import record, write_catalog, write_jsonl

# Storage-touching tests run on SQLite and on the throwaway PostgreSQL server.
pytestmark = pytest.mark.both_backends


def load(store: Store, folder: Path, *, audit_accepted: bool = True) -> None:
    """Seven attempts, each turn 1 of its own conversation; A1…A6 audited by "associe".

    A1 refused by G-DEMANDE, reviewer accepts.      A2 refused by E-INVENTE, reviewer rejects.
    A3 filter-accepted, reviewer rejects and sets E-INVENTE met.
    A4 refused by G-DEMANDE, reviewer sets G-DEMANDE met (no decision: replay accepts).
    A5 refused by D-COMMERCE, reviewer marks it false positive and accepts.
    A6 filter-accepted, reviewer accepts.            A7 refused by G-DEMANDE, not audited.
    """
    rows = [record("a1", demande="non"), record("a2", invente="oui"), record("a3"),
            record("a4", demande="non"), record("a5", commerce_passed=False),
            record("a6"), record("a7", demande="non")]
    import_run(store, write_jsonl(folder / "ag.jsonl", rows),
               catalog_path=write_catalog(folder / "catalog.json"))
    ids = {n: attempt_id(store, key(1, f"a{n}")) for n in range(1, 8)}
    changes = [(1, "decision", "accept"), (2, "decision", "reject"),
               (4, "criterion:G-DEMANDE", True), (5, "check:D-COMMERCE", "false_positive"),
               (5, "decision", "accept")]
    if audit_accepted:
        changes += [(3, "decision", "reject"), (3, "criterion:E-INVENTE", True),
                    (6, "decision", "accept")]
    with store.session() as s:
        for n, field, value in changes:
            apply_change(s, "associe", Change(ids[n], field, value))


def test_overall_and_per_criterion_figures(tmp_path: Path, store: Store) -> None:
    load(store, tmp_path)
    with store.session() as s:
        agreed = agreement(s)
    # Overall (grader refuses = positive): A2 caught; A1, A4, A5 false failures; A3 missed;
    # A6 agreed pass. n = 6, po = 2/6, pe = (4*2 + 2*4)/36 = 4/9,
    # kappa = (1/3 - 4/9) / (1 - 4/9) = -0.2; false-failure rate = 3/(3+1); coverage = 1/2.
    o = agreed.overall
    assert (o.tp, o.fp, o.fn, o.tn) == (1, 3, 1, 1)
    assert o.kappa == pytest.approx(-0.2)
    assert o.false_failure_rate == pytest.approx(0.75)
    assert o.coverage == pytest.approx(0.5)
    # G-DEMANDE: A1 (accepted) and A4 (overridden met) are false failures, the rest agreed
    # passes: po = 4/6, pe = (2*0 + 4*6)/36 = 2/3 -> kappa 0; false-failure rate 2/6.
    g = agreed.criteria["G-DEMANDE"]
    assert (g.tp, g.fp, g.fn, g.tn) == (0, 2, 0, 4)
    assert g.kappa == pytest.approx(0.0)
    assert g.false_failure_rate == pytest.approx(1 / 3)
    assert g.coverage is None  # no answer the reviewer found bad on G-DEMANDE
    # E-INVENTE: A2 caught, A3 missed (override met), four agreed passes:
    # po = 5/6, pe = (1*2 + 5*4)/36 = 11/18, kappa = (15/18 - 11/18)/(7/18) = 4/7.
    e = agreed.criteria["E-INVENTE"]
    assert (e.tp, e.fp, e.fn, e.tn) == (1, 0, 1, 4)
    assert e.kappa == pytest.approx(4 / 7)
    assert e.coverage == pytest.approx(0.5)
    # D-COMMERCE: one false positive (A5) among six: false-failure rate 1/6, kappa 0.
    d = agreed.checks["D-COMMERCE"]
    assert (d.tp, d.fp, d.fn, d.tn) == (0, 1, 0, 5)
    assert d.false_failure_rate == pytest.approx(1 / 6)
    assert agreed.checks["D-3114"].kappa is None  # both raters constant: undefined


def test_refusals_per_cause_and_overturns(tmp_path: Path, store: Store) -> None:
    load(store, tmp_path)
    with store.session() as s:
        causes = feedback_stats(s)["refusals_by_cause"]
    assert causes == {
        "D-COMMERCE": {"refusals": 1, "reviewed": 1, "overturned": 1},
        "E-INVENTE": {"refusals": 1, "reviewed": 1, "overturned": 0},
        "G-DEMANDE": {"refusals": 3, "reviewed": 2, "overturned": 2},
    }


def test_coverage_unknown_without_an_audited_accepted_attempt(
        tmp_path: Path, store: Store, db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    load(store, tmp_path, audit_accepted=False)
    assert main(["--db", db_url, "stats", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    agreed = data["agreement"]
    assert agreed["coverage_known"] is False
    assert "coverage unknown" in agreed["warning"]
    assert agreed["overall"]["coverage"] is None
    assert agreed["criteria"]["E-INVENTE"]["coverage"] is None
    assert data["attempts"] == 7  # the basic counts are still there
    assert main(["--db", db_url, "stats"]) == 0
    assert "warning: coverage unknown" in capsys.readouterr().out
