"""Back-tests in the filter's dialect: what the real (TypeScript) filter would flip.

Expected answers come from Node itself (``tests/rule/node_regexp.js``): for every stored
response, the old and the new pattern's ``test()``; the back-test must list exactly the
attempts whose result flips.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import select

from models import Attempt, CheckVersion, Conversation, Run
from reviewer.cli.main import main
from reviewer.ingest.demo import load_demo
from reviewer.ingest.importer import import_run
from reviewer.keys import AttemptKey
from reviewer.revise.backtest import backtest
from reviewer.rule.checks import CheckPattern, PatternTimeout
from reviewer.store import Store
from tests.rule.node_reference import NodeRegExp
from tests.rule.test_dialects import FILTER_RESULTS, RUN, catalog, load_filter_run
from tests.support.feedback_stores import SEED_NEW_PATTERN
from tests.support.run_files import record, write_catalog, write_jsonl

pytestmark = pytest.mark.both_backends

# Aimed at the three false positives at « é »: no letter may touch the word, in Unicode.
FIX = (r"(?<!\p{L})((vous|s'|m'|t'|nous) ?inscri(re|vez)|inscrivez-vous|inscription"
       r"|cre(ez|er) (un|votre) compte|ouvr(ez|ir) un compte)(?!\p{L})")


@pytest.fixture(scope="module")
def node() -> Iterator[NodeRegExp]:
    reference = NodeRegExp()
    yield reference
    reference.close()


def node_flips(store: Store, node: NodeRegExp, old: tuple[str, str],
               new: tuple[str, str]) -> tuple[list[str], list[str], int, int]:
    """(removed, added, old failures, new failures) of a forbid check, by Node."""
    with store.session() as s:
        rows = s.execute(select(Run.name, Conversation.name, Attempt.turn, Attempt.attempt,
                                Attempt.response)
                         .join(Conversation, Attempt.conversation_id == Conversation.id)
                         .join(Run, Attempt.run_id == Run.id)).all()
    removed, added, old_fail, new_fail = [], [], 0, 0
    for run, conv, turn, attempt, text in rows:
        old_hit = node.ask(*old, text)["test"]
        new_hit = node.ask(*new, text)["test"]
        old_fail += old_hit
        new_fail += new_hit
        key = str(AttemptKey(run, conv, turn, attempt))
        if old_hit and not new_hit:
            removed.append(key)
        if new_hit and not old_hit:
            added.append(key)
    return sorted(removed), sorted(added), old_fail, new_fail


def test_the_seed_fix_on_the_demo_flips_what_the_filter_would(
        store: Store, node: NodeRegExp) -> None:
    load_demo(store)
    with store.session() as s:
        result = backtest(s, "D-COMMERCE", CheckPattern(SEED_NEW_PATTERN, "i",
                                                        dialect="ecmascript"))
    assert result.old.dialect == "ecmascript"
    removed, added, old_fail, new_fail = node_flips(
        store, node, ("inscri(vez|re|ption)", "i"), (SEED_NEW_PATTERN, "i"))
    assert [str(k) for k in result.removed] == removed
    assert [str(k) for k in result.added] == added
    assert (result.old_failures, result.new_failures) == (old_fail, new_fail)
    assert len(removed) >= 5  # « inscrire la date … » answers stop failing


def test_a_fix_aimed_at_the_false_positives_is_seen_in_the_filters_dialect(
        tmp_path: Path, store: Store, node: NodeRegExp) -> None:
    load_filter_run(store, tmp_path, "ecmascript")
    with store.session() as s:
        result = backtest(s, "D-COMMERCE", CheckPattern(FIX, "iu", dialect="ecmascript"))
    removed, added, old_fail, new_fail = node_flips(store, node, (SEED_NEW_PATTERN, "i"),
                                                    (FIX, "iu"))
    # The stored results were the filter's: 4 failures, 3 of them at « é ».
    assert old_fail == result.old_failures == sum(not p for _, p in FILTER_RESULTS) == 4
    assert [str(k) for k in result.removed] == removed == [f"{RUN}/fr/{t}/1" for t in (1, 2, 3)]
    assert [str(k) for k in result.added] == added == []
    assert result.new_failures == new_fail == 1


def test_read_as_python_the_same_store_tells_another_story(tmp_path: Path,
                                                           store: Store) -> None:
    # What this project said before dialects: 1 old failure, and the fix changes nothing.
    load_filter_run(store, tmp_path, None)
    with store.session() as s:
        result = backtest(s, "D-COMMERCE", CheckPattern(FIX.replace(r"\p{L}", r"\w"), "i"))
    assert (result.old_failures, result.removed, result.added) == (1, [], [])


def test_backtest_cli_dialect(tmp_path: Path, store: Store, db_url: str,
                              capsys: pytest.CaptureFixture[str]) -> None:
    load_filter_run(store, tmp_path, "ecmascript")
    assert main(["--db", db_url, "backtest", "D-COMMERCE", FIX, "--flags", "iu",
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["old"]["dialect"] == data["new"]["dialect"] == "ecmascript"
    assert data["removed"] == [f"{RUN}/fr/{t}/1" for t in (1, 2, 3)]
    # --dialect python: the new pattern read as Python (\p{L} is fine there too).
    assert main(["--db", db_url, "backtest", "D-COMMERCE", FIX, "--flags", "i",
                 "--dialect", "python"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == ("D-COMMERCE v1 → new pattern (ecmascript → python), 5 attempts: "
                     "4 → 1 failing")
    # A pattern JavaScript refuses: one line with its reason, exit 2.
    assert main(["--db", db_url, "backtest", "D-COMMERCE", "(?i)inscri"]) == 2
    err = capsys.readouterr().err
    assert "invalid pattern (ECMAScript): Invalid regular expression: /(?i)inscri/i: " \
           "Invalid group" in err


@pytest.mark.parametrize("dialect", ["python", "ecmascript"])
def test_the_timeout_names_the_pattern_that_hit_it(
        tmp_path: Path, store: Store, db_url: str, dialect: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    # A catastrophic *stored* pattern must not make the back-test blame the new one.
    doc = catalog(dialect, pattern="(a+)+$", flags="")
    rows = [record("long", 1, 1, response="a" * 5000 + "!")]
    import_run(store, write_jsonl(tmp_path / "r.jsonl", rows),
               catalog_path=write_catalog(tmp_path / "c.json", doc))
    where = f"{RUN}/long/1/1"
    with store.session() as s, pytest.raises(PatternTimeout) as info:
        backtest(s, "D-COMMERCE", CheckPattern("inscri", "", dialect=dialect), timeout=0.2)
    assert str(info.value) == (f"current (v1, stored) pattern stopped after 0.2 s on {where}: "
                               "catastrophic backtracking?")
    assert main(["--db", db_url, "check", "D-COMMERCE", "--pattern", "inscri",
                 "--reason", "the stored one is catastrophic"]) == 0
    assert main(["--db", db_url, "backtest", "D-COMMERCE", "(a+)+$", "--timeout", "0.2"]) == 2
    # The new pattern: the message the app always gave.
    assert capsys.readouterr().err.endswith(
        f"reviewer: pattern stopped after 0.2 s on {where}: catastrophic backtracking?\n")


def test_check_cli_stores_the_dialect(tmp_path: Path, store: Store, db_url: str,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    load_filter_run(store, tmp_path, None)
    assert main(["--db", db_url, "check", "D-COMMERCE", "--pattern", SEED_NEW_PATTERN,
                 "--dialect", "ecmascript", "--reason", "the filter is TypeScript"]) == 0
    assert capsys.readouterr().out == "D-COMMERCE v2 saved (ecmascript)\n"
    # Flags default to the current ones; the dialect too.
    assert main(["--db", db_url, "check", "D-COMMERCE", "--pattern", FIX, "--flags", "iu",
                 "--reason", "no letter may touch the word"]) == 0
    with store.session() as s:
        stored = s.execute(select(CheckVersion.version, CheckVersion.dialect)
                           .where(CheckVersion.check_id == "D-COMMERCE")
                           .order_by(CheckVersion.version)).all()
    assert [tuple(r) for r in stored] == [(1, "python"), (2, "ecmascript"), (3, "ecmascript")]
    # Python has no flag u; only the dialect changing is still a change.
    assert main(["--db", db_url, "check", "D-COMMERCE", "--pattern", FIX, "--flags", "iu",
                 "--dialect", "python", "--reason", "back to python"]) == 2
    assert "unknown regex flag 'u'" in capsys.readouterr().err
    assert main(["--db", db_url, "check", "D-COMMERCE", "--pattern", FIX, "--flags", "i",
                 "--dialect", "python", "--reason", "back to python"]) == 0
    # JavaScript's refusal stores nothing.
    assert main(["--db", db_url, "check", "D-COMMERCE", "--pattern", "a++",
                 "--dialect", "ecmascript", "--reason", "possessive"]) == 2
    assert "Nothing to repeat" in capsys.readouterr().err
