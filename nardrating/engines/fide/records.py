"""What the FIDE-style replay keeps: events and their games, per player and list every number (and,
when a history is read, a rated event's lines from it)."""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date
from fractions import Fraction

from ..base import HistoryEvent
from .rules import InitialRating, PoolEntry

# A game's score from its half-points, and P_D (0–100 hundredths) as history shows it: the same
# values as half / 2 and expected / 100, one object each.
SCORE = (0.0, 0.5, 1.0)
PERCENT = tuple(n / 100 for n in range(101))
UNRATED_OPPONENT = "the opponent is unrated on the list in force"

# The ratings of an event's players on the list in force on its first day (None: unrated).
Snapshot = dict[str, int | None]


# Game, PlayerGame and RatedGame are made for every game of a big journal, several times over:
# read-only by convention, not frozen (a frozen dataclass's __init__ takes three and a half times
# as long: a tenth of a 200k-game recalc).
@dataclass(slots=True)
class Game:
    """A rated match of an event."""

    match: str
    date: date
    a: str
    b: str
    score_a: float


@dataclass(slots=True)
class PlayerGame:
    """One player's side of a game: the score in half-points keeps sums whole and exact."""

    match: str
    date: date
    opponent: str
    half: int


@dataclass(slots=True)
class RatedGame:
    """A rated player's game that counts: the opponent's rating in the event and P_D."""

    game: PlayerGame
    opponent_rating: int
    expected: int                  # P_D in hundredths (table b)

    @property
    def gain(self) -> int:
        """S − P_D in hundredths."""
        return 50 * self.game.half - self.expected


@dataclass(slots=True)
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


@dataclass(slots=True)
class EventRecord:
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


@dataclass(slots=True)
class ListRecord:
    list_date: date
    before: int | None
    after: int | None
    status: str
    events: list[EventRecord] = field(default_factory=list)
    pool: InitialRating | None = None   # the pool as it stood on this list
    published: bool = False             # a first rating was published on this list
    excluded_at: int | None = None      # the rating that fell below the floor
    period_change: Fraction | None = None  # FIDE rulesets: the period's K × ΣΔR, rounded once (§8.3.4)


@dataclass(slots=True)
class PlayerState:
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
