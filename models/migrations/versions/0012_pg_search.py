"""PostgreSQL full-text search: attempt_search (tsvector, GIN) kept by the import and triggers

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import re
import sys
import unicodedata

from alembic import op
from sqlalchemy.engine import Connection

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

# SQLite keeps its FTS5 table (migration 0001): nothing to do there.
#
# On PostgreSQL the search used to be a LIKE over every response and rationale (a
# 1,000-word query took 29 s, 20,000 words overflowed the 65,535 parameters). It becomes
# what SQLite has: one row per attempt in ``attempt_search`` holding the words of its
# response and rationales as a tsvector, under a GIN index, matched with a tsquery of
# prefixes (``reviewer.store.search``).
#
# The words are folded the way SQLite's ``unicode61 remove_diacritics 2`` tokenizer folds
# them, so that both backends find the same attempts: decomposed (NFD), lower-cased,
# combining marks removed, cut at every character that is not a letter or a digit.
# Measured over every assigned code point against FTS5 itself, this differs on 17
# Latin-range characters (micro sign, long s, a few letters with a macron on a ligature,
# the bidi isolates); the ``unaccent`` extension differs on 129 of them, among which æ, ø,
# ß, ð and đ (it makes "aeon" of "æon", FTS5 keeps "æon"), and needs the right to create
# an extension. This needs no extension: any role that may create tables migrates.
#
# The import folds in Python (``reviewer.store.search.document_words``: a tenth of the
# server's cost, which was 3.8 ms per attempt with regular expressions) and sends the
# words; this migration's backfill does the same with a frozen copy. The triggers, for
# the few texts written later (a second opinion's rationale), fold on the server with
# ``reviewer_search_fold``: the same result for every code point when the server has ICU
# (pg_collation "und-x-icu": under the C locale, the tests' server and many containers,
# PostgreSQL alone only knows ASCII letters), tested character by character. Without ICU
# the database's locale decides: after NFD the French accented letters are ASCII plus
# marks, so French text still folds right. Without UTF-8 (normalize() needs it) a
# translate() of the common accented letters stands in, as the LIKE search did.
MARK_RANGES = "\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f"
MARKS = re.compile(f"[{MARK_RANGES}]+")
WORD = re.compile(r"[^\W_]+")
ACCENTED = "àâäáãåéèêëíìîïóòôöõúùûüçñÿœæ" "ÀÂÄÁÃÅÉÈÊËÍÌÎÏÓÒÔÖÕÚÙÛÜÇÑŸŒÆ"
PLAIN = "aaaaaaeeeeiiiiooooouuuucnyoa" "AAAAAAEEEEIIIIOOOOOUUUUCNYOA"
# A tsvector word is at most 2 kB (PostgreSQL skips longer ones), the whole at most 1 MB.
MAX_WORD_BYTES = 2047
MAX_DOCUMENT_BYTES = 1 << 19


def document_words(body: str) -> str:
    """The distinct folded words of ``body``, space-separated (frozen copy of
    ``reviewer.store.search.document_words`` as of this revision)."""
    folded = MARKS.sub("", unicodedata.normalize("NFD", body).lower())
    kept: list[str] = []
    size = 0
    for word in dict.fromkeys(WORD.findall(folded)):
        length = len(word.encode("utf-8"))
        if length <= MAX_WORD_BYTES and size + length < MAX_DOCUMENT_BYTES:
            kept.append(word)
            size += length + 1
    return " ".join(kept)


def _numbers() -> str:
    """A regex bracket body of the number characters that are not decimal digits (², ½,
    Ⅻ …): Python's str.isalnum() takes them as word characters, ICU's [:alnum:] does not."""
    points = [c for c in range(sys.maxunicode + 1)
              if unicodedata.category(chr(c)) in ("No", "Nl")]
    ranges: list[list[int]] = []
    for c in points:
        if ranges and ranges[-1][1] == c - 1:
            ranges[-1][1] = c
        else:
            ranges.append([c, c])

    def esc(c: int) -> str:
        return f"\\u{c:04x}" if c <= 0xFFFF else f"\\U{c:08x}"

    return "".join(esc(a) if a == b else f"{esc(a)}-{esc(b)}" for a, b in ranges)


# From a text to its tsvector: the words as they are (no parser, no dictionary), distinct,
# positions-free: a search is a set of prefixes, never a phrase, and the GIN index answers
# a prefix match without reading the row back.
VECTOR_FUNCTION = """
CREATE FUNCTION reviewer_search_vector(words text) RETURNS tsvector
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT array_to_tsvector(ARRAY(
        SELECT DISTINCT word FROM unnest(string_to_array(words, ' ')) AS word
        WHERE word <> '' AND octet_length(word) <= 2047))
$$
"""
# One attempt's searched text: its response and its verdicts' rationales, one per line
# (the body SQLite indexes at import).
ATTEMPT_FUNCTION = """
CREATE FUNCTION reviewer_attempt_document(attempt integer) RETURNS tsvector
LANGUAGE sql STABLE STRICT AS $$
    SELECT reviewer_search_vector(reviewer_search_fold(concat_ws(E'\\n', a.response,
        (SELECT string_agg(v.rationale, E'\\n' ORDER BY v.id)
         FROM verdicts v WHERE v.attempt_id = a.id))))
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
             "reviewer_search_vector(text)", "reviewer_search_fold(text)")
BACKFILL_CHUNK = 2000
QUEUE_INDEX = "ix_attempts_queue_desc"
DECISION_INDEX = "ix_review_decisions_page"
VERDICT_STATISTICS = "st_verdicts_refusing"


def fold_function(conn: Connection) -> str:
    """``reviewer_search_fold(text)``, the best folding this server offers (see above)."""
    utf8 = conn.exec_driver_sql("SHOW server_encoding").scalar() == "UTF8"
    recent = int(conn.exec_driver_sql("SHOW server_version_num").scalar() or 0) >= 130000
    icu = conn.exec_driver_sql(
        "SELECT 1 FROM pg_collation WHERE collname = 'und-x-icu'").scalar() is not None
    collate = ' COLLATE "und-x-icu"' if icu else ""
    if utf8 and recent:
        folded = (f"regexp_replace(lower(normalize(body, NFD){collate}), "
                  f"'[{MARK_RANGES.encode('unicode_escape').decode()}]', '', 'g')")
        word = f"[:alnum:]{_numbers()}"
    else:
        # Only the pairs any single-byte Western encoding holds (LATIN1 has no "œ").
        pairs = [(a, p) for a, p in zip(ACCENTED, PLAIN, strict=True) if ord(a) <= 0xFF]
        accented, plain = ("".join(side) for side in zip(*pairs, strict=True))
        folded = f"lower(translate(body, '{accented}', '{plain}'){collate})"
        word = "[:alnum:]"
    return (
        "CREATE FUNCTION reviewer_search_fold(body text) RETURNS text\n"
        "LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$\n"
        f"    SELECT regexp_replace({folded}, '[^{word}]+', ' ', 'g')\n$$"
    )


def verdict_statistics(conn: Connection) -> str | None:
    """Statistics on the verdicts a criterion filter looks for, or None (PostgreSQL < 12).

    The queue's criterion probe tests ``origin || ''`` (for SQLite's sake: without it
    SQLite prefers an index that lacks ``met``), an expression PostgreSQL estimated at
    0.5 % of the rows, and it took ``criterion_version_id`` and ``met`` as independent:
    287 verdicts expected where 6,092 refuse on G-DEMANDE at 100,000 attempts. Believing
    the matches rare, it started from all of them (350-460 ms) instead of walking the
    queue and stopping at a full page (40-50 ms). The combinations' frequencies (MCV,
    with the expression from PostgreSQL 14) gave every criterion's estimate within a
    quarter of its count.
    """
    version = int(conn.exec_driver_sql("SHOW server_version_num").scalar() or 0)
    if version < 120000:
        return None
    columns = "criterion_version_id, met" + (", ((origin::text || ''))" if version >= 140000
                                             else "")
    return f"CREATE STATISTICS {VERDICT_STATISTICS} (mcv) ON {columns} FROM verdicts"


def backfill(conn: Connection) -> None:
    """Index every attempt already stored, a chunk at a time (folded in Python)."""
    rows = conn.exec_driver_sql(
        "SELECT a.id, concat_ws(E'\\n', a.response, r.body) FROM attempts a "
        "LEFT JOIN (SELECT attempt_id, string_agg(rationale, E'\\n' ORDER BY id) AS body "
        "FROM verdicts GROUP BY attempt_id) r ON r.attempt_id = a.id",
        execution_options={"stream_results": True, "yield_per": BACKFILL_CHUNK})
    # A second connection would not see this transaction's tables: rows are read in
    # full chunks first (the server-side cursor), then written on the same connection.
    for chunk in rows.partitions():
        ids = [int(i) for i, _ in chunk]
        words = [document_words(body) for _, body in chunk]
        conn.exec_driver_sql(
            "INSERT INTO attempt_search (attempt_id, document) "
            "SELECT i, reviewer_search_vector(w) FROM unnest(%(ids)s::integer[], "
            "%(words)s::text[]) AS t(i, w)", {"ids": ids, "words": words})


def upgrade() -> None:
    conn = op.get_bind()
    if conn.dialect.name == "sqlite":
        return
    # Through the driver, not op.execute: the function bodies hold colons that a
    # SQLAlchemy text() would read as bind parameters.
    for statement in (fold_function(conn), VECTOR_FUNCTION, ATTEMPT_FUNCTION):
        conn.exec_driver_sql(statement)
    # A document (about 2 kB for an answer and twelve rationales) stays in its row,
    # uncompressed: a queue page walking the queue probes one attempt's row at a time,
    # and decompressing each (PostgreSQL compresses and moves out of the row anything
    # over 2 kB by default) cost about as much as the rest of the probe. Only a row over
    # a page goes out of line.
    conn.exec_driver_sql(
        "CREATE TABLE attempt_search ("
        " attempt_id integer PRIMARY KEY REFERENCES attempts (id) ON DELETE CASCADE,"
        " document tsvector NOT NULL) WITH (toast_tuple_target = 8160)")
    conn.exec_driver_sql("ALTER TABLE attempt_search ALTER COLUMN document SET STORAGE EXTERNAL")
    backfill(conn)
    # Built after the rows: faster than growing it row by row.
    conn.exec_driver_sql(
        "CREATE INDEX ix_attempt_search_document ON attempt_search USING gin (document)")
    conn.exec_driver_sql(SYNC_FUNCTION)
    for statement in TRIGGERS:
        conn.exec_driver_sql(statement)
    # The queue's order on PostgreSQL: refused first, the highest score first. The shared
    # index (0005) holds the score ascending, and PostgreSQL reads an index in one
    # direction for every column, so it sorted every refused attempt for each page
    # (260 ms at 100,000 attempts) where SQLite walks the index. In this order, with the
    # id and the columns a page joins on, a page walks it from its start and stops at
    # 200 rows; the status-bar counts read it alone.
    conn.exec_driver_sql(
        f"CREATE INDEX {QUEUE_INDEX} ON attempts (accepted, contradiction_score DESC, "
        "conversation_id, turn, attempt) INCLUDE (run_id, flagged, id)")
    # Each page row's decision by the reviewer, read from the index alone: with the
    # unique (attempt, reviewer) index PostgreSQL needs the row too, and for a few hundred
    # decisions it preferred reading the whole table for each of the 200 rows (33 ms of a
    # 120 ms page at 100,000 attempts).
    conn.exec_driver_sql(
        f"CREATE INDEX {DECISION_INDEX} ON review_decisions (attempt_id, reviewer) "
        "INCLUDE (decision)")
    statistics = verdict_statistics(conn)
    if statistics is not None:
        conn.exec_driver_sql(statistics)
    # The planner's figures for what a search and a criterion filter estimate, now
    # rather than at autovacuum's next pass (about a second at 100,000 attempts).
    conn.exec_driver_sql("ANALYZE verdicts, attempt_search")


def downgrade() -> None:
    conn = op.get_bind()
    if conn.dialect.name == "sqlite":
        return
    for name, table in (("tr_verdicts_search_insert", "verdicts"),
                        ("tr_verdicts_search_update", "verdicts"),
                        ("tr_verdicts_search_delete", "verdicts"),
                        ("tr_attempts_search_update", "attempts")):
        conn.exec_driver_sql(f"DROP TRIGGER {name} ON {table}")
    conn.exec_driver_sql(f"DROP STATISTICS IF EXISTS {VERDICT_STATISTICS}")
    conn.exec_driver_sql(f"DROP INDEX {QUEUE_INDEX}")
    conn.exec_driver_sql(f"DROP INDEX {DECISION_INDEX}")
    conn.exec_driver_sql("DROP TABLE attempt_search")
    for signature in FUNCTIONS:
        conn.exec_driver_sql(f"DROP FUNCTION {signature}")
