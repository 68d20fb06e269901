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
"""
from __future__ import annotations

from array import array
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date
from itertools import accumulate, chain, groupby
from operator import add
from typing import Any, cast

from ..contract.batches import MatchBatch
from ..contract.events import Adjusted
from .base import HistoryEvent, adjusted
from .compact import ColumnRecords, CompactResult, exact_ints
from .glickomath import Period, Update, period_index, period_label, period_sums

SideEvent = tuple[int, str, HistoryEvent]
# After the match row: rating before a, b; change a, b; expected score a, b; player-period row a, b.
RECORD_FIELDS = 8


@dataclass
class PlayerPeriods:
    """One row per player and rated period (row 0: none): the deviation (RD) at the period's start,
    the new RD and volatility, and the match row of the player's last game of the period."""

    rd_before: array[float] = field(default_factory=lambda: array("d", [0.0]))
    rd: array[float] = field(default_factory=lambda: array("d", [0.0]))
    volatility: array[float] = field(default_factory=lambda: array("d", [0.0]))
    last_row: array[int] = field(default_factory=lambda: array("i", [-1]))


@dataclass
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


@dataclass
class GlickoResult(CompactResult):
    view: Any = None     # what was replayed: explain replays it once more, keeping every period's arithmetic
    period: str = "month"
    volatility: bool = False
    whole_start: bool = False  # the list's start is an int (1500): see compact.exact_ints
    player_periods: PlayerPeriods = field(default_factory=PlayerPeriods)
    _periods: "Replay | None" = None
    _labels: dict[int, str] = field(default_factory=dict)

    def periods(self, engine: Any) -> "Replay":
        """The replay with its periods kept (periods, games), made when explain first asks."""
        if self._periods is None:
            self._periods = Replay(engine, self.view, keep=True)
            self._periods.run()
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

    def build_events(self, only: str | None) -> dict[str, list[HistoryEvent]]:
        built = super().build_events(only)
        for events in built.values():
            exact_ints(events, self.whole_start)
        return built


class Replay:
    """One replay of a view under a Glicko engine (`engine`: its onset and rate arithmetic)."""

    def __init__(self, engine: Any, view: Any, keep: bool = False):
        self.engine, self.view, self.p, self.keep = engine, view, view.params, keep
        self.periods: dict[int, Period] = {}                   # with keep: each rated period, by index
        self.games: dict[tuple[str, str], tuple[int, int]] = {}  # with keep: (player, entry) → (period, game k)

    def run(self) -> GlickoState:
        view, p, engine = self.view, self.p, self.engine
        names = view.players
        count = len(names)
        self.r: list[Any] = [p.start] * count
        self.phi = [p.rd / engine.scale] * count
        self.sigma = [getattr(p, "sigma", 0.0)] * count
        self.last: list[int | None] = [None] * count
        self.counts, self.played = [0] * count, [0] * count
        self.starts, self.rows_of = [0] * count, [0] * count   # close()'s offsets by code
        present, self.evented = bytearray(count), bytearray(count)
        order: list[int] = []
        self.event_order: list[int] = []
        self.index = array("i")
        self.columns: list[array[Any]] = [array("d") for _ in range(6)] + [array("i"), array("i")]
        self.table = PlayerPeriods()
        self.reasons: dict[int, str] = {}
        self.side: list[SideEvent] = []
        self.batch: MatchBatch | None = None
        self.scratch: tuple[list[float], list[float], list[list[tuple[float, float, float]] | None], list[int]] = \
            ([], [], [], [])   # close()'s per-player lists, by code (made at the first period)
        periods: dict[int, int] = {}   # date (ordinal) → period index
        period = p.period
        current: int | None = None
        pending: list[int] = []
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
            for code in dict.fromkeys(_sides(event, event.rows)):  # the players in the order they first appear
                if not present[code]:
                    present[code] = 1
                    order.append(code)
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
        if current is not None:
            self.close(current, pending)
        records = ColumnRecords((self.index, *view.player_columns(self.index), self.columns), self.reasons)
        return GlickoState(self.r, self.phi, self.sigma, self.last, self.counts, self.played, order,
                           self.event_order, records, self.side, self.table)

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
        self.side.append((len(self.index), a.player, HistoryEvent(
            a.date, None, "adjust", None, None, before, after - before, after, True, a.reason, extra)))

    def close(self, index: int, rows: list[int]) -> None:
        """Rate period `index` of these rows: everyone against the others' state at its start, then all move.

        One pass over the rows gathers each player's games [(μj, φj at the start, sj)] and each
        side's count of earlier rated games in the period (k); each player's period is rated;
        then the records' columns are filled, in C, from per-player runs: a side's rating before
        its game is the player's start rating plus their earlier changes, added in order.
        """
        if not rows:
            return
        engine, p, batch = self.engine, self.p, self.batch
        assert batch is not None   # rows come from a batch
        scale, onset_of, deviation = engine.scale, engine.onset, engine.deviation
        r, phi, sigma, last = self.r, self.phi, self.sigma, self.last
        ma, mb, scores, excluded = batch.a, batch.b, batch.score_a, batch.excluded
        # By player code, for the players of this period's rated games (`rated`, as they first
        # appear; their entries are reset at the end): the onset φ, μ at the start, the games
        # [(μj, φj, sj)] and the row of the last game.
        count = len(r)
        if len(self.scratch[0]) != count:
            self.scratch = ([0.0] * count, [0.0] * count, [None] * count, [0] * count)
        onset, mu, games, latest = self.scratch
        rated: list[int] = []
        ks: list[int] = []            # per row: a's k, b's k (their rated games before it in the period)
        push = ks.append
        for position, i in enumerate(rows, len(self.index)):
            a, b = ma[i], mb[i]
            own_a, own_b = games[a], games[b]
            if i in excluded:
                push(0 if own_a is None else len(own_a))
                push(0 if own_b is None else len(own_b))
                self.reasons[position] = cast(str, batch.reason(i))  # an excluded row has its reason
                continue
            if own_a is None:
                oa = onset[a] = onset_of(phi[a], sigma[a], last[a], index, p)
                mu[a] = (r[a] - 1500) / scale
                own_a = games[a] = []
                rated.append(a)
            else:
                oa = onset[a]
            if own_b is None:
                ob = onset[b] = onset_of(phi[b], sigma[b], last[b], index, p)
                mu[b] = (r[b] - 1500) / scale
                own_b = games[b] = []
                rated.append(b)
            else:
                ob = onset[b]
            s = scores[i]
            push(len(own_a))
            push(len(own_b))
            own_a.append((mu[b], ob, s))
            own_b.append((mu[a], oa, 1.0 - s))
            latest[a] = latest[b] = i
        if self.keep:
            self.kept(index, {x: onset[x] for x in rated}, {x: mu[x] for x in rated},
                      {x: engine.rate_values(mu[x], sigma[x], onset[x], games[x], p) for x in rated}, rows, ks)
        # Per player of the period: their ratings before each game (the start rating, each change
        # added in turn), changes and expected scores, one run each in the flat lists from
        # starts[x] (each run one longer than the games: a pad); a side's slot there is that plus
        # its k. An unrated game's record reads only the ratings. rows_of[x]: the player's row of
        # the player-period table.
        nan = float("nan")
        befores: list[float] = []
        changes: list[float] = []
        expected: list[float] = []
        starts, rows_of, dates, table = self.starts, self.rows_of, batch.dates, self.table
        evented, event_order, counts, played = self.evented, self.event_order, self.counts, self.played
        for x in dict.fromkeys(_sides(batch, rows)):
            if not evented[x]:
                evented[x] = 1
                event_order.append(x)
            starts[x] = len(befores)
            own = games[x]
            if own is None:  # only unrated games this period
                befores.append(r[x])
                changes.append(nan)
                expected.append(nan)
                continue
            # The engine's update (rate_values, as its parts): each game's share φ'²·g(φj)(sj − Ej),
            # in rating points × scale.
            v, terms, es = period_sums(mu[x], own)
            phi_x, sigma_x, _ = deviation(onset[x], sigma[x], v, terms, p)
            phi2 = phi_x * phi_x   # (a comprehension: a period's runs are one or two games long)
            moves = [phi2 * t * scale for t in terms]
            befores.extend(accumulate(moves, initial=r[x]))
            changes += moves
            changes.append(nan)
            expected += es
            expected.append(nan)
            rows_of[x] = len(table.rd)
            table.rd_before.append(onset[x] * scale)
            table.rd.append(phi_x * scale)
            table.volatility.append(sigma_x)
            end = latest[x]
            table.last_row.append(end)
            r[x], phi[x], sigma[x], last[x] = befores[-1], phi_x, sigma_x, index   # the period's end
            counts[x] += len(moves)
            played[x] = dates[end]
        side_a, side_b = list(map(ma.__getitem__, rows)), list(map(mb.__getitem__, rows))
        slot_a = list(map(add, map(starts.__getitem__, side_a), ks[0::2]))
        slot_b = list(map(add, map(starts.__getitem__, side_b), ks[1::2]))
        columns = self.columns
        self.index.extend(rows)
        for k, values in enumerate((befores, changes, expected)):
            columns[2 * k].extend(map(values.__getitem__, slot_a))
            columns[2 * k + 1].extend(map(values.__getitem__, slot_b))
        columns[6].extend(map(rows_of.__getitem__, side_a))
        columns[7].extend(map(rows_of.__getitem__, side_b))
        for x in rated:
            games[x] = None

    def kept(self, index: int, onset: dict[int, float], mu: dict[int, float], updates: dict[int, Update],
             rows: list[int], ks: list[int]) -> None:
        """For explain: the period's state at its start, its updates, and each rated game's k, by player."""
        names = self.view.players
        self.periods[index] = Period(period_label(index, self.p.period),
                                     {names[x]: (self.phi[x], self.last[x], self.sigma[x]) for x in onset},
                                     {names[x]: o for x, o in onset.items()}, {names[x]: m for x, m in mu.items()},
                                     {names[x]: u for x, u in updates.items()})
        batch = self.batch
        assert batch is not None
        entries = self.view.match_columns().entries
        for n, i in enumerate(rows):
            if i not in batch.excluded:
                self.games[names[batch.a[i]], entries[i]] = index, ks[2 * n]
                self.games[names[batch.b[i]], entries[i]] = index, ks[2 * n + 1]


def _sides(batch: MatchBatch, rows: Any) -> Iterator[int]:
    """The codes of a, b, a, b… of these rows, in order."""
    return chain.from_iterable(zip(map(batch.a.__getitem__, rows), map(batch.b.__getitem__, rows)))
