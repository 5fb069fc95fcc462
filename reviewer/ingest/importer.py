"""Importing a run file: one file is one transaction, re-importing adds nothing.

Records are validated and written in chunks inside a single transaction, so a bad line
anywhere leaves the database exactly as it was (or, with ``--skip-bad``, goes to a rejects
file with its reason while the good lines go in).

Two imports of the same new run at once both look for the run, find none, and both add
it: the one that commits second is refused by the unique index (fifth hostile pass, P45:
``database error: UNIQUE constraint failed: runs.name``). Its transaction is rolled back
whole, so the import simply starts again from the first line: it then finds what the
other one stored, and says "0 new, N already present" (or adds what the other did not
have). A file that cannot be read again (a pipe) is one line saying to run it again.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from tqdm import tqdm  # type: ignore[import-untyped]

from models import Attempt, Conversation, Run
from models.base import utcnow
from reviewer.atomic import FileSet
from reviewer.catalog.spec import Catalog, read_catalog
from reviewer.catalog.versions import (
    apply_catalog,
    current_check_versions,
    current_criterion_versions,
)
from reviewer.errors import BadInputError, StoreError
from reviewer.ingest.run_file import AttemptRecord, LineError, count_lines, iter_lines, parse_record
from reviewer.keys import nfc, spellings
from reviewer.outputs import Output, check_output
from reviewer.store import Store, refresh_statistics
from reviewer.store.bulk import insert_rows
from reviewer.store.database import sqlite_path
from reviewer.store.faults import unique_violation
from reviewer.store.search import index_rows

CHUNK = 2000
# Times an import starts again after another import stored the same rows first.
RETRIES = 3
# The Core tables of the bulk inserts (``Model.__table__`` is not typed as a Table).
TABLES = Attempt.metadata.tables
LARGE_FILE_BYTES = 4 << 20


@dataclass
class ImportReport:
    """What an import did."""

    new: int = 0
    present: int = 0
    rejected: int = 0
    catalog_versions: int = 0
    # The catalog's ECMAScript patterns went in unchecked, and why ("" when they did not).
    unchecked: str = ""
    runs: set[str] = field(default_factory=set)
    new_attempt_ids: list[int] = field(default_factory=list)

    def summary(self) -> str:
        """The line the CLI prints."""
        text = f"{self.new} new, {self.present} already present"
        if self.rejected:
            text += f", {self.rejected} rejected"
        return text


@dataclass
class _Writer:
    """Caches of ids already resolved in this transaction."""

    session: Session
    criteria: dict[str, int]
    checks: dict[str, int]
    runs: dict[str, int] = field(default_factory=dict)
    conversations: dict[tuple[int, str], int] = field(default_factory=dict)
    # The fingerprints stored under each key (several where an earlier version stored
    # an id in NFC and in NFD: see ``run_id``).
    known: dict[int, dict[tuple[str, int, int], set[str]]] = field(default_factory=dict)

    def run_id(self, name: str, source: str) -> int:
        """The run's id, made when missing. Ids arrive in NFC (``run_file``), but an
        earlier version stored them as given: a run or a conversation stored in NFD is
        the one meant (sorted so that one stored in NFC wins), never a twin beside it."""
        if name not in self.runs:
            stored: dict[str, int] = {run: ident for run, ident in self.session.execute(
                select(Run.name, Run.id).where(Run.name.in_(spellings(name))))}
            found = stored.get(name, min(stored.values(), default=None))
            if found is None:
                run = Run(name=name, source=source)
                self.session.add(run)
                self.session.flush()
                found = run.id
            self.runs[name] = found
            self.known[found] = self._stored_keys(found)
            rows = [(ident, conv) for ident, conv in self.session.execute(
                select(Conversation.id, Conversation.name)
                .where(Conversation.run_id == found))]
            for conv_id, conv in sorted(rows, key=lambda row: (row[1] == nfc(row[1]),
                                                                -row[0])):
                self.conversations[found, nfc(conv)] = conv_id
        return self.runs[name]

    def _stored_keys(self, run_id: int) -> dict[tuple[str, int, int], set[str]]:
        rows = self.session.execute(
            select(Conversation.name, Attempt.turn, Attempt.attempt, Attempt.fingerprint)
            .join(Attempt.conversation)
            .where(Attempt.run_id == run_id)
        )
        known: dict[tuple[str, int, int], set[str]] = {}
        for c, t, a, fp in rows:
            known.setdefault((nfc(c), t, a), set()).add(fp)
        return known

    def conversation_ids(self, wanted: list[tuple[int, str, int | None]]) -> list[int]:
        """Ids of ``(run_id, name, turns_planned)``, creating the missing ones in one insert."""
        missing: dict[tuple[int, str], int | None] = {}
        for run_id, name, planned in wanted:
            if (run_id, name) not in self.conversations:
                missing.setdefault((run_id, name), planned)
        if missing:
            # Core with RETURNING: one statement per chunk instead of an ORM flush per
            # conversation (the flushes were a third of the import time at 100k attempts).
            table = TABLES["conversations"]
            stmt = insert(table).returning(table.c.id, sort_by_parameter_order=True)
            rows = [{"run_id": r, "name": n, "turns_planned": t}
                    for (r, n), t in missing.items()]
            ids = self.session.connection().execute(stmt, rows).scalars().all()
            self.conversations.update(zip(missing, ids, strict=True))
        return [self.conversations[r, n] for r, n, _ in wanted]

    def write(
        self, records: list[AttemptRecord], conv_ids: list[int], run_ids: list[int]
    ) -> list[int]:
        rows = [
            {
                "run_id": run_id,
                "conversation_id": conv_id,
                "turn": r.key.turn,
                "attempt": r.key.attempt,
                "messages": r.messages,
                "response": r.response,
                "reference": r.reference,
                "accepted": r.accepted,
                "reasons": r.reasons,
                "judge_model": r.judge_model,
                "fingerprint": r.fingerprint,
                "contradiction_score": 0.0,
            }
            for r, conv_id, run_id in zip(records, conv_ids, run_ids, strict=True)
        ]
        # Core statements on the session's connection (same transaction): the ORM bulk path
        # spent more time collecting parameters per row than SQLite spent inserting them.
        conn = self.session.connection()
        attempts = TABLES["attempts"]
        ids = list(conn.execute(
            insert(attempts).returning(attempts.c.id, sort_by_parameter_order=True), rows
        ).scalars())
        now = utcnow()  # one timestamp per chunk instead of a Python default call per row
        verdicts: list[dict[str, Any]] = []
        results: list[dict[str, Any]] = []
        search: list[tuple[int, str]] = []
        for attempt_id, r in zip(ids, records, strict=True):
            for pos, v in enumerate(r.verdicts):
                verdicts.append(
                    {
                        "attempt_id": attempt_id,
                        "criterion_version_id": self.criteria[v.criterion],
                        "origin": "filter",
                        "position": pos,
                        "met": v.met,
                        "rationale": v.rationale,
                        "model": r.judge_model,
                        "created_at": now,
                    }
                )
            for pos, c in enumerate(r.checks):
                results.append(
                    {
                        "attempt_id": attempt_id,
                        "check_version_id": self.checks[c.check],
                        "position": pos,
                        "passed": c.passed,
                    }
                )
            search.append((attempt_id, "\n".join([r.response, *(v.rationale for v in r.verdicts)])))
        insert_rows(conn, TABLES["verdicts"], verdicts)
        insert_rows(conn, TABLES["check_results"], results)
        index_rows(self.session, search)
        return ids


def import_run(
    store: Store,
    path: Path,
    *,
    catalog_path: Path | None = None,
    rejects_path: Path | Output | None = None,
    progress: bool | None = None,
    on_imported: Callable[[Session, list[int]], None] | None = None,
) -> ImportReport:
    """Import ``path`` (and optionally a catalog first) in one transaction.

    Without ``rejects_path`` the first bad line raises BadInputError("FILE:LINE: …") and
    nothing is written. ``rejects_path`` is checked first (``reviewer.outputs``): never
    the store's file, the run file or the catalog. ``on_imported`` runs inside the same
    transaction with the new attempt ids (used to flag contradictions as the data arrives).
    """
    rejects_out = rejects_path if isinstance(rejects_path, Output) or rejects_path is None \
        else check_output(rejects_path, database=sqlite_path(store.url),
                          inputs=[path, *([catalog_path] if catalog_path else [])])
    catalog = read_catalog(catalog_path) if catalog_path else None
    try:
        fh = path.open("rb")
    except OSError as exc:
        raise BadInputError(f"{path}: cannot read ({exc.strerror})") from None
    show = progress if progress is not None else path.stat().st_size >= LARGE_FILE_BYTES
    with fh:
        for attempt in range(RETRIES + 1):
            try:
                return _import_once(store, fh, path, catalog, rejects_out, show, on_imported)
            except IntegrityError as exc:
                # Another import committed the same run, conversation or attempt after
                # this one looked for it; nothing of this one was kept (P45).
                if not unique_violation(exc):
                    raise
                if attempt == RETRIES or not _rewound(fh):
                    raise StoreError(
                        f"{path}: another import was storing the same records at the same "
                        "time; nothing was imported from this file: run the import again"
                    ) from exc
    raise AssertionError("unreachable")  # the loop returns or raises


def _rewound(fh: BinaryIO) -> bool:
    """Back at the start of ``fh``, if it can be read again (not a pipe)."""
    try:
        fh.seek(0)
    except (OSError, ValueError):
        return False
    return True


def _import_once(
    store: Store,
    fh: BinaryIO,
    path: Path,
    catalog: Catalog | None,
    rejects_out: Output | None,
    show: bool,
    on_imported: Callable[[Session, list[int]], None] | None,
) -> ImportReport:
    """One try of :func:`import_run`: one transaction, from the first line of ``fh``."""
    report = ImportReport()
    # The rejects file is opened before the import (a folder that cannot take it stops
    # here), written and fsynced inside the transaction (a disk that fills up rolls the
    # import back: all or nothing), and takes its place once the import is committed.
    with FileSet(checksum=False) as files, store.session() as session:
        rejects = files.open(rejects_out) if rejects_out is not None else None
        if catalog is not None:
            report.catalog_versions = apply_catalog(session, catalog)
            report.unchecked = catalog.unchecked
        writer = _Writer(
            session,
            {k: v.id for k, v in current_criterion_versions(session).items()},
            {k: v.id for k, v in current_check_versions(session).items()},
        )
        # Closed however the loop ends: a Ctrl-C's one line then starts on a line of its
        # own, not glued to the bar's last state (the third hostile pass).
        with tqdm(total=count_lines(path) if show else None, disable=not show,
                  file=sys.stderr, unit=" lines", desc=path.name) as bar:
            batch: list[AttemptRecord] = []
            for number, raw in iter_lines(fh, path):
                bar.update(1)
                try:
                    record = parse_record(raw, number, set(writer.criteria),
                                          set(writer.checks))
                    _admit(writer, record, str(path), batch, report)
                except LineError as err:
                    if rejects is None:
                        raise BadInputError(f"{path}:{err.line}: {err.message}") from None
                    rejects.write(_reject_line(raw, err))
                    report.rejected += 1
                if len(batch) >= CHUNK:
                    _flush(writer, batch, report)
            _flush(writer, batch, report)
        if on_imported is not None and report.new_attempt_ids:
            on_imported(session, report.new_attempt_ids)
        if report.new:
            refresh_statistics(session)
        files.prepare()
    return report


def _admit(
    writer: _Writer, record: AttemptRecord, source: str, batch: list[AttemptRecord],
    report: ImportReport,
) -> None:
    run_id = writer.run_id(record.key.run, source)
    known = writer.known[run_id]
    key = (record.key.conversation, record.key.turn, record.key.attempt)
    stored = known.get(key)
    if stored is not None:
        if record.fingerprint not in stored:
            twins = ("" if str(record.key).isascii() else
                     " (ids are compared in Unicode NFC: the same id spelt with other code "
                     "points, NFC or NFD, is the same attempt)")
            raise LineError(record.line,
                            f"{record.key} is already stored with different content{twins}")
        report.present += 1
        return
    known[key] = {record.fingerprint}
    report.runs.add(record.key.run)
    batch.append(record)


def _flush(writer: _Writer, batch: list[AttemptRecord], report: ImportReport) -> None:
    if not batch:
        return
    run_ids = [writer.runs[r.key.run] for r in batch]
    conv_ids = writer.conversation_ids([
        (run_id, r.key.conversation, r.turns_planned)
        for run_id, r in zip(run_ids, batch, strict=True)
    ])
    ids = writer.write(batch, conv_ids, run_ids)
    report.new += len(ids)
    report.new_attempt_ids.extend(ids)
    batch.clear()


def _reject_line(raw: bytes, err: LineError) -> bytes:
    """One line of the rejects file: the line number, the reason and the text."""
    entry = {"line": err.line, "reason": err.message, "text": raw.decode("utf-8", "replace")}
    return (json.dumps(entry, ensure_ascii=False) + "\n").encode("utf-8")
