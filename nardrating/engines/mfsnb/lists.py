"""The list builder: competitions and adjustments in replay order, a list published at every period end."""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date
from fractions import Fraction
from typing import TYPE_CHECKING, Any, NamedTuple

from ...periods import Period, add_months, months_between, periods_from
from ..base import HistoryEvent
from ..events import Adjust
from ..policies import penalty_owed
from .arithmetic import compute
from .params import MfsnbParams

if TYPE_CHECKING:
    from ...replay import RatingView

RETURNED = "returned: commission decision needed"
EXCLUDED = "excluded"


@dataclass(frozen=True, slots=True)
class Played:
    """One rated game of a player in a competition."""

    opponent: str
    score: float


@dataclass(frozen=True, slots=True)
class Competition:
    """One player's competition on a list: the inputs and every number of seed 000's arithmetic."""

    id: str
    system: str
    own: int                       # the player's rating for the period's competitions
    ratings: tuple[int, ...]       # the opponents' ratings, one per game
    participants: int              # H of a round-robin
    round_robin: str               # the config's rule for E of a round-robin
    ra: int
    difference: int
    pe: Fraction
    expected: Fraction
    points: Fraction
    computed: int                  # 10·(P − E) rounded, before a protection
    change: int                    # what the list takes: `computed`, or 0 when protected
    protected: str | None          # why a decrease was stopped

    def row(self) -> dict[str, Any]:
        """The report's `competitions` entry."""
        return {"id": self.id, "system": self.system, "opponents": len(self.ratings), "ratings": list(self.ratings),
                "Ra": self.ra, "difference": self.difference, "Pe": float(self.pe), "E": float(self.expected),
                "P": float(self.points), "change": self.change,
                "protected": f"{self.protected}: {self.computed:+d} → 0" if self.protected else None}


@dataclass
class PeriodRecord:
    before: int | None                   # on the previous list; None: not on it
    competitions: list[Competition] = field(default_factory=list)
    games: int = 0
    points: Fraction = Fraction(0)
    expected: Fraction = Fraction(0)
    change: int = 0
    adjust: int = 0
    adjusted: bool = False
    reinstated: bool = False
    penalty: int = 0
    penalty_owed: int = 0                # the whole break's total at this list (the ladder's step)
    after: int | None = None
    status: str = ""
    break_months: int | None = None
    break_since: date | None = None      # the break's start, when a penalty was due


class PublishedList(NamedTuple):
    period: Period
    rows: dict[str, PeriodRecord]


class ListBuilder:
    """Replays the timeline and publishes a list at every period end."""

    def __init__(self, view: RatingView):
        self.view = view
        self.p: MfsnbParams = view.params
        self.base: dict[str, int] = {}       # rating for this period's competitions
        self.pending: dict[str, int] = {}    # competition changes not yet published
        self.listed: dict[str, int] = {}     # the last published rating
        self.status: dict[str, str] = {}
        self.since: dict[str, date] = {}     # start of the current break
        self.taken: dict[str, int] = {}      # penalty already taken for that break
        self.excluded: set[str] = set()
        self.returned: set[str] = set()
        self.games: dict[str, int] = {}
        self.last_played: dict[str, date] = {}
        self.events: dict[str, list[HistoryEvent]] = {}
        self.records: dict[str, PeriodRecord] = {}
        self.lists: list[PublishedList] = []
        self.periods: Iterator[Period] | None = None
        self.period: Period | None = None

    # -- helpers
    def start_rating(self, player: str) -> int:
        info = self.view.player(player)
        return self.p.start_for(info.qualification if info else None)

    def enter(self, player: str, day: date) -> None:
        if player not in self.base:
            self.base[player] = self.start_rating(player)
            self.pending[player] = 0
            self.since[player] = day
            self.taken[player] = 0

    def record(self, player: str) -> PeriodRecord:
        rec = self.records.get(player)
        if rec is None:
            rec = self.records[player] = PeriodRecord(self.listed.get(player))
        return rec

    def event(self, player: str, e: HistoryEvent) -> None:
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
        known = player in self.base
        self.enter(player, a.date)
        current = self.base[player] + self.pending[player]
        if a.set is not None:
            amount = int(a.set) - current if known else 0
            # A set is the rating from that day: earlier changes of the period are superseded.
            self.base[player], self.pending[player] = int(a.set), 0
            if player in self.excluded or player in self.returned or not known:
                rec.reinstated = known
                self.excluded.discard(player)
                self.returned.discard(player)
                self.since[player], self.taken[player] = a.date, 0
        else:
            amount = int(a.delta or 0)
            self.base[player] += amount
        rec.adjust += amount
        rec.adjusted = True
        after = current + amount if known or a.set is None else int(a.set)
        self.event(player, HistoryEvent(a.date, None, "adjust", None, None, current if known else None,
                                        amount if known else None, after, True, a.reason))

    def competition(self, cid: str, system: str, day: date, games: dict[str, list[Played]],
                    participants: int, first_place: str | None) -> None:
        for player in games:
            self.enter(player, day)
        base, p = self.base, self.p
        for player, played in games.items():
            own = base[player]
            ratings = [base[g.opponent] for g in played]
            points = sum((Fraction(g.score) for g in played), Fraction(0))
            c = compute(own, ratings, points, system, participants, p.round_robin)
            protected = self.protection(player, own, played, first_place) if c.change < 0 else None
            change = 0 if protected else c.change
            self.pending[player] += change
            rec = self.record(player)
            rec.competitions.append(Competition(cid, system, own, tuple(ratings), participants, p.round_robin,
                                                c.ra, c.difference, c.pe, c.expected, points, c.change, change,
                                                protected))
            rec.games += len(played)
            rec.points += points
            rec.expected += c.expected
            rec.change += change
            self.games[player] = self.games.get(player, 0) + len(played)
            self.last_played[player] = day
            self.since[player], self.taken[player] = day, 0
            if player in self.excluded:
                self.excluded.discard(player)
                self.returned.add(player)
            self.event(player, HistoryEvent(
                day, cid, "competition", None, float(points), own, change, None, True,
                f"protected, {protected}: {c.change:+d} → 0" if protected else None,
                {"expected": float(c.expected)}))

    def protection(self, player: str, own: int, played: list[Played], first_place: str | None) -> str | None:
        p = self.p
        if p.protect_first_place and player == first_place:
            return "clear first place"
        if p.protect_wins:
            for g in played:
                gap = self.base[g.opponent] - own
                if g.score == 1.0 and (gap > p.protect_win_gap if p.protect_direction == "stronger"
                                       else abs(gap) > p.protect_win_gap):
                    return f"won vs {g.opponent} ({gap:+d})"
        return None

    # -- the list
    def publish(self) -> None:
        period = self.current
        day = period.end
        p = self.p
        rows: dict[str, PeriodRecord] = {}
        for player in sorted(self.base):
            rec = self.records.get(player)
            if player in self.excluded and rec is None:
                continue
            rec = rec or PeriodRecord(self.listed.get(player))
            value = self.base[player] + self.pending[player]
            played = bool(rec.competitions)
            if not played and player not in self.excluded:
                owed = int(penalty_owed(self.since[player], day, p.inactivity))  # whole points
                rec.penalty = -(owed - self.taken[player])
                rec.penalty_owed, rec.break_since = owed, self.since[player]
                self.taken[player] = owed
                value += rec.penalty
                rec.break_months = months_between(self.since[player], day)
                if p.exclude_after_months and add_months(self.since[player], p.exclude_after_months) < day:
                    self.excluded.add(player)
                    self.returned.discard(player)
            status = self.status_after(player, rec, played)
            rec.after, rec.status = value, status
            before = rec.before
            self.base[player], self.pending[player] = value, 0
            self.listed[player] = value
            self.status[player] = status
            rows[player] = rec
            self.event(player, HistoryEvent(
                day, None, "list", None, None, before, None if before is None else value - before,
                value, True, None, {"penalty": rec.penalty or None}))
        self.lists.append(PublishedList(period, rows))
        self.records = {}
        assert self.periods is not None
        self.period = next(self.periods)

    def status_after(self, player: str, rec: PeriodRecord, played: bool) -> str:
        if player in self.excluded:
            return EXCLUDED
        if player in self.returned:
            return RETURNED
        if rec.reinstated:
            return "reinstated"
        if player not in self.listed:
            return "new"
        if played:
            return "active"
        return f"inactive ({rec.break_months} months)"
