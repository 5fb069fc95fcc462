"""The store: one database (SQLite file or PostgreSQL) holding runs, verdicts and decisions.

``open_store`` opens (and migrates) it; ``Store.session()`` is one unit of work. Search over
the stored text is ``reviewer.store.search``.
"""

from sqlalchemy.orm import Session

from reviewer.store.database import Store, default_url, open_store, refresh_statistics

# ``Session`` is the unit of work every domain operation receives; the UI names the type
# from here and never imports SQLAlchemy itself.
__all__ = ["Session", "Store", "default_url", "open_store", "refresh_statistics"]
