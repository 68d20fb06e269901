"""The journal's data, shaped for replay.

Players, tournaments, voids and adjustments are few and kept as small frozen records. Matches can number
in the millions (CSV imports), so they are kept column by column (`Matches`): one list per field, players
and disciplines coded as integers (columns.py). `Journal.match(i)` gives a readable view of one match.
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Collection, MutableMapping, Sized
from datetime import date
from typing import TYPE_CHECKING, Any

from ..datarecords import datarecord, field
from .columns import Codes, IdColumn, Matches, stretch
from .exclusions import Exclusions, excluded_in

if TYPE_CHECKING:  # (a journal without tournaments run here never imports play.py)
    from .play import Change, RoundRecord, TournamentPlay

SCORE_TEXT = {1.0: "1", 0.5: "½", 0.0: "0"}
# Byte searches of the ids' blob before their set is made (has_match_id): of a million ids 3-4 ms each, the set 0.2 s.
BLOB_SCANS = 48


@datarecord(frozen=True, slots=True)
class Player:
    """A [[player]] (or one a CSV row named): id, name, alias, qualification, title, joined, where written."""
    id: str
    name: str
    alias: str | None = None
    qualification: str | None = None
    title: str | None = None
    joined: date | None = None
    file: str = ""
    line: int | None = None
    declared: bool = True  # False: created from a CSV row that named it

    def public_name(self) -> str:
        return self.alias or self.name


@datarecord(frozen=True, slots=True)
class Placing:
    """One place in a tournament's standings: the player and the place, low to high when shared."""
    player: str
    low: int  # place "2-3" → low 2, high 3
    high: int

    @property
    def mean(self) -> float:
        return (self.low + self.high) / 2


@datarecord(frozen=True, slots=True)
class Tournament:
    """A [[tournament]]: its id, name, system, dates, discipline, standings, and where it was written."""
    id: str
    name: str
    system: str
    start: date
    end: date
    discipline: str
    official: bool = False
    standings: tuple[Placing, ...] | None = None
    file: str = ""
    line: int | None = None
    seq: int = 0
    play: TournamentPlay | None = None  # pairing, rounds, start list…: a tournament run here (play.py)


@datarecord(frozen=True, slots=True)
class Void:
    """A [[void]]: the match it voids, its date, why, and where it was written."""
    match: str
    date: date
    reason: str
    file: str = ""
    line: int | None = None
    seq: int = 0


@datarecord(frozen=True, slots=True)
class Identity:
    """A [[rename]] (kind "rename": player becomes into) or a [[merge]] (player's entries become into's)."""
    kind: str
    player: str
    into: str
    date: date
    file: str = ""
    line: int | None = None
    seq: int = 0


@datarecord(frozen=True, slots=True)
class PublishedList:
    """A [[list]]: a list file `freeze-list` wrote (its path as the entry names it), its SHA-256, the day."""
    path: str
    sha256: str
    date: date
    file: str = ""
    line: int | None = None
    seq: int = 0


@datarecord(frozen=True, slots=True)
class PlayerEdit:
    """An [[edit-player]]: fields of a player's record (name, alias, qualification, title, joined) that
    read otherwise from now on; applied once after reading, as renames are (identities.py)."""
    player: str
    date: date
    changes: tuple[tuple[str, Any], ...]   # (field, new value), in PlayerEntry's order
    file: str = ""
    line: int | None = None
    seq: int = 0


@datarecord(frozen=True, slots=True)
class Adjust:
    """An [[adjust]]: a player's rating on a list set or moved on a date, why, and engine-specific fields."""
    date: date
    player: str
    rating: str | None
    discipline: str | None
    set: float | None
    delta: float | None
    reason: str
    file: str = ""
    line: int | None = None
    seq: int = 0
    k: int | None = None               # engine-specific fields; see AdjustEntry
    games: int | None = None
    rd: float | None = None
    volatility: float | None = None

    def engine_fields(self) -> dict[str, Any]:
        """The engine-specific fields this adjustment gives (k, games, rd, volatility)."""
        return {name: getattr(self, name) for name in ADJUST_ENGINE_FIELDS if getattr(self, name) is not None}


ADJUST_ENGINE_FIELDS = ("k", "games", "rd", "volatility")


@datarecord(frozen=True, slots=True)
class MatchView:
    """A readable view of one match (`Journal.match(i)`): its row's fields, the players by id."""
    index: int
    id: str
    date: date
    a: str
    b: str
    score_a: float
    length: int
    discipline: str
    tournament: str | None
    rated: bool
    forfeit: bool
    score: tuple[int, int] | None
    chips: float | None
    note: str | None
    file: str
    line: int | None
    amends: str | None = None
    round: int | None = None   # the round of a tournament run here whose board this is the result of

    @property
    def players(self) -> tuple[str, str]:
        return (self.a, self.b)

    def score_of(self, player: str) -> float:
        return self.score_a if player == self.a else 1.0 - self.score_a

    def opponent_of(self, player: str) -> str:
        return self.b if player == self.a else self.a

    def winner(self) -> str | None:
        if self.score_a == 1.0:
            return self.a
        if self.score_a == 0.0:
            return self.b
        return None


@datarecord
class Journal:
    """The journal files read for replay: players, tournaments, other entries as records; matches as columns."""
    files: list[str] = field(default_factory=list)
    players: MutableMapping[str, Player] = field(default_factory=dict)  # (the cache's: a lazy table)
    player_codes: Codes = field(default_factory=Codes)
    discipline_codes: Codes = field(default_factory=Codes)
    tournaments: MutableMapping[str, Tournament] = field(default_factory=dict)  # (the cache's: a lazy table)
    tournament_codes: Codes = field(default_factory=Codes)
    _matches: Matches = field(default_factory=Matches)
    _load_matches: Callable[[], Matches] | None = None  # a cached journal loads its match columns on first use
    _cached_count: int = 0
    max_date: int = 0                   # the latest match date (ordinal), 0 with no matches
    _match_index: dict[str, int] | None = None
    voids: list[Void] = field(default_factory=list)
    adjusts: list[Adjust] = field(default_factory=list)
    identities: list[Identity] = field(default_factory=list)  # renames and merges, in journal order
    rounds: list[RoundRecord] = field(default_factory=list)   # [[round]]s, in journal order
    changes: list[Change] = field(default_factory=list)       # [[join]]s and [[withdraw]]s, in journal order
    identities_applied: int = 0         # how many of them the players and codes already follow
    lists: list[PublishedList] = field(default_factory=list)  # the [[list]] entries: lists published
    player_edits: list[PlayerEdit] = field(default_factory=list)  # [[edit-player]], in journal order
    edits_applied: int = 0              # how many of them the players already follow
    voided: dict[int, Void] = field(default_factory=dict)  # match index → its void
    next_seq: int = 0
    csv_named: dict[str, tuple[str, int | None]] = field(default_factory=dict)  # name → (file, line: None for CSV)
    _sorted: tuple[int, bool] | None = None
    _scans: int = 0
    _id_set: set[str] | None = None  # every match id, when a bulk read has built the set anyway

    def tournament_ends(self) -> list[int]:
        """Every tournament's end date, as an ordinal (from the cache's table without making entries)."""
        ends = getattr(self.tournaments, "end_ordinals", None)
        return ends() if ends is not None else [t.end.toordinal() for t in self.tournaments.values()]

    def tournaments_with_standings(self) -> list[Tournament]:
        """The tournaments whose entries record standings (the cache's table makes only those)."""
        only = getattr(self.tournaments, "with_standings", None)
        return only() if only is not None else [t for t in self.tournaments.values() if t.standings is not None]

    def tournaments_run_here(self) -> list[Tournament]:
        """The tournaments paired here (with `play`): the cache's table makes only those."""
        only = getattr(self.tournaments, "with_play", None)
        return only() if only is not None else [t for t in self.tournaments.values() if t.play is not None]

    @property
    def matches(self) -> Matches:
        """The match columns, for reading every row: an unsaved tail appended to columns mapped
        from the cache (columns.Appended) is joined to them first, once."""
        m = self._kept
        if m.loose:
            m.solid()
        return m

    @property
    def _kept(self) -> Matches:
        """The match columns as they are kept (a cached journal's mapped from its file on first use)."""
        if self._load_matches is not None:
            load, self._load_matches = self._load_matches, None
            self._matches = load()
        return self._matches

    def matches_for(self, rows: int) -> Matches:
        """The match columns for reading `rows` of them (0: only appending): as kept where that is
        a few of many (a resumed replay, a writer's new match), else as `matches` gives them."""
        return self._kept if 64 * rows < self.match_count() else self.matches

    def line_of(self, i: int) -> int | None:
        """The journal line of match i (None for one added in memory, stored as -1)."""
        line = self._kept.line[i]
        return None if line < 0 else line

    def match_count(self) -> int:
        return self._cached_count if self._load_matches is not None else len(self._matches)

    @property
    def match_index(self) -> dict[str, int]:
        """Match id → index; built on first use (a million ids take a third of a second)."""
        if self._match_index is None:
            ids = self._kept.ids
            self._match_index = dict(zip(ids, range(len(ids))))
        return self._match_index

    def has_match_id(self, match_id: str) -> bool:
        # A scan (in C) beats building the index for a few questions: of a list up to the fourth (the index costs about eight), of
        # ids in one blob (cached, or read by [fast]: a byte search, a few ms) up to BLOB_SCANS, then their set (TOML after CSV asks per match).
        if self._id_set is not None:
            return match_id in self._id_set
        if self._match_index is None:
            self._scans += 1
            if isinstance(ids := self._kept.ids, IdColumn):
                if self._scans <= BLOB_SCANS:
                    return match_id in ids
                self._id_set = ids.as_set()   # (kept as matches are read in: reader.add_match)
                return match_id in self._id_set
            if self._scans <= 4:
                return match_id in ids
        return match_id in self.match_index

    def checkpoint(self) -> tuple[Any, ...]:
        """What a failed bulk read may have added to, for rollback()."""
        return (len(self.player_codes), len(self.discipline_codes), len(self.tournament_codes),
                list(self.csv_named), self.next_seq, self.match_count(), self.max_date)

    def rollback(self, checkpoint: tuple[Any, ...]) -> None:
        players, disciplines, tournaments, named, seq, matches, max_date = checkpoint
        m = self._kept
        for name in ("ids", "dates", "a", "b", "score_a", "length", "discipline", "tournament", "rated",
                     "forfeit", "seq", "source", "line"):
            del getattr(m, name)[matches:]
        for i in [i for i in m.extra if i >= matches]:
            del m.extra[i]
        self._match_index = self._id_set = self._sorted = None  # rebuilt when next needed
        self.max_date = max_date
        self.player_codes.truncate(players)
        self.discipline_codes.truncate(disciplines)
        self.tournament_codes.truncate(tournaments)
        for name in list(self.csv_named)[len(named):]:
            del self.csv_named[name]
        self.next_seq = seq

    def take_seq(self) -> int:
        self.next_seq += 1
        return self.next_seq

    def match(self, i: int) -> MatchView:
        m = self._kept
        extra = m.extra.get(i, {})
        t = m.tournament[i]
        return MatchView(
            index=i, id=m.ids[i], date=date.fromordinal(m.dates[i]),
            a=self.player_codes.names[m.a[i]], b=self.player_codes.names[m.b[i]],
            score_a=m.score_a[i], length=m.length[i],
            discipline=self.discipline_codes.names[m.discipline[i]],
            tournament=self.tournament_codes.names[t] if t >= 0 else None,
            rated=bool(m.rated[i]), forfeit=bool(m.forfeit[i]),
            score=extra.get("score"), chips=extra.get("chips"), note=extra.get("note"),
            file=self.files[m.source[i]], line=self.line_of(i), amends=extra.get("amends"), round=extra.get("round"),
        )

    def dates_sorted(self) -> bool:
        """Are all matches in date order? Rows are only appended: only those since the last answer are checked."""
        dates, known = self.matches.dates, self._sorted
        if known is None or known[0] != len(dates):
            before = known if known is not None and known[0] < len(dates) else (0, True)   # (rows judged, in order?)
            start = max(before[0] - 1, 0)   # from the last row judged on; an order broken among them stays broken
            known = self._sorted = (len(dates), before[1] and all(map(int.__le__, dates[start:], dates[start + 1:])))
        return known[1]

    def match_by_id(self, match_id: str, day: date | None = None) -> MatchView | None:
        """The match of this id; given its `day`, first among that day's rows by bisection (a hit is it: ids are unique)."""
        ids = self._kept.ids
        if day is not None:
            dates, at = self.matches.dates, day.toordinal()
            first = bisect_left(dates, at)
            found = [ids[k] for k in range(first, bisect_right(dates, at, lo=first))]
            if match_id in found:
                return self.match(first + found.index(match_id))
        return None if (i := self.match_row(match_id)) is None else self.match(i)

    def match_row(self, match_id: str) -> int | None:
        """The row of this id, or None. Cached ids: a byte search for a few questions (as has_match_id)."""
        if isinstance(ids := self._kept.ids, IdColumn) and self._match_index is None and self._scans < BLOB_SCANS:
            self._scans += 1
            return ids.row_of(match_id)
        return self.match_index.get(match_id)

    def disciplines(self) -> list[str]:
        """Disciplines that have at least one match, tournament or adjustment."""
        return list(self.discipline_codes.names)

    def player_name(self, player: str, public: bool = False) -> str:
        shown: Callable[[str, bool], str] | None = getattr(self.players, "display_name", None)  # the cache's: no Player made
        if shown is not None:
            return shown(player, public)
        p = self.players.get(player)
        if p is None:
            return player
        return p.public_name() if public else p.name

    def player_names(self, players: list[str], public: bool = False) -> list[str]:
        """player_name of each (the cache's table answers for all at once)."""
        shown: Callable[[list[str], bool], list[str]] | None = getattr(self.players, "display_names", None)
        if shown is not None:
            return shown(players, public)
        return [self.player_name(player, public) for player in players]

    def exclusion(self, i: int) -> str | None:
        """Why match i is rated by no list at all, or None."""
        if i in self.voided:
            return "voided"
        m = self._kept
        if m.forfeit[i]:
            return "forfeit"
        if not m.rated[i]:
            return "unrated"
        return None

    def chips(self, i: int) -> float:
        """The chips match i moves: its `chips`, else the winner's points of its `score`, else its `length`."""
        m = self._kept
        extra = m.extra.get(i)
        if extra:
            chips = extra.get("chips")
            if chips is not None:
                return float(chips)
            score = extra.get("score")
            if score is not None and m.score_a[i] != 0.5:
                return float(score[0] if m.score_a[i] == 1.0 else score[1])
        return float(m.length[i])

    def exclusions(self, rows: Sized) -> Collection[int]:
        """The rows exclusion() gives a reason for, as excluded_rows() has them; for a few `rows`
        of a big journal (a replay resumed over appended matches) asked row by row, not all found."""
        if 64 * len(rows) >= self.match_count():
            return self.excluded_rows()
        return Exclusions(self)

    def excluded_between(self, low: int, high: int) -> set[int]:
        """excluded_rows() of matches low … high - 1 only (their columns' stretches read in C)."""
        m = self._kept
        return excluded_in(self.voided, stretch(m.forfeit, low, high), stretch(m.rated, low, high), low)

    def excluded_rows(self) -> set[int]:
        """Every match for which exclusion() gives a reason, found column by column (in C), not row by row."""
        m = self.matches
        return excluded_in(self.voided, m.forfeit, m.rated, 0)
