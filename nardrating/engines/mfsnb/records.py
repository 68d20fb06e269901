"""What the federation lists keep: per period and player the record of every competition and
list, and the history items whose lines are made when read (engines/lines.py)."""
from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from fractions import Fraction
from typing import Any, NamedTuple

from ...datarecords import datarecord, field
from ...periods import Period
from ..base import HistoryEvent
from ..tables import expected_percent

RETURNED = "returned: commission decision needed"
EXCLUDED = "excluded"

# The few floats history repeats (a score, P in halves, E in hundredths), one object each: a
# million events would otherwise hold a float object apiece. (Never −0.0, which equals 0.0: every
# value is a whole number over 2 or 100, or 1 − a score.)
_SHARED: dict[float, float] = {}


def shared(value: float) -> float:
    return _SHARED.setdefault(value, value)


HALVES = {1.0: 2, 0.5: 1, 0.0: 0}   # a game's score as whole halves (halves_of for anything else)


class Played(NamedTuple):
    """One rated game of a player in a competition."""

    opponent: str
    score: float


@datarecord(slots=True)  # not frozen: read-only by convention (a frozen __init__ costs seven times more)
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
    percent: int                   # Pe in whole percent (the table)
    hundredths: int                # 100·E
    halves: int                    # 2·P
    computed: int                  # 10·(P − E) rounded, before a protection
    change: int                    # what the list takes: `computed`, or 0 when protected
    protected: str | None          # why a decrease was stopped

    @property
    def pe(self) -> Fraction:
        return Fraction(self.percent, 100)

    @property
    def expected(self) -> Fraction:
        return Fraction(self.hundredths, 100)

    @property
    def points(self) -> Fraction:
        return Fraction(self.halves, 2)

    def competition(self) -> Competition:
        """Every number (as SingleCompetition.competition gives them)."""
        return self

    def row(self) -> dict[str, Any]:
        """The report's `competitions` entry."""
        return {"id": self.id, "system": self.system, "opponents": len(self.ratings), "ratings": list(self.ratings),
                "Ra": self.ra, "difference": self.difference, "Pe": self.percent / 100, "E": self.hundredths / 100,
                "P": self.halves / 2, "change": self.change,
                "protected": f"{self.protected}: {self.computed:+d} → 0" if self.protected else None}


@datarecord(slots=True)
class PeriodRecord:
    """One player's record of one list period: the competitions, P and E summed, the change, adjustments and
    penalties, and the rating the list published (`after`)."""

    before: int | None                   # on the previous list; None: not on it
    competitions: list[Competition | SingleCompetition] = field(default_factory=list)
    games: int = 0
    halves: int = 0                      # 2·P of the period's competitions
    hundredths: int = 0                  # 100·E of them
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
    day: date | None = None              # the date of the list that published it

    @property
    def points(self) -> Fraction:
        return Fraction(self.halves, 2)

    @property
    def expected(self) -> Fraction:
        return Fraction(self.hundredths, 100)

    def lines(self) -> Iterator[HistoryEvent]:
        """The player's line of the list that published this record, made when read (kept in their
        history as this record: not a history object, a dict and a holder per player and list:
        180,000 of each on 200k matches)."""
        before, after = self.before, self.after
        assert self.day is not None, "a record is in a history once its list is published"
        yield HistoryEvent(self.day, None, "list", None, None, before,
                           None if before is None or after is None else after - before, after, True, None,
                           {"penalty": self.penalty or None})


@datarecord(slots=True)
class Member:
    """A player the lists know: what their competitions are rated from, and what was published."""

    base: int                      # the rating this period's competitions use
    since: date                    # start of the current break
    pending: int = 0               # competition changes not yet published
    taken: int = 0                 # penalty already taken for the break
    listed: int | None = None      # the last published rating; None: never on a list
    status: str = "new"            # on the last list
    excluded: bool = False
    returned: bool = False         # excluded, then played: the commission decides
    games: int = 0
    last_played: date | None = None


def competition_line(day: date, c: Competition) -> HistoryEvent:
    """A player's history line of a competition: P, the rating it was rated from, R (0 when protected)."""
    return HistoryEvent(day, c.id, "competition", None, shared(c.halves / 2), c.own, c.change, None, True,
                        f"protected, {c.protected}: {c.computed:+d} → 0" if c.protected else None,
                        {"expected": shared(c.hundredths / 100)})


class SingleCompetition:
    """A player's side of a match outside any tournament, a competition of its own of one game (most
    competitions of a big journal): what seed 000's arithmetic took and gave, the rest of its
    Competition (Ra, D, Pe and E follow from the opponent's rating) and its two history lines (the
    match's, the competition's) made when read.

    One object a side where a Competition, its tuple of ratings and the lines' holder were made as
    each match was replayed (and, before that, four history objects and two dicts a match: a fifth
    of a 200k-match recalc's CPU, and 100 MB)."""

    __slots__ = ("id", "day", "opponent", "score", "reason", "own", "opponent_rating", "round_robin", "halves",
                 "computed", "change", "protected")

    def __init__(self, cid: str, day: date, opponent: str, score: float, reason: str, own: int, opponent_rating: int,
                 round_robin: str, halves: int, computed: int, change: int, protected: str | None) -> None:
        self.id, self.day, self.opponent, self.score, self.reason = cid, day, opponent, score, reason
        self.own, self.opponent_rating, self.round_robin = own, opponent_rating, round_robin
        self.halves, self.computed, self.change, self.protected = halves, computed, change, protected

    def competition(self) -> Competition:
        """The Competition this stands for: of one game, Ra is the opponent's rating and E = Pe."""
        difference = self.own - self.opponent_rating
        percent = expected_percent(difference)
        return Competition(self.id, "single", self.own, (self.opponent_rating,), 2, self.round_robin,
                           self.opponent_rating, difference, percent, percent, self.halves, self.computed,
                           self.change, self.protected)

    def row(self) -> dict[str, Any]:
        return self.competition().row()

    def lines(self) -> Iterator[HistoryEvent]:
        yield HistoryEvent(self.day, self.id, "match", self.opponent, self.score, None, None, None, False, self.reason)
        yield competition_line(self.day, self.competition())


class PublishedList(NamedTuple):
    period: Period
    rows: dict[str, PeriodRecord]
