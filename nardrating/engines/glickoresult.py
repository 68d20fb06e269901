"""A Glicko replay's result: history events made from its compact records when asked for (the
records and the player-period table are glickoreplay.py's), and explain's periods, replayed
again with each period's arithmetic kept (Replay with keep)."""
from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING, Any

from .base import HistoryEvent
from .compact import CompactResult
from .glickomath import State, period_index, period_label
from .glickoreplay import Replay
from .glickostate import PlayerPeriods

if TYPE_CHECKING:
    from .glickostate import GlickoState


@dataclass
class GlickoResult(CompactResult):
    """A Glicko or Glicko-2 replay's result: history made from its records when read, and the periods explain
    asks for, replayed again (`periods`)."""

    whole_numbers = True   # the default start 1500 is an int (compact.exact_ints)
    view: Any = None     # what was replayed: explain replays it once more, keeping the periods it explains
    period: str = "month"
    volatility: bool = False
    player_periods: PlayerPeriods = field(default_factory=PlayerPeriods)
    replayed: "GlickoState | None" = None   # where the replay ended: what the cache stores (`state` is by player)
    _periods: Replay | None = None
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

    def periods(self, engine: Any, player: str) -> Replay:
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
