"""A Glicko replay's result: history events made from its compact records when asked for (the
records and the player-period table are glickoreplay.py's), and explain's periods, replayed
again with each period's arithmetic kept (Replay with keep)."""
from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from datetime import date
from typing import TYPE_CHECKING, Any

from ..datarecords import datarecord, field
from .base import HistoryEvent, ReportRow
from .compact import CompactResult
from .glickomath import State, period_index, period_label
from .glickoperiods import RecordPeriods
from .glickoreplay import Replay
from .glickostate import PlayerPeriods
from .window import record_rows

if TYPE_CHECKING:
    from .glickostate import GlickoState


@datarecord
class GlickoResult(CompactResult):
    """A Glicko or Glicko-2 replay's result: history made from its records when read, and the periods explain
    asks for, replayed again (`periods`)."""

    whole_numbers = True   # the default start 1500 is an int (compact.exact_ints)
    view: Any = None     # what was replayed: explain replays it once more, keeping the periods it explains
    period: str = "month"
    volatility: bool = False
    scale: float = 1.0   # the engine's: μ = (r − 1500)/scale, RD = φ·scale
    player_periods: PlayerPeriods = field(default_factory=PlayerPeriods)
    replayed: "GlickoState | None" = None   # where the replay ended: what the cache stores (`state` is by player)
    _periods: "Replay | RecordPeriods | None" = None
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

    def periods(self, engine: Any, player: str) -> "Replay | RecordPeriods":
        """What explain reads of the periods (periods, games): made from the records for each period
        and player asked about (glickoperiods.py), where the result keeps its player-period table
        and view; else the replay with the periods of the players explained kept, up to the last one
        explained (without will_explain: every period, everyone)."""
        if self.view is not None and self.replayed is not None:
            if not isinstance(self._periods, RecordPeriods):
                self._periods = RecordPeriods(self, engine)
            return self._periods
        return self.replayed_periods(engine, player)

    def replayed_periods(self, engine: Any, player: str) -> Replay:
        """The replay with the periods of the players explained kept (periods, games), up to the last
        one explained; made when explain first asks. Without will_explain: every period, everyone."""
        if isinstance(self._periods, RecordPeriods):
            self._periods = None
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

    def statuses_at(self, day: date) -> dict[str, str] | None:
        """finish's statuses as of `day`, where it ends a rating period (as of a day within one, a
        replay rates that period's games so far: other deviations): each player's games then (now's
        less the rated ones after it) and deviation, grown to the day's period by the engine's
        onsets as finish grows it, from their φ, σ and last rated period then (glickoperiods.py:
        the doubles the replay held), so each status is the one a replay up to `day` gives."""
        view, state, period = self.view, self.replayed, self.period
        index = period_index(day.toordinal(), period)
        if view is None or state is None or period_index(day.toordinal() + 1, period) == index:
            return None
        from .glickoperiods import states_before
        from .registry import engine_class
        from .window import first_after, rated_after

        engine, p, code_of = engine_class(self.engine)(), view.params, self.match_columns().code_of
        codes = [code_of[player] for player in self.standings]
        phi, sigma, last = states_before(self, set(codes), first_after(self, day), index)
        later, games, limit, scale = rated_after(self, day), state.games, p.provisional_rd, self.scale
        statuses = {}
        for player, code, onset in zip(self.standings, codes, engine.onsets(codes, phi, sigma, last, index, p)):
            statuses[player] = "established" if games[code] - later[code] and onset * scale <= limit else "provisional"
        return statuses

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
        scale = self.scale   # (an RD is φ·scale, as the replay's RD was)
        extra_a: dict[str, Any] = {"expected": ea, "period": label, "rd_before": table.phi_before[pa] * scale}
        extra_b: dict[str, Any] = {"expected": eb, "period": label, "rd_before": table.phi_before[pb] * scale}
        for extra, at in ((extra_a, pa), (extra_b, pb)):
            if table.last_row[at] == i:   # the player's last game of the period: the new deviation is known
                extra["rd"] = table.phi[at] * scale
                if self.volatility:
                    extra["volatility"] = table.volatility[at]
        return (HistoryEvent(day, entry, "match", b, score_a, ra, ca, ra + ca, True, None, extra_a),
                HistoryEvent(day, entry, "match", a, 1.0 - score_a, rb, cb, rb + cb, True, None, extra_b))

    def period_rows(self, start: date, end: date, statuses: Mapping[str, str]) -> list[ReportRow] | None:
        return record_rows(self, start, end, statuses, _glicko_sides)


def _glicko_sides(fields: list[list[float]], scores: list[float]) -> Iterator[tuple[float, ...]]:
    """Of each record (as match_events reads it, rated): a's rating after, result and expected
    score, then b's."""
    ra, rb, ca, cb, ea, eb = fields[:6]
    for r_a, r_b, c_a, c_b, e_a, e_b, score in zip(ra, rb, ca, cb, ea, eb, scores):
        yield r_a + c_a, score, e_a, r_b + c_b, 1.0 - score, e_b


class PlayerStates(Mapping[str, State]):
    """player → State of a finished replay (`phis`: each one's φ as of the result's date, in `order`),
    made when asked for: a prediction reads two, a leaderboard, a history or add-match none."""

    def __init__(self, state: GlickoState, names: Sequence[str], order: list[int], phis: list[float]) -> None:
        self._state, self._names, self._order, self._phis = state, names, order, phis
        self._place: dict[str, int] | None = None

    def _places(self) -> dict[str, int]:
        if self._place is None:
            self._place = {self._names[code]: k for k, code in enumerate(self._order)}
        return self._place

    def __getitem__(self, player: str) -> State:
        k = self._places()[player]
        code, s = self._order[k], self._state
        played = s.played[code]
        return State(s.r[code], self._phis[k], s.sigma[code], s.last[code], s.games[code],
                     date.fromordinal(played) if played else None)

    def __iter__(self) -> Iterator[str]:
        return iter(self._places())

    def __len__(self) -> int:
        return len(self._order)
