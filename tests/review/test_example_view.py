"""What the example pane is given: spans, verdicts, live decision, cut, review actions."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select

from models import Verdict
from reviewer.ingest.importer import import_run
from reviewer.review import actions as review_actions
from reviewer.review.example import ExampleView, evidence_spans, load_example, pattern_spans
from reviewer.review.queue import QueueFilter, queue_keys
from reviewer.store import Store
from tests.support.run_files import record, write_catalog, write_jsonl
from tests.support.stores import CONTRADICTION, act

RUN = "2026-10-14-ministral-8b"


def find(store: Store, suffix: str) -> int:
    with store.session() as s:
        for r in queue_keys(s, QueueFilter(include_accepted=True)):
            if str(r.key).endswith(suffix):
                return r.attempt_id
    raise KeyError(suffix)


def view(store: Store, suffix: str, reviewer: str = "claire") -> ExampleView:
    with store.session() as s:
        return load_example(s, find(store, suffix), reviewer)


def test_context_response_and_check_matches(filled_store: Store) -> None:
    v = view(filled_store, "recette-003/2/2")
    assert [m.role for m in v.context] == ["system", "user"]
    assert v.context[1].content == "Comment dater un épisode de bruit ?"
    assert v.response == "Pensez à inscrire la date dans votre journal."
    commerce = next(c for c in v.checks if c.check_id == "D-COMMERCE")
    assert not commerce.passed
    assert [v.response[s:e] for s, e in commerce.spans] == ["inscrire"]
    assert (9, 17, "D-COMMERCE") in v.match_spans
    assert v.reasons == ("D-COMMERCE échoué : Pas d'incitation à s'inscrire",)


def test_contradiction_is_flagged_with_its_evidence(filled_store: Store) -> None:
    v = view(filled_store, "recette-003/2/1")
    demande = v.verdicts[0]
    assert (demande.criterion_id, demande.kind, demande.met) == ("G-DEMANDE", "success", False)
    assert demande.polarity == "+" and v.verdicts[1].polarity == "−"
    assert demande.rationale == CONTRADICTION
    assert demande.contradiction and v.flagged and demande.score > 0.5
    highlighted = [CONTRADICTION[s:e] for s, e in demande.evidence_spans]
    assert any("répond" in h for h in highlighted)
    # A verdict that agrees with its rationale is neither flagged nor highlighted.
    assert not v.verdicts[1].contradiction and v.verdicts[1].evidence_spans == ()


def test_evidence_fragments_are_located_in_the_rationale() -> None:
    text = "L'assistant répond directement à la demande."
    assert evidence_spans(text, "répond … DEMANDE") == ((12, 18), (36, 43))
    assert evidence_spans(text, "absent") == ()


def test_bad_or_slow_patterns_do_not_break_the_pane() -> None:
    assert pattern_spans("abc", "(")[1].startswith("invalid pattern")
    spans, error = pattern_spans("x" * 3000, r"(x+x+)+y")
    assert spans == () and error == "pattern too slow on this answer"


def test_live_decision_follows_overrides_and_second_opinions(filled_store: Store) -> None:
    aid = find(filled_store, "recette-003/2/1")
    assert not view(filled_store, "recette-003/2/1").live.accepted
    act(filled_store, review_actions.toggle_criterion, "claire", aid, "G-DEMANDE")
    v = view(filled_store, "recette-003/2/1")
    assert v.live.accepted and v.decision_changed
    assert v.verdicts[0].override is True and v.verdicts[0].effective and not v.verdicts[0].met
    # Another reviewer does not see claire's override.
    assert not view(filled_store, "recette-003/2/1", reviewer="marc").live.accepted
    # Toggling back removes the override instead of storing a redundant one.
    act(filled_store, review_actions.toggle_criterion, "claire", aid, "G-DEMANDE")
    v = view(filled_store, "recette-003/2/1")
    assert v.verdicts[0].override is None and not v.live.accepted
    assert v.review.criteria == {}
    # A second opinion "oui" replaces the first "non" and is shown next to it.
    with filled_store.session() as s:
        first = s.scalars(select(Verdict).where(Verdict.attempt_id == aid)).first()
        assert first is not None
        s.add(Verdict(attempt_id=aid, criterion_version_id=first.criterion_version_id,
                      origin="second_opinion", met=True, rationale="Répond bien.",
                      model="fake-judge:7b"))
    v = view(filled_store, "recette-003/2/1")
    assert v.verdicts[0].second_opinion is not None
    assert v.verdicts[0].second_opinion.rationale == "Répond bien."
    assert v.live.accepted and v.verdicts[0].effective


def test_false_positive_check_accepts_the_attempt(filled_store: Store) -> None:
    aid = find(filled_store, "recette-002/2/2")
    act(filled_store, review_actions.toggle_false_positive, "claire", aid, "D-COMMERCE")
    v = view(filled_store, "recette-002/2/2")
    assert v.live.accepted and v.checks[0].false_positive
    act(filled_store, review_actions.undo, "claire")
    v = view(filled_store, "recette-002/2/2")
    assert not v.live.accepted and not v.checks[0].false_positive
    act(filled_store, review_actions.redo, "claire")
    assert view(filled_store, "recette-002/2/2").live.accepted


def test_conversation_cut_counts_lost_turns(filled_store: Store) -> None:
    last = view(filled_store, "recette-003/2/3").cut
    assert last is not None and (last.turn, last.planned, last.lost) == (2, 4, 2)
    assert view(filled_store, "recette-003/2/1").cut is None  # attempts 2 and 3 followed
    assert view(filled_store, "recette-003/1/1").cut is None  # accepted


def test_grader_scores_only_with_a_reference(store: Store, tmp_path: Path) -> None:
    with_ref = record("recette-050", 1, 1, response="Notez 3 épisodes le 12 mars.")
    with_ref["reference"] = "Notez les 3 épisodes du 12 mars."
    import_run(store, write_jsonl(tmp_path / "r.jsonl", [with_ref, record("recette-051")]),
               catalog_path=write_catalog(tmp_path / "c.json"))
    scores = view(store, "recette-050/1/1").grader_scores
    assert set(scores) == {"rouge_l", "numeric"}
    assert scores["numeric"] == 1.0 and 0 < (scores["rouge_l"] or 0) < 1
    assert view(store, "recette-051/1/1").grader_scores == {}


def test_note_and_decision_round_trip(filled_store: Store) -> None:
    aid = find(filled_store, "recette-001/2/1")
    act(filled_store, review_actions.decide, "claire", aid, "accept")
    act(filled_store, review_actions.set_note, "claire", aid, "Réponse honnête, juge contredit")
    assert act(filled_store, review_actions.set_note, "claire", aid,
                                   "Réponse honnête, juge contredit").attempt_id is None
    v = view(filled_store, "recette-001/2/1")
    assert (v.review.decision, v.review.note) == ("accept", "Réponse honnête, juge contredit")
    assert act(filled_store, review_actions.undo_state, "claire") == (2, 0)
