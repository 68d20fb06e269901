"""Python's cyclic garbage collector, paused while a replay or a reader builds many small objects.

Those objects live as long as the result and none of them is in a cycle: the collector's passes
would only scan them again and again (a third of a big replay's time).
"""
from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Inside the block the cyclic collector does not run; after it, it runs as before (also on an error)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
