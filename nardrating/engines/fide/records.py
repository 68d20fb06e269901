"""What the FIDE-style replay keeps: events and their games, per player and list every number (and,
when a history is read, a rated event's lines from it)."""
from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from fractions import Fraction
from functools import cache, lru_cache
from typing import Union

from ...datarecords import datarecord, field
from ..base import HistoryEvent
from .rules import InitialRating, PoolEntry
from .tables import dp_for_halves, half_away

# A game's score from its half-points, and P_D (0–100 hundredths) as history shows it: the same
# values as half / 2 and expected / 100, one object each.
SCORE = (0.0, 0.5, 1.0)
PERCENT = tuple(n / 100 for n in range(101))
UNRATED_OPPONENT = "the opponent is unrated on the list in force"

# The ratings of an event's players on the list in force on its first day (None: unrated).
Snapshot = dict[str, int | None]
# dp of one game scoring 0, ½ or 1 (0 %, 50 %, 100 %): dp_for_halves(halves, 1).
ONE_GAME_DP = tuple(dp_for_halves(halves, 1) for halves in range(3))


@cache
def half_points(halves: int) -> Fraction:
    """A score in half-points as points (a few distinct values: one Fraction each)."""
    return Fraction(halves, 2)


@lru_cache(maxsize=1 << 14)
def hundredths(n: int) -> Fraction:
    """n/100 as a Fraction. Most are one or a few games' Σ P_D or K·ΣΔR: a few thousand distinct
    values over a whole journal, one object each (one made per event, with a float per game for
    history's scores: a tenth of a 200k-game recalc's CPU)."""
    return Fraction(n, 100)


# Game, PlayerGame and RatedGame are made for every game of a big journal, several times over:
# read-only by convention, not frozen (a frozen dataclass's __init__ takes three and a half times
# as long: a tenth of a 200k-game recalc).
@datarecord(slots=True)
class Game:
    """A rated match of an event."""

    match: str
    date: date
    a: str
    b: str
    score_a: float


@datarecord(slots=True)
class PlayerGame:
    """One player's side of a game: the score in half-points keeps sums whole and exact."""

    match: str
    date: date
    opponent: str
    half: int


@datarecord(slots=True)
class RatedGame:
    """A rated player's game that counts: the opponent's rating in the event and P_D."""

    game: PlayerGame
    opponent_rating: int
    expected: int                  # P_D in hundredths (table b)

    @property
    def gain(self) -> int:
        """S − P_D in hundredths."""
        return 50 * self.game.half - self.expected


@datarecord(slots=True)
class FideEvent:
    """A tournament, or a rated match outside any tournament (an event of its own)."""

    key: str                 # tournament id, or the match id of a single match
    name: str
    system: str
    start: date
    end: date
    official: bool
    games: list[Game] = field(default_factory=list)
    seq: int = 0
    snapshot: Snapshot | None = None   # taken on its first day, let go once its list has rated it


class SingleMatch:
    """A rated match outside any tournament: an event of its own of one game (most events of a big
    journal), one object (not a FideEvent, its list and a Game), its players' ratings on the list in
    force on its day kept in it (the replay takes them on that day)."""

    __slots__ = ("key", "start", "end", "seq", "a", "b", "half", "rating_a", "rating_b")
    system = "match"
    official = False

    def __init__(self, key: str, day: date, seq: int, a: str, b: str, half: int) -> None:
        self.key, self.start, self.end, self.seq = key, day, day, seq
        self.a, self.b, self.half = a, b, half          # half: a's score in half-points
        self.rating_a: int | None = None
        self.rating_b: int | None = None

    @property
    def name(self) -> str:
        return f"match {self.key}"

    @property
    def games(self) -> list[Game]:
        return [Game(self.key, self.end, self.a, self.b, SCORE[self.half])]


Event = Union[FideEvent, SingleMatch]


@datarecord(slots=True)
class EventRecord:
    """One event of a player on a list: games and points counted, Σ P_D, K and why, the change, the performance
    (unrated: Rc); a rated player's games, from which `lines` makes the history."""

    key: str                       # tournament id, or the match id of a single match
    name: str
    rating: int | None             # the player's own rating in it; None: unrated (pool)
    games: int                     # counted games
    points: Fraction
    expected: Fraction | None      # Σ P_D (rated players)
    k: int | None
    change: int | Fraction | None  # seed: rounded per event; FIDE: unrounded (the period is rounded)
    performance: int | None        # Rc + dp(p), rounded 0.5 up
    rc: Fraction | None = None     # unrated: the event's Rc (round-robin: Ra)
    ignored: str | None = None     # why the event does not count toward a first rating
    k_rule: str | None = None      # why this K
    exact_change: Fraction | None = None  # K × Σ(S − P_D) before rounding
    difference_rule: str | None = None   # FIDE rulesets: games whose D was capped at 400, or not (§8.3.1)
    counted: tuple[RatedGame, ...] = ()  # a rated player's counted games
    skipped: tuple[PlayerGame, ...] = ()  # a rated player's games against unrated opponents
    list_date: date | None = None  # a rated event: the list that rated it
    running: int | None = None     # and the player's rating before its change there, in hundredths

    def lines(self) -> Iterator[HistoryEvent]:
        """A rated event's history lines, made when the player's history is read: the games' lines,
        the games against unrated opponents, then the event's line on its list.

        Made as the list was published (two objects, two dicts and a few floats per game) they took
        270 of a 200k-game recalc's 680 MB and over a quarter of its CPU, though `recalc` and
        `leaderboard` never read them. The list puts this record, which holds every number, in the
        player's history instead; `HistoryOnRead` (engines/lines.py) turns it into the same lines, in
        the same order and with the same floats."""
        k, own, running, list_date = self.k, self.rating, self.running, self.list_date
        assert k is not None and own is not None and running is not None and list_date is not None, \
            "an event's lines are made once its list has rated it"
        for r in self.counted:
            share = k * r.gain / 100
            yield HistoryEvent(r.game.date, r.game.match, "match", r.game.opponent, SCORE[r.game.half], own,
                               share, own + share, True, None,
                               {"expected": PERCENT[r.expected], "opponent_rating": r.opponent_rating})
        for g in self.skipped:
            yield HistoryEvent(g.date, g.match, "match", g.opponent, SCORE[g.half], own, None, None,
                               False, UNRATED_OPPONENT)
        extra = {"event": self.key, "k": k, "expected": float(self.expected or 0), "performance": self.performance}
        # FIDE's rulesets keep the event's change unrounded (a Fraction: the period is rounded once),
        # seed 002 rounds it (an int); FIDE's also name K's paragraph.
        if isinstance(self.change, Fraction):
            extra["k_rule"] = self.k_rule
            change = int(100 * self.change)
        else:
            change = 100 * int(self.change or 0)
        yield HistoryEvent(list_date, None, "tournament", None, float(self.points), running / 100,
                           change / 100, (running + change) / 100, True, None, extra)


class RatedSingle:
    """A rated player's side of a single match against a rated opponent: its EventRecord, with what
    follows from the one game (its points, Σ P_D, performance, counted game) made when read.

    One object a side where an EventRecord, a RatedGame, a PlayerGame and a tuple were made as
    the list was published: most of a big journal's events are single matches. What the list
    gives it (K and why, its change, the rating before it) follows from the player's ListRating
    and its place there: the list rates the player once, not each side."""

    __slots__ = ("key", "date", "opponent", "half", "rating", "opponent_rating", "p_d", "difference_rule", "listed",
                 "place")
    games = 1
    rc = None
    ignored = None
    skipped: tuple[PlayerGame, ...] = ()

    def __init__(self, key: str, day: date, opponent: str, half: int, rating: int, opponent_rating: int,
                 p_d: int, difference_rule: str | None, listed: ListRating, place: int) -> None:
        self.key, self.date, self.opponent, self.half = key, day, opponent, half
        self.rating, self.opponent_rating, self.p_d = rating, opponent_rating, p_d   # P_D in hundredths
        self.difference_rule = difference_rule
        self.listed, self.place = listed, place    # the list's rating of the player, and which of its events

    @property
    def name(self) -> str:
        return f"match {self.key}"

    @property
    def points(self) -> Fraction:
        return half_points(self.half)

    @property
    def expected(self) -> Fraction:
        return hundredths(self.p_d)

    @property
    def performance(self) -> int:
        """Rc + dp(p) of one game: the opponent's rating plus dp (a whole number: no rounding)."""
        return self.opponent_rating + ONE_GAME_DP[self.half]

    @property
    def k(self) -> int | None:
        return self.listed.k

    @property
    def k_rule(self) -> str | None:
        return self.listed.k_rule

    @property
    def exact_change(self) -> Fraction | None:
        """K × (S − P_D), once the list has rated it."""
        k = self.listed.k
        return None if k is None else hundredths(k * (50 * self.half - self.p_d))

    @property
    def change(self) -> int | Fraction | None:
        """FIDE's rulesets: the exact change (the period is rounded); seed 002: rounded, halves away from zero."""
        listed = self.listed
        if listed.k is None:
            return None
        exact = listed.k * (50 * self.half - self.p_d)
        return hundredths(exact) if listed.fide else half_away(exact, 100)

    @property
    def list_date(self) -> date | None:
        return None if self.listed.k is None else self.listed.list_date

    @property
    def running(self) -> int | None:
        return self.listed.running_before(self.place)

    @property
    def counted(self) -> tuple[RatedGame]:
        return (RatedGame(PlayerGame(self.key, self.date, self.opponent, self.half), self.opponent_rating, self.p_d),)

    def record(self) -> EventRecord:
        """The EventRecord this stands for."""
        return EventRecord(self.key, self.name, self.rating, 1, self.points, self.expected, self.k, self.change,
                           self.performance, None, None, self.k_rule, self.exact_change, self.difference_rule,
                           self.counted, (), self.list_date, self.running)

    def lines(self) -> Iterator[HistoryEvent]:
        return self.record().lines()


class ListRating:
    """How a list rates one player's events: each one's Σ(S − P_D) in hundredths, in order, and,
    once the list has rated them, K and why, whether the changes are exact (FIDE's rulesets) or
    each event's rounded (seed 002), and the rating before the first, in hundredths. A RatedSingle
    reads its K, change and rating before it from here (it holds no event: no cycle)."""

    __slots__ = ("list_date", "gains", "k", "k_rule", "fide", "rated_from")

    def __init__(self, list_date: date) -> None:
        self.list_date = list_date
        self.gains: list[int] = []
        self.k: int | None = None
        self.k_rule: str | None = None
        self.fide = False
        self.rated_from: int | None = None

    def change(self, gain: int) -> int:
        """An event's change in hundredths: K × Σ(S − P_D), seed 002's rounded, halves away from zero."""
        assert self.k is not None, "rated by the list"
        exact = self.k * gain
        return exact if self.fide else 100 * half_away(exact, 100)

    def running_before(self, place: int) -> int | None:
        """The rating before the list's event at `place`, in hundredths (its `running`)."""
        if self.rated_from is None:
            return None
        return self.rated_from + sum([self.change(gain) for gain in self.gains[:place]])


# What a list keeps of a player's event.
AnyEventRecord = Union[EventRecord, RatedSingle]


@datarecord(slots=True)
class ListRecord:
    """A player on one list: the rating before and after, the status, the events it rated and the pool."""

    list_date: date
    before: int | None
    after: int | None
    status: str
    events: list[AnyEventRecord] = field(default_factory=list)
    pool: InitialRating | None = None   # the pool as it stood on this list
    published: bool = False             # a first rating was published on this list
    excluded_at: int | None = None      # the rating that fell below the floor
    period_change: Fraction | None = None  # FIDE rulesets: the period's K × ΣΔR, rounded once (§8.3.4)


@datarecord(slots=True)
class PlayerState:
    """One player as the replay goes: the published rating, games, what decides K, the inactivity clock, the
    pool of an unrated player and the lists so far."""

    rating: int | None = None       # published rating; None: unrated or excluded
    games: int = 0                  # games rated so far (a first rating counts its pool)
    established: bool = False       # set by [[adjust]] without k = 40 or games < 30: past the 30 games
    listed_k: int | None = None     # [[adjust]] k: the K of the imported list
    listed_games: int | None = None  # [[adjust]] games: rated games behind the imported rating
    reached_top: bool = False       # a published rating ≥ 2400 (fide-2024 K = 10)
    excluded: bool = False          # fell below the floor and has no pool since
    last_game: date | None = None   # of events that reached a list
    activity_from: date | None = None  # the clock of inactivity when no game yet
    pool: list[PoolEntry] = field(default_factory=list)
    lists: list[ListRecord] = field(default_factory=list)

    @property
    def clock(self) -> date | None:
        """Where inactivity counts from: the last rated game, else the rating's import."""
        return self.last_game or self.activity_from
