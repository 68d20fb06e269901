"""The federation rating lists of seed 000 (МФСНБ, 2009).

Ratings change once per list period (a quarter by default). Every competition
— a tournament, or a single match outside any tournament — that ends in a
period is computed from the ratings at the period's start:

    R = 10·(P − E),  E = M·Pe (swiss, knockout, match, single)
                     E = H·Pe − ½ (round-robin; or (H − 1)·Pe when strict)

with Pe from the seed's table at (own rating − Ra), Ra the opponents' mean
rating rounded (½ up), and R rounded to a whole number, halves away from
zero. Arithmetic is exact (in whole units, see `arithmetic`). The list at
the period's end is old + the sum of the period's R − the inactivity
penalty. docs/mfsnb.md states every reading of the seed taken here.

Modules: `values` (what the parameters mean: pure), `params` (the config's
check), `arithmetic` (one competition, pure), `records` (what the lists keep:
competitions, period records, history items), `lists` (the list builder),
`result` (standings and the report), `explain` (each history event's steps),
`replay` (events in, lists out), `kept` (the histories as the cache keeps them), `engine` (the
class the registry names, which imports the rest when used).
"""
from typing import TYPE_CHECKING, Any

from .arithmetic import Computation, compute
from .engine import MfsnbEngine

if TYPE_CHECKING:
    from .result import MfsnbResult


def __getattr__(name: str) -> Any:
    """`MfsnbParams`, the pydantic model, only when asked for (reading a cached config never needs it);
    `MfsnbResult` too (a leaderboard from the kept standings makes none)."""
    if name == "MfsnbParams":
        from .params import MfsnbParams

        return MfsnbParams
    if name == "MfsnbResult":
        from .result import MfsnbResult

        return MfsnbResult
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = ["Computation", "MfsnbEngine", "MfsnbParams", "MfsnbResult", "compute"]
