"""Loading the bundled demo run (a realistic filter run of "Journal des Nuisances")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import func, select

from models import Run
from reviewer.assets import demo_catalog, demo_run
from reviewer.store import Store

if TYPE_CHECKING:
    from reviewer.ingest.importer import ImportReport


def load_demo(store: Store) -> ImportReport:
    """Import the demo catalog and run (a no-op when already imported)."""
    # Imported here, not at the top: the app calls ensure_demo at every start, and the
    # importer and the flagging pass (with the contradiction detector) cost about 90 ms
    # of a start-up that must paint in under a second; only an empty store needs them.
    from reviewer.contradiction.flagging import flag_imported
    from reviewer.ingest.importer import import_run

    # Flagged as it arrives, so the review queue opens sorted on contradictions.
    return import_run(store, demo_run(), catalog_path=demo_catalog(), on_imported=flag_imported)


def ensure_demo(store: Store) -> ImportReport | None:
    """Load the demo only into an empty store (first start of the app)."""
    with store.session() as session:
        if session.scalar(select(func.count()).select_from(Run)):
            return None
    return load_demo(store)
