"""``collector_paused``: no cyclic garbage collection inside a block.

Used where a burst allocates many objects that live on or die by reference counting
alone, so that the collector's passes over them are pure cost: an export's walk, and the
GUI's start-up. An export's walk makes a dictionary per message and a node per attempt,
none of them in a reference cycle, and the collector still walked them: some 20 young
collections and a full one now and then per 10,000 attempts, 7 ms (3 %) of a preference
export's CPU. The GUI's start-up imports SQLAlchemy, the models and PySide6: some
120,000 long-lived objects, walked about 170 times on the way.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic collector for the block; its previous state is restored after."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
