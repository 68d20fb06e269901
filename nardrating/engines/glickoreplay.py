"""The rating-period replay both Glicko engines share, on the batched columns, into compact records.

Each rating period is rated at once (glicko.py's docstring): every game of the period against
the opponents' state at its start, all players moving together at its end. An adjustment dated
in a period applies when it is read, so before the period is rated: its history event comes
before the period's games. One record per game, in replay order (ColumnRecords): the match row;
each side's rating before it, change and expected score; and each side's player-period, a row of
the PlayerPeriods table (the deviation at the period's start, the new deviation and volatility,
and the match row of the player's last game of the period, where history shows the new ones).
An unrated game holds the two ratings before it, its reason in `reasons`. The history events
are built from the records when asked for (the result: glickoresult.py); `keep` also keeps each
period's arithmetic by player, for explain.

A period is rated as a whole, so a replay goes on over appended matches from just before its last
period was rated (glickostate.LastPeriod, kept with the state): that period's games are rated
again together with the appended ones of the same period, then any later periods.
"""
from __future__ import annotations

import math
from array import array
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from itertools import chain, groupby
from typing import Any, cast

from ..contract.batches import MatchBatch, columns_over, excluded_among, newcomers
from ..contract.events import Adjusted
from .base import HistoryEvent, adjusted
from .compact import ColumnRecords
from .glickomath import COMPENSATED_SUM, PI2, Period, Update, period_index, period_label
from .glickostate import GlickoState, LastPeriod, PlayerPeriods, SideEvent


class Replay:
    """One replay of a view under a Glicko engine (`engine`: its onset and rate arithmetic); with
    `resume`, of the view's appended matches, going on from its last period (LastPeriod)."""

    def __init__(self, engine: Any, view: Any, keep: bool = False, resume: GlickoState | None = None,
                 focus: set[int] | None = None, until: int | None = None):
        self.engine, self.view, self.p, self.keep, self.resume = engine, view, view.params, keep, resume
        self.periods: dict[int, Period] = {}                   # with keep: each rated period, by index
        self.games: dict[tuple[str, str], tuple[int, int]] = {}  # with keep: (player, entry) → (period, game k)
        # With keep: the players (codes) whose periods are kept (None: everyone), and the period
        # after which the replay stops (run_kept).
        self.focus, self.until = focus, until

    def run_kept(self) -> None:
        """Replay with keep, as far as `until`."""
        try:
            self.run()
        except _Kept:
            pass

    def run(self) -> GlickoState:
        view, p, engine = self.view, self.p, self.engine
        names = view.players
        count = len(names)
        present, self.evented = bytearray(count), bytearray(count)
        head: ColumnRecords | None = None   # resumed: the records before the last period
        current: int | None = None
        pending: list[int] = []
        if self.resume is None:
            self.r: list[Any] = [p.start] * count
            self.phi = [p.rd / engine.scale] * count
            self.sigma = [getattr(p, "sigma", 0.0)] * count
            self.last: list[int | None] = [None] * count
            self.counts, self.played = [0] * count, [0] * count
            self.rows_of = [0] * count   # each player's row of the player-period table, in the last period rated
            order: list[int] = []
            self.event_order: list[int] = []
            self.table = PlayerPeriods()
            self.side: list[SideEvent] = []
        else:
            kept, at = self.resume, self.resume.last_period
            assert at is not None   # (GlickoFamily.resume asks)
            grow = count - len(at.r)
            self.r, self.phi = at.r + [p.start] * grow, at.phi + [p.rd / engine.scale] * grow
            self.sigma, self.last = at.sigma + [getattr(p, "sigma", 0.0)] * grow, at.last + [None] * grow
            self.counts, self.played, self.rows_of = at.games + [0] * grow, at.played + [0] * grow, at.row + [0] * grow
            order, self.event_order = list(kept.order), kept.event_order[:at.events]
            for code in order:
                present[code] = 1
            for code in self.event_order:
                self.evented[code] = 1
            self.table, self.side = kept.periods.head(at.table), list(kept.side)
            head = kept.records.head(at.records)
            current, pending = at.index, kept.records.columns[0][at.records:].tolist()  # the period's games, again
        self.offset = 0 if head is None else len(head)   # records before this run's
        self.index = array("i")
        self.columns: list[array[Any]] = [array("d") for _ in range(6)] + [array("i"), array("i")]
        self.reasons: dict[int, str] = {}
        self.batch: MatchBatch | None = None
        self.by_code = _ByCode(0)   # close()'s lists by player code (made at the first period)
        periods: dict[int, int] = {}   # date (ordinal) → period index
        period = p.period
        for event in view.batched_events():
            if isinstance(event, Adjusted):
                adj = event.adjust
                index = period_index(adj.date.toordinal(), period)
                if current is not None and index != current:
                    self.close(current, pending)
                    pending = []
                current = index
                code = view.player_code(adj.player)
                if not present[code]:
                    present[code] = 1
                    order.append(code)
                self.adjust(adj, code, index)
                continue
            self.batch = event  # every batch indexes the same columns
            newcomers(event, event.rows, present, order)  # the players in the order they first appear
            for day, rows in groupby(event.rows, key=event.dates.__getitem__):
                index = periods.get(day, -1)
                if index < 0:
                    index = periods[day] = period_index(day, period)
                if index != current:
                    if current is not None:
                        self.close(current, pending)
                        pending = []
                    current = index
                pending.extend(rows)
        last_period = self.before(current, pending)
        if current is not None:
            self.close(current, pending)
        records = ColumnRecords((self.index, *view.player_columns(self.index), self.columns), self.reasons)
        if head is not None:
            records = head.extended(records)
        return GlickoState(self.r, self.phi, self.sigma, self.last, self.counts, self.played, order,
                           self.event_order, records, self.side, self.table, last_period)

    def before(self, current: int | None, pending: list[int]) -> LastPeriod:
        """Where the replay stands before rating its last period (`pending`: its games)."""
        last_date = self.resume.last_period.last_date if self.resume and self.resume.last_period else 0
        rows = pending or self.index
        if rows and self.batch is not None:
            last_date = self.batch.dates[rows[-1]]
        return LastPeriod(current if pending else None, self.offset + len(self.index), len(self.table.phi),
                          len(self.event_order), last_date, self.r[:], self.phi[:], self.sigma[:], self.last[:],
                          self.counts[:], self.played[:], self.rows_of[:])

    def adjust(self, a: Any, code: int, index: int) -> None:
        scale = self.engine.scale
        before = self.r[code]
        after = self.r[code] = adjusted(a, before)
        if a.rd is not None:
            self.phi[code], self.last[code] = a.rd / scale, index
        if a.volatility is not None:
            self.sigma[code] = a.volatility
        extra = {"rd": self.phi[code] * scale}
        if self.engine.has_volatility:
            extra["volatility"] = self.sigma[code]
        if not self.evented[code]:
            self.evented[code] = 1
            self.event_order.append(code)
        self.side.append((self.offset + len(self.index), a.player, HistoryEvent(
            a.date, None, "adjust", None, None, before, after - before, after, True, a.reason, extra)))

    def close(self, index: int, rows: list[int]) -> None:
        """Rate period `index` of these rows: everyone against the others' state at its start, then all move.

        The period's players get their deviation at its start (the engine's onsets), its g and μ.
        A side's slot in the period's records is 2·position for side a, + 1 for side b. One pass
        over the rated rows gives each slot's expected score Ej and g(φj)(sj − Ej) and adds up
        each player's v (in the order of their games, as the paper's sums run); the engine gives
        everyone's new φ and σ; a second pass writes each slot's rating before, change (its share
        φ'²·g(φj)(sj − Ej) of the period's, added to the rating in turn: the history's changes add
        up to the period's exactly) and player-period row; the records' columns are the slots'
        even and odd halves, taken in C. A player's games as a list [(μj, g(φj), sj, slot)] are
        made only where something reads them (unrated games, explain); Glicko-2's Δ sums their
        g(φj)(sj − Ej) as sum() would (_ByCode.sums_of): a period's players play two games each, on average.
        """
        if not rows:
            return
        engine, p, batch = self.engine, self.p, self.batch
        assert batch is not None   # rows come from a batch
        scale, sqrt, exp = engine.scale, math.sqrt, math.exp
        r, phi, sigma, last, counts = self.r, self.phi, self.sigma, self.last, self.counts
        width = 2 * len(rows)
        unrated: list[tuple[int, int]] = []   # (slot of side a, row) of the period's unrated games
        excluded = excluded_among(batch.excluded, rows)
        if excluded.isdisjoint(rows):
            rated_rows: Sequence[int] = rows
            slots: Iterable[int] = range(0, width, 2)
        else:
            unrated = [(slot, i) for slot, i in zip(range(0, width, 2), rows) if i in excluded]
            skipped = {i for _, i in unrated}
            rated_rows = [i for i in rows if i not in skipped]
            slots = [slot for slot, i in zip(range(0, width, 2), rows) if i not in skipped]
        if len(self.by_code.mu) != len(r):
            self.by_code = _ByCode(len(r))
        by_code = self.by_code
        g_of, mu, info, phi2_of, last_slot = by_code.g, by_code.mu, by_code.info, by_code.phi2, by_code.last_slot
        ma, mb, scores, at = columns_over(batch, rated_rows)   # (at: where rated_rows are in those columns)
        # The players of rated games, as they first appear among all the period's rows (the order
        # of their rows in the player-period table, as the [fast] loop has it too).
        games_in = Counter(chain.from_iterable(zip(map(ma.__getitem__, at), map(mb.__getitem__, at))))  # (in C)
        rated = list(games_in)
        if unrated:
            playing = set(rated)
            rated = [x for x in dict.fromkeys(_sides(batch, rows)) if x in playing]
        onsets = engine.onsets(rated, phi, sigma, last, index, p)
        for x, o in zip(rated, onsets):
            g_of[x] = 1.0 / sqrt(1.0 + 3.0 * o * o / PI2)   # g(φ), as glickomath.g computes it
            mu[x] = (r[x] - 1500) / scale
            info[x] = 0.0
        explained = self.keep and (self.focus is None or not self.focus.isdisjoint(rated))
        if unrated or explained:
            by_code.gather(rated, zip(slots, at), ma, mb, scores)
        if explained:
            self.kept(index, rated, onsets, rows)
        # glickomath.period_sums, inline (the replay's innermost loop): each side's Ej and g(φj)(sj − Ej),
        # each player's information (1/v) summed over their games.
        expected, terms = [0.0] * width, [0.0] * width
        for slot, i in zip(slots, at):
            a, b, s = ma[i], mb[i], scores[i]
            mu_a, mu_b, g_a, g_b = mu[a], mu[b], g_of[a], g_of[b]
            e = 1.0 / (1.0 + exp(-g_b * (mu_a - mu_b)))
            info[a] += g_b * g_b * e * (1.0 - e)
            expected[slot], terms[slot] = e, g_b * (s - e)
            e = 1.0 / (1.0 + exp(-g_a * (mu_b - mu_a)))
            info[b] += g_a * g_a * e * (1.0 - e)
            expected[slot + 1], terms[slot + 1] = e, g_a * (1.0 - s - e)
        for x in rated:
            counts[x] += games_in[x]
        sums = by_code.sums_of(rated, zip(slots, at), ma, mb, terms) if engine.has_volatility else []
        new_phi, new_sigma = engine.deviations(onsets, [sigma[x] for x in rated], [1.0 / info[x] for x in rated],
                                               sums, p)
        table, rows_of, played, dates = self.table, self.rows_of, self.played, batch.dates
        for row, (x, phi_x) in enumerate(zip(rated, new_phi), len(table.phi)):
            phi2_of[x], rows_of[x] = phi_x * phi_x, row
        befores, changes, period_rows = [0.0] * width, [0.0] * width, [0] * width
        for slot, i in zip(slots, at):
            a, b = ma[i], mb[i]
            before = r[a]
            change = phi2_of[a] * terms[slot] * scale
            befores[slot], changes[slot], period_rows[slot], r[a] = before, change, rows_of[a], before + change
            before = r[b]
            change = phi2_of[b] * terms[slot + 1] * scale
            befores[slot + 1], changes[slot + 1], period_rows[slot + 1], r[b] = before, change, rows_of[b], before + change
            last_slot[a], last_slot[b] = slot, slot + 1
        ends = [rows[last_slot[x] // 2] for x in rated]   # the period's end: the row of the player's last game of it
        table.last_row.extend(ends)
        for x, end in zip(rated, ends):
            last[x], played[x] = index, dates[end]
        table.phi_before.extend(onsets)
        table.phi.extend(new_phi)
        table.volatility.extend(new_sigma)
        for x, phi_x, sigma_x in zip(rated, new_phi, new_sigma):
            phi[x], sigma[x] = phi_x, sigma_x
        if unrated:
            self.unrated(unrated, by_code.games, (befores, changes, expected, period_rows))
        newcomers(batch, rows, self.evented, self.event_order)   # as their first history event is written
        columns = self.columns
        self.index.extend(rows)
        for k, values in enumerate((befores, changes, expected)):
            columns[2 * k].fromlist(values[0::2])
            columns[2 * k + 1].fromlist(values[1::2])
        columns[6].fromlist(period_rows[0::2])
        columns[7].fromlist(period_rows[1::2])
        if unrated or explained:
            by_code.scatter(rated)
        if self.until is not None and index >= self.until:
            raise _Kept   # (explain's periods are all kept: the rest of the replay is not needed)

    def unrated(self, unrated: list[tuple[int, int]], games: list[Any],
                slots: tuple[list[float], list[float], list[float], list[int]]) -> None:
        """The period's unrated games: each side holds the player's rating before it (after their
        rated games before it in the period) and no change; the reason is kept."""
        batch, r, rows_of, reasons, at = self.batch, self.r, self.rows_of, self.reasons, len(self.index)
        assert batch is not None
        befores, changes, expected, period_rows = slots
        nan = float("nan")
        for slot_a, i in unrated:
            reasons[at + slot_a // 2] = cast(str, batch.reason(i))   # an excluded row has its reason
            for slot, x in ((slot_a, batch.a[i]), (slot_a + 1, batch.b[i])):
                own = games[x]
                k = 0 if own is None else bisect_left([game[3] for game in own], slot)
                befores[slot] = r[x] if own is None or k == len(own) else befores[own[k][3]]
                changes[slot] = expected[slot] = nan
                period_rows[slot] = rows_of[x]

    def kept(self, index: int, rated: list[int], onsets: list[float], rows: list[int]) -> None:
        """For explain: the period's state at its start, each player's update (the engine's rate_values
        of their games [(μj, φj, sj)]) and each rated game's place k among the player's games."""
        names, batch, mu, games = self.view.players, self.batch, self.by_code.mu, self.by_code.games
        assert batch is not None
        entries = self.view.match_columns().entries
        onset = dict(zip(rated, onsets))
        updates: dict[int, Update] = {}
        shown = rated if self.focus is None else [x for x in rated if x in self.focus]
        for x in shown:
            own = games[x]
            assert own is not None
            opponents = _opponents(batch, rows, own)
            updates[x] = self.engine.rate_values(mu[x], self.sigma[x], onset[x],
                                                 [(mu_j, onset[y], s) for (mu_j, _, s, _), y in zip(own, opponents)], self.p)
            for k, (*_, slot) in enumerate(own):
                self.games[names[x], entries[rows[slot // 2]]] = index, k
        if self.focus is not None:   # the players explained and their opponents
            rated = sorted({x for x in shown} | {y for x in shown for y in _opponents(batch, rows, games[x])})
        self.periods[index] = Period(period_label(index, self.p.period),
                                     {names[x]: (self.phi[x], self.last[x], self.sigma[x]) for x in rated},
                                     {names[x]: onset[x] for x in rated}, {names[x]: mu[x] for x in rated},
                                     {names[x]: u for x, u in updates.items()})


class _ByCode:
    """close()'s lists by player code: g(φ) and μ at the period's start, the information summed, φ'²,
    the slot of the last game; the games as a list where something reads them (None: not made)."""

    __slots__ = ("g", "mu", "info", "phi2", "total", "last_slot", "games")

    def __init__(self, count: int) -> None:
        self.g, self.mu, self.info, self.phi2 = [0.0] * count, [0.0] * count, [0.0] * count, [0.0] * count
        self.total = [0.0] * count   # Glicko-2's Σ g(φj)(sj − Ej), added up game by game
        self.last_slot = [0] * count
        self.games: list[Any] = [None] * count   # [(μj, g(φj), sj, slot)] or None

    def gather(self, rated: list[int], rows: Iterable[tuple[int, int]], ma: Any, mb: Any, scores: Any) -> None:
        """Each rated player's games of the period, [(μj, g(φj), sj, slot)], in slot order."""
        games, mu, g_of = self.games, self.mu, self.g
        for x in rated:
            games[x] = []
        for slot, i in rows:
            a, b, s = ma[i], mb[i], scores[i]
            games[a].append((mu[b], g_of[b], s, slot))
            games[b].append((mu[a], g_of[a], 1.0 - s, slot + 1))

    def scatter(self, rated: list[int]) -> None:
        for x in rated:
            self.games[x] = None

    def sums_of(self, rated: list[int], rows: Iterable[tuple[int, int]], ma: Any, mb: Any, terms: list[float],
                compensated: bool = COMPENSATED_SUM) -> list[float]:
        """Each rated player's Σ g(φj)(sj − Ej) over their games in order, exactly as sum() of
        the list of them gives it (Glicko-2's Δ = v·Σ, as explain and the [fast] loop sum it).
        Where sum() adds left to right from 0 (before Python 3.12), a running total a player
        is that sum, without a list a player; where it compensates, the lists are summed by it."""
        if compensated:
            own: dict[int, list[float]] = {x: [] for x in rated}
            for slot, i in rows:
                own[ma[i]].append(terms[slot])
                own[mb[i]].append(terms[slot + 1])
            return list(map(sum, own.values()))
        total = self.total
        for x in rated:
            total[x] = 0.0   # sum() starts from 0: 0 + t is 0.0 + t
        for slot, i in rows:
            total[ma[i]] += terms[slot]
            total[mb[i]] += terms[slot + 1]
        return list(map(total.__getitem__, rated))


class _Kept(Exception):
    """Every period explain asked for is kept: the replay stops (Replay.run_kept)."""


def _opponents(batch: MatchBatch, rows: list[int], own: Any) -> list[int]:
    """The opponents' codes of a player's games of a period (close()'s games[x], by slot)."""
    # A slot is 2·position (side a: the opponent is b) or 2·position + 1 (side b).
    return [(batch.a if slot % 2 else batch.b)[rows[slot // 2]] for *_, slot in own]


def _sides(batch: MatchBatch, rows: Any) -> Iterator[int]:
    """The codes of a, b, a, b… of these rows, in order."""
    return chain.from_iterable(zip(map(batch.a.__getitem__, rows), map(batch.b.__getitem__, rows)))
