"""What an elo replay reaches (EloState), its compact result (EloResult) and why a game is not
rated: shared by the engine (elo.py) and the [fast] extra's compiled loop, which builds the same state.

A record per game, in replay order, as ColumnRecords columns: the match row, and four doubles,
rating a and rating b before it, a's change K·(S − E) and a's expected score E; an unrated game
holds rating a, rating b and NaN, its reason in `reasons`. The history events are built from
them when asked for, with the very arithmetic of seed 003's update (new = old ± change).
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from datetime import date
from typing import Any

from ..datarecords import datarecord
from .base import HistoryEvent, ReportRow
from .compact import ColumnRecords, CompactResult
from .window import rated_after, record_rows

SideEvent = tuple[int, str, HistoryEvent]
RECORD_FIELDS = 4  # after the match row: rating a, rating b, change of a, expected score of a


def exclusion(reason: str | None, day: int, pair_limit: int) -> str:
    """Why a game is not rated here (off the hot path): `reason`, the view's (voided, forfeit,
    unrated), else the pair limit (`pair_limit` rated games a pair a day) of `day` (an ordinal)."""
    if reason is not None:
        return reason
    return f"pair limit: more than {pair_limit} rated games of this pair on {date.fromordinal(day)}"


@datarecord
class EloState:
    """Everything a replay needs to go on, per player code, and the records so far."""

    rating: list[float]
    games: list[int]
    last: list[int]          # the last rated game's date (ordinal), 0: none
    order: list[int]         # player codes as they first appear in the replay: the standings' order
    pairs_seen: dict[tuple[int, int, int], int]  # PairLimit.seen of the last date
    records: ColumnRecords
    side: list[SideEvent]    # adjustments and penalties: (records before it, player, event)
    last_date: int           # the latest game date replayed (ordinal)


@datarecord
class EloResult(CompactResult):
    """The elo engine's result: each game's history lines made from its record when read."""

    whole_numbers = True   # the default start 1200 is an int (compact.exact_ints)
    # provisional_games, where a status is the count of rated games alone (None: inactivity has a say)
    established_after: int | None = None

    def statuses_at(self, day: date) -> dict[str, str] | None:
        """As `finish` words a status: established from `established_after` rated games on, each
        player's count as of `day` being their count now less their rated games after it."""
        if self.established_after is None:
            return None
        later, code_of, games = rated_after(self, day), self.match_columns().code_of, self.established_after
        return {player: "established" if s.games - later[code_of[player]] >= games else "provisional"
                for player, s in self.standings.items()}

    def match_events(self, record: tuple[Any, ...]) -> tuple[HistoryEvent, HistoryEvent]:
        unrated: tuple[HistoryEvent, HistoryEvent] | None  # (match_facts says so in its docstring)
        day, a, b, score_a, entry, unrated = self.match_facts(record)
        if unrated:
            return unrated
        _, ra, rb, change, e_a = record
        new_a, new_b = ra + change, rb - change   # as seed 003's update: B's change is −change exactly
        return (HistoryEvent(day, entry, "match", b, score_a, ra, new_a - ra, new_a, True, None, {"expected": e_a}),
                HistoryEvent(day, entry, "match", a, 1 - score_a, rb, new_b - rb, new_b, True, None,
                             {"expected": 1 - e_a}))

    def period_rows(self, start: date, end: date, statuses: Mapping[str, str]) -> list[ReportRow] | None:
        return record_rows(self, start, end, statuses, _elo_sides)


def _elo_sides(fields: list[list[float]], scores: list[float]) -> Iterator[tuple[float, ...]]:
    """Of each record (as match_events reads it, rated): a's rating after, result and expected
    score, then b's: B's change is −change exactly, as in seed 003's update."""
    ra, rb, change, e_a = fields
    for r_a, r_b, c, e, score in zip(ra, rb, change, e_a, scores):
        yield r_a + c, score, e, r_b - c, 1 - score, 1 - e
