"""Where a placement replay stops (PlacementState), what a player's history is made from, and that
state as the cache stores it (replay/cacheresults.py), and back.

Every rating is halved on each month's first day up to the day the standings are read: the
journal's last entry, or a later --as-of. A replay stops before that last catch-up, so its state
depends on the entries only, and `PlacementEngine.finish` halves the ratings up to the end of the
view it is given; the cache keeps the state for the journal exactly as it was replayed
(Engine.cacheable).

A player's history items are every match of theirs (a match moves no placement rating; its line
says why), each ended tournament's places and each adjustment, in replay order. The replay keeps no
list of them per player: it keeps the match rows in replay order (the records: row and both
players' codes), each player's number of items, and for each side item (a tournament's places, an
adjustment) the position it takes in each of its players' items. A player's items are the side
items at their positions and their matches, found in the records, in order in the positions left.
Stored: by player code, the rating (a double, and whether it was a Python int), tournaments placed
in, the last one's end and the number of items; the records; by tournament its code, end, points,
source and where its places lie; the places (player code, place, position); the adjustments as JSON.
Nothing is code.
"""
from __future__ import annotations

from array import array
from bisect import bisect_right
from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import date
from typing import TYPE_CHECKING, Any, NamedTuple

from ..datarecords import datarecord, field
from .base import HistoryEvent
from .compact import ColumnRecords, event_from_json, event_json, positions_in, stored_ratings, whole_flags
from .lines import EachPlayerFollowsOn

if TYPE_CHECKING:
    from .lines import Kept

SOURCES = ("standings", "matches")   # where a tournament's places came from, as stored
BULK = 8   # players read one by one before every player's items are made in one pass


class Places(EachPlayerFollowsOn):
    """An ended tournament's places, one item in the history of each of its players. A player's
    line is made when read, from their place and the line before it: before is that line's after
    (every line says the rating it leaves), the gain points/place, the same division of the same
    numbers the replay made (one object per tournament, not one per player and place: 1.8
    million on the benchmark's journal). `places`: by player code (`code_of` a player's id);
    `positions`: where it stands among each player's items; `code`: the tournament's
    (view.tournament_ids), `end` its last day.
    """

    __slots__ = ("tournament", "code", "end", "places", "positions", "points", "source", "code_of")

    def __init__(self, tournament: str, code: int, end: date, places: dict[int, float], positions: dict[int, int],
                 points: float, source: str, code_of: Callable[[str], int]) -> None:
        self.tournament, self.code, self.end, self.places, self.positions = tournament, code, end, places, positions
        self.points, self.source, self.code_of = points, source, code_of

    def line_for(self, player: str, previous: HistoryEvent | None) -> HistoryEvent:
        before = previous.after if previous is not None and previous.after is not None else 0.0
        place = self.places[self.code_of(player)]
        gain = self.points / place
        return HistoryEvent(self.end, self.tournament, "tournament", None, None, before, gain, before + gain, True,
                            None, {"place": place, "participants": len(self.places), "places_from": self.source})


class SideAdjust(NamedTuple):
    """An adjustment's event, the player's code and its position among their items."""

    code: int
    position: int
    event: HistoryEvent


class ReplayedSide(list[Places | SideAdjust]):
    """A replay's side items in the order met."""

    def entries_of(self, code: int) -> list[tuple[int, Kept]]:
        found: list[tuple[int, Kept]] = []
        for item in self:
            if isinstance(item, Places):
                position = item.positions.get(code)
                if position is not None:
                    found.append((position, item))
            elif item.code == code:
                found.append((item.position, item.event))
        return found

    def all_entries(self) -> Iterator[tuple[int, int, Kept]]:
        for item in self:
            if isinstance(item, Places):
                yield from ((code, position, item) for code, position in item.positions.items())
            else:
                yield item.code, item.position, item.event


@datarecord
class PlacementState:
    """A replay's end before the last halving, by player code: the ratings (halved up to `month`, a
    month index; None: no month yet), tournaments placed in, the last one's end (ordinal; 0: none),
    the number of history items; the records (the match rows in replay order and their players),
    the side items (ReplayedSide, or StoredSide from the cache), the players in the order of their
    first item, and the day of the view's last entry (ordinal; 0: none), up to which `finish` halves."""

    rating: list[Any]
    played: list[int]
    last: list[int]
    count: list[int]
    month: int | None
    records: ColumnRecords
    side: Any
    order: list[int]
    last_date: int
    lines: Any = field(default=None, compare=False)   # the replay's own placement.MatchLines (not stored)


class PlayerItems(Sequence[Sequence["Kept | int"]]):
    """Each player's history items by code (a match row, or a side item), made when first asked for:
    one player's by a byte search of the records; after BULK of them, everyone's in one pass."""

    def __init__(self, state: PlacementState) -> None:
        self.state = state
        self.made: dict[int, list[Kept | int]] = {}
        self.everyone = False

    def __len__(self) -> int:
        return len(self.state.count)

    def __getitem__(self, code: int) -> list[Kept | int]:  # type: ignore[override]
        kept = self.made.get(code)
        if kept is None:
            if self.everyone or len(self.made) < BULK:
                index = self.state.records.columns[0]
                kept = self.made[code] = _merged(self.state.count[code], [index[k] for k in
                                                                          self.state.records.positions_of(code)],
                                                 self.state.side.entries_of(code))
            else:
                self._everyone()
                kept = self.made.get(code, [])
        return kept

    def _everyone(self) -> None:
        state = self.state
        index, a, b, _ = state.records.columns
        rows: dict[int, list[int]] = {code: [] for code in state.order}
        for i, x, y in zip(index, a, b):
            rows[x].append(i)
            rows[y].append(i)
        entries: dict[int, list[tuple[int, Kept]]] = {code: [] for code in state.order}
        for code, position, item in state.side.all_entries():
            entries[code].append((position, item))
        for code in state.order:
            if code not in self.made:
                self.made[code] = _merged(state.count[code], rows[code], entries[code])
        self.everyone = True


def _merged(count: int, rows: list[int], entries: list[tuple[int, Kept]]) -> list[Kept | int]:
    """A player's `count` items: the side items at their positions, the match rows in order in the rest."""
    if len(rows) + len(entries) != count:
        raise ValueError("a player's placement items do not add up")
    items: list[Any] = [None] * count
    for position, item in entries:
        items[position] = item
    it = iter(rows)
    return [next(it) if item is None else item for item in items]


class KeptByName(Mapping[str, Sequence["Kept | int"]]):
    """player id → their kept items, for the players `order` has (HistoryOnRead's `kept`)."""

    def __init__(self, items: Sequence[Sequence[Kept | int]], order: list[int], names: Sequence[str],
                 code_of: Callable[[str], int]) -> None:
        self.by_code, self.order, self.names, self.code_of = items, order, names, code_of
        self.listed = frozenset(order)

    def __getitem__(self, player: str) -> Sequence[Kept | int]:
        if player not in self:
            raise KeyError(player)
        return self.by_code[self.code_of(player)]

    def __contains__(self, player: object) -> bool:
        try:
            return isinstance(player, str) and self.code_of(player) in self.listed
        except KeyError:
            return False

    def __iter__(self) -> Iterator[str]:
        names = self.names
        return (names[code] for code in self.order)

    def __len__(self) -> int:
        return len(self.order)


# --- the cache ----------------------------------------------------------------------------------

def pack(state: PlacementState) -> tuple[dict[str, object], dict[str, array[Any]], dict[str, Any]]:
    """(JSON meta, per-player arrays, the records' columns and the tables)."""
    kinds: list[int] = []      # per side item: its index among tournaments (≥ 0) or −1 − adjustment
    tournaments: list[Places] = []
    adjusts: list[SideAdjust] = []
    for item in state.side:
        if isinstance(item, Places):
            kinds.append(len(tournaments))
            tournaments.append(item)
        else:
            kinds.append(-1 - len(adjusts))
            adjusts.append(item)
    t_code, t_end, t_source, t_points = array("i"), array("i"), array("b"), array("d")
    t_start, place_code, place, place_at = array("q"), array("i"), array("d"), array("q")
    for t in tournaments:
        t_code.append(t.code)
        t_end.append(t.end.toordinal())
        t_source.append(SOURCES.index(t.source))
        t_points.append(t.points)
        t_start.append(len(place_code))
        place_code.fromlist(list(t.places))
        place.fromlist(list(t.places.values()))
        place_at.fromlist(list(t.positions.values()))   # (made in the order of `places`)
    t_start.append(len(place_code))
    index, a, b, _ = state.records.columns
    meta: dict[str, object] = {"month": state.month, "order": state.order, "kinds": kinds,
                               "adjusts": [[s.code, s.position, event_json(s.event)] for s in adjusts],
                               "last_date": state.last_date, "records": len(index)}
    players = {"rating": array("d", state.rating), "whole": whole_flags(state.rating),
               "played": array("q", state.played), "last": array("i", state.last), "count": array("q", state.count)}
    columns = {"index": index, "a": a, "b": b, "table_t_code": t_code, "table_t_end": t_end,
               "table_t_source": t_source, "table_t_points": t_points, "table_t_start": t_start,
               "table_place_code": place_code, "table_place": place, "table_place_at": place_at}
    return meta, players, columns


def unpack(meta: dict[str, Any], players: dict[str, array[Any]], load_columns: Callable[[], dict[str, Any]]
           ) -> PlacementState:
    """The state `pack` stored; the records and the side items are read when history first needs them."""
    rating = stored_ratings(players["rating"], players["whole"])
    count = len(rating)
    order, kinds, month, adjusts = meta["order"], meta["kinds"], meta["month"], meta["adjusts"]
    if not (isinstance(order, list) and all(type(c) is int and 0 <= c < count for c in order)
            and len(set(order)) == len(order) and isinstance(kinds, list) and all(type(k) is int for k in kinds)
            and (month is None or type(month) is int) and isinstance(adjusts, list)
            and all(type(c) is int and 0 <= c < count and type(p) is int for c, p, _ in adjusts)):
        raise ValueError("placement state malformed")

    def columns() -> tuple[Any, Any, Any, list[Any]]:
        found = load_columns()
        return found["index"], found["a"], found["b"], []

    side = StoredSide(load_columns, kinds, [SideAdjust(c, p, event_from_json(e)) for c, p, e in adjusts])
    return PlacementState(rating, players["played"].tolist(), players["last"].tolist(), players["count"].tolist(),
                          month, ColumnRecords(columns, {}, meta["records"]), side, order, meta["last_date"])


class StoredSide:
    """The stored side items, as ReplayedSide answers: a tournament's places made once, when first
    met; `bind` names the journal's tournaments and players, which a finished result's view gives."""

    def __init__(self, load_tables: Callable[[], dict[str, Any]], kinds: list[int], adjusts: list[SideAdjust]) -> None:
        self.load_tables, self.kinds, self.adjusts = load_tables, kinds, adjusts
        self.made: dict[int, Places] = {}
        self.tournament_ids: Sequence[str] = ()
        self.code_of: Callable[[str], int] = _unbound

    def bind(self, tournament_ids: Sequence[str], code_of: Callable[[str], int]) -> None:
        self.tournament_ids, self.code_of = tournament_ids, code_of

    def __iter__(self) -> Iterator[Places | SideAdjust]:
        return (self.adjusts[-1 - kind] if kind < 0 else self.tournament(kind) for kind in self.kinds)

    def tournament(self, k: int) -> Places:
        item = self.made.get(k)
        if item is None:
            t = self.load_tables()
            start, stop = t["table_t_start"][k], t["table_t_start"][k + 1]
            if not 0 <= start <= stop <= len(t["table_place_code"]):
                raise ValueError("places out of bounds")
            codes = t["table_place_code"][start:stop].tolist()
            code = t["table_t_code"][k]
            item = self.made[k] = Places(self.tournament_ids[code], code, date.fromordinal(t["table_t_end"][k]),
                                         dict(zip(codes, t["table_place"][start:stop].tolist())),
                                         dict(zip(codes, t["table_place_at"][start:stop].tolist())),
                                         t["table_t_points"][k], SOURCES[t["table_t_source"][k]], self.code_of)
        return item

    def entries_of(self, code: int) -> list[tuple[int, Kept]]:
        """The player's side items, their places found by a byte search of the places' codes (in C)."""
        t = self.load_tables()
        starts = t["table_t_start"]
        found: list[tuple[int, Kept]] = []
        for at in positions_in(t["table_place_code"], code):
            item = self.tournament(bisect_right(starts, at) - 1)
            found.append((item.positions[code], item))
        found += [(s.position, s.event) for s in self.adjusts if s.code == code]
        return found

    def all_entries(self) -> Iterator[tuple[int, int, Kept]]:
        return ReplayedSide(self).all_entries()


def _unbound(player: str) -> int:
    raise KeyError(player)
