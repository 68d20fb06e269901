"""A tournament's state as plain typed data: entrants, rounds with boards, results and byes.

The pairing systems, the tie-breaks, the standings and the crosstable all read this one
shape; nothing here knows the journal or the command line (replay builds it from the
journal's [[tournament]], [[round]], [[match]], [[join]] and [[withdraw]] entries).

Results are written from white's side: "1-0", "0-1", "1/2-1/2" for games played over
the board, "+-" and "-+" for a forfeit won by white or black (the colours are nominal),
"--" for a double forfeit. A round's byes carry their kind; a player of the event who
has neither a board nor a bye in a round was not paired (not yet entered, or gone).
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import field, replace
from datetime import date

from ..datarecords import datarecord
from ..i18n import N_, _
from .names import BYE_KINDS

PLAYED = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}
FORFEITS = {"+-": (1.0, 0.0), "-+": (0.0, 1.0), "--": (0.0, 0.0)}
RESULTS = {**PLAYED, **FORFEITS}

PAIRING_ALLOCATED, HALF_POINT, FULL_POINT, ABSENT, WITHDRAWN = (
    "pairing-allocated", "half-point", "full-point", "absent", "withdrawn")
UNPAIRED = "unpaired"   # a cell's kind where a player had no board and no bye (not entered yet)
ROUND_ROBIN_PAIRINGS = ("berger", "double-berger")

BYE_WORDS = {PAIRING_ALLOCATED: N_("pairing-allocated bye"), HALF_POINT: N_("half-point bye"),
             FULL_POINT: N_("full-point bye"), ABSENT: N_("absent"), WITHDRAWN: N_("withdrawn")}


@datarecord(frozen=True, slots=True)
class Entrant:
    """A player of the event: pairing number, id, name, rating on the start list."""
    number: int
    player: str
    name: str
    rating: float | None = None
    joined: int = 1                 # the first round the player can be paired in (a late entry: > 1)
    withdrawn: int | None = None    # the first round the player is no longer paired in

    def active_in(self, round_no: int) -> bool:
        return self.joined <= round_no and (self.withdrawn is None or round_no < self.withdrawn)


@datarecord(frozen=True, slots=True)
class Board:
    """One board of a round: its number, white, black, and the result from white's side."""
    board: int
    white: str
    black: str
    result: str | None = None       # a key of RESULTS; None while it is not entered

    def points(self) -> tuple[float, float]:
        """(white's, black's) points; raises KeyError while the result is missing."""
        return RESULTS[self.result or ""]

    @property
    def played(self) -> bool:
        return self.result in PLAYED


@datarecord(frozen=True, slots=True)
class Bye:
    """A player's bye in a round, and its kind."""
    player: str
    kind: str                       # one of BYE_KINDS


@datarecord(frozen=True, slots=True)
class Round:
    """One round of a tournament: its number, boards, byes and date."""
    number: int
    boards: tuple[Board, ...] = ()
    byes: tuple[Bye, ...] = ()
    date: date | None = None

    def missing(self) -> list[Board]:
        """The boards whose result is not entered yet."""
        return [b for b in self.boards if b.result is None]

    def board_of(self, player: str) -> Board | None:
        return next((b for b in self.boards if player in (b.white, b.black)), None)


@datarecord(frozen=True, slots=True)
class Cell:
    """One player's round as the tie-breaks and the crosstable see it."""
    round: int
    kind: str                       # "game", "forfeit", a bye kind, or UNPAIRED
    points: float
    opponent: str | None = None
    colour: str | None = None       # "w" or "b" (nominal for a forfeit); None for a bye

    @property
    def played(self) -> bool:
        return self.kind == "game"

    @property
    def voluntary(self) -> bool:
        """A voluntarily unplayed round (FIDE C.07 (2023) Art. 16: requested byes, absences,
        forfeit losses, rounds after a withdrawal); a pairing-allocated or full-point bye and
        a forfeit win are unplayed but not voluntary."""
        if self.kind == "forfeit":
            return self.points == 0
        return self.kind in (HALF_POINT, ABSENT, WITHDRAWN, UNPAIRED)


@datarecord(frozen=True)
class Tournament:
    """A tournament's state: its rules, entrants and rounds so far (the cells computed once, when asked)."""
    id: str
    name: str = ""
    pairing: str | None = None      # one of PAIRINGS, or None: recorded, not paired here
    rounds_planned: int | None = None
    entrants: tuple[Entrant, ...] = ()
    rounds: tuple[Round, ...] = ()
    forbidden: frozenset[frozenset[str]] = frozenset()
    bye_points: float = 1.0
    max_losses: int | None = None
    tiebreaks: tuple[str, ...] | None = None
    system: str = "swiss"           # the [[tournament]] system: swiss, round-robin, knockout, match
    start: date | None = None
    end: date | None = None
    _cells: dict[str, list[Cell]] | None = field(default=None, repr=False, compare=False)

    @property
    def round_robin(self) -> bool:
        """Pre-determined pairings (FIDE C.07 (2023) treats their unplayed games differently)."""
        return self.pairing in ROUND_ROBIN_PAIRINGS or self.pairing is None and self.system == "round-robin"

    def entrant(self, player: str) -> Entrant | None:
        return next((e for e in self.entrants if e.player == player), None)

    def by_number(self) -> dict[int, Entrant]:
        return {e.number: e for e in self.entrants}

    def upto(self, rounds: int) -> Tournament:
        """The state after the first `rounds` rounds (standings --after-round)."""
        return replace(self, rounds=self.rounds[:rounds], _cells=None)

    def with_round(self, played: Round) -> Tournament:
        return replace(self, rounds=self.rounds + (played,), _cells=None)

    def bye_value(self, kind: str) -> float:
        return {PAIRING_ALLOCATED: self.bye_points, FULL_POINT: 1.0, HALF_POINT: 0.5}.get(kind, 0.0)

    def cells(self) -> dict[str, list[Cell]]:
        """Every entrant's rounds, one Cell per round of the state (computed once)."""
        if self._cells is not None:
            return self._cells
        found: dict[str, list[Cell]] = {e.player: [] for e in self.entrants}
        for r in self.rounds:
            seen: set[str] = set()
            for b in r.boards:
                for me, other, colour, side in ((b.white, b.black, "w", 0), (b.black, b.white, "b", 1)):
                    if me not in found:
                        continue
                    seen.add(me)
                    if b.result is None:
                        found[me].append(Cell(r.number, "game", 0.0, other, colour))
                    else:
                        kind = "game" if b.played else "forfeit"
                        found[me].append(Cell(r.number, kind, b.points()[side], other, colour))
            for bye in r.byes:
                if bye.player in found and bye.player not in seen:
                    seen.add(bye.player)
                    found[bye.player].append(Cell(r.number, bye.kind, self.bye_value(bye.kind)))
            for e in self.entrants:
                if e.player not in seen:
                    kind = WITHDRAWN if e.withdrawn is not None and r.number >= e.withdrawn else UNPAIRED
                    found[e.player].append(Cell(r.number, kind, 0.0))
        object.__setattr__(self, "_cells", found)
        return found

    def points(self, player: str) -> float:
        return sum(c.points for c in self.cells()[player])

    def played_pairs(self) -> set[frozenset[str]]:
        """Every pair that has met over the board (forfeits are no game: C.04.1 b)."""
        return {frozenset((b.white, b.black)) for r in self.rounds for b in r.boards if b.played}

    def paired_pairs(self) -> set[frozenset[str]]:
        """Every pair that was paired, forfeits included."""
        return {frozenset((b.white, b.black)) for r in self.rounds for b in r.boards}

    def losses(self, player: str) -> int:
        """Games and forfeits lost (the `losses` system counts them)."""
        return sum(1 for c in self.cells()[player] if c.kind in ("game", "forfeit") and c.points == 0)


def problems(state: Tournament) -> Iterator[tuple[int | None, str]]:
    """What is inconsistent in a state, as (round or None, message): a player twice in a round,
    a board or bye of someone not entered, a round out of order, an unknown result or bye kind."""
    known = {e.player for e in state.entrants}
    numbers = [e.number for e in state.entrants]
    if sorted(numbers) != list(range(1, len(numbers) + 1)):
        yield None, _("the pairing numbers are not 1 to {n}").format(n=len(numbers))
    for k, r in enumerate(state.rounds, start=1):
        if r.number != k:
            yield r.number, _("round {round} follows round {before}; rounds are numbered 1, 2, 3, …").format(
                round=r.number, before=k - 1)
        placed: set[str] = set()
        for player in _players_of(r):
            if player not in known:
                yield r.number, _("'{player}' is not an entrant of the tournament").format(player=player)
            elif player in placed:
                yield r.number, _("'{player}' is paired or given a bye twice in round {round}").format(
                    player=player, round=r.number)
            placed.add(player)
        for b in r.boards:
            if b.white == b.black:
                yield r.number, _("board {board} pairs '{player}' against themself").format(board=b.board, player=b.white)
            if b.result is not None and b.result not in RESULTS:
                yield r.number, _("board {board}: {result!r} is not a result").format(board=b.board, result=b.result)
        for bye in r.byes:
            if bye.kind not in BYE_KINDS:
                yield r.number, _("'{kind}' is not a kind of bye; the kinds are {kinds}").format(
                    kind=bye.kind, kinds=", ".join(BYE_KINDS))


def _players_of(r: Round) -> Iterable[str]:
    for b in r.boards:
        yield b.white
        yield b.black
    for bye in r.byes:
        yield bye.player
