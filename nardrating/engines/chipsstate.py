"""Where a chips replay stops (ChipsState), and that state as the cache stores it (replay/cacheresults.py), and back.

Every chip rating decays each day, and with an inactivity ladder a break is penalised, up to the
day the standings are read: the journal's last entry, or a later --as-of. A replay stops before
that catch-up, so its state depends on the entries only, and `ChipsEngine.finish` brings every
rating up to the end of the view it is given; the cache keeps the state for the journal exactly as
it was replayed (Engine.cacheable). JSON for the side events (adjustments, penalties), the unrated
matches' reasons and each open break's charged penalty; machine arrays by player (rating, the day
it is decayed to, rated matches, the last one's day) and by record (the match row, the players, the
RECORD_FIELDS doubles). A chip rating is always a float (it starts at 0.0, and the journal's
adjustments and the config's penalties are floats): no whole numbers to keep apart, as elo's are.
"""
from __future__ import annotations

from array import array
from collections.abc import Callable
from typing import Any

from ..datarecords import datarecord
from .base import HistoryEvent
from .compact import ColumnRecords, event_from_json, event_json

SideEvent = tuple[int, str, HistoryEvent]   # (records before it, player, its event)

# Records (compact.ColumnRecords: five doubles a match side by side, not a tuple and three floats
# apiece): a rated match reads as (i, rating a before, rating b before, change a, change b, chips);
# an unrated one as (i, rating a, rating b, reason). "before" is already decayed to the match's
# day, so decay events are not stored: ChipsResult.build_events puts one wherever a player's
# rating moved between two of their events (and up to `end`, the day the standings are decayed to).
RECORD_FIELDS = 5


@datarecord
class ChipsState:
    """A replay's end before the final catch-up, per player code: the rating, the day (ordinal)
    it is decayed to (0: not seen yet), rated matches and the last one's day (0: none), the penalty
    charged in each open break (by player code); the records and side events."""

    rating: list[float]
    day_of: list[int]
    games: list[int]
    last: list[int]
    charged: dict[int, float]
    records: ColumnRecords
    side: list[SideEvent]

    @property
    def last_date(self) -> int:
        """The last day replayed (ordinal; 0: none): that of the view's last match or adjustment,
        whose players' ratings were brought to it."""
        return max(self.day_of, default=0)


def pack(state: ChipsState) -> tuple[dict[str, object], dict[str, array[Any]], dict[str, Any]]:
    """(JSON meta, per-player arrays, per-record columns)."""
    index, a, b, fields = state.records.columns
    meta: dict[str, object] = {"side": [[pos, player, event_json(e)] for pos, player, e in state.side],
                               "reasons": [[k, r] for k, r in state.records.reasons.items()],
                               "charged": [[code, total] for code, total in state.charged.items()],
                               "last_date": state.last_date, "records": len(index)}
    players: dict[str, array[Any]] = {"rating": array("d", state.rating), "day_of": array("i", state.day_of),
                                      "games": array("q", state.games), "last": array("i", state.last)}
    columns: dict[str, Any] = {"index": index, "a": a, "b": b}
    columns.update({f"field_{f}": column for f, column in enumerate(fields)})
    return meta, players, columns


def unpack(meta: dict[str, Any], players: dict[str, array[Any]], load_columns: Callable[[], dict[str, Any]]) -> ChipsState:
    """The state `pack` stored; the records' columns are read when history needs them."""
    def columns() -> tuple[Any, Any, Any, list[Any]]:
        found = load_columns()
        return found["index"], found["a"], found["b"], [found[f"field_{f}"] for f in range(RECORD_FIELDS)]

    rating = players["rating"].tolist()
    count = len(rating)
    charged = {code: total for code, total in meta["charged"]}
    if not all(type(code) is int and 0 <= code < count and type(total) is float for code, total in charged.items()):
        raise ValueError("a charged penalty of no player")
    return ChipsState(rating, players["day_of"].tolist(), players["games"].tolist(), players["last"].tolist(), charged,
                      ColumnRecords(columns, {k: r for k, r in meta["reasons"]}, meta["records"]),
                      [(pos, player, event_from_json(e)) for pos, player, e in meta["side"]])
