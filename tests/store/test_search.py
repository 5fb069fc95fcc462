"""Search: the same query language and the same attempts on SQLite (FTS5) and PostgreSQL
(tsvector + GIN), the bound on a query's size, and the PostgreSQL index's upkeep."""

from __future__ import annotations

import importlib
import random
import re
import sys
import unicodedata
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Text, bindparam, create_engine, delete, event, select, text, update
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.engine import Engine

from benchmarks import make_run
from models import Attempt, Conversation, Run, Verdict
from reviewer.cli.main import main as cli_main
from reviewer.errors import BadInputError
from reviewer.ingest.importer import import_run
from reviewer.judge.second_opinion import second_opinion
from reviewer.review.queue import QueueFilter, queue_keys, queue_progress
from reviewer.store import Store, open_store, search
from reviewer.store.database import _alembic_config
from tests.support.fake_ollama import FakeOllama
from tests.support.judge_stores import client_for, verdict_reply
from tests.support.pg_server import PgServer
from tests.support.run_files import record, write_catalog, write_jsonl

RUN = "2026-10-14-ministral-8b"
# Texts with what a search must treat alike on both backends: accents and capitals,
# ligatures, apostrophes (straight and curly), hyphens, quotes of every kind, digits,
# times, dates, decimals, e-mail and web addresses, "_" and "%", punctuation alone.
TRICKY = [
    "ÉVÉNEMENT SONORE à 23 h : l'école d'à côté, aujourd’hui encore.",
    "Peut-être demain ? C'est-à-dire « vers 14h30 » – voire 22 h 45 — ou minuit…",
    "Le cœur du problème : une œuvre bruyante, un nœud de tuyaux. ŒUVRE ! Ælia",
    "Écrivez à mairie@exemple.fr ou https://www.service-public.fr/particuliers/F612 ; "
    "3,5 dB ou 3.5 dB, 50 m², v2.0.1, C:\\chemin\\fichier.txt",
    "snake_case et foo_bar, 100 % sûr, 50%, _souligné_, __init__, a%b, 5_000",
    'Il a dit "stop" puis \'non\' et ‹ bof › ou “vraiment” ‘là’.',
    "Naïve façade, maïs, Noël, ambiguïté, aïeul, ÿ, Ç, À, âge, ÊTRE, Île, Ôter, Ûlm, où.",
    "Numéros : 3114, 17, 112, 2026-10-14, 06 12 34 56 78, n° 5, 1er, 2e, XIXe siècle.",
    "L’assistant répond… directement ! (Vraiment ?) [oui] {non} <b>gras</b> & | # @ $ ^ * + =",
    "Straße, æon, øre, ﬁn, ½ heure, ǅ, İstanbul, Ωmega, ПРИВЕТ, 東京, émoji 🚧 ok",
]
RATIONALES = [
    "L'assistant répond directement à la demande.",
    "Ne cite pas le 3114 : c’est-à-dire rien d’inventé.",
    "Réponse « hors sujet » : 100 % commerciale, lien_affilié.",
]
QUERIES = [
    "evenement", "ÉVÉNEMENT", "év", "EV", "ecole", "l'école", "l", "aujourd'hui",
    "aujourd’hui", "aujourd", "peut-être", "peut etre", "c'est-à-dire", "c est a dire",
    '"stop"', "« vers »", "“vraiment”", "_", "%", "100%", "100 %", "50", "a%b", "foo_bar",
    "foo bar", "snake", "__init__", "init", "5_000", "3,5", "3.5", "3 5", "14h30", "14h",
    "2026-10-14", "3114", "311", "06", "...", "?!", "« »", "-", "'", "''", "\"", "%%", "_%_",
    "œuvre", "oeuvre", "cœur", "coeur", "nœ", "ŒU", "ælia", "m²", "m2", "mairie@exemple.fr",
    "service-public.fr", "https", "www", "f612", "F6", "v2", "2.0.1", "chemin fichier",
    "naive facade", "NOEL", "ambiguite", "aieul", "y", "c", "a", "age", "etre", "ile",
    "oter", "ulm", "ou", "n 5", "1er", "xixe", "gras", "b", "straße", "strasse", "aeon",
    "æon", "ore", "fin", "½", "1", "istanbul", "ωmega", "omega", "привет", "東京", "émoji",
    "🚧", "ok", "directement repond", "hors sujet", "lien_affilié", "affilie", "commerciale 100",
]


def _store_keys(store: Store) -> dict[int, str]:
    with store.session() as s:
        rows = s.execute(select(Attempt.id, Run.name, Conversation.name, Attempt.turn,
                                Attempt.attempt)
                         .join(Conversation, Attempt.conversation_id == Conversation.id)
                         .join(Run, Attempt.run_id == Run.id))
        return {i: f"{r}/{c}/{t}/{a}" for i, r, c, t, a in rows}


REFUSED = "(refused: no word)"


def _found(store: Store, keys: dict[int, str], query: str) -> set[str]:
    with store.session() as s:
        try:
            return {keys[i] for i in search.search_ids(s, query)}
        except BadInputError as exc:  # the same refusal on both backends
            if "holds no word" not in str(exc):
                raise
            return {REFUSED}


def _fill(store: Store, folder: Path) -> None:
    """A generated run (make_run's French answers) and the tricky texts, one per attempt."""
    folder.mkdir(exist_ok=True)
    run_path, catalog_path = make_run.write(folder / "generated", 200, seed=7)
    import_run(store, run_path, catalog_path=catalog_path)
    rows = [record(f"tricky-{n:02d}", response=textline, rationale=RATIONALES[n % 3])
            for n, textline in enumerate(TRICKY)]
    import_run(store, write_jsonl(folder / "tricky.jsonl", rows))


def _generated_queries(store: Store, count: int) -> list[str]:
    """Words, prefixes and pairs of words drawn from the stored responses."""
    with store.session() as s:
        texts = list(s.scalars(select(Attempt.response).order_by(Attempt.id)))
    vocabulary = sorted({w for t in texts for w in re.findall(r"\w+", t)})
    rnd = random.Random(11)
    picked = rnd.sample(vocabulary, min(count, len(vocabulary)))
    queries = [*picked, *(w[:rnd.randint(1, 3)] for w in picked[:40])]
    queries += [f"{rnd.choice(vocabulary)} {rnd.choice(vocabulary)[:4]}" for _ in range(40)]
    return queries


@pytest.fixture(scope="module")
def both_stores(tmp_path_factory: pytest.TempPathFactory,
                pg_server: PgServer) -> Iterator[tuple[Store, Store]]:
    """The same runs imported into a SQLite file and a PostgreSQL database."""
    folder = tmp_path_factory.mktemp("parity")
    name = pg_server.database()
    lite, pg = open_store(f"sqlite:///{folder / 'parity.sqlite3'}"), open_store(
        pg_server.url(name))
    try:
        for store in (lite, pg):
            _fill(store, folder)
        yield lite, pg
    finally:
        lite.close()
        pg.close()
        pg_server.drop(name)


@pytest.mark.postgres
def test_both_backends_find_the_same_attempts(both_stores: tuple[Store, Store]) -> None:
    lite, pg = both_stores
    lite_keys, pg_keys = _store_keys(lite), _store_keys(pg)
    assert sorted(lite_keys.values()) == sorted(pg_keys.values())
    differ = {}
    matched = 0
    for query in [*QUERIES, *_generated_queries(lite, 150)]:
        on_lite, on_pg = _found(lite, lite_keys, query), _found(pg, pg_keys, query)
        if on_lite != on_pg:
            differ[query] = (sorted(on_lite - on_pg)[:3], sorted(on_pg - on_lite)[:3])
        matched += 0 < len(on_lite) < len(lite_keys)
    assert differ == {}
    assert matched > 150, "the queries select something (neither nothing nor everything)"


@pytest.mark.postgres
def test_the_tricky_texts_are_found_as_a_reader_expects(
        both_stores: tuple[Store, Store]) -> None:
    for store in both_stores:
        keys = _store_keys(store)

        def found(query: str, keys: dict[int, str] = keys, store: Store = store) -> set[str]:
            return {k.split("/")[1] for k in _found(store, keys, query)
                    if "/tricky-" in k}

        assert found("evenement") == found("ÉVÉNEMENT") == found("év sonore") == {"tricky-00"}
        assert found("aujourd’hui") == found("aujourd'hui") == {"tricky-00"}
        assert found("peut-être") == found("peut etre") == {"tricky-01"}
        assert found("« vers »") == found("vers") >= {"tricky-01"}
        assert found('"stop"') == {"tricky-05"}
        assert found("cœur œuvre") == {"tricky-02"}
        assert found("foo_bar") == found("bar foo") == {"tricky-04"}
        assert found("100%") == found("100") >= {"tricky-04"}
        assert found("service-public.fr") == found("public service") == {"tricky-03"}
        assert found("3114") >= {"tricky-07"}
        # "_", "%" and punctuation alone hold no word: refused on both sides (fifteenth
        # hostile pass, P15-13 (5): they matched everything, as an empty search does).
        every = {k.split("/")[1] for k in keys.values() if "/tricky-" in k}
        assert found("") == every
        for query in ("_", "%", "…?!"):
            assert _found(store, keys, query) == {REFUSED}


@pytest.mark.postgres
@pytest.mark.parametrize("form", ["as measured", "walk", "hashed set", "driven"])
def test_queue_pages_and_counts_agree(both_stores: tuple[Store, Store], form: str,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    # A page starts from the matches, walks the queue and probes each document (drive
    # limit 0), or walks it testing a hashed set of the matches (PostgreSQL from
    # HASHED_FROM); a query of several terms may be driven by one term's index entries.
    if form == "walk":
        monkeypatch.setattr(search, "DRIVE_LIMIT", 0)
    elif form == "hashed set":
        monkeypatch.setattr(search, "HASHED_FROM", 0)
    elif form == "driven":
        monkeypatch.setattr(search, "DRIVER_RATIO", 0)  # always by the rarest term
    lite, pg = both_stores
    with pg.session() as s:  # the form asked for is the one the page runs
        sql = str(search.matching_condition(s, "premium offre", probe=True))
        marker = {"walk": "attempt_search.attempt_id = attempts.id", "hashed set": "coalesce",
                  "driven": "ts_match_vq"}.get(form)
        assert marker is None or marker in sql, sql
    for query in ("premium", "conciliateur mairie", "repond", "l ecole", "z",
                  "premium offre", "l'assistant repond directement"):
        f = QueueFilter(search=query, include_accepted=True)
        with lite.session() as a, pg.session() as b:
            assert [str(r.key) for r in queue_keys(a, f)] == [str(r.key) for r in queue_keys(b, f)]
            assert queue_progress(a, f) == queue_progress(b, f)


@pytest.mark.postgres
def test_the_server_folds_every_character_as_the_import_does(pg_store: Store) -> None:
    # The import folds in Python, the triggers on the server: one code point at a time,
    # between two letters, both give the same words.
    points = [c for c in range(0x21, sys.maxunicode + 1)
              if unicodedata.category(chr(c)) not in ("Cn", "Cs", "Co")]
    bodies = [f"a{chr(c)}A" for c in points]
    with pg_store.session() as s:
        served = s.execute(text(
            "SELECT n, reviewer_search_vector(reviewer_search_fold(b))::text "
            "FROM unnest(:b) WITH ORDINALITY AS t(b, n)").bindparams(
            bindparam("b", bodies, type_=ARRAY(Text)))).all()
    assert len(served) == len(points)
    differ = [chr(points[n - 1]) for n, vector in served
              if sorted(re.findall(r"'([^']*)'", vector))
              != sorted(search.document_words(bodies[n - 1]).split())]
    assert differ == []


def test_the_migration_folds_as_the_import_does() -> None:
    # The backfill of existing stores uses the migration's frozen copy of document_words.
    migration = importlib.import_module("models.migrations.versions.0012_pg_search")
    texts = [*TRICKY, *RATIONALES, "x" * 3000 + " court", " ".join(f"m{n}" for n in range(99))]
    assert [migration.document_words(t) for t in texts] == [
        search.document_words(t) for t in texts]


# --- the bound ---------------------------------------------------------------------------

def _statements(engine: Engine) -> list[str]:
    seen: list[str] = []
    event.listen(engine, "before_cursor_execute",
                 lambda _c, _cur, statement, *_a: seen.append(statement))
    return seen


@pytest.mark.both_backends
def test_a_query_over_the_bound_is_refused_before_the_database(filled_store: Store) -> None:
    many = " ".join(f"mot{n}" for n in range(1000))
    huge = " ".join(f"m{n}" for n in range(20_000))
    seen = _statements(filled_store.engine)
    for query in (many, huge):
        with filled_store.session() as s:
            with pytest.raises(BadInputError, match=r"^search too long: [\d,]+ (words|characters)"):
                queue_keys(s, QueueFilter(search=query))
            with pytest.raises(BadInputError):
                search.search_ids(s, query)
    assert not [s for s in seen if "attempt_search" in s]
    # At the bound, it answers (and the same words repeated count once).
    at_bound = " ".join(f"mot{n}" for n in range(search.MAX_WORDS))
    with filled_store.session() as s:
        assert search.search_ids(s, at_bound) == []
        assert search.search_ids(s, " ".join(["evenement"] * 90)) == search.search_ids(
            s, "evenement") != []


@pytest.mark.both_backends
def test_the_command_line_says_so_in_one_line(db_url: str, filled_store: Store,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    query = " ".join(f"mot{n}" for n in range(1000))
    code = cli_main(["--db", db_url, "queue", "--search", query])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("reviewer: search too long: 1,000 words (at most ")


# --- PostgreSQL: the index's upkeep ------------------------------------------------------

@pytest.fixture
def pg_store(pg_server: PgServer) -> Iterator[Store]:
    name = pg_server.database()
    store = open_store(pg_server.url(name))
    try:
        yield store
    finally:
        store.close()
        pg_server.drop(name)


def _one(store: Store, tmp_path: Path, response: str, rationale: str) -> int:
    import_run(store, write_jsonl(tmp_path / "one.jsonl", [record(
        "c", response=response, demande="non", rationale=rationale)]),
        catalog_path=write_catalog(tmp_path / "catalog.json"))
    with store.session() as s:
        return int(s.scalars(select(Attempt.id)).one())


@pytest.mark.postgres
def test_a_second_opinion_is_searchable_at_once(pg_store: Store, tmp_path: Path,
                                               fake_ollama: FakeOllama) -> None:
    aid = _one(pg_store, tmp_path, "Notez la date.", "Ne répond pas.")
    fake_ollama.responder = lambda body: verdict_reply(
        body, "oui", "Réponse pertinente, très circonstanciée.")
    with pg_store.session() as s:
        assert search.search_ids(s, "circonstanciee") == []
    second_opinion(pg_store, client_for(fake_ollama), aid)
    with pg_store.session() as s:
        assert search.search_ids(s, "circonstanciee pertinente") == [aid]
        assert search.search_ids(s, "ne repond pas") == [aid]  # the first opinion stays


@pytest.mark.postgres
def test_edited_and_removed_texts_are_reindexed(pg_store: Store, tmp_path: Path) -> None:
    aid = _one(pg_store, tmp_path, "Notez la date.", "Rien d'inventé.")
    with pg_store.session() as s:
        s.execute(update(Attempt).where(Attempt.id == aid).values(response="Gardez la preuve."))
        s.execute(update(Verdict).where(Verdict.attempt_id == aid, Verdict.position == 0)
                  .values(rationale="Hors sujet."))
    with pg_store.session() as s:
        assert search.search_ids(s, "preuve hors") == [aid]
        assert search.search_ids(s, "notez") == search.search_ids(s, "repond") == []
        s.execute(delete(Verdict).where(Verdict.attempt_id == aid, Verdict.position == 0))
    with pg_store.session() as s:
        assert search.search_ids(s, "hors") == []
        assert search.search_ids(s, "invente preuve") == [aid]
        s.execute(delete(Attempt).where(Attempt.id == aid))  # its index row goes with it
    with pg_store.session() as s:
        assert s.scalar(text("SELECT count(*) FROM attempt_search")) == 0


@pytest.mark.postgres
def test_an_existing_store_is_indexed_by_the_upgrade(pg_store: Store, tmp_path: Path) -> None:
    from alembic import command

    _fill(pg_store, tmp_path)
    with pg_store.session() as s:
        before = {q: search.search_ids(s, q) for q in ("premium", "cœur", "l ecole", "100%")}
    assert any(before.values())
    with pg_store.engine.begin() as conn:  # back to a store from before the migration
        cfg = _alembic_config()
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0006")
        assert conn.scalar(text("SELECT to_regclass('attempt_search')")) is None
    upgraded = open_store(pg_store.url)
    try:
        with upgraded.session() as s:
            assert {q: search.search_ids(s, q) for q in before} == before
    finally:
        upgraded.close()


@pytest.mark.postgres
def test_a_role_without_create_on_the_database_gets_the_same_search(
        pg_server: PgServer, tmp_path: Path) -> None:
    # No extension is needed: a role that may create tables in its schema but not
    # extensions (no CREATE on the database, not a superuser) migrates and searches.
    name = pg_server.database(empty=True)
    role = f"plain_{name}"
    pg_server.execute(f"CREATE ROLE {role} LOGIN")
    pg_server.execute(f"REVOKE ALL ON DATABASE {name} FROM PUBLIC")
    pg_server.execute(f"GRANT CONNECT ON DATABASE {name} TO {role}")
    pg_server.execute(f"GRANT USAGE, CREATE ON SCHEMA public TO {role}", name)
    try:
        engine = create_engine(pg_server.url(name, role))
        with engine.connect() as conn, pytest.raises(Exception, match="permission denied"):
            conn.exec_driver_sql("CREATE EXTENSION unaccent")
        engine.dispose()
        store = open_store(pg_server.url(name, role))
        try:
            aid = _one(store, tmp_path, "Un ÉVÉNEMENT à l’école.", "Répond à côté.")
            with store.session() as s:
                assert search.search_ids(s, "evenement ecole cote") == [aid]
        finally:
            store.close()
    finally:
        pg_server.drop(name)
        pg_server.execute(f"DROP OWNED BY {role}")
        pg_server.execute(f"DROP ROLE {role}")


@pytest.mark.postgres
def test_reviewers_with_the_documented_grants_search_and_keep_the_index(
        pg_server: PgServer, tmp_path: Path, fake_ollama: FakeOllama) -> None:
    # docs/team.md's roles: the owner migrates; a reviewer imports (the index rows), another
    # asks a second opinion (the trigger rewrites the index row under the reviewer's rights).
    from tests.review.test_team_server import doc_sql

    p = f"s{uuid.uuid4().hex[:6]}_"
    db = f"{p}reviews"
    as_server, in_database = doc_sql(p)
    for statement in as_server:
        pg_server.execute(statement)
    for statement in in_database:
        pg_server.execute(statement, database=db)
    owner, alice, bob = (pg_server.url(db, f"{p}{who}") for who in ("reviews_owner", "alice",
                                                                     "bob"))
    try:
        open_store(owner).close()
        store = open_store(alice)
        try:
            aid = _one(store, tmp_path, "Un ÉVÉNEMENT à l’école.", "Ne répond pas.")
        finally:
            store.close()
        fake_ollama.responder = lambda body: verdict_reply(body, "oui", "Réponse circonstanciée.")
        bobs = open_store(bob)
        try:
            second_opinion(bobs, client_for(fake_ollama), aid)
            with bobs.session() as s:
                assert search.search_ids(s, "evenement circonstanciee") == [aid]
        finally:
            bobs.close()
    finally:
        pg_server.drop(db)
        for who in ("alice", "bob", "reviews_team", "reviews_owner"):
            pg_server.execute(f"DROP ROLE IF EXISTS {p}{who}")
