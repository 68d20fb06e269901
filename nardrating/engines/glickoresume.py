"""Games appended to a kept Glicko replay's last period, rated without rating the whole period again.

A period is rated as a whole (glicko.py), but a player's update depends only on the period's start:
the player's and the opponents' μ and deviations then (the engine's onsets), and the player's own
games. A game appended to the last period, after its other games (resume.resumed_result asks for
that), changes only its two players' updates (their v, Σ, new φ and σ), so the changes of every game
of theirs in the period, the ratings their unrated games of it hold, and their ratings. The opponents of their earlier games keep their own
numbers (those games' expected scores and shares are as they were), and so does everyone else.

So the players of the appended games are rated again here, each over all their games of the period
in order, with Replay.close's arithmetic written the same way (the same operations in the same
order give the same doubles); every other number is the kept replay's. Anything else (a game of a
later period, an unrated or forfeited game appended, a player whose games of the period were all
unrated, an adjustment) is left to the replay (glickoreplay.py): None.
"""
from __future__ import annotations

import math
from array import array
from bisect import bisect_left
from typing import Any

from ..contract.batches import MatchBatch, excluded_among
from .compact import ColumnRecords
from .glickomath import PI2, period_index
from .glickostate import GlickoState, LastPeriod, PlayerPeriods

# A player's game of the period: (side: 0 if the player is a, 1 if b; the record's place in the
# period's records; the match row; the opponent's code).
Game = tuple[int, int, int, int]


def resumed_in_place(engine: Any, view: Any, kept: GlickoState) -> GlickoState | None:
    """The state a replay resumed over the view's appended games gives, or None (replay them)."""
    at = kept.last_period
    events = list(view.batched_events())
    if at is None or at.index is None or not events or not all(isinstance(e, MatchBatch) for e in events):
        return None
    batch: MatchBatch = events[-1]   # (every batch indexes the same columns)
    new = [i for event in events for i in event.rows]
    if not new or any(period_index(batch.dates[i], view.params.period) != at.index for i in new) or \
            not excluded_among(batch.excluded, new).isdisjoint(new):
        return None
    index, sides_a, sides_b, _ = kept.records.columns
    first = at.records   # the period's records: first … len(kept.records) - 1
    rows, ra, rb = index[first:].tolist(), sides_a[first:].tolist(), sides_b[first:].tolist()
    # The players of the appended games, as they first appear in them (a, b, a, b…), and their rated
    # and unrated games of the period.
    games: dict[int, list[Game]] = {x: [] for i in new for x in (batch.a[i], batch.b[i])}
    unrated: dict[int, list[Game]] = {x: [] for x in games}
    reasons = kept.records.reasons
    for k, (a, b) in enumerate(zip(ra, rb)):
        if a in games:
            (unrated if first + k in reasons else games)[a].append((0, k, rows[k], b))
        if b in games:
            (unrated if first + k in reasons else games)[b].append((1, k, rows[k], a))
    if any(unrated[x] and not games[x] for x in games):
        # (rated in the period from now: the table's rows of the period follow the players' first
        # games, rated or not, so this one's row would come before others')
        return None
    for k, i in enumerate(new, len(rows)):
        games[batch.a[i]].append((0, k, i, batch.b[i]))
        games[batch.b[i]].append((1, k, i, batch.a[i]))
    return _Rerated(engine, view, kept, at, batch, games, unrated, new, (rows, ra, rb)).state()


class _Rerated:
    """The appended games' players rated again over their games of the period, and the state with them."""

    def __init__(self, engine: Any, view: Any, kept: GlickoState, at: LastPeriod, batch: MatchBatch,
                 games: dict[int, list[Game]], unrated: dict[int, list[Game]], new: list[int],
                 period: tuple[list[int], list[int], list[int]]) -> None:
        self.engine, self.view, self.kept, self.at, self.batch = engine, view, kept, at, batch
        self.games, self.unrated, self.new = games, unrated, new
        self.period, self.before = period, len(period[0])   # the period's kept records: rows, players a, b
        p = self.p = view.params
        # The state at the period's start, grown to the view's players (as Replay.run grows it).
        grow = self.grow = len(view.players) - len(at.r)
        self.r0, self.phi0 = at.r + [p.start] * grow, at.phi + [p.rd / engine.scale] * grow
        self.sigma0, self.last0 = at.sigma + [getattr(p, "sigma", 0.0)] * grow, at.last + [None] * grow
        self.games0, self.played0, self.row0 = at.games + [0] * grow, at.played + [0] * grow, at.row + [0] * grow

    def state(self) -> GlickoState:
        engine, kept, at, batch, games, p = self.engine, self.kept, self.at, self.batch, self.games, self.p
        scale, sqrt, exp = engine.scale, math.sqrt, math.exp
        players = list(games)
        # g(φ) and μ at the period's start of these players and their opponents, as close() sets them.
        needed = list(dict.fromkeys([*players, *(y for own in games.values() for *_, y in own)]))
        onset = dict(zip(needed, engine.onsets(needed, self.phi0, self.sigma0, self.last0, at.index, p)))
        g_of = {x: 1.0 / sqrt(1.0 + 3.0 * o * o / PI2) for x, o in onset.items()}
        mu = {x: (self.r0[x] - 1500) / scale for x in needed}
        # close()'s first pass, a player at a time: each game's E and g(φj)(sj − Ej), v summed in order.
        scores = batch.score_a
        expected: dict[tuple[int, int], float] = {}
        terms: dict[int, list[float]] = {}
        info: dict[int, float] = {}
        for x in players:
            total, own = 0.0, []
            for side, k, i, y in games[x]:
                g_y = g_of[y]
                e = 1.0 / (1.0 + exp(-g_y * (mu[x] - mu[y])))
                total += g_y * g_y * e * (1.0 - e)
                own.append(g_y * (scores[i] - e) if side == 0 else g_y * (1.0 - scores[i] - e))
                expected[k, side] = e
            info[x], terms[x] = total, own
        onsets = [onset[x] for x in players]
        new_phi, new_sigma = engine.deviations(onsets, [self.sigma0[x] for x in players], [1.0 / info[x] for x in players],
                                               # (Σ as _ByCode.sums_of adds it: as sum() does)
                                               [sum(terms[x]) for x in players] if engine.has_volatility else [], p)
        table, rows_of = self._table(players, onsets, new_phi, new_sigma)
        records = _PeriodRecords(kept.records, at.records, self.period, self.view, self.new)
        # The end state: the kept one, the rerated players' entries (close()'s second pass: each game's
        # share φ'²·g(φj)(sj − Ej) of the period's change, added to the rating in turn).
        grow, dates = self.grow, batch.dates
        r = kept.r + [p.start] * grow
        phi, sigma = kept.phi + self.phi0[len(kept.phi):], kept.sigma + self.sigma0[len(kept.sigma):]
        last: list[int | None] = kept.last + [None] * grow
        counts, played = kept.games + [0] * grow, kept.played + [0] * grow
        for x, phi_x, sigma_x in zip(players, new_phi, new_sigma):
            phi2, rating = phi_x * phi_x, self.r0[x]
            befores = []
            for (side, k, _, _), term in zip(games[x], terms[x]):
                before = rating
                change = phi2 * term * scale
                rating = before + change
                records.side(k, side, before, change, expected[k, side], rows_of[x])
                befores.append(before)
            # An unrated game holds the rating before it: that before the player's next rated game
            # of the period, or after the last one (Replay.unrated).
            places = [k for _, k, _, _ in games[x]]
            for side, k, _, _ in self.unrated[x]:
                after = bisect_left(places, k)
                records.side(k, side, rating if after == len(places) else befores[after], math.nan, math.nan,
                             rows_of[x])
            r[x], phi[x], sigma[x], last[x] = rating, phi_x, sigma_x, at.index
            counts[x], played[x] = self.games0[x] + len(games[x]), dates[games[x][-1][2]]
        order, event_order = list(kept.order), list(kept.event_order)
        for found in (order, event_order):   # the players new to them, as they first appear (newcomers)
            seen = set(found)
            found.extend(x for x in players if x not in seen)
        last_period = LastPeriod(at.index, at.records, at.table, at.events, dates[self.new[-1]], self.r0, self.phi0,
                                 self.sigma0, self.last0, self.games0, self.played0, self.row0)
        return GlickoState(r, phi, sigma, last, counts, played, order, event_order, records.records(),
                           list(kept.side), table, last_period)

    def _table(self, players: list[int], onsets: list[float], new_phi: list[float],
               new_sigma: list[float]) -> tuple[PlayerPeriods, dict[int, int]]:
        """The player-period table, its rows of the period copied and the rerated players' rewritten
        (one new to the period: a row after the others, as they first appear); and their rows."""
        kept, at = self.kept.periods, self.at
        columns = (kept.phi_before, kept.phi, kept.volatility, kept.last_row)
        period = [_copied_from(c, at.table) for c in columns]
        rows = self.kept.records.columns[3][6:8]   # each side's row of the table, by record
        rows_of: dict[int, int] = {}
        for x, onset, phi_x, sigma_x in zip(players, onsets, new_phi, new_sigma):
            side, k, _, _ = self.games[x][0]
            if k < self.before:   # (a game of the period before: its record holds the player's row)
                rows_of[x] = row = int(rows[side][at.records + k])
            else:
                rows_of[x] = row = at.table + len(period[0])
                for column in period:
                    column.append(0)
                period[0][row - at.table] = onset
            at_row = row - at.table
            period[1][at_row], period[2][at_row], period[3][at_row] = phi_x, sigma_x, self.games[x][-1][2]
        table = kept.head(at.table)
        for name, values in zip(("phi_before", "phi", "volatility", "last_row"), period):
            getattr(table, name).extend(values)
        return table, rows_of


class _PeriodRecords:
    """The kept records before the period in place, the period's copied into arrays of their own,
    then the appended games' (index and players); side() writes a rerated player's side."""

    def __init__(self, kept: ColumnRecords, first: int, period: tuple[list[int], list[int], list[int]], view: Any,
                 new: list[int]) -> None:
        self.head = kept.head(first)
        self.index, self.a, self.b = (array("i", column) for column in period)
        self.fields = [_copied_from(f, first) for f in kept.columns[3]]
        self.reasons = {k - first: reason for k, reason in kept.reasons.items() if k >= first}
        self.index.extend(new)
        new_a, new_b = view.player_columns(array("i", new))
        self.a.extend(new_a)
        self.b.extend(new_b)
        for f in self.fields:
            f.extend([0] * len(new))

    def side(self, k: int, side: int, before: float, change: float, expected: float, row: int) -> None:
        fields = self.fields
        fields[side][k], fields[2 + side][k], fields[4 + side][k], fields[6 + side][k] = before, change, expected, row

    def records(self) -> ColumnRecords:
        return self.head.extended(ColumnRecords((self.index, self.a, self.b, self.fields), self.reasons))


def _copied_from(column: Any, start: int) -> array[Any]:
    """Rows start … of a machine array or a (mapped) view, as an array of their own."""
    return array(column.typecode if isinstance(column, array) else column.format[-1], column[start:].tolist())
