"""FIDE-style rating lists (seed 002), with FIDE's 2024 and 2025 rules as further rulesets.

Ratings change only on list dates (the first day of every `list_every`
period). An event — a tournament, or a rated match outside any tournament,
which is an event of its own — reaches the first list dated at least
`closing_days` (3) days after its end (`official_closing_days`, 1, for an
official one). Ratings in an event come from the list in force on its first
day. A rated player's change per event is K·Σ(S − P_D), rounded, halves away
from zero (FIDE's rulesets round the rating period's sum once, §8.3.4); an
unrated player's counted games are pooled into a first rating (seed 8.2–8.3,
7.1.4). See docs/fide.md for every reading of the seed and of the regulations.

Modules: `values` (what the parameters mean, FIDE's fixed numbers: pure),
`params` (the config's check), `tables` (tables a and b), `rules` (list dates,
K, first ratings: pure), `records` (events, games, per-list records), `players`
(state and status), `lists` (one list's publication), `replay` (the whole
timeline), `report`, `explain`, `engine`.
"""
from typing import TYPE_CHECKING, Any

from .engine import FideEngine

if TYPE_CHECKING:
    from .report import FideResult


def __getattr__(name: str) -> Any:
    """`FideParams`, the pydantic model, only when asked for (reading a cached config never needs it);
    `FideResult` too (a leaderboard from the kept standings makes none)."""
    if name == "FideParams":
        from .params import FideParams

        return FideParams
    if name == "FideResult":
        from .report import FideResult

        return FideResult
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = ["FideEngine", "FideParams", "FideResult"]
