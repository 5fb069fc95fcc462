"""PostgreSQL full-text search: attempt_search (tsvector, GIN) kept by the import and triggers

Revision ID: 0007
Revises: 0005
"""

from __future__ import annotations

from alembic import op
from sqlalchemy.engine import Connection

revision = "0007"
down_revision = "0005"
branch_labels = None
depends_on = None

# SQLite keeps its FTS5 table (migration 0001): nothing to do there.
#
# On PostgreSQL the search used to be a LIKE over every response and rationale (a
# 1,000-word query took 29 s, 20,000 words overflowed the 65,535 parameters). It becomes
# what SQLite has: one row per attempt in ``attempt_search`` holding the words of its
# response and rationales as a tsvector, under a GIN index, matched with a tsquery of
# prefixes.
#
# The words are folded the way SQLite's ``unicode61 remove_diacritics 2`` tokenizer folds
# them, so that both backends find the same attempts: decomposed (NFD), combining marks
# removed, lower-cased, cut at every character that is not a letter or a digit. Measured
# over every assigned code point against FTS5 itself, this differs on 23 Latin-range
# characters (superscripts, vulgar fractions, long s, a few letters with a macron on a
# ligature); the ``unaccent`` extension differs on 129 of them, among which æ, ø, ß, ð and
# đ (unaccent makes "aeon" of "æon", FTS5 keeps "æon"), and it needs the right to create an
# extension. This needs no extension, so it works for any role that can create tables.
#
# Lower-casing and "is this a letter" follow the ICU root collation when the server has
# ICU (pg_collation "und-x-icu"): under the C locale (the tests' server, many
# containers) PostgreSQL only knows ASCII letters. Without ICU the database's own locale
# decides: after NFD the French accented letters are ASCII plus marks, so French text
# still folds right; other letters (œ, Greek, Cyrillic) are then word breaks under C.
# Without UTF-8 (normalize() needs it) a translate() of the common accented letters
# stands in, as the LIKE search did.
COMBINING = r"[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]"
ACCENTED = "àâäáãåéèêëíìîïóòôöõúùûüçñÿœæ" "ÀÂÄÁÃÅÉÈÊËÍÌÎÏÓÒÔÖÕÚÙÛÜÇÑŸŒÆ"
PLAIN = "aaaaaaeeeeiiiiooooouuuucnyoa" "AAAAAAEEEEIIIIOOOOOUUUUCNYOA"

# The tsquery of a search: every word a prefix, all required (SQLite's fts_query). The
# words come from Python already split and folded; they go through the same folding as
# the documents, so a word and the text it was typed from always fold alike. A word that
# folds to nothing is dropped (and one longer than a tsquery word may be, 2 kB, which no
# document holds either); no word left gives NULL, which matches nothing.
QUERY_FUNCTION = """
CREATE FUNCTION reviewer_search_query(words text[]) RETURNS tsquery
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT string_agg(DISTINCT '''' || token || ''':*', ' & ')::tsquery
    FROM unnest(words) AS word,
         unnest(string_to_array(btrim(reviewer_search_fold(word)), ' ')) AS token
    WHERE token <> '' AND octet_length(token) < 2048
$$
"""
# Positions are stripped: a search is a set of prefixes, never a phrase, and the GIN index
# answers a prefix match without reading the row back. The text is one attempt's response
# and its verdicts' rationales, one per line (the body SQLite indexes at import).
DOCUMENT_FUNCTION = """
CREATE FUNCTION reviewer_search_document(body text) RETURNS tsvector
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT strip(to_tsvector('pg_catalog.simple'::regconfig, reviewer_search_fold(body)))
$$
"""
ATTEMPT_FUNCTION = """
CREATE FUNCTION reviewer_attempt_document(attempt integer) RETURNS tsvector
LANGUAGE sql STABLE STRICT AS $$
    SELECT reviewer_search_document(concat_ws(E'\\n', a.response,
        (SELECT string_agg(v.rationale, E'\\n' ORDER BY v.id)
         FROM verdicts v WHERE v.attempt_id = a.id)))
    FROM attempts a WHERE a.id = attempt
$$
"""
# Who changes the searched text after the import: the judge's second opinion and a
# re-judge add verdicts (origin other than 'filter': the import writes those and indexes
# each chunk itself in one statement, so its 12 verdicts per attempt cost no trigger); an
# edited or removed rationale, an edited response. A row removed with its attempt (a
# cascade) has nothing left to recompute: the attempt's own row goes with it.
SYNC_FUNCTION = """
CREATE FUNCTION attempt_search_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_TABLE_NAME = 'attempts' THEN
        UPDATE attempt_search SET document = reviewer_attempt_document(NEW.id)
        WHERE attempt_id = NEW.id;
        RETURN NULL;
    END IF;
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        UPDATE attempt_search SET document = reviewer_attempt_document(OLD.attempt_id)
        WHERE attempt_id = OLD.attempt_id
          AND EXISTS (SELECT 1 FROM attempts WHERE id = OLD.attempt_id);
    END IF;
    IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.attempt_id <> OLD.attempt_id) THEN
        INSERT INTO attempt_search (attempt_id, document)
        VALUES (NEW.attempt_id, reviewer_attempt_document(NEW.attempt_id))
        ON CONFLICT (attempt_id) DO UPDATE SET document = EXCLUDED.document;
    END IF;
    RETURN NULL;
END $$
"""
TRIGGERS = (
    "CREATE TRIGGER tr_verdicts_search_insert AFTER INSERT ON verdicts FOR EACH ROW "
    "WHEN (NEW.origin <> 'filter') EXECUTE FUNCTION attempt_search_sync()",
    "CREATE TRIGGER tr_verdicts_search_update AFTER UPDATE OF rationale, attempt_id "
    "ON verdicts FOR EACH ROW WHEN (OLD.rationale IS DISTINCT FROM NEW.rationale "
    "OR OLD.attempt_id IS DISTINCT FROM NEW.attempt_id) EXECUTE FUNCTION attempt_search_sync()",
    "CREATE TRIGGER tr_verdicts_search_delete AFTER DELETE ON verdicts FOR EACH ROW "
    "EXECUTE FUNCTION attempt_search_sync()",
    "CREATE TRIGGER tr_attempts_search_update AFTER UPDATE OF response ON attempts "
    "FOR EACH ROW WHEN (OLD.response IS DISTINCT FROM NEW.response) "
    "EXECUTE FUNCTION attempt_search_sync()",
)
FUNCTIONS = ("attempt_search_sync()", "reviewer_attempt_document(integer)",
             "reviewer_search_query(text[])", "reviewer_search_document(text)",
             "reviewer_search_fold(text)")


def fold_function(conn: Connection) -> str:
    """``reviewer_search_fold(text)``, the best folding this server offers (see above)."""
    utf8 = conn.exec_driver_sql("SHOW server_encoding").scalar() == "UTF8"
    recent = int(conn.exec_driver_sql("SHOW server_version_num").scalar() or 0) >= 130000
    icu = conn.exec_driver_sql(
        "SELECT 1 FROM pg_collation WHERE collname = 'und-x-icu'").scalar() is not None
    collate = ' COLLATE "und-x-icu"' if icu else ""
    if utf8 and recent:
        folded = (f"regexp_replace(lower(normalize(body, NFD){collate}), "
                  f"'{COMBINING}', '', 'g')")
    else:
        # Only the pairs any single-byte Western encoding holds (LATIN1 has no "œ").
        pairs = [(a, p) for a, p in zip(ACCENTED, PLAIN, strict=True) if ord(a) <= 0xFF]
        accented, plain = ("".join(side) for side in zip(*pairs, strict=True))
        folded = f"lower(translate(body, '{accented}', '{plain}'){collate})"
    return (
        "CREATE FUNCTION reviewer_search_fold(body text) RETURNS text\n"
        "LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$\n"
        f"    SELECT regexp_replace({folded}, '[^[:alnum:]]+', ' ', 'g')\n$$"
    )


def upgrade() -> None:
    conn = op.get_bind()
    if conn.dialect.name == "sqlite":
        return
    # Through the driver, not op.execute: the function bodies hold colons (':*') that a
    # SQLAlchemy text() would read as bind parameters.
    for statement in (fold_function(conn), QUERY_FUNCTION, DOCUMENT_FUNCTION,
                      ATTEMPT_FUNCTION):
        conn.exec_driver_sql(statement)
    conn.exec_driver_sql(
        "CREATE TABLE attempt_search ("
        " attempt_id integer PRIMARY KEY REFERENCES attempts (id) ON DELETE CASCADE,"
        " document tsvector NOT NULL)")
    # Every stored attempt, in one pass (rationales grouped once, not one subquery each);
    # the index is built after the rows, which is faster than growing it row by row.
    conn.exec_driver_sql(
        "INSERT INTO attempt_search (attempt_id, document) "
        "SELECT a.id, reviewer_search_document(concat_ws(E'\\n', a.response, r.body)) "
        "FROM attempts a LEFT JOIN (SELECT attempt_id, "
        "string_agg(rationale, E'\\n' ORDER BY id) AS body FROM verdicts "
        "GROUP BY attempt_id) r ON r.attempt_id = a.id")
    conn.exec_driver_sql(
        "CREATE INDEX ix_attempt_search_document ON attempt_search USING gin (document)")
    conn.exec_driver_sql(SYNC_FUNCTION)
    for statement in TRIGGERS:
        conn.exec_driver_sql(statement)


def downgrade() -> None:
    conn = op.get_bind()
    if conn.dialect.name == "sqlite":
        return
    for name, table in (("tr_verdicts_search_insert", "verdicts"),
                        ("tr_verdicts_search_update", "verdicts"),
                        ("tr_verdicts_search_delete", "verdicts"),
                        ("tr_attempts_search_update", "attempts")):
        conn.exec_driver_sql(f"DROP TRIGGER {name} ON {table}")
    conn.exec_driver_sql("DROP TABLE attempt_search")
    for signature in FUNCTIONS:
        conn.exec_driver_sql(f"DROP FUNCTION {signature}")
