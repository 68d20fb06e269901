"""What the compiled loops share: numba's compiling (cached in the user's cache directory), and
the match columns as numpy arrays without a copy.

The compiled loops are cached in $XDG_CACHE_HOME/nardrating/numba, a folder of this user only,
never in the source tree; without such a folder each is compiled in memory on each run (about
1 s of CPU).
"""
from __future__ import annotations

import os
import stat
import sys
from array import array
from typing import Any, Callable

import numpy as np

from ..replay.cachedir import _make_private, root


def _cache_folder() -> str | None:
    """$XDG_CACHE_HOME/nardrating/numba, created private (0700); None unless it is this user's own folder."""
    try:
        folder = root() / "numba"
        _make_private(folder)
        # It and the folder holding it: real folders (not links) of this user that no one else may write.
        if all(stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid() and not st.st_mode & 0o022
               for st in (os.lstat(folder), os.lstat(folder.parent))) and not os.lstat(folder).st_mode & 0o077:
            return str(folder)
    except OSError:
        pass
    return None


_kernels: dict[str, Callable[..., Any]] = {}


def compiled(function: Callable[..., Any]) -> Callable[..., Any]:
    """`function` compiled by numba (or loaded from its cache), once per process."""
    name = f"{function.__module__}.{function.__qualname__}"
    kernel = _kernels.get(name)
    if kernel is None:
        folder = _cache_folder()
        if folder is not None and "numba" not in sys.modules:
            os.environ["NUMBA_CACHE_DIR"] = folder  # read by numba when it is imported
        import numba

        cache = folder is not None and getattr(numba.config, "CACHE_DIR", None) == folder
        kernel = _kernels[name] = numba.njit(cache=cache, nogil=True)(function)
    return kernel


def first_sides(order: Any, a: Any, b: Any, first: Any) -> None:  # numba: compiled(first_sides)
    """first[code]: where the player first plays in the records' sides (2q for a of record q, 2q + 1
    for b), -1 for none: np.unique(sides, return_index=True) without its sort of every side."""
    for q in range(len(order)):
        i = order[q]
        x, y = a[i], b[i]
        if first[x] < 0:
            first[x] = 2 * q
        if first[y] < 0:
            first[y] = 2 * q + 1


def column(values: Any, dtype: Any) -> Any:
    """A match column as a numpy array of `dtype`: a view of a machine array or of the cache where it
    holds that type, else a copy."""
    if isinstance(values, (array, memoryview)):
        code = values.typecode if isinstance(values, array) else values.format
        return np.frombuffer(values, dtype=np.dtype(code)).astype(dtype, copy=False)
    return np.array(values, dtype=dtype)


def python_ratings(rating: Any, games: Any, exact: dict[int, tuple[Any, int]], start: Any) -> tuple[list[Any], list[int]]:
    """A loop's ratings as the pure replay holds them, and the game counts, as lists: a rating Python
    set (the config's whole start, an [[adjust]]'s set: `exact`, code → (value, games then)) is
    that object again while no game has moved it (1200, not 1200.0)."""
    ratings, counts = rating.tolist(), games.tolist()
    for code, (value, then) in exact.items():
        if counts[code] == then:
            ratings[code] = value
    if type(start) is int:
        ratings = [start if n == 0 and code not in exact else x for code, (x, n) in enumerate(zip(ratings, counts))]
    return ratings, counts
