"""The list builder: competitions and adjustments in replay order, a list published at every period end."""
from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from typing import TYPE_CHECKING

from ...periods import Period, add_months, months_between, periods_from
from ..base import HistoryEvent
from ..lines import Kept
from ...contract.events import Adjust
from ..policies import penalty_owed
from ..wording import CLEAR_FIRST_PLACE, WON_VS
from ..tables import expected_percent
from .arithmetic import ONE_GAME_R, halves_of, whole_numbers
from .values import MfsnbRules
from .records import (EXCLUDED, HALVES, RETURNED, Competition, Member, PeriodRecord, Played, PublishedList,
                      SingleCompetition, competition_line, shared)

if TYPE_CHECKING:
    from ...contract.view import RatingView


class ListBuilder:
    """Replays the timeline and publishes a list at every period end."""

    def __init__(self, view: RatingView, lines: bool = True):
        self.view = view
        # False: a replay read for its standings alone (Engine.run_standings: recalc, the leaderboard).
        # No history items, and a single match's competitions counted on the period's record, not
        # kept (None each, as a restored builder has them: appended.py); the numbers are the same.
        self.lines = lines
        self.p: MfsnbRules = view.params
        self.members: dict[str, Member] = {}
        self.events: dict[str, list[Kept]] = {}     # history: events, or what makes them (lines.py)
        self.records: dict[str, PeriodRecord] = {}
        self.lists: list[PublishedList] = []
        self.periods: Iterator[Period] | None = None
        self.period: Period | None = None

    # -- helpers
    def enter(self, player: str, day: date) -> Member:
        member = self.members.get(player)
        if member is None:
            info = self.view.player(player)
            member = self.members[player] = Member(self.p.start_for(info.qualification if info else None), day)
        return member

    def record(self, player: str) -> PeriodRecord:
        rec = self.records.get(player)
        if rec is None:
            member = self.members.get(player)
            rec = self.records[player] = PeriodRecord(member.listed if member else None)
        return rec

    def event(self, player: str, e: Kept) -> None:
        if self.lines:
            self.events.setdefault(player, []).append(e)

    def advance_to(self, day: date) -> None:
        """Publish every list dated before `day`."""
        if self.periods is None:
            self.periods = periods_from(day, self.p.period)
            self.period = next(self.periods)
        while self.current.end < day:
            self.publish()

    @property
    def current(self) -> Period:
        """The period being built (only once the first entry has started the lists)."""
        assert self.period is not None, "no period before the first entry"
        return self.period

    # -- entries
    def adjust(self, a: Adjust) -> None:
        player = a.player
        rec = self.record(player)
        known = player in self.members
        m = self.enter(player, a.date)
        current = m.base + m.pending
        if a.set is not None:
            amount = int(a.set) - current if known else 0
            # A set is the rating from that day: earlier changes of the period are superseded.
            m.base, m.pending = int(a.set), 0
            if m.excluded or m.returned or not known:
                rec.reinstated = known
                m.excluded = m.returned = False
                m.since, m.taken = a.date, 0
        else:
            amount = int(a.delta or 0)
            m.base += amount
        rec.adjust += amount
        rec.adjusted = True
        after = current + amount if known or a.set is None else int(a.set)
        self.event(player, HistoryEvent(a.date, None, "adjust", None, None, current if known else None,
                                        amount if known else None, after, True, a.reason))

    def competition(self, cid: str, system: str, day: date, games: dict[str, list[Played]],
                    participants: int, first_place: str | None) -> None:
        members = {player: self.enter(player, day) for player in games}
        for player, played in games.items():
            ratings = tuple([members[g.opponent].base for g in played])
            c = self.rate(cid, system, day, player, played, ratings, participants, first_place, members)
            self.event(player, competition_line(day, c))

    def single(self, cid: str, day: date, first: str, second: str, score: float, reason: str) -> None:
        """A match outside any tournament: a competition of two players, one game each (rate() and
        book() of one game, for each side in turn: most competitions of a big journal). Each side is
        one SingleCompetition, its two lines (the match's, the competition's) made when read."""
        members, events, lines = self.members, self.events, self.lines
        a = members.get(first) or self.enter(first, day)
        b = members.get(second) or self.enter(second, day)
        round_robin = self.p.round_robin
        for player, m, opponent, o, own_score in ((first, a, second, b, score), (second, b, first, a, shared(1.0 - score))):
            halves = HALVES.get(own_score)
            if halves is None:
                halves = halves_of(own_score)
            own, opponent_rating = m.base, o.base
            # whole_numbers() of one game: Ra is the opponent's rating, E = Pe.
            percent = expected_percent(own - opponent_rating)
            computed = ONE_GAME_R[halves][percent]
            # (protection stops a decrease for a won game; of one game, only when it was won)
            protected = self.protection(player, own, [Played(opponent, own_score)], None, {player: m, opponent: o}) \
                if computed < 0 and own_score == 1.0 else None
            change = 0 if protected else computed
            if not lines:
                self.book(None, change, day, player, m, 1, halves, percent)
                continue
            c = SingleCompetition(cid, day, opponent, own_score, reason, own, opponent_rating, round_robin, halves,
                                  computed, change, protected)
            self.book(c, change, day, player, m, 1, halves, percent)
            kept = events.get(player)
            if kept is None:
                kept = events[player] = []
            kept.append(c)

    def rate(self, cid: str, system: str, day: date, player: str, played: list[Played], ratings: tuple[int, ...],
             participants: int, first_place: str | None, members: dict[str, Member]) -> Competition:
        """One player's R of one competition, pending until the list."""
        p = self.p
        m = members[player]
        own = m.base
        games = len(played)
        halves = halves_of(played[0].score if games == 1 else sum(g.score for g in played))
        ra, difference, percent, hundredths, computed = whole_numbers(
            own, sum(ratings), games, halves, system, participants, p.round_robin)
        protected = self.protection(player, own, played, first_place, members) if computed < 0 else None
        c = Competition(cid, system, own, ratings, participants, p.round_robin, ra, difference, percent, hundredths,
                        halves, computed, 0 if protected else computed, protected)
        self.book(c, c.change, day, player, m, games, halves, hundredths)
        return c

    def book(self, c: Competition | SingleCompetition | None, change: int, day: date, player: str, m: Member,
             games: int, halves: int, hundredths: int) -> None:
        """A competition's R pending on the player's list, and its numbers (P, E in halves and
        hundredths) on their period record (`c` None: counted only, see `lines`)."""
        m.pending += change
        rec = self.record(player)
        rec.competitions.append(c)  # type: ignore[arg-type]  # (None only where nothing reads it: `lines`)
        rec.games += games
        rec.halves += halves
        rec.hundredths += hundredths
        rec.change += change
        m.games += games
        m.last_played = day
        m.since, m.taken = day, 0
        if m.excluded:
            m.excluded, m.returned = False, True

    def protection(self, player: str, own: int, played: list[Played], first_place: str | None,
                   members: dict[str, Member]) -> str | None:
        p = self.p
        if p.protect_first_place and player == first_place:
            return CLEAR_FIRST_PLACE
        if p.protect_wins:
            for g in played:
                gap = members[g.opponent].base - own
                if g.score == 1.0 and (gap > p.protect_win_gap if p.protect_direction == "stronger"
                                       else abs(gap) > p.protect_win_gap):
                    return WON_VS.format(opponent=g.opponent, gap=f"{gap:+d}")
        return None

    # -- the list
    def publish(self) -> None:
        period = self.current
        day = period.end
        p = self.p
        rows: dict[str, PeriodRecord] = {}
        for player in sorted(self.members):
            m = self.members[player]
            rec = self.records.get(player)
            if m.excluded and rec is None:
                continue
            rec = rec or PeriodRecord(m.listed)
            value = m.base + m.pending
            played = bool(rec.competitions)
            if not played and not m.excluded:
                owed = int(penalty_owed(m.since, day, p.inactivity))  # whole points
                rec.penalty = -(owed - m.taken)
                rec.penalty_owed, rec.break_since = owed, m.since
                m.taken = owed
                value += rec.penalty
                rec.break_months = months_between(m.since, day)
                if p.exclude_after_months and add_months(m.since, p.exclude_after_months) < day:
                    m.excluded, m.returned = True, False
            status = status_after(m, rec, played)
            rec.after, rec.status, rec.day = value, status, day
            m.base, m.pending, m.listed, m.status = value, 0, value, status
            rows[player] = rec
            self.event(player, rec)       # its line made when read
        self.lists.append(PublishedList(period, rows))
        self.records = {}
        assert self.periods is not None
        self.period = next(self.periods)


def status_after(m: Member, rec: PeriodRecord, played: bool) -> str:
    """A player's status on the list being published (`m.listed`: still the previous list)."""
    if m.excluded:
        return EXCLUDED
    if m.returned:
        return RETURNED
    if rec.reinstated:
        return "reinstated"
    if m.listed is None:
        return "new"
    if played:
        return "active"
    return f"inactive ({rec.break_months} months)"
