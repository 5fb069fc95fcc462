"""The store: one database (SQLite file or PostgreSQL) holding runs, verdicts and decisions.

``open_store`` opens (and migrates) it; ``Store.session()`` is one unit of work. Search over
the stored text is ``reviewer.store.search``.
"""

from reviewer.store.database import Store, default_url, open_store, refresh_statistics

__all__ = ["Store", "default_url", "open_store", "refresh_statistics"]
