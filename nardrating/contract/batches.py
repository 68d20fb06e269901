"""The matches as columns, for per-match engines on a million matches: what replay hands them
(`MatchBatch`, runs of matches between adjustments) and what their results keep to build history
(`MatchColumns`), and the pair limit every engine and the view apply the same way."""
from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Mapping, Sequence, Set as AbstractSet
from itertools import chain
from datetime import date
from typing import Any, NamedTuple, cast

from ..datarecords import datarecord
from .events import MatchFields


class MatchFacts(NamedTuple):
    """One match as a history event names it."""

    day: date
    a: str                                # the players' ids
    b: str
    score_a: float
    entry: str                            # the match id


@datarecord(frozen=True, slots=True)
class MatchColumns:
    """The matches as a replay's history reads them: columns indexed by row, players by code.

    What a per-match engine's result keeps instead of the journal (`RatingView.match_columns()`):
    the same columns the view reads, no copy and no object per match.
    """

    a: Sequence[int]
    b: Sequence[int]
    score_a: Sequence[float]
    dates: Sequence[int]
    entries: Sequence[str]                # the match ids
    players: Sequence[str]                # player ids by code
    code_of: Mapping[str, int]            # player id → code
    entry: Callable[[int], MatchFields]    # a row's own fields (explain reads its chips and score)

    def facts(self, row: int) -> MatchFacts:
        """The match of a record's row: its date, players, score and id."""
        names = self.players
        return MatchFacts(date.fromordinal(self.dates[row]), names[self.a[row]], names[self.b[row]],
                          self.score_a[row], self.entries[row])

    def entries_of(self, rows: Iterable[int]) -> list[str]:
        """The match ids of these rows, in their order: for an engine that reads most of them (the
        journal's id column cuts them from its blob in one pass: IdColumn.take)."""
        take = getattr(self.entries, "take", None)
        return take(rows) if take is not None else list(map(self.entries.__getitem__, rows))

    def on(self, day: date, row: int) -> bool:
        """Whether the row's match was played on `day`."""
        return self.dates[row] == day.toordinal()

    def sides(self, row: int) -> tuple[str, str]:
        """The ids of the row's two players."""
        names = self.players
        return names[self.a[row]], names[self.b[row]]


@datarecord(frozen=True, slots=True)
class MatchBatch:
    """A run of matches in replay order, with no adjustment between them, as columns.

    The compact form of MatchPlayed events for per-match engines on a million matches:
    `rows` in replay order, and columns indexed by row (an index is the cheapest read
    CPython has: no object per match). Player codes index `RatingView.players`; dates are
    ordinals. `excluded` holds the rows rated by no list (voided, forfeit, unrated), and
    `reason(row)` says why; `chips(row)` is what a row moves where it is in `extra`, else its length.
    `seq` is a row's place in the journal (what orders it among tournaments of its date), and
    `tournament` its tournament's code (`RatingView.tournament_ids`), -1 for none; `rated` is 0
    for a row the journal marks `rated = false` (a forfeit's reason is "forfeit" even then).
    """

    rows: Sequence[int]
    a: Sequence[int]
    b: Sequence[int]
    score_a: Sequence[float]
    length: Sequence[int]
    dates: Sequence[int]
    excluded: Container[int]
    reason: Callable[[int], str | None]
    extra: Container[int]                 # rows whose chips are not simply their length
    chips: Callable[[int], float]         # the chips a row moves (`chips`, else the score, else the length)
    seq: Sequence[int]
    tournament: Sequence[int]
    rated: Sequence[int]

    def __len__(self) -> int:
        return len(self.rows)


def excluded_among(excluded: Container[int], rows: Sequence[int]) -> AbstractSet[int]:
    """The rows of `rows` that are in a batch's `excluded`: that set itself, or, where the journal
    answers row by row (a replay resumed over a few rows of a big one), those it finds at once."""
    if isinstance(excluded, (set, frozenset)):
        return excluded
    among: Callable[[Sequence[int]], AbstractSet[int]] | None = getattr(excluded, "among", None)
    return among(rows) if among is not None else {i for i in rows if i in excluded}


def columns_over(batch: MatchBatch, rows: Sequence[int]) -> tuple[Sequence[int], Sequence[int], Sequence[float], Sequence[int]]:
    """(a, b, score_a, rows) to read these rows' players and scores with: the batch's columns and the
    rows, or, where the columns are read through Python (a journal's mapped columns and the matches
    appended to them: a replay resumed over a few rows of a big journal, a Glicko period rated
    again), the stretch of each that the rows lie in, as lists read in C, and the rows counted from
    its start."""
    columns = (batch.a, batch.b, batch.score_a)
    stretches = [getattr(column, "stretch", None) for column in columns]
    if not rows or None in stretches:
        return (*columns, rows)
    low, high = min(rows), max(rows) + 1
    if high - low > 4 * len(rows):
        return (*columns, rows)
    a, b, score_a = (cast(Callable[[int, int], list[Any]], stretch)(low, high) for stretch in stretches)
    return a, b, score_a, [i - low for i in rows]


# Sides looked at a block at a time by newcomers: in C, and no further once everyone has played.
NEWCOMER_BLOCK = 1 << 15


def newcomers(batch: MatchBatch, rows: Sequence[int], present: bytearray, order: list[int]) -> None:
    """Mark in `present` and append to `order` the players of these rows who are not present yet, in
    the order they first appear (a, b, a, b, …). By blocks of rows in C, stopping once every player
    of the view is present (on a big journal, within its first weeks), not at every side."""
    everyone = len(present)
    for start in range(0, len(rows), NEWCOMER_BLOCK):
        if len(order) >= everyone:
            return
        block = rows[start:start + NEWCOMER_BLOCK]
        for code in dict.fromkeys(chain.from_iterable(zip(map(batch.a.__getitem__, block), map(batch.b.__getitem__, block)))):
            if not present[code]:
                present[code] = 1
                order.append(code)


class PairLimit:
    """At most `limit` rated games per pair of players per date (0: no limit)."""

    __slots__ = ("limit", "seen")

    def __init__(self, limit: int):
        self.limit = limit
        self.seen: dict[tuple[int, int, int], int] = {}

    def allows(self, day: int, a: int, b: int) -> bool:
        if not self.limit:
            return True
        key = (day, a, b) if a < b else (day, b, a)
        count = self.seen.get(key, 0)
        if count >= self.limit:
            return False
        self.seen[key] = count + 1
        return True
