"""A Glicko list's state at a point of its replay, and explain's rated periods, read from the whole
replay's records and player-period table instead of replaying the list again.

The records are in replay order, period by period (glickoreplay.py): a period's games are one run
of them. A rated record holds each side's rating before the game and its row of the player-period
table, which keeps the deviation at the period's start and after it (φ) and the volatility after
it, as the very doubles the replay held. So, exactly as the replay had them:
- a player's rating at a period's start (before their first rated game of it: the changes are
  added in turn, from the period's start);
- their φ and σ just before a period is rated, and the last period that set φ: what their last
  rated period before it left, or an adjustment read after it (glickoreplay's `adjust`: an rd sets
  φ and makes its period the last, a volatility sets σ; an adjustment dated in a period is read
  before that period is rated);
- their φ at a period's start (the table's), and their update: the engine's rate_values of their
  games [(μj, φj, sj)] in the period's order, as the replay's `kept` makes it for explain.
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from datetime import date
from collections.abc import Iterator
from typing import Any

from .glickomath import Period, period_index, period_label
from .window import SCAN, last_records


def states_before(result: Any, codes: set[int], first: int, through: int
                  ) -> tuple[dict[int, float], dict[int, float], dict[int, int | None]]:
    """(φ, σ, last rated period) of these players by code, as the replay held them after its
    records before record `first` and the adjustments of periods up to `through` (index) read."""
    p, scale, period, m = result.view.params, result.scale, result.period, result.match_columns()
    phi = dict.fromkeys(codes, p.rd / scale)
    sigma = dict.fromkeys(codes, getattr(p, "sigma", 0.0))
    last: dict[int, int | None] = dict.fromkeys(codes)
    records, table, dates = result.records, result.player_periods, m.dates
    row, col_a, col_b, fields = records.columns
    if len(codes) == 1:   # (explain's one player: searched for in C, not record by record)
        code, = codes
        found = _last_rated(col_a, col_b, records.reasons, first, code)
        latest = {} if found is None else {code: found}
    else:
        latest = last_records(records, first, codes)[1]
    for code, k in latest.items():
        at = int(fields[6][k] if col_a[k] == code else fields[7][k])   # the side's player-period row
        phi[code], sigma[code] = table.phi[at], table.volatility[at]
        last[code] = period_index(dates[row[k]], period)
    rated = dict(last)   # each player's last rated period: an adjustment in it came before it was rated
    code_of = m.code_of
    for a in result.view.adjusts:   # (by date)
        at_index = period_index(a.date.toordinal(), period)
        if at_index > through:
            break
        code = code_of[a.player]
        if code in codes and (rated[code] is None or at_index > rated[code]):   # type: ignore[operator]
            if a.rd is not None:
                phi[code], last[code] = a.rd / scale, at_index
            if a.volatility is not None:
                sigma[code] = a.volatility
    return phi, sigma, last


def _last_rated(col_a: Any, col_b: Any, unrated: Any, first: int, code: int) -> int | None:
    """The last record before `first` where player `code` plays and which was rated, or None."""
    stop = first
    while stop > 0:
        begin = max(0, stop - SCAN)
        found = [k for column in (col_a, col_b) for k in _positions(column[begin:stop].tolist(), code, unrated, begin)]
        if found:
            return begin + max(found)
        stop = begin
    return None


def _positions(values: list[int], code: int, unrated: Any, offset: int = 0) -> Iterator[int]:
    """The positions of `code` in `values` (found in C) whose records (position + offset) were rated."""
    at = 0
    while True:
        try:
            at = values.index(code, at)
        except ValueError:
            return
        if at + offset not in unrated:
            yield at
        at += 1


class RecordPeriods:
    """What a Replay with `keep` gives explain, `periods` (index → Period) and `games` ((player,
    match id) → (period index, the game's place among the player's rated games of it)), made from
    the records for each player and period explain asks about (`game_of`)."""

    def __init__(self, result: Any, engine: Any) -> None:   # (a GlickoResult)
        self.result, self.engine = result, engine
        self.periods: dict[int, Period] = {}
        self.games: dict[tuple[str, str], tuple[int, int]] = {}

    def game_of(self, player: str, entry: str, day: date) -> tuple[int, int]:
        """games[player, entry] for the match of that id played on `day`: its period made from the
        records of that period (no search of every match id for its row)."""
        if (player, entry) not in self.games:
            self.add(player, period_index(day.toordinal(), self.result.period))
        return self.games[player, entry]

    def add(self, player: str, index: int) -> None:
        """Make period `index` of `player`'s games, or add the player's update to it."""
        result, m = self.result, self.result.match_columns()
        period = result.period
        records = result.records
        row, col_a, col_b, fields = records.columns
        dates = m.dates
        count = len(records)
        first = bisect_left(range(count), index, key=lambda k: period_index(dates[row[k]], period))
        end = bisect_right(range(count), index, lo=first, key=lambda k: period_index(dates[row[k]], period))
        rows, a, b = row[first:end].tolist(), col_a[first:end].tolist(), col_b[first:end].tolist()
        before_a, before_b = fields[0][first:end].tolist(), fields[1][first:end].tolist()
        table_a, table_b = fields[6][first:end].tolist(), fields[7][first:end].tolist()
        unrated = {k - first for k in range(first, end) if k in records.reasons}
        x = m.code_of[player]
        # The player's rated games of the period, in order: (record, opponent, score).
        games = sorted([(k, b[k], m.score_a[rows[k]]) for k in _positions(a, x, unrated)] +
                       [(k, a[k], 1.0 - m.score_a[rows[k]]) for k in _positions(b, x, unrated)])
        if not games:
            raise KeyError((player, index))
        scale, table, names = result.scale, result.player_periods, m.players
        kept = self.periods.get(index)
        if kept is None:
            kept = self.periods[index] = Period(period_label(index, period), {}, {}, {}, {})
        for code in {x, *(y for _, y, _ in games)}:
            # Each one's first rated game of the period: their rating and φ at its start.
            at_a, at_b = next(_positions(a, code, unrated), None), next(_positions(b, code, unrated), None)
            rating, at = (before_a[at_a], table_a[at_a]) if at_b is None or (at_a is not None and at_a < at_b) \
                else (before_b[at_b], table_b[at_b])
            kept.mu[names[code]] = (rating - 1500) / scale
            kept.onset[names[code]] = table.phi_before[int(at)]
        phi, sigma, last = states_before(result, {x}, first, index)
        kept.start[player] = (phi[x], last[x], sigma[x])
        kept.updates[player] = self.engine.rate_values(
            kept.mu[player], sigma[x], kept.onset[player],
            [(kept.mu[names[y]], kept.onset[names[y]], s) for _, y, s in games], result.view.params)
        entry_of = m.entries_of([rows[k] for k, _, _ in games])
        for place, match_id in enumerate(entry_of):
            self.games[player, match_id] = index, place

