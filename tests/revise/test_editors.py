"""The editors' units of work: what they read, what a save reports changed, previews."""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewer.catalog.spec import CheckSpec, CriterionSpec
from reviewer.changes import Changes
from reviewer.keys import AttemptKey
from reviewer.revise.editors import (
    check_preview,
    checks_state,
    criteria_state,
    save_check_version,
    save_criterion_version,
)
from reviewer.rule.checks import CheckPattern
from reviewer.store import Session, Store
from reviewer.store.units import in_unit_of_work
from tests.support.stores import act

pytestmark = pytest.mark.both_backends
RUN = "2026-10-14-ministral-8b"


def test_saving_versions_reports_a_catalog_change(filled_store: Store) -> None:
    state = in_unit_of_work(filled_store, criteria_state)
    assert state.versions["G-DEMANDE"] == 1 and state.touched["G-DEMANDE"] == 32
    spec = CriterionSpec("G-DEMANDE", "success", None, "Répond à la demande, même brève.")
    saved = act(filled_store, save_criterion_version, spec, reason="moins strict",
                author="claire")
    assert (saved.ident, saved.version, saved.changes) == ("G-DEMANDE", 2,
                                                          Changes(catalog=True))
    assert in_unit_of_work(filled_store, criteria_state).specs["G-DEMANDE"] == spec
    check = in_unit_of_work(filled_store, checks_state).specs["D-COMMERCE"]
    new = CheckSpec(check.id, check.description, "inscri(vez|re)", "i", "forbid", None)
    assert act(filled_store, save_check_version, new, reason="r", author="claire").version == 2
    assert in_unit_of_work(filled_store, checks_state).versions["D-COMMERCE"] == 2


def test_preview_matches_both_patterns(filled_store: Store, tmp_path: Path) -> None:
    key = AttemptKey.parse(f"{RUN}/recette-001/2/2")
    found = in_unit_of_work(filled_store, lambda s: check_preview(
        s, key, CheckPattern("inscri(vez|re|ption)", "i"), CheckPattern("date"),
        timeout=0.5))
    assert found.text == "Pensez à inscrire la date dans votre journal."
    assert [found.text[a:b] for a, b in found.old] == ["inscrire"]
    assert [found.text[a:b] for a, b in found.new] == ["date"]


def test_a_unit_of_work_rolls_back_when_the_function_fails(filled_store: Store) -> None:
    spec = CriterionSpec("G-NOUVEAU", "success", None, "Nouveau.")

    def save_then_fail(s: Session) -> None:
        save_criterion_version(s, spec, reason="r", author="a")
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        in_unit_of_work(filled_store, save_then_fail)
    assert "G-NOUVEAU" not in in_unit_of_work(filled_store, criteria_state).specs
