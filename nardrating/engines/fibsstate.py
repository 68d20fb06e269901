"""What a fibs replay carries on with (FibsState) and why a match is not rated (exclusion):
shared by the engine (fibs.py) and the [fast] extra's compiled loop, which builds the same state."""
from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from ..datarecords import datarecord
from .base import HistoryEvent
from .compact import ColumnRecords

SideEvent = tuple[int, str, HistoryEvent]


def exclusion(reason: str | None, day: int, score: float, pair_limit: int) -> str:
    """Why a match is not rated here (off the hot path): `reason`, the view's (voided, forfeit,
    unrated), else a draw, else the pair limit (`pair_limit` rated matches a pair a day) of `day`
    (an ordinal)."""
    if reason is not None:
        return reason
    if score == 0.5:
        return "a draw: FIBS rates only won matches"
    return f"pair limit: more than {pair_limit} rated matches of this pair on {date.fromordinal(day)}"


@datarecord
class FibsState:
    """Everything a replay needs to go on: per player code, and the records so far."""

    rating: list[float]
    experience: Sequence[float]  # whole numbers of points or games (ints; the cache keeps doubles)
    games: list[int]
    last: list[int]         # the last match date (ordinal), 0: none
    present: bytearray
    pairs_seen: dict[tuple[int, int, int], int]  # PairLimit.seen
    records: ColumnRecords
    side: list[SideEvent]
    last_date: int   # the latest match date replayed (ordinal)
