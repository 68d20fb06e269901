"""Where a Glicko replay ends (GlickoState), its player-period table and the state just before its
last period (LastPeriod): shared by the replay (glickoreplay.py), the cache (glickocache.py) and the
[fast] extra's compiled loop, which builds the same state."""
from __future__ import annotations

from array import array
from typing import Any

from ..datarecords import datarecord, field
from ..mapped import Appended
from .base import HistoryEvent
from .compact import ColumnRecords

SideEvent = tuple[int, str, HistoryEvent]
# After the match row: rating before a, b; change a, b; expected score a, b; player-period row a, b.
RECORD_FIELDS = 8


@datarecord
class PlayerPeriods:
    """One row per player and rated period (row 0: none): the deviation at the period's start and
    the new one, as φ on the Glicko-2 scale (the very doubles the replay held: an RD is φ·scale,
    multiplied when read, the same product the replay made; φ read back from an RD could differ in
    its last bit), the new volatility, and the match row of the player's last game of the period."""

    phi_before: array[float] = field(default_factory=lambda: array("d", [0.0]))
    phi: array[float] = field(default_factory=lambda: array("d", [0.0]))
    volatility: array[float] = field(default_factory=lambda: array("d", [0.0]))
    last_row: array[int] = field(default_factory=lambda: array("i", [-1]))

    def head(self, rows: int) -> "PlayerPeriods":
        """The first `rows` rows, for a replay to go on appending to: columns mapped from the cache
        are kept in place, what is appended after them (Appended: a resumed replay adds a few
        thousand rows to a million, which copying took 15-20 ms); a machine array is copied."""
        return PlayerPeriods(*(_head(column, rows) for column in (self.phi_before, self.phi, self.volatility,
                                                                  self.last_row)))

    def columns(self) -> "tuple[array[Any] | memoryview, ...]":
        """The four columns as machine arrays or views (a mapped head and its rows joined), to store."""
        return tuple(column.joined() if isinstance(column, Appended) else column
                     for column in (self.phi_before, self.phi, self.volatility, self.last_row))


def _head(column: Any, rows: int) -> Any:
    if isinstance(column, memoryview):
        return Appended(column[:rows])
    out = array(column.typecode)
    out.frombytes(memoryview(column)[:rows].cast("B"))
    return out


@datarecord
class LastPeriod:
    """A replay just before its last period was rated: where a resumed replay starts. By player
    code as GlickoState has them (rating, φ, σ, last rated period, games, last game's date) plus
    `row`, the player's row of the player-period table; the period (None: nothing was pending),
    the records and table rows written before it, how many players had a history event, and the
    date (ordinal) of the last game replayed: appended games dated from then on come after every
    replayed one (the records from `records` on are the period's games, in replay order)."""

    index: int | None
    records: int
    table: int
    events: int
    last_date: int
    r: list[Any]
    phi: list[float]
    sigma: list[float]
    last: list[int | None]
    games: list[int]
    played: list[int]
    row: list[int]


@datarecord
class GlickoState:
    """Where a replay ends, per player code: the rating r (as the config or an adjustment gave it,
    an int until a rated game), φ and σ on the Glicko-2 scale, the last period that set φ (None:
    never), rated games and the last one's date (ordinal, 0: none); and the records."""

    r: list[Any]
    phi: list[float]
    sigma: list[float]
    last: list[int | None]
    games: list[int]
    played: list[int]
    order: list[int]          # codes as they first appear: the standings' order
    event_order: list[int]    # codes as their first history event is written: the history's order
    records: ColumnRecords
    side: list[SideEvent]
    periods: PlayerPeriods
    last_period: LastPeriod | None = None   # None: not to be resumed (an old cache's state)
