"""The players of one fide replay: their state, their history, and their status on a list."""
from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta

from ...contract.events import Player
from ...periods import add_months
from ..base import HistoryEvent
from ..lines import Kept
from .values import FideRules
from .records import PlayerState
from .rules import inactive_on, list_on_or_after

TITLED_UNRATED = "titled-unrated"


class Players:
    def __init__(self, params: FideRules, facts: Callable[[str], Player | None], lines: bool = True):
        self.p = params
        self.facts = facts                        # the [[player]] entry of an id
        # False: a replay read for its standings alone (Engine.run_standings): no history noted, and a
        # single match's sides counted on the list, not kept (ListPublication.one_game); the same numbers
        self.lines = lines
        self.states: dict[str, PlayerState] = {}
        self.history: dict[str, list[Kept]] = {}   # in the order made
        self.last_played: dict[str, date] = {}
        self._inactive_from: dict[date, date] = {}

    def state(self, player: str) -> PlayerState:
        s = self.states.get(player)
        if s is None:
            s = self.states[player] = PlayerState()
        return s

    def note(self, player: str, event: HistoryEvent) -> None:
        if self.lines:
            self.history.setdefault(player, []).append(event)

    def status_of(self, player: str, list_date: date | None) -> str:
        s = self.state(player)
        if s.rating is not None:
            clock = s.clock
            if list_date is not None and clock is not None and inactive_on(clock, list_date, self.p.inactive_months):
                return "inactive"
            return "rated"
        facts = self.facts(player)
        if s.excluded:
            return "excluded"
        if facts is not None and facts.title:
            return TITLED_UNRATED
        return "provisional" if s.pool else "unrated"

    def inactive_from(self, clock: date) -> date:
        """The first list on which a player whose last rated game was on `clock` is inactive."""
        first = self._inactive_from.get(clock)
        if first is None:   # (asked for nearly every player of every list: a few thousand distinct days)
            p = self.p
            first = list_on_or_after(add_months(clock, p.inactive_months), p.list_every)
            while not inactive_on(clock, first, p.inactive_months):
                first = list_on_or_after(first + timedelta(days=1), p.list_every)
            self._inactive_from[clock] = first
        return first

    def note_inactive(self, player: str, since: date, clock: date, rating: int) -> None:
        self.note(player, HistoryEvent(since, None, "list", None, None, rating, None, rating, True,
                                       f"inactive: no rated game since {clock}"))
