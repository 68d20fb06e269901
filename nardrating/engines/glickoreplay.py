"""The rating-period replay both Glicko engines share, on the batched columns, into compact records.

Each rating period is rated at once (glicko.py's docstring): every game of the period against
the opponents' state at its start, all players moving together at its end. An adjustment dated
in a period applies when it is read, so before the period is rated: its history event comes
before the period's games. One record per game, in replay order (ColumnRecords): the match row;
each side's rating before it, change and expected score; and each side's player-period, a row of
the PlayerPeriods table (the deviation at the period's start, the new deviation and volatility,
and the match row of the player's last game of the period, where history shows the new ones).
An unrated game holds the two ratings before it, its reason in `reasons`. The history events
are built from the records when asked for; `keep` also keeps each period's arithmetic by player,
for explain.

A period is rated as a whole, so a replay goes on over appended matches from just before its last
period was rated (glickostate.LastPeriod, kept with the state): that period's games are rated
again together with the appended ones of the same period, then any later periods.
"""
from __future__ import annotations

import math
from array import array
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date
from itertools import chain, groupby
from typing import Any, cast

from ..contract.batches import MatchBatch, excluded_among, newcomers
from ..contract.events import Adjusted
from .base import HistoryEvent, adjusted
from .compact import ColumnRecords, CompactResult
from .glickomath import PI2, Period, Update, period_index, period_label
from .glickostate import GlickoState, LastPeriod, PlayerPeriods, SideEvent


@dataclass
class GlickoResult(CompactResult):
    whole_numbers = True   # the default start 1500 is an int (compact.exact_ints)
    view: Any = None     # what was replayed: explain replays it once more, keeping the periods it explains
    period: str = "month"
    volatility: bool = False
    player_periods: PlayerPeriods = field(default_factory=PlayerPeriods)
    replayed: "GlickoState | None" = None   # where the replay ended: what the cache stores (`state` is by player)
    _periods: "Replay | None" = None
    _labels: dict[int, str] = field(default_factory=dict)
    # What explain will ask for (will_explain): the players, and the last period of their events.
    _focus: set[str] = field(default_factory=set)
    _until: int | None = None

    def will_explain(self, events: list[tuple[str, HistoryEvent]]) -> None:
        self._focus.update(player for player, _ in events)
        latest = max((period_index(e.date.toordinal(), self.period) for _, e in events), default=None)
        if latest is not None and (self._until is None or latest > self._until):
            self._until = latest
            self._periods = None   # (made again, to reach the later period)

    def periods(self, engine: Any, player: str) -> "Replay":
        """The replay with the periods of the players explained kept (periods, games), up to the last
        one explained; made when explain first asks. Without will_explain: every period, everyone."""
        if self._periods is not None and self._periods.focus is not None and player not in self._focus:
            self._periods = None
        if self._periods is None:
            if self._focus or self._until is not None:
                self._focus.add(player)
            view = self.view.whole()
            focus = {view.player_code(p) for p in self._focus} if self._focus else None
            self._periods = Replay(engine, view, keep=True, focus=focus, until=self._until)
            self._periods.run_kept()
        return self._periods

    def label(self, day: date) -> str:
        ordinal = day.toordinal()
        text = self._labels.get(ordinal)
        if text is None:
            text = self._labels[ordinal] = period_label(period_index(ordinal, self.period), self.period)
        return text

    def match_events(self, record: tuple[Any, ...]) -> tuple[HistoryEvent, HistoryEvent]:
        unrated: tuple[HistoryEvent, HistoryEvent] | None  # (match_facts says so in its docstring)
        day, a, b, score_a, entry, unrated = self.match_facts(record)
        if unrated:
            return unrated
        i, ra, rb, ca, cb, ea, eb, pa, pb = record
        label, table = self.label(day), self.player_periods
        extra_a: dict[str, Any] = {"expected": ea, "period": label, "rd_before": table.rd_before[pa]}
        extra_b: dict[str, Any] = {"expected": eb, "period": label, "rd_before": table.rd_before[pb]}
        for extra, at in ((extra_a, pa), (extra_b, pb)):
            if table.last_row[at] == i:   # the player's last game of the period: the new deviation is known
                extra["rd"] = table.rd[at]
                if self.volatility:
                    extra["volatility"] = table.volatility[at]
        return (HistoryEvent(day, entry, "match", b, score_a, ra, ca, ra + ca, True, None, extra_a),
                HistoryEvent(day, entry, "match", a, 1.0 - score_a, rb, cb, rb + cb, True, None, extra_b))


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
        # close()'s per-player lists, by code (made at the first period): g of φ at the period's start, μ, games
        self.scratch: tuple[list[float], list[float], list[list[tuple[float, float, float, int]] | None]] = ([], [], [])
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
        return LastPeriod(current if pending else None, self.offset + len(self.index), len(self.table.rd),
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

        The period's players get their deviation at its start (the engine's onsets) and its g; one
        pass over the rated rows gathers each player's games [(μj, g(φj), sj, slot)], where a
        side's slot in the period's records is 2·position for side a, + 1 for side b; the engine
        gives everyone's new φ and σ; then each game's rating before, change, expected score and
        player-period row is written into its slot, and the records' columns are the slots' even
        and odd halves, taken in C.
        """
        if not rows:
            return
        engine, p, batch = self.engine, self.p, self.batch
        assert batch is not None   # rows come from a batch
        scale, sqrt, exp = engine.scale, math.sqrt, math.exp
        r, phi, sigma, last = self.r, self.phi, self.sigma, self.last
        ma, mb, scores, excluded = batch.a, batch.b, batch.score_a, batch.excluded
        width = 2 * len(rows)
        unrated: list[tuple[int, int]] = []   # (slot of side a, row) of the period's unrated games
        excluded = excluded_among(excluded, rows)
        if excluded.isdisjoint(rows):
            rated_rows: Sequence[int] = rows
            slots: Iterable[int] = range(0, width, 2)
        else:
            unrated = [(slot, i) for slot, i in zip(range(0, width, 2), rows) if i in excluded]
            skipped = {i for _, i in unrated}
            rated_rows = [i for i in rows if i not in skipped]
            slots = [slot for slot, i in zip(range(0, width, 2), rows) if i not in skipped]
        # By player code (made at the first period; reset at the end): g of the deviation at the
        # period's start, μ, and the games.
        if len(self.scratch[0]) != len(r):
            self.scratch = ([0.0] * len(r), [0.0] * len(r), [None] * len(r))
        g_of, mu, _ = self.scratch
        games: list[Any] = self.scratch[2]
        # The players of rated games, as they first appear among all the period's rows (the order
        # of their rows in the player-period table, as the [fast] loop has it too).
        rated = list(dict.fromkeys(_sides(batch, rated_rows)))
        if unrated:
            playing = set(rated)
            rated = [x for x in dict.fromkeys(_sides(batch, rows)) if x in playing]
        onsets = engine.onsets(rated, phi, sigma, last, index, p)
        for x, o in zip(rated, onsets):
            g_of[x] = 1.0 / sqrt(1.0 + 3.0 * o * o / PI2)   # g(φ), as glickomath.g computes it
            mu[x] = (r[x] - 1500) / scale
            games[x] = []
        for slot, i in zip(slots, rated_rows):
            a, b, s = ma[i], mb[i], scores[i]
            games[a].append((mu[b], g_of[b], s, slot))
            games[b].append((mu[a], g_of[a], 1.0 - s, slot + 1))
        if self.keep and (self.focus is None or not self.focus.isdisjoint(rated)):
            self.kept(index, rated, onsets, rows)
        # glickomath.period_sums, inline (the replay's innermost loop): each player's v, and each
        # game's g(φj)(sj − Ej) and Ej.
        vs: list[float] = []
        terms_of: list[list[float]] = []
        expected_of: list[list[float]] = []
        for x in rated:
            m, info, terms, es = mu[x], 0.0, [], []
            for mu_j, g_j, s, _ in games[x]:
                e = 1.0 / (1.0 + exp(-g_j * (m - mu_j)))
                info += g_j * g_j * e * (1.0 - e)
                terms.append(g_j * (s - e))
                es.append(e)
            vs.append(1.0 / info)
            terms_of.append(terms)
            expected_of.append(es)
        new_phi, new_sigma = engine.deviations(onsets, [sigma[x] for x in rated], vs, terms_of, p)
        # Each game's side: the rating before it, its share of the period's change (φ'²·g(φj)(sj − Ej)
        # in rating points, added to the rating in turn: the history's changes add up to the
        # period's exactly), its expected score and the player's row of the player-period table.
        befores, changes, expected, period_rows = [0.0] * width, [0.0] * width, [0.0] * width, [0] * width
        table, rows_of, counts, played, dates = self.table, self.rows_of, self.counts, self.played, batch.dates
        row = len(table.rd)
        for x, phi_x, terms, es in zip(rated, new_phi, terms_of, expected_of):
            own = games[x]
            phi2, before = phi_x * phi_x, r[x]
            for (_, _, _, slot), t, e in zip(own, terms, es):
                change = phi2 * t * scale
                befores[slot], changes[slot], expected[slot], period_rows[slot] = before, change, e, row
                before += change
            end = rows[own[-1][3] // 2]   # the row of the player's last game of the period
            table.last_row.append(end)
            rows_of[x], r[x], last[x], played[x] = row, before, index, dates[end]   # the period's end
            counts[x] += len(own)
            row += 1
        table.rd_before.extend([o * scale for o in onsets])
        table.rd.extend([phi_x * scale for phi_x in new_phi])
        table.volatility.extend(new_sigma)
        for x, phi_x, sigma_x in zip(rated, new_phi, new_sigma):
            phi[x], sigma[x] = phi_x, sigma_x
        if unrated:
            self.unrated(unrated, games, (befores, changes, expected, period_rows))
        newcomers(batch, rows, self.evented, self.event_order)   # as their first history event is written
        columns = self.columns
        self.index.extend(rows)
        for k, values in enumerate((befores, changes, expected)):
            columns[2 * k].fromlist(values[0::2])
            columns[2 * k + 1].fromlist(values[1::2])
        columns[6].fromlist(period_rows[0::2])
        columns[7].fromlist(period_rows[1::2])
        for x in rated:
            games[x] = None
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
        names, batch, (_, mu, games) = self.view.players, self.batch, self.scratch
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


class _Kept(Exception):
    """Every period explain asked for is kept: the replay stops (Replay.run_kept)."""


def _opponents(batch: MatchBatch, rows: list[int], own: Any) -> list[int]:
    """The opponents' codes of a player's games of a period (close()'s games[x], by slot)."""
    # A slot is 2·position (side a: the opponent is b) or 2·position + 1 (side b).
    return [(batch.a if slot % 2 else batch.b)[rows[slot // 2]] for *_, slot in own]


def _sides(batch: MatchBatch, rows: Any) -> Iterator[int]:
    """The codes of a, b, a, b… of these rows, in order."""
    return chain.from_iterable(zip(map(batch.a.__getitem__, rows), map(batch.b.__getitem__, rows)))
