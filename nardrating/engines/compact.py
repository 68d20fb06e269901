"""Compact history for per-match engines (fibs, chips).

A million matches would mean two million `HistoryEvent` objects if every
engine built them during replay. These engines instead keep one plain tuple
per match (`records`, in replay order) plus a few side events (adjustments,
decays) and build a player's `HistoryEvent`s only when asked for them.
`result.events` stays a mapping player → events, so the generic reports work
unchanged.
"""
from __future__ import annotations

import weakref
from array import array
from collections.abc import Callable, ItemsView, Iterator, Mapping, ValuesView
from datetime import date
from itertools import count as rows_counted
from typing import Any, ClassVar, cast

from ..datarecords import datarecord, field
from .base import HistoryEvent, RatingResult
from ..contract.batches import MatchColumns


class LazyEvents(Mapping[str, list[HistoryEvent]]):
    """player → list of HistoryEvent, built from a CompactResult on demand."""

    def __init__(self, result: "CompactResult") -> None:
        # Weakly: the result holds its events, and a strong reference back would make the two a
        # cycle, which only the cyclic collector frees (and, frozen, never: collector.py), not the
        # dropping of the result (a recalc drops each list's result, a million records, at once).
        self._owner = weakref.ref(result)
        self._all: dict[str, list[HistoryEvent]] | None = None
        self._one: dict[str, list[HistoryEvent]] = {}

    @property
    def _result(self) -> "CompactResult":
        result = self._owner()
        assert result is not None, "a result's events are read through the result"
        return result

    def _build_all(self) -> dict[str, list[HistoryEvent]]:
        if self._all is None:
            self._all = self._result.build_events(None)
        return self._all

    def __getitem__(self, player: str) -> list[HistoryEvent]:
        if self._all is not None:
            return self._all[player]
        if player not in self._result.standings:
            raise KeyError(player)
        if player not in self._one:
            self._one[player] = self._result.build_events(player).get(player, [])
        return self._one[player]

    def __iter__(self) -> Iterator[str]:
        return iter(self._build_all())

    def __len__(self) -> int:
        return len(self._build_all())

    def items(self) -> ItemsView[str, list[HistoryEvent]]:
        return self._build_all().items()

    def values(self) -> ValuesView[list[HistoryEvent]]:
        return self._build_all().values()


# How far from the end event_of looks for a match's record before reading the player's history.
RECENT_RECORDS = 64
SEARCHES = 128   # ColumnRecords.positions_of: a card's opponents searched for, publish's ten thousand players indexed


@datarecord
class CompactResult(RatingResult):
    """A RatingResult whose events are built from per-match tuples when read.

    `records[k]` is a tuple whose first item is the match index; `side` holds
    (position, player, payload): an event that happened before records[position].
    Subclasses turn a record into its two players' events (`match_events`) and
    a side payload into one event (`side_event`).
    """

    # What the records' rows refer to: RatingView.match_columns, called when history is first built
    # (a leaderboard of a cached replay never loads the journal's match columns).
    matches: Callable[[], MatchColumns] | None = None
    records: Any = field(default_factory=list)  # a sequence of tuples: a list, or ColumnRecords
    side: list[tuple[int, str, Any]] = field(default_factory=list)
    order: list[str] | None = None  # the players in the order history lists them, if not the standings'
    whole_start: bool = False   # the list's start is an int (1200): see exact_ints, where whole_numbers
    _columns: MatchColumns | None = field(default=None, init=False, repr=False)
    # The replay keeps whole-number ratings as ints until a rated game (exact_ints, on every event list).
    whole_numbers: ClassVar[bool] = False
    # A player's history is their records' and side events, nothing between them: a period's events
    # can be built from its records alone (window.py).
    windowed: ClassVar[bool] = True

    def __post_init__(self) -> None:
        self.events = LazyEvents(self)  # type: ignore[assignment]  # a read-only mapping, built on demand

    def match_events(self, record: tuple[Any, ...]) -> tuple[HistoryEvent, HistoryEvent]:
        """The events of players a and b of the record's match."""
        raise NotImplementedError

    def match_facts(self, record: tuple[Any, ...]) -> tuple[Any, ...]:
        """(day, a, b, score_a, entry, unrated): the record's match, and its two events if it was not rated.

        A 4-item record (i, rating a, rating b, reason) is an unrated match in every engine here.
        """
        day, a, b, score_a, entry = self.match_columns().facts(record[0])
        unrated = None
        if len(record) == 4:
            _, ra, rb, reason = record
            unrated = (HistoryEvent(day, entry, "match", b, score_a, ra, 0.0, ra, False, reason),
                       HistoryEvent(day, entry, "match", a, 1.0 - score_a, rb, 0.0, rb, False, reason))
        return day, a, b, score_a, entry, unrated

    def match_columns(self) -> MatchColumns:
        if self._columns is None:
            assert self.matches is not None, "a compact result is made with the view's match columns"
            self._columns = self.matches()
        return self._columns

    def side_event(self, payload: Any) -> HistoryEvent:
        return cast(HistoryEvent, payload)  # adjustments are stored as ready HistoryEvents

    def build_events(self, only: str | None) -> dict[str, list[HistoryEvent]]:
        """Every player's events (only=None) or one player's, in replay order."""
        m = self.match_columns()
        names = m.players
        code = m.code_of.get(only, -1) if only is not None else None
        everyone = self.standings if self.order is None else self.order
        out: dict[str, list[HistoryEvent]] = {p: [] for p in everyone} if only is None else {only: []}
        side = self.side
        if only is not None and code is not None and isinstance(self.records, ColumnRecords):
            return self._whole({only: self._events_of(only, code)})
        s = 0
        for k, record in enumerate(self.records):
            while s < len(side) and side[s][0] <= k:
                if only is None or side[s][1] == only:
                    out.setdefault(side[s][1], []).append(self.side_event(side[s][2]))
                s += 1
            i = record[0]
            a, b = m.a[i], m.b[i]
            if code is not None and a != code and b != code:
                continue
            event_a, event_b = self.match_events(record)
            if code is None or a == code:
                out[names[a]].append(event_a)
            if code is None or b == code:
                out[names[b]].append(event_b)
        for _, player, payload in side[s:]:
            if only is None or player == only:
                out.setdefault(player, []).append(self.side_event(payload))
        return self._whole(out)

    def event_of(self, player: str, entry: str) -> HistoryEvent | None:
        """The player's event of match `entry`: where it is one of the last records (the match a
        writer has just appended, which add-match previews), made from its record alone, not from
        the player's whole history; as the history has it (windowed: nothing but the record makes
        it, and a rating exact_ints would give back as an int is looked up there)."""
        records = self.records
        if self.windowed:
            m = self.match_columns()
            code = m.code_of.get(player)
            for k in range(len(records) - 1, max(len(records) - RECENT_RECORDS, 0) - 1, -1):
                record = records[k]
                i = record[0]
                if m.entries[i] != entry:
                    continue
                a, b = m.a[i], m.b[i]
                if code == a or code == b:
                    event = self.match_events(record)[0 if code == a else 1]
                    before = event.before
                    if not self.whole_numbers or type(before) is float and not before.is_integer():
                        return event
                break
        return super().event_of(player, entry)

    def _whole(self, built: dict[str, list[HistoryEvent]]) -> dict[str, list[HistoryEvent]]:
        if self.whole_numbers:
            for events in built.values():
                exact_ints(events, self.whole_start)
        return built

    def _events_of(self, player: str, code: int) -> list[HistoryEvent]:
        """One player's events from column records: only their rows are read."""
        m = self.match_columns()
        mine = [(position, payload) for position, who, payload in self.side if who == player]
        events: list[HistoryEvent] = []
        s = 0
        for k in self.records.positions_of(code):
            while s < len(mine) and mine[s][0] <= k:
                events.append(self.side_event(mine[s][1]))
                s += 1
            record = self.records[k]
            event_a, event_b = self.match_events(record)
            events.append(event_a if m.a[record[0]] == code else event_b)
        events += [self.side_event(payload) for _, payload in mine[s:]]
        return events


def _joined(x: Any, y: Any) -> array[Any]:
    """Two columns as one new array (a column mapped from the cache, or a strided view, is copied first)."""
    if not isinstance(x, array):
        x = array(x.format, x.tobytes())
    if not isinstance(y, array):
        y = array(y.format, y.tobytes())
    return cast("array[Any]", x + y)


class ColumnRecords:
    """Records kept as columns (machine arrays), as the cache stores them.

    Behaves as a read-only sequence of the same tuples a replay appends:
    (i, field1, field2, …) for a rated match, (i, rating a, rating b, reason)
    for an unrated one. `positions_of` finds one player's records without
    building the others, which keeps `history` fast on a million matches.
    The columns may be given as a function that reads them when first needed
    (a leaderboard never does).
    """

    @classmethod
    def of_buffer(cls, index: Any, players: Any, fields: bytearray, width: int,
                  reasons: dict[int, str]) -> "ColumnRecords":
        """The records a replay wrote as `width` doubles a match side by side in `fields` (one per
        row of `index`; `players`: the rows' two player columns, or a function that makes them when
        first needed), read as columns: strided views, no copy."""
        flat = memoryview(fields).cast("d")
        columns = [flat[f::width] for f in range(width)]
        if callable(players):
            return cls(lambda: (index, *players(), columns), reasons, len(index))
        return cls((index, *players, columns), reasons)

    def __init__(self, columns: Any, reasons: dict[int, str], count: int | None = None) -> None:
        self._columns = columns  # (index, a, b, fields) or a function returning it
        self.reasons = reasons
        self._count = count
        self._searches = 0   # players' rows searched for, until an index of every player's rows is made
        self._by_player: dict[int, list[int]] | None = None

    @property
    def columns(self) -> Any:
        if callable(self._columns):
            self._columns = self._columns()
        return self._columns

    def extended(self, more: "ColumnRecords") -> "ColumnRecords":
        """These records followed by `more`: kept apart (a resumed replay adds a few records to a
        million mapped from the cache) until something needs all the columns as one."""
        return JoinedRecords(self, more)

    def head(self, count: int) -> "ColumnRecords":
        """The first `count` records (views or copies of the columns' heads, made when first needed)."""
        def columns() -> tuple[Any, ...]:
            index, a, b, fields = self.columns
            return index[:count], a[:count], b[:count], [f[:count] for f in fields]

        return ColumnRecords(columns, {k: r for k, r in self.reasons.items() if k < count}, count)

    def __len__(self) -> int:
        if self._count is not None and callable(self._columns):
            return self._count
        return len(self.columns[0])

    def __getitem__(self, k: int) -> tuple[Any, ...]:
        index, _, _, fields = self.columns
        if k in self.reasons:
            return (index[k], fields[0][k], fields[1][k], self.reasons[k])
        return (index[k], *(f[k] for f in fields))

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        return (self[k] for k in range(len(self)))

    def rows(self, start: int, stop: int) -> list[tuple[Any, ...]]:
        """records[start:stop] as self[k] gives each, the columns sliced once (not record by record)."""
        index, _, _, fields = self.columns
        out = list(zip(index[start:stop].tolist(), *(f[start:stop].tolist() for f in fields)))
        for k, reason in self.reasons.items():
            if start <= k < stop:
                i, rating_a, rating_b = out[k - start][:3]
                out[k - start] = (i, rating_a, rating_b, reason)
        return out

    def positions_of(self, code: int) -> list[int]:
        """The rows where player `code` plays: a byte search of the two player columns (in C) for the
        first SEARCHES players asked of; then (publish asks of everyone) the rows of every player,
        indexed in one pass. Of a million rows, one player's search costs about 1/60 of that pass."""
        _, a, b, _ = self.columns
        if self._by_player is None:
            self._searches += 1
            if self._searches <= SEARCHES:
                return sorted({*positions_in(a, code), *positions_in(b, code)})
            self._by_player = rows_by_player(a, b)
        return list(self._by_player.get(code, ()))


def rows_by_player(a: Any, b: Any) -> dict[int, list[int]]:
    """Player code → the rows where they play (as a or b), ascending: what positions_of finds."""
    found: dict[int, list[int]] = {}
    for k, x, y in zip(rows_counted(), a, b):
        rows = found.get(x)
        if rows is None:
            rows = found[x] = []
        rows.append(k)
        if y != x:
            rows = found.get(y)
            if rows is None:
                rows = found[y] = []
            rows.append(k)
    return found


def positions_in(column: Any, code: int) -> Iterator[int]:
    """The positions of `code` in a column of C ints (an array or a view): a byte search (in C)."""
    size = array("i").itemsize
    needle = array("i", [code]).tobytes()
    raw = column.tobytes() if isinstance(column, array) else bytes(memoryview(column).cast("B"))
    at = raw.find(needle)
    while at >= 0:
        if at % size == 0:  # a hit across two items' bytes is no code
            yield at // size
        at = raw.find(needle, at + 1)


class JoinedRecords(ColumnRecords):
    """`first` then `second`, each read in place; the columns are joined only when asked for."""

    def __init__(self, first: ColumnRecords, second: ColumnRecords) -> None:
        self.first, self.second = first, second
        offset = len(first)
        reasons = dict(first.reasons)
        reasons.update({offset + k: r for k, r in second.reasons.items()})
        super().__init__(self._join, reasons, offset + len(second))

    def _join(self) -> tuple[Any, ...]:
        index, a, b, fields = self.first.columns
        m_index, m_a, m_b, m_fields = self.second.columns
        return (_joined(index, m_index), _joined(a, m_a), _joined(b, m_b),
                [_joined(x, y) for x, y in zip(fields, m_fields)])

    def __getitem__(self, k: int) -> tuple[Any, ...]:
        if not callable(self._columns):
            return super().__getitem__(k)
        offset = len(self.first)
        return self.first[k] if k < offset else self.second[k - offset]

    def positions_of(self, code: int) -> list[int]:
        if not callable(self._columns):
            return super().positions_of(code)
        offset = len(self.first)
        return self.first.positions_of(code) + [offset + k for k in self.second.positions_of(code)]


def event_json(e: HistoryEvent) -> list[object]:
    """A side event (adjustment, penalty) as the cache stores it in a result's JSON head."""
    return [e.date.isoformat(), e.entry, e.kind, e.opponent, e.result, e.before, e.change, e.after, e.rated,
            e.reason, e.extra]


def event_from_json(item: list[Any]) -> HistoryEvent:  # as event_json wrote it, checked by cachecheck
    return HistoryEvent(date.fromisoformat(item[0]), *item[1:])


def whole_flags(ratings: list[Any]) -> array[int]:
    """Which ratings are Python ints (the list's whole start, an [[adjust]]'s whole `set`): the cache
    stores ratings as doubles and these flags beside them (stored_ratings reads both back)."""
    return array("b", [type(r) is int for r in ratings])


def stored_ratings(ratings: array[float], whole: array[int]) -> list[Any]:
    """The ratings whole_flags was taken of, from the cache: ints where they were (1200, not 1200.0)."""
    values: list[Any] = ratings.tolist()
    if whole.count(0) != len(whole):   # (usually none is whole: the list as it is, found in C)
        values = [int(r) if w else r for r, w in zip(values, whole)]
    return values


def exact_ints(events: list[HistoryEvent], whole: bool) -> list[HistoryEvent]:
    """A player's events with the ratings the replay held as ints given back as ints, in place.

    A rating is a Python int until the player's first rated game when the list's start is one
    (`whole`: `start = 1200` in the config), and again after an [[adjust]] that sets a whole
    number; records keep doubles, so the ratings before (and after an unrated game) such a game
    are written back as the replay had them: history shows 1200, not 1200.0.
    """
    for e in events:
        kind = e.kind
        if kind == "match":
            if whole:
                e.before = int(cast(float, e.before))
                if e.rated:
                    whole = False
                else:
                    e.after = e.before
        elif kind == "adjust" or kind == "penalty":
            whole = type(e.after) is int
    return events
