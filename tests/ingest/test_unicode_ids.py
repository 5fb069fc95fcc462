"""Ids spelt in two Unicode forms (seventh blind hostile pass, N1).

``café`` is ``caf`` + U+00E9 (NFC) or ``cafe`` + U+0301 (NFD, how macOS spells file
names, and so run files made from them). Both print the same: they imported as two
attempts, and the key typed from what `queue` printed found neither or the wrong one.
Ids are stored in NFC; a key is looked up as typed, then in its NFC and NFD spellings, so
a store that already holds an NFD id (imported before) keeps working.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from sqlalchemy import select, text

from models import Attempt, Conversation, ReviewDecision, Run
from reviewer.cli.main import main
from reviewer.errors import BAD_INPUT
from reviewer.ingest.importer import import_run
from reviewer.store import Store
from tests.support.run_files import record, write_catalog, write_jsonl

pytestmark = pytest.mark.both_backends

NFC = unicodedata.normalize("NFC", "café")
NFD = unicodedata.normalize("NFD", "café")
RUN_NFC = unicodedata.normalize("NFC", "été-2026")
RUN_NFD = unicodedata.normalize("NFD", "été-2026")


def names(store: Store) -> list[tuple[str, str]]:
    with store.session() as s:
        return sorted((a, b) for a, b in s.execute(select(Run.name, Conversation.name)
                                .join(Conversation, Conversation.run_id == Run.id)))


def test_an_nfd_id_is_stored_in_nfc_and_its_twin_in_one_file_is_refused(
        store: Store, db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    catalog = write_catalog(tmp_path / "c.json")
    nfd = write_jsonl(tmp_path / "nfd.jsonl", [record(NFD, run=RUN_NFD)])
    assert main(["--db", db_url, "import", str(nfd), "--catalog", str(catalog)]) == 0
    assert names(store) == [(RUN_NFC, NFC)]
    capsys.readouterr()
    # The key typed in either spelling names it.
    for typed in (f"{RUN_NFC}/{NFC}/1/1", f"{RUN_NFD}/{NFD}/1/1"):
        assert main(["--db", db_url, "--reviewer", "zoe", "decide", typed, "--reject"]) == 0
    # A file holding both spellings of one id, with different content: refused whole.
    twins = write_jsonl(tmp_path / "twins.jsonl", [
        record("crêpe", response="Une."), record(unicodedata.normalize("NFD", "crêpe"),
                                                  response="Deux.")])
    assert main(["--db", db_url, "import", str(twins)]) == BAD_INPUT
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith(f"reviewer: {twins}:2: "), err
    assert "Unicode" in err[0] and "NFC" in err[0], err
    assert names(store) == [(RUN_NFC, NFC)]


def legacy_nfd(store: Store, tmp_path: Path, *, twin: bool) -> Path:
    """A store as an earlier version left it: the id stored in NFD (and, with ``twin``,
    an NFC twin beside it), imported from ``nfd.jsonl``."""
    catalog = write_catalog(tmp_path / "c.json")
    nfd = write_jsonl(tmp_path / "nfd.jsonl", [record(NFD)])
    import_run(store, nfd, catalog_path=catalog)
    with store.session() as s:  # what the earlier import stored: the id as given
        s.execute(text("UPDATE conversations SET name = :d WHERE name = :c"),
                  {"d": NFD, "c": NFC})
    if twin:  # imported under another name: this version refuses to make the twin
        import_run(store, write_jsonl(tmp_path / "nfc.jsonl", [record("twin", response="NFC.")]))
        with store.session() as s:
            s.execute(text("UPDATE conversations SET name = :c WHERE name = 'twin'"),
                      {"c": NFC})
    return nfd


def decided(store: Store) -> list[tuple[str, str]]:
    with store.session() as s:
        return sorted((a, b) for a, b in s.execute(
            select(Conversation.name, ReviewDecision.decision)
            .join(Attempt, Attempt.id == ReviewDecision.attempt_id)
            .join(Conversation, Conversation.id == Attempt.conversation_id)))


def test_a_stored_nfd_id_keeps_working(
        store: Store, db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    nfd = legacy_nfd(store, tmp_path, twin=False)
    run = "2026-10-14-ministral-8b"
    # The key as `queue` prints it, typed (NFC), finds the NFD attempt.
    assert main(["--db", db_url, "--reviewer", "zoe", "decide", f"{run}/{NFC}/1/1",
                 "--reject"]) == 0
    assert decided(store) == [(NFD, "reject")]
    # Importing the same file again adds no twin.
    capsys.readouterr()
    assert main(["--db", db_url, "import", str(nfd)]) == 0
    assert "1 already present" in capsys.readouterr().out
    assert names(store) == [(run, NFD)]


def test_stored_twins_are_each_found_by_their_exact_spelling(
        store: Store, db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    nfd = legacy_nfd(store, tmp_path, twin=True)
    assert main(["--db", db_url, "import", str(nfd)]) == 0  # the NFD one is found again
    assert "0 new, 1 already present" in capsys.readouterr().out
    run = "2026-10-14-ministral-8b"
    assert main(["--db", db_url, "--reviewer", "zoe", "decide", f"{run}/{NFD}/1/1",
                 "--reject"]) == 0
    assert main(["--db", db_url, "--reviewer", "zoe", "decide", f"{run}/{NFC}/1/1",
                 "--accept"]) == 0
    assert decided(store) == sorted([(NFD, "reject"), (NFC, "accept")])
