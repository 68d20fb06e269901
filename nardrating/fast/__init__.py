"""The compiled path for big journals: `pip install 'nardrating[fast]'` (numba, and its numpy).

A numba-compiled split reads a big CSV journal into columns (csvsplit.py, csvread.py) and
numba-compiled loops replay the fibs, elo, glicko and glicko2 engines over them (fibsloop.py,
eloloop.py, glickoloop.py). Each gives exactly what the pure-Python path gives, or declines —
returns None or False, having changed nothing — and the pure path does the work: anything
they do not handle falls back silently.

Used when the extra is installed and the work is big: a CSV file of FAST_AFTER_BYTES or
more, a replay of FAST_AFTER_MATCHES matches or more (below them, importing numpy and numba
costs more than it saves; NARDRATING_FAST_AFTER_BYTES and NARDRATING_FAST_AFTER set them).
NARDRATING_FAST=0 never uses it, =1 uses it whatever the size. This module imports neither
library: a plain install never loads them.
"""
from __future__ import annotations

import importlib.util
import os
import sys
from array import array
from collections.abc import Sequence
from typing import Any

# Measured (docs/performance.md): the imports (numpy and numba ~0.4 s of CPU) and loading the
# compiled loops (~0.3 s) cost most of a second, which the pure path's work outgrows from about
# 300,000 matches (a CSV of about 13 MB) on.


def _setting(name: str, default: int) -> int:
    try:
        return int(os.environ.get(name, default))
    except ValueError:
        return default


FAST_AFTER_BYTES = _setting("NARDRATING_FAST_AFTER_BYTES", 13_000_000)
FAST_AFTER_MATCHES = _setting("NARDRATING_FAST_AFTER", 300_000)
INSTALL_HINT = "pip install 'nardrating[fast]'"

_said: set[str] = set()


def wanted(size: int, threshold: int, module: str) -> bool:
    """Whether the fast path should try work of this size, needing `module` (numba or numpy)."""
    switch = os.environ.get("NARDRATING_FAST", "")
    if switch == "0" or (switch != "1" and size < threshold):
        return False
    if importlib.util.find_spec(module) is None:  # finds, does not import
        if switch == "1" and module not in _said:
            _said.add(module)
            print(f"nardrating: NARDRATING_FAST=1, but {module} is not installed: {INSTALL_HINT} "
                  "(working in pure Python)", file=sys.stderr)
        return False
    return True


def declined(why: str) -> None:
    """The fast path leaves this work to the pure path; NARDRATING_DEBUG=1 says why."""
    if os.environ.get("NARDRATING_DEBUG") == "1":
        print(f"nardrating: pure Python path: {why}", file=sys.stderr)


def read_csv(raw: bytes, path: Any, label: str, journal: Any, default_discipline: str) -> bool:
    """Read a whole CSV journal file into `journal` as the pure reader would; False: not done, nothing changed."""
    if not wanted(len(raw), FAST_AFTER_BYTES, "numba"):
        return False
    from .csvread import read_csv as read

    return read(raw, path, label, journal, default_discipline)


def rows_where(disc: Sequence[int], code: int, dates: Sequence[int], limit: int | None) -> array[int] | None:
    """The rows whose discipline is `code` (and date at most `limit`), as array("i"), by numpy where
    the extra's work has already loaded it; else None: the pure loop finds them.

    A million rows: about 5 ms instead of 150 ms per rating view.
    """
    if "numpy" not in sys.modules or not wanted(len(disc), FAST_AFTER_MATCHES, "numpy"):
        return None
    codes, days = _int32(disc), _int32(dates) if limit is not None else None
    if codes is None or (limit is not None and days is None):
        return None  # a column that is a list (a journal read in pure Python): not worth a copy
    import numpy as np

    keep = codes == code
    if days is not None:
        keep &= days <= limit
    return array("i", np.flatnonzero(keep).astype(np.int32).tobytes())


def any_same(a: Sequence[int], b: Sequence[int], start: int) -> bool | None:
    """Whether a[i] == b[i] for some i from `start` on, by numpy where the extra's work has already
    loaded it for a big journal (a million rows: about 2 ms instead of 80 ms); else None: the pure
    check looks."""
    if "numpy" not in sys.modules or not wanted(len(a), FAST_AFTER_MATCHES, "numpy"):
        return None
    x, y = _int32(a), _int32(b)
    if x is None or y is None:
        return None
    return bool((x[start:] == y[start:]).any())


def _int32(column: Sequence[int]) -> Any:
    """A machine-array column of 32-bit ints as a numpy view (no copy); None for any other column."""
    if not isinstance(column, (array, memoryview)) or _format(column) != "i":
        return None
    import numpy as np

    return np.frombuffer(column, dtype=np.int32)


def _format(column: array[int] | memoryview) -> str:
    return column.typecode if isinstance(column, array) else column.format


ACCELERATED = ("fibs", "elo", "glicko", "glicko2")  # the engines a compiled loop replays


def accelerated(engine: str, view: Any) -> Any:
    """The state a full replay of `view` under `engine` reaches, by a compiled loop (the engine's
    `finish` turns it into the result), or None: the engine's own `run` replays it. Replay asks
    this, so that no engine imports the extra (and the extra imports the engines it speeds up)."""
    if engine not in ACCELERATED or not wanted(len(view.order), FAST_AFTER_MATCHES, "numba"):
        return None
    if engine == "fibs":
        from .fibsloop import replay

        return replay(view)
    if engine == "elo":
        from .eloloop import replay as replay_elo

        return replay_elo(view)
    from ..engines.registry import engine_class
    from .glickoloop import replay as replay_glicko

    return replay_glicko(view, engine_class(engine)())
