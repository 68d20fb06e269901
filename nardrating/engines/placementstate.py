"""Where a placement replay stops (PlacementState), and that state as the cache stores it
(replay/cacheresults.py), and back.

Every rating is halved on each month's first day up to the day the standings are read: the
journal's last entry, or a later --as-of. A replay stops before that last catch-up, so its state
depends on the entries only, and `PlacementEngine.finish` halves the ratings up to the end of the
view it is given; the cache keeps the state for the journal exactly as it was replayed
(Engine.cacheable). Stored: by player code, the rating (a double, and whether it was a Python int:
an [[adjust]]'s whole `set`), tournaments placed in, the last one's end and where the player's kept
items lie; the items of every player one after another (a match row, or a side item: an ended
tournament's places, or an adjustment's event); each tournament's code, end, points, source and
where its places lie; the places (player codes and places). The adjustments' events are JSON.
Nothing is code: a player's items are made into rows, places and events when their history is read.
"""
from __future__ import annotations

from array import array
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING, Any

from .base import HistoryEvent
from .compact import event_from_json, event_json, stored_ratings, whole_flags
from .lines import EachPlayerFollowsOn

if TYPE_CHECKING:
    from .lines import Kept

SOURCES = ("standings", "matches")   # where a tournament's places came from, as stored


class Places(EachPlayerFollowsOn):
    """An ended tournament's places, one item in the history of each of its players. A player's
    line is made when read, from their place and the line before it: before is that line's after
    (every line says the rating it leaves), the gain points/place, the same division of the same
    numbers the replay made (one object per tournament, not one per player and place: 1.8
    million on the benchmark's journal). `places`: by player code (`code_of` a player's id); `code`:
    the tournament's (view.tournament_ids), `end` its last day.
    """

    __slots__ = ("tournament", "code", "end", "places", "points", "source", "code_of")

    def __init__(self, tournament: str, code: int, end: date, places: dict[int, float], points: float, source: str,
                 code_of: Callable[[str], int]) -> None:
        self.tournament, self.code, self.end, self.places, self.points, self.source = (tournament, code, end, places,
                                                                                       points, source)
        self.code_of = code_of

    def line_for(self, player: str, previous: HistoryEvent | None) -> HistoryEvent:
        before = previous.after if previous is not None and previous.after is not None else 0.0
        place = self.places[self.code_of(player)]
        gain = self.points / place
        return HistoryEvent(self.end, self.tournament, "tournament", None, None, before, gain, before + gain, True,
                            None, {"place": place, "participants": len(self.places), "places_from": self.source})


@dataclass
class PlacementState:
    """A replay's end before the last halving, by player code: the ratings (halved up to `month`,
    a month index; None: no month yet), tournaments placed in, the last one's end (ordinal; 0: none),
    each player's kept items (an int: a match row); the players in the order of their first item,
    and the day of the view's last entry (ordinal; 0: none), up to which `finish` halves."""

    rating: list[Any]
    played: list[int]
    last: list[int]
    month: int | None
    history: Sequence[Sequence[Kept | int]]
    order: list[int]
    last_date: int
    lines: Any = field(default=None, compare=False)   # the replay's own placement.MatchLines (not stored)


def pack(state: PlacementState) -> tuple[dict[str, object], dict[str, array[Any]], dict[str, Any]]:
    """(JSON meta, per-player arrays, tables): every side item numbered once, in the order met."""
    side: dict[int, int] = {}          # id(item) → its number among the side items
    tournaments: list[Places] = []
    adjusts: list[HistoryEvent] = []
    kinds: list[int] = []               # per side item: its index among tournaments (≥ 0) or −1 − adjustment
    items, starts, counts = array("i"), array("q", [0]) * len(state.rating), array("q", [0]) * len(state.rating)
    for code in state.order:
        kept = state.history[code]
        starts[code], counts[code] = len(items), len(kept)
        for item in kept:
            if isinstance(item, int):
                items.append(item)
                continue
            number = side.get(id(item))
            if number is None:
                number = side[id(item)] = len(kinds)
                if isinstance(item, Places):
                    kinds.append(len(tournaments))
                    tournaments.append(item)
                else:
                    assert isinstance(item, HistoryEvent)
                    kinds.append(-1 - len(adjusts))
                    adjusts.append(item)
            items.append(-1 - number)
    t_code, t_end, t_source, t_points = array("i"), array("i"), array("b"), array("d")
    t_start, place_code, place = array("q"), array("i"), array("d")
    for t in tournaments:
        t_code.append(t.code)
        t_end.append(t.end.toordinal())
        t_source.append(SOURCES.index(t.source))
        t_points.append(t.points)
        t_start.append(len(place_code))
        place_code.extend(t.places)
        place.extend(t.places.values())
    t_start.append(len(place_code))
    meta: dict[str, object] = {"month": state.month, "order": state.order, "kinds": kinds,
                               "adjusts": [event_json(e) for e in adjusts], "last_date": state.last_date,
                               "records": 0}
    players = {"rating": array("d", state.rating), "whole": whole_flags(state.rating),
               "played": array("q", state.played), "last": array("i", state.last),
               "item_start": starts, "item_count": counts}
    tables = {"table_items": items, "table_t_code": t_code, "table_t_end": t_end, "table_t_source": t_source,
              "table_t_points": t_points, "table_t_start": t_start, "table_place_code": place_code,
              "table_place": place}
    return meta, players, tables


def unpack(meta: dict[str, Any], players: dict[str, array[Any]], load_columns: Callable[[], dict[str, Any]]
           ) -> PlacementState:
    """The state `pack` stored; a player's items are made when their history is first read."""
    rating = stored_ratings(players["rating"], players["whole"])
    count = len(rating)
    order, kinds, month = meta["order"], meta["kinds"], meta["month"]
    if not (isinstance(order, list) and all(type(c) is int and 0 <= c < count for c in order)
            and len(set(order)) == len(order) and isinstance(kinds, list) and all(type(k) is int for k in kinds)
            and (month is None or type(month) is int)):
        raise ValueError("placement state malformed")
    adjusts = [event_from_json(e) for e in meta["adjusts"]]
    tables = load_columns()
    items = tables["table_items"]
    starts, counts = players["item_start"].tolist(), players["item_count"].tolist()
    if not all(starts[c] + counts[c] <= len(items) for c in order):
        raise ValueError("placement items out of bounds")
    side = SideItems(tables, kinds, adjusts)
    history = KeptItems(items, starts, counts, side)
    return PlacementState(rating, players["played"].tolist(), players["last"].tolist(), month, history, order,
                          meta["last_date"])


class SideItems:
    """The side items by number, each made once when first met (a tournament's places are one
    object for all its players, as the replay has them); `bind` names the journal's tournaments and
    players, which a finished result's view gives."""

    def __init__(self, tables: dict[str, Any], kinds: list[int], adjusts: list[HistoryEvent]) -> None:
        self.tables, self.kinds, self.adjusts = tables, kinds, adjusts
        self.made: dict[int, Kept] = {}
        self.tournament_ids: Sequence[str] = ()
        self.code_of: Callable[[str], int] = _unbound

    def bind(self, tournament_ids: Sequence[str], code_of: Callable[[str], int]) -> None:
        self.tournament_ids, self.code_of = tournament_ids, code_of

    def __getitem__(self, number: int) -> Kept:
        item = self.made.get(number)
        if item is None:
            kind = self.kinds[number]
            if kind < 0:
                item = self.adjusts[-1 - kind]
            else:
                t = self.tables
                start, stop = t["table_t_start"][kind], t["table_t_start"][kind + 1]
                if not 0 <= start <= stop <= len(t["table_place_code"]):
                    raise ValueError("places out of bounds")
                places = dict(zip(t["table_place_code"][start:stop].tolist(), t["table_place"][start:stop].tolist()))
                code = t["table_t_code"][kind]
                item = Places(self.tournament_ids[code], code, date.fromordinal(t["table_t_end"][kind]), places,
                              t["table_t_points"][kind], SOURCES[t["table_t_source"][kind]], self.code_of)
            self.made[number] = item
        return item


def _unbound(player: str) -> int:
    raise KeyError(player)


class KeptItems(Sequence[Sequence["Kept | int"]]):
    """Each player's kept items by code, made from the stored items when first asked for."""

    def __init__(self, items: Sequence[int], starts: list[int], counts: list[int], side: SideItems) -> None:
        self.items, self.starts, self.counts, self.side = items, starts, counts, side
        self.made: dict[int, list[Kept | int]] = {}

    def __len__(self) -> int:
        return len(self.starts)

    def __getitem__(self, code: int) -> list[Kept | int]:  # type: ignore[override]
        kept = self.made.get(code)
        if kept is None:
            start = self.starts[code]
            stored = self.items[start:start + self.counts[code]]
            side = self.side
            kept = self.made[code] = [v if v >= 0 else side[-1 - v] for v in
                                      (stored.tolist() if hasattr(stored, "tolist") else stored)]
        return kept


class KeptByName(Mapping[str, Sequence["Kept | int"]]):
    """player id → their kept items, for the players `order` has (HistoryOnRead's `kept`)."""

    def __init__(self, history: Sequence[Sequence[Kept | int]], order: list[int], names: Sequence[str],
                 code_of: Callable[[str], int]) -> None:
        self.history, self.order, self.names, self.code_of = history, order, names, code_of
        self.listed = frozenset(order)

    def __getitem__(self, player: str) -> Sequence[Kept | int]:
        code = self.code_of(player) if player in self else -1
        if code < 0:
            raise KeyError(player)
        return self.history[code]

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
